// The cassette document and the replay options: types only, shared by `cassette.ts` and
// `scripted-model.ts` (`ScriptedModel.fromCassette`) without either importing the other's code
// back.
import type { SchemaProvider } from '../engine/codes.js';

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
  strictTools?: boolean | SchemaProvider | readonly SchemaProvider[];
}
