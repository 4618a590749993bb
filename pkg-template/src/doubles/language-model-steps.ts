/**
 * The steps of `scriptedLanguageModel`, in the AI SDK's types: the builders `ScriptedModel`
 * shares (`assistantMessage`, `functionCall`, `modelError`, …) typed for a language model, and
 * builders in the AI SDK's words (`textStep`, `toolCall`, `objectStep`). The steps are the
 * same values as `ScriptedModel`'s, so one script reads alike in both doubles; only the types
 * differ, and these name nothing of `@openai/agents` (the AI SDK entry's types stand without
 * it). `@ai-sdk/provider` supplies the call options and stream parts (types only).
 */
import type { LanguageModelV3CallOptions, LanguageModelV3StreamPart } from '@ai-sdk/provider';
import { describeValue, expectKnownOptions } from '../engine/args.js';
import { isUnencodable } from '../engine/channel.js';
import * as shared from './scripted-model.js';

import type { ScriptedAssistantMessage, ScriptedToolCall, ScriptedReasoning, ScriptedLanguageModelReply, LanguageModelRetryAdvice } from './answer-types.js';

export type {
  ScriptedAssistantMessage,
  ScriptedToolCall,
  ScriptedReasoning,
  ScriptedLanguageModelItem,
  ScriptedLanguageModelUsage,
  ScriptedLanguageModelResponse,
  ScriptedLanguageModelReply,
  LanguageModelRetryAdvice,
} from './answer-types.js';

/** One call the model received: a frozen snapshot of its options (`abortSignal` as `{ aborted }`, its state when the call began). */
export type RecordedLanguageModelCall = Readonly<{
  /** The zero-based position of this call in `calls`. */
  index: number;
  /** `doStream` (true) or `doGenerate` (false). */
  streamed: boolean;
  /** The options, snapshotted when the call began; the signal's `aborted` state at that time. */
  options: Readonly<Omit<LanguageModelV3CallOptions, 'abortSignal'> & { abortSignal?: { aborted: boolean } }>;
}>;

/**
 * Fixed retry advice, or a function of the failed call: its error, its options (`request`),
 * whether it streamed, and `attempt`, the number of calls in a row that failed, this one included.
 */
export type ScriptedLanguageModelRetryAdvice =
  | LanguageModelRetryAdvice
  | ((failed: { error: unknown; request: LanguageModelV3CallOptions; stream: boolean; attempt: number }) => LanguageModelRetryAdvice | undefined | Promise<LanguageModelRetryAdvice | undefined>);

/** The AI SDK's stream parts, as a `modelStream` step passes them on. */
export type ScriptedLanguageModelStream = Iterable<LanguageModelV3StreamPart> | AsyncIterable<LanguageModelV3StreamPart>;

/** A step: an answer, a failure, a responder, or the SDK's own stream parts. */
export type ScriptedLanguageModelStep =
  | { type: 'response'; response: ScriptedLanguageModelReply }
  | { type: 'error'; error: unknown; retryAdvice?: ScriptedLanguageModelRetryAdvice }
  | { type: 'responder'; respond: (call: RecordedLanguageModelCall) => ScriptedLanguageModelReply | Promise<ScriptedLanguageModelReply> }
  | { type: 'stream'; events: ScriptedLanguageModelStream }
  | { type: 'stream_responder'; respond: (call: RecordedLanguageModelCall) => ScriptedLanguageModelStream | Promise<ScriptedLanguageModelStream> };

/** What `scriptedLanguageModel` and `enqueue()` take: a step, or an answer (its parts, or a complete response). */
export type ScriptedLanguageModelInput = ScriptedLanguageModelStep | ScriptedLanguageModelReply;

/** Options of {@link assistantMessage}. */
export interface AssistantMessageOptions {
  id?: string;
  /** OpenAI Responses' phase of the message (`'final_answer'`, `'commentary'`). */
  phase?: 'commentary' | 'final_answer' | null;
  providerData?: Record<string, unknown>;
}

/** Options of {@link functionCall}; without `callId`, one is generated per call. */
export interface FunctionCallOptions {
  callId?: string;
  id?: string;
  namespace?: string;
  providerData?: Record<string, unknown>;
}

/** Refuses a tool input that is not JSON text or a plain object (a schema, a class instance, an array). */
function checkInput(surface: string, input: unknown): void {
  if (typeof input === 'string') return;
  const plain = typeof input === 'object' && input !== null && !Array.isArray(input) && [Object.prototype, null].includes(Object.getPrototypeOf(input));
  if (plain && !('~standard' in input)) return;
  const schema = (typeof input === 'object' || typeof input === 'function') && input !== null && '~standard' in input;
  throw new TypeError(
    schema
      ? `${surface}: the input is a schema (a Standard Schema such as Zod's); give the tool's input itself, as an object or JSON text (e.g. { city: 'Oslo' }).`
      : `${surface}: the input must be an object or JSON text, got ${describeValue(input)}.`,
  );
}

/** The JSON text of a tool input or an answer's value; a `TypeError` naming `surface` for what JSON cannot write. */
function jsonText(surface: string, what: string, value: unknown): string {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch (error) {
    if (!isUnencodable(error)) throw error;
    throw new TypeError(`${surface}: ${what} cannot be written as JSON (it is cyclic or nested too deeply).`);
  }
  if (typeof text !== 'string') throw new TypeError(`${surface}: ${what} has no JSON text, got ${describeValue(value)}.`);
  return text;
}

/** Refuses options that are neither absent nor an object, or that hold a key not in `known`. */
function checkOptions(surface: string, options: unknown, known: readonly string[]): void {
  if (options !== undefined) expectKnownOptions(surface, options as Record<string, unknown>, known);
}

/** Refuses a reply text that is not a string, naming the builder that writes a value as JSON. */
function checkText(surface: string, text: unknown): void {
  if (typeof text === 'string') return;
  const hint = typeof text === 'object' && text !== null ? ' For an Output.object answer, script objectStep(value), which writes the value as the JSON reply.' : '';
  throw new TypeError(`${surface}: the reply's text must be a string, got ${describeValue(text)}.${hint}`);
}

/** A text reply. `text` must be a string (`objectStep(value)` writes a value as JSON). */
export function assistantMessage(text: string, options?: AssistantMessageOptions): ScriptedAssistantMessage {
  checkText('assistantMessage', text);
  checkOptions('assistantMessage', options, ['id', 'phase', 'providerData']);
  return shared.assistantMessage(text, (options ?? undefined) as shared.AssistantMessageOptions | undefined) as ScriptedAssistantMessage;
}

/**
 * A tool call: `args` is the input, as JSON text or an object (written as JSON). Without
 * `options.callId`, the call's id is generated per call (`call-<call>-<position>`).
 */
export function functionCall(name: string, args: string | Record<string, unknown>, options?: FunctionCallOptions): ScriptedToolCall {
  if (typeof name !== 'string') throw new TypeError(`functionCall: name must be a string, got ${describeValue(name)}.`);
  checkInput('functionCall', args);
  checkOptions('functionCall', options, ['callId', 'id', 'namespace', 'providerData']);
  const item = shared.functionCall(name, typeof args === 'string' ? args : jsonText('functionCall', 'the input', args), { ...options } as shared.FunctionCallOptions) as { -readonly [K in keyof ScriptedToolCall]: ScriptedToolCall[K] };
  if (options?.callId === undefined) {
    // The engine names the call by its place when the step is answered.
    delete item.callId;
    if (options?.id === undefined) delete item.id;
  }
  return item;
}

/** A tool call in the AI SDK's words: `toolName`, its `input` (an object or JSON text), and optionally its `toolCallId`. */
export function toolCall(toolName: string, input: string | Record<string, unknown>, options?: { toolCallId?: string }): ScriptedToolCall {
  if (typeof toolName !== 'string') throw new TypeError(`toolCall: toolName must be a string, got ${describeValue(toolName)}.`);
  checkInput('toolCall', input);
  checkOptions('toolCall', options, ['toolCallId']);
  return functionCall(toolName, input, options?.toolCallId === undefined ? undefined : { callId: options.toolCallId });
}

/** A step that answers with `text`: `[assistantMessage(text)]`. */
export function textStep(text: string): readonly [ScriptedAssistantMessage] {
  checkText('textStep', text);
  return [assistantMessage(text)];
}

/**
 * A step that answers with `value` written as JSON text, the reply `Output.object` and
 * `generateObject` parse: `objectStep({ category: 'billing' })`.
 */
export function objectStep(value: unknown): readonly [ScriptedAssistantMessage] {
  return [assistantMessage(jsonText('objectStep', 'the value', value))];
}

/** A reasoning part: a `reasoning` content part (`doGenerate`) or reasoning deltas (`doStream`). */
export function reasoning(text: string): ScriptedReasoning {
  if (typeof text !== 'string') throw new TypeError(`reasoning: text must be a string, got ${describeValue(text)}.`);
  return { type: 'reasoning', content: [{ type: 'input_text', text }] };
}

/** A complete answer with usage or a response id: `modelResponse({ output: [...], usage: { inputTokens: 12, outputTokens: 3 } })`. */
export function modelResponse(response: ScriptedLanguageModelReply): Extract<ScriptedLanguageModelStep, { type: 'response' }> {
  return shared.modelResponse(response as never) as never;
}

/** A failure: the call throws the SDK's `APICallError` for `error` (its `status` kept), which the SDK retries as `retryAdvice` says. */
export function modelError(error: unknown, retryAdvice?: ScriptedLanguageModelRetryAdvice): Extract<ScriptedLanguageModelStep, { type: 'error' }> {
  return shared.modelError(error, retryAdvice as never) as never;
}

/** An answer made from the call: `modelResponder(call => [textStep(…)]…)`; `call.options` are the call's options. */
export function modelResponder(respond: (call: RecordedLanguageModelCall) => ScriptedLanguageModelReply | Promise<ScriptedLanguageModelReply>): Extract<ScriptedLanguageModelStep, { type: 'responder' }> {
  return shared.modelResponder(respond as never) as never;
}

/** The SDK's own stream parts, passed on as given (streamed calls only). */
export function modelStream(parts: ScriptedLanguageModelStream): Extract<ScriptedLanguageModelStep, { type: 'stream' }> {
  return shared.modelStream(parts as never) as never;
}
