/**
 * Argument checks at the edge of the engine. Strings cross into linear memory by their
 * length, so a non-string there would reach the engine as garbage (a wasm trap, or a
 * JavaScript error from inside the glue); these checks run first and throw a `TypeError`
 * that names the function, the argument, what it expects and what it got. They never call
 * the value's own code (no `toString`, no getters, no proxy traps).
 */

/** A short description of a value's kind for a message (`a number (5)`, `undefined`). */
export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'undefined':
      return 'undefined';
    case 'string':
      return `a string`;
    case 'number':
      return `a number (${value})`;
    case 'boolean':
      return `a boolean (${value})`;
    case 'bigint':
      return 'a bigint';
    case 'symbol':
      return 'a symbol';
    case 'function':
      return 'a function';
    default:
      return Array.isArray(value) ? 'an array' : 'an object';
  }
}

/** @internal Throws a `TypeError` unless `value` is a string. */
export function expectString(fn: string, argument: string, value: unknown): asserts value is string {
  if (typeof value !== 'string') {
    throw new TypeError(`${fn}: ${argument} must be a string, got ${describeValue(value)}.`);
  }
}

/**
 * @internal An options argument: an object, or `undefined` / `null` for none. Anything else is
 * a `TypeError`.
 */
export function expectOptions<T extends object>(fn: string, value: T | null | undefined): T {
  if (value === undefined || value === null) return {} as T;
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw new TypeError(`${fn}: options must be an object, got ${describeValue(value)}.`);
  }
  return value;
}

/**
 * @internal {@link expectOptions}, and every key one of `known`: a misspelled option is refused,
 * never ignored.
 */
export function expectKnownOptions<T extends object>(fn: string, value: T | null | undefined, known: readonly (keyof T & string)[]): T {
  const options = expectOptions(fn, value);
  const unknown = Object.keys(options).find((key) => !(known as readonly string[]).includes(key));
  if (unknown !== undefined) {
    const names = known.map((k) => `\`${k}\``);
    const list = names.length === 1 ? `the option is ${names[0]}` : `the options are ${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
    throw new TypeError(`${fn}: unknown option \`${unknown}\`; ${list}.`);
  }
  return options;
}

/** @internal Whether `value` is a plain object (`{…}` or `Object.create(null)`), not an array, class instance or other object. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** @internal The structured fields an error class is built with: an object. */
export function expectFields<T extends object>(cls: string, fields: T): T {
  if (typeof fields !== 'object' || fields === null) {
    throw new TypeError(`new ${cls}: fields must be an object, got ${describeValue(fields)}.`);
  }
  return fields;
}
