// Cold starts: each script in a fresh `node`, ours and the anchor alternately, medians of wall
// time (ms). `node bench/cold/run.mjs [runs]`.
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const runs = Number(process.argv[2] ?? 11);
const wall = (script, args = []) => {
  const t = performance.now();
  const r = spawnSync(process.execPath, [...args, join(here, script)], { stdio: args.length > 0 ? 'ignore' : 'inherit' });
  if (r.status !== 0) throw new Error(`${script} exited with ${r.status}`);
  return performance.now() - t;
};

/**
 * The seed's agent-workflow recipes as a test file (js-tests/scripted-model.test.mjs, sixteen
 * tests through the real Runner) under `node --test`, once as written and once importing
 * `@openai/agents/testing` instead: the reference passes the same file.
 */
function recipes() {
  const source = readFileSync(join(here, '..', '..', 'js-tests', 'scripted-model.test.mjs'), 'utf8');
  const files = { ours: 'recipes-ours.test.mjs', reference: 'recipes-reference.test.mjs' };
  writeFileSync(join(here, files.ours), source);
  writeFileSync(join(here, files.reference), source.replace("from '@understudy/agents/testing';", "from '@openai/agents/testing';"));
  try {
    const ours = [];
    const reference = [];
    wall(files.ours, ['--test']);
    wall(files.reference, ['--test']);
    for (let i = 0; i < runs; i++) {
      ours.push(wall(files.ours, ['--test']));
      reference.push(wall(files.reference, ['--test']));
    }
    return { what: 'the seed recipes test file (16 tests, real Runner) under node --test, vs the same file on @openai/agents/testing', ours: median(ours), reference: median(reference) };
  } finally {
    for (const f of Object.values(files)) rmSync(join(here, f), { force: true });
  }
}
const median = (xs) => xs.sort((a, b) => a - b)[xs.length >> 1];

export function run() {
  const rows = [];
  for (const [what, name] of [
    ['root entry + first toStrictJsonSchema vs agents-core strictToolSchema.mjs', 'root'],
    ['testing entry + first ScriptedModel call vs @openai/agents/testing', 'testing'],
    ['a test file: @openai/agents + testing entry + one Runner run, vs the same with @openai/agents/testing', 'with-sdk'],
  ]) {
    const ours = [];
    const reference = [];
    wall(`${name}-ours.mjs`);
    wall(`${name}-reference.mjs`);
    for (let i = 0; i < runs; i++) {
      ours.push(wall(`${name}-ours.mjs`));
      reference.push(wall(`${name}-reference.mjs`));
    }
    rows.push({ what, ours: median(ours), reference: median(reference) });
  }
  rows.push(recipes());
  return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const r of run()) console.log(`${r.what}: ours ${r.ours.toFixed(0)} ms, anchor ${r.reference.toFixed(0)} ms, difference ${(r.ours - r.reference).toFixed(0)} ms (${(r.ours / r.reference).toFixed(2)}x the time)`);
}
