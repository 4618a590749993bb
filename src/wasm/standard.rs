//! The Standard Schema bridge: reads `~standard` off JavaScript values and calls `validate`
//! and the JSON Schema converters synchronously. What the facts mean is decided in
//! `crate::schema::standard`.

use js_sys::{Array, Function, Promise, Reflect};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use super::{raise, raise_with, user_error};
use crate::schema::standard::{self as rules, Capabilities, Io, IssueText, ValidateResult};

fn is_object_like(v: &JsValue) -> bool {
    (v.is_object() || v.is_function()) && !v.is_null()
}

/// The property names this bridge reads, made JavaScript strings once: a key made anew for
/// every read is decoded out of linear memory each time, which cost more than the whole
/// reference call (`validateStandardSchema` on a valid value: 11.6 µs with fresh keys).
const KEYS: [&str; 14] = [
    "~standard",
    "version",
    "validate",
    "jsonSchema",
    "input",
    "output",
    "then",
    "issues",
    "value",
    "type",
    "path",
    "key",
    "message",
    "target",
];

thread_local! {
    static KEY_VALUES: Vec<JsValue> = KEYS.iter().map(|k| JsValue::from_str(k)).collect();
}

/// `target[key]` for a key of [`KEYS`] (any other key is made on the spot).
fn get(target: &JsValue, key: &str) -> Result<JsValue, JsValue> {
    match KEYS.iter().position(|k| *k == key) {
        Some(i) => KEY_VALUES.with(|keys| Reflect::get(target, &keys[i])),
        None => Reflect::get(target, &JsValue::from_str(key)),
    }
}

/// `target?.[key]` with JavaScript's primitive semantics: `undefined` for nullish targets;
/// primitives have none of the properties read here.
fn get_opt(target: &JsValue, key: &str) -> Result<JsValue, JsValue> {
    if is_object_like(target) {
        get(target, key)
    } else {
        Ok(JsValue::UNDEFINED)
    }
}

/// Attaches a no-op rejection handler so an abandoned thenable never reports an unhandled
/// rejection (`Promise.resolve(p).catch(() => {})`).
fn swallow(p: &JsValue) {
    thread_local! {
        static NOOP: Closure<dyn FnMut(JsValue)> = Closure::new(|_: JsValue| {});
    }
    NOOP.with(|noop| {
        let _ = Promise::resolve(p).catch(noop);
    });
}

fn marker(value: &JsValue) -> bool {
    is_object_like(value) && KEY_VALUES.with(|keys| Reflect::has(value, &keys[0]).unwrap_or(false))
}

fn capabilities(value: &JsValue) -> Capabilities {
    let mut caps = Capabilities {
        marker: marker(value),
        ..Capabilities::default()
    };
    if !caps.marker {
        return caps;
    }
    let mut read = || -> Result<(), JsValue> {
        let standard = get(value, "~standard")?;
        caps.version_is_1 = get_opt(&standard, "version")?.as_f64() == Some(1.0);
        caps.validate_is_function = get_opt(&standard, "validate")?.is_function();
        let json_schema = get_opt(&standard, "jsonSchema")?;
        caps.json_input_is_function = get_opt(&json_schema, "input")?.is_function();
        caps.json_output_is_function = get_opt(&json_schema, "output")?.is_function();
        Ok(())
    };
    if read().is_err() {
        caps.threw = true;
    }
    caps
}

/// `hasStandardSchemaMarker`: a non-null object or function with `~standard` (inherited
/// included); a throwing proxy counts as no marker.
#[wasm_bindgen(js_name = hasStandardSchemaMarker)]
pub fn has_standard_schema_marker(value: &JsValue) -> bool {
    marker(value)
}

/// `isStandardSchemaWithJSON`.
#[wasm_bindgen(js_name = isStandardSchemaWithJSON)]
pub fn is_standard_schema_with_json(value: &JsValue) -> bool {
    capabilities(value).with_json()
}

/// `unsupportedStandardSchemaError()`: returns (does not throw) the error object.
#[wasm_bindgen(js_name = unsupportedStandardSchemaError)]
pub fn unsupported_standard_schema_error() -> JsValue {
    raise(crate::error::StandardSchemaError::Unsupported)
}

/// Whether a schema argument is read as a Standard Schema: it has the marker, and is not a
/// JSON Schema document its library marked (`rules::reads_as_standard`). A value the host
/// cannot look at (a throwing proxy) keeps the marker's answer.
fn is_standard_arg(schema: &JsValue) -> bool {
    if !marker(schema) {
        return false;
    }
    let place = || -> Result<rules::MarkerPlace, JsValue> {
        let target: &js_sys::Object = schema.unchecked_ref();
        let key = KEY_VALUES.with(|keys| keys[0].clone());
        let descriptor = Reflect::get_own_property_descriptor(target, &key)?;
        let own = descriptor.is_object();
        let enumerable =
            own && Reflect::get(&descriptor, &JsValue::from_str("enumerable"))?.is_truthy();
        // A plain object's prototype is `Object.prototype`, whose own prototype is null.
        let proto = Reflect::get_prototype_of(schema)?;
        let plain = proto.is_null() || Reflect::get_prototype_of(&proto)?.is_null();
        Ok(rules::MarkerPlace {
            own,
            enumerable,
            plain,
        })
    };
    place().map_or(true, rules::reads_as_standard)
}

/// The JSON Schema a Standard Schema argument stands for, as its JSON text; `None` for a value
/// that is not read as one ([`is_standard_arg`]), and the converter's answer itself when
/// `JSON.stringify` cannot write it (the caller's encoder then names what is wrong). One
/// without JSON Schema conversion is an `UnsupportedStandardSchemaError`, never read as JSON
/// Schema.
pub(crate) fn standard_json_schema(schema: &JsValue) -> Result<Option<JsValue>, JsValue> {
    if !is_standard_arg(schema) {
        return Ok(None);
    }
    if !capabilities(schema).with_json() {
        return Err(unsupported_standard_schema_error());
    }
    let converted = standard_schema_to_json_schema(schema, "input")?;
    Ok(Some(match js_sys::JSON::stringify(&converted) {
        Ok(text) if text.is_string() => text.into(),
        _ => converted,
    }))
}

/// `jsonSchemaArg(schema)`: the JSON Schema a schema argument stands for: a Standard Schema's
/// input JSON Schema as its JSON text (a string, which no JSON Schema is;
/// [`standard_json_schema`]), any other value itself.
#[wasm_bindgen(js_name = jsonSchemaArg)]
pub fn json_schema_arg(schema: &JsValue) -> Result<JsValue, JsValue> {
    Ok(standard_json_schema(schema)?.unwrap_or_else(|| schema.clone()))
}

/// `standardSchemaToJsonSchema(schema, io)`: calls `~standard.jsonSchema[io]({ target:
/// 'draft-2020-12' })` and returns its result as is.
#[wasm_bindgen(js_name = standardSchemaToJsonSchema)]
pub fn standard_schema_to_json_schema_js(
    schema: &JsValue,
    io: &JsValue,
) -> Result<JsValue, JsValue> {
    let Some(io) = io.as_string().as_deref().and_then(Io::parse) else {
        let got = match io.as_string() {
            Some(text) => format!("'{text}'"),
            None => super::js::describe(io),
        };
        return Err(user_error(format!(
            "standardSchemaToJsonSchema expects 'input' or 'output', not {got}."
        )));
    };
    standard_schema_to_json_schema(schema, io.as_str())
}

/// The JSON Schema of a Standard Schema's `io` (`"input"` or `"output"`).
pub(crate) fn standard_schema_to_json_schema(
    schema: &JsValue,
    io: &str,
) -> Result<JsValue, JsValue> {
    let io = Io::parse(io).unwrap_or(Io::Input);
    let call = || -> Result<JsValue, JsValue> {
        let standard = get_opt(schema, "~standard")?;
        let json_schema = get_opt(&standard, "jsonSchema")?;
        let convert = get_opt(&json_schema, io.as_str())?;
        let Some(convert) = convert.dyn_ref::<Function>() else {
            return Err(js_sys::TypeError::new(&format!(
                "~standard.jsonSchema.{} is not a function",
                io.as_str()
            ))
            .into());
        };
        let options = js_sys::Object::new();
        Reflect::set(
            &options,
            &JsValue::from_str("target"),
            &JsValue::from_str(rules::JSON_SCHEMA_TARGET),
        )?;
        convert.call1(&json_schema, &options)
    };
    call().map_err(|thrown| {
        let detail = thrown
            .dyn_ref::<js_sys::Error>()
            .map(|e| String::from(e.message()));
        raise(rules::conversion_error(detail))
    })
}

/// `assertStandardSchemaObjectRoot(jsonSchema, surface)`.
#[wasm_bindgen(js_name = assertStandardSchemaObjectRoot)]
pub fn assert_standard_schema_object_root(
    json_schema: &JsValue,
    surface: &JsValue,
) -> Result<(), JsValue> {
    // The reference reads `jsonSchema.type` unchecked.
    unchecked_read(json_schema, "type")?;
    let root_type = get_opt(json_schema, "type")?;
    let is_object = root_type.as_string().as_deref() == Some("object");
    if is_object {
        return Ok(());
    }
    // The surface only names the place in the message; like the reference, any value that
    // converts to a string will do (a throwing `toString` propagates).
    rules::assert_object_root(false, &super::js::string(surface)?).map_err(raise)
}

/// Where the reference reads `target[key]` without a check: the host's TypeError for a
/// nullish `target`, word for word.
fn unchecked_read(target: &JsValue, key: &str) -> Result<(), JsValue> {
    let what = if target.is_null() {
        "null"
    } else if target.is_undefined() {
        "undefined"
    } else {
        return Ok(());
    };
    Err(js_sys::TypeError::new(&format!(
        "Cannot read properties of {what} (reading '{key}')"
    ))
    .into())
}

/// The texts of the issues, read by the facade's `issueTexts` walk in one crossing and written
/// into the input buffer (a returned string would cross character by character): the format
/// of `rules::decode_issue_texts`. What the walk throws (the reference's TypeErrors, a throwing
/// `toString`) passes through.
fn issue_texts(issues: &JsValue) -> Result<Vec<IssueText>, JsValue> {
    let len = super::with_walks(|w| w.issue_texts.call1(&JsValue::UNDEFINED, issues))?
        .as_f64()
        .unwrap_or(0.0) as usize;
    super::with_input(len, rules::decode_issue_texts)?
        .ok_or_else(|| user_error("understudy could not read the issue texts its facade gave it."))
}

/// `validateStandardSchema(schema, value)`: calls `~standard.validate(value)` once,
/// synchronously, and returns the validated output. A thenable is refused (and its rejection
/// swallowed), issues become a `StandardSchemaValidationError` with the reference's message.
#[wasm_bindgen(js_name = validateStandardSchema)]
pub fn validate_standard_schema(schema: &JsValue, value: &JsValue) -> Result<JsValue, JsValue> {
    // One crossing (the facade's `standardCall`: it runs `schema['~standard'].validate(value)`
    // and reads the result) and one to take what it found, instead of a reflective read per
    // property (11.6 µs → about 1 µs for a valid value).
    let (kind, payload) = super::with_walks(|w| {
        let kind = w.standard_call.call2(&JsValue::UNDEFINED, schema, value)?;
        let payload = w.standard_take.call0(&JsValue::UNDEFINED)?;
        Ok((kind.as_f64().unwrap_or(0.0) as u32, payload))
    })?;
    standard_outcome(kind, payload)
}

/// What a result the facade's `standardCall` read means: the value for `Outcome::Value`, the
/// refusal of a thenable (its rejection swallowed), or the validation error with the
/// reference's message. The exported `validateStandardSchema` of the facade runs
/// `standardCall` itself and crosses here only when the answer is not a value (a valid
/// value then costs no crossing, as the reference's bridge costs one call).
#[wasm_bindgen(js_name = standardSchemaOutcome)]
pub fn standard_outcome(kind: u32, payload: JsValue) -> Result<JsValue, JsValue> {
    match rules::Outcome::from_code(kind) {
        Some(rules::Outcome::Value) => Ok(payload),
        Some(rules::Outcome::Thenable) => {
            swallow(&payload);
            Err(raise(rules::judge(&ValidateResult::Thenable).unwrap_err()))
        }
        Some(rules::Outcome::Issues) => {
            let texts = issue_texts(&payload)?;
            let error = rules::judge(&ValidateResult::Issues(texts)).unwrap_err();
            Err(raise_with(error, &payload))
        }
        None => unreachable_kind(kind),
    }
}

fn unreachable_kind(kind: u32) -> Result<JsValue, JsValue> {
    Err(user_error(format!(
        "understudy's Standard Schema bridge answered an unknown outcome {kind}."
    )))
}

/// The JSON Schema `stripStrictNulls` works from and the walk it takes, as
/// `[jsonSchema, standard]`: a Standard Schema with JSON gives its input JSON Schema and
/// `standard: true` (the reference's Zod walk, `schema::nulls`); a plain (non-array) object is
/// used as is with `standard: false` (a prepared strict schema's `normalizeInput`); anything
/// else is `null` (the value is returned untouched). A Standard Schema without JSON conversion
/// is refused.
#[wasm_bindgen(js_name = nullStrippingSchema)]
pub fn null_stripping_schema(schema: &JsValue) -> Result<JsValue, JsValue> {
    let caps = capabilities(schema);
    let json_schema = if caps.marker {
        caps.require_with_json().map_err(raise)?;
        standard_schema_to_json_schema(schema, Io::Input.as_str())?
    } else {
        schema.clone()
    };
    let record = json_schema.is_object() && !Array::is_array(&json_schema);
    Ok(if record {
        Array::of2(&json_schema, &JsValue::from_bool(caps.marker)).into()
    } else {
        JsValue::NULL
    })
}
