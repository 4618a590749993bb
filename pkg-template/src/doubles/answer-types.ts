/**
 * The answers every scripted model in parts shares (`scriptedLanguageModel`, `scriptedFetch`,
 * `providerServer`): a reply's parts, its usage, a complete response, retry advice. Types only,
 * naming neither `@openai/agents` nor `@ai-sdk/provider`, so an entry that exports them stands
 * without either.
 */

/** A text reply (what `assistantMessage` and `textStep` make). */
export interface ScriptedAssistantMessage {
  readonly type: 'message';
  readonly role: 'assistant';
  readonly status?: 'completed' | 'in_progress' | 'incomplete';
  readonly id?: string;
  readonly phase?: 'commentary' | 'final_answer' | null;
  readonly content: readonly ({ readonly type: 'output_text'; readonly text: string } | { readonly type: 'refusal'; readonly refusal: string })[];
  readonly providerData?: Record<string, unknown>;
}

/** A tool call (what `functionCall` and `toolCall` make): `arguments` is the input's JSON text. */
export interface ScriptedToolCall {
  readonly type: 'function_call';
  readonly name: string;
  /** The call's id; generated per call when absent (`call-<call>-<position>`). */
  readonly callId?: string;
  readonly id?: string;
  readonly namespace?: string;
  readonly status?: 'completed' | 'in_progress' | 'incomplete';
  readonly arguments: string;
  readonly providerData?: Record<string, unknown>;
}

/** A reasoning part (what `reasoning` makes). */
export interface ScriptedReasoning {
  readonly type: 'reasoning';
  readonly content: readonly { readonly type: 'input_text'; readonly text: string }[];
}

/** One part of a scripted answer. */
export type ScriptedLanguageModelItem = ScriptedAssistantMessage | ScriptedToolCall | ScriptedReasoning;

/**
 * Token counts of a scripted answer: `inputTokens` / `outputTokens` as numbers (cached and
 * reasoning tokens in `inputTokensDetails` / `outputTokensDetails`), or the AI SDK's own form
 * (`inputTokens: { total, noCache, cacheRead, cacheWrite }`, `outputTokens: { total, text,
 * reasoning }`). What is not said counts 0; an unknown key is refused.
 */
export interface ScriptedLanguageModelUsage {
  inputTokens?: number | { total?: number; noCache?: number; cacheRead?: number; cacheWrite?: number };
  outputTokens?: number | { total?: number; text?: number; reasoning?: number };
  totalTokens?: number;
  requests?: number;
  inputTokensDetails?: { cached_tokens?: number } | readonly { cached_tokens?: number }[];
  outputTokensDetails?: { reasoning_tokens?: number } | readonly { reasoning_tokens?: number }[];
  raw?: Record<string, unknown>;
}

/** A complete answer: its parts, and its usage and response id. */
export interface ScriptedLanguageModelResponse {
  output: readonly ScriptedLanguageModelItem[];
  usage?: ScriptedLanguageModelUsage;
  responseId?: string;
  providerData?: Record<string, unknown>;
}

/** An answer: its parts (`[assistantMessage('hi')]`), or a complete response with usage. */
export type ScriptedLanguageModelReply = ScriptedLanguageModelResponse | readonly ScriptedLanguageModelItem[];

/** What a scripted failure tells the SDK's retries: whether to retry, and after how long. */
export interface LanguageModelRetryAdvice {
  suggested?: boolean;
  retryAfterMs?: number;
  reason?: string;
}

