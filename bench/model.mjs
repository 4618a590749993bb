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

async function time(fn, n) {
  for (let i = 0; i < Math.min(n, 2000); i++) await fn(i); // warm up
  const t = performance.now();
  for (let i = 0; i < n; i++) await fn(i);
  return (performance.now() - t) / n;
}

async function median(fn, n, rounds = 5) {
  const xs = [];
  for (let r = 0; r < rounds; r++) xs.push(await time(fn, n));
  return xs.sort((a, b) => a - b)[Math.floor(rounds / 2)];
}

async function pair(label, make) {
  const o = await median(make(ours), 2000);
  const r = await median(make(ref), 2000);
  return { what: label, ours: 1000 / o, reference: 1000 / r, ratio: r / o };
}

export async function run() {
  const rows = [];
  rows.push(await pair('getResponse, realistic request (new model per call)', (lib) => () => new lib.ScriptedModel([[lib.assistantMessage('Sunny.')]]).getResponse(request)));
  rows.push(await pair('getResponse, small request, one model with many steps', (lib) => {
    const model = new lib.ScriptedModel(Array.from({ length: 30_000 }, () => [lib.assistantMessage('x')]));
    return () => model.getResponse({ input: 'hi', modelSettings: {}, tools: [], handoffs: [], outputType: 'text', tracing: false });
  }));
  rows.push(await pair('new ScriptedModel(1000 steps)', (lib) => {
    const steps = Array.from({ length: 1000 }, (_, i) => [lib.assistantMessage(`step ${i}`)]);
    return () => new lib.ScriptedModel(steps);
  }));
  const weather = tool({ name: 'weather', description: 'Weather', parameters: z.object({ city: z.string() }), execute: async ({ city }) => `sunny in ${city}` });
  const loop = async (lib) => {
    const steps = [];
    for (let i = 0; i < 200; i++) steps.push([lib.functionCall('weather', { city: 'Tokyo' }, { callId: `c${i}` })]);
    steps.push([lib.assistantMessage('done')]);
    const model = new lib.ScriptedModel(steps);
    await new Runner({ tracingDisabled: true }).run(new Agent({ name: 'a', model, tools: [weather] }), 'go', { maxTurns: 500 });
  };
  const o = await median(() => loop(ours), 3, 3);
  const r = await median(() => loop(ref), 3, 3);
  rows.push({ what: 'Runner tool loop, 200 turns', ours: 1000 / o, reference: 1000 / r, ratio: r / o });
  return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const row of await run()) console.log(`${row.what}: ours ${row.ours.toFixed(1)} ops/s, reference ${row.reference.toFixed(1)} ops/s, ratio ${row.ratio.toFixed(2)}x`);
}
