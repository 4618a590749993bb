/**
 * The `understudy` command (the package's `bin`): `check-tools` reads a tool set from an MCP
 * server (stdio or Streamable HTTP) or a JSON file and checks it for each provider. The
 * verdict and every message about a tool are the engine's (`checkTools`); this file reads
 * arguments, prints and chooses the exit code: 0 passes, 1 fails the check, 2 a usage or
 * connection error. `serve` runs `providerServer` from a script module until SIGTERM.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { providerServer } from '../doubles/provider-server.js';
import { parseArgs } from 'node:util';
import type { SchemaProviderName, ToolCheckPolicy } from '../engine/codes.js';
import type { ToolCheckReport, ToolCheckResult } from '../engine/engine-types.js';
import { toolCheck } from '../schema/tools.js';
import { McpReadError, readMcpTools, splitCommand } from '../schema/mcp-tools.js';

const HELP = `Usage: understudy <command> [options]

Commands:
  check-tools   check every tool of an MCP server or a JSON file for each provider and mode
  serve         serve OpenAI, Anthropic and Gemini's HTTP APIs from a script or a cassette

Run \`understudy <command> --help\` for a command's options, \`understudy --version\` for the version.`;

const USAGE = `Usage: understudy check-tools (--mcp "<command>" | --mcp-url <url> | --file <tools.json>) [options]

Checks every tool of an MCP server or a JSON file (a tools/list result or a tools array) for
each provider and request mode: accepted as it is (✓), converted (~, with what the conversion
loses) or refused (✗).

  --mcp "<command>"      start an MCP server over stdio, e.g. --mcp "node server.js"; it gets
                         your environment (KEY=x understudy check-tools --mcp "…" works)
  --env KEY=VALUE        one more variable for the --mcp server (repeat for several)
  --mcp-url <url>        an MCP server over Streamable HTTP, e.g. http://localhost:3000/mcp
  --file <path>          a JSON file: a tools/list result ({ tools: [...] }) or a tools array
  --provider <list>      the columns, each a provider or a provider with its mode (default:
                         openai,anthropic,gemini). A provider alone is checked in the mode each
                         tool declares with \`strict\`, else in its default: openai:strict,
                         anthropic:standard, gemini:openapi. The modes: openai:strict,
                         openai:standard, anthropic:standard, anthropic:strict,
                         gemini:openapi, gemini:json
  --outputs              also fail on output schemas MCP clients reject (reported either way)
  --json                 print the report as JSON
  --allow-converted      pass conversions that lose validation (only refusals fail)
  --fail-on-loss         fail conversions that lose anything, annotations included
  --timeout <seconds>    how long to wait for the server (default 30)
  -h, --help             this text

Exit codes: 0 every tool goes (accepted, or converted without losing validation); 1 a tool is
refused, breaks a request limit or (by default) loses validation; 2 a usage or connection error.`;

const SERVE_USAGE = `Usage: understudy serve --script <module> [--port <n>] [--host <host>]
       understudy serve --cassette <file> [--match order|request] [--port <n>] [--host <host>]
       understudy serve --upstream <url> --record <file> [--port <n>] [--host <host>]

Serves OpenAI (Responses, Chat Completions), Anthropic Messages and Gemini from one script, as
providerServer does, until SIGTERM or SIGINT; prints the URL on the first line of stdout.
Point OPENAI_BASE_URL at <url>/v1, ANTHROPIC_BASE_URL and Gemini's base URL at <url>.

  --script <module>      an ES module whose default export (or \`steps\`) is the steps, or a
                         function of the session id returning them; \`options\` it exports
                         are the server's

A request with the header x-understudy-session: <id> (or under the path /session/<id>/) runs
its own copy of the script; GET <url>/__understudy/sessions/<id>/calls returns its calls.
  --cassette <file>      replay a cassette recorded at the HTTP level
  --match <mode>         with --cassette: order (default) or request
  --upstream <url>       forward to this API (https://api.openai.com) and record
  --record <file>        with --upstream: the cassette file, saved after every exchange
  --port <n>             the port (default 0: a free one)
  --host <host>          the host (default 127.0.0.1)
  -h, --help             this text`;

class UsageError extends Error {}

type Out = { log: (text: string) => void; error: (text: string) => void };

/** Runs the command with `argv` (without `node` and the script); resolves to the exit code. */
export async function main(argv: readonly string[], out: Out = { log: (t) => process.stdout.write(`${t}\n`), error: (t) => process.stderr.write(`${t}\n`) }): Promise<number> {
  try {
    const [command, ...rest] = argv;
    if (command === undefined) {
      out.error(HELP);
      return 2;
    }
    if (command === '-h' || command === '--help' || command === 'help') {
      out.log(HELP);
      return 0;
    }
    if (command === '-v' || command === '--version') {
      out.log(version());
      return 0;
    }
    if (command === 'serve') return await serveCommand(rest, out);
    if (command !== 'check-tools') throw new UsageError(`Unknown command ${JSON.stringify(command)}: the commands are check-tools and serve.`);
    return await checkToolsCommand(rest, out);
  } catch (error) {
    if (error instanceof UsageError || error instanceof McpReadError) {
      out.error(`understudy: ${error.message}`);
      if (error instanceof UsageError) out.error(`Run \`understudy ${argv[0] === 'serve' ? 'serve' : 'check-tools'} --help\` for the options.`);
      return 2;
    }
    // A UserError of the package (an unknown provider, a file that is not a tool set).
    if ((error as Error)?.name === 'UserError') {
      out.error(`understudy: ${(error as Error).message}`);
      return 2;
    }
    throw error;
  }
}

async function checkToolsCommand(argv: readonly string[], out: Out): Promise<number> {
  let values: Record<string, string | boolean | string[] | undefined>;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: {
        mcp: { type: 'string' },
        env: { type: 'string', multiple: true },
        outputs: { type: 'boolean' },
        'mcp-url': { type: 'string' },
        file: { type: 'string' },
        provider: { type: 'string' },
        json: { type: 'boolean' },
        'allow-converted': { type: 'boolean' },
        'fail-on-loss': { type: 'boolean' },
        timeout: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (values.help) {
    out.log(USAGE);
    return 0;
  }
  const sources = (['mcp', 'mcp-url', 'file'] as const).filter((k) => values[k] !== undefined);
  if (sources.length !== 1) throw new UsageError(sources.length === 0 ? 'Give the tools: --mcp "<command>", --mcp-url <url> or --file <path>.' : `Give one source of tools, not ${sources.map((s) => `--${s}`).join(' and ')}.`);
  if (values['allow-converted'] && values['fail-on-loss']) throw new UsageError('--allow-converted and --fail-on-loss contradict each other: give one.');
  const policy: ToolCheckPolicy = values['allow-converted'] ? 'refusals' : values['fail-on-loss'] ? 'any-loss' : 'validation';
  const providers = values.provider === undefined ? undefined : (String(values.provider).split(',').map((p) => p.trim()).filter((p) => p !== '') as SchemaProviderName[]);
  const env: Record<string, string> = {};
  for (const pair of (values.env as string[] | undefined) ?? []) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new UsageError(`--env takes KEY=VALUE, got ${JSON.stringify(pair)}.`);
    env[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  if (Object.keys(env).length > 0 && values.mcp === undefined) throw new UsageError('--env goes with --mcp (a server this command starts).');
  const seconds = values.timeout === undefined ? 30 : Number(values.timeout);
  if (!(seconds > 0)) throw new UsageError(`--timeout must be a number of seconds above 0, got ${JSON.stringify(values.timeout)}.`);

  let tools: unknown;
  if (values.file !== undefined) {
    let text: string;
    try {
      text = readFileSync(String(values.file), 'utf8');
    } catch (error) {
      throw new UsageError(`Cannot read ${values.file}: ${(error as Error).message}`);
    }
    try {
      tools = JSON.parse(text);
    } catch (error) {
      throw new UsageError(`${values.file} is not JSON: ${(error as Error).message}`);
    }
  } else {
    const source = values.mcp !== undefined ? commandSource(String(values.mcp)) : { url: String(values['mcp-url']) };
    tools = await readMcpTools(source, {
      env,
      timeoutMs: seconds * 1000,
      onWaiting: (s) => out.error(`understudy: waiting for the MCP server (${s} s)…`),
    });
  }
  const { report, failure } = toolCheck(tools, providers, policy, 'check-tools', values.outputs === true);
  if (values.json) out.log(JSON.stringify({ ...report, failure }, null, 2));
  else out.log(table(report, failure));
  return failure === null ? 0 : 1;
}

/** `serve`: a provider server from a script module, until a signal stops it. */
async function serveCommand(argv: readonly string[], out: Out): Promise<number> {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: { script: { type: 'string' }, cassette: { type: 'string' }, match: { type: 'string' }, upstream: { type: 'string' }, record: { type: 'string' }, port: { type: 'string' }, host: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    }));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (values.help) {
    out.log(SERVE_USAGE);
    return 0;
  }
  const sources = ['script', 'cassette', 'upstream'].filter((k) => values[k] !== undefined);
  if (sources.length !== 1) throw new UsageError(sources.length === 0 ? 'Give the script: --script ./script.mjs (or --cassette <file>, or --upstream <url> --record <file>).' : `Give one of --script, --cassette and --upstream, not ${sources.map((k) => `--${k}`).join(' and ')}.`);
  if (values.match !== undefined && values.cassette === undefined) throw new UsageError('--match goes with --cassette.');
  if ((values.upstream === undefined) !== (values.record === undefined)) throw new UsageError('--upstream and --record go together: --upstream https://api.openai.com --record ./run.cassette.json.');
  const port = values.port === undefined ? 0 : Number(values.port);
  if (!(Number.isInteger(port) && port >= 0 && port <= 65535)) throw new UsageError(`--port must be an integer from 0 to 65535, got ${JSON.stringify(values.port)}.`);
  const listen = { port, ...(values.host === undefined ? {} : { host: String(values.host) }) };
  if (values.script === undefined) {
    const what = values.cassette !== undefined ? `the cassette ${values.cassette}` : `${values.upstream}, recording to ${values.record}`;
    const server =
      values.cassette !== undefined
        ? await providerServer({ cassette: resolve(String(values.cassette)), ...(values.match === undefined ? {} : { match: values.match as 'order' }) }, listen)
        : await providerServer({ upstream: String(values.upstream), path: resolve(String(values.record)) }, listen);
    return serveUntilSignal(server, what, out);
  }
  let module: { default?: unknown; steps?: unknown; options?: Record<string, unknown> };
  try {
    module = await import(pathToFileURL(resolve(String(values.script))).href);
  } catch (error) {
    const where = error instanceof SyntaxError ? syntaxErrorPlace(resolve(String(values.script))) : undefined;
    throw new UsageError(`Cannot load ${where ?? values.script}: ${(error as Error).message}`);
  }
  let steps = module.default ?? module.steps;
  if (typeof steps === 'function') {
    // A function of the session id: called at once for requests without a session (that
    // call may be async), and for each session when a request first names it.
    const perSession = steps as (session?: string) => unknown;
    const first = await perSession(undefined);
    steps = perSession.length === 0 ? first : (session: string | undefined) => (session === undefined ? first : perSession(session));
    if (first === undefined) steps = undefined;
  }
  if (steps === undefined) throw new UsageError(`${values.script} exports no steps: export default [ ... ] (or a function returning them).`);
  let server: { url: string; close(): Promise<void> };
  try {
    server = await providerServer(steps as never, { ...module.options, ...listen });
  } catch (error) {
    // A script the double refuses (a step it cannot take, an unknown option): the double's
    // own message, as a usage error of the command.
    if (error instanceof TypeError || typeof (error as { reason?: unknown })?.reason === 'string') {
      throw new UsageError(`${values.script} holds a script the server cannot take: ${(error as Error).message}`);
    }
    throw error;
  }
  return serveUntilSignal(server, String(values.script), out);
}

/**
 * Where a module's syntax error is, as `file:line:column`: Node's dynamic `import()` does not
 * say, its `--check` does (the first line of its report is `file:line`, the caret marks the
 * column). `undefined` when it cannot tell.
 */
function syntaxErrorPlace(file: string): string | undefined {
  let report = '';
  try {
    execFileSync(process.execPath, ['--check', file], { encoding: 'utf8', stdio: ['ignore', 'ignore', 'pipe'] });
    return undefined;
  } catch (error) {
    report = String((error as { stderr?: unknown }).stderr ?? '');
  }
  const lines = report.split('\n');
  const at = lines.findIndex((l) => /:\d+$/.test(l));
  if (at < 0) return undefined;
  const caret = lines[at + 2]?.indexOf('^') ?? -1;
  return `${lines[at]}${caret >= 0 ? `:${caret + 1}` : ''}`;
}

/** Prints the URL, then serves until SIGTERM or SIGINT. */
async function serveUntilSignal(server: { url: string; close(): Promise<void> }, what: string, out: Out): Promise<number> {
  out.log(server.url);
  out.error(`understudy: serving OpenAI, Anthropic and Gemini from ${what} at ${server.url} (OPENAI_BASE_URL=${server.url}/v1); stop with SIGTERM.`);
  await new Promise<void>((done) => {
    process.once('SIGTERM', done);
    process.once('SIGINT', done);
  });
  await server.close();
  return 0;
}

function commandSource(line: string): { command: string; args: string[] } {
  const [command, ...args] = splitCommand(line);
  if (command === undefined) throw new UsageError('--mcp needs a command, e.g. --mcp "node server.js".');
  return { command, args };
}

/** The package's version, from its package.json (the nearest one named @understudy/agents above this file). */
function version(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    const file = join(dir, 'package.json');
    if (existsSync(file)) {
      const pkg = JSON.parse(readFileSync(file, 'utf8'));
      if (pkg.name === '@understudy/agents') return String(pkg.version);
    }
    dir = dirname(dir);
  }
  return 'unknown';
}

/** A cell of the table: the status in a few characters, and the mode where a tool's own `strict` chose another. */
function cell(r: ToolCheckResult | undefined, column: string): string {
  if (r === undefined) return '';
  const mode = column.includes(':') || r.mode === defaultMode(column) ? '' : ` (${r.mode.split(':')[1]})`;
  if (r.status === 'accepted') return `✓${mode}`;
  if (r.status === 'refused') return `✗ ${r.reason}${mode}`;
  return (r.loss === 'none' ? '~ converted' : `~ loses ${r.loss}`) + mode;
}

/** The mode a provider named alone is checked in when a tool declares none. */
function defaultMode(column: string): string {
  return column.includes(':') ? column : { openai: 'openai:strict', anthropic: 'anthropic:standard', gemini: 'gemini:openapi' }[column] ?? column;
}

/** At most `n` characters, the rest as `…` (a long tool name must not break the table). */
function clip(text: string, n: number): string {
  const chars = [...text];
  return chars.length <= n ? text : `${chars.slice(0, n - 1).join('')}…`;
}

/** The report as a table (tool × provider and mode), then a line for each cell that is not ✓. */
function table(report: ToolCheckReport, failure: string | null): string {
  const rows = report.tools.map((tool) => ({ label: clip(tool, 40), results: report.providers.map((p) => report.results.find((r) => r.tool === tool && r.target === p)) }));
  const header = ['tool', ...report.providers.map(defaultMode)];
  const lines = [header, ...rows.map((r) => [r.label, ...r.results.map((x, i) => cell(x, report.providers[i]))])];
  const widths = header.map((_, i) => Math.max(...lines.map((l) => [...l[i]].length)));
  const text = lines.map((l) => l.map((c, i) => c + ' '.repeat(widths[i] - [...c].length)).join('  ').trimEnd());
  const details: string[] = [];
  for (const r of report.results) {
    if (r.status === 'refused') details.push(`✗ [${r.mode}] ${r.message} Fix: ${r.fix}`);
    else if (r.status === 'converted' && r.loss !== 'none') {
      const lost = (r.lost ?? []).map((c) => `${c.keyword} at ${c.pointer || '/'} ${c.kind}`);
      details.push(`~ [${r.mode}] converts ${r.tool}, losing ${r.loss}: ${lost.join(', ')}`);
    }
  }
  for (const l of report.limits) for (const b of l.breaches) details.push(`✗ [${l.provider}] ${b.message} (at ${b.pointer})`);
  for (const o of report.outputs) if (o.status === 'refused') details.push(`! ${o.message}`);
  for (const s of report.skipped) details.push(`- skipped ${s.tool}: ${s.reason}`);
  const breaches = report.limits.reduce((n, l) => n + l.breaches.length, 0);
  const outputs = report.outputs.filter((o) => o.status === 'refused').length;
  const notes = [breaches > 0 ? `${breaches} request-limit breach${breaches === 1 ? '' : 'es'}` : '', outputs > 0 ? `${outputs} output schema${outputs === 1 ? '' : 's'} MCP clients reject` : ''].filter(Boolean);
  const summary = (failure === null ? `${report.tools.length} tools: every one goes.` : `${failure.split('\n')[0].replace(/:$/, '')}.`) + (notes.length > 0 ? ` (${notes.join('; ')})` : '');
  return [...text, ...(details.length > 0 ? ['', ...details] : []), '', summary].join('\n');
}
