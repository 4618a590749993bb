// Cassettes for any AI SDK LanguageModel: a real provider package (@ai-sdk/openai, with
// baseURL) against a local OpenAI-compatible server in this test is recorded, then replayed
// with the server stopped; the results are identical and the file holds no credential.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'node:test';
import { APICallError } from '@ai-sdk/provider';
import { z } from 'zod';
import { generateText, streamText, stepCountIs, tool } from 'ai';
import { createOpenAI } from '@ai-sdk/openai';
import {
  cassette,
  recordingLanguageModel,
  ScriptedLanguageModel,
  assertToolCalled,
  CassetteMissingError,
  CassetteMismatchError,
} from '@understudy/agents/ai-sdk/testing';

const KEY = 'sk-proj-Zx81nQv4Lm0pRt7sWu2yBc5dFg9hJk3aNe6iO1';

/** An OpenAI-compatible chat completions server: a tool call until a tool result is in the history, then an answer. */
async function fakeOpenAI({ limitFirst = false } = {}) {
  let requests = 0;
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      requests++;
      if (limitFirst && requests === 1) {
        res.writeHead(429, { 'content-type': 'application/json', 'retry-after-ms': '3' });
        res.end(JSON.stringify({ error: { message: 'Rate limit reached for requests', type: 'requests', code: 'rate_limit_exceeded' } }));
        return;
      }
      const json = JSON.parse(body);
      const answered = json.messages.some((m) => m.role === 'tool');
      const message = json.tools && !answered
        ? { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'weather', arguments: '{"city":"Oslo"}' } }] }
        : { role: 'assistant', content: answered ? 'It is sunny in Oslo.' : 'Hello from the fake provider.' };
      const finish = message.tool_calls ? 'tool_calls' : 'stop';
      const usage = { prompt_tokens: 11, completion_tokens: 7, total_tokens: 18 };
      const base = { id: `chatcmpl-${requests}`, created: 1767225600, model: json.model };
      if (!json.stream) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ ...base, object: 'chat.completion', choices: [{ index: 0, message, finish_reason: finish }], usage }));
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const chunk = (delta, finish_reason = null, extra = {}) => res.write(`data: ${JSON.stringify({ ...base, object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason }], ...extra })}\n\n`);
      if (message.tool_calls) {
        const [c] = message.tool_calls;
        chunk({ role: 'assistant', tool_calls: [{ index: 0, id: c.id, type: 'function', function: { name: c.function.name, arguments: '' } }] });
        chunk({ tool_calls: [{ index: 0, function: { arguments: c.function.arguments.slice(0, 8) } }] });
        chunk({ tool_calls: [{ index: 0, function: { arguments: c.function.arguments.slice(8) } }] });
      } else {
        for (const word of message.content.split(/(?<= )/)) chunk({ role: 'assistant', content: word });
      }
      chunk({}, finish, { usage });
      res.end('data: [DONE]\n\n');
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${server.address().port}/v1`, count: () => requests };
}

const weather = () => tool({ description: 'Weather for a city', inputSchema: z.object({ city: z.string() }), execute: async ({ city }) => `sunny in ${city}` });

/** What two runs must agree on (the SDK's own ids and timestamps aside). */
async function outcome(model) {
  const generated = await generateText({ model, prompt: `Weather in Oslo? (my key is ${KEY})`, tools: { weather: weather() }, stopWhen: stepCountIs(3), headers: { 'x-api-key': KEY } });
  const streamed = streamText({ model, prompt: 'Say hello.' });
  const deltas = [];
  for await (const part of streamed.fullStream) if (part.type === 'text-delta') deltas.push(part.text);
  return {
    text: generated.text,
    steps: generated.steps.map((s) => ({ content: s.content.map(({ providerMetadata, ...c }) => c), finishReason: s.finishReason, usage: s.usage })),
    totalUsage: generated.totalUsage,
    messages: generated.response.messages,
    streamedText: await streamed.text,
    deltas,
    streamedUsage: await streamed.totalUsage,
    streamedFinish: await streamed.finishReason,
  };
}

test('record a real provider package against a local server, replay with the server stopped: identical results, no credential in the file', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'understudy-ai-cassette-'));
  try {
    const fake = await fakeOpenAI();
    const provider = createOpenAI({ baseURL: fake.url, apiKey: KEY });
    const recorded = await outcome(cassette('oslo', () => provider.chat('gpt-4o-mini'), { dir, record: true }));
    assert.equal(recorded.text, 'It is sunny in Oslo.');
    assert.equal(recorded.streamedText, 'Hello from the fake provider.');
    assert.ok(recorded.deltas.length > 1, 'the stream came in pieces');
    assert.equal(fake.count(), 3);
    await new Promise((resolve) => fake.server.close(resolve));

    const file = readFileSync(join(dir, 'oslo.cassette.json'), 'utf8');
    assert.equal(file.includes(KEY), false, 'the key is redacted everywhere');
    assert.ok(file.includes('[REDACTED]'));
    const doc = JSON.parse(file);
    assert.deepEqual(doc.steps.map((s) => s.streamed), [false, false, true]);

    // Replayed in order, and by request, with the server gone.
    let made = 0;
    const replayed = await outcome(cassette('oslo', () => (made++, provider.chat('gpt-4o-mini')), { dir, record: false }));
    assert.equal(made, 0, 'the real model is never made on replay');
    assert.deepEqual(replayed, recorded);
    const byRequest = await outcome(cassette('oslo', () => provider.chat('gpt-4o-mini'), { dir, record: false, match: 'request' }));
    assert.deepEqual(byRequest, recorded);
    const fromFile = ScriptedLanguageModel.fromCassette(join(dir, 'oslo.cassette.json'));
    await generateText({ model: fromFile, prompt: 'x', tools: { weather: weather() }, stopWhen: stepCountIs(3) });
    assertToolCalled(fromFile, 'weather', { city: 'Oslo' });

    // A request the cassette does not hold names the first differing field.
    const strict = cassette('oslo', () => provider.chat('gpt-4o-mini'), { dir, record: false, match: 'request' });
    await assert.rejects(generateText({ model: strict, prompt: 'Something else entirely', maxRetries: 0 }), (e) => {
      const error = e instanceof CassetteMismatchError ? e : e.cause ?? e.lastError;
      return error instanceof CassetteMismatchError && /differs at \/(headers|prompt)/.test(error.message);
    });
    // CI with no cassette: missing, nothing recorded.
    const before = process.env.CI;
    process.env.CI = 'true';
    try {
      assert.throws(() => cassette('absent', () => provider.chat('gpt-4o-mini'), { dir }), CassetteMissingError);
    } finally {
      if (before === undefined) delete process.env.CI;
      else process.env.CI = before;
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('recordingLanguageModel records a failure and a stream cut short, and refuses a model that is not one', async () => {
  const failing = { specificationVersion: 'v3', provider: 'x', modelId: 'y', supportedUrls: {}, doGenerate: async () => { throw Object.assign(new Error('upstream down'), { name: 'AI_APICallError' }); }, doStream: async () => ({ stream: new ReadableStream({ start(c) { c.enqueue({ type: 'stream-start', warnings: [] }); c.enqueue({ type: 'text-start', id: 't' }); c.enqueue({ type: 'text-delta', id: 't', delta: 'partial' }); } }) }) };
  const recorder = recordingLanguageModel(failing);
  await assert.rejects(recorder.doGenerate({ prompt: [] }), /upstream down/);
  const { stream } = await recorder.doStream({ prompt: [] });
  const reader = stream.getReader();
  await reader.read();
  await reader.read();
  await reader.cancel();
  const doc = recorder.toScript();
  // A stream cut short keeps its parts and says it ended before its finish part.
  assert.deepEqual(doc.steps.map((s) => [s.streamed, s.error?.message, s.events?.length]), [[false, 'upstream down', undefined], [true, 'The recorded stream ended before its finish part.', 2]]);
  assert.equal(doc.interface, 'language-model');
  assert.equal(recorder.recordedSteps, 2);
  assert.throws(() => recordingLanguageModel({}), { name: 'TypeError', message: /language model/ });
  // The recorded error replays as the failure it was; each interface replays only its own cassettes.
  const replay = ScriptedLanguageModel.fromCassette(doc);
  await assert.rejects(replay.doGenerate({ prompt: [] }), /upstream down/);
  const { ScriptedModel } = await import('@understudy/agents/testing');
  assert.throws(() => ScriptedModel.fromCassette(doc), { name: 'InvalidCassetteError', pointer: '/interface', message: /AI SDK language model/ });
  const { interface: _, ...agentsDoc } = doc;
  assert.throws(() => ScriptedLanguageModel.fromCassette(agentsDoc), { name: 'InvalidCassetteError', pointer: '/interface', message: /@openai\/agents Model/ });
  // A source of the wrong type is named as the caller called it.
  assert.throws(() => ScriptedLanguageModel.fromCassette(42), { name: 'TypeError', message: /^ScriptedLanguageModel\.fromCassette/ });
  assert.throws(() => ScriptedModel.fromCassette(42), { name: 'TypeError', message: /^ScriptedModel\.fromCassette/ });
});

test('a rate-limited call and its retry are recorded, and replayed so the SDK retries again', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'understudy-ai-cassette-'));
  try {
    const fake = await fakeOpenAI({ limitFirst: true });
    const provider = createOpenAI({ baseURL: fake.url, apiKey: KEY });
    const live = await generateText({ model: cassette('limited', () => provider.chat('gpt-4o-mini'), { dir, record: true }), prompt: 'Say hello.' });
    assert.equal(live.text, 'Hello from the fake provider.');
    assert.equal(fake.count(), 2, 'the SDK retried the 429');
    await new Promise((resolve) => fake.server.close(resolve));

    const doc = JSON.parse(readFileSync(join(dir, 'limited.cassette.json'), 'utf8'));
    assert.deepEqual(doc.steps[0].error, { name: 'AI_APICallError', message: 'Rate limit reached for requests', status: 429, retryable: true, retryAfterMs: 3 });
    assert.ok(doc.steps[1].response);

    const replayed = ScriptedLanguageModel.fromCassette(doc);
    const again = await generateText({ model: replayed, prompt: 'Say hello.' });
    assert.equal(again.text, live.text);
    assert.equal(replayed.calls.length, 2, 'the replayed 429 was retried');
    replayed.assertComplete();
    // Without retries the replayed failure is the provider's: an APICallError with its status.
    await assert.rejects(generateText({ model: ScriptedLanguageModel.fromCassette(doc), prompt: 'Say hello.', maxRetries: 0 }), (e) => e.statusCode === 429 && e.isRetryable === true && e.message === 'Rate limit reached for requests');
    // Matched by request, the same: the recorded 429 is an APICallError the SDK retries.
    const byRequest = ScriptedLanguageModel.fromCassette(doc, { match: 'request' });
    assert.equal((await generateText({ model: byRequest, prompt: 'Say hello.' })).text, live.text);
    assert.equal(byRequest.calls.length, 2, 'the 429 replayed by request was retried');
    await assert.rejects(generateText({ model: ScriptedLanguageModel.fromCassette(doc, { match: 'request' }), prompt: 'Say hello.', maxRetries: 0 }), (e) => APICallError.isInstance(e) && e.statusCode === 429 && e.isRetryable === true);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
