/**
 * A whole request against one provider's limits (src/schema/provider/), and the checks the
 * doubles' `strictTools` run per provider.
 */
import type { SchemaProvider } from '../engine/codes.js';
import type { RequestLimitBreach } from '../engine/engine-types.js';
import { call, encodeSchema, input } from '../engine/channel.js';
import { toStrictJsonSchema } from './strict.js';
import { jsonSchemaOf, type JsonSchema } from './argument.js';

/** A tool of a request, as {@link checkRequestLimits} reads it. */
export interface RequestTool {
  name: string;
  /** The parameters as sent (`parameters` of an `@openai/agents` function tool, `inputSchema` of the AI SDK's). */
  parameters?: unknown;
  inputSchema?: unknown;
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
export function checkRequestLimits(provider: SchemaProvider, request: { tools?: readonly RequestTool[]; output?: unknown }): RequestLimitBreach[] {
  return JSON.parse(call((e) => e.providerRequestCheck(input(requestText(request)), provider, false)));
}

/** @internal A request's tools and output schema as the engine's limit check reads them (a Standard Schema as its JSON Schema). */
export function requestText(request: { tools?: readonly RequestTool[]; output?: unknown }): string {
  const tools = Array.isArray(request?.tools) ? request.tools.map((t) => ({ name: t?.name, parameters: jsonSchemaOf(t?.parameters ?? t?.inputSchema) })) : [];
  return encodeSchema({ tools, output: jsonSchemaOf(request?.output) });
}

/** @internal Refuses an unknown provider code (`UserError` naming the choices). */
export function checkProviderCode(provider: unknown, surface: string): void {
  call((e) => e.providerIsOpenAi(provider, surface, undefined));
}

/** @internal `strictTools` for a provider other than OpenAI: each tool's parameters as sent, then the request's limits. */
export function checkProviderTools(provider: SchemaProvider, tools: readonly RequestTool[], output: unknown): void {
  // Each schema read once (a Standard Schema converted once), for its own check and the request's.
  const read = tools.map((tool) => ({ name: tool.name, parameters: jsonSchemaOf(tool.parameters) }));
  for (const tool of read) {
    const text = encodeSchema(tool.parameters);
    call((e) => e.providerToolCheck(input(text), tool.name, provider));
  }
  call((e) => e.providerRequestCheck(input(encodeSchema({ tools: read, output: jsonSchemaOf(output) })), provider, true));
}

export interface ProviderSchemasMiddleware {
  readonly specificationVersion: 'v3';
  transformParams(options: { params: any; [key: string]: unknown }): Promise<any>;
}

/**
 * An AI SDK language model middleware that converts every schema a call sends (each function
 * tool's `inputSchema`, the `responseFormat` schema of `Output.object` and `generateObject`) for
 * `provider`, as `toStrictJsonSchema(schema, { provider })` does, before the request. The SDK
 * still checks the answer against your original schema (your tool's and output's own schema),
 * so the constraints moved into descriptions hold. Put it last in the `middleware` array, nearest
 * the model, after {@link repairingMiddleware}, which then reads replies against the originals.
 *
 * @throws {UserError} an unknown provider (at once); a schema the provider cannot take, when the
 * call is made (`StrictSchemaError`, with the pointer and the provider in the message).
 */
export function providerSchemas(provider: SchemaProvider): ProviderSchemasMiddleware {
  checkProviderCode(provider, 'providerSchemas');
  const converted = new WeakMap<object, unknown>();
  const convert = (schema: unknown): unknown => {
    if (typeof schema !== 'object' || schema === null) return schema;
    let out = converted.get(schema);
    if (out === undefined) {
      out = toStrictJsonSchema(schema as JsonSchema, { provider });
      converted.set(schema, out);
    }
    return out;
  };
  return {
    specificationVersion: 'v3',
    async transformParams({ params }) {
      const tools = Array.isArray(params?.tools) ? params.tools.map((tool: Record<string, any>) => (tool?.type === 'function' ? { ...tool, inputSchema: convert(tool.inputSchema) } : tool)) : params?.tools;
      const format = params?.responseFormat;
      const responseFormat = format?.type === 'json' && format.schema !== undefined ? { ...format, schema: convert(format.schema) } : format;
      return { ...params, tools, responseFormat };
    },
  };
}
