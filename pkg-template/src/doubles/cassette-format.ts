// The cassette document, the replay and redaction options and the environment's names, shared
// by `cassette.ts`, `scripted-model.ts` (`ScriptedModel.fromCassette`) and the language-model
// cassettes without one importing another's code back, and free of `@openai/agents` types.
import type { SchemaProviderName } from '../engine/codes.js';

/** A cassette document (format `understudy-cassette`, version 1). */
export interface Cassette {
  format: 'understudy-cassette';
  version: 1;
  /**
   * What the recording added to the built-in rules (which apply to every cassette and are not
   * stored): its key names, its patterns, and the patterns of values it allowed.
   */
  redaction: { keys: string[]; patterns: string[]; allow?: string[] };
  steps: CassetteStep[];
}

/** One recorded call: the normalized request, its hash, and the response, events or error. */
export interface CassetteStep {
  streamed: boolean;
  hash: string;
  request: Record<string, unknown>;
  response?: Record<string, unknown>;
  events?: unknown[];
  error?: RecordedError;
}

/**
 * A recorded failure: its name and message (redacted), and what a retry of the call reads, as
 * the failure carried it: the HTTP `status`, the provider's `retryable` verdict and the
 * `retryAfterMs` the server asked for. A replayed failure carries them again, so the caller's
 * retries run as they did live.
 */
export interface RecordedError {
  name: string;
  message: string;
  status?: number;
  retryable?: boolean;
  retryAfterMs?: number;
}

/** Options of `ScriptedModel.fromCassette`. */
export interface ReplayOptions {
  /** `'order'` (default): steps in recorded order. `'request'`: the step whose normalized request equals the live one. */
  match?: 'order' | 'request';
  /** Check every request's function tools as `new ScriptedModel(steps, { strictTools })` does (`true`, a provider, or several). */
  strictTools?: boolean | SchemaProviderName | readonly SchemaProviderName[];
}

/** Another spelling of `UNDERSTUDY_CASSETTES=record` (`1` or `true`). */
export const RECORD_ENV = 'UNDERSTUDY_RECORD';

/**
 * What is redacted besides the built-in rules. Built in: values under credential names, judged
 * by whole words (`password`, `api_key`, `clientSecret`, `Authorization`, `x-api-key`; not
 * `secretary`, `token_type`, `keyword`), such names and values written inside texts (JSON in
 * tool arguments and outputs, `.env` and shell lines, YAML and header lines with each cookie's
 * value in `Cookie` / `Set-Cookie` lines, URL parameters),
 * credentials of common formats wherever they start at a word boundary (OpenAI, Anthropic,
 * GitHub, GitLab, AWS, Google, Slack, Stripe, Twilio, SendGrid, npm, Heroku, Datadog and Azure
 * keys, JWTs, PEM private keys, URL passwords, `Bearer …`), and a value taken out once wherever
 * else it stands as a whole word. Values evidently not secret (`''`, `'Bearer'`, numbers,
 * `${API_KEY}`) are kept.
 */
export interface RedactionOptions {
  /** More key names whose values (any but `null`) are replaced by `"[REDACTED]"` (case, `-` and `_` ignored). Stored in the cassette. */
  redactKeys?: string[];
  /**
   * More patterns (regular expressions, as `RegExp` or source text) replaced inside strings, or
   * `'pii'`: the preset for email addresses, phone numbers and payment card numbers. The patterns
   * are stored in the cassette, and replay redacts the live request with them before matching.
   */
  redact?: (string | RegExp)[] | 'pii';
  /**
   * Values a test means to keep although they look like credentials (a fake key in a
   * fixture): a match any of these patterns finds something in is neither redacted nor refused
   * at save time. Stored in the cassette, so replay treats the live request the same way.
   */
  allowSecrets?: (string | RegExp)[];
}

/** The environment variable that picks the cassette mode: `auto` (default), `record`, `replay`, `off`. */
export const CASSETTES_ENV = 'UNDERSTUDY_CASSETTES';
