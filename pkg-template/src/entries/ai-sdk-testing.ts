/**
 * `@understudy/agents/ai-sdk/testing`: a scripted `LanguageModel` for the AI SDK
 * (`generateText`, `streamText`, `Output`, tool loops, `wrapLanguageModel`), its cassettes and
 * the tool assertions. It needs neither `ai` nor `@openai/agents` at run time, and its types
 * need no `@openai/agents` (the call options and stream parts are `@ai-sdk/provider`'s).
 */
export { ScriptedLanguageModel, scriptedLanguageModel } from '../doubles/scripted-language-model.js';
export type { LanguageModelCallOptions, ScriptedLanguageModelOptions } from '../doubles/scripted-language-model.js';
export { RecordingLanguageModel, recordingLanguageModel, cassette } from '../doubles/language-model-cassette.js';
export type { LanguageModelLike, LanguageModelOf, LanguageModelRecordingOptions, LanguageModelCassetteOptions, LanguageModelReplayOptions } from '../doubles/language-model-cassette.js';
export {
  assistantMessage,
  functionCall,
  toolCall,
  textStep,
  objectStep,
  reasoning,
  modelError,
  modelResponder,
  modelResponse,
  modelStream,
} from '../doubles/language-model-steps.js';
export type {
  AssistantMessageOptions,
  FunctionCallOptions,
  RecordedLanguageModelCall,
  ScriptedLanguageModelInput,
  ScriptedLanguageModelStep,
  ScriptedLanguageModelReply,
  ScriptedLanguageModelResponse,
  ScriptedLanguageModelItem,
  ScriptedAssistantMessage,
  ScriptedToolCall,
  ScriptedReasoning,
  ScriptedLanguageModelUsage,
  ScriptedLanguageModelStream,
  LanguageModelRetryAdvice,
  ScriptedLanguageModelRetryAdvice,
} from '../doubles/language-model-steps.js';
export { UnexpectedModelCallError, UnconsumedModelStepsError, InvalidScriptedModelStepError, ScriptedModelRequestAbortedError } from '../doubles/model-errors.js';
export { InvalidCassetteError, CassetteMissingError, CassetteMismatchError } from '../engine/errors.js';
export { CASSETTES_ENV, RECORD_ENV } from '../doubles/cassette-format.js';
export type { Cassette, CassetteStep, RecordedError, ReplayOptions, RedactionOptions } from '../doubles/cassette-format.js';
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
