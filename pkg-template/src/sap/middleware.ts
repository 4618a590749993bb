/**
 * The AI SDK's side of repair: the text repair hook (`repairText`) and the language model
 * middleware that repairs tool inputs and the output as they arrive (`repairingMiddleware`).
 */
import { describeValue } from '../engine/args.js';
import { call } from '../engine/channel.js';
import { jsonSchemaOf, type JsonSchema } from '../schema/argument.js';
import { structuredParser } from './parse.js';
import type { StandardSchemaWithJSON } from '../schema/standard.js';
import { StructuredParseError } from '../engine/errors.js';
import { Repairs, WITHHELD, joinInto, targetsOf, type End, type Item, type RepairRefusal, type RepairingModelOptions } from './repairs.js';
import type { LiveOutput } from './policy.js';

/** The AI SDK's `RepairTextFunction`: repaired text, or `null` when it cannot be repaired. */
export type RepairTextFunction = (options: { text: string; error: unknown }) => Promise<string | null>;

/**
 * The function the AI SDK's object generation takes to repair unparseable model text
 * (`experimental_repairText` of `generateObject` / `streamObject`): it answers the JSON text of
 * the value `parseStructured` reads against `schema` (a JSON Schema, or a Standard Schema with
 * JSON, read through its input JSON Schema; the AI SDK validates the result itself), or `null`
 * when no reading fits.
 *
 * @throws {UserError} `schema` is not a schema.
 */
export function repairText(schema: JsonSchema | StandardSchemaWithJSON): RepairTextFunction {
  const guide = jsonSchemaOf(schema);
  const parser = structuredParser(guide as JsonSchema, 'repairText');
  return async (options) => {
    if (typeof options !== 'object' || options === null) {
      throw new TypeError(`repairText: the repair function takes { text, error }, got ${describeValue(options)}.`);
    }
    const { text } = options;
    if (typeof text !== 'string') throw new TypeError(`repairText: text must be a string, got ${describeValue(text)}.`);
    try {
      return JSON.stringify(parser.parse(text).value);
    } catch (error) {
      if (error instanceof StructuredParseError) return null;
      throw error;
    }
  };
}

/**
 * The AI SDK's language model middleware (`LanguageModelMiddleware` of `ai`,
 * `LanguageModelV3Middleware` of `@ai-sdk/provider`), as {@link repairingMiddleware} returns it.
 * Typed by shape, so the package needs neither at run time.
 */
export interface RepairingMiddleware {
  readonly specificationVersion: 'v3';
  wrapGenerate(options: { doGenerate: () => PromiseLike<any>; params: any; [key: string]: unknown }): Promise<any>;
  wrapStream(options: { doStream: () => PromiseLike<any>; params: any; [key: string]: unknown }): Promise<any>;
}

/** The JSON schema a call asks its text to follow (`Output.object`, `generateObject`, …). */
function outputSchema(params: Item | undefined): unknown {
  const format = params?.responseFormat;
  return format?.type === 'json' && typeof format.schema === 'object' && format.schema !== null ? format.schema : undefined;
}

/** The tools a call offers. */
function offered(params: Item | undefined): Item[] {
  return Array.isArray(params?.tools) ? params.tools : [];
}

/** `[status, reason]` of an AI SDK finish reason: `{ unified, raw }` (v3 and later) or a string. */
function finishEnd(finishReason: unknown): End {
  if (typeof finishReason === 'string') return [undefined, finishReason];
  const unified = (finishReason as Item | undefined)?.unified;
  return [undefined, typeof unified === 'string' ? unified : undefined];
}

/**
 * An AI SDK result's content parts (or a stream step's parts, whose text is in `delta`s) with
 * repaired texts, or `parts` itself when nothing changed: each tool call's `input` against its
 * tool's `inputSchema`, and the text against the call's output `schema`. `streamed`: the part
 * whose text's first `sent` code units already went (streamed on, from `skip` on: a leading
 * fence's first line is dropped); an output starting there holds the rest to write after them.
 */
function repairParts(repairs: Repairs, parts: Item[], tools: Item[], schema: unknown, end: End, key: 'text' | 'delta', refused: RepairRefusal[], streamed?: [number, number, number]): Item[] {
  let copy = parts;
  const withheld = new Set<Item>();
  for (const [entry, where] of targetsOf('aiSdk', parts, tools, schema !== undefined)) {
    if (typeof where === 'number') {
      const part = parts[entry!]!;
      const input = repairs.handle(tools[where].inputSchema, part.input, part.toolName, part.toolCallId, end, 0, refused);
      if (input === WITHHELD) withheld.add(part);
      else if (input !== undefined) copy = copy.map((p, i) => (i === entry ? { ...part, input } : p));
      continue;
    }
    const [sent, skip] = streamed !== undefined && where[0] === streamed[0] ? [streamed[1], streamed[2]] : [0, 0];
    const text = repairs.handle(schema, where.map((i) => parts[i]![key]).join(''), undefined, undefined, end, sent, refused, skip);
    if (typeof text === 'string') copy = joinInto(copy, where, key, text);
  }
  // A withheld call is not passed on (its arguments are in its refusal); the parts before it keep their places.
  return withheld.size === 0 ? copy : copy.filter((p, i) => !withheld.has(parts[i]!));
}

/**
 * A step's provider metadata with the texts the middleware left as they came under
 * `understudy.refusals`: the SDK's own error (`NoObjectGeneratedError`, a tool input error)
 * carries only its parse error, while a step's `providerMetadata` reaches `onStepFinish`,
 * `onFinish` and `steps`.
 */
function withRefusals(metadata: unknown, refused: RepairRefusal[]): Item {
  const given = typeof metadata === 'object' && metadata !== null ? (metadata as Item) : {};
  return { ...given, understudy: { ...given.understudy, refusals: JSON.parse(JSON.stringify(refused)) } };
}

/**
 * An AI SDK language model middleware for `wrapLanguageModel({ model, middleware })` that
 * repairs what the model returns, under the same rules and options as {@link repairingModel}:
 * - when the call asks for JSON with a schema (`generateText` / `streamText` with
 *   `output: Output.object(…)`, `Output.array`, `Output.choice`, `generateObject`), the text is
 *   read against that schema and replaced by the JSON text of the value;
 * - each tool call's `input` is read against its tool's `inputSchema`; a step that calls a tool
 *   has no output (its text is a preamble such as "Let me look that up."), so its text is
 *   neither read nor refused;
 * - a text the reply was cut off inside of, and every text of a call whose finish reason is
 *   `length` (or a content filter), is left as it came unless `options.completeTruncated`
 *   says otherwise, so no tool runs on an invented value; in such a step a tool call whose
 *   input is whole JSON (Anthropic and Gemini send arguments as objects, so a cut call looks
 *   whole) is withheld, not passed on, and its refusal (`withheld: true`) keeps its `input`.
 *
 * Clean outputs pass untouched. In a stream, text deltas pass through when the call asks for
 * no JSON; when it does, they pass through as they arrive while the text is JSON that needs no
 * repair (so the SDK's partial outputs appear progressively; a reply that opens with a code
 * fence streams its block's JSON, without the fence), and from the first part that would need
 * one the rest is held; when the step finishes, the repaired value is written as the
 * continuation of what was sent, so no partial contradicts the final value (a sent part the
 * value does not hold leaves the text as it came, refused as `streamed`: a fenced block
 * followed by another that replaces it fails visibly rather than silently changing the value).
 * Prose before a fence is held, since a later block may replace that one. Tool calls are held
 * until the finish reason is known. The engine reads a streamed output once, as it arrives.
 *
 * A text left as it came is reported to `options.onRefusal` and written into the step's
 * `providerMetadata.understudy.refusals` (each a {@link RepairRefusal}: reason, pointer,
 * message), which `onStepFinish`, `onFinish` and `steps` show; the SDK's error for that step
 * (`NoObjectGeneratedError`) carries only its own parse error as `cause`.
 *
 * @throws {TypeError} an option has the wrong type or name.
 * @throws {UserError} an unknown repair kind in `options.allowFixes`, or a `completeTruncated` that is not `true`, `false` or tool names.
 */
export function repairingMiddleware(options?: RepairingModelOptions): RepairingMiddleware {
  const repairs = new Repairs('repairingMiddleware', options);
  return {
    specificationVersion: 'v3',
    async wrapGenerate({ doGenerate, params }) {
      const result = await doGenerate();
      const content: unknown = result?.content;
      if (!Array.isArray(content)) return result;
      const schema = outputSchema(params);
      const tools = offered(params);
      if (schema === undefined && tools.length === 0) return result;
      const refused: RepairRefusal[] = [];
      const end = finishEnd(result.finishReason);
      const repaired = repairParts(repairs, content, tools, schema, end, 'text', refused);
      // OpenAI Responses' final answer also comes as `structuredOutputText`, which the SDK reads
      // the output from in preference to the content (its own extractJsonMiddleware transforms
      // it too): repaired the same way, reported once.
      let structured: unknown = result.structuredOutputText;
      if (typeof structured === 'string' && typeof schema === 'object' && schema !== null) {
        const texts = (parts: Item[]) => parts.filter((p) => p?.type === 'text' && typeof p.text === 'string').map((p) => p.text as string).join('');
        // The same text as the content's: the content's repair (already reported) stands for it.
        if (structured === texts(content as Item[])) structured = repaired === content ? structured : texts(repaired);
        else {
          const text = repairs.handle(schema, structured, undefined, undefined, end, 0, refused);
          if (typeof text === 'string') structured = text;
        }
      }
      const changed = structured === result.structuredOutputText ? {} : { structuredOutputText: structured };
      if (refused.length > 0) return { ...result, content: repaired, ...changed, providerMetadata: withRefusals(result.providerMetadata, refused) };
      return repaired === content && structured === result.structuredOutputText ? result : { ...result, content: repaired, ...changed };
    },
    async wrapStream({ doStream, params }) {
      const result = await doStream();
      const schema = outputSchema(params);
      const tools = offered(params);
      if ((schema === undefined && tools.length === 0) || typeof result?.stream?.pipeThrough !== 'function') return result;
      // The JSON output's text passes on while it needs no repair (`live`); from the first part
      // that may need one (the rest of that text, a tool call) on, parts are held until the
      // finish part says how the step ended.
      let held: Item[] | undefined;
      // `chunks`: the text's deltas, joined once at the end; `pending`: what came but was not
      // sent; `sent`: how much of the text went (UTF-16 units), from `skip` on (a leading
      // fence's first line, never sent).
      let live: { start: Item; chunks: string[]; pending: string; sent: number; skip: number; reader: LiveOutput } | undefined;
      const release = (controller: TransformStreamDefaultController<Item>, finish: Item | undefined) => {
        const streamed = live === undefined ? undefined : { ...live, text: live.chunks.join('') };
        live?.reader.free();
        live = undefined;
        // The streamed text stands as one delta after its start, as when it was held whole.
        const given = streamed === undefined ? held ?? [] : [streamed.start, { type: 'text-delta', id: streamed.start.id, delta: streamed.text }, ...(held ?? [])];
        held = undefined;
        const refused: RepairRefusal[] = [];
        const parts = repairParts(repairs, given, tools, schema, finishEnd(finish?.finishReason), 'delta', refused, streamed === undefined ? undefined : [1, streamed.sent, streamed.skip]);
        parts.forEach((part, i) => {
          if (streamed === undefined) return controller.enqueue(part);
          if (i === 0) return; // the start went on when it came
          if (i === 1) {
            // What was not sent yet: the text's rest, or the repair's continuation of it.
            const rest = part === given[1] ? streamed.text.slice(streamed.sent) : part.delta;
            if (rest !== '') controller.enqueue({ ...part, delta: rest });
            return;
          }
          controller.enqueue(part);
        });
        if (finish !== undefined) controller.enqueue(refused.length === 0 ? finish : { ...finish, providerMetadata: withRefusals(finish.providerMetadata, refused) });
      };
      const stream = result.stream.pipeThrough(
        new TransformStream<Item, Item>({
          transform(part, controller) {
            if (part?.type === 'finish') return release(controller, part);
            if (held === undefined && typeof schema === 'object' && schema !== null) {
              if (part?.type === 'text-start' && live === undefined) {
                live = { start: part, chunks: [], pending: '', sent: 0, skip: 0, reader: repairs.liveOutput(schema as object) };
                return controller.enqueue(part);
              }
              if (live !== undefined && part?.type === 'text-delta' && part.id === live.start.id && typeof part.delta === 'string') {
                live.chunks.push(part.delta);
                live.pending += part.delta;
                // The engine keeps the text and its reading: only the delta crosses.
                const now = live.reader.push(part.delta);
                if (now > live.sent) {
                  if (live.sent === 0) {
                    // A leading fence's first line is dropped, never sent.
                    live.skip = live.reader.skip();
                    live.pending = live.pending.slice(live.skip);
                    live.sent = live.skip;
                  }
                  if (now > live.sent) controller.enqueue({ ...part, delta: live.pending.slice(0, now - live.sent) });
                  live.pending = live.pending.slice(now - live.sent);
                  live.sent = now;
                }
                return;
              }
              if (live !== undefined) held = [];
            }
            if (held === undefined && part?.type === 'tool-call') held = [];
            if (held === undefined) controller.enqueue(part);
            else held.push(part);
          },
          flush(controller) {
            if (held !== undefined || live !== undefined) release(controller, undefined);
          },
        }),
      );
      return { ...result, stream };
    },
  };
}

/** What {@link providerSchemas} returns: an AI SDK middleware that only transforms the call's parameters. */
