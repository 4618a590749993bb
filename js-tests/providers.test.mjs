// One schema, every provider: toStrictJsonSchema / prepareStrictJsonSchema with a provider,
// checkRequestLimits, and strictTools with a provider under the real Runner.
import assert from 'node:assert/strict';
import test from 'node:test';
import { Agent, Runner, tool } from '@openai/agents';
import { z } from 'zod';
import * as v from 'valibot';
import { toJsonSchema } from '@valibot/to-json-schema';
import { type } from 'arktype';
import {
  checkRequestLimits,
  prepareStrictJsonSchema,
  ProviderOutputValidationError,
  StrictSchemaError,
  toStrictJsonSchema,
  UserError,
} from '@understudy/agents';
import { ScriptedModel, assistantMessage } from '@understudy/agents/testing';
import { corpus } from './corpus/schemas.mjs';

const GEMINI_FIELDS = new Set(['anyOf', 'type', 'format', 'title', 'description', 'nullable', 'enum', 'default', 'example', 'items', 'minItems', 'maxItems', 'properties', 'required', 'propertyOrdering', 'minProperties', 'maxProperties', 'minLength', 'maxLength', 'pattern', 'minimum', 'maximum']);
const ANTHROPIC_FIELDS = new Set(['type', 'properties', 'required', 'additionalProperties', 'items', 'enum', 'const', 'anyOf', 'allOf', 'description', 'title', 'default', 'format', 'pattern', 'minItems']);

/** Walks a converted schema against the provider's documented keyword list. */
function accepted(schema, provider, at = '') {
  const fields = provider === 'gemini' ? GEMINI_FIELDS : ANTHROPIC_FIELDS;
  for (const [k, value] of Object.entries(schema)) {
    assert.ok(fields.has(k), `${provider} refuses \`${k}\` at ${at || 'the root'}`);
    if (k === 'additionalProperties') assert.equal(value, false, at);
    if (k === 'minItems' && provider === 'anthropic') assert.ok(value <= 1, at);
    if (k === 'type' && provider === 'gemini') assert.equal(typeof value, 'string', at);
  }
  if (provider === 'gemini') assert.ok('type' in schema || 'anyOf' in schema, `a type at ${at}`);
  for (const [name, p] of Object.entries(schema.properties ?? {})) accepted(p, provider, `${at}/properties/${name}`);
  if (schema.items) accepted(schema.items, provider, `${at}/items`);
  for (const key of ['anyOf', 'allOf']) (schema[key] ?? []).forEach((b, i) => accepted(b, provider, `${at}/${key}/${i}`));
}

test('Gemini: z.int().positive() becomes minimum 1 (the 400 "Unknown name exclusiveMinimum" users hit)', () => {
  const schema = z.object({ count: z.int().positive(), step: z.number().multipleOf(5), note: z.string().nullable() });
  const out = toStrictJsonSchema(schema, { provider: 'gemini' });
  accepted(out, 'gemini');
  assert.equal(out.properties.count.minimum, 1);
  assert.equal(out.properties.count.exclusiveMinimum, undefined);
  assert.equal(out.properties.step.description, 'Must be a multiple of 5.');
  assert.deepEqual(out.properties.note, { type: 'string', nullable: true });
  assert.equal(JSON.stringify(out).includes('additionalProperties'), false);
});

test('Anthropic: bounds and minItems above 1 move into the description, and the answer is checked locally', () => {
  const schema = z.object({ rating: z.int().min(1).max(5), tags: z.array(z.string()).min(2), id: z.uuid() });
  const prepared = prepareStrictJsonSchema(schema, { provider: 'anthropic' });
  accepted(prepared.schema, 'anthropic');
  assert.equal(prepared.schema.properties.rating.description, 'Must be at least 1, at most 5.');
  assert.equal(prepared.schema.properties.tags.minItems, undefined);
  assert.equal(prepared.schema.properties.id.format, 'uuid');
  assert.ok(prepared.changes.some((c) => c.pointer === '/properties/tags' && c.keyword === 'minItems' && c.kind === 'described'));
  const good = { rating: 5, tags: ['a', 'b'], id: '0b6f9c1e-8d44-4bd6-9a0e-6f0f1f8e3d1a' };
  assert.deepEqual(prepared.normalizeInput(good), good);
  assert.throws(
    () => prepared.normalizeInput({ ...good, rating: 9, tags: ['a'] }),
    (e) => e instanceof ProviderOutputValidationError && !(e instanceof UserError) && e.provider === 'anthropic' && e.issues.length === 2 && /the Anthropic form only describes some of its constraints/.test(e.message) && /at `\/rating`/.test(e.message),
  );
  // Named with its mode, the same: the check names the provider.
  const strict = prepareStrictJsonSchema(schema, { provider: 'anthropic:strict' });
  assert.deepEqual(strict.schema, prepared.schema);
  assert.throws(() => strict.normalizeInput({ ...good, rating: 9 }), (e) => e instanceof ProviderOutputValidationError && e.provider === 'anthropic');
});

test('refusals are StrictSchemaErrors with reason, pointer and the provider in the message', () => {
  const recursive = { type: 'object', properties: { child: { $ref: '#' } } };
  for (const provider of ['anthropic', 'gemini']) {
    assert.throws(() => toStrictJsonSchema(recursive, { provider }), (e) => e instanceof StrictSchemaError && e.reason === 'recursive' && e.pointer === '/properties/child' && e.message.startsWith(provider === 'gemini' ? 'Gemini' : 'Anthropic'));
    assert.throws(() => toStrictJsonSchema({ type: 'object', properties: { a: { not: { type: 'string' } } } }, { provider }), (e) => e.reason === 'unsupported_keyword' && e.pointer === '/properties/a/not');
  }
  // Anthropic refuses an open map; Gemini, which has no additionalProperties, sends it as an open object.
  assert.throws(() => toStrictJsonSchema(z.object({ meta: z.record(z.string(), z.string()) }), { provider: 'anthropic' }), (e) => e.reason === 'open_object' && e.pointer === '/properties/meta/additionalProperties');
  const gemini = prepareStrictJsonSchema(z.object({ meta: z.record(z.string(), z.string()) }), { provider: 'gemini' });
  assert.deepEqual(gemini.schema.properties.meta, { type: 'object' });
  assert.ok(gemini.changes.some((c) => c.kind === 'dropped' && c.pointer === '/properties/meta' && c.keyword === 'additionalProperties'));
  assert.throws(() => gemini.normalizeInput({ meta: { k: 1 } }), ProviderOutputValidationError);
  assert.throws(() => toStrictJsonSchema({ type: 'object', properties: { p: { enum: [{ a: 1 }] } } }, { provider: 'anthropic' }), (e) => e.reason === 'unsupported_value');
  assert.throws(() => toStrictJsonSchema({ type: 'string' }, { provider: 'anthropic' }), (e) => e.reason === 'root_not_object');
  assert.throws(() => toStrictJsonSchema({ type: 'object' }, { provider: 'mistral' }), (e) => e instanceof UserError && /provider must be one of 'openai', 'anthropic', 'gemini', 'openai:strict', .*, got mistral/.test(e.message));
  assert.throws(() => toStrictJsonSchema({ type: 'object' }, { providr: 'gemini' }), { name: 'TypeError', message: /unknown option `providr`/ });
});

test('the OpenAI default is unchanged: provider openai gives the reference\'s output and errors on the whole corpus', () => {
  let compared = 0;
  for (const entry of corpus) {
    const schema = entry.schema ?? entry;
    let plain;
    let plainError;
    try {
      plain = toStrictJsonSchema(schema);
    } catch (e) {
      plainError = e;
    }
    if (plainError) {
      assert.throws(() => toStrictJsonSchema(schema, { provider: 'openai' }), (e) => e.constructor === plainError.constructor && e.message === plainError.message);
    } else {
      assert.equal(JSON.stringify(toStrictJsonSchema(schema, { provider: 'openai' })), JSON.stringify(plain));
    }
    compared += 1;
  }
  assert.ok(compared >= 20, `compared ${compared} corpus schemas`);
});

test('realistic schemas (Zod 4, Valibot, ArkType, hand-written MCP tools) convert for every provider, within each keyword list', () => {
  const zodSearch = z.object({
    query: z.string().min(1).describe('What to look for'),
    limit: z.int().positive().max(100).optional(),
    since: z.iso.datetime().optional(),
    state: z.enum(['open', 'closed']).default('open'),
    filter: z.discriminatedUnion('kind', [z.object({ kind: z.literal('label'), name: z.string() }), z.object({ kind: z.literal('author'), login: z.string() })]).optional(),
  });
  const valibotUser = toJsonSchema(v.object({ id: v.pipe(v.string(), v.uuid()), email: v.pipe(v.string(), v.email()), age: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0))) }));
  const arkOrder = type({ sku: 'string', quantity: 'number.integer > 0', 'note?': 'string | null' }).toJsonSchema();
  const mcp = { type: 'object', properties: { path: { type: 'string', description: 'Absolute path' }, recursive: { type: 'boolean', default: false }, depth: { type: 'integer', minimum: 0, maximum: 10 } }, required: ['path'] };
  for (const schema of [zodSearch, valibotUser, arkOrder, mcp]) {
    for (const provider of ['anthropic', 'gemini']) {
      const out = toStrictJsonSchema(schema, { provider });
      accepted(out, provider);
    }
  }
});

test('checkRequestLimits reports every breach of a whole request', () => {
  const small = { type: 'object', properties: { a: { type: 'string' } }, required: ['a'], additionalProperties: false };
  const tools = Array.from({ length: 21 }, (_, i) => ({ name: `t${i}`, parameters: small }));
  assert.deepEqual(checkRequestLimits('anthropic:strict', { tools }).map((b) => [b.limit, b.pointer, b.count, b.max]), [['strict_tools', '/tools/20', 21, 20]]);
  // Anthropic's limits are strict tool use's: standard tools (the default) have none, tools
  // that declare `strict: true` count.
  assert.deepEqual(checkRequestLimits('anthropic', { tools }), []);
  assert.equal(checkRequestLimits('anthropic', { tools: tools.map((t) => ({ ...t, strict: true })) }).length, 1);
  assert.deepEqual(checkRequestLimits('anthropic:strict', { tools: tools.slice(0, 3) }), []);
  const optional = { type: 'object', properties: Object.fromEntries(Array.from({ length: 25 }, (_, i) => [`p${i}`, { type: 'string' }])) };
  const [breach] = checkRequestLimits('anthropic:strict', { tools: [{ name: 'wide', inputSchema: optional }] });
  assert.equal(breach.limit, 'optional_parameters');
  assert.equal(breach.pointer, '/tools/0/parameters/properties/p24');
  assert.throws(() => checkRequestLimits('nobody', {}), UserError);
});

test('strictTools with a provider fails the unit test the way the provider would fail the request', async () => {
  const rate = tool({ name: 'rate', description: 'Rate it', parameters: z.object({ stars: z.int().min(1).max(5) }), strict: true, execute: async () => 'ok' });
  const runner = new Runner({ tracingDisabled: true });
  const ok = await runner.run(new Agent({ name: 'a', model: new ScriptedModel([[assistantMessage('done')]], { strictTools: true }), tools: [rate] }), 'go');
  assert.equal(ok.finalOutput, 'done', 'OpenAI strict mode takes the bounds');
  await assert.rejects(
    runner.run(new Agent({ name: 'a', model: new ScriptedModel([[assistantMessage('done')]], { strictTools: 'anthropic' }), tools: [rate] }), 'go'),
    (e) => e instanceof StrictSchemaError && e.reason === 'not_strict' && e.keyword === 'minimum' && /^Tool "rate": Anthropic strict mode refuses it: `minimum` at `\/properties\/stars` is not supported/.test(e.message),
  );
  const many = Array.from({ length: 21 }, (_, i) => tool({ name: `t${i}`, description: 'x', parameters: { type: 'object', properties: { a: { type: 'string' } }, required: ['a'], additionalProperties: false }, strict: true, execute: async () => 'ok' }));
  await assert.rejects(
    runner.run(new Agent({ name: 'a', model: new ScriptedModel([[assistantMessage('done')]], { strictTools: ['openai', 'anthropic'] }), tools: many }), 'go'),
    (e) => e instanceof StrictSchemaError && e.reason === 'request_limit' && e.pointer === '/tools/20',
  );
  assert.throws(() => new ScriptedModel([], { strictTools: 'claude' }), UserError);
  assert.throws(() => new ScriptedModel([], { strictTools: 1 }), { name: 'TypeError', message: /strictTools must be a boolean, a provider or an array of providers/ });
});

test('AI SDK: providerSchemas converts the tools and the output schema the model receives; the SDK checks the answer against the originals', async () => {
  const { generateText, Output, stepCountIs, tool: aiTool, wrapLanguageModel } = await import('ai');
  const { MockLanguageModelV3 } = await import('ai/test');
  const { providerSchemas, repairingMiddleware } = await import('@understudy/agents');
  const usage = { inputTokens: { total: 1, noCache: 1 }, outputTokens: { total: 1, text: 1 } };
  const seen = [];
  const mock = new MockLanguageModelV3({
    doGenerate: async (options) => {
      seen.push(options);
      return { content: [{ type: 'text', text: '{"count": 0}' }], finishReason: { unified: 'stop', raw: 'stop' }, usage, warnings: [] };
    },
  });
  const model = wrapLanguageModel({ model: mock, middleware: [repairingMiddleware(), providerSchemas('gemini')] });
  const tools = { rate: aiTool({ description: 'Rate', inputSchema: z.object({ stars: z.int().positive() }), execute: async () => 'ok' }) };
  // The model answers 0, which the converted schema says is wrong (minimum 1): the SDK refuses it.
  await assert.rejects(generateText({ model, tools, output: Output.object({ schema: z.object({ count: z.int().positive() }) }), stopWhen: stepCountIs(1), prompt: 'x' }), (e) => e.name === 'AI_NoObjectGeneratedError');
  const sent = seen[0];
  assert.equal(sent.responseFormat.schema.properties.count.minimum, 1);
  assert.equal(sent.tools[0].inputSchema.properties.stars.minimum, 1);
  assert.equal(sent.responseFormat.schema.additionalProperties, undefined);
  assert.equal(JSON.stringify(sent).includes('exclusiveMinimum'), false);
  assert.throws(() => providerSchemas('claude'), UserError);
});

test('cassette replay takes a provider for strictTools too', async () => {
  const empty = { format: 'understudy-cassette', version: 1, redaction: { keys: [], patterns: [] }, steps: [{ streamed: false, request: {}, response: { output: [assistantMessage('done')] } }] };
  const rate = tool({ name: 'rate', description: 'Rate it', parameters: z.object({ stars: z.int().min(1).max(5) }), strict: true, execute: async () => 'ok' });
  const runner = new Runner({ tracingDisabled: true });
  for (const match of ['order', 'request']) {
    const model = ScriptedModel.fromCassette(empty, { match, strictTools: 'gemini' });
    await assert.rejects(runner.run(new Agent({ name: 'a', model, tools: [rate] }), 'go'), (e) => e instanceof StrictSchemaError && e.reason === 'not_strict' && /Gemini \(OpenAPI schema\) refuses it/.test(e.message), match);
  }
});

test('an explicit additionalProperties: true is closed and listed as narrowed; an open map with a value schema is still refused by Anthropic', () => {
  const open = { type: 'object', properties: { a: { type: 'string' }, meta: { type: 'object', properties: { k: { type: 'string' } }, additionalProperties: true } }, required: ['a'], additionalProperties: true };
  for (const provider of ['anthropic', 'gemini']) {
    const prepared = prepareStrictJsonSchema(open, { provider });
    const narrowed = prepared.changes.filter((c) => c.kind === 'narrowed').map((c) => `${c.pointer} ${c.keyword}`);
    assert.deepEqual(narrowed.sort(), [' additionalProperties', '/properties/meta additionalProperties'], provider);
    if (provider === 'anthropic') assert.equal(prepared.schema.properties.meta.additionalProperties, false);
    else assert.equal('additionalProperties' in prepared.schema, false);
    // Every answer to the closed schema is an answer to the original.
    assert.deepEqual(prepared.normalizeInput({ a: 'x', meta: { k: 'y' } }), { a: 'x', meta: { k: 'y' } });
  }
  assert.throws(() => prepareStrictJsonSchema({ type: 'object', additionalProperties: { type: 'string' } }, { provider: 'anthropic' }), { name: 'StrictSchemaError', reason: 'open_object', pointer: '/additionalProperties' });
  // An open branch of an allOf is closed the same way, and named where it was written.
  const branch = prepareStrictJsonSchema({ type: 'object', allOf: [{ properties: { a: { type: 'string' } } }, { properties: { b: { type: 'string' } }, additionalProperties: true }] }, { provider: 'anthropic' });
  assert.equal(branch.schema.additionalProperties, false);
  assert.deepEqual(branch.changes.filter((c) => c.kind === 'narrowed').map((c) => c.pointer), ['/allOf/1']);
});

test('allOf: changes and refusals name the branch, and merging closed branches is listed as dropped and checked locally', () => {
  const closed = { type: 'object', allOf: [
    { type: 'object', properties: { a: { type: 'string' } }, additionalProperties: false },
    { type: 'object', properties: { b: { type: 'string' } }, additionalProperties: false },
  ] };
  const prepared = prepareStrictJsonSchema(closed, { provider: 'anthropic' });
  assert.deepEqual(prepared.changes.filter((c) => c.kind === 'dropped').map((c) => c.pointer), ['/allOf/0', '/allOf/1']);
  // The merged schema takes { a, b }; the original takes neither beside the other: refused locally.
  assert.throws(() => prepared.normalizeInput({ a: 'x', b: 'y' }), ProviderOutputValidationError);
  assert.throws(() => toStrictJsonSchema({ type: 'object', allOf: [{ properties: { a: { type: 'string' } } }, { additionalProperties: { type: 'string' } }] }, { provider: 'anthropic' }), { name: 'StrictSchemaError', pointer: '/allOf/1/additionalProperties' });
  const age = prepareStrictJsonSchema({ type: 'object', allOf: [{ properties: { name: { type: 'string' } } }, { properties: { age: { type: 'integer', minimum: 0 } } }] }, { provider: 'anthropic' });
  assert.equal(age.changes.find((c) => c.keyword === 'minimum').pointer, '/allOf/1/properties/age');
});

test('Anthropic: a root that is not an object is refused, or sent wrapped with wrapRoot and unwrapped by normalizeInput', () => {
  const roots = [
    [{ type: 'string', enum: ['rainy', 'sunny'] }, 'rainy', 'snowy'],
    [z.array(z.string()).min(2), ['a', 'b'], ['a']],
    [{ anyOf: [{ type: 'string' }, { type: 'number' }] }, 4, true],
    [{ $defs: { tag: { type: 'string', minLength: 2 } }, type: 'array', items: { $ref: '#/$defs/tag' } }, ['ab'], ['a']],
  ];
  for (const [root, good, bad] of roots) {
    assert.throws(() => toStrictJsonSchema(root, { provider: 'anthropic' }), (e) => e instanceof StrictSchemaError && e.reason === 'root_not_object' && /wrapRoot/.test(e.message));
    const prepared = prepareStrictJsonSchema(root, { provider: 'anthropic', wrapRoot: 'value' });
    assert.deepEqual(toStrictJsonSchema(root, { provider: 'anthropic', wrapRoot: 'value' }), prepared.schema);
    assert.equal(prepared.schema.type, 'object');
    assert.deepEqual(prepared.schema.required, ['value']);
    assert.equal(prepared.schema.additionalProperties, false);
    assert.deepEqual(prepared.changes.filter((c) => c.kind === 'wrapped').map((c) => c.pointer), ['']);
    assert.deepEqual(prepared.normalizeInput({ value: good }), good);
    assert.throws(() => prepared.normalizeInput({ value: bad }), (e) => e instanceof ProviderOutputValidationError && e.issues[0].instancePath.startsWith('/value'));
    // The answer must be the wrapper: a bare value or an extra key is refused.
    assert.throws(() => prepared.normalizeInput(good), ProviderOutputValidationError);
    assert.throws(() => prepared.normalizeInput({ value: good, other: 1 }), ProviderOutputValidationError);
  }
  // An object root is never wrapped, nor a Gemini root (Gemini takes every root).
  const object = { type: 'object', properties: { a: { type: 'string' } }, required: ['a'], additionalProperties: false };
  const kept = prepareStrictJsonSchema(object, { provider: 'anthropic', wrapRoot: 'value' });
  assert.deepEqual([kept.schema, kept.normalizeInput({ a: 'x' })], [object, { a: 'x' }]);
  const gemini = prepareStrictJsonSchema({ type: 'string', enum: ['a'] }, { provider: 'gemini', wrapRoot: 'value' });
  assert.deepEqual([gemini.schema.type, gemini.normalizeInput('a')], ['string', 'a']);
  // OpenAI's conversion is the reference's: the option is refused there, and a non-name everywhere.
  assert.throws(() => prepareStrictJsonSchema(object, { wrapRoot: 'value' }), (e) => e instanceof UserError && /wrapRoot/.test(e.message));
  assert.throws(() => toStrictJsonSchema(object, { provider: 'openai', wrapRoot: 'value' }), UserError);
  assert.throws(() => toStrictJsonSchema(object, { provider: 'anthropic', wrapRoot: '' }), (e) => e instanceof UserError && /property name/.test(e.message));
});

test('Gemini: numeric enums go as their texts with format enum (Google\'s documented form); normalizeInput reads a text answer back as the number', () => {
  const schema = z.object({ size: z.literal([1, 2, 4]), level: z.enum(['low', 'high']), scores: z.array(z.literal([0.5, 1.5])) });
  const prepared = prepareStrictJsonSchema(schema, { provider: 'gemini' });
  assert.deepEqual(prepared.schema.properties.size, { type: 'number', enum: ['1', '2', '4'], format: 'enum' });
  assert.deepEqual(prepared.schema.properties.scores.items, { type: 'number', enum: ['0.5', '1.5'], format: 'enum' });
  const hand = prepareStrictJsonSchema({ type: 'object', properties: { size: { type: 'integer', enum: [1, 2, 4] }, label: { anyOf: [{ type: 'string' }, { enum: [10, 20] }] } }, required: ['size', 'label'] }, { provider: 'gemini' });
  assert.deepEqual(hand.schema.properties.size, { type: 'integer', enum: ['1', '2', '4'], format: 'enum' });
  assert.deepEqual(hand.changes.filter((c) => c.keyword === 'enum').map((c) => [c.pointer, c.kind]), [['/properties/size', 'rewritten'], ['/properties/label/anyOf/1', 'rewritten']]);
  // The model answers a number or its text: both come back as the number.
  assert.deepEqual(hand.normalizeInput({ size: 4, label: 'x' }), { size: 4, label: 'x' });
  assert.deepEqual(hand.normalizeInput({ size: '4', label: 'x' }), { size: 4, label: 'x' });
  // An answer valid as given is never changed: "20" is a string the union's first branch takes.
  assert.deepEqual(hand.normalizeInput({ size: 2, label: '20' }), { size: 2, label: '20' });
  assert.throws(() => hand.normalizeInput({ size: '3', label: 'x' }), ProviderOutputValidationError);
  const input = { size: '1', scores: ['0.5', '1.5'], level: 'low' };
  assert.deepEqual(prepared.normalizeInput(input), { size: 1, scores: [0.5, 1.5], level: 'low' });
  assert.deepEqual(input, { size: '1', scores: ['0.5', '1.5'], level: 'low' }, 'the argument is not mutated');
});
