// Cassettes named after their test: generated node:test and vitest suites run in
// child processes, in a scratch folder under node_modules/.cache (so they resolve this
// repository's packages): the first run records next to the test file, the second replays with
// a factory that throws, CI=true with no cassette fails with CassetteMissingError and writes
// nothing. Also the vitest matchers.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const cache = join(root, 'node_modules', '.cache');
mkdirSync(cache, { recursive: true });
const scratch = mkdtempSync(join(cache, 'understudy-names-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

// The child's environment: no cassette mode of ours or of the machine leaks in.
function env(extra = {}) {
  const out = { ...process.env, ...extra };
  for (const k of ['UNDERSTUDY_CASSETTES', 'UNDERSTUDY_RECORD', 'CI', 'NODE_TEST_CONTEXT']) if (!(k in extra)) delete out[k];
  return out;
}

const fakeModel = `
import { Usage } from '@openai/agents-core';
export const answering = (text) => ({
  getResponse: async () => ({ output: [{ type: 'message', role: 'assistant', status: 'completed', id: 'm', content: [{ type: 'output_text', text }] }], usage: new Usage({ requests: 1 }) }),
  getStreamedResponse: async function* () {},
});
export const never = () => { throw new Error('the real model must not be made on replay'); };
export const real = process.env.REPLAY_ONLY ? never : () => answering('Sunny.');
`;

test('node:test: cassette(factory) is named after the test, records once, replays, refuses under CI', () => {
  const dir = join(scratch, 'node');
  mkdirSync(dir);
  writeFileSync(join(dir, 'fake.mjs'), fakeModel);
  writeFileSync(
    join(dir, 'weather.test.mjs'),
    `import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Agent, Runner } from '@openai/agents';
import { cassette } from '@understudy/agents/testing';
import { real } from './fake.mjs';
const ask = (model) => new Runner({ tracingDisabled: true }).run(new Agent({ name: 'a', model }), 'hi');
describe('weather', () => {
  test('answers: sunny?', async () => {
    assert.equal((await ask(cassette(real))).finalOutput, 'Sunny.');
    assert.equal((await ask(cassette(real))).finalOutput, 'Sunny.');
  });
});
`,
  );
  const run = (extra) => spawnSync(process.execPath, ['--test', 'weather.test.mjs'], { cwd: dir, env: env(extra), encoding: 'utf8' });
  const first = run();
  assert.equal(first.status, 0, first.stdout + first.stderr);
  const folder = join(dir, '__cassettes__', 'weather.test.mjs');
  assert.deepEqual(readdirSync(folder).sort(), ['weather - answers_ sunny_-2.cassette.json', 'weather - answers_ sunny_.cassette.json']);
  const second = run({ REPLAY_ONLY: '1' });
  assert.equal(second.status, 0, `replayed without the real model: ${second.stdout}${second.stderr}`);
  rmSync(folder, { recursive: true });
  const ci = run({ CI: 'true', REPLAY_ONLY: '1' });
  assert.notEqual(ci.status, 0);
  assert.match(ci.stdout, /CassetteMissingError/);
  assert.match(ci.stdout, /UNDERSTUDY_CASSETTES=record/);
  assert.ok(!existsSync(folder), 'nothing is written under CI');
});

test('vitest: names from the test with @understudy/agents/vitest, and the expect matchers', () => {
  const dir = join(scratch, 'vitest');
  mkdirSync(dir);
  writeFileSync(join(dir, 'fake.mjs'), fakeModel);
  writeFileSync(join(dir, 'vitest.config.mjs'), `export default { test: { setupFiles: ['@understudy/agents/vitest'], include: ['*.test.mjs'] } };\n`);
  writeFileSync(
    join(dir, 'orders.test.mjs'),
    `import { describe, expect, test } from 'vitest';
import { Agent, Runner, tool } from '@openai/agents';
import { z } from 'zod';
import { cassette, ScriptedModel, functionCall, assistantMessage } from '@understudy/agents/testing';
import { real } from './fake.mjs';
const ask = (model) => new Runner({ tracingDisabled: true }).run(new Agent({ name: 'a', model }), 'hi');
describe('orders', () => {
  test('status', async () => {
    expect((await ask(cassette(real))).finalOutput).toBe('Sunny.');
  });
  test('matchers', async () => {
    const lookup = tool({ name: 'lookup', description: 'd', parameters: z.object({ id: z.string() }), execute: async () => 'shipped' });
    const model = new ScriptedModel([[functionCall('lookup', { id: 'A-1' }, { callId: 'c' })], [assistantMessage('Shipped.')]]);
    await new Runner({ tracingDisabled: true }).run(new Agent({ name: 'a', model, tools: [lookup] }), 'where is A-1?');
    expect(model).toHaveCalledTool('lookup', { id: 'A-1' });
    expect(model).not.toHaveCalledTool('cancel');
    expect(model).toHaveOfferedTools(['lookup']);
    expect(() => expect(model).toHaveCalledTool('lookup', { id: 'B-2' })).toThrow('Expected the model to call tool "lookup" with {"id":"B-2"}');
    expect(() => expect(model).not.toHaveOfferedTools(['lookup'])).toThrow('Expected the model not to be offered exactly ["lookup"], but it was.');
  });
});
`,
  );
  const vitest = join(root, 'node_modules', 'vitest', 'vitest.mjs');
  const run = (extra) => spawnSync(process.execPath, [vitest, 'run', '--config', 'vitest.config.mjs'], { cwd: dir, env: env(extra), encoding: 'utf8' });
  const first = run();
  assert.equal(first.status, 0, first.stdout + first.stderr);
  assert.deepEqual(readdirSync(join(dir, '__cassettes__', 'orders.test.mjs')), ['orders - status.cassette.json']);
  const second = run({ REPLAY_ONLY: '1' });
  assert.equal(second.status, 0, second.stdout + second.stderr);
});
