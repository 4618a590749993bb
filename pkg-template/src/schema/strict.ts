/**
 * Strict schemas (src/schema/strict.rs, src/schema/provider/): the strict conversion for OpenAI and the provider profiles for Anthropic and Gemini, the
 * prepared schema's `normalizeInput`, null stripping.
 */
import type { SchemaChange } from '../engine/engine-types.js';
import type { SchemaProviderName } from '../engine/codes.js';
import { call, decode, encodeSchema, encodeValue, input, inputPair } from '../engine/channel.js';
import { schemaText, type JsonSchema } from './argument.js';
import type { StandardSchemaWithJSON } from './standard.js';
import { expectKnownOptions } from '../engine/args.js';
import { compileJsonSchema, type JsonSchemaValidator } from './validate.js';
import { fromEngine } from '../engine/errors.js';

type PreparedHandle = import('../../wasm/node/understudy.js').PreparedSchema;

/** What {@link prepareStrictJsonSchema} returns. */
export interface PreparedStrictJsonSchema<T> {
  /** The strict schema, as structured-output models accept it. */
  schema: T;
  /**
   * Maps a value produced under the strict schema back to the caller's shape: the `null` of an
   * optional property that strict mode made required becomes an absent key. With a `provider`
   * other than OpenAI it checks the value against the original schema instead (the constraints
   * moved into descriptions still hold) and returns it, or throws
   * `ProviderOutputValidationError`. Never mutates `value`.
   */
  normalizeInput: (value: unknown) => unknown;
  /** With a `provider` other than OpenAI: every change the conversion made. */
  changes?: SchemaChange[];
}

/** Options of {@link toStrictJsonSchema} and {@link prepareStrictJsonSchema}. Unknown keys are refused. */
export interface StrictSchemaOptions {
  /**
   * Whose rules the schema follows: `'openai'` (default: strict mode, exactly as
   * `@openai/agents`), `'anthropic'` (structured outputs and strict tools) or `'gemini'`
   * (`responseSchema` and function `parameters`, the OpenAPI 3.0 subset).
   */
  provider?: SchemaProviderName;
  /**
   * A property name under which a root the provider refuses as a root is sent: Anthropic takes
   * only an object root, so `wrapRoot: 'value'` sends a string enum, an array or a union as
   * `{ type: 'object', properties: { value: … }, required: ['value'], additionalProperties: false }`
   * (listed in `changes` as `wrapped`), and `prepareStrictJsonSchema(…).normalizeInput` checks
   * an answer `{ value: … }` and returns the value. An object root is never wrapped, nor any root
   * for Gemini, which takes every root. Not for OpenAI, whose conversion is the reference's.
   */
  wrapRoot?: string;
}

/** A JSON Schema object as a conversion returns it: its members are yours to read. */
export type JsonSchemaObject = { [key: string]: any };

/**
 * The strict copy of a JSON Schema. For OpenAI (the default) strict mode: optional properties
 * become required and nullable, objects get `additionalProperties: false`, local `$ref`s are
 * kept stable; same output and messages as `toOpenAIStrictToolSchema` of `@openai/agents-core`.
 * With `{ provider: 'anthropic' | 'gemini' }`, what that provider accepts: rewrites that lose
 * nothing are made, constraints it refuses move into `description` (check answers with
 * `prepareStrictJsonSchema(…).normalizeInput`), what it cannot express is refused. The input
 * is never mutated. `schema` may also be a Standard Schema with JSON (Zod 4, Valibot with its
 * adapter, ArkType): its input JSON Schema is converted, for every provider.
 *
 * @throws {StrictSchemaError} a construct the provider cannot represent (`reason`, `pointer`; the message names the provider).
 * @throws {SchemaDepthError} nesting deeper than 100 levels, or a cyclic object.
 * @throws {UnsupportedStandardSchemaError} a Standard Schema without JSON Schema conversion (never read as JSON Schema).
 * @throws {UserError} an unknown provider.
 */
export function toStrictJsonSchema<T extends JsonSchema>(schema: T, options?: StrictSchemaOptions): T;
export function toStrictJsonSchema(schema: StandardSchemaWithJSON, options?: StrictSchemaOptions): JsonSchemaObject;
export function toStrictJsonSchema(schema: JsonSchema | StandardSchemaWithJSON, options?: StrictSchemaOptions): unknown {
  if (options === undefined) {
    const text = schemaText(schema);
    return decode(call((e) => e.strictConvert(input(text))));
  }
  const { provider = 'openai', wrapRoot } = expectKnownOptions('toStrictJsonSchema', options, ['provider', 'wrapRoot']);
  const text = schemaText(schema);
  return JSON.parse(call((e) => e.providerConvert(input(text), provider, false, wrapRoot, undefined)));
}

/** @internal A tool's schema converted for `provider`, as {@link toStrictJsonSchema} does; a refusal names the tool (`toolName`, and in its message). */
export function toolSchemaFor(schema: JsonSchema | StandardSchemaWithJSON, provider: SchemaProviderName, toolName: string): unknown {
  const text = schemaText(schema);
  return JSON.parse(call((e) => e.providerConvert(input(text), provider, false, undefined, toolName)));
}

const releasePrepared = new FinalizationRegistry<PreparedHandle>((handle) => handle.free());

/**
 * Like {@link toStrictJsonSchema}, with the stricter checks of `prepareOpenAIStrictToolSchema`
 * (an `anyOf` branch that would need null stripping is refused) and a `normalizeInput` that
 * maps synthetic `null`s back to absent keys. With a provider other than OpenAI,
 * `normalizeInput` validates a value against the original schema (with `compileJsonSchema`,
 * so in a browser after `init({ validator: true })`), and `changes` lists the conversion.
 * `schema` may be a Standard Schema with JSON, as for {@link toStrictJsonSchema}.
 *
 * @throws {UnsupportedStandardSchemaError} a Standard Schema without JSON Schema conversion.
 */
export function prepareStrictJsonSchema<T extends JsonSchema>(schema: T, options?: StrictSchemaOptions): PreparedStrictJsonSchema<T>;
export function prepareStrictJsonSchema(schema: StandardSchemaWithJSON, options?: StrictSchemaOptions): PreparedStrictJsonSchema<JsonSchemaObject>;
export function prepareStrictJsonSchema<T>(given: JsonSchema | StandardSchemaWithJSON, options?: StrictSchemaOptions): PreparedStrictJsonSchema<T> {
  const { provider = 'openai', wrapRoot } = expectKnownOptions('prepareStrictJsonSchema', options, ['provider', 'wrapRoot']);
  const text = schemaText(given);
  if (!call((e) => e.providerIsOpenAi(provider, 'prepareStrictJsonSchema', wrapRoot))) {
    const converted: ProviderConversion = JSON.parse(call((e) => e.providerConvert(input(text), provider, true, wrapRoot, undefined)));
    const { unwrap } = converted;
    const restore = converted.restore === undefined ? undefined : JSON.stringify(converted.restore);
    let validator: JsonSchemaValidator | undefined;
    const normalizeInput = (value: unknown): unknown => {
      validator ??= unwrap === undefined ? compileJsonSchema(given) : compileJsonSchema(unwrap.schema, { resources: { [unwrap.resource]: JSON.parse(text) } });
      const { valid: asGiven, issues } = validator.validate(value);
      let valid = asGiven;
      if (!valid && restore !== undefined) {
        // Gemini's enum texts read back as numbers, for an answer that fails as given.
        const restored = decode(call((e) => e.providerRestoreNumbers(input(`[${restore},${encodeValue(value)}]`))));
        if (validator.validate(restored).valid) [value, valid] = [restored, true];
      }
      if (!valid) throw fromEngine(call((e) => e.providerOutputError(provider, issues)));
      return unwrap === undefined ? value : (value as Record<string, unknown>)[unwrap.property];
    };
    return { schema: converted.schema as T, normalizeInput, changes: converted.changes };
  }
  const strict = decode(call((e) => e.strictPrepareSchema(input(text)))) as T;
  // The engine keeps a prepared schema for normalizeInput only once it is first called: many
  // prepared schemas (agent output types, say) are never normalized, and a handle that waits
  // for the garbage collector costs memory meanwhile.
  let handle: PreparedHandle | undefined;
  const normalizeInput = (value: unknown): unknown => {
    if (handle === undefined) {
      handle = call((e) => e.strictPrepare(input(text)));
      releasePrepared.register(normalizeInput, handle);
    }
    const encoded = encodeValue(value);
    const live = handle;
    return decode(call(() => live.normalizeInput(input(encoded))));
  };
  return { schema: strict, normalizeInput };
}

/** A provider conversion as the engine answers it; `unwrap` with a wrapped root (`wrapRoot`). */
interface ProviderConversion {
  schema: unknown;
  changes: SchemaChange[];
  unwrap?: { property: string; schema: JsonSchemaObject; resource: string };
  restore?: unknown[];
}

/**
 * `prepareStrictJsonSchema(schema).normalizeInput(value)` in one call. `schema` may also be a
 * Standard Schema with JSON (a Zod 4 schema, Valibot with its adapter, ArkType): then, as the
 * reference's `stripStrictNullsForZodSchema`, a `null` for an optional property that does not
 * accept `null` is removed wherever it stands (objects, arrays, tuples, records, the union
 * branch that accepts the result), without a strict conversion of the schema. A `schema` that
 * is not an object returns `value` untouched.
 *
 * @throws {UnsupportedStandardSchemaError} a Standard Schema without JSON Schema conversion.
 */
export function stripStrictNulls(schema: unknown, value: unknown): unknown {
  const stripping = call((e) => e.nullStrippingSchema(schema)) as [unknown, boolean] | null;
  if (stripping === null) return value;
  const [jsonSchema, standard] = stripping;
  const schemaText = encodeSchema(jsonSchema);
  const valueText = encodeValue(value);
  const text = call((e) => e.strictStripNulls(...inputPair(schemaText, valueText), standard));
  // A Standard Schema's stripped tuple position is `undefined`, written as its tag.
  return text !== undefined && text.includes(UNDEFINED_TAG) ? reviveUndefined(JSON.parse(text)) : decode(text);
}

/** The tagged encoding's `undefined` (src/schema/json.rs), as JSON text. */
const UNDEFINED_TAG = '{"\\u0000understudy":"undefined"}';

/** Replaces the tagged encoding's `undefined` objects in a decoded value by `undefined`. */
function reviveUndefined(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (!Array.isArray(value) && Object.keys(value).length === 1 && (value as Record<string, unknown>)['\u0000understudy'] === 'undefined') return undefined;
  if (Array.isArray(value)) return value.map(reviveUndefined);
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, reviveUndefined(v)]));
}

/**
 * The extra check MCP tools get: refuses open objects whose accepted values strict mode
 * would change (`assertOpenAIStrictToolSchemaPreservesOpenObjects`).
 *
 * @throws {StrictSchemaError} with `reason: 'open_object'` and the pointer of the object.
 */
export function assertStrictSchemaPreservesOpenObjects(schema: JsonSchema | StandardSchemaWithJSON): void {
  const text = schemaText(schema);
  call((e) => e.strictAssertOpenObjects(input(text)));
}
