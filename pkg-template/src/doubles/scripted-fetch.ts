/**
 * The scripted model at the HTTP level: `scriptedFetch(steps)` is a function with `fetch`'s
 * signature that answers as the provider whose endpoint is called (OpenAI Responses and Chat
 * Completions, Anthropic Messages, Gemini generateContent), in JSON or in the provider's own
 * stream of events, from the same steps as `scriptedLanguageModel`. Give it to a client as
 * its `fetch` option (`new OpenAI({ fetch })`, `createOpenAI({ fetch })`, …); `providerServer`
 * serves the same script over HTTP for other processes.
 *
 * The engine owns the wire formats (`src/doubles/wire/`): which endpoint a request is for, how
 * its body reads in a provider-neutral form, whether the provider would refuse its schemas,
 * what an answer or an error becomes. This module turns `Request` and `Response` objects into
 * texts and back, awaits responders and streams the events.
 */
import { call as callEngine, callDoubles, doublesInputText as input, input as engineInput } from '../engine/channel.js';
import { describeValue, expectKnownOptions } from '../engine/args.js';
import { frozenSnapshot } from '../engine/snapshot.js';
import { CassetteMismatchError } from '../engine/errors.js';
import { textCodec } from '../engine/host.js';
import { logOutput, logRequest, registerLoggedModel } from './assertions.js';
import { causeCodes, languageModelSteps } from './scripted-language-model.js';
import type { ScriptedLanguageModelReply } from './answer-types.js';
import { TAKES_INCOMING, WIRE_REPLY, installReplayFetch, isCassetteSource, wireReplaySteps, type WireCassetteSource } from './wire-cassette.js';

export type { WireEndpoint, WireMessagePart, WireRequest, RecordedHttpCall, ScriptedFetchInput, ScriptedFetchRetryAdvice, ScriptedFetchOptions } from './wire-types.js';
import type { WireEndpoint, WireRequest, RecordedHttpCall, ScriptedFetchInput, ScriptedFetchOptions, WireReply, WireIncoming } from './wire-types.js';

/** A responder made from the HTTP call: `fetchResponder(call => textStep(call.request.model))`; `call.request` is the neutral form, `call.body` the body as sent. */
export function fetchResponder(respond: (call: RecordedHttpCall) => ScriptedLanguageModelReply | Promise<ScriptedLanguageModelReply>): Extract<ScriptedFetchInput, { type: 'responder' }> {
  if (typeof respond !== 'function') throw new TypeError(`fetchResponder: respond must be a function, got ${describeValue(respond)}.`);
  return { type: 'responder', respond };
}

type Handle = import('../../wasm/node/understudy_doubles.js').ModelScript;
type Step = { type: string; response?: unknown; error?: unknown; retryAdvice?: unknown; respond?: (call: RecordedHttpCall) => unknown };
type Route = { endpoint: WireEndpoint; streamed: boolean; model: string };

/** A call as kept until it is read: its route and the request as it came. */
interface CallRecord {
  index: number;
  route: Route;
  incoming: WireIncoming;
  snapshot?: RecordedHttpCall;
}

/**
 * A call's record as `calls` shows it, made when first read and kept: the body parsed, its
 * neutral form read by the engine, frozen. A tool loop sends its whole history every turn;
 * reading each request only when it is looked at keeps a turn's cost to what the turn sends.
 */
function recorded(record: CallRecord): RecordedHttpCall {
  if (record.snapshot === undefined) {
    const { route, incoming } = record;
    let body: unknown;
    try {
      body = JSON.parse(incoming.body);
    } catch {
      body = incoming.body;
    }
    const request = JSON.parse(callDoubles((e) => e.wireNeutral(route.endpoint, route.model, route.streamed, input(incoming.body)))) as WireRequest;
    record.snapshot = frozenSnapshot({ index: record.index, endpoint: route.endpoint, streamed: route.streamed, method: incoming.method.toUpperCase(), url: incoming.url, headers: incoming.headers, body, request }) as RecordedHttpCall;
  }
  return record.snapshot;
}

export const FETCH_OPTIONS = ['deltaSize', 'chunkDelayInMs', 'allowUnofferedTools'] as const;

/** Refuses options of the wrong type; returns them read. */
export function fetchOptions(surface: string, options: ScriptedFetchOptions | undefined, known: readonly string[] = FETCH_OPTIONS): Required<Pick<ScriptedFetchOptions, 'chunkDelayInMs' | 'allowUnofferedTools'>> & { deltaSize?: number } {
  const { deltaSize, chunkDelayInMs = 0, allowUnofferedTools = false } = expectKnownOptions(surface, options as Record<string, unknown> | undefined, known as string[]) as ScriptedFetchOptions;
  if (deltaSize !== undefined && !(Number.isInteger(deltaSize) && deltaSize > 0 && deltaSize <= 0xffffffff)) {
    throw new TypeError(`${surface}: options.deltaSize must be a positive integer, got ${describeValue(deltaSize)}.`);
  }
  if (!(typeof chunkDelayInMs === 'number' && chunkDelayInMs >= 0 && Number.isFinite(chunkDelayInMs))) {
    throw new TypeError(`${surface}: options.chunkDelayInMs must be a non-negative number, got ${describeValue(chunkDelayInMs)}.`);
  }
  if (typeof allowUnofferedTools !== 'boolean') throw new TypeError(`${surface}: options.allowUnofferedTools must be a boolean, got ${describeValue(allowUnofferedTools)}.`);
  return { deltaSize, chunkDelayInMs, allowUnofferedTools };
}

/** The steps of `inputs`, checked as the AI SDK double checks its answers (its errors naming `scriptedFetch`). */
function wireSteps(inputs: unknown[]): [steps: object[], plan: string] {
  return languageModelSteps(inputs, 2);
}

/**
 * @internal One script answering HTTP requests: the queue, the call records, the tool log
 * (under `owner`, the object the assertions take). `scriptedFetch` and `providerServer` are
 * its two transports.
 */
export class WireScript {
  readonly #script: Handle;
  readonly #records: CallRecord[] = [];
  readonly #failed: number[] = [];
  /** Errors answered as 500s (an answer with no wire form, a call past the script): `assertComplete()` throws the first. */
  readonly #failures: unknown[] = [];
  readonly #options: ReturnType<typeof fetchOptions>;
  /** A cassette's replay: its recorded answers stand, so no refusal is made up. */
  readonly #replay: boolean;
  readonly #surface: number;
  owner: object = this;

  constructor(source: Iterable<ScriptedFetchInput> | WireCassetteSource, options: ReturnType<typeof fetchOptions>, surface: string) {
    this.#replay = isCassetteSource(source);
    const inputs = this.#replay ? wireReplaySteps(source as WireCassetteSource, surface) : source;
    if (typeof (inputs as { [Symbol.iterator]?: unknown } | null)?.[Symbol.iterator] !== 'function') {
      throw new TypeError(`${surface}: steps must be an iterable of steps or { cassette }, got ${describeValue(inputs)}.`);
    }
    this.#options = options;
    const [steps, plan] = wireSteps(Array.from(inputs as Iterable<ScriptedFetchInput>));
    // The surface code the engine names in messages: 2 scriptedFetch, 3 providerServer.
    this.#surface = surface === 'providerServer' ? 3 : 2;
    const code = this.#surface;
    this.#script = callDoubles((e) => new e.ModelScript(code));
    callDoubles(() => this.#script.enqueue(steps, plan));
  }

  get delay(): number {
    return this.#options.chunkDelayInMs;
  }

  get calls(): readonly RecordedHttpCall[] {
    return Object.freeze(this.#records.map(recorded));
  }

  get remainingSteps(): number {
    return this.#script.remainingSteps;
  }

  enqueue(inputs: ScriptedFetchInput[]): void {
    const [steps, plan] = wireSteps(inputs);
    callDoubles(() => this.#script.enqueue(steps, plan));
  }

  assertComplete(): void {
    // The first call the double could not answer says more than the steps it left (a replay's
    // miss left its exchange unused).
    if (this.#failures.length > 0) throw this.#failures[0];
    callDoubles(() => this.#script.assertComplete());
  }

  /**
   * The reply to one request. Throws only what the call should throw as it is: a responder's
   * exception, or a scripted error without an HTTP status (a network failure).
   */
  async respond(incoming: WireIncoming): Promise<WireReply> {
    const arrived = JSON.parse(callDoubles((e) => e.wireArrive(incoming.method, incoming.url, input(incoming.body)))) as {
      reply?: WireReply;
      route?: Route & { model: string };
      offered?: string[];
      schemas?: string;
    };
    if (arrived.reply !== undefined) return arrived.reply;
    const route = arrived.route!;
    const record: CallRecord = { index: this.#records.length, route, incoming };
    this.#records.push(record);
    logRequest(this.owner, { tools: arrived.offered!.map((name) => ({ type: 'function', name })) });
    // The provider refuses the request before any model runs: no step is taken.
    const refusal = this.#replay ? 'null' : callEngine((e) => e.wireRefusal(route.endpoint, engineInput(arrived.schemas!)));
    if (refusal !== 'null') return JSON.parse(refusal) as WireReply;
    let step: Step;
    try {
      step = callDoubles(() => this.#script.take(route.streamed)) as Step;
    } catch (error) {
      return this.#failure(route, error);
    }
    const before = this.#failed[this.#failed.length - 1] ?? 0;
    this.#failed.push(step.type === 'error' ? before + 1 : 0);
    if (step.type === 'error') return this.#error(route, step, record);
    let answer: unknown;
    try {
      if (step.type !== 'responder') answer = step.response;
      else if (TAKES_INCOMING in step.respond!) answer = await (step.respond as unknown as (incoming: WireIncoming, index: number) => unknown)(incoming, record.index);
      else answer = await step.respond!(recorded(record));
    } catch (error) {
      // A replay's miss is the double's failure (a 500 no client retries, thrown again by
      // assertComplete()); a recorded network failure is thrown as it happened.
      if (this.#replay && error instanceof CassetteMismatchError) {
        // Replaying by request, every step picks its exchange: the miss used none, so the
        // step it took is given back.
        this.enqueue([{ type: 'responder', respond: step.respond } as ScriptedFetchInput]);
        return this.#failure(route, error);
      }
      throw error;
    }
    if (typeof answer === 'object' && answer !== null && WIRE_REPLY in answer) return (answer as { [WIRE_REPLY]: WireReply })[WIRE_REPLY];
    const offered = this.#options.allowUnofferedTools ? undefined : arrived.offered;
    let text: string;
    try {
      text = JSON.stringify({ route, answer });
      const reply = JSON.parse(callDoubles((e) => e.wireAnswer(input(text), record.index, offered, this.#options.deltaSize, this.#surface))) as WireReply;
      logOutput(this.owner, Array.isArray(answer) ? answer : (answer as { output?: unknown } | null)?.output);
      return reply;
    } catch (error) {
      return this.#failure(route, error);
    }
  }

  /** A call the double cannot answer: the provider's 500 with the double's message, kept for `assertComplete()`. */
  #failure(route: Route, error: unknown): WireReply {
    this.#failures.push(error);
    const message = error instanceof Error ? error.message : String(error);
    return JSON.parse(callDoubles((e) => e.wireFailure(input(JSON.stringify({ route, message })))));
  }

  async #error(route: Route, step: Step, record: CallRecord): Promise<WireReply> {
    const error = step.error;
    const given = typeof step.retryAdvice === 'function' ? await (step.retryAdvice as (failed: unknown) => unknown)({ error, request: recorded(record), stream: route.streamed, attempt: this.#failed[record.index] }) : step.retryAdvice;
    const e = (typeof error === 'object' && error !== null ? error : {}) as { status?: unknown; statusCode?: unknown; message?: unknown; name?: unknown };
    const status = e.status ?? e.statusCode;
    const facts = {
      status: typeof status === 'number' ? status : undefined,
      message: typeof e.message === 'string' ? e.message : String(error),
      advice: typeof given === 'object' && given !== null ? given : undefined,
      name: typeof e.name === 'string' ? e.name : undefined,
      codes: causeCodes(error),
    };
    const reply = JSON.parse(callDoubles((x) => x.wireError(input(JSON.stringify({ route, facts }))))) as WireReply | null;
    if (reply === null) throw error;
    return reply;
  }
}

/** Resolves after `ms` milliseconds. */
function wait(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** A reply as a `Response`: a stream of its events (one per pull, `delay` ms apart), ended by an abort of `signal`. */
function toResponse(reply: WireReply, signal: AbortSignal | null | undefined, delay: number): Response {
  const init = { status: reply.status, headers: reply.headers };
  if (reply.events === undefined) return new Response(reply.body ?? '', init);
  const encoder = new (textCodec('TextEncoder'))();
  const events = reply.events;
  let next = 0;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (delay > 0 && next < events.length) await wait(delay);
      if (signal?.aborted) return controller.error(signal.reason ?? new DOMException('This operation was aborted', 'AbortError'));
      if (next < events.length) controller.enqueue(encoder.encode(events[next++]));
      else controller.close();
    },
  });
  return new Response(body, init);
}

/** `fetch` answering from a script, with the script's records and checks. */
export interface ScriptedFetch {
  (input: Request | URL | string, init?: RequestInit): Promise<Response>;
  /** Every request in order, each a frozen snapshot (a request the provider would refuse included). */
  readonly calls: readonly RecordedHttpCall[];
  /** The number of scripted steps not yet consumed. */
  readonly remainingSteps: number;
  /** Adds steps to the end of the script; one invalid input queues none of them. */
  enqueue(...inputs: ScriptedFetchInput[]): void;
  /** Throws `UnconsumedModelStepsError` when steps remain, or the error of a call the double could not answer. */
  assertComplete(): void;
}

/** @internal The script behind a `scriptedFetch` or a `providerServer`, as a transport reads it. */
export function attach<T extends object>(target: T, script: WireScript): T {
  script.owner = target;
  registerLoggedModel(target);
  Object.defineProperties(target, {
    calls: { get: () => script.calls, enumerable: true },
    remainingSteps: { get: () => script.remainingSteps, enumerable: true },
    enqueue: { value: (...inputs: ScriptedFetchInput[]) => script.enqueue(inputs) },
    assertComplete: { value: () => script.assertComplete() },
  });
  return target;
}

/**
 * A `fetch` that answers as the provider whose endpoint is called, from the same steps as
 * `scriptedLanguageModel` (`textStep`, `toolCall`, `reasoning`, `modelResponse` with usage,
 * `modelError` with retry advice, `modelResponder`): OpenAI Responses (`…/responses`) and
 * Chat Completions (`…/chat/completions`), Anthropic Messages (`…/messages`), Gemini
 * (`…/models/{model}:generateContent`, `:streamGenerateContent`), in JSON, or in the
 * provider's stream of events when the request asks for one. A request whose tool or output
 * schema the provider would refuse gets the provider's 400 (no step is taken); any other path
 * a 404 naming the endpoints. Needs no Node API: it runs wherever `fetch` does.
 *
 * Given `{ cassette, match? }` instead of steps, it replays what `recordingFetch` recorded:
 * each recorded response (status, headers, body, every streamed event) in order, or with
 * `match: 'request'` the one whose method, path and body equal the live request's.
 *
 * @throws {TypeError} an option of the wrong type or name.
 * @throws {InvalidScriptedModelStepError} a malformed step (at once).
 * @throws {InvalidCassetteError} a cassette that is not one (at once).
 *
 * With `match: 'request'`, a request no recorded one matches is answered with the provider's
 * 500 carrying the `CassetteMismatchError` (its `pointer` names the first differing field), and
 * `assertComplete()` throws that error.
 */
export function scriptedFetch(steps: Iterable<ScriptedFetchInput> | WireCassetteSource = [], options?: ScriptedFetchOptions): ScriptedFetch {
  const script = new WireScript(steps, fetchOptions('scriptedFetch', options), 'scriptedFetch');
  const fetch = async (resource: Request | URL | string, init?: RequestInit): Promise<Response> => {
    if (!(resource instanceof Request || resource instanceof URL || typeof resource === 'string')) {
      throw new TypeError(`scriptedFetch: the resource must be a Request, a URL or a string, got ${describeValue(resource)}.`);
    }
    if (init !== undefined && init !== null && (typeof init !== 'object' || Array.isArray(init))) {
      throw new TypeError(`scriptedFetch: init must be an object, got ${describeValue(init)}.`);
    }
    const request = resource instanceof Request && init === undefined ? resource : new Request(resource, init);
    const headers: Record<string, string> = {};
    request.headers.forEach((value, key) => (headers[key] = value));
    const body = await request.text();
    const signal = init?.signal ?? request.signal;
    if (signal?.aborted) throw signal.reason ?? new DOMException('This operation was aborted', 'AbortError');
    const reply = await script.respond({ method: request.method, url: request.url, headers, body });
    return toResponse(reply, signal, script.delay);
  };
  return attach(fetch, script) as unknown as ScriptedFetch;
}

installReplayFetch((source) => scriptedFetch(source));
