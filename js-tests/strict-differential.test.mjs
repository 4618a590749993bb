// Differential suite: ours and @openai/agents-core@0.20.0 on the same corpus must agree on
// output, error kind and message, for every entry point of the strict-schema pipeline.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  assertStrictSchemaPreservesOpenObjects,
  prepareStrictJsonSchema,
  SchemaDepthError,
  StrictSchemaError,
  stripStrictNulls,
  toStrictJsonSchema,
  UserError,
} from '@understudy/agents';
import { corpus } from './corpus/schemas.mjs';
import { outcome } from './helpers.mjs';
import * as reference from './reference.mjs';

const REASONS = new Set([
  'depth', 'non_schema_node', 'nested_id', 'unsupported_keyword', 'non_string_ref', 'unresolved_ref', 'invalid_any_of',
  'ref_sibling', 'any_of_sibling', 'ambiguous_any_of', 'open_object', 'unknown_nullability', 'typeless_open_object',
  'defs_not_object', 'not_json', 'too_large',
]);

function resolvePointer(root, pointer) {
  if (pointer === '') return root;
  return pointer
    .slice(1)
    .split('/')
    .map((t) => t.replaceAll('~1', '/').replaceAll('~0', '~'))
    .reduce((node, token) => node?.[token], root);
}

/** Asserts that our outcome and the reference's agree, and that our error is well formed. */
function agree(ours, theirs, schema, label) {
  if (theirs.ok) {
    assert.ok(ours.ok, `${label}: reference accepted, ours threw ${ours.error?.message}`);
    assert.deepStrictEqual(ours.value, theirs.value, `${label}: output differs`);
    return;
  }
  assert.ok(!ours.ok, `${label}: reference threw "${theirs.error.message}", ours accepted`);
  assert.ok(theirs.error instanceof reference.UserError, `${label}: reference threw a non-UserError`);
  assert.equal(ours.error.message, theirs.error.message, `${label}: message differs`);
  assert.ok(ours.error instanceof UserError, `${label}: ours is not a UserError`);
  assert.ok(ours.error instanceof StrictSchemaError, `${label}: ours is not a StrictSchemaError`);
  assert.equal(ours.error instanceof SchemaDepthError, reference.strict.isJsonSchemaDepthError(theirs.error), `${label}: depth kind differs`);
  assert.ok(REASONS.has(ours.error.reason), `${label}: unknown reason ${ours.error.reason}`);
  assert.equal(typeof ours.error.pointer, 'string');
  if (ours.error.reason !== 'depth') {
    assert.notEqual(resolvePointer(schema, ours.error.pointer), undefined, `${label}: pointer ${ours.error.pointer} names nothing`);
  }
}

/** A value a strict-mode model might send: every property null, nested objects filled in. */
function nullsFor(schema, depth = 0) {
  if (depth > 6 || typeof schema !== 'object' || schema === null) return null;
  const target = schema.anyOf?.find((b) => b && typeof b === 'object' && b.type !== 'null') ?? schema;
  if (target.type === 'array' && target.items && !Array.isArray(target.items)) return [nullsFor(target.items, depth + 1), null];
  if (!target.properties || typeof target.properties !== 'object') return null;
  return Object.fromEntries(Object.keys(target.properties).map((k, i) => [k, i % 2 ? null : nullsFor(target.properties[k], depth + 1)]));
}

assert.equal(reference.version, '0.20.0');

describe(`strict schemas agree with @openai/agents-core@${reference.version}`, () => {
  test('the corpus has at least 60 schemas', () => assert.ok(corpus.length >= 60, `${corpus.length}`));

  for (const { name, schema } of corpus) {
    test(name, () => {
      // (JSON text, not structuredClone: the 1000-deep entry overflows structuredClone's stack.)
      const before = JSON.stringify(schema);
      agree(outcome(() => toStrictJsonSchema(schema)), outcome(() => reference.strict.toOpenAIStrictToolSchema(schema)), schema, 'toStrict');
      const ours = outcome(() => prepareStrictJsonSchema(schema));
      const theirs = outcome(() => reference.strict.prepareOpenAIStrictToolSchema(schema));
      agree(
        ours.ok ? { ok: true, value: ours.value.schema } : ours,
        theirs.ok ? { ok: true, value: theirs.value.schema } : theirs,
        schema,
        'prepare',
      );
      if (ours.ok) {
        for (const value of [nullsFor(ours.value.schema), nullsFor(schema), {}, null, undefined, 'text', [1, null]]) {
          const input = structuredClone(value);
          assert.deepStrictEqual(ours.value.normalizeInput(value), theirs.value.normalizeInput(value), `normalizeInput(${JSON.stringify(value)})`);
          assert.deepStrictEqual(value, input, 'normalizeInput mutated its input');
          agree(outcome(() => stripStrictNulls(schema, value)), outcome(() => reference.strict.stripStrictNullsForJsonSchema(schema, value)), schema, 'stripStrictNulls');
        }
      }
      agree(
        outcome(() => assertStrictSchemaPreservesOpenObjects(schema)),
        outcome(() => reference.strict.assertOpenAIStrictToolSchemaPreservesOpenObjects(schema)),
        schema,
        'assertOpenObjects',
      );
      assert.equal(JSON.stringify(schema), before, 'the input schema was mutated');
    });
  }
});
