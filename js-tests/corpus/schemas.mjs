// The schema corpus shared by the differential suite and the benchmarks: realistic tool
// schemas, library-generated ones, references, recursion, every rejection, and depth limits.
import { type } from 'arktype';
import { toJsonSchema as valibotToJsonSchema } from '@valibot/to-json-schema';
import * as v from 'valibot';
import { z } from 'zod';

const obj = (properties, required = Object.keys(properties), extra = {}) => ({ type: 'object', properties, required, ...extra });

/** `{ value: $ref → d0 → … → d(n-1) → tail }` */
export function refChain(n, tail) {
  const $defs = {};
  for (let i = 0; i < n; i++) $defs[`d${i}`] = i + 1 < n ? { $ref: `#/$defs/d${i + 1}` } : tail;
  return { type: 'object', properties: { value: { $ref: '#/$defs/d0' } }, required: ['value'], $defs };
}

/** A cycle of n definitions reached from property `value`. */
export function refCycle(n) {
  const $defs = {};
  for (let i = 0; i < n; i++) $defs[`d${i}`] = { $ref: `#/$defs/d${(i + 1) % n}` };
  return { type: 'object', properties: { value: { $ref: '#/$defs/d0' } }, required: ['value'], $defs };
}

/** Objects nested `n` deep through property `a`. */
export function nested(n) {
  let schema = { type: 'string' };
  for (let i = 0; i < n; i++) schema = { type: 'object', properties: { a: schema }, required: ['a'], additionalProperties: false };
  return schema;
}

/** `examples` holding arrays nested n deep (physical depth only). */
export function physical(n) {
  let value = 1;
  for (let i = 0; i < n; i++) value = [value];
  return { type: 'object', properties: {}, examples: value };
}

const zodOrder = z.object({
  orderId: z.string().min(1),
  items: z.array(z.object({ sku: z.string(), quantity: z.number().int().positive(), note: z.string().optional() })),
  shipping: z.object({ line1: z.string(), city: z.string(), postcode: z.string().optional() }).optional(),
  priority: z.enum(['low', 'normal', 'urgent']).optional(),
  giftWrap: z.boolean().nullable(),
});
const zodTree = z.object({ name: z.string(), get children() { return z.array(zodTree); } });
const zodUnion = z.object({ target: z.union([z.string(), z.number()]), mode: z.literal('fast').optional() });
const zodDiscriminated = z.object({
  event: z.discriminatedUnion('kind', [z.object({ kind: z.literal('click'), x: z.number(), y: z.number() }), z.object({ kind: z.literal('key'), key: z.string() })]),
});
const zodRecord = z.object({ labels: z.record(z.string(), z.string()) });
const zodDefaults = z.object({ limit: z.number().default(10), cursor: z.string().nullable().optional() });

const valibotSearch = v.object({
  query: v.pipe(v.string(), v.minLength(1)),
  limit: v.optional(v.number(), 10),
  filters: v.optional(v.object({ language: v.optional(v.picklist(['en', 'ko', 'ja'])), since: v.optional(v.string()) })),
});
const valibotTuple = v.object({ point: v.tuple([v.number(), v.number()]) });

const arkUser = type({ name: 'string', 'email?': 'string', age: 'number.integer >= 0', tags: 'string[]' });
const arkChoice = type({ choice: "'yes' | 'no'", 'reason?': 'string' });

const std = (schema) => schema['~standard'].jsonSchema.input({ target: 'draft-2020-12' });

export const corpus = [
  // --- realistic tool schemas ---
  { name: 'crud: create user', schema: obj({ name: { type: 'string' }, email: { type: 'string', format: 'email' }, role: { enum: ['admin', 'member'] } }, ['name', 'email']) },
  { name: 'crud: update user', schema: obj({ id: { type: 'string' }, patch: obj({ name: { type: 'string' }, email: { type: 'string' } }, []) }, ['id', 'patch']) },
  { name: 'crud: delete', schema: obj({ id: { type: 'string', description: 'Record id' } }) },
  { name: 'crud: list with paging', schema: obj({ cursor: { type: 'string' }, limit: { type: 'integer', minimum: 1, maximum: 100, default: 20 } }, []) },
  { name: 'weather', schema: obj({ city: { type: 'string' }, unit: { type: 'string', enum: ['c', 'f'], description: 'Temperature unit' } }, ['city']) },
  { name: 'search web', schema: obj({ query: { type: 'string' }, site: { type: ['string', 'null'] }, recency_days: { type: 'number' } }, ['query']) },
  { name: 'send email', schema: obj({ to: { type: 'array', items: { type: 'string' } }, cc: { type: 'array', items: { type: 'string' } }, subject: { type: 'string' }, body: { type: 'string' } }, ['to', 'subject', 'body']) },
  { name: 'calendar event', schema: obj({ title: { type: 'string' }, start: { type: 'string', format: 'date-time' }, end: { type: 'string', format: 'date-time' }, attendees: { type: 'array', items: obj({ email: { type: 'string' }, optional: { type: 'boolean' } }, ['email']) } }, ['title', 'start']) },
  { name: 'sql query', schema: obj({ sql: { type: 'string' }, params: { type: 'array', items: { type: ['string', 'number', 'boolean', 'null'] } } }, ['sql']) },
  { name: 'file patch', schema: obj({ path: { type: 'string' }, find: { type: 'string' }, replace: { type: 'string' }, dryRun: { type: 'boolean', default: null } }, ['path', 'find', 'replace']) },
  { name: 'shell command', schema: obj({ command: { type: 'array', items: { type: 'string' }, minItems: 1 }, timeoutMs: { type: 'integer' }, env: { type: 'object', properties: { PATH: { type: 'string' } }, additionalProperties: false } }, ['command']) },
  { name: 'nested order', schema: obj({ order: obj({ id: { type: 'string' }, lines: { type: 'array', items: obj({ sku: { type: 'string' }, qty: { type: 'integer' }, discount: obj({ code: { type: 'string' }, percent: { type: 'number' } }, ['code']) }, ['sku', 'qty']) }, customer: obj({ id: { type: 'string' }, vip: { type: 'boolean' } }, ['id']) }, ['id', 'lines']) }) },
  { name: 'agent output: resolution', schema: obj({ orderId: { type: 'string' }, message: { type: 'string' }, followUp: { type: 'string', description: 'Next step, if any' } }, ['orderId', 'message']) },
  { name: 'metadata kept', schema: { title: 'Thing', description: 'A thing', $schema: 'https://json-schema.org/draft/2020-12/schema', ...obj({ a: { type: 'string', title: 'A', examples: ['x'], deprecated: true, readOnly: true } }, []) } },
  { name: 'const and enum with null', schema: obj({ kind: { const: 'fixed' }, maybe: { enum: ['a', null] }, nothing: { const: null } }, []) },
  { name: 'boolean property schemas', schema: obj({ anything: true, never: false }, []) },
  { name: 'empty schema property', schema: obj({ free: {}, described: { description: 'anything at all' } }, []) },
  { name: 'type array with object', schema: { type: ['object', 'null'], properties: { a: { type: 'string' } }, required: [] } },
  { name: 'integer keys', schema: obj({ 1: { type: 'string' }, b: { type: 'string' }, 0: { type: 'number' } }, ['b']) },
  { name: 'required lists unknown key', schema: obj({ a: { type: 'string' } }, ['a', 'ghost']) },
  { name: 'string with properties', schema: obj({ s: { type: 'string', properties: { x: { type: 'string' } } } }, []) },
  { name: 'tuple items', schema: obj({ pair: { type: 'array', items: [{ type: 'string' }, obj({ n: { type: 'number' } }, [])] } }) },
  { name: 'items schema with optional', schema: obj({ rows: { type: 'array', items: obj({ a: { type: 'string' }, b: { type: 'string' } }, ['a']) } }) },
  { name: 'additionalProperties schema replaced', schema: obj({ a: { type: 'string' } }, ['a'], { additionalProperties: { type: 'number' } }) },
  { name: 'additionalProperties true replaced', schema: obj({ a: { type: 'string' } }, ['a'], { additionalProperties: true }) },
  { name: 'boolean root', schema: true },
  { name: 'non-object root type', schema: { type: 'string', minLength: 2 } },
  { name: 'root $id allowed', schema: { $id: 'https://example.com/tool', ...obj({ a: { type: 'string' } }) } },
  // --- $ref / $defs ---
  { name: '$defs optional ref', schema: { ...obj({ r: { $ref: '#/$defs/reference' } }, []), $defs: { reference: { type: 'string' } } } },
  { name: 'definitions (draft 7)', schema: { ...obj({ r: { $ref: '#/definitions/address' } }), definitions: { address: obj({ street: { type: 'string' }, zip: { type: 'string' } }, ['street']) } } },
  { name: 'ref to property (hoisted)', schema: obj({ a: { type: 'string' }, b: { $ref: '#/properties/a' } }, ['b']) },
  { name: 'ref to additionalProperties (hoisted)', schema: obj({ x: { $ref: '#/additionalProperties' } }, ['x'], { additionalProperties: obj({ z: { type: 'string' } }) }) },
  { name: 'ref into string properties (hoisted)', schema: obj({ s: { type: 'string', properties: { inner: obj({ q: { type: 'string' } }, []) } }, t: { $ref: '#/properties/s/properties/inner' } }) },
  { name: 'existing __openai_strict_ref_0', schema: { ...obj({ a: { type: 'string' }, b: { $ref: '#/properties/a' } }, ['b']), $defs: { __openai_strict_ref_0: { type: 'number' } } } },
  { name: 'ref metadata siblings allowed', schema: { ...obj({ r: { $ref: '#/$defs/x', description: 'see x', title: 'X', default: 'a', examples: ['b'] } }), $defs: { x: { type: 'string' } } } },
  { name: 'uri-encoded ref', schema: { ...obj({ g: { $ref: '#%2F$defs%2Fgroup' } }), $defs: { group: { type: 'string' } } } },
  { name: 'escaped pointer tokens', schema: { ...obj({ g: { $ref: '#/$defs/a~1b~0c' } }), $defs: { 'a/b~c': { type: 'integer' } } } },
  { name: 'ref to false', schema: { ...obj({ f: { $ref: '#/$defs/no' } }, []), $defs: { no: false } } },
  { name: 'shared properties contextual', schema: { ...obj({ requiredOwner: { $ref: '#/$defs/req' }, optionalOwner: obj({ value: { type: 'string' } }, []) }), $defs: { req: obj({ value: { type: 'string' } }) } } },
  { name: 'anyOf nullable union', schema: obj({ v: { anyOf: [{ type: 'string' }, { type: 'null' }] }, w: { anyOf: [{ type: 'string' }, { type: 'number' }], description: 'either' } }, []) },
  { name: 'anyOf object branches required', schema: obj({ shape: { anyOf: [obj({ r: { type: 'number' } }), obj({ w: { type: 'number' }, h: { type: 'number' } })] } }) },
  { name: 'anyOf optional branch (prepare refuses)', schema: obj({ shape: { anyOf: [obj({ r: { type: 'number' }, label: { type: 'string' } }, ['r']), { type: 'string' }] } }) },
  { name: 'anyOf non-object branch properties ok', schema: obj({ a: { anyOf: [{ type: 'string', properties: { x: { type: 'string' } } }, { type: 'null' }] } }) },
  // --- recursion ---
  { name: 'recursive tree', schema: obj({ name: { type: 'string' }, children: { type: 'array', items: { $ref: '#' } } }) },
  { name: 'recursive via $defs', schema: { ...obj({ root: { $ref: '#/$defs/node' } }), $defs: { node: obj({ value: { type: 'number' }, next: { $ref: '#/$defs/node' } }, ['value']) } } },
  { name: 'mutual recursion', schema: { ...obj({ a: { $ref: '#/$defs/A' } }), $defs: { A: obj({ b: { $ref: '#/$defs/B' } }, []), B: obj({ a: { $ref: '#/$defs/A' } }, []) } } },
  { name: 'linked list optional next', schema: { $ref: '#/$defs/list', $defs: { list: obj({ head: { type: 'number' }, tail: { $ref: '#/$defs/list' } }, ['head']) } } },
  // --- library generated ---
  { name: 'zod: order', schema: z.toJSONSchema(zodOrder) },
  { name: 'zod: recursive tree', schema: z.toJSONSchema(zodTree) },
  { name: 'zod: union', schema: z.toJSONSchema(zodUnion) },
  { name: 'zod: discriminated union', schema: z.toJSONSchema(zodDiscriminated) },
  { name: 'zod: record', schema: z.toJSONSchema(zodRecord) },
  { name: 'zod: defaults (input)', schema: z.toJSONSchema(zodDefaults, { io: 'input' }) },
  { name: 'zod: standard input', schema: std(zodOrder) },
  { name: 'valibot: search', schema: valibotToJsonSchema(valibotSearch) },
  { name: 'valibot: tuple', schema: valibotToJsonSchema(valibotTuple) },
  { name: 'arktype: user', schema: arkUser.toJsonSchema() },
  { name: 'arktype: choice', schema: arkChoice.toJsonSchema() },
  // --- every rejection ---
  { name: 'reject: allOf', schema: obj({ a: { allOf: [{ type: 'string' }] } }) },
  { name: 'reject: oneOf', schema: obj({ a: { oneOf: [{ type: 'string' }, { type: 'number' }] } }) },
  { name: 'reject: if/then', schema: obj({ a: { if: { type: 'string' }, then: { minLength: 1 } } }) },
  { name: 'reject: not', schema: obj({ a: { not: { type: 'null' } } }) },
  { name: 'reject: patternProperties', schema: { type: 'object', patternProperties: { '^x': { type: 'string' } }, additionalProperties: false } },
  { name: 'reject: prefixItems', schema: obj({ p: { type: 'array', prefixItems: [{ type: 'string' }] } }) },
  { name: 'reject: unevaluatedProperties', schema: { ...obj({ a: { type: 'string' } }), unevaluatedProperties: false } },
  { name: 'reject: $dynamicRef', schema: obj({ a: { $dynamicRef: '#node' } }) },
  { name: 'reject: dependentRequired', schema: { ...obj({ a: { type: 'string' } }), dependentRequired: { a: ['b'] } } },
  { name: 'reject: keyword under string properties', schema: obj({ s: { type: 'string', properties: { x: { oneOf: [] } } } }) },
  { name: 'reject: keyword under additionalProperties', schema: { type: 'object', properties: {}, additionalProperties: { allOf: [] } } },
  { name: 'reject: keyword in $defs', schema: { ...obj({}), $defs: { unused: { contains: {} } } } },
  { name: 'reject: non-schema node', schema: obj({ a: 5 }) },
  { name: 'reject: null node', schema: obj({ a: null }) },
  { name: 'reject: nested $id', schema: obj({ a: { $id: 'https://example.com/a', type: 'string' } }) },
  { name: 'reject: non-string $ref', schema: obj({ a: { $ref: 5 } }) },
  { name: 'reject: unresolved $ref', schema: obj({ a: { $ref: '#/$defs/missing' } }) },
  { name: 'reject: external $ref', schema: obj({ a: { $ref: 'https://example.com/schema.json' } }) },
  { name: 'reject: pointer valid only after conversion', schema: obj({ a: { type: 'string' }, b: { $ref: '#/properties/a/anyOf/0' } }, []) },
  { name: 'reject: bad ~ escape', schema: { ...obj({ a: { $ref: '#/$defs/x~2' } }), $defs: { 'x~2': { type: 'string' } } } },
  { name: 'reject: empty anyOf', schema: obj({ a: { anyOf: [] } }) },
  { name: 'reject: anyOf not array', schema: obj({ a: { anyOf: { type: 'string' } } }) },
  { name: 'reject: $ref sibling', schema: { ...obj({ a: { $ref: '#/$defs/x', minLength: 1 } }), $defs: { x: { type: 'string' } } } },
  { name: 'reject: anyOf sibling', schema: obj({ a: { anyOf: [{ type: 'string' }], type: 'string' } }) },
  { name: 'reject: unknown nullability', schema: obj({ a: { type: 5 } }, []) },
  { name: 'reject: unknown nullability via anyOf', schema: obj({ a: { anyOf: [{ type: 'string' }, { type: 7 }] } }, []) },
  { name: 'reject: enum not array', schema: obj({ a: { enum: 'x' } }, []) },
  { name: 'reject: typeless open root', schema: { properties: { a: { type: 'string' } }, required: ['a'] } },
  { name: 'reject: typeless open nested', schema: obj({ o: { additionalProperties: true } }) },
  { name: 'reject: root $defs not object', schema: { ...obj({ a: { type: 'string' }, b: { $ref: '#/properties/a' } }, ['b']), $defs: [] } },
  { name: 'reject: non-schema root', schema: 5 },
  { name: 'reject: array root', schema: [] },
  // --- open objects (assert only) ---
  { name: 'open object nested', schema: obj({ meta: { type: 'object' } }) },
  { name: 'open object explicit', schema: { type: 'object', properties: { a: { type: 'string' } }, required: ['a'], additionalProperties: true } },
  // --- depth ---
  { name: 'depth: nested 99', schema: nested(99) },
  { name: 'depth: nested 100', schema: nested(100) },
  { name: 'depth: nested 101', schema: nested(101) },
  { name: 'depth: nested 1000', schema: nested(1000) },
  { name: 'depth: physical 99', schema: physical(99) },
  { name: 'depth: physical 100', schema: physical(100) },
  { name: 'depth: physical 101', schema: physical(101) },
  { name: 'depth: ref chain 98', schema: refChain(98, { type: 'string' }) },
  { name: 'depth: ref chain 99', schema: refChain(99, { type: 'string' }) },
  { name: 'depth: ref chain 98 to root', schema: refChain(98, { $ref: '#' }) },
  { name: 'depth: ref chain 99 to root', schema: refChain(99, { $ref: '#' }) },
  { name: 'depth: ref cycle 98', schema: refCycle(98) },
  { name: 'depth: ref cycle 99', schema: refCycle(99) },
  { name: 'depth: 100 defs to root', schema: { ...obj({}), $defs: Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`d${i}`, { $ref: '#' }])) } },
];

/** Standard Schemas for the bridge tests. */
export const standardSchemas = { zodOrder, zodTree, zodDefaults, valibotSearch, arkUser, arkChoice };
