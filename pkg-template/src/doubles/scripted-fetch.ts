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
import { OverloadedError } from './wire-steps.js';
import { InvalidScriptedModelStepError, UnconsumedModelStepsError } from './model-errors.js';
import type { EmbeddingStep, FaultedStep, WireFault, WireEndpoint, WireRequest, RecordedHttpCall, ScriptedFetchInput, ScriptedFetchOptions, WireReply, WireIncoming } from './wire-types.js';

/** A responder made from the HTTP call: `fetchResponder(call => textStep(call.request.model))`; `call.request` is the neutral form, `call.body` the body as sent. */
export function fetchResponder(respond: (call: RecordedHttpCall) => ScriptedLanguageModelReply | Promise<ScriptedLanguageModelReply>): Extract<ScriptedFetchInput, { type: 'responder' }> {
  if (typeof respond !== 'function') throw new TypeError(`fetchResponder: respond must be a function, got ${describeValue(respond)}.`);
  return { type: 'responder', respond };
}

type Handle = import('../../wasm/node/understudy_doubles.js').ModelScript;
type Step = { type: string; response?: unknown; error?: unknown; retryAdvice?: unknown; respond?: (call: RecordedHttpCall) => unknown };
type Route = { endpoint: WireEndpoint; streamed: boolean; model: string };

/** @internal What the engine read of a request as it arrived (`wireArrive`). */
interface Arrived {
  reply?: WireReply;
  session?: string | null;
  /** The URL without a session's path prefix: what the script, its calls and a cassette see. */
  url?: string;
  journal?: true;
  service?: WireEndpoint;
  model?: string | null;
  embeds?: boolean;
  route?: Route;
  offered?: string[];
  schemas?: string;
}

/** A call as kept until it is read: its route and the request as it came. */
interface CallRecord {
  index: number;
  route: Route;
  incoming: WireIncoming;
  at: number;
  retryOf?: number;
  snapshot?: RecordedHttpCall;
}

/**
 * A call's record as `calls` shows it, made when first read and kept: the body parsed, its
 * neutral form read by the engine, frozen. A tool loop sends its whole history every turn;
 * reading each request only when it is looked at keeps a turn's cost to what the turn sends.
 */
function recorded(record: CallRecord): RecordedHttpCall {
  if (record.snapshot === undefined) {
    const { route, incoming, at, retryOf } = record;
    let body: unknown;
    try {
      body = JSON.parse(incoming.body);
    } catch {
      body = incoming.body;
    }
    const request = JSON.parse(callDoubles((e) => e.wireNeutral(route.endpoint, route.model, route.streamed, input(incoming.body)))) as WireRequest;
    const fields = { index: record.index, endpoint: route.endpoint, streamed: route.streamed, method: incoming.method.toUpperCase(), url: incoming.url, headers: incoming.headers, body, request, at };
    record.snapshot = frozenSnapshot(retryOf === undefined ? fields : { ...fields, retryOf }) as RecordedHttpCall;
  }
  return record.snapshot;
}

export const FETCH_OPTIONS = ['deltaSize', 'chunkDelayInMs', 'firstChunkDelayInMs', 'allowUnofferedTools'] as const;

type ReadOptions = Required<Pick<ScriptedFetchOptions, 'chunkDelayInMs' | 'firstChunkDelayInMs' | 'allowUnofferedTools'>> & { deltaSize?: number };

/** Refuses options of the wrong type; returns them read. */
export function fetchOptions(surface: string, options: ScriptedFetchOptions | undefined, known: readonly string[] = FETCH_OPTIONS): ReadOptions {
  const { deltaSize, chunkDelayInMs = 0, firstChunkDelayInMs = 0, allowUnofferedTools = false } = expectKnownOptions(surface, options as Record<string, unknown> | undefined, known as string[]) as ScriptedFetchOptions;
  if (deltaSize !== undefined && !(Number.isInteger(deltaSize) && deltaSize > 0 && deltaSize <= 0xffffffff)) {
    throw new TypeError(`${surface}: options.deltaSize must be a positive integer, got ${describeValue(deltaSize)}.`);
  }
  for (const [name, value] of [['chunkDelayInMs', chunkDelayInMs], ['firstChunkDelayInMs', firstChunkDelayInMs]] as const) {
    if (!(typeof value === 'number' && value >= 0 && Number.isFinite(value))) throw new TypeError(`${surface}: options.${name} must be a non-negative number, got ${describeValue(value)}.`);
  }
  if (typeof allowUnofferedTools !== 'boolean') throw new TypeError(`${surface}: options.allowUnofferedTools must be a boolean, got ${describeValue(allowUnofferedTools)}.`);
  return { deltaSize, chunkDelayInMs, firstChunkDelayInMs, allowUnofferedTools };
}

/** The steps of `inputs`, checked as the AI SDK double checks its answers (its errors naming `scriptedFetch`). */
function wireSteps(inputs: unknown[]): [steps: object[], plan: string] {
  return languageModelSteps(inputs, 2);
}

/** What identifies a request when it is sent again: its method, URL and body. */
function requestKey(incoming: WireIncoming): string {
  return `${incoming.method.toUpperCase()} ${incoming.url}\n${incoming.body}`;
}

/** Milliseconds on a monotonic clock. */
const now = (): number => globalThis.performance?.now() ?? Date.now();

/** Inputs as a script queues them: the engine's steps and plan, each step's fault, the embedding steps. */
type Split = { queued: object[]; plan: string; faults: (WireFault | undefined)[]; embeddings: EmbeddingStep[] };

/** A script's source for each session: `undefined` is the requests without one. */
type ScriptSource = (session: string | undefined) => Iterable<ScriptedFetchInput> | WireCassetteSource;

/**
 * @internal One script answering HTTP requests: the queue, the call records, the tool log
 * (under `owner`, the object the assertions take). A `WireDouble` holds one per session.
 */
export class WireScript {
  readonly #script: Handle;
  readonly #records: CallRecord[] = [];
  readonly #failed: number[] = [];
  /** Errors answered as 500s (an answer with no wire form, a call past the script): `assertComplete()` throws the first. */
  readonly #failures: unknown[] = [];
  readonly #options: ReadOptions;
  /** A cassette's replay: its recorded answers stand, so no refusal is made up. */
  readonly #replay: boolean;
  readonly #surface: number;
  readonly #started: number;
  /** Each queued step's fault, in queue order, and how many steps were taken. */
  readonly #faults: (WireFault | undefined)[] = [];
  #taken = 0;
  /** The embedding steps not yet used, in order. */
  readonly #embeddings: EmbeddingStep[] = [];
  /** The last call of each request (method, URL, body) that failed: a call sending it again is its retry. */
  readonly #failedBy = new Map<string, number>();
  owner: object = this;

  constructor(source: Iterable<ScriptedFetchInput> | WireCassetteSource, options: ReadOptions, surface: string, started: number) {
    this.#replay = isCassetteSource(source);
    const inputs = this.#replay ? wireReplaySteps(source as WireCassetteSource, surface) : source;
    if (typeof (inputs as { [Symbol.iterator]?: unknown } | null)?.[Symbol.iterator] !== 'function') {
      throw new TypeError(`${surface}: steps must be an iterable of steps or { cassette }, got ${describeValue(inputs)}.`);
    }
    this.#options = options;
    this.#started = started;
    // The surface code the engine names in messages: 2 scriptedFetch, 3 providerServer.
    this.#surface = surface === 'providerServer' ? 3 : 2;
    const code = this.#surface;
    // Checked before the script is made: a refused input leaves no engine handle behind.
    const split = this.#split(Array.from(inputs as Iterable<ScriptedFetchInput>));
    this.#script = callDoubles((e) => new e.ModelScript(code));
    this.#queue(split);
  }

  /**
   * `inputs` as the engine's steps (checked), each step's fault, and the embedding steps, which
   * take no place in the model's queue. An invalid input is reported at its place in `inputs`.
   */
  #split(inputs: readonly unknown[]): Split {
    const steps: unknown[] = [];
    const places: number[] = [];
    const faults: (WireFault | undefined)[] = [];
    const embeddings: EmbeddingStep[] = [];
    inputs.forEach((item, place) => {
      const type = (item as { type?: unknown } | null)?.type;
      if (type === 'embedding') return void embeddings.push(item as EmbeddingStep);
      places.push(place);
      steps.push(type === 'fault' ? (item as FaultedStep).step : item);
      faults.push(type === 'fault' ? (item as FaultedStep).fault : undefined);
    });
    try {
      const [queued, plan] = wireSteps(steps);
      return { queued, plan, faults, embeddings };
    } catch (error) {
      const at = (error as { inputIndex?: unknown }).inputIndex;
      if (!(error instanceof InvalidScriptedModelStepError) || typeof at !== 'number' || places[at] === at) throw error;
      // The engine numbered the inputs without the embedding steps: the message names the input as given.
      const fields = error as unknown as { reason: string; stepType?: string };
      const message = error.message.replace(`input #${at + 1}`, `input #${places[at] + 1}`);
      throw new InvalidScriptedModelStepError({ message, reason: fields.reason, inputIndex: places[at], stepType: fields.stepType } as never);
    }
  }

  #queue({ queued, plan, faults, embeddings }: Split): void {
    callDoubles(() => this.#script.enqueue(queued, plan));
    this.#faults.push(...faults);
    this.#embeddings.push(...embeddings);
  }

  get calls(): readonly RecordedHttpCall[] {
    return Object.freeze(this.#records.map(recorded));
  }

  get remainingSteps(): number {
    return this.#script.remainingSteps + this.#embeddings.length;
  }

  enqueue(inputs: readonly unknown[]): void {
    this.#queue(this.#split(inputs));
  }

  assertComplete(): void {
    // The first call the double could not answer says more than the steps it left (a replay's
    // miss left its exchange unused).
    if (this.#failures.length > 0) throw this.#failures[0];
    if (this.#embeddings.length > 0) throw new UnconsumedModelStepsError(this.remainingSteps);
    callDoubles(() => this.#script.assertComplete());
  }

  /**
   * Whether the call `record` failed: a later call sending its request again retries it. The
   * request's key (its whole body) is made only while a failure is on record or one is recorded.
   */
  #settled(record: CallRecord, failed: boolean): void {
    if (failed) this.#failedBy.set(requestKey(record.incoming), record.index);
    else if (this.#failedBy.size > 0) this.#failedBy.delete(requestKey(record.incoming));
  }

  #record(route: Route, incoming: WireIncoming): CallRecord {
    const retryOf = this.#failedBy.size > 0 ? this.#failedBy.get(requestKey(incoming)) : undefined;
    const record: CallRecord = { index: this.#records.length, route, incoming, at: now() - this.#started, retryOf };
    this.#records.push(record);
    return record;
  }

  /**
   * A request to an endpoint answered without a step: recorded; an embedding one takes the next
   * `embeddingStep` if any. A cassette's replay answers it with its recorded exchange, as it
   * answers a model call.
   */
  service(incoming: WireIncoming, arrived: Arrived): WireReply | Promise<WireReply> {
    const route: Route = { endpoint: arrived.service!, streamed: false, model: arrived.model ?? '' };
    if (this.#replay) return this.respond(incoming, { ...arrived, route, offered: [], schemas: '{}' });
    const record = this.#record(route, incoming);
    let reply = arrived.reply!;
    const step = arrived.embeds ? this.#embeddings.shift() : undefined;
    if (step !== undefined) {
      const given = JSON.parse(callDoubles((e) => e.wireService(route.endpoint, arrived.model ?? undefined, JSON.stringify(step.vectors), input(incoming.body)))) as { reply?: WireReply; problem?: string };
      if (given.problem !== undefined) {
        const name = this.#surface === 3 ? 'providerServer' : 'scriptedFetch';
        const error = new InvalidScriptedModelStepError({ message: `${name} call #${record.index + 1} (${route.endpoint}): ${given.problem}.`, reason: 'invalid_response', callIndex: record.index, stepType: 'embedding' } as never);
        return this.#failure(route, error);
      }
      reply = given.reply!;
    }
    this.#settled(record, reply.status >= 400);
    return reply;
  }

  /**
   * The reply to one model request. Throws only what the call should throw as it is: a
   * responder's exception, or a scripted error without an HTTP status (a network failure).
   */
  async respond(incoming: WireIncoming, arrived: Arrived): Promise<WireReply> {
    const route = arrived.route!;
    const record = this.#record(route, incoming);
    logRequest(this.owner, { tools: arrived.offered!.map((name) => ({ type: 'function', name })) });
    // The provider refuses the request before any model runs: no step is taken.
    const refusal = this.#replay ? 'null' : callEngine((e) => e.wireRefusal(route.endpoint, engineInput(arrived.schemas!)));
    if (refusal !== 'null') {
      this.#settled(record, true);
      return JSON.parse(refusal) as WireReply;
    }
    let step: Step;
    try {
      step = callDoubles(() => this.#script.take(route.streamed)) as Step;
    } catch (error) {
      return this.#failure(route, error);
    }
    const fault = this.#faults[this.#taken++];
    const before = this.#failed[this.#failed.length - 1] ?? 0;
    this.#failed.push(step.type === 'error' ? before + 1 : 0);
    if (step.type === 'error') {
      this.#settled(record, true);
      return this.#error(route, step, record);
    }
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
      this.#settled(record, true);
      throw error;
    }
    if (typeof answer === 'object' && answer !== null && WIRE_REPLY in answer) return (answer as { [WIRE_REPLY]: WireReply })[WIRE_REPLY];
    const offered = this.#options.allowUnofferedTools ? undefined : arrived.offered;
    let text: string;
    try {
      text = JSON.stringify(fault === undefined ? { route, answer } : { route, answer, fault });
      const reply = JSON.parse(callDoubles((e) => e.wireAnswer(input(text), record.index, offered, this.#options.deltaSize, this.#surface))) as WireReply;
      logOutput(this.owner, Array.isArray(answer) ? answer : (answer as { output?: unknown } | null)?.output);
      this.#settled(record, fault !== undefined);
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
      fault: error instanceof OverloadedError ? 'overloaded' : undefined,
    };
    const reply = JSON.parse(callDoubles((x) => x.wireError(input(JSON.stringify({ route, facts }))))) as WireReply | null;
    if (reply === null) throw error;
    return reply;
  }
}

/** A session's view: its calls, steps and completion, which the assertions take as a double. */
export interface WireSession {
  /** The session's id. */
  readonly id: string;
  /** The session's requests in order, each a frozen snapshot. */
  readonly calls: readonly RecordedHttpCall[];
  /** The number of the session's scripted steps not yet consumed. */
  readonly remainingSteps: number;
  /** Adds steps to the end of the session's script. */
  enqueue(...inputs: ScriptedFetchInput[]): void;
  /** Throws `UnconsumedModelStepsError` when the session's steps remain, or the error of a call it could not answer. */
  assertComplete(): void;
}

/**
 * @internal The HTTP double: the script of requests without a session, and one copy of the
 * script per session a request names (`x-understudy-session`, or the path prefix
 * `/session/{id}/`), made when the session is first seen. `scriptedFetch` and `providerServer`
 * are its two transports.
 */
export class WireDouble {
  readonly #source: ScriptSource;
  readonly #options: ReadOptions;
  readonly #surface: string;
  readonly #started = now();
  readonly main: WireScript;
  readonly #sessions = new Map<string, WireSession>();
  readonly #scripts = new Map<string, WireScript>();

  constructor(steps: Iterable<ScriptedFetchInput> | WireCassetteSource | ScriptSource, options: ReadOptions, surface: string) {
    this.#options = options;
    this.#surface = surface;
    if (typeof steps === 'function') this.#source = steps as ScriptSource;
    else {
      // One list for every session: an iterator is read once.
      const list = !isCassetteSource(steps) && typeof (steps as { [Symbol.iterator]?: unknown } | null)?.[Symbol.iterator] === 'function' ? Array.from(steps as Iterable<ScriptedFetchInput>) : steps;
      this.#source = () => list;
    }
    this.main = new WireScript(this.#source(undefined), options, surface, this.#started);
  }

  get delay(): number {
    return this.#options.chunkDelayInMs;
  }

  get firstDelay(): number {
    return this.#options.firstChunkDelayInMs;
  }

  /** The session `id`'s view, its script made from the source when first asked for. */
  session(id: string): WireSession {
    if (typeof id !== 'string' || id.length === 0) throw new TypeError(`${this.#surface}: session(id) takes a non-empty string, got ${describeValue(id)}.`);
    let view = this.#sessions.get(id);
    if (view === undefined) {
      const script = new WireScript(this.#source(id), this.#options, this.#surface, this.#started);
      view = attach({ id } as unknown as WireSession, script);
      this.#sessions.set(id, view);
      this.#scripts.set(id, script);
    }
    return view;
  }

  /** The reply to one request, in the session it names. */
  async respond(incoming: WireIncoming): Promise<WireReply> {
    const arrived = JSON.parse(callDoubles((e) => e.wireArrive(incoming.method, incoming.url, JSON.stringify(incoming.headers), input(incoming.body)))) as Arrived;
    if (arrived.reply !== undefined && arrived.service === undefined) return arrived.reply;
    const id = arrived.session ?? undefined;
    if (arrived.journal) {
      if (id !== undefined && !this.#scripts.has(id)) return JSON.parse(callDoubles((e) => e.wireUnknownSession(id, [...this.#scripts.keys()])));
      const calls = id === undefined ? this.main.calls : this.#scripts.get(id)!.calls;
      return { status: 200, headers: [['content-type', 'application/json']], body: JSON.stringify(calls) };
    }
    if (id !== undefined) {
      try {
        this.session(id);
      } catch (error) {
        // The session's script cannot be made (the source function threw, or gave no steps):
        // the double's 500, which `session(id)` throws again.
        const message = `${this.#surface} cannot start session ${JSON.stringify(id)}: ${error instanceof Error ? error.message : String(error)}`;
        return JSON.parse(callDoubles((e) => e.wireDoubleError(500, message)));
      }
    }
    const script = id === undefined ? this.main : this.#scripts.get(id)!;
    const seen = arrived.url === undefined || arrived.url === incoming.url ? incoming : { ...incoming, url: arrived.url };
    return arrived.service !== undefined ? script.service(seen, arrived) : script.respond(seen, arrived);
  }
}

/** Resolves after `ms` milliseconds (`Infinity`: never), or rejects when `signal` aborts first. */
export function wait(ms: number, signal?: AbortSignal | null): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortReason(signal));
    const timer = ms === Infinity ? undefined : setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortReason(signal!));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('This operation was aborted', 'AbortError');
}

/** The error `fetch` gives when the other side closes the connection (undici's words and cause). */
function connectionLost(message: string): TypeError {
  const cause = Object.assign(new Error('other side closed'), { name: 'SocketError', code: 'UND_ERR_SOCKET' });
  return new TypeError(message, { cause });
}

/**
 * A reply as a `Response`: a stream of its events (one per pull, `delay` ms apart, the first
 * after `firstDelay`), ended by an abort of `signal`, or as its fault says: a connection closed
 * (before the status: `fetch` rejects; after some events: the body errors) or a stall (nothing
 * more until `signal` aborts).
 */
async function toResponse(reply: WireReply, signal: AbortSignal | null | undefined, delay: number, firstDelay: number): Promise<Response> {
  const end = reply.end;
  if (end?.beforeStatus) {
    if (end.cut === 'disconnect') throw connectionLost('fetch failed');
    await wait(Infinity, signal);
  }
  const init = { status: reply.status, headers: reply.headers };
  if (reply.events === undefined) {
    if (firstDelay > 0) await wait(firstDelay, signal);
    return new Response(reply.body ?? '', init);
  }
  const encoder = new (textCodec('TextEncoder'))();
  const events = reply.events;
  let next = 0;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const pause = next === 0 && firstDelay > 0 ? firstDelay : next < events.length ? delay : 0;
      try {
        if (pause > 0) await wait(pause, signal);
        if (signal?.aborted) throw abortReason(signal);
        if (next < events.length) return controller.enqueue(encoder.encode(events[next++]));
        if (end?.cut === 'disconnect') {
          // As a socket's close follows its last data: what the client's stream stages hold
          // is read before the error reaches them (an error discards a stream's queue).
          await wait(0, signal);
          throw connectionLost('terminated');
        }
        if (end?.cut === 'stall') await wait(Infinity, signal);
        controller.close();
      } catch (error) {
        controller.error(error);
      }
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
  /**
   * The session `id`: the requests that named it (`x-understudy-session: id`, or the path
   * prefix `/session/id/`) run their own copy of the script, with their own calls and
   * completion. Asking before any request makes the session, so `assertComplete()` fails on
   * its unused steps.
   */
  session(id: string): WireSession;
}

/** @internal A script as a target's `calls`, `remainingSteps`, `enqueue` and `assertComplete`. */
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

/** @internal The double behind a `scriptedFetch` or a `providerServer`: its main script, and its sessions. */
export function attachDouble<T extends object>(target: T, double: WireDouble): T {
  attach(target, double.main);
  Object.defineProperty(target, 'session', { value: (id: string) => double.session(id) });
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
 * A request naming a session (`x-understudy-session: id`, or under `/session/id/`) runs its
 * own copy of the script (`fetch.session(id)` reads it); given a function instead of steps,
 * each session's script is `steps(id)` (and `steps(undefined)` for requests without one).
 * Embedding requests, model lists and token counts are answered without a step (see
 * `embeddingStep` for exact vectors); `withFault` fails a step's answer as a connection does.
 *
 * @throws {TypeError} an option of the wrong type or name.
 * @throws {InvalidScriptedModelStepError} a malformed step (at once).
 * @throws {InvalidCassetteError} a cassette that is not one (at once).
 *
 * With `match: 'request'`, a request no recorded one matches is answered with the provider's
 * 500 carrying the `CassetteMismatchError` (its `pointer` names the first differing field), and
 * `assertComplete()` throws that error.
 */
export function scriptedFetch(steps: Iterable<ScriptedFetchInput> | WireCassetteSource | ((session: string | undefined) => Iterable<ScriptedFetchInput> | WireCassetteSource) = [], options?: ScriptedFetchOptions): ScriptedFetch {
  const double = new WireDouble(steps, fetchOptions('scriptedFetch', options), 'scriptedFetch');
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
    const reply = await double.respond({ method: request.method, url: request.url, headers, body });
    return toResponse(reply, signal, double.delay, double.firstDelay);
  };
  return attachDouble(fetch, double) as unknown as ScriptedFetch;
}

installReplayFetch((source) => scriptedFetch(source));
