// Every tool, every provider, before the request: checkTools over each form a tool set comes
// in, assertToolsAccepted, and the `understudy check-tools` command against a real MCP server
// (the official SDK, over stdio and Streamable HTTP) and JSON files.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { jsonSchema, tool as aiTool } from 'ai';
import { tool as agentsTool, webSearchTool } from '@openai/agents';
import { checkTools, UserError, UnsupportedStandardSchemaError } from '@understudy/agents';
import { assertToolsAccepted } from '@understudy/agents/ai-sdk/testing';
import { TOOLS, expected } from './fixtures/mcp-tools.mjs';
import { packed, root, sh } from './pack.mjs';

const cli = join(root, 'node_modules', '@understudy', 'agents', 'esm-node', 'cli.js');
const server = join(root, 'js-tests', 'fixtures', 'mcp-server.mjs');

/** `tool` or `tool (output)` -> provider -> `accepted` | `converted/<loss>` | `refused/<reason>`. */
function verdicts(report) {
  const out = {};
  for (const r of report.results) {
    const key = r.schema === 'output' ? `${r.tool} (output)` : r.tool;
    (out[key] ??= {})[r.provider] = r.status === 'accepted' ? 'accepted' : r.status === 'converted' ? `converted/${r.loss}` : `refused/${r.reason}`;
  }
  return out;
}

/** Runs the command; resolves to { code, stdout, stderr }. */
function run(args, { timeout = 60_000 } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, ...args], { cwd: root });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill(), timeout);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

const scratch = mkdtempSync(join(tmpdir(), 'understudy-check-tools-'));
const file = (name, value) => {
  const path = join(scratch, name);
  writeFileSync(path, typeof value === 'string' ? value : JSON.stringify(value));
  return path;
};

test('checkTools says for each tool what each provider does, as providers.md says', () => {
  const report = checkTools(TOOLS);
  assert.deepEqual(report.providers, ['openai', 'anthropic', 'gemini']);
  assert.deepEqual(report.tools, TOOLS.map((t) => t.name));
  assert.deepEqual(verdicts(report), expected);
  assert.ok(report.limits.every((l) => l.breaches.length === 0));
  const refused = report.results.find((r) => r.tool === 'read_file' && r.provider === 'openai');
  assert.equal(refused.pointer, '/properties/path');
  assert.equal(refused.keyword, 'format');
  assert.match(refused.message, /^OpenAI refuses the input schema of tool `read_file` at `\/properties\/path`: .*'uri' is not a valid format/);
  assert.match(refused.fix, /^Drop `format` and say it in `description`/);
  const converted = report.results.find((r) => r.tool === 'read_file' && r.provider === 'gemini');
  assert.ok(converted.changes.some((c) => c.pointer === '/properties/path' && c.keyword === 'format' && c.kind === 'described'));
});

test('checkTools reads every form a tool set comes in', () => {
  const weather = z.object({ city: z.string(), days: z.number().int().optional() });
  // An AI SDK ToolSet: Zod, jsonSchema(…), a lazy schema.
  const aiSet = {
    weather: aiTool({ description: 'w', inputSchema: weather, execute: async () => 1 }),
    raw: aiTool({ inputSchema: jsonSchema({ type: 'object', properties: { m: { type: 'object', additionalProperties: { type: 'string' } } }, required: ['m'] }) }),
  };
  const ai = checkTools(aiSet, { providers: 'anthropic' });
  assert.deepEqual(ai.tools, ['weather', 'raw']);
  // Zod writes `$schema`, which Anthropic's conversion leaves out.
  assert.deepEqual(verdicts(ai), { weather: { anthropic: 'converted/annotations' }, raw: { anthropic: 'refused/open_object' } });
  // An @openai/agents tools array: function tools checked, hosted tools skipped and listed.
  const agents = [agentsTool({ name: 'lookup', description: 'l', parameters: z.object({ id: z.string() }), execute: async () => 'x' }), webSearchTool()];
  const fromAgents = checkTools(agents, { providers: ['openai', 'openai'] });
  assert.deepEqual(fromAgents.providers, ['openai']);
  assert.deepEqual(verdicts(fromAgents), { lookup: { openai: 'accepted' } });
  assert.equal(fromAgents.skipped.length, 1);
  assert.equal(fromAgents.skipped[0].type, 'hosted_tool');
  // An MCP tools/list result and its array; a plain { name, parameters } array.
  assert.deepEqual(verdicts(checkTools({ tools: TOOLS })), expected);
  assert.deepEqual(verdicts(checkTools([{ name: 'p', parameters: { type: 'object', properties: {} } }], { providers: 'gemini' })), { p: { gemini: 'accepted' } });
});

test('a bad tool is a row; a value that is not a tool set is a UserError', () => {
  const noJson = { '~standard': { version: 1, vendor: 'x', validate: () => ({ value: 1 }) } };
  const report = checkTools([{ name: 'bare' }, { name: 'lib', inputSchema: noJson }, 42], { providers: 'openai' });
  assert.deepEqual(
    report.results.map((r) => [r.tool, r.status, r.reason]),
    [['bare', 'refused', 'unreadable'], ['lib', 'refused', 'unreadable'], ['tools[2]', 'refused', 'unreadable']],
  );
  assert.match(report.results[1].message, /JSON Schema/);
  assert.throws(() => checkTools(42), (e) => e instanceof UserError && /checkTools expects a tool set: an AI SDK ToolSet .* got a number \(42\)\./.test(e.message));
  assert.throws(() => checkTools(new Map()), UserError);
  assert.throws(() => checkTools([], { providers: 'mistral' }), (e) => e instanceof UserError && /provider must be one of 'openai', 'anthropic', 'gemini', got mistral/.test(e.message));
  assert.throws(() => checkTools([], { providers: [] }), UserError);
  assert.throws(() => checkTools([], { provider: 'openai' }), (e) => e instanceof TypeError && /unknown option `provider`/.test(e.message));
  assert.ok(UnsupportedStandardSchemaError);
});

test('request limits of the whole set are reported per provider', () => {
  const tools = Array.from({ length: 21 }, (_, i) => ({ name: `t${i}`, inputSchema: { type: 'object', properties: { a: { type: 'string' } }, required: ['a'], additionalProperties: false } }));
  const report = checkTools(tools);
  const anthropic = report.limits.find((l) => l.provider === 'anthropic');
  assert.deepEqual(anthropic.breaches.map((b) => [b.limit, b.count, b.max]), [['strict_tools', 21, 20]]);
  assert.throws(() => assertToolsAccepted(tools, 'anthropic'), /Anthropic request limit `strict_tools` \(at tool `t20`\)/);
  assertToolsAccepted(tools, ['openai', 'gemini']);
});

test('assertToolsAccepted lists every refused tool with provider, pointer and fix', () => {
  assertToolsAccepted(TOOLS.filter((t) => ['search', 'open', 'set_mode'].includes(t.name)));
  const error = (() => {
    try {
      assertToolsAccepted(TOOLS);
    } catch (e) {
      return e;
    }
  })();
  assert.equal(error?.name, 'AssertionError');
  assert.match(error.message, /^3 of 9 tools fail the check for OpenAI, Anthropic, Gemini:/);
  for (const line of [
    /OpenAI refuses the input schema of tool `read_file` at `\/properties\/path`/,
    /OpenAI refuses the input schema of tool `set_env` at `\/properties\/env\/additionalProperties`/,
    /Anthropic refuses the input schema of tool `set_env`/,
    /Anthropic refuses the input schema of tool `tree`/,
    /Gemini refuses the input schema of tool `tree`/,
  ]) {
    assert.match(error.message, line);
  }
  assert.equal((error.message.match(/ Fix: /g) ?? []).length, 5);
  // Converted tools pass, even when they lose validation.
  assertToolsAccepted(TOOLS.filter((t) => t.name === 'read_file'), ['anthropic', 'gemini']);
});

test('check-tools over stdio: the report is checkTools\', exit 1 for a refusal', async () => {
  const { code, stdout, stderr } = await run(['check-tools', '--mcp', `node ${server} stdio`, '--json']);
  assert.equal(code, 1, stderr);
  const { failure, ...report } = JSON.parse(stdout);
  assert.deepEqual(report, checkTools(TOOLS));
  // By default a conversion that loses validation fails too (read_file and set_env for Gemini,
  // forecast's output for Anthropic).
  assert.match(failure, /^4 of 9 tools fail the check for OpenAI, Anthropic, Gemini:/);
  assert.match(failure, /- Anthropic converts `forecast` \(output\) with loss: `minimum` at `\/properties\/temp` described/);
});

test("check-tools against the SDK's McpServer with tools registered from Zod, as most servers write them", async () => {
  const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
  const { StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js');
  const client = new Client({ name: 'test', version: '1' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [server, 'stdio', '--zod'] }));
  const listed = await client.listTools();
  await client.close();
  const { code, stdout, stderr } = await run(['check-tools', '--mcp', `node ${server} stdio --zod`, '--json']);
  const { failure, ...report } = JSON.parse(stdout);
  assert.equal(code, 1, stderr);
  assert.deepEqual(report, checkTools(listed));
  const v = verdicts(report);
  // z.string().url() is `format: uri`: OpenAI's strict mode refuses it (the Firecrawl case).
  assert.equal(v.scrape.openai, 'refused/unsupported_value');
  // A record is an open map with `propertyNames`: refused by OpenAI (the reference's strict
  // conversion names `propertyNames` first) and by Anthropic.
  assert.equal(v.set_headers.openai, 'refused/unsupported_keyword');
  assert.equal(v.set_headers.anthropic, 'refused/open_object');
  // Optional fields: OpenAI sends them required and nullable, losing nothing.
  assert.equal(v.search.openai, 'converted/none');
  assert.ok(v['forecast (output)'], 'the output schema is checked');
  assert.match(failure, /fail the check/);
});

test('check-tools over Streamable HTTP, with paged tools/list, prints the table', async () => {
  const child = spawn(process.execPath, [server, 'http', '--pages']);
  try {
    const url = await new Promise((resolve, reject) => {
      child.stdout.once('data', (d) => resolve(String(d).trim()));
      child.once('error', reject);
    });
    const json = await run(['check-tools', '--mcp-url', url, '--json', '--provider', 'gemini']);
    const { failure, ...report } = JSON.parse(json.stdout);
    assert.deepEqual(report, checkTools(TOOLS, { providers: 'gemini' }));
    assert.equal(json.code, 1, 'a tool that loses validation fails by default');
    assert.match(failure, /Gemini converts `read_file` \(input\) with loss: `\$schema` at the root dropped, `format` at `\/properties\/path` described/);
    const table = await run(['check-tools', '--mcp-url', url, '--provider', 'openai,anthropic']);
    assert.equal(table.code, 1);
    const lines = table.stdout.split('\n');
    assert.match(lines[0], /^tool\s+openai\s+anthropic$/);
    assert.match(lines.find((l) => l.startsWith('tree ')), /^tree\s+✓\s+✗ recursive$/);
    assert.match(lines.find((l) => l.startsWith('forecast (output)')), /~ converted\s+~ loses validation$/);
    assert.ok(lines.some((l) => l.startsWith('✗ Anthropic refuses the input schema of tool `tree` at `/$defs/node/properties/children/items`') && l.includes(' Fix: Unroll the recursion')), table.stdout);
  } finally {
    child.kill();
  }
});

test('check-tools exit codes: --allow-converted, the default, --fail-on-loss', async () => {
  const lossy = file('lossy.json', { tools: [TOOLS.find((t) => t.name === 'read_file')] });
  const annotations = file('annotations.json', [{ name: 'a', inputSchema: { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties: {}, additionalProperties: false } }]);
  const codes = async (path, provider) => Promise.all([['--allow-converted'], [], ['--fail-on-loss']].map(async (flags) => (await run(['check-tools', '--file', path, '--provider', provider, ...flags])).code));
  assert.deepEqual(await codes(lossy, 'gemini'), [0, 1, 1], 'format described for Gemini: loses validation');
  assert.deepEqual(await codes(annotations, 'anthropic'), [0, 0, 1], '$schema left out: loses annotations');
  assert.deepEqual(await codes(lossy, 'openai'), [1, 1, 1], 'a refusal fails every policy');
  const corpus = await run(['check-tools', '--file', join(root, 'js-tests', 'corpus', 'mcp-tools.json'), '--json']);
  const { failure, ...report } = JSON.parse(corpus.stdout);
  assert.deepEqual(report, checkTools(JSON.parse(readFileSync(join(root, 'js-tests', 'corpus', 'mcp-tools.json'), 'utf8'))));
  assert.equal(report.tools.length, 54);
  assert.equal(corpus.code, failure === null ? 0 : 1);
});

test('check-tools usage and connection errors exit 2 with a clear message', async () => {
  const cases = [
    [[], /Usage: understudy check-tools/],
    [['serve-tools'], /Unknown command "serve-tools"/],
    [['check-tools'], /Give the tools: --mcp "<command>", --mcp-url <url> or --file <path>\./],
    [['check-tools', '--file', 'a.json', '--mcp', 'x'], /Give one source of tools, not --mcp and --file\./],
    [['check-tools', '--file', 'a.json', '--frob'], /Unknown option '--frob'/],
    [['check-tools', '--file', file('x.json', '[]'), '--allow-converted', '--fail-on-loss'], /contradict each other/],
    [['check-tools', '--file', join(scratch, 'missing.json')], /Cannot read .*missing\.json/],
    [['check-tools', '--file', file('bad.json', '{')], /bad\.json is not JSON/],
    [['check-tools', '--file', file('num.json', '42')], /check-tools expects a tool set/],
    [['check-tools', '--file', file('t.json', '[]'), '--provider', 'mistral'], /check-tools: provider must be one of/],
    [['check-tools', '--mcp', 'understudy-no-such-server-command'], /did not start: understudy-no-such-server-command was not found/],
    [['check-tools', '--mcp', `node -e "process.stderr.write('boom on start'); process.exit(3)"`], /did not answer initialize: .*boom on start/],
    [['check-tools', '--mcp-url', 'not a url'], /--mcp-url must be a URL/],
  ];
  for (const [args, message] of cases) {
    const { code, stderr } = await run(args);
    assert.equal(code, 2, `${args.join(' ')}: ${stderr}`);
    assert.match(stderr, message, args.join(' '));
  }
});

test('check-tools waits for a slow server with progress, and times out on a silent one', async () => {
  const slow = await run(['check-tools', '--mcp', `node ${server} stdio --slow 2500`, '--provider', 'openai', '--json']);
  assert.match(slow.stderr, /waiting for the MCP server \(2 s\)…/);
  assert.equal(JSON.parse(slow.stdout).tools.length, TOOLS.length);
  const silent = await run(['check-tools', '--mcp', 'node -e "setInterval(() => {}, 1000)"', '--timeout', '1']);
  assert.equal(silent.code, 2);
  assert.match(silent.stderr, /did not answer initialize within 1 s\./);
});

test('npx @understudy/agents check-tools from an installed tarball; without the MCP SDK, a clear message', () => {
  const pack = packed('understudy-cli-');
  try {
    const tools = JSON.stringify({ tools: TOOLS.filter((t) => ['search', 'open'].includes(t.name)) });
    const dir = pack.project('cli-app', {}, { 'tools.json': tools });
    const out = sh('npx', ['--no-install', '@understudy/agents', 'check-tools', '--file', 'tools.json', '--provider', 'openai,anthropic'], dir);
    assert.match(out, /^tool\s+openai\s+anthropic\n/);
    assert.match(out, /2 tools: every one goes\.\n$/);
    let failed;
    try {
      sh('npx', ['--no-install', '@understudy/agents', 'check-tools', '--mcp', 'node server.js'], dir);
    } catch (error) {
      failed = error;
    }
    assert.equal(failed?.status, 2);
    assert.match(failed.stderr, /needs the official MCP client: npm install --save-dev @modelcontextprotocol\/sdk/);
  } finally {
    pack.dispose();
  }
});
