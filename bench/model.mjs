// ScriptedModel vs @openai/agents/testing's: getResponse on a realistic request (two input
// items, one function tool with parameters), 100k calls on one model, construction from 100k
// steps, and a 200-turn Runner tool loop, in one process. Async, so timed here, not in lib.mjs.
import { Agent, Runner, tool } from '@openai/agents';
import * as ref from '@openai/agents/testing';
import { z } from 'zod';
import * as ours from '@understudy/agents/testing';

const request = {
  systemInstructions: 'You are a weather bot.',
  input: [
    { type: 'message', role: 'user', content: 'What is the weather in Tokyo for the next two days?' },
    { type: 'function_call_result', name: 'lookup', callId: 'c0', status: 'completed', output: { type: 'text', text: 'ok' } },
  ],
  modelSettings: { temperature: 0.2 },
  tools: [{ type: 'function', name: 'weather', description: 'Weather forecast', strict: true, parameters: { type: 'object', properties: { city: { type: 'string' }, days: { type: 'integer', minimum: 1 } }, required: ['city', 'days'], additionalProperties: false } }],
  handoffs: [],
  outputType: 'text',
  tracing: false,
};

/** Mean µs per call of `fn` over `n` calls, after `n / 4` warm-up calls. */
async function micros(fn, n) {
  for (let i = 0; i < n / 4; i++) await fn(i);
  const t = performance.now();
  for (let i = 0; i < n; i++) await fn(i);
  return ((performance.now() - t) / n) * 1000;
}

/** Ours and the reference alternately, `rounds` times each (odd); the medians as ops/s. */
async function pair(what, n, make, rounds = 3) {
  const samples = { ours: [], reference: [] };
  for (let r = 0; r < rounds; r++) {
    samples.ours.push(await micros(make(ours), n));
    samples.reference.push(await micros(make(ref), n));
  }
  const mid = (xs) => xs.sort((a, b) => a - b)[(rounds - 1) / 2];
  const o = mid(samples.ours);
  const f = mid(samples.reference);
  return { what, ours: 1e6 / o, reference: 1e6 / f, ratio: f / o };
}

const small = { input: 'hi', modelSettings: {}, tools: [], handoffs: [], outputType: 'text', tracing: false };

export async function run() {
  const rows = [];
  rows.push(await pair('getResponse, realistic request (2 input items, a tool with parameters; new model per call)', 2000, (lib) => () => new lib.ScriptedModel([[lib.assistantMessage('Sunny.')]]).getResponse(request)));
  rows.push(await pair('getResponse, small request, 2,500 calls on one model', 2000, (lib) => {
    const model = new lib.ScriptedModel(Array.from({ length: 2500 }, () => [lib.assistantMessage('x')]));
    return () => model.getResponse(small);
  }));
  rows.push(await pair('new ScriptedModel(1,000 steps)', 20, (lib) => {
    const steps = Array.from({ length: 1000 }, (_, i) => [lib.assistantMessage(`step ${i}`)]);
    return () => new lib.ScriptedModel(steps);
  }));
  // The SDK's own work grows with the history, so this is one run per sample; a loop is about
  // half a second and its garbage makes single runs noisy, hence nine of them.
  const weather = tool({ name: 'weather', description: 'Weather', parameters: z.object({ city: z.string() }), execute: async ({ city }) => `sunny in ${city}` });
  rows.push(await pair('Runner tool loop, 200 turns', 1, (lib) => async () => {
    const steps = [];
    for (let i = 0; i < 200; i++) steps.push([lib.functionCall('weather', { city: 'Tokyo' }, { callId: `c${i}` })]);
    steps.push([lib.assistantMessage('done')]);
    const model = new lib.ScriptedModel(steps);
    await new Runner({ tracingDisabled: true }).run(new Agent({ name: 'a', model, tools: [weather] }), 'go', { maxTurns: 500 });
  }, 9));
  return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const row of await run()) console.log(`${row.what}: ours ${row.ours.toFixed(1)} ops/s, reference ${row.reference.toFixed(1)} ops/s, ratio ${row.ratio.toFixed(2)}x`);
}
