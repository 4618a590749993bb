/**
 * Assertions for agent tests over the models of this package (`ScriptedModel`, cassette models,
 * `recordingModel`): which tools the model was offered and which it called. Each model keeps a
 * log of the function tools of its requests and the function calls of its responses; the
 * assertions read it and throw an `AssertionError` (Node's, where there is one) whose message
 * shows what was expected and what happened.
 */
import { nodeBuiltin } from '../engine/host.js';
import { describeValue } from '../engine/args.js';
import type { SchemaProviderName } from '../engine/codes.js';
import { toolCheck, type ToolSetLike } from '../schema/tools.js';

/** One function call a model returned. */
export interface LoggedToolCall {
  name: string;
  /** The arguments as the model sent them (JSON text). */
  arguments: string;
  callId?: string;
}

interface ToolLog {
  /** Per request, the names of its function tools. */
  offered: string[][];
  calls: LoggedToolCall[];
  /** Read from an AI SDK result, which does not say which tools were offered. */
  fromResult?: boolean;
}

/** Kept on the global object, as the running test is (test-names.ts): one log per model however often the package is loaded. */
const shared: { logs: WeakMap<object, ToolLog>; models: WeakSet<object> } = ((globalThis as any)[Symbol.for('@understudy/agents.tool-logs')] ??= {
  logs: new WeakMap(),
  models: new WeakSet(),
});
const logs = shared.logs;

function logOf(model: object): ToolLog {
  let log = logs.get(model);
  if (log === undefined) {
    log = { offered: [], calls: [] };
    logs.set(model, log);
  }
  return log;
}

/** @internal A model saw `request`: remember the names of its function tools. */
export function logRequest(model: object, request: unknown): void {
  const tools: unknown = (request as { tools?: unknown } | null)?.tools;
  const names = Array.isArray(tools) ? tools.filter((t) => t?.type === 'function' && typeof t.name === 'string').map((t) => t.name as string) : [];
  logOf(model).offered.push(names);
}

/** @internal A model returned `output` (a response's, or a `response_done` event's). */
export function logOutput(model: object, output: unknown): void {
  if (!Array.isArray(output)) return;
  const log = logOf(model);
  for (const item of output) {
    if (item?.type === 'function_call' && typeof item.name === 'string') {
      log.calls.push({ name: item.name, arguments: String(item.arguments ?? ''), ...(item.callId === undefined ? {} : { callId: item.callId }) });
    }
  }
}

/**
 * The AI SDK's tool-call parts (`{ type: 'tool-call', toolName, input, toolCallId }`, as a
 * language model answers them and as a result's `toolCalls` hold them) as logged calls: the
 * input as JSON text (a result holds it parsed).
 */
function callsOfParts(parts: unknown): LoggedToolCall[] {
  if (!Array.isArray(parts)) return [];
  return parts
    .filter((p) => p?.type === 'tool-call' && typeof p.toolName === 'string')
    .map((p) => ({ name: p.toolName, arguments: typeof p.input === 'string' ? p.input : JSON.stringify(p.input ?? {}), ...(typeof p.toolCallId === 'string' ? { callId: p.toolCallId } : {}) }));
}

/** @internal A language model answered with `parts` (content or stream parts): log their tool calls. */
export function logToolCallParts(model: object, parts: unknown): void {
  logOf(model).calls.push(...callsOfParts(parts));
}

/** Node's `AssertionError` where there is one (its test runners print `actual` / `expected`), else a look-alike. */
class FallbackAssertionError extends Error {
  readonly actual: unknown;
  readonly expected: unknown;
  readonly operator: string;
  readonly code = 'ERR_ASSERTION';
  constructor(options: { message: string; actual: unknown; expected: unknown; operator: string }) {
    super(options.message);
    this.name = 'AssertionError';
    this.actual = options.actual;
    this.expected = options.expected;
    this.operator = options.operator;
  }
}

function assertionError(message: string, actual: unknown, expected: unknown, operator: string): Error {
  const nodeAssert = nodeBuiltin<{ AssertionError?: new (o: object) => Error }>('node:assert');
  const Class = nodeAssert?.AssertionError ?? FallbackAssertionError;
  return new Class({ message, actual, expected, operator });
}

/**
 * The tool calls of an AI SDK result (`generateText`'s, or `{ steps }` of a `streamText` run's
 * awaited `steps`), as a log without offered tools; `undefined` for anything else.
 */
function resultLog(fn: string, value: object): ToolLog | undefined {
  const steps = (value as { steps?: unknown }).steps;
  if (typeof (steps as PromiseLike<unknown> | undefined)?.then === 'function') {
    throw new TypeError(`${fn}: this result's steps are a promise (streamText): pass { steps: await result.steps }.`);
  }
  if (!Array.isArray(steps)) return undefined;
  return { offered: [], calls: steps.flatMap((step) => callsOfParts(step?.toolCalls)), fromResult: true };
}

function checkedLog(fn: string, model: unknown, name?: unknown): ToolLog {
  if ((typeof model !== 'object' && typeof model !== 'function') || model === null) throw new TypeError(`${fn}: model must be a model of @understudy/agents, got ${describeValue(model)}.`);
  if (name !== undefined && typeof name !== 'string') throw new TypeError(`${fn}: name must be a string, got ${describeValue(name)}.`);
  const log = logs.get(model);
  if (log === undefined && !isOurModel(model)) {
    const fromResult = resultLog(fn, model);
    if (fromResult !== undefined) return fromResult;
  }
  if (log === undefined) {
    // A model of this package that was never called has an empty log; anything else never has one.
    if (!isOurModel(model)) {
      const languageModel = typeof (model as { doGenerate?: unknown }).doGenerate === 'function';
      throw new TypeError(
        languageModel
          ? `${fn}: this language model's calls are not logged: pass the scriptedLanguageModel, cassette or recordingLanguageModel itself, not a wrapLanguageModel(...) or other model around it.`
          : `${fn}: model must be a ScriptedModel, a cassette model or a recordingModel of @understudy/agents (the model itself, not a repairingModel(...) around it).`,
      );
    }
    return { offered: [], calls: [] };
  }
  return log;
}

const ourModels = shared.models;
/** @internal Marks a model whose calls are logged (before its first call). */
export function registerLoggedModel(model: object): void {
  ourModels.add(model);
}
function isOurModel(model: object): boolean {
  return ourModels.has(model);
}

/** Arguments as compared: parsed JSON (its key order ignored by the comparison), else the text. */
function normalized(args: string): unknown {
  try {
    return JSON.parse(args);
  } catch {
    return args;
  }
}

function canonical(value: unknown): string {
  return JSON.stringify(value, (_k, v) => (v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : v));
}

const show = (v: unknown) => JSON.stringify(v);

/** Options of {@link assertToolCalled}. */
export interface ToolCalledOptions {
  /**
   * `args` names some of the arguments: each of its keys must hold an equal value (objects
   * compared the same way, recursively; arrays and other values whole).
   */
  partial?: boolean;
}

/** Whether `actual` holds `expected`: every key of an expected object, recursively; anything else equal as JSON. */
function holds(actual: unknown, expected: unknown): boolean {
  if (typeof expected === 'object' && expected !== null && !Array.isArray(expected)) {
    if (typeof actual !== 'object' || actual === null || Array.isArray(actual)) return false;
    return Object.entries(expected).every(([k, v]) => Object.prototype.hasOwnProperty.call(actual, k) && holds((actual as Record<string, unknown>)[k], v));
  }
  return canonical(actual) === canonical(expected);
}

/**
 * Asserts the model called tool `name` (a function call in one of its responses) and, when
 * `args` is given, with arguments equal to `args` once both are read as JSON (key order and
 * whitespace ignored), or holding them with `options.partial`. `model` may also be an AI SDK
 * result (`generateText`'s, or `{ steps }` of a `streamText` run).
 *
 * @throws {AssertionError} no such call; the message lists the calls there were.
 */
export function assertToolCalled(model: object, name: string, args?: unknown, options?: ToolCalledOptions): void {
  const log = checkedLog('assertToolCalled', model, name);
  checkExpectedArgs('assertToolCalled', args);
  if (options !== undefined && (typeof options !== 'object' || options === null)) throw new TypeError(`assertToolCalled: options must be an object, got ${describeValue(options)}.`);
  const partial = options?.partial === true;
  const named = log.calls.filter((c) => c.name === name);
  if (named.length === 0) {
    const made = log.calls.map((c) => c.name);
    throw assertionError(`Expected the model to call tool "${name}"; it called ${made.length === 0 ? 'no tool' : made.map(show).join(', ')}.`, made, [name], 'assertToolCalled');
  }
  if (args === undefined) return;
  const expected = typeof args === 'string' ? normalized(args) : args;
  const wanted = canonical(expected);
  if (named.some((c) => (partial ? holds(normalized(c.arguments), expected) : canonical(normalized(c.arguments)) === wanted))) return;
  const seen = named.map((c) => normalized(c.arguments));
  throw assertionError(
    `Expected the model to call tool "${name}" with ${partial ? 'arguments holding ' : ''}${wanted}; its calls of "${name}" had:\n${seen.map((s) => `  ${canonical(s)}`).join('\n')}`,
    seen.length === 1 ? seen[0] : seen,
    expected,
    'assertToolCalled',
  );
}

/** Refuses expected arguments that are a schema (compared as JSON they would be its internals). */
function checkExpectedArgs(fn: string, args: unknown): void {
  if ((typeof args === 'object' || typeof args === 'function') && args !== null && '~standard' in args) {
    throw new TypeError(`${fn}: args is a schema (a Standard Schema such as Zod's); give the arguments expected, as an object or JSON text (e.g. { city: 'Oslo' }).`);
  }
}

/**
 * @internal The arguments of each call of tool `name` (parsed JSON, else the text), for
 * matchers that compare with their runner's own equality (vitest's asymmetric matchers).
 */
export function toolCallArguments(fn: string, model: object, name: string): unknown[] {
  const log = checkedLog(fn, model, name);
  return log.calls.filter((c) => c.name === name).map((c) => normalized(c.arguments));
}

/**
 * Asserts the model never called tool `name`.
 *
 * @throws {AssertionError} it did; the message gives each call's arguments.
 */
export function assertToolNotCalled(model: object, name: string): void {
  const log = checkedLog('assertToolNotCalled', model, name);
  const named = log.calls.filter((c) => c.name === name);
  if (named.length === 0) return;
  throw assertionError(
    `Expected the model not to call tool "${name}"; it called it ${named.length} time${named.length === 1 ? '' : 's'}:\n${named.map((c) => `  ${c.arguments}`).join('\n')}`,
    named.map((c) => normalized(c.arguments)),
    [],
    'assertToolNotCalled',
  );
}

/**
 * Asserts the model called tool `name` exactly `times` times.
 *
 * @throws {AssertionError} another count; the message gives each call's arguments.
 * @throws {TypeError} `times` is not a non-negative integer.
 */
export function assertToolCalledTimes(model: object, name: string, times: number): void {
  const log = checkedLog('assertToolCalledTimes', model, name);
  if (!Number.isInteger(times) || times < 0) throw new TypeError(`assertToolCalledTimes: times must be a non-negative integer, got ${describeValue(times)}.`);
  const named = log.calls.filter((c) => c.name === name);
  if (named.length === times) return;
  const list = named.length === 0 ? '' : `:\n${named.map((c) => `  ${c.arguments}`).join('\n')}`;
  throw assertionError(`Expected the model to call tool "${name}" ${times} time${times === 1 ? '' : 's'}; it called it ${named.length} time${named.length === 1 ? '' : 's'}${list}`, named.length, times, 'assertToolCalledTimes');
}

/**
 * Asserts the model's tool calls, in the order it made them (over all its calls), are exactly
 * `names`. `model` may also be an AI SDK result.
 *
 * @throws {AssertionError} another order or other calls; the message gives the calls made.
 */
export function assertToolCallOrder(model: object, names: readonly string[]): void {
  const log = checkedLog('assertToolCallOrder', model);
  if (!Array.isArray(names) || names.some((n) => typeof n !== 'string')) {
    throw new TypeError(`assertToolCallOrder: names must be an array of strings, got ${describeValue(names)}.`);
  }
  const made = log.calls.map((c) => c.name);
  if (made.length === names.length && made.every((n, i) => n === names[i])) return;
  throw assertionError(`Expected the model to call ${names.map(show).join(', ') || 'no tool'}, in that order; it called ${made.map(show).join(', ') || 'no tool'}.`, made, [...names], 'assertToolCallOrder');
}

/** Options of {@link assertToolsOffered}. */
export interface ToolsOfferedOptions {
  /** Only this call (zero-based, as in `calls`): what `activeTools` left for that step. */
  call?: number;
}

/**
 * Asserts the function tools offered to the model, over all its calls (or in call
 * `options.call`), are exactly `names` (in any order).
 *
 * @throws {AssertionError} they differ; the message says which are missing and which extra.
 * @throws {TypeError} `model` is an AI SDK result, which does not say which tools were offered.
 */
export function assertToolsOffered(model: object, names: readonly string[], options?: ToolsOfferedOptions): void {
  const whole = checkedLog('assertToolsOffered', model);
  if (whole.fromResult) throw new TypeError('assertToolsOffered: an AI SDK result does not say which tools were offered: pass the model.');
  if (!Array.isArray(names) || names.some((n) => typeof n !== 'string')) {
    throw new TypeError(`assertToolsOffered: names must be an array of strings, got ${describeValue(names)}.`);
  }
  if (options !== undefined && (typeof options !== 'object' || options === null)) throw new TypeError(`assertToolsOffered: options must be an object, got ${describeValue(options)}.`);
  const call = options?.call;
  if (call !== undefined && !(Number.isInteger(call) && call >= 0)) throw new TypeError(`assertToolsOffered: options.call must be a call's index (a non-negative integer), got ${describeValue(call)}.`);
  if (call !== undefined && call >= whole.offered.length) {
    throw assertionError(`Expected call #${call + 1} to be offered ${names.map(show).join(', ') || 'no tools'}; the model received ${whole.offered.length} call${whole.offered.length === 1 ? '' : 's'}.`, whole.offered.length, call + 1, 'assertToolsOffered');
  }
  const log = call === undefined ? whole : { ...whole, offered: [whole.offered[call]] };
  const offered = [...new Set(log.offered.flat())].sort();
  const expected = [...new Set(names)].sort();
  const missing = expected.filter((n) => !offered.includes(n));
  const extra = offered.filter((n) => !expected.includes(n));
  if (missing.length === 0 && extra.length === 0) return;
  const parts = [missing.length > 0 ? `missing ${missing.map(show).join(', ')}` : '', extra.length > 0 ? `not expected ${extra.map(show).join(', ')}` : ''].filter(Boolean);
  throw assertionError(
    `Expected the model to be offered exactly ${expected.map(show).join(', ') || 'no tools'} ${call === undefined ? `over ${log.offered.length} call${log.offered.length === 1 ? '' : 's'}` : `in call #${call + 1}`}; ${parts.join('; ')}.`,
    offered,
    expected,
    'assertToolsOffered',
  );
}

/**
 * Asserts that every tool of a set goes to each provider (default: OpenAI, Anthropic, Gemini):
 * none is refused and the whole set is within each provider's request limits (`checkTools`).
 * Conversions pass; what they change is in `checkTools`' report.
 *
 * @throws {AssertionError} a refused tool or a limit breach; the message lists every one with
 * the provider, the JSON Pointer and what to change.
 * @throws {UserError} a value that is not a tool set, or an unknown provider.
 */
export function assertToolsAccepted(tools: ToolSetLike, providers?: SchemaProviderName | readonly SchemaProviderName[]): void {
  const { report, failure } = toolCheck(tools, providers, 'refusals', 'assertToolsAccepted');
  if (failure !== null) throw assertionError(failure, report.results.filter((r) => r.status === 'refused'), [], 'assertToolsAccepted');
}

/** What {@link assertRetried} checks: the call that retries, and the least wait before it. */
export interface RetriedOptions {
  /** The zero-based index in `calls` of the call that should be a retry. */
  call: number;
  /** The least milliseconds between the failed call's arrival and this one's (a `retry-after` honoured). */
  after?: number;
}

type HttpCallLike = { index: number; endpoint: string; at: number; retryOf?: number; method: string; url: string };

/**
 * Asserts that call `call` of an HTTP double (`scriptedFetch`, `providerServer`, one of their
 * sessions) sends again the request of an earlier call that failed (an error status, a fault,
 * a network error), and, with `after`, that it came at least `after` ms after it.
 *
 * @throws {AssertionError} it is not a retry, or came sooner; the message lists the calls with
 * their times.
 * @throws {TypeError} `double` has no HTTP calls, or `options` is malformed.
 */
export function assertRetried(double: object, options: RetriedOptions): void {
  const calls = (double as { calls?: unknown } | null)?.calls;
  if (!Array.isArray(calls) || !calls.every((c) => typeof (c as HttpCallLike | null)?.at === 'number')) {
    throw new TypeError(`assertRetried: double must be a scriptedFetch, a providerServer or one of their sessions, got ${describeValue(double)}.`);
  }
  const { call, after } = (options ?? {}) as RetriedOptions;
  if (!Number.isInteger(call) || call < 0) throw new TypeError(`assertRetried: options.call must be a call's zero-based index, got ${describeValue(call)}.`);
  if (after !== undefined && !(typeof after === 'number' && after >= 0 && Number.isFinite(after))) throw new TypeError(`assertRetried: options.after must be a non-negative number of milliseconds, got ${describeValue(after)}.`);
  const list = calls as HttpCallLike[];
  const lines = list.map((c) => `  #${c.index} ${c.method} ${c.url} at ${Math.round(c.at)} ms${c.retryOf === undefined ? '' : ` (retry of #${c.retryOf})`}`).join('\n');
  const made = `Calls made:\n${lines || '  (none)'}`;
  const retry = list[call];
  if (retry === undefined) throw assertionError(`Expected call #${call} to be a retry, but the double received ${list.length} call(s).\n${made}`, list.length, call + 1, 'assertRetried');
  if (retry.retryOf === undefined) throw assertionError(`Expected call #${call} to retry an earlier failed call, but no failed call sent the same request.\n${made}`, undefined, 'a retry', 'assertRetried');
  const waited = retry.at - list[retry.retryOf].at;
  if (after !== undefined && waited < after) {
    throw assertionError(`Expected call #${call} to retry call #${retry.retryOf} at least ${after} ms after it, but it came after ${Math.round(waited)} ms.\n${made}`, waited, after, 'assertRetried');
  }
}
