//! `scriptedFetch` and `providerServer` bindings: a request's texts in, the reply's texts out,
//! each call one crossing of JSON text through the input buffer ([`crate::doubles::wire`]
//! decides everything).

use serde_json::{json, Value as Json};
use wasm_bindgen::prelude::*;

use super::raise;
use crate::doubles::model::{ModelError, Surface};
use crate::doubles::wire::{self, answer, errors, Endpoint, Route};

fn read_input(len: usize) -> Result<Json, JsValue> {
    super::with_input(len, |text| {
        serde_json::from_str::<Json>(text).unwrap_or_default()
    })
}

fn route_json(route: &Route, streamed: bool, model: &str, include_usage: bool) -> Json {
    json!({
        "endpoint": route.endpoint.code(), "pathStreams": route.path_streams, "sse": route.sse,
        "model": model, "streamed": streamed, "includeUsage": include_usage,
    })
}

fn route_of(v: &Json) -> Result<(Route, bool, String, bool), JsValue> {
    let endpoint = v
        .get("endpoint")
        .and_then(Json::as_str)
        .and_then(Endpoint::from_code)
        .ok_or_else(|| {
            super::user_error("scriptedFetch: a request's route is missing (a facade error).")
        })?;
    let flag = |k: &str| v.get(k).and_then(Json::as_bool).unwrap_or(false);
    Ok((
        Route {
            endpoint,
            path_streams: flag("pathStreams"),
            sse: flag("sse"),
            model: None,
        },
        flag("streamed"),
        v.get("model")
            .and_then(Json::as_str)
            .unwrap_or("")
            .to_string(),
        flag("includeUsage"),
    ))
}

/// A request as it arrives (`method`, `url`, its body's text in the input buffer): `{ reply }`
/// for one no endpoint takes, else `{ route, offered, schemas }`: the route to answer by, the
/// names of its function tools, and its schema-bearing fields as JSON text (for the engine
/// module's `wireRefusal`).
#[wasm_bindgen(js_name = wireArrive)]
pub fn wire_arrive(method: &str, url: &str, len: usize) -> Result<String, JsValue> {
    let out = super::with_input(len, |body| match wire::arrive(method, url, body) {
        Err(reply) => json!({ "reply": reply.to_json() }),
        Ok(a) => json!({
            "route": route_json(&a.route, a.streamed, &a.model, a.include_usage),
            "offered": a.offered,
            "schemas": a.schemas.to_string(),
        }),
    })?;
    Ok(out.to_string())
}

/// The provider-neutral form of a body to `endpoint` (its text in the input buffer), as JSON
/// text ([`wire::neutral`]).
#[wasm_bindgen(js_name = wireNeutral)]
pub fn wire_neutral(
    endpoint: &str,
    model: &str,
    streamed: bool,
    len: usize,
) -> Result<String, JsValue> {
    let endpoint = Endpoint::from_code(endpoint)
        .ok_or_else(|| super::user_error("scriptedFetch: unknown endpoint (a facade error)."))?;
    super::with_input(len, |body| {
        wire::neutral(endpoint, body, model, streamed).to_string()
    })
}

/// A scripted answer for a routed call (`{ route, answer }` in the input buffer) as the reply
/// in the provider's format. `offered`: the names of the request's tools, when a call to
/// another is refused; `delta_size`: characters per streamed delta. An answer with no form at
/// the endpoint is an `InvalidScriptedModelStepError` naming the call.
#[wasm_bindgen(js_name = wireAnswer)]
pub fn wire_answer(
    len: usize,
    call_index: u32,
    offered: Option<Vec<String>>,
    delta_size: Option<u32>,
    surface: u8,
) -> Result<String, JsValue> {
    let surface = Surface::from_code(surface);
    let given = read_input(len)?;
    let (route, streamed, model, include_usage) = route_of(&given["route"])?;
    let call = call_index as usize;
    let invalid =
        |detail: String| raise(ModelError::invalid_answer_for_call(surface, call, detail));
    if let Some(offered) = offered {
        crate::doubles::ai_sdk::check_offered_by(&given["answer"], &offered, surface)
            .map_err(invalid)?;
    }
    let piece = delta_size.map_or(crate::doubles::ai_sdk::PIECE, |n| n as usize);
    answer::write(
        &route,
        streamed,
        &model,
        &given["answer"],
        call,
        piece,
        include_usage,
    )
    .map(|reply| reply.to_json().to_string())
    .map_err(|detail| invalid(format!("{detail}.")))
}

/// A scripted error for a routed call (`{ route, facts }`, the facts `{ status?, message,
/// advice? }`): the provider's error reply, or `null` for an error the call throws as it is.
#[wasm_bindgen(js_name = wireError)]
pub fn wire_error(len: usize) -> Result<String, JsValue> {
    let given = read_input(len)?;
    let (route, ..) = route_of(&given["route"])?;
    Ok(errors::write(route.endpoint, &given["facts"])
        .map_or_else(|| "null".into(), |r| r.to_json().to_string()))
}

/// A call the double could not answer (`{ route, message }`: the double's error): the
/// provider's 500 that no client retries, with that message.
#[wasm_bindgen(js_name = wireFailure)]
pub fn wire_failure(len: usize) -> Result<String, JsValue> {
    let given = read_input(len)?;
    let (route, ..) = route_of(&given["route"])?;
    let message = given
        .get("message")
        .and_then(Json::as_str)
        .unwrap_or("scriptedFetch failed.");
    Ok(errors::failure(route.endpoint, message)
        .to_json()
        .to_string())
}

/// Whether `method url` is a request to one of the model endpoints (what a wire recording
/// records; other requests pass through).
#[wasm_bindgen(js_name = wireRoutes)]
pub fn wire_routes(method: &str, url: &str) -> bool {
    wire::route(method, url).is_some()
}
