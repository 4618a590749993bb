// The packed tarball as linters see it: publint (the manifest and exports map) and
// arethetypeswrong (types for every entry under node16 resolution, from ESM and CommonJS).
// `./vitest` is ES modules only (vitest is), and `./wasm/*` are assets without types.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
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
    // attw exits non-zero on a problem (sh throws with its report). The JSON report is read, not the
    // printed table, whose layout follows the terminal's width.
    const report = JSON.parse(sh(bin('attw'), [pack.tarball, '--format', 'json', '--profile', 'node16', '--exclude-entrypoints', 'wasm/engine', 'wasm/validator', '--ignore-rules', 'cjs-resolves-to-esm'], root));
    // The node16 profile leaves node10 out; `./vitest` is ES modules only, so CommonJS meets ESM there.
    const problems = report.analysis.problems.filter((p) => p.resolutionKind !== 'node10' && !(p.kind === 'CJSResolvesToESM' && p.entrypoint === './vitest'));
    assert.deepEqual(problems, []);
    // node16 from CJS gets CommonJS types and code for every entry but `./vitest`.
    for (const entry of ['.', './testing', './realtime/testing']) {
      const cjs = report.analysis.entrypoints[entry].resolutions['node16-cjs'];
      assert.match(cjs.resolution.fileName, /\/cjs\/[^/]+\.d\.ts$/, entry);
      assert.match(cjs.implementationResolution.fileName, /\/cjs\/[^/]+\.js$/, entry);
    }
    assert.ok(existsSync(pack.tarball));
  } finally {
    pack.dispose();
  }
});

test("the facade's modules import one another without a cycle (ES modules and type declarations)", () => {
  for (const dir of ['esm', 'cjs']) {
    const base = join(root, 'build', 'npm', dir);
    const files = readdirSync(base).filter((f) => f.endsWith('.js') || f.endsWith('.d.ts'));
    const edges = new Map(files.map((f) => {
      const text = readFileSync(join(base, f), 'utf8');
      const targets = [...text.matchAll(/(?:\bfrom\s*|\brequire\(\s*|\bimport\(\s*)["']\.\/([^"']+)["']/g)].map((m) => m[1].replace(/\.js$/, f.endsWith('.d.ts') ? '.d.ts' : '.js'));
      return [f, targets];
    }));
    assert.ok(files.length > 20, `${dir}: ${files.length} files`);
    const done = new Set();
    const visit = (file, path) => {
      assert.ok(!path.includes(file), `${dir}: import cycle ${[...path, file].join(' -> ')}`);
      if (done.has(file)) return;
      for (const next of edges.get(file) ?? []) visit(next, [...path, file]);
      done.add(file);
    };
    for (const file of files) visit(file, []);
  }
});
