// The HTTP double as a whole test suite lives on it: sessions (parallel workers against one
// `serve`, each with its own script copy, calls and journal), faults on cue through the
// official clients (a stream that drops, stalls or garbles an event; an overloaded provider)
// with the retries they make timed by `at` and `retryOf`, and the endpoints an app calls
// beside the model (embeddings, model lists, token counts).
import assert from 'node:assert/strict';
import { serveCommand } from './helpers.mjs';
import { test } from 'node:test';
import OpenAI from 'openai';
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import { embed, embedMany, generateText, streamText } from 'ai';
import { createOpenAI } from '@ai-sdk/openai';
import { createAnthropic } from '@ai-sdk/anthropic';
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import {
  assertRetried,
  assertToolCalled,
  embeddingStep,
  modelError,
  overloadedError,
  providerServer,
  recordingFetch,
  scriptedFetch,
  scriptedLanguageModel,
  textStep,
  toolCall,
  withFault,
} from '@understudy/agents/ai-sdk/testing';
import { ScriptedModel, withFault as withFaultOfTesting } from '@understudy/agents/testing';

const weather = [{ type: 'function', name: 'lookup', parameters: { type: 'object', properties: { who: { type: 'string' } }, required: ['who'], additionalProperties: false }, strict: true }];

/** An `openai` tool loop, as a Playwright worker's app would run it: the model calls `lookup`, the app answers, the model finishes. */
async function toolLoop(client) {
  let response = await client.responses.create({ model: 'gpt-5', input: 'Go', tools: weather });
  const call = response.output.find((o) => o.type === 'function_call');
  const args = JSON.parse(call.arguments);
  response = await client.responses.create({ model: 'gpt-5', input: [{ type: 'function_call_output', call_id: call.call_id, output: `found ${args.who}` }], tools: weather });
  return { args, text: response.output_text };
}

test('four parallel sessions against one serve: each runs its own script copy, and the journal returns its calls', async () => {
  const { server: child, url } = await serveCommand(['--script', 'js-tests/fixtures/session-script.mjs']);
  try {
    const workers = ['w1', 'w2', 'w3', 'w4'];
    // Two of them name their session in a header, two in the path.
    const results = await Promise.all(
      workers.map((id, i) =>
        toolLoop(new OpenAI({ apiKey: 'k', maxRetries: 0, ...(i % 2 === 0 ? { baseURL: `${url}/v1`, defaultHeaders: { 'x-understudy-session': id } } : { baseURL: `${url}/session/${id}/v1` }) })),
      ),
    );
    for (const [i, id] of workers.entries()) assert.deepEqual(results[i], { args: { who: id }, text: `Done for ${id}.` });
    for (const id of workers) {
      const calls = await (await fetch(`${url}/__understudy/sessions/${id}/calls`)).json();
      assert.equal(calls.length, 2, id);
      assert.deepEqual(calls.map((c) => c.endpoint), ['openai.responses', 'openai.responses']);
      assert.equal(calls[1].request.messages.at(-1).content[0].output, `found ${id}`);
      assert.ok(calls[0].at <= calls[1].at);
    }
    // The requests without a session kept the script of their own, untouched.
    assert.deepEqual(await (await fetch(`${url}/__understudy/calls`)).json(), []);
    const unknown = await fetch(`${url}/__understudy/sessions/w9/calls`);
    assert.equal(unknown.status, 404);
    assert.match((await unknown.json()).error.message, /no session "w9": the sessions requests named are "w1", "w2", "w3", "w4"|no session "w9": the sessions requests named are/);
  } finally {
    child.kill('SIGTERM');
  }
});

test('a session in process: its calls, steps and completion are its own; the default script is untouched', async () => {
  const server = await providerServer([textStep('one'), textStep('two')]);
  try {
    const client = new OpenAI({ apiKey: 'k', baseURL: `${server.url}/v1`, maxRetries: 0, defaultHeaders: { 'x-understudy-session': 'a' } });
    assert.equal((await client.responses.create({ model: 'm', input: 'x' })).output_text, 'one');
    const a = server.session('a');
    assert.equal(a.calls.length, 1);
    assert.equal(a.remainingSteps, 1);
    assert.throws(() => a.assertComplete(), (e) => e.name === 'UnconsumedModelStepsError');
    assert.equal(server.calls.length, 0);
    assert.equal(server.remainingSteps, 2);
    // Asking for a session before any request makes it: its unused steps fail assertComplete.
    assert.throws(() => server.session('b').assertComplete(), (e) => e.name === 'UnconsumedModelStepsError' && e.remainingSteps === 2);
    assert.throws(() => server.session(''), TypeError);
    // Two sessions named at once are the double's 400.
    const two = await fetch(`${server.url}/session/a/v1/responses`, { method: 'POST', headers: { 'x-understudy-session': 'b' }, body: '{}' });
    assert.equal(two.status, 400);
    assert.match((await two.json()).error.message, /two sessions: "a" in its path and "b"/);
  } finally {
    await server.close();
  }
});

test('scriptedFetch takes a script per session as a function; a session whose script fails is the double\'s 500', async () => {
  const fetch = scriptedFetch((session) => {
    if (session === 'bad') throw new Error('no script for bad');
    return [textStep(`hello ${session ?? 'main'}`)];
  });
  const ask = async (session) => {
    const client = new OpenAI({ apiKey: 'k', fetch, maxRetries: 0, ...(session ? { defaultHeaders: { 'x-understudy-session': session } } : {}) });
    return client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'x' }] });
  };
  assert.equal((await ask('s1')).choices[0].message.content, 'hello s1');
  assert.equal((await ask()).choices[0].message.content, 'hello main');
  const e = await ask('bad').catch((x) => x);
  assert.ok(e instanceof OpenAI.InternalServerError, e.constructor.name);
  assert.match(e.message, /cannot start session "bad": no script for bad/);
  fetch.assertComplete();
  fetch.session('s1').assertComplete();
});

test('a stream that drops after three events: openai raises, its retry gets the next step, and retryOf shows it', async () => {
  for (const transport of ['fetch', 'server']) {
    const steps = [withFault(textStep('a long answer that drops'), { kind: 'disconnect', afterEvents: 3 }), textStep('second try')];
    const double = transport === 'fetch' ? scriptedFetch(steps, { deltaSize: 4 }) : await providerServer(steps, { deltaSize: 4 });
    try {
      const client = new OpenAI({ apiKey: 'k', maxRetries: 0, ...(transport === 'fetch' ? { fetch: double } : { baseURL: `${double.url}/v1` }) });
      const stream = await client.responses.create({ model: 'm', input: 'x', stream: true });
      const seen = [];
      const error = await (async () => {
        for await (const event of stream) seen.push(event.type);
      })().catch((x) => x);
      assert.ok(error instanceof Error, transport);
      assert.equal(seen.length, 3, transport);
      // The app retries the same request: the double says it is a retry of call 0.
      const again = await client.responses.create({ model: 'm', input: 'x', stream: true });
      let text = '';
      for await (const event of again) if (event.type === 'response.output_text.delta') text += event.delta;
      assert.equal(text, 'second try');
      assert.equal(double.calls[1].retryOf, 0);
      assertRetried(double, { call: 1 });
      assert.throws(() => assertRetried(double, { call: 0 }), (e) => e.name === 'AssertionError' && /no failed call sent the same request/.test(e.message));
      double.assertComplete();
    } finally {
      if (transport === 'server') await double.close();
    }
  }
});

test('a connection that drops before the first byte: the client retries on its own (openai, @anthropic-ai/sdk)', async () => {
  const fetch = scriptedFetch([withFault(textStep('lost'), { kind: 'disconnect' }), textStep('found')]);
  const client = new OpenAI({ apiKey: 'k', fetch, maxRetries: 2 });
  const r = await client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'x' }] });
  assert.equal(r.choices[0].message.content, 'found');
  assert.equal(fetch.calls.length, 2);
  assertRetried(fetch, { call: 1 });

  const server = await providerServer([withFault(textStep('lost'), { kind: 'disconnect' }), textStep('found')]);
  try {
    const anthropic = new Anthropic({ apiKey: 'k', baseURL: server.url, maxRetries: 2 });
    const m = await anthropic.messages.create({ model: 'c', max_tokens: 10, messages: [{ role: 'user', content: 'x' }] });
    assert.equal(m.content[0].text, 'found');
    assertRetried(server, { call: 1 });
  } finally {
    await server.close();
  }
});

test('a malformed event: each official client raises its own parse error', async () => {
  const fault = { kind: 'malformed', afterEvents: 2 };
  const openai = new OpenAI({ apiKey: 'k', maxRetries: 0, fetch: scriptedFetch([withFault(textStep('hello there'), fault)]) });
  const s1 = await openai.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'x' }], stream: true });
  const e1 = await (async () => {
    for await (const _ of s1);
  })().catch((x) => x);
  assert.match(String(e1?.message), /JSON|parse/i);

  const anthropic = new Anthropic({ apiKey: 'k', maxRetries: 0, fetch: scriptedFetch([withFault(textStep('hello there'), fault)]) });
  const s2 = anthropic.messages.stream({ model: 'c', max_tokens: 10, messages: [{ role: 'user', content: 'x' }] });
  const e2 = await s2.finalMessage().catch((x) => x);
  assert.ok(e2 instanceof Error);
  assert.match(String(e2.message), /JSON|parse|Unexpected/i);

  const gfetch = scriptedFetch([withFault(textStep('hello there'), { kind: 'malformed' })]);
  const genai = new GoogleGenAI({ apiKey: 'k', httpOptions: { fetch: gfetch } });
  const e3 = await genai.models.generateContent({ model: 'gemini-2.5-flash', contents: 'x' }).catch((x) => x);
  assert.ok(e3 instanceof Error, 'a cut JSON body is an error');
});

test('faults through @google/genai streamed and @anthropic-ai/sdk not streamed: each raises its own error', async () => {
  const gfetch = scriptedFetch([withFault(textStep('a streamed Gemini answer'), { kind: 'disconnect', afterEvents: 1 })], { deltaSize: 4 });
  const genai = new GoogleGenAI({ apiKey: 'k', httpOptions: { fetch: gfetch } });
  const texts = [];
  const error = await (async () => {
    for await (const chunk of await genai.models.generateContentStream({ model: 'gemini-2.5-flash', contents: 'x' })) texts.push(chunk.text);
  })().catch((x) => x);
  assert.ok(error instanceof Error);
  assert.equal(texts.length, 1, 'the event before the drop arrived');
  assert.equal(gfetch.calls[0].endpoint, 'gemini.generateContent');

  const afetch = scriptedFetch([withFault(textStep('hello'), { kind: 'malformed' })]);
  const e = await new Anthropic({ apiKey: 'k', fetch: afetch, maxRetries: 0 }).messages.create({ model: 'c', max_tokens: 10, messages: [{ role: 'user', content: 'x' }] }).catch((x) => x);
  assert.ok(e instanceof Error && /JSON|Unexpected|parse/i.test(e.message), String(e));
});

test('a stall: the client gives up (an idle signal mid-stream, its timeout before the status), and its retry is answered', async () => {
  const server = await providerServer([withFault(textStep('never'), { kind: 'stall', afterEvents: 1 }), textStep('after the stall')]);
  try {
    const client = new OpenAI({ apiKey: 'k', baseURL: `${server.url}/v1`, maxRetries: 0 });
    // openai's `timeout` ends when the status arrives; an app guards a stream with a signal.
    const stream = await client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'x' }], stream: true }, { signal: AbortSignal.timeout(300) });
    const started = Date.now();
    let events = 0;
    // openai ends a stream its signal aborted without an error.
    for await (const _ of stream) events++;
    assert.equal(events, 1);
    assert.ok(Date.now() - started >= 250, 'it waited for the signal');
    const again = await client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'x' }], stream: true });
    let text = '';
    for await (const chunk of again) text += chunk.choices[0]?.delta?.content ?? '';
    assert.equal(text, 'after the stall');
    assertRetried(server, { call: 1, after: 250 });
  } finally {
    await server.close();
  }
  // In process, a stall before the first byte holds the fetch until its signal aborts.
  const fetch = scriptedFetch([withFault(textStep('never'), { kind: 'stall' })]);
  const e = await new OpenAI({ apiKey: 'k', fetch, maxRetries: 0, timeout: 100 }).responses.create({ model: 'm', input: 'x' }).catch((x) => x);
  assert.ok(e instanceof OpenAI.APIConnectionTimeoutError, e.constructor.name);
});

test('overloaded: each provider\'s own status and body; the clients retry after retry-after, and at shows the wait', async () => {
  const script = () => [overloadedError({ retryAfterMs: 400 }), textStep('recovered')];
  const anthropic = scriptedFetch(script());
  const a = new Anthropic({ apiKey: 'k', fetch: anthropic, maxRetries: 1 });
  assert.equal((await a.messages.create({ model: 'c', max_tokens: 10, messages: [{ role: 'user', content: 'x' }] })).content[0].text, 'recovered');
  assertRetried(anthropic, { call: 1, after: 350 });
  // Without a retry the client raises its own error class for 529 overloaded_error.
  const once = new Anthropic({ apiKey: 'k', fetch: scriptedFetch([overloadedError()]), maxRetries: 0 });
  const e = await once.messages.create({ model: 'c', max_tokens: 10, messages: [{ role: 'user', content: 'x' }] }).catch((x) => x);
  assert.equal(e.status, 529);
  assert.equal(e.error.error.type, 'overloaded_error');

  const openai = scriptedFetch(script());
  const o = new OpenAI({ apiKey: 'k', fetch: openai, maxRetries: 1 });
  assert.equal((await o.responses.create({ model: 'm', input: 'x' })).output_text, 'recovered');
  assertRetried(openai, { call: 1, after: 350 });
  const eo = await new OpenAI({ apiKey: 'k', fetch: scriptedFetch([overloadedError()]), maxRetries: 0 }).responses.create({ model: 'm', input: 'x' }).catch((x) => x);
  assert.ok(eo instanceof OpenAI.InternalServerError, eo.constructor.name);
  assert.equal(eo.status, 503);

  const gemini = scriptedFetch(script());
  const g = new GoogleGenAI({ apiKey: 'k', httpOptions: { fetch: gemini, retryOptions: { attempts: 2 } } });
  assert.equal((await g.models.generateContent({ model: 'gemini-2.5-flash', contents: 'x' })).text, 'recovered');
  assert.equal(gemini.calls[1].retryOf, 0);
  const eg = await new GoogleGenAI({ apiKey: 'k', httpOptions: { fetch: scriptedFetch([overloadedError()]) } }).models.generateContent({ model: 'gemini-2.5-flash', contents: 'x' }).catch((x) => x);
  assert.equal(eg.status, 503);
  assert.match(eg.message, /overloaded/);
});

test('faults through the AI SDK adapters: a dropped stream is a stream error; overloaded is retried by generateText', async () => {
  const fetch = scriptedFetch([withFault(textStep('partial answer here'), { kind: 'disconnect', afterEvents: 7 })], { deltaSize: 3 });
  const model = createOpenAI({ apiKey: 'k', fetch })('gpt-5');
  const result = streamText({ model, prompt: 'x', onError: () => {} });
  let text = '';
  const error = await (async () => {
    for await (const delta of result.textStream) text += delta;
  })().catch((x) => x);
  // The events before the drop arrived; then the SDK raised its own error, caused by the drop.
  assert.ok(text.length > 0 && text.length < 'partial answer here'.length, JSON.stringify(text));
  assert.equal(error?.name, 'AI_APICallError');
  assert.match(String(error.cause?.message), /terminated/);

  // Gemini through its adapter: a malformed event is the SDK's own stream error.
  const gemini = createGoogleGenerativeAI({ apiKey: 'k', fetch: scriptedFetch([withFault(textStep('hello there'), { kind: 'malformed', afterEvents: 0 })]) })('gemini-2.5-flash');
  const parts = [];
  for await (const part of streamText({ model: gemini, prompt: 'x', onError: () => {} }).fullStream) parts.push(part);
  assert.ok(parts.some((p) => p.type === 'error'), parts.map((p) => p.type).join());

  const anthropic = scriptedFetch([overloadedError({ retryAfterMs: 50 }), textStep('ok')]);
  const { text: answered } = await generateText({ model: createAnthropic({ apiKey: 'k', fetch: anthropic })('claude-sonnet-4-5'), prompt: 'x', maxRetries: 1 });
  assert.equal(answered, 'ok');
  assertRetried(anthropic, { call: 1 });
});

test('withFault refuses what it cannot cut, and the model doubles refuse HTTP-only steps', () => {
  assert.throws(() => withFault(modelError(new Error('x')), { kind: 'stall' }), (e) => e instanceof TypeError && /an error step/.test(e.message));
  assert.throws(() => withFault(textStep('x'), { kind: 'explode' }), (e) => e instanceof TypeError && /'disconnect', 'stall', 'malformed'/.test(e.message));
  assert.throws(() => withFault(textStep('x'), { kind: 'stall', afterEvents: -1 }), TypeError);
  assert.equal(withFault, withFaultOfTesting);
  assert.throws(() => scriptedLanguageModel([withFault(textStep('x'), { kind: 'stall' })]), (e) => e.name === 'InvalidScriptedModelStepError' && /only the HTTP double/.test(e.message));
  assert.throws(() => new ScriptedModel([embeddingStep([1, 2])]), (e) => e.name === 'InvalidScriptedModelStepError' && /embeddingStep/.test(e.message));
  assert.throws(() => embeddingStep([]), TypeError);
  assert.throws(() => embeddingStep([1, Number.NaN]), TypeError);
});

test('a fault after more events than the answer streams is the double\'s error naming the count', async () => {
  const fetch = scriptedFetch([withFault(textStep('hi'), { kind: 'disconnect', afterEvents: 99 })]);
  const client = new OpenAI({ apiKey: 'k', fetch, maxRetries: 0 });
  const e = await client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'x' }], stream: true }).catch((x) => x);
  assert.ok(e instanceof OpenAI.InternalServerError, e?.constructor?.name);
  assert.match(e.message, /after 99 event\(s\) but the answer streams \d+/);
  assert.throws(() => fetch.assertComplete(), (x) => x.name === 'InvalidScriptedModelStepError');
});

test('firstChunkDelayInMs holds the first event; chunkDelayInMs the others', async () => {
  const fetch = scriptedFetch([textStep('abcdef')], { deltaSize: 2, firstChunkDelayInMs: 150 });
  const client = new OpenAI({ apiKey: 'k', fetch, maxRetries: 0 });
  const started = Date.now();
  const stream = await client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'x' }], stream: true });
  let first;
  for await (const _ of stream) first ??= Date.now() - started;
  assert.ok(first >= 140, `first event after ${first} ms`);
  assert.throws(() => scriptedFetch([], { firstChunkDelayInMs: -1 }), TypeError);
});

test('embeddings through openai, the AI SDK and @google/genai: deterministic, of the asked dimension, recorded without a step', async () => {
  const fetch = scriptedFetch([textStep('a model answer')]);
  const openai = new OpenAI({ apiKey: 'k', fetch, maxRetries: 0 });
  // openai asks for base64 by default and decodes it.
  const e1 = await openai.embeddings.create({ model: 'text-embedding-3-small', input: ['alpha', 'beta'] });
  assert.equal(e1.data.length, 2);
  assert.equal(e1.data[0].embedding.length, 1536);
  const norm = Math.hypot(...e1.data[0].embedding);
  assert.ok(Math.abs(norm - 1) < 1e-3, `unit length, got ${norm}`);
  const e2 = await openai.embeddings.create({ model: 'text-embedding-3-small', input: 'alpha', dimensions: 8, encoding_format: 'float' });
  assert.equal(e2.data[0].embedding.length, 8);
  const again = await openai.embeddings.create({ model: 'text-embedding-3-small', input: 'alpha', dimensions: 8, encoding_format: 'float' });
  assert.deepEqual(again.data[0].embedding, e2.data[0].embedding, 'the same text gives the same vector');
  assert.equal(fetch.remainingSteps, 1, 'no step was used');
  assert.deepEqual(fetch.calls.map((c) => c.endpoint), ['openai.embeddings', 'openai.embeddings', 'openai.embeddings']);
  assert.deepEqual(fetch.calls[0].request.messages.map((m) => m.content[0].text), ['alpha', 'beta']);

  const ai = createOpenAI({ apiKey: 'k', fetch });
  const one = await embed({ model: ai.embedding('text-embedding-3-small'), value: 'alpha' });
  assert.deepEqual(one.embedding.slice(0, 4).map((x) => Math.round(x * 1e5)), e1.data[0].embedding.slice(0, 4).map((x) => Math.round(x * 1e5)));
  const many = await embedMany({ model: ai.embedding('text-embedding-3-large'), values: ['a', 'b', 'c'] });
  assert.equal(many.embeddings.length, 3);
  assert.equal(many.embeddings[0].length, 3072);

  const genai = new GoogleGenAI({ apiKey: 'k', httpOptions: { fetch } });
  const g = await genai.models.embedContent({ model: 'gemini-embedding-001', contents: ['alpha', 'beta'], config: { outputDimensionality: 16 } });
  assert.equal(g.embeddings.length, 2);
  assert.equal(g.embeddings[1].values.length, 16);
  assert.equal(fetch.remainingSteps, 1);
  fetch.enqueue(); // nothing queued: the model step is still there
  assert.equal((await openai.responses.create({ model: 'm', input: 'x' })).output_text, 'a model answer');
  fetch.assertComplete();
});

test('embeddingStep gives exact vectors to the next embedding request; one that does not fit is the double\'s failure', async () => {
  const fetch = scriptedFetch([embeddingStep([[1, 0, 0], [0, 1, 0]]), embeddingStep([0.5, 0.5])]);
  const openai = new OpenAI({ apiKey: 'k', fetch, maxRetries: 0 });
  const r = await openai.embeddings.create({ model: 'text-embedding-3-small', input: ['a', 'b'], encoding_format: 'float' });
  assert.deepEqual(r.data.map((d) => d.embedding), [[1, 0, 0], [0, 1, 0]]);
  assert.equal(fetch.remainingSteps, 1);
  assert.throws(() => fetch.assertComplete(), (e) => e.name === 'UnconsumedModelStepsError' && e.remainingSteps === 1);
  const e = await openai.embeddings.create({ model: 'text-embedding-3-small', input: ['a', 'b'] }).catch((x) => x);
  assert.ok(e instanceof OpenAI.InternalServerError);
  assert.match(e.message, /embeddingStep holds 1 vector\(s\) but the request embeds 2/);
  assert.throws(() => fetch.assertComplete(), (x) => x.name === 'InvalidScriptedModelStepError');
});

test('model lists and token counts: openai and Anthropic list models, Anthropic and Gemini count tokens', async () => {
  const server = await providerServer([]);
  try {
    const openai = new OpenAI({ apiKey: 'k', baseURL: `${server.url}/v1`, maxRetries: 0 });
    const ids = [];
    for await (const m of openai.models.list()) ids.push(m.id);
    assert.ok(ids.includes('gpt-5') && ids.includes('text-embedding-3-small'), ids.join());
    assert.equal((await openai.models.retrieve('gpt-my-fine-tune')).id, 'gpt-my-fine-tune');
    const anthropic = new Anthropic({ apiKey: 'k', baseURL: server.url, maxRetries: 0 });
    const names = [];
    for await (const m of anthropic.models.list()) names.push(m.id);
    assert.ok(names.includes('claude-sonnet-4-5'), names.join());
    const count = await anthropic.messages.countTokens({ model: 'claude-sonnet-4-5', messages: [{ role: 'user', content: 'twelve chars' }] });
    assert.equal(count.input_tokens, 4); // "user" + "twelve chars": 16 characters
    const genai = new GoogleGenAI({ apiKey: 'k', httpOptions: { baseUrl: server.url } });
    const pager = await genai.models.list();
    const gemini = [];
    for await (const m of pager) gemini.push(m.name);
    assert.ok(gemini.includes('models/gemini-2.5-flash'), gemini.join());
    assert.equal((await genai.models.countTokens({ model: 'gemini-2.5-flash', contents: 'abcdefgh' })).totalTokens, 3);
    assert.equal(server.remainingSteps, 0);
    assert.deepEqual([...new Set(server.calls.map((c) => c.endpoint))].sort(), ['anthropic.countTokens', 'anthropic.models', 'gemini.countTokens', 'gemini.models', 'openai.model', 'openai.models']);
    server.assertComplete();
    // Any other path is still a 404 that names what is served.
    const missing = await fetch(`${server.url}/v1/audio/speech`, { method: 'POST', body: '{}' });
    assert.equal(missing.status, 404);
    assert.match((await missing.json()).error.message, /\/embeddings.*count_tokens.*__understudy\/calls/);
  } finally {
    await server.close();
  }
});

test('the tool assertions read a session as a double', async () => {
  const fetch = scriptedFetch([[toolCall('lookup', { who: 'x' })]]);
  const client = new OpenAI({ apiKey: 'k', fetch, maxRetries: 0, defaultHeaders: { 'x-understudy-session': 's' } });
  await client.responses.create({ model: 'm', input: 'x', tools: weather });
  assertToolCalled(fetch.session('s'), 'lookup', { who: 'x' });
});

test('an invalid step after an embedding step is named at its place in the script', () => {
  const { modelStream } = { modelStream: (parts) => ({ type: 'stream', events: parts }) };
  assert.throws(
    () => scriptedFetch([embeddingStep([1]), textStep('ok'), modelStream([])]),
    (e) => e.name === 'InvalidScriptedModelStepError' && /input #3:/.test(e.message) && e.inputIndex === 2,
  );
});

test('a session replays a wire cassette as requests without one do: the path prefix is taken off first', async () => {
  const recorder = recordingFetch(scriptedFetch([textStep('recorded answer')]));
  const client = (fetch, base) => new OpenAI({ apiKey: 'k', fetch, maxRetries: 0, ...(base ? { baseURL: base } : {}) });
  await client(recorder).chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'x' }] });
  const server = await providerServer({ cassette: recorder.toScript(), match: 'request' });
  try {
    const r = await client(undefined, `${server.url}/session/replay-1/v1`).chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'x' }] });
    assert.equal(r.choices[0].message.content, 'recorded answer');
    const calls = server.session('replay-1').calls;
    assert.equal(calls[0].url, '/v1/chat/completions');
    server.session('replay-1').assertComplete();
  } finally {
    await server.close();
  }
});

test('a wire cassette records the embeddings an app asked for, and a replay answers with them, in order or by request', async () => {
  // The "real" API here gives exact vectors, unlike the double's own.
  const upstream = scriptedFetch([embeddingStep([[0.6, 0.8]]), textStep('Grounded answer.')]);
  const recorder = recordingFetch(upstream);
  const app = async (fetch) => {
    const client = new OpenAI({ apiKey: 'k', fetch, maxRetries: 0 });
    const e = await client.embeddings.create({ model: 'text-embedding-3-small', input: 'query', encoding_format: 'float' });
    const r = await client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: `context ${e.data[0].embedding.join(',')}` }] });
    const models = (await client.models.list()).data.length;
    return { vector: e.data[0].embedding, text: r.choices[0].message.content, models };
  };
  const live = await app(recorder);
  assert.deepEqual(live.vector, [0.6, 0.8]);
  const cassette = recorder.toScript();
  assert.equal(cassette.steps.length, 3, 'the embedding, the chat and the model list');
  for (const match of ['order', 'request']) {
    const replay = scriptedFetch({ cassette, match });
    assert.deepEqual(await app(replay), live, match);
    assert.deepEqual(replay.calls.map((c) => c.endpoint), ['openai.embeddings', 'openai.chat', 'openai.models']);
    replay.assertComplete();
  }
});
