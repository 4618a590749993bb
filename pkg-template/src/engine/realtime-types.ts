/**
 * The realtime double's shared types (its errors' generated fields use them too). Written out
 * rather than derived from `@openai/agents-realtime`, so the types of the entries that do not
 * use it stand without it; `js-tests/packaging.test.mjs` holds the method list equal to the
 * one `RealtimeTransportLayer` derives.
 */

/** The transport methods a scenario can expect (`RealtimeTransportLayer`'s methods but its event emitter's). */
export type RealtimeTransportMethod =
  | 'connect'
  | 'sendEvent'
  | 'requestResponse'
  | 'sendMessage'
  | 'addImage'
  | 'sendAudio'
  | 'updateSessionConfig'
  | 'close'
  | 'mute'
  | 'sendFunctionCallOutput'
  | 'interrupt'
  | 'resetHistory'
  | 'sendMcpResponse';

/** One recorded outbound call (its data keys depend on the method). */
export type RecordedRealtimeTransportCall = Readonly<{ index: number; method: string }>;

/** An expectation still waiting for its call. */
export type PendingRealtimeExpectation = Readonly<{ order: number; method: RealtimeTransportMethod }>;

/** Injected failures still queued for a method. */
export type PendingRealtimeFailure = Readonly<{ method: RealtimeTransportMethod; count: number }>;

/** The transport's connection status. */
export type RealtimeTransportStatus = 'connected' | 'disconnected' | 'connecting' | 'disconnecting';
