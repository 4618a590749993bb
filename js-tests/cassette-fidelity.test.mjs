// Cassettes never lie: what a run wrote replays byte for byte, except credentials. Ordinary
// agent text (js-tests/corpus/ordinary-text.mjs, 200+ lines) goes through every position a run
// writes text (input, instructions, tool arguments, tool output, assistant text, streamed
// deltas, provider data, error messages) and the saved cassette holds it unchanged; the
// examples a new user met (a ticket id cut as a key, "the bearer of this letter", key names
// such as `secretary`) replay unchanged; credentials held in JSON text, `.env` output and
// repeated elsewhere never reach the file.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { Agent, Runner, tool } from '@openai/agents';
import { Usage } from '@openai/agents-core';
import { z } from 'zod';
import { ScriptedModel, assistantMessage, cassette, functionCall, recordingModel } from '@understudy/agents/testing';
import { ORDINARY_LINES } from './corpus/ordinary-text.mjs';

const scratch = mkdtempSync(join(tmpdir(), 'understudy-fidelity-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

const runner = () => new Runner({ tracingDisabled: true });
const JOINED = ORDINARY_LINES.join('\n');

/** Every string of a JSON value. */
function strings(value, out = []) {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const v of value) strings(v, out);
  else if (value && typeof value === 'object') for (const v of Object.values(value)) strings(v, out);
  return out;
}

/** A provider that writes the corpus everywhere a response carries text. */
class EchoProvider {
  calls = 0;
  #output() {
    this.calls += 1;
    if (this.calls === 1) {
      return [
        { type: 'message', role: 'assistant', status: 'completed', id: 'msg_1', content: ORDINARY_LINES.map((text) => ({ type: 'output_text', text })) },
        { type: 'function_call', name: 'echo', callId: 'call_1', id: 'fc_1', status: 'completed', arguments: JSON.stringify({ lines: ORDINARY_LINES, joined: JOINED }) },
      ];
    }
    return [{ type: 'message', role: 'assistant', status: 'completed', id: 'msg_2', content: [{ type: 'output_text', text: JOINED }] }];
  }
  async getResponse() {
    const output = this.#output();
    return { output, usage: new Usage({ requests: 1, inputTokens: 10, outputTokens: 5 }), responseId: `resp_${this.calls}`, providerData: { lines: ORDINARY_LINES, joined: JOINED } };
  }
  async *getStreamedResponse() {
    const output = this.#output();
    yield { type: 'response_started' };
    for (const line of ORDINARY_LINES) yield { type: 'output_text_delta', delta: line };
    yield { type: 'response_done', response: { id: `resp_${this.calls}`, usage: { requests: 1, inputTokens: 10, outputTokens: 5, totalTokens: 15 }, output, providerData: { lines: ORDINARY_LINES } } };
  }
}

function echoAgent(model, seen) {
  const echo = tool({
    name: 'echo',
    description: 'Echoes lines.',
    parameters: z.object({ lines: z.array(z.string()), joined: z.string() }),
    execute: async (args) => {
      seen.push(args);
      return args.joined;
    },
  });
  return new Agent({ name: 'Echo', instructions: JOINED, model, tools: [echo] });
}

for (const stream of [false, true]) {
  test(`ordinary text in every position replays byte for byte (${stream ? 'streamed' : 'not streamed'})`, async () => {
    const recorder = recordingModel(new EchoProvider());
    const seen = [];
    const run = (agent) => (stream ? runner().run(agent, JOINED, { stream: true }) : runner().run(agent, JOINED));
    const recorded = await run(echoAgent(recorder, seen));
    if (stream) await recorded.completed;
    const file = join(scratch, `echo-${stream}.cassette.json`);
    recorder.save(file);
    const text = readFileSync(file, 'utf8');
    assert.ok(!text.includes('[REDACTED]'), `nothing was redacted: ${text.slice(Math.max(0, text.indexOf('[REDACTED]') - 120), text.indexOf('[REDACTED]') + 40)}`);
    const saved = strings(JSON.parse(text));
    for (const line of ORDINARY_LINES) assert.ok(saved.includes(line), `kept as its own string: ${line}`);
    assert.ok(saved.includes(JOINED), 'kept whole when joined');
    // Positions: the request's input and instructions, tool arguments and output, provider data.
    const step2 = JSON.parse(text).steps[1];
    assert.equal(step2.request.systemInstructions, JOINED);
    const result = step2.request.input.find((item) => item.type === 'function_call_result');
    assert.equal(result.output.text, JOINED);
    // Replay, in order and by request: the same output, the tool gets the same arguments.
    for (const match of ['order', 'request']) {
      const again = [];
      const replayed = await run(echoAgent(ScriptedModel.fromCassette(file, { match }), again));
      if (stream) await replayed.completed;
      assert.equal(replayed.finalOutput, recorded.finalOutput);
      assert.equal(replayed.finalOutput, JOINED);
      assert.deepEqual(again, seen);
    }
  });
}

test('an error message of ordinary text is recorded unchanged', async () => {
  const failing = { getResponse: async () => { throw new Error(JOINED); }, getStreamedResponse: async function* () {} };
  const recorder = recordingModel(failing);
  await assert.rejects(runner().run(new Agent({ name: 'a', model: recorder }), 'hi'));
  assert.equal(recorder.toScript().steps[0].error.message, JOINED);
});

test('the examples a new user met replay unchanged, through cassette()', async () => {
  const texts = [
    'Moved task-list-item-42 to Done.',
    'Opened risk-assessment-matrix-v2, desk-booking-system-v3, Ask-me-anything-thread-2024-06 and kiosk-mode-enabled-terminal-7.',
    'The bearer of this letter',
    'https://example.com/search?keyword=cat',
  ];
  const providerData = { secretary: 'Ms. Smith', password_policy: 'min 12 chars', tokenType: 'Bearer' };
  const dir = join(scratch, 'examples');
  const make = () => new ScriptedModel(texts.map((text) => [assistantMessage(text, { providerData })]));
  const run = async (model) => {
    const outputs = [];
    for (const text of texts) outputs.push((await runner().run(new Agent({ name: 'a', model }), text)).finalOutput);
    return outputs;
  };
  const recorded = await run(cassette('examples', make, { dir, record: true }));
  assert.deepEqual(recorded, texts);
  const file = readFileSync(join(dir, 'examples.cassette.json'), 'utf8');
  assert.ok(!file.includes('[REDACTED]'), file);
  const replayed = await run(cassette('examples', () => assert.fail('replay does not call the model'), { dir, record: false }));
  assert.deepEqual(replayed, texts);
  const doc = JSON.parse(file);
  assert.deepEqual(doc.steps[0].response.output[0].providerData, providerData);
  assert.deepEqual(doc.redaction.keys, [], 'built-in key names are rules, not stored');
});

// Fake credentials, built from parts so that no scanner takes this file for a leak.
const r = (c, n) => c.repeat(n);
const PASSWORD = 'hunter2hunter2';
const DB_PASSWORD = 'S3cretPassw0rd';
const ENV = {
  DD_API_KEY: '0123456789abcdef'.repeat(2),
  AZURE_OPENAI_API_KEY: '3f2a9c1b8e7d6f5a'.repeat(2),
  HEROKU_API_KEY: `HRKU-AA${r('h', 58)}`,
  SESSION_SECRET: 's3ss10n-s3cr3t-v4lu3',
  PASSWORD: 'correct-horse-9',
};
const ENV_TEXT = `${Object.entries(ENV).map(([k, v]) => `${k}=${v}`).join('\n')}\nexport MY_SERVICE_TOKEN="tok_live_${r('q', 24)}"\nNODE_ENV=production\n`;
const AWS_JSON = JSON.stringify({ Credentials: { AccessKeyId: `ASIA${r('Y', 16)}`, SecretAccessKey: r('w', 40), SessionToken: r('zZ9', 40) } }, null, 2);

test('credentials in tool arguments, tool output, .env text and repeated prose never reach the file', async () => {
  const login = tool({ name: 'login', description: 'Logs in.', parameters: z.object({ user: z.string(), password: z.string() }), execute: async () => `ok; DATABASE_URL=postgres://app:${DB_PASSWORD}@db.internal:5432/app` });
  const shell = tool({ name: 'shell', description: 'Runs a command.', parameters: z.object({ command: z.string() }), execute: async ({ command }) => (command === 'cat .env' ? ENV_TEXT : AWS_JSON) });
  const real = new ScriptedModel([
    [functionCall('login', { user: 'ann', password: PASSWORD }, { callId: 'call_login' })],
    [functionCall('shell', { command: 'cat .env' }, { callId: 'call_env' })],
    [functionCall('shell', { command: 'aws sts get-session-token' }, { callId: 'call_aws' })],
    [assistantMessage(`Your DB password is ${DB_PASSWORD}, and the Datadog key is ${ENV.DD_API_KEY}.`)],
  ]);
  const recorder = recordingModel(real, { redactKeys: ['x-org'] });
  const agent = (model) => new Agent({ name: 'ops', model, tools: [login, shell] });
  const recorded = await runner().run(agent(recorder), 'log in and show me the env');
  const file = join(scratch, 'credentials.cassette.json');
  recorder.save(file);
  const text = readFileSync(file, 'utf8');
  const doc = JSON.parse(text);
  for (const secret of [PASSWORD, DB_PASSWORD, ...Object.values(ENV), `tok_live_${r('q', 24)}`, r('w', 40), r('zZ9', 40)]) {
    assert.ok(!text.includes(secret), `${secret} is not in the file`);
  }
  // Tool arguments keep their layout, with the value replaced.
  const call = doc.steps[0].response.output.find((item) => item.type === 'function_call');
  assert.equal(call.arguments, '{"user":"ann","password":"[REDACTED]"}');
  // The .env output keeps its other lines.
  assert.ok(text.includes('NODE_ENV=production'));
  assert.ok(text.includes('DD_API_KEY=[REDACTED]'));
  // Only what the caller added is stored.
  assert.deepEqual(doc.redaction.keys, ['x-org']);
  // The cassette replays the run (by request too: the live requests carry the values in plain text).
  for (const match of ['order', 'request']) {
    const replayed = await runner().run(agent(ScriptedModel.fromCassette(file, { match })), 'log in and show me the env');
    assert.equal(replayed.finalOutput, 'Your DB password is [REDACTED], and the Datadog key is [REDACTED].');
  }
  assert.equal(recorded.finalOutput, `Your DB password is ${DB_PASSWORD}, and the Datadog key is ${ENV.DD_API_KEY}.`);
});

test('a credential in a streamed delta is redacted in the events too', async () => {
  const key = `sk-proj-${r('K', 40)}`;
  const real = new ScriptedModel([[assistantMessage(`Use ${key} for staging.`)]]);
  const recorder = recordingModel(real);
  const result = await runner().run(new Agent({ name: 'a', model: recorder }), 'which key?', { stream: true });
  await result.completed;
  const text = JSON.stringify(recorder.toScript());
  assert.ok(!text.includes(r('K', 40)));
  assert.ok(text.includes('Use [REDACTED] for staging.'));
});
