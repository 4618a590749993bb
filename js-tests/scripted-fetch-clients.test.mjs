// The HTTP double under the providers' official clients from the registry (openai: Responses
// and Chat Completions, @anthropic-ai/sdk, @google/genai), each given `scriptedFetch` as its
// `fetch` and, separately, a `providerServer`'s URL as its base URL: text, streamed text,
// parallel tool calls, a tool loop, reasoning, a 429 the client's own retry gets past, and a
// schema the provider refuses raised as the client's own error class.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import OpenAI from 'openai';
import { scriptedFetch, providerServer, textStep, toolCall } from '@understudy/agents/ai-sdk/testing';

import { clients, expected, script } from './fixtures/client-scenarios.mjs';

for (const [name, run] of Object.entries(clients)) {
  for (const transport of ['fetch', 'server']) {
    test(`${name} through ${transport === 'fetch' ? 'scriptedFetch as its fetch' : 'providerServer as its base URL'}`, async () => {
      const double = transport === 'fetch' ? scriptedFetch(script(), { deltaSize: 5 }) : await providerServer(script(), { deltaSize: 5 });
      try {
        const got = await run(transport === 'fetch' ? { fetch: double } : { url: double.url });
        assert.deepEqual(got, expected(name, got));
        // The refusal names the tool, the place and the reason.
        const message = got.refused[2];
        assert.match(message, name === 'gemini' ? /count.*exclusiveMinimum/s : name === 'anthropic' ? /bounded.*minimum.*\/properties\/days/s : /loose.*additionalProperties/s);
        // Every step was used; the 429 is a step the client retried past; the refused request took none (one call more than steps).
        double.assertComplete();
        const calls = double.calls;
        assert.equal(calls.length, script().length + 1);
        assert.ok(Object.isFrozen(calls[0]));
        assert.equal(calls.filter((c) => c.streamed).length, name === 'anthropic' ? 2 : 1);
        const loopCall = calls[4];
        assert.ok(loopCall.request.messages.some((m) => m.role === 'tool'), 'the tool result reads as a tool message');
      } finally {
        if (transport === 'server') await double.close();
      }
    });
  }
}

test('a call past the script is the provider 500 the client raises with the double\'s message, and assertComplete reports it', async () => {
  const fetch = scriptedFetch([textStep('only one')]);
  const client = new OpenAI({ apiKey: 'k', fetch, maxRetries: 2 });
  assert.equal((await client.responses.create({ model: 'm', input: 'a' })).output_text, 'only one');
  const e = await client.responses.create({ model: 'm', input: 'b' }).catch((x) => x);
  assert.ok(e instanceof OpenAI.InternalServerError, e.constructor.name);
  assert.match(e.message, /scriptedFetch received unexpected non-streaming call #2; no scripted steps remain/);
  assert.equal(fetch.calls.length, 2, 'x-should-retry: false, so the client did not retry');
  assert.throws(() => fetch.assertComplete(), (x) => x.name === 'UnexpectedModelCallError');
});

test('to an HTTP user, messages speak of requests and the double by its name, not of the AI SDK', async () => {
  const server = await providerServer([[toolCall('lookup', { id: 1 })]]);
  try {
    const client = new OpenAI({ apiKey: 'k', baseURL: `${server.url}/v1`, maxRetries: 0 });
    const tools = [{ type: 'function', function: { name: 'search', parameters: { type: 'object', properties: {} } } }];
    const e = await client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'x' }], tools }).catch((x) => x);
    assert.ok(e instanceof OpenAI.InternalServerError, e.constructor.name);
    assert.match(e.message, /providerServer/);
    assert.match(e.message, /the `tools` the request sends; .*give providerServer the option `allowUnofferedTools: true` \(for `serve`, export `options = \{ allowUnofferedTools: true \}`/);
    assert.doesNotMatch(e.message, /activeTools|scriptedFetch/);
    const missing = await fetch(`${server.url}/v1/nowhere`, { method: 'POST', body: '{}' });
    assert.match((await missing.json()).error.message, /^The understudy HTTP double has no provider endpoint at POST /);
  } finally {
    await server.close();
  }
});

test('an unknown endpoint is a 404 naming the supported ones; a step in no wire form is refused when queued', async () => {
  const fetch = scriptedFetch([]);
  const r = await fetch('https://api.openai.com/v1/audio/speech', { method: 'POST', body: '{}' });
  assert.equal(r.status, 404);
  const { error } = await r.json();
  assert.match(error.message, /POST https:\/\/api\.openai\.com\/v1\/audio\/speech.*chat\/completions.*:generateContent.*\/embeddings/);
  const { modelStream } = await import('@understudy/agents/ai-sdk/testing');
  assert.throws(() => scriptedFetch([modelStream([])]), (e) => e.name === 'InvalidScriptedModelStepError' && /scriptedFetch input #1: a modelStream step/.test(e.message));
  assert.throws(() => scriptedFetch([], { deltaSize: 0 }), TypeError);
  assert.throws(() => scriptedFetch([], { delta: 3 }), TypeError);
});
