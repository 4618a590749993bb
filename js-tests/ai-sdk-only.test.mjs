// A project that uses only the AI SDK adopts `@understudy/agents/ai-sdk/testing`: no
// `@openai/agents*` anywhere in its node_modules, its tests type-checked under --strict with
// skipLibCheck off, run under node:test and under vitest with the setup file, on Node 20 (this
// process's) and on Node 22 (the npm package `node@22`).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { packed, root, sh, tscOutput } from './pack.mjs';

/** Runs `node` in the project as a fresh process would: without this runner's NODE_TEST_CONTEXT or CI. */
function run(node, args) {
  const env = { ...process.env };
  delete env.NODE_TEST_CONTEXT;
  delete env.CI;
  try {
    return execFileSync(node, args, { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env });
  } catch (error) {
    throw new Error(`${node} ${args.join(' ')} failed:\n${error.stdout}\n${error.stderr}`);
  }
}

/** The version the workspace installed, so the project tests what the other suites test. */
const installed = (name) => JSON.parse(readFileSync(join(root, 'node_modules', name, 'package.json'), 'utf8')).version;

const appTs = `
/// <reference types="@understudy/agents/vitest" />
import { generateText, streamText, tool, stepCountIs, Output, type LanguageModel } from 'ai';
import { z } from 'zod';
import {
  scriptedLanguageModel, assistantMessage, functionCall, toolCall, textStep, objectStep, modelResponder, modelResponse, modelStream,
  cassette, recordingLanguageModel, assertToolCalled, assertToolsAccepted, type RecordedLanguageModelCall,
} from '@understudy/agents/ai-sdk/testing';
import { test, expect } from 'vitest';

const tools = {
  weather: tool({ description: 'The weather in a city', inputSchema: z.object({ city: z.string() }), execute: async ({ city }) => 'sunny in ' + city }),
};

test('a tool loop, typed as the SDK types it', async () => {
  const model = scriptedLanguageModel([[functionCall('weather', { city: 'Oslo' })], textStep('It is sunny.')]);
  const asSdk: LanguageModel = model;
  const result = await generateText({ model: asSdk, tools, prompt: 'Weather in Oslo?', stopWhen: stepCountIs(3) });
  expect(result.text).toBe('It is sunny.');
  const offered: string[] = model.calls[0].options.tools!.map((t) => t.name);
  expect(offered).toEqual(['weather']);
  expect(model).toHaveCalledTool('weather', { city: 'Oslo' });
  // vitest's own equality: asymmetric matchers work.
  expect(model).toHaveCalledTool('weather', expect.objectContaining({ city: expect.any(String) }));
  expect(model).not.toHaveCalledTool('weather', expect.objectContaining({ city: 'Rome' }));
  expect(model).toHaveCalledToolTimes('weather', 1);
  expect(result).toHaveCalledTool('weather', { city: 'Oslo' });
  assertToolCalled(model, 'weather', { city: 'Oslo' });
  model.assertComplete();
  // The whole tool set, for each provider, before any request.
  expect(tools).toBeAcceptedBy(['openai', 'gemini']);
  const open = { env: tool({ inputSchema: z.object({ vars: z.record(z.string(), z.string()) }) }) };
  expect(open).toBeAcceptedBy('anthropic');
  expect(open).not.toBeAcceptedBy('anthropic:strict');
  expect(() => expect(open).toBeAcceptedBy('anthropic:strict')).toThrow(/Anthropic refuses the input schema of tool \`env\`/);
  assertToolsAccepted(tools, 'anthropic');
});

test('an object answer, usage in the SDK words, a responder reading the call, the SDK stream parts', async () => {
  const model = scriptedLanguageModel([
    objectStep({ category: 'billing' }),
    modelResponse({ output: [assistantMessage('{"category":"tech"}')], usage: { inputTokens: 12, outputTokens: 3 } }),
    modelResponder((call: RecordedLanguageModelCall) => [toolCall('weather', { city: String(call.options.prompt.length) })]),
  ]);
  const schema = z.object({ category: z.string() });
  const first = await generateText({ model, prompt: 'Classify', output: Output.object({ schema }) });
  expect(first.output).toEqual({ category: 'billing' });
  const second = await generateText({ model, prompt: 'Classify', output: Output.object({ schema }) });
  expect(second.usage.inputTokens).toBe(12);
  await generateText({ model, tools, prompt: 'Weather?' });
  const streamed = scriptedLanguageModel([
    modelStream([
      { type: 'stream-start', warnings: [] },
      { type: 'text-start', id: 't' },
      { type: 'text-delta', id: 't', delta: 'Hi' },
      { type: 'text-end', id: 't' },
      { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage: { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } } },
    ]),
  ]);
  expect(await streamText({ model: streamed, prompt: 'Hi' }).text).toBe('Hi');
});

test('cassettes and recordings go where the SDK takes a LanguageModel', async () => {
  const recorded: LanguageModel = recordingLanguageModel(scriptedLanguageModel([textStep('a')]));
  const replayed: LanguageModel = cassette(() => scriptedLanguageModel([textStep('b')]), { dir: 'cassettes', record: true });
  expect((await generateText({ model: recorded, prompt: 'x' })).text).toBe('a');
  expect((await generateText({ model: replayed, prompt: 'x' })).text).toBe('b');
});

export function typeErrors(): void {
  // @ts-expect-error a bare string is not a step (a step is an array of parts, or textStep)
  scriptedLanguageModel(['hello']);
  // @ts-expect-error a usage key the SDK does not have
  modelResponse({ output: [], usage: { promptTokens: 1 } });
}
`;

const nodeTest = `
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { generateText } from 'ai';
import { scriptedLanguageModel, textStep, cassette } from '@understudy/agents/ai-sdk/testing';

test('a cassette named after its node:test test', async () => {
  const model = cassette(() => scriptedLanguageModel([textStep('named')]), { record: true });
  assert.equal((await generateText({ model, prompt: 'x' })).text, 'named');
});
`;

let pack;
let dir;

before(() => {
  pack = packed('understudy-ai-sdk-only-');
  dir = pack.project(
    'ai-sdk-only',
    { type: 'module' },
    {
      'test/app.test.ts': appTs,
      'test/node.test.mjs': nodeTest,
      'vitest.config.mjs': "export default { test: { setupFiles: ['@understudy/agents/vitest'], include: ['test/**/*.test.ts'] } };\n",
      'tsconfig.json': JSON.stringify({ compilerOptions: { module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', strict: true, skipLibCheck: false, noEmit: true, types: ['node'] }, include: ['test/**/*.ts'] }),
    },
    [`ai@${installed('ai')}`, `zod@${installed('zod')}`, `vitest@${installed('vitest')}`, `typescript@${installed('typescript')}`, '@types/node@20', '@types/json-schema', 'node@22'],
  );
});

after(() => pack?.dispose());

test('the project has no @openai/agents package anywhere', () => {
  const found = readdirSync(join(dir, 'node_modules'), { recursive: true }).filter((p) => /(^|[\\/])@openai$/.test(p));
  assert.deepEqual(found, []);
});

test('its tests type-check under --strict with skipLibCheck off', () => {
  assert.equal(tscOutput(dir), '');
});

const node22 = () => join(dir, 'node_modules', 'node', 'bin', 'node');

for (const [runtime, node] of [['Node 20', () => process.execPath], ['Node 22', node22]]) {
  test(`node:test runs them on ${runtime}, a cassette named after the running test`, () => {
    const version = sh(node(), ['--version'], dir).trim();
    assert.match(version, runtime === 'Node 22' ? /^v22\./ : /^v20\./);
    const out = run(node(), ['--test', 'test/node.test.mjs']);
    assert.match(out, /# pass 1/);
    // Named after the test, next to its file (the `dir` option names only cassettes given a name).
    const files = readdirSync(join(dir, 'test', '__cassettes__'), { recursive: true }).filter((f) => f.endsWith('.cassette.json'));
    assert.ok(files.includes(join('node.test.mjs', 'a cassette named after its node_test test.cassette.json')), files.join(', '));
  });

  test(`vitest runs them on ${runtime} with @understudy/agents/vitest as its setup file`, () => {
    const out = run(node(), [join(dir, 'node_modules', 'vitest', 'vitest.mjs'), 'run', '--reporter=verbose']);
    assert.match(out, /3 passed/, out);
  });
}

test('the package declares @ai-sdk/provider an optional peer (types only)', () => {
  const manifest = JSON.parse(readFileSync(join(dir, 'node_modules', '@understudy', 'agents', 'package.json'), 'utf8'));
  assert.equal(manifest.peerDependenciesMeta['@ai-sdk/provider'].optional, true);
  assert.ok(existsSync(join(dir, 'node_modules', '@ai-sdk', 'provider')), 'ai brings it');
});
