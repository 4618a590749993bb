// Accuracy of schema-aligned parsing on the labelled replies of js-tests/corpus/replies.mjs,
// per category, for ours and the anchor libraries (which parse without a schema: a reply counts
// as right when their value deep-equals the label, or when they fail where no reading fits).
import { isDeepStrictEqual } from 'node:util';
import { disableErrorLogging, parse as bestEffort } from 'best-effort-json-parser';
import { jsonrepair } from 'jsonrepair';
import { parse as partialJson } from 'partial-json';
import { parsePartial, parseStructured } from '@understudy/agents';
import { replies } from '../js-tests/corpus/replies.mjs';

disableErrorLogging(); // it logs every token it skips

const contenders = {
  ours: (r) => (r.partial ? parsePartial(r.text, r.schema).value : parseStructured(r.text, r.schema).value),
  jsonrepair: (r) => JSON.parse(jsonrepair(r.text)),
  'partial-json': (r) => partialJson(r.text),
  'best-effort-json-parser': (r) => bestEffort(r.text),
};

function right(fn, r) {
  let value;
  try {
    value = fn(r);
  } catch {
    return Boolean(r.error);
  }
  return !r.error && isDeepStrictEqual(value, r.expected);
}

export function run() {
  const set = replies();
  const table = {};
  const misses = [];
  {
    for (const r of set) {
      const row = (table[r.category] ??= { n: 0, ...Object.fromEntries(Object.keys(contenders).map((k) => [k, 0])) });
      row.n++;
      for (const [name, fn] of Object.entries(contenders)) {
        const ok = right(fn, r);
        if (ok) row[name]++;
        else if (name === 'ours') misses.push(r);
      }
    }
  }
  return { total: set.length, table, misses };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { total, table, misses } = run();
  const names = Object.keys(contenders);
  console.log(`${total} labelled replies\n`);
  console.log(`| category | n | ${names.join(' | ')} |`);
  console.log(`| --- | ---: | ${names.map(() => '---:').join(' | ')} |`);
  for (const [category, row] of Object.entries(table)) {
    console.log(`| ${category} | ${row.n} | ${names.map((k) => `${Math.round((100 * row[k]) / row.n)}%`).join(' | ')} |`);
  }
  for (const m of misses) console.log('\nmiss:', m.category, JSON.stringify(m.text).slice(0, 160), '->', JSON.stringify(m.expected));
}
