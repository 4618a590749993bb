/**
 * `ScriptedRealtimeTransport`: an in-memory `RealtimeTransportLayer` with ordered call
 * expectations, injected failures and synchronous events, a drop-in for the one in
 * `@openai/agents/realtime/testing`.
 *
 * The engine owns the call log, the expectation queue, the failure queues, the listener
 * registry, the connection status and lifecycle decisions, and every error with its message
 * and fields. This class runs what JavaScript must run: listeners, matchers, promise
 * settlement and `runScenario`'s race, in the microtask order the SDK's session relies on.
 */
import type {
  RealtimeClientMessage,
  RealtimeItem,
  RealtimeSessionConfig,
  RealtimeTransportEventTypes,
  RealtimeTransportLayer,
  RealtimeTransportLayerConnectOptions,
  TransportToolCallEvent,
} from '@openai/agents-realtime';
import { callDoubles } from '../engine/channel.js';
import { fromEngine, registerDoubleErrors, settle, type FieldsOf } from '../engine/errors.js';
import type { RealtimeErrorFields } from '../engine/engine-types.js';
import type {
  PendingRealtimeExpectation,
  PendingRealtimeFailure,
  RealtimeTransportMethod,
  RealtimeTransportStatus,
  RecordedRealtimeTransportCall,
} from '../engine/realtime-types.js';
import { frozenSnapshot, snapshotValue } from '../engine/snapshot.js';

export type { PendingRealtimeExpectation, PendingRealtimeFailure, RealtimeTransportMethod, RecordedRealtimeTransportCall } from '../engine/realtime-types.js';

type RealtimeUserInput = Parameters<RealtimeTransportLayer['sendMessage']>[0];
type RealtimeMcpCallApprovalRequestItem = Parameters<RealtimeTransportLayer['sendMcpResponse']>[0];

type RealtimeTransportCallData = {
  connect: { options: Omit<RealtimeTransportLayerConnectOptions, 'apiKey'> & { apiKeyProvided: boolean } };
  sendEvent: { event: RealtimeClientMessage };
  requestResponse: { response?: Record<string, any> };
  sendMessage: { message: RealtimeUserInput; otherEventData: Record<string, any>; options?: { triggerResponse?: boolean } };
  addImage: { image: string; options?: { triggerResponse?: boolean } };
  sendAudio: { audio: ArrayBuffer; options: { commit?: boolean } };
  updateSessionConfig: { config: Partial<RealtimeSessionConfig> };
  close: Record<never, never>;
  mute: { muted: boolean };
  sendFunctionCallOutput: { toolCall: TransportToolCallEvent; output: string; startResponse: boolean };
  interrupt: Record<never, never>;
  resetHistory: { oldHistory: RealtimeItem[]; newHistory: RealtimeItem[] };
  sendMcpResponse: { approvalRequest: RealtimeMcpCallApprovalRequestItem; approved: boolean; reason?: string };
};

/** A recorded call of `TMethod` with its data. */
export type RealtimeTransportCallFor<TMethod extends RealtimeTransportMethod> = Readonly<
  { index: number; method: TMethod } & (TMethod extends keyof RealtimeTransportCallData ? RealtimeTransportCallData[TMethod] : Record<string, unknown>)
>;

/** Checks a call; returning exactly `false` rejects it, throwing rejects it with that value. */
export type RealtimeCallMatcher<TMethod extends RealtimeTransportMethod> = (call: RealtimeTransportCallFor<TMethod>) => boolean | void;

/** What a scenario callback gets. */
export type ScriptedRealtimeScenarioContext = {
  expectCall: <TMethod extends RealtimeTransportMethod>(method: TMethod, matcher?: RealtimeCallMatcher<TMethod>) => Promise<RealtimeTransportCallFor<TMethod>>;
  emit: <TEvent extends keyof RealtimeTransportEventTypes>(event: TEvent, ...args: RealtimeTransportEventTypes[TEvent]) => boolean;
};

/** `runScenario` options: the scripted side, the code under test, and an optional signal. */
export type ScriptedRealtimeScenarioOptions<TResult = void> = {
  scenario: (context: ScriptedRealtimeScenarioContext) => void | Promise<void>;
  exercise: () => TResult | Promise<TResult>;
  signal?: AbortSignal;
};

const message = (kind: string, ...args: unknown[]) => callDoubles((e) => e.realtimeErrorMessage(kind, args));
type Fields<K extends RealtimeErrorFields['kind']> = Readonly<FieldsOf<RealtimeErrorFields, K>>;
const frozen = <T>(list: readonly T[]): readonly T[] => Object.freeze([...list]);

export interface UnexpectedRealtimeCallError extends Fields<'UnexpectedRealtimeCallError'> {}
/** The next expected call was of another method. */
export class UnexpectedRealtimeCallError extends Error {
  constructor(expectedMethod: RealtimeTransportMethod, actualCall: RecordedRealtimeTransportCall) {
    super(message('UnexpectedRealtimeCallError', expectedMethod, actualCall));
    const fields = { callIndex: actualCall.index, expectedMethod, actualMethod: actualCall.method };
    settle<UnexpectedRealtimeCallError>(this, 'UnexpectedRealtimeCallError', fields);
  }
}

export interface RealtimeCallMatcherError extends Fields<'RealtimeCallMatcherError'> {}
/** An expectation's matcher returned `false`. */
export class RealtimeCallMatcherError extends Error {
  constructor(call: RecordedRealtimeTransportCall) {
    super(message('RealtimeCallMatcherError', call));
    settle<RealtimeCallMatcherError>(this, 'RealtimeCallMatcherError', { callIndex: call.index, actualMethod: call.method });
  }
}

export interface IncompleteRealtimeScenarioError extends Fields<'IncompleteRealtimeScenarioError'> {}
/** Calls, expectations or injected failures were left over. */
export class IncompleteRealtimeScenarioError extends Error {
  constructor(
    unconsumedCalls: readonly RecordedRealtimeTransportCall[],
    pendingExpectations: readonly PendingRealtimeExpectation[],
    pendingFailures: readonly PendingRealtimeFailure[],
  ) {
    super(message('IncompleteRealtimeScenarioError', unconsumedCalls, pendingExpectations, pendingFailures));
    const fields = { unconsumedCalls: frozen(unconsumedCalls), pendingExpectations: frozen(pendingExpectations), pendingFailures: frozen(pendingFailures) };
    settle<IncompleteRealtimeScenarioError>(this, 'IncompleteRealtimeScenarioError', fields);
  }
}

export interface ScriptedRealtimeScenarioCancelledError extends Fields<'ScriptedRealtimeScenarioCancelledError'> {}
/** `runScenario` was aborted by its signal (`name` is `'AbortError'`). */
export class ScriptedRealtimeScenarioCancelledError extends Error {
  constructor(pendingExpectations: readonly PendingRealtimeExpectation[]) {
    super(message('ScriptedRealtimeScenarioCancelledError', pendingExpectations));
    settle<ScriptedRealtimeScenarioCancelledError>(this, 'AbortError', { pendingExpectations: frozen(pendingExpectations) });
  }
}

export interface RealtimeTransportNotClosedError extends Fields<'RealtimeTransportNotClosedError'> {}
/** `assertClosed()` found the transport not disconnected. */
export class RealtimeTransportNotClosedError extends Error {
  constructor(status: RealtimeTransportStatus) {
    super(message('RealtimeTransportNotClosedError', status));
    settle<RealtimeTransportNotClosedError>(this, 'RealtimeTransportNotClosedError', { status });
  }
}

export interface ScriptedRealtimeConnectionSupersededError extends Fields<'ScriptedRealtimeConnectionSupersededError'> {}
/** A close, disconnect or newer connect replaced a connect in progress. */
export class ScriptedRealtimeConnectionSupersededError extends Error {
  constructor() {
    super(message('ScriptedRealtimeConnectionSupersededError'));
    settle<ScriptedRealtimeConnectionSupersededError>(this, 'ScriptedRealtimeConnectionSupersededError', { operation: 'connect' });
  }
}

registerDoubleErrors({
  UnexpectedRealtimeCallError,
  RealtimeCallMatcherError,
  IncompleteRealtimeScenarioError,
  ScriptedRealtimeScenarioCancelledError,
  RealtimeTransportNotClosedError,
  ScriptedRealtimeConnectionSupersededError,
});

type Handle = import('../../wasm/node/understudy_doubles.js').RealtimeScript;
type Settlers = { matcher?: (call: any) => unknown; resolve: (call: any) => void; reject: (error: unknown) => void };
type Outcome =
  | { source: 'scenario' | 'exercise'; status: 'fulfilled'; value?: unknown }
  | { source: 'scenario' | 'exercise'; status: 'rejected'; error: unknown }
  | { source: 'abort' | 'expectation'; error: unknown }
  | { source: 'pending' };

/** A fresh frozen copy of a recorded call, handed out on every read. */
const snapshotCall = (call: unknown): any => frozenSnapshot(call);
const built = (error: unknown) => fromEngine(error);

/** An in-memory Realtime transport for deterministic session tests. */
export class ScriptedRealtimeTransport implements RealtimeTransportLayer {
  /** `'connected' | 'disconnected' | 'connecting' | 'disconnecting'`. */
  declare status: RealtimeTransportStatus;
  /** The last muted state a successful `mute()` set. */
  declare muted: boolean | null;
  readonly #script: Handle;

  constructor() {
    const script = callDoubles((e) => new e.RealtimeScript());
    this.#script = script;
    // Own enumerable properties, as the reference's public fields are.
    Object.defineProperty(this, 'status', {
      enumerable: true,
      configurable: true,
      get: () => script.status,
      set: (status: RealtimeTransportStatus) => callDoubles(() => (script.status = status)),
    });
    Object.defineProperty(this, 'muted', {
      enumerable: true,
      configurable: true,
      get: () => script.muted,
      set: (muted: boolean | null) => {
        script.muted = muted;
      },
    });
  }

  /** Registers a synchronous transport event listener. */
  on<TEvent extends keyof RealtimeTransportEventTypes>(event: TEvent, listener: (...args: RealtimeTransportEventTypes[TEvent]) => void): this {
    this.#script.addListener(event, listener, false);
    return this;
  }

  /** Removes the most recently registered matching listener. */
  off<TEvent extends keyof RealtimeTransportEventTypes>(event: TEvent, listener: (...args: RealtimeTransportEventTypes[TEvent]) => void): this {
    this.#script.removeListener(event, listener);
    return this;
  }

  /** Emits an event synchronously and propagates listener failures. */
  emit<TEvent extends keyof RealtimeTransportEventTypes>(event: TEvent, ...args: RealtimeTransportEventTypes[TEvent]): boolean {
    const registrations = this.#script.emitList(event) as unknown[] | undefined;
    if (registrations === undefined) return false;
    for (let i = 0; i < registrations.length; i += 3) {
      if (registrations[i + 2]) this.#script.removeRegistration(event, registrations[i] as number);
      (registrations[i + 1] as (...a: unknown[]) => void)(...args);
    }
    return true;
  }

  /** Registers a synchronous one-time transport event listener. */
  once<TEvent extends keyof RealtimeTransportEventTypes>(event: TEvent, listener: (...args: RealtimeTransportEventTypes[TEvent]) => void): this {
    this.#script.addListener(event, listener, true);
    return this;
  }

  /** All outbound calls recorded in invocation order (fresh frozen snapshots). */
  get calls(): readonly RecordedRealtimeTransportCall[] {
    return Object.freeze((this.#script.calls() as unknown[]).map(snapshotCall));
  }

  /** Registers an ordered expectation for the next outbound call. */
  expectCall<TMethod extends RealtimeTransportMethod>(method: TMethod, matcher?: RealtimeCallMatcher<TMethod>): Promise<RealtimeTransportCallFor<TMethod>> {
    const { order, call } = this.#script.expect() as { order: number; call: unknown };
    if (call !== undefined) {
      try {
        this.#validate(method, matcher, snapshotCall(call));
        return Promise.resolve(snapshotCall(call));
      } catch (error) {
        return Promise.reject(error);
      }
    }
    return new Promise((resolve, reject) => {
      this.#script.queue(order, method, { matcher, resolve, reject } satisfies Settlers);
    });
  }

  /** Runs the scripted side and the code under test together, without wall-clock timeouts. */
  async runScenario<TResult>(options: ScriptedRealtimeScenarioOptions<TResult>): Promise<TResult> {
    let terminalError: unknown;
    let active = true;
    let exerciseCompleted = false;
    let resolveExpectationFailure!: (outcome: Outcome) => void;
    const expectationFailureOutcome = new Promise<Outcome>((resolve) => {
      resolveExpectationFailure = resolve;
    });
    const abortError = () => built(this.#script.cancelledError());
    if (options.signal?.aborted) throw abortError();
    let removeAbortListener = () => {};
    const abortOutcome = new Promise<Outcome>((resolve) => {
      if (!options.signal) return;
      const listener = () => resolve({ source: 'abort', error: abortError() });
      options.signal.addEventListener('abort', listener, { once: true });
      removeAbortListener = () => options.signal?.removeEventListener('abort', listener);
    });
    const terminate = (error: unknown) => {
      terminalError = error;
      active = false;
      this.#rejectPending(error);
    };
    const settleOwnedExpectationFailure = (error: unknown) => {
      if (!active) return;
      terminate(error);
      resolveExpectationFailure({ source: 'expectation', error });
    };
    const context: ScriptedRealtimeScenarioContext = {
      expectCall: (method, matcher) => {
        if (!active) return Promise.reject(terminalError);
        const expectation = this.expectCall(method, matcher);
        void expectation.catch(settleOwnedExpectationFailure);
        if (exerciseCompleted && this.#script.hasPending()) settleOwnedExpectationFailure(built(this.#script.incompleteError()));
        return expectation;
      },
      emit: this.emit.bind(this),
    };
    const assertCompleteOrTerminate = () => {
      if (!active) throw terminalError;
      try {
        this.assertComplete();
      } catch (error) {
        terminate(error);
        throw error;
      }
    };
    const scenarioOutcome: Promise<Outcome> = Promise.resolve()
      .then(() => options.scenario(context))
      .then(
        () => ({ source: 'scenario', status: 'fulfilled' }),
        (error) => ({ source: 'scenario', status: 'rejected', error }),
      );
    const exerciseOutcome: Promise<Outcome> = Promise.resolve()
      .then(() => options.exercise())
      .then(
        (value) => {
          exerciseCompleted = true;
          return { source: 'exercise', status: 'fulfilled', value };
        },
        (error) => ({ source: 'exercise', status: 'rejected', error }),
      );
    /** Abort, expectation failure and rejection end the run with their error. */
    const failIfTerminal = (outcome: Outcome) => {
      if (outcome.source === 'abort') {
        terminate(outcome.error);
        throw outcome.error;
      }
      if (outcome.source === 'expectation') throw outcome.error;
      if ('status' in outcome && outcome.status === 'rejected') {
        terminate(outcome.error);
        throw outcome.error;
      }
    };
    try {
      const first = await Promise.race([scenarioOutcome, exerciseOutcome, abortOutcome, expectationFailureOutcome]);
      failIfTerminal(first);
      if (first.source === 'exercise') {
        const value = (first as { value: TResult }).value;
        const immediate = await Promise.race([scenarioOutcome, Promise.resolve<Outcome>({ source: 'pending' })]);
        if (immediate.source === 'scenario') {
          failIfTerminal(immediate);
          assertCompleteOrTerminate();
          return value;
        }
        if (this.#script.hasPending()) {
          const error = built(this.#script.incompleteError());
          terminate(error);
          throw error;
        }
        failIfTerminal(await Promise.race([scenarioOutcome, abortOutcome, expectationFailureOutcome]));
        assertCompleteOrTerminate();
        return value;
      }
      const exerciseResult = await Promise.race([exerciseOutcome, abortOutcome, expectationFailureOutcome]);
      failIfTerminal(exerciseResult);
      assertCompleteOrTerminate();
      return (exerciseResult as { value: TResult }).value;
    } finally {
      active = false;
      removeAbortListener();
    }
  }

  /** Makes the next call to a transport method throw the supplied error. */
  failNextCall(method: RealtimeTransportMethod, error: unknown): void {
    this.#script.failNext(method, error);
  }

  /** Emits a controlled terminal disconnect and optional transport error. */
  disconnect(error?: unknown): void {
    let failure: { error: unknown } | undefined;
    if (this.#script.disconnect()) {
      try {
        this.emit('connection_change', 'disconnected');
      } catch (caught) {
        failure = { error: caught };
      }
    }
    if (typeof error !== 'undefined') {
      try {
        this.emit('error', { type: 'error', error });
      } catch (caught) {
        failure ??= { error: caught };
      }
    }
    if (failure) throw failure.error;
  }

  /** Throws {@link IncompleteRealtimeScenarioError} when calls, expectations or failures remain. */
  assertComplete(): void {
    callDoubles(() => this.#script.assertComplete());
  }

  /** Throws {@link RealtimeTransportNotClosedError} unless the transport is disconnected. */
  assertClosed(): void {
    callDoubles(() => this.#script.assertClosed());
  }

  async connect(options: RealtimeTransportLayerConnectOptions): Promise<void> {
    const script = this.#script;
    const generation = script.connectBegin();
    const current = (status: RealtimeTransportStatus) => callDoubles(() => script.assertCurrent(generation, status));
    try {
      this.#call('connect', { options: callDoubles((e) => e.realtimeConnectData(options)) });
      current('connecting');
      this.emit('connection_change', 'connecting');
      current('connecting');
      script.connectProvisional(generation);
      this.emit('connection_change', 'connected');
      current('connected');
      script.connectSettled(generation);
    } catch (error) {
      if (script.connectFailed(generation)) this.#announceDisconnectAfterFailure();
      throw error;
    } finally {
      script.connectSettled(generation);
    }
  }

  sendEvent(event: RealtimeClientMessage): void {
    this.#call('sendEvent', { event });
  }

  requestResponse(response?: Record<string, any>): void {
    this.#call('requestResponse', { response });
  }

  sendMessage(message: RealtimeUserInput, otherEventData: Record<string, any>, options?: { triggerResponse?: boolean }): void {
    this.#call('sendMessage', { message, otherEventData, options });
  }

  addImage(image: string, options?: { triggerResponse?: boolean }): void {
    this.#call('addImage', { image, options });
  }

  sendAudio(audio: ArrayBuffer, options: { commit?: boolean }): void {
    this.#call('sendAudio', { audio, options });
  }

  updateSessionConfig(config: Partial<RealtimeSessionConfig>): void {
    this.#call('updateSessionConfig', { config });
  }

  close(): void {
    const script = this.#script;
    const ticket = script.closeBegin();
    if (ticket === undefined) return;
    try {
      this.#call('close', {});
      if (script.closeRecorded(ticket)) this.emit('connection_change', 'disconnected');
    } catch (error) {
      if (script.closeFailed(ticket)) this.#announceDisconnectAfterFailure();
      throw error;
    }
  }

  mute(muted: boolean): void {
    this.#call('mute', { muted });
    this.#script.muted = muted;
  }

  sendFunctionCallOutput(toolCall: TransportToolCallEvent, output: string, startResponse: boolean): void {
    this.#call('sendFunctionCallOutput', { toolCall, output, startResponse });
  }

  interrupt(): void {
    this.#call('interrupt', {});
  }

  resetHistory(oldHistory: RealtimeItem[], newHistory: RealtimeItem[]): void {
    this.#call('resetHistory', { oldHistory, newHistory });
  }

  sendMcpResponse(approvalRequest: RealtimeMcpCallApprovalRequestItem, approved: boolean, reason?: string): void {
    this.#call('sendMcpResponse', { approvalRequest, approved, reason });
  }

  /** Reserves the method's next injected failure, records the call, then throws the failure. */
  /** Emits `disconnected` after a failed connect or close; a listener's exception gives way to that failure, which is the one reported. */
  #announceDisconnectAfterFailure(): void {
    try {
      this.emit('connection_change', 'disconnected');
    } catch {
      // The operation's own failure is rethrown by the caller.
    }
  }

  #call(method: string, data: Record<string, unknown>): void {
    const failure = this.#script.takeFailure(method) as { error: unknown } | undefined;
    this.#record(method, { method, ...data });
    if (failure) throw failure.error;
  }

  #record(method: string, call: Record<string, unknown>): void {
    // The recorded form: the snapshot of `{ method, …data }` with `index` (the
    // position it is recorded at, read after the snapshot ran any getters) added last, frozen.
    const snapshot = snapshotValue(call) as Record<string, unknown>;
    const recorded = Object.freeze({ ...snapshot, index: this.#script.nextIndex() });
    const expectation = this.#script.record(method, recorded) as { method: RealtimeTransportMethod; payload: Settlers } | undefined;
    if (!expectation) return;
    const { matcher, resolve, reject } = expectation.payload;
    try {
      this.#validate(expectation.method, matcher, snapshotCall(recorded));
      resolve(snapshotCall(recorded));
    } catch (error) {
      reject(error);
      throw error;
    }
  }

  #validate(method: string, matcher: ((call: any) => unknown) | undefined, call: unknown): void {
    callDoubles((e) => e.realtimeCheckMethod(method, call));
    if (matcher) {
      const returned = matcher(call);
      callDoubles((e) => e.realtimeMatcherVerdict(returned, call));
    }
  }

  #rejectPending(error: unknown): void {
    for (const payload of this.#script.drainExpectations() as Settlers[]) payload.reject(error);
  }
}
