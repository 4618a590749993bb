/**
 * Mechanical walks the engine runs in JavaScript, in one crossing each, under rules the engine
 * states (`src/wasm/snapshot.rs`, `src/wasm/standard.rs`): crossing into the engine once per
 * property cost more than the work itself. They decide nothing; the engine calls them and
 * decides what their results mean. `installEngine` hands them to the engine.
 */

// --- Standard Schema call ------------------------------------------------------------------

let standardPayload: unknown;

/**
 * Runs the reference's own expression (so a wrong schema gets its TypeError word for word) and
 * reads the result: 0 value, 1 thenable, 2 issues (the engine's `STANDARD_*` codes); the value,
 * the thenable or the issues wait for {@link takeStandardPayload}.
 */
export function standardCall(schema: any, value: unknown): number {
  const result = schema['~standard'].validate(value);
  if ((typeof result === 'object' || typeof result === 'function') && result !== null && typeof result.then === 'function') {
    standardPayload = result;
    return 1;
  }
  const issues = result.issues;
  if (issues) {
    standardPayload = issues;
    return 2;
  }
  standardPayload = result.value;
  return 0;
}

export function takeStandardPayload(): unknown {
  const payload = standardPayload;
  standardPayload = undefined;
  return payload;
}

// --- snapshots (contract §3.7) ---------------------------------------------------------------

const fnToString = Function.prototype.toString;
const tagOf = Object.prototype.toString;
const objectSource = fnToString.call(Object);

/** `null`, or a prototype whose own `constructor` has `Object`'s source (any realm). */
function isPlainPrototype(prototype: object | null): boolean {
  if (prototype === null) return true;
  if (Reflect.getOwnPropertyDescriptor(prototype, 'constructor') === undefined) return false;
  const ctor: unknown = Reflect.get(prototype, 'constructor');
  return typeof ctor === 'function' && fnToString.call(ctor) === objectSource;
}

interface Frame {
  source: any;
  copy: any;
  /** Own keys of a plain object; `undefined` for an array (indices up to `len`). */
  keys: (string | symbol)[] | undefined;
  len: number;
  next: number;
}

/**
 * The snapshot rule of `src/wasm/snapshot.rs`: arrays, buffers, typed arrays, `DataView`s and
 * plain objects (prototype `null` or `Object`'s) are copied, with enumerable own keys (symbols
 * included) as data properties; any other object is kept by identity; cycles and shared
 * references map to one copy. Iterative, so depth costs heap, not stack. User code (getters,
 * proxy traps) may throw; the exception propagates.
 */
export function snapshotValue(value: unknown): unknown {
  const seen = new Map<object, unknown>();
  const stack: Frame[] = [];
  const visit = (v: unknown): unknown => {
    if (typeof v !== 'object' || v === null) return v;
    if (seen.has(v)) return seen.get(v);
    const tag = tagOf.call(v);
    if (tag === '[object ArrayBuffer]' || tag === '[object SharedArrayBuffer]') {
      const copy = (v as ArrayBuffer).slice(0);
      seen.set(v, copy);
      return copy;
    }
    if (ArrayBuffer.isView(v)) {
      const buffer = visit((v as ArrayBufferView).buffer);
      const offset = (v as ArrayBufferView).byteOffset;
      const copy =
        tag === '[object DataView]'
          ? Reflect.construct(DataView, [buffer, offset, (v as DataView).byteLength])
          : Reflect.construct((v as any).constructor, [buffer, offset, (v as any).length]);
      seen.set(v, copy);
      return copy;
    }
    if (Array.isArray(v)) {
      const copy: unknown[] = [];
      seen.set(v, copy);
      stack.push({ source: v, copy, keys: undefined, len: v.length, next: 0 });
      return copy;
    }
    const prototype = Reflect.getPrototypeOf(v);
    if (!isPlainPrototype(prototype)) return v;
    const copy = Object.create(prototype);
    seen.set(v, copy);
    const keys = Reflect.ownKeys(v);
    stack.push({ source: v, copy, keys, len: keys.length, next: 0 });
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
    const descriptor = Reflect.getOwnPropertyDescriptor(frame.source, key);
    if (!descriptor?.enumerable) continue;
    const entry = visit(Reflect.get(frame.source, key));
    Reflect.defineProperty(frame.copy, key, { value: entry, writable: true, enumerable: true, configurable: true });
  }
  return root;
}
