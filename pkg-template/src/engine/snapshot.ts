/**
 * Snapshots, as the rule of src/wasm/snapshot.rs says: the walk the engine hands request and
 * step values to, run in JavaScript in one crossing (crossing into the engine once per property
 * cost more than the work itself), and the frozen copies the doubles record.
 */

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

/** A frozen snapshot: what a double records of a request. */
export function frozenSnapshot<T>(value: T): T {
  return Object.freeze(snapshotValue(value)) as T;
}

