/**
 * Error classes. The engine decides which error is raised, with which message and fields; these
 * classes only give each kind its `instanceof` and its typed fields. The fields of a class
 * built from `(message, fields)` are the engine's error type's (engine-types.ts, generated).
 */
import { expectFields } from './args.js';
import type {
  InvalidJsonSchemaErrorFields,
  ProviderOutputValidationErrorFields,
  StrictSchemaErrorFields,
  StructuredParseErrorFields,
} from './engine-types.js';

export type { StrictSchemaErrorReason, StructuredParseErrorReason } from './codes.js';
export type { RefusedCandidate } from './engine-types.js';

/** @internal Puts an error's fields (an object, else a `TypeError` naming the class) on it. */
export function adopt(error: Error, name: string, fields: object): void {
  Object.assign(error, expectFields(name, fields));
}

/** A configuration problem: a schema or option the library cannot use. */
export class UserError extends Error {
  /** Kept for parity with `@openai/agents-core`'s `UserError`. */
  state?: unknown;
  constructor(message: string, state?: unknown) {
    super(message);
    this.name = new.target.name;
    this.state = state;
  }
}

export interface StrictSchemaError extends Readonly<StrictSchemaErrorFields> {}
/** A schema strict mode refuses. The message is the reference's; the fields say where and why. */
export class StrictSchemaError extends UserError {
  constructor(message: string, fields: StrictSchemaErrorFields) {
    super(message);
    adopt(this, new.target.name, fields);
  }
}

/** A schema nested deeper than 100 levels (physically, or logically through `$ref`), or cyclic. */
export class SchemaDepthError extends StrictSchemaError {}

export interface InvalidJsonSchemaError extends Readonly<InvalidJsonSchemaErrorFields> {}
/** A JSON Schema that cannot be compiled for validation. */
export class InvalidJsonSchemaError extends UserError {
  constructor(message: string, fields: InvalidJsonSchemaErrorFields) {
    super(message);
    adopt(this, new.target.name, fields);
  }
}

/** A Standard Schema value without both `~standard.validate` and `~standard.jsonSchema`. */
export class UnsupportedStandardSchemaError extends UserError {}

/** A Standard Schema whose `validate` returned a Promise (async validation is not supported). */
export class AsyncStandardSchemaValidationError extends UserError {}

/** One issue reported by a Standard Schema validator. */
export interface StandardSchemaIssue {
  readonly message: string;
  readonly path?: ReadonlyArray<PropertyKey | { readonly key: PropertyKey }> | undefined;
}

/**
 * A value failed a Standard Schema. Extends plain `Error`, as the reference throws a plain
 * `Error` here; `issues` is the validator's own array.
 */
export class StandardSchemaValidationError extends Error {
  readonly issues: ReadonlyArray<StandardSchemaIssue>;
  constructor(message: string, fields: { issues: ReadonlyArray<StandardSchemaIssue> }) {
    super(message);
    fields = expectFields(new.target.name, fields);
    this.name = new.target.name;
    this.issues = fields.issues;
  }
}

export interface StructuredParseError extends Readonly<StructuredParseErrorFields> {}
/** Text a model returned could not be read as a value of the schema. */
export class StructuredParseError extends UserError {
  constructor(message: string, fields: StructuredParseErrorFields) {
    super(message);
    adopt(this, new.target.name, fields);
  }
}

/**
 * A value that does not match the original schema of a provider conversion
 * (`prepareStrictJsonSchema(schema, { provider }).normalizeInput`): a constraint the provider
 * was only told about in a description, say. Not a configuration problem: a plain `Error`.
 */
export class ProviderOutputValidationError extends Error {
  /** What failed, as `compileJsonSchema` reports it (the validator's issues, handed over as they came). */
  readonly issues!: readonly { message: string; instancePath: string; schemaPath: string; keyword: string }[];
  constructor(message: string, fields: ProviderOutputValidationErrorFields & { issues: ProviderOutputValidationError['issues'] }) {
    super(message);
    this.name = new.target.name;
    adopt(this, new.target.name, fields);
  }
}
export interface ProviderOutputValidationError extends Readonly<ProviderOutputValidationErrorFields> {}

/** The fields of one class of an engine error union (`ModelErrorFields`, …), by its kind. */
export type FieldsOf<U extends { kind: string }, K extends U['kind']> = Omit<Extract<U, { kind: K }>, 'kind'>;

/**
 * @internal Finishes an error of a test double as the reference's class does: its fields in
 * the order the engine declares them (a field given as `undefined` is still an own property),
 * then its `name`.
 */
export function settle<E extends Error>(error: E, name: string, fields: Omit<E, keyof Error>): void {
  Object.assign(error, fields);
  error.name = name;
}

const ENGINE_ERROR = '__understudyError';

/**
 * @internal The engine's error, built in one crossing (src/wasm/mod.rs `raise`): `data` is the
 * JSON text `{"kind", "name", "message", …fields}` every engine error crosses as (an absent
 * field is `null`); `issues`, when defined, is a host value the error carries as it came (a
 * validator's issues).
 */
export function engineErrorObject(data: string, issues: unknown): Record<string, unknown> {
  const error: Record<string, unknown> = JSON.parse(data);
  error[ENGINE_ERROR] = true;
  if (issues !== undefined) error.issues = issues;
  return error;
}

/** Builds the error of one engine kind from the engine's name, message and fields. */
export type Make = (message: string, fields: Record<string, unknown>, name: string) => Error;

/** The fields an engine error has (an absent one crosses as `null`). */
function present(fields: Record<string, unknown>): Record<string, unknown> {
  for (const key in fields) if (fields[key] === null) delete fields[key];
  return fields;
}

/** @internal A class whose constructor takes `(message, fields)`. */
export const typed =
  (Class: new (message: string, fields: any) => Error): Make =>
  (message, fields) =>
    new Class(message, present(fields));

/** A class with the reference's `(message)` constructor; the fields are assigned. */
const assigned =
  (Class: new (message: string) => Error): Make =>
  (message, fields) =>
    Object.assign(new Class(message), present(fields));

/**
 * A test double's class: its constructor takes the reference's arguments, so the error is
 * made from the engine's data as that constructor would make it (`Error`'s own construction
 * with the class's prototype, then {@link settle}; an absent field is an own `undefined`, a
 * list is frozen as the reference's classes freeze theirs).
 */
const double =
  (Class: Function): Make =>
  (message, fields, name) => {
    const error: Error = Reflect.construct(Error, [message], Class);
    for (const key in fields) fields[key] = Array.isArray(fields[key]) ? Object.freeze(fields[key]) : (fields[key] ?? undefined);
    settle(error, name, fields);
    return error;
  };

/** How each engine error kind becomes its class, by the kind the engine names. */
const makers: Record<string, Make> = {
  UserError: assigned(UserError),
  StrictSchemaError: typed(StrictSchemaError),
  SchemaDepthError: typed(SchemaDepthError),
  InvalidJsonSchemaError: typed(InvalidJsonSchemaError),
  UnsupportedStandardSchemaError: assigned(UnsupportedStandardSchemaError),
  AsyncStandardSchemaValidationError: assigned(AsyncStandardSchemaValidationError),
  StandardSchemaValidationError: typed(StandardSchemaValidationError),
  StructuredParseError: typed(StructuredParseError),
  ProviderOutputValidationError: typed(ProviderOutputValidationError),
};

/**
 * @internal Lets an entry (`./testing`) register how the errors its engine part raises become
 * their classes, by kind.
 */
export function registerEngineErrors(more: Record<string, Make>): void {
  Object.assign(makers, more);
}

/** @internal Registers a test double's error classes by kind (see `double`). */
export function registerDoubleErrors(classes: Record<string, Function>): void {
  for (const kind in classes) makers[kind] = double(classes[kind]!);
}

/** Turns an engine error object into its class; anything else is returned unchanged. */
export function fromEngine(thrown: unknown): unknown {
  if (typeof thrown !== 'object' || thrown === null || !(ENGINE_ERROR in thrown)) return thrown;
  const { kind, name, message, [ENGINE_ERROR]: _marker, ...fields } = thrown as Record<string, any>;
  const make = makers[kind];
  // Every kind the engine raises has a class; a missing one is this library's bug, said so.
  if (make === undefined) return new Error(`understudy: the engine raised an error of unknown kind ${String(kind)}: ${message}`);
  return make(message, fields, name);
}
