//! The validator module's bindings (`compileJsonSchema`): the only code that needs the
//! `jsonschema` crate and its regex engines, so it ships as its own wasm module.

use js_sys::Reflect;
use wasm_bindgen::prelude::*;

use super::{
    encoding_error, engine_error, invalid_schema_error, js, parse_schema, to_js, with_input, Live,
};
use crate::error::InvalidSchemaError;
use crate::json;
use crate::schema::validate::{self, Compiled};

/// A compiled JSON Schema validator.
#[wasm_bindgen]
pub struct Validator {
    compiled: Compiled,
    /// Issues kept by `checkJsonInput` for `takeIssues`.
    issues: Option<Vec<validate::Issue>>,
    _live: Live,
}

/// A report crosses as `undefined` when valid (the common case, and no object to build) and
/// as its issues otherwise.
fn report_to_js(report: validate::Report) -> JsValue {
    if report.valid {
        JsValue::UNDEFINED
    } else {
        to_js(&report.issues)
    }
}

#[wasm_bindgen]
impl Validator {
    /// Validates the value in the input buffer (`len` bytes of the facade's tagged JSON
    /// encoding): `undefined` when valid, else the issues.
    #[wasm_bindgen(js_name = validateInput)]
    pub fn validate_input(&self, len: usize) -> Result<JsValue, JsValue> {
        with_input(len, |value| self.validate(value))?
    }

    /// Validates the JSON text in the input buffer (`len` bytes) and answers only whether it is
    /// valid: a boolean crosses the boundary faster than a value. The issues of an invalid text
    /// (malformed text is one `json` issue with its position) wait in the validator for
    /// [`Validator::take_issues`].
    #[wasm_bindgen(js_name = checkJsonInput)]
    pub fn check_json_input(&mut self, len: usize) -> Result<bool, JsValue> {
        let report = with_input(len, |text| self.compiled.validate_json(text))?;
        self.issues = (!report.valid).then_some(report.issues);
        Ok(report.valid)
    }

    /// The issues of the last invalid text given to [`Validator::check_json_input`] (an empty
    /// array if there are none), taken out of the validator.
    #[wasm_bindgen(js_name = takeIssues)]
    pub fn take_issues(&mut self) -> JsValue {
        to_js(&self.issues.take().unwrap_or_default())
    }
}

impl Validator {
    fn validate(&self, value: &str) -> Result<JsValue, JsValue> {
        // Without tagged members the encoding is plain JSON, which the fast path reads as is.
        if !value.contains(json::TAG_TEXT) && self.compiled.proves_valid(value) {
            return Ok(JsValue::UNDEFINED);
        }
        let doc = json::parse(value).map_err(|e| encoding_error("value", e))?;
        Ok(report_to_js(self.compiled.validate_doc(&doc, doc.root())))
    }
}

/// Reads `compileJsonSchema`'s options, `{ formats?: boolean }` (default: formats assert);
/// anything else is refused, so a misspelled option never passes silently.
fn compile_formats(options: &JsValue) -> Result<bool, JsValue> {
    let refuse = |message: &str| Err(engine_error("UserError", message, &[]));
    if options.is_undefined() || options.is_null() {
        return Ok(true);
    }
    if !options.is_object() || js_sys::Array::is_array(options) {
        return refuse("compileJsonSchema options must be an object such as { formats: false }.");
    }
    let mut formats = true;
    for key in js::keys(options)?.iter() {
        let key = key.as_string().unwrap_or_default();
        let value = Reflect::get(options, &JsValue::from_str(&key))?;
        match key.as_str() {
            "formats" => match value.as_bool() {
                Some(b) => formats = b,
                None if value.is_undefined() => {}
                None => return refuse("compileJsonSchema option `formats` must be a boolean."),
            },
            other => {
                return refuse(&format!(
                    "compileJsonSchema has no option `{other}`; its only option is `formats`."
                ))
            }
        }
    }
    Ok(formats)
}

/// `compileJsonSchema`; `options.formats: false` makes `format` an annotation.
#[wasm_bindgen(js_name = compileSchema)]
pub fn compile_schema(len: usize, options: &JsValue) -> Result<Validator, JsValue> {
    let formats = compile_formats(options)?;
    let doc = with_input(len, parse_schema)??;
    if let Some((_, pointer, _)) = crate::schema::pointer::first_opaque(&doc, doc.root()) {
        return Err(invalid_schema_error(InvalidSchemaError {
            message: format!(
                "Invalid JSON Schema at `{pointer}`: the schema holds a value JSON cannot carry."
            ),
            pointer,
        }));
    }
    let compiled = validate::compile_json_with(&json::to_string(&doc, doc.root()), formats)
        .map_err(invalid_schema_error)?;
    Ok(Validator {
        compiled,
        issues: None,
        _live: Live::new(),
    })
}
