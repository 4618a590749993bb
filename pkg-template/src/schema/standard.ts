/**
 * The Standard Schema bridge (src/schema/standard.rs): markers, JSON Schema conversion, the
 * synchronous `validate` call.
 */
import type { StandardSchemaIssue } from '../engine/errors.js';
import { bindings, call } from '../engine/channel.js';
import { standardCall, takeStandardPayload } from '../engine/standard-call.js';
import { StandardOutcome } from '../engine/codes.js';

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

