/**
 * `ScriptedModel`: a deterministic `Model` that consumes one scripted step per call, a drop-in
 * for the one in `@openai/agents/testing`.
 *
 * The engine owns the script (the step queue, envelope validation, call records, retry advice
 * records, abort checkpoints, response normalization, the automatic stream events and every
 * error with its message and fields). This class adapts it to the SDK's `Model` interface: it
 * awaits responders, iterates user streams and keeps JavaScript's promise order.
 */
import type {
  AssistantMessageItem,
  FunctionCallItem,
  Model,
  ModelRequest,
  ModelResponse,
  ModelRetryAdvice,
  ModelRetryAdviceRequest,
  StreamEvent,
} from '@openai/agents-core';
import { callDoubles } from '../engine/channel.js';
import { checkProviderCode, checkProviderTools, type RequestTool } from '../schema/providers.js';
import type { SchemaProviderName } from '../engine/codes.js';
import { describeValue, expectKnownOptions } from '../engine/args.js';
import { frozenSnapshot, snapshotLike } from '../engine/snapshot.js';
import { prepareModelSteps } from './model-steps.js';
import { logOutput, logRequest, registerLoggedModel } from './assertions.js';
import { peers } from '../engine/peers.js';
import type { Cassette, ReplayOptions } from './cassette-format.js';
import { httpOnlyStep } from './wire-steps.js';
import { InvalidScriptedModelStepError } from './model-errors.js';

export type { InvalidScriptedModelStepReason } from '../engine/codes.js';

/**
 * A complete normalized response or an output-only shorthand.
 *
 * Output-only responses count as one model request and receive a deterministic response ID
 * (`scripted-response-<N>`). Automatic streaming also assigns one when a complete response
 * omits it, because the terminal stream event requires an ID.
 */
export type ScriptedModelResponse = ModelResponse | ModelResponse['output'];

/** One call the model received. */
export type RecordedModelCall = Readonly<{
  /** The zero-based position of this model call in `calls`. */
  index: number;
  /** Whether the runner requested a streamed response. */
  streamed: boolean;
  /**
   * A frozen request snapshot with detached mutable input collections and model settings.
   * Runtime object identities such as the abort signal remain unchanged.
   */
  request: Readonly<ModelRequest>;
}>;

/** Fixed retry advice, or a function of the runner's advice request. */
export type ScriptedModelRetryAdvice =
  | ModelRetryAdvice
  | ((request: ModelRetryAdviceRequest) => ModelRetryAdvice | undefined | Promise<ModelRetryAdvice | undefined>);

type ScriptedModelResponseStep = { type: 'response'; response: ScriptedModelResponse };
type ScriptedModelErrorStep = { type: 'error'; error: unknown; retryAdvice?: ScriptedModelRetryAdvice };
type ScriptedModelResponderStep = {
  type: 'responder';
  respond: (call: RecordedModelCall) => ScriptedModelResponse | Promise<ScriptedModelResponse>;
};
/** Normalized stream events, in order, for a raw stream step. */
export type ScriptedModelStream = Iterable<StreamEvent> | AsyncIterable<StreamEvent>;
type ScriptedModelStreamStep = { type: 'stream'; events: ScriptedModelStream };
type ScriptedModelStreamResponderStep = {
  type: 'stream_responder';
  respond: (call: RecordedModelCall) => ScriptedModelStream | Promise<ScriptedModelStream>;
};
type ScriptedModelStep =
  | ScriptedModelResponseStep
  | ScriptedModelErrorStep
  | ScriptedModelResponderStep
  | ScriptedModelStreamStep
  | ScriptedModelStreamResponderStep;

/** What the constructor and `enqueue()` accept: a step, or a response (shorthand or complete). */
export type ScriptedModelInput = ScriptedModelStep | ScriptedModelResponse;

/** Options of {@link assistantMessage}. */
export type AssistantMessageOptions = {
  id?: string;
  phase?: AssistantMessageItem['phase'];
  providerData?: Record<string, unknown>;
};

/** Options of {@link functionCall}; `callId` is required. */
export type FunctionCallOptions = {
  callId: string;
  id?: string;
  namespace?: string;
  providerData?: Record<string, unknown>;
};

export { UnexpectedModelCallError, UnconsumedModelStepsError, InvalidScriptedModelStepError, ScriptedModelRequestAbortedError } from './model-errors.js';

/** Creates a scripted normalized model response step. */
export function modelResponse(response: ScriptedModelResponse): ScriptedModelResponseStep {
  return { type: 'response', response };
}

/** Creates a scripted model failure step; the runner may ask for `retryAdvice`. */
export function modelError(error: unknown, retryAdvice?: ScriptedModelRetryAdvice): ScriptedModelErrorStep {
  return { type: 'error', error, retryAdvice };
}

/** Creates a response step that derives its output from the recorded call. */
export function modelResponder(respond: ScriptedModelResponderStep['respond']): ScriptedModelResponderStep {
  return { type: 'responder', respond };
}

/** Creates a raw normalized stream step (streamed calls only). */
export function modelStream(events: ScriptedModelStreamStep['events']): ScriptedModelStreamStep {
  return { type: 'stream', events };
}

/** Creates a raw normalized stream derived from the recorded call (streamed calls only). */
export function modelStreamResponder(respond: ScriptedModelStreamResponderStep['respond']): ScriptedModelStreamResponderStep {
  return { type: 'stream_responder', respond };
}

/** Creates a normalized assistant text message. */
export function assistantMessage(text: string, options: AssistantMessageOptions = {}): AssistantMessageItem {
  return {
    type: 'message',
    role: 'assistant',
    status: 'completed',
    ...(typeof options.id === 'undefined' ? {} : { id: options.id }),
    ...(typeof options.phase === 'undefined' ? {} : { phase: options.phase }),
    content: [{ type: 'output_text', text }],
    ...(typeof options.providerData === 'undefined' ? {} : { providerData: options.providerData }),
  } as AssistantMessageItem;
}

/** Creates a normalized function call item; `args` objects are JSON-encoded. */
export function functionCall(name: string, args: string | Record<string, unknown>, options: FunctionCallOptions): FunctionCallItem {
  return {
    type: 'function_call',
    name,
    callId: options.callId,
    id: options.id ?? options.callId,
    namespace: options.namespace,
    status: 'completed',
    arguments: typeof args === 'string' ? args : JSON.stringify(args),
    providerData: options.providerData,
  } as FunctionCallItem;
}

type Handle = import('../../wasm/node/understudy_doubles.js').ModelScript;
type PreparedStep = { type: ScriptedModelStep['type']; response?: unknown; error?: unknown; respond?: (call: RecordedModelCall) => unknown; events?: ScriptedModelStream };

/** The abort checkpoint: the reference reads `signal?.aborted`; the engine builds the error. */
function checkpoint(signal: AbortSignal | undefined, callIndex?: number): void {
  if (signal?.aborted) callDoubles((e) => e.modelAborted(callIndex));
}

/** A fresh frozen copy of a call record, its request snapshotted again. */
function snapshotCall(record: RecordedModelCall): RecordedModelCall {
  return Object.freeze({ index: record.index, streamed: record.streamed, request: frozenSnapshot(record.request) });
}

/** @internal The replay behind `ScriptedModel.fromCassette`, installed by `cassette.ts`. */
let cassetteReplay: ((source: string | Cassette, options?: ReplayOptions) => ScriptedModel) | undefined;

/**
 * @internal Installs `ScriptedModel.fromCassette`'s replay: `cassette.ts` imports this module,
 * so this module does not import it back.
 */
export function installCassetteReplay(replay: (source: string | Cassette, options?: ReplayOptions) => ScriptedModel): void {
  cassetteReplay = replay;
}

/** Options of `new ScriptedModel(steps, options)` (the reference takes none). */
export interface ScriptedModelOptions {
  /**
   * Every request's function tools must carry `parameters` the provider accepts as sent;
   * otherwise the call fails with `StrictSchemaError` naming the tool, with the JSON Pointer into
   * its parameters (the call is recorded, no step is taken). The 400 a provider would answer
   * then fails in a unit test instead of in production. `true` is OpenAI strict mode; a provider
   * (`'openai'`, `'anthropic'`, `'gemini'`) or several check as each would, the request's limits
   * included (Anthropic's 20 strict tools, say). Default `false`: the exact drop-in.
   */
  strictTools?: boolean | SchemaProviderName | readonly SchemaProviderName[];
}

/**
 * @internal The providers a `strictTools` value names (the engine checks each code); `surface`
 * names the constructor in the message.
 */
export function strictProviders(value: unknown, surface: string): SchemaProviderName[] {
  if (value === undefined || value === false) return [];
  if (value === true) return ['openai'];
  if (typeof value === 'string') return [value as SchemaProviderName];
  if (Array.isArray(value)) return [...value];
  throw new TypeError(`${surface}: options.strictTools must be a boolean, a provider or an array of providers, got ${describeValue(value)}.`);
}

/**
 * @internal `strictTools`: each function tool (its name and parameters as sent, in the mode its
 * `strict` declares) as each provider would take it, with the output schema for the request's
 * limits. The rules are the engine's rule book.
 */
export function checkTools(tools: readonly RequestTool[], output: unknown, providers: readonly SchemaProviderName[]): void {
  for (const provider of providers) checkProviderTools(provider, tools, output);
}

/**
 * @internal Scripted inputs as steps: the engine classifies them all (the first invalid one
 * throws, and nothing is copied), then they are copied in one pass (`prepareModelSteps`).
 * `usage` rebuilds a complete response's usage (`Object` keeps it plain); `surface`: whose
 * inputs they are (0 `ScriptedModel`, 1 `scriptedLanguageModel`, 2 `scriptedFetch`; its errors name it). Queue the result with
 * `script.enqueue(steps, plan)`.
 */
export function scriptedSteps(inputs: unknown[], usage: unknown, surface: 0 | 1 | 2 = 0): [steps: object[], plan: string] {
  if (surface !== 2) {
    for (let i = 0; i < inputs.length; i++) {
      const detail = httpOnlyStep(inputs[i]);
      if (detail === undefined) continue;
      const name = surface === 0 ? 'ScriptedModel' : 'scriptedLanguageModel';
      const stepType = (inputs[i] as { type: string }).type;
      throw new InvalidScriptedModelStepError({ message: `${name} input #${i + 1}: ${detail}.`, reason: 'unknown_step_type', inputIndex: i, stepType } as never);
    }
  }
  const plan = callDoubles((e) => e.classifyModelSteps(inputs, usage, surface));
  return [prepareModelSteps(inputs, plan, usage as Parameters<typeof prepareModelSteps>[2]), plan];
}

/** A deterministic model test double that consumes one scripted step per call. */
export class ScriptedModel implements Model {
  readonly #script: Handle;
  /** The call log: frozen records, handed out as fresh snapshots. */
  readonly #records: RecordedModelCall[] = [];
  readonly #strictTools: readonly SchemaProviderName[];

  constructor(inputs: Iterable<ScriptedModelInput> = [], options?: ScriptedModelOptions) {
    const { strictTools } = expectKnownOptions('new ScriptedModel', options, ['strictTools']);
    this.#strictTools = strictProviders(strictTools, 'new ScriptedModel');
    // Unknown provider codes are refused now, not at the first call.
    for (const provider of this.#strictTools) checkProviderCode(provider, 'strictTools');
    registerLoggedModel(this);
    const [steps, plan] = scriptedSteps(Array.from(inputs), peers().Usage);
    this.#script = callDoubles((e) => new e.ModelScript(0));
    callDoubles(() => this.#script.enqueue(steps, plan));
  }

  /**
   * A model that replays a cassette (a file path in Node, or a cassette object): recorded steps
   * in order (default), or with `match: 'request'` the unused step whose normalized request
   * equals the live one, raising `CassetteMismatchError` with the first differing field.
   */
  static fromCassette(source: string | Cassette, options?: ReplayOptions): ScriptedModel {
    if (cassetteReplay === undefined) throw new Error('understudy: cassette replay is not loaded (import ScriptedModel from an entry of the package).');
    return cassetteReplay(source, options);
  }

  /** All calls recorded by this model in invocation order (fresh frozen snapshots on every read). */
  get calls(): readonly RecordedModelCall[] {
    return Object.freeze(this.#records.map(snapshotCall));
  }

  /** The first recorded call, if one has occurred. */
  get firstCall(): RecordedModelCall | undefined {
    const records = this.#records;
    return records.length === 0 ? undefined : snapshotCall(records[0]);
  }

  /** The most recent recorded call, if one has occurred. */
  get lastCall(): RecordedModelCall | undefined {
    const records = this.#records;
    return records.length === 0 ? undefined : snapshotCall(records[records.length - 1]);
  }

  /** The number of scripted steps that have not been consumed. */
  get remainingSteps(): number {
    return this.#script.remainingSteps;
  }

  /** Adds steps to the end of the script; one invalid input queues none of them. */
  enqueue(...inputs: ScriptedModelInput[]): void {
    const [steps, plan] = scriptedSteps(inputs, peers().Usage);
    callDoubles(() => this.#script.enqueue(steps, plan));
  }

  /** Throws {@link UnconsumedModelStepsError} when the script still contains unconsumed steps. */
  assertComplete(): void {
    callDoubles(() => this.#script.assertComplete());
  }

  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    checkpoint(request.signal);
    const { call, step } = this.#begin(request, false);
    if (step.type === 'error') {
      this.#script.rememberAdvice(step, request, false);
      throw step.error;
    }
    const response = step.type === 'responder' ? await step.respond!(snapshotCall(call)) : step.response;
    checkpoint(request.signal, call.index);
    return this.#normalize(response, call, false);
  }

  getStreamedResponse(request: ModelRequest): AsyncIterable<StreamEvent> {
    checkpoint(request.signal);
    const { call, step } = this.#begin(request, true);
    return this.#stream(request, call, step);
  }

  async *#stream(request: ModelRequest, call: RecordedModelCall, step: PreparedStep): AsyncGenerator<StreamEvent> {
    checkpoint(request.signal, call.index);
    if (step.type === 'error') {
      this.#script.rememberAdvice(step, request, true);
      throw step.error;
    }
    if (step.type === 'stream' || step.type === 'stream_responder') {
      const events = step.type === 'stream' ? step.events! : ((await step.respond!(snapshotCall(call))) as ScriptedModelStream);
      checkpoint(request.signal, call.index);
      if (step.type === 'stream_responder') callDoubles((e) => e.checkResponderStream(events, call.index, 0));
      for await (const event of events) {
        checkpoint(request.signal, call.index);
        if ((event as { type?: unknown })?.type === 'response_done') logOutput(this, (event as { response?: { output?: unknown } }).response?.output);
        yield event;
      }
      checkpoint(request.signal, call.index);
      return;
    }
    const scripted = step.type === 'responder' ? await step.respond!(snapshotCall(call)) : step.response;
    checkpoint(request.signal, call.index);
    const response = this.#normalize(scripted, call, true);
    checkpoint(request.signal, call.index);
    yield callDoubles((e) => e.autoStreamStarted()) as StreamEvent;
    const plan: number[] = callDoubles((e) => Array.from(e.autoStreamPlan(response)) as number[]);
    for (let i = 0; i < plan.length; i += 2) {
      checkpoint(request.signal, call.index);
      yield callDoubles((e) => e.autoStreamDelta(response, plan[i], plan[i + 1])) as StreamEvent;
    }
    checkpoint(request.signal, call.index);
    yield callDoubles((e) => e.autoStreamDone(response)) as StreamEvent;
  }

  async getRetryAdvice(request: ModelRetryAdviceRequest): Promise<ModelRetryAdvice | undefined> {
    // Read in the reference's order (error, stream, request), so a bad request fails alike.
    const error = request.error;
    const stream = request.stream;
    const advised = request.request;
    const picked = this.#script.takeAdvice(error, stream, advised, [
      advised?.input,
      advised?.modelSettings,
      advised?.tools,
      advised?.handoffs,
    ]) as { advice: ScriptedModelRetryAdvice | undefined } | undefined;
    if (picked === undefined) return undefined;
    const { advice } = picked;
    return typeof advice === 'function' ? await advice(request) : advice;
  }

  /**
   * Records the call (as the reference does, before taking its step), then takes the step.
   * `call` is the record itself, which stays here: a responder gets a fresh snapshot of it,
   * made only when a responder runs (the record is frozen, so the snapshot is the same then).
   */
  #begin(request: ModelRequest, streamed: boolean): { call: RecordedModelCall; step: PreparedStep } {
    // The runner sends the whole history again on every call: the record takes over what the
    // previous record's snapshot already holds (records are never handed out, only copies).
    const previous = this.#records[this.#records.length - 1]?.request;
    const record = Object.freeze({ index: this.#records.length, streamed, request: Object.freeze(snapshotLike(request, previous)) as ModelRequest });
    this.#records.push(record);
    // From the snapshot: the caller's request is read once, by the snapshot, as the reference reads it.
    logRequest(this, record.request);
    if (this.#strictTools.length > 0) {
      const request = record.request;
      const all: unknown = request?.tools;
      const tools = Array.isArray(all) ? all.filter((tool) => tool?.type === 'function') : [];
      const output = (request?.outputType as any)?.type === 'json_schema' ? (request.outputType as any).schema : undefined;
      checkTools(tools.map((tool) => ({ name: String(tool.name), parameters: tool.parameters, strict: typeof tool.strict === 'boolean' ? tool.strict : undefined })), output, this.#strictTools);
    }
    const step = callDoubles(() => this.#script.take(streamed)) as PreparedStep;
    return { call: record, step };
  }

  #normalize(response: unknown, call: RecordedModelCall, streamed: boolean): ModelResponse {
    const normalized = callDoubles((e) => e.normalizeModelResponse(response, call.request, call.index, streamed, peers().Usage));
    logOutput(this, normalized.output);
    checkpoint(call.request.signal, call.index);
    return normalized;
  }
}
