// Every entry that takes a schema takes a Standard Schema with JSON (Zod 4, Valibot with its
// adapter, ArkType) through its input JSON Schema, for every provider; a Standard Schema
// without JSON (Valibot without the adapter) is an UnsupportedStandardSchemaError, never read
// as JSON Schema. OpenAI's conversion of a Zod schema is what @openai/agents' tool() sends for
// it, but for two documented places where the reference loses meaning.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { tool } from '@openai/agents';
import { toStandardJsonSchema } from '@valibot/to-json-schema';
import { type } from 'arktype';
import * as v from 'valibot';
import { z } from 'zod';
import {
  UnsupportedStandardSchemaError,
  assertStrictSchemaPreservesOpenObjects,
  checkRequestLimits,
  compileJsonSchema,
  parseStructured,
  prepareStrictJsonSchema,
  repairText,
  toStrictJsonSchema,
} from '@understudy/agents';
import { ScriptedModel, assistantMessage } from '@understudy/agents/testing';

/** JSON text with sorted keys and without `$schema` (the two name different drafts). */
const canon = (value) => JSON.stringify(value, (key, x) => (key === '$schema' ? undefined : x && typeof x === 'object' && !Array.isArray(x) ? Object.fromEntries(Object.entries(x).sort()) : x));
const sent = (schema) => tool({ name: 't', description: 'd', parameters: schema, execute: async () => '' }).parameters;

test("OpenAI's conversion of a Zod schema is what @openai/agents' tool() sends", () => {
  const same = {
    plain: z.object({ a: z.string() }),
    optional: z.object({ a: z.string().optional(), b: z.number() }),
    nested: z.object({ user: z.object({ name: z.string(), tags: z.array(z.string()) }), kind: z.enum(['a', 'b']) }),
    union: z.object({ v: z.union([z.string(), z.number()]) }),
    literal: z.object({ k: z.literal('x'), e: z.email() }),
    described: z.object({ q: z.string().describe('the query').min(2) }),
    nullable: z.object({ a: z.string().nullable() }),
  };
  for (const [name, schema] of Object.entries(same)) {
    assert.equal(canon(toStrictJsonSchema(schema)), canon(sent(schema)), name);
    assert.equal(canon(prepareStrictJsonSchema(schema).schema), canon(sent(schema)), name);
  }
  // Where the reference loses meaning, ours keeps it, converting Zod's own JSON Schema as
  // toOpenAIStrictToolSchema converts any JSON Schema: an optional integer stays an integer
  // with Zod's bounds (the reference sends `number`); a defaulted field may be sent as null,
  // which normalizeInput turns back into an absent key so the default applies (the reference
  // makes the model send a value); a record keeps Zod's `propertyNames`, which strict mode
  // refuses (the reference drops it and sends an open map).
  const int = z.object({ n: z.int().optional() });
  assert.deepEqual(sent(int).properties.n, { anyOf: [{ type: 'number' }, { type: 'null' }] });
  assert.deepEqual(toStrictJsonSchema(int).properties.n, { anyOf: [{ type: 'integer', minimum: -9007199254740991, maximum: 9007199254740991 }, { type: 'null' }] });
  const record = z.object({ m: z.record(z.string(), z.number()) });
  assert.deepEqual(sent(record).properties.m, { type: 'object', additionalProperties: { type: 'number' } });
  assert.throws(() => toStrictJsonSchema(record), { name: 'StrictSchemaError', reason: 'unsupported_keyword', pointer: '/properties/m', keyword: 'propertyNames' });
  const defaulted = z.object({ d: z.string().default('x') });
  assert.deepEqual(sent(defaulted).properties.d, { default: 'x', type: 'string' });
  const prepared = prepareStrictJsonSchema(defaulted);
  assert.deepEqual(prepared.schema.properties.d, { anyOf: [{ default: 'x', type: 'string' }, { type: 'null' }] });
  assert.deepEqual(defaulted.parse(prepared.normalizeInput({ d: null })), { d: 'x' });
});

const Ticket = {
  zod: z.object({ title: z.string(), estimate: z.int().optional() }),
  valibot: toStandardJsonSchema(v.object({ title: v.string(), estimate: v.optional(v.pipe(v.number(), v.integer())) })),
  arktype: type({ title: 'string', 'estimate?': 'number.integer' }),
};

for (const [library, schema] of Object.entries(Ticket)) {
  test(`every schema entry takes a ${library} schema as its JSON Schema`, () => {
    for (const provider of ['openai', 'anthropic', 'gemini']) {
      const strict = toStrictJsonSchema(schema, { provider });
      assert.equal(strict.type, 'object', `${provider}: ${JSON.stringify(strict)}`);
      assert.deepEqual(Object.keys(strict.properties).sort(), ['estimate', 'title'], provider);
      assert.ok(!JSON.stringify(strict).includes('understudy'), 'no internals');
      const prepared = prepareStrictJsonSchema(schema, { provider });
      assert.equal(prepared.schema.type, 'object', provider);
    }
    assert.equal(toStrictJsonSchema(schema).properties.title.type, 'string');
    const validator = compileJsonSchema(schema);
    assert.equal(validator.validate({ title: 'x' }).valid, true);
    assert.equal(validator.validate({ title: 1 }).valid, false);
    validator.free();
    assert.deepEqual(checkRequestLimits('anthropic', { tools: [{ name: 'file', inputSchema: schema }], output: schema }), []);
    assertStrictSchemaPreservesOpenObjects(schema);
    assert.deepEqual(parseStructured("{title: 'a',}", schema).value, { title: 'a' });
  });
}

test("Zod's safe-integer bounds are neither described nor sent as bounds", () => {
  const Rating = z.object({ n: z.int(), stars: z.int().max(5) });
  const gemini = toStrictJsonSchema(Rating, { provider: 'gemini' });
  assert.deepEqual(gemini.properties.n, { type: 'integer' });
  assert.equal(gemini.properties.stars.maximum, 5);
  const anthropic = prepareStrictJsonSchema(Rating, { provider: 'anthropic' });
  assert.ok(!JSON.stringify(anthropic.schema).includes('9007199254740991'), JSON.stringify(anthropic.schema));
  assert.ok(!anthropic.changes.some((c) => c.detail.includes('9007199254740991')));
  // The check of an answer still holds them: normalizeInput validates against the original.
  assert.throws(() => anthropic.normalizeInput({ n: 2 ** 60, stars: 1 }), { name: 'ProviderOutputValidationError' });
});

test("Zod's toJSONSchema output is the JSON Schema it shows, though Zod marks it with ~standard", () => {
  const Order = z.object({ id: z.string(), note: z.string().optional() });
  const document = z.toJSONSchema(Order);
  assert.equal(Object.getOwnPropertyDescriptor(document, '~standard')?.enumerable, false, 'Zod marks the document');
  const validator = compileJsonSchema(document);
  // The document closes the object (Zod's output form); the Zod schema's input form does not.
  assert.equal(validator.validate({ id: 'a', extra: 1 }).valid, false);
  validator.free();
  const open = compileJsonSchema(Order);
  assert.equal(open.validate({ id: 'a', extra: 1 }).valid, true);
  open.free();
  assert.deepEqual(parseStructured('{"id":"a","extra":1}', document).fixes.map((f) => f.kind), ['extra_key_dropped']);
});

test('a Standard Schema without JSON is refused by every entry, never read as JSON Schema', async () => {
  const raw = v.object({ a: v.string() });
  const refused = [
    () => toStrictJsonSchema(raw),
    () => toStrictJsonSchema(raw, { provider: 'anthropic' }),
    () => toStrictJsonSchema(raw, { provider: 'gemini' }),
    () => prepareStrictJsonSchema(raw),
    () => prepareStrictJsonSchema(raw, { provider: 'gemini' }),
    () => compileJsonSchema(raw),
    () => checkRequestLimits('openai', { tools: [{ name: 't', parameters: raw }] }),
    () => checkRequestLimits('openai', { output: raw }),
    () => assertStrictSchemaPreservesOpenObjects(raw),
    () => parseStructured('{}', raw),
    () => repairText(raw),
  ];
  for (const call of refused) assert.throws(call, UnsupportedStandardSchemaError, String(call));
  // strictTools reads a tool's parameters the same way.
  const model = new ScriptedModel([[assistantMessage('ok')]], { strictTools: 'gemini' });
  await assert.rejects(model.getResponse({ input: 'hi', modelSettings: {}, tools: [{ type: 'function', name: 't', description: 'd', parameters: raw, strict: true }], handoffs: [], outputType: 'text', tracing: false }), UnsupportedStandardSchemaError);
});

test('a provider conversion never passes a schema the meta-schema refuses: a type name JSON Schema does not have, a keyword value of the wrong shape', async () => {
  const { InvalidJsonSchemaError } = await import('@understudy/agents');
  for (const provider of ['anthropic', 'gemini']) {
    for (const [schema, pointer] of [
      [{ type: 'unsupported' }, '/type'],
      [{ type: 'object', properties: { a: { type: ['string', 'text'] } } }, '/properties/a/type'],
      [{ type: 'object', properties: { a: { type: 'string' } }, required: 'a' }, '/required'],
      [{ type: 'object', properties: { a: { type: 'string', minLength: -1 } } }, '/properties/a/minLength'],
      [{ type: 'object', properties: { a: { type: 'string', pattern: 5 } } }, '/properties/a/pattern'],
      [{ type: 'object', properties: { a: { type: 'string', format: 5 } } }, '/properties/a/format'],
      [{ type: 'object', properties: { a: { type: 'number', minimum: 'x' } } }, '/properties/a/minimum'],
      [{ type: 'object', properties: { a: { type: 'string', description: 5 } } }, '/properties/a/description'],
    ]) {
      assert.throws(() => toStrictJsonSchema(schema, { provider }), (e) => e instanceof InvalidJsonSchemaError && e.pointer === pointer, `${provider} ${JSON.stringify(schema)}`);
      assert.throws(() => prepareStrictJsonSchema(schema, { provider }), InvalidJsonSchemaError);
    }
  }
});
