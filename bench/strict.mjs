// Strict normalization throughput: prepareStrictJsonSchema vs the reference's
// prepareOpenAIStrictToolSchema, over the differential corpus, in one process.
import { prepareStrictJsonSchema, toStrictJsonSchema } from '@understudy/agents';
import { corpus } from '../js-tests/corpus/schemas.mjs';
import * as reference from '../js-tests/reference.mjs';
import { compare, fmt } from './lib.mjs';

// Entries both accept (rejections are measured separately below); the 1000-deep entry is left
// out of throughput because both spend it on the depth error.
const accepted = corpus.filter(({ schema }) => {
  try {
    reference.strict.prepareOpenAIStrictToolSchema(schema);
    prepareStrictJsonSchema(schema);
    return true;
  } catch {
    return false;
  }
});
const rejected = corpus.filter((c) => !accepted.includes(c) && !c.name.includes('1000'));

function each(list, fn) {
  return () => {
    for (const { schema } of list) {
      try {
        fn(schema);
      } catch {}
    }
  };
}

export function run() {
  const rows = [];
  for (const [label, list] of [['accepted schemas', accepted], ['rejected schemas', rejected]]) {
    const r = compare({
      ours: each(list, (s) => prepareStrictJsonSchema(s)),
      reference: each(list, (s) => reference.strict.prepareOpenAIStrictToolSchema(s)),
    });
    rows.push({ what: `prepare, ${list.length} ${label} per op`, ours: r.ours, reference: r.reference, ratio: r.ours / r.reference });
  }
  const r = compare({
    ours: each(accepted, (s) => toStrictJsonSchema(s)),
    reference: each(accepted, (s) => reference.strict.toOpenAIStrictToolSchema(s)),
  });
  rows.push({ what: `toStrict, ${accepted.length} accepted schemas per op`, ours: r.ours, reference: r.reference, ratio: r.ours / r.reference });
  return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const row of run()) console.log(`${row.what}: ours ${fmt(row.ours)} ops/s, reference ${fmt(row.reference)} ops/s, ratio ${row.ratio.toFixed(2)}x`);
}
