/**
 * The scripted `LanguageModel` for the AI SDK (`generateText`, `streamText`, `Output`, tool
 * loops, `wrapLanguageModel`), scripted with the same step builders as `ScriptedModel`, its
 * recording wrapper and its cassettes. It needs neither `ai` nor `@openai/agents` at run time:
 * the model is the provider-level interface (`LanguageModelV3` or `LanguageModelV4`), typed here
 * by its shape.
 *
 * The engine owns the script (the step queue, the checks of each step, the call records) and
 * what a step becomes for the SDK (content parts, stream parts, finish reason, usage, the fields
 * of the `APICallError` a scripted error becomes); this module adapts it: promises, a
 * `ReadableStream`, the abort signal, the error object.
 */
import { call as engine, encodeValue, input } from '../engine/channel.js';
import { checkProviderCode } from '../schema/providers.js';
import type { SchemaProvider } from '../engine/codes.js';
import { describeValue, expectKnownOptions } from '../engine/args.js';
import { frozenSnapshot } from '../engine/snapshot.js';
import { logOutput, logRequest, registerLoggedModel } from './assertions.js';
import { UserError } from '../engine/errors.js';
import {
  checkTools,
  modelError,
  modelResponder,
  modelStream,
  scriptedSteps,
  strictProviders,
  type ScriptedModelInput,
  type ScriptedModelRetryAdvice,
} from './scripted-model.js';
import { Recording, cassettePlan, errorOutcome, readCassette, recordedAdvice, toError, type RedactionOptions } from './cassette.js';
import type { Cassette, ReplayOptions } from './cassette-format.js';

/** A responder that replays a recorded result as it was (no scripted-response conversion). */
const RAW = Symbol('understudy.recorded-result');
/** A recorded stream's parts, as a by-request responder answers them. */
const STREAMED = Symbol('understudy.recorded-stream');

/** A reasoning item for a script: a `reasoning` content part (`doGenerate`) or reasoning deltas (`doStream`). */
export function reasoning(text: string): { type: 'reasoning'; content: [{ type: 'input_text'; text: string }] } {
  if (typeof text !== 'string') throw new TypeError(`reasoning: text must be a string, got ${describeValue(text)}.`);
  return { type: 'reasoning', content: [{ type: 'input_text', text }] };
}

/** The call options a language model receives, by the fields this double reads and records. */
export interface LanguageModelCallOptions {
  prompt?: unknown;
  tools?: readonly { type?: string; name?: string; inputSchema?: unknown; [key: string]: unknown }[];
  toolChoice?: unknown;
  responseFormat?: unknown;
  providerOptions?: unknown;
  headers?: unknown;
  abortSignal?: AbortSignal;
  [key: string]: unknown;
}

/** One call the model received: a frozen snapshot of its options (`abortSignal` as `{ aborted }`, its state when the call began). */
export type RecordedLanguageModelCall = Readonly<{
  /** The zero-based position of this call in `calls`. */
  index: number;
  /** `doStream` (true) or `doGenerate` (false). */
  streamed: boolean;
  /** The options, snapshotted when the call began; the signal's `aborted` state at that time. */
  options: Readonly<Omit<LanguageModelCallOptions, 'abortSignal'> & { abortSignal?: { aborted: boolean } }>;
}>;

/** A step or a response, as `ScriptedModel` takes them; `modelStream` steps hold the SDK's stream parts. */
export type ScriptedLanguageModelInput = ScriptedModelInput;

/** Options of {@link scriptedLanguageModel}. Unknown keys are refused. */
export interface ScriptedLanguageModelOptions {
  /** The interface version the model declares: `'v3'` (default; `ai` 6 and 7) or `'v4'` (`ai` 7). */
  specificationVersion?: 'v3' | 'v4';
  /** `provider` of the model (default `'understudy'`). */
  provider?: string;
  /** `modelId` of the model (default `'scripted'`). */
  modelId?: string;
  /**
   * Every call's function tools must carry an `inputSchema` the provider accepts as sent, as
   * `ScriptedModel`'s `strictTools` checks: `true` (OpenAI strict mode), a provider or several;
   * otherwise the call fails with `StrictSchemaError` naming the tool (it is recorded, no step is
   * taken).
   */
  strictTools?: boolean | SchemaProvider | readonly SchemaProvider[];
}

type Handle = import('../../wasm/node/understudy.js').ModelScript;
type PreparedStep = { type: string; response?: unknown; error?: unknown; retryAdvice?: ScriptedModelRetryAdvice; respond?: (call: RecordedLanguageModelCall) => unknown; events?: Iterable<unknown> | AsyncIterable<unknown> };
type Result = { content: unknown[]; finishReason: unknown; usage: unknown; response?: { id?: string }; warnings: unknown[] };

/** The abort checkpoint: the SDK's abort error (`name` `'AbortError'`), built by the engine. */
function checkpoint(signal: AbortSignal | undefined, callIndex?: number): void {
  if (signal?.aborted) engine((e) => e.modelAborted(callIndex));
}

/** A call as kept until it is read: the options the SDK passed, the signal's state then. */
interface CallRecord {
  index: number;
  streamed: boolean;
  given: LanguageModelCallOptions;
  aborted: boolean | undefined;
  /** Calls in a row, this one included, whose step was an error (0 for any other step). */
  failedInRow: number;
  snapshot?: RecordedLanguageModelCall;
}

/**
 * A call's record as `calls` shows it: a frozen copy of its options (the doubles' snapshot
 * rule), made when first read and kept. The SDK builds fresh options for every call (a prompt
 * that grows with the history) and does not change them afterwards, so copying them at the
 * first read records what the call received without a copy per call of a long tool loop.
 */
function recorded(record: CallRecord): RecordedLanguageModelCall {
  if (record.snapshot === undefined) {
    const { abortSignal: _signal, ...rest } = record.given ?? {};
    const state = record.aborted === undefined ? {} : { abortSignal: { aborted: record.aborted } };
    const options = frozenSnapshot({ ...rest, ...state }) as RecordedLanguageModelCall['options'];
    record.snapshot = Object.freeze({ index: record.index, streamed: record.streamed, options });
  }
  return record.snapshot;
}

/**
 * An error step's retry advice: as scripted, or what a function given as advice answers when
 * called with `{ error, request, stream, attempt }` (`request` being the call's options,
 * `attempt` the number of calls in a row that failed, this one included).
 */
async function adviceFor(step: PreparedStep, options: LanguageModelCallOptions, stream: boolean, attempt: number): Promise<ScriptedModelRetryAdvice | undefined> {
  const advice = step.retryAdvice;
  if (typeof advice !== 'function') return advice;
  return (await advice({ error: step.error, request: options as never, stream, attempt })) ?? undefined;
}

/**
 * The error a `modelError` step throws: the scripted error itself when it is already an AI SDK
 * error, else an `APICallError` look-alike (the SDK recognises it by its marker) whose
 * `statusCode`, `isRetryable` and `responseHeaders` the engine derives from the error's status
 * and the step's retry advice, so the SDK's own retries run; the scripted error is its `cause`.
 */
function apiCallError(error: unknown, advice: ScriptedModelRetryAdvice | undefined): unknown {
  const marked = (e: unknown) => typeof e === 'object' && e !== null && (e as Record<symbol, unknown>)[Symbol.for('vercel.ai.error')] === true;
  if (marked(error)) return error;
  const given = (typeof error === 'object' && error !== null ? error : {}) as { status?: unknown; statusCode?: unknown; message?: unknown };
  const status = given.status ?? given.statusCode;
  const facts = JSON.stringify({ status: typeof status === 'number' ? status : undefined, advice: typeof advice === 'object' ? advice : undefined });
  const fields = JSON.parse(engine((e) => e.aiSdkApiCallError(input(facts))));
  const message = typeof given.message === 'string' ? given.message : String(error);
  const out = new Error(message, { cause: error });
  Object.defineProperties(out, {
    name: { value: 'AI_APICallError', writable: true, configurable: true },
    [Symbol.for('vercel.ai.error')]: { value: true },
    [Symbol.for('vercel.ai.error.AI_APICallError')]: { value: true },
  });
  return Object.assign(out, { url: 'scripted://understudy', requestBodyValues: {}, ...fields });
}

/** The parts of an answer as a stream, one per pull, ended by an abort of `signal`. */
function streamOf(parts: unknown[], signal: AbortSignal | undefined, callIndex: number): ReadableStream<unknown> {
  let next = 0;
  return new ReadableStream<unknown>({
    pull(controller) {
      try {
        checkpoint(signal, callIndex);
      } catch (error) {
        return controller.error(error);
      }
      if (next < parts.length) controller.enqueue(parts[next++]);
      else controller.close();
    },
  });
}

/** A scripted iterable of parts (`modelStream`) as a stream, ended by an abort of `signal`. */
function streamFrom(parts: Iterable<unknown> | AsyncIterable<unknown>, signal: AbortSignal | undefined, callIndex: number): ReadableStream<unknown> {
  const iterator = (async function* () {
    yield* parts as AsyncIterable<unknown>;
  })();
  return new ReadableStream<unknown>({
    async pull(controller) {
      try {
        checkpoint(signal, callIndex);
        const next = await iterator.next();
        if (next.done) controller.close();
        else controller.enqueue(next.value);
      } catch (error) {
        controller.error(error);
      }
    },
    async cancel() {
      await iterator.return?.(undefined);
    },
  });
}

/** A scripted `LanguageModelV3` / `LanguageModelV4`: one step per `doGenerate` or `doStream` call. */
export class ScriptedLanguageModel {
  readonly specificationVersion: 'v3' | 'v4';
  readonly provider: string;
  readonly modelId: string;
  readonly supportedUrls: Record<string, RegExp[]> = {};
  readonly #script: Handle;
  readonly #records: CallRecord[] = [];
  readonly #strictTools: readonly SchemaProvider[];

  constructor(inputs: Iterable<ScriptedLanguageModelInput> = [], options?: ScriptedLanguageModelOptions) {
    const { specificationVersion = 'v3', provider = 'understudy', modelId = 'scripted', strictTools } = expectKnownOptions('scriptedLanguageModel', options, ['specificationVersion', 'provider', 'modelId', 'strictTools']);
    if (specificationVersion !== 'v3' && specificationVersion !== 'v4') {
      throw new TypeError(`scriptedLanguageModel: options.specificationVersion must be 'v3' or 'v4', got ${describeValue(specificationVersion)}.`);
    }
    for (const [name, value] of [['provider', provider], ['modelId', modelId]] as const) {
      if (typeof value !== 'string') throw new TypeError(`scriptedLanguageModel: options.${name} must be a string, got ${describeValue(value)}.`);
    }
    this.specificationVersion = specificationVersion;
    this.provider = provider;
    this.modelId = modelId;
    this.#strictTools = strictProviders(strictTools, 'scriptedLanguageModel');
    for (const code of this.#strictTools) checkProviderCode(code, 'strictTools');
    registerLoggedModel(this);
    if (typeof (inputs as { [Symbol.iterator]?: unknown } | null)?.[Symbol.iterator] !== 'function') {
      throw new TypeError(`scriptedLanguageModel: steps must be an iterable of steps, got ${describeValue(inputs)}.`);
    }
    // Usage is the AI SDK's or `@openai/agents`' shape as written: any object is a usage.
    const [steps, plan] = scriptedSteps(Array.from(inputs), Object, true);
    this.#script = engine((e) => new e.ModelScript(true));
    engine(() => this.#script.enqueue(steps, plan));
  }

  /**
   * A model replaying a cassette of `recordingLanguageModel` or `cassette` (a file path in Node,
   * or a cassette object): recorded calls in order (default), or with `match: 'request'` the
   * unused call whose stored options equal the live call's (`CassetteMismatchError` names the
   * first differing field).
   */
  static fromCassette(source: string | Cassette, options?: ReplayOptions & { specificationVersion?: 'v3' | 'v4' }): ScriptedLanguageModel {
    return replayLanguageCassette(source, options);
  }

  /** Every call in order, each a frozen snapshot of its options (copied when first read). */
  get calls(): readonly RecordedLanguageModelCall[] {
    return Object.freeze(this.#records.map(recorded));
  }

  /** The number of scripted steps not yet consumed. */
  get remainingSteps(): number {
    return this.#script.remainingSteps;
  }

  /** Adds steps to the end of the script; one invalid input queues none of them. */
  enqueue(...inputs: ScriptedLanguageModelInput[]): void {
    const [steps, plan] = scriptedSteps(inputs, Object, true);
    engine(() => this.#script.enqueue(steps, plan));
  }

  /** Throws `UnconsumedModelStepsError` when steps remain. */
  assertComplete(): void {
    engine(() => this.#script.assertComplete());
  }

  async doGenerate(options: LanguageModelCallOptions): Promise<any> {
    const signal = options?.abortSignal;
    checkpoint(signal);
    const { call, step } = this.#begin(options, false);
    if (step.type === 'error') throw apiCallError(step.error, await adviceFor(step, options, false, call.failedInRow));
    const response = step.type === 'responder' ? await step.respond!(recorded(call)) : step.response;
    checkpoint(signal, call.index);
    if (step.respond !== undefined && RAW in step.respond) {
      const recordedResult = response as Record<PropertyKey, unknown>;
      if (STREAMED in recordedResult) throw new UserError(`scriptedLanguageModel: call #${call.index + 1} was recorded streamed; replay it with streamText (doStream).`);
      logOutput(this, loggedCalls(recordedResult.content));
      return recordedResult;
    }
    return this.#answer(response, call, step.type === 'responder', false);
  }

  async doStream(options: LanguageModelCallOptions): Promise<any> {
    const signal = options?.abortSignal;
    checkpoint(signal);
    const { call, step } = this.#begin(options, true);
    if (step.type === 'error') throw apiCallError(step.error, await adviceFor(step, options, true, call.failedInRow));
    let parts: Iterable<unknown> | AsyncIterable<unknown>;
    if (step.type === 'stream' || step.type === 'stream_responder') {
      // The SDK's own stream parts, passed on as scripted.
      parts = step.type === 'stream' ? step.events! : ((await step.respond!(recorded(call))) as Iterable<unknown>);
      if (step.type === 'stream_responder') engine((e) => e.checkResponderStream(parts, call.index, true));
    } else {
      const response = step.type === 'responder' ? await step.respond!(recorded(call)) : step.response;
      checkpoint(signal, call.index);
      if (step.respond !== undefined && RAW in step.respond) {
        // A recorded stream as it came; a recorded result streamed as the engine writes one.
        const recordedResult = response as Record<PropertyKey, unknown>;
        parts = STREAMED in recordedResult ? (recordedResult[STREAMED] as unknown[]) : JSON.parse(engine((e) => e.aiSdkResultParts(input(encodeValue(recordedResult)))));
        logOutput(this, loggedCalls(Array.isArray(parts) ? parts : []));
      } else {
        parts = this.#answer(response, call, step.type === 'responder', true);
      }
    }
    return { stream: Array.isArray(parts) ? streamOf(parts, signal, call.index) : streamFrom(parts, signal, call.index) };
  }

  /** Records the call (before its step is taken, as `ScriptedModel` does), then takes the step. */
  #begin(options: LanguageModelCallOptions, streamed: boolean): { call: CallRecord; step: PreparedStep } {
    const call: CallRecord = { index: this.#records.length, streamed, given: options, aborted: options?.abortSignal === undefined ? undefined : options.abortSignal.aborted === true, failedInRow: 0 };
    const before = this.#records[this.#records.length - 1];
    this.#records.push(call);
    logRequest(this, options);
    if (this.#strictTools.length > 0) this.#checkTools(options);
    const step = engine(() => this.#script.take(streamed)) as PreparedStep;
    if (step.type === 'error') call.failedInRow = (before?.failedInRow ?? 0) + 1;
    return { call, step };
  }

  #checkTools(options: LanguageModelCallOptions): void {
    const tools = (Array.isArray(options.tools) ? options.tools : []).filter((tool) => tool?.type === 'function');
    const format = options.responseFormat as { type?: string; schema?: unknown } | undefined;
    checkTools(tools.map((tool) => ({ name: String(tool.name), parameters: tool.inputSchema })), format?.type === 'json' ? format.schema : undefined, this.#strictTools);
  }

  /**
   * `response` as `doGenerate`'s result, or `doStream`'s parts with `streamed`: checked first
   * when a responder made it (a scripted one was checked when queued), its tool calls logged.
   */
  #answer(response: unknown, call: CallRecord, made: boolean, streamed: boolean): any {
    if (made) engine((e) => e.checkLanguageModelResponse(response, call.index));
    logOutput(this, Array.isArray(response) ? response : (response as { output?: unknown }).output);
    const text = JSON.stringify(response);
    if (streamed) return JSON.parse(engine((e) => e.aiSdkStreamParts(input(text), call.index)));
    const result: Result = JSON.parse(engine((e) => e.aiSdkGenerate(input(text), call.index)));
    if (result.response !== undefined) result.response = { ...result.response, modelId: this.modelId } as Result['response'];
    return result;
  }
}

/**
 * A scripted AI SDK language model: each `doGenerate` or `doStream` call takes the next step
 * (`assistantMessage`, `functionCall`, `reasoning` items or a complete response with `usage`,
 * `modelError`, `modelResponder(call => …)`, `modelStream(parts)`). A response becomes the
 * provider's content parts for `generateText` and well-formed stream parts for `streamText`
 * (ids, starts, deltas, ends, tool input in pieces, `finish` with usage), so one script drives
 * both. `calls` records each call's options; `assertComplete()` checks every step was used; the
 * tool assertions (`assertToolCalled`, …) take the model.
 *
 * @throws {TypeError} an option of the wrong type or name.
 * @throws {InvalidScriptedModelStepError} a malformed step (at once).
 */
export function scriptedLanguageModel(steps: Iterable<ScriptedLanguageModelInput> = [], options?: ScriptedLanguageModelOptions): ScriptedLanguageModel {
  return new ScriptedLanguageModel(steps, options);
}

// --- cassettes ----------------------------------------------------------------------------------

/** A language model as this module reads one: the provider-level interface, by its shape. */
export interface LanguageModelLike {
  readonly specificationVersion: string;
  readonly provider: string;
  readonly modelId: string;
  readonly supportedUrls?: unknown;
  doGenerate(options: any): PromiseLike<any>;
  doStream(options: any): PromiseLike<any>;
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

/** An AI SDK result's tool calls as the tool assertions log them. */
function loggedCalls(content: unknown): unknown[] {
  if (!Array.isArray(content)) return [];
  return content.filter((p) => p?.type === 'tool-call').map((p) => ({ type: 'function_call', name: p.toolName, arguments: p.input, callId: p.toolCallId }));
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
    this.#recording = new Recording(options, true);
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
    logOutput(this, loggedCalls(result?.content));
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
          if (part?.type === 'tool-call') logOutput(this, loggedCalls([part]));
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
export function recordingLanguageModel(realModel: LanguageModelLike, options?: LanguageModelRecordingOptions): RecordingLanguageModel {
  return new RecordingLanguageModel(realModel, options);
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
function replayLanguageCassette(source: string | Cassette, options: ReplayOptions & { specificationVersion?: 'v3' | 'v4' } = {}): ScriptedLanguageModel {
  options = expectKnownOptions('ScriptedLanguageModel.fromCassette', options, ['match', 'strictTools', 'specificationVersion']);
  const byRequest = engine((e) => e.cassetteMatchesByRequest(options.match));
  const replay = engine((e) => new e.CassetteReplay(readCassette(source, 'ScriptedLanguageModel.fromCassette'), true));
  const settings = { strictTools: options.strictTools, specificationVersion: options.specificationVersion };
  const steps = JSON.parse(replay.steps()) as ReplayStep[];
  if (!byRequest) {
    replay.free();
    return new ScriptedLanguageModel(steps.map(rawStep), settings);
  }
  const pick = (call: RecordedLanguageModelCall): ReplayStep => steps[engine(() => replay.pick(storedRequest(call.options), call.index))];
  const responders = Array.from({ length: replay.stepCount }, () =>
    modelResponder(
      Object.assign(
        (call: RecordedLanguageModelCall) => {
          const step = pick(call);
          if (step.kind === 'error') throw toError(step.error);
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
export function cassette(name: string, realModel: () => LanguageModelLike, options?: LanguageModelCassetteOptions): LanguageModelLike;
/** The same, named after the running test (node:test, or vitest with `@understudy/agents/vitest`). */
export function cassette(realModel: () => LanguageModelLike, options?: LanguageModelCassetteOptions): LanguageModelLike;
export function cassette(first: string | (() => LanguageModelLike), second?: (() => LanguageModelLike) | LanguageModelCassetteOptions, third?: LanguageModelCassetteOptions): LanguageModelLike {
  const { plan, path, realModel, options } = cassettePlan<LanguageModelLike, LanguageModelCassetteOptions>(first, second, third, LANGUAGE_CASSETTE_OPTIONS);
  if (plan === 'off') return realModel();
  if (plan === 'record') return recordingLanguageModel(realModel(), { redactKeys: options.redactKeys, redact: options.redact, allowSecrets: options.allowSecrets, path });
  return replayLanguageCassette(path, { match: options.match, strictTools: options.strictTools });
}
