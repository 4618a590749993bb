/** The `IO` carrier: a schema with static input and output types, shaped like Standard Schema. */
/**
 * A schema carrier with static input and output types, shaped like Standard Schema so any
 * validator library that implements the spec fits where an `IO` is expected.
 */
export interface IO<In, Out = In> {
  readonly '~standard': {
    readonly version: 1;
    readonly vendor: string;
    readonly validate: (
      value: unknown,
    ) => { readonly value: Out } | { readonly issues: readonly { readonly message: string }[] };
    /** Phantom: never set at run time; `InferIn` / `InferOut` read the types from here. */
    readonly types?: { readonly input: In; readonly output: Out };
  };
}

/** The static input type of an {@link IO}. */
export type InferIn<S extends IO<any, any>> = NonNullable<S['~standard']['types']>['input'];
/** The static output type of an {@link IO}. */
export type InferOut<S extends IO<any, any>> = NonNullable<S['~standard']['types']>['output'];

/**
 * A minimal {@link IO}: static types only, and a `validate` that is an identity cast (it checks
 * nothing). Swap in a real validator (Zod, Valibot, ArkType) where values must be checked.
 */
export function io<Out, In = Out>(vendor = 'understudy'): IO<In, Out> {
  return {
    '~standard': {
      version: 1,
      vendor,
      validate: (value: unknown): { readonly value: Out } => ({ value: value as Out }),
    },
  };
}

