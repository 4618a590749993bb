/**
 * `@understudy/agents/realtime/testing`: the drop-in for `@openai/agents/realtime/testing`, an
 * in-memory scripted `RealtimeTransportLayer` that a real `RealtimeSession` runs against.
 *
 * In Node the engine loads with this entry; in a browser, `await init()` from
 * `@understudy/agents` first.
 */
export {
  ScriptedRealtimeTransport,
  UnexpectedRealtimeCallError,
  RealtimeCallMatcherError,
  IncompleteRealtimeScenarioError,
  RealtimeTransportNotClosedError,
  ScriptedRealtimeConnectionSupersededError,
  ScriptedRealtimeScenarioCancelledError,
} from '../doubles/scripted-realtime.js';
export type {
  PendingRealtimeExpectation,
  PendingRealtimeFailure,
  RecordedRealtimeTransportCall,
  RealtimeCallMatcher,
  RealtimeTransportCallFor,
  RealtimeTransportMethod,
  ScriptedRealtimeScenarioContext,
  ScriptedRealtimeScenarioOptions,
} from '../doubles/scripted-realtime.js';
