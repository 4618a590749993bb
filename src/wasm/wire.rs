//! `scriptedFetch` and `providerServer` bindings: a request's texts in, the reply's texts out,
//! each call one crossing of JSON text through the input buffer ([`crate::doubles::wire`]
//! decides everything).

use serde_json::{json, Value as Json};
use wasm_bindgen::prelude::*;

use super::raise;
use crate::doubles::model::{ModelError, Surface};
use crate::doubles::wire::{self, answer, errors, fault, service, Endpoint, Route};

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

/// A request as it arrives (`method`, `url`, `headers` as a JSON object's text, its body's
/// text in the input buffer), with the session it runs in (`session`, or null):
/// - `{ reply }` for one no endpoint takes (a 404), a body that is not a JSON object or a bad
///   session address (400);
/// - `{ session, journal: true }` for the double's journal of that session's calls;
/// - `{ session, url, service, model, embeds, reply }` for an endpoint answered without a step
///   (`reply` with the double's own vectors; `wireService` answers with scripted ones);
/// - `{ session, url, route, offered, schemas }` for a model call (`url` without a session's path
///   prefix, as the script sees it): the route to answer by, the
///   names of its function tools, and its schema-bearing fields as JSON text (for the engine
///   module's `wireRefusal`).
#[wasm_bindgen(js_name = wireArrive)]
pub fn wire_arrive(method: &str, url: &str, headers: &str, len: usize) -> Result<String, JsValue> {
    let headers: Json = serde_json::from_str(headers).unwrap_or_default();
    let out = super::with_input(len, |body| {
        let a = match wire::arrive_addressed(method, url, &headers, body) {
            Err(reply) => return json!({ "reply": reply.to_json() }),
            Ok(a) => a,
        };
        match a.arrived {
            wire::Arrived::Journal(_) => json!({ "session": a.session, "journal": true }),
            wire::Arrived::Service { service, model } => json!({
                "session": a.session,
                "url": a.url,
                "service": service.code(),
                "model": model,
                "embeds": service.embeds(),
                "reply": service::answer(service, model.as_deref(), body).to_json(),
            }),
            wire::Arrived::Model(m) => json!({
                "session": a.session,
                "url": a.url,
                "route": route_json(&m.route, m.streamed, &m.model, m.include_usage),
                "offered": m.offered,
                "schemas": m.schemas.to_string(),
            }),
        }
    })?;
    Ok(out.to_string())
}

/// The answer of service `code` (`model`: the one its path names) to the body in the input
/// buffer, embedding with `vectors` (an `embeddingStep`'s, as JSON text): `{ reply }`, or `{
/// problem }` when the vectors do not fit the request.
#[wasm_bindgen(js_name = wireService)]
pub fn wire_service(
    code: &str,
    model: Option<String>,
    vectors: &str,
    len: usize,
) -> Result<String, JsValue> {
    let service = service::Service::from_code(code)
        .ok_or_else(|| super::user_error("scriptedFetch: unknown service (a facade error)."))?;
    let vectors: Json = serde_json::from_str(vectors).unwrap_or_default();
    super::with_input(len, |body| {
        match service::answer_with(service, model.as_deref(), body, Some(&vectors)) {
            Ok(reply) => json!({ "reply": reply.to_json() }),
            Err(problem) => json!({ "problem": problem }),
        }
        .to_string()
    })
}

/// The 404 of a journal request for session `id`, which no request named (`known`: the
/// sessions that were).
#[wasm_bindgen(js_name = wireUnknownSession)]
pub fn wire_unknown_session(id: &str, known: Vec<String>) -> String {
    errors::unknown_session(id, &known).to_json().to_string()
}

/// An answer of the double itself with `status` and `message` (a session whose script cannot
/// be made).
#[wasm_bindgen(js_name = wireDoubleError)]
pub fn wire_double_error(status: u16, message: &str) -> String {
    errors::double_error(status, "understudy_error", message)
        .to_json()
        .to_string()
}

/// What is wrong with a fault (`{ kind, afterEvents? }` as JSON text), or `undefined`.
#[wasm_bindgen(js_name = wireFaultCheck)]
pub fn wire_fault_check(fault: &str) -> Option<String> {
    let v: Json = serde_json::from_str(fault).unwrap_or_default();
    fault::read(&v).err()
}

/// The provider-neutral form of a body to `endpoint` (its text in the input buffer), as JSON
/// text ([`wire::neutral`]; a service's, [`service::neutral`], for a service's code).
#[wasm_bindgen(js_name = wireNeutral)]
pub fn wire_neutral(
    endpoint: &str,
    model: &str,
    streamed: bool,
    len: usize,
) -> Result<String, JsValue> {
    if let Some(service) = service::Service::from_code(endpoint) {
        let model = Some(model).filter(|m| !m.is_empty());
        return super::with_input(len, |body| {
            service::neutral(service, model, body).to_string()
        });
    }
    let endpoint = Endpoint::from_code(endpoint)
        .ok_or_else(|| super::user_error("scriptedFetch: unknown endpoint (a facade error)."))?;
    super::with_input(len, |body| {
        wire::neutral(endpoint, body, model, streamed).to_string()
    })
}

/// A scripted answer for a routed call (`{ route, answer, fault? }` in the input buffer) as the
/// reply in the provider's format, cut by its fault (`end` then says how it ends). `offered`: the names of the request's tools, when a call to
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
    let reply = answer::write(
        &route,
        streamed,
        &model,
        &given["answer"],
        call,
        piece,
        include_usage,
    )
    .map_err(|detail| invalid(format!("{detail}.")))?;
    let Some(given_fault) = given.get("fault") else {
        return Ok(reply.to_json().to_string());
    };
    let faulted = fault::read(given_fault).and_then(|f| fault::apply(reply, f));
    let (reply, ending) = faulted.map_err(|detail| invalid(format!("{detail}.")))?;
    let mut out = reply.to_json();
    if let (Some(ending), Json::Object(map)) = (ending, &mut out) {
        map.insert("end".into(), ending.to_json());
    }
    Ok(out.to_string())
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
    let message = given
        .get("message")
        .and_then(Json::as_str)
        .unwrap_or("scriptedFetch failed.");
    let code = given["route"]["endpoint"].as_str().unwrap_or_default();
    let provider = match service::Service::from_code(code) {
        Some(service) => service.provider(),
        None => route_of(&given["route"])?.0.endpoint.provider(),
    };
    Ok(errors::failure(provider, message).to_json().to_string())
}

/// Whether `method url` is a request to one of the endpoints the double answers, a model's or
/// one answered without a step (what a wire recording records; other requests pass through).
#[wasm_bindgen(js_name = wireRoutes)]
pub fn wire_routes(method: &str, url: &str) -> bool {
    wire::route(method, url).is_some() || service::route(method, url, &Json::Null).is_some()
}

/// The response headers that describe a transfer, not an answer: what a recording proxy does
/// not pass on (the body it writes is decoded and framed anew).
#[wasm_bindgen(js_name = wireTransferHeaders)]
pub fn wire_transfer_headers() -> Vec<String> {
    crate::doubles::wire::tape::TRANSFER_HEADERS
        .iter()
        .map(|h| (*h).to_string())
        .collect()
}
