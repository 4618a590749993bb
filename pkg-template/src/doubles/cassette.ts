/**
 * Record and replay ("cassettes"): record a real model run once, replay it in CI with no
 * network and no key.
 *
 * The engine owns the cassette format, request normalization, redaction, hashing, matching and
 * mismatch diffs. This module forwards calls to the real model, reads and writes files (Node)
 * and turns cassette steps into `ScriptedModel` steps. In a browser, pass cassette objects.
 */
import { nodeBuiltin } from '../engine/host.js';
import { peers } from '../engine/peers.js';
import type { Model, ModelRequest, ModelResponse, ModelRetryAdvice, ModelRetryAdviceRequest, StreamEvent } from '@openai/agents-core';
import { describeValue, expectKnownOptions, expectString } from '../engine/args.js';
import { callDoubles, encodeValue, isUnencodable } from '../engine/channel.js';
import { UserError, fromEngine } from '../engine/errors.js';
import { logOutput, logRequest, registerLoggedModel } from './assertions.js';
import { takeCassetteSlot } from './test-names.js';
import { ScriptedModel, installCassetteReplay, modelError, modelResponder, modelStream, type ScriptedModelInput } from './scripted-model.js';
import {
  CASSETTES_ENV,
  RECORD_ENV,
  type Cassette,
  type CassetteStep,
  type RecordedError,
  type RedactionOptions,
  type ReplayOptions,
} from './cassette-format.js';

export type { InvalidCassetteReason } from '../engine/codes.js';
export type { Cassette, CassetteStep, RecordedError, ReplayOptions } from './cassette-format.js';

export { RECORD_ENV, CASSETTES_ENV } from './cassette-format.js';
export type { RedactionOptions } from './cassette-format.js';

/** Options of {@link recordingModel}. */
export interface RecordingOptions extends RedactionOptions {
  /** Node: save the cassette to this file after every call. */
  path?: string;
}

/** Options of {@link cassette}. */
export interface CassetteOptions extends RedactionOptions, ReplayOptions {
  /** Folder of cassette files (default `cassettes`, relative to the working directory). */
  dir?: string;
  /** `true` records, `false` replays, whatever the environment says (default: the mode of `UNDERSTUDY_CASSETTES`). */
  record?: boolean;
}

const CASSETTE_OPTIONS: readonly (keyof CassetteOptions)[] = ['dir', 'record', 'redactKeys', 'redact', 'allowSecrets', 'match', 'strictTools'];

export { InvalidCassetteError, CassetteMissingError, CassetteMismatchError } from '../engine/errors.js';

type Recorder = import('../../wasm/node/understudy_doubles.js').CassetteRecorder;
type Replay = import('../../wasm/node/understudy_doubles.js').CassetteReplay;

/** Node's `fs`, when there is one. */
function nodeFs(): typeof import('node:fs') | undefined {
  return nodeBuiltin<typeof import('node:fs')>('node:fs');
}

function requireFs(what: string): typeof import('node:fs') {
  const fs = nodeFs();
  if (!fs) throw new UserError(`${what} needs Node's file system; in a browser, pass cassette objects instead of paths.`);
  return fs;
}

function patterns(options: RedactionOptions): string[] {
  const redact = options.redact ?? [];
  if (redact === 'pii') return callDoubles((e) => e.cassettePiiPatterns()) as string[];
  if (!Array.isArray(redact)) throw new TypeError(`recordingModel: options.redact must be an array of patterns or 'pii', got ${describeValue(redact)}.`);
  return redact.map(patternText);
}

function allowed(options: RedactionOptions): string[] {
  const allow = options.allowSecrets ?? [];
  if (!Array.isArray(allow)) throw new TypeError(`recordingModel: options.allowSecrets must be an array of patterns, got ${describeValue(allow)}.`);
  return allow.map(patternText);
}

/** A pattern as the cassette stores it (a `RegExp` through the engine's encoding of its flags). */
function patternText(p: string | RegExp): string {
  return typeof p === 'string' ? p : callDoubles((e) => e.cassettePatternText(p.source, p.flags));
}

/** @internal A failure as a cassette records it: its name and message, and what a retry reads ({@link RecordedError}). */
export function errorOutcome(error: unknown): string {
  const e = error as { name?: unknown; message?: unknown; status?: unknown; statusCode?: unknown; isRetryable?: unknown; responseHeaders?: unknown } | null;
  const name = typeof e?.name === 'string' ? e.name : 'Error';
  const message = typeof e?.message === 'string' ? e.message : String(error);
  // What a retry reads, as the error carries it (the engine keeps what has its type): an AI
  // SDK APICallError's statusCode, isRetryable and retry-after-ms header, an HTTP error's status.
  const headers = e?.responseHeaders as Record<string, unknown> | undefined;
  const after = typeof headers === 'object' && headers !== null ? headers['retry-after-ms'] : undefined;
  return JSON.stringify({ error: { name, message, status: e?.statusCode ?? e?.status, retryable: e?.isRetryable, retryAfterMs: typeof after === 'string' ? Number(after) : undefined } });
}

/**
 * A `Model` that forwards every call to `realModel` and records the normalized request and
 * response (streamed calls as their event sequence, failures as a {@link RecordedError}).
 */
export class RecordingModel implements Model {
  readonly #real: Model;
  readonly #recording: Recording;

  constructor(realModel: Model, options: RecordingOptions = {}) {
    options = expectKnownOptions('recordingModel', options, ['redactKeys', 'redact', 'allowSecrets', 'path']);
    this.#real = realModel;
    this.#recording = new Recording(options, 0);
    registerLoggedModel(this);
  }

  /** The number of calls recorded so far. */
  get recordedSteps(): number {
    return this.#recording.steps;
  }

  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    const text = encodeValue(request);
    logRequest(this, request);
    const response = await this.#recording.call(text, false, () => this.#real.getResponse(request), (r) => `{"response":${encodeValue(r)}}`);
    logOutput(this, response?.output);
    return response;
  }

  async *getStreamedResponse(request: ModelRequest): AsyncIterable<StreamEvent> {
    const text = encodeValue(request);
    const events: StreamEvent[] = [];
    logRequest(this, request);
    let failed = false;
    try {
      for await (const event of this.#real.getStreamedResponse(request)) {
        events.push(event);
        if ((event as { type?: unknown })?.type === 'response_done') logOutput(this, (event as { response?: { output?: unknown } }).response?.output);
        yield event;
      }
    } catch (error) {
      failed = true;
      this.#recording.record(text, true, errorOutcome(error));
      throw error;
    } finally {
      // Also when the consumer stops early: a stream without its response_done event is
      // recorded as an incomplete stream, never dropped.
      if (!failed) this.#recording.record(text, true, `{"events":${encodeValue(events)}}`);
    }
  }

  async getRetryAdvice(request: ModelRetryAdviceRequest): Promise<ModelRetryAdvice | undefined> {
    const real = this.#real as Model & { getRetryAdvice?: (r: ModelRetryAdviceRequest) => Promise<ModelRetryAdvice | undefined> };
    return typeof real.getRetryAdvice === 'function' ? real.getRetryAdvice(request) : undefined;
  }

  /**
   * The cassette recorded so far.
   *
   * @throws {InvalidCassetteError} reason `credential`: a string still looks like a credential
   * (its `pointer` and rule in the message); allow a value you mean to keep with `allowSecrets`.
   */
  toScript(): Cassette {
    return this.#recording.toScript();
  }

  /**
   * Node: writes the cassette (pretty JSON) to `path`, creating its folder.
   *
   * @throws {InvalidCassetteError} reason `credential`, as {@link toScript}: nothing is written.
   */
  save(path: string): void {
    this.#recording.save(path);
  }
}

/**
 * @internal What a recording model keeps (`recordingModel`, `recordingLanguageModel`): the
 * engine's recorder, with `options`' redaction, and the file saved after every call.
 */
export class Recording {
  readonly #recorder: Recorder;
  readonly #path: string | undefined;

  /** `interfaceCode`: 0 an `@openai/agents` `Model`, 1 an AI SDK language model, 2 HTTP. */
  constructor(options: RecordingOptions, interfaceCode: 0 | 1 | 2) {
    this.#recorder = callDoubles((e) => new e.CassetteRecorder(options.redactKeys ?? [], patterns(options), allowed(options), interfaceCode));
    this.#path = options.path;
  }

  get steps(): number {
    return this.#recorder.stepCount;
  }

  /** The language model being recorded, which the cassette names (`"model"`). */
  setModel(provider: unknown, modelId: unknown, specificationVersion: unknown): void {
    this.#recorder.setModel(provider, modelId, specificationVersion);
  }

  /** Records one call: `outcome` of its result, or its failure, which is thrown again. */
  async call<T>(request: string, streamed: boolean, run: () => PromiseLike<T>, outcome: (result: T) => string): Promise<T> {
    let result: T;
    try {
      result = await run();
    } catch (error) {
      this.record(request, streamed, errorOutcome(error));
      throw error;
    }
    this.record(request, streamed, outcome(result));
    return result;
  }

  record(request: string, streamed: boolean, outcome: string): void {
    callDoubles(() => this.#recorder.record(request, streamed, outcome));
    if (this.#path !== undefined) this.save(this.#path);
  }

  toScript(): Cassette {
    return JSON.parse(callDoubles(() => this.#recorder.toJson())) as Cassette;
  }

  /** Node: writes the cassette (pretty JSON) to `path`, creating its folder, only when it changed. */
  save(path: string): void {
    const fs = requireFs('Saving a cassette');
    const text = `${callDoubles(() => this.#recorder.toJson())}\n`;
    const slash = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\'));
    if (slash > 0) fs.mkdirSync(path.slice(0, slash), { recursive: true });
    // Rewritten only when its content changes: no churn in version control.
    if (fs.existsSync(path) && fs.readFileSync(path, 'utf8') === text) return;
    fs.writeFileSync(path, text);
  }
}

/** Wraps a real model so its run can be saved as a cassette. */
export function recordingModel(realModel: Model, options: RecordingOptions = {}): RecordingModel {
  return new RecordingModel(realModel, options);
}

type ReplayStep = {
  kind: 'response' | 'stream' | 'error';
  response?: Record<string, unknown> & { usage?: unknown };
  events?: StreamEvent[];
  error?: RecordedError;
};

function toResponse(response: ReplayStep['response']): ModelResponse {
  const { usage, ...rest } = response ?? {};
  const { Usage } = peers();
  return { ...rest, usage: new Usage(usage as ConstructorParameters<typeof Usage>[0]) } as ModelResponse;
}

/** @internal A recorded failure replayed: an `Error` with its name, message and HTTP `status`. */
export function toError(error: ReplayStep['error']): Error {
  const e = new Error(error?.message ?? '');
  if (error?.name && error.name !== 'Error') e.name = error.name;
  if (error?.status !== undefined) Object.assign(e, { status: error.status });
  return e;
}

/** @internal The retry advice of a recorded failure (the provider's verdict and delay), if it had any. */
export function recordedAdvice(error: ReplayStep['error']): { suggested?: boolean; retryAfterMs?: number } | undefined {
  if (error?.retryable === undefined && error?.retryAfterMs === undefined) return undefined;
  return { suggested: error.retryable, retryAfterMs: error.retryAfterMs };
}

function toInput(step: ReplayStep): ScriptedModelInput {
  switch (step.kind) {
    case 'error':
      return modelError(toError(step.error));
    case 'stream':
      return modelStream(step.events ?? []);
    default:
      return toResponse(step.response);
  }
}

/** @internal A cassette's text, from an object or (Node) a file; `surface` names the caller in a message. */
export function readCassette(source: string | Cassette, surface = 'ScriptedModel.fromCassette'): string {
  if (typeof source === 'object' && source !== null) {
    try {
      return JSON.stringify(source);
    } catch (thrown) {
      if (isUnencodable(thrown)) {
        throw fromEngine(callDoubles((e) => e.cassetteUnencodableError()));
      }
      throw thrown;
    }
  }
  expectString(surface, 'source (a cassette object or the path of its file)', source);
  const fs = requireFs('Reading a cassette file');
  if (!fs.existsSync(source)) throw fromEngine(callDoubles((e) => e.cassetteMissingError(source)));
  return fs.readFileSync(source, 'utf8');
}

/** @internal `ScriptedModel.fromCassette`. */
export function replayCassette(source: string | Cassette, options: ReplayOptions = {}): ScriptedModel {
  options = expectKnownOptions('ScriptedModel.fromCassette', options, ['match', 'strictTools']);
  const byRequest = callDoubles((e) => e.cassetteMatchesByRequest(options.match));
  const replay: Replay = callDoubles((e) => new e.CassetteReplay(readCassette(source), 0));
  if (!byRequest) {
    const steps = JSON.parse(replay.steps()) as ReplayStep[];
    replay.free();
    return new ScriptedModel(steps.map(toInput), { strictTools: options.strictTools });
  }
  const responders = Array.from({ length: replay.stepCount }, () =>
    modelResponder((call) => {
      const index = callDoubles(() => replay.pick(encodeValue(call.request), call.index));
      const step = JSON.parse(replay.step(index)) as ReplayStep;
      if (step.kind === 'error') throw toError(step.error);
      return toResponse(step.response);
    }),
  );
  return new ScriptedModel(responders, { strictTools: options.strictTools });
}

installCassetteReplay(replayCassette);

/**
 * A model for a test, backed by `<dir>/<name>.cassette.json`. The mode comes from
 * `UNDERSTUDY_CASSETTES`: `auto` (the default) replays the cassette when it exists and records
 * it when it is missing, except when `CI` is set, where a missing cassette is a
 * `CassetteMissingError` and nothing is written; `record` calls the real model and rewrites the
 * cassette; `replay` never calls the real model; `off` calls the real model and records nothing.
 * `UNDERSTUDY_RECORD=1` still means `record`; the `record` option overrides them all. The factory
 * `realModel` is called only when the real model is used. A cassette file is rewritten only when
 * its content changes.
 *
 * @throws {CassetteMissingError} the cassette is missing and may not be recorded.
 * @throws {UserError} an unknown `UNDERSTUDY_CASSETTES` mode.
 */
export function cassette(name: string, realModel: () => Model, options?: CassetteOptions): Model;
/**
 * The same, named after the running test (node:test under `node --test`, or vitest with
 * `@understudy/agents/vitest` in `setupFiles`): the cassette lives next to the test file, in
 * `__cassettes__/<test file name>/<full test name>.cassette.json`; a second cassette in one test
 * gets `-2`, a third `-3`. `options.dir` is ignored here.
 *
 * @throws {TypeError} no test is running.
 */
export function cassette(realModel: () => Model, options?: CassetteOptions): Model;
export function cassette(first: string | (() => Model), second?: (() => Model) | CassetteOptions, third?: CassetteOptions): Model {
  const { plan, path, realModel, options } = cassettePlan<Model, CassetteOptions>(first, second, third, CASSETTE_OPTIONS);
  if (plan === 'off') return realModel();
  if (plan === 'record') return recordingModel(realModel(), { redactKeys: options.redactKeys, redact: options.redact, allowSecrets: options.allowSecrets, path });
  return replayCassette(path, { match: options.match, strictTools: options.strictTools });
}

/**
 * @internal What a `cassette(…)` call does (this one's and the AI SDK entry's): its arguments
 * checked (a name, or the running test's), the file, and the engine's plan for it under the
 * environment (`off`, `record` or `replay`).
 */
export function cassettePlan<M, O extends CassetteOptions>(
  first: string | (() => M),
  second: (() => M) | O | undefined,
  third: O | undefined,
  known: readonly (keyof O & string)[],
): { plan: 'off' | 'record' | 'replay'; path: string; realModel: () => M; options: O } {
  const named = typeof first !== 'function';
  const realModel = (named ? second : first) as () => M;
  const options = expectKnownOptions('cassette', (named ? third : second) as O | undefined, known);
  let path: string;
  if (named) {
    expectString('cassette', 'name', first);
    if (typeof realModel !== 'function') throw new TypeError(`cassette: realModel must be a function that makes the real model, got ${describeValue(realModel)}.`);
    if (options.dir != null) expectString('cassette', 'options.dir', options.dir);
    path = callDoubles((e) => e.cassettePath(options.dir, first));
  } else {
    const slot = takeCassetteSlot();
    if (slot === undefined) {
      throw new TypeError('cassette: without a name it must run inside a node:test test (under `node --test`) or a vitest test (with @understudy/agents/vitest in setupFiles); pass a name otherwise.');
    }
    path = callDoubles((e) => e.testCassettePath(slot.test.file, slot.test.fullName, slot.index));
  }
  if (options.record !== undefined && typeof options.record !== 'boolean') {
    throw new TypeError(`cassette: options.record must be a boolean, got ${describeValue(options.record)}.`);
  }
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env ?? {};
  const exists = nodeFs()?.existsSync(path) ?? false;
  const plan = callDoubles((e) => e.cassettePlan(env[CASSETTES_ENV], env[RECORD_ENV], env.CI, options.record, exists, path)) as 'off' | 'record' | 'replay';
  return { plan, path, realModel, options };
}
