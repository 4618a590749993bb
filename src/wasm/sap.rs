//! Bindings of schema-aligned parsing. A Standard Schema with JSON guides alignment with its
//! input JSON Schema and validates the result last; a plain object is a JSON Schema.

use js_sys::{Array, Reflect, JSON};
use wasm_bindgen::prelude::*;

use super::{engine_error, standard};
use crate::sap::{self, ParseFailure};

/// The JSON Schema that guides alignment, and whether `schema` is a Standard Schema whose
/// `validate` must run on the result.
fn guide(schema: &JsValue) -> Result<(serde_json::Value, bool), JsValue> {
    let standard = standard::has_standard_schema_marker(schema);
    let json_schema = if standard {
        if !standard::is_standard_schema_with_json(schema) {
            return Err(standard::unsupported_standard_schema_error());
        }
        standard::standard_schema_to_json_schema(schema, "input")?
    } else {
        schema.clone()
    };
    let is_schema = json_schema.is_object() && !Array::is_array(&json_schema) || json_schema.as_bool().is_some();
    if !is_schema {
        return Err(engine_error("UserError", "parseStructured expects a JSON Schema (an object or a boolean) or a Standard Schema with JSON Schema conversion.", &[]));
    }
    let text: String = JSON::stringify(&json_schema)?.into();
    let value = serde_json::from_str(&text)
        .map_err(|e| engine_error("UserError", &format!("The schema is not JSON: {e}"), &[]))?;
    Ok((value, standard))
}

fn failure(e: ParseFailure) -> JsValue {
    let candidates = super::to_js(&e.candidates);
    engine_error("StructuredParseError", &e.message, &[("reason", JsValue::from_str(e.reason)), ("candidates", candidates)])
}

/// `parseStructured(text, schema)` → `{ value, fixes }`: JSON text for the facade to parse (one
/// native `JSON.parse` beats building the objects across the boundary), or, for a Standard
/// Schema, the object whose `value` its `validate` produced.
#[wasm_bindgen(js_name = parseStructured)]
pub fn parse_structured(text: &str, schema: &JsValue) -> Result<JsValue, JsValue> {
    let (json_schema, standard) = guide(schema)?;
    let parsed = sap::parse_structured(text, &json_schema).map_err(failure)?;
    let out = serde_json::to_string(&parsed).unwrap_or_default();
    if !standard {
        return Ok(JsValue::from_str(&out));
    }
    let out = JSON::parse(&out)?;
    let value = Reflect::get(&out, &"value".into())?;
    let validated = standard::validate_standard_schema(schema, &value)?;
    Reflect::set(&out, &"value".into(), &validated)?;
    Ok(out)
}

/// `parsePartial(text, schema)` → `{ value, complete, fixes }` as JSON text, for a prefix of a
/// streamed reply (`value` absent while nothing is determined). A Standard Schema's `validate`
/// is not run on unfinished values.
#[wasm_bindgen(js_name = parsePartial)]
pub fn parse_partial(text: &str, schema: &JsValue) -> Result<String, JsValue> {
    let (json_schema, _) = guide(schema)?;
    let parsed = sap::parse_partial(text, &json_schema).map_err(failure)?;
    Ok(serde_json::to_string(&parsed).unwrap_or_default())
}
