// The official Python clients that hit the evidence cases (docs/providers.md), against
// providerServer: google-genai's structured output (a pydantic schema sent with snake_case
// `property_ordering`), anthropic's standard and strict tools, openai's strict and standard
// function tools. Each is installed from PyPI into a venv.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { providerServer, textStep } from '@understudy/agents/ai-sdk/testing';
import { root } from './pack.mjs';

let dir;
const python = () => join(dir, 'venv', 'bin', 'python');

before(() => {
  dir = mkdtempSync(join(tmpdir(), 'understudy-python-clients-'));
  execFileSync('python3', ['-m', 'venv', join(dir, 'venv')], { stdio: 'ignore' });
  execFileSync(join(dir, 'venv', 'bin', 'pip'), ['install', '--quiet', 'google-genai==3.6.1', 'anthropic==2.17.0', 'openai==3.63.0', 'pydantic'], { stdio: 'ignore' });
});

after(() => rmSync(dir, { recursive: true, force: true }));

/** Runs one case of the Python script against a server answering `steps`; its JSON line. */
async function run(name, steps) {
  const server = await providerServer(steps);
  try {
    const { stdout } = await promisify(execFile)(python(), [join(root, 'js-tests', 'fixtures', 'python-clients.py'), name, server.url], { encoding: 'utf8' });
    return JSON.parse(stdout.trim().split('\n').at(-1));
  } finally {
    await server.close();
  }
}

test('google-genai: a pydantic response schema (property_ordering in snake_case) is taken, and parsed', async () => {
  assert.deepEqual(await run('genai-structured', [textStep('{"name":"Ada","age":36}')]), { parsed: { name: 'Ada', age: 36 } });
});

test('anthropic: an open map goes to a standard tool, and a strict tool gets the 400', async () => {
  assert.deepEqual(await run('anthropic-standard', [textStep('ok')]), { status: 200, text: 'ok' });
  const strict = await run('anthropic-strict', [textStep('ok')]);
  assert.equal(strict.status, 400);
  assert.match(strict.message, /set_env/);
  assert.match(strict.message, /additionalProperties/);
});

test('openai: format uri is a 400 in strict mode (the default on the Responses API) and goes with strict false', async () => {
  const strict = await run('openai-strict', [textStep('ok')]);
  assert.equal(strict.status, 400);
  assert.match(strict.message, /Invalid schema for function 'fetch': 'uri' is not a valid format/);
  assert.deepEqual(await run('openai-standard', [textStep('ok')]), { status: 200, text: 'ok' });
});
