// validateJson (JSON text → verdict with issues) vs JSON.parse + ajv and vs JSON.parse +
// @cfworker/json-schema, on values generated for the corpus schemas, in one process.
import { Validator as CfValidator } from '@cfworker/json-schema';
import Ajv2020 from 'ajv/dist/2020.js';
import { compileJsonSchema } from '@understudy/agents';
import { corpus } from '../js-tests/corpus/schemas.mjs';
import { compare, fmt } from './lib.mjs';

/** A value that satisfies simple schemas (enough to exercise every keyword of the corpus). */
export function sample(schema, root = schema, depth = 0) {
  if (depth > 8 || typeof schema !== 'object' || schema === null) return null;
  if (schema.$ref) {
    const target = schema.$ref === '#' ? root : schema.$ref.slice(2).split('/').map(decodeURIComponent).reduce((n, t) => n?.[t.replaceAll('~1', '/').replaceAll('~0', '~')], root);
    return sample(target, root, depth + 1);
  }
  if (schema.const !== undefined) return schema.const;
  if (schema.enum) return schema.enum[0];
  if (schema.anyOf) return sample(schema.anyOf[0], root, depth + 1);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type ?? (schema.properties ? 'object' : 'string');
  switch (type) {
    case 'object': {
      const out = {};
      for (const [k, s] of Object.entries(schema.properties ?? {})) out[k] = sample(s, root, depth + 1);
      return out;
    }
    case 'array':
      return Array.isArray(schema.items) ? schema.items.map((s) => sample(s, root, depth + 1)) : schema.items ? [sample(schema.items, root, depth + 1), sample(schema.items, root, depth + 1)] : [];
    case 'integer':
    case 'number':
      return Math.max(1, schema.minimum ?? 1);
    case 'boolean':
      return true;
    case 'null':
      return null;
    default:
      return 'x'.repeat(Math.max(3, schema.minLength ?? 0));
  }
}

export function cases() {
  const ajv = new Ajv2020.default({ strict: false, validateFormats: false, allErrors: true });
  const out = [];
  for (const { name, schema } of corpus) {
    if (typeof schema !== 'object' || schema === null || Array.isArray(schema) || name.startsWith('depth')) continue;
    let ajvValidate;
    let ours;
    let cf;
    try {
      ajvValidate = ajv.compile(schema);
      ours = compileJsonSchema(schema);
      cf = new CfValidator(schema, '2020-12', false);
      cf.validate(sample(schema)); // cfworker resolves references lazily; drop schemas it cannot
    } catch {
      continue;
    }
    const text = JSON.stringify(sample(schema));
    out.push({ name, text, ajvValidate, ours, cf });
  }
  return out;
}

export function run() {
  const all = cases();
  const valid = all.filter((c) => c.ajvValidate(JSON.parse(c.text)));
  const r = compare({
    ours: () => {
      for (const c of valid) c.ours.validateJson(c.text);
    },
    ajv: () => {
      for (const c of valid) c.ajvValidate(JSON.parse(c.text));
    },
    cfworker: () => {
      for (const c of valid) c.cf.validate(JSON.parse(c.text));
    },
  });
  return [
    { what: `validateJson on ${valid.length} valid (schema, text) pairs per op vs JSON.parse + ajv`, ours: r.ours, reference: r.ajv, ratio: r.ours / r.ajv },
    { what: `validateJson on ${valid.length} valid (schema, text) pairs per op vs JSON.parse + @cfworker/json-schema`, ours: r.ours, reference: r.cfworker, ratio: r.ours / r.cfworker },
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const row of run()) console.log(`${row.what}: ours ${fmt(row.ours)} ops/s, other ${fmt(row.reference)} ops/s, ratio ${row.ratio.toFixed(2)}x`);
}
