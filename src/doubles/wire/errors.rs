//! Errors in each provider's own body and status, with the headers each client's retries read:
//! OpenAI `{ error: { message, type, param, code } }`, Anthropic `{ type: 'error', error: {
//! type, message } }`, Gemini `{ error: { code, message, status } }`; `retry-after-ms` and
//! `retry-after` from a step's `retryAfterMs`, `x-should-retry` from its `suggested`.

use serde_json::{json, Value as Json};

use super::{Endpoint, Reply, SUPPORTED};
use crate::schema::provider::Provider;

/// OpenAI's `type` and `code` for a status.
fn openai_kind(status: u16) -> (&'static str, Option<&'static str>) {
    match status {
        400 => ("invalid_request_error", None),
        401 => ("invalid_request_error", Some("invalid_api_key")),
        403 => ("permission_error", None),
        404 => ("invalid_request_error", Some("model_not_found")),
        429 => ("rate_limit_error", Some("rate_limit_exceeded")),
        // What OpenAI answers when it is overloaded (seen on the Responses API in 2026).
        503 => ("service_unavailable_error", Some("server_is_overloaded")),
        s if s >= 500 => ("server_error", None),
        _ => ("invalid_request_error", None),
    }
}

/// Anthropic's error `type` for a status.
fn anthropic_kind(status: u16) -> &'static str {
    match status {
        401 => "authentication_error",
        403 => "permission_error",
        404 => "not_found_error",
        413 => "request_too_large",
        429 => "rate_limit_error",
        529 => "overloaded_error",
        s if s >= 500 => "api_error",
        _ => "invalid_request_error",
    }
}

/// Gemini's (Google RPC) `status` for an HTTP status.
fn gemini_status(status: u16) -> &'static str {
    match status {
        400 => "INVALID_ARGUMENT",
        401 => "UNAUTHENTICATED",
        403 => "PERMISSION_DENIED",
        404 => "NOT_FOUND",
        409 => "ABORTED",
        429 => "RESOURCE_EXHAUSTED",
        499 => "CANCELLED",
        501 => "UNIMPLEMENTED",
        503 => "UNAVAILABLE",
        504 => "DEADLINE_EXCEEDED",
        _ => "INTERNAL",
    }
}

/// The error body `endpoint`'s provider answers with `status` and `message` (`param`: the
/// request field at fault, which OpenAI names).
pub fn provider_error(
    endpoint: Endpoint,
    status: u16,
    message: &str,
    param: Option<&str>,
) -> Reply {
    provider_error_of(endpoint.provider(), status, message, param)
}

/// The error body `provider` answers with `status` and `message`, at any of its endpoints.
pub fn provider_error_of(
    provider: Provider,
    status: u16,
    message: &str,
    param: Option<&str>,
) -> Reply {
    let body = match provider {
        Provider::OpenAi => {
            let (kind, code) = openai_kind(status);
            let code = match (status, param) {
                (400, Some(p)) if p.contains("parameters") => Some("invalid_function_parameters"),
                (400, Some(_)) => Some("invalid_json_schema"),
                _ => code,
            };
            json!({ "error": { "message": message, "type": kind, "param": param, "code": code } })
        }
        Provider::Anthropic => {
            json!({ "type": "error", "error": { "type": anthropic_kind(status), "message": message } })
        }
        Provider::Gemini => {
            json!({ "error": { "code": status, "message": message, "status": gemini_status(status) } })
        }
    };
    Reply::json(status, &body)
}

/// The 404 of a request no endpoint takes, naming the supported ones.
pub fn not_found(method: &str, url: &str) -> Reply {
    let message = format!(
        "The understudy HTTP double has no provider endpoint at {method} {url}; it answers {SUPPORTED}; without a step, {}; and its own GET /__understudy/calls and GET /__understudy/sessions/{{id}}/calls.",
        super::service::SUPPORTED
    );
    double_error(404, "not_found", &message)
}

/// The journal's 404 for a session no request named.
pub fn unknown_session(id: &str, known: &[String]) -> Reply {
    let seen = if known.is_empty() {
        "no request has named a session yet".to_string()
    } else {
        let names: Vec<String> = known.iter().map(|k| format!("{k:?}")).collect();
        format!("the sessions requests named are {}", names.join(", "))
    };
    double_error(
        404,
        "not_found",
        &format!("The understudy HTTP double has no session {id:?}: {seen}."),
    )
}

/// An answer of the double itself (not of a provider): a bad session address, a journal
/// request for a session never seen.
pub fn double_error(status: u16, kind: &str, message: &str) -> Reply {
    Reply::json(
        status,
        &json!({ "error": { "message": message, "type": kind, "code": status } }),
    )
}

/// The status and message a provider answers when it is overloaded: Anthropic's 529
/// `overloaded_error`, OpenAI's and Gemini's 503 (`service_unavailable_error` with code
/// `server_is_overloaded`, `UNAVAILABLE`).
fn overloaded_of(provider: Provider) -> (u16, &'static str) {
    match provider {
        Provider::OpenAi => (
            503,
            "Our servers are currently overloaded. Please try again later.",
        ),
        Provider::Anthropic => (529, "Overloaded"),
        Provider::Gemini => (503, "The model is overloaded. Please try again later."),
    }
}

/// What a scripted error step becomes (`facts`: `{ status?, message, advice?, fault? }` as the
/// facade read the error and its retry advice; `fault: 'overloaded'` for `overloadedError()`,
/// each provider's overloaded answer): the provider's error reply, or `None` for an error
/// without an HTTP status, which the call throws as it is (a network failure, which the
/// clients retry as one).
pub fn write(endpoint: Endpoint, facts: &Json) -> Option<Reply> {
    let overloaded = facts.get("fault").and_then(Json::as_str) == Some("overloaded");
    let (status, message) = if overloaded {
        overloaded_of(endpoint.provider())
    } else {
        let status = facts.get("status").and_then(Json::as_u64)?;
        let status = u16::try_from(status)
            .ok()
            .filter(|s| (400..=599).contains(s))?;
        let message = facts
            .get("message")
            .and_then(Json::as_str)
            .unwrap_or("Scripted error.");
        (status, message)
    };
    let mut reply = provider_error(endpoint, status, message, None);
    let advice = facts.get("advice");
    if let Some(ms) = advice
        .and_then(|a| a.get("retryAfterMs"))
        .and_then(Json::as_f64)
        .filter(|ms| ms.is_finite() && *ms >= 0.0)
    {
        reply
            .headers
            .push(("retry-after-ms".into(), format!("{}", ms.round() as u64)));
        reply.headers.push((
            "retry-after".into(),
            format!("{}", (ms / 1000.0).ceil() as u64),
        ));
    }
    if let Some(suggested) = advice
        .and_then(|a| a.get("suggested"))
        .and_then(Json::as_bool)
    {
        reply
            .headers
            .push(("x-should-retry".into(), suggested.to_string()));
    }
    Some(reply)
}

/// A call the double cannot answer (no step left, a step with no form at this endpoint): a
/// 500 in the provider's body that no client retries (`x-should-retry: false`), so the
/// client raises it with the double's message; `assertComplete()` reports it too.
pub fn failure(provider: Provider, message: &str) -> Reply {
    let mut reply = provider_error_of(provider, 500, message, None);
    reply
        .headers
        .push(("x-should-retry".into(), "false".into()));
    reply
}
