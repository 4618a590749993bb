// Cold starts: each script in a fresh `node`, ours and the anchor alternately, medians of wall
// time (ms). `node bench/cold/run.mjs [runs]`.
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const runs = Number(process.argv[2] ?? 11);
const wall = (script) => {
  const t = performance.now();
  const r = spawnSync(process.execPath, [join(here, script)], { stdio: 'inherit' });
  if (r.status !== 0) throw new Error(`${script} exited with ${r.status}`);
  return performance.now() - t;
};
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
  return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const r of run()) console.log(`${r.what}: ours ${r.ours.toFixed(0)} ms, anchor ${r.reference.toFixed(0)} ms, difference ${(r.ours - r.reference).toFixed(0)} ms`);
}
