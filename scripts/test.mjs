#!/usr/bin/env node
// Runs every test on a fresh machine: installs what is missing, builds the package, then runs
// the engine's Rust tests and the node:test suites in js-tests/ against the built package.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { build, root, run } from './build.mjs';

await build();

console.log('\n== chromium (browser tests)');
if (!existsSync('/usr/bin/chromium')) {
  // Debian's package; `npx playwright install` cannot download browsers on these machines.
  const asRoot = process.getuid?.() === 0 ? [] : ['sudo'];
  const apt = (...args) => (asRoot.length ? run('sudo', ['apt-get', ...args]) : run('apt-get', args));
  apt('update');
  apt('install', '-y', '--no-install-recommends', 'chromium');
}
console.log('\n== cargo test');
run('cargo', ['test', '--lib', '--quiet']);
console.log('\n== node:test (js-tests)');
const suites = readdirSync(join(root, 'js-tests'))
  .filter((f) => f.endsWith('.test.mjs'))
  .sort()
  .map((f) => join('js-tests', f));
run(process.execPath, ['--expose-gc', '--test', '--test-concurrency=1', ...suites]);
