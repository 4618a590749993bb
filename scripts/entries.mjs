// The package's public entries, declared once. The build writes from this table the entry
// file of each entry for each runtime, the `files` of the two TypeScript programs, and the
// manifest's `exports`, `sideEffects`, `main`, `module` and `types`.

/**
 * Runtimes, in the order their export conditions are tried. `loader` is the facade module
 * that loads the engine there (a testing entry imports it first; none in a browser, where the
 * page calls `init()`), `peers` the module that installs `@openai/agents-core`'s classes for
 * the doubles, `testNames` whether the entry follows `node --test`'s running test.
 */
export const runtimes = [
  { name: 'workerd', condition: 'workerd', format: 'esm', root: 'workerd', loader: 'workerd', peers: 'peers-bundled' },
  { name: 'browser', condition: 'browser', format: 'esm', root: 'browser', peers: 'peers-bundled', isDefault: true },
  { name: 'node', condition: 'node', format: 'esm', root: 'node', loader: 'node', peers: 'peers-node', testNames: true },
  { name: 'cjs', condition: 'node', format: 'cjs', root: 'node-cjs', loader: 'node-cjs', peers: 'peers-cjs', testNames: true },
];

/**
 * Entries. The root's file for a runtime is that runtime's loader (`root` above: it loads the
 * engine and exports `init` and `entry-exports`); another entry re-exports `module` after
 * what it needs. An entry with `file` is that one module everywhere.
 */
export const entries = [
  { path: '.' },
  { path: './testing', module: 'testing', peers: true },
  { path: './realtime/testing', module: 'realtime-testing' },
  { path: './ai-sdk/testing', module: 'ai-sdk-testing' },
  { path: './vitest', file: 'vitest' },
];

/** Modules that run code at import beyond the entry files: loaders, peers, the doubles' error registrations, the cassette replay. */
const effects = [
  'workerd-validator',
  'peers-node',
  'peers-bundled',
  'cassette',
  'scripted-model',
  'scripted-realtime',
  'scripted-sandbox',
  'vitest',
];

/**
 * The folder of Node's ES module entries: each entry file of the `node` runtime (and the
 * vitest setup file) bundled with the facade into one graph whose shared code is split into
 * chunks (`scripts/build.mjs`, step `bundle`), so an import loads a few files, not the
 * facade's forty modules, and every entry still shares one engine and one set of classes.
 */
export const NODE_BUNDLE = 'esm-node';

/** The Node ES module entry files the bundle starts from, in `esm/` (without extension). */
export function nodeBundleEntries() {
  const node = runtimes.find((r) => r.name === 'node');
  return entries.map((e) => fileOf(e, node));
}

/** The file of `entry` for `runtime` (without extension), in `esm/` or `cjs/`. */
function fileOf(entry, runtime) {
  if (entry.file) return entry.file;
  if (entry.path === '.') return runtime.root;
  return `${entry.module}-${runtime.name}`;
}

/** The generated source of a non-root entry's file for `runtime`. */
function source(entry, runtime) {
  const lines = [`/** \`@understudy/agents${entry.path.slice(1)}\` for ${runtime.name === 'cjs' ? 'Node (CommonJS)' : runtime.name}. Written by scripts/entries.mjs. */`];
  if (runtime.loader) lines.push(`import './${runtime.loader}.js';`);
  if (entry.peers) lines.push(`import './${runtime.peers}.js';`);
  if (entry.peers && runtime.testNames) lines.push("import { watchNodeTest } from './test-names.js';", '', 'watchNodeTest();');
  lines.push(`export * from './${entry.module}.js';`);
  return `${lines.join('\n')}\n`;
}

/** The entry files the build writes into the facade's sources: `[name, source]`. */
export function entryFiles() {
  return entries.filter((e) => e.module).flatMap((e) => runtimes.map((r) => [`${fileOf(e, r)}.ts`, source(e, r)]));
}

/** The root files of each TypeScript program (`esm` or `cjs`). */
export function programFiles(format) {
  const files = entries.flatMap((e) => (e.file ? (format === 'esm' ? [e.file] : []) : runtimes.filter((r) => r.format === format).map((r) => fileOf(e, r))));
  // Imported only dynamically (`init({ validator: true })` in Workers).
  if (format === 'esm') files.push('workerd-validator');
  return [...new Set(files)].map((f) => `src/${f}.ts`);
}

const target = (format, file) => ({ types: `./${format}/${file}.d.ts`, default: `./${format}/${file}.js` });
/** A Node ES module entry: its types from `esm/`, its code from the bundle. */
const bundled = (file) => ({ types: `./esm/${file}.d.ts`, default: `./${NODE_BUNDLE}/${file}.js` });

/** The manifest fields that name files: `exports`, `sideEffects`, `main`, `module`, `types`. */
export function manifestFields() {
  const exports = {};
  for (const entry of entries) {
    if (entry.file) {
      // Node runs the bundled copy, in the graph of the entries it loads.
      exports[entry.path] = { node: bundled(entry.file), default: target('esm', entry.file) };
      continue;
    }
    const conditions = {};
    for (const r of runtimes) {
      const file = r.name === 'node' ? bundled(fileOf(entry, r)) : target(r.format, fileOf(entry, r));
      if (r.condition === 'node') (conditions.node ??= {})[r.format === 'esm' ? 'import' : 'require'] = file;
      else conditions[r.condition] = file;
      if (r.isDefault) conditions.default = file;
    }
    // `default` is tried last.
    const { default: fallback, ...rest } = conditions;
    exports[entry.path] = { ...rest, default: fallback };
  }
  exports['./wasm/engine'] = './wasm/understudy_bg.wasm';
  exports['./wasm/validator'] = './wasm/understudy_validator_bg.wasm';
  exports['./package.json'] = './package.json';
  // An entry file runs code at import when it loads the engine or the peers.
  const esm = entries.flatMap((e) => (e.file ? [] : runtimes.filter((r) => r.format === 'esm' && (r.loader || e.peers)).map((r) => fileOf(e, r))));
  const node = runtimes.find((r) => r.name === 'node');
  const cjs = runtimes.find((r) => r.name === 'cjs');
  return {
    sideEffects: [...new Set([...esm, ...effects])].map((f) => `./esm/${f}.js`).concat('./cjs/*.js', `./${NODE_BUNDLE}/*.js`),
    exports,
    main: `./cjs/${cjs.root}.js`,
    module: `./esm/${node.root}.js`,
    types: `./esm/${node.root}.d.ts`,
  };
}
