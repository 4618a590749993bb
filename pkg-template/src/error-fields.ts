// Generated from the engine's error types (ts-rs) by
// `UNDERSTUDY_WRITE_CODES=1 cargo test --lib codes`; a test fails when it is stale.
import type { InvalidCassetteReason, SchemaProvider, StrictSchemaErrorReason, StructuredParseErrorReason } from './codes.js';

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
