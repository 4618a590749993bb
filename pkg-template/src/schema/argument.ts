/**
 * What a schema argument stands for (src/schema/standard.rs `jsonSchemaArg`): a Standard
 * Schema's input JSON Schema, or the value as given, and its JSON text for the engine.
 */
import { call, encodeSchema } from '../engine/channel.js';

/** A JSON Schema object (or boolean schema) as accepted by the strict-schema functions. */
export type JsonSchema = { readonly [key: string]: unknown } | boolean;

/**
 * @internal The JSON Schema a schema argument stands for (the engine's `jsonSchemaArg`): a
 * Standard Schema's input JSON Schema, `UnsupportedStandardSchemaError` for one without JSON,
 * anything else as given. Only objects and functions (ArkType's types) can be Standard
 * Schemas, so other values do not cross.
 */
export function jsonSchemaOf(schema: unknown): unknown {
  const text = standardText(schema);
  return text === undefined ? schema : JSON.parse(text);
}

/** A Standard Schema's JSON Schema as the engine's JSON text; `undefined` for any other value. */
function standardText(schema: unknown): string | undefined {
  if ((typeof schema !== 'object' || schema === null) && typeof schema !== 'function') return undefined;
  const answer = call((e) => e.jsonSchemaArg(schema));
  return typeof answer === 'string' ? answer : undefined;
}

/** @internal The JSON text of a schema argument, in the tagged encoding (a Standard Schema's JSON Schema for one). */
export function schemaText(schema: unknown): string {
  return standardText(schema) ?? encodeSchema(schema);
}
