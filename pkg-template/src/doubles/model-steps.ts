/**
 * A script's inputs copied into steps in one pass, by the plan the engine made of them
 * (src/doubles/model.rs, `classifyModelSteps`): snapshots as the reference takes them, a
 * response's `usage` rebuilt with the user's `Usage` class.
 */
import { snapshotValue } from '../engine/snapshot.js';

/**
 * The steps of a scripted model, copied from its inputs by the plan the engine made of them
 * (`classifyModelSteps`: one letter per input, `Classified::plan_letter` in
 * `src/doubles/model.rs`): `r` the input is the response and `R` its `response` is (both
 * copied by {@link snapshotResponse}), `e` an error step (its advice a snapshot unless it is a
 * function), `f` / `F` a responder / stream responder (the function kept), `s` a stream (an
 * array of events copied, another iterable kept). Each input is read in the reference's order.
 */
export function prepareModelSteps(inputs: readonly any[], plan: string, usage: UsageClass): object[] {
  const steps: object[] = [];
  for (let i = 0; i < inputs.length; i++) {
    const input = inputs[i];
    switch (plan[i]) {
      case 'r':
        steps.push({ type: 'response', response: snapshotResponse(input, usage) });
        break;
      case 'R':
        steps.push({ type: 'response', response: snapshotResponse(input.response, usage) });
        break;
      case 'e': {
        const error = input.error;
        const advice = input.retryAdvice;
        steps.push({ type: 'error', error, retryAdvice: typeof advice === 'function' ? advice : snapshotValue(advice) });
        break;
      }
      case 'f':
        steps.push({ type: 'responder', respond: input.respond });
        break;
      case 'F':
        steps.push({ type: 'stream_responder', respond: input.respond });
        break;
      default: {
        const events = input.events;
        steps.push({ type: 'stream', events: Array.isArray(events) ? snapshotValue(events) : events });
      }
    }
  }
  return steps;
}

/** The class a scripted response's `usage` is rebuilt with (`Usage`; `Object` keeps a plain object). */
type UsageClass = new (init: Record<string, unknown>) => unknown;

const RESPONSE_IDS = ['responseId', 'requestId'] as const;
const USAGE_COUNTS = ['requests', 'inputTokens', 'outputTokens', 'totalTokens'] as const;
const ENTRY_FIELDS = ['inputTokens', 'outputTokens', 'totalTokens', 'inputTokensDetails', 'outputTokensDetails', 'endpoint'] as const;
const DESCRIPTOR_FIELDS = ['get', 'set', 'enumerable', 'configurable', 'writable'] as const;

/**
 * The queue-time copy of a response: an array as a snapshot; a complete response as a new
 * object with its output a snapshot, a new `usage` (counts copied, token details and request
 * entries as snapshots), its ids, its `providerData` a snapshot, and `rawUsage` copied with its
 * descriptor (a getter stays a getter, a value is a snapshot).
 */
function snapshotResponse(response: any, usage: UsageClass): unknown {
  if (Array.isArray(response)) return snapshotValue(response);
  const copy: Record<string, unknown> = { output: snapshotValue(response.output), usage: snapshotUsage(response.usage, usage) };
  for (const key of RESPONSE_IDS) {
    const value = response[key];
    if (value !== undefined) copy[key] = value;
  }
  const providerData = response.providerData;
  if (providerData !== undefined) copy.providerData = snapshotValue(providerData);
  const descriptor = Reflect.getOwnPropertyDescriptor(response, 'rawUsage');
  if (descriptor !== undefined) {
    const copied: PropertyDescriptor = {};
    for (const key of DESCRIPTOR_FIELDS) if (key in descriptor) (copied as any)[key] = descriptor[key];
    if ('value' in descriptor) copied.value = snapshotValue(descriptor.value);
    Reflect.defineProperty(copy, 'rawUsage', copied);
  }
  return copy;
}

function snapshotUsage(given: any, usage: UsageClass): unknown {
  const init: Record<string, unknown> = {};
  for (const key of USAGE_COUNTS) init[key] = given[key];
  init.inputTokensDetails = snapshotValue(given.inputTokensDetails);
  init.outputTokensDetails = snapshotValue(given.outputTokensDetails);
  const entries = given.requestUsageEntries;
  if (entries === null || entries === undefined) {
    init.requestUsageEntries = undefined;
  } else {
    const copied: Record<string, unknown>[] = [];
    // Read once; a count as the engine reads one (not a number: none; a fraction: its floor).
    const length: unknown = entries.length;
    const count = typeof length === 'number' && length > 0 ? Math.floor(Math.min(length, 0xffffffff)) : 0;
    for (let i = 0; i < count; i++) {
      const entry = entries[i];
      const e: Record<string, unknown> = {};
      for (const key of ENTRY_FIELDS) e[key] = key.endsWith('Details') ? snapshotValue(entry[key]) : entry[key];
      copied.push(e);
    }
    init.requestUsageEntries = copied;
  }
  return Reflect.construct(usage, [init]);
}

