// scriptedLanguageModel vs the AI SDK's MockLanguageModelV3 in one process: a 200-step tool loop
// through the real generateText and streamText (a tool with an input schema, stopWhen), the mock
// written as a user writes it (one doGenerate / doStream closure branching on the call count).
import { generateText, streamText, stepCountIs, tool } from 'ai';
import { MockLanguageModelV3, simulateReadableStream } from 'ai/test';
import { z } from 'zod';
import { scriptedLanguageModel, assistantMessage, functionCall } from '@understudy/agents/ai-sdk/testing';

const STEPS = 200;
const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } };
const weather = tool({ description: 'Weather', inputSchema: z.object({ city: z.string() }), execute: async ({ city }) => `sunny in ${city}` });

function mock() {
  let n = 0;
  const answer = () => {
    const i = n++;
    return i < STEPS
      ? { content: [{ type: 'tool-call', toolCallId: `c${i}`, toolName: 'weather', input: '{"city":"Tokyo"}' }], finishReason: { unified: 'tool-calls', raw: 'tool_calls' }, usage }
      : { content: [{ type: 'text', text: 'done' }], finishReason: { unified: 'stop', raw: 'stop' }, usage };
  };
  return new MockLanguageModelV3({
    doGenerate: async () => ({ ...answer(), warnings: [] }),
    doStream: async () => {
      const { content, finishReason } = answer();
      const chunks = [{ type: 'stream-start', warnings: [] }];
      for (const part of content) {
        if (part.type === 'text') chunks.push({ type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta: part.text }, { type: 'text-end', id: 't' });
        else chunks.push({ type: 'tool-input-start', id: part.toolCallId, toolName: part.toolName }, { type: 'tool-input-delta', id: part.toolCallId, delta: part.input }, { type: 'tool-input-end', id: part.toolCallId }, part);
      }
      chunks.push({ type: 'finish', finishReason, usage });
      return { stream: simulateReadableStream({ chunks, initialDelayInMs: null, chunkDelayInMs: null }) };
    },
  });
}

function scripted() {
  const steps = [];
  for (let i = 0; i < STEPS; i++) steps.push({ output: [functionCall('weather', { city: 'Tokyo' }, { callId: `c${i}` })], usage: { inputTokens: 1, outputTokens: 1 } });
  steps.push({ output: [assistantMessage('done')], usage: { inputTokens: 1, outputTokens: 1 } });
  return scriptedLanguageModel(steps);
}

const runs = {
  generateText: (model) => generateText({ model, tools: { weather }, stopWhen: stepCountIs(STEPS + 1), prompt: 'go' }),
  streamText: async (model) => {
    const result = streamText({ model, tools: { weather }, stopWhen: stepCountIs(STEPS + 1), prompt: 'go' });
    await result.consumeStream();
    return { text: await result.text };
  },
};

/** ms of one loop, the median of `n` alternating with the anchor. */
async function pair(name, n) {
  const samples = { ours: [], mock: [] };
  for (let r = 0; r < n; r++) {
    for (const [who, make] of r % 2 === 0 ? [['ours', scripted], ['mock', mock]] : [['mock', mock], ['ours', scripted]]) {
      // Each sample starts from a collected heap (run with --expose-gc): the garbage of the
      // one before is not charged to it.
      globalThis.gc?.();
      const t = performance.now();
      const result = await runs[name](make());
      samples[who].push(performance.now() - t);
      if (result.text !== 'done') throw new Error(`${who} ${name}: ${result.text}`);
    }
  }
  const mid = (xs) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  return { what: `${name}, a ${STEPS}-step tool loop`, ours: mid(samples.ours), mock: mid(samples.mock) };
}

export async function run() {
  await pair('generateText', 2); // warm-up
  return [await pair('generateText', 15), await pair('streamText', 15)];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const r of await run()) console.log(`${r.what}: scriptedLanguageModel ${r.ours.toFixed(1)} ms, MockLanguageModelV3 ${r.mock.toFixed(1)} ms, ratio ${(r.mock / r.ours).toFixed(2)}x`);
}
