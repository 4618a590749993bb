/// <reference lib="esnext.disposable" preserve="true" />
/**
 * The public API over the engine. Every function here adapts: it encodes values for the
 * engine, calls it, decodes the answer and throws the engine's error as its class. Rules and
 * messages live in the Rust engine.
 */
import { describeValue, expectKnownOptions, expectString } from './args.js';
import type { CutInside, ParseFixKind, RepairRefusalReason, SchemaProvider } from './codes.js';
import { StandardOutcome } from './codes.js';

export type { ParseFixKind } from './codes.js';
export type { ParseFix, RepairFix, RequestLimitBreach, SchemaChange, ValidationIssue } from './engine-types.js';
import type { ParseFix, RepairFix, RequestLimitBreach, SchemaChange, ValidationIssue } from './engine-types.js';
import { engineErrorObject, fromEngine, UserError } from './errors.js';
import { textCodec } from './host.js';
import { PatternTable, checkPatterns, findSecret, issueTexts, redactTexts, snapshotValue, standardCall, takeStandardPayload } from './walks.js';
import type { StandardSchemaIssue } from './errors.js';

/** @internal The wasm bindings' module type. */
export type Bindings = typeof import('../wasm/node/understudy.js');
type PreparedHandle = import('../wasm/node/understudy.js').PreparedSchema;
/** @internal The validator module's bindings (`compileJsonSchema`), a second wasm module. */
export type ValidatorBindings = typeof import('../wasm/node/understudy_validator.js');
type ValidatorHandle = import('../wasm/node/understudy_validator.js').Validator;

let engine: Bindings | undefined;
let engineInput: InputChannel;
let validatorEngine: ValidatorBindings | undefined;
let validatorInput: InputChannel;
let loadValidator: (() => unknown) | undefined;

/** @internal Installs the loaded wasm bindings (the Node entry does it at import time). */
export function installEngine(bindings: unknown): void {
  engine = bindings as Bindings;
  engineInput = new InputChannel(engine);
  engine.installErrorMaker(engineErrorObject);
  engine.installWalks(standardCall, takeStandardPayload, issueTextsInput, snapshotValue, checkPatterns, redactTexts, findSecret);
}

/** @internal Installs the loaded validator module (browsers: `init({ validator: true })`). */
export function installValidator(bindings: unknown): void {
  validatorEngine = bindings as ValidatorBindings;
  validatorInput = new InputChannel(validatorEngine);
  validatorEngine.installErrorMaker(engineErrorObject);
  validatorEngine.installPatterns(new PatternTable(validatorEngine.engineMemory() as WebAssembly.Memory));
}

/**
 * @internal How the validator module loads synchronously on first use (Node: `require` of its
 * glue). Without one, {@link compileJsonSchema} asks for `init({ validator: true })`.
 */
export function installValidatorLoader(load: () => unknown): void {
  loadValidator = load;
}

function validator(): ValidatorBindings {
  if (validatorEngine === undefined) {
    if (loadValidator === undefined) {
      throw new UserError('compileJsonSchema needs the validator module, which is not loaded: in a browser, `await init({ validator: true })` first.');
    }
    installValidator(loadValidator());
  }
  return validatorEngine!;
}

/** Calls the validator module, turning its error objects into their classes. */
function callValidator<T>(run: (v: ValidatorBindings) => T): T {
  const v = validator();
  try {
    return run(v);
  } catch (thrown) {
    throw fromEngine(thrown);
  }
}


function bindings(): Bindings {
  if (engine === undefined) {
    throw new UserError('understudy is not initialized: in a browser, `await init()` before calling it.');
  }
  return engine;
}

/** @internal Calls the engine, turning its error objects into their classes. */
export function call<T>(run: (e: Bindings) => T): T {
  const e = bindings();
  try {
    return run(e);
  } catch (thrown) {
    throw fromEngine(thrown);
  }
}

// --- values across the boundary ---------------------------------------------------------------

const encoder = new (textCodec('TextEncoder'))();

/** What a wasm module offers for its input buffer (both modules have one). */
interface InputBuffered {
  inputBuffer(capacity: number): number;
  engineMemory(): unknown;
}

/**
 * A module's input buffer in its linear memory: the engine reads texts there. The facade writes
 * a text as UTF-8 with `TextEncoder.encodeInto` and passes only its length in bytes, a fixed few
 * tens of nanoseconds, where passing a string makes the bindings copy it character by character
 * (measured in bench/: 0.09 µs for 34 characters, 1.2 µs for 512).
 */
class InputChannel {
  /** A view of the buffer (empty once the memory grows). */
  #view = new Uint8Array(0);
  readonly #module: InputBuffered;
  constructor(module: InputBuffered) {
    this.#module = module;
  }

  /** Writes `text` into the buffer; returns its length in bytes. */
  write(text: string): number {
    this.#reserve(text.length * 3);
    return encoder.encodeInto(text, this.#view).written;
  }

  /** Writes two texts one after the other; returns their lengths in bytes. */
  pair(first: string, second: string): [number, number] {
    this.#reserve((first.length + second.length) * 3);
    const a = encoder.encodeInto(first, this.#view).written;
    return [a, encoder.encodeInto(second, this.#view.subarray(a)).written];
  }

  /**
   * Makes the view at least `bytes` long (and live). While the buffer is large (grown for a
   * large text) every call asks the engine again, which gives the room back once texts are
   * smaller.
   */
  #reserve(bytes: number): void {
    if (this.#view.byteLength < bytes || this.#view.byteLength > 1 << 20) {
      const capacity = Math.max(bytes, 1 << 12);
      // Growing the buffer may grow the memory, which detaches earlier views of it: the
      // address first, then the view.
      const address = this.#module.inputBuffer(capacity);
      this.#view = new Uint8Array((this.#module.engineMemory() as WebAssembly.Memory).buffer, address, capacity);
    }
  }
}

/** @internal Writes `text` into the engine's input buffer; returns its length in bytes. */
export function input(text: string): number {
  return engineInput.write(text);
}

/** The texts of a Standard Schema's issues (walks.ts `issueTexts`), written into the input buffer. */
function issueTextsInput(issues: unknown): number {
  return input(issueTexts(issues));
}

/** Writes two texts one after the other into the input buffer; returns their lengths in bytes. */
function inputPair(first: string, second: string): [number, number] {
  return engineInput.pair(first, second);
}

const TAG = '\u0000understudy';
const tags = {
  undefined: { [TAG]: 'undefined' },
  function: { [TAG]: 'function' },
  symbol: { [TAG]: 'symbol' },
  bigint: { [TAG]: 'bigint' },
  number: { [TAG]: 'non-finite number' },
} as const;

/** JSON.stringify, with the values JSON cannot carry tagged so the engine sees them. */
function tagNonJson(_key: string, value: unknown): unknown {
  switch (typeof value) {
    case 'undefined':
      return tags.undefined;
    case 'function':
      return tags.function;
    case 'symbol':
      return tags.symbol;
    case 'bigint':
      return tags.bigint;
    case 'number':
      return Number.isFinite(value) ? value : tags.number;
    default:
      return value;
  }
}

/**
 * Encodes a schema or value for the engine with `JSON.stringify`. Input it cannot walk (a cycle,
 * or nesting deeper than the host's stack) is reported with the engine's error for that kind of
 * input; an exception thrown by the caller's own code (a getter, `toJSON`) propagates unchanged.
 */
/**
 * @internal Whether `JSON.stringify` failed on the input's shape (a cycle, or nesting deeper
 * than the host's stack) rather than in the caller's own code (a getter, `toJSON`).
 */
export function isUnencodable(thrown: unknown): boolean {
  return thrown instanceof RangeError || (thrown instanceof TypeError && /circular/i.test(thrown.message));
}

function encode(input: unknown, unencodable: (e: Bindings) => unknown): string {
  try {
    return JSON.stringify(input, tagNonJson);
  } catch (thrown) {
    if (isUnencodable(thrown)) {
      throw fromEngine(unencodable(bindings()));
    }
    throw thrown;
  }
}

const encodeSchema = (schema: unknown): string => encode(schema, (e) => e.strictUnencodableError());
/** @internal A value as JSON text in the tagged encoding (what JSON cannot carry is tagged, never dropped). */
export const encodeValue = (value: unknown): string => encode(value, (e) => e.valueUnencodableError());

function decode(text: string | undefined): unknown {
  return text === undefined ? undefined : JSON.parse(text);
}

// --- strict schemas ---------------------------------------------------------------------------

/** A JSON Schema object (or boolean schema) as accepted by the strict-schema functions. */
export type JsonSchema = { readonly [key: string]: unknown } | boolean;

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
  provider?: SchemaProvider;
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

/**
 * @internal The JSON Schema a schema argument stands for (the engine's `jsonSchemaArg`): a
 * Standard Schema's input JSON Schema, `UnsupportedStandardSchemaError` for one without JSON,
 * anything else as given. Only objects and functions (ArkType's types) can be Standard
 * Schemas, so other values do not cross.
 */
export function jsonSchemaOf(schema: unknown): unknown {
  const text = standardText(schema);
  return text === undefined ? schema : JSON.parse(text);
}

/** A Standard Schema's JSON Schema as the engine's JSON text; `undefined` for any other value. */
function standardText(schema: unknown): string | undefined {
  if ((typeof schema !== 'object' || schema === null) && typeof schema !== 'function') return undefined;
  const answer = call((e) => e.jsonSchemaArg(schema));
  return typeof answer === 'string' ? answer : undefined;
}

/** The JSON text of a schema argument, in the tagged encoding (a Standard Schema's JSON Schema for one). */
function schemaText(schema: unknown): string {
  return standardText(schema) ?? encodeSchema(schema);
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
  return JSON.parse(call((e) => e.providerConvert(input(text), provider, false, wrapRoot)));
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
    const converted: ProviderConversion = JSON.parse(call((e) => e.providerConvert(input(text), provider, true, wrapRoot)));
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

/** A tool of a request, as {@link checkRequestLimits} reads it. */
export interface RequestTool {
  name: string;
  /** The parameters as sent (`parameters` of an `@openai/agents` function tool, `inputSchema` of the AI SDK's). */
  parameters?: unknown;
  inputSchema?: unknown;
}

/**
 * Checks a whole request against one provider's limits, over all its tools and its output
 * schema together: Anthropic's 20 strict tools, 24 optional parameters and 16 parameters with
 * unions; OpenAI's 5,000 properties, 10 levels of nesting, 120,000 characters of names and enum
 * values, 1,000 enum values. Returns every breach (empty: within the limits). A tool's
 * parameters and the output may be Standard Schemas with JSON.
 *
 * @throws {UnsupportedStandardSchemaError} a Standard Schema without JSON Schema conversion.
 * @throws {UserError} an unknown provider.
 */
export function checkRequestLimits(provider: SchemaProvider, request: { tools?: readonly RequestTool[]; output?: unknown }): RequestLimitBreach[] {
  return JSON.parse(call((e) => e.providerRequestCheck(input(requestText(request)), provider, false)));
}

/** @internal A request's tools and output schema as the engine's limit check reads them (a Standard Schema as its JSON Schema). */
export function requestText(request: { tools?: readonly RequestTool[]; output?: unknown }): string {
  const tools = Array.isArray(request?.tools) ? request.tools.map((t) => ({ name: t?.name, parameters: jsonSchemaOf(t?.parameters ?? t?.inputSchema) })) : [];
  return encodeSchema({ tools, output: jsonSchemaOf(request?.output) });
}

/** @internal Refuses an unknown provider code (`UserError` naming the choices). */
export function checkProviderCode(provider: unknown, surface: string): void {
  call((e) => e.providerIsOpenAi(provider, surface, undefined));
}

/** @internal `strictTools` for a provider other than OpenAI: each tool's parameters as sent, then the request's limits. */
export function checkProviderTools(provider: SchemaProvider, tools: readonly RequestTool[], output: unknown): void {
  // Each schema read once (a Standard Schema converted once), for its own check and the request's.
  const read = tools.map((tool) => ({ name: tool.name, parameters: jsonSchemaOf(tool.parameters) }));
  for (const tool of read) {
    const text = encodeSchema(tool.parameters);
    call((e) => e.providerToolCheck(input(text), tool.name, provider));
  }
  call((e) => e.providerRequestCheck(input(encodeSchema({ tools: read, output: jsonSchemaOf(output) })), provider, true));
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

// --- local validation -------------------------------------------------------------------------

/** Options of `validateJson`. Unknown options are refused with a `TypeError`. */
export interface ValidateJsonOptions {
  /**
   * `'all'` (the default): every issue. `'first'`: at most one, the first violation found,
   * with the same message, paths and keyword it has in the full list; much faster on invalid
   * text when one reason is all the caller reports.
   */
  issues?: 'all' | 'first';
}

const VALIDATE_JSON_OPTIONS = ['issues'] as const;

/** `validateJson`'s options, checked: whether only the first issue is wanted. */
function firstIssueOnly(options: ValidateJsonOptions): boolean {
  const { issues } = expectKnownOptions('validateJson', options, VALIDATE_JSON_OPTIONS);
  if (issues !== undefined && issues !== 'all' && issues !== 'first') {
    throw new TypeError(`validateJson: option \`issues\` must be 'all' or 'first', got ${typeof issues === 'string' ? JSON.stringify(issues) : describeValue(issues)}.`);
  }
  return issues === 'first';
}

/** The outcome of one validation. */
export interface ValidationResult {
  valid: boolean;
  issues: ValidationIssue[];
}

/** A compiled validator. Free it with `free()` or `using`; a forgotten one is freed by GC. */
export interface JsonSchemaValidator extends Disposable {
  /** Validates a JavaScript value (`undefined` members count as absent, as in JSON). */
  validate(value: unknown): ValidationResult;
  /**
   * Validates JSON text; malformed text is an issue with its position, not an exception.
   * `options.issues: 'first'` stops at the first violation (see {@link ValidateJsonOptions}).
   */
  validateJson(text: string, options?: ValidateJsonOptions): ValidationResult;
  /**
   * Whether JSON text is valid, without collecting an invalid text's issues: what a caller
   * that only branches on the verdict needs, several times faster on invalid texts.
   */
  isValidJson(text: string): boolean;
  /** Releases the engine's memory now. Further calls throw. */
  free(): void;
}

/**
 * The engine answers `undefined` for a valid value, else the issues' text: each issue's
 * message, instance path, schema path and keyword, each after a NUL, or the issues' JSON
 * (src/schema/validate.rs `Report::issues_text`).
 */
function toResult(out: string | undefined): ValidationResult {
  if (out === undefined) return { valid: true, issues: [] };
  if (out.charCodeAt(0) !== 0) return { valid: false, issues: JSON.parse(out) };
  const issues: ValidationIssue[] = [];
  let at = 1;
  while (at <= out.length) {
    const a = out.indexOf('\0', at);
    const b = out.indexOf('\0', a + 1);
    const c = out.indexOf('\0', b + 1);
    let d = out.indexOf('\0', c + 1);
    if (d === -1) d = out.length;
    issues.push({ message: out.slice(at, a), instancePath: out.slice(a + 1, b), schemaPath: out.slice(b + 1, c), keyword: out.slice(c + 1, d) });
    at = d + 1;
  }
  return { valid: false, issues };
}

/** Frees an engine object whose owner was collected without `free()`. */
const release = new FinalizationRegistry<{ free(): void }>((handle) => handle.free());

/**
 * Owns one engine object: freed by `free()`, `Symbol.dispose` or, once the owner is collected,
 * the finalizer. `what` names it in the error for use after `free()`.
 */
class EngineOwner<H extends { free(): void }> {
  #handle: H | undefined;
  readonly #what: string;
  constructor(handle: H, what: string) {
    this.#handle = handle;
    this.#what = what;
    release.register(this, handle, this);
  }
  /** The engine object; a `UserError` once freed. */
  protected live(): H {
    if (this.#handle === undefined) throw new UserError(`This ${this.#what} was freed.`);
    return this.#handle;
  }
  free(): void {
    if (this.#handle === undefined) return;
    release.unregister(this);
    this.#handle.free();
    this.#handle = undefined;
  }
  [Symbol.dispose](): void {
    this.free();
  }
}

class CompiledValidator extends EngineOwner<ValidatorHandle> implements JsonSchemaValidator {
  constructor(handle: ValidatorHandle) {
    super(handle, 'validator');
  }
  validate(value: unknown): ValidationResult {
    const handle = this.live();
    const text = encodeValue(value);
    return toResult(callValidator(() => handle.validateInput(validatorInput.write(text))));
  }
  validateJson(text: string, options?: ValidateJsonOptions): ValidationResult {
    expectString('validateJson', 'text', text);
    const first = options !== undefined && firstIssueOnly(options);
    const handle = this.live();
    return toResult(callValidator(() => handle.validateJsonInput(validatorInput.write(text), first)));
  }
  isValidJson(text: string): boolean {
    expectString('isValidJson', 'text', text);
    const handle = this.live();
    return callValidator(() => handle.checkJsonInput(validatorInput.write(text)));
  }
}

/**
 * Compiles a JSON Schema (draft 2020-12, or draft 7 by `$schema`) into a validator. `format`
 * asserts unless `options.formats` is `false` (see {@link CompileOptions}).
 *
 * The validator is a second wasm module, loaded on the first call: synchronously in Node; in a
 * browser by `await init({ validator: true })` beforehand (without it this throws a `UserError`
 * saying so). Everything else runs without it.
 *
 * `schema` may be a Standard Schema with JSON: its input JSON Schema is compiled.
 *
 * @throws {InvalidJsonSchemaError} a schema that is not a valid JSON Schema (`pointer`).
 * @throws {UnsupportedStandardSchemaError} a Standard Schema without JSON Schema conversion.
 */
export function compileJsonSchema(schema: JsonSchema | StandardSchemaWithJSON, options?: CompileOptions): JsonSchemaValidator {
  const text = schemaText(schema);
  return new CompiledValidator(callValidator((v) => v.compileSchema(validatorInput.write(text), options)));
}

/**
 * @internal `ScriptedModel`'s `strictTools`: throws `StrictSchemaError` (the message names the
 * tool; `pointer` is into its parameters) unless `parameters` are their own strict form, which
 * is what OpenAI strict mode accepts as sent.
 */
export function checkStrictTool(tool: string, parameters: unknown): void {
  const text = schemaText(parameters);
  call((e) => e.strictToolCheck(input(text), tool));
}

/** Options of {@link compileJsonSchema}. Unknown options are refused with a `UserError`. */
export interface CompileOptions {
  /**
   * Whether `format` asserts (default `true`, in every draft): the formats OpenAI strict mode
   * documents (`date-time`, `time`, `date`, `duration`, `email`, `hostname`, `ipv4`, `ipv6`,
   * `uuid`) and the others the engine knows (`uri`, `uri-reference`, `iri`, `json-pointer`,
   * `regex`, …; draft 7 has no `uuid` or `duration`). `idn-email` and `idn-hostname` pass
   * anything. An unknown format passes. `false` makes `format` an annotation again.
   */
  formats?: boolean;
  /**
   * The documents the schema's non-local `$ref`s name, by URI (a schema split across
   * documents: an MCP server's, OpenAPI components): `{ 'https://example.com/item.json': {…} }`.
   * A `$ref` to a URI not given is an `InvalidJsonSchemaError`; nothing is fetched.
   */
  resources?: Readonly<Record<string, JsonSchema>>;
}

// --- Standard Schema --------------------------------------------------------------------------

/** Options of a Standard JSON Schema converter. */
export interface StandardJsonSchemaOptions {
  readonly target: 'draft-2020-12' | 'draft-07' | 'openapi-3.0' | ({} & string);
  readonly libraryOptions?: Record<string, unknown> | undefined;
}

/** The result of a Standard Schema `validate`. */
export type StandardSchemaResult<Output> =
  | { readonly value: Output; readonly issues?: undefined }
  | { readonly issues: ReadonlyArray<StandardSchemaIssue> };

/** A Standard Schema (V1) that also converts itself to JSON Schema (Standard JSON Schema V1). */
export interface StandardSchemaWithJSON<Input = unknown, Output = Input> {
  readonly '~standard': {
    readonly version: 1;
    readonly vendor: string;
    readonly validate: (
      value: unknown,
    ) => StandardSchemaResult<Output> | Promise<StandardSchemaResult<Output>>;
    readonly types?: { readonly input: Input; readonly output: Output } | undefined;
    readonly jsonSchema: {
      readonly input: (options: StandardJsonSchemaOptions) => Record<string, unknown>;
      readonly output: (options: StandardJsonSchemaOptions) => Record<string, unknown>;
    };
  };
}

/** True for a non-null object or function that has a `~standard` property. */
export function hasStandardSchemaMarker(schema: unknown): boolean {
  return bindings().hasStandardSchemaMarker(schema);
}

/** True for a Standard Schema (version 1) with `validate` and both JSON Schema converters. */
export function isStandardSchemaWithJSON(schema: unknown): schema is StandardSchemaWithJSON {
  return bindings().isStandardSchemaWithJSON(schema);
}

/**
 * The JSON Schema (target `draft-2020-12`) of a Standard Schema's input or output.
 *
 * @throws {UserError} when the converter throws (its message is appended).
 */
export function standardSchemaToJsonSchema(
  schema: StandardSchemaWithJSON,
  io: 'input' | 'output',
): Record<string, unknown> {
  return call((e) => e.standardSchemaToJsonSchema(schema, io)) as Record<string, unknown>;
}

/**
 * Refuses a JSON Schema whose root is not `type: "object"`; `surface` names the place in the
 * message (`'Tool parameter'`, `'Agent output'`).
 *
 * @throws {UserError}
 */
export function assertStandardSchemaObjectRoot(jsonSchema: Record<string, unknown>, surface: string): void {
  call((e) => e.assertStandardSchemaObjectRoot(jsonSchema, surface));
}

/** The validated output type of a Standard Schema. */
export type StandardSchemaOutput<S> = S extends { readonly '~standard': { readonly types?: infer T } }
  ? NonNullable<T> extends { readonly output: infer O }
    ? O
    : unknown
  : unknown;

/**
 * Runs the schema's `~standard.validate(value)` once, synchronously, and returns its output
 * (defaults and transforms applied).
 *
 * @throws {StandardSchemaValidationError} the value has issues (`issues` holds them).
 * @throws {AsyncStandardSchemaValidationError} `validate` returned a Promise.
 */
export function validateStandardSchema<S extends StandardSchemaWithJSON>(schema: S, value: unknown): StandardSchemaOutput<S> {
  // The reference's own call, in JavaScript (a wrong schema gets its TypeError word for word);
  // only a result that is not a value crosses into the engine, which decides what it means.
  const kind = standardCall(schema, value);
  const payload = takeStandardPayload();
  if (kind === StandardOutcome.Value) return payload as StandardSchemaOutput<S>;
  return call((e) => e.standardSchemaOutcome(kind, payload)) as StandardSchemaOutput<S>;
}

// --- the IO carrier ---------------------------------------------------------------------------

/**
 * A schema carrier with static input and output types, shaped like Standard Schema so any
 * validator library that implements the spec fits where an `IO` is expected.
 */
export interface IO<In, Out = In> {
  readonly '~standard': {
    readonly version: 1;
    readonly vendor: string;
    readonly validate: (
      value: unknown,
    ) => { readonly value: Out } | { readonly issues: readonly { readonly message: string }[] };
    /** Phantom: never set at run time; `InferIn` / `InferOut` read the types from here. */
    readonly types?: { readonly input: In; readonly output: Out };
  };
}

/** The static input type of an {@link IO}. */
export type InferIn<S extends IO<any, any>> = NonNullable<S['~standard']['types']>['input'];
/** The static output type of an {@link IO}. */
export type InferOut<S extends IO<any, any>> = NonNullable<S['~standard']['types']>['output'];

/**
 * A minimal {@link IO}: static types only, and a `validate` that is an identity cast (it checks
 * nothing). Swap in a real validator (Zod, Valibot, ArkType) where values must be checked.
 */
export function io<Out, In = Out>(vendor = 'understudy'): IO<In, Out> {
  return {
    '~standard': {
      version: 1,
      vendor,
      validate: (value: unknown): { readonly value: Out } => ({ value: value as Out }),
    },
  };
}

// --- schema-aligned parsing ------------------------------------------------------------------


/** Options of {@link parseStructured}. Unknown options are refused with a `UserError`. */
export interface ParseOptions {
  /**
   * A reply that ends inside its value (cut by a token limit): `'close'` (default) closes it and
   * reports `closed_at_end`; `'error'` refuses it (`StructuredParseError`, reason `partial`).
   */
  truncated?: 'close' | 'error';
  /**
   * Accept only these repairs; a reading that needs another is refused (reason
   * `fix_not_allowed`, with the pointer of the repair). Omitted: every repair is accepted.
   */
  allowFixes?: readonly ParseFixKind[];
}

/** What {@link parseStructured} returns. */
export interface StructuredResult<T> {
  value: T;
  fixes: ParseFix[];
}

/** What {@link parsePartial} returns. */
export interface PartialResult<T> {
  /** What the prefix determines so far; `undefined` before any value has started. */
  value: DeepPartial<T> | undefined;
  /** The value is finished: the rest of the reply cannot change it. */
  complete: boolean;
  fixes: ParseFix[];
}

/** `T` with every property optional, recursively (a streamed value's shape). */
export type DeepPartial<T> = T extends readonly (infer U)[] ? DeepPartial<U>[] : T extends object ? { [K in keyof T]?: DeepPartial<T[K]> } : T;

type ParsedType<S> = S extends StandardSchemaWithJSON<any, infer O> ? O : unknown;

/**
 * Reads the value a model's reply holds — fenced, chatty, broken or truncated JSON — as a value
 * of `schema`: a JSON Schema, or a Standard Schema with JSON (its input JSON Schema guides the
 * reading and its `validate` runs last). Every repair is listed in `fixes`. `options` can refuse
 * truncated replies (`truncated: 'error'`) or limit the repairs accepted (`allowFixes`).
 *
 * @throws {StructuredParseError} no reading fits (`reason`, and every `candidates` refusal).
 * @throws {InvalidJsonSchemaError} a `type` that names no JSON type (`pointer`).
 * @throws {UserError} an unknown option or repair kind.
 * @throws {StandardSchemaValidationError} the Standard Schema refused the aligned value.
 */
export function parseStructured<S extends JsonSchema | StandardSchemaWithJSON>(text: string, schema: S, options?: ParseOptions): StructuredResult<ParsedType<S>> {
  expectString('parseStructured', 'text', text);
  return structuredAnswer(text, call((e) => e.parseStructuredInput(input(text), schema, options)));
}

/**
 * The engine's answer to a parse: `undefined` (the text is its own value), the object (a
 * Standard Schema's), JSON text of the object, or `\0kind\0pointer\0detail…\0<value JSON>`
 * (src/sap/mod.rs `Reading::into_answer_text`).
 */
function structuredAnswer<T>(text: string, out: unknown): StructuredResult<T> {
  // undefined: the engine found the reply to be its own value, with nothing to repair.
  if (out === undefined) return { value: JSON.parse(text), fixes: [] };
  if (typeof out !== 'string') return out as StructuredResult<T>;
  if (out.charCodeAt(0) !== 0) return JSON.parse(out);
  // Each field is read where it lies (`indexOf` and `slice`): `split` built an array and a
  // string per field first, a quarter of this function's time on a short reply. The value's
  // JSON text holds no NUL (JSON escapes control characters), so the last NUL precedes it.
  const fixes: ParseFix[] = [];
  let at = 1;
  for (let kindEnd = out.indexOf('\0', at); kindEnd !== -1; kindEnd = out.indexOf('\0', at)) {
    const pointerEnd = out.indexOf('\0', kindEnd + 1);
    const detailEnd = out.indexOf('\0', pointerEnd + 1);
    // The engine writes only the codes of `ParseFixKind` (src/sap/fixes.rs `FixKind`).
    fixes.push({ kind: out.slice(at, kindEnd) as ParseFixKind, pointer: out.slice(kindEnd + 1, pointerEnd), detail: out.slice(pointerEnd + 1, detailEnd) });
    at = detailEnd + 1;
  }
  return { value: JSON.parse(out.slice(at)), fixes };
}

/** Options of {@link parsePartial}. Unknown options are refused with a `UserError`. */
export interface PartialOptions {
  /**
   * Fields shown only once complete (an enum, an id, a URL): JSON Pointers into the value, where
   * a `*` segment matches any key or index (`/items/*​/id`). While such a field is the one being
   * written it is left out; it appears whole once the reply moves past it.
   */
  atomic?: readonly string[];
}

/**
 * Reads the value a prefix of a streamed reply determines so far: open containers closed,
 * unfinished strings kept as received, unfinished numbers, literals, keys and enum values left
 * out, and objects still open exempt from `required`. `options.atomic` withholds named fields
 * until they are complete. While a second value is being written after a complete one that fits
 * ("Draft: {…} Final: {…"), `value` is `undefined`: which one the reply means is known only at
 * its end, and partials never go back.
 *
 * @throws {StructuredParseError} what arrived already contradicts the schema.
 * @throws {UserError} an unknown option, or an `atomic` entry that is not a JSON Pointer.
 */
export function parsePartial<S extends JsonSchema | StandardSchemaWithJSON>(text: string, schema: S, options?: PartialOptions): PartialResult<ParsedType<S>> {
  expectString('parsePartial', 'text', text);
  const { value, complete, fixes } = JSON.parse(call((e) => e.parsePartialInput(input(text), schema, options)));
  return { value, complete, fixes };
}

type ParserHandle = import('../wasm/node/understudy.js').StructuredParser;

/** A parser bound to one schema (see {@link compileStructuredParser}). */
export interface StructuredParser<T = unknown> extends Disposable {
  /** {@link parseStructured} of `text` against the bound schema. */
  parse(text: string, options?: ParseOptions): StructuredResult<T>;
  /** {@link parsePartial} of a prefix against the bound schema. */
  partial(text: string, options?: PartialOptions): PartialResult<T>;
  /** Releases the engine's memory now. Further calls throw. */
  free(): void;
}

class BoundParser<T> extends EngineOwner<ParserHandle> implements StructuredParser<T> {
  constructor(handle: ParserHandle) {
    super(handle, 'parser');
  }
  parse(text: string, options?: ParseOptions): StructuredResult<T> {
    expectString('StructuredParser.parse', 'text', text);
    const handle = this.live();
    return structuredAnswer(text, call(() => handle.parseInput(input(text), options)));
  }
  partial(text: string, options?: PartialOptions): PartialResult<T> {
    expectString('StructuredParser.partial', 'text', text);
    const handle = this.live();
    const { value, complete, fixes } = JSON.parse(call(() => handle.partialInput(input(text), options)));
    return { value, complete, fixes };
  }
  /** @internal The engine object, for {@link RepairPolicy}. */
  engineHandle(): ParserHandle {
    return this.live();
  }
}

type RepairerHandle = import('../wasm/node/understudy.js').Repairer;

/**
 * @internal What a repairing wrapper does with a text (src/sap/repair.rs `decision_text`):
 * replace it (`text`, `fixes`) or leave it and say why (`refused`).
 */
export type RepairDecision =
  | { text: string; fixes: RepairFix[]; refused?: undefined }
  | { refused: RepairRefusalReason; pointer?: string; inside?: CutInside; message: string };

/**
 * @internal The engine's decisions for a repairing wrapper under its options: whether a text is
 * left, repaired, or refused because the reply was cut off.
 */
export class RepairPolicy extends EngineOwner<RepairerHandle> {
  /** Parsers by schema object: the SDKs hand the same schemas turn after turn. */
  readonly #parsers = new WeakMap<object, BoundParser<unknown>>();
  readonly #surface: string;
  constructor(surface: string, completeTruncated: unknown, allowFixes: unknown) {
    super(call((e) => new e.Repairer(surface, completeTruncated, allowFixes)), 'repair policy');
    this.#surface = surface;
  }
  /**
   * `undefined` to leave `text` as it is. `tool`: the tool whose arguments these are
   * (`undefined`: a final output); `status` / `reason`: what the response says of its end.
   */
  decide(schema: object, text: string, tool: string | undefined, status: string | undefined, reason: string | undefined, sent = 0): RepairDecision | undefined {
    const handle = this.#parser(schema).engineHandle();
    const answer = call(() => this.live().decideInput(handle, input(text), tool, status, reason, sent));
    return answer === undefined ? undefined : JSON.parse(answer);
  }
  /**
   * How much of a streamed JSON output `text` (UTF-16 code units) may be sent on now, `sent`
   * having been: a prefix that needs no repair, cut where the repaired value can continue it.
   */
  sendable(schema: object, text: string, sent: number): number {
    const handle = this.#parser(schema).engineHandle();
    return call(() => this.live().sendableInput(handle, input(text), sent));
  }
  #parser(schema: object): BoundParser<unknown> {
    let parser = this.#parsers.get(schema);
    if (parser === undefined) {
      parser = structuredParser(schema as JsonSchema, this.#surface) as BoundParser<unknown>;
      this.#parsers.set(schema, parser);
    }
    return parser;
  }
}

/**
 * A parser bound to `schema` (a JSON Schema, or a Standard Schema with JSON): the schema is read
 * once, so each `parse` / `partial` costs only the reply. Free it with `free()` or `using`; a
 * forgotten one is freed by the garbage collector. The schema is read when the parser is made:
 * changing it afterwards changes nothing.
 *
 * @throws {UserError} not a schema, or a cyclic one.
 * @throws {InvalidJsonSchemaError} a `type` that names no JSON type (`pointer`).
 * @throws {UnsupportedStandardSchemaError} a Standard Schema without JSON Schema conversion.
 */
export function compileStructuredParser<S extends JsonSchema | StandardSchemaWithJSON>(schema: S): StructuredParser<ParsedType<S>> {
  return structuredParser(schema, 'compileStructuredParser');
}

/** @internal {@link compileStructuredParser} for another public function (`surface` names it in messages). */
export function structuredParser<S extends JsonSchema | StandardSchemaWithJSON>(schema: S, surface: string): StructuredParser<ParsedType<S>> {
  return new BoundParser(call((e) => new e.StructuredParser(schema, surface)));
}

// --- diagnostics ------------------------------------------------------------------------------

/**
 * Bytes of WebAssembly memory the engine holds (both modules, once the validator is loaded). Wasm memory only grows, so a figure that stays
 * flat over many create/free cycles shows nothing leaks.
 */
export function engineMemoryBytes(): number {
  return bindings().engineMemoryBytes() + (validatorEngine?.engineMemoryBytes() ?? 0);
}

/**
 * How many engine objects are alive: compiled validators, prepared schemas, and the scripts and
 * cassettes behind the test doubles. Each is freed by `free()`, `Symbol.dispose`, or the garbage
 * collector's finalizer once its JavaScript owner is gone, so a figure that returns to where it
 * was shows that nothing is held.
 */
export function engineLiveHandles(): number {
  return bindings().engineLiveHandles() + (validatorEngine?.engineLiveHandles() ?? 0);
}
