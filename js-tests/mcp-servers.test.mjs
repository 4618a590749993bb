// Real MCP servers from the registries through `understudy check-tools`, with the verdicts the
// public evidence supports per mode (docs/providers.md): the reference servers, Playwright's,
// Chrome DevTools', Notion's and Firecrawl's from npm, mcp-server-time from PyPI. Versions are
// pinned, so a verdict changes only when a rule does.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { root } from './pack.mjs';

const cli = join(root, 'node_modules', '@understudy', 'agents', 'esm-node', 'cli.js');
const SERVERS = {
  '@modelcontextprotocol/server-everything': '2026.8.31',
  '@modelcontextprotocol/server-filesystem': '2026.8.31',
  '@modelcontextprotocol/server-memory': '2026.8.31',
  '@modelcontextprotocol/server-sequential-thinking': '2026.8.31',
  '@playwright/mcp': '0.0.86',
  'chrome-devtools-mcp': '1.11.0',
  '@notionhq/notion-mcp-server': '2.5.2',
  'firecrawl-mcp': '3.22.2',
};

let dir;
const bin = (name) => join(dir, 'node_modules', '.bin', name);

before(() => {
  dir = mkdtempSync(join(tmpdir(), 'understudy-mcp-servers-'));
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'servers', private: true }));
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--ignore-scripts', ...Object.entries(SERVERS).map(([n, v]) => `${n}@${v}`)], { cwd: dir, stdio: 'ignore' });
  execFileSync('python3', ['-m', 'venv', join(dir, 'venv')], { stdio: 'ignore' });
  execFileSync(join(dir, 'venv', 'bin', 'pip'), ['install', '--quiet', 'mcp-server-time==2026.10.19'], { stdio: 'ignore' });
});

after(() => rmSync(dir, { recursive: true, force: true }));

/** Runs the command; resolves to { code, report, stdout, stderr } (`report` with --json). */
function check(args, env = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, 'check-tools', '--timeout', '60', ...args], { cwd: dir, env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => {
      let report;
      try {
        report = JSON.parse(stdout);
      } catch {}
      resolve({ code, report, stdout, stderr });
    });
  });
}

/** `target` -> `{ status[/reason]: count }` over a report's rows. */
function tally(report) {
  const out = {};
  for (const r of report.results) {
    const key = r.status === 'refused' ? `refused/${r.reason}` : r.status;
    (out[r.target] ??= {})[key] = (out[r.target][key] ?? 0) + 1;
  }
  return out;
}

const ALL = ['--provider', 'openai,openai:standard,anthropic,anthropic:strict,gemini'];

test('the reference servers: everything refused by OpenAI strict mode only for its uri format (E1)', async () => {
  const { code, report, stderr } = await check(['--mcp', bin('mcp-server-everything'), '--json', ...ALL]);
  assert.equal(code, 1, stderr);
  const refused = report.results.filter((r) => r.status === 'refused');
  assert.deepEqual([...new Set(refused.map((r) => `${r.tool} ${r.target} ${r.reason}`))], ['gzip-file-as-resource openai unsupported_value']);
  assert.match(refused[0].message, /'uri' is not a valid format/);
  assert.match(refused[0].fix, /send the tool with `strict: false`/);
  for (const target of ['openai:standard', 'anthropic']) assert.ok(report.results.filter((r) => r.target === target).every((r) => r.status === 'accepted'), target);
});

test('filesystem, memory, sequential-thinking: every tool goes to every provider (E20)', async () => {
  for (const [server, args] of [['mcp-server-filesystem', [dir]], ['mcp-server-memory', []], ['mcp-server-sequential-thinking', []]]) {
    const { code, stdout, stderr } = await check(['--mcp', [bin(server), ...args].join(' ')]);
    assert.equal(code, 0, `${server}: ${stdout}${stderr}`);
    assert.match(stdout, /tools: every one goes\./);
    assert.ok(!stdout.includes('$schema'), `${server}: a lossless rewrite is not printed`);
  }
});

test('Playwright: a record (propertyNames) refused by OpenAI in both modes (E4, E5), taken by Anthropic standard tools (E9)', async () => {
  const { report } = await check(['--mcp', bin('playwright-mcp'), '--json', ...ALL]);
  const drop = (target) => report.results.find((r) => r.tool === 'browser_drop' && r.target === target);
  assert.equal(drop('openai').status, 'refused');
  assert.equal(drop('openai:standard').status, 'converted');
  assert.match(drop('openai:standard').asSent.message, /'propertyNames' is not permitted/);
  assert.equal(drop('anthropic').status, 'accepted');
  assert.equal(drop('anthropic:strict').status, 'refused');
  assert.ok(report.results.filter((r) => r.target === 'anthropic').every((r) => r.status === 'accepted'));
});

test('Chrome DevTools: every tool goes, and the $schema Zod writes is not printed', async () => {
  const { code, stdout } = await check(['--mcp', bin('chrome-devtools-mcp')]);
  assert.equal(code, 0, stdout);
  assert.ok(!stdout.includes('$schema'));
});

test('Notion: refused by OpenAI strict mode (open objects, formats, unions: E7), taken as it is by OpenAI standard mode and Anthropic', async () => {
  const { report } = await check(['--mcp', bin('notion-mcp-server'), '--json', ...ALL], { NOTION_TOKEN: 'ntn_x' });
  const t = tally(report);
  assert.equal(t['openai:standard'].accepted, report.tools.length);
  assert.equal(t.anthropic.accepted, report.tools.length);
  assert.ok(t.openai['refused/open_object'] > 0 && t.openai['refused/unsupported_value'] > 0, JSON.stringify(t.openai));
});

test('Firecrawl, with its key given by --env and by the environment: refused by OpenAI strict mode (E3, E4), taken by Anthropic', async () => {
  const viaFlag = await check(['--mcp', bin('firecrawl-mcp'), '--env', 'FIRECRAWL_API_KEY=fc-x', '--json', ...ALL]);
  const viaEnv = await check(['--mcp', bin('firecrawl-mcp'), '--json', ...ALL], { FIRECRAWL_API_KEY: 'fc-x' });
  assert.deepEqual(viaFlag.report, viaEnv.report);
  const t = tally(viaFlag.report);
  assert.ok(t.openai.refused === undefined && Object.keys(t.openai).some((k) => k.startsWith('refused/')), JSON.stringify(t.openai));
  assert.equal(t.anthropic.accepted, viaFlag.report.tools.length);
});

test('mcp-server-time (PyPI): inlined $ref and dropped $defs lose nothing, so it passes', async () => {
  const server = join(dir, 'venv', 'bin', 'mcp-server-time');
  assert.ok(existsSync(server));
  const { code, stdout, stderr } = await check(['--mcp', server]);
  assert.equal(code, 0, `${stdout}${stderr}`);
  assert.match(stdout, /2 tools: every one goes\./);
});
