// The HTTP double under the AI SDK's provider adapters (@ai-sdk/openai Responses and Chat,
// @ai-sdk/anthropic, @ai-sdk/google, @ai-sdk/openai-compatible) and @openai/agents' OpenAI
// models, a differential of one script through `scriptedLanguageModel` and through
// `@ai-sdk/openai` → `scriptedFetch`, the tool assertions on a fetch, and another process:
// the `serve` command and a child app using `openai` with OPENAI_BASE_URL.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { generateText, streamText, stepCountIs, tool } from 'ai';
import { createOpenAI } from '@ai-sdk/openai';
import { createAnthropic } from '@ai-sdk/anthropic';
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import OpenAI from 'openai';
import { Agent, Runner, tool as agentTool } from '@openai/agents';
import { OpenAIChatCompletionsModel, OpenAIResponsesModel } from '@openai/agents-openai';
import { serveCommand } from './helpers.mjs';
import { scriptedFetch, scriptedLanguageModel, textStep, toolCall, reasoning, modelResponse, assistantMessage, assertToolCalled, assertToolsOffered } from '@understudy/agents/ai-sdk/testing';

const weather = (seen) => tool({ description: 'Weather in a city', inputSchema: z.object({ city: z.string() }), execute: async ({ city }) => (seen.push(city), `sunny in ${city}`) });

/** A tool loop: two parallel calls, then an answer with usage. */
const loop = () => [
  modelResponse({ output: [toolCall('weather', { city: 'Oslo' }), toolCall('weather', { city: 'Bergen' })], usage: { inputTokens: 30, outputTokens: 10 } }),
  modelResponse({ output: [reasoning('Both are sunny.'), assistantMessage('Sunny in both.')], usage: { inputTokens: 50, outputTokens: 12, outputTokensDetails: { reasoning_tokens: 4 } } }),
];

const adapters = {
  'openai responses': (fetch) => createOpenAI({ apiKey: 'k', fetch }).responses('gpt-5'),
  'openai chat': (fetch) => createOpenAI({ apiKey: 'k', fetch }).chat('gpt-4.1'),
  anthropic: (fetch) => createAnthropic({ apiKey: 'k', fetch })('claude-sonnet-4-5'),
  google: (fetch) => createGoogleGenerativeAI({ apiKey: 'k', fetch })('gemini-2.5-flash'),
  'openai-compatible': (fetch) => createOpenAICompatible({ name: 'local', baseURL: 'http://127.0.0.1:1/v1', apiKey: 'k', fetch, includeUsage: true })('open-model'),
};

for (const [name, make] of Object.entries(adapters)) {
  test(`${name}: a tool loop with parallel calls, generated and streamed`, async () => {
    for (const streamed of [false, true]) {
      const seen = [];
      const fetch = scriptedFetch(loop(), { deltaSize: 3 });
      const options = { model: make(fetch), tools: { weather: weather(seen) }, stopWhen: stepCountIs(3), prompt: 'Weather in Oslo and Bergen?' };
      const result = streamed ? streamText(options) : await generateText(options);
      assert.equal(await result.text, 'Sunny in both.', `${name} ${streamed}`);
      assert.deepEqual(seen, ['Oslo', 'Bergen']);
      assert.equal((await result.totalUsage).outputTokens, 22);
      fetch.assertComplete();
      // The second request carries both tool results back, read in the neutral form.
      const results = fetch.calls[1].request.messages.flatMap((m) => m.content).filter((p) => p.type === 'tool-result');
      assert.equal(results.length, 2, name);
      assertToolCalled(fetch, 'weather', { city: 'Bergen' });
      assertToolsOffered(fetch, ['weather']);
    }
  });
}

test('the adapters\' own conversion meets each provider\'s rules: a Zod schema with an optional field and a bound goes through; the same tool marked strict, which OpenAI strict mode refuses, is a 400 the SDK raises', async () => {
  const inputSchema = z.object({ city: z.string(), days: z.number().int().min(1).optional() });
  for (const [name, make] of Object.entries(adapters)) {
    const fetch = scriptedFetch([textStep('ok')]);
    const result = await generateText({ model: make(fetch), tools: { forecast: tool({ inputSchema, execute: async () => 'x' }) }, prompt: 'p' });
    assert.equal(result.text, 'ok', name);
  }
  const fetch = scriptedFetch([textStep('never')]);
  const model = createOpenAI({ apiKey: 'k', fetch }).responses('gpt-5');
  const error = await generateText({ model, tools: { forecast: tool({ inputSchema, strict: true, execute: async () => 'x' }) }, prompt: 'p', maxRetries: 0 }).catch((e) => e);
  assert.equal(error?.name, 'AI_APICallError', String(error));
  assert.equal(error.statusCode, 400);
  assert.match(error.message, /Invalid schema for function 'forecast'.*days/s);
  assert.equal(fetch.remainingSteps, 1, 'the refused request took no step');
});

/** What a result says, for the differential. */
async function summary(result) {
  const steps = await result.steps;
  return {
    text: await result.text,
    finishReason: await result.finishReason,
    usage: (({ inputTokens, outputTokens, totalTokens }) => ({ inputTokens, outputTokens, totalTokens }))(await result.totalUsage),
    steps: steps.map((s) => ({
      text: s.text,
      finishReason: s.finishReason,
      reasoning: s.reasoningText,
      toolCalls: s.toolCalls.map((c) => [c.toolCallId, c.toolName, c.input]),
      toolResults: s.toolResults.map((r) => [r.toolCallId, r.output]),
      usage: [s.usage.inputTokens, s.usage.outputTokens],
    })),
  };
}

test('differential: one script through scriptedLanguageModel and through @ai-sdk/openai → scriptedFetch gives equal generateText and streamText results', async () => {
  for (const streamed of [false, true]) {
    const run = async (model) => {
      const options = { model, tools: { weather: weather([]) }, stopWhen: stepCountIs(3), prompt: 'Weather?' };
      return summary(streamed ? streamText(options) : await generateText(options));
    };
    const direct = await run(scriptedLanguageModel(loop()));
    for (const api of ['responses', 'chat']) {
      const wire = await run(createOpenAI({ apiKey: 'k', fetch: scriptedFetch(loop()) })[api]('gpt-5'));
      // Chat Completions carries no reasoning of its own in the OpenAI adapter.
      const expected = api === 'chat' ? { ...direct, steps: direct.steps.map((s) => ({ ...s, reasoning: undefined })) } : direct;
      assert.deepEqual(wire, expected, `${api}, ${streamed ? 'streamText' : 'generateText'}`);
    }
  }
});

test("@openai/agents' OpenAIResponsesModel and OpenAIChatCompletionsModel run a tool loop on an OpenAI client given scriptedFetch", async () => {
  for (const Model of [OpenAIResponsesModel, OpenAIChatCompletionsModel]) {
    for (const stream of [false, true]) {
      const seen = [];
      const fetch = scriptedFetch([[toolCall('lookup', { id: '123' })], textStep('Order 123 shipped.')]);
      const model = new Model(new OpenAI({ apiKey: 'k', fetch }), 'gpt-5');
      const lookup = agentTool({ name: 'lookup', description: 'Look an order up', parameters: z.object({ id: z.string() }), execute: async ({ id }) => (seen.push(id), 'shipped') });
      const result = await new Runner({ tracingDisabled: true }).run(new Agent({ name: 'Orders', model, tools: [lookup] }), 'Where is 123?', { stream });
      if (stream) await result.completed;
      assert.equal(result.finalOutput, 'Order 123 shipped.', `${Model.name} ${stream}`);
      assert.deepEqual(seen, ['123']);
      fetch.assertComplete();
      assert.equal(fetch.calls[0].endpoint, Model === OpenAIResponsesModel ? 'openai.responses' : 'openai.chat');
    }
  }
});

const bin = fileURLToPath(new URL('../build/npm/esm-node/cli.js', import.meta.url));

test('another process: the serve command, and a child app using openai with OPENAI_BASE_URL', async () => {
  const { server, url } = await serveCommand(['--script', 'js-tests/fixtures/serve-script.mjs']);
  assert.match(url, /^http:\/\/127\.0\.0\.1:\d+$/);
  assert.deepEqual(await runApp(url, 'sk-test'), { called: 'weather', args: { city: 'Oslo' }, text: 'Sunny in Oslo.' });
  await stop(server);
});

/** The child app against `url`; resolves to what it printed. */
async function runApp(url, key) {
  const app = fileURLToPath(new URL('./fixtures/openai-app.mjs', import.meta.url));
  const child = spawn(process.execPath, [app], { env: { ...process.env, OPENAI_BASE_URL: `${url}/v1`, OPENAI_API_KEY: key }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (c) => (out += c));
  child.stderr.on('data', (c) => (err += c));
  const [code] = await once(child, 'exit');
  assert.equal(code, 0, err);
  return JSON.parse(out);
}

async function stop(server) {
  server.kill('SIGTERM');
  const [code] = await once(server, 'exit');
  assert.equal(code, 0, 'serve stops cleanly on SIGTERM');
}

test('another process, recorded and replayed: serve --upstream --record, then serve --cassette with the upstream stopped', async () => {
  const file = join(mkdtempSync(join(tmpdir(), 'understudy-serve-')), 'app.cassette.json');
  const key = 'sk-proj-Q2x9TLm4Rk8Vw1Yz7Hb3Nc5Pd0Fg6Js2Ka';
  const standIn = await serveCommand(['--script', 'js-tests/fixtures/serve-script.mjs']);
  const recorder = await serveCommand(['--upstream', standIn.url, '--record', file]);
  const live = await runApp(recorder.url, key);
  assert.deepEqual(live, { called: 'weather', args: { city: 'Oslo' }, text: 'Sunny in Oslo.' });
  await stop(recorder.server);
  await stop(standIn.server);
  const text = readFileSync(file, 'utf8');
  assert.equal(JSON.parse(text).steps.length, 2);
  assert.ok(!text.includes(key), 'no credential in the cassette');
  const replay = await serveCommand(['--cassette', file, '--match', 'request']);
  assert.deepEqual(await runApp(replay.url, 'sk-other'), live);
  await stop(replay.server);
});

/** A script module for `serve`, in a scratch folder inside the project (so it resolves the package). */
function scriptFile(name, text) {
  const dir = join(fileURLToPath(new URL('..', import.meta.url)), 'node_modules', '.understudy-serve-scripts');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, name), text);
  return join(dir, name);
}

test('serve refuses a mix of sources and half a record mode, naming what goes together', async () => {
  const cases = [
    [['--script', 'a.mjs', '--cassette', 'b.json'], /Give one of --script, --cassette and --upstream, not --script and --cassette/],
    [['--upstream', 'https://api.openai.com'], /--upstream and --record go together/],
    [['--script', 'a.mjs', '--match', 'request'], /--match goes with --cassette/],
    [[], /Give the script: --script/],
    // A script with a syntax error: where it is; an answer's parts given as the steps
    // themselves (the likeliest first mistake): the double's message, not a stack trace.
    [['--script', scriptFile('broken.mjs', "export default [\n  textStep('a'),\n  oops oops\n];\n")], /Cannot load .*broken\.mjs:3:8: Unexpected identifier 'oops'/],
    [['--script', scriptFile('unwrapped.mjs', `import { toolCall } from '@understudy/agents/ai-sdk/testing';\nexport default [toolCall('lookup', { id: 1 })];\n`)], /unwrapped\.mjs holds a script the server cannot take: .*give each answer as an array of its parts/],
  ];
  for (const [args, message] of cases) {
    const child = spawn(process.execPath, [bin, 'serve', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    child.stderr.on('data', (c) => (err += c));
    const [code] = await once(child, 'exit');
    assert.equal(code, 2, err);
    assert.match(err, message);
  }
});
