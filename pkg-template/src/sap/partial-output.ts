/** Typed partial values of a streamed run (`partialOutput`). */
import { describeValue, expectKnownOptions } from '../engine/args.js';
import { call } from '../engine/channel.js';
import type { JsonSchema } from '../schema/argument.js';
import { structuredParser, type BoundParser, type PartialOptions } from './parse.js';
import type { ParseFix } from '../engine/engine-types.js';
import type { StandardSchemaWithJSON } from '../schema/standard.js';
import { hostReadableFromWeb } from '../engine/host.js';
import { StructuredParseError } from '../engine/errors.js';
import type { Item } from './repairs.js';

/** One value {@link partialOutput} yields. */
export interface PartialOutput<T> {
  /** What the text so far determines (`complete: true`: the value `parseStructured` reads). */
  value: T | Partial<T> | undefined;
  complete: boolean;
  fixes: ParseFix[];
  /**
   * `true` on a value from another candidate than the values before it (a "Draft" block, then
   * the "Final" one): it may contradict them. The values after the last one so marked never
   * contradict the final value.
   */
  restarted?: true;
}

/**
 * A `StreamedRunResult` of `@openai/agents`, by the shape this module uses: its `toStream()`
 * returns the SDK's own stream type (a web `ReadableStream` at run time), so the type asks only
 * for what is read here.
 */
export type StreamedRun = { toStream(): unknown; [Symbol.asyncIterator](): AsyncIterator<unknown> };

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
        if (options?.compatibleWithNodeStreams && hostReadableFromWeb() === undefined) {
          throw new TypeError('toTextStream: compatibleWithNodeStreams needs Node streams, which this runtime\'s entry of @understudy/agents does not load.');
        }
        const text = theirs.pipeThrough(
          new TransformStream<any, string>({
            transform(event, controller) {
              if (event?.type === 'raw_model_stream_event' && event.data?.type === 'output_text_delta') controller.enqueue(event.data.delta);
            },
          }),
        );
        return options?.compatibleWithNodeStreams ? hostReadableFromWeb()!(text) : text;
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
    // Where the last shown value's candidate starts; `null` once a new response restarted the text.
    let shownStart: number | null | undefined;
    for await (const delta of deltas) {
      if (delta === null) {
        text = '';
        if (shownStart !== undefined) shownStart = null;
        continue;
      }
      if (typeof delta !== 'string') throw new TypeError(`partialOutput: each delta must be a string, got ${describeValue(delta)}.`);
      text += delta;
      const { value, fixes, candidateStart } = (parser as BoundParser<T>).partialReading(text, options);
      // `complete` waits for the end of the stream: more text may still follow the value.
      const key = JSON.stringify(value);
      if (value === undefined || key === shown) continue;
      const restarted = shownStart !== undefined && candidateStart !== shownStart;
      shown = key;
      shownStart = candidateStart;
      yield { value: value as Partial<T>, complete: false, fixes, ...(restarted ? { restarted: true as const } : {}) };
    }
    const { value, fixes } = parser.parse(text);
    // The final value's candidate: the last one, when the last partial reading is that value.
    const last = (parser as BoundParser<T>).partialReading(text);
    const finalStart = JSON.stringify(last.value) === JSON.stringify(value) ? last.candidateStart : -1;
    const restarted = shownStart !== undefined && finalStart !== shownStart;
    yield { value: value as T, complete: true, fixes, ...(restarted ? { restarted: true as const } : {}) };
  } finally {
    parser.free();
  }
}

