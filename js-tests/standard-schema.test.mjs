// The Standard Schema bridge, ours against @openai/agents-core@0.20.0's standardSchema module,
// with Zod 4, Valibot + @valibot/to-json-schema, ArkType, a callable schema, a throwing getter
// and an async validator.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { toStandardJsonSchema } from '@valibot/to-json-schema';
import { type } from 'arktype';
import * as v from 'valibot';
import { z } from 'zod';
import {
  assertStandardSchemaObjectRoot,
  AsyncStandardSchemaValidationError,
  hasStandardSchemaMarker,
  io,
  isStandardSchemaWithJSON,
  prepareStrictJsonSchema,
  StandardSchemaValidationError,
  standardSchemaToJsonSchema,
  stripStrictNulls,
  UnsupportedStandardSchemaError,
  UserError,
  validateStandardSchema,
} from '@understudy/agents';
import { outcome } from './helpers.mjs';
import * as reference from './reference.mjs';

const ref = reference.standard;

const zodUser = z.object({ name: z.string().min(1), age: z.number().int().optional(), tags: z.array(z.string()).default([]) });
const valibotUser = toStandardJsonSchema(v.object({ name: v.pipe(v.string(), v.minLength(1)), age: v.optional(v.number()) }));
const arkUser = type({ name: 'string > 0', 'age?': 'number.integer' });

function callable() {
  const fn = () => {};
  fn['~standard'] = {
    version: 1,
    vendor: 'callable',
    validate: (value) => (typeof value === 'object' && value && typeof value.id === 'string' ? { value: { id: value.id.toUpperCase() } } : { issues: [{ message: 'Expected an object with id', path: [{ key: 'id' }] }] }),
    jsonSchema: { input: () => ({ type: 'object', properties: { id: { type: 'string' } }, required: ['id'] }), output: () => ({ type: 'object' }) },
  };
  return fn;
}

const throwingGetter = { get ['~standard']() { throw new Error('getter exploded'); } };
const asyncSchema = {
  '~standard': {
    version: 1,
    vendor: 'async',
    validate: () => Promise.reject(new Error('async rejection must not go unhandled')),
    jsonSchema: { input: () => ({ type: 'object' }), output: () => ({ type: 'object' }) },
  },
};
/** A Standard Schema whose `validate` always answers `issues`. */
const issuing = (issues) => ({ '~standard': { version: 1, vendor: 'i', validate: () => ({ issues }), jsonSchema: { input: () => ({}), output: () => ({}) } } });
const validateOnly = { '~standard': { version: 1, vendor: 'x', validate: (value) => ({ value }) } };
const throwingConverter = {
  '~standard': {
    version: 1,
    vendor: 'x',
    validate: (value) => ({ value }),
    jsonSchema: { input: () => { throw new Error('cannot convert transforms'); }, output: () => { throw 'not an Error'; } },
  },
};
const proxyThrowsOnHas = new Proxy({}, { has() { throw new Error('has trap'); } });
const inherited = Object.create({ '~standard': zodUser['~standard'] });

const candidates = {
  zod: zodUser,
  valibot: valibotUser,
  arktype: arkUser,
  callable: callable(),
  throwingGetter,
  asyncSchema,
  validateOnly,
  throwingConverter,
  proxyThrowsOnHas,
  inherited,
  io: io(),
  plainObject: { type: 'object' },
  null: null,
  string: '~standard',
  wrongVersion: { '~standard': { ...zodUser['~standard'], version: 2 } },
};

describe('detection agrees with the reference', () => {
  for (const [name, value] of Object.entries(candidates)) {
    test(name, () => {
      assert.equal(hasStandardSchemaMarker(value), ref.hasStandardSchemaMarker(value), 'hasStandardSchemaMarker');
      assert.equal(isStandardSchemaWithJSON(value), ref.isStandardSchemaWithJSON(value), 'isStandardSchemaWithJSON');
    });
  }
  test('callable schemas and inherited markers count; throwing getters do not', () => {
    assert.equal(isStandardSchemaWithJSON(candidates.callable), true);
    assert.equal(hasStandardSchemaMarker(inherited), true);
    assert.equal(hasStandardSchemaMarker(throwingGetter), true);
    assert.equal(isStandardSchemaWithJSON(throwingGetter), false);
    assert.equal(hasStandardSchemaMarker(proxyThrowsOnHas), false);
  });
});

describe('conversion agrees with the reference', () => {
  for (const name of ['zod', 'valibot', 'arktype', 'callable', 'throwingConverter']) {
    for (const side of ['input', 'output']) {
      test(`${name} ${side}`, () => {
        const ours = outcome(() => standardSchemaToJsonSchema(candidates[name], side));
        const theirs = outcome(() => ref.standardSchemaToJsonSchema(candidates[name], side));
        assert.equal(ours.ok, theirs.ok);
        if (theirs.ok) assert.deepStrictEqual(ours.value, theirs.value);
        else {
          assert.equal(ours.error.message, theirs.error.message);
          assert.ok(ours.error instanceof UserError);
        }
      });
    }
  }
  test('the converter receives target draft-2020-12', () => {
    let seen;
    const spy = { '~standard': { version: 1, vendor: 'spy', validate: (x) => ({ value: x }), jsonSchema: { input(options) { seen = options; return { type: 'object' }; }, output: () => ({}) } } };
    standardSchemaToJsonSchema(spy, 'input');
    assert.deepStrictEqual(seen, { target: 'draft-2020-12' });
  });
  test('object root check', () => {
    for (const [json, surface] of [[{ type: 'object' }, 'Tool parameter'], [{ type: 'string' }, 'Tool parameter'], [{}, 'Agent output'], [{ type: ['object'] }, 'Agent output']]) {
      const ours = outcome(() => assertStandardSchemaObjectRoot(json, surface));
      const theirs = outcome(() => ref.assertStandardSchemaObjectRoot(json, surface));
      assert.equal(ours.ok, theirs.ok);
      if (!theirs.ok) {
        assert.equal(ours.error.message, theirs.error.message);
        assert.ok(ours.error instanceof UserError);
      }
    }
  });
  test('unsupported Standard Schemas are refused where JSON conversion is needed', () => {
    const error = outcome(() => stripStrictNulls(validateOnly, { a: null })).error;
    assert.ok(error instanceof UnsupportedStandardSchemaError);
    assert.ok(error instanceof UserError);
    assert.equal(error.message, ref.unsupportedStandardSchemaError().message);
  });
});

describe('validation agrees with the reference', () => {
  const cases = [
    ['zod', { name: 'Ada' }],
    ['zod', { name: '', age: 1.5 }],
    ['zod', 'not an object'],
    ['valibot', { name: 'Ada', age: 3 }],
    ['valibot', { name: '' }],
    ['arktype', { name: 'Ada', age: 2 }],
    ['arktype', { name: '', age: 'x' }],
    ['callable', { id: 'abc' }],
    ['callable', { id: 5 }],
  ];
  for (const [name, value] of cases) {
    test(`${name} ${JSON.stringify(value)}`, () => {
      const ours = outcome(() => validateStandardSchema(candidates[name], value));
      const theirs = outcome(() => ref.validateStandardSchema(candidates[name], value));
      assert.equal(ours.ok, theirs.ok, ours.error?.message ?? theirs.error?.message);
      if (theirs.ok) {
        assert.deepStrictEqual(ours.value, theirs.value);
        return;
      }
      assert.equal(ours.error.message, theirs.error.message);
      assert.ok(ours.error instanceof StandardSchemaValidationError);
      assert.ok(!(ours.error instanceof UserError), 'a failed value is a plain Error, as in the reference');
      assert.equal(ours.error.name, 'StandardSchemaValidationError');
      assert.ok(Array.isArray(ours.error.issues) && ours.error.issues.length > 0);
      assert.equal(typeof ours.error.issues[0].message, 'string');
    });
  }

  test('the output (defaults, transforms) is returned, and validate is called once', () => {
    assert.deepStrictEqual(validateStandardSchema(zodUser, { name: 'Ada' }), { name: 'Ada', tags: [] });
    let calls = 0;
    const counting = { '~standard': { version: 1, vendor: 'c', validate: (x) => (calls++, { value: x }), jsonSchema: { input: () => ({}), output: () => ({}) } } };
    validateStandardSchema(counting, 1);
    assert.equal(calls, 1);
  });

  test('issue paths: keys, { key } segments, numbers, empty paths', () => {
    const issues = [
      { message: 'first', path: ['a', 0, { key: 'b' }] },
      { message: 'second', path: [] },
      { message: 'third' },
      { message: 'fourth', path: [Symbol.for('s').description] },
    ];
    const schema = issuing(issues);
    const ours = outcome(() => validateStandardSchema(schema, 1)).error;
    const theirs = outcome(() => ref.validateStandardSchema(schema, 1)).error;
    assert.equal(ours.message, theirs.message);
    assert.equal(ours.message, 'a.0.b: first, second, third, s: fourth');
    assert.equal(ours.issues, issues, 'the validator\'s own issues array is kept');
  });

  test('odd issues read as the reference reads them: nullish and non-string messages, symbols, lone surrogates', () => {
    const lists = [
      [{ message: undefined }, { message: null }, { message: undefined, path: ['a'] }, { message: null, path: ['b'] }],
      [{ message: 5, path: [1, { key: 2 }] }, { message: true }, { message: 'x', path: [Symbol('s'), { key: Symbol('k') }] }],
      [{ message: 'lone \ud800 surrogate', path: ['\udc00'] }, { message: '😀 ok', path: ['ключ'] }],
      ['text', 7, { path: null, message: 'no path' }],
      [{ message: { toString: () => 'from toString' }, path: [{ key: { toString: () => 'k' } }] }],
    ];
    for (const issues of lists) {
      const schema = issuing(issues);
      const ours = outcome(() => validateStandardSchema(schema, 1)).error;
      const theirs = outcome(() => ref.validateStandardSchema(schema, 1)).error;
      assert.ok(ours instanceof StandardSchemaValidationError, String(ours));
      assert.equal(ours.message, theirs.message.toWellFormed());
      assert.equal(ours.issues, issues);
    }
    for (const [issues, TypeErrorMessage] of [[{ length: 1 }, 'result.issues.map is not a function'], [[{ message: 'm', path: 5 }], 'issue.path.map is not a function'], [[null], "Cannot read properties of null (reading 'path')"], [[{ message: 'm' }, undefined], "Cannot read properties of undefined (reading 'path')"]]) {
      const schema = issuing(issues);
      const ours = outcome(() => validateStandardSchema(schema, 1)).error;
      const theirs = outcome(() => ref.validateStandardSchema(schema, 1)).error;
      assert.ok(ours instanceof TypeError && theirs instanceof TypeError);
      assert.equal(ours.message, TypeErrorMessage);
    }
    const boom = new Error('toString exploded');
    const throwing = issuing([{ message: { toString() { throw boom; } } }]);
    assert.equal(outcome(() => validateStandardSchema(throwing, 1)).error, boom);
    assert.equal(outcome(() => ref.validateStandardSchema(throwing, 1)).error, boom);
  });

  test('a Promise result throws AsyncStandardSchemaValidationError without an unhandled rejection', async () => {
    const unhandled = [];
    const onUnhandled = (reason) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const ours = outcome(() => validateStandardSchema(asyncSchema, {})).error;
      const theirs = outcome(() => ref.validateStandardSchema(asyncSchema, {})).error;
      assert.ok(ours instanceof AsyncStandardSchemaValidationError);
      assert.ok(ours instanceof UserError);
      assert.equal(ours.name, 'AsyncStandardSchemaValidationError');
      assert.equal(ours.message, theirs.message);
      await new Promise((resolve) => setTimeout(resolve, 20));
      assert.deepStrictEqual(unhandled, []);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  test('exceptions from the schema itself propagate unchanged', () => {
    const boom = new Error('validate exploded');
    const schema = { '~standard': { version: 1, vendor: 'b', validate: () => { throw boom; }, jsonSchema: { input: () => ({}), output: () => ({}) } } };
    assert.equal(outcome(() => validateStandardSchema(schema, 1)).error, boom);
    assert.equal(outcome(() => validateStandardSchema(throwingGetter, 1)).error.message, 'getter exploded');
  });
});

describe('Standard Schemas feed the strict pipeline', () => {
  test('stripStrictNulls uses the input JSON Schema of a Zod schema', () => {
    assert.deepStrictEqual(stripStrictNulls(zodUser, { name: 'Ada', age: null, tags: null }), { name: 'Ada' });
    assert.deepStrictEqual(
      stripStrictNulls(zodUser, { name: 'Ada', age: null }),
      reference.strict.stripStrictNullsForJsonSchema(zodUser['~standard'].jsonSchema.input({ target: 'draft-2020-12' }), { name: 'Ada', age: null }),
    );
    assert.deepStrictEqual(stripStrictNulls(valibotUser, { name: 'x', age: null }), { name: 'x' });
    assert.deepStrictEqual(stripStrictNulls(arkUser, { name: 'x', age: null }), { name: 'x' });
  });
  test('stripStrictNulls of a Zod schema agrees with the reference\'s Zod walk (tuples, records, unions, arrays)', () => {
    const optionalA = z.object({ a: z.string().optional() });
    // One deliberate difference: a `null` for a field with a default (`tags` here) is stripped
    // so the default applies (the reference keeps it, and Zod then refuses the null).
    assert.deepStrictEqual(stripStrictNulls(zodUser, { name: 'Ada', age: null, tags: null }), { name: 'Ada' });
    assert.deepStrictEqual(reference.strict.stripStrictNullsForZodSchema(zodUser, { name: 'Ada', age: null, tags: null }), { name: 'Ada', tags: null });
    const cases = [
      [zodUser, { name: 'Ada', age: null }],
      [z.object({ t: z.tuple([z.string(), optionalA]) }), { t: ['x', { a: null }] }],
      [z.object({ r: z.record(z.string(), optionalA) }), { r: { k: { a: null }, j: { a: 'y' } } }],
      [z.object({ u: z.union([optionalA, z.object({ b: z.number() })]) }), { u: { a: null } }],
      [z.object({ u: z.union([z.object({ b: z.number() }), optionalA]) }), { u: { a: null } }],
      [z.object({ u: z.discriminatedUnion('k', [z.object({ k: z.literal('x'), a: z.string().optional() }), z.object({ k: z.literal('y'), a: z.string().nullable().optional() })]) }), { u: { k: 'y', a: null } }],
      [z.object({ arr: z.array(optionalA), n: z.string().nullable().optional() }), { arr: [{ a: null }, { a: 'q' }], n: null }],
      [z.object({ a: z.string().optional(), b: z.number().optional() }), { a: null, b: null, extra: null }],
      [z.object({ nested: z.object({ deep: z.tuple([z.object({ x: z.number().optional() })]).optional() }) }), { nested: { deep: [{ x: null }] } }],
      // The reference's own test "strips strict nulls from optional Zod object, union, array,
      // tuple, and record fields": optional tuple positions and optional record values.
      [z.tuple([z.string().optional(), z.number().optional()]), [null, null]],
      [z.record(z.string(), z.string().optional()), { keep: 'value', drop: null }],
      [z.object({ t: z.tuple([z.string(), z.number().optional()]) }), { t: ['a', null] }],
      [z.tuple([z.string(), z.number().nullable()]), ['a', null]],
    ];
    for (const [schema, value] of cases) {
      const before = structuredClone(value);
      assert.deepStrictEqual(stripStrictNulls(schema, value), reference.strict.stripStrictNullsForZodSchema(schema, value), JSON.stringify(value));
      assert.deepStrictEqual(value, before, 'the input is not mutated');
    }
  });
  test('tool-parameter flow: input JSON Schema → root check → prepare → normalize → validate', () => {
    const json = standardSchemaToJsonSchema(zodUser, 'input');
    assertStandardSchemaObjectRoot(json, 'Tool parameter');
    const { schema, normalizeInput } = prepareStrictJsonSchema(json);
    assert.deepStrictEqual(schema.required, ['name', 'age', 'tags']);
    const args = normalizeInput(JSON.parse('{"name":"Ada","age":null,"tags":null}'));
    assert.deepStrictEqual(validateStandardSchema(zodUser, args), { name: 'Ada', tags: [] });
  });
  test('io() is an identity-cast Standard Schema carrier', () => {
    const carrier = io();
    assert.equal(carrier['~standard'].version, 1);
    assert.equal(carrier['~standard'].vendor, 'understudy');
    assert.equal(io('loopy')['~standard'].vendor, 'loopy');
    const value = { path: 'a', patch: 'b' };
    assert.equal(carrier['~standard'].validate(value).value, value);
    assert.equal(hasStandardSchemaMarker(carrier), true);
    assert.equal(isStandardSchemaWithJSON(carrier), false, 'io() has no JSON Schema conversion');
  });
});
