/**
 * Tool inputs that come back slightly off: `coerceToolInput` aligns an already-parsed value
 * with the tool's schema under the engine's coercions (src/sap/fixes.rs `COERCIONS`), and
 * `toolCallRepair` gives the AI SDK's `experimental_repairToolCall` the repairing parser.
 */
import { COERCION_FIXES } from '../engine/codes.js';
import { encodeValue } from '../engine/channel.js';
import { StructuredParseError } from '../engine/errors.js';
import { describeValue } from '../engine/args.js';
import type { JsonSchema } from '../schema/argument.js';
import type { StandardSchemaWithJSON } from '../schema/standard.js';
import { parseStructured, type StructuredResult } from './parse.js';

/**
 * Aligns an already-parsed tool input with the tool's schema as the repairing parser does:
 * `"10"` → `10` for an integer, `"true"` → `true`, a bare value → a one-element array (and
 * back), an enum word in another case → the enum's word, a `null` for an optional property →
 * absent. Returns the value and the `fixes` made (empty: it already fit).
 *
 * @throws {StructuredParseError} a value it cannot read without guessing (a string that is not
 * a number, a word two enum values match in different cases, a missing required property, a
 * key the schema does not allow…), with the `reason` and, in `candidates[0].pointer`, the JSON
 * Pointer where it stopped fitting.
 * @throws {UnsupportedStandardSchemaError} a Standard Schema without JSON Schema conversion.
 */
export function coerceToolInput<T = unknown>(schema: JsonSchema | StandardSchemaWithJSON, value: unknown): StructuredResult<T> {
  return parseStructured(encodeValue(value), schema as JsonSchema, { allowFixes: [...COERCION_FIXES], truncated: 'error' }) as StructuredResult<T>;
}

/** What the AI SDK hands `experimental_repairToolCall` (the parts this repair reads). */
export interface ToolCallRepairOptions {
  toolCall: { toolName: string; input: string; [key: string]: unknown };
  inputSchema: (options: { toolName: string }) => unknown;
  error: unknown;
  [key: string]: unknown;
}

/** The function {@link toolCallRepair} returns: the repaired call, or `null`. */
export type ToolCallRepairFunction = <C extends ToolCallRepairOptions['toolCall']>(options: ToolCallRepairOptions & { toolCall: C }) => Promise<C | null>;

/**
 * A repair function for the AI SDK's `experimental_repairToolCall`: it reads the call's input
 * text against the tool's input schema as `parseStructured` does (fences, single quotes,
 * trailing commas, `"10"` for a number…) and answers the call with the repaired JSON, or
 * `null` when no reading fits. A call for a tool that does not exist is `null`, and a cut-off
 * input is never completed (the parser's `truncated: 'error'`): a repaired call is always one
 * the model wrote whole.
 */
export function toolCallRepair(): ToolCallRepairFunction {
  return async (options) => {
    if (typeof options !== 'object' || options === null || typeof options.toolCall !== 'object' || options.toolCall === null) {
      throw new TypeError(`toolCallRepair: the repair function takes { toolCall, inputSchema, error }, got ${describeValue(options)}.`);
    }
    const { toolCall, inputSchema, error } = options;
    if ((error as { name?: unknown })?.name === 'AI_NoSuchToolError' || typeof toolCall.input !== 'string' || typeof inputSchema !== 'function') return null;
    const schema = await inputSchema({ toolName: toolCall.toolName });
    try {
      const { value } = parseStructured(toolCall.input, schema as JsonSchema, { truncated: 'error' });
      return { ...toolCall, input: JSON.stringify(value) };
    } catch (thrown) {
      if (thrown instanceof StructuredParseError) return null;
      throw thrown;
    }
  };
}
