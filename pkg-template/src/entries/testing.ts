/**
 * `@understudy/agents/testing`: the drop-in for `@openai/agents/testing`. Scripted doubles for
 * the model and the sandbox session that drive the real `@openai/agents`
 * runtime in memory. `@openai/agents-core` is a peer dependency: responses carry its `Usage`.
 *
 * In Node the engine loads with this entry; in a browser, `await init()` from
 * `@understudy/agents` first.
 */
export {
  ScriptedModel,
  UnexpectedModelCallError,
  UnconsumedModelStepsError,
  InvalidScriptedModelStepError,
  ScriptedModelRequestAbortedError,
  assistantMessage,
  functionCall,
  modelError,
  modelResponder,
  modelResponse,
  modelStream,
  modelStreamResponder,
} from '../doubles/scripted-model.js';
export type {
  AssistantMessageOptions,
  FunctionCallOptions,
  InvalidScriptedModelStepReason,
  RecordedModelCall,
  ScriptedModelInput,
  ScriptedModelOptions,
  ScriptedModelResponse,
  ScriptedModelRetryAdvice,
  ScriptedModelStream,
} from '../doubles/scripted-model.js';
export {
  scriptedSandboxSession,
  InvalidScriptedSandboxStepError,
  SandboxCallMatcherError,
  UnexpectedSandboxCallError,
  UnconsumedSandboxStepsError,
} from '../doubles/scripted-sandbox.js';
export type {
  InvalidScriptedSandboxStepReason,
  RecordedSandboxCall,
  ScriptedSandboxCallFor,
  ScriptedSandboxInput,
  ScriptedSandboxMethod,
  ScriptedSandboxSession,
} from '../doubles/scripted-sandbox.js';
export {
  RecordingModel,
  recordingModel,
  cassette,
  InvalidCassetteError,
  CassetteMismatchError,
  CassetteMissingError,
  RECORD_ENV,
  CASSETTES_ENV,
} from '../doubles/cassette.js';
export type {
  Cassette,
  CassetteStep,
  RecordedError,
  CassetteOptions,
  RecordingOptions,
  ReplayOptions,
  RedactionOptions,
  InvalidCassetteReason,
} from '../doubles/cassette.js';
export { assertToolCalled, assertToolNotCalled, assertToolCalledTimes, assertToolCallOrder, assertToolsOffered, assertToolsAccepted, assertRetried } from '../doubles/assertions.js';
export type { LoggedToolCall, ToolCalledOptions, ToolsOfferedOptions, RetriedOptions } from '../doubles/assertions.js';
export { scriptedFetch, fetchResponder } from '../doubles/scripted-fetch.js';
export type { ScriptedFetch, ScriptedFetchInput, ScriptedFetchOptions, ScriptedFetchRetryAdvice, RecordedHttpCall, WireRequest, WireMessagePart, WireEndpoint, WireSession } from '../doubles/scripted-fetch.js';
export { withFault, overloadedError, embeddingStep, OverloadedError } from '../doubles/wire-steps.js';
export type { WireFault, WireFaultKind, FaultedStep, EmbeddingStep } from '../doubles/wire-steps.js';
export { providerServer } from '../doubles/provider-server.js';
export type { ProviderServer, ProviderServerOptions, RecordingProviderServer, UpstreamSource } from '../doubles/provider-server.js';
export { recordingFetch, fetchCassette } from '../doubles/wire-cassette.js';
export type { RecordingFetch, RecordingFetchOptions, WireCassetteSource, FetchCassetteOptions } from '../doubles/wire-cassette.js';
