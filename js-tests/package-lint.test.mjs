// The packed tarball as linters see it: publint (the manifest and exports map) and
// arethetypeswrong (types for every entry under node16 resolution, from ESM and CommonJS).
// `./vitest` is ES modules only (vitest is), and `./wasm/*` are assets without types.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import test from 'node:test';
import { packed, root, sh } from './pack.mjs';

const bin = (name) => join(root, 'node_modules', '.bin', name);

test('publint and arethetypeswrong are clean on the packed tarball; LICENSE and CHANGELOG ship', () => {
  const pack = packed('understudy-lint-');
  try {
    for (const file of ['LICENSE', 'CHANGELOG.md', 'README.md', 'package.json']) assert.ok(pack.files.includes(file), `${file} is in the package`);
    const lint = sh(bin('publint'), ['run', join(root, 'build', 'npm'), '--strict'], root);
    assert.match(lint, /All good!/, lint);
    // attw exits non-zero on a problem (sh throws with its report); node16 from CJS gets CJS types.
    const attw = sh(bin('attw'), [pack.tarball, '--profile', 'node16', '--exclude-entrypoints', 'wasm/engine', 'wasm/validator', '--ignore-rules', 'cjs-resolves-to-esm'], root);
    assert.doesNotMatch(attw, /Masquerading|👺/u);
    assert.match(attw, /"@understudy\/agents\/testing"\n\nnode16 \(from CJS\): 🟢 \(CJS\)/u);
    assert.ok(existsSync(pack.tarball));
  } finally {
    pack.dispose();
  }
});
