// A 200-turn tool loop through the official `openai` client (Chat Completions, with three tools
// and the whole history in every request), answered by our `providerServer`, by
// @copilotkit/aimock's LLMock serving the same turns (matched by the last tool result's id),
// and by `scriptedFetch` in-process; then the same loop recorded once (`recordingFetch`) and
// replayed from the cassette by both, by request. All in one process, alternating, median of
// `rounds` runs.
// `node bench/http.mjs [rounds]`.
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import { LLMock } from '@copilotkit/aimock';
import { providerServer, recordingFetch, scriptedFetch, textStep, toolCall } from '@understudy/agents/ai-sdk/testing';

const TURNS = 200;
const rounds = Number(process.argv[2] ?? 7);

const tools = [
  { type: 'function', function: { name: 'lookup', description: 'Look up an order by id', parameters: { type: 'object', properties: { id: { type: 'string' }, fields: { type: 'array', items: { type: 'string' } } }, required: ['id', 'fields'], additionalProperties: false }, strict: true } },
  { type: 'function', function: { name: 'refund', description: 'Refund an order', parameters: { type: 'object', properties: { id: { type: 'string' }, amount: { type: 'number' }, reason: { type: 'string', enum: ['damaged', 'late', 'other'] } }, required: ['id', 'amount', 'reason'], additionalProperties: false }, strict: true } },
  { type: 'function', function: { name: 'note', description: 'Add a note to the ticket', parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'], additionalProperties: false }, strict: true } },
];
const args = (i) => JSON.stringify({ id: `order-${i}`, fields: ['status', 'eta', 'carrier'] });
const result = (i) => JSON.stringify({ id: `order-${i}`, status: 'shipped', eta: '2026-12-09', carrier: 'DHL', history: ['packed', 'handed over', 'in transit'] });

/** Our script: a tool call per turn, then the answer. */
const ourSteps = () => [...Array.from({ length: TURNS }, (_, i) => [toolCall('lookup', args(i), { toolCallId: `call_${i}` })]), textStep('All orders are on their way.')];

/** The same turns as aimock fixtures: the first by the user's message, each next by the last tool result's id. */
function aimockFixtures(mock) {
  mock.addFixture({ match: { userMessage: 'Check every order', hasToolResult: false }, response: { toolCalls: [{ name: 'lookup', arguments: args(0), id: 'call_0' }] } });
  for (let i = 1; i < TURNS; i++) mock.addFixture({ match: { toolCallId: `call_${i - 1}` }, response: { toolCalls: [{ name: 'lookup', arguments: args(i), id: `call_${i}` }] } });
  mock.addFixture({ match: { toolCallId: `call_${TURNS - 1}` }, response: { content: 'All orders are on their way.' } });
}

/** The app: the loop as an agent runs it. */
async function loop(client, stream) {
  const messages = [
    { role: 'system', content: 'You are a support agent. Use the tools to check orders before answering.' },
    { role: 'user', content: 'Check every order of customer 42 and tell me where they are.' },
  ];
  for (;;) {
    let message;
    if (stream) {
      const s = await client.chat.completions.create({ model: 'gpt-4.1', messages, tools, stream: true });
      const calls = [];
      let content = '';
      for await (const chunk of s) {
        const d = chunk.choices[0]?.delta;
        if (d?.content) content += d.content;
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
    if (!message.tool_calls?.length) return { turns: messages.length, text: message.content };
    for (const call of message.tool_calls) messages.push({ role: 'tool', tool_call_id: call.id, content: result(Number(call.id.split('_')[1])) });
  }
}

const ours = await providerServer([]);
const mock = new LLMock({ port: 0, logLevel: 'silent' });
aimockFixtures(mock);
await mock.start();

const contenders = {
  'providerServer (ours)': async (stream) => {
    ours.enqueue(...ourSteps());
    return loop(new OpenAI({ apiKey: 'k', baseURL: `${ours.url}/v1`, maxRetries: 0 }), stream);
  },
  '@copilotkit/aimock': async (stream) => {
    mock.resetMatchCounts?.();
    return loop(new OpenAI({ apiKey: 'k', baseURL: `${mock.url}/v1`, maxRetries: 0 }), stream);
  },
  'scriptedFetch (ours, in-process)': async (stream) => loop(new OpenAI({ apiKey: 'k', fetch: scriptedFetch(ourSteps()), maxRetries: 0 }), stream),
};

// The loop recorded once per mode, for the replays.
const cassettes = {};
const saved = {};
const scratch = mkdtempSync(join(tmpdir(), 'understudy-bench-'));
for (const stream of [false, true]) {
  const recorder = recordingFetch(scriptedFetch(ourSteps()));
  await loop(new OpenAI({ apiKey: 'k', fetch: recorder, maxRetries: 0 }), stream);
  cassettes[stream] = recorder.toScript();
  // The file as the recorder saves it.
  const file = join(scratch, `${stream}.cassette.json`);
  recorder.save(file);
  saved[stream] = statSync(file).size;
}
rmSync(scratch, { recursive: true, force: true });
contenders['providerServer({ cassette }) replay'] = async (stream) => {
  const server = await providerServer({ cassette: cassettes[stream], match: 'request' });
  try {
    return await loop(new OpenAI({ apiKey: 'k', baseURL: `${server.url}/v1`, maxRetries: 0 }), stream);
  } finally {
    await server.close();
  }
};
contenders['scriptedFetch({ cassette }) replay'] = async (stream) => loop(new OpenAI({ apiKey: 'k', fetch: scriptedFetch({ cassette: cassettes[stream], match: 'request' }), maxRetries: 0 }), stream);

const rows = [];
for (const stream of [false, true]) {
  const samples = Object.fromEntries(Object.keys(contenders).map((k) => [k, []]));
  for (let r = 0; r < rounds + 1; r++) {
    for (const [name, run] of Object.entries(contenders)) {
      const start = performance.now();
      const out = await run(stream);
      const ms = performance.now() - start;
      if (out.text !== 'All orders are on their way.' || out.turns !== 2 + 2 * TURNS + 1) throw new Error(`${name}: the loop went wrong (${JSON.stringify(out)})`);
      if (r > 0) samples[name].push(ms); // the first round warms up
    }
  }
  const median = (s) => s.sort((a, b) => a - b)[Math.floor(s.length / 2)];
  const anchor = median(samples['@copilotkit/aimock']);
  for (const [name, s] of Object.entries(samples)) rows.push([stream ? 'streamed' : 'JSON', name, median(s), anchor / median(s)]);
}
await ours.close();
await mock.stop();

console.log(`${TURNS}-turn tool loop, openai Chat Completions, median of ${rounds} runs`);
console.log(`cassette files: JSON ${(saved[false] / 1024).toFixed(0)} KiB, streamed ${(saved[true] / 1024).toFixed(0)} KiB (the last request stored in ${(JSON.stringify(cassettes[false].steps.at(-1).request).length / 1024).toFixed(1)} KiB)`);
console.log('| answers | server | ms per loop | speed vs aimock (above 1 is faster) |');
console.log('| --- | --- | ---: | ---: |');
for (const [mode, name, ms, ratio] of rows) console.log(`| ${mode} | ${name} | ${ms.toFixed(0)} | ${ratio.toFixed(2)}× |`);
