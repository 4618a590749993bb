/**
 * `providerServer(steps)`: the HTTP double as a local server (Node's `node:http`, on
 * 127.0.0.1), for code in another process or a client whose `fetch` cannot be given: point
 * `OPENAI_BASE_URL` (`${url}/v1`), `ANTHROPIC_BASE_URL` (`url`) or Gemini's base URL (`url`) at
 * it. One script serves every endpoint `scriptedFetch` answers, with the same rules; this
 * module only moves bytes between the socket and the script.
 */
import { nodeBuiltin } from '../engine/host.js';
import { callDoubles } from '../engine/channel.js';
import { describeValue, expectKnownOptions } from '../engine/args.js';
import { UserError } from '../engine/errors.js';
import { FETCH_OPTIONS, WireDouble, attachDouble, fetchOptions, wait, type RecordedHttpCall, type ScriptedFetchInput, type ScriptedFetchOptions, type WireSession } from './scripted-fetch.js';
import type { WireReply } from './wire-types.js';
import { recordingFetch, type RecordingFetch, type WireCassetteSource } from './wire-cassette.js';
import type { Cassette, RedactionOptions } from './cassette-format.js';

/**
 * A recording server's source: the real API's base URL, each request's path appended to it
 * (`https://api.openai.com` for clients whose base URL is `${url}/v1`), the redaction of
 * `recordingFetch`, and a file the cassette is saved to after every exchange.
 */
export interface UpstreamSource extends RedactionOptions {
  upstream: string;
  /** Node: save the cassette to this file after every exchange. */
  path?: string;
}

/** A provider server forwarding to a real API and recording what passes. */
export interface RecordingProviderServer {
  readonly url: string;
  readonly port: number;
  /** The number of exchanges recorded so far. */
  readonly recordedSteps: number;
  /** The cassette recorded so far (`InvalidCassetteError`, reason `credential`, when a string still looks like one). */
  toScript(): Cassette;
  /** Writes the cassette to `path` (only when it changed). */
  save(path: string): void;
  close(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

/** Options of {@link providerServer}: `scriptedFetch`'s, and where to listen. */
export interface ProviderServerOptions extends ScriptedFetchOptions {
  /** The port (default 0: a free one). */
  port?: number;
  /** The host (default `'127.0.0.1'`). */
  host?: string;
}

/** A running provider server. */
export interface ProviderServer {
  /** `http://127.0.0.1:<port>`, without a trailing slash (OpenAI clients want `${url}/v1`). */
  readonly url: string;
  readonly port: number;
  readonly calls: readonly RecordedHttpCall[];
  readonly remainingSteps: number;
  enqueue(...inputs: ScriptedFetchInput[]): void;
  assertComplete(): void;
  /**
   * The session `id`: requests naming it (`x-understudy-session: id`, or under the path
   * prefix `/session/id/`) run their own copy of the script. Another process reads a session's
   * calls at `GET ${url}/__understudy/sessions/{id}/calls`.
   */
  session(id: string): WireSession;
  /** Stops listening and closes open connections. */
  close(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

type NodeHttp = typeof import('node:http');

/**
 * Writes `reply` to `res`, an event per write, `delay` ms apart (the first after `firstDelay`),
 * ending as its fault says: the socket destroyed (before the status line, or after the events
 * written), or left open with nothing more (a stall, until the client gives up or the server
 * closes).
 */
async function send(res: import('node:http').ServerResponse, reply: WireReply, delay: number, firstDelay: number): Promise<void> {
  const end = reply.end;
  if (end?.beforeStatus) {
    if (end.cut === 'disconnect') res.socket?.destroy();
    return;
  }
  if (reply.events === undefined) {
    if (firstDelay > 0) await wait(firstDelay);
    res.writeHead(reply.status, Object.fromEntries(reply.headers));
    res.end(reply.body ?? '');
    return;
  }
  res.writeHead(reply.status, Object.fromEntries(reply.headers));
  res.flushHeaders();
  let written: Promise<unknown> = Promise.resolve();
  for (let i = 0; i < reply.events.length; i++) {
    const ms = i === 0 && firstDelay > 0 ? firstDelay : delay;
    if (ms > 0) await wait(ms);
    if (res.destroyed) return;
    written = new Promise((resolve) => res.write(reply.events![i], resolve));
  }
  if (end?.cut === 'disconnect') {
    // The events reach the client before the connection drops (destroying the socket at once
    // would discard what is still buffered).
    await written;
    res.destroy();
  } else if (end?.cut !== 'stall') res.end();
}

/** Response headers a proxy does not pass on (the engine's list, read once). */
let transferHeaders: Set<string> | undefined;

/** Writes a `Response` to `res` as its body arrives. */
async function pipe(res: import('node:http').ServerResponse, response: Response): Promise<void> {
  transferHeaders ??= new Set(callDoubles((e) => e.wireTransferHeaders()));
  const headers: Record<string, string> = {};
  response.headers.forEach((value, key) => {
    if (!transferHeaders!.has(key)) headers[key] = value;
  });
  res.writeHead(response.status, headers);
  if (response.body !== null) {
    const reader = response.body.getReader();
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      if (res.destroyed) return void reader.cancel();
      res.write(chunk.value);
    }
  }
  res.end();
}

type Incoming = { method: string; url: string; headers: Record<string, string>; body: string };

/** Reads `port` and `host`; the rest of `options` is returned for the source. */
function listenOptions(options: ProviderServerOptions | undefined, known: readonly string[]): { port: number; host: string; http: NodeHttp; rest: Record<string, unknown> } {
  const { port = 0, host = '127.0.0.1', ...rest } = expectKnownOptions('providerServer', options as Record<string, unknown> | undefined, [...known, 'port', 'host']) as ProviderServerOptions;
  if (!(Number.isInteger(port) && port >= 0 && port <= 65535)) throw new TypeError(`providerServer: options.port must be an integer from 0 to 65535, got ${describeValue(port)}.`);
  if (typeof host !== 'string') throw new TypeError(`providerServer: options.host must be a string, got ${describeValue(host)}.`);
  const http = nodeBuiltin<NodeHttp>('node:http');
  if (http === undefined) throw new UserError('providerServer needs node:http (Node, Deno or Bun); elsewhere give the client scriptedFetch as its fetch.');
  return { port, host, http, rest };
}

/**
 * Starts a server answering as OpenAI, Anthropic and Gemini from `steps` (the steps of
 * `scriptedFetch`), or from a cassette (`{ cassette, match? }`, as `scriptedFetch` replays
 * one). Resolves once it listens.
 *
 * @throws {TypeError} an option of the wrong type or name.
 * @throws {UserError} where there is no `node:http` (a browser, a Worker).
 */
export function providerServer(steps?: Iterable<ScriptedFetchInput> | WireCassetteSource | ((session: string | undefined) => Iterable<ScriptedFetchInput> | WireCassetteSource), options?: ProviderServerOptions): Promise<ProviderServer>;
/**
 * Starts a server that forwards every request to `upstream` (the request's path appended to
 * it) and records each exchange with a model endpoint as `recordingFetch` does: point a client
 * or another process at it once with a real key, then replay the cassette with
 * `providerServer({ cassette })`. Only `port` and `host` are options here.
 */
export function providerServer(source: UpstreamSource, options?: Pick<ProviderServerOptions, 'port' | 'host'>): Promise<RecordingProviderServer>;
export async function providerServer(steps: Iterable<ScriptedFetchInput> | WireCassetteSource | UpstreamSource | ((session: string | undefined) => Iterable<ScriptedFetchInput> | WireCassetteSource) = [], options?: ProviderServerOptions): Promise<ProviderServer | RecordingProviderServer> {
  if (typeof steps === 'object' && steps !== null && 'upstream' in steps) return recordingServer(steps as UpstreamSource, options);
  const { port, host, http, rest } = listenOptions(options, FETCH_OPTIONS);
  const double = new WireDouble(steps as Iterable<ScriptedFetchInput> | WireCassetteSource, fetchOptions('providerServer', rest), 'providerServer');
  const { url, address, close } = await listen(http, port, host, (incoming, res) =>
    double
      .respond(incoming)
      .then((reply) => send(res, reply, double.delay, double.firstDelay))
      // A scripted network failure or a responder's exception (or a socket that went away
      // while writing): the connection drops, as a failed upstream's would.
      .catch(() => res.destroy()),
  );
  const target = { url, port: address.port, close, [Symbol.asyncDispose]: close };
  return attachDouble(target, double) as unknown as ProviderServer;
}

async function recordingServer(source: UpstreamSource, options: ProviderServerOptions | undefined): Promise<RecordingProviderServer> {
  const { upstream, ...recordingOptions } = expectKnownOptions('providerServer', source as unknown as Record<string, unknown>, ['upstream', 'path', 'redactKeys', 'redact', 'allowSecrets']) as unknown as UpstreamSource;
  let base: URL;
  try {
    base = new URL(upstream);
  } catch {
    throw new TypeError(`providerServer: upstream must be an absolute URL (https://api.openai.com), got ${describeValue(upstream)}.`);
  }
  const root = base.href.replace(/\/+$/, '');
  const { port, host, http } = listenOptions(options, []);
  const recorder: RecordingFetch = recordingFetch(globalThis.fetch, recordingOptions);
  const { url, address, close } = await listen(http, port, host, (incoming, res) => {
    // The request as the client sent it, to the same path under `upstream` (the host is upstream's).
    const headers = Object.fromEntries(Object.entries(incoming.headers).filter(([k]) => k !== 'host' && k !== 'connection' && k !== 'content-length'));
    const body = incoming.method === 'GET' || incoming.method === 'HEAD' ? undefined : incoming.body;
    return recorder(`${root}${incoming.url}`, { method: incoming.method, headers, body })
      .then((response) => pipe(res, response))
      // The upstream is unreachable (recorded as the failure): the connection drops, as it would have.
      .catch(() => res.destroy());
  });
  return {
    url,
    port: address.port,
    get recordedSteps() {
      return recorder.recordedSteps;
    },
    toScript: () => recorder.toScript(),
    save: (path: string) => recorder.save(path),
    close,
    [Symbol.asyncDispose]: close,
  };
}

/** A `node:http` server on `host:port` handing each request, read whole, to `handle`. */
async function listen(http: NodeHttp, port: number, host: string, handle: (incoming: Incoming, res: import('node:http').ServerResponse) => Promise<unknown>) {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(', ') : v;
      void handle({ method: req.method ?? 'GET', url: req.url ?? '/', headers, body: Buffer.concat(chunks).toString('utf8') }, res);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address() as import('node:net').AddressInfo;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`;
  const close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections?.();
    });
  return { url, address, close };
}
