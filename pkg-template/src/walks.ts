/**
 * Mechanical walks the engine runs in JavaScript, in one crossing each, under rules the engine
 * states (`src/wasm/snapshot.rs`, `src/wasm/standard.rs`): crossing into the engine once per
 * property cost more than the work itself. They decide nothing; the engine calls them and
 * decides what their results mean. `installEngine` hands them to the engine.
 */
import { StandardOutcome } from './codes.js';
import { textCodec } from './host.js';

// --- Standard Schema call ------------------------------------------------------------------

let standardPayload: unknown;

/**
 * Runs the reference's own expression (so a wrong schema gets its TypeError word for word) and
 * reads the result as a {@link StandardOutcome}; the value, the thenable or the issues wait for
 * {@link takeStandardPayload}.
 */
export function standardCall(schema: any, value: unknown): number {
  const result = schema['~standard'].validate(value);
  if ((typeof result === 'object' || typeof result === 'function') && result !== null && typeof result.then === 'function') {
    standardPayload = result;
    return StandardOutcome.Thenable;
  }
  const issues = result.issues;
  if (issues) {
    standardPayload = issues;
    return StandardOutcome.Issues;
  }
  standardPayload = result.value;
  return StandardOutcome.Value;
}

export function takeStandardPayload(): unknown {
  const payload = standardPayload;
  standardPayload = undefined;
  return payload;
}

/**
 * The texts of a Standard Schema's issues, read in one pass as the reference reads them (in
 * its order: each issue's `path`, a segment object's `key`, then its `message`, each as
 * `String()` gives it), encoded for the engine, which builds the message from them
 * (src/wasm/standard.rs `issue_texts`): per issue a field with the number of path segments
 * (empty without a path; `!` appended when the message was nullish), the segments, and the
 * message, each field `<length>:<text>`. Not an array of issues, a nullish issue or a `path`
 * that is not an array throw the reference's TypeErrors; what user code throws passes through.
 */
export function issueTexts(issues: unknown): string {
  if (!Array.isArray(issues)) throw new TypeError('result.issues.map is not a function');
  const field = (text: string) => `${text.length}:${text}`;
  let out = '';
  for (let i = 0; i < issues.length; i++) {
    const issue = issues[i];
    // Reading a property of a nullish issue throws the TypeError the reference's read throws.
    const path: unknown = issue.path;
    let segments = '';
    let count = '';
    if (path !== null && path !== undefined) {
      if (!Array.isArray(path)) throw new TypeError('issue.path.map is not a function');
      count = String(path.length);
      for (let j = 0; j < path.length; j++) {
        const segment: unknown = path[j];
        segments += field(String(typeof segment === 'object' && segment !== null ? (segment as { key?: unknown }).key : segment));
      }
    }
    const message: unknown = issue.message;
    out += field(message === null || message === undefined ? `${count}!` : count) + segments + field(String(message));
  }
  return out;
}

/** What a caught exception says: an Error's message, or the value as a string. */
function messageOf(thrown: unknown): string {
  return thrown instanceof Error ? thrown.message : String(thrown);
}

// --- snapshots ---------------------------------------------------------------

const fnToString = Function.prototype.toString;
const tagOf = Object.prototype.toString;
const hasOwn = Object.prototype.hasOwnProperty;
const isEnumerable = Object.prototype.propertyIsEnumerable;
const objectSource = fnToString.call(Object);
const objectPrototype = Object.prototype;
/** Constructors whose source was found to be `Object`'s (a function's source never changes). */
const objectConstructors = new WeakSet<Function>();

/** `null`, or a prototype whose own `constructor` has `Object`'s source (any realm). */
function isPlainPrototype(prototype: object | null): boolean {
  if (prototype === null) return true;
  if (!hasOwn.call(prototype, 'constructor')) return false;
  const ctor: unknown = Reflect.get(prototype, 'constructor');
  if (typeof ctor !== 'function') return false;
  if (objectConstructors.has(ctor)) return true;
  if (fnToString.call(ctor) !== objectSource) return false;
  objectConstructors.add(ctor);
  return true;
}

/** One descriptor object, reused: `defineProperty` reads it and keeps nothing. */
const dataDescriptor: PropertyDescriptor = { value: undefined, writable: true, enumerable: true, configurable: true };

/**
 * Defines `key` on a fresh copy as a data property (no setter runs, `__proto__` included).
 * Where the copy's prototype has no such property, assignment does exactly that, and fast;
 * elsewhere (`constructor`, `__proto__`, a key someone put on `Object.prototype`) it defines.
 */
function define(target: object, prototype: object | null, key: string | symbol, value: unknown): void {
  if (prototype === null || !(key in prototype)) {
    (target as any)[key] = value;
    return;
  }
  dataDescriptor.value = value;
  Reflect.defineProperty(target, key, dataDescriptor);
  dataDescriptor.value = undefined;
}

interface Frame {
  source: any;
  copy: any;
  /** Own keys of a plain object; `undefined` for an array (indices up to `len`). */
  keys: (string | symbol)[] | undefined;
  /** Every key in `keys` is enumerable (they came from `Object.keys`). */
  enumerable: boolean;
  len: number;
  next: number;
  /** The copy's prototype (a plain object's). */
  prototype: object | null;
}

/** Below this depth the walk recurses (as fast as the reference's); deeper, it iterates. */
const RECURSION_LIMIT = 256;

const ARRAY = 1;
const OBJECT = 2;

/** Thrown inside {@link Walk.like} when a cycle runs through a value it has not decided yet. */
const CYCLE = Symbol('cycle');
/** {@link Walk.like}'s entry in `seen` for a value whose copy is still being decided. */
const OPEN = Symbol('open');

function cycle(): never {
  throw CYCLE;
}

/** Whether two key lists are equal, in order. */
function sameKeys(a: string[], b: string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** One snapshot: the identity map, and what {@link Walk.shell} found out about its value. */
class Walk {
  readonly seen = new Map<object, unknown>();
  /** {@link Walk.like}: copies of the earlier snapshot taken over, each for one value at most. */
  used: Set<object> | undefined;
  /** {@link Walk.like}: the entries of the containers being decided, one stretch each. */
  readonly entries: unknown[] = [];
  /** Set by `shell`: `ARRAY` or `OBJECT` when the copy's entries are still to fill, else 0. */
  kind = 0;
  keys: (string | symbol)[] = [];
  /** Every key in `keys` is enumerable (they came from `Object.keys`). */
  enumerable = false;
  prototype: object | null = null;

  /** A container's empty copy (registered in `seen`), or the value itself when it is kept. */
  shell(v: object): unknown {
    this.kind = 0;
    if (Array.isArray(v)) {
      const copy: unknown[] = [];
      this.seen.set(v, copy);
      this.kind = ARRAY;
      return copy;
    }
    const prototype = Reflect.getPrototypeOf(v);
    if (prototype === objectPrototype) {
      // The common case, an object literal: its enumerable string keys, and its own symbols
      // only when it has any (then every key, each checked as below).
      const copy = {};
      this.seen.set(v, copy);
      this.kind = OBJECT;
      this.prototype = prototype;
      const symbols = Object.getOwnPropertySymbols(v);
      this.enumerable = symbols.length === 0;
      this.keys = this.enumerable ? Object.keys(v) : Reflect.ownKeys(v);
      return copy;
    }
    const tag = tagOf.call(v);
    if (tag === '[object ArrayBuffer]' || tag === '[object SharedArrayBuffer]') {
      const copy = (v as ArrayBuffer).slice(0);
      this.seen.set(v, copy);
      return copy;
    }
    if (ArrayBuffer.isView(v)) {
      const buffer = this.value((v as ArrayBufferView).buffer, 0);
      const offset = (v as ArrayBufferView).byteOffset;
      const copy =
        tag === '[object DataView]'
          ? Reflect.construct(DataView, [buffer, offset, (v as DataView).byteLength])
          : Reflect.construct((v as any).constructor, [buffer, offset, (v as any).length]);
      this.seen.set(v, copy);
      this.kind = 0;
      return copy;
    }
    if (!isPlainPrototype(prototype)) return v;
    const copy = Object.create(prototype);
    this.seen.set(v, copy);
    this.kind = OBJECT;
    this.enumerable = false;
    this.keys = Reflect.ownKeys(v);
    this.prototype = prototype;
    return copy;
  }

  /** The snapshot of `v`, recursing while `depth` is below {@link RECURSION_LIMIT}. */
  value(v: unknown, depth: number): unknown {
    if (typeof v !== 'object' || v === null) return v;
    // A copy is an object, never `undefined`: one lookup answers both questions.
    const known = this.seen.get(v);
    if (known !== undefined) return known === OPEN ? cycle() : known;
    if (depth >= RECURSION_LIMIT) return this.deep(v);
    const copy = this.shell(v);
    if (this.kind === ARRAY) {
      const source = v as unknown[];
      const len = source.length;
      for (let i = 0; i < len; i++) (copy as unknown[]).push(this.value(source[i], depth + 1));
    } else if (this.kind === OBJECT) {
      const { keys, prototype, enumerable } = this;
      for (let i = 0; i < keys.length; i++) {
        const key = keys[i]!;
        if (!enumerable && !isEnumerable.call(v, key)) continue;
        define(copy as object, prototype, key, this.value((v as any)[key], depth + 1));
      }
    }
    return copy;
  }

  /**
   * The snapshot of `v`, taking over `earlier`'s copy (a copy made by this walk, never handed
   * out) wherever a fresh copy would equal it exactly: an array or object literal whose entries
   * are, in order, the same keys and the same values (identical primitives and kept objects, or
   * copies taken over in turn), each earlier copy standing for one value at most, so identities
   * stay as the rule makes them. Every value is read once. Other containers are copied as usual.
   */
  like(v: unknown, earlier: unknown, depth: number): unknown {
    if (typeof v !== 'object' || v === null) return v;
    const seen = this.seen;
    const known = seen.get(v);
    if (known !== undefined) return known === OPEN ? cycle() : known;
    if (typeof earlier !== 'object' || earlier === null || depth >= RECURSION_LIMIT) return this.value(v, depth);
    const isArray = Array.isArray(v);
    if (!isArray && (Reflect.getPrototypeOf(v) !== objectPrototype || Object.getOwnPropertySymbols(v).length !== 0)) return this.value(v, depth);
    const used = this.used!;
    const entries = this.entries;
    const start = entries.length;
    let keys: string[] | undefined;
    let same: boolean;
    seen.set(v, OPEN);
    if (isArray) {
      const source = v as unknown[];
      const len = source.length;
      const before = Array.isArray(earlier) ? (earlier as unknown[]) : undefined;
      same = before !== undefined && before.length === len && !used.has(before);
      for (let i = 0; i < len; i++) {
        const x = this.like(source[i], before?.[i], depth + 1);
        entries.push(x);
        if (same && x !== before![i]) same = false;
      }
    } else {
      keys = Object.keys(v);
      const before = !Array.isArray(earlier) && Reflect.getPrototypeOf(earlier) === objectPrototype ? (earlier as Record<string, unknown>) : undefined;
      same = before !== undefined && !used.has(before);
      for (let i = 0; i < keys.length; i++) {
        const key = keys[i]!;
        const had = before !== undefined && hasOwn.call(before, key);
        const x = this.like((v as any)[key], had ? before![key] : undefined, depth + 1);
        entries.push(x);
        if (same && (!had || x !== before![key])) same = false;
      }
      // The same keys with the same values; the earlier copy has no other key, in the same order.
      if (same) same = sameKeys(keys, Object.keys(before!));
    }
    let copy: object;
    if (same) {
      copy = earlier as object;
      used.add(copy);
    } else if (keys === undefined) {
      copy = entries.slice(start);
    } else {
      copy = {};
      for (let i = 0; i < keys.length; i++) define(copy, objectPrototype, keys[i]!, entries[start + i]);
    }
    entries.length = start;
    seen.set(v, copy);
    return copy;
  }

  /** The same walk with an explicit stack, for subtrees deeper than the recursion limit. */
  deep(value: object): unknown {
    const stack: Frame[] = [];
    const visit = (v: unknown): unknown => {
      if (typeof v !== 'object' || v === null) return v;
      const known = this.seen.get(v);
      if (known !== undefined) return known === OPEN ? cycle() : known;
      const copy = this.shell(v);
      if (this.kind === ARRAY) stack.push({ source: v, copy, keys: undefined, enumerable: true, len: (v as unknown[]).length, next: 0, prototype: null });
      else if (this.kind === OBJECT) stack.push({ source: v, copy, keys: this.keys, enumerable: this.enumerable, len: this.keys.length, next: 0, prototype: this.prototype });
      return copy;
    };
    const root = visit(value);
    while (stack.length > 0) {
      const frame = stack[stack.length - 1];
      if (frame.next >= frame.len) {
        stack.pop();
        continue;
      }
      const i = frame.next++;
      if (frame.keys === undefined) {
        frame.copy.push(visit(Reflect.get(frame.source, i)));
        continue;
      }
      const key = frame.keys[i];
      if (!frame.enumerable && !isEnumerable.call(frame.source, key)) continue;
      define(frame.copy, frame.prototype, key, visit(Reflect.get(frame.source, key)));
    }
    return root;
  }
}

/**
 * The snapshot rule of `src/wasm/snapshot.rs`: arrays, buffers, typed arrays, `DataView`s and
 * plain objects (prototype `null` or `Object`'s) are copied, with enumerable own keys (symbols
 * included) as data properties; any other object is kept by identity; cycles and shared
 * references map to one copy. Recursive to a bounded depth and iterative below it, so depth
 * costs heap, not stack. User code (getters, proxy traps) may throw; the exception propagates.
 */
export function snapshotValue(value: unknown): unknown {
  return new Walk().value(value, 0);
}

/**
 * {@link snapshotValue}, taking over the parts of `earlier` (an earlier snapshot of the same
 * kind of value, made here and kept private) that a fresh copy would equal: a double that
 * records a growing history holds each unchanged item once instead of once per call. A cycle
 * through the value ends the sharing: the value is then snapshotted afresh (its getters, read
 * until the cycle was met, are read again).
 */
export function snapshotLike(value: unknown, earlier: unknown): unknown {
  if (earlier === undefined) return snapshotValue(value);
  const walk = new Walk();
  walk.used = new Set();
  try {
    return walk.like(value, earlier, 0);
  } catch (thrown) {
    if (thrown !== CYCLE) throw thrown;
    return snapshotValue(value);
  }
}

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

/** A frozen snapshot: what a double records of a request. */
export function frozenSnapshot<T>(value: T): T {
  return Object.freeze(snapshotValue(value)) as T;
}

// --- redaction patterns (src/doubles/cassette.rs `PatternHost`) --------------------------------

/** Compiled patterns by flags and source; bounded like the engine's native cache. */
const patternCache = new Map<string, RegExp>();

function pattern(source: string, flags: string): RegExp {
  const key = `${flags}/${source}`;
  let re = patternCache.get(key);
  if (re === undefined) {
    if (patternCache.size >= 64) patternCache.clear();
    re = new RegExp(source, `g${flags}`);
    patternCache.set(key, re);
  }
  return re;
}

/** `undefined` when every pattern compiles, else `[index, message]` of the first that does not. */
export function checkPatterns(sources: string[], flags: string[]): [number, string] | undefined {
  for (let i = 0; i < sources.length; i++) {
    try {
      pattern(sources[i]!, flags[i]!);
    } catch (thrown) {
      return [i, messageOf(thrown)];
    }
  }
  return undefined;
}

/** Patterns as the engine hands them over: sources, flags, and whether groups 1 and 2 stay. */
type PatternSpec = [string[], string[], boolean[]];

/** Whether an `allow` pattern finds something in `text`. */
function allowedBy(allow: RegExp[], text: string): boolean {
  return allow.some((re) => {
    re.lastIndex = 0;
    return re.test(text);
  });
}

/**
 * Each text with every match of every pattern replaced by `replacement` (literally: a function
 * replacer, so `$` in it means nothing; between groups 1 and 2 for a `keep` pattern), pattern
 * after pattern, except a match an `allow` pattern finds something in: `undefined` where
 * nothing was replaced, else `[replaced, ...taken]`, `taken` being what each replacement took
 * out (the engine takes it out wherever else it stands).
 */
export function redactTexts(texts: string[], [sources, flags, keeps]: PatternSpec, replacement: string, [allowSources, allowFlags]: PatternSpec): (string[] | undefined)[] {
  const res = sources.map((s, i) => pattern(s, flags[i]!));
  const allow = allowSources.map((s, i) => pattern(s, allowFlags[i]!));
  return texts.map((text) => {
    let out: string[] | undefined;
    res.forEach((re, i) => {
      re.lastIndex = 0;
      const current = out?.[0] ?? text;
      if (!re.test(current)) return;
      re.lastIndex = 0;
      const taken: string[] = [];
      const replaced = current.replace(re, (whole: string, ...groups: unknown[]) => {
        if (allow.length > 0 && allowedBy(allow, whole)) return whole;
        if (!keeps[i]) {
          taken.push(whole);
          return replacement;
        }
        const group = (g: unknown) => (typeof g === 'string' ? g : '');
        const [before, after] = [group(groups[0]), group(groups[1])];
        taken.push(whole.slice(before.length, whole.length - after.length));
        return `${before}${replacement}${after}`;
      });
      if (replaced !== current) out = [replaced, ...(out?.slice(1) ?? []), ...taken];
    });
    return out;
  });
}

/** `[text, pattern]` of the first match no `allow` pattern finds anything in; `undefined` for none. */
export function findSecret(texts: string[], [sources, flags]: PatternSpec, [allowSources, allowFlags]: PatternSpec): [number, number] | undefined {
  const res = sources.map((s, i) => pattern(s, flags[i]!));
  const allow = allowSources.map((s, i) => pattern(s, allowFlags[i]!));
  for (let t = 0; t < texts.length; t++) {
    for (let p = 0; p < res.length; p++) {
      const re = res[p]!;
      re.lastIndex = 0;
      for (let m = re.exec(texts[t]!); m !== null; m = re.exec(texts[t]!)) {
        if (!allowedBy(allow, m[0])) return [t, p];
        if (m[0] === '') re.lastIndex++;
      }
    }
  }
  return undefined;
}

// --- the validator's patterns (src/wasm/validator.rs, `HostRegExps`) ---------------------------

let utf8: TextDecoder | undefined;
/** The host's TextDecoder, made when first needed. */
function decoder(): TextDecoder {
  utf8 ??= new (textCodec('TextDecoder'))();
  return utf8;
}

/** The UTF-8 text at `ptr` when it is short and ASCII (no decoder call), else `undefined`. */
function shortAscii(bytes: Uint8Array, ptr: number, len: number): string | undefined {
  if (len > 64) return undefined;
  let text = '';
  for (let i = ptr, end = ptr + len; i < end; i++) {
    const b = bytes[i]!;
    if (b > 0x7f) return undefined;
    text += String.fromCharCode(b);
  }
  return text;
}

/**
 * The validator module's compiled patterns: the host's `RegExp`s at the handles the engine hands
 * out. The engine decides the flags and what a refusal or a failure means; this table compiles,
 * reads a tested text out of the module's memory (ASCII without a decoder call) and tests, so
 * a match crosses with three numbers. Nothing here throws into the engine: a failure answers
 * `false`, its message in `error`.
 */
export class PatternTable {
  error = '';
  readonly #regexps: (RegExp | undefined)[] = [];
  readonly #memory: WebAssembly.Memory;
  #bytes = new Uint8Array(0);

  constructor(memory: WebAssembly.Memory) {
    this.#memory = memory;
  }

  compile(handle: number, source: string, flags: string): boolean {
    try {
      this.#regexps[handle] = new RegExp(source, flags);
      return true;
    } catch (thrown) {
      this.error = messageOf(thrown);
      return false;
    }
  }

  test(handle: number, ptr: number, len: number): boolean {
    try {
      let bytes = this.#bytes;
      // A grown memory detaches the view.
      if (bytes.buffer !== this.#memory.buffer) bytes = this.#bytes = new Uint8Array(this.#memory.buffer);
      const text = shortAscii(bytes, ptr, len) ?? decoder().decode(bytes.subarray(ptr, ptr + len));
      return this.#regexps[handle]!.test(text);
    } catch (thrown) {
      this.error = messageOf(thrown);
      return false;
    }
  }

  release(handle: number): void {
    this.#regexps[handle] = undefined;
  }
}
