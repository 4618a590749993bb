/**
 * Error classes. The engine decides which error is raised, with which message and fields; these
 * classes only give each kind its `instanceof` and its typed fields. Most are generated from
 * the engine's declaration of its classes (engine-errors.ts); the two here carry a host value
 * (a validator's issues) as it came.
 */
import { expectFields } from './args.js';
import { GENERATED_CLASSES } from './engine-errors.js';
import type { ProviderOutputValidationErrorFields, ValidationIssue } from './engine-types.js';
import { UserError, adopt } from './error-base.js';

export { UserError } from './error-base.js';
export {
  StrictSchemaError,
  SchemaDepthError,
  InvalidJsonSchemaError,
  UnsupportedStandardSchemaError,
  AsyncStandardSchemaValidationError,
  StructuredParseError,
  InvalidCassetteError,
  CassetteMissingError,
  CassetteMismatchError,
} from './engine-errors.js';
export type { StrictSchemaErrorReason, StructuredParseErrorReason } from './codes.js';
export type { RefusedCandidate } from './engine-types.js';

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

/**
 * A value that does not match the original schema of a provider conversion
 * (`prepareStrictJsonSchema(schema, { provider }).normalizeInput`): a constraint the provider
 * was only told about in a description, say. Not a configuration problem: a plain `Error`.
 */
export class ProviderOutputValidationError extends Error {
  /** What failed, as `compileJsonSchema` reports it (the validator's issues, handed over as they came). */
  readonly issues!: readonly ValidationIssue[];
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
 * JSON text `{"kind", "name"?, "message", …fields}` every engine error crosses as (`name` only
 * where it is not the class; an absent field is left out, or `null` in a test double's error);
 * `issues`, when defined, is a host value the error carries as it came (a validator's issues).
 */
export function engineErrorObject(data: string, issues: unknown): Record<string, unknown> {
  const error: Record<string, unknown> = JSON.parse(data);
  error[ENGINE_ERROR] = true;
  if (issues !== undefined) error.issues = issues;
  return error;
}

/** Builds the error of one engine kind from the engine's name, message and fields. */
type Make = (message: string, fields: Record<string, unknown>, name: string) => Error;

/** A class whose constructor takes `(message, fields)`. */
const typed =
  (Class: new (message: string, fields: any) => Error): Make =>
  (message, fields) =>
    new Class(message, fields);

/** A class with the reference's `(message)` constructor; the fields are assigned. */
const assigned =
  (Class: new (message: string) => Error): Make =>
  (message, fields) =>
    Object.assign(new Class(message), fields);

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
  StandardSchemaValidationError: typed(StandardSchemaValidationError),
  ProviderOutputValidationError: typed(ProviderOutputValidationError),
};
for (const kind in GENERATED_CLASSES) {
  const [Class, withFields] = GENERATED_CLASSES[kind]!;
  makers[kind] = withFields ? typed(Class) : assigned(Class);
}

/** @internal Registers a test double's error classes by kind (see `double`). */
export function registerDoubleErrors(classes: Record<string, Function>): void {
  for (const kind in classes) makers[kind] = double(classes[kind]!);
}

/** Turns an engine error object into its class; anything else is returned unchanged. */
export function fromEngine(thrown: unknown): unknown {
  if (typeof thrown !== 'object' || thrown === null || !(ENGINE_ERROR in thrown)) return thrown;
  const { kind, name = kind, message, [ENGINE_ERROR]: _marker, ...fields } = thrown as Record<string, any>;
  const make = makers[kind];
  // Every kind the engine raises has a class; a missing one is this library's bug, said so.
  if (make === undefined) return new Error(`understudy: the engine raised an error of unknown kind ${String(kind)}: ${message}`);
  return make(message, fields, name);
}
