/// <reference lib="esnext.disposable" preserve="true" />
/**
 * The call channel to the engine: the loaded wasm modules, `call` (which turns the engine's
 * error objects into their classes), the input buffers texts cross through, the tagged JSON
 * encoding of values, and the owner of an engine object. Every public function reaches the
 * engine through here; nothing here knows a domain rule.
 */
import { UserError, engineErrorObject, fromEngine } from './errors.js';
import { textCodec } from './host.js';
import { PatternTable, checkPatterns, findSecret, redactTexts } from './patterns.js';
import { snapshotValue } from './snapshot.js';
import { issueTexts, standardCall, takeStandardPayload } from './standard-call.js';

/** @internal The wasm bindings' module type. */
export type Bindings = typeof import('../../wasm/node/understudy.js');
/** @internal The validator module's bindings (`compileJsonSchema`), a second wasm module. */
export type ValidatorBindings = typeof import('../../wasm/node/understudy_validator.js');
/** @internal The doubles module's bindings (scripts, cassettes, redaction), loaded by the testing entries. */
export type DoublesBindings = typeof import('../../wasm/node/understudy_doubles.js');

let engine: Bindings | undefined;
let engineInput: InputChannel;
let validatorEngine: ValidatorBindings | undefined;
let validatorInput: InputChannel;
let loadValidator: (() => unknown) | undefined;
let doublesEngine: DoublesBindings | undefined;
let doublesInput: InputChannel;
let loadDoubles: (() => unknown) | undefined;

/** @internal Installs the loaded wasm bindings (the Node entry does it at import time). */
export function installEngine(bindings: unknown): void {
  engine = bindings as Bindings;
  engineInput = new InputChannel(engine);
  engine.installErrorMaker(engineErrorObject);
  engine.installWalks(standardCall, takeStandardPayload, issueTextsInput, snapshotValue, checkPatterns, redactTexts, findSecret);
}

/** @internal Installs the loaded validator module (browsers: `init({ validator: true })`). */
export function installValidator(bindings: unknown): void {
  validatorEngine = bindings as ValidatorBindings;
  validatorInput = new InputChannel(validatorEngine);
  validatorEngine.installErrorMaker(engineErrorObject);
  validatorEngine.installPatterns(new PatternTable(validatorEngine.engineMemory() as WebAssembly.Memory));
}

/** @internal Installs the loaded doubles module (browsers: `init()` once a testing entry is imported). */
export function installDoubles(bindings: unknown): void {
  doublesEngine = bindings as DoublesBindings;
  doublesInput = new InputChannel(doublesEngine);
  doublesEngine.installErrorMaker(engineErrorObject);
  doublesEngine.installWalks(standardCall, takeStandardPayload, issueTextsInput, snapshotValue, checkPatterns, redactTexts, findSecret);
}

/**
 * @internal How the doubles module loads synchronously on first use (Node: `require` of its
 * glue). Without one, a double asks for `init()` (browsers load it there once a testing entry
 * is imported; Workers at the testing entry's import).
 */
export function installDoublesLoader(load: () => unknown): void {
  loadDoubles = load;
}

/** @internal Calls the doubles module, turning its error objects into their classes. */
export function callDoubles<T>(run: (d: DoublesBindings) => T): T {
  if (doublesEngine === undefined) {
    if (loadDoubles === undefined) {
      throw new UserError("understudy's test doubles are not loaded: in a browser, `await init()` after importing a testing entry.");
    }
    installDoubles(loadDoubles());
  }
  try {
    return run(doublesEngine!);
  } catch (thrown) {
    throw fromEngine(thrown);
  }
}

/** @internal Writes `text` into the doubles module's input buffer (inside {@link callDoubles}); returns its length in bytes. */
export function doublesInputText(text: string): number {
  return doublesInput.write(text);
}

/**
 * @internal How the validator module loads synchronously on first use (Node: `require` of its
 * glue). Without one, {@link compileJsonSchema} asks for `init({ validator: true })`.
 */
export function installValidatorLoader(load: () => unknown): void {
  loadValidator = load;
}

function validator(): ValidatorBindings {
  if (validatorEngine === undefined) {
    if (loadValidator === undefined) {
      throw new UserError('compileJsonSchema needs the validator module, which is not loaded: in a browser, `await init({ validator: true })` first.');
    }
    installValidator(loadValidator());
  }
  return validatorEngine!;
}

/** @internal Calls the validator module, turning its error objects into their classes. */
export function callValidator<T>(run: (v: ValidatorBindings) => T): T {
  const v = validator();
  try {
    return run(v);
  } catch (thrown) {
    throw fromEngine(thrown);
  }
}
/** @internal The engine's bindings; a `UserError` before the engine is loaded. */
export function bindings(): Bindings {
  if (engine === undefined) {
    throw new UserError('understudy is not initialized: in a browser, `await init()` before calling it.');
  }
  return engine;
}

/** @internal Calls the engine, turning its error objects into their classes. */
export function call<T>(run: (e: Bindings) => T): T {
  const e = bindings();
  try {
    return run(e);
  } catch (thrown) {
    throw fromEngine(thrown);
  }
}

// --- values across the boundary ---------------------------------------------------------------

const encoder = new (textCodec('TextEncoder'))();

/** What a wasm module offers for its input buffer (every module has one). */
interface InputBuffered {
  inputBuffer(capacity: number): number;
  engineMemory(): unknown;
}

/**
 * A module's input buffer in its linear memory: the engine reads texts there. The facade writes
 * a text as UTF-8 with `TextEncoder.encodeInto` and passes only its length in bytes, a fixed few
 * tens of nanoseconds, where passing a string makes the bindings copy it character by character
 * (measured in bench/: 0.09 µs for 34 characters, 1.2 µs for 512).
 */
class InputChannel {
  /** A view of the buffer (empty once the memory grows). */
  #view = new Uint8Array(0);
  readonly #module: InputBuffered;
  constructor(module: InputBuffered) {
    this.#module = module;
  }

  /** Writes `text` into the buffer; returns its length in bytes. */
  write(text: string): number {
    this.#reserve(text.length * 3);
    return encoder.encodeInto(text, this.#view).written;
  }

  /** Writes two texts one after the other; returns their lengths in bytes. */
  pair(first: string, second: string): [number, number] {
    this.#reserve((first.length + second.length) * 3);
    const a = encoder.encodeInto(first, this.#view).written;
    return [a, encoder.encodeInto(second, this.#view.subarray(a)).written];
  }

  /**
   * Makes the view at least `bytes` long (and live). While the buffer is large (grown for a
   * large text) every call asks the engine again, which gives the room back once texts are
   * smaller.
   */
  #reserve(bytes: number): void {
    if (this.#view.byteLength < bytes || this.#view.byteLength > 1 << 20) {
      const capacity = Math.max(bytes, 1 << 12);
      // Growing the buffer may grow the memory, which detaches earlier views of it: the
      // address first, then the view.
      const address = this.#module.inputBuffer(capacity);
      this.#view = new Uint8Array((this.#module.engineMemory() as WebAssembly.Memory).buffer, address, capacity);
    }
  }
}

/** @internal Writes `text` into the engine's input buffer; returns its length in bytes. */
export function input(text: string): number {
  return engineInput.write(text);
}

/** @internal Writes `text` into the validator module's input buffer (inside {@link callValidator}); returns its length in bytes. */
export function validatorInputText(text: string): number {
  return validatorInput.write(text);
}

/** The texts of a Standard Schema's issues (standard-call.ts `issueTexts`), written into the input buffer. */
function issueTextsInput(issues: unknown): number {
  return input(issueTexts(issues));
}

/** @internal Writes two texts one after the other into the input buffer; returns their lengths in bytes. */
export function inputPair(first: string, second: string): [number, number] {
  return engineInput.pair(first, second);
}

const TAG = '\u0000understudy';
const tags = {
  undefined: { [TAG]: 'undefined' },
  function: { [TAG]: 'function' },
  symbol: { [TAG]: 'symbol' },
  bigint: { [TAG]: 'bigint' },
  number: { [TAG]: 'non-finite number' },
} as const;

/** JSON.stringify, with the values JSON cannot carry tagged so the engine sees them. */
function tagNonJson(_key: string, value: unknown): unknown {
  switch (typeof value) {
    case 'undefined':
      return tags.undefined;
    case 'function':
      return tags.function;
    case 'symbol':
      return tags.symbol;
    case 'bigint':
      return tags.bigint;
    case 'number':
      return Number.isFinite(value) ? value : tags.number;
    default:
      return value;
  }
}

/**
 * @internal Whether `JSON.stringify` failed on the input's shape (a cycle, or nesting deeper
 * than the host's stack) rather than in the caller's own code (a getter, `toJSON`).
 */
export function isUnencodable(thrown: unknown): boolean {
  return thrown instanceof RangeError || (thrown instanceof TypeError && /circular/i.test(thrown.message));
}

/**
 * Encodes a schema or value for the engine with `JSON.stringify`. Input it cannot walk (a cycle,
 * or nesting deeper than the host's stack) is reported with the engine's error for that kind of
 * input; an exception thrown by the caller's own code (a getter, `toJSON`) propagates unchanged.
 */
function encode(input: unknown, unencodable: (e: Bindings) => unknown): string {
  try {
    return JSON.stringify(input, tagNonJson);
  } catch (thrown) {
    if (isUnencodable(thrown)) {
      throw fromEngine(unencodable(bindings()));
    }
    throw thrown;
  }
}

/** @internal A schema as JSON text in the tagged encoding (a cycle is the engine's schema error). */
export const encodeSchema = (schema: unknown): string => encode(schema, (e) => e.strictUnencodableError());
/** @internal A value as JSON text in the tagged encoding (what JSON cannot carry is tagged, never dropped). */
export const encodeValue = (value: unknown): string => encode(value, (e) => e.valueUnencodableError());

/** @internal The engine's JSON answer; `undefined` for none. */
export function decode(text: string | undefined): unknown {
  return text === undefined ? undefined : JSON.parse(text);
}

// --- engine objects ---------------------------------------------------------------------------

/** Frees an engine object whose owner was collected without `free()`. */
const release = new FinalizationRegistry<{ free(): void }>((handle) => handle.free());

/**
 * @internal Owns one engine object: freed by `free()`, `Symbol.dispose` or, once the owner is collected,
 * the finalizer. `what` names it in the error for use after `free()`.
 */
export class EngineOwner<H extends { free(): void }> {
  #handle: H | undefined;
  readonly #what: string;
  constructor(handle: H, what: string) {
    this.#handle = handle;
    this.#what = what;
    release.register(this, handle, this);
  }
  /** The engine object; a `UserError` once freed. */
  protected live(): H {
    if (this.#handle === undefined) throw new UserError(`This ${this.#what} was freed.`);
    return this.#handle;
  }
  free(): void {
    if (this.#handle === undefined) return;
    release.unregister(this);
    this.#handle.free();
    this.#handle = undefined;
  }
  [Symbol.dispose](): void {
    this.free();
  }
}

// --- diagnostics ------------------------------------------------------------------------------

/**
 * Bytes of WebAssembly memory the engine holds (every module loaded: the engine, and the
 * doubles and validator modules once they are). Wasm memory only grows, so a figure that stays
 * flat over many create/free cycles shows nothing leaks.
 */
export function engineMemoryBytes(): number {
  return bindings().engineMemoryBytes() + (validatorEngine?.engineMemoryBytes() ?? 0) + (doublesEngine?.engineMemoryBytes() ?? 0);
}

/**
 * How many engine objects are alive: compiled validators, prepared schemas, and the scripts and
 * cassettes behind the test doubles. Each is freed by `free()`, `Symbol.dispose`, or the garbage
 * collector's finalizer once its JavaScript owner is gone, so a figure that returns to where it
 * was shows that nothing is held.
 */
export function engineLiveHandles(): number {
  return bindings().engineLiveHandles() + (validatorEngine?.engineLiveHandles() ?? 0) + (doublesEngine?.engineLiveHandles() ?? 0);
}
