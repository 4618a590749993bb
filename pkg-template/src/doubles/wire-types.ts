/**
 * The HTTP double's data types (`scriptedFetch`, `providerServer`, wire cassettes): a module of
 * types alone, which the transports and the cassettes share without importing one another.
 */
import type { LanguageModelRetryAdvice, ScriptedLanguageModelReply } from './answer-types.js';

/**
 * A provider API `scriptedFetch` answers: the model endpoints, which take a step, and the
 * endpoints answered without one (embeddings, model lists, token counts).
 */
export type WireEndpoint =
  | 'openai.responses'
  | 'openai.chat'
  | 'anthropic.messages'
  | 'gemini.generateContent'
  | 'openai.embeddings'
  | 'gemini.embedContent'
  | 'gemini.batchEmbedContents'
  | 'openai.models'
  | 'anthropic.models'
  | 'gemini.models'
  | 'openai.model'
  | 'anthropic.model'
  | 'gemini.model'
  | 'anthropic.countTokens'
  | 'gemini.countTokens';

/** A part of a message in the neutral form (the AI SDK's words). */
export type WireMessagePart =
  | { type: 'text'; text: string }
  | { type: 'reasoning'; text: string }
  | { type: 'tool-call'; toolCallId: string | null; toolName: string | null; input: unknown }
  | { type: 'tool-result'; toolCallId: string | null; toolName?: string; output: unknown };

/**
 * A request in a provider-neutral form, read by the engine from the provider's body. An
 * embedding request's inputs read as user messages of their text; a token count's body as its
 * model endpoint's; a model list has no messages.
 */
export interface WireRequest {
  endpoint: WireEndpoint;
  provider: 'openai' | 'anthropic' | 'gemini';
  model: string;
  stream: boolean;
  /** System instructions (`instructions`, system messages, `system`, `systemInstruction`), joined. */
  system?: string;
  messages: { role: 'system' | 'user' | 'assistant' | 'tool'; content: WireMessagePart[] }[];
  /** The function tools: name, description, input schema as sent, and `strict` where the request says (on the Responses API an omitted `strict` reads as `true`, as the API reads it). */
  tools: { name: string | null; description?: string; inputSchema: unknown; strict?: boolean }[];
  /** `'auto'`, `'none'`, `'required'` or `{ type: 'tool', toolName }`. */
  toolChoice?: unknown;
  /** The structured-output schema the request asks for. */
  responseSchema?: unknown;
}

/** One HTTP request the double received: a frozen snapshot. */
export type RecordedHttpCall = Readonly<{
  /** The zero-based position of this call in `calls`. */
  index: number;
  endpoint: WireEndpoint;
  /** Whether the request asked for a stream. */
  streamed: boolean;
  method: string;
  url: string;
  /** The request's headers, names in lowercase. */
  headers: Readonly<Record<string, string>>;
  /** The body as the client sent it, parsed. */
  body: unknown;
  /** The body in the provider-neutral form. */
  request: WireRequest;
  /** Milliseconds from the double's start to the request's arrival. */
  at: number;
  /** The index of the earlier call this one sends again (the same method, URL and body) after it failed: an error status, a fault, a refusal, a network error. */
  retryOf?: number;
}>;

/** A step of `scriptedFetch`: the AI SDK double's answers, errors and responders (a responder receives the recorded call, `call.request` the neutral form, `call.body` the raw body). */
export type ScriptedFetchInput =
  | ScriptedLanguageModelReply
  | { type: 'response'; response: ScriptedLanguageModelReply }
  | { type: 'responder'; respond: (call: RecordedHttpCall) => ScriptedLanguageModelReply | Promise<ScriptedLanguageModelReply> }
  | { type: 'error'; error: unknown; retryAdvice?: ScriptedFetchRetryAdvice }
  | FaultedStep
  | EmbeddingStep;

/** How a faulted step's answer fails. */
export type WireFaultKind = 'disconnect' | 'stall' | 'malformed';

/**
 * A fault on cue: `disconnect` closes the connection after `afterEvents` events of a streamed
 * answer (without `afterEvents`, before the first byte: the client sees a network failure);
 * `stall` sends `afterEvents` events (without it, nothing at all) and then nothing until the
 * client gives up; `malformed` makes event `afterEvents` (default the first; a JSON answer's
 * body) not JSON.
 */
export interface WireFault {
  kind: WireFaultKind;
  afterEvents?: number;
}

/** A step whose answer fails as `fault` says (`withFault`). */
export interface FaultedStep {
  readonly type: 'fault';
  readonly step: ScriptedLanguageModelReply | { type: 'response'; response: ScriptedLanguageModelReply } | { type: 'responder'; respond: (call: RecordedHttpCall) => ScriptedLanguageModelReply | Promise<ScriptedLanguageModelReply> };
  readonly fault: Readonly<WireFault>;
}

/** Exact vectors for the next embedding request (`embeddingStep`). */
export interface EmbeddingStep {
  readonly type: 'embedding';
  readonly vectors: readonly (readonly number[])[];
}

/**
 * An error step's retry advice: fixed, or a function of `{ error, request, stream, attempt }`,
 * `request` being the `RecordedHttpCall` (a function typed for another double's calls, as
 * `modelError`'s of the AI SDK entry, is taken too: it receives the HTTP call).
 */
export type ScriptedFetchRetryAdvice =
  | LanguageModelRetryAdvice
  | ((failed: { error: unknown; request: RecordedHttpCall; stream: boolean; attempt: number }) => LanguageModelRetryAdvice | undefined | Promise<LanguageModelRetryAdvice | undefined>)
  | ((failed: never) => LanguageModelRetryAdvice | undefined | Promise<LanguageModelRetryAdvice | undefined>);

/** Options of {@link scriptedFetch} (and of `providerServer`). Unknown keys are refused. */
export interface ScriptedFetchOptions {
  /** Characters per streamed delta of text, reasoning and tool input (default 12; a positive integer). */
  deltaSize?: number;
  /** Milliseconds before each streamed event (default 0; the first waits `firstChunkDelayInMs` instead where that is given). */
  chunkDelayInMs?: number;
  /** Milliseconds before the first streamed event, or before a JSON answer (default 0): the model's time to first token. */
  firstChunkDelayInMs?: number;
  /** Let an answer call a tool the request did not offer (by default such a call fails, naming the offered tools). */
  allowUnofferedTools?: boolean;
}

/** @internal What the engine answers: a reply in the provider's format. */
export interface WireReply {
  status: number;
  headers: [string, string][];
  body?: string;
  events?: string[];
  /** A faulted reply's end: after its events the connection closes or stalls (`beforeStatus`: not even the status line goes out). */
  end?: { cut: WireFaultKind; beforeStatus: boolean };
}

/** @internal A request as the transport read it. */
export interface WireIncoming {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string;
}
