/**
 * The HTTP double's data types (`scriptedFetch`, `providerServer`, wire cassettes): a module of
 * types alone, which the transports and the cassettes share without importing one another.
 */
import type { LanguageModelRetryAdvice, ScriptedLanguageModelReply } from './answer-types.js';

/** A provider API `scriptedFetch` answers. */
export type WireEndpoint = 'openai.responses' | 'openai.chat' | 'anthropic.messages' | 'gemini.generateContent';

/** A part of a message in the neutral form (the AI SDK's words). */
export type WireMessagePart =
  | { type: 'text'; text: string }
  | { type: 'reasoning'; text: string }
  | { type: 'tool-call'; toolCallId: string | null; toolName: string | null; input: unknown }
  | { type: 'tool-result'; toolCallId: string | null; toolName?: string; output: unknown };

/** A request in a provider-neutral form, read by the engine from the provider's body. */
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
}>;

/** A step of `scriptedFetch`: the AI SDK double's answers, errors and responders (a responder receives the recorded call, `call.request` the neutral form, `call.body` the raw body). */
export type ScriptedFetchInput =
  | ScriptedLanguageModelReply
  | { type: 'response'; response: ScriptedLanguageModelReply }
  | { type: 'responder'; respond: (call: RecordedHttpCall) => ScriptedLanguageModelReply | Promise<ScriptedLanguageModelReply> }
  | { type: 'error'; error: unknown; retryAdvice?: ScriptedFetchRetryAdvice };

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
  /** Milliseconds before each streamed event (default 0). */
  chunkDelayInMs?: number;
  /** Let an answer call a tool the request did not offer (by default such a call fails, naming the offered tools). */
  allowUnofferedTools?: boolean;
}

/** @internal What the engine answers: a reply in the provider's format. */
export interface WireReply {
  status: number;
  headers: [string, string][];
  body?: string;
  events?: string[];
}

/** @internal A request as the transport read it. */
export interface WireIncoming {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string;
}
