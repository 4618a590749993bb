/**
 * `@understudy/agents/ai-sdk/testing`: a scripted `LanguageModel` for the AI SDK
 * (`generateText`, `streamText`, `Output`, tool loops, `wrapLanguageModel`), scripted with the
 * same step builders as `ScriptedModel`. It needs neither `ai` nor `@openai/agents` at run
 * time: the model is the provider-level interface (`LanguageModelV3` or `LanguageModelV4`),
 * typed here by its shape.
 */
export {
  reasoning,
  ScriptedLanguageModel,
  scriptedLanguageModel,
  RecordingLanguageModel,
  recordingLanguageModel,
  cassette,
} from '../doubles/scripted-language-model.js';
export type {
  LanguageModelCallOptions,
  RecordedLanguageModelCall,
  ScriptedLanguageModelInput,
  ScriptedLanguageModelOptions,
  LanguageModelLike,
  LanguageModelRecordingOptions,
  LanguageModelCassetteOptions,
} from '../doubles/scripted-language-model.js';
export { InvalidCassetteError, CassetteMissingError, CassetteMismatchError, CASSETTES_ENV, RECORD_ENV } from '../doubles/cassette.js';
export type { Cassette, CassetteStep, RecordedError, ReplayOptions } from '../doubles/cassette-format.js';
export type { RedactionOptions } from '../doubles/cassette.js';
export {
  assistantMessage,
  functionCall,
  modelError,
  modelResponder,
  modelResponse,
  modelStream,
  UnexpectedModelCallError,
  UnconsumedModelStepsError,
  InvalidScriptedModelStepError,
  ScriptedModelRequestAbortedError,
} from '../doubles/scripted-model.js';
export type { AssistantMessageOptions, FunctionCallOptions, ScriptedModelRetryAdvice } from '../doubles/scripted-model.js';
export { assertToolCalled, assertToolNotCalled, assertToolCalledTimes, assertToolsOffered } from '../doubles/assertions.js';
