// The packed tarball as linters see it: publint (the manifest and exports map) and
// arethetypeswrong (types for every entry under node16 resolution, from ESM and CommonJS).
// `./vitest` is ES modules only (vitest is), and `./wasm/*` are assets without types.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
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
    const report = JSON.parse(sh(bin('attw'), [pack.tarball, '--format', 'json', '--profile', 'node16', '--exclude-entrypoints', 'wasm/engine', 'wasm/doubles', 'wasm/validator', '--ignore-rules', 'cjs-resolves-to-esm'], root));
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

test("the facade's modules import one another without a cycle, and so do its folders (ES modules and type declarations)", () => {
  for (const dir of ['esm', 'cjs']) {
    const base = join(root, 'build', 'npm', dir);
    const files = readdirSync(base, { recursive: true }).filter((f) => f.endsWith('.js') || f.endsWith('.d.ts'));
    const edges = new Map(
      files.map((f) => {
        const text = readFileSync(join(base, f), 'utf8');
        const targets = [...text.matchAll(/(?:\bfrom\s*|\brequire\(\s*|\bimport\(\s*|^import\s*)["'](\.\.?\/[^"']+)["']/gm)]
          .map((m) => posix.normalize(posix.join(posix.dirname(f), m[1])).replace(/\.js$/, f.endsWith('.d.ts') ? '.d.ts' : '.js'))
          // The wasm glue lies outside (`../wasm/`), and Node's loader requires it by the entry's path.
          .filter((target) => !target.startsWith('..') && !target.startsWith('wasm/'));
        for (const target of targets) assert.ok(files.includes(target), `${dir}/${f} imports ${target}, which is not there`);
        return [f, targets];
      }),
    );
    assert.ok(files.length > 20, `${dir}: ${files.length} files`);
    const done = new Set();
    const visit = (file, path) => {
      assert.ok(!path.includes(file), `${dir}: import cycle ${[...path, file].join(' -> ')}`);
      if (done.has(file)) return;
      for (const next of edges.get(file) ?? []) visit(next, [...path, file]);
      done.add(file);
    };
    for (const file of files) visit(file, []);
    // The folders, as one node each (the entry files the build writes beside them are one more).
    const folder = (f) => (f.includes('/') ? f.slice(0, f.indexOf('/')) : '(entry files)');
    const folders = new Map();
    for (const [f, targets] of edges) for (const t of targets) if (folder(f) !== folder(t)) (folders.get(folder(f)) ?? folders.set(folder(f), new Set()).get(folder(f))).add(folder(t));
    const seen = new Set();
    const visitFolder = (name, path) => {
      assert.ok(!path.includes(name), `${dir}: folders import each other in a cycle: ${[...path, name].join(' -> ')}`);
      if (seen.has(name)) return;
      for (const next of folders.get(name) ?? []) visitFolder(next, [...path, name]);
      seen.add(name);
    };
    for (const name of folders.keys()) visitFolder(name, []);
    assert.deepEqual([...(folders.get('engine') ?? [])], [], `${dir}: engine/ imports only itself`);
  }
});

test("every facade source lives in a room's folder, none over 600 lines; the entry files are the build's", async () => {
  const { entryFiles } = await import('../scripts/entries.mjs');
  const src = join(root, 'pkg-template', 'src');
  const rooms = ['engine', 'schema', 'sap', 'doubles', 'entries'];
  const sources = readdirSync(src, { recursive: true }).filter((f) => f.endsWith('.ts'));
  for (const file of sources) {
    const [top] = file.split(/[\\/]/);
    assert.ok(file.includes('/') && rooms.includes(top), `pkg-template/src/${file} is outside the rooms (${rooms.join(', ')})`);
    const lines = readFileSync(join(src, file), 'utf8').split('\n').length;
    assert.ok(lines <= 600, `pkg-template/src/${file} has ${lines} lines (at most 600)`);
  }
  // What the build writes beside the folders is only re-exports of entries/ and a loader's
  // call, or a command's call of its entry's `main`.
  for (const [name, source] of entryFiles()) {
    assert.ok(!name.includes('/'), name);
    assert.ok(!sources.includes(name), `${name} is written by the build and must not be in pkg-template/src`);
    assert.match(source, /(export \* from '\.\/entries\/[\w-]+\.js';|process\.exitCode = await main\(process\.argv\.slice\(2\)\);)\n$/, name);
  }
});
