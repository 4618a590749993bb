//! `ScriptedModel`: step classification, the step queue, call numbering, the
//! error raised for each mismatch and the choice of retry advice.

use std::collections::VecDeque;
use std::fmt;

use super::display_index;

/// The five step kinds a script holds once its inputs are normalized.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StepType {
    Response,
    Error,
    Responder,
    Stream,
    StreamResponder,
}

impl StepType {
    pub fn as_str(self) -> &'static str {
        match self {
            StepType::Response => "response",
            StepType::Error => "error",
            StepType::Responder => "responder",
            StepType::Stream => "stream",
            StepType::StreamResponder => "stream_responder",
        }
    }

    fn parse(s: &str) -> Option<StepType> {
        Some(match s {
            "response" => StepType::Response,
            "error" => StepType::Error,
            "responder" => StepType::Responder,
            "stream" => StepType::Stream,
            "stream_responder" => StepType::StreamResponder,
            _ => return None,
        })
    }

    /// Raw stream steps (`modelStream`, `modelStreamResponder`) only answer streamed calls.
    pub fn is_raw_stream(self) -> bool {
        matches!(self, StepType::Stream | StepType::StreamResponder)
    }
}

crate::code_enum! {
    /// `InvalidScriptedModelStepError.reason`.
    pub enum StepReason {
        InvalidInput = "invalid_input",
        UnknownStepType = "unknown_step_type",
        MissingResponse = "missing_response",
        InvalidResponse = "invalid_response",
        MissingError = "missing_error",
        MissingResponder = "missing_responder",
        InvalidStream = "invalid_stream",
        IncompatibleCall = "incompatible_call",
    }
}

/// Every error the scripted model raises by itself (errors scripted with `modelError` and
/// exceptions from user callbacks pass through untouched and are not modelled here).
/// Each variant is one facade class (its `kind`), with its fields in the class's order under
/// the class's names ([`crate::error::Raise`]); the facade's field types are generated from it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "kind")]
#[cfg_attr(
    test,
    derive(ts_rs::TS),
    ts(rename = "ModelErrorFields", optional_fields)
)]
pub enum ModelError {
    /// `InvalidScriptedModelStepError`. Queue-time errors carry `input_index`, call-time
    /// errors `call_index`.
    #[serde(rename = "InvalidScriptedModelStepError", rename_all = "camelCase")]
    InvalidStep {
        #[cfg_attr(test, ts(type = "InvalidScriptedModelStepReason"))]
        reason: StepReason,
        /// The zero-based position of an invalid constructor or `enqueue()` input.
        input_index: Option<usize>,
        /// The zero-based position of a call in `ScriptedModel.calls`.
        call_index: Option<usize>,
        step_type: Option<String>,
    },
    /// `UnexpectedModelCallError`: a call after the script ran out.
    #[serde(rename = "UnexpectedModelCallError", rename_all = "camelCase")]
    Unexpected {
        /// The zero-based position of the call in `ScriptedModel.calls`.
        call_index: usize,
        streamed: bool,
    },
    /// `UnconsumedModelStepsError`, from `assertComplete()`.
    #[serde(rename = "UnconsumedModelStepsError")]
    Unconsumed {
        #[serde(rename = "remainingSteps")]
        remaining: usize,
    },
    /// `ScriptedModelRequestAbortedError` (name `AbortError`); no call index when the request
    /// was aborted before it was recorded.
    #[serde(rename = "ScriptedModelRequestAbortedError", rename_all = "camelCase")]
    Aborted {
        /// The zero-based position of a call in `ScriptedModel.calls`.
        call_index: Option<usize>,
    },
}

use crate::error::Class;

impl crate::error::Raise for ModelError {
    fn kind(&self) -> Class {
        match self {
            ModelError::InvalidStep { .. } => Class::InvalidScriptedModelStepError,
            ModelError::Unexpected { .. } => Class::UnexpectedModelCallError,
            ModelError::Unconsumed { .. } => Class::UnconsumedModelStepsError,
            ModelError::Aborted { .. } => Class::ScriptedModelRequestAbortedError,
        }
    }
}

impl ModelError {
    fn invalid_input(
        reason: StepReason,
        input_index: usize,
        step_type: Option<String>,
    ) -> ModelError {
        ModelError::InvalidStep {
            reason,
            input_index: Some(input_index),
            call_index: None,
            step_type,
        }
    }

    fn invalid_call(
        reason: StepReason,
        call_index: usize,
        step_type: Option<StepType>,
    ) -> ModelError {
        ModelError::InvalidStep {
            reason,
            input_index: None,
            call_index: Some(call_index),
            step_type: step_type.map(|t| t.as_str().to_owned()),
        }
    }

    /// A responder returned something that is not a response (`invalid_response`, call-time).
    pub fn responder_invalid_response(call_index: usize) -> ModelError {
        ModelError::invalid_call(StepReason::InvalidResponse, call_index, None)
    }

    /// A stream responder returned something that is not an iterable (`invalid_stream`).
    pub fn responder_invalid_stream(call_index: usize) -> ModelError {
        ModelError::invalid_call(
            StepReason::InvalidStream,
            call_index,
            Some(StepType::StreamResponder),
        )
    }
}

/// The double an error comes from, which its message names: `ScriptedModel` (the reference's
/// messages, word for word) or the AI SDK's `scriptedLanguageModel`, which shares its rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Surface {
    #[default]
    ScriptedModel,
    ScriptedLanguageModel,
    /// `scriptedFetch`: the AI SDK double's steps, at the HTTP level.
    ScriptedFetch,
    /// `providerServer` (and the `serve` command): the same, for another process.
    ProviderServer,
}

impl Surface {
    pub fn name(self) -> &'static str {
        match self {
            Surface::ScriptedModel => "ScriptedModel",
            Surface::ScriptedLanguageModel => "scriptedLanguageModel",
            Surface::ScriptedFetch => "scriptedFetch",
            Surface::ProviderServer => "providerServer",
        }
    }

    /// The HTTP doubles, whose users hold requests and clients, not the AI SDK's calls.
    pub fn is_http(self) -> bool {
        matches!(self, Surface::ScriptedFetch | Surface::ProviderServer)
    }

    /// The surface of a binding's code: 0 `ScriptedModel`, 1 `scriptedLanguageModel`, 2
    /// `scriptedFetch`, 3 `providerServer`.
    pub fn from_code(code: u8) -> Surface {
        match code {
            1 => Surface::ScriptedLanguageModel,
            2 => Surface::ScriptedFetch,
            3 => Surface::ProviderServer,
            _ => Surface::ScriptedModel,
        }
    }

    /// The doubles scripted in answers' parts (the AI SDK's and the HTTP double), whose
    /// messages speak of parts and answers rather than output items and envelopes.
    pub fn speaks_parts(self) -> bool {
        self != Surface::ScriptedModel
    }
}

/// A [`ModelError`] as `surface` raises it: the same class and fields, the message naming
/// that double.
#[derive(Debug, serde::Serialize)]
#[serde(transparent)]
pub struct SurfaceError {
    pub error: ModelError,
    #[serde(skip)]
    pub surface: Surface,
    /// What exactly is wrong and how to write it, where the fields alone do not say (the AI SDK
    /// double's checks of an answer's parts); only the message carries it.
    #[serde(skip)]
    pub detail: Option<String>,
}

impl ModelError {
    /// This error as `surface` raises it.
    pub fn from_surface(self, surface: Surface) -> SurfaceError {
        SurfaceError {
            error: self,
            surface,
            detail: None,
        }
    }
}

impl crate::error::Raise for SurfaceError {
    fn kind(&self) -> Class {
        self.error.kind()
    }
}

impl fmt::Display for SurfaceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // A detail names the input (queue time) or the call (call time) it is about.
        let about = match &self.error {
            ModelError::InvalidStep {
                input_index: Some(i),
                ..
            } => Some(("input", *i)),
            ModelError::InvalidStep {
                call_index: Some(c),
                ..
            } => Some(("call", *c)),
            _ => None,
        };
        match (&self.detail, about) {
            (Some(detail), Some((what, n))) => write!(
                f,
                "{} {what} #{}: {detail}",
                self.surface.name(),
                display_index(n)
            ),
            _ => self.error.describe(f, self.surface),
        }
    }
}

impl ModelError {
    /// An answer that does not fit call `call` (`invalid_response`, call-time), as the AI SDK
    /// double refuses it: `detail` says what is wrong and how to write it.
    pub fn invalid_answer_for_call(surface: Surface, call: usize, detail: String) -> SurfaceError {
        SurfaceError {
            error: ModelError::invalid_call(StepReason::InvalidResponse, call, None),
            surface,
            detail: Some(detail),
        }
    }

    /// An invalid answer of input `index` (`invalid_response`), as the AI SDK double refuses it
    /// when it is queued: `detail` says what is wrong and how to write it.
    pub fn invalid_answer(surface: Surface, index: usize, detail: String) -> SurfaceError {
        SurfaceError {
            error: ModelError::invalid_input(StepReason::InvalidResponse, index, None),
            surface,
            detail: Some(detail),
        }
    }
}

impl fmt::Display for ModelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.describe(f, Surface::ScriptedModel)
    }
}

/// The AI SDK double's hint for an input whose `type` is not a step's but a part's: an output
/// item (the answer's inner array forgotten) or one of the SDK's own content or stream parts.
fn part_hint(surface: Surface, step_type: &str) -> Option<&'static str> {
    if !surface.speaks_parts() {
        return None;
    }
    Some(match step_type {
        "message" | "function_call" | "reasoning" => {
            " It is a part of an answer, not a step: give each answer as an array of its parts, `[[assistantMessage('hi')]]` (or `textStep('hi')`)."
        }
        "text" | "tool-call" | "file" | "source" | "tool-result" => {
            " It is an AI SDK content part: script `textStep('…')` or `[assistantMessage('…')]`, `[toolCall(name, input)]`, or the SDK's stream parts with `modelStream([...])`."
        }
        t if t.contains('-') => {
            " It looks like an AI SDK stream part: pass the parts of one streamed answer to `modelStream([...])`."
        }
        _ => return None,
    })
}

impl ModelError {
    /// The message, naming the double of `surface`.
    fn describe(&self, f: &mut fmt::Formatter<'_>, surface: Surface) -> fmt::Result {
        let name = surface.name();
        match self {
            ModelError::InvalidStep {
                reason,
                call_index: Some(call),
                ..
            } => {
                let n = display_index(*call);
                match reason {
                    StepReason::IncompatibleCall if surface.speaks_parts() => {
                        write!(
                            f,
                            "{name} call #{n} is a generateText call (doGenerate), but its step is a stream: a modelStream step, or a call a cassette recorded from streamText. Script an answer instead, or replay with streamText, or record the cassette again with generateText."
                        )
                    }
                    StepReason::IncompatibleCall => {
                        write!(
                            f,
                            "{name} cannot use raw stream step for non-streaming call #{n}."
                        )
                    }
                    StepReason::InvalidStream => {
                        write!(
                            f,
                            "{name} stream responder returned an invalid stream for call #{n}."
                        )
                    }
                    _ => write!(
                        f,
                        "{name} responder returned an invalid response for call #{n}."
                    ),
                }
            }
            ModelError::InvalidStep {
                reason,
                input_index,
                step_type,
                ..
            } => {
                let n = display_index(input_index.unwrap_or(0));
                match (reason, step_type.as_deref()) {
                    (StepReason::InvalidResponse, _) if surface.speaks_parts() => {
                        write!(f, "{name} input #{n} is not an answer: a complete response is `{{ output: [parts], usage? }}` (modelResponse), or give the parts as an array.")
                    }
                    (StepReason::InvalidResponse, _) => {
                        write!(f, "{name} input #{n} has an invalid response envelope.")
                    }
                    (StepReason::UnknownStepType, Some(t)) if !t.is_empty() => {
                        write!(f, "{name} input #{n} has unknown type \"{t}\".")?;
                        f.write_str(part_hint(surface, t).unwrap_or(""))
                    }
                    _ => {
                        write!(
                            f,
                            "{name} input #{n} is invalid ({}).",
                            reason.as_str().replace('_', " ")
                        )?;
                        if surface.speaks_parts() && *reason == StepReason::InvalidInput {
                            f.write_str(" A step is an array of an answer's parts (`[assistantMessage('hi')]`, `textStep('hi')`, `[toolCall(name, input)]`) or a step builder's value (`modelResponse`, `modelError`, `modelResponder`, `modelStream`).")?;
                        }
                        Ok(())
                    }
                }
            }
            ModelError::Unexpected {
                call_index,
                streamed,
            } => write!(
                f,
                "{name} received unexpected {} call #{}; no scripted steps remain.",
                if *streamed {
                    "streaming"
                } else {
                    "non-streaming"
                },
                display_index(*call_index)
            ),
            ModelError::Unconsumed { remaining } => {
                write!(
                    f,
                    "{name} has {} unconsumed scripted step{}.",
                    remaining,
                    if *remaining == 1 { "" } else { "s" }
                )
            }
            ModelError::Aborted { .. } => f.write_str("Scripted model request was aborted."),
        }
    }
}

/// The value of an input's `type` key, when it has one (`'type' in input`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TypeTag {
    Str(String),
    /// A `type` that is not a string (number, object, `undefined`, …).
    Other,
}

/// What the classification needs to know about one constructor / `enqueue()` input. The
/// bindings answer by reading the JavaScript value, in the order the questions are asked, so
/// getters run in the reference's order and an exception they throw stops classification.
pub trait InputView {
    type HostError;
    fn is_array(&self) -> bool;
    /// `typeof input === 'object' && input !== null`.
    fn is_object(&self) -> bool;
    /// `'type' in input` and, when present, its value.
    fn type_tag(&mut self) -> Result<Option<TypeTag>, Self::HostError>;
    /// `key in input`.
    fn has(&mut self, key: &'static str) -> Result<bool, Self::HostError>;
    /// `typeof input[key] === 'function'`.
    fn is_function(&mut self, key: &'static str) -> Result<bool, Self::HostError>;
    /// `input[key]` is a non-null object with `Symbol.iterator` or `Symbol.asyncIterator`.
    fn is_iterable(&mut self, key: &'static str) -> Result<bool, Self::HostError>;
    /// The response envelope check on `input[key]`, or on the input itself for `None`: an
    /// array, or an object whose `output` is an array and whose `usage` is a `Usage`.
    fn is_response(&mut self, key: Option<&'static str>) -> Result<bool, Self::HostError>;
}

/// Why an input was not queued: a scripted-model error, or an exception from the host.
#[derive(Debug)]
pub enum Refusal<E> {
    Step(ModelError),
    Host(E),
}

impl<E> From<ModelError> for Refusal<E> {
    fn from(e: ModelError) -> Self {
        Refusal::Step(e)
    }
}

/// How a valid input is stored. `Shorthand` is an output-only array; `Complete` a response
/// object with `output` and `usage`, given directly or under `response`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Classified {
    Shorthand,
    /// A complete response given as the input itself (no `type`).
    Complete,
    /// `{ type: 'response', response }` (an array or a complete response).
    ResponseStep,
    Error,
    Responder,
    StreamResponder,
    Stream,
}

impl Classified {
    /// The letter the facade copies a step by (`doubles/model-steps.ts`, `prepareModelSteps`): `r` the input
    /// is the response, `R` its `response` is, `e` an error step, `f` a responder, `F` a stream
    /// responder, `s` a stream.
    pub fn plan_letter(self) -> char {
        match self {
            Classified::Shorthand | Classified::Complete => 'r',
            Classified::ResponseStep => 'R',
            Classified::Error => 'e',
            Classified::Responder => 'f',
            Classified::StreamResponder => 'F',
            Classified::Stream => 's',
        }
    }

    /// The step type a plan letter stands for; `None` for a letter no class has.
    pub fn step_type_of_letter(letter: char) -> Option<StepType> {
        Some(match letter {
            'r' | 'R' => StepType::Response,
            'e' => StepType::Error,
            'f' => StepType::Responder,
            'F' => StepType::StreamResponder,
            's' => StepType::Stream,
            _ => return None,
        })
    }

    pub fn step_type(self) -> StepType {
        match self {
            Classified::Shorthand | Classified::Complete | Classified::ResponseStep => {
                StepType::Response
            }
            Classified::Error => StepType::Error,
            Classified::Responder => StepType::Responder,
            Classified::StreamResponder => StepType::StreamResponder,
            Classified::Stream => StepType::Stream,
        }
    }
}

/// Classifies input `index` of a constructor or `enqueue()` call.
pub fn classify<V: InputView>(
    input: &mut V,
    index: usize,
) -> Result<Classified, Refusal<V::HostError>> {
    if input.is_array() {
        return Ok(Classified::Shorthand);
    }
    if !input.is_object() {
        return Err(ModelError::invalid_input(StepReason::InvalidInput, index, None).into());
    }
    let host = Refusal::Host;
    match input.type_tag().map_err(host)? {
        Some(tag) => {
            let step_type = match &tag {
                TypeTag::Str(s) => Some(s.clone()),
                TypeTag::Other => None,
            };
            let refuse =
                |reason| Refusal::Step(ModelError::invalid_input(reason, index, step_type.clone()));
            let kind = match &tag {
                TypeTag::Str(s) => StepType::parse(s),
                TypeTag::Other => None,
            };
            match kind {
                Some(StepType::Response) => {
                    if !input.has("response").map_err(host)? {
                        return Err(refuse(StepReason::MissingResponse));
                    }
                    if !input.is_response(Some("response")).map_err(host)? {
                        return Err(ModelError::invalid_input(
                            StepReason::InvalidResponse,
                            index,
                            None,
                        )
                        .into());
                    }
                    Ok(Classified::ResponseStep)
                }
                Some(StepType::Error) => {
                    if input.has("error").map_err(host)? {
                        Ok(Classified::Error)
                    } else {
                        Err(refuse(StepReason::MissingError))
                    }
                }
                Some(t @ (StepType::Responder | StepType::StreamResponder)) => {
                    if input.is_function("respond").map_err(host)? {
                        Ok(if t == StepType::Responder {
                            Classified::Responder
                        } else {
                            Classified::StreamResponder
                        })
                    } else {
                        Err(refuse(StepReason::MissingResponder))
                    }
                }
                Some(StepType::Stream) => {
                    if input.is_iterable("events").map_err(host)? {
                        Ok(Classified::Stream)
                    } else {
                        Err(refuse(StepReason::InvalidStream))
                    }
                }
                None => Err(refuse(StepReason::UnknownStepType)),
            }
        }
        None => {
            if input.has("output").map_err(host)? || input.has("usage").map_err(host)? {
                if input.is_response(None).map_err(host)? {
                    Ok(Classified::Complete)
                } else {
                    Err(ModelError::invalid_input(StepReason::InvalidResponse, index, None).into())
                }
            } else {
                Err(ModelError::invalid_input(StepReason::InvalidInput, index, None).into())
            }
        }
    }
}

/// The script: queued steps (whatever the host stores for each) and the number of calls.
#[derive(Debug)]
pub struct Script<S> {
    steps: VecDeque<(StepType, S)>,
    calls: usize,
    /// The first call made past the end of the script, where the double keeps it for
    /// `assertComplete()` ([`Script::remembering_unexpected`]).
    unexpected: Option<ModelError>,
    remember_unexpected: bool,
}

impl<S> Default for Script<S> {
    fn default() -> Self {
        Script {
            steps: VecDeque::new(),
            calls: 0,
            unexpected: None,
            remember_unexpected: false,
        }
    }
}

/// What a call got: its index and its step.
#[derive(Debug)]
pub struct Taken<S> {
    pub call_index: usize,
    pub step_type: StepType,
    pub step: S,
}

impl<S> Script<S> {
    /// A script whose `assertComplete()` also fails after a call made past its end (the AI SDK
    /// double: `streamText` reports a failed call only to its `onError`, so a test would pass
    /// with a step missing). `ScriptedModel` keeps the reference's rule: steps left only.
    pub fn remembering_unexpected() -> Self {
        Script {
            remember_unexpected: true,
            ..Script::default()
        }
    }

    /// Appends steps that were all classified successfully (a refused input queues nothing).
    pub fn enqueue(&mut self, steps: impl IntoIterator<Item = (StepType, S)>) {
        self.steps.extend(steps);
    }

    pub fn remaining(&self) -> usize {
        self.steps.len()
    }

    pub fn calls(&self) -> usize {
        self.calls
    }

    /// `assertComplete()`.
    pub fn assert_complete(&self) -> Result<(), ModelError> {
        match (self.steps.len(), &self.unexpected) {
            (0, None) => Ok(()),
            (0, Some(unexpected)) => Err(unexpected.clone()),
            (remaining, _) => Err(ModelError::Unconsumed { remaining }),
        }
    }

    /// Records a call (the caller stores its snapshot at position `call_index`) and takes the
    /// next step. A call with no step left is recorded and then refused; a raw stream step
    /// taken by a non-streaming call is consumed and refused.
    pub fn take(&mut self, streamed: bool) -> Result<Taken<S>, ModelError> {
        let call_index = self.calls;
        self.calls += 1;
        let Some((step_type, step)) = self.steps.pop_front() else {
            let unexpected = ModelError::Unexpected {
                call_index,
                streamed,
            };
            if self.remember_unexpected && self.unexpected.is_none() {
                self.unexpected = Some(unexpected.clone());
            }
            return Err(unexpected);
        };
        if !streamed && step_type.is_raw_stream() {
            return Err(ModelError::invalid_call(
                StepReason::IncompatibleCall,
                call_index,
                Some(step_type),
            ));
        }
        Ok(Taken {
            call_index,
            step_type,
            step,
        })
    }
}

/// A response identifier for calls whose response has none: `scripted-response-<N>`.
pub fn scripted_response_id(call_index: usize) -> String {
    format!("scripted-response-{}", display_index(call_index))
}

/// One remembered error step: which request raised it and whether it was streamed.
pub trait AdviceRecord {
    fn streamed(&self) -> bool;
}

/// `getRetryAdvice`: among the records of the error (in the order they were made) with the
/// same `streamed` flag, the first whose request is the identical object; else the first whose
/// request shares the identical input, settings, tools and handoffs; else the first. Returns
/// the position to remove.
pub fn choose_advice<R: AdviceRecord>(
    records: &[R],
    streamed: bool,
    same_request: impl Fn(&R) -> bool,
    shares_inputs: impl Fn(&R) -> bool,
) -> Option<usize> {
    let eligible = |r: &&R| r.streamed() == streamed;
    records
        .iter()
        .position(|r| eligible(&r) && same_request(r))
        .or_else(|| {
            records
                .iter()
                .position(|r| eligible(&r) && shares_inputs(r))
        })
        .or_else(|| records.iter().position(|r| eligible(&r)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Raise;

    /// A test input described by its answers.
    #[derive(Default, Clone)]
    struct Input {
        array: bool,
        object: bool,
        tag: Option<TypeTag>,
        keys: Vec<&'static str>,
        functions: Vec<&'static str>,
        iterables: Vec<&'static str>,
        responses: Vec<Option<&'static str>>,
        throws_on: Option<&'static str>,
        asked: Vec<String>,
    }

    impl Input {
        fn object() -> Input {
            Input {
                object: true,
                ..Input::default()
            }
        }
        fn typed(t: &str) -> Input {
            Input {
                tag: Some(TypeTag::Str(t.into())),
                ..Input::object()
            }
        }
        fn with(mut self, key: &'static str) -> Input {
            self.keys.push(key);
            self
        }
        fn ask(&mut self, q: &str) -> Result<(), String> {
            self.asked.push(q.to_owned());
            if self.throws_on == Some(q) || self.throws_on.is_some_and(|t| q.ends_with(t)) {
                return Err(format!("getter {q} threw"));
            }
            Ok(())
        }
    }

    impl InputView for Input {
        type HostError = String;
        fn is_array(&self) -> bool {
            self.array
        }
        fn is_object(&self) -> bool {
            self.object
        }
        fn type_tag(&mut self) -> Result<Option<TypeTag>, String> {
            self.ask("type")?;
            Ok(self.tag.clone())
        }
        fn has(&mut self, key: &'static str) -> Result<bool, String> {
            self.ask(&format!("has {key}"))?;
            Ok(self.keys.contains(&key))
        }
        fn is_function(&mut self, key: &'static str) -> Result<bool, String> {
            self.ask(&format!("function {key}"))?;
            Ok(self.functions.contains(&key))
        }
        fn is_iterable(&mut self, key: &'static str) -> Result<bool, String> {
            self.ask(&format!("iterable {key}"))?;
            Ok(self.iterables.contains(&key))
        }
        fn is_response(&mut self, key: Option<&'static str>) -> Result<bool, String> {
            self.ask(&format!("response {}", key.unwrap_or("self")))?;
            Ok(self.responses.contains(&key))
        }
    }

    fn refusal(mut input: Input, index: usize) -> ModelError {
        match classify(&mut input, index) {
            Err(Refusal::Step(e)) => e,
            other => panic!("expected a refusal, got {other:?}"),
        }
    }

    fn fields(e: &ModelError) -> (StepReason, Option<usize>, Option<String>) {
        match e {
            ModelError::InvalidStep {
                reason,
                input_index,
                step_type,
                call_index: None,
            } => (*reason, *input_index, step_type.clone()),
            other => panic!("expected a queue-time step error, got {other:?}"),
        }
    }

    #[test]
    fn arrays_are_shorthand_responses() {
        let mut input = Input {
            array: true,
            ..Input::default()
        };
        assert_eq!(classify(&mut input, 0).unwrap(), Classified::Shorthand);
        assert!(input.asked.is_empty(), "an array is not inspected further");
    }

    #[test]
    fn non_objects_are_invalid_input() {
        let e = refusal(Input::default(), 2);
        assert_eq!(fields(&e), (StepReason::InvalidInput, Some(2), None));
        assert_eq!(
            e.to_string(),
            "ScriptedModel input #3 is invalid (invalid input)."
        );
        assert_eq!(e.name(), "InvalidScriptedModelStepError");
    }

    #[test]
    fn objects_without_type_output_or_usage_are_invalid_input() {
        let e = refusal(Input::object(), 0);
        assert_eq!(fields(&e), (StepReason::InvalidInput, Some(0), None));
    }

    #[test]
    fn response_steps_need_a_response_key_and_a_valid_envelope() {
        let e = refusal(Input::typed("response"), 1);
        assert_eq!(
            fields(&e),
            (
                StepReason::MissingResponse,
                Some(1),
                Some("response".into())
            )
        );
        assert_eq!(
            e.to_string(),
            "ScriptedModel input #2 is invalid (missing response)."
        );

        let e = refusal(Input::typed("response").with("response"), 0);
        assert_eq!(
            fields(&e),
            (StepReason::InvalidResponse, Some(0), None),
            "no stepType for the envelope check"
        );
        assert_eq!(
            e.to_string(),
            "ScriptedModel input #1 has an invalid response envelope."
        );

        let mut ok = Input {
            responses: vec![Some("response")],
            ..Input::typed("response").with("response")
        };
        assert!(matches!(
            classify(&mut ok, 0).unwrap(),
            Classified::ResponseStep
        ));
    }

    #[test]
    fn error_steps_need_an_error_key_of_any_value() {
        let e = refusal(Input::typed("error"), 0);
        assert_eq!(
            fields(&e),
            (StepReason::MissingError, Some(0), Some("error".into()))
        );
        assert_eq!(
            e.to_string(),
            "ScriptedModel input #1 is invalid (missing error)."
        );
        assert_eq!(
            classify(&mut Input::typed("error").with("error"), 0).unwrap(),
            Classified::Error
        );
    }

    #[test]
    fn responders_need_a_function() {
        for t in ["responder", "stream_responder"] {
            let e = refusal(Input::typed(t), 4);
            assert_eq!(
                fields(&e),
                (StepReason::MissingResponder, Some(4), Some(t.into()))
            );
            assert_eq!(
                e.to_string(),
                "ScriptedModel input #5 is invalid (missing responder)."
            );
            let mut ok = Input {
                functions: vec!["respond"],
                ..Input::typed(t)
            };
            assert_eq!(classify(&mut ok, 0).unwrap().step_type().as_str(), t);
        }
    }

    #[test]
    fn stream_steps_need_an_iterable() {
        let e = refusal(Input::typed("stream"), 0);
        assert_eq!(
            fields(&e),
            (StepReason::InvalidStream, Some(0), Some("stream".into()))
        );
        assert_eq!(
            e.to_string(),
            "ScriptedModel input #1 is invalid (invalid stream)."
        );
        let mut ok = Input {
            iterables: vec!["events"],
            ..Input::typed("stream")
        };
        assert_eq!(classify(&mut ok, 0).unwrap(), Classified::Stream);
    }

    #[test]
    fn unknown_types_name_the_type_when_it_is_a_non_empty_string() {
        let e = refusal(Input::typed("reply"), 0);
        assert_eq!(
            fields(&e),
            (StepReason::UnknownStepType, Some(0), Some("reply".into()))
        );
        assert_eq!(
            e.to_string(),
            "ScriptedModel input #1 has unknown type \"reply\"."
        );

        let e = refusal(Input::typed(""), 0);
        assert_eq!(
            fields(&e),
            (StepReason::UnknownStepType, Some(0), Some(String::new()))
        );
        assert_eq!(
            e.to_string(),
            "ScriptedModel input #1 is invalid (unknown step type)."
        );

        let e = refusal(
            Input {
                tag: Some(TypeTag::Other),
                ..Input::object()
            },
            0,
        );
        assert_eq!(fields(&e), (StepReason::UnknownStepType, Some(0), None));
        assert_eq!(
            e.to_string(),
            "ScriptedModel input #1 is invalid (unknown step type)."
        );
    }

    #[test]
    fn complete_responses_without_type_are_checked_as_envelopes() {
        for key in ["output", "usage"] {
            let e = refusal(Input::object().with(key), 0);
            assert_eq!(fields(&e), (StepReason::InvalidResponse, Some(0), None));
            let mut ok = Input {
                responses: vec![None],
                ..Input::object().with(key)
            };
            assert_eq!(classify(&mut ok, 0).unwrap(), Classified::Complete);
        }
    }

    #[test]
    fn errors_of_the_ai_sdk_double_name_it_and_keep_their_class_and_fields() {
        use crate::error::Raise;
        let e = ModelError::invalid_input(StepReason::MissingResponse, 1, Some("response".into()));
        let plain = e.clone().from_surface(Surface::ScriptedModel);
        assert_eq!(plain.to_string(), e.to_string());
        let named = e.clone().from_surface(Surface::ScriptedLanguageModel);
        assert_eq!(
            named.to_string(),
            "scriptedLanguageModel input #2 is invalid (missing response)."
        );
        assert_eq!(named.kind(), e.kind());
        assert_eq!(
            serde_json::to_value(&named).unwrap(),
            serde_json::to_value(&e).unwrap()
        );
        let unexpected = ModelError::Unexpected {
            call_index: 0,
            streamed: true,
        }
        .from_surface(Surface::ScriptedLanguageModel);
        assert_eq!(
            unexpected.to_string(),
            "scriptedLanguageModel received unexpected streaming call #1; no scripted steps remain."
        );
        // A message that does not name the double stays as it is.
        let aborted =
            ModelError::Aborted { call_index: None }.from_surface(Surface::ScriptedLanguageModel);
        assert_eq!(aborted.to_string(), "Scripted model request was aborted.");
    }

    #[test]
    fn the_ai_sdk_double_says_how_to_replay_a_stream_step_in_a_generate_call() {
        let e = ModelError::invalid_call(StepReason::IncompatibleCall, 0, Some(StepType::Stream));
        let lm = e
            .clone()
            .from_surface(Surface::ScriptedLanguageModel)
            .to_string();
        assert!(
            lm.starts_with("scriptedLanguageModel call #1 is a generateText call"),
            "{lm}"
        );
        assert!(
            lm.contains("replay with streamText, or record the cassette again"),
            "{lm}"
        );
        assert_eq!(
            e.to_string(),
            "ScriptedModel cannot use raw stream step for non-streaming call #1."
        );
    }

    #[test]
    fn the_ai_sdk_double_says_what_a_part_given_as_a_step_should_be() {
        let unknown = |t: &str, surface| {
            ModelError::invalid_input(StepReason::UnknownStepType, 0, Some(t.into()))
                .from_surface(surface)
                .to_string()
        };
        let lm = Surface::ScriptedLanguageModel;
        assert!(unknown("message", lm).contains("[[assistantMessage('hi')]]"));
        assert!(unknown("text", lm).contains("AI SDK content part"));
        assert!(unknown("text-delta", lm).contains("modelStream"));
        assert_eq!(
            unknown("message", Surface::ScriptedModel),
            "ScriptedModel input #1 has unknown type \"message\"."
        );
        let bare = ModelError::invalid_input(StepReason::InvalidInput, 1, None);
        assert!(bare
            .clone()
            .from_surface(lm)
            .to_string()
            .contains("textStep('hi')"));
        assert_eq!(
            bare.to_string(),
            "ScriptedModel input #2 is invalid (invalid input)."
        );
        let answer =
            ModelError::invalid_answer(Surface::ScriptedLanguageModel, 2, "part 0 is x.".into());
        assert_eq!(
            answer.to_string(),
            "scriptedLanguageModel input #3: part 0 is x."
        );
        assert!(matches!(
            answer.error,
            ModelError::InvalidStep {
                reason: StepReason::InvalidResponse,
                input_index: Some(2),
                ..
            }
        ));
    }

    #[test]
    fn each_class_has_its_own_plan_letter_and_the_letter_gives_its_step_type() {
        let all = [
            Classified::Shorthand,
            Classified::Complete,
            Classified::ResponseStep,
            Classified::Error,
            Classified::Responder,
            Classified::StreamResponder,
            Classified::Stream,
        ];
        for c in all {
            assert_eq!(
                Classified::step_type_of_letter(c.plan_letter()),
                Some(c.step_type())
            );
        }
        // The input itself and its `response` are copied differently, so their letters differ.
        assert_ne!(
            Classified::Complete.plan_letter(),
            Classified::ResponseStep.plan_letter()
        );
        assert_eq!(
            Classified::Shorthand.plan_letter(),
            Classified::Complete.plan_letter()
        );
        assert_eq!(Classified::step_type_of_letter('x'), None);
    }

    #[test]
    fn host_exceptions_stop_classification_and_propagate() {
        let mut input = Input {
            throws_on: Some("type"),
            ..Input::typed("error").with("error")
        };
        assert!(
            matches!(classify(&mut input, 0), Err(Refusal::Host(m)) if m == "getter type threw")
        );
        assert_eq!(input.asked, ["type"], "nothing is read after the exception");
    }

    #[test]
    fn questions_follow_the_reference_order() {
        let mut input = Input {
            responses: vec![None],
            ..Input::object().with("usage")
        };
        classify(&mut input, 0).unwrap();
        assert_eq!(
            input.asked,
            ["type", "has output", "has usage", "response self"]
        );
    }

    #[test]
    fn steps_are_taken_in_order_and_calls_are_numbered() {
        let mut script = Script::default();
        script.enqueue([(StepType::Response, "a"), (StepType::Error, "b")]);
        assert_eq!(script.remaining(), 2);
        let first = script.take(false).unwrap();
        assert_eq!(
            (first.call_index, first.step_type, first.step),
            (0, StepType::Response, "a")
        );
        let second = script.take(true).unwrap();
        assert_eq!((second.call_index, second.step), (1, "b"));
        assert_eq!(script.remaining(), 0);
        script.assert_complete().unwrap();
    }

    #[test]
    fn a_call_after_the_script_is_recorded_and_refused() {
        let mut script: Script<()> = Script::default();
        let e = script.take(false).unwrap_err();
        assert_eq!(
            e,
            ModelError::Unexpected {
                call_index: 0,
                streamed: false
            }
        );
        assert_eq!(
            e.to_string(),
            "ScriptedModel received unexpected non-streaming call #1; no scripted steps remain."
        );
        let e = script.take(true).unwrap_err();
        assert_eq!(
            e.to_string(),
            "ScriptedModel received unexpected streaming call #2; no scripted steps remain."
        );
        assert_eq!(script.calls(), 2, "unexpected calls are counted");
    }

    #[test]
    fn the_ai_sdk_script_remembers_a_call_past_its_end_for_assert_complete() {
        let mut lm: Script<()> = Script::remembering_unexpected();
        lm.enqueue([(StepType::Response, ())]);
        assert!(lm.take(true).is_ok());
        assert_eq!(lm.assert_complete(), Ok(()));
        assert!(lm.take(true).is_err());
        assert!(lm.take(false).is_err());
        // The first call past the end, named by assertComplete().
        assert_eq!(
            lm.assert_complete(),
            Err(ModelError::Unexpected {
                call_index: 1,
                streamed: true
            })
        );
        // Steps queued after it are still counted first.
        lm.enqueue([(StepType::Response, ())]);
        assert_eq!(
            lm.assert_complete(),
            Err(ModelError::Unconsumed { remaining: 1 })
        );
        // ScriptedModel keeps the reference's rule.
        let mut agents: Script<()> = Script::default();
        assert!(agents.take(false).is_err());
        assert_eq!(agents.assert_complete(), Ok(()));
    }

    #[test]
    fn raw_stream_steps_refuse_non_streaming_calls_and_are_consumed() {
        for t in [StepType::Stream, StepType::StreamResponder] {
            let mut script = Script::default();
            script.enqueue([(t, ())]);
            let e = script.take(false).unwrap_err();
            assert_eq!(
                e,
                ModelError::InvalidStep {
                    reason: StepReason::IncompatibleCall,
                    input_index: None,
                    call_index: Some(0),
                    step_type: Some(t.as_str().into())
                }
            );
            assert_eq!(
                e.to_string(),
                "ScriptedModel cannot use raw stream step for non-streaming call #1."
            );
            assert_eq!(script.remaining(), 0);
        }
        let mut script = Script::default();
        script.enqueue([(StepType::Stream, ())]);
        assert!(
            script.take(true).is_ok(),
            "streamed calls take raw stream steps"
        );
    }

    #[test]
    fn unconsumed_steps_are_counted_with_the_right_plural() {
        let mut script = Script::default();
        script.enqueue([(StepType::Response, ())]);
        assert_eq!(
            script.assert_complete().unwrap_err().to_string(),
            "ScriptedModel has 1 unconsumed scripted step."
        );
        script.enqueue([(StepType::Response, ())]);
        let e = script.assert_complete().unwrap_err();
        assert_eq!(e, ModelError::Unconsumed { remaining: 2 });
        assert_eq!(
            e.to_string(),
            "ScriptedModel has 2 unconsumed scripted steps."
        );
    }

    #[test]
    fn call_time_errors_have_their_messages() {
        assert_eq!(
            ModelError::responder_invalid_response(2).to_string(),
            "ScriptedModel responder returned an invalid response for call #3."
        );
        let e = ModelError::responder_invalid_stream(0);
        assert_eq!(
            e.to_string(),
            "ScriptedModel stream responder returned an invalid stream for call #1."
        );
        assert!(
            matches!(e, ModelError::InvalidStep { step_type: Some(ref t), .. } if t == "stream_responder")
        );
        let abort = ModelError::Aborted { call_index: None };
        assert_eq!(
            (abort.name(), abort.kind().name()),
            ("AbortError", "ScriptedModelRequestAbortedError")
        );
        assert_eq!(abort.to_string(), "Scripted model request was aborted.");
        assert_eq!(scripted_response_id(0), "scripted-response-1");
    }

    struct Rec {
        id: u8,
        streamed: bool,
        request: u8,
        inputs: u8,
    }
    impl AdviceRecord for Rec {
        fn streamed(&self) -> bool {
            self.streamed
        }
    }

    #[test]
    fn retry_advice_prefers_the_same_request_then_shared_inputs_then_the_first() {
        let records = [
            Rec {
                id: 0,
                streamed: true,
                request: 9,
                inputs: 9,
            },
            Rec {
                id: 1,
                streamed: false,
                request: 1,
                inputs: 7,
            },
            Rec {
                id: 2,
                streamed: false,
                request: 2,
                inputs: 5,
            },
            Rec {
                id: 3,
                streamed: false,
                request: 3,
                inputs: 5,
            },
        ];
        let pick = |streamed, request: u8, inputs: u8| {
            choose_advice(
                &records,
                streamed,
                |r| r.request == request,
                |r| r.inputs == inputs,
            )
            .map(|i| records[i].id)
        };
        assert_eq!(
            pick(false, 3, 5),
            Some(3),
            "identical request wins over shared inputs"
        );
        assert_eq!(
            pick(false, 8, 5),
            Some(2),
            "then the first sharing the inputs"
        );
        assert_eq!(
            pick(false, 8, 8),
            Some(1),
            "then the first with the same mode"
        );
        assert_eq!(pick(true, 8, 8), Some(0), "mode must match");
        assert_eq!(choose_advice::<Rec>(&[], false, |_| true, |_| true), None);
    }
}
