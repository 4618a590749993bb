#!/usr/bin/env node
// Builds the npm package @understudy/agents into build/npm, in named steps:
//   toolchain   wasm32 target, wasm-bindgen-cli at the version Cargo.lock pins, npm packages
//   cargo       cargo build --release --target wasm32-unknown-unknown, once per module of
//               wasm-pack.toml (its Cargo features), into target/wasm-modules/<module>.wasm;
//               prints what each crate contributes to each module
//   bindgen     wasm-bindgen for each module and target (nodejs -> pkg/node, web -> pkg/web)
//   wasm-opt    binaryen's wasm-opt with the passes and features of wasm-pack.toml
//   tsc         the TypeScript facade, as ES modules and as CommonJS, with the entry files
//               scripts/entries.mjs writes from its table
//   bundle      Node's ES module entries bundled into esm-node/ (esbuild; shared chunks)
//   package     build/npm: package.json (exports, sideEffects from entries.mjs), README, wasm,
//               facade; linked as node_modules/@understudy/agents
//   playground  build/www/vendor: @openai/agents-core bundled as one browser ES module (esbuild)
//               for the playground's scripted run, so the page works offline with the real SDK
//   sizes       raw, gzip and brotli size of each module's .wasm against its budget
// `node scripts/build.mjs` runs them all; `node scripts/build.mjs toolchain` runs one.
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync, lstatSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { createHash } from 'node:crypto';
import { crateSizes, formatCrateSizes } from './wasm-crates.mjs';
import { NODE_BUNDLE, entryFiles, manifestFields, nodeBundleEntries, programFiles } from './entries.mjs';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const npmDir = join(root, 'build', 'npm');
const stageDir = join(root, 'build', 'stage');

export function run(cmd, args, options = {}) {
  console.log(`$ ${cmd} ${args.join(' ')}`);
  const result = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', ...options });
  if (result.status !== 0) {
    throw new Error(`${cmd} ${args.join(' ')} failed with ${result.error ?? `exit code ${result.status}`}`);
  }
}

function quiet(cmd, args) {
  try {
    return execFileSync(cmd, args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return undefined;
  }
}

/** The wasm-bindgen version Cargo.lock resolved (Cargo.toml pins it with `=`). */
function lockedWasmBindgenVersion() {
  const lock = readFileSync(join(root, 'Cargo.lock'), 'utf8');
  const match = lock.match(/\[\[package\]\]\nname = "wasm-bindgen"\nversion = "([^"]+)"/);
  if (!match) throw new Error('Cargo.lock has no wasm-bindgen entry');
  return match[1];
}

async function matrix() {
  const { parse } = await import('smol-toml');
  return parse(readFileSync(join(root, 'wasm-pack.toml'), 'utf8'));
}

export const steps = {
  toolchain() {
    const targets = quiet('rustup', ['target', 'list', '--installed']) ?? '';
    if (!targets.split('\n').includes('wasm32-unknown-unknown')) {
      run('rustup', ['target', 'add', 'wasm32-unknown-unknown']);
    }
    if (!existsSync(join(root, 'Cargo.lock'))) run('cargo', ['generate-lockfile']);
    const want = lockedWasmBindgenVersion();
    const have = quiet('wasm-bindgen', ['--version'])?.split(' ')[1];
    if (have !== want) {
      // Without --locked: with it the install fails on a yanked transitive crate version.
      run('cargo', ['install', 'wasm-bindgen-cli', '--version', want]);
    }
    const lockStamp = join(root, 'node_modules', '.package-lock.json');
    if (!existsSync(lockStamp)) {
      run('npm', [existsSync(join(root, 'package-lock.json')) ? 'ci' : 'install', '--no-audit', '--no-fund']);
    }
  },

  async cargo() {
    const m = await matrix();
    const out = join(root, 'target', 'wasm-modules');
    mkdirSync(out, { recursive: true });
    for (const module of m.module) {
      run('cargo', ['build', '--release', '--target', 'wasm32-unknown-unknown', '--lib', '--no-default-features', '--features', module.features.join(',')]);
      const file = join(out, `${module.name}.wasm`);
      cpSync(join(root, 'target', 'wasm32-unknown-unknown', 'release', `${m.crate}.wasm`), file);
      // Before wasm-opt and wasm-bindgen, while the name section still says whose code it is.
      console.log(`\n${module.name}.wasm by crate (code bytes before wasm-opt):\n${formatCrateSizes(crateSizes(readFileSync(file)))}`);
    }
  },

  async bindgen() {
    const m = await matrix();
    for (const target of m.target) {
      const out = join(root, target['out-dir']);
      rmSync(out, { recursive: true, force: true });
      for (const module of m.module) {
        const input = join(root, 'target', 'wasm-modules', `${module.name}.wasm`);
        run('wasm-bindgen', ['--target', target.name, '--out-dir', out, '--out-name', module.name, input]);
      }
    }
  },

  async 'wasm-opt'() {
    const m = await matrix();
    const wasmOpt = join(root, 'node_modules', '.bin', 'wasm-opt');
    // wasm-bindgen writes the same module for every target (the glue differs, not the .wasm):
    // optimize each distinct module once (a minute or two each) and copy the result.
    const done = new Map();
    for (const module of m.module) {
      for (const target of m.target) {
        const file = join(root, target['out-dir'], `${module.name}_bg.wasm`);
        const key = createHash('sha256').update(readFileSync(file)).digest('hex');
        if (done.has(key)) {
          cpSync(done.get(key), file);
          continue;
        }
        run(wasmOpt, [...m['wasm-opt'].passes, ...m['wasm-opt'].features, file, '-o', file]);
        done.set(key, file);
      }
    }
  },

  tsc() {
    rmSync(stageDir, { recursive: true, force: true });
    for (const dir of ['esm', 'cjs']) rmSync(join(npmDir, dir), { recursive: true, force: true });
    mkdirSync(stageDir, { recursive: true });
    cpSync(join(root, 'pkg-template', 'src'), join(stageDir, 'src'), { recursive: true });
    cpSync(join(root, 'pkg-template', 'tsconfig.base.json'), join(stageDir, 'tsconfig.base.json'));
    // The entries' files and each program's roots come from the table in entries.mjs.
    for (const [name, source] of entryFiles()) writeFileSync(join(stageDir, 'src', name), source);
    for (const format of ['esm', 'cjs']) {
      const config = JSON.parse(readFileSync(join(root, 'pkg-template', `tsconfig.${format}.json`), 'utf8'));
      writeFileSync(join(stageDir, `tsconfig.${format}.json`), JSON.stringify({ ...config, files: programFiles(format) }, null, 2));
    }
    // The facade imports the glue by its place in the finished package (../wasm/<target>).
    cpSync(join(root, 'pkg', 'node'), join(stageDir, 'wasm', 'node'), { recursive: true });
    cpSync(join(root, 'pkg', 'web'), join(stageDir, 'wasm', 'web'), { recursive: true });
    const tsc = join(root, 'node_modules', '.bin', 'tsc');
    run(tsc, ['-p', join(stageDir, 'tsconfig.esm.json')]);
    run(tsc, ['-p', join(stageDir, 'tsconfig.cjs.json')]);
    writeFileSync(join(npmDir, 'cjs', 'package.json'), '{ "type": "commonjs" }\n');
  },

  bundle() {
    // Node's ES module entries as one graph: the facade's modules in a few files (an import of
    // forty modules cost about 9 ms of a cold start), shared code in chunks so all entries keep
    // one engine and one set of classes. The glue, the peers, the AI SDK's packages and Node's modules stay outside.
    const out = join(npmDir, NODE_BUNDLE);
    rmSync(out, { recursive: true, force: true });
    run(join(root, 'node_modules', '.bin', 'esbuild'), [
      ...nodeBundleEntries().map((f) => join(npmDir, 'esm', `${f}.js`)),
      '--bundle',
      '--splitting',
      '--format=esm',
      '--platform=node',
      '--target=node20',
      `--outdir=${out}`,
      '--chunk-names=chunk-[hash]',
      '--external:../wasm/*',
      '--external:@openai/*',
      '--external:@ai-sdk/*',
      '--external:@understudy/agents',
      '--external:@modelcontextprotocol/*',
      '--external:vitest',
      '--log-level=warning',
    ]);
  },

  async package() {
    mkdirSync(npmDir, { recursive: true });
    rmSync(join(npmDir, 'wasm'), { recursive: true, force: true });
    for (const target of ['node', 'web']) {
      // Everything wasm-bindgen wrote (glue, types, .wasm, inline_js snippets) but its own
      // package.json and .gitignore.
      cpSync(join(root, 'pkg', target), join(npmDir, 'wasm', target), {
        recursive: true,
        filter: (src) => !/(^|[\\/])(package\.json|\.gitignore)$/.test(src),
      });
    }
    // One file per module for both glues: wasm-bindgen writes the same module for each target
    // (only the glue differs), so the package ships it once, in wasm/, and each glue is pointed
    // one folder up.
    for (const module of (await matrix()).module) {
      const name = `${module.name}_bg.wasm`;
      const nodeWasm = join(npmDir, 'wasm', 'node', name);
      const webWasm = join(npmDir, 'wasm', 'web', name);
      if (!readFileSync(nodeWasm).equals(readFileSync(webWasm))) throw new Error(`the node and web builds hold different ${name} files`);
      cpSync(webWasm, join(npmDir, 'wasm', name));
      rmSync(nodeWasm);
      rmSync(webWasm);
      repoint(join(npmDir, 'wasm', 'node', `${module.name}.js`), `\`\${__dirname}/${name}\``, `\`\${__dirname}/../${name}\``);
      repoint(join(npmDir, 'wasm', 'web', `${module.name}.js`), `new URL('${name}', import.meta.url)`, `new URL('../${name}', import.meta.url)`);
    }
    // jsdom (Jest's browser environment) has no TextEncoder/TextDecoder globals: the glue takes
    // them from the host where the global is missing (Node's util; `getBuiltinModule` in ESM).
    for (const module of (await matrix()).module) {
      textCodecs(join(npmDir, 'wasm', 'node', `${module.name}.js`), "require('node:util')");
      textCodecs(join(npmDir, 'wasm', 'web', `${module.name}.js`), "globalThis.process?.getBuiltinModule?.('node:util')");
    }
    // The nodejs glue is CommonJS inside a "type": "module" package.
    writeFileSync(join(npmDir, 'wasm', 'node', 'package.json'), '{ "type": "commonjs" }\n');
    const manifest = { ...JSON.parse(readFileSync(join(root, 'pkg-template', 'package.json'), 'utf8')), ...manifestFields() };
    writeFileSync(join(npmDir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    cpSync(join(root, 'pkg-template', 'README.md'), join(npmDir, 'README.md'));
    cpSync(join(root, 'LICENSE'), join(npmDir, 'LICENSE'));
    cpSync(join(root, 'CHANGELOG.md'), join(npmDir, 'CHANGELOG.md'));
    // Tests and the demo import the package by name, as a user does.
    const link = join(root, 'node_modules', '@understudy', 'agents');
    mkdirSync(dirname(link), { recursive: true });
    try {
      lstatSync(link);
    } catch {
      symlinkSync(relative(dirname(link), npmDir), link, 'dir');
    }
  },

  playground() {
    // One module for both specifiers the testing entry imports, so the page has one copy of
    // the SDK (one Usage class); the import map in www/index.html points both here.
    const vendor = join(root, 'build', 'www', 'vendor');
    mkdirSync(vendor, { recursive: true });
    const entry = join(root, 'build', 'www', 'agents-core-entry.mjs');
    writeFileSync(entry, "export * from '@openai/agents-core';\nexport { Manifest, cloneManifest } from '@openai/agents-core/sandbox';\n");
    run(join(root, 'node_modules', '.bin', 'esbuild'), [
      entry,
      '--bundle',
      '--format=esm',
      '--platform=browser',
      '--target=es2022',
      '--minify',
      '--log-level=warning',
      `--outfile=${join(vendor, 'agents-core.js')}`,
    ]);
  },

  async sizes() {
    const m = await matrix();
    const kib = (n) => `${(n / 1024).toFixed(1)} KiB`;
    const sizes = {};
    const over = [];
    for (const module of m.module) {
      const wasm = readFileSync(join(npmDir, 'wasm', `${module.name}_bg.wasm`));
      const gzip = gzipSync(wasm, { level: 9 }).length;
      const brotli = brotliCompressSync(wasm).length;
      console.log(`${module.name}.wasm: raw ${kib(wasm.length)}, gzip ${kib(gzip)}, brotli ${kib(brotli)} (budget ${module['budget-gzip-kib']} KiB gzip)`);
      // A failed build, not a note: an addition that passes a budget is seen when it is made.
      if (gzip / 1024 > module['budget-gzip-kib']) over.push(`${module.name}.wasm is over its gzip budget by ${kib(gzip - module['budget-gzip-kib'] * 1024)}`);
      sizes[module.name] = { raw: wasm.length, gzip, brotli };
    }
    if (over.length) throw new Error(`${over.join('; ')} (wasm-pack.toml [[module]] budget-gzip-kib)`);
    return sizes;
  },
};

/** Replaces the one occurrence of `from` in a generated glue file (fails if there is not one). */
function repoint(file, from, to) {
  const text = readFileSync(file, 'utf8');
  if (text.split(from).length !== 2) throw new Error(`${relative(root, file)}: expected one ${from} (wasm-bindgen's output changed?)`);
  writeFileSync(file, text.replace(from, to));
}

/** Makes a glue file use the host's TextEncoder/TextDecoder where the globals are missing. */
function textCodecs(file, util) {
  const text = readFileSync(file, 'utf8');
  const uses = text.match(/new Text(?:En|De)coder\(/g)?.length ?? 0;
  if (uses === 0) throw new Error(`${relative(root, file)}: no TextEncoder/TextDecoder (wasm-bindgen's output changed?)`);
  const codec = `const understudyTextCodec = (name) => globalThis[name] ?? ${util}[name];\n`;
  const patched = text.replace(/new (Text(?:En|De)coder)\(/g, "new (understudyTextCodec('$1'))(");
  const at = patched.startsWith('/* @ts-self-types') ? patched.indexOf('\n') + 1 : 0;
  writeFileSync(file, patched.slice(0, at) + codec + patched.slice(at));
}

export async function build(only) {
  const names = only ? [only] : Object.keys(steps);
  for (const name of names) {
    if (!steps[name]) throw new Error(`unknown step ${name}; steps: ${Object.keys(steps).join(', ')}`);
    console.log(`\n== ${name}`);
    await steps[name]();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  build(process.argv[2]).catch((error) => {
    console.error(error.message);
    process.exit(1);
  });
}
