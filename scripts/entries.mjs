// The package's public entries, declared once. The build writes from this table the entry
// file of each entry for each runtime, the `files` of the two TypeScript programs, and the
// manifest's `exports`, `sideEffects`, `main`, `module` and `types`.

/**
 * Runtimes, in the order their export conditions are tried. `root` is the root entry's file
 * there, written from `loader` (the facade module in `engine/` that loads the engine and
 * exports `init`) and `install` (a statement the file runs first: Node's loader takes the
 * file's own `require`, so the glue resolves next to the entry file); a testing entry imports
 * the root file first where the engine loads at import (`loads`; in a browser the page calls
 * `init()`). `doubles` is the module a testing entry imports to load the doubles' wasm module
 * with the engine (Node's loader loads it on a double's first call instead). `peers` is the
 * module that installs `@openai/agents-core`'s classes for the doubles, `testNames` whether the
 * entry follows `node --test`'s running test.
 */
export const runtimes = [
  { name: 'workerd', condition: 'workerd', format: 'esm', root: 'workerd', loader: 'engine/workerd', loads: true, doubles: 'engine/workerd-doubles', peers: 'engine/peers-bundled' },
  { name: 'browser', condition: 'browser', format: 'esm', root: 'browser', loader: 'engine/browser', doubles: 'engine/browser-doubles', peers: 'engine/peers-bundled', isDefault: true },
  {
    name: 'node',
    condition: 'node',
    format: 'esm',
    root: 'node',
    loader: 'engine/node',
    loads: true,
    install: ["import { createRequire } from 'node:module';", "import { installNode } from './engine/node.js';", '', 'installNode(createRequire(import.meta.url));'],
    peers: 'engine/peers-node',
    testNames: true,
  },
  {
    name: 'cjs',
    condition: 'node',
    format: 'cjs',
    root: 'node-cjs',
    loader: 'engine/node',
    loads: true,
    install: ["import { installNode } from './engine/node.js';", '', 'installNode(require);'],
    peers: 'engine/peers-cjs',
    testNames: true,
  },
];

/**
 * Entries, each the re-export of its `module` in `entries/`. The root's file for a runtime is
 * `root` above (it loads the engine and exports `init` and `entries/root`); another entry's
 * file is `<module>-<runtime>`, which imports what it needs first: the root where it loads the
 * engine, the runtime's doubles loader with `doubles`, `@openai/agents-core`'s classes with `peers`, and with `testNames` the node:test hook
 * that names cassettes after the running test. An entry with `file` is that one file
 * everywhere (ES modules only).
 */
export const entries = [
  { path: '.', module: 'root' },
  { path: './testing', module: 'testing', doubles: true, peers: true, testNames: true },
  { path: './realtime/testing', module: 'realtime-testing', doubles: true },
  { path: './ai-sdk/testing', module: 'ai-sdk-testing', doubles: true, testNames: true },
  { path: './vitest', module: 'vitest', file: 'vitest' },
];

/**
 * Commands: the package's `bin`. Each is a Node ES module file (`file`) that loads the engine
 * through the Node root, then runs `main` of its `module` in `entries/` and exits with its code;
 * bundled with the Node entries.
 */
export const commands = [{ name: 'understudy', file: 'cli', module: 'cli' }];

/** Modules that run code at import beyond the entry files: loaders, peers, the doubles' error registrations, the cassette replay. */
const effects = [
  'engine/workerd',
  'engine/workerd-validator',
  'engine/workerd-doubles',
  'engine/browser-doubles',
  'engine/peers-node',
  'engine/peers-bundled',
  'doubles/cassette',
  'doubles/model-errors',
  'doubles/language-model-cassette',
  'doubles/scripted-model',
  'doubles/scripted-realtime',
  'doubles/scripted-sandbox',
  'entries/vitest',
  'vitest',
  ...commands.map((c) => c.file),
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
  return [...entries.map((e) => fileOf(e, node)), ...commands.map((c) => c.file)];
}

/** The file of `entry` for `runtime` (without extension), in `esm/` or `cjs/`. */
function fileOf(entry, runtime) {
  if (entry.file) return entry.file;
  if (entry.path === '.') return runtime.root;
  return `${entry.module}-${runtime.name}`;
}

/** The generated source of an entry's file for `runtime`. */
function source(entry, runtime) {
  const lines = [`/** \`@understudy/agents${entry.path.slice(1)}\` for ${runtime.name === 'cjs' ? 'Node (CommonJS)' : runtime.name}. Written by scripts/entries.mjs. */`];
  if (entry.path === '.') {
    lines.push(...(runtime.install ?? []));
    lines.push(`export { init } from './${runtime.loader}.js';`, "export type { InitOptions, WasmSource } from './engine/init-options.js';");
  } else if (runtime.loads) {
    lines.push(`import './${runtime.root}.js';`);
  }
  if (entry.doubles && runtime.doubles) lines.push(`import './${runtime.doubles}.js';`);
  if (entry.peers) lines.push(`import './${runtime.peers}.js';`);
  if (entry.testNames && runtime.testNames) lines.push("import { watchNodeTest } from './doubles/test-names.js';", '', 'watchNodeTest();');
  lines.push(`export * from './entries/${entry.module}.js';`);
  return `${lines.join('\n')}\n`;
}

/** The entry files the build writes into the facade's sources, next to its folders: `[name, source]`. */
export function entryFiles() {
  const node = runtimes.find((r) => r.name === 'node');
  return [
    ...entries.flatMap((e) =>
      e.file
        ? [[`${e.file}.ts`, `/** \`@understudy/agents${e.path.slice(1)}\`. Written by scripts/entries.mjs. */\nexport * from './entries/${e.module}.js';\n`]]
        : runtimes.map((r) => [`${fileOf(e, r)}.ts`, source(e, r)]),
    ),
    ...commands.map((c) => [
      `${c.file}.ts`,
      `#!/usr/bin/env node\n/** The \`${c.name}\` command (the package's bin). Written by scripts/entries.mjs. */\nimport './${node.root}.js';\nimport { main } from './entries/${c.module}.js';\n\nprocess.exitCode = await main(process.argv.slice(2));\n`,
    ]),
  ];
}

/** The root files of each TypeScript program (`esm` or `cjs`). */
export function programFiles(format) {
  const files = entries.flatMap((e) => (e.file ? (format === 'esm' ? [e.file] : []) : runtimes.filter((r) => r.format === format).map((r) => fileOf(e, r))));
  // Imported only dynamically (`init({ validator: true })` in Workers).
  if (format === 'esm') files.push('engine/workerd-validator', ...commands.map((c) => c.file));
  return [...new Set(files)].map((f) => `src/${f}.ts`);
}

const target = (format, file) => ({ types: `./${format}/${file}.d.ts`, default: `./${format}/${file}.js` });
/** A Node ES module entry: its types from `esm/`, its code from the bundle. */
const bundled = (file) => ({ types: `./esm/${file}.d.ts`, default: `./${NODE_BUNDLE}/${file}.js` });

/** The manifest fields that name files: `exports`, `sideEffects`, `bin`, `main`, `module`, `types`. */
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
  exports['./wasm/doubles'] = './wasm/understudy_doubles_bg.wasm';
  exports['./wasm/validator'] = './wasm/understudy_validator_bg.wasm';
  exports['./package.json'] = './package.json';
  // An entry file runs code at import when it loads the engine, the doubles or the peers.
  const esm = entries.flatMap((e) => (e.file ? [] : runtimes.filter((r) => r.format === 'esm' && (r.loads || e.peers || (e.doubles && r.doubles))).map((r) => fileOf(e, r))));
  const node = runtimes.find((r) => r.name === 'node');
  const cjs = runtimes.find((r) => r.name === 'cjs');
  return {
    sideEffects: [...new Set([...esm, ...effects])].map((f) => `./esm/${f}.js`).concat('./cjs/**/*.js', `./${NODE_BUNDLE}/*.js`),
    exports,
    bin: Object.fromEntries(commands.map((c) => [c.name, `./${NODE_BUNDLE}/${c.file}.js`])),
    main: `./cjs/${cjs.root}.js`,
    module: `./esm/${node.root}.js`,
    types: `./esm/${node.root}.d.ts`,
  };
}
