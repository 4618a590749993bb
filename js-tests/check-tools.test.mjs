// Every tool, every provider, before the request: checkTools over each form a tool set comes
// in, assertToolsAccepted, and the `understudy check-tools` command against a real MCP server
// (the official SDK, over stdio and Streamable HTTP) and JSON files.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createServer as createNetServer } from 'node:net';
import { mkdtempSync, writeFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { jsonSchema, tool as aiTool } from 'ai';
import { tool as agentsTool, webSearchTool } from '@openai/agents';
import { checkTools, UserError, UnsupportedStandardSchemaError } from '@understudy/agents';
import { assertToolsAccepted } from '@understudy/agents/ai-sdk/testing';
import { TOOLS, expected, expectedAnthropicStrict } from './fixtures/mcp-tools.mjs';
import { packed, root, sh } from './pack.mjs';

const cli = join(root, 'node_modules', '@understudy', 'agents', 'esm-node', 'cli.js');
const server = join(root, 'js-tests', 'fixtures', 'mcp-server.mjs');

/** `tool` -> provider as named -> `accepted` | `converted/<loss>` | `refused/<reason>`. */
function verdicts(report) {
  const out = {};
  for (const r of report.results) {
    (out[r.tool] ??= {})[r.target] = r.status === 'accepted' ? 'accepted' : r.status === 'converted' ? `converted/${r.loss}` : `refused/${r.reason}`;
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

test('checkTools says for each tool what each provider does in each mode, as docs/providers.md says', () => {
  const report = checkTools(TOOLS);
  assert.deepEqual(report.providers, ['openai', 'anthropic', 'gemini']);
  assert.deepEqual(report.tools, TOOLS.map((t) => t.name));
  assert.deepEqual(verdicts(report), expected);
  // Every row says its mode: a provider named alone is checked in its default one.
  assert.deepEqual([...new Set(report.results.map((r) => `${r.target} ${r.mode}`))], ['openai openai:strict', 'anthropic anthropic:standard', 'gemini gemini:openapi']);
  assert.ok(report.limits.every((l) => l.breaches.length === 0));
  const refused = report.results.find((r) => r.tool === 'read_file' && r.provider === 'openai');
  assert.equal(refused.pointer, '/properties/path');
  assert.equal(refused.keyword, 'format');
  assert.match(refused.message, /^OpenAI refuses the input schema of tool `read_file` at `\/properties\/path`: OpenAI strict mode refuses it: 'uri' is not a valid format/);
  assert.match(refused.fix, /^Drop `format` and say it in `description`.* Or send the tool with `strict: false`: the provider's standard mode takes it as it is\./);
  const converted = report.results.find((r) => r.tool === 'read_file' && r.provider === 'gemini');
  assert.ok(converted.changes.some((c) => c.pointer === '/properties/path' && c.keyword === 'format' && c.kind === 'described'));
  // A converted row says what the provider answers to the schema unconverted.
  assert.match(converted.asSent.message, /^Gemini \(OpenAPI schema\) refuses it/);
  // The output schema is checked apart, against what MCP clients require.
  assert.deepEqual(report.outputs, [{ tool: 'forecast', status: 'accepted' }]);
  // Anthropic's strict mode, named.
  const strict = checkTools(TOOLS, { providers: 'anthropic:strict' });
  assert.deepEqual(Object.fromEntries(Object.entries(verdicts(strict)).map(([k, v]) => [k, v['anthropic:strict']])), expectedAnthropicStrict);
  // A refusal in a strict mode offers `strict: false` only where the standard mode takes the tool.
  assert.match(strict.results.find((r) => r.tool === 'tree').fix, /send the tool with `strict: false`/);
});

test('a tool declared strict: false is checked in OpenAI\'s standard mode (an @openai/agents MCP tool)', () => {
  const openMap = { type: 'object', properties: { env: { type: 'object', additionalProperties: { type: 'string' } } }, required: ['env'], additionalProperties: false };
  const loose = agentsTool({ name: 'set_env', description: 's', parameters: openMap, strict: false, execute: async () => 'ok' });
  const report = checkTools([loose]);
  const openai = report.results.find((r) => r.provider === 'openai');
  assert.deepEqual([openai.status, openai.mode], ['accepted', 'openai:standard']);
  // Named with its mode, the column is that mode whatever the tool says.
  const strict = checkTools([loose], { providers: 'openai:strict' }).results[0];
  assert.deepEqual([strict.status, strict.reason, strict.mode], ['refused', 'open_object', 'openai:strict']);
  // An AI SDK tool declares it the same way.
  const aiLoose = checkTools({ set_env: { ...aiTool({ inputSchema: jsonSchema(openMap) }), strict: false } }, { providers: 'openai' });
  assert.equal(aiLoose.results[0].mode, 'openai:standard');
});

test('tool names are checked per provider', () => {
  const input = { type: 'object', properties: {}, required: [], additionalProperties: false };
  const report = checkTools([{ name: 'files.read', inputSchema: input }, { name: '1password', inputSchema: input }]);
  assert.deepEqual(
    report.results.map((r) => [r.tool, r.target, r.status === 'refused' ? r.reason : r.status]),
    [
      ['files.read', 'openai', 'invalid_name'],
      ['files.read', 'anthropic', 'invalid_name'],
      ['files.read', 'gemini', 'converted'],
      ['1password', 'openai', 'accepted'],
      ['1password', 'anthropic', 'accepted'],
      ['1password', 'gemini', 'invalid_name'],
    ],
  );
  assert.match(report.results[0].message, /string does not match pattern\. Expected a string that matches the pattern '\^\[a-zA-Z0-9_-\]\+\$'/);
});

test('checkTools reads every form a tool set comes in', () => {
  const weather = z.object({ city: z.string(), days: z.number().int().optional() });
  // An AI SDK ToolSet: Zod, jsonSchema(…), a lazy schema.
  const aiSet = {
    weather: aiTool({ description: 'w', inputSchema: weather, execute: async () => 1 }),
    raw: aiTool({ inputSchema: jsonSchema({ type: 'object', properties: { m: { type: 'object', additionalProperties: { type: 'string' } } }, required: ['m'] }) }),
  };
  const ai = checkTools(aiSet, { providers: ['anthropic', 'anthropic:strict'] });
  assert.deepEqual(ai.tools, ['weather', 'raw']);
  // Standard tools take both; strict mode refuses the open map.
  assert.equal(verdicts(ai).weather.anthropic, 'accepted');
  assert.deepEqual(verdicts(ai).raw, { anthropic: 'accepted', 'anthropic:strict': 'refused/open_object' });
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
  assert.throws(() => checkTools([], { providers: 'mistral' }), (e) => e instanceof UserError && /provider must be one of 'openai', 'anthropic', 'gemini', 'openai:strict', 'openai:standard', .*, got mistral/.test(e.message));
  assert.throws(() => checkTools([], { providers: [] }), UserError);
  assert.throws(() => checkTools([], { provider: 'openai' }), (e) => e instanceof TypeError && /unknown option `provider`/.test(e.message));
  assert.ok(UnsupportedStandardSchemaError);
});

test('request limits of the whole set are reported per provider, in the modes they apply to', () => {
  const tools = Array.from({ length: 21 }, (_, i) => ({ name: `t${i}`, inputSchema: { type: 'object', properties: { a: { type: 'string' } }, required: ['a'], additionalProperties: false } }));
  // Anthropic's limits are strict tool use's: standard tools have none.
  assert.ok(checkTools(tools).limits.every((l) => l.breaches.length === 0));
  assertToolsAccepted(tools);
  const report = checkTools(tools, { providers: 'anthropic:strict' });
  assert.deepEqual(report.limits[0].breaches.map((b) => [b.limit, b.count, b.max]), [['strict_tools', 21, 20]]);
  assert.throws(() => assertToolsAccepted(tools, 'anthropic:strict'), /\[anthropic:strict\] request limit `strict_tools` \(at tool `t20`\)/);
  // Tools that declare `strict: true` count for Anthropic named alone.
  assert.throws(() => assertToolsAccepted(tools.map((t) => ({ ...t, strict: true })), 'anthropic'), /request limit `strict_tools`/);
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
  assert.match(error.message, /^3 of 9 tools fail the check for openai, gemini:/);
  for (const line of [
    /\[openai:strict\] OpenAI refuses the input schema of tool `read_file` at `\/properties\/path`/,
    /\[openai:strict\] OpenAI refuses the input schema of tool `set_env` at `\/properties\/env\/additionalProperties`/,
    /\[gemini:openapi\] Gemini refuses the input schema of tool `tree`/,
  ]) {
    assert.match(error.message, line);
  }
  assert.equal((error.message.match(/ Fix: /g) ?? []).length, 3);
  // Converted tools pass, even when they lose validation.
  assertToolsAccepted(TOOLS.filter((t) => t.name === 'read_file'), ['anthropic', 'gemini']);
});

test('check-tools over stdio: the report is checkTools\', exit 1 for a refusal', async () => {
  const { code, stdout, stderr } = await run(['check-tools', '--mcp', `node ${server} stdio`, '--json']);
  assert.equal(code, 1, stderr);
  const { failure, ...report } = JSON.parse(stdout);
  assert.deepEqual(report, checkTools(TOOLS));
  // By default a conversion that loses validation fails too (read_file and set_env for Gemini).
  assert.match(failure, /^3 of 9 tools fail the check for openai, gemini:/);
  assert.match(failure, /- \[gemini:openapi\] Gemini \(OpenAPI schema\) converts `set_env` with loss: `additionalProperties` at `\/properties\/env` dropped/);
});

test("check-tools against the SDK's McpServer with tools registered from Zod, as most servers write them", async () => {
  const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
  const { StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js');
  const client = new Client({ name: 'test', version: '1' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [server, 'stdio', '--zod'] }));
  // The listing as the server sent it (the command reads it so, without the client's
  // all-or-nothing validation, which also reorders keys).
  const listed = await client.request({ method: 'tools/list', params: {} }, { parse: (d) => d, safeParse: (d) => ({ success: true, data: d }) });
  await client.close();
  const { code, stdout, stderr } = await run(['check-tools', '--mcp', `node ${server} stdio --zod`, '--json']);
  const { failure, ...report } = JSON.parse(stdout);
  assert.equal(code, 1, stderr);
  assert.deepEqual(report, checkTools(listed));
  const v = verdicts(report);
  // z.string().url() is `format: uri`: OpenAI's strict mode refuses it (the Firecrawl case).
  assert.equal(v.scrape.openai, 'refused/unsupported_value');
  // A record is an open map with `propertyNames`: refused by OpenAI's strict mode (the
  // reference's strict conversion names `propertyNames` first); Anthropic's standard tools take it.
  assert.equal(v.set_headers.openai, 'refused/unsupported_keyword');
  assert.equal(v.set_headers.anthropic, 'accepted');
  // Optional fields: OpenAI sends them required and nullable, losing nothing.
  assert.equal(v.search.openai, 'converted/none');
  assert.deepEqual(report.outputs, [{ tool: 'forecast', status: 'accepted' }], 'the output schema is checked apart');
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
    // Lossless changes (`$schema` left out) are not named among the losses.
    assert.match(failure, /Gemini \(OpenAPI schema\) converts `read_file` with loss: `format` at `\/properties\/path` described\n/);
    const table = await run(['check-tools', '--mcp-url', url, '--provider', 'openai,anthropic,anthropic:strict']);
    assert.equal(table.code, 1);
    const lines = table.stdout.split('\n');
    assert.match(lines[0], /^tool\s+openai:strict\s+anthropic:standard\s+anthropic:strict$/);
    assert.match(lines.find((l) => l.startsWith('tree ')), /^tree\s+✓\s+✓\s+✗ recursive$/);
    assert.ok(!lines.some((l) => l.includes('(output)')), 'output schemas are not columns of the table');
    assert.ok(lines.some((l) => l.startsWith('✗ [anthropic:strict] Anthropic refuses the input schema of tool `tree` at `/$defs/node/properties/children/items`') && l.includes(' Fix: Unroll the recursion')), table.stdout);
    assert.match(lines.at(-2), /^3 of 9 tools fail the check for openai, anthropic:strict\.$/);
  } finally {
    child.kill();
  }
});

test('check-tools exit codes: --allow-converted, the default, --fail-on-loss', async () => {
  const lossy = file('lossy.json', { tools: [TOOLS.find((t) => t.name === 'read_file')] });
  const annotations = file('annotations.json', [{ name: 'a', inputSchema: { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties: { s: { type: 'string', deprecated: true } }, additionalProperties: false } }]);
  const codes = async (path, provider) => Promise.all([['--allow-converted'], [], ['--fail-on-loss']].map(async (flags) => (await run(['check-tools', '--file', path, '--provider', provider, ...flags])).code));
  assert.deepEqual(await codes(lossy, 'gemini'), [0, 1, 1], 'format described for Gemini: loses validation');
  assert.deepEqual(await codes(annotations, 'gemini'), [0, 0, 1], '`deprecated` left out: loses annotations ($schema loses nothing)');
  assert.deepEqual(await codes(annotations, 'anthropic'), [0, 0, 0], 'Anthropic standard tools take it as it is');
  assert.deepEqual(await codes(lossy, 'openai'), [1, 1, 1], 'a refusal fails every policy');
  const corpus = await run(['check-tools', '--file', join(root, 'js-tests', 'corpus', 'mcp-tools.json'), '--json']);
  const { failure, ...report } = JSON.parse(corpus.stdout);
  assert.deepEqual(report, checkTools(JSON.parse(readFileSync(join(root, 'js-tests', 'corpus', 'mcp-tools.json'), 'utf8'))));
  assert.equal(report.tools.length, 54);
  assert.equal(corpus.code, failure === null ? 0 : 1);
});

test('check-tools usage and connection errors exit 2 with a clear message', async () => {
  // A port nothing listens on: one a server held and let go.
  const closedPort = await new Promise((resolve) => {
    const probe = createNetServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
  const cases = [
    [[], /Usage: understudy <command>[\s\S]*check-tools[\s\S]*serve/],
    [['check-tools', '--file', file('e.json', '[]'), '--env', 'NOEQUALS'], /--env takes KEY=VALUE/],
    [['check-tools', '--file', file('e.json', '[]'), '--env', 'A=1'], /--env goes with --mcp/],
    [['check-tools', '--mcp-url', `http://127.0.0.1:${closedPort}/mcp`], /could not be reached: connection refused: nothing listens at http:\/\/127\.0\.0\.1:\d+\/mcp/],
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

test('check-tools passes the environment on, reads a malformed listing tool by tool, --outputs, --version, --help', async () => {
  // The server exits at start without the variable: the caller's environment reaches it, as
  // does --env.
  const needs = `node ${server} stdio --need-env UNDERSTUDY_FIXTURE_KEY`;
  const without = await run(['check-tools', '--mcp', needs, '--provider', 'anthropic']);
  assert.equal(without.code, 2);
  assert.match(without.stderr, /UNDERSTUDY_FIXTURE_KEY is not set/);
  const viaEnv = await new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, 'check-tools', '--mcp', needs, '--provider', 'anthropic', '--json'], { cwd: root, env: { ...process.env, UNDERSTUDY_FIXTURE_KEY: 'x' } });
    let stdout = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout }));
  });
  assert.equal(viaEnv.code, 0);
  assert.equal(JSON.parse(viaEnv.stdout).tools.length, TOOLS.length);
  const viaFlag = await run(['check-tools', '--mcp', needs, '--env', 'UNDERSTUDY_FIXTURE_KEY=x', '--provider', 'anthropic']);
  assert.equal(viaFlag.code, 0, viaFlag.stderr);
  // An output schema the official client would refuse (and with it the whole tools/list) is
  // one reported row; it fails only with --outputs.
  const bad = `node ${server} stdio --bad-output`;
  const listed = await run(['check-tools', '--mcp', bad, '--provider', 'anthropic', '--json']);
  assert.equal(listed.code, 0, listed.stderr);
  const report = JSON.parse(listed.stdout);
  assert.equal(report.tools.length, TOOLS.length + 1);
  assert.deepEqual(report.outputs.map((o) => [o.tool, o.status]), [['forecast', 'accepted'], ['find', 'refused']]);
  const strict = await run(['check-tools', '--mcp', bad, '--provider', 'anthropic', '--outputs']);
  assert.equal(strict.code, 1);
  assert.match(strict.stdout, /! The output schema of tool `find` has `type` \["null","object"\]; MCP clients require `type: "object"`/);
  const version = await run(['--version']);
  assert.equal(version.code, 0);
  assert.equal(version.stdout.trim(), JSON.parse(readFileSync(join(root, 'pkg-template', 'package.json'), 'utf8')).version);
  const help = await run(['--help']);
  assert.match(help.stdout, /check-tools[\s\S]*serve/);
  // A long tool name is clipped in the table; the report keeps it whole.
  const long = 'a_tool_whose_name_runs_on_and_on_far_past_any_sensible_column_width_for_a_table';
  const clipped = await run(['check-tools', '--file', file('long.json', [{ name: long, inputSchema: { type: 'object', properties: {}, required: [], additionalProperties: false } }]), '--provider', 'anthropic']);
  const row = clipped.stdout.split('\n')[1];
  assert.match(row, /^a_tool_whose_name_runs_on_and_on_far_pa… +✓$/);
  assert.ok([...row].length < 60, row);
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
    assert.match(out, /^tool\s+openai:strict\s+anthropic:standard\n/);
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
