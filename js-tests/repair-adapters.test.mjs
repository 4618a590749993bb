// repairingMiddleware through the real AI SDK adapters from the registry (@ai-sdk/openai
// Responses and Chat, @ai-sdk/anthropic, @ai-sdk/google, @ai-sdk/openai-compatible on `ai` 7),
// against a local server answering in each provider's wire format (JSON and SSE). Each adapter
// is first checked with a clean reply and no middleware.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { z } from 'zod';
import { generateText, streamText, Output, stepCountIs, tool, wrapLanguageModel } from 'ai';
import { createOpenAI } from '@ai-sdk/openai';
import { createAnthropic } from '@ai-sdk/anthropic';
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { repairingMiddleware } from '@understudy/agents';
import { providerServer } from './fixtures/provider-server.mjs';

const Ticket = z.object({ title: z.string(), tags: z.array(z.string()), estimate: z.number() });
const ticket = { title: 'Fix login', tags: ['auth', 'web'], estimate: 3 };

let server;
/** What the next request gets (per test). */
let answer = () => ({ text: JSON.stringify(ticket) });

before(async () => {
  server = await providerServer((request) => answer(request));
});
after(() => server?.close());

/** Each adapter's model against the local server. */
const adapters = () => ({
  'openai responses': createOpenAI({ baseURL: `${server.url}/v1`, apiKey: 'k' }).responses('gpt-test'),
  'openai chat': createOpenAI({ baseURL: `${server.url}/v1`, apiKey: 'k' }).chat('gpt-test'),
  anthropic: createAnthropic({ baseURL: `${server.url}/v1`, apiKey: 'k' })('claude-sonnet-4-5'),
  google: createGoogleGenerativeAI({ baseURL: `${server.url}/v1beta`, apiKey: 'k' })('gemini-2.5-flash'),
  'openai-compatible': createOpenAICompatible({ name: 'local', baseURL: `${server.url}/v1`, apiKey: 'k', supportsStructuredOutputs: true })('open-model'),
});

/** The output of `generateText` and of `streamText` (with its partials) for one model. */
async function outputs(model) {
  const generated = await generateText({ model, output: Output.object({ schema: Ticket }), prompt: 'ticket' });
  const streamed = streamText({ model, output: Output.object({ schema: Ticket }), prompt: 'ticket' });
  const partials = [];
  for await (const p of streamed.partialOutputStream) partials.push(p);
  return { generated: generated.output, streamed: await streamed.output, partials };
}

test('each adapter reads a clean reply without the middleware (generateText and streamText)', async () => {
  answer = () => ({ text: JSON.stringify(ticket) });
  for (const [name, model] of Object.entries(adapters())) {
    const { generated, streamed } = await outputs(model);
    assert.deepEqual(generated, ticket, name);
    assert.deepEqual(streamed, ticket, name);
  }
});

/** The model of `name` wrapped with the middleware; its refusals in `refusals`. */
function repaired(name, refusals = []) {
  return wrapLanguageModel({ model: adapters()[name], middleware: repairingMiddleware({ onRefusal: (r) => refusals.push(r) }) });
}

test('trailing commas, single quotes and fences: generateText and streamText read the same value on every adapter, in 3- and 10-character deltas', async () => {
  const broken = [
    '{"title": "Fix login", "tags": ["auth", "web",], "estimate": 3,}',
    "{'title': 'Fix login', 'tags': ['auth', 'web'], 'estimate': '3'}",
    '```json\n{"title": "Fix login", "tags": ["auth", "web"], "estimate": 3}\n```',
    'Here is the ticket:\n```json\n{"title": "Fix login", "tags": ["auth", "web",], "estimate": 3}\n```',
  ];
  for (const reply of broken) {
    for (const chunk of [3, 10]) {
      answer = () => ({ text: reply, chunk });
      for (const name of Object.keys(adapters())) {
        const { generated, streamed, partials } = await outputs(repaired(name));
        const at = `${name}, ${JSON.stringify(reply)} in ${chunk}-character deltas`;
        assert.deepEqual(generated, ticket, at);
        assert.deepEqual(streamed, ticket, at);
        for (const p of partials) for (const [k, v] of Object.entries(p)) if (k !== 'title' && !Array.isArray(v)) assert.deepEqual(v, ticket[k], `${at}: partial ${k}`);
        if (reply.startsWith('```')) assert.ok(partials.length > 2, `${at}: a fenced block streams (${partials.length} partials)`);
      }
    }
  }
});

test("OpenAI Responses: a final answer (phase: 'final_answer'), which the SDK reads from structuredOutputText, is repaired there too", async () => {
  answer = () => ({ text: '{"title": "Fix login", "tags": ["auth", "web",], "estimate": 3,}', phase: 'final_answer' });
  const { generated, streamed } = await outputs(repaired('openai responses'));
  assert.deepEqual(generated, ticket);
  assert.deepEqual(streamed, ticket);
  // Without the middleware the SDK fails on it: the repair is what reads it.
  await assert.rejects(generateText({ model: adapters()['openai responses'], output: Output.object({ schema: Ticket }), prompt: 'ticket' }), (e) => e.name === 'AI_NoObjectGeneratedError');
});

test('a tool loop with broken tool arguments runs the tool with the repaired input (OpenAI Chat, Responses, compatible)', async () => {
  for (const name of ['openai chat', 'openai responses', 'openai-compatible']) {
    const seen = [];
    answer = ({ body }) => {
      const history = JSON.stringify(body.messages ?? body.input ?? []);
      return history.includes('sunny in Oslo') ? { text: 'It is sunny.' } : { calls: [{ name: 'weather', args: "{city: 'Oslo', days: '2',}" }] };
    };
    const tools = { weather: tool({ inputSchema: z.object({ city: z.string(), days: z.number() }), execute: async (input) => (seen.push(input), 'sunny in Oslo') }) };
    const result = await generateText({ model: repaired(name), tools, stopWhen: stepCountIs(3), prompt: 'weather' });
    assert.deepEqual(seen, [{ city: 'Oslo', days: 2 }], name);
    assert.equal(result.text, 'It is sunny.', name);
  }
});

test('a tool call cut by max_tokens is withheld, never run: Anthropic and Gemini send whole-looking arguments (generated and streamed)', async () => {
  for (const name of ['anthropic', 'google', 'openai chat', 'openai responses']) {
    for (const streamed of [false, true]) {
      const seen = [];
      const refusals = [];
      answer = () => ({ calls: [{ name: 'delete_path', args: { path: '/home/user/tmp', recursive: true } }], finish: 'length' });
      const tools = { delete_path: tool({ inputSchema: z.object({ path: z.string(), recursive: z.boolean() }), execute: async (input) => (seen.push(input), 'deleted') }) };
      const options = { model: repaired(name, refusals), tools, stopWhen: stepCountIs(3), prompt: 'clean up' };
      if (streamed) await streamText(options).consumeStream();
      else await generateText(options);
      const at = `${name}, ${streamed ? 'streamed' : 'generated'}`;
      assert.deepEqual(seen, [], at);
      assert.deepEqual(refusals.map((r) => [r.reason, r.toolName, r.withheld]), [['response_truncated', 'delete_path', true]], at);
      assert.deepEqual(JSON.parse(refusals[0].input), { path: '/home/user/tmp', recursive: true }, at);
    }
  }
});

test("Anthropic's JSON-tool structured output, streamed with trailing commas, is repaired", async () => {
  answer = ({ body }) => (body.tools?.some((t) => t.name === 'json') ? { calls: [{ name: 'json', args: '{"title": "Fix login", "tags": ["auth", "web",], "estimate": 3,}' }], chunk: 4 } : { text: 'no json tool' });
  const model = wrapLanguageModel({ model: adapters().anthropic, middleware: repairingMiddleware() });
  const options = { model, output: Output.object({ schema: Ticket }), prompt: 'ticket', providerOptions: { anthropic: { structuredOutputMode: 'jsonTool' } } };
  const result = streamText(options);
  assert.deepEqual(await result.output, ticket);
  assert.ok(server.requests.at(-1).body.tools.some((t) => t.name === 'json'), 'the adapter asked for its json tool');
  const bare = streamText({ ...options, model: adapters().anthropic });
  await assert.rejects(bare.output, (e) => e.name === 'AI_NoObjectGeneratedError', 'without the middleware the SDK cannot read it');
});
