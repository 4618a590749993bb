/**
 * Local validation (src/schema/validate.rs, src/schema/verdict.rs): `compileJsonSchema` and its
 * validator, which live in the second wasm module.
 */
import { describeValue, expectKnownOptions, expectString } from '../engine/args.js';
import type { ValidationIssue } from '../engine/engine-types.js';
import { EngineOwner, callValidator, encodeValue, validatorInputText } from '../engine/channel.js';
import { schemaText, type JsonSchema } from './argument.js';
import type { StandardSchemaWithJSON } from './standard.js';

type ValidatorHandle = import('../../wasm/node/understudy_validator.js').Validator;

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

class CompiledValidator extends EngineOwner<ValidatorHandle> implements JsonSchemaValidator {
  constructor(handle: ValidatorHandle) {
    super(handle, 'validator');
  }
  validate(value: unknown): ValidationResult {
    const handle = this.live();
    const text = encodeValue(value);
    return toResult(callValidator(() => handle.validateInput(validatorInputText(text))));
  }
  validateJson(text: string, options?: ValidateJsonOptions): ValidationResult {
    expectString('validateJson', 'text', text);
    const first = options !== undefined && firstIssueOnly(options);
    const handle = this.live();
    return toResult(callValidator(() => handle.validateJsonInput(validatorInputText(text), first)));
  }
  isValidJson(text: string): boolean {
    expectString('isValidJson', 'text', text);
    const handle = this.live();
    return callValidator(() => handle.checkJsonInput(validatorInputText(text)));
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
  return new CompiledValidator(callValidator((v) => v.compileSchema(validatorInputText(text), options)));
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

