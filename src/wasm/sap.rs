//! Bindings of schema-aligned parsing. A Standard Schema with JSON guides alignment with its
//! input JSON Schema and validates the result last; a plain object is a JSON Schema.

use std::rc::Rc;

use js_sys::{Array, Reflect, JSON};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use super::{raise, standard, user_error};
use crate::sap::options::{self, Given, OptionsArg};
use crate::sap::repair::{self, Policy, ResponseEnd, Target};
use crate::sap::{self, Options};

/// The JSON Schema that guides alignment, and whether `schema` is a Standard Schema whose
/// `validate` must run on the result.
/// `surface`: the function the caller gave the schema to, for messages.
fn guide(schema: &JsValue, surface: &str) -> Result<(Rc<serde_json::Value>, bool), JsValue> {
    let (json_schema, standard) = match standard::standard_json_schema(schema)? {
        // A Standard Schema's JSON Schema comes as its JSON text.
        Some(text) if text.is_string() => return Ok((parsed_schema(text)?, true)),
        Some(converted) => (converted, true),
        None => (schema.clone(), false),
    };
    let is_schema = json_schema.is_object() && !Array::is_array(&json_schema)
        || json_schema.as_bool().is_some();
    if !is_schema {
        return Err(user_error(options::not_a_guide(surface)));
    }
    let text = JSON::stringify(&json_schema).map_err(|thrown| {
        // A cycle or a nesting deeper than the host's stack; a throwing `toJSON` is the
        // caller's own exception and goes back unchanged.
        let circular = thrown
            .dyn_ref::<js_sys::TypeError>()
            .is_some_and(|e| String::from(e.message()).contains("circular"));
        if thrown.is_instance_of::<js_sys::RangeError>() || circular {
            user_error(options::unreadable_guide(surface))
        } else {
            thrown
        }
    })?;
    Ok((parsed_schema(text.into())?, standard))
}

/// How many parsed schemas are kept ([`options::SchemaCache`]).
const SCHEMA_CACHE: usize = 16;

thread_local! {
    /// Keys are the texts as JavaScript strings: a hit compares them in JavaScript (`===`)
    /// and copies nothing into the engine.
    static SCHEMAS: std::cell::RefCell<options::SchemaCache<JsValue, serde_json::Value>> =
        const { std::cell::RefCell::new(options::SchemaCache::new(SCHEMA_CACHE)) };
}

/// The schema parsed from its JSON text, from the cache when the same text was seen lately
/// (replies are parsed many times against one schema).
fn parsed_schema(text: JsValue) -> Result<Rc<serde_json::Value>, JsValue> {
    if let Some(hit) = SCHEMAS.with(|c| c.borrow().get(&text)) {
        return Ok(hit);
    }
    let owned = text.as_string().unwrap_or_default();
    let value: serde_json::Value = serde_json::from_str(&owned)
        .map_err(|e| user_error(format!("The schema is not JSON: {e}")))?;
    crate::schema::types::check(&value).map_err(raise)?;
    Ok(SCHEMAS.with(|c| c.borrow_mut().insert(text, value)))
}

/// What an option's value is, for [`options`]' rules.
fn given(v: &JsValue) -> Result<Given, JsValue> {
    Ok(if v.is_undefined() {
        Given::Absent
    } else if let Some(b) = v.as_bool() {
        Given::Bool(b)
    } else if let Some(s) = v.as_string() {
        Given::Str(s)
    } else if Array::is_array(v) {
        let items = Array::from(v)
            .iter()
            .map(|item| item.as_string().ok_or_else(|| super::js::string_of(&item)))
            .collect();
        Given::List {
            items,
            text: super::js::string_of(v),
        }
    } else {
        Given::Other(super::js::string_of(v))
    })
}

/// An options argument's own keys and values, in order.
fn options_arg(value: &JsValue) -> Result<OptionsArg, JsValue> {
    if value.is_undefined() || value.is_null() {
        return Ok(OptionsArg::Missing);
    }
    if !value.is_object() {
        return Ok(OptionsArg::NotObject);
    }
    let mut entries = Vec::new();
    for key in super::js::keys(value)?.iter() {
        let v = Reflect::get(value, &key)?;
        entries.push((key.as_string().unwrap_or_default(), given(&v)?));
    }
    Ok(OptionsArg::Entries(entries))
}

/// `parseStructured`'s options ([`options::parse_options`]).
fn options(value: &JsValue) -> Result<Options, JsValue> {
    options::parse_options(options_arg(value)?).map_err(user_error)
}

/// `parsePartial`'s options ([`options::partial_options`]).
fn partial_options(value: &JsValue) -> Result<Vec<String>, JsValue> {
    options::partial_options(options_arg(value)?).map_err(user_error)
}

/// `parseStructured(text, schema, options?)` → `{ value, fixes }`: `undefined` when the reply
/// is exactly its value (strict JSON that conforms as written: the facade `JSON.parse`s the text
/// itself), else the answer text ([`sap::Reading::into_answer_text`]: one native `JSON.parse` of
/// the value beats building the objects across the boundary), or, for a Standard Schema, the
/// object whose `value` its `validate` produced.
fn parse_structured(
    text: &str,
    schema: &JsValue,
    options_value: &JsValue,
) -> Result<JsValue, JsValue> {
    let options = options(options_value)?;
    let (json_schema, standard) = guide(schema, "parseStructured")?;
    parse_with(text, &json_schema, standard.then_some(schema), &options)
}

/// [`parse_structured`] against a guide already read; `standard`: the Standard Schema whose
/// `validate` runs on the result.
fn parse_with(
    text: &str,
    json_schema: &serde_json::Value,
    standard: Option<&JsValue>,
    options: &Options,
) -> Result<JsValue, JsValue> {
    if sap::as_is::conforms_as_is(text, json_schema) {
        // The reply is its own value, repair-free: the host's JSON.parse reads it.
        let Some(schema) = standard else {
            return Ok(JsValue::UNDEFINED);
        };
        let out = js_sys::Object::new();
        let validated = standard::validate_standard_schema(schema, &JSON::parse(text)?)?;
        Reflect::set(&out, &"value".into(), &validated)?;
        Reflect::set(&out, &"fixes".into(), &Array::new())?;
        return Ok(out.into());
    }
    let Some(schema) = standard else {
        let reading = sap::parse_structured_reading(text, json_schema, options).map_err(raise)?;
        return Ok(JsValue::from_str(&reading.into_answer_text()));
    };
    let parsed = sap::parse_structured_with(text, json_schema, options).map_err(raise)?;
    let out = serde_json::to_string(&parsed).unwrap_or_default();
    let out = JSON::parse(&out)?;
    let value = Reflect::get(&out, &"value".into())?;
    let validated = standard::validate_standard_schema(schema, &value)?;
    Reflect::set(&out, &"value".into(), &validated)?;
    Ok(out)
}

/// `parsePartial(text, schema)` → `{ value, complete, fixes }` as JSON text, for a prefix of a
/// streamed reply (`value` absent while nothing is determined). A Standard Schema's `validate`
/// is not run on unfinished values.
fn parse_partial(text: &str, schema: &JsValue, options: &JsValue) -> Result<String, JsValue> {
    let atomic = partial_options(options)?;
    let (json_schema, _) = guide(schema, "parsePartial")?;
    partial_with(text, &json_schema, &atomic)
}

fn partial_with(
    text: &str,
    json_schema: &serde_json::Value,
    atomic: &[String],
) -> Result<String, JsValue> {
    let parsed = sap::parse_partial_atomic(text, json_schema, atomic).map_err(raise)?;
    Ok(serde_json::to_string(&parsed).unwrap_or_default())
}

/// A parser bound to one schema: the guide is read once (a Standard Schema's JSON Schema
/// conversion included), so a call copies only the reply.
#[wasm_bindgen]
pub struct StructuredParser {
    json_schema: Rc<serde_json::Value>,
    /// The Standard Schema whose `validate` runs on results.
    standard: Option<JsValue>,
    _live: super::Live,
}

#[wasm_bindgen]
impl StructuredParser {
    /// `surface`: the function the caller gave the schema to (`compileStructuredParser`,
    /// `repairText`, `partialOutput`), for messages.
    #[wasm_bindgen(constructor)]
    pub fn new(schema: &JsValue, surface: &str) -> Result<StructuredParser, JsValue> {
        let (json_schema, standard) = guide(schema, surface)?;
        Ok(StructuredParser {
            json_schema,
            standard: standard.then(|| schema.clone()),
            _live: super::Live::new(),
        })
    }

    /// `parse(text, options?)` for the reply in the input buffer (`len` bytes), answered as
    /// `parseStructured` answers.
    #[wasm_bindgen(js_name = parseInput)]
    pub fn parse_input(&self, len: usize, options_value: &JsValue) -> Result<JsValue, JsValue> {
        let options = options(options_value)?;
        match &self.standard {
            // No user code runs: the reply is read in place.
            None => super::with_input(len, |text| {
                parse_with(text, &self.json_schema, None, &options)
            })?,
            // A Standard Schema's code runs during the call: copied out first.
            Some(schema) => parse_with(
                &super::take_input(len)?,
                &self.json_schema,
                Some(schema),
                &options,
            ),
        }
    }

    /// `partial(text, options?)` for the prefix in the input buffer, as `parsePartial`.
    #[wasm_bindgen(js_name = partialInput)]
    pub fn partial_input(&self, len: usize, options_value: &JsValue) -> Result<String, JsValue> {
        let atomic = partial_options(options_value)?;
        super::with_input(len, |text| partial_with(text, &self.json_schema, &atomic))?
    }
}

/// [`parse_structured`] for the reply in the input buffer (`len` bytes).
#[wasm_bindgen(js_name = parseStructuredInput)]
pub fn parse_structured_input(
    len: usize,
    schema: &JsValue,
    options: &JsValue,
) -> Result<JsValue, JsValue> {
    // Copied out first: a Standard Schema's code runs during the call.
    parse_structured(&super::take_input(len)?, schema, options)
}

/// [`parse_partial`] for the prefix in the input buffer (`len` bytes).
#[wasm_bindgen(js_name = parsePartialInput)]
pub fn parse_partial_input(
    len: usize,
    schema: &JsValue,
    options: &JsValue,
) -> Result<String, JsValue> {
    parse_partial(&super::take_input(len)?, schema, options)
}

/// The decisions of a repairing wrapper (`repairingModel`, `repairingMiddleware`) under its
/// options: which texts are repaired, completed, or left as they came
/// ([`sap::repair::decide`]).
#[wasm_bindgen]
pub struct Repairer {
    policy: Policy,
    _live: super::Live,
}

#[wasm_bindgen]
impl Repairer {
    /// `surface`: the wrapper's name, for messages.
    #[wasm_bindgen(constructor)]
    pub fn new(
        surface: &str,
        complete_truncated: &JsValue,
        allow_fixes: &JsValue,
    ) -> Result<Repairer, JsValue> {
        let complete_truncated =
            options::completion(given(complete_truncated)?, surface).map_err(user_error)?;
        let allow_fixes = match given(allow_fixes)? {
            Given::Absent => None,
            list => Some(options::allow_fixes(list, surface).map_err(user_error)?),
        };
        Ok(Repairer {
            policy: Policy {
                complete_truncated,
                allow_fixes,
            },
            _live: super::Live::new(),
        })
    }

    /// What to do with the text in the input buffer (`len` bytes) read against `parser`'s
    /// schema: `undefined` to leave it, else the decision as JSON text
    /// ([`sap::repair::decision_text`]). `tool`: the tool whose call's arguments these are
    /// (`undefined` for a final output); `status` / `reason`: what the response says of its end;
    /// `sent`: how much of the text (UTF-16 code units) was already streamed on, from `skip`
    /// (a leading fence's first line, not sent), whose repair is then the rest to write after
    /// it ([`repair::decide_streamed`]).
    #[wasm_bindgen(js_name = decideInput)]
    #[allow(clippy::too_many_arguments)]
    pub fn decide_input(
        &self,
        parser: &StructuredParser,
        len: usize,
        tool: Option<String>,
        status: Option<String>,
        reason: Option<String>,
        sent: usize,
        skip: usize,
    ) -> Result<Option<String>, JsValue> {
        let target = match &tool {
            Some(name) => Target::Tool(name),
            None => Target::Output,
        };
        let end = ResponseEnd {
            status: status.as_deref(),
            reason: reason.as_deref(),
        };
        super::with_input(len, |text| {
            let sent = sap::stream::byte_len(text, sent);
            let skip = sap::stream::byte_len(text, skip).min(sent);
            repair::decision_text(repair::decide_streamed(
                text,
                &parser.json_schema,
                target,
                end,
                &self.policy,
                skip..sent,
            ))
        })
    }

    /// A reader of one streamed JSON output against `parser`'s schema, kept between deltas
    /// ([`sap::stream::Live`]).
    #[wasm_bindgen(js_name = liveOutput)]
    pub fn live_output(&self, parser: &StructuredParser) -> LiveOutput {
        LiveOutput {
            inner: sap::stream::Live::new((*parser.json_schema).clone()),
            _live: super::Live::new(),
        }
    }
}

/// One streamed JSON output, read as its deltas arrive: how much of it may be sent on.
#[wasm_bindgen]
pub struct LiveOutput {
    inner: sap::stream::Live,
    _live: super::Live,
}

#[wasm_bindgen]
impl LiveOutput {
    /// Appends the delta in the input buffer (`len` bytes); answers how much of the text so far
    /// (UTF-16 code units) may be sent on.
    #[wasm_bindgen(js_name = pushInput)]
    pub fn push_input(&mut self, len: usize) -> Result<usize, JsValue> {
        super::with_input(len, |delta| self.inner.push(delta))
    }

    /// Where what may be sent begins (UTF-16 code units): after a leading code fence's first
    /// line, else 0.
    pub fn skip(&self) -> usize {
        self.inner.skip()
    }
}

/// The texts a repairing wrapper reads in an answer, from its shape
/// ([`sap::targets::targets_text`]; a shape the facade wrote wrong is a `UserError`).
#[wasm_bindgen(js_name = repairTargets)]
pub fn repair_targets(shape: &str) -> Result<String, JsValue> {
    sap::targets::targets_text(shape)
        .ok_or_else(|| user_error("understudy could not read the answer shape its facade gave it."))
}
