// validateJson (JSON text → verdict with issues) vs JSON.parse + ajv and vs JSON.parse +
// @cfworker/json-schema, on values generated for the corpus schemas, in one process.
import { Validator as CfValidator } from '@cfworker/json-schema';
import Ajv2020 from 'ajv/dist/2020.js';
import { compileJsonSchema } from '@understudy/agents';
import { corpus } from '../js-tests/corpus/schemas.mjs';
import { sample } from '../js-tests/corpus/values.mjs';
import { compare, fmt } from './lib.mjs';

function ajvFor(schema) {
  return new Ajv2020.default({ strict: false, validateFormats: false, allErrors: true }).compile(schema);
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
      ours = compileJsonSchema(schema, { formats: false }); // as the ajv anchor is configured
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
  // compileJsonSchema vs ajv.compile on every corpus schema both accept (a fresh ajv each op:
  // ajv caches compiled schemas by identity, which would time a lookup).
  const schemas = all.map((c) => corpus.find((e) => e.name === c.name).schema);
  const compiled = compare({
    ours: () => {
      for (const s of schemas) compileJsonSchema(s, { formats: false }).free();
    },
    ajv: () => {
      const fresh = new Ajv2020.default({ strict: false, validateFormats: false, allErrors: true });
      for (const s of schemas) fresh.compile(s);
    },
  }, { ms: 1500, warmup: 300, rounds: 3 });
  // validate(object) vs ajv on the same values, parsed once up front.
  const values = valid.map((c) => ({ c, value: JSON.parse(c.text) }));
  const objects = compare({
    ours: () => {
      for (const { c, value } of values) c.ours.validate(value);
    },
    ajv: () => {
      for (const { c, value } of values) c.ajvValidate(value);
    },
  });
  // Patterns run on the host's RegExp (one crossing per match): a tool schema whose string
  // arguments carry patterns, and a patternProperties map.
  const patterned = {
    type: 'object',
    properties: {
      orderId: { type: 'string', pattern: '^[A-Z]{2}-\\d{4,8}$' },
      email: { type: 'string', pattern: '^[^@\\s]+@[^@\\s]+\\.[a-z]{2,}$' },
      date: { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$' },
      sku: { type: 'array', items: { type: 'string', pattern: '^(?=.*\\d)[A-Z0-9-]{4,12}$' } },
      headers: { type: 'object', patternProperties: { '^x-[a-z-]+$': { type: 'string' } }, additionalProperties: false },
    },
    required: ['orderId', 'email', 'date'],
    additionalProperties: false,
  };
  const patternedText = JSON.stringify({ orderId: 'AB-123456', email: 'ada@example.com', date: '2026-12-02', sku: ['A1-B2', 'C3-D4-E5', 'ZZ-9'], headers: { 'x-trace-id': 't1', 'x-user': 'u1' } });
  const patternedOurs = compileJsonSchema(patterned, { formats: false });
  const patternedAjv = ajvFor(patterned);
  if (!patternedOurs.validateJson(patternedText).valid || !patternedAjv(JSON.parse(patternedText))) throw new Error('the patterned value should be valid');
  const patterns = compare({
    ours: () => {
      for (let i = 0; i < 100; i++) patternedOurs.validateJson(patternedText);
    },
    ajv: () => {
      for (let i = 0; i < 100; i++) patternedAjv(JSON.parse(patternedText));
    },
  });
  return [
    { what: 'validateJson, a tool schema with 8 pattern matches per value, 100 per op vs JSON.parse + ajv', ours: patterns.ours, reference: patterns.ajv, ratio: patterns.ours / patterns.ajv },
    { what: `compileJsonSchema on ${schemas.length} corpus schemas per op vs ajv.compile`, ours: compiled.ours, reference: compiled.ajv, ratio: compiled.ours / compiled.ajv },
    { what: `validate(object) on ${values.length} valid values per op vs ajv`, ours: objects.ours, reference: objects.ajv, ratio: objects.ours / objects.ajv },
    { what: `validateJson on ${valid.length} valid (schema, text) pairs per op vs JSON.parse + ajv`, ours: r.ours, reference: r.ajv, ratio: r.ours / r.ajv },
    { what: `validateJson on ${valid.length} valid (schema, text) pairs per op vs JSON.parse + @cfworker/json-schema`, ours: r.ours, reference: r.cfworker, ratio: r.ours / r.cfworker },
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const row of run()) console.log(`${row.what}: ours ${fmt(row.ours)} ops/s, other ${fmt(row.reference)} ops/s, ratio ${row.ratio.toFixed(2)}x`);
}
