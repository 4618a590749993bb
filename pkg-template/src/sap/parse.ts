/**
 * Schema-aligned parsing (src/sap/): `parseStructured`, `parsePartial` and the parser bound to
 * one schema.
 */
import type { ParseFixKind } from '../engine/codes.js';
import type { ParseFix } from '../engine/engine-types.js';
import type { StandardSchemaWithJSON } from '../schema/standard.js';
import type { JsonSchema } from '../schema/argument.js';
import { expectString } from '../engine/args.js';
import { EngineOwner, call, input } from '../engine/channel.js';

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

type ParserHandle = import('../../wasm/node/understudy.js').StructuredParser;

/** A parser bound to one schema (see {@link compileStructuredParser}). */
export interface StructuredParser<T = unknown> extends Disposable {
  /** {@link parseStructured} of `text` against the bound schema. */
  parse(text: string, options?: ParseOptions): StructuredResult<T>;
  /** {@link parsePartial} of a prefix against the bound schema. */
  partial(text: string, options?: PartialOptions): PartialResult<T>;
  /** Releases the engine's memory now. Further calls throw. */
  free(): void;
}

/** @internal A parser bound to one schema, owning its engine object. */
export class BoundParser<T> extends EngineOwner<ParserHandle> implements StructuredParser<T> {
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
  /**
   * @internal {@link partial} with where the value's candidate starts in the text (a byte
   * offset, `undefined` with no value): what `partialOutput` tells a new candidate by.
   */
  partialReading(text: string, options?: PartialOptions): PartialResult<T> & { candidateStart?: number } {
    const handle = this.live();
    return JSON.parse(call(() => handle.partialInput(input(text), options)));
  }
  /** @internal The engine object, for {@link RepairPolicy}. */
  engineHandle(): ParserHandle {
    return this.live();
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

