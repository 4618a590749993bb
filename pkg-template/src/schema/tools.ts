/**
 * A whole tool set checked for every provider before the request (src/schema/tools.rs): the
 * facade reads the set in the form the user holds it, in one pass, and hands the engine each
 * tool's name, type and JSON Schemas.
 */
import type { SchemaProviderName, ToolCheckPolicy } from '../engine/codes.js';
import type { ToolCheckReport } from '../engine/engine-types.js';
import { call, encodeSchema, input } from '../engine/channel.js';
import { UserError } from '../engine/errors.js';
import { describeValue, expectKnownOptions, isPlainObject } from '../engine/args.js';
import { jsonSchemaOf } from './argument.js';

/**
 * A tool set in any form `checkTools` reads: an AI SDK `ToolSet` (`{ name: tool({ inputSchema }) }`,
 * with a Zod or other Standard Schema, `jsonSchema(…)` or `zodSchema(…)`), an `@openai/agents`
 * tools array (function tools; hosted tools are skipped and listed), an MCP `tools/list` result
 * or its `tools` array (`inputSchema`, and `outputSchema` where present), or
 * `{ name, parameters | inputSchema }[]`.
 */
export type ToolSetLike = readonly unknown[] | { readonly tools: readonly unknown[] } | { readonly [name: string]: unknown };

/** Options of {@link checkTools}. */
export interface CheckToolsOptions {
  /**
   * The providers to check for (default: `['openai', 'anthropic', 'gemini']`). A provider named
   * alone is checked in the mode each tool declares with `strict` (`strict: false` on an
   * `@openai/agents` or AI SDK tool: OpenAI's standard mode; `strict: true`: Anthropic's strict
   * tools), else in its default mode: OpenAI strict (what the Responses API and
   * `@openai/agents` send), Anthropic standard tools, Gemini's OpenAPI `parameters`. Name a
   * mode to check in it whatever the tools declare: `'openai:strict'`, `'openai:standard'`,
   * `'anthropic:standard'`, `'anthropic:strict'`, `'gemini:openapi'`, `'gemini:json'`
   * (`parametersJsonSchema`).
   */
  providers?: SchemaProviderName | readonly SchemaProviderName[];
  /**
   * Whether a refused MCP `outputSchema` (one that is not an object schema, which MCP clients
   * reject) fails the check (default `false`: such rows are reported in `outputs` only). No
   * provider receives an output schema.
   */
  outputs?: boolean;
}

/** What the facade hands the engine for one tool. */
interface ReadTool {
  name?: unknown;
  type?: unknown;
  strict?: boolean;
  input?: unknown;
  output?: unknown;
  error?: string;
}

const EXPECTED =
  'a tool set: an AI SDK ToolSet ({ name: tool({ inputSchema }) }), an @openai/agents tools array, an MCP tools/list result or its tools array, or [{ name, parameters | inputSchema }]';

const AI_SDK_SCHEMA = Symbol.for('vercel.ai.schema');

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

/**
 * A tool's schema as JSON Schema: an AI SDK `Schema` (`jsonSchema(…)`, `zodSchema(…)`) by its
 * `jsonSchema`, a lazy schema (a function that is not a Standard Schema) by what it returns, a
 * Standard Schema by its input JSON Schema, anything else as given.
 */
function schemaOf(schema: unknown): unknown {
  let s = schema;
  if (typeof s === 'function' && !('~standard' in s)) s = (s as () => unknown)();
  if (isObject(s) && (s as Record<symbol, unknown>)[AI_SDK_SCHEMA] === true) s = s.jsonSchema;
  if (isObject(s) && typeof (s as { then?: unknown }).then === 'function') {
    throw new UserError('The schema resolves asynchronously (a promise): await it and check the JSON Schema it gives.');
  }
  return jsonSchemaOf(s);
}

/** One tool: its name, type and schemas, or the reason its schema could not be read (absent fields left out, not sent as `undefined`). */
function readTool(tool: unknown, key?: string): ReadTool {
  const read: ReadTool = {};
  const name = key ?? (isObject(tool) || typeof tool === 'function' ? (tool as Record<string, unknown>).name : undefined);
  if (name !== undefined) read.name = name;
  if (!isObject(tool) && typeof tool !== 'function') {
    read.error = `Tool ${typeof name === 'string' ? `\`${name}\` ` : ''}is ${describeValue(tool)}, not a tool.`;
    return read;
  }
  const t = tool as Record<string, unknown>;
  if (t.type !== undefined) read.type = t.type;
  if (typeof t.strict === 'boolean') read.strict = t.strict;
  try {
    const given = t.parameters ?? t.inputSchema;
    if (given !== undefined) read.input = schemaOf(given);
    if (t.outputSchema !== undefined) read.output = schemaOf(t.outputSchema);
  } catch (error) {
    read.error = error instanceof Error ? error.message : String(error);
  }
  return read;
}

/** The tools of a set, in its order; a `UserError` for a value that is not a tool set. */
function readToolSet(tools: unknown, surface: string): ReadTool[] {
  if (Array.isArray(tools)) return tools.map((t) => readTool(t));
  if (isObject(tools) && Array.isArray(tools.tools)) return (tools.tools as unknown[]).map((t) => readTool(t));
  if (isPlainObject(tools)) {
    return Object.entries(tools).map(([name, t]) => readTool(t, name));
  }
  throw new UserError(`${surface} expects ${EXPECTED}; got ${describeValue(tools)}.`);
}

/** @internal The report of a tool set and its verdict under `policy` (`failure`: the message listing what fails, or `null`). */
export function toolCheck(
  tools: unknown,
  providers: SchemaProviderName | readonly SchemaProviderName[] | undefined,
  policy: ToolCheckPolicy,
  surface: string,
  outputs = false,
): { report: ToolCheckReport; failure: string | null } {
  const text = encodeSchema({ tools: readToolSet(tools, surface) });
  return JSON.parse(call((e) => e.checkTools(input(text), providers, policy, surface, outputs)));
}

/**
 * Checks every tool of a set for each provider before the request: per tool and provider (each
 * row says its `mode`), `accepted` (sent as it is; `ignored` lists keywords the mode takes but
 * does not enforce), `converted` (with the `changes` the provider's conversion makes, what they
 * `loss`e, and `asSent`: the provider's answer to the schema unconverted) or `refused`
 * (`reason`, `pointer`, `message` and a `fix`); per provider, the request limits the whole set
 * breaks; an MCP `outputSchema` apart, in `outputs`. The verdicts are the engine's provider
 * rule book, the one the HTTP double answers from. A tool that cannot be read is a refused row
 * (`reason: 'unreadable'`); nothing is thrown for a bad tool.
 *
 * @throws {UserError} a value that is not a tool set, or an unknown provider.
 */
export function checkTools(tools: ToolSetLike, options?: CheckToolsOptions): ToolCheckReport {
  const opts = expectKnownOptions('checkTools', options, ['providers', 'outputs']);
  return toolCheck(tools, opts.providers, 'refusals', 'checkTools', opts.outputs === true).report;
}
