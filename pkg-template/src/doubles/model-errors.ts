/**
 * The errors of the scripted models (`ScriptedModel`, `scriptedLanguageModel`), one class each
 * for both: the engine raises them with their fields and message (src/doubles/model.rs); a
 * user's `new` builds them as the reference does. Free of `@openai/agents` types, so the AI
 * SDK entry's types stand without it.
 */
import { callDoubles } from '../engine/channel.js';
import { registerDoubleErrors, settle, type FieldsOf } from '../engine/errors.js';
import type { ModelErrorFields } from '../engine/engine-types.js';

const message = (kind: string, args: object) => callDoubles((e) => e.modelErrorMessage(kind, args));
type Fields<K extends ModelErrorFields['kind']> = Readonly<FieldsOf<ModelErrorFields, K>>;

export interface UnexpectedModelCallError extends Fields<'UnexpectedModelCallError'> {}
/** The workflow made a model call after the script ran out. */
export class UnexpectedModelCallError extends Error {
  constructor(call: Readonly<{ index: number; streamed: boolean }>) {
    super(message('UnexpectedModelCallError', call));
    settle<UnexpectedModelCallError>(this, 'UnexpectedModelCallError', { callIndex: call.index, streamed: call.streamed });
  }
}

export interface UnconsumedModelStepsError extends Fields<'UnconsumedModelStepsError'> {}
/** The workflow ended before it used every scripted step (`assertComplete()`). */
export class UnconsumedModelStepsError extends Error {
  constructor(remainingSteps: number) {
    super(message('UnconsumedModelStepsError', { remainingSteps }));
    settle<UnconsumedModelStepsError>(this, 'UnconsumedModelStepsError', { remainingSteps });
  }
}

export interface InvalidScriptedModelStepError extends Fields<'InvalidScriptedModelStepError'> {}
/** A step is malformed, or does not fit the call that took it. */
export class InvalidScriptedModelStepError extends Error {
  constructor(options: FieldsOf<ModelErrorFields, 'InvalidScriptedModelStepError'> & { message: string }) {
    super(options.message);
    const { reason, inputIndex, callIndex, stepType } = options;
    settle<InvalidScriptedModelStepError>(this, 'InvalidScriptedModelStepError', { reason, inputIndex, callIndex, stepType });
  }
}

export interface ScriptedModelRequestAbortedError extends Fields<'ScriptedModelRequestAbortedError'> {}
/** The request's signal was aborted before or during the scripted work (`name` is `'AbortError'`). */
export class ScriptedModelRequestAbortedError extends Error {
  constructor(callIndex?: number) {
    super(message('ScriptedModelRequestAbortedError', {}));
    settle<ScriptedModelRequestAbortedError>(this, 'AbortError', { callIndex });
  }
}

registerDoubleErrors({ UnexpectedModelCallError, UnconsumedModelStepsError, InvalidScriptedModelStepError, ScriptedModelRequestAbortedError });
