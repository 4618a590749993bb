// Writes a seed corpus for the `validate` fuzz target into fuzz/corpus/validate: each corpus
// schema of js-tests with a value it accepts (one `schema\ntext` file each), and texts for the
// target's fixed schemas. Run from the repository root after building the package:
//   node fuzz/seed-validate.mjs && cd fuzz && cargo fuzz run -s none validate corpus/validate
import { mkdirSync, writeFileSync } from 'node:fs';
import { corpus } from '../js-tests/corpus/schemas.mjs';
import { sample } from '../js-tests/corpus/values.mjs';

const dir = new URL('./corpus/validate/', import.meta.url);
mkdirSync(dir, { recursive: true });
let i = 0;
for (const { schema, name } of corpus) {
  if (typeof schema !== 'object' || schema === null || name.startsWith('depth')) continue;
  let text;
  try {
    text = JSON.stringify(sample(schema));
  } catch {
    continue; // schemas whose keywords are not of the usual types (rejection entries)
  }
  writeFileSync(new URL(`seed-${String(i++).padStart(3, '0')}`, dir), `${JSON.stringify(schema)}\n${text}`);
}
// `unevaluated*` beside other keywords: the fast path models `unevaluatedProperties` without
// applicators and leaves its violations' issues to the crate.
const unevaluated = [
  [{ unevaluatedProperties: { type: 'string', minLength: 3 } }, '{"foo":"fo"}'],
  [{ propertyNames: { maxLength: 1 }, unevaluatedProperties: { type: 'number' } }, '{"a":"b"}'],
  [{ properties: { a: { type: 'string' } }, unevaluatedProperties: false }, '{"a":"x","b":1}'],
  [{ prefixItems: [{ type: 'string' }], unevaluatedItems: { type: 'string', minLength: 3 } }, '["x","fo"]'],
];
for (const [schema, text] of unevaluated) writeFileSync(new URL(`unevaluated-${i++}`, dir), `${JSON.stringify(schema)}\n${text}`);
for (const text of ['{"a":1,"b":["xy"],"c":[true],"e":0.5}', '{"v":1,"next":{"v":1,"next":null}}', '["a",1,2.5]', '[1,"a@b.c"]']) {
  writeFileSync(new URL(`fixed-${i++}`, dir), `{}\n${text}`);
}
console.log(`${i} seeds in ${dir.pathname}`);
