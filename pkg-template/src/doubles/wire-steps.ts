/**
 * Steps only the HTTP double (`scriptedFetch`, `providerServer`, `serve`) takes: a step whose
 * answer fails as a connection does (`withFault`), a provider's overloaded answer
 * (`overloadedError`) and exact vectors for an embedding request (`embeddingStep`). The engine
 * checks a fault and cuts the reply (`src/doubles/wire/fault.rs`); this module builds the
 * steps and says which inputs are which.
 */
import { callDoubles } from '../engine/channel.js';
import { describeValue, expectKnownOptions } from '../engine/args.js';
import type { LanguageModelRetryAdvice } from './answer-types.js';
import type { EmbeddingStep, FaultedStep, WireFault } from './wire-types.js';

export type { EmbeddingStep, FaultedStep, WireFault, WireFaultKind } from './wire-types.js';

/**
 * `step`'s answer, failing as `fault` says: `withFault(textStep('hello'), { kind: 'disconnect',
 * afterEvents: 3 })`. The step is used by the call that fails; script the retry's answer as the
 * next step. Only the HTTP double takes it (a model double has no connection to fail).
 *
 * @throws {TypeError} `step` is an error step or not a step; `fault` is not `{ kind, afterEvents? }`
 * with a known kind and a non-negative integer.
 */
export function withFault(step: FaultedStep['step'], fault: WireFault): FaultedStep {
  const type = (step as { type?: unknown } | null)?.type;
  if (!(Array.isArray(step) || type === 'response' || type === 'responder')) {
    const what = type === 'error' ? 'an error step, which has no answer to cut (script overloadedError() or modelError() on its own)' : describeValue(step);
    throw new TypeError(`withFault: step must be an answer (textStep, toolCall, …, modelResponse) or a responder, got ${what}.`);
  }
  if (typeof fault !== 'object' || fault === null || Array.isArray(fault)) throw new TypeError(`withFault: fault must be { kind, afterEvents? }, got ${describeValue(fault)}.`);
  const { kind, afterEvents } = expectKnownOptions('withFault', fault as unknown as Record<string, unknown>, ['kind', 'afterEvents']) as Partial<WireFault>;
  if (typeof kind !== 'string') throw new TypeError(`withFault: fault.kind must be a string, got ${describeValue(kind)}.`);
  if (afterEvents !== undefined && typeof afterEvents !== 'number') throw new TypeError(`withFault: fault.afterEvents must be a number, got ${describeValue(afterEvents)}.`);
  // Which kinds there are and what a count may be are the engine's rules.
  const problem = callDoubles((e) => e.wireFaultCheck(JSON.stringify({ kind, afterEvents })));
  if (problem !== undefined) throw new TypeError(`withFault: ${problem}.`);
  const copy = Object.freeze({ kind: kind as WireFault['kind'], ...(afterEvents === undefined ? {} : { afterEvents }) });
  return Object.freeze({ type: 'fault' as const, step, fault: copy });
}

/** The error an {@link overloadedError} step carries. */
export class OverloadedError extends Error {
  constructor() {
    super('The provider is overloaded.');
    this.name = 'OverloadedError';
  }
}

/**
 * The provider's own overloaded answer: Anthropic's 529 `overloaded_error`, OpenAI's 503
 * `service_unavailable_error` (code `server_is_overloaded`), Gemini's 503 `UNAVAILABLE`, each with its body (and `retry-after` from
 * `retryAdvice.retryAfterMs`), which the clients retry as in production.
 */
export function overloadedError(retryAdvice?: LanguageModelRetryAdvice): { type: 'error'; error: OverloadedError; retryAdvice?: LanguageModelRetryAdvice } {
  if (retryAdvice !== undefined && (typeof retryAdvice !== 'object' || retryAdvice === null)) throw new TypeError(`overloadedError: retryAdvice must be an object, got ${describeValue(retryAdvice)}.`);
  return { type: 'error', error: new OverloadedError(), ...(retryAdvice === undefined ? {} : { retryAdvice }) };
}

/**
 * Exact vectors for the next embedding request (OpenAI `…/embeddings`, Gemini `:embedContent`,
 * `:batchEmbedContents`): one vector, or one per input. Embedding requests take these steps
 * in order, apart from the model's steps; without one, a request gets vectors the double
 * derives from each input's text.
 *
 * @throws {TypeError} not an array of finite numbers, or an array of such arrays.
 */
export function embeddingStep(vectors: readonly number[] | readonly (readonly number[])[]): EmbeddingStep {
  const isVector = (v: unknown): v is number[] => Array.isArray(v) && v.length > 0 && v.every((x) => typeof x === 'number' && Number.isFinite(x));
  const list = Array.isArray(vectors) && vectors.length > 0 && vectors.every(Array.isArray) ? (vectors as unknown[]) : [vectors];
  if (!list.every(isVector)) throw new TypeError(`embeddingStep: vectors must be a non-empty array of finite numbers, or an array of such arrays, got ${describeValue(vectors)}.`);
  return Object.freeze({ type: 'embedding' as const, vectors: Object.freeze(list.map((v) => Object.freeze([...(v as number[])]))) });
}

/** @internal Whether `input` is a step only the HTTP double takes, and what to say to a model double given one. */
export function httpOnlyStep(input: unknown): string | undefined {
  const type = (input as { type?: unknown } | null)?.type;
  if (type === 'fault') return 'a withFault step fails a connection, which only the HTTP double (scriptedFetch, providerServer) has';
  if (type === 'embedding') return 'an embeddingStep answers an embedding request, which only the HTTP double (scriptedFetch, providerServer) receives';
  return undefined;
}
