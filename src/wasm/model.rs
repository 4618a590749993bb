//! `ScriptedModel` bindings: reads step inputs, requests and responses off JavaScript values
//! for the rules in `crate::doubles::model`, keeps the script and the call log, and builds the
//! normalized responses and automatic stream events.
//!
//! No method of [`ModelScript`] runs user code while it holds the script: everything that can
//! (snapshots of caller data, getters on responses) is a free function the facade calls
//! before or after.

use js_sys::Array;
use wasm_bindgen::prelude::*;

use super::js::{self, Js};
use super::raise;
use super::snapshot::{raw_usage, snapshot};
use crate::doubles::model::{
    self as rules, choose_advice, AdviceRecord, Classified, InputView, ModelError, Refusal, Script,
    Surface, TypeTag,
};

/// The double a call comes from: `scriptedLanguageModel` passes `true`.
fn surface(code: u8) -> Surface {
    Surface::from_code(code)
}

fn index_field(fields: &JsValue, name: &'static str) -> Option<usize> {
    js::get(fields, name)
        .ok()?
        .as_f64()
        .filter(|n| *n >= 0.0 && n.fract() == 0.0)
        .map(|n| n as usize)
}

/// The message of a scripted-model error built by user code (`new UnconsumedModelStepsError(2)`).
#[wasm_bindgen(js_name = modelErrorMessage)]
pub fn model_error_message(class: &str, fields: &JsValue) -> String {
    let e = match class {
        "UnexpectedModelCallError" => ModelError::Unexpected {
            call_index: index_field(fields, "index").unwrap_or(0),
            streamed: js::get(fields, "streamed")
                .map(|v| v.is_truthy())
                .unwrap_or(false),
        },
        "UnconsumedModelStepsError" => ModelError::Unconsumed {
            remaining: index_field(fields, "remainingSteps").unwrap_or(0),
        },
        _ => ModelError::Aborted { call_index: None },
    };
    e.to_string()
}

/// The response envelope: an array, or an object whose `output` is an array and whose `usage`
/// is an instance of the user's `Usage`.
fn is_response(value: &JsValue, usage_class: &JsValue) -> Js<bool> {
    if js::is_array(value)? {
        return Ok(true);
    }
    if !js::is_object(value) || !js::is_array(&js::get(value, "output")?)? {
        return Ok(false);
    }
    js::instance_of(&js::get(value, "usage")?, usage_class)
}

struct JsInput<'a> {
    value: &'a JsValue,
    usage_class: &'a JsValue,
}

impl InputView for JsInput<'_> {
    type HostError = JsValue;
    fn is_array(&self) -> bool {
        js::is_array(self.value).unwrap_or(false)
    }
    fn is_object(&self) -> bool {
        js::is_object(self.value)
    }
    fn type_tag(&mut self) -> Js<Option<TypeTag>> {
        if !js::has(self.value, "type")? {
            return Ok(None);
        }
        Ok(Some(match js::get(self.value, "type")?.as_string() {
            Some(s) => TypeTag::Str(s),
            None => TypeTag::Other,
        }))
    }
    fn has(&mut self, key: &'static str) -> Js<bool> {
        js::has(self.value, key)
    }
    fn is_function(&mut self, key: &'static str) -> Js<bool> {
        Ok(js::get(self.value, key)?.is_function())
    }
    fn is_iterable(&mut self, key: &'static str) -> Js<bool> {
        js::is_iterable(&js::get(self.value, key)?)
    }
    fn is_response(&mut self, key: Option<&'static str>) -> Js<bool> {
        match key {
            Some(k) => is_response(&js::get(self.value, k)?, self.usage_class),
            None => is_response(self.value, self.usage_class),
        }
    }
}

fn step(kind: &'static str, fields: &[(&'static str, &JsValue)]) -> JsValue {
    let o = js::object();
    js::set(&o, "type", &js::key(kind));
    for (k, v) in fields {
        js::set(&o, k, v);
    }
    o
}

/// `usage.requestUsageEntries?.map(…)`: each entry's counts, token details and endpoint, as
/// plain objects; `undefined` when there are none.
fn copy_entries(entries: &JsValue) -> Js<JsValue> {
    if entries.is_null() || entries.is_undefined() {
        return Ok(JsValue::UNDEFINED);
    }
    let out = Array::new();
    let len = js::get(entries, "length")?.as_f64().unwrap_or(0.0) as u32;
    for i in 0..len {
        let entry = js::get_key(entries, &JsValue::from_f64(f64::from(i)))?;
        let e = js::object();
        for k in [
            "inputTokens",
            "outputTokens",
            "totalTokens",
            "inputTokensDetails",
            "outputTokensDetails",
            "endpoint",
        ] {
            js::set(&e, k, &js::get(&entry, k)?);
        }
        out.push(&e);
    }
    Ok(out.into())
}

/// Classifies constructor / `enqueue()` inputs: one plan letter per input
/// ([`Classified::plan_letter`]), by which the facade copies each into its step
/// (`prepareModelSteps` in `doubles/model-steps.ts`, one pass) for [`ModelScript::enqueue`]. The first
/// invalid input throws, and then nothing is copied or queued. `surface_code`: whose inputs
/// they are (see [`ModelScript::new`]; its errors name it).
#[wasm_bindgen(js_name = classifyModelSteps)]
pub fn classify_model_steps(
    inputs: &Array,
    usage_class: &JsValue,
    surface_code: u8,
) -> Result<String, JsValue> {
    let mut plan = String::with_capacity(inputs.length() as usize);
    for (index, input) in inputs.iter().enumerate() {
        let classified = match rules::classify(
            &mut JsInput {
                value: &input,
                usage_class,
            },
            index,
        ) {
            Ok(c) => c,
            Err(Refusal::Step(e)) => return Err(raise(e.from_surface(surface(surface_code)))),
            Err(Refusal::Host(e)) => return Err(e),
        };
        if let Some(detail) = crate::doubles::wire::refuse_step(surface(surface_code), classified) {
            return Err(raise(ModelError::invalid_answer(
                surface(surface_code),
                index,
                detail.into(),
            )));
        }
        plan.push(classified.plan_letter());
    }
    Ok(plan)
}

struct Advice {
    error: JsValue,
    request: JsValue,
    streamed: bool,
    advice: JsValue,
}

/// Identity as a `Map` key compares (SameValueZero).
fn same_key(a: &JsValue, b: &JsValue) -> bool {
    a == b || matches!((a.as_f64(), b.as_f64()), (Some(x), Some(y)) if x.is_nan() && y.is_nan())
}

/// The script and the call log of one `ScriptedModel` (or `scriptedLanguageModel`).
#[wasm_bindgen]
pub struct ModelScript {
    script: Script<JsValue>,
    advice: Vec<Advice>,
    surface: Surface,
    _live: super::Live,
}

#[wasm_bindgen]
impl ModelScript {
    /// `surface_code`: whose script it is (0 `ScriptedModel`, 1 `scriptedLanguageModel`, 2
    /// `scriptedFetch`; its errors name it). The doubles in parts remember a call past the
    /// script for `assertComplete()`.
    #[wasm_bindgen(constructor)]
    pub fn new(surface_code: u8) -> ModelScript {
        let language_model = surface(surface_code).speaks_parts();
        ModelScript {
            script: if language_model {
                Script::remembering_unexpected()
            } else {
                Script::default()
            },
            advice: Vec::new(),
            surface: surface(surface_code),
            _live: super::Live::new(),
        }
    }

    /// Queues `steps`, copied by the facade from the inputs [`classify_model_steps`] planned
    /// as `plan`, one letter each.
    pub fn enqueue(&mut self, steps: &Array, plan: &str) -> Result<(), JsValue> {
        let types: Option<Vec<rules::StepType>> =
            plan.chars().map(Classified::step_type_of_letter).collect();
        match types {
            Some(types) if types.len() == steps.length() as usize => {
                let steps = types.into_iter().zip(steps.iter()).collect::<Vec<_>>();
                self.script.enqueue(steps);
                Ok(())
            }
            _ => Err(super::user_error(
                "understudy: scripted steps and their plan do not match (a facade error).",
            )),
        }
    }

    #[wasm_bindgen(getter, js_name = remainingSteps)]
    pub fn remaining_steps(&self) -> u32 {
        self.script.remaining() as u32
    }

    #[wasm_bindgen(js_name = assertComplete)]
    pub fn assert_complete(&self) -> Result<(), JsValue> {
        let surface = self.surface;
        self.script
            .assert_complete()
            .map_err(|e| raise(e.from_surface(surface)))
    }

    /// Takes the step of the next call (the facade has recorded the call at position
    /// `calls - 1`): the step, or the error for an unexpected or incompatible call.
    pub fn take(&mut self, streamed: bool) -> Result<JsValue, JsValue> {
        let surface = self.surface;
        self.script
            .take(streamed)
            .map(|taken| taken.step)
            .map_err(|e| raise(e.from_surface(surface)))
    }

    /// Remembers an executed error step's advice under the error's identity.
    #[wasm_bindgen(js_name = rememberAdvice)]
    pub fn remember_advice(
        &mut self,
        step: &JsValue,
        request: JsValue,
        streamed: bool,
    ) -> Result<(), JsValue> {
        let error = js::get(step, "error")?;
        let advice = js::get(step, "retryAdvice")?;
        self.advice.push(Advice {
            error,
            request,
            streamed,
            advice,
        });
        Ok(())
    }

    /// Takes the advice record matching a `getRetryAdvice` request: `{ advice }`, or
    /// `undefined` when no error step recorded one for that error and mode.
    #[wasm_bindgen(js_name = takeAdvice)]
    pub fn take_advice(
        &mut self,
        error: &JsValue,
        stream: &JsValue,
        request: &JsValue,
        inputs: &Array,
    ) -> JsValue {
        let streamed = match stream.as_bool() {
            Some(s) => s,
            None => return JsValue::UNDEFINED,
        };
        let of_error: Vec<usize> = (0..self.advice.len())
            .filter(|&i| same_key(&self.advice[i].error, error))
            .collect();
        let records: Vec<&Advice> = of_error.iter().map(|&i| &self.advice[i]).collect();
        let picked = choose_advice(
            &records,
            streamed,
            |r| r.request == *request,
            |r| shares_inputs(&r.request, inputs),
        );
        match picked {
            Some(p) => {
                let record = self.advice.remove(of_error[p]);
                let out = js::object();
                js::set(&out, "advice", &record.advice);
                out
            }
            None => JsValue::UNDEFINED,
        }
    }
}

impl AdviceRecord for &Advice {
    fn streamed(&self) -> bool {
        self.streamed
    }
}

/// `inputs` holds the advised request's `input`, `modelSettings`, `tools` and `handoffs`,
/// read by the facade; the recorded request is the runner's own object.
fn shares_inputs(recorded: &JsValue, inputs: &Array) -> bool {
    ["input", "modelSettings", "tools", "handoffs"]
        .iter()
        .enumerate()
        .all(|(i, k)| {
            js::get(recorded, k)
                .map(|v| v == inputs.get(i as u32))
                .unwrap_or(false)
        })
}

/// The error of an abort checkpoint that found the request's signal aborted (the facade reads
/// `signal?.aborted`, as the reference does): throws `ScriptedModelRequestAbortedError`.
#[wasm_bindgen(js_name = modelAborted)]
pub fn model_aborted(call_index: Option<u32>) -> Result<(), JsValue> {
    Err(raise(ModelError::Aborted {
        call_index: call_index.map(|i| i as usize),
    }))
}

/// Normalizes a scripted or responder-made response for call `call_index`;
/// `request` is the call's recorded request. `require_id`: streamed calls need a response id.
/// The facade runs the abort checkpoint after it.
#[wasm_bindgen(js_name = normalizeModelResponse)]
pub fn normalize_model_response(
    response: &JsValue,
    request: &JsValue,
    call_index: u32,
    require_id: bool,
    usage_class: &JsValue,
) -> Result<JsValue, JsValue> {
    normalize(
        response,
        request,
        call_index as usize,
        require_id,
        usage_class,
    )
}

/// `scriptedLanguageModel`: a response a responder made must be a response envelope (its
/// usage any object); otherwise the call fails with `InvalidScriptedModelStepError` naming it.
#[wasm_bindgen(js_name = checkLanguageModelResponse)]
pub fn check_language_model_response(response: &JsValue, call_index: u32) -> Result<(), JsValue> {
    let object = js::with_realm(|r| r.object_constructor.clone());
    if is_response(response, &object)? {
        Ok(())
    } else {
        Err(raise(
            ModelError::responder_invalid_response(call_index as usize)
                .from_surface(Surface::ScriptedLanguageModel),
        ))
    }
}

fn normalize(
    response: &JsValue,
    request: &JsValue,
    call_index: usize,
    require_id: bool,
    usage_class: &JsValue,
) -> Js<JsValue> {
    if !is_response(response, usage_class)? {
        return Err(raise(ModelError::responder_invalid_response(call_index)));
    }
    if js::is_array(response)? {
        let usage_init = js::object();
        js::set(&usage_init, "requests", &JsValue::from_f64(1.0));
        let out = js::object();
        js::set(&out, "output", response);
        js::set(&out, "usage", &js::construct(usage_class, &[&usage_init])?);
        js::set(
            &out,
            "responseId",
            &JsValue::from_str(&rules::scripted_response_id(call_index)),
        );
        return Ok(out);
    }
    let preserve = js::get(&js::get(request, "modelSettings")?, "preserveRawUsage")?;
    let raw = if preserve.as_bool() == Some(true) {
        js::get(response, "rawUsage")
            .map(|v| raw_usage(&v))
            .unwrap_or(JsValue::UNDEFINED)
    } else {
        JsValue::UNDEFINED
    };
    let given_id = js::get(response, "responseId")?;
    let response_id = if require_id && given_id.is_undefined() {
        JsValue::from_str(&rules::scripted_response_id(call_index))
    } else {
        given_id
    };
    let has_raw = js::has(response, "rawUsage")?;
    if response_id == js::get(response, "responseId")? && !has_raw {
        return Ok(response.clone());
    }
    let out = js::object();
    for key in js::keys(response)?.iter() {
        if key.as_string().as_deref() != Some("rawUsage") {
            js::define(&out, &key, &js::get_key(response, &key)?)?;
        }
    }
    if !response_id.is_undefined() {
        js::define(&out, &js::key("responseId"), &response_id)?;
    }
    if !raw.is_undefined() {
        js::define(&out, &js::key("rawUsage"), &raw)?;
    }
    Ok(out)
}

/// A stream responder's result must be a (sync or async) iterable object.
#[wasm_bindgen(js_name = checkResponderStream)]
pub fn check_responder_stream(
    events: &JsValue,
    call_index: u32,
    surface_code: u8,
) -> Result<(), JsValue> {
    if js::is_iterable(events)? {
        Ok(())
    } else {
        Err(raise(
            ModelError::responder_invalid_stream(call_index as usize)
                .from_surface(surface(surface_code)),
        ))
    }
}

/// The positions `[item, part, item, part, …]` of the assistant `output_text` parts a
/// normalized response streams as text deltas.
#[wasm_bindgen(js_name = autoStreamPlan)]
pub fn auto_stream_plan(response: &JsValue) -> Result<Array, JsValue> {
    let plan = Array::new();
    let output = js::get(response, "output")?;
    let items = js::get(&output, "length")?.as_f64().unwrap_or(0.0) as u32;
    for i in 0..items {
        let item = js::get_key(&output, &JsValue::from_f64(f64::from(i)))?;
        if js::get(&item, "type")?.as_string().as_deref() != Some("message")
            || js::get(&item, "role")?.as_string().as_deref() != Some("assistant")
        {
            continue;
        }
        let content = js::get(&item, "content")?;
        if !js::is_array(&content)? {
            continue;
        }
        let parts = js::get(&content, "length")?.as_f64().unwrap_or(0.0) as u32;
        for p in 0..parts {
            let part = js::get_key(&content, &JsValue::from_f64(f64::from(p)))?;
            if js::get(&part, "type")?.as_string().as_deref() == Some("output_text") {
                plan.push(&JsValue::from_f64(f64::from(i)));
                plan.push(&JsValue::from_f64(f64::from(p)));
            }
        }
    }
    Ok(plan)
}

/// `{ type: 'response_started' }`.
#[wasm_bindgen(js_name = autoStreamStarted)]
pub fn auto_stream_started() -> JsValue {
    step("response_started", &[])
}

/// The `output_text_delta` event of one planned part, as an independent snapshot.
#[wasm_bindgen(js_name = autoStreamDelta)]
pub fn auto_stream_delta(response: &JsValue, item: u32, part: u32) -> Result<JsValue, JsValue> {
    let item = js::get_key(
        &js::get(response, "output")?,
        &JsValue::from_f64(f64::from(item)),
    )?;
    let part = js::get_key(
        &js::get(&item, "content")?,
        &JsValue::from_f64(f64::from(part)),
    )?;
    let event = step(
        "output_text_delta",
        &[
            ("itemId", &js::get(&item, "id")?),
            ("delta", &js::get(&part, "text")?),
        ],
    );
    let provider_data = js::get(&part, "providerData")?;
    if !provider_data.is_undefined() {
        js::set(&event, "providerData", &provider_data);
    }
    snapshot(&event)
}

fn details_or_undefined(details: JsValue) -> Js<JsValue> {
    let len = js::get(&details, "length")?.as_f64().unwrap_or(0.0);
    Ok(if len > 0.0 {
        details
    } else {
        JsValue::UNDEFINED
    })
}

/// The `response_done` event carrying the whole normalized response, as a snapshot.
#[wasm_bindgen(js_name = autoStreamDone)]
pub fn auto_stream_done(response: &JsValue) -> Result<JsValue, JsValue> {
    let usage = js::get(response, "usage")?;
    let u = js::object();
    for k in ["requests", "inputTokens", "outputTokens", "totalTokens"] {
        js::set(&u, k, &js::get(&usage, k)?);
    }
    js::set(
        &u,
        "inputTokensDetails",
        &details_or_undefined(js::get(&usage, "inputTokensDetails")?)?,
    );
    js::set(
        &u,
        "outputTokensDetails",
        &details_or_undefined(js::get(&usage, "outputTokensDetails")?)?,
    );
    let copied = copy_entries(&js::get(&usage, "requestUsageEntries")?)?;
    js::set(&u, "requestUsageEntries", &copied);
    let r = js::object();
    js::set(&r, "id", &js::get(response, "responseId")?);
    js::set(&r, "requestId", &js::get(response, "requestId")?);
    js::set(&r, "usage", &u);
    js::set(&r, "rawUsage", &js::get(response, "rawUsage")?);
    js::set(&r, "providerData", &js::get(response, "providerData")?);
    js::set(&r, "output", &js::get(response, "output")?);
    snapshot(&step("response_done", &[("response", &r)]))
}

/// `scriptedLanguageModel`: the scripted response in the input buffer (JSON text of its output
/// items, or of `{ output, usage?, responseId? }`) as `doGenerate`'s result, JSON text
/// ([`crate::doubles::ai_sdk::generate_result`]); a step with no AI SDK form is a `UserError`.
/// `offered`: the names of the call's tools, when a call to another tool is refused
/// ([`crate::doubles::ai_sdk::check_offered`]; `InvalidScriptedModelStepError`).
#[wasm_bindgen(js_name = aiSdkGenerate)]
pub fn ai_sdk_generate(
    len: usize,
    call_index: u32,
    offered: Option<Vec<String>>,
) -> Result<String, JsValue> {
    generate_value(len, call_index, offered).map(|result| result.to_string())
}

/// The `doGenerate` result of the scripted response in the input buffer.
fn generate_value(
    len: usize,
    call_index: u32,
    offered: Option<Vec<String>>,
) -> Result<serde_json::Value, JsValue> {
    super::with_input(len, |text| {
        let response: serde_json::Value = serde_json::from_str(text)
            .map_err(|_| super::user_error("scriptedLanguageModel: the response is not JSON."))?;
        if let Some(offered) = offered {
            crate::doubles::ai_sdk::check_offered(&response, &offered).map_err(|detail| {
                raise(ModelError::invalid_answer_for_call(
                    Surface::ScriptedLanguageModel,
                    call_index as usize,
                    detail,
                ))
            })?;
        }
        crate::doubles::ai_sdk::generate_result(&response, call_index as usize)
            .map_err(|e| super::user_error(e.message))
    })?
}

/// `scriptedLanguageModel`: the scripted response in the input buffer as `doStream`'s parts,
/// JSON text of the array ([`crate::doubles::ai_sdk::stream_parts`] of its `doGenerate`
/// result).
#[wasm_bindgen(js_name = aiSdkStreamParts)]
/// `delta_size`: characters per delta (the model's `deltaSize`, checked by the facade).
pub fn ai_sdk_stream_parts(
    len: usize,
    call_index: u32,
    offered: Option<Vec<String>>,
    delta_size: Option<u32>,
) -> Result<String, JsValue> {
    let result = generate_value(len, call_index, offered)?;
    let piece = delta_size.map_or(crate::doubles::ai_sdk::PIECE, |n| n as usize);
    Ok(
        serde_json::Value::Array(crate::doubles::ai_sdk::stream_parts_in(&result, piece))
            .to_string(),
    )
}

/// `scriptedLanguageModel`: checks the answers of queued inputs when they are queued (JSON text
/// of an array of answers in the input buffer, `indexes` their inputs' positions): the first
/// with no AI SDK form is an `InvalidScriptedModelStepError` (`invalid_response`) whose message
/// says what to write ([`crate::doubles::ai_sdk::check_answer`]).
#[wasm_bindgen(js_name = aiSdkCheckAnswers)]
pub fn ai_sdk_check_answers(len: usize, indexes: &[u32], surface_code: u8) -> Result<(), JsValue> {
    super::with_input(len, |text| {
        // The facade wrote the answers with JSON.stringify: text that is not JSON is a value it
        // could not write, which the conversion at call time reports as it does today.
        let Ok(serde_json::Value::Array(answers)) = serde_json::from_str(text) else {
            return Ok(());
        };
        for (answer, index) in answers.iter().zip(indexes) {
            if let Err(detail) = crate::doubles::ai_sdk::check_answer(answer) {
                return Err(raise(ModelError::invalid_answer(
                    surface(surface_code),
                    *index as usize,
                    detail,
                )));
            }
        }
        Ok(())
    })?
}

/// `scriptedLanguageModel`: the `APICallError` fields of a scripted error, from the JSON text
/// `{ status?, advice? }` in the input buffer ([`crate::doubles::ai_sdk::api_call_error`]).
#[wasm_bindgen(js_name = aiSdkApiCallError)]
pub fn ai_sdk_api_call_error(len: usize) -> Result<String, JsValue> {
    super::with_input(len, |text| {
        let error: serde_json::Value = serde_json::from_str(text).unwrap_or_default();
        crate::doubles::ai_sdk::api_call_error(&error).to_string()
    })
}

/// `scriptedLanguageModel` replaying a cassette: a recorded `doGenerate` result in the input
/// buffer as `doStream`'s parts, JSON text of the array
/// ([`crate::doubles::ai_sdk::stream_parts`]).
#[wasm_bindgen(js_name = aiSdkResultParts)]
pub fn ai_sdk_result_parts(len: usize) -> Result<String, JsValue> {
    super::with_input(len, |text| {
        let result: serde_json::Value = serde_json::from_str(text).unwrap_or_default();
        serde_json::Value::Array(crate::doubles::ai_sdk::stream_parts(&result)).to_string()
    })
}
