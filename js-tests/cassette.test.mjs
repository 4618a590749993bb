// Record and replay: a fake provider model answers deterministically (a tool call,
// a final answer, a streamed answer); runs are recorded through `recordingModel`, saved as
// cassettes and replayed through the real Runner with `ScriptedModel.fromCassette`.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync, statSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { Agent, Runner, tool } from '@openai/agents';
import { Usage } from '@openai/agents-core';
import { z } from 'zod';
import {
  CassetteMismatchError,
  CassetteMissingError,
  InvalidCassetteError,
  ScriptedModel,
  UnexpectedModelCallError,
  cassette,
  recordingModel,
} from '@understudy/agents/testing';

const scratch = mkdtempSync(join(tmpdir(), 'understudy-cassettes-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

const SECRET = 'sk-proj-ABCDEFGHIJKLMNOP1234qrstuvwx';

/** A provider stand-in: asks for the weather tool, then answers from the tool result. */
class FakeProvider {
  calls = 0;
  #answer(request) {
    this.calls += 1;
    const input = Array.isArray(request.input) ? request.input : [{ role: 'user', content: request.input }];
    const result = input.findLast((item) => item.type === 'function_call_result');
    const user = input.findLast((item) => item.role === 'user');
    const city = /in (\w+)/.exec(typeof user?.content === 'string' ? user.content : '')?.[1] ?? 'nowhere';
    if (!result) {
      return [{ type: 'function_call', name: 'get_weather', callId: `call_${city}`, id: `fc_${city}`, status: 'completed', arguments: JSON.stringify({ city }) }];
    }
    const text = result.output?.text ?? JSON.stringify(result.output);
    return [{ type: 'message', role: 'assistant', status: 'completed', id: `msg_${city}`, content: [{ type: 'output_text', text: `Forecast: ${text}` }] }];
  }
  async getResponse(request) {
    const output = this.#answer(request);
    return { output, usage: new Usage({ requests: 1, inputTokens: 10, outputTokens: 5 }), responseId: `resp_${this.calls}` };
  }
  async *getStreamedResponse(request) {
    const output = this.#answer(request);
    yield { type: 'response_started' };
    for (const item of output) {
      if (item.type === 'message') yield { type: 'output_text_delta', delta: item.content[0].text };
    }
    yield {
      type: 'response_done',
      response: { id: `resp_${this.calls}`, usage: { requests: 1, inputTokens: 10, outputTokens: 5, totalTokens: 15 }, output },
    };
  }
}

function weatherAgent(model, seen = [], modelSettings = {}) {
  const getWeather = tool({
    name: 'get_weather',
    description: 'Gets the weather for a city.',
    parameters: z.object({ city: z.string() }),
    execute: async ({ city }) => {
      seen.push(city);
      return `${city}: sunny`;
    },
  });
  return new Agent({ name: 'Weather', model, tools: [getWeather], modelSettings });
}

const runner = () => new Runner({ tracingDisabled: true });

test('record a multi-turn tool run, replay it through the Runner with the same output and tool calls', async () => {
  const provider = new FakeProvider();
  const recorder = recordingModel(provider);
  const recordedTools = [];
  const recorded = await runner().run(weatherAgent(recorder, recordedTools), 'What is the weather in Tokyo?');
  assert.equal(recorded.finalOutput, 'Forecast: Tokyo: sunny');
  assert.equal(provider.calls, 2);
  assert.equal(recorder.recordedSteps, 2);

  const script = recorder.toScript();
  assert.equal(script.format, 'understudy-cassette');
  assert.equal(script.version, 1);
  assert.equal(script.steps.length, 2);
  assert.match(script.steps[0].hash, /^[0-9a-f]{16}$/);

  const replayTools = [];
  const model = ScriptedModel.fromCassette(script);
  const replayed = await runner().run(weatherAgent(model, replayTools), 'What is the weather in Tokyo?');
  assert.equal(replayed.finalOutput, recorded.finalOutput);
  assert.deepEqual(replayTools, recordedTools);
  assert.deepEqual(
    replayed.newItems.map((item) => item.type),
    recorded.newItems.map((item) => item.type),
  );
  assert.equal(provider.calls, 2, 'the provider is not called on replay');
  model.assertComplete();
});

test('a streamed run is recorded as its events and replayed event for event', async () => {
  const provider = new FakeProvider();
  const recorder = recordingModel(provider);
  const collect = async (model) => {
    const stream = await runner().run(weatherAgent(model), 'Weather in Oslo please', { stream: true });
    const raw = [];
    for await (const event of stream) if (event.type === 'raw_model_stream_event') raw.push(event.data);
    await stream.completed;
    return { output: stream.finalOutput, raw };
  };
  const live = await collect(recorder);
  const script = recorder.toScript();
  assert.equal(script.steps.every((s) => s.streamed && Array.isArray(s.events)), true);
  const replay = await collect(ScriptedModel.fromCassette(script));
  assert.equal(replay.output, 'Forecast: Oslo: sunny');
  assert.deepEqual(replay.raw, live.raw, 'the same event sequence');
});

test('replay by request hash picks the matching step after the runs are reordered', async () => {
  const recorder = recordingModel(new FakeProvider());
  await runner().run(weatherAgent(recorder), 'Weather in Paris?');
  await runner().run(weatherAgent(recorder), 'Weather in Lima?');
  const script = recorder.toScript();
  const model = ScriptedModel.fromCassette(script, { match: 'request' });
  const lima = await runner().run(weatherAgent(model), 'Weather in Lima?');
  const paris = await runner().run(weatherAgent(model), 'Weather in Paris?');
  assert.equal(lima.finalOutput, 'Forecast: Lima: sunny');
  assert.equal(paris.finalOutput, 'Forecast: Paris: sunny');
  model.assertComplete();
  // In recorded order the same reordering fails: the first step is Paris's tool call.
  const ordered = ScriptedModel.fromCassette(script);
  const wrong = await runner().run(weatherAgent(ordered), 'Weather in Lima?');
  assert.notEqual(wrong.finalOutput, 'Forecast: Lima: sunny');
});

test('a request that matches nothing raises CassetteMismatchError with the first differing field', async () => {
  const recorder = recordingModel(new FakeProvider());
  await runner().run(weatherAgent(recorder), 'Weather in Rome?');
  const model = ScriptedModel.fromCassette(recorder.toScript(), { match: 'request' });
  await assert.rejects(runner().run(weatherAgent(model), 'Weather in Kyiv?'), (error) => {
    assert.ok(error instanceof CassetteMismatchError);
    assert.equal(error.callIndex, 0);
    assert.equal(error.closestStep, 0);
    assert.equal(error.pointer, '/input/0/content');
    assert.equal(error.recorded, '"Weather in Rome?"');
    assert.equal(error.live, '"Weather in Kyiv?"');
    assert.match(error.message, /^No recorded request matches model call #1 \(request hash [0-9a-f]{16}\)\. The closest unused recorded request \(step #1\) differs at \/input\/0\/content: recorded "Weather in Rome\?", live "Weather in Kyiv\?"\. If the change is intended, re-record the cassette: run the test with UNDERSTUDY_CASSETTES=record\.$/);
    return true;
  });
});

test('secrets in requests never reach the saved file, and replay by request still matches', async () => {
  const path = join(scratch, 'secret.cassette.json');
  const recorder = recordingModel(new FakeProvider(), { path, redact: [/ticket-\d+/], redactKeys: ['x-org-token'] });
  const settings = { providerData: { extra_headers: { Authorization: `Bearer ${SECRET}`, 'X-Org-Token': 'org-secret-value', 'x-trace': 'kept' } } };
  const result = await runner().run(weatherAgent(recorder, [], settings), `Weather in Bern? my key is ${SECRET}, ticket-4711`);
  assert.equal(result.finalOutput, 'Forecast: Bern: sunny');
  const saved = readFileSync(path, 'utf8');
  for (const secret of [SECRET, 'org-secret-value', 'ticket-4711', 'Bearer sk']) assert.ok(!saved.includes(secret), `${secret} leaked`);
  assert.ok(saved.includes('[REDACTED]'));
  assert.ok(saved.includes('kept'), 'other headers stay');
  const model = ScriptedModel.fromCassette(path, { match: 'request' });
  const replayed = await runner().run(weatherAgent(model, [], settings), `Weather in Bern? my key is ${SECRET}, ticket-4711`);
  assert.equal(replayed.finalOutput, 'Forecast: Bern: sunny');
});

test('provider errors are recorded and replayed as errors', async () => {
  const failing = {
    async getResponse() {
      const e = new Error(`429 rate limited for ${SECRET}`);
      e.name = 'RateLimitError';
      throw e;
    },
    async *getStreamedResponse() {},
  };
  const recorder = recordingModel(failing);
  await assert.rejects(runner().run(new Agent({ name: 'a', model: recorder }), 'hi'), /429/);
  const script = recorder.toScript();
  assert.deepEqual(script.steps[0].error, { name: 'RateLimitError', message: '429 rate limited for [REDACTED]' });
  await assert.rejects(runner().run(new Agent({ name: 'a', model: ScriptedModel.fromCassette(script) }), 'hi'), (e) => {
    assert.equal(e.name, 'RateLimitError');
    return true;
  });
});

/** Runs `fn` with these environment variables (`undefined`: unset), restoring them after. */
async function withEnv(vars, fn) {
  const saved = Object.fromEntries(Object.keys(vars).map((k) => [k, process.env[k]]));
  const put = (k, v) => (v === undefined ? delete process.env[k] : (process.env[k] = v));
  try {
    for (const [k, v] of Object.entries(vars)) put(k, v);
    return await fn();
  } finally {
    for (const [k, v] of Object.entries(saved)) put(k, v);
  }
}
const noModes = { UNDERSTUDY_CASSETTES: undefined, UNDERSTUDY_RECORD: undefined, CI: undefined };

test('cassette(): records with UNDERSTUDY_RECORD=1, replays offline otherwise', () => withEnv(noModes, async () => {
  const dir = join(scratch, 'suite');
  {
    process.env.UNDERSTUDY_RECORD = '1';
    const provider = new FakeProvider();
    const recording = cassette('weather-lisbon', () => provider, { dir });
    const live = await runner().run(weatherAgent(recording), 'Weather in Lisbon?');
    assert.ok(existsSync(join(dir, 'weather-lisbon.cassette.json')));
    assert.equal(provider.calls, 2);

    delete process.env.UNDERSTUDY_RECORD;
    let factoryCalls = 0;
    const replaying = cassette(
      'weather-lisbon',
      () => {
        factoryCalls += 1;
        return provider;
      },
      { dir },
    );
    assert.ok(replaying instanceof ScriptedModel);
    const offline = await runner().run(weatherAgent(replaying), 'Weather in Lisbon?');
    assert.equal(offline.finalOutput, live.finalOutput);
    assert.equal(factoryCalls, 0, 'the real model is never made on replay');
    assert.equal(provider.calls, 2);
    await assert.rejects(runner().run(weatherAgent(replaying), 'again'), UnexpectedModelCallError);

    process.env.CI = 'true';
    assert.throws(
      () => cassette('never-recorded', () => provider, { dir }),
      (e) =>
        e instanceof CassetteMissingError &&
        e instanceof InvalidCassetteError &&
        e.reason === 'missing' &&
        e.path === `${dir}/never-recorded.cassette.json` &&
        e.message === `Cassette ${dir}/never-recorded.cassette.json does not exist and CI is set, so nothing is recorded; record it by running the test with UNDERSTUDY_CASSETTES=record (or UNDERSTUDY_RECORD=1) where the real model is reachable, and commit the file.`,
    );
    assert.ok(!existsSync(join(dir, 'never-recorded.cassette.json')), 'nothing is written under CI');
  }
}));

test('cassette() modes: auto records what is missing and replays it next time; replay, off, unknown', () => withEnv(noModes, async () => {
  const dir = join(scratch, 'modes');
  const file = join(dir, 'auto.cassette.json');
  const provider = new FakeProvider();
  const first = await runner().run(weatherAgent(cassette('auto', () => provider, { dir })), 'Weather in Lisbon?');
  assert.ok(existsSync(file), 'auto recorded the missing cassette');
  assert.equal(provider.calls, 2);
  const never = () => {
    throw new Error('the real model must not be made on replay');
  };
  const second = await runner().run(weatherAgent(cassette('auto', never, { dir })), 'Weather in Lisbon?');
  assert.equal(second.finalOutput, first.finalOutput);

  process.env.UNDERSTUDY_CASSETTES = 'replay';
  assert.throws(() => cassette('absent', never, { dir }), CassetteMissingError);
  process.env.UNDERSTUDY_CASSETTES = 'off';
  const off = new FakeProvider();
  assert.equal(cassette('absent', () => off, { dir }), off, 'off: the real model itself');
  assert.ok(!existsSync(join(dir, 'absent.cassette.json')));
  process.env.UNDERSTUDY_CASSETTES = 'recrod';
  assert.throws(() => cassette('auto', never, { dir }), { name: 'UserError', message: 'UNDERSTUDY_CASSETTES is "recrod"; the modes are auto (the default), record, replay and off.' });

  // record rewrites the cassette after each call, but only when its content changes (no churn).
  process.env.UNDERSTUDY_CASSETTES = 'record';
  const answering = (text) => ({
    getResponse: async () => ({ output: [{ type: 'message', role: 'assistant', status: 'completed', id: 'm', content: [{ type: 'output_text', text }] }], usage: new Usage({ requests: 1 }) }),
    getStreamedResponse: async function* () {},
  });
  const once = (text) => runner().run(new Agent({ name: 'a', model: cassette('once', () => answering(text), { dir }) }), 'hi');
  await once('Sunny.');
  const onceFile = join(dir, 'once.cassette.json');
  const old = new Date('2020-01-01T00:00:00Z');
  utimesSync(onceFile, old, old);
  await once('Sunny.');
  assert.equal(statSync(onceFile).mtimeMs, old.getTime(), 'same content: the file is not rewritten');
  await once('Rain.');
  assert.notEqual(statSync(onceFile).mtimeMs, old.getTime(), 'new content: rewritten');
  assert.match(readFileSync(onceFile, 'utf8'), /Rain\./);
  assert.throws(() => cassette('auto', () => new FakeProvider(), { dir, record: 'yes' }), { name: 'TypeError', message: 'cassette: options.record must be a boolean, got a string.' });
}));

test('a misspelled option is refused, never ignored (recordingModel, fromCassette, cassette)', () => {
  const base = { format: 'understudy-cassette', version: 1, redaction: { keys: [], patterns: [] }, steps: [] };
  assert.throws(() => recordingModel(new FakeProvider(), { redactKey: ['token'] }), {
    name: 'TypeError',
    message: 'recordingModel: unknown option `redactKey`; the options are `redactKeys`, `redact`, `allowSecrets` and `path`.',
  });
  assert.throws(() => ScriptedModel.fromCassette(base, { matching: 'request' }), {
    name: 'TypeError',
    message: 'ScriptedModel.fromCassette: unknown option `matching`; the options are `match` and `strictTools`.',
  });
  const dir = join(scratch, 'options');
  const options = '`dir`, `record`, `redactKeys`, `redact`, `allowSecrets`, `match` and `strictTools`';
  assert.throws(() => cassette('named', () => new FakeProvider(), { dir, recrod: true }), { name: 'TypeError', message: `cassette: unknown option \`recrod\`; the options are ${options}.` });
  assert.throws(() => cassette(() => new FakeProvider(), { folder: dir }), { name: 'TypeError', message: `cassette: unknown option \`folder\`; the options are ${options}.` });
  // Every option a cassette takes is accepted, and reaches the recorder or the replay.
  const recorded = cassette('all', () => new FakeProvider(), { dir, record: true, redactKeys: ['token'], redact: 'pii', match: 'request', strictTools: true });
  assert.equal(typeof recorded.getResponse, 'function');
});

test('invalid cassettes are refused with a reason and a pointer', () => {
  const base = { format: 'understudy-cassette', version: 1, redaction: { keys: [], patterns: [] }, steps: [] };
  const cases = [
    [{ ...base, version: 2 }, 'unsupported_version', '/version'],
    [{ ...base, format: 'vcr' }, 'invalid_cassette', '/format'],
    [{ ...base, steps: [{ streamed: false, request: {}, response: { output: 'x' } }] }, 'invalid_cassette', '/steps/0/response/output'],
    [{ ...base, steps: [{ streamed: 'no', request: {}, response: { output: [] } }] }, 'invalid_cassette', '/steps/0/streamed'],
    [{ ...base, redaction: { keys: [], patterns: ['('] } }, 'invalid_pattern', '/redaction/patterns/0'],
    [{ ...base, redaction: { keys: [], patterns: [], allow: ['['] } }, 'invalid_pattern', '/redaction/allow/0'],
  ];
  for (const [doc, reason, pointer] of cases) {
    assert.throws(
      () => ScriptedModel.fromCassette(doc),
      (e) => e instanceof InvalidCassetteError && e.reason === reason && e.pointer === pointer,
      `${reason} ${pointer}`,
    );
  }
  const file = join(scratch, 'broken.cassette.json');
  writeFileSync(file, '{ not json');
  assert.throws(() => ScriptedModel.fromCassette(file), (e) => e instanceof InvalidCassetteError && e.pointer === '');
  assert.throws(() => ScriptedModel.fromCassette(base, { match: 'random' }), /Unknown cassette match mode/);
});

test('a RegExp keeps its flags in the cassette, match modes are order or request, and cassette files live in their folder', () => withEnv(noModes, async () => {
  const recorder = recordingModel(new FakeProvider(), { redact: [/TICKET-\d+/gi] });
  await runner().run(weatherAgent(recorder), 'Weather in Oslo? ticket-99');
  const script = recorder.toScript();
  assert.deepEqual(script.redaction.patterns, ['(?i)TICKET-\\d+'], 'g is dropped, i kept in front of the source');
  assert.ok(!JSON.stringify(script).includes('ticket-99'), 'the case-insensitive pattern redacted the lowercase text');
  for (const [match, shown] of [['random', '"random"'], [5, '5'], [() => 1, 'undefined']]) {
    assert.throws(() => ScriptedModel.fromCassette(script, { match }), (e) => e.name === 'UserError' && e.message === `Unknown cassette match mode ${shown}; use 'order' or 'request'.`);
  }
  for (const match of [undefined, null, 'order', 'request']) assert.ok(ScriptedModel.fromCassette(script, { match }));
  const dir = join(scratch, 'layout');
  process.env.UNDERSTUDY_CASSETTES = 'record';
  try {
    const model = cassette('layout-run', () => new FakeProvider(), { dir: `${dir}//` });
    await runner().run(weatherAgent(model), 'Weather in Oslo?');
  } finally {
    delete process.env.UNDERSTUDY_CASSETTES;
  }
  assert.ok(existsSync(join(dir, 'layout-run.cassette.json')), 'trailing separators of dir are dropped');
  assert.throws(() => cassette('x', () => new FakeProvider(), { dir: 5 }), (e) => e instanceof TypeError && /options\.dir must be a string/.test(e.message));
}));

test("redact: 'pii' keeps emails, phone numbers and card numbers out of the cassette, and replay matches on the redacted request", async () => {
  const answering = {
    getResponse: async () => ({ output: [{ type: 'message', role: 'assistant', status: 'completed', id: 'm', content: [{ type: 'output_text', text: 'Noted.' }] }], usage: new Usage({ requests: 1 }) }),
    getStreamedResponse: async function* () {},
  };
  const recorder = recordingModel(answering, { redact: 'pii' });
  const ask = (model, who) => runner().run(new Agent({ name: 'a', model }), `Contact ${who}, phone +1 415 555 0132, card 4111 1111 1111 1111.`);
  await ask(recorder, 'ada@example.com');
  const text = JSON.stringify(recorder.toScript());
  for (const secret of ['ada@example.com', '415 555 0132', '4111 1111 1111 1111']) assert.ok(!text.includes(secret), `${secret} redacted`);
  assert.match(text, /Contact \[REDACTED\], phone \[REDACTED\], card \[REDACTED\]\./);
  // Replay by request: another address redacts to the same request, so it matches.
  const replay = ScriptedModel.fromCassette(recorder.toScript(), { match: 'request' });
  const result = await ask(replay, 'grace@example.org');
  assert.equal(result.finalOutput, 'Noted.');
  assert.throws(() => recordingModel(answering, { redact: 'emails' }), { name: 'TypeError', message: "recordingModel: options.redact must be an array of patterns or 'pii', got a string." });
});
