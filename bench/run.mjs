// Runs every benchmark in one process and prints ratios (ours / anchor; > 1 means faster).
import { gzipSync } from 'node:zlib';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fmt } from './lib.mjs';
import * as strict from './strict.mjs';
import * as validate from './validate.mjs';

const rows = [...strict.run(), ...validate.run()];
console.log('| benchmark | ours (ops/s) | anchor (ops/s) | ratio |');
console.log('| --- | ---: | ---: | ---: |');
for (const r of rows) console.log(`| ${r.what} | ${fmt(r.ours)} | ${fmt(r.reference)} | ${r.ratio.toFixed(2)}x |`);

const require = createRequire(import.meta.url);
const pkgDir = dirname(require.resolve('@understudy/agents/package.json'));
const wasm = readFileSync(join(pkgDir, 'wasm', 'web', 'understudy_bg.wasm'));
console.log(`\nwasm: ${(wasm.length / 1024).toFixed(1)} KiB raw, ${(gzipSync(wasm, { level: 9 }).length / 1024).toFixed(1)} KiB gzip`);
