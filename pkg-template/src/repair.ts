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
import type { ParseFixKind } from './codes.js';
import {
  compileStructuredParser,
  isStandardSchemaWithJSON,
  parseStructured,
  standardSchemaToJsonSchema,
  type JsonSchema,
  type ParseFix,
  type PartialOptions,
  type StandardSchemaWithJSON,
  type StructuredParser,
} from './core.js';
import { StructuredParseError } from './errors.js';

/** One repair {@link repairingModel} made. */
export interface RepairReport {
  /** `tool_arguments`: a function call's arguments; `output`: the final assistant message. */
  kind: 'tool_arguments' | 'output';
  /** The function tool, for `tool_arguments`. */
  toolName?: string;
  /** The function call's id, for `tool_arguments`. */
  callId?: string;
  /** What was repaired, at JSON Pointers into the value. */
  fixes: ParseFix[];
}

/** Options of {@link repairingModel}. */
export interface RepairingModelOptions {
  /** Called once per repaired text, after the repair. */
  onRepair?: (report: RepairReport) => void;
  /** Accept only these repairs (as in `parseStructured`); a text needing another is left as it was. */
  allowFixes?: readonly ParseFixKind[];
}

/** Parsers by schema object: the SDK hands the same tool and output schemas turn after turn. */
const parsers = new WeakMap<object, StructuredParser>();

function parserFor(schema: object): StructuredParser {
  let parser = parsers.get(schema);
  if (parser === undefined) {
    parser = compileStructuredParser(schema as JsonSchema);
    parsers.set(schema, parser);
  }
  return parser;
}

/**
 * The JSON text of `text` read against `schema`, and its fixes; `undefined` when the text needs
 * no repair (it is already conforming JSON) or cannot be read (the SDK then raises its usual
 * error).
 */
function repaired(text: unknown, schema: unknown, allowFixes: readonly ParseFixKind[] | undefined): { text: string; fixes: ParseFix[] } | undefined {
  if (typeof text !== 'string' || typeof schema !== 'object' || schema === null) return undefined;
  try {
    const { value, fixes } = parserFor(schema).parse(text, allowFixes === undefined ? undefined : { allowFixes });
    return fixes.length === 0 ? undefined : { text: JSON.stringify(value), fixes };
  } catch (error) {
    if (error instanceof StructuredParseError) return undefined;
    throw error;
  }
}

type Item = Record<string, any>;

/** The request's function tool called `name` (and `namespace`, when the call names one). */
function toolParameters(request: ModelRequest, item: Item): unknown {
  const tools: unknown = request.tools;
  if (!Array.isArray(tools)) return undefined;
  for (const tool of tools as Item[]) {
    if (tool?.type === 'function' && tool.name === item.name && (item.namespace === undefined || tool.namespace === undefined || tool.namespace === item.namespace)) {
      return tool.parameters;
    }
  }
  return undefined;
}

/**
 * The output items with repaired texts, or `output` itself when nothing needed repair. The
 * final output is the text of the last item when it is an assistant message (as
 * `getOutputText` of `@openai/agents-core` reads it, its `output_text` parts joined).
 */
function repairOutput(output: unknown, request: ModelRequest, options: RepairingModelOptions): unknown {
  // Without a request object (the inner model accepted one anyway) there are no schemas.
  if (!Array.isArray(output) || typeof request !== 'object' || request === null) return output;
  let copy: Item[] | undefined;
  const reports: RepairReport[] = [];
  output.forEach((item: Item, index) => {
    if (item?.type !== 'function_call') return;
    const fixed = repaired(item.arguments, toolParameters(request, item), options.allowFixes);
    if (fixed === undefined) return;
    copy ??= [...output];
    copy[index] = { ...item, arguments: fixed.text };
    reports.push({ kind: 'tool_arguments', toolName: item.name, callId: item.callId, fixes: fixed.fixes });
  });
  const outputType = request.outputType as Item | string | undefined;
  const last: Item | undefined = output[output.length - 1];
  if (typeof outputType === 'object' && outputType?.type === 'json_schema' && last?.type === 'message' && last.role === 'assistant' && Array.isArray(last.content)) {
    const parts = last.content as Item[];
    const texts = parts.filter((part) => part?.type === 'output_text');
    const fixed = texts.length === 0 ? undefined : repaired(texts.map((part) => part.text).join(''), outputType.schema, options.allowFixes);
    if (fixed !== undefined) {
      // The repaired text goes in the first text part; the other text parts are dropped.
      const first = texts[0];
      const content = parts.flatMap((part) => (part === first ? [{ ...part, text: fixed.text }] : part?.type === 'output_text' ? [] : [part]));
      copy ??= [...output];
      copy[output.length - 1] = { ...last, content };
      reports.push({ kind: 'output', fixes: fixed.fixes });
    }
  }
  for (const report of reports) options.onRepair?.(report);
  return copy ?? output;
}

class RepairingModel implements Model {
  readonly #model: Model;
  readonly #options: RepairingModelOptions;
  constructor(model: Model, options: RepairingModelOptions) {
    this.#model = model;
    this.#options = options;
    if (typeof model.getRetryAdvice === 'function') {
      Object.defineProperty(this, 'getRetryAdvice', { value: model.getRetryAdvice.bind(model), enumerable: false });
    }
  }

  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    const response = await this.#model.getResponse(request);
    const output = repairOutput(response?.output, request, this.#options);
    return output === response?.output ? response : { ...response, output: output as ModelResponse['output'] };
  }

  async *getStreamedResponse(request: ModelRequest): AsyncIterable<StreamEvent> {
    for await (const event of this.#model.getStreamedResponse(request)) {
      if ((event as Item)?.type !== 'response_done') {
        yield event;
        continue;
      }
      const done = event as Item;
      const output = repairOutput(done.response?.output, request, this.#options);
      yield (output === done.response?.output ? event : { ...done, response: { ...done.response, output } }) as StreamEvent;
    }
  }
}

/**
 * A `Model` that forwards every call to `model` and repairs what comes back against the schemas
 * the request carries: a function call's `arguments` that are not JSON conforming to that
 * tool's `parameters`, and, when the request's output type is a JSON schema, the final assistant
 * message's text, become the JSON text of the value `parseStructured` reads. Streamed calls pass
 * their deltas through and repair the `response_done` event. Clean outputs pass untouched; what
 * cannot be read is left as it was, so the SDK raises its usual error. Every repair is reported
 * to `options.onRepair`.
 *
 * @throws {TypeError} `model` is not a `Model` (no `getResponse` / `getStreamedResponse`).
 * @throws {UserError} an unknown repair kind in `options.allowFixes`.
 */
export function repairingModel(model: Model, options?: RepairingModelOptions): Model {
  if (typeof model !== 'object' || model === null || typeof model.getResponse !== 'function' || typeof model.getStreamedResponse !== 'function') {
    throw new TypeError(`repairingModel: model must be a Model (with getResponse and getStreamedResponse), got ${describeValue(model)}.`);
  }
  const { onRepair, allowFixes } = expectKnownOptions('repairingModel', options, ['onRepair', 'allowFixes']);
  if (onRepair !== undefined && typeof onRepair !== 'function') {
    throw new TypeError(`repairingModel: options.onRepair must be a function, got ${describeValue(onRepair)}.`);
  }
  // The engine checks the repair kinds now, not at the first broken reply.
  if (allowFixes !== undefined) parseStructured('{}', {}, { allowFixes });
  return new RepairingModel(model, { onRepair, allowFixes });
}

// --- partial values of a stream ----------------------------------------------------------------

/** One value {@link partialOutput} yields. */
export interface PartialOutput<T> {
  /** What the text so far determines (`complete: true`: the value `parseStructured` reads). */
  value: T | Partial<T> | undefined;
  complete: boolean;
  fixes: ParseFix[];
}

type StreamedRun = { toStream(): ReadableStream<unknown>; [Symbol.asyncIterator](): AsyncIterator<unknown> };

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
  const stream = run.toStream();
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
  const parser = compileStructuredParser(schema);
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
  const guide = isStandardSchemaWithJSON(schema) ? standardSchemaToJsonSchema(schema, 'input') : schema;
  const parser = compileStructuredParser(guide as JsonSchema);
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
