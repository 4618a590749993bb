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
  parseStructured,
  parsePartial,
  compileStructuredParser,
  engineMemoryBytes,
  engineLiveHandles,
} from './core.js';
export type {
  JsonSchema,
  PreparedStrictJsonSchema,
  ValidationIssue,
  ValidationResult,
  JsonSchemaValidator,
  CompileOptions,
  StandardJsonSchemaOptions,
  StandardSchemaResult,
  StandardSchemaWithJSON,
  StandardSchemaOutput,
  IO,
  InferIn,
  InferOut,
  ParseFix,
  ParseFixKind,
  ParseOptions,
  StructuredResult,
  PartialResult,
  PartialOptions,
  StructuredParser,
  DeepPartial,
} from './core.js';
export { repairingModel, repairingMiddleware, partialOutput, repairText } from './repair.js';
export type { RepairReport, RepairRefusal, RepairingModelOptions, RepairingMiddleware, PartialOutput, RepairTextFunction } from './repair.js';
export type { RepairRefusalReason, CutInside } from './codes.js';
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
export type { StrictSchemaErrorReason, StandardSchemaIssue, RefusedCandidate, StructuredParseErrorReason } from './errors.js';
