/**
 * Cassettes for AI SDK language models: `recordingLanguageModel` records any provider's
 * `doGenerate` results and `doStream` parts, `cassette` picks record or replay as
 * `@understudy/agents/testing`'s does, and the replay behind `ScriptedLanguageModel.fromCassette`.
 * The engine owns the document, redaction and matching (src/doubles/cassette.rs).
 */
import type { LanguageModelV3, LanguageModelV4 } from '@ai-sdk/provider';
import { callDoubles, encodeValue } from '../engine/channel.js';
import { describeValue, expectKnownOptions } from '../engine/args.js';
import { logRequest, logToolCallParts, registerLoggedModel } from './assertions.js';
import { Recording, cassettePlan, errorOutcome, readCassette, recordedAdvice, toError } from './cassette.js';
import type { Cassette, RedactionOptions, ReplayOptions } from './cassette-format.js';
import { modelError, modelResponder, modelStream } from './language-model-steps.js';
import type { RecordedLanguageModelCall, ScriptedLanguageModelInput } from './language-model-steps.js';
import {
  RAW,
  STREAMED,
  ScriptedLanguageModel,
  apiCallError,
  installLanguageCassetteReplay,
  type LanguageModelCallOptions,
} from './scripted-language-model.js';

/** A language model as this module reads one: the provider-level interface, by its shape. */
export interface LanguageModelLike {
  readonly specificationVersion: string;
  readonly provider: string;
  readonly modelId: string;
  readonly supportedUrls?: unknown;
  doGenerate(options: any): PromiseLike<any>;
  doStream(options: any): PromiseLike<any>;
}

/**
 * The AI SDK interface a model of type `M` implements, by its `specificationVersion`: what a
 * cassette or a recording of it is, so it goes wherever the SDK takes a `LanguageModel`.
 */
export type LanguageModelOf<M> = M extends { readonly specificationVersion: 'v4' } ? LanguageModelV4 : M extends { readonly specificationVersion: 'v3' } ? LanguageModelV3 : LanguageModelLike;

/**
 * Options of `ScriptedLanguageModel.fromCassette`: the replay's (`match`, `strictTools`) and the
 * model it reports, by default the one the cassette names (`provider`, `modelId`,
 * `specificationVersion`; a cassette that names none: `understudy`, `scripted`, `v3`).
 */
export interface LanguageModelReplayOptions extends ReplayOptions {
  specificationVersion?: 'v3' | 'v4';
  provider?: string;
  modelId?: string;
}

/** Options of {@link recordingLanguageModel}: the redaction of `recordingModel`, and a file. */
export interface LanguageModelRecordingOptions extends RedactionOptions {
  /** Node: save the cassette to this file after every call. */
  path?: string;
}

/** Options of {@link cassette} and `ScriptedLanguageModel.fromCassette`. */
export interface LanguageModelCassetteOptions extends RedactionOptions, ReplayOptions {
  /** Folder of cassette files (default `cassettes`, relative to the working directory). */
  dir?: string;
  /** `true` records, `false` replays, whatever the environment says. */
  record?: boolean;
}

const LANGUAGE_CASSETTE_OPTIONS: readonly (keyof LanguageModelCassetteOptions & string)[] = ['dir', 'record', 'redactKeys', 'redact', 'allowSecrets', 'match', 'strictTools'];

/**
 * A call's options as a cassette stores them: without the signal (runtime state) — the engine
 * normalizes the rest (key order, values JSON cannot carry) and redacts it.
 */
function storedRequest(options: LanguageModelCallOptions | RecordedLanguageModelCall['options']): string {
  const { abortSignal: _signal, ...rest } = (options ?? {}) as LanguageModelCallOptions;
  return encodeValue(rest);
}

/**
 * A `doGenerate` result as a cassette stores it: what the SDK reads of it. The raw HTTP request
 * and response bodies and headers are left out (they repeat the prompt and answer and carry
 * provider headers); the timestamp is kept as its ISO text.
 */
function storedResult(result: any): unknown {
  const { request: _request, response, ...rest } = result ?? {};
  if (response === undefined) return rest;
  const { body: _body, headers: _headers, ...kept } = response;
  return { ...rest, response: kept };
}

/** `Date`s back where the SDK expects them (`response.timestamp`, a `response-metadata` part's). */
function revived<T>(value: T): T {
  const v = value as { timestamp?: unknown; response?: { timestamp?: unknown } };
  if (typeof v?.timestamp === 'string') return { ...value, timestamp: new Date(v.timestamp) };
  if (typeof v?.response?.timestamp === 'string') return { ...value, response: { ...v.response, timestamp: new Date(v.response.timestamp) } };
  return value;
}

/**
 * A language model that forwards every call to `realModel` and records it: `doGenerate`'s
 * options and result, `doStream`'s options and every stream part (a stream the consumer
 * stops early is recorded as far as it went), a failure as a `RecordedError` (replayed as an
 * `APICallError` with the recorded status, verdict and delay, so the SDK retries it). Redaction and
 * the save-time credential check are `recordingModel`'s.
 */
export class RecordingLanguageModel {
  readonly #real: LanguageModelLike;
  readonly #recording: Recording;

  constructor(realModel: LanguageModelLike, options: LanguageModelRecordingOptions = {}) {
    options = expectKnownOptions('recordingLanguageModel', options, ['redactKeys', 'redact', 'allowSecrets', 'path']);
    if (typeof realModel?.doGenerate !== 'function' || typeof realModel?.doStream !== 'function') {
      throw new TypeError(`recordingLanguageModel: realModel must be a language model (with doGenerate and doStream), got ${describeValue(realModel)}.`);
    }
    this.#real = realModel;
    this.#recording = new Recording(options, 1);
    // The cassette names the model, so a replay reports it as the live run did.
    this.#recording.setModel(realModel.provider, realModel.modelId, realModel.specificationVersion);
    registerLoggedModel(this);
  }

  get specificationVersion(): string {
    return this.#real.specificationVersion;
  }
  get provider(): string {
    return this.#real.provider;
  }
  get modelId(): string {
    return this.#real.modelId;
  }
  get supportedUrls(): unknown {
    return this.#real.supportedUrls;
  }

  /** The number of calls recorded so far. */
  get recordedSteps(): number {
    return this.#recording.steps;
  }

  async doGenerate(options: LanguageModelCallOptions): Promise<any> {
    const request = storedRequest(options);
    logRequest(this, options);
    const result = await this.#recording.call(request, false, () => this.#real.doGenerate(options), (r) => `{"response":${encodeValue(storedResult(r))}}`);
    logToolCallParts(this, result?.content);
    return result;
  }

  async doStream(options: LanguageModelCallOptions): Promise<any> {
    const request = storedRequest(options);
    logRequest(this, options);
    // The call is recorded when its stream ends (or fails to start).
    let result: any;
    try {
      result = await this.#real.doStream(options);
    } catch (error) {
      this.#recording.record(request, true, errorOutcome(error));
      throw error;
    }
    const parts: unknown[] = [];
    let done = false;
    const finish = (outcome: string) => {
      if (done) return;
      done = true;
      this.#recording.record(request, true, outcome);
    };
    const stream = (result.stream as ReadableStream<any>).pipeThrough(
      new TransformStream<any, any>({
        transform: (part, controller) => {
          parts.push(part?.type === 'error' ? { type: 'error', error: JSON.parse(errorOutcome(part.error)).error } : part);
          if (part?.type === 'tool-call') logToolCallParts(this, [part]);
          controller.enqueue(part);
        },
        flush: () => finish(`{"events":${encodeValue(parts)}}`),
        cancel: () => finish(`{"events":${encodeValue(parts)}}`),
      } as Transformer<any, any>),
    );
    return { ...result, stream };
  }

  /**
   * The cassette recorded so far.
   *
   * @throws {InvalidCassetteError} reason `credential`: a string still looks like a credential.
   */
  toScript(): Cassette {
    return this.#recording.toScript();
  }

  /** Node: writes the cassette to `path` (only when it changed). */
  save(path: string): void {
    this.#recording.save(path);
  }
}

/** Wraps a real language model (`openai('gpt-5-mini')`, `anthropic(…)`, …) so its calls can be saved as a cassette. */
export function recordingLanguageModel<M extends LanguageModelLike>(realModel: M, options?: LanguageModelRecordingOptions): RecordingLanguageModel & LanguageModelOf<M> {
  return new RecordingLanguageModel(realModel, options) as RecordingLanguageModel & LanguageModelOf<M>;
}

type ReplayStep = { kind: 'response' | 'stream' | 'error'; response?: any; events?: unknown[]; error?: { name: string; message: string } };

/** A recorded result replayed as it was (with its `Date`s back). */
function rawStep(step: ReplayStep): ScriptedLanguageModelInput {
  if (step.kind === 'error') return modelError(toError(step.error), recordedAdvice(step.error));
  if (step.kind === 'stream') return modelStream((step.events ?? []).map(revived) as never);
  return modelResponder(Object.assign(() => revived(step.response), { [RAW]: true }) as never);
}

/**
 * A scripted language model replaying a cassette (a file path in Node, or a cassette object):
 * recorded calls in order, or with `match: 'request'` the unused call whose stored options
 * equal the live call's (`CassetteMismatchError` names the first differing field).
 */
function replayLanguageCassette(source: string | Cassette, options: LanguageModelReplayOptions = {}): ScriptedLanguageModel {
  options = expectKnownOptions('ScriptedLanguageModel.fromCassette', options, ['match', 'strictTools', 'specificationVersion', 'provider', 'modelId']);
  const byRequest = callDoubles((e) => e.cassetteMatchesByRequest(options.match));
  const replay = callDoubles((e) => new e.CassetteReplay(readCassette(source, 'ScriptedLanguageModel.fromCassette'), 1));
  // The model the cassette names, unless the options say otherwise (a `v2` model replays as `v3`).
  const named = replay.model();
  const recorded = named === undefined ? undefined : (JSON.parse(named) as { provider: string; modelId: string; specificationVersion: string });
  const settings = {
    strictTools: options.strictTools,
    specificationVersion: options.specificationVersion ?? (recorded?.specificationVersion === 'v4' ? 'v4' : 'v3'),
    provider: options.provider ?? recorded?.provider,
    modelId: options.modelId ?? recorded?.modelId,
  };
  const steps = JSON.parse(replay.steps()) as ReplayStep[];
  if (!byRequest) {
    replay.free();
    return new ScriptedLanguageModel(steps.map(rawStep), settings);
  }
  const pick = (call: RecordedLanguageModelCall): ReplayStep => steps[callDoubles(() => replay.pick(storedRequest(call.options), call.index))];
  const responders = Array.from({ length: replay.stepCount }, () =>
    modelResponder(
      Object.assign(
        async (call: RecordedLanguageModelCall) => {
          const step = pick(call);
          // As in order: the SDK's APICallError with the recorded status and advice, so it retries.
          if (step.kind === 'error') throw await apiCallError(toError(step.error), recordedAdvice(step.error));
          return step.kind === 'stream' ? { [STREAMED]: (step.events ?? []).map(revived) } : revived(step.response);
        },
        { [RAW]: true },
      ) as never,
    ),
  );
  return new ScriptedLanguageModel(responders, settings);
}

/**
 * A language model for a test, backed by `<dir>/<name>.cassette.json`, in the modes of
 * `@understudy/agents/testing`'s `cassette` (`UNDERSTUDY_CASSETTES`: `auto` replays an existing
 * cassette and records a missing one, except under `CI`, where a missing one is a
 * `CassetteMissingError`; `record`; `replay`; `off`). `realModel` is called only when the real
 * model is used.
 *
 * @throws {CassetteMissingError} the cassette is missing and may not be recorded.
 */
export function cassette<M extends LanguageModelLike>(name: string, realModel: () => M, options?: LanguageModelCassetteOptions): LanguageModelOf<M>;
/** The same, named after the running test (node:test, or vitest with `@understudy/agents/vitest`). */
export function cassette<M extends LanguageModelLike>(realModel: () => M, options?: LanguageModelCassetteOptions): LanguageModelOf<M>;
export function cassette(first: string | (() => LanguageModelLike), second?: (() => LanguageModelLike) | LanguageModelCassetteOptions, third?: LanguageModelCassetteOptions): LanguageModelLike {
  const { plan, path, realModel, options } = cassettePlan<LanguageModelLike, LanguageModelCassetteOptions>(first, second, third, LANGUAGE_CASSETTE_OPTIONS);
  if (plan === 'off') return realModel();
  if (plan === 'record') return recordingLanguageModel(realModel(), { redactKeys: options.redactKeys, redact: options.redact, allowSecrets: options.allowSecrets, path });
  return replayLanguageCassette(path, { match: options.match, strictTools: options.strictTools });
}

installLanguageCassetteReplay(replayLanguageCassette);
