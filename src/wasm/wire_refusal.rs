//! The HTTP double's schema check, in the engine module (where the strict conversion and the
//! provider profiles already are): whether the provider would refuse a request's schemas
//! ([`crate::doubles::wire::refuse::refusal`]).

use serde_json::Value as Json;
use wasm_bindgen::prelude::*;

use crate::doubles::wire::{refuse, Endpoint};

/// The provider's 400 for a request to `endpoint` (its code) whose body is in the input
/// buffer, as the reply's JSON text, or `null` when the provider takes its schemas.
#[wasm_bindgen(js_name = wireRefusal)]
pub fn wire_refusal(endpoint: &str, len: usize) -> Result<String, JsValue> {
    let endpoint = Endpoint::from_code(endpoint)
        .ok_or_else(|| super::user_error("scriptedFetch: unknown endpoint (a facade error)."))?;
    super::with_input(len, |text| {
        let body: Json = serde_json::from_str(text).unwrap_or_default();
        refuse::refusal(endpoint, &body).map_or_else(|| "null".into(), |r| r.to_json().to_string())
    })
}
