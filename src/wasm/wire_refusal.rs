//! The HTTP double's schema check, in the engine module (where the strict conversion and the
//! provider profiles already are): whether the provider would refuse a request's schemas
//! ([`crate::doubles::wire::refuse::refusal`]).

use serde_json::Value as Json;
use wasm_bindgen::prelude::*;

use crate::doubles::wire::{refuse, Endpoint};

/// Verdicts kept, by endpoint and schemas text: a tool loop sends the same tools every turn.
const KEPT: usize = 16;

thread_local! {
    static VERDICTS: std::cell::RefCell<Vec<(String, String)>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// The provider's 400 for a request to `endpoint` (its code) whose schema-bearing fields
/// (`wireArrive`'s `schemas`) are in the input buffer, as the reply's JSON text, or `null`
/// when the provider takes its schemas. The last verdicts are kept by their text.
#[wasm_bindgen(js_name = wireRefusal)]
pub fn wire_refusal(endpoint: &str, len: usize) -> Result<String, JsValue> {
    let code = endpoint;
    let endpoint = Endpoint::from_code(endpoint)
        .ok_or_else(|| super::user_error("scriptedFetch: unknown endpoint (a facade error)."))?;
    super::with_input(len, |text| {
        let key = format!("{code}\n{text}");
        let kept = VERDICTS.with(|v| {
            v.borrow()
                .iter()
                .find(|(k, _)| *k == key)
                .map(|(_, r)| r.clone())
        });
        if let Some(verdict) = kept {
            return verdict;
        }
        let body: Json = serde_json::from_str(text).unwrap_or_default();
        let verdict = refuse::refusal(endpoint, &body)
            .map_or_else(|| "null".into(), |r| r.to_json().to_string());
        VERDICTS.with(|v| {
            let mut v = v.borrow_mut();
            if v.len() == KEPT {
                v.remove(0);
            }
            v.push((key, verdict.clone()));
        });
        verdict
    })
}
