// Generated from the engine's error types (ts-rs) by
// `UNDERSTUDY_WRITE_CODES=1 cargo test --lib codes`; a test fails when it is stale.
import type {
  InvalidCassetteReason,
  InvalidScriptedModelStepReason,
  InvalidScriptedSandboxStepReason,
  SchemaProvider,
  StrictSchemaErrorReason,
  StructuredParseErrorReason,
} from './codes.js';
import type {
  PendingRealtimeExpectation,
  PendingRealtimeFailure,
  RealtimeTransportMethod,
  RealtimeTransportStatus,
  RecordedRealtimeTransportCall,
} from './realtime-types.js';

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
keyword?: string, };

export type InvalidJsonSchemaErrorFields = { 
/**
 * JSON Pointer to the offending node of the schema.
 */
pointer: string, };

export type RefusedCandidate = { 
/**
 * Byte offsets of the candidate in the UTF-8 text.
 */
start: number, end: number, reason: StructuredParseErrorReason, 
/**
 * JSON Pointer into the candidate where it stopped fitting.
 */
pointer: string, message: string, };

export type StructuredParseErrorFields = { reason: StructuredParseErrorReason, 
/**
 * Every candidate considered, with why it was refused.
 */
candidates: Array<RefusedCandidate>, };

export type ProviderOutputValidationErrorFields = { 
/**
 * The provider the schema was converted for.
 */
provider: SchemaProvider, };

export type InvalidCassetteErrorFields = { reason: InvalidCassetteReason, 
/**
 * JSON Pointer into the cassette (or the options) of the offending member.
 */
pointer: string, };

export type CassetteMissingErrorFields = { reason: InvalidCassetteReason, pointer: string, 
/**
 * The cassette file that was looked for.
 */
path: string, };

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

export type RealtimeErrorFields = { "kind": "UnexpectedRealtimeCallError", 
/**
 * The zero-based position of the call in `ScriptedRealtimeTransport.calls`.
 */
callIndex: number, expectedMethod: RealtimeTransportMethod, actualMethod: string, } | { "kind": "RealtimeCallMatcherError", 
/**
 * The zero-based position of the call in `ScriptedRealtimeTransport.calls`.
 */
callIndex: number, actualMethod: string, } | { "kind": "IncompleteRealtimeScenarioError", unconsumedCalls: readonly RecordedRealtimeTransportCall[], pendingExpectations: readonly PendingRealtimeExpectation[], pendingFailures: readonly PendingRealtimeFailure[], } | { "kind": "ScriptedRealtimeScenarioCancelledError", pendingExpectations: readonly PendingRealtimeExpectation[], } | { "kind": "RealtimeTransportNotClosedError", status: RealtimeTransportStatus, } | { "kind": "ScriptedRealtimeConnectionSupersededError", operation: 'connect', };
