/**
 * A whole request against one provider's limits (src/schema/provider/), and the checks the
 * doubles' `strictTools` run per provider.
 */
import type { SchemaProviderName } from '../engine/codes.js';
import type { RequestLimitBreach } from '../engine/engine-types.js';
import { call, encodeSchema, input } from '../engine/channel.js';
import { toStrictJsonSchema, toolSchemaFor } from './strict.js';
import { jsonSchemaOf, type JsonSchema } from './argument.js';
import { StrictSchemaError, UserError } from '../engine/errors.js';
import { describeValue, expectKnownOptions } from '../engine/args.js';

/** A tool of a request, as {@link checkRequestLimits} reads it. */
export interface RequestTool {
  name: string;
  /** The parameters as sent (`parameters` of an `@openai/agents` function tool, `inputSchema` of the AI SDK's). */
  parameters?: unknown;
  inputSchema?: unknown;
  /** The tool's own `strict` declaration: with a provider named alone, it picks the mode (strict or standard). */
  strict?: boolean;
}

/**
 * Checks a whole request against one provider's limits, over all its tools and its output
 * schema together: Anthropic's 20 strict tools, 24 optional parameters and 16 parameters with
 * unions; OpenAI's 5,000 properties, 10 levels of nesting, 120,000 characters of names and enum
 * values, 1,000 enum values. Returns every breach (empty: within the limits). A tool's
 * parameters and the output may be Standard Schemas with JSON.
 *
 * @throws {UnsupportedStandardSchemaError} a Standard Schema without JSON Schema conversion.
 * @throws {UserError} an unknown provider.
 */
export function checkRequestLimits(provider: SchemaProviderName, request: { tools?: readonly RequestTool[]; output?: unknown }): RequestLimitBreach[] {
  return JSON.parse(call((e) => e.providerRequestCheck(input(requestText(request)), provider, false)));
}

/** @internal A request's tools and output schema as the engine's limit check reads them (a Standard Schema as its JSON Schema). */
export function requestText(request: { tools?: readonly RequestTool[]; output?: unknown }): string {
  const tools = Array.isArray(request?.tools) ? request.tools.map((t) => ({ name: t?.name, parameters: jsonSchemaOf(t?.parameters ?? t?.inputSchema), ...(typeof t?.strict === 'boolean' ? { strict: t.strict } : {}) })) : [];
  return encodeSchema({ tools, output: jsonSchemaOf(request?.output) });
}

/** @internal Refuses an unknown provider code (`UserError` naming the choices). */
export function checkProviderCode(provider: unknown, surface: string): void {
  call((e) => e.providerIsOpenAi(provider, surface, undefined));
}

/** Parameters objects a provider took as sent, per provider and declared mode (a schema object is checked once). */
const takenAsSent = new Map<string, WeakSet<object>>();

/** @internal `strictTools`: each tool's name and parameters as sent, in the mode it declares, then the request's limits. */
export function checkProviderTools(provider: SchemaProviderName, tools: readonly RequestTool[], output: unknown): void {
  // Each schema read once (a Standard Schema converted once), for its own check and the request's.
  const read = tools.map((tool) => ({ name: tool.name, parameters: jsonSchemaOf(tool.parameters), ...(typeof tool.strict === 'boolean' ? { strict: tool.strict } : {}) }));
  for (const tool of read) {
    const key = `${provider}\n${tool.strict}\n${tool.name}`;
    const schema = tool.parameters;
    const seen = typeof schema === 'object' && schema !== null ? takenAsSent.get(key) : undefined;
    if (seen?.has(schema as object)) continue;
    const text = encodeSchema(schema);
    call((e) => e.toolCheckAsSent(input(text), tool.name, provider, tool.strict));
    if (typeof schema === 'object' && schema !== null) {
      if (!takenAsSent.has(key)) takenAsSent.set(key, new WeakSet());
      takenAsSent.get(key)!.add(schema);
    }
  }
  call((e) => e.providerRequestCheck(input(encodeSchema({ tools: read, output: jsonSchemaOf(output) })), provider, true));
}

export interface ProviderSchemasMiddleware {
  readonly specificationVersion: 'v3';
  transformParams(options: { params: any; [key: string]: unknown }): Promise<any>;
  wrapGenerate(options: { doGenerate: () => PromiseLike<any>; params: any; [key: string]: unknown }): Promise<any>;
  wrapStream(options: { doStream: () => PromiseLike<any>; params: any; [key: string]: unknown }): Promise<any>;
}

/** A tool {@link providerSchemas} left out of a call with `refused: 'omit'`. */
export interface OmittedTool {
  /** The tool's name. */
  toolName: string;
  provider: SchemaProviderName;
  /** The refusal: a `StrictSchemaErrorReason`. */
  reason: string;
  /** The JSON Pointer of the node at fault in the tool's schema. */
  pointer: string;
  /** The refusal in words. */
  message: string;
}

/** Options of {@link providerSchemas}. */
export interface ProviderSchemasOptions {
  /**
   * What a tool the provider cannot take does to the call: `'throw'` (the default) fails the
   * call with its `StrictSchemaError`; `'omit'` leaves that tool out of that call (the others
   * still go), reports it to `onRefused` and in the step's
   * `providerMetadata.understudy.omittedTools`. An output schema the provider cannot take
   * always throws, as does a tool the call's `toolChoice` names.
   */
  refused?: 'throw' | 'omit';
  /** Called once per call for each tool left out (with `refused: 'omit'`). */
  onRefused?: (tool: OmittedTool) => void;
}

/**
 * An AI SDK language model middleware that converts every schema a call sends (each function
 * tool's `inputSchema`, the `responseFormat` schema of `Output.object` and `generateObject`) for
 * `provider`, as `toStrictJsonSchema(schema, { provider })` does, before the request. The SDK
 * still checks the answer against your original schema (your tool's and output's own schema),
 * so the constraints moved into descriptions hold. Put it last in the `middleware` array, nearest
 * the model, after {@link repairingMiddleware}, which then reads replies against the originals.
 *
 * @throws {UserError} an unknown provider or option (at once); a schema the provider cannot
 * take, when the call is made (`StrictSchemaError`, with the pointer and the provider in the
 * message), unless `refused: 'omit'` leaves that tool out.
 */
export function providerSchemas(provider: SchemaProviderName, options?: ProviderSchemasOptions): ProviderSchemasMiddleware {
  checkProviderCode(provider, 'providerSchemas');
  const opts = expectKnownOptions('providerSchemas', options, ['refused', 'onRefused']);
  if (opts.refused !== undefined && opts.refused !== 'throw' && opts.refused !== 'omit') {
    throw new UserError(`providerSchemas: option \`refused\` must be 'throw' or 'omit', got ${describeValue(opts.refused)}.`);
  }
  if (opts.onRefused !== undefined && typeof opts.onRefused !== 'function') {
    throw new UserError(`providerSchemas: option \`onRefused\` must be a function, got ${describeValue(opts.onRefused)}.`);
  }
  const omit = opts.refused === 'omit';
  const converted = new WeakMap<object, unknown>();
  const convert = (schema: unknown, toolName?: string): unknown => {
    if (typeof schema !== 'object' || schema === null) return schema;
    let out = converted.get(schema);
    if (out === undefined) {
      out = toolName === undefined ? toStrictJsonSchema(schema as JsonSchema, { provider }) : toolSchemaFor(schema as JsonSchema, provider, toolName);
      converted.set(schema, out);
    }
    return out;
  };
  /** The tools left out of each call, by the params the call was given. */
  const omittedBy = new WeakMap<object, OmittedTool[]>();
  const convertTool = (tool: Record<string, any>, omitted: OmittedTool[], chosen: string | undefined): Record<string, any> | undefined => {
    if (tool?.type !== 'function') return tool;
    try {
      return { ...tool, inputSchema: convert(tool.inputSchema, String(tool.name)) };
    } catch (error) {
      if (!omit || !(error instanceof StrictSchemaError) || tool.name === chosen) throw error;
      const left: OmittedTool = { toolName: String(tool.name), provider, reason: error.reason, pointer: error.pointer, message: error.message };
      omitted.push(left);
      opts.onRefused?.(left);
      return undefined;
    }
  };
  const withOmitted = (metadata: any, omitted: OmittedTool[] | undefined): any =>
    omitted === undefined || omitted.length === 0 ? metadata : { ...metadata, understudy: { ...metadata?.understudy, omittedTools: omitted } };
  return {
    specificationVersion: 'v3',
    async transformParams({ params }) {
      const omitted: OmittedTool[] = [];
      const chosen = params?.toolChoice?.type === 'tool' ? params.toolChoice.toolName : undefined;
      const tools = Array.isArray(params?.tools) ? params.tools.map((tool: Record<string, any>) => convertTool(tool, omitted, chosen)).filter((t: unknown) => t !== undefined) : params?.tools;
      const format = params?.responseFormat;
      const responseFormat = format?.type === 'json' && format.schema !== undefined ? { ...format, schema: convert(format.schema) } : format;
      const out = { ...params, tools, responseFormat };
      if (omitted.length > 0) omittedBy.set(out, omitted);
      return out;
    },
    async wrapGenerate({ doGenerate, params }) {
      const result = await doGenerate();
      const omitted = omittedBy.get(params);
      return omitted === undefined ? result : { ...result, providerMetadata: withOmitted(result.providerMetadata, omitted) };
    },
    async wrapStream({ doStream, params }) {
      const result = await doStream();
      const omitted = omittedBy.get(params);
      if (omitted === undefined) return result;
      const stream = result.stream.pipeThrough(
        new TransformStream({
          transform(part, controller) {
            controller.enqueue(part?.type === 'finish' ? { ...part, providerMetadata: withOmitted(part.providerMetadata, omitted) } : part);
          },
        }),
      );
      return { ...result, stream };
    },
  };
}
