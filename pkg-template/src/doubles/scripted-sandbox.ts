/**
 * `scriptedSandboxSession`: an in-memory `SandboxSession` that answers scripted method calls,
 * a drop-in for the one in `@openai/agents/testing`.
 *
 * The engine owns the step list, validation, the single call order across synchronous and
 * asynchronous methods, the call log, argument snapshots and every error. This module builds
 * the session object (only the scripted methods installed, promises for asynchronous ones) and
 * calls matchers and responders.
 */
import type { SandboxSession } from '@openai/agents-core/sandbox';
import { callDoubles } from '../engine/channel.js';
import { peers } from '../engine/peers.js';
import { registerDoubleErrors, settle, type FieldsOf } from '../engine/errors.js';
import type { SandboxErrorFields } from '../engine/engine-types.js';

export type { InvalidScriptedSandboxStepReason } from '../engine/codes.js';

type AnyFunction = (...args: any[]) => any;

/** The names of `SandboxSession` methods a script may use. */
export type ScriptedSandboxMethod = {
  [TKey in keyof SandboxSession]-?: NonNullable<SandboxSession[TKey]> extends AnyFunction ? TKey : never;
}[keyof SandboxSession];
type SandboxMethodFunction<TMethod extends ScriptedSandboxMethod> = Extract<NonNullable<SandboxSession[TMethod]>, AnyFunction>;
type SandboxMethodArgs<TMethod extends ScriptedSandboxMethod> = Parameters<SandboxMethodFunction<TMethod>>;
type SandboxMethodResult<TMethod extends ScriptedSandboxMethod> = Awaited<ReturnType<SandboxMethodFunction<TMethod>>>;
type ScriptedSandboxResponderResult<TMethod extends ScriptedSandboxMethod> =
  ReturnType<SandboxMethodFunction<TMethod>> extends PromiseLike<unknown>
    ? SandboxMethodResult<TMethod> | PromiseLike<SandboxMethodResult<TMethod>>
    : ReturnType<SandboxMethodFunction<TMethod>>;

/** One call the session received. */
export type RecordedSandboxCall = Readonly<{
  /** The zero-based position of this call in `calls`. */
  index: number;
  /** The invoked method. New SDK versions may add method names. */
  method: string;
  /** Detached invocation-time arguments in parameter order. */
  args: readonly unknown[];
}>;

/** The call a responder receives, typed by its method. */
export type ScriptedSandboxCallFor<TMethod extends ScriptedSandboxMethod> = Readonly<{
  index: number;
  method: TMethod;
  args: Readonly<SandboxMethodArgs<TMethod>>;
}>;

type ScriptedSandboxMatcher<TMethod extends ScriptedSandboxMethod> = (...args: SandboxMethodArgs<TMethod>) => boolean | void;
type ScriptedSandboxResponder<TMethod extends ScriptedSandboxMethod> = (call: ScriptedSandboxCallFor<TMethod>) => ScriptedSandboxResponderResult<TMethod>;
type ScriptedSandboxStepBase<TMethod extends ScriptedSandboxMethod> = { method: TMethod; match?: ScriptedSandboxMatcher<TMethod> };
type ScriptedSandboxResultStep<TMethod extends ScriptedSandboxMethod> = ScriptedSandboxStepBase<TMethod> & {
  result: SandboxMethodResult<TMethod>;
  respond?: never;
  error?: never;
};
type ScriptedSandboxResponderStep<TMethod extends ScriptedSandboxMethod> = ScriptedSandboxStepBase<TMethod> & {
  respond: ScriptedSandboxResponder<TMethod>;
  result?: never;
  error?: never;
};
type ScriptedSandboxErrorStep<TMethod extends ScriptedSandboxMethod> = ScriptedSandboxStepBase<TMethod> & {
  error: unknown;
  result?: never;
  respond?: never;
};
type ScriptedSandboxStep<TMethod extends ScriptedSandboxMethod> =
  | ScriptedSandboxResultStep<TMethod>
  | ScriptedSandboxResponderStep<TMethod>
  | ScriptedSandboxErrorStep<TMethod>;

/** One scripted step: a method and exactly one of `result`, `respond` or `error`, with an optional `match`. */
export type ScriptedSandboxInput<TMethod extends ScriptedSandboxMethod = ScriptedSandboxMethod> = {
  [TCurrentMethod in TMethod]: ScriptedSandboxStep<TCurrentMethod>;
}[TMethod];

/** The session: a `SandboxSession` with the scripted methods, its call log and `assertComplete()`. */
export type ScriptedSandboxSession<TMethod extends ScriptedSandboxMethod = never> = SandboxSession &
  Required<Pick<SandboxSession, TMethod>> & {
    /** All calls recorded by this session in invocation order. */
    readonly calls: readonly RecordedSandboxCall[];
    /** The number of scripted steps that have not been consumed. */
    readonly remainingSteps: number;
    /** Throws when the script still contains unconsumed steps. */
    assertComplete(): void;
  };

const message = (kind: string, args: object) => callDoubles((e) => e.sandboxErrorMessage(kind, args));
type Fields<K extends SandboxErrorFields['kind']> = Readonly<FieldsOf<SandboxErrorFields, K>>;

export interface InvalidScriptedSandboxStepError extends Fields<'InvalidScriptedSandboxStepError'> {}
/** A step given to `scriptedSandboxSession` is malformed. */
export class InvalidScriptedSandboxStepError extends Error {
  constructor(options: FieldsOf<SandboxErrorFields, 'InvalidScriptedSandboxStepError'> & { message: string }) {
    super(options.message);
    const { reason, inputIndex, method } = options;
    settle<InvalidScriptedSandboxStepError>(this, 'InvalidScriptedSandboxStepError', { reason, inputIndex, method });
  }
}

export interface UnexpectedSandboxCallError extends Fields<'UnexpectedSandboxCallError'> {}
/** The workflow called another method than the next step's, or called after the script ended. */
export class UnexpectedSandboxCallError extends Error {
  constructor(options: FieldsOf<SandboxErrorFields, 'UnexpectedSandboxCallError'>) {
    super(message('UnexpectedSandboxCallError', options));
    const { callIndex, actualMethod, expectedMethod, remainingSteps } = options;
    settle<UnexpectedSandboxCallError>(this, 'UnexpectedSandboxCallError', { callIndex, actualMethod, expectedMethod, remainingSteps });
  }
}

export interface SandboxCallMatcherError extends Fields<'SandboxCallMatcherError'> {}
/** A step's matcher returned `false` for the call's arguments. */
export class SandboxCallMatcherError extends Error {
  constructor(call: RecordedSandboxCall) {
    super(message('SandboxCallMatcherError', call));
    settle<SandboxCallMatcherError>(this, 'SandboxCallMatcherError', { callIndex: call.index, method: call.method });
  }
}

export interface UnconsumedSandboxStepsError extends Fields<'UnconsumedSandboxStepsError'> {}
/** The workflow ended before it used every scripted step (`assertComplete()`). */
export class UnconsumedSandboxStepsError extends Error {
  constructor(pendingMethods: readonly string[]) {
    super(message('UnconsumedSandboxStepsError', { pendingMethods }));
    const fields = { remainingSteps: pendingMethods.length, pendingMethods: Object.freeze([...pendingMethods]) };
    settle<UnconsumedSandboxStepsError>(this, 'UnconsumedSandboxStepsError', fields);
  }
}

registerDoubleErrors({ InvalidScriptedSandboxStepError, UnexpectedSandboxCallError, SandboxCallMatcherError, UnconsumedSandboxStepsError });

type PreparedStep = {
  method: string;
  type: 'result' | 'responder' | 'error';
  match?: AnyFunction;
  result?: unknown;
  respond?: AnyFunction;
  error?: unknown;
};

const snapshotArgs = (method: string, args: unknown) =>
  callDoubles((e) => e.snapshotSandboxArgs(method, args, peers().Manifest, peers().cloneManifest));
const snapshotCall = (record: unknown) =>
  callDoubles((e) => e.snapshotSandboxCall(record, peers().Manifest, peers().cloneManifest)) as RecordedSandboxCall;

/**
 * Creates a deterministic sandbox session with only the scripted methods installed on the
 * returned object. Every step is validated here; the first malformed one throws
 * {@link InvalidScriptedSandboxStepError}.
 */
export function scriptedSandboxSession<const TInputs extends readonly ScriptedSandboxInput[]>(
  inputs: TInputs,
): ScriptedSandboxSession<TInputs[number]['method']>;
export function scriptedSandboxSession<TMethod extends ScriptedSandboxMethod>(inputs: Iterable<ScriptedSandboxInput<TMethod>>): ScriptedSandboxSession<TMethod>;
export function scriptedSandboxSession(): ScriptedSandboxSession<never>;
export function scriptedSandboxSession(inputs: Iterable<ScriptedSandboxInput> = []): ScriptedSandboxSession<any> {
  const script = callDoubles((e) => new e.SandboxScript(Array.from(inputs)));
  const session: Record<string, unknown> = { state: { manifest: new (peers().Manifest)() } };

  const invoke = (method: string, args: unknown[]): unknown => {
    const { record, step } = callDoubles(() => script.begin(method, snapshotArgs(method, args))) as { record: RecordedSandboxCall; step: PreparedStep };
    if (step.match) {
      const returned = step.match(...(snapshotArgs(method, record.args) as unknown[]));
      callDoubles((e) => e.sandboxMatcherVerdict(returned, record));
    }
    if (step.type === 'error') throw step.error;
    if (step.type === 'responder') return step.respond!(snapshotCall(record));
    return step.result;
  };

  for (const method of script.methods() as string[]) {
    const sync = callDoubles((e) => e.sandboxMethodIsSync(method));
    const scriptedMethod = sync
      ? (...args: unknown[]) => invoke(method, args)
      : (...args: unknown[]) => {
          try {
            return Promise.resolve(invoke(method, args));
          } catch (error) {
            return Promise.reject(error);
          }
        };
    Object.defineProperty(session, method, { configurable: false, enumerable: true, value: scriptedMethod, writable: true });
  }
  Object.defineProperties(session, {
    calls: {
      configurable: false,
      enumerable: true,
      get: () => Object.freeze((script.records() as unknown[]).map(snapshotCall)),
    },
    remainingSteps: { configurable: false, enumerable: true, get: () => script.remainingSteps },
    assertComplete: {
      configurable: false,
      enumerable: true,
      value: () => callDoubles(() => script.assertComplete()),
      writable: false,
    },
  });
  return session as unknown as ScriptedSandboxSession<any>;
}
