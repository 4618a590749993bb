// Generated from the engine's types (ts-rs) by
// `UNDERSTUDY_WRITE_CODES=1 cargo test --lib codes`; a test fails when it is stale.
import type {
  InvalidCassetteReason,
  InvalidScriptedModelStepReason,
  InvalidScriptedSandboxStepReason,
  ParseFixKind,
  RequestLimit,
  SchemaChangeKind,
  SchemaProvider,
  SchemaProviderMode,
  SchemaProviderName,
  StrictSchemaErrorReason,
  StructuredParseErrorReason,
  ToolCheckLoss,
  ToolCheckStatus,
} from './codes.js';
import type {
  PendingRealtimeExpectation,
  PendingRealtimeFailure,
  RealtimeTransportMethod,
  RealtimeTransportStatus,
  RecordedRealtimeTransportCall,
} from './realtime-types.js';

/**
 * One repair schema-aligned parsing made, at a JSON Pointer into the result.
 */
export type ParseFix = { 
/**
 * What was repaired: `fence_stripped`, `prose_skipped`, `trailing_comma_removed`,
 * `single_quotes`, `string_to_number`, … (every code in `ParseFixKind`).
 */
kind: ParseFixKind, 
/**
 * JSON Pointer of the repaired value in the result.
 */
pointer: string, 
/**
 * What the repair read or wrote (the fence, the skipped prose, the separator, …).
 */
detail: string, };

/**
 * The repairs of one kind in a repaired text, as a wrapper reports them (`RepairReport.fixes`):
 * one entry per kind, not one per string.
 */
export type RepairFix = { 
/**
 * What was repaired (a `ParseFixKind`).
 */
kind: ParseFixKind, 
/**
 * How many times.
 */
count: number, 
/**
 * The JSON Pointers of the repaired values, each once, in the order first met.
 */
pointers: Array<string>, 
/**
 * What the repairs read or wrote, each once, in the order first met.
 */
details: Array<string>, };

/**
 * One change of a provider conversion, at the JSON Pointer of the node in your schema.
 */
export type SchemaChange = { 
/**
 * JSON Pointer of the node in your schema.
 */
pointer: string, 
/**
 * The keyword changed.
 */
keyword: string, 
/**
 * `rewritten` (same meaning), `described` (moved into `description`), `dropped`,
 * `narrowed` (stricter than yours, every answer still one to your schema), `wrapped` (the
 * root under one property; `normalizeInput` unwraps).
 */
kind: SchemaChangeKind, 
/**
 * What was done, in words.
 */
detail: string, };

/**
 * A request over one of its provider's limits.
 */
export type RequestLimitBreach = { 
/**
 * Which limit.
 */
limit: RequestLimit, 
/**
 * Where the count went over: `/tools/<i>/parameters/…` or `/output/…`.
 */
pointer: string, 
/**
 * How many the request has.
 */
count: number, 
/**
 * How many the provider takes.
 */
max: number, 
/**
 * The breach in words, naming the provider.
 */
message: string, };

/**
 * One schema of one tool, for one provider in one mode.
 */
export type ToolCheckResult = { 
/**
 * The tool's name.
 */
tool: string, 
/**
 * `input`: the parameters (an MCP tool's `outputSchema` is checked apart, in `outputs`).
 */
schema: 'input', 
/**
 * The provider as the options named it (`openai`, `anthropic:strict`, …): the report's
 * column.
 */
target: SchemaProviderName, provider: SchemaProvider, 
/**
 * The request mode the row is for: the one named, or (for a provider named alone) the one
 * the tool declares with `strict`, else the provider's default.
 */
mode: SchemaProviderMode, 
/**
 * `accepted` (sent as it is), `converted` (see `changes` and `loss`) or `refused`.
 */
status: ToolCheckStatus, 
/**
 * With `accepted`: keywords the mode takes but does not hold the model to.
 */
ignored?: Array<SchemaChange>, 
/**
 * With `converted`: what the conversion changed, at JSON Pointers of your schema.
 */
changes?: Array<SchemaChange>, 
/**
 * With `converted`: what the changes lose at the provider.
 */
loss?: ToolCheckLoss, 
/**
 * With `converted`: the changes that lose something (those `loss` counts), in `changes`'
 * order.
 */
lost?: Array<SchemaChange>, 
/**
 * With `converted` (and `refused`): what the provider answers to the schema sent as it
 * is, unconverted (the 400 the HTTP double gives).
 */
asSent?: ToolCheckAsSent, 
/**
 * With `refused`: the reason code (a `StrictSchemaErrorReason`, or `unreadable` for a
 * tool whose schema could not be read).
 */
reason?: StrictSchemaErrorReason | 'unreadable', 
/**
 * With `refused`: the JSON Pointer of the node at fault in your schema.
 */
pointer?: string, 
/**
 * With `refused`: the keyword at fault, where there is one.
 */
keyword?: string, 
/**
 * With `refused`: why, in words, naming the tool and the provider.
 */
message?: string, 
/**
 * With `refused`: what to change so the provider takes it.
 */
fix?: string, };

/**
 * What a provider answers to a schema sent as it is (`ToolCheckResult.asSent`): the refusal
 * the HTTP double gives too.
 */
export type ToolCheckAsSent = { reason: StrictSchemaErrorReason, pointer: string, keyword?: string, message: string, };

/**
 * An MCP tool's `outputSchema`, checked against what MCP clients require of it: an object
 * schema (`type: "object"`). No provider receives it.
 */
export type ToolOutputCheck = { tool: string, 
/**
 * `accepted` or `refused`.
 */
status: ToolCheckStatus, 
/**
 * With `refused`: why, naming the tool.
 */
message?: string, 
/**
 * With `refused`: the JSON Pointer at fault.
 */
pointer?: string, };

/**
 * A tool the check leaves alone (a hosted or provider-defined tool: no schema of yours).
 */
export type SkippedTool = { tool: string, 
/**
 * The tool's `type` as given.
 */
type: string, reason: string, };

/**
 * The breaches of one provider's request limits by the whole set.
 */
export type ToolCheckLimits = { 
/**
 * The provider as the options named it (the report's column).
 */
provider: SchemaProviderName, breaches: Array<RequestLimitBreach>, };

/**
 * `checkTools`' report.
 */
export type ToolCheckReport = { 
/**
 * The providers checked, as named (a provider, or a provider with its mode), in the order
 * given: the report's columns.
 */
providers: SchemaProviderName[], 
/**
 * The names of the tools checked, in the set's order.
 */
tools: Array<string>, 
/**
 * One row per tool and provider, in that order.
 */
results: Array<ToolCheckResult>, 
/**
 * One row per tool with an MCP `outputSchema`.
 */
outputs: Array<ToolOutputCheck>, 
/**
 * Per provider, the request limits the whole set breaks (tools as they would be sent).
 */
limits: Array<ToolCheckLimits>, skipped: Array<SkippedTool>, };

/**
 * One reason a value failed validation.
 */
export type ValidationIssue = { 
/**
 * What failed, in words.
 */
message: string, 
/**
 * JSON Pointer to the failing part of the value.
 */
instancePath: string, 
/**
 * JSON Pointer to the failing keyword in the schema.
 */
schemaPath: string, 
/**
 * The failing keyword; `json` when the text is not JSON, `depth` when nested too deeply.
 */
keyword: string, 
/**
 * Where malformed JSON text broke (only with `keyword: 'json'`).
 */
position?: { 
/**
 * Byte offset into the text.
 */
offset: number, 
/**
 * One-based line.
 */
line: number, 
/**
 * One-based column.
 */
column: number, }, };

/**
 * A schema strict mode refuses. `message` is the reference's text; `pointer` is the JSON
 * Pointer (RFC 6901) of the offending node in the caller's schema; `keyword` names the
 * keyword at fault where there is one.
 */
export type StrictSchemaErrorFields = { 
/**
 * Stable cause code.
 */
reason: StrictSchemaErrorReason, 
/**
 * JSON Pointer (RFC 6901) to the offending node of the schema you passed; `''` is the root.
 */
pointer: string, 
/**
 * The keyword at fault, where there is one (`allOf`, `$ref`, `anyOf`, …).
 */
keyword?: string, 
/**
 * The tool whose schema it is, where a tool set was converted (`providerSchemas`).
 */
toolName?: string, };

/**
 * A JSON Schema that cannot be compiled for validation.
 */
export type InvalidJsonSchemaErrorFields = { 
/**
 * JSON Pointer to the offending node of the schema.
 */
pointer: string, };

/**
 * A candidate value `StructuredParseError` considered, and why it was refused.
 */
export type RefusedCandidate = { 
/**
 * Byte offsets of the candidate in the UTF-8 text.
 */
start: number, end: number, reason: StructuredParseErrorReason, 
/**
 * JSON Pointer into the candidate where it stopped fitting.
 */
pointer: string, message: string, };

/**
 * Why no value of the schema could be read.
 */
export type StructuredParseErrorFields = { reason: StructuredParseErrorReason, 
/**
 * Every candidate considered, with why it was refused.
 */
candidates: Array<RefusedCandidate>, 
/**
 * The JSON Pointer in the value where the first candidate failed, when one was read
 * (`coerceToolInput`'s one input: where it is wrong).
 */
pointer?: string, };

/**
 * A value that fails the original schema of a provider conversion
 * (`ProviderOutputValidationError`; its `issues` are `compileJsonSchema`'s, handed over as
 * they came).
 */
export type ProviderOutputValidationErrorFields = { 
/**
 * The provider the schema was converted for.
 */
provider: SchemaProvider, };

/**
 * Why a cassette or a recording option is refused (`InvalidCassetteError`).
 */
export type InvalidCassetteErrorFields = { reason: InvalidCassetteReason, 
/**
 * JSON Pointer into the cassette (or the options) of the offending member.
 */
pointer: string, };

/**
 * `CassetteMissingError`'s fields: an `InvalidCassetteError`'s (reason `missing`, pointer
 * `''`) and the file's path.
 */
export type CassetteMissingErrorFields = { reason: InvalidCassetteReason, pointer: string, 
/**
 * The cassette file that was looked for.
 */
path: string, };

/**
 * `CassetteMismatchError`'s fields: the closest step flattened, the two values as JSON text.
 */
export type CassetteMismatchErrorFields = { 
/**
 * The zero-based position of the live call.
 */
callIndex: number, 
/**
 * The live request's hash.
 */
hash: string, 
/**
 * The closest unused recorded step, when one is left.
 */
closestStep?: number, 
/**
 * JSON Pointer of the first field where that step's request differs.
 */
pointer?: string, 
/**
 * That field as recorded (JSON text; absent when the field is).
 */
recorded?: string, 
/**
 * That field as sent now (JSON text; absent when the field is).
 */
live?: string, };

/**
 * Every error the scripted model raises by itself (errors scripted with `modelError` and
 * exceptions from user callbacks pass through untouched and are not modelled here).
 * Each variant is one facade class (its `kind`), with its fields in the class's order under
 * the class's names ([`crate::error::Raise`]); the facade's field types are generated from it.
 */
export type ModelErrorFields = { "kind": "InvalidScriptedModelStepError", reason: InvalidScriptedModelStepReason, 
/**
 * The zero-based position of an invalid constructor or `enqueue()` input.
 */
inputIndex?: number, 
/**
 * The zero-based position of a call in `ScriptedModel.calls`.
 */
callIndex?: number, stepType?: string, } | { "kind": "UnexpectedModelCallError", 
/**
 * The zero-based position of the call in `ScriptedModel.calls`.
 */
callIndex: number, streamed: boolean, } | { "kind": "UnconsumedModelStepsError", remainingSteps: number, } | { "kind": "ScriptedModelRequestAbortedError", 
/**
 * The zero-based position of a call in `ScriptedModel.calls`.
 */
callIndex?: number, };

/**
 * Every error the scripted sandbox raises by itself. Each variant is one facade class (its
 * `kind`), with its fields in the class's order under the class's names
 * ([`crate::error::Raise`]); the facade's field types are generated from it.
 */
export type SandboxErrorFields = { "kind": "InvalidScriptedSandboxStepError", reason: InvalidScriptedSandboxStepReason, 
/**
 * The zero-based position of the invalid factory input.
 */
inputIndex: number, method?: string, } | { "kind": "UnexpectedSandboxCallError", 
/**
 * The zero-based position of the call in `calls`.
 */
callIndex: number, actualMethod: string, expectedMethod?: string, remainingSteps: number, } | { "kind": "SandboxCallMatcherError", 
/**
 * The zero-based position of the call in `calls`.
 */
callIndex: number, method: string, } | { "kind": "UnconsumedSandboxStepsError", 
/**
 * How many steps were left (`pendingMethods.length`).
 */
remainingSteps: number, 
/**
 * The methods of the steps left, in script order.
 */
pendingMethods: readonly string[], };

/**
 * Every error the scripted transport raises by itself. Each variant is one facade class (its
 * `kind`), with its fields in the class's order under the class's names
 * ([`crate::error::Raise`]); the facade's field types are generated from it.
 */
export type RealtimeErrorFields = { "kind": "UnexpectedRealtimeCallError", 
/**
 * The zero-based position of the call in `ScriptedRealtimeTransport.calls`.
 */
callIndex: number, expectedMethod: RealtimeTransportMethod, actualMethod: string, } | { "kind": "RealtimeCallMatcherError", 
/**
 * The zero-based position of the call in `ScriptedRealtimeTransport.calls`.
 */
callIndex: number, actualMethod: string, } | { "kind": "IncompleteRealtimeScenarioError", unconsumedCalls: readonly RecordedRealtimeTransportCall[], pendingExpectations: readonly PendingRealtimeExpectation[], pendingFailures: readonly PendingRealtimeFailure[], } | { "kind": "ScriptedRealtimeScenarioCancelledError", pendingExpectations: readonly PendingRealtimeExpectation[], } | { "kind": "RealtimeTransportNotClosedError", status: RealtimeTransportStatus, } | { "kind": "ScriptedRealtimeConnectionSupersededError", operation: 'connect', };
