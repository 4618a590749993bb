// The docs as a user reads them: every export of every entry is documented in the npm README,
// every `js` example of both READMEs runs, and every example, `js` or `ts`, type-checks as a
// `.mts` (strict, with skipLibCheck off) against the built package.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import test from 'node:test';
import { root } from './pack.mjs';

const readmes = { 'README.md': join(root, 'README.md'), 'pkg-template/README.md': join(root, 'pkg-template', 'README.md') };
const npm = join(root, 'build', 'npm', 'esm');
const scratch = join(root, 'js-tests', '.examples');

/** The fenced blocks of a markdown text: `{ lang, code, line }`. */
function blocks(text) {
  const out = [];
  const re = /^```(\w*)[^\n]*\n([\s\S]*?)^```$/gm;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) out.push({ lang: m[1], code: m[2], line: text.slice(0, m.index).split('\n').length });
  return out;
}

/** Names an entry's declaration file exports (`export { a, b }` and `export type { … }`, followed through `export *`). */
function exportedNames(file) {
  const text = readFileSync(join(npm, file), 'utf8');
  const names = new Set();
  for (const m of text.matchAll(/export (?:type )?\{([^}]*)\}/g)) {
    for (const part of m[1].split(',')) {
      const name = part.trim().split(/\s+as\s+/).pop();
      if (name) names.add(name);
    }
  }
  for (const m of text.matchAll(/export declare (?:function|class|const) (\w+)/g)) names.add(m[1]);
  for (const m of text.matchAll(/export \* from '(\.\.?\/[\w/-]+)\.js'/g)) for (const n of exportedNames(posix.join(posix.dirname(file), `${m[1]}.d.ts`))) names.add(n);
  return names;
}

test('every export of every entry is documented in the npm README', async () => {
  const readme = readFileSync(readmes['pkg-template/README.md'], 'utf8');
  const entries = { '.': 'node.d.ts', './testing': 'testing-node.d.ts', './realtime/testing': 'realtime-testing-node.d.ts', './ai-sdk/testing': 'ai-sdk-testing-node.d.ts' };
  const missing = [];
  for (const [entry, file] of Object.entries(entries)) {
    const names = exportedNames(file);
    // The runtime exports too, as a user's import sees them.
    const runtime = Object.keys(await import(entry === '.' ? '@understudy/agents' : `@understudy/agents${entry.slice(1)}`));
    for (const name of runtime) names.add(name);
    assert.ok(names.size > 10, `${entry} exports names`);
    for (const name of names) {
      if (!new RegExp('`' + name + '(?![\\w])').test(readme)) missing.push(`${entry}: ${name}`);
    }
  }
  for (const matcher of ['toHaveCalledTool', 'toHaveCalledToolTimes', 'toHaveOfferedTools', 'toBeAcceptedBy']) if (!readme.includes('`' + matcher)) missing.push(`./vitest: ${matcher}`);
  assert.deepEqual(missing, [], 'undocumented exports');
});

test('every js example of both READMEs runs, and every example type-checks under --strict', () => {
  rmSync(scratch, { recursive: true, force: true });
  mkdirSync(scratch, { recursive: true });
  const typed = [];
  let ran = 0;
  try {
    for (const [name, path] of Object.entries(readmes)) {
      for (const [i, { lang, code, line }] of blocks(readFileSync(path, 'utf8')).entries()) {
        const file = join(scratch, `${name.replace(/\W/g, '_')}-${i}`);
        if (lang === 'js') {
          writeFileSync(`${file}.mjs`, code);
          try {
            execFileSync(process.execPath, [`${file}.mjs`], { cwd: scratch, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 60_000 });
          } catch (error) {
            assert.fail(`${name}:${line}: the example failed:\n${error.stderr || error.message}`);
          }
          ran += 1;
          // A js example is also what a TypeScript user writes: it type-checks as a .mts.
          writeFileSync(`${file}.mts`, `${code}\nexport {};\n`);
          typed.push({ file: `${file}.mts`, where: `${name}:${line}` });
        } else if (lang === 'ts') {
          writeFileSync(`${file}.mts`, `${code}\nexport {};\n`);
          typed.push({ file: `${file}.mts`, where: `${name}:${line}` });
        } else {
          assert.ok(['sh', ''].includes(lang), `${name}:${line}: a block is js, ts or sh (got ${lang})`);
        }
      }
    }
    assert.ok(ran >= 6, `${ran} examples ran`);
    assert.ok(typed.length >= 2, `${typed.length} examples to type-check`);
    writeFileSync(
      join(scratch, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { strict: true, skipLibCheck: false, noEmit: true, module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', lib: ['es2022', 'dom'], types: ['node'] }, files: typed.map((t) => t.file) }),
    );
    try {
      execFileSync(join(root, 'node_modules', '.bin', 'tsc'), ['-p', join(scratch, 'tsconfig.json')], { cwd: scratch, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    } catch (error) {
      assert.fail(`a ts example does not type-check (${typed.map((t) => `${t.file} = ${t.where}`).join(', ')}):\n${error.stdout}${error.stderr}`);
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
});
