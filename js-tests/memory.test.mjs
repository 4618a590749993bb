// Wasm-owned objects are released: by free(), by Symbol.dispose, and by the garbage collector
// when forgotten. Runs under `node --expose-gc`. Two figures, both exact:
// - engineLiveHandles() counts the engine objects alive: after a round of forgotten objects the
//   test collects until it is back where it was (a finalizer runs when the host gets to it, so
//   waiting for it, not for a fixed time, keeps the test independent of the machine's load);
//   an object that is never freed keeps the count up and fails the test with the count;
// - engineMemoryBytes(): wasm memory only grows, so with everything freed between rounds, a
//   flat figure over many rounds means freed memory is reused and nothing leaks.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { compileJsonSchema, engineLiveHandles, engineMemoryBytes, prepareStrictJsonSchema } from '@understudy/agents';

assert.equal(typeof globalThis.gc, 'function', 'run under node --expose-gc');

const schema = {
  type: 'object',
  properties: { id: { type: 'string' }, note: { type: 'string', description: 'x'.repeat(2000) }, tags: { type: 'array', items: { type: 'string' } } },
  required: ['id'],
};

/** Collects until the engine holds `live` objects again (or gives up after 30 s and says so). */
async function collect(live) {
  const deadline = Date.now() + 30_000;
  do {
    globalThis.gc();
    await sleep(1);
  } while (engineLiveHandles() > live && Date.now() < deadline);
  assert.equal(engineLiveHandles(), live, `${engineLiveHandles() - live} engine objects were never freed`);
}

// The meta-schemas' own patterns (`$anchor`, `$dynamicAnchor`) compile once per process with
// the first validator and stay: counted from then on, not leaks.
compileJsonSchema(schema).free();

async function growth(cycle, rounds) {
  const live = engineLiveHandles();
  for (let i = 0; i < 2000; i++) cycle(); // warm up: the allocator settles on its working set
  await collect(live);
  const before = engineMemoryBytes();
  for (let r = 0; r < rounds; r++) {
    for (let i = 0; i < 2000; i++) cycle();
    await collect(live);
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
  // Every object is freed by then (collect() waits for the count); the allocator may still
  // take one more page while its free lists settle. A leak of 4 bytes per object would be 78 KiB.
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
  // Freed by the bindings' own finalizers once their owner is gone; one page of slack, as above.
  assert.ok(grew <= 65536, `grew by ${grew} bytes over 20,000 forgotten doubles`);
});

test('engineLiveHandles counts what is alive and what free() releases', () => {
  const live = engineLiveHandles();
  const v = compileJsonSchema(schema);
  const p = prepareStrictJsonSchema(schema);
  p.normalizeInput({ id: 'x' }); // the prepared schema's handle is made on first use
  assert.equal(engineLiveHandles(), live + 2);
  v.free();
  assert.equal(engineLiveHandles(), live + 1);
  v.free(); // twice is harmless
  assert.equal(engineLiveHandles(), live + 1);
});
