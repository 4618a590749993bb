// Memory held by compiled validators: each library in its own process compiles N distinct tool
// schemas (the realistic schemas of tools.mjs, each made distinct by its description, so no
// cache shares them), holds them, and reports resident memory per validator; then drops them,
// collects, and reports what stays resident. `node bench/memory.mjs [N]` (default 5,000).
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(import.meta.url);

async function child(lib, n) {
  const { tools } = await import('./tools.mjs');
  const pick = process.env.TOOL === undefined ? tools : [tools[Number(process.env.TOOL)]];
  const schemas = Array.from({ length: n }, (_, i) => ({ ...pick[i % pick.length].schema, description: `tool ${i}` }));
  let compile;
  if (lib === 'ours') {
    const { compileJsonSchema } = await import('@understudy/agents');
    compileJsonSchema({ type: 'string' }).free(); // the validator module loaded before the baseline
    compile = (s) => compileJsonSchema(s);
  } else if (lib === 'ajv') {
    const { default: Ajv2020 } = await import('ajv/dist/2020.js');
    const { default: AjvDraft7 } = await import('ajv');
    const { default: addFormats } = await import('ajv-formats');
    const a2020 = addFormats(new Ajv2020({ strict: false, allErrors: true }));
    const a7 = addFormats(new AjvDraft7({ strict: false, allErrors: true }));
    compile = (s) => (String(s.$schema ?? '').includes('draft-07') ? a7.compile(s) : a2020.compile({ ...s, $schema: undefined }));
  } else {
    const { Validator } = await import('@cfworker/json-schema');
    compile = (s) => {
      const v = new Validator(s, String(s.$schema ?? '').includes('draft-07') ? '7' : '2020-12');
      v.validate({}); // cfworker dereferences on first use
      return v;
    };
  }
  const settle = () => {
    for (let i = 0; i < 4; i++) globalThis.gc();
    return process.memoryUsage().rss;
  };
  const base = settle();
  const start = performance.now();
  let held = schemas.map(compile);
  const ms = (performance.now() - start) / n;
  const holding = settle();
  if (lib === 'ours') for (const v of held) v.free?.();
  held = null;
  const after = settle();
  process.stdout.write(JSON.stringify({ perValidator: (holding - base) / n, retained: after - base, ms }));
}

if (process.argv[2] === 'child') {
  await child(process.argv[3], Number(process.argv[4]));
} else {
  const n = Number(process.argv[2] ?? 5000);
  for (const lib of ['ours', 'ajv', 'cfworker']) {
    const out = JSON.parse(execFileSync(process.execPath, ['--expose-gc', here, 'child', lib, String(n)], { encoding: 'utf8' }));
    console.log(`${lib}: ${(out.perValidator / 1024).toFixed(1)} KiB resident per validator while held (${n} distinct tool schemas), ${(out.retained / 1048576).toFixed(1)} MiB still resident after they are dropped and collected, ${(out.ms * 1000).toFixed(0)} us per compile`);
  }
}
