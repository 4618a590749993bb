// Strict schemas beyond the reference: JSON Pointers and reason codes, host values JSON cannot
// carry, cycles, huge input, and what crosses the boundary.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  prepareStrictJsonSchema,
  SchemaDepthError,
  StrictSchemaError,
  stripStrictNulls,
  toStrictJsonSchema,
  UserError,
} from '@understudy/agents';
import { thrown } from './helpers.mjs';


describe('rejections name the node and the reason', () => {
  const cases = [
    [{ type: 'object', properties: { a: { allOf: [] } } }, 'unsupported_keyword', '/properties/a', 'allOf'],
    [{ type: 'object', properties: { a: { type: 'string' }, b: { $ref: '#/nope' } } }, 'unresolved_ref', '/properties/b', '$ref'],
    [{ type: 'object', properties: { a: { $ref: '#/$defs/x', pattern: 'a' } }, $defs: { x: { type: 'string' } } }, 'ref_sibling', '/properties/a', 'pattern'],
    [{ type: 'object', properties: { list: { type: 'array', items: { anyOf: [{ type: 'string' }], minItems: 1 } } }, required: ['list'] }, 'any_of_sibling', '/properties/list/items', 'minItems'],
    [{ type: 'object', properties: { a: { type: 'object', properties: { b: { type: 7 } } } }, required: ['a'] }, 'unknown_nullability', '/properties/a/properties/b', undefined],
    [{ type: 'object', properties: { a: { properties: {} } }, required: ['a'] }, 'typeless_open_object', '/properties/a', undefined],
    [{ type: 'object', properties: { a: [] } }, 'non_schema_node', '/properties/a', undefined],
  ];
  for (const [schema, reason, pointer, keyword] of cases) {
    test(`${reason} at ${pointer}`, () => {
      const error = thrown(() => toStrictJsonSchema(schema));
      assert.ok(error instanceof StrictSchemaError);
      assert.ok(error instanceof UserError);
      assert.equal(error.name, 'StrictSchemaError');
      assert.deepStrictEqual([error.reason, error.pointer, error.keyword], [reason, pointer, keyword]);
    });
  }
  test('pointers escape ~ and /', () => {
    const error = thrown(() => toStrictJsonSchema({ type: 'object', properties: { 'a/b~c': { not: {} } } }));
    assert.equal(error.pointer, '/properties/a~1b~0c');
  });
});

describe('host values', () => {
  test('a cyclic object is a depth error, as in the reference', () => {
    const schema = { type: 'object', properties: {} };
    schema.properties.self = schema;
    const error = thrown(() => toStrictJsonSchema(schema));
    assert.ok(error instanceof SchemaDepthError);
    assert.equal(error.reason, 'depth');
  });
  test('functions, symbols, bigints and NaN inside a schema are refused with a pointer', () => {
    for (const [value, kind] of [[() => 1, 'function'], [Symbol('s'), 'symbol'], [10n, 'bigint'], [NaN, 'non-finite number']]) {
      const error = thrown(() => toStrictJsonSchema({ type: 'object', properties: {}, examples: [value] }));
      assert.equal(error.reason, 'not_json');
      assert.equal(error.pointer, '/examples/0');
      assert.match(error.message, new RegExp(kind));
    }
  });
  test('a function in a schema position is a non-schema node', () => {
    assert.equal(thrown(() => toStrictJsonSchema({ type: 'object', properties: { a: () => 1 } })).reason, 'non_schema_node');
  });
  test('undefined members: `additionalProperties: undefined` is a node, `type: undefined` is no type', () => {
    assert.equal(thrown(() => toStrictJsonSchema({ type: 'object', properties: {}, additionalProperties: undefined })).reason, 'non_schema_node');
    assert.equal(thrown(() => toStrictJsonSchema({ type: 'object', properties: { a: { type: undefined } } })).reason, 'unknown_nullability');
  });
  test('an exception from a getter propagates unchanged', () => {
    const boom = new Error('getter');
    assert.equal(thrown(() => toStrictJsonSchema({ type: 'object', get properties() { throw boom; } })), boom);
  });
  test('a 10 MB string passes through', () => {
    const big = 'x'.repeat(10_000_000);
    const out = toStrictJsonSchema({ type: 'object', properties: { a: { type: 'string', description: big } }, required: ['a'] });
    assert.equal(out.properties.a.description.length, big.length);
  });
  test('nesting far beyond the limit is a depth error', () => {
    let schema = {};
    for (let i = 0; i < 50_000; i++) schema = { type: 'object', properties: { a: schema } };
    assert.ok(thrown(() => toStrictJsonSchema(schema)) instanceof SchemaDepthError);
  });
});

describe('normalizeInput and stripStrictNulls', () => {
  const { normalizeInput } = prepareStrictJsonSchema({ type: 'object', properties: { a: { type: 'string' }, b: { type: 'number' } }, required: ['a'] });
  test('undefined stays undefined; non-objects pass through', () => {
    assert.equal(normalizeInput(undefined), undefined);
    assert.equal(normalizeInput(null), null);
    assert.equal(normalizeInput('x'), 'x');
  });
  test('undefined members behave as absent keys', () => {
    assert.deepStrictEqual(normalizeInput({ a: 'x', b: undefined }), { a: 'x' });
  });
  test('a cyclic value is a UserError about the value, not a schema depth error', () => {
    const value = { a: 'x' };
    value.self = value;
    const error = thrown(() => normalizeInput(value));
    assert.ok(error instanceof UserError && !(error instanceof SchemaDepthError));
    assert.match(error.message, /^Cannot read a value that is cyclic/);
  });
  test('a value holding a function is refused, not silently changed', () => {
    const error = thrown(() => normalizeInput({ a: 'x', extra: () => 1 }));
    assert.ok(error instanceof UserError);
    assert.equal(error.pointer, '/extra');
  });
  test('stripStrictNulls returns the value untouched for a non-object schema', () => {
    const value = { a: null };
    assert.equal(stripStrictNulls(null, value), value);
    assert.equal(stripStrictNulls([], value), value);
    assert.equal(stripStrictNulls(true, value), value);
  });
});

test('an optional field the error does not have is absent, not an own undefined', () => {
  const cyclic = { type: 'object', properties: {} };
  cyclic.properties.self = cyclic;
  for (const schema of [cyclic, 5]) {
    const error = thrown(() => toStrictJsonSchema(schema));
    assert.ok(error instanceof StrictSchemaError);
    assert.deepEqual(Object.keys(error), ['state', 'name', 'reason', 'pointer']);
    assert.equal('keyword' in error, false);
  }
  const withKeyword = thrown(() => toStrictJsonSchema({ oneOf: [{ type: 'string' }] }));
  assert.deepEqual(Object.keys(withKeyword), ['state', 'name', 'reason', 'pointer', 'keyword']);
});
