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
import { callDoubles, doublesInputText as input, encodeValue } from '../engine/channel.js';
import { checkProviderCode } from '../schema/providers.js';
import type { SchemaProviderName } from '../engine/codes.js';
import { describeValue, expectKnownOptions } from '../engine/args.js';
import { frozenSnapshot } from '../engine/snapshot.js';
import { aiSdkProvider } from '../engine/host.js';
import { logOutput, logRequest, logToolCallParts, registerLoggedModel } from './assertions.js';
import { UserError } from '../engine/errors.js';
import { checkTools, scriptedSteps, strictProviders } from './scripted-model.js';
import type { Cassette, ReplayOptions } from './cassette-format.js';
import type { RecordedLanguageModelCall, ScriptedLanguageModelInput, ScriptedLanguageModelRetryAdvice } from './language-model-steps.js';
import type { LanguageModelV3CallOptions, LanguageModelV4CallOptions } from '@ai-sdk/provider';

/** @internal A responder that replays a recorded result as it was (no scripted-response conversion). */
export const RAW = Symbol('understudy.recorded-result');
/** @internal A recorded stream's parts, as a by-request responder answers them. */
export const STREAMED = Symbol('understudy.recorded-stream');

/** The call options a language model receives (`@ai-sdk/provider`'s `LanguageModelV3CallOptions`). */
export type LanguageModelCallOptions = LanguageModelV3CallOptions;
/** What `doGenerate` / `doStream` take: either interface version's options. */
type AnyCallOptions = LanguageModelV3CallOptions | LanguageModelV4CallOptions;

export type { RecordedLanguageModelCall, ScriptedLanguageModelInput } from './language-model-steps.js';

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
  strictTools?: boolean | SchemaProviderName | readonly SchemaProviderName[];
  /**
   * A scripted call to a tool the call did not offer (a misspelled name, a tool `activeTools`
   * left out) fails the call with `InvalidScriptedModelStepError` naming the offered tools, as
   * the SDK would otherwise record a `NoSuchToolError` inside the step and go on. `true` lets
   * such a call through, to test how an app handles a model that names an unknown tool.
   */
  allowUnofferedTools?: boolean;
  /** Characters per streamed delta of text, reasoning and tool input (default 12; a positive integer). */
  deltaSize?: number;
  /** Milliseconds before each stream part (default 0), as `simulateReadableStream`'s `chunkDelayInMs`. */
  chunkDelayInMs?: number;
}

type Handle = import('../../wasm/node/understudy_doubles.js').ModelScript;
type PreparedStep = { type: string; response?: unknown; error?: unknown; retryAdvice?: ScriptedLanguageModelRetryAdvice; respond?: (call: RecordedLanguageModelCall) => unknown; events?: Iterable<unknown> | AsyncIterable<unknown> };
type Result = { content: unknown[]; finishReason: unknown; usage: unknown; response?: { id?: string }; warnings: unknown[] };

/**
 * The steps of `inputs`, checked as the classification and the AI SDK double's answer rules
 * say (every part of an answer has an AI SDK form, a text is a string, usage keys are known):
 * the answers cross once, as one JSON text.
 */
export function languageModelSteps(inputs: unknown[], surface: 1 | 2 = 1): [steps: object[], plan: string] {
  // Usage is the AI SDK's or `@openai/agents`' shape as written: any object is a usage.
  const [steps, plan] = scriptedSteps(inputs, Object, surface);
  // The answers as given (the copy keeps only the usage counts it knows, and an unknown key is
  // what the check refuses): `r` the input is the answer, `R` its `response` is.
  const answers: unknown[] = [];
  const indexes: number[] = [];
  for (let i = 0; i < plan.length; i++) {
    if (plan[i] !== 'r' && plan[i] !== 'R') continue;
    answers.push(plan[i] === 'r' ? inputs[i] : (inputs[i] as { response: unknown }).response);
    indexes.push(i);
  }
  if (answers.length > 0) {
    const text = JSON.stringify(answers);
    callDoubles((e) => e.aiSdkCheckAnswers(input(text), Uint32Array.from(indexes), surface));
  }
  return [steps, plan];
}

/** The replay behind `ScriptedLanguageModel.fromCassette`, installed by `language-model-cassette.ts`. */
let replayCassette: ((source: string | Cassette, options?: ReplayOptions & { specificationVersion?: 'v3' | 'v4'; provider?: string; modelId?: string }) => ScriptedLanguageModel<'v3' | 'v4'>) | undefined;

/**
 * @internal Installs `ScriptedLanguageModel.fromCassette`'s replay: the cassette module imports
 * this one, so this one cannot import it back.
 */
export function installLanguageCassetteReplay(replay: NonNullable<typeof replayCassette>): void {
  replayCassette = replay;
}

/** The abort checkpoint: the SDK's abort error (`name` `'AbortError'`), built by the engine. */
function checkpoint(signal: AbortSignal | undefined, callIndex?: number): void {
  if (signal?.aborted) callDoubles((e) => e.modelAborted(callIndex));
}

/**
 * `work` (a responder's answer), or the abort error as soon as `signal` aborts while it is
 * pending: a call does not wait for a responder the caller has given up on.
 */
function untilAborted<T>(work: T | PromiseLike<T>, signal: AbortSignal | undefined, callIndex: number): Promise<T> {
  if (signal === undefined || typeof (work as PromiseLike<T> | undefined)?.then !== 'function') return Promise.resolve(work);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => {
      try {
        checkpoint(signal, callIndex);
      } catch (error) {
        reject(error);
      }
    };
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    const done = () => signal.removeEventListener('abort', onAbort);
    (work as PromiseLike<T>).then(
      (value) => (done(), resolve(value)),
      (error) => (done(), reject(error)),
    );
  });
}

/** A call as kept until it is read: the options the SDK passed, the signal's state then. */
interface CallRecord {
  index: number;
  streamed: boolean;
  given: AnyCallOptions;
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
async function adviceFor(step: PreparedStep, options: AnyCallOptions, stream: boolean, attempt: number): Promise<ScriptedLanguageModelRetryAdvice | undefined> {
  const advice = step.retryAdvice;
  if (typeof advice !== 'function') return advice;
  return (await advice({ error: step.error, request: options as never, stream, attempt })) ?? undefined;
}

/** @internal The codes on an error's `cause` chain (`code` of each), a few levels down: what the engine reads a network failure by. */
export function causeCodes(error: unknown): string[] {
  const codes: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 8 && typeof current === 'object' && current !== null; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') codes.push(code);
    current = (current as { cause?: unknown }).cause;
  }
  return codes;
}

/**
 * @internal The error a `modelError` step throws: the scripted error itself when it is already
 * an AI SDK error, else an `APICallError` whose `statusCode`, `isRetryable` and
 * `responseHeaders` the engine derives from the error's status (or, without one, whether it is
 * a network failure the SDK retries) and the step's retry advice, so the SDK's own retries run;
 * the scripted error is its `cause`. Where `@ai-sdk/provider` loads (Node), it is that
 * package's own class, so `instanceof APICallError` holds; elsewhere a look-alike the SDK
 * recognises by its marker.
 */
export async function apiCallError(error: unknown, advice: ScriptedLanguageModelRetryAdvice | undefined): Promise<unknown> {
  const marked = (e: unknown) => typeof e === 'object' && e !== null && (e as Record<symbol, unknown>)[Symbol.for('vercel.ai.error')] === true;
  if (marked(error)) return error;
  const given = (typeof error === 'object' && error !== null ? error : {}) as { status?: unknown; statusCode?: unknown; message?: unknown; name?: unknown };
  const status = given.status ?? given.statusCode;
  const message = typeof given.message === 'string' ? given.message : String(error);
  const facts = JSON.stringify({
    status: typeof status === 'number' ? status : undefined,
    advice: typeof advice === 'object' ? advice : undefined,
    name: typeof given.name === 'string' ? given.name : undefined,
    message,
    codes: causeCodes(error),
  });
  const fields = JSON.parse(callDoubles((e) => e.aiSdkApiCallError(input(facts))));
  const init = { message, cause: error, url: 'scripted://understudy', requestBodyValues: {}, ...fields, statusCode: fields.statusCode ?? undefined };
  const sdk = await aiSdkProvider();
  if (typeof sdk?.APICallError === 'function') return new sdk.APICallError(init);
  const out = new Error(message, { cause: error });
  Object.defineProperties(out, {
    name: { value: 'AI_APICallError', writable: true, configurable: true },
    [Symbol.for('vercel.ai.error')]: { value: true },
    [Symbol.for('vercel.ai.error.AI_APICallError')]: { value: true },
  });
  return Object.assign(out, { url: init.url, requestBodyValues: init.requestBodyValues, ...fields });
}

/** The parts of an answer as a stream, one per pull, ended by an abort of `signal`. */
function streamOf(parts: unknown[], signal: AbortSignal | undefined, callIndex: number, delay = 0): ReadableStream<unknown> {
  let next = 0;
  const step = (controller: ReadableStreamDefaultController<unknown>) => {
    try {
      checkpoint(signal, callIndex);
    } catch (error) {
      return controller.error(error);
    }
    if (next < parts.length) controller.enqueue(parts[next++]);
    else controller.close();
  };
  return new ReadableStream<unknown>({
    pull(controller) {
      if (delay > 0 && next < parts.length) return wait(delay).then(() => step(controller));
      step(controller);
    },
  });
}

/** A promise settled after `ms` milliseconds. */
function wait(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** A scripted iterable of parts (`modelStream`) as a stream, ended by an abort of `signal`. */
function streamFrom(parts: Iterable<unknown> | AsyncIterable<unknown>, signal: AbortSignal | undefined, callIndex: number, delay = 0): ReadableStream<unknown> {
  const iterator = (async function* () {
    yield* parts as AsyncIterable<unknown>;
  })();
  return new ReadableStream<unknown>({
    async pull(controller) {
      try {
        if (delay > 0) await wait(delay);
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
export class ScriptedLanguageModel<V extends 'v3' | 'v4' = 'v3' | 'v4'> {
  /** `'v3'` (default) or `'v4'`, as `options.specificationVersion` says. */
  readonly specificationVersion: V;
  readonly provider: string;
  readonly modelId: string;
  readonly supportedUrls: Record<string, RegExp[]> = {};
  readonly #script: Handle;
  readonly #records: CallRecord[] = [];
  readonly #strictTools: readonly SchemaProviderName[];
  readonly #allowUnoffered: boolean;
  readonly #deltaSize: number | undefined;
  readonly #chunkDelayInMs: number;

  constructor(inputs: Iterable<ScriptedLanguageModelInput> = [], options?: ScriptedLanguageModelOptions & { specificationVersion?: V }) {
    const {
      specificationVersion = 'v3',
      provider = 'understudy',
      modelId = 'scripted',
      strictTools,
      allowUnofferedTools = false,
      deltaSize,
      chunkDelayInMs = 0,
    } = expectKnownOptions('scriptedLanguageModel', options, ['specificationVersion', 'provider', 'modelId', 'strictTools', 'allowUnofferedTools', 'deltaSize', 'chunkDelayInMs']);
    if (deltaSize !== undefined && !(Number.isInteger(deltaSize) && deltaSize > 0 && deltaSize <= 0xffffffff)) {
      throw new TypeError(`scriptedLanguageModel: options.deltaSize must be a positive integer, got ${describeValue(deltaSize)}.`);
    }
    if (!(typeof chunkDelayInMs === 'number' && chunkDelayInMs >= 0 && Number.isFinite(chunkDelayInMs))) {
      throw new TypeError(`scriptedLanguageModel: options.chunkDelayInMs must be a non-negative number, got ${describeValue(chunkDelayInMs)}.`);
    }
    this.#deltaSize = deltaSize;
    this.#chunkDelayInMs = chunkDelayInMs;
    if (typeof allowUnofferedTools !== 'boolean') throw new TypeError(`scriptedLanguageModel: options.allowUnofferedTools must be a boolean, got ${describeValue(allowUnofferedTools)}.`);
    this.#allowUnoffered = allowUnofferedTools;
    if (specificationVersion !== 'v3' && specificationVersion !== 'v4') {
      throw new TypeError(`scriptedLanguageModel: options.specificationVersion must be 'v3' or 'v4', got ${typeof specificationVersion === 'string' ? JSON.stringify(specificationVersion) : describeValue(specificationVersion)}.`);
    }
    for (const [name, value] of [['provider', provider], ['modelId', modelId]] as const) {
      if (typeof value !== 'string') throw new TypeError(`scriptedLanguageModel: options.${name} must be a string, got ${describeValue(value)}.`);
    }
    this.specificationVersion = specificationVersion as V;
    this.provider = provider;
    this.modelId = modelId;
    this.#strictTools = strictProviders(strictTools, 'scriptedLanguageModel');
    for (const code of this.#strictTools) checkProviderCode(code, 'strictTools');
    registerLoggedModel(this);
    if (typeof (inputs as { [Symbol.iterator]?: unknown } | null)?.[Symbol.iterator] !== 'function') {
      throw new TypeError(`scriptedLanguageModel: steps must be an iterable of steps, got ${describeValue(inputs)}.`);
    }
    const [steps, plan] = languageModelSteps(Array.from(inputs));
    this.#script = callDoubles((e) => new e.ModelScript(1));
    callDoubles(() => this.#script.enqueue(steps, plan));
  }

  /**
   * A model replaying a cassette of `recordingLanguageModel` or `cassette` (a file path in Node,
   * or a cassette object): recorded calls in order (default), or with `match: 'request'` the
   * unused call whose stored options equal the live call's (`CassetteMismatchError` names the
   * first differing field).
   */
  static fromCassette(source: string | Cassette, options?: ReplayOptions & { specificationVersion?: 'v3' | 'v4'; provider?: string; modelId?: string }): ScriptedLanguageModel {
    if (replayCassette === undefined) throw new Error('@understudy/agents: the language-model cassettes are not loaded (a facade error).');
    return replayCassette(source, options) as ScriptedLanguageModel;
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
    const [steps, plan] = languageModelSteps(inputs);
    callDoubles(() => this.#script.enqueue(steps, plan));
  }

  /** Throws `UnconsumedModelStepsError` when steps remain. */
  assertComplete(): void {
    callDoubles(() => this.#script.assertComplete());
  }

  async doGenerate(options: AnyCallOptions): Promise<any> {
    const signal = options?.abortSignal;
    checkpoint(signal);
    const { call, step } = this.#begin(options, false);
    if (step.type === 'error') throw await apiCallError(step.error, await adviceFor(step, options, false, call.failedInRow));
    const response = step.type === 'responder' ? await untilAborted(step.respond!(recorded(call)), signal, call.index) : step.response;
    checkpoint(signal, call.index);
    if (step.respond !== undefined && RAW in step.respond) {
      const recordedResult = response as Record<PropertyKey, unknown>;
      if (STREAMED in recordedResult) throw new UserError(`scriptedLanguageModel: call #${call.index + 1} was recorded streamed; replay it with streamText (doStream).`);
      logToolCallParts(this, recordedResult.content);
      return recordedResult;
    }
    return this.#answer(response, call, step.type === 'responder', false);
  }

  async doStream(options: AnyCallOptions): Promise<any> {
    const signal = options?.abortSignal;
    checkpoint(signal);
    const { call, step } = this.#begin(options, true);
    if (step.type === 'error') throw await apiCallError(step.error, await adviceFor(step, options, true, call.failedInRow));
    let parts: Iterable<unknown> | AsyncIterable<unknown>;
    if (step.type === 'stream' || step.type === 'stream_responder') {
      // The SDK's own stream parts, passed on as scripted.
      parts = step.type === 'stream' ? step.events! : ((await untilAborted(step.respond!(recorded(call)), signal, call.index)) as Iterable<unknown>);
      if (step.type === 'stream_responder') callDoubles((e) => e.checkResponderStream(parts, call.index, 1));
    } else {
      const response = step.type === 'responder' ? await untilAborted(step.respond!(recorded(call)), signal, call.index) : step.response;
      checkpoint(signal, call.index);
      if (step.respond !== undefined && RAW in step.respond) {
        // A recorded stream as it came; a recorded result streamed as the engine writes one.
        const recordedResult = response as Record<PropertyKey, unknown>;
        parts = STREAMED in recordedResult ? (recordedResult[STREAMED] as unknown[]) : JSON.parse(callDoubles((e) => e.aiSdkResultParts(input(encodeValue(recordedResult)))));
        logToolCallParts(this, parts);
      } else {
        parts = this.#answer(response, call, step.type === 'responder', true);
      }
    }
    const delay = this.#chunkDelayInMs;
    return { stream: Array.isArray(parts) ? streamOf(parts, signal, call.index, delay) : streamFrom(parts, signal, call.index, delay) };
  }

  /** Records the call (before its step is taken, as `ScriptedModel` does), then takes the step. */
  #begin(options: AnyCallOptions, streamed: boolean): { call: CallRecord; step: PreparedStep } {
    const call: CallRecord = { index: this.#records.length, streamed, given: options, aborted: options?.abortSignal === undefined ? undefined : options.abortSignal.aborted === true, failedInRow: 0 };
    const before = this.#records[this.#records.length - 1];
    this.#records.push(call);
    logRequest(this, options);
    if (this.#strictTools.length > 0) this.#checkTools(options);
    const step = callDoubles(() => this.#script.take(streamed)) as PreparedStep;
    if (step.type === 'error') call.failedInRow = (before?.failedInRow ?? 0) + 1;
    return { call, step };
  }

  #checkTools(options: AnyCallOptions): void {
    const tools = (Array.isArray(options.tools) ? options.tools : []).filter((tool) => tool?.type === 'function');
    const format = options.responseFormat as { type?: string; schema?: unknown } | undefined;
    checkTools(
      tools.map((tool) => ({ name: String(tool.name), parameters: tool.inputSchema, strict: typeof (tool as { strict?: unknown }).strict === 'boolean' ? (tool as { strict: boolean }).strict : undefined })),
      format?.type === 'json' ? format.schema : undefined,
      this.#strictTools,
    );
  }

  /**
   * `response` as `doGenerate`'s result, or `doStream`'s parts with `streamed`: checked first
   * when a responder made it (a scripted one was checked when queued), its tool calls logged.
   */
  #answer(response: unknown, call: CallRecord, made: boolean, streamed: boolean): any {
    if (made) callDoubles((e) => e.checkLanguageModelResponse(response, call.index));
    logOutput(this, Array.isArray(response) ? response : (response as { output?: unknown }).output);
    const text = JSON.stringify(response);
    // The names of the call's tools, when a call to another one is refused.
    const offered = this.#allowUnoffered ? undefined : (Array.isArray(call.given?.tools) ? call.given.tools : []).map((tool) => String((tool as { name?: unknown })?.name));
    if (streamed) return JSON.parse(callDoubles((e) => e.aiSdkStreamParts(input(text), call.index, offered, this.#deltaSize)));
    const result: Result = JSON.parse(callDoubles((e) => e.aiSdkGenerate(input(text), call.index, offered)));
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
export function scriptedLanguageModel<V extends 'v3' | 'v4' = 'v3'>(steps: Iterable<ScriptedLanguageModelInput> = [], options?: ScriptedLanguageModelOptions & { specificationVersion?: V }): ScriptedLanguageModel<V> {
  return new ScriptedLanguageModel(steps, options);
}
