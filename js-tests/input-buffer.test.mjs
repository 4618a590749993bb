// The engine's input buffer (texts reach the engine through it): a large text does not keep
// its room once smaller texts follow. Its own file, so the engine starts with little memory and
// the figure shows what the buffer keeps.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { compileJsonSchema, engineMemoryBytes, toStrictJsonSchema } from '@understudy/agents';

test('a large text does not keep its room in the engine input buffer', () => {
  const v = compileJsonSchema({ type: 'string' });
  assert.equal(v.validateJson(JSON.stringify('x'.repeat(8_000_000))).valid, true); // the buffer grows to 24 MB
  assert.equal(v.validateJson('"x"').valid, true); // a small text: the buffer gives the room back
  const before = engineMemoryBytes();
  // About 10 MB of engine allocations (its input, the document and its copy, the output): they
  // fit in the room given back; had the buffer kept it, memory would grow by that much.
  toStrictJsonSchema({ type: 'object', properties: {}, description: 'y'.repeat(2_000_000) });
  const grew = engineMemoryBytes() - before;
  v.free();
  assert.ok(grew < 2 ** 20, `grew by ${grew} bytes`);
});
