// What redaction costs a recording, next to what writing the cassette file costs, in one
// process. Input: a 20-turn tool-using run (instructions, four tools, a growing history whose
// tool outputs and replies are ordinary agent text from js-tests/corpus with a few credentials:
// a password in tool arguments, a .env dump, a connection string, a bearer header), recorded
// through recordingModel. Reported per KB of transcript (requests and responses as JSON):
// recording (normalize, redact every string, remember what was taken), saving (take those
// values out of every step, the save-time check, the pretty JSON text, the file), and the
// anchor: JSON.stringify of the same cassette plus writeFileSync.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Usage } from '@openai/agents-core';
import { recordingModel } from '@understudy/agents/testing';
import { ORDINARY_LINES } from '../js-tests/corpus/ordinary-text.mjs';

const dir = mkdtempSync(join(tmpdir(), 'understudy-bench-cassette-'));
const TURNS = 20;
const object = (properties) => ({ type: 'object', properties, required: Object.keys(properties), additionalProperties: false });
const tools = [
  { type: 'function', name: 'search_issues', description: 'Searches issues.', parameters: object({ query: { type: 'string' }, limit: { type: 'integer' } }), strict: true },
  { type: 'function', name: 'shell', description: 'Runs a shell command.', parameters: object({ command: { type: 'string' } }), strict: true },
  { type: 'function', name: 'login', description: 'Logs in.', parameters: object({ user: { type: 'string' }, password: { type: 'string' } }), strict: true },
  { type: 'function', name: 'get_weather', description: 'Weather for a city.', parameters: object({ city: { type: 'string' } }), strict: true },
];
const lines = (i, n) => Array.from({ length: n }, (_, k) => ORDINARY_LINES[(i * 7 + k) % ORDINARY_LINES.length]).join('\n');
const env = `NODE_ENV=production\nDD_API_KEY=${'0123456789abcdef'.repeat(2)}\nDATABASE_URL=postgres://app:S3cretPassw0rd@db:5432/app\n`;

function turn(i) {
  const args = i % 5 === 2 ? { user: 'ann', password: 'hunter2hunter2' } : { query: lines(i, 1), limit: 20 };
  const output = i % 5 === 3 ? env + lines(i, 12) : lines(i, 16);
  return {
    call: { type: 'function_call', name: i % 5 === 2 ? 'login' : 'search_issues', callId: `call_${i}`, id: `fc_${i}`, status: 'completed', arguments: JSON.stringify(args) },
    result: { type: 'function_call_result', name: 'search_issues', callId: `call_${i}`, status: 'completed', output: { type: 'text', text: output } },
    reply: { type: 'message', role: 'assistant', status: 'completed', id: `msg_${i}`, content: [{ type: 'output_text', text: lines(i + 3, 4) }] },
  };
}
const turns = Array.from({ length: TURNS }, (_, i) => turn(i));
const history = [{ role: 'user', content: 'Triage the open login issues and check the deployment env.' }];
const calls = [];
for (const t of turns) {
  const request = { systemInstructions: lines(0, 10), input: [...history], modelSettings: { temperature: 0.2, providerData: { extra_headers: { Authorization: `Bearer ${'tok'.repeat(10)}` } } }, tools, outputType: 'text', handoffs: [], tracing: false };
  const response = { output: [t.reply, t.call], usage: new Usage({ requests: 1, inputTokens: 900, outputTokens: 120 }), responseId: `resp_${calls.length}` };
  calls.push({ request, response });
  history.push(t.reply, t.call, t.result);
}
const kb = calls.reduce((n, c) => n + JSON.stringify(c.request).length + JSON.stringify(c.response).length, 0) / 1024;

class Replaying {
  i = 0;
  async getResponse() {
    return calls[this.i++ % calls.length].response;
  }
  async *getStreamedResponse() {}
}

async function record() {
  const recorder = recordingModel(new Replaying());
  for (const c of calls) await recorder.getResponse(c.request);
  return recorder;
}

async function time(fn, rounds) {
  const samples = [];
  for (let r = 0; r < rounds; r++) {
    const start = performance.now();
    await fn();
    samples.push(performance.now() - start);
  }
  return samples.sort((a, b) => a - b)[Math.floor(samples.length / 2)];
}

const recorder = await record();
const doc = recorder.toScript();
const file = join(dir, 'run.cassette.json');
const rounds = 15;
const results = { record: [], save: [], write: [] };
for (let r = 0; r < 5; r++) {
  results.record.push(await time(record, rounds));
  results.save.push(await time(() => recorder.save(file), rounds));
  results.write.push(await time(() => writeFileSync(file, JSON.stringify(doc, null, 2)), rounds));
}
const median = (s) => s.sort((a, b) => a - b)[Math.floor(s.length / 2)];
const perKb = (ms) => ((ms * 1000) / kb).toFixed(1);
const [rec, save, write] = [median(results.record), median(results.save), median(results.write)];
console.log(`transcript: ${TURNS} calls, ${kb.toFixed(0)} KB of requests and responses; cassette file ${(JSON.stringify(doc, null, 2).length / 1024).toFixed(0)} KB`);
console.log(`record (normalize + redact every call):      ${rec.toFixed(2)} ms, ${perKb(rec)} µs/KB`);
console.log(`save (propagate, check, pretty JSON, file):  ${save.toFixed(2)} ms, ${perKb(save)} µs/KB`);
console.log(`anchor: JSON.stringify + writeFileSync:      ${write.toFixed(2)} ms, ${perKb(write)} µs/KB`);
console.log(`record / write ${(rec / write).toFixed(2)}×, save / write ${(save / write).toFixed(2)}×`);
rmSync(dir, { recursive: true, force: true });
