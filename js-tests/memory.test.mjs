// Wasm-owned objects are released: by free(), by Symbol.dispose, and by the garbage collector
// when forgotten. Runs under `node --expose-gc`. Wasm memory only grows, so a flat figure over
// many cycles means nothing leaks.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { compileJsonSchema, engineMemoryBytes, prepareStrictJsonSchema } from '@understudy/agents';

assert.equal(typeof globalThis.gc, 'function', 'run under node --expose-gc');

const schema = {
  type: 'object',
  properties: { id: { type: 'string' }, note: { type: 'string', description: 'x'.repeat(2000) }, tags: { type: 'array', items: { type: 'string' } } },
  required: ['id'],
};

async function collect() {
  for (let i = 0; i < 4; i++) {
    globalThis.gc();
    await sleep(5);
  }
}

async function growth(cycle, rounds) {
  for (let i = 0; i < 2000; i++) cycle(); // warm up: the allocator settles on its working set
  await collect();
  const before = engineMemoryBytes();
  for (let r = 0; r < rounds; r++) {
    for (let i = 0; i < 2000; i++) cycle();
    await collect();
  }
  return engineMemoryBytes() - before;
}

test('validators freed explicitly do not grow memory', async () => {
  const grew = await growth(() => compileJsonSchema(schema).free(), 10);
  assert.equal(grew, 0, `grew by ${grew} bytes over 20,000 validators`);
});

test('validators disposed with Symbol.dispose do not grow memory', async () => {
  const grew = await growth(() => compileJsonSchema(schema)[Symbol.dispose](), 5);
  assert.equal(grew, 0, `grew by ${grew} bytes`);
});

test('forgotten validators and prepared schemas are collected', async () => {
  const grew = await growth(() => {
    compileJsonSchema(schema).validate({ id: 'x' });
    prepareStrictJsonSchema(schema).normalizeInput({ id: 'x', note: null });
  }, 10);
  // A forgotten handle is freed when the finalizer runs; allow one page of slack for timing.
  assert.ok(grew <= 65536, `grew by ${grew} bytes over 20,000 forgotten handles`);
});

test('forgotten test doubles (model, sandbox, transport, cassette) are collected', async () => {
  const { ScriptedModel, assistantMessage, scriptedSandboxSession, recordingModel } = await import('@understudy/agents/testing');
  const { ScriptedRealtimeTransport } = await import('@understudy/agents/realtime/testing');
  const long = 'x'.repeat(2000);
  const cassette = {
    format: 'understudy-cassette',
    version: 1,
    redaction: { keys: [], patterns: [] },
    steps: [{ streamed: false, hash: '0', request: { input: long }, response: { output: [] } }],
  };
  const grew = await growth(() => {
    new ScriptedModel([[assistantMessage(long)]]);
    ScriptedModel.fromCassette(cassette, { match: 'request' });
    scriptedSandboxSession([{ method: 'readFile', result: long }]);
    new ScriptedRealtimeTransport().failNextCall('sendEvent', long);
    recordingModel({ getResponse() {}, getStreamedResponse() {} });
  }, 10);
  // Freed by the bindings' own finalizers once their owner is gone; one page of slack for timing.
  assert.ok(grew <= 65536, `grew by ${grew} bytes over 20,000 forgotten doubles`);
});
