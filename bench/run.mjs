// Runs every benchmark in one process and prints ratios (ours / anchor; > 1 means faster).
import { gzipSync } from 'node:zlib';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fmt } from './lib.mjs';
import * as strict from './strict.mjs';
import * as validate from './validate.mjs';
import * as standard from './standard.mjs';
import * as sap from './sap.mjs';
import * as replies from './replies.mjs';
import * as accuracy from './accuracy.mjs';
import * as middleware from './middleware.mjs';

const rows = [...strict.run(), ...validate.run(), ...standard.run()];
console.log('| benchmark | ours (ops/s) | anchor (ops/s) | ratio |');
console.log('| --- | ---: | ---: | ---: |');
for (const r of rows) console.log(`| ${r.what} | ${fmt(r.ours)} | ${fmt(r.reference)} | ${r.ratio.toFixed(2)}x |`);

console.log('\n| schema-aligned parsing (MB/s) | ours | jsonrepair + JSON.parse | best-effort-json-parser | partial-json | JSON.parse |');
console.log('| --- | ---: | ---: | ---: | ---: | ---: |');
const cell = (v) => (typeof v === 'number' ? v.toFixed(1) : v ?? '—');
for (const { name, results: r } of sap.run()) {
  console.log(`| ${name} | ${cell(r.ours)} | ${cell(r.jsonrepair)} | ${cell(r['best-effort-json-parser'])} | ${cell(r['partial-json'])} | ${cell(r['JSON.parse'])} |`);
}

{
  const r = replies.run();
  console.log(`\n${r.replies} short replies (${r.meanBytes.toFixed(0)} bytes on average, half broken), compileStructuredParser vs jsonrepair + JSON.parse: ${r.ours.toFixed(1)} against ${r.jsonrepair.toFixed(1)} MB/s (${(r.ours / r.jsonrepair).toFixed(2)}x); threw: ours ${r.oursThrew}, jsonrepair ${r.jsonrepairThrew}`);
}

const { total, table } = accuracy.run();
const names = ['ours', 'jsonrepair', 'partial-json', 'best-effort-json-parser'];
console.log(`\n| accuracy, ${total} labelled replies | n | ${names.join(' | ')} |`);
console.log(`| --- | ---: | ${names.map(() => '---:').join(' | ')} |`);
for (const [category, row] of Object.entries(table)) {
  console.log(`| ${category} | ${row.n} | ${names.map((k) => `${Math.round((100 * row[k]) / row.n)}%`).join(' | ')} |`);
}

console.log("\n| repairingMiddleware, per call | added by the middleware (µs) | the SDK's own parse of the clean text (µs) |");
console.log('| --- | ---: | ---: |');
for (const r of await middleware.run()) console.log(`| ${r.name} | ${r.added.toFixed(2)} | ${r.sdk.toFixed(2)} |`);

const require = createRequire(import.meta.url);
const pkgDir = dirname(require.resolve('@understudy/agents/package.json'));
for (const file of ['understudy_bg.wasm', 'understudy_validator_bg.wasm']) {
  const wasm = readFileSync(join(pkgDir, 'wasm', file));
  console.log(`${file}: ${(wasm.length / 1024).toFixed(1)} KiB raw, ${(gzipSync(wasm, { level: 9 }).length / 1024).toFixed(1)} KiB gzip`);
}
