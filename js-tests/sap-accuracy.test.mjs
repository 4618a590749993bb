// The labelled reply set (js-tests/corpus/replies.mjs): ours reads every reply as labelled, and
// in every category it does at least as well as jsonrepair, partial-json and
// best-effort-json-parser (strictly better wherever any of them misses).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { run } from '../bench/accuracy.mjs';

test('at least 300 labelled replies, all read as labelled, never behind an anchor', () => {
  const { total, table, misses } = run();
  assert.ok(total >= 300, `${total}`);
  assert.deepStrictEqual(misses.map((m) => [m.category, m.text]), []);
  for (const [category, row] of Object.entries(table)) {
    for (const other of ['jsonrepair', 'partial-json', 'best-effort-json-parser']) {
      assert.ok(row.ours >= row[other], `${category}: ours ${row.ours} < ${other} ${row[other]}`);
    }
  }
});
