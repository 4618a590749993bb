/**
 * `providerServer(steps)`: the HTTP double as a local server (Node's `node:http`, on
 * 127.0.0.1), for code in another process or a client whose `fetch` cannot be given: point
 * `OPENAI_BASE_URL` (`${url}/v1`), `ANTHROPIC_BASE_URL` (`url`) or Gemini's base URL (`url`) at
 * it. One script serves every endpoint `scriptedFetch` answers, with the same rules; this
 * module only moves bytes between the socket and the script.
 */
import { nodeBuiltin } from '../engine/host.js';
import { describeValue, expectKnownOptions } from '../engine/args.js';
import { UserError } from '../engine/errors.js';
import { FETCH_OPTIONS, WireScript, attach, fetchOptions, type RecordedHttpCall, type ScriptedFetchInput, type ScriptedFetchOptions, type WireReply } from './scripted-fetch.js';

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
  /** Stops listening and closes open connections. */
  close(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

type NodeHttp = typeof import('node:http');

/** Writes `reply` to `res`, an event per write, `delay` ms apart. */
async function send(res: import('node:http').ServerResponse, reply: WireReply, delay: number): Promise<void> {
  res.writeHead(reply.status, Object.fromEntries(reply.headers));
  if (reply.events === undefined) {
    res.end(reply.body ?? '');
    return;
  }
  for (const event of reply.events) {
    if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
    if (res.destroyed) return;
    res.write(event);
  }
  res.end();
}

/**
 * Starts a server answering as OpenAI, Anthropic and Gemini from `steps` (the steps of
 * `scriptedFetch`). Resolves once it listens.
 *
 * @throws {TypeError} an option of the wrong type or name.
 * @throws {UserError} where there is no `node:http` (a browser, a Worker).
 */
export async function providerServer(steps: Iterable<ScriptedFetchInput> = [], options?: ProviderServerOptions): Promise<ProviderServer> {
  const { port = 0, host = '127.0.0.1', ...rest } = expectKnownOptions('providerServer', options as Record<string, unknown> | undefined, [...FETCH_OPTIONS, 'port', 'host']) as ProviderServerOptions;
  if (!(Number.isInteger(port) && port >= 0 && port <= 65535)) throw new TypeError(`providerServer: options.port must be an integer from 0 to 65535, got ${describeValue(port)}.`);
  if (typeof host !== 'string') throw new TypeError(`providerServer: options.host must be a string, got ${describeValue(host)}.`);
  const http = nodeBuiltin<NodeHttp>('node:http');
  if (http === undefined) throw new UserError('providerServer needs node:http (Node, Deno or Bun); elsewhere give the client scriptedFetch as its fetch.');
  const script = new WireScript(steps, fetchOptions('providerServer', rest), 'providerServer');
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(', ') : v;
      const incoming = { method: req.method ?? 'GET', url: req.url ?? '/', headers, body: Buffer.concat(chunks).toString('utf8') };
      script
        .respond(incoming)
        .then((reply) => send(res, reply, script.delay))
        // A scripted network failure or a responder's exception (or a socket that went away
        // while writing): the connection drops, as a failed upstream's would.
        .catch(() => res.destroy());
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
  const target = { url, port: address.port, close, [Symbol.asyncDispose]: close };
  return attach(target, script) as unknown as ProviderServer;
}
