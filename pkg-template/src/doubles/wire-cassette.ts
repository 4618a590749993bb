/**
 * Cassettes at the HTTP level: `recordingFetch(realFetch)` forwards every request to a
 * provider's API and records the exchange (each streamed event as it arrives); the replay
 * behind `scriptedFetch({ cassette })` and `providerServer({ cassette })` answers from it. The
 * engine owns the document, what is kept of a request and a response, redaction and matching
 * (src/doubles/wire/tape.rs); this module moves `Request` and `Response` bodies.
 */
import { callDoubles, doublesInputText } from '../engine/channel.js';
import { describeValue, expectKnownOptions } from '../engine/args.js';
import { textCodec } from '../engine/host.js';
import { Recording, cassettePlan, errorOutcome, readCassette, toError } from './cassette.js';
import type { Cassette, RedactionOptions } from './cassette-format.js';
import type { ScriptedFetchInput, WireReply } from './wire-types.js';

/** A cassette to replay over HTTP: a file (Node) or a cassette object, in recorded order or by request. */
export interface WireCassetteSource {
  /** The cassette: the path of its file (Node) or the object `toScript()` gave. */
  cassette: string | Cassette;
  /** `'order'` (default): recorded exchanges in order. `'request'`: the unused exchange whose method, path and body equal the live request's (a miss is a `CassetteMismatchError` naming the first differing field). */
  match?: 'order' | 'request';
}

/** @internal A responder's answer that is already the reply on the wire. */
export const WIRE_REPLY = Symbol('understudy.wire-reply');

/**
 * @internal Marks a responder that reads the request as it came (`WireIncoming`), not its
 * record: a replay needs no parsed body or neutral form, which a long tool loop would pay for
 * on every turn.
 */
export const TAKES_INCOMING = Symbol('understudy.takes-incoming');

type Incoming = { method: string; url: string; body: string };

type ReplayStep = { kind: 'reply' | 'error'; reply?: WireReply; error?: { name: string; message: string } };

/** @internal Whether the first argument of `scriptedFetch` or `providerServer` names a cassette. */
export function isCassetteSource(value: unknown): value is WireCassetteSource {
  return typeof value === 'object' && value !== null && !(Symbol.iterator in value) && 'cassette' in value;
}

/**
 * @internal The steps replaying a wire cassette: one responder per recorded exchange, each
 * answering with the recorded reply (in order, or the exchange the engine picks for the live
 * request), a recorded failure thrown as it was.
 */
export function wireReplaySteps(source: WireCassetteSource, surface: string): ScriptedFetchInput[] {
  const { cassette, match } = expectKnownOptions(surface, source as unknown as Record<string, unknown>, ['cassette', 'match']) as unknown as WireCassetteSource;
  const byRequest = callDoubles((e) => e.cassetteMatchesByRequest(match));
  const replay = callDoubles((e) => new e.CassetteReplay(readCassette(cassette, surface), 2));
  const steps = JSON.parse(replay.steps()) as ReplayStep[];
  if (!byRequest) replay.free();
  const answer = (step: ReplayStep) => {
    if (step.kind === 'error') throw toError(step.error);
    return { [WIRE_REPLY]: step.reply } as never;
  };
  const byPick = (incoming: Incoming, index: number) => answer(steps[callDoubles(() => replay.pickHttp(incoming.method, incoming.url, doublesInputText(incoming.body), index))]);
  const marked = (respond: (incoming: Incoming, index: number) => unknown) => Object.assign(respond, { [TAKES_INCOMING]: true }) as never;
  return steps.map((step) => ({ type: 'responder' as const, respond: marked(byRequest ? byPick : () => answer(step)) }));
}

/** Options of {@link recordingFetch}: the other recordings' redaction, and a file. */
export interface RecordingFetchOptions extends RedactionOptions {
  /** Node: save the cassette to this file after every exchange. */
  path?: string;
}

/** A `fetch` that forwards to a real one and records each exchange with a provider's endpoints the double answers. */
export interface RecordingFetch {
  (input: Request | URL | string, init?: RequestInit): Promise<Response>;
  /** The number of exchanges recorded so far. */
  readonly recordedSteps: number;
  /**
   * The cassette recorded so far.
   *
   * @throws {InvalidCassetteError} reason `credential`: a string still looks like a credential.
   */
  toScript(): Cassette;
  /** Node: writes the cassette to `path` (only when it changed). */
  save(path: string): void;
}

/** The headers of a `Request` or `Response` as a plain object, names in lowercase. */
function headerObject(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  headers.forEach((value, key) => (out[key] = value));
  return out;
}

/**
 * Wraps `realFetch` (default: the global `fetch`) so each request to an endpoint the double
 * answers (OpenAI Responses and Chat Completions, Anthropic Messages, Gemini generateContent and
 * streamGenerateContent; embeddings, model lists and token counts) is recorded with its response: status, headers and body, a stream
 * event by event as the client reads it (a stream the client stops early is recorded as far as
 * it went), a request that got no response as its error. Requests to other paths are forwarded
 * and not recorded. Redaction is the other cassettes' (`redactKeys`, `redact`, `allowSecrets`),
 * and the `authorization`, `x-api-key` and `x-goog-api-key` headers and `key=` URL parameters
 * are always redacted. Give the result to a client as its `fetch`; replay with
 * `scriptedFetch({ cassette })` or `providerServer({ cassette })`.
 *
 * @throws {TypeError} `realFetch` is not a function, or an option of the wrong type or name.
 */
export function recordingFetch(realFetch: (input: Request | URL | string, init?: RequestInit) => Promise<Response> = globalThis.fetch, options: RecordingFetchOptions = {}): RecordingFetch {
  if (typeof realFetch !== 'function') throw new TypeError(`recordingFetch: realFetch must be a fetch function, got ${describeValue(realFetch)}.`);
  options = expectKnownOptions('recordingFetch', options, ['redactKeys', 'redact', 'allowSecrets', 'path']);
  const recording = new Recording(options, 2);
  const fetch = async (resource: Request | URL | string, init?: RequestInit): Promise<Response> => {
    const request = resource instanceof Request && init === undefined ? resource : new Request(resource, init);
    if (!callDoubles((e) => e.wireRoutes(request.method, request.url))) return realFetch(request);
    const body = await request.clone().text();
    const sent = JSON.stringify({ method: request.method, url: request.url, headers: headerObject(request.headers), body });
    let response: Response;
    try {
      response = await realFetch(request);
    } catch (error) {
      recording.record(sent, false, errorOutcome(error));
      throw error;
    }
    const head = { status: response.status, headers: headerObject(response.headers) };
    const finish = (text: string) => recording.record(sent, false, JSON.stringify({ ...head, body: text }));
    if (response.body === null) {
      finish('');
      return response;
    }
    // The body passes through as it arrives, and is recorded when it ends or the reader stops.
    const decoder = new (textCodec('TextDecoder'))();
    let text = '';
    let done = false;
    const end = () => {
      if (done) return;
      done = true;
      finish(text + decoder.decode());
    };
    const reader = response.body.getReader();
    const passed = new ReadableStream<Uint8Array>({
      async pull(controller) {
        let chunk: ReadableStreamReadResult<Uint8Array>;
        try {
          chunk = await reader.read();
        } catch (error) {
          end();
          return controller.error(error);
        }
        if (chunk.done) {
          end();
          return controller.close();
        }
        text += decoder.decode(chunk.value, { stream: true });
        controller.enqueue(chunk.value);
      },
      cancel(reason) {
        end();
        return reader.cancel(reason);
      },
    });
    return new Response(passed, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
  Object.defineProperties(fetch, {
    recordedSteps: { get: () => recording.steps, enumerable: true },
    toScript: { value: () => recording.toScript() },
    save: { value: (path: string) => recording.save(path) },
  });
  return fetch as unknown as RecordingFetch;
}

/** Options of {@link fetchCassette}: the recording's redaction, the replay's `match`, and the folder. */
export interface FetchCassetteOptions extends RedactionOptions {
  /** Folder of cassette files (default `cassettes`, relative to the working directory). */
  dir?: string;
  /** `true` records, `false` replays, whatever the environment says. */
  record?: boolean;
  /** How a replay answers: `'order'` (default) or `'request'`. */
  match?: 'order' | 'request';
}

type AnyFetch = (input: Request | URL | string, init?: RequestInit) => Promise<Response>;

/**
 * A `fetch` for a test, backed by `<dir>/<name>.cassette.json`, in the modes of the other
 * `cassette` helpers (`UNDERSTUDY_CASSETTES`: `auto` replays an existing cassette and records a
 * missing one, except under `CI`, where a missing one is a `CassetteMissingError`; `record`;
 * `replay`; `off`): a `recordingFetch` of `realFetch()` saving to the file, or a
 * `scriptedFetch({ cassette })` of it. `realFetch` is called only when the real API is used.
 *
 * @throws {CassetteMissingError} the cassette is missing and may not be recorded.
 */
export function fetchCassette(name: string, realFetch?: () => AnyFetch, options?: FetchCassetteOptions): AnyFetch;
/** The same, recording through the global `fetch`. */
export function fetchCassette(name: string, options: FetchCassetteOptions): AnyFetch;
/** The same, named after the running test (node:test, or vitest with `@understudy/agents/vitest`). */
export function fetchCassette(realFetch?: () => AnyFetch, options?: FetchCassetteOptions): AnyFetch;
/** The same, named after the running test, recording through the global `fetch`. */
export function fetchCassette(options: FetchCassetteOptions): AnyFetch;
export function fetchCassette(first?: string | (() => AnyFetch) | FetchCassetteOptions, second?: (() => AnyFetch) | FetchCassetteOptions, third?: FetchCassetteOptions): AnyFetch {
  const named = typeof first === 'string';
  let factory = named ? second : first;
  let options = (named ? third : second) as FetchCassetteOptions | undefined;
  // The real fetch may be left out (the global one): `fetchCassette('name', { … })`, `fetchCassette({ … })`.
  if (typeof factory === 'object' && factory !== null && options === undefined) {
    options = factory;
    factory = undefined;
  }
  factory ??= () => globalThis.fetch;
  if (typeof factory !== 'function') throw new TypeError(`fetchCassette: realFetch must be a function that returns the real fetch, got ${describeValue(factory)}.`);
  const known = ['dir', 'record', 'redactKeys', 'redact', 'allowSecrets', 'match'] as const;
  const { plan, path, realModel, options: checked } = named ? cassettePlan<AnyFetch, FetchCassetteOptions>(first as string, factory, options, known) : cassettePlan<AnyFetch, FetchCassetteOptions>(factory, options, undefined, known);
  options = checked;
  if (plan === 'off') return realModel();
  if (plan === 'record') return recordingFetch(realModel(), { redactKeys: options.redactKeys, redact: options.redact, allowSecrets: options.allowSecrets, path });
  // Installed by scripted-fetch.ts, which imports this module.
  return replayFetch({ cassette: path, match: options.match });
}

let replayFetch: (source: WireCassetteSource) => AnyFetch;

/** @internal `scriptedFetch`, given to {@link fetchCassette} by the module that defines it. */
export function installReplayFetch(replay: typeof replayFetch): void {
  replayFetch = replay;
}
