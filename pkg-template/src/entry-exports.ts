/** The public names shared by every entry (Node ESM, Node CommonJS, browser). */
export {
  toStrictJsonSchema,
  prepareStrictJsonSchema,
  stripStrictNulls,
  assertStrictSchemaPreservesOpenObjects,
  compileJsonSchema,
  hasStandardSchemaMarker,
  isStandardSchemaWithJSON,
  standardSchemaToJsonSchema,
  assertStandardSchemaObjectRoot,
  validateStandardSchema,
  io,
  engineMemoryBytes,
} from './core.js';
export type {
  JsonSchema,
  PreparedStrictJsonSchema,
  ValidationIssue,
  ValidationResult,
  JsonSchemaValidator,
  StandardJsonSchemaOptions,
  StandardSchemaResult,
  StandardSchemaWithJSON,
  StandardSchemaOutput,
  IO,
  InferIn,
  InferOut,
} from './core.js';
export {
  UserError,
  StrictSchemaError,
  SchemaDepthError,
  InvalidJsonSchemaError,
  UnsupportedStandardSchemaError,
  AsyncStandardSchemaValidationError,
  StandardSchemaValidationError,
  StructuredParseError,
} from './errors.js';
export type { StrictSchemaErrorReason, StandardSchemaIssue } from './errors.js';
