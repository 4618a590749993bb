// The input buffers (texts reach each wasm module through its own): a large text does not keep
// its room once smaller texts follow. Its own file, so the modules start with little memory and
// the figures show what the buffers keep. `engineMemoryBytes` sums both modules; each phase
// changes one of them.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { compileJsonSchema, engineMemoryBytes, parseStructured, toStrictJsonSchema } from '@understudy/agents';

test('a large text does not keep its room in the validator input buffer', () => {
  const v = compileJsonSchema({ type: 'object' });
  assert.equal(v.validateJson(JSON.stringify('x'.repeat(8_000_000))).valid, false); // the buffer grows to 24 MB
  assert.equal(v.validateJson('{}').valid, true); // a small text: the buffer gives the room back
  const before = engineMemoryBytes();
  // About 10 MB of validator allocations (the value's document and its text): they fit in the
  // room given back; had the buffer kept it, memory would grow by that much.
  assert.equal(v.validate({ description: 'y'.repeat(2_000_000) }).valid, true);
  const grew = engineMemoryBytes() - before;
  v.free();
  assert.ok(grew < 2 ** 20, `grew by ${grew} bytes`);
});

test('a large text does not keep its room in the engine input buffer', () => {
  const schema = { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] };
  assert.equal(parseStructured(JSON.stringify({ a: 'x'.repeat(8_000_000) }), schema).value.a.length, 8_000_000); // grows to 24 MB
  assert.deepEqual(parseStructured('{"a":"x"}', schema).value, { a: 'x' }); // gives the room back
  const before = engineMemoryBytes();
  toStrictJsonSchema({ type: 'object', properties: {}, description: 'y'.repeat(2_000_000) });
  const grew = engineMemoryBytes() - before;
  assert.ok(grew < 2 ** 20, `grew by ${grew} bytes`);
});
