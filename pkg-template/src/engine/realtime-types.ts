/** The realtime double's shared types (its errors' generated fields use them too). */
import type { RealtimeTransportLayer } from '@openai/agents-realtime';

type FunctionKeys<T> = { [TKey in keyof T]-?: NonNullable<T[TKey]> extends (...args: any[]) => any ? TKey : never }[keyof T];

/** The transport methods a scenario can expect. */
export type RealtimeTransportMethod = Exclude<FunctionKeys<RealtimeTransportLayer>, 'emit' | 'off' | 'on' | 'once'>;

/** One recorded outbound call (its data keys depend on the method). */
export type RecordedRealtimeTransportCall = Readonly<{ index: number; method: string }>;

/** An expectation still waiting for its call. */
export type PendingRealtimeExpectation = Readonly<{ order: number; method: RealtimeTransportMethod }>;

/** Injected failures still queued for a method. */
export type PendingRealtimeFailure = Readonly<{ method: RealtimeTransportMethod; count: number }>;

/** The transport's connection status. */
export type RealtimeTransportStatus = 'connected' | 'disconnected' | 'connecting' | 'disconnecting';
