// Generated from the engine's code lists (src/codes.rs) by
// `UNDERSTUDY_WRITE_CODES=1 cargo test --lib codes`; a test fails when it is stale.

/** Stable codes of `StrictSchemaError.reason`. */
export type StrictSchemaErrorReason =
  | 'depth'
  | 'non_schema_node'
  | 'nested_id'
  | 'unsupported_keyword'
  | 'non_string_ref'
  | 'unresolved_ref'
  | 'invalid_any_of'
  | 'ref_sibling'
  | 'any_of_sibling'
  | 'ambiguous_any_of'
  | 'open_object'
  | 'unknown_nullability'
  | 'typeless_open_object'
  | 'defs_not_object'
  | 'not_json'
  | 'too_large'
  | 'not_strict'
  | 'recursive'
  | 'root_not_object'
  | 'unsupported_value'
  | 'request_limit'
  | 'invalid_name';

/** Stable codes of `StructuredParseError.reason`. */
export type StructuredParseErrorReason =
  | 'no_json'
  | 'type_mismatch'
  | 'not_in_enum'
  | 'missing_required'
  | 'extra_key'
  | 'ambiguous'
  | 'too_deep'
  | 'partial'
  | 'fix_not_allowed';

/** Repair kinds a `ParseFix.kind` can have (what `allowFixes` may name). */
export type ParseFixKind =
  | 'array_to_object'
  | 'array_to_single'
  | 'boolean_to_string'
  | 'candidate_chosen'
  | 'closed_at_end'
  | 'comment_removed'
  | 'curly_quotes'
  | 'enum_case'
  | 'enum_from_prose'
  | 'extra_key_dropped'
  | 'fence_stripped'
  | 'inner_quote_kept'
  | 'invalid_escape_kept'
  | 'null_dropped'
  | 'null_filled'
  | 'number_repaired'
  | 'number_to_string'
  | 'prose_skipped'
  | 'python_literal'
  | 'raw_control_character'
  | 'scalar_from_prose'
  | 'single_quotes'
  | 'single_to_array'
  | 'string_to_boolean'
  | 'string_to_number'
  | 'text_as_string'
  | 'trailing_comma_removed'
  | 'triple_quotes'
  | 'unquoted_key'
  | 'unquoted_value'
  | 'values_collected'
  | 'value_to_object';

/** A model provider whose schema rules `toStrictJsonSchema(schema, { provider })` follows. */
export type SchemaProvider =
  | 'openai'
  | 'anthropic'
  | 'gemini';

/** A provider in one request mode (`'openai:strict'`, `'anthropic:standard'`, …): which schema rules apply. */
export type SchemaProviderMode =
  | 'openai:strict'
  | 'openai:standard'
  | 'anthropic:standard'
  | 'anthropic:strict'
  | 'gemini:openapi'
  | 'gemini:json';

/** How a provider conversion changed a keyword (`SchemaChange.kind`). */
export type SchemaChangeKind =
  | 'rewritten'
  | 'described'
  | 'dropped'
  | 'narrowed'
  | 'wrapped';

/** What a provider does with one schema of a tool (`ToolCheckResult.status`). */
export type ToolCheckStatus =
  | 'accepted'
  | 'converted'
  | 'refused';

/** What a conversion loses at the provider (`ToolCheckResult.loss`). */
export type ToolCheckLoss =
  | 'none'
  | 'annotations'
  | 'validation';

/** Which rows fail a tool check: refusals only, also conversions that lose validation (the default), or also those that lose annotations. */
export type ToolCheckPolicy =
  | 'refusals'
  | 'validation'
  | 'any-loss';

/** A limit a whole request must respect (`RequestLimitBreach.limit`). */
export type RequestLimit =
  | 'strict_tools'
  | 'optional_parameters'
  | 'union_parameters'
  | 'properties'
  | 'nesting'
  | 'characters'
  | 'enum_values'
  | 'enum_characters';

/** Why a repairing wrapper left a text as it came (`RepairRefusal.reason`). */
export type RepairRefusalReason =
  | 'truncated'
  | 'response_truncated'
  | 'unreadable'
  | 'streamed';

/** What a cut-off text ended inside of (`RepairRefusal.inside`). */
export type CutInside =
  | 'string'
  | 'number'
  | 'literal'
  | 'object'
  | 'array';

/** Stable codes of `InvalidScriptedModelStepError.reason`. */
export type InvalidScriptedModelStepReason =
  | 'invalid_input'
  | 'unknown_step_type'
  | 'missing_response'
  | 'invalid_response'
  | 'missing_error'
  | 'missing_responder'
  | 'invalid_stream'
  | 'incompatible_call';

/** Stable codes of `InvalidScriptedSandboxStepError.reason`. */
export type InvalidScriptedSandboxStepReason =
  | 'invalid_input'
  | 'unknown_method'
  | 'invalid_matcher'
  | 'invalid_outcome';

/** Stable codes of `InvalidCassetteError.reason`. */
export type InvalidCassetteReason =
  | 'invalid_cassette'
  | 'unsupported_version'
  | 'invalid_pattern'
  | 'missing'
  | 'credential';

/** A provider as an option names it: alone (each tool's `strict`, else the provider's default mode, decides) or with its mode. */
export type SchemaProviderName = SchemaProvider | SchemaProviderMode;

/** What `standardCall` (engine/standard-call.ts) found in a `~standard.validate` result; the engine's `schema::standard::Outcome`. */
export const StandardOutcome = {
  Value: 0,
  Thenable: 1,
  Issues: 2,
} as const;

/** The repairs `coerceToolInput` may make (the engine's `sap::fixes::COERCIONS`). */
export const COERCION_FIXES = [
  'string_to_number',
  'number_to_string',
  'string_to_boolean',
  'boolean_to_string',
  'single_to_array',
  'array_to_single',
  'enum_case',
  'null_dropped',
] as const;
