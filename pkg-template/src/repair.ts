/**
 * Schema-aligned parsing wired into the places where broken JSON reaches users: a model
 * wrapper for `@openai/agents` runs (`repairingModel`), typed partial values of a streamed run
 * (`partialOutput`), and the AI SDK's text repair hook (`repairText`).
 *
 * What counts as broken, what the repaired value is and which fixes were made are the engine's
 * answers (`StructuredParser`); this module finds the texts in the SDK's own shapes (function
 * calls and the final assistant message, as `@openai/agents-core` reads them) and puts the
 * engine's answer back. Only types come from `@openai/agents-core`: no runtime dependency.
 */
import type { Model, ModelRequest, ModelResponse, StreamEvent } from '@openai/agents-core';
import { describeValue, expectKnownOptions } from './args.js';
import type { CutInside, ParseFixKind, RepairRefusalReason, SchemaProvider } from './codes.js';
import {
  RepairPolicy,
  call,
  checkProviderCode,
  toStrictJsonSchema,
  structuredParser,
  jsonSchemaOf,
  type JsonSchema,
  type ParseFix,
  type RepairFix,
  type PartialOptions,
  type StandardSchemaWithJSON,
  type StructuredParser,
} from './core.js';
import { StructuredParseError } from './errors.js';

/** One repair a repairing wrapper ({@link repairingModel}, {@link repairingMiddleware}) made. */
export interface RepairReport {
  /** `tool_arguments`: a tool call's arguments; `output`: the final output. */
  kind: 'tool_arguments' | 'output';
  /** The tool, for `tool_arguments`. */
  toolName?: string;
  /** The tool call's id, for `tool_arguments`. */
  callId?: string;
  /**
   * What was repaired, one entry per kind (`kind`, `count`, and each JSON Pointer into the value
   * and each detail once): ten curly-quoted strings are one `curly_quotes` entry, not ten.
   */
  fixes: RepairFix[];
}

/**
 * A text a repairing wrapper left as it came, and why: it ends inside a value (`truncated`,
 * with where), the response says it was cut off (`response_truncated`), or no reading fits the
 * schema (`unreadable`). The SDK then raises its usual error for it, as without the wrapper.
 */
export interface RepairRefusal {
  kind: 'tool_arguments' | 'output';
  toolName?: string;
  callId?: string;
  reason: RepairRefusalReason;
  /** JSON Pointer of the value the text ended inside (for a cut-off text). */
  pointer?: string;
  /** What the text ended inside of (for a cut-off text). */
  inside?: CutInside;
  message: string;
}

/** Options of {@link repairingModel} and {@link repairingMiddleware}. Unknown keys are refused. */
export interface RepairingModelOptions {
  /** Called once per repaired text, after the repair. */
  onRepair?: (report: RepairReport) => void;
  /** Called once per text left as it came because it was cut off or could not be read. */
  onRefusal?: (refusal: RepairRefusal) => void;
  /** Accept only these repairs (as in `parseStructured`); a text needing another is left as it was. */
  allowFixes?: readonly ParseFixKind[];
  /**
   * Complete values the reply was cut off inside of: **the rest of such a value is invented**
   * (a cut path `/home/user/tm` stays `/home/user/tm`; open objects are closed without their
   * missing keys). Off by default: a cut-off tool call or final output is left as it came, so
   * the SDK raises its usual error. `true` completes every tool call and the final output; an
   * array completes the calls of the tools it names only (read-only tools, say).
   */
  completeTruncated?: boolean | readonly string[];
}

type Item = Record<string, any>;

/** What a response says of its own end: `[status, finish reason]`. */
type End = [string | undefined, string | undefined];

/** What the response says of its own end, as it carries it. */
function responseEnd(data: unknown): End {
  if (typeof data !== 'object' || data === null) return [undefined, undefined];
  const d = data as Item;
  const text = (v: unknown) => (typeof v === 'string' ? v : undefined);
  const reason =
    text(d.incomplete_details?.reason) ??
    text(Array.isArray(d.choices) ? d.choices[0]?.finish_reason : undefined) ??
    text(d.finish_reason) ??
    text(d.finishReason) ??
    text(d.stop_reason);
  return [text(d.status), reason];
}

/** Checks and holds a wrapper's options; `handle` runs the engine's decision for one text. */
class Repairs {
  readonly #policy: RepairPolicy;
  readonly #options: RepairingModelOptions;
  constructor(surface: string, options: RepairingModelOptions | undefined) {
    const checked = expectKnownOptions(surface, options, ['onRepair', 'onRefusal', 'allowFixes', 'completeTruncated']);
    for (const name of ['onRepair', 'onRefusal'] as const) {
      if (checked[name] !== undefined && typeof checked[name] !== 'function') {
        throw new TypeError(`${surface}: options.${name} must be a function, got ${describeValue(checked[name])}.`);
      }
    }
    // The engine reads completeTruncated and allowFixes now, not at the first broken reply.
    this.#policy = new RepairPolicy(surface, checked.completeTruncated, checked.allowFixes);
    this.#options = checked;
  }

  /**
   * The text to use instead of `text` (a tool call's arguments when `tool` is its name, else
   * the final output), or `undefined` to leave it; reports the decision.
   */
  handle(schema: unknown, text: unknown, tool: string | undefined, callId: unknown, end: End, sent = 0, refused?: RepairRefusal[]): string | undefined {
    if (typeof text !== 'string' || typeof schema !== 'object' || schema === null) return undefined;
    const decision = this.#policy.decide(schema, text, tool, end[0], end[1], sent);
    if (decision === undefined) return undefined;
    const kind = tool === undefined ? 'output' : 'tool_arguments';
    const who = tool === undefined ? {} : { toolName: tool, callId: typeof callId === 'string' ? callId : undefined };
    if (decision.refused === undefined) {
      this.#options.onRepair?.({ kind, ...who, fixes: decision.fixes });
      return decision.text;
    }
    const { pointer, inside, message } = decision;
    const refusal: RepairRefusal = { kind, ...who, reason: decision.refused, ...(pointer === undefined ? {} : { pointer, inside }), message };
    refused?.push(refusal);
    this.#options.onRefusal?.(refusal);
    return undefined;
  }

  /** How much of a streamed JSON output may be sent on now (`RepairPolicy.sendable`). */
  sendable(schema: object, text: string, sent: number): number {
    return this.#policy.sendable(schema, text, sent);
  }
}

const text = (v: unknown) => (typeof v === 'string' ? v : null);

/** A text to read (src/sap/targets.rs): `[entry, tool]` for a call, `[entry, parts]` for the output. */
type Target = [number, number] | [number | null, number[]];

/**
 * The texts a repairing wrapper reads in `entries` (a response's output items, or an AI SDK
 * result's content parts) with `tools` offered and `json` asked for: the engine decides from
 * their shape, read here in one pass.
 */
function targetsOf(source: 'agents' | 'aiSdk', entries: Item[], tools: Item[], json: boolean): Target[] {
  const shape = [
    source,
    json,
    entries.map((e: Item) => [
      text(e?.type),
      text(source === 'agents' ? e?.name : e?.toolName),
      text(e?.namespace),
      text(e?.role),
      Array.isArray(e?.content) ? e.content.map((part: Item) => text(part?.type)) : null,
      e?.providerExecuted === true,
    ]),
    tools.map((t: Item) => [text(t?.type), text(t?.name), text(t?.namespace)]),
  ];
  return JSON.parse(call((e) => e.repairTargets(JSON.stringify(shape))));
}

/** `parts` with the first of `joined` holding `value` under `key` and the other joined ones dropped. */
function joinInto(parts: Item[], joined: number[], key: string, value: string): Item[] {
  return parts.flatMap((part, i) => (i === joined[0] ? [{ ...part, [key]: value }] : joined.includes(i) ? [] : [part]));
}

/**
 * The output items with repaired texts, or `output` itself when nothing changed: each function
 * call against its tool's parameters, and the final output against the output type's schema.
 */
function repairOutput(output: unknown, providerData: unknown, request: ModelRequest, repairs: Repairs): unknown {
  // Without a request object (the inner model accepted one anyway) there are no schemas.
  if (!Array.isArray(output) || typeof request !== 'object' || request === null) return output;
  const tools: Item[] = Array.isArray(request.tools) ? request.tools : [];
  const outputType = request.outputType as Item | string | undefined;
  const json = typeof outputType === 'object' && outputType?.type === 'json_schema';
  const end = responseEnd(providerData);
  let copy: Item[] | undefined;
  for (const [entry, where] of targetsOf('agents', output, tools, json)) {
    const item: Item = output[entry!];
    if (typeof where === 'number') {
      const repaired = repairs.handle(tools[where].parameters, item.arguments, item.name, item.callId, end);
      if (repaired !== undefined) (copy ??= [...output])[entry!] = { ...item, arguments: repaired };
      continue;
    }
    const repaired = repairs.handle((outputType as Item).schema, where.map((i) => item.content[i].text).join(''), undefined, undefined, end);
    if (repaired !== undefined) (copy ??= [...output])[entry!] = { ...item, content: joinInto(item.content, where, 'text', repaired) };
  }
  return copy ?? output;
}

class RepairingModel implements Model {
  readonly #model: Model;
  readonly #repairs: Repairs;
  constructor(model: Model, repairs: Repairs) {
    this.#model = model;
    this.#repairs = repairs;
    if (typeof model.getRetryAdvice === 'function') {
      Object.defineProperty(this, 'getRetryAdvice', { value: model.getRetryAdvice.bind(model), enumerable: false });
    }
  }

  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    const response = await this.#model.getResponse(request);
    const output = repairOutput(response?.output, response?.providerData, request, this.#repairs);
    return output === response?.output ? response : { ...response, output: output as ModelResponse['output'] };
  }

  async *getStreamedResponse(request: ModelRequest): AsyncIterable<StreamEvent> {
    for await (const event of this.#model.getStreamedResponse(request)) {
      if ((event as Item)?.type !== 'response_done') {
        yield event;
        continue;
      }
      const done = event as Item;
      const output = repairOutput(done.response?.output, done.response?.providerData, request, this.#repairs);
      yield (output === done.response?.output ? event : { ...done, response: { ...done.response, output } }) as StreamEvent;
    }
  }
}

/**
 * A `Model` that forwards every call to `model` and repairs what comes back against the schemas
 * the request carries: a function call's `arguments` that are not JSON conforming to that
 * tool's `parameters`, and, when the request's output type is a JSON schema, the final assistant
 * message's text, become the JSON text of the value `parseStructured` reads. It wraps any
 * `Model`: OpenAI's, a `ScriptedModel`, or `aisdk(...)` of `@openai/agents-extensions`.
 *
 * A text the reply was cut off inside of (the arguments end inside a string, number, literal or
 * open container), and every text of a response that says it was cut off (`status:
 * 'incomplete'`, a finish reason `length`), is left as it came, so the SDK raises its usual
 * error instead of running a tool on an invented value; `options.completeTruncated` opts in.
 * Streamed calls pass their deltas through and repair the `response_done` event. Clean outputs
 * pass untouched. Every repair goes to `options.onRepair`, every text left as it came to
 * `options.onRefusal`.
 *
 * @throws {TypeError} `model` is not a `Model` (no `getResponse` / `getStreamedResponse`), or an option has the wrong type.
 * @throws {UserError} an unknown repair kind in `options.allowFixes`, or a `completeTruncated` that is not `true`, `false` or tool names.
 */
export function repairingModel(model: Model, options?: RepairingModelOptions): Model {
  if (typeof model !== 'object' || model === null || typeof model.getResponse !== 'function' || typeof model.getStreamedResponse !== 'function') {
    throw new TypeError(`repairingModel: model must be a Model (with getResponse and getStreamedResponse), got ${describeValue(model)}.`);
  }
  return new RepairingModel(model, new Repairs('repairingModel', options));
}

// --- partial values of a stream ----------------------------------------------------------------

/** One value {@link partialOutput} yields. */
export interface PartialOutput<T> {
  /** What the text so far determines (`complete: true`: the value `parseStructured` reads). */
  value: T | Partial<T> | undefined;
  complete: boolean;
  fixes: ParseFix[];
}

/**
 * A `StreamedRunResult` of `@openai/agents`, by the shape this module uses: its `toStream()`
 * returns the SDK's own stream type (a web `ReadableStream` at run time), so the type asks only
 * for what is read here.
 */
export type StreamedRun = { toStream(): unknown; [Symbol.asyncIterator](): AsyncIterator<unknown> };

/** Node's `Readable.fromWeb`, installed by the Node entries; other runtimes have none. */
let readableFromWeb: ((stream: ReadableStream<string>) => unknown) | undefined;

/** Installs Node's `Readable.fromWeb` (node.ts, node-cjs.ts), which `toTextStream({ compatibleWithNodeStreams: true })` returns through. */
export function installReadableFromWeb(fromWeb: (stream: ReadableStream<string>) => unknown): void {
  readableFromWeb = fromWeb;
}

function isStreamedRun(source: unknown): source is StreamedRun {
  return typeof source === 'object' && source !== null && typeof (source as StreamedRun).toStream === 'function';
}

/**
 * The text deltas of a `StreamedRunResult` without taking its stream from the user: the stream is
 * teed at once (before the user can start reading), one branch is read here, and the result's
 * `toStream`, `toTextStream` and async iteration are pointed at the other. A new model response
 * restarts the text (`null` marks it).
 */
function runDeltas(run: StreamedRun): AsyncIterable<string | null> {
  const stream = run.toStream() as ReadableStream<unknown>;
  if (stream.locked) {
    throw new TypeError('partialOutput: the run\'s stream is already being read; call partialOutput before consuming the StreamedRunResult.');
  }
  const [ours, theirs] = stream.tee();
  Object.defineProperties(run, {
    toStream: { configurable: true, value: () => theirs },
    [Symbol.asyncIterator]: { configurable: true, value: () => (theirs as any)[Symbol.asyncIterator]() },
    toTextStream: {
      configurable: true,
      // As the result's own: a web stream of the text deltas, or with `compatibleWithNodeStreams`
      // a Node `Readable` of them.
      value: (options?: { compatibleWithNodeStreams?: boolean }) => {
        // Refused before the stream is taken, so the run's events stay readable.
        if (options?.compatibleWithNodeStreams && readableFromWeb === undefined) {
          throw new TypeError('toTextStream: compatibleWithNodeStreams needs Node streams, which this runtime\'s entry of @understudy/agents does not load.');
        }
        const text = theirs.pipeThrough(
          new TransformStream<any, string>({
            transform(event, controller) {
              if (event?.type === 'raw_model_stream_event' && event.data?.type === 'output_text_delta') controller.enqueue(event.data.delta);
            },
          }),
        );
        return options?.compatibleWithNodeStreams ? readableFromWeb!(text) : text;
      },
    },
  });
  return (async function* () {
    const reader = ours.getReader();
    try {
      for (;;) {
        const { done, value: event } = await reader.read();
        if (done) return;
        const data = (event as Item)?.type === 'raw_model_stream_event' ? (event as Item).data : undefined;
        if (data?.type === 'response_started') yield null;
        else if (data?.type === 'output_text_delta' && typeof data.delta === 'string') yield data.delta;
      }
    } finally {
      reader.releaseLock();
    }
  })();
}

/**
 * Typed partial values of a streamed reply: `source` is the `StreamedRunResult` of
 * `run(agent, input, { stream: true })` (call this before consuming it; your own reading of the
 * result is unaffected) or any async iterable of text deltas. Yields `{ value, complete, fixes }`
 * each time the value changes, under `parsePartial`'s rules (values only grow; `options.atomic`
 * fields appear only once complete); the last item is `complete: true` and is the value
 * `parseStructured` reads from the whole text (for a run, the last model response's text).
 *
 * @throws {TypeError} `source` is neither (thrown at once, as is a run whose stream is already read).
 * @throws {StructuredParseError} the text contradicts the schema, or the whole text cannot be read.
 */
export function partialOutput<T = unknown>(
  source: AsyncIterable<string> | StreamedRun,
  schema: JsonSchema | StandardSchemaWithJSON,
  options?: PartialOptions,
): AsyncGenerator<PartialOutput<T>> {
  const partialOptions = expectKnownOptions('partialOutput', options, ['atomic']);
  if (isStreamedRun(source)) return partialValues<T>(runDeltas(source), schema, partialOptions);
  if (typeof (source as AsyncIterable<unknown>)?.[Symbol.asyncIterator] !== 'function') {
    throw new TypeError(`partialOutput: source must be a StreamedRunResult or an async iterable of text deltas, got ${describeValue(source)}.`);
  }
  return partialValues<T>(source, schema, partialOptions);
}

async function* partialValues<T>(deltas: AsyncIterable<string | null>, schema: JsonSchema | StandardSchemaWithJSON, options: PartialOptions): AsyncGenerator<PartialOutput<T>> {
  const parser = structuredParser(schema, 'partialOutput');
  try {
    let text = '';
    let shown: string | undefined;
    for await (const delta of deltas) {
      if (delta === null) {
        text = '';
        continue;
      }
      if (typeof delta !== 'string') throw new TypeError(`partialOutput: each delta must be a string, got ${describeValue(delta)}.`);
      text += delta;
      const { value, fixes } = parser.partial(text, options);
      // `complete` waits for the end of the stream: more text may still follow the value.
      const key = JSON.stringify(value);
      if (value === undefined || key === shown) continue;
      shown = key;
      yield { value: value as Partial<T>, complete: false, fixes };
    }
    const { value, fixes } = parser.parse(text);
    yield { value: value as T, complete: true, fixes };
  } finally {
    parser.free();
  }
}

// --- the AI SDK ----------------------------------------------------------------------------------

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
 * whose text begins with `sent` code units already streamed on; an output starting there
 * holds the rest to write after them.
 */
function repairParts(repairs: Repairs, parts: Item[], tools: Item[], schema: unknown, end: End, key: 'text' | 'delta', refused: RepairRefusal[], streamed?: [number, number]): Item[] {
  let copy = parts;
  for (const [entry, where] of targetsOf('aiSdk', parts, tools, schema !== undefined)) {
    if (typeof where === 'number') {
      const part = parts[entry!]!;
      const input = repairs.handle(tools[where].inputSchema, part.input, part.toolName, part.toolCallId, end, 0, refused);
      if (input !== undefined) copy = copy.map((p, i) => (i === entry ? { ...part, input } : p));
      continue;
    }
    const sent = streamed !== undefined && where[0] === streamed[0] ? streamed[1] : 0;
    const text = repairs.handle(schema, where.map((i) => parts[i]![key]).join(''), undefined, undefined, end, sent, refused);
    if (text !== undefined) copy = joinInto(copy, where, key, text);
  }
  return copy;
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
 *   says otherwise, so no tool runs on an invented value.
 *
 * Clean outputs pass untouched. In a stream, text deltas pass through when the call asks for
 * no JSON; when it does, they pass through as they arrive while the text is JSON that needs no
 * repair (so the SDK's partial outputs appear progressively), and from the first part that
 * would need one the rest is held; when the step finishes, the repaired value is written as the
 * continuation of what was sent, so no partial contradicts the final value (a sent part the
 * value does not hold leaves the text as it came, refused as `streamed`). Tool calls are held
 * until the finish reason is known.
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
      const repaired = repairParts(repairs, content, tools, schema, finishEnd(result.finishReason), 'text', refused);
      if (refused.length > 0) return { ...result, content: repaired, providerMetadata: withRefusals(result.providerMetadata, refused) };
      return repaired === content ? result : { ...result, content: repaired };
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
      let live: { start: Item; text: string; sent: number } | undefined;
      const release = (controller: TransformStreamDefaultController<Item>, finish: Item | undefined) => {
        const streamed = live;
        live = undefined;
        // The streamed text stands as one delta after its start, as when it was held whole.
        const given = streamed === undefined ? held ?? [] : [streamed.start, { type: 'text-delta', id: streamed.start.id, delta: streamed.text }, ...(held ?? [])];
        held = undefined;
        const refused: RepairRefusal[] = [];
        const parts = repairParts(repairs, given, tools, schema, finishEnd(finish?.finishReason), 'delta', refused, streamed === undefined ? undefined : [1, streamed.sent]);
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
                live = { start: part, text: '', sent: 0 };
                return controller.enqueue(part);
              }
              if (live !== undefined && part?.type === 'text-delta' && part.id === live.start.id && typeof part.delta === 'string') {
                live.text += part.delta;
                const now = repairs.sendable(schema as object, live.text, live.sent);
                if (now > live.sent) controller.enqueue({ ...part, delta: live.text.slice(live.sent, now) });
                live.sent = now;
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
      const tools = Array.isArray(params?.tools) ? params.tools.map((tool: Item) => (tool?.type === 'function' ? { ...tool, inputSchema: convert(tool.inputSchema) } : tool)) : params?.tools;
      const format = params?.responseFormat;
      const responseFormat = format?.type === 'json' && format.schema !== undefined ? { ...format, schema: convert(format.schema) } : format;
      return { ...params, tools, responseFormat };
    },
  };
}
