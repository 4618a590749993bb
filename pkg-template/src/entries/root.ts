/** The public names shared by every entry (Node ESM, Node CommonJS, browser). */
export { toStrictJsonSchema, prepareStrictJsonSchema, stripStrictNulls, assertStrictSchemaPreservesOpenObjects } from '../schema/strict.js';
export { compileJsonSchema } from '../schema/validate.js';
export { hasStandardSchemaMarker, isStandardSchemaWithJSON, standardSchemaToJsonSchema, assertStandardSchemaObjectRoot, validateStandardSchema } from '../schema/standard.js';
export { io } from '../schema/io.js';
export { parseStructured, parsePartial, compileStructuredParser } from '../sap/parse.js';
export { checkRequestLimits } from '../schema/providers.js';
export { checkTools } from '../schema/tools.js';
export type { CheckToolsOptions, ToolSetLike } from '../schema/tools.js';
export type { ToolCheckReport, ToolCheckResult, ToolCheckLimits, SkippedTool } from '../engine/engine-types.js';
export type { ToolCheckStatus, ToolCheckLoss, ToolCheckPolicy } from '../engine/codes.js';
export { engineMemoryBytes, engineLiveHandles } from '../engine/channel.js';
export type { JsonSchemaObject, PreparedStrictJsonSchema, StrictSchemaOptions } from '../schema/strict.js';
export type { JsonSchema } from '../schema/argument.js';
export type { SchemaChange, RequestLimitBreach, ValidationIssue, ParseFix } from '../engine/engine-types.js';
export type { RequestTool } from '../schema/providers.js';
export type { ValidationResult, ValidateJsonOptions, JsonSchemaValidator, CompileOptions } from '../schema/validate.js';
export type { StandardJsonSchemaOptions, StandardSchemaResult, StandardSchemaWithJSON, StandardSchemaOutput } from '../schema/standard.js';
export type { IO, InferIn, InferOut } from '../schema/io.js';
export type { ParseFixKind } from '../engine/codes.js';
export type { ParseOptions, StructuredResult, PartialResult, PartialOptions, StructuredParser, DeepPartial } from '../sap/parse.js';
export { repairingModel } from '../sap/repairing-model.js';
export { repairingMiddleware, repairText } from '../sap/middleware.js';
export { providerSchemas } from '../schema/providers.js';
export { partialOutput } from '../sap/partial-output.js';
export { coerceToolInput, toolCallRepair } from '../sap/tool-input.js';
export type { ToolCallRepairFunction, ToolCallRepairOptions } from '../sap/tool-input.js';
export type { RepairFix } from '../engine/engine-types.js';
export type { RepairReport, RepairRefusal, RepairingModelOptions } from '../sap/repairs.js';
export type { AgentsModel, RepairedModel } from '../sap/repairing-model.js';
export type { RepairingMiddleware, RepairTextFunction } from '../sap/middleware.js';
export type { ProviderSchemasMiddleware, ProviderSchemasOptions, OmittedTool } from '../schema/providers.js';
export type { PartialOutput } from '../sap/partial-output.js';
export type { RepairRefusalReason, CutInside, SchemaProvider, SchemaChangeKind, RequestLimit } from '../engine/codes.js';
export {
  UserError,
  StrictSchemaError,
  SchemaDepthError,
  InvalidJsonSchemaError,
  UnsupportedStandardSchemaError,
  AsyncStandardSchemaValidationError,
  StandardSchemaValidationError,
  StructuredParseError,
  ProviderOutputValidationError,
} from '../engine/errors.js';
export type { StrictSchemaErrorReason, StandardSchemaIssue, RefusedCandidate, StructuredParseErrorReason } from '../engine/errors.js';
