// Record and replay at the HTTP level, with the providers' official clients: each client runs
// its scenario (text, a stream, parallel tool calls, a tool loop, reasoning, a 429 its own
// retry gets past, a refused schema) against a local stand-in of the provider, through
// `recordingFetch` and, separately, through a recording `providerServer` (`upstream`); the
// stand-in is stopped, and the cassette replayed (`scriptedFetch({ cassette })`,
// `providerServer({ cassette })`) gives the client the same results. No API key is in the file.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import OpenAI from 'openai';
import Anthropic from '@anthropic-ai/sdk';
import { scriptedFetch, providerServer, recordingFetch, fetchCassette, textStep, InvalidCassetteError, CassetteMismatchError, CassetteMissingError } from '@understudy/agents/ai-sdk/testing';
import { clients, script } from './fixtures/client-scenarios.mjs';
import { providerServer as standInServer } from './fixtures/provider-server.mjs';

// Keys of each provider's real format, so a redaction that missed one would leave it visible.
const KEYS = {
  'openai responses': 'sk-proj-Q2x9TLm4Rk8Vw1Yz7Hb3Nc5Pd0Fg6Js2Ka',
  'openai chat': 'sk-proj-Z8b4Mn1Qw7Er3Ty6Ui9Op2As5Df0Gh4Jk1L',
  anthropic: 'sk-ant-api03-Xy7Qw2Er9Ty4Ui1Op6As3Df8Gh5Jk0Lz2Xc7Vb4Nm1Qw8Er5Ty2Ui9Op6As3Df0GhAA',
  gemini: 'AIzaSyB7Qw2Er9Ty4Ui1Op6As3Df8Gh5Jk0Lz2X',
};

const dir = mkdtempSync(join(tmpdir(), 'understudy-wire-'));

/** A `fetch` that sends every request to `base` instead of its own origin (the path kept). */
function redirected(base) {
  return async (input, init) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    const body = request.method === 'GET' ? undefined : await request.text();
    return fetch(`${base}${url.pathname}${url.search}`, { method: request.method, headers: request.headers, body, signal: request.signal });
  };
}

for (const [name, run] of Object.entries(clients)) {
  for (const via of ['recordingFetch', 'server']) {
    test(`${name}: recorded through ${via === 'server' ? 'providerServer({ upstream })' : 'recordingFetch'}, replayed with the stand-in stopped`, async () => {
      const standIn = await providerServer(script(), { deltaSize: 5 });
      const path = join(dir, `${name.replace(' ', '-')}-${via}.cassette.json`);
      const key = KEYS[name];
      let live;
      if (via === 'server') {
        const recorder = await providerServer({ upstream: standIn.url, path });
        live = await run({ url: recorder.url, key });
        assert.equal(recorder.recordedSteps, standIn.calls.length);
        await recorder.close();
      } else {
        const recorder = recordingFetch(redirected(standIn.url), { path });
        live = await run({ fetch: recorder, key });
        assert.equal(recorder.recordedSteps, standIn.calls.length);
      }
      standIn.assertComplete();
      // Every request went out with the key (the client's header, or Gemini's), and none is in the file.
      const sentKey = standIn.calls.every((c) => JSON.stringify(c.headers).includes(key));
      assert.ok(sentKey, 'the stand-in saw the key');
      await standIn.close();
      const text = readFileSync(path, 'utf8');
      assert.ok(!text.includes(key), 'no credential in the cassette');
      assert.ok(!text.includes(key.slice(0, 20)), 'no part of one either');
      const cassette = JSON.parse(text);
      assert.equal(cassette.interface, 'http');
      assert.ok(cassette.steps.some((s) => s.streamed && s.events.length > 2), 'a stream is kept event by event');
      assert.ok(cassette.steps.some((s) => s.response?.status === 429), 'the 429 is recorded');

      // Replayed in order and by request, in-process and over HTTP: the client reads the same.
      for (const match of ['order', 'request']) {
        const inProcess = scriptedFetch({ cassette: path, match });
        assert.deepEqual(await run({ fetch: inProcess, key: 'sk-other' }), live, `${match}: scriptedFetch`);
        inProcess.assertComplete();
        const server = await providerServer({ cassette, match });
        try {
          assert.deepEqual(await run({ url: server.url, key: 'sk-other' }), live, `${match}: providerServer`);
          server.assertComplete();
          assert.equal(server.calls.length, cassette.steps.length);
        } finally {
          await server.close();
        }
      }
    });
  }
}

test('a stand-in written by hand: Chat, Anthropic and Gemini streams recorded and replayed event for event', async () => {
  const standIn = await standInServer(() => ({ text: 'Streamed from the stand-in.', calls: [{ name: 'weather', args: '{"city":"Oslo"}' }], chunk: 4 }));
  const recorder = recordingFetch(redirected(standIn.url));
  const read = async (fetchFn) => {
    const openai = new OpenAI({ apiKey: KEYS['openai chat'], fetch: fetchFn, maxRetries: 0 });
    const chunks = [];
    for await (const c of await openai.chat.completions.create({ model: 'gpt-4.1', messages: [{ role: 'user', content: 'hi' }], stream: true, stream_options: { include_usage: true } })) chunks.push(c);
    const anthropic = new Anthropic({ apiKey: KEYS.anthropic, fetch: fetchFn, maxRetries: 0 });
    const message = await anthropic.messages.stream({ model: 'claude-sonnet-4-5', max_tokens: 50, messages: [{ role: 'user', content: 'hi' }] }).finalMessage();
    const gemini = await fetchFn(`https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse&key=${KEYS.gemini}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"contents":[]}' });
    return { chunks, message, gemini: [gemini.status, gemini.headers.get('content-type'), await gemini.text()] };
  };
  const live = await read(recorder);
  await standIn.close();
  const cassette = recorder.toScript();
  assert.equal(cassette.steps.length, 3);
  assert.ok(!JSON.stringify(cassette).includes(KEYS.gemini), 'the key= parameter is redacted');
  assert.match(cassette.steps[2].request.url, /\?alt=sse&key=\[REDACTED\]$/);
  assert.equal(cassette.steps[0].events.at(-1).data, '[DONE]');
  const replayed = await read(scriptedFetch({ cassette }));
  assert.deepEqual(replayed, live);
});

test('replay by request names the first differing field; a cassette that is not one is refused at once', async () => {
  const standIn = await providerServer([textStep('one'), textStep('two')]);
  const recorder = recordingFetch(redirected(standIn.url));
  const client = (f) => new OpenAI({ apiKey: 'k', fetch: f, maxRetries: 0 });
  await client(recorder).responses.create({ model: 'gpt-5', input: 'first' });
  await client(recorder).responses.create({ model: 'gpt-5', input: 'second' });
  await standIn.close();
  const cassette = recorder.toScript();

  // By request: the second request first still gets its own answer.
  const byRequest = scriptedFetch({ cassette, match: 'request' });
  assert.equal((await client(byRequest).responses.create({ model: 'gpt-5', input: 'second' })).output_text, 'two');
  const miss = await client(byRequest).responses.create({ model: 'gpt-5', input: 'third' }).catch((e) => e);
  assert.ok(miss instanceof OpenAI.InternalServerError, miss.constructor.name);
  assert.match(miss.message, /No recorded request matches HTTP request #2 .* differs at \/body\/input: recorded "first", live "third"/);
  // It names what re-records at the HTTP level (the environment variable alone does nothing here).
  assert.match(miss.message, /re-record the cassette where the real API is reachable: with recordingFetch .* `understudy serve --upstream <url> --record <file>`/);
  assert.throws(() => byRequest.assertComplete(), (e) => e instanceof CassetteMismatchError && e.pointer === '/body/input' && e.recorded === '"first"' && e.live === '"third"');
  // The miss used no exchange: "first" is still there, and assertComplete still names the miss
  // (not a step left over).
  assert.equal(byRequest.remainingSteps, 1);
  assert.equal((await client(byRequest).responses.create({ model: 'gpt-5', input: 'first' })).output_text, 'one');
  assert.equal(byRequest.remainingSteps, 0);
  const again = scriptedFetch({ cassette, match: 'request' });
  await client(again).responses.create({ model: 'gpt-5', input: 'third' }).catch(() => undefined);
  assert.equal(again.remainingSteps, 2);
  assert.throws(() => again.assertComplete(), CassetteMismatchError);

  // In order: answers as recorded, whatever is asked; a call past the cassette is the double's 500.
  const inOrder = scriptedFetch({ cassette });
  assert.equal((await client(inOrder).responses.create({ model: 'gpt-5', input: 'anything' })).output_text, 'one');

  assert.throws(() => scriptedFetch({ cassette: { ...cassette, interface: 'language-model' } }), (e) => e instanceof InvalidCassetteError && e.pointer === '/interface');
  assert.throws(() => scriptedFetch({ cassette: { ...cassette, steps: [{ ...cassette.steps[0], response: { status: 99 } }] } }), (e) => e instanceof InvalidCassetteError && e.pointer === '/steps/0/response/status');
  assert.throws(() => scriptedFetch({ cassette, match: 'first' }), /Unknown cassette match mode "first"/);
  assert.throws(() => scriptedFetch({ cassette, extra: 1 }), TypeError);
  assert.throws(() => recordingFetch('https://api.openai.com'), TypeError);
  await assert.rejects(providerServer({ upstream: 'not a url' }), TypeError);
});

test('a request that gets no response is recorded as its failure and fails again on replay', async () => {
  const down = async () => {
    throw new TypeError('fetch failed');
  };
  const recorder = recordingFetch(down);
  await assert.rejects(recorder('https://api.openai.com/v1/responses', { method: 'POST', body: '{"model":"m","input":"x"}' }), /fetch failed/);
  const cassette = recorder.toScript();
  assert.deepEqual(cassette.steps[0].error, { name: 'TypeError', message: 'fetch failed' });
  const replay = scriptedFetch({ cassette });
  await assert.rejects(replay('https://api.openai.com/v1/responses', { method: 'POST', body: '{}' }), (e) => e.name === 'TypeError' && e.message === 'fetch failed');
  // Paths the double does not answer pass through unrecorded; a model list is recorded.
  const passed = recordingFetch(async () => new Response('{"data":[]}'));
  assert.equal(await (await passed('https://api.openai.com/v1/files')).text(), '{"data":[]}');
  assert.equal(passed.recordedSteps, 0);
  assert.equal(await (await passed('https://api.openai.com/v1/models')).text(), '{"data":[]}');
  assert.equal(passed.recordedSteps, 1);
});

test('fetchCassette records a missing cassette once and replays it without calling the real fetch', async () => {
  const standIn = await providerServer([textStep('from the API')]);
  const folder = mkdtempSync(join(tmpdir(), 'understudy-fetch-cassette-'));
  const client = (f) => new OpenAI({ apiKey: KEYS['openai responses'], fetch: f, maxRetries: 0 });
  const recording = fetchCassette('weather', () => redirected(standIn.url), { dir: folder, record: true });
  const live = (await client(recording).responses.create({ model: 'gpt-5', input: 'hi' })).output_text;
  assert.equal(live, 'from the API');
  await standIn.close();
  const file = join(folder, 'weather.cassette.json');
  assert.ok(existsSync(file));
  assert.ok(!readFileSync(file, 'utf8').includes(KEYS['openai responses']));
  let called = false;
  const replaying = fetchCassette('weather', () => ((called = true), fetch), { dir: folder, record: false, match: 'request' });
  assert.equal((await client(replaying).responses.create({ model: 'gpt-5', input: 'hi' })).output_text, live);
  assert.equal(called, false, 'the real fetch is made only when it is used');
  replaying.assertComplete();
  assert.throws(() => fetchCassette('absent', { dir: folder, record: false }), (e) => e instanceof CassetteMissingError && e.path.endsWith('absent.cassette.json'));
  assert.throws(() => fetchCassette('x', 42), TypeError);
  assert.throws(() => fetchCassette('x', { dir: folder, strictTools: true }), TypeError);
});

test('a 200-turn tool loop: the cassette holds its history once (under 1 MB, streamed or not), and replays by request; a changed turn is a named mismatch', async () => {
  const { toolCall, statSync } = { ...(await import('@understudy/agents/ai-sdk/testing')), ...(await import('node:fs')) };
  const tools = [{ type: 'function', function: { name: 'lookup', parameters: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'], additionalProperties: false }, strict: true } }];
  const steps = () => [...Array.from({ length: 200 }, (_, i) => [toolCall('lookup', { id: `order-${i}` }, { toolCallId: `call_${i}` })]), textStep('All done.')];
  async function loop(fetch, stream, change) {
    const client = new OpenAI({ apiKey: 'k', fetch, maxRetries: 0 });
    const messages = [{ role: 'user', content: 'Check every order.' }];
    for (let turn = 0; ; turn++) {
      let message;
      if (stream) {
        const calls = [];
        let content = '';
        for await (const chunk of await client.chat.completions.create({ model: 'gpt-4.1', messages, tools, stream: true })) {
          const d = chunk.choices[0]?.delta;
          content += d?.content ?? '';
          for (const c of d?.tool_calls ?? []) {
            calls[c.index] ??= { id: c.id, type: 'function', function: { name: c.function?.name, arguments: '' } };
            calls[c.index].function.arguments += c.function?.arguments ?? '';
          }
        }
        message = { role: 'assistant', content: content || null, ...(calls.length ? { tool_calls: calls } : {}) };
      } else {
        message = (await client.chat.completions.create({ model: 'gpt-4.1', messages, tools })).choices[0].message;
      }
      messages.push(message);
      if (!message.tool_calls?.length) return message.content;
      for (const call of message.tool_calls) messages.push({ role: 'tool', tool_call_id: call.id, content: change && turn === 150 ? 'changed' : `shipped ${call.id}` });
    }
  }
  for (const stream of [false, true]) {
    const recorder = recordingFetch(scriptedFetch(steps()));
    assert.equal(await loop(recorder, stream), 'All done.');
    const file = join(dir, `loop-${stream}.cassette.json`);
    recorder.save(file);
    const size = statSync(file).size;
    assert.ok(size <= 1024 * 1024, `${size} bytes`);
    const saved = JSON.parse(readFileSync(file, 'utf8'));
    assert.equal(saved.steps[150].request.continues, 149);
    assert.equal(saved.steps[150].request.append.messages.length, 2);
    for (const server of [false, true]) {
      const double = server ? await providerServer({ cassette: file, match: 'request' }) : scriptedFetch({ cassette: file, match: 'request' });
      try {
        const fetch = server ? (input, init) => globalThis.fetch(String(input).replace('https://api.openai.com', double.url), init) : double;
        assert.equal(await loop(fetch, stream), 'All done.');
        double.assertComplete();
      } finally {
        if (server) await double.close();
      }
    }
    const replay = scriptedFetch({ cassette: file, match: 'request' });
    const error = await loop(replay, stream, true).catch((x) => x);
    assert.ok(error instanceof OpenAI.InternalServerError, error?.constructor?.name);
    assert.throws(() => replay.assertComplete(), (e) => e instanceof CassetteMismatchError && /\/body\/messages\/\d+\/content/.test(e.pointer ?? e.message));
  }
});
