// Generated from the engine's error classes (src/error.rs) by
// `UNDERSTUDY_WRITE_CODES=1 cargo test --lib codes`; a test fails when it is stale.
import { UserError, adopt } from './error-base.js';
import type { CassetteMismatchErrorFields, CassetteMissingErrorFields, InvalidCassetteErrorFields, InvalidJsonSchemaErrorFields, StrictSchemaErrorFields, StructuredParseErrorFields } from './engine-types.js';

export interface StrictSchemaError extends Readonly<StrictSchemaErrorFields> {}
/**
 * A schema strict mode refuses. The message is the reference's; the fields say where and
 * why.
 */
export class StrictSchemaError extends UserError {
  constructor(message: string, fields: StrictSchemaErrorFields) {
    super(message);
    adopt(this, new.target.name, fields);
  }
}

/**
 * A schema nested deeper than 100 levels (physically, or logically through `$ref`), or
 * cyclic.
 */
export class SchemaDepthError extends StrictSchemaError {}

export interface InvalidJsonSchemaError extends Readonly<InvalidJsonSchemaErrorFields> {}
/**
 * A JSON Schema that cannot be compiled for validation.
 */
export class InvalidJsonSchemaError extends UserError {
  constructor(message: string, fields: InvalidJsonSchemaErrorFields) {
    super(message);
    adopt(this, new.target.name, fields);
  }
}

/**
 * A Standard Schema value without both `~standard.validate` and `~standard.jsonSchema`.
 */
export class UnsupportedStandardSchemaError extends UserError {}

/**
 * A Standard Schema whose `validate` returned a Promise (async validation is not
 * supported).
 */
export class AsyncStandardSchemaValidationError extends UserError {}

export interface StructuredParseError extends Readonly<StructuredParseErrorFields> {}
/**
 * Text a model returned could not be read as a value of the schema.
 */
export class StructuredParseError extends UserError {
  constructor(message: string, fields: StructuredParseErrorFields) {
    super(message);
    adopt(this, new.target.name, fields);
  }
}

export interface InvalidCassetteError extends Readonly<InvalidCassetteErrorFields> {}
/**
 * A cassette (or a redaction pattern) cannot be used.
 */
export class InvalidCassetteError extends UserError {
  constructor(message: string, fields: InvalidCassetteErrorFields) {
    super(message);
    adopt(this, new.target.name, fields);
  }
}

export interface CassetteMissingError extends Readonly<CassetteMissingErrorFields> {}
/**
 * A cassette file that does not exist where it must be replayed:
 * `UNDERSTUDY_CASSETTES=replay`, or the default `auto` mode under `CI` (which never
 * records). The message names the file and how to record it; nothing was written.
 */
export class CassetteMissingError extends InvalidCassetteError {
  constructor(message: string, fields: CassetteMissingErrorFields) {
    super(message, fields);
  }
}

export interface CassetteMismatchError extends Readonly<CassetteMismatchErrorFields> {}
/**
 * No recorded request matches a live one (replay by request).
 */
export class CassetteMismatchError extends UserError {
  constructor(message: string, fields: CassetteMismatchErrorFields) {
    super(message);
    adopt(this, new.target.name, fields);
  }
}

/** @internal The classes above by kind, and whether each is built from `(message, fields)`. */
export const GENERATED_CLASSES: Record<string, readonly [new (message: string, fields?: any) => Error, boolean]> = {
  StrictSchemaError: [StrictSchemaError, true],
  SchemaDepthError: [SchemaDepthError, true],
  InvalidJsonSchemaError: [InvalidJsonSchemaError, true],
  UnsupportedStandardSchemaError: [UnsupportedStandardSchemaError, false],
  AsyncStandardSchemaValidationError: [AsyncStandardSchemaValidationError, false],
  StructuredParseError: [StructuredParseError, true],
  InvalidCassetteError: [InvalidCassetteError, true],
  CassetteMissingError: [CassetteMissingError, true],
  CassetteMismatchError: [CassetteMismatchError, true],
};
