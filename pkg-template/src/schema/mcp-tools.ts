/**
 * The tools of an MCP server (`tools/list`, every page), through the official client
 * (`@modelcontextprotocol/sdk`, an optional peer loaded only here), over stdio or Streamable
 * HTTP; for the `check-tools` command. Node only.
 */

/** Why the tools could not be read: the command exits 2 with `message`. */
export class McpReadError extends Error {
  override readonly name = 'McpReadError';
}

/** Where the tools come from. */
export type McpSource = { command: string; args: string[] } | { url: string };

/** Options of {@link readMcpTools}. */
export interface ReadMcpOptions {
  /** Milliseconds to wait for the server to start and answer (default 30,000). */
  timeoutMs?: number;
  /** Called every `progressEveryMs` while the server has not answered, with the seconds waited. */
  onWaiting?: (seconds: number) => void;
  progressEveryMs?: number;
  /**
   * Environment variables for a server started over stdio, over the caller's own environment
   * (which it inherits whole: `KEY=x understudy check-tools --mcp "…"` reaches the server).
   */
  env?: Record<string, string>;
}

interface McpClient {
  connect(transport: unknown): Promise<void>;
  request(request: { method: string; params?: object }, resultSchema: unknown): Promise<any>;
  close(): Promise<void>;
}

/**
 * A result "schema" that takes any answer as it is, in the two forms the SDK's versions call
 * (`parse`, `safeParse`): the listing is read without the client's all-or-nothing validation,
 * so one malformed tool is a row of the report, not the end of the run.
 */
const AS_IT_IS = { parse: (data: unknown) => data, safeParse: (data: unknown) => ({ success: true, data }) };

/** The caller's environment as strings (what a child process inherits), with `extra` over it. */
function inherited(extra: Record<string, string> | undefined): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (typeof v === 'string') env[k] = v;
  return { ...env, ...extra };
}

/** What a connection failure to `url` means, in words: refused, not found, or the client's own message. */
function connectionFailure(error: unknown, url: string): string | undefined {
  const codes: unknown[] = [];
  for (let e: any = error, i = 0; e !== undefined && e !== null && i < 5; e = e.cause, i++) codes.push(e.code);
  const text = String((error as Error)?.message ?? error);
  if (codes.includes('ECONNREFUSED')) return `connection refused: nothing listens at ${url} (is the server running, on that port?)`;
  if (codes.includes('ENOTFOUND')) return `the host of ${url} was not found`;
  if (/\b404\b/.test(text)) return `404 Not Found at ${url}: is this a legacy SSE endpoint (often /sse)? check-tools speaks Streamable HTTP (often /mcp)`;
  if (/\b(401|403)\b/.test(text)) return `${/\b401\b/.test(text) ? '401 Unauthorized' : '403 Forbidden'} at ${url}: the server wants credentials`;
  return undefined;
}

/** The client SDK's modules; a clear error when the package is missing. */
async function sdk(): Promise<{ Client: new (info: object, options?: object) => McpClient; Stdio: any; Http: any }> {
  const load = (path: string) => import(`@modelcontextprotocol/sdk/${path}`);
  try {
    const [client, stdio, http] = await Promise.all([load('client/index.js'), load('client/stdio.js'), load('client/streamableHttp.js')]);
    return { Client: client.Client, Stdio: stdio.StdioClientTransport, Http: http.StreamableHTTPClientTransport };
  } catch (error) {
    const code = (error as { code?: string })?.code;
    if (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') {
      throw new McpReadError('Reading tools from an MCP server needs the official MCP client: npm install --save-dev @modelcontextprotocol/sdk');
    }
    throw error;
  }
}

/** Splits a command line as a shell would for simple cases: spaces separate, quotes group, `\` escapes. */
export function splitCommand(line: string): string[] {
  const words: string[] = [];
  let word = '';
  let quote: string | undefined;
  let started = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quote !== undefined) {
      if (c === quote) quote = undefined;
      else if (c === '\\' && quote === '"' && i + 1 < line.length) word += line[++i];
      else word += c;
    } else if (c === '"' || c === "'") {
      quote = c;
      started = true;
    } else if (c === '\\' && i + 1 < line.length) {
      word += line[++i];
      started = true;
    } else if (/\s/.test(c)) {
      if (started) words.push(word);
      word = '';
      started = false;
    } else {
      word += c;
      started = true;
    }
  }
  if (quote !== undefined) throw new McpReadError(`The command has an unclosed ${quote} quote: ${line}`);
  if (started) words.push(word);
  return words;
}

/** Rejects after `ms` with `message`; `clear` stops the timer. */
function deadline(ms: number, message: () => string): { promise: Promise<never>; clear: () => void } {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const promise = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new McpReadError(message())), ms);
  });
  return { promise, clear: () => clearTimeout(timer) };
}

/**
 * Connects to the server (the client's `initialize`), lists every page of its tools, closes.
 * Every failure is an {@link McpReadError} that says what happened: the server did not start,
 * exited, did not answer `initialize` or `tools/list` in time, or answered with an error.
 */
export async function readMcpTools(source: McpSource, options: ReadMcpOptions = {}): Promise<unknown[]> {
  const { Client, Stdio, Http } = await sdk();
  const timeoutMs = options.timeoutMs ?? 30_000;
  const what = 'url' in source ? `the MCP server at ${source.url}` : `the MCP server \`${[source.command, ...source.args].join(' ')}\``;
  let stderr = '';
  let transport: any;
  if ('url' in source) {
    let url: URL;
    try {
      url = new URL(source.url);
    } catch {
      throw new McpReadError(`--mcp-url must be a URL such as http://localhost:3000/mcp, got ${JSON.stringify(source.url)}.`);
    }
    transport = new Http(url);
  } else {
    transport = new Stdio({ command: source.command, args: source.args, stderr: 'pipe', env: inherited(options.env) });
    transport.stderr?.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-2000);
    });
  }
  const client = new Client({ name: 'understudy-check-tools', version: '1' });
  let exited: string | undefined;
  const waited = Date.now();
  const progress = options.onWaiting === undefined ? undefined : setInterval(() => options.onWaiting!(Math.round((Date.now() - waited) / 1000)), options.progressEveryMs ?? 2000);
  const tail = () => (stderr.trim() === '' ? '' : ` Its stderr ended with: ${stderr.trim().split('\n').slice(-5).join(' | ')}`);
  try {
    const started = deadline(timeoutMs, () => `${what} did not answer initialize within ${timeoutMs / 1000} s.${tail()}`);
    try {
      transport.onclose = () => {
        exited ??= 'closed the connection';
      };
      await Promise.race([client.connect(transport), started.promise]);
    } catch (error) {
      if (error instanceof McpReadError) throw error;
      const message = (error as Error)?.message ?? String(error);
      const code = (error as { code?: string })?.code;
      if (code === 'ENOENT') throw new McpReadError(`${what} did not start: ${source && 'command' in source ? source.command : ''} was not found.`);
      const failure = 'url' in source ? connectionFailure(error, source.url) : undefined;
      if (failure !== undefined) throw new McpReadError(`${what} could not be reached: ${failure}.`);
      throw new McpReadError(`${what} did not answer initialize: ${exited === undefined ? message : `it ${exited} (${message})`}.${tail()}`);
    } finally {
      started.clear();
    }
    const tools: unknown[] = [];
    let cursor: string | undefined;
    do {
      const listed = deadline(timeoutMs, () => `${what} did not answer tools/list within ${timeoutMs / 1000} s.${tail()}`);
      try {
        const page = await Promise.race([client.request({ method: 'tools/list', params: cursor === undefined ? {} : { cursor } }, AS_IT_IS), listed.promise]);
        tools.push(...(Array.isArray(page?.tools) ? page.tools : []));
        cursor = typeof page?.nextCursor === 'string' && page.nextCursor !== '' ? page.nextCursor : undefined;
      } catch (error) {
        if (error instanceof McpReadError) throw error;
        throw new McpReadError(`${what} failed tools/list: ${(error as Error)?.message ?? String(error)}.${tail()}`);
      } finally {
        listed.clear();
      }
    } while (cursor !== undefined);
    return tools;
  } finally {
    if (progress !== undefined) clearInterval(progress);
    await client.close().catch(() => undefined);
  }
}
