// Cassettes never carry a credential: fake credentials of every built-in format, in every place
// a run puts text, are redacted before a cassette is written; the last check refuses what is
// still there (unless allowSecrets keeps it; the check itself is tested natively, in
// src/doubles/cassette.rs, since redaction leaves it nothing to find); a realistic recording
// raises no false alarm.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { Agent, Runner, tool } from '@openai/agents';
import { Usage } from '@openai/agents-core';
import { z } from 'zod';
import { InvalidCassetteError, ScriptedModel, assistantMessage, recordingModel } from '@understudy/agents/testing';

const scratch = mkdtempSync(join(tmpdir(), 'understudy-secrets-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

// Fake credentials, built from parts so that no scanner takes this file for a leak. Each entry:
// the text as a run would carry it, and the part that must never reach the file.
const r = (c, n) => c.repeat(n);
const FAKES = {
  openai: [`sk-proj-${r('A', 28)}`, r('A', 28)],
  anthropic: [`sk-ant-api03-${r('b', 40)}`, r('b', 40)],
  githubClassic: [`ghp_${r('c', 36)}`, r('c', 36)],
  githubFineGrained: [`github_pat_11${r('D', 20)}_${r('e', 59)}`, r('e', 59)],
  githubOauth: [`gho_${r('F', 36)}`, r('F', 36)],
  gitlab: [`glpat-${r('g', 20)}`, r('g', 20)],
  awsAccessKey: [`AKIA${r('H', 16)}`, `AKIA${r('H', 16)}`],
  awsSecretKey: [`aws_secret_access_key=${r('i', 40)}`, r('i', 40)],
  google: [`AIza${r('J', 35)}`, r('J', 35)],
  slack: [`xoxb-${r('1', 12)}-${r('k', 24)}`, r('k', 24)],
  stripeLive: [`sk_live_${r('L', 24)}`, r('L', 24)],
  stripeRestricted: [`rk_test_${r('m', 24)}`, r('m', 24)],
  twilio: [`SK${r('a', 32)}`, `SK${r('a', 32)}`],
  sendgrid: [`SG.${r('N', 22)}.${r('o', 43)}`, r('o', 43)],
  npm: [`npm_${r('P', 36)}`, r('P', 36)],
  jwt: [`eyJ${r('q', 16)}.eyJ${r('R', 20)}.${r('s', 22)}`, r('R', 20)],
  pem: [`-----BEGIN PRIVATE KEY-----\nMIIE${r('T', 60)}\n-----END PRIVATE KEY-----`, r('T', 60)],
  urlPassword: ['postgres://admin:Hunter2Secret@db.internal:5432/app', 'Hunter2Secret'],
  urlToken: ['https://files.example.com/a.pdf?token=u9V8w7X6y5Z4&page=1', 'u9V8w7X6y5Z4'],
};
const all = Object.values(FAKES).map(([text]) => text).join(' | ');
const cores = Object.entries(FAKES).map(([name, [, core]]) => [name, core]);

/** A provider stand-in that puts the credentials in every place a response carries text. */
class LeakyProvider {
  calls = 0;
  #output() {
    this.calls += 1;
    if (this.calls === 1) {
      return [
        { type: 'message', role: 'assistant', status: 'completed', id: 'msg_1', content: [{ type: 'output_text', text: `Checking with ${all}` }] },
        { type: 'function_call', name: 'lookup', callId: 'call_1', id: 'fc_1', status: 'completed', arguments: JSON.stringify({ query: all }) },
      ];
    }
    return [{ type: 'message', role: 'assistant', status: 'completed', id: 'msg_2', content: [{ type: 'output_text', text: 'All done.' }] }];
  }
  async getResponse() {
    const output = this.#output();
    return { output, usage: new Usage({ requests: 1, inputTokens: 10, outputTokens: 5 }), responseId: `resp_${this.calls}`, providerData: { headers: { 'x-goog-api-key': FAKES.google[0], 'x-request-id': 'req_123' }, note: all } };
  }
  async *getStreamedResponse() {
    const output = this.#output();
    yield { type: 'response_started' };
    yield { type: 'output_text_delta', delta: `streamed ${all}` };
    yield { type: 'response_done', response: { id: `resp_${this.calls}`, usage: { requests: 1, inputTokens: 10, outputTokens: 5, totalTokens: 15 }, output, providerData: { note: all } } };
  }
}

function agent(model) {
  const lookup = tool({ name: 'lookup', description: 'Looks something up.', parameters: z.object({ query: z.string() }), execute: async () => `found ${all}` });
  return new Agent({ name: 'Leaky', instructions: `Use these: ${all}`, model, tools: [lookup], modelSettings: { providerData: { extra_headers: { 'x-goog-api-key': FAKES.google[0], 'X-Team-Token': 'team-secret-1' } } } });
}

const runner = () => new Runner({ tracingDisabled: true });

for (const stream of [false, true]) {
  test(`every credential format in every position is redacted before the cassette is written (${stream ? 'streamed' : 'not streamed'}), and the cassette replays`, async () => {
    const recorder = recordingModel(new LeakyProvider());
    const recorded = stream ? await runner().run(agent(recorder), `My keys: ${all}`, { stream: true }) : await runner().run(agent(recorder), `My keys: ${all}`);
    if (stream) await recorded.completed;
    const file = join(scratch, `leaky-${stream}.cassette.json`);
    recorder.save(file);
    const text = readFileSync(file, 'utf8');
    for (const [name, core] of cores) assert.ok(!text.includes(core), `${name} is not in the file`);
    assert.ok(!text.includes('team-secret-1'));
    assert.ok(text.includes('[REDACTED]'));
    if (!stream) assert.ok(text.includes('req_123'), 'ids are kept');
    const replayed = stream ? await runner().run(agent(ScriptedModel.fromCassette(file)), `My keys: ${all}`, { stream: true }) : await runner().run(agent(ScriptedModel.fromCassette(file)), `My keys: ${all}`);
    if (stream) await replayed.completed;
    assert.equal(replayed.finalOutput, 'All done.');
    assert.equal(replayed.finalOutput, recorded.finalOutput);
  });
}

test('an error message holding a credential is redacted too', async () => {
  const failing = { getResponse: async () => { throw new Error(`upstream refused key ${FAKES.stripeLive[0]}`); }, getStreamedResponse: async function* () {} };
  const recorder = recordingModel(failing);
  await assert.rejects(runner().run(new Agent({ name: 'a', model: recorder }), 'hi'));
  const text = JSON.stringify(recorder.toScript());
  assert.ok(!text.includes(FAKES.stripeLive[1]));
  assert.match(text, /upstream refused key \[REDACTED\]/);
});

test('allowSecrets keeps a value the test means to keep, through redaction and the save check', async () => {
  const fixture = `ghp_${r('Z', 36)}`;
  const model = { getResponse: async () => ({ output: [{ type: 'message', role: 'assistant', status: 'completed', id: 'm', content: [{ type: 'output_text', text: `fixture ${fixture} and ${FAKES.githubClassic[0]}` }] }], usage: new Usage() }), getStreamedResponse: async function* () {} };
  const recorder = recordingModel(model, { allowSecrets: [/ghp_Z+/] });
  await runner().run(new Agent({ name: 'a', model: recorder }), 'hi');
  const script = recorder.toScript();
  const text = script.steps[0].response.output[0].content[0].text;
  assert.equal(text, `fixture ${fixture} and [REDACTED]`);
  assert.deepEqual(script.redaction.allow, ['ghp_Z+']);
  assert.throws(() => recordingModel(model, { allowSecrets: 'x' }), { name: 'TypeError', message: /allowSecrets must be an array/ });
});

test('a realistic recording (ids, hashes, base64 image data) saves without a false alarm', async () => {
  const png = `data:image/png;base64,iVBORw0KGgo${'AAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg'.repeat(50)}`;
  const model = {
    getResponse: async () => ({
      output: [
        { type: 'function_call', name: 'lookup', callId: 'call_AbCdEfGhIjKlMnOpQrStUvWx', id: 'fc_68c1f0a2b3d4e5f60718293a4b5c6d7e', status: 'completed', arguments: JSON.stringify({ query: 'commit e83c5163316f89bfbde7d9ab23ca2e25604af290' }) },
      ],
      usage: new Usage({ requests: 1, inputTokens: 120, outputTokens: 30 }),
      responseId: 'resp_68c1f0a2b3d4e5f60718293a4b5c6d7e0123456789abcdef',
      providerData: { system_fingerprint: 'fp_44709d6fcb', encrypted_content: 'gAAAAABoZ3N0cmluZw', image: png, uuid: '9b2d7c1e-3f4a-4b5c-8d6e-7f8091a2b3c4' },
    }),
    getStreamedResponse: async function* () {},
  };
  const recorder = recordingModel(model);
  const request = { input: [{ role: 'user', content: [{ type: 'input_image', image: png }] }], modelSettings: { maxTokens: 200 }, tools: [], handoffs: [], outputType: 'text', tracing: false };
  await recorder.getResponse(request);
  const file = join(scratch, 'realistic.cassette.json');
  recorder.save(file);
  const text = readFileSync(file, 'utf8');
  assert.ok(!text.includes('[REDACTED]'), 'nothing was taken for a credential');
  assert.ok(text.includes(png) && text.includes('e83c5163316f89bfbde7d9ab23ca2e25604af290') && text.includes('resp_68c1f0a2'));
});

test('cookie header lines in a reply lose each cookie value and keep their attributes', async () => {
  const reply = 'The server answered:\nSet-Cookie: sessionid=8f3k2l9d0sQ7Zx; Path=/; HttpOnly\nCookie: theme=dark; sid=Zk81nQv4Lm0pRt7s\nContent-Type: text/html';
  const recorder = recordingModel(new ScriptedModel([[assistantMessage(reply)]]));
  await recorder.getResponse({ input: 'What did the server send?', modelSettings: {}, tools: [], handoffs: [], outputType: 'text', tracing: false });
  const text = recorder.toScript().steps[0].response.output[0].content[0].text;
  assert.equal(text, 'The server answered:\nSet-Cookie: sessionid=[REDACTED]; Path=/; HttpOnly\nCookie: theme=[REDACTED]; sid=[REDACTED]\nContent-Type: text/html');
});
