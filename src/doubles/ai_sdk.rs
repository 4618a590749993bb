//! The scripted model for the AI SDK (`scriptedLanguageModel`): a step scripted with the same
//! builders as `ScriptedModel` (assistant messages, function calls, reasoning items, a complete
//! response with usage) becomes what a `LanguageModelV3` / `LanguageModelV4` answers:
//! `doGenerate`'s content parts, finish reason and usage, and `doStream`'s parts (ids, starts,
//! deltas and ends, tool input in pieces, a `finish` with usage). A scripted error becomes the
//! fields of the SDK's `APICallError`, so the SDK's own retries run.

use serde_json::{Map, Value as Json};

/// Characters per streamed delta (text, reasoning, tool input) unless the model's options say
/// (`deltaSize`): small enough that a test sees partial values, deterministic so two runs
/// stream alike.
pub const PIECE: usize = 12;

/// An object of `pairs` (one call site per shape keeps the engine small: `json!` writes each
/// member out inline).
fn obj<const N: usize>(pairs: [(&str, Json); N]) -> Json {
    Json::Object(pairs.into_iter().map(|(k, v)| (k.to_string(), v)).collect())
}

fn text_of(v: Option<&Json>) -> Json {
    Json::String(v.and_then(Json::as_str).unwrap_or("").to_string())
}

/// Why a scripted response has no AI SDK form.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unsupported {
    pub message: String,
}

fn unsupported(call: usize, message: impl std::fmt::Display) -> Unsupported {
    Unsupported {
        message: format!("scriptedLanguageModel: call #{}: {message}.", call + 1),
    }
}

/// Usage keys a scripted answer may carry: `@openai/agents`' names (what `Usage` holds) and
/// the AI SDK's (`inputTokens: { total, … }`, `raw`).
const USAGE_KEYS: [&str; 8] = [
    "inputTokens",
    "outputTokens",
    "totalTokens",
    "requests",
    "inputTokensDetails",
    "outputTokensDetails",
    "raw",
    "endpoint",
];

/// The AI SDK's names for usage this double reads under others: `(given, write instead)`.
const OLDER_USAGE_NAMES: [(&str, &str); 4] = [
    ("promptTokens", "inputTokens"),
    ("completionTokens", "outputTokens"),
    ("cachedInputTokens", "inputTokensDetails: { cached_tokens }"),
    (
        "reasoningTokens",
        "outputTokensDetails: { reasoning_tokens }",
    ),
];

/// A JSON value's kind, for a message.
fn kind_of(v: &Json) -> &'static str {
    match v {
        Json::Null => "null",
        Json::Bool(_) => "a boolean",
        Json::Number(_) => "a number",
        Json::String(_) => "a string",
        Json::Array(_) => "an array",
        Json::Object(_) => "an object",
    }
}

/// Checks a scripted answer when it is queued (its parts as the step builders make them, or
/// `{ output, usage?, … }`): every part has an AI SDK form, a message's text is a string, and
/// usage keys are known. `Err` says what is wrong and how to write it. Envelope rules (an
/// array or an object with `output`) are the classification's and are not repeated here.
pub fn check_answer(answer: &Json) -> Result<(), String> {
    if let Some(Json::Object(usage)) = answer.get("usage") {
        check_usage(usage)?;
    }
    for (i, item) in answer_items(answer).iter().enumerate() {
        let Some(kind) = item.get("type").and_then(Json::as_str) else {
            return Err(format!(
                "part {i} is {} without a `type`; script assistantMessage('…'), toolCall(name, input) or reasoning('…').",
                kind_of(item)
            ));
        };
        match kind {
            "message" => {
                let parts = item.get("content").and_then(Json::as_array);
                for part in parts.into_iter().flatten() {
                    let (key, value) = match part.get("type").and_then(Json::as_str) {
                        Some("output_text") => ("text", part.get("text")),
                        Some("refusal") => ("refusal", part.get("refusal")),
                        other => {
                            return Err(format!(
                                "part {i} is a message holding a `{}` part, which has no AI SDK content part (script `output_text` or `refusal`).",
                                other.unwrap_or("?")
                            ))
                        }
                    };
                    match value {
                        Some(Json::String(_)) => {}
                        Some(v @ Json::Object(_)) | Some(v @ Json::Array(_)) => {
                            return Err(format!(
                                "part {i} is a message whose {key} is {}, not a string. For an `Output.object` answer script objectStep(value), which writes the value as the JSON reply.",
                                kind_of(v)
                            ))
                        }
                        v => {
                            return Err(format!(
                                "part {i} is a message whose {key} is {}, not a string.",
                                v.map_or("missing", kind_of)
                            ))
                        }
                    }
                }
            }
            "function_call" => {
                if !item.get("name").is_some_and(Json::is_string) {
                    return Err(format!("part {i} is a tool call without a tool name."));
                }
                if !matches!(item.get("arguments"), Some(Json::String(_))) {
                    return Err(format!(
                        "part {i} is a tool call to `{}` whose input is not JSON text; write it with toolCall(name, input) or functionCall(name, input).",
                        item["name"].as_str().unwrap_or_default()
                    ));
                }
            }
            "reasoning" if item.get("content").is_some_and(Json::is_array) => {}
            "text" | "tool-call" | "reasoning" | "file" | "source" | "tool-result" => {
                return Err(format!(
                    "part {i} is an AI SDK content part (`{{ type: '{kind}' }}`), which the double writes itself; script textStep('…') or assistantMessage('…'), toolCall(name, input) or reasoning('…'), or the SDK's stream parts with modelStream([...])."
                ))
            }
            other if other.contains('-') => {
                return Err(format!(
                    "part {i} looks like an AI SDK stream part (`{{ type: '{other}' }}`); pass a streamed answer's parts to modelStream([...])."
                ))
            }
            other => {
                return Err(format!(
                    "part {i} is a `{other}`, which has no AI SDK content part; script assistantMessage('…'), toolCall(name, input) or reasoning('…')."
                ))
            }
        }
    }
    Ok(())
}

/// The parts of an answer: its array, or a complete response's `output`.
fn answer_items(answer: &Json) -> &[Json] {
    match answer {
        Json::Array(items) => items,
        _ => answer
            .get("output")
            .and_then(Json::as_array)
            .map_or(&[], Vec::as_slice),
    }
}

/// Refuses a tool call to a tool the call did not offer (`offered`: the names of the call's
/// tools): the SDK would record a `NoSuchToolError` inside the step and the test could pass
/// with the tool never run. `Err` names the tool and the offered ones.
pub fn check_offered(answer: &Json, offered: &[String]) -> Result<(), String> {
    check_offered_by(
        answer,
        offered,
        crate::doubles::model::Surface::ScriptedLanguageModel,
    )
}

/// [`check_offered`], the remedy in the words of `surface`'s users: the AI SDK's (`activeTools`,
/// the model's option) or an HTTP client's (the request's `tools`, the double's option).
pub fn check_offered_by(
    answer: &Json,
    offered: &[String],
    surface: crate::doubles::model::Surface,
) -> Result<(), String> {
    for (i, item) in answer_items(answer).iter().enumerate() {
        if item.get("type").and_then(Json::as_str) != Some("function_call") {
            continue;
        }
        let name = item.get("name").and_then(Json::as_str).unwrap_or_default();
        if offered.iter().any(|o| o == name) {
            continue;
        }
        let list = if offered.is_empty() {
            "it offered no tools".to_string()
        } else {
            format!(
                "offered: {}",
                offered
                    .iter()
                    .map(|o| format!("`{o}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        };
        let remedy = if surface.is_http() {
            format!("Check the tool's name and the `tools` the request sends; to script a call to a tool the request does not offer, give {} the option `allowUnofferedTools: true` (for `serve`, export `options = {{ allowUnofferedTools: true }}` from the script).", surface.name())
        } else {
            "Check the tool's name and the step's `activeTools`; to script a call to a tool the app does not have, create the model with `allowUnofferedTools: true`.".to_string()
        };
        return Err(format!(
            "part {i} calls tool `{name}`, which this call did not offer ({list}). {remedy}"
        ));
    }
    Ok(())
}

/// Refuses a usage key this double does not read (a count would silently be 0).
fn check_usage(usage: &Map<String, Json>) -> Result<(), String> {
    for key in usage.keys() {
        if USAGE_KEYS.contains(&key.as_str()) {
            continue;
        }
        return Err(
            match OLDER_USAGE_NAMES.iter().find(|(old, _)| old == key) {
                Some((old, new)) => format!(
                    "usage.{old} is a name the AI SDK no longer uses, and would count 0 tokens; write {new}."
                ),
                None => format!(
                    "usage.{key} is not a usage count this double reads (it would count 0); the counts are {}.",
                    USAGE_KEYS.join(", ")
                ),
            },
        );
    }
    Ok(())
}

/// A scripted response (the output items of the step builders, or `{ output, usage?,
/// responseId? }`) as `doGenerate`'s result: `{ content, finishReason, usage, response?,
/// warnings }`.
pub fn generate_result(response: &Json, call: usize) -> Result<Json, Unsupported> {
    // An output-only step (`[assistantMessage(…)]`) is one request with no usage and the
    // scripted response id, as `ScriptedModel` normalizes it.
    let (items, response) = match response {
        Json::Array(items) => (
            items,
            &obj([(
                "responseId",
                super::model::scripted_response_id(call).into(),
            )]),
        ),
        _ => (
            response
                .get("output")
                .and_then(Json::as_array)
                .ok_or_else(|| unsupported(call, "the response has no `output` array"))?,
            response,
        ),
    };
    let mut content = Vec::new();
    let mut calls_tool = false;
    for (i, item) in items.iter().enumerate() {
        let kind = item.get("type").and_then(Json::as_str).unwrap_or("");
        match kind {
            "message" => {
                for part in item.get("content").and_then(Json::as_array).into_iter().flatten() {
                    match part.get("type").and_then(Json::as_str) {
                        Some(kind @ ("output_text" | "refusal")) => {
                            let key = if kind == "refusal" { "refusal" } else { "text" };
                            content.push(obj([
                                ("type", "text".into()),
                                ("text", text_of(part.get(key))),
                            ]));
                        }
                        other => {
                            return Err(unsupported(
                                call,
                                format!(
                                    "part {i} is a message holding a `{}` part, which has no AI SDK content part (script `output_text` or `refusal`)",
                                    other.unwrap_or("?")
                                ),
                            ))
                        }
                    }
                }
            }
            "function_call" => {
                calls_tool = true;
                let input = match item.get("arguments") {
                    Some(Json::String(text)) => text.clone(),
                    Some(other) => other.to_string(),
                    None => "{}".into(),
                };
                // A call scripted without an id (the AI SDK builders let it be left out) is
                // named by its place, the same in `doGenerate` and `doStream`.
                let id = match item.get("callId") {
                    Some(id @ Json::String(_)) => id.clone(),
                    _ => format!("call-{}-{i}", call + 1).into(),
                };
                content.push(obj([
                    ("type", "tool-call".into()),
                    ("toolCallId", id),
                    ("toolName", item.get("name").cloned().unwrap_or(Json::Null)),
                    ("input", input.into()),
                ]));
            }
            "reasoning" => {
                let text: String = ["content", "rawContent"]
                    .iter()
                    .filter_map(|k| item.get(*k).and_then(Json::as_array))
                    .flatten()
                    .filter_map(|p| p.get("text").and_then(Json::as_str))
                    .collect::<Vec<_>>()
                    .join("\n");
                content.push(obj([("type", "reasoning".into()), ("text", text.into())]));
            }
            other => {
                return Err(unsupported(
                    call,
                    format!("part {i} is a `{other}`, which has no AI SDK content part (script assistantMessage, toolCall or reasoning parts)"),
                ))
            }
        }
    }
    let (unified, raw) = if calls_tool {
        ("tool-calls", "tool_calls")
    } else {
        ("stop", "stop")
    };
    let mut out = obj([
        ("content", Json::Array(content)),
        (
            "finishReason",
            obj([("unified", unified.into()), ("raw", raw.into())]),
        ),
        ("usage", usage(response.get("usage"))),
        ("warnings", Json::Array(Vec::new())),
    ]);
    if let Some(id) = response.get("responseId").and_then(Json::as_str) {
        out["response"] = obj([("id", id.into())]);
    }
    Ok(out)
}

/// Usage in the AI SDK's form: kept when it is already (`inputTokens: { total, … }`), else read
/// from `@openai/agents`' (`inputTokens`, `outputTokens`, cached and reasoning details); what
/// the script did not say is 0.
fn usage(given: Option<&Json>) -> Json {
    let empty = Json::Object(Map::new());
    let u = given.unwrap_or(&empty);
    if u.get("inputTokens").is_some_and(Json::is_object) {
        return u.clone();
    }
    let n = |v: Option<&Json>| v.and_then(Json::as_f64).unwrap_or(0.0);
    let detail = |key: &str, field: &str| {
        let d = u.get(key);
        let first = d.and_then(|d| d.as_array().and_then(|a| a.first()).or(Some(d)));
        n(first.and_then(|d| d.get(field)))
    };
    let input = n(u.get("inputTokens"));
    let output = n(u.get("outputTokens"));
    let cached = detail("inputTokensDetails", "cached_tokens");
    let reasoning = detail("outputTokensDetails", "reasoning_tokens");
    // Token counts are integers; JSON writes them without a fraction.
    let count = |v: f64| {
        if v.fract() == 0.0 && v.abs() < 9e15 {
            Json::from(v as i64)
        } else {
            Json::from(v)
        }
    };
    obj([
        (
            "inputTokens",
            obj([
                ("total", count(input)),
                ("noCache", count(input - cached)),
                ("cacheRead", count(cached)),
                ("cacheWrite", count(0.0)),
            ]),
        ),
        (
            "outputTokens",
            obj([
                ("total", count(output)),
                ("text", count(output - reasoning)),
                ("reasoning", count(reasoning)),
            ]),
        ),
    ])
}

/// The messages of a failed `fetch` the AI SDK retries (`handleFetchError` of
/// `@ai-sdk/provider-utils`), compared without case.
const FETCH_FAILED: [&str; 2] = ["fetch failed", "failed to fetch"];

/// The error codes, anywhere on an error's `cause` chain, of a network failure the AI SDK
/// retries (the same list as the SDK's).
const NETWORK_CODES: [&str; 11] = [
    "ConnectionRefused",
    "ConnectionClosed",
    "FailedToOpenSocket",
    "ECONNRESET",
    "ECONNREFUSED",
    "ETIMEDOUT",
    "EPIPE",
    "UND_ERR_SOCKET",
    "UND_ERR_HEADERS_TIMEOUT",
    "UND_ERR_BODY_TIMEOUT",
    "UND_ERR_CONNECT_TIMEOUT",
];

/// Whether a scripted error with no HTTP status is a network failure the SDK would retry: a
/// `TypeError` whose message is `fetch failed`, or a network error code on its cause chain
/// (`{ name, message, codes }` as the facade read them).
fn is_network_failure(error: &Json) -> bool {
    let message = error
        .get("message")
        .and_then(Json::as_str)
        .unwrap_or_default()
        .to_lowercase();
    let fetch_failed = error.get("name").and_then(Json::as_str) == Some("TypeError")
        && FETCH_FAILED.contains(&message.as_str());
    let coded = error
        .get("codes")
        .and_then(Json::as_array)
        .is_some_and(|codes| {
            codes
                .iter()
                .filter_map(Json::as_str)
                .any(|c| NETWORK_CODES.contains(&c))
        });
    fetch_failed || coded
}

/// `text` in deltas of at most `piece` characters (one empty text is one empty delta).
pub(crate) fn pieces(text: &str, piece: usize) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    if chars.is_empty() {
        return vec![String::new()];
    }
    chars
        .chunks(piece.max(1))
        .map(|c| c.iter().collect())
        .collect()
}

/// A `doGenerate` result ([`generate_result`]) as `doStream`'s parts, in order: `stream-start`,
/// `response-metadata` (with the response id, when there is one), each text and reasoning part as start, deltas and end (`text-0`,
/// `reasoning-1`, … by position), each tool call as its input's start, deltas and end then the
/// `tool-call`, and `finish` with the finish reason and usage.
pub fn stream_parts(result: &Json) -> Vec<Json> {
    stream_parts_in(result, PIECE)
}

/// [`stream_parts`] with deltas of at most `piece` characters.
pub fn stream_parts_in(result: &Json, piece: usize) -> Vec<Json> {
    let part = |kind: String, id: &Json, extra: Option<(&str, Json)>| {
        let mut m = Map::new();
        m.insert("type".into(), Json::String(kind));
        m.insert("id".into(), id.clone());
        if let Some((k, v)) = extra {
            m.insert(k.into(), v);
        }
        Json::Object(m)
    };
    let mut parts = vec![obj([
        ("type", "stream-start".into()),
        ("warnings", Json::Array(Vec::new())),
    ])];
    if let Some(id) = result.pointer("/response/id") {
        parts.push(obj([
            ("type", "response-metadata".into()),
            ("id", id.clone()),
        ]));
    }
    for (i, content) in result
        .get("content")
        .and_then(Json::as_array)
        .into_iter()
        .flatten()
        .enumerate()
    {
        match content.get("type").and_then(Json::as_str) {
            Some(kind @ ("text" | "reasoning")) => {
                let id = Json::String(format!("{kind}-{i}"));
                parts.push(part(format!("{kind}-start"), &id, None));
                for delta in pieces(
                    content.get("text").and_then(Json::as_str).unwrap_or(""),
                    piece,
                ) {
                    let delta = Some(("delta", delta.into()));
                    parts.push(part(format!("{kind}-delta"), &id, delta));
                }
                parts.push(part(format!("{kind}-end"), &id, None));
            }
            Some("tool-call") => {
                let id = content.get("toolCallId").cloned().unwrap_or(Json::Null);
                let name = content.get("toolName").cloned().unwrap_or(Json::Null);
                parts.push(part(
                    "tool-input-start".into(),
                    &id,
                    Some(("toolName", name)),
                ));
                for delta in pieces(
                    content.get("input").and_then(Json::as_str).unwrap_or(""),
                    piece,
                ) {
                    let delta = Some(("delta", delta.into()));
                    parts.push(part("tool-input-delta".into(), &id, delta));
                }
                parts.push(part("tool-input-end".into(), &id, None));
                parts.push(content.clone());
            }
            _ => parts.push(content.clone()),
        }
    }
    parts.push(obj([
        ("type", "finish".into()),
        (
            "finishReason",
            result.get("finishReason").cloned().unwrap_or(Json::Null),
        ),
        ("usage", result.get("usage").cloned().unwrap_or(Json::Null)),
    ]));
    parts
}

/// The fields of the `APICallError` a scripted error becomes (`{ status?, message, advice? }`,
/// `advice` being `modelError`'s retry advice): `statusCode`, `isRetryable` (the advice's
/// `suggested`, else the SDK's rule: 408, 409, 429 and 5xx), and `responseHeaders` with
/// `retry-after-ms` from the advice's `retryAfterMs`, which the SDK's retries wait for.
pub fn api_call_error(error: &Json) -> Json {
    let status = error.get("status").and_then(Json::as_u64);
    let advice = error.get("advice");
    let suggested = advice
        .and_then(|a| a.get("suggested"))
        .and_then(Json::as_bool);
    let retryable = suggested.unwrap_or_else(|| {
        status.map_or_else(
            || is_network_failure(error),
            |s| s == 408 || s == 409 || s == 429 || s >= 500,
        )
    });
    let mut headers = Map::new();
    if let Some(ms) = advice
        .and_then(|a| a.get("retryAfterMs"))
        .and_then(Json::as_f64)
    {
        headers.insert("retry-after-ms".into(), Json::String(format!("{ms}")));
    }
    obj([
        ("statusCode", status.map_or(Json::Null, Json::from)),
        ("isRetryable", retryable.into()),
        ("responseHeaders", Json::Object(headers)),
    ])
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn output_items_become_content_parts_and_a_finish_reason() {
        let response = json!({
            "output": [
                {"type": "reasoning", "content": [{"type": "input_text", "text": "think"}]},
                {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "Let me look."}]},
                {"type": "function_call", "callId": "c1", "name": "weather", "arguments": "{\"city\":\"Paris\"}"},
            ],
            "usage": {"inputTokens": 10, "outputTokens": 7, "inputTokensDetails": [{"cached_tokens": 4}], "outputTokensDetails": [{"reasoning_tokens": 2}]},
            "responseId": "scripted-response-1",
        });
        let result = generate_result(&response, 0).unwrap();
        assert_eq!(
            result["content"],
            json!([
                {"type": "reasoning", "text": "think"},
                {"type": "text", "text": "Let me look."},
                {"type": "tool-call", "toolCallId": "c1", "toolName": "weather", "input": "{\"city\":\"Paris\"}"},
            ])
        );
        assert_eq!(
            result["finishReason"],
            json!({"unified": "tool-calls", "raw": "tool_calls"})
        );
        assert_eq!(
            result["usage"],
            json!({"inputTokens": {"total": 10, "noCache": 6, "cacheRead": 4, "cacheWrite": 0}, "outputTokens": {"total": 7, "text": 5, "reasoning": 2}})
        );
        let e = generate_result(&json!({"output": [{"type": "hosted_tool_call"}]}), 2).unwrap_err();
        assert!(
            e.message
                .starts_with("scriptedLanguageModel: call #3: part 0 is a `hosted_tool_call`"),
            "{}",
            e.message
        );
    }

    #[test]
    fn answers_are_checked_when_queued_and_each_refusal_names_the_fix() {
        let ok = json!([
            {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "x"}]},
            {"type": "function_call", "name": "a", "arguments": "{}"},
            {"type": "reasoning", "content": [{"type": "input_text", "text": "r"}]},
        ]);
        assert_eq!(check_answer(&ok), Ok(()));
        assert_eq!(
            check_answer(
                &json!({"output": [], "usage": {"inputTokens": 1, "outputTokens": {"total": 2}}})
            ),
            Ok(())
        );
        let refused = |answer: Json| check_answer(&answer).unwrap_err();
        let object_text = refused(
            json!([{"type": "message", "content": [{"type": "output_text", "text": {"category": "billing"}}]}]),
        );
        assert!(object_text.contains("objectStep(value)"), "{object_text}");
        assert!(refused(json!([{"type": "text", "text": "hi"}])).contains("textStep"));
        assert!(refused(json!([{"type": "tool-call", "toolName": "t"}]))
            .contains("toolCall(name, input)"));
        assert!(
            refused(json!([{"type": "reasoning", "text": "r"}])).contains("AI SDK content part")
        );
        assert!(refused(json!([{"type": "text-delta", "delta": "h"}])).contains("modelStream"));
        assert!(
            refused(json!([{"type": "function_call", "name": "t", "arguments": {"a": 1}}]))
                .contains("not JSON text")
        );
        assert!(refused(json!(["hello"])).contains("without a `type`"));
        let older = refused(json!({"output": [], "usage": {"promptTokens": 3}}));
        assert!(
            older.contains("usage.promptTokens") && older.contains("write inputTokens"),
            "{older}"
        );
        let unknown = refused(json!({"output": [], "usage": {"tokens": 3}}));
        assert!(
            unknown.contains("usage.tokens is not a usage count"),
            "{unknown}"
        );
    }

    #[test]
    fn a_network_failure_without_a_status_is_retried_as_the_sdk_retries_one() {
        let retryable = |facts: Json| api_call_error(&facts)["isRetryable"] == json!(true);
        assert!(retryable(
            json!({"name": "TypeError", "message": "fetch failed"})
        ));
        assert!(retryable(
            json!({"name": "TypeError", "message": "Failed to fetch"})
        ));
        assert!(retryable(
            json!({"name": "Error", "message": "socket", "codes": ["ECONNRESET"]})
        ));
        assert!(!retryable(
            json!({"name": "Error", "message": "fetch failed"})
        ));
        assert!(!retryable(
            json!({"name": "Error", "message": "bad", "codes": ["EACCES"]})
        ));
        // A status, or the advice, decides first.
        assert!(!retryable(
            json!({"name": "TypeError", "message": "fetch failed", "status": 400})
        ));
        assert!(!retryable(
            json!({"name": "TypeError", "message": "fetch failed", "advice": {"suggested": false}})
        ));
    }

    #[test]
    fn a_call_to_a_tool_not_offered_is_refused_naming_the_offered_ones() {
        let answer = json!([
            {"type": "message", "content": [{"type": "output_text", "text": "x"}]},
            {"type": "function_call", "name": "wether", "arguments": "{}"},
        ]);
        let offered = ["weather".to_string(), "search".to_string()];
        let refused = check_offered(&answer, &offered).unwrap_err();
        assert!(refused.contains("part 1 calls tool `wether`"), "{refused}");
        assert!(
            refused.contains("offered: `weather`, `search`"),
            "{refused}"
        );
        assert!(check_offered(&answer, &[])
            .unwrap_err()
            .contains("it offered no tools"));
        assert_eq!(check_offered(&answer, &["wether".to_string()]), Ok(()));
        let complete =
            json!({"output": [{"type": "function_call", "name": "a", "arguments": "{}"}]});
        assert!(check_offered(&complete, &offered).is_err());
        // To an HTTP user, in a request's words.
        let http = check_offered_by(
            &answer,
            &offered,
            crate::doubles::model::Surface::ProviderServer,
        )
        .unwrap_err();
        assert!(http.contains("the `tools` the request sends"), "{http}");
        assert!(http.contains("give providerServer the option"), "{http}");
        assert!(!http.contains("activeTools"), "{http}");
    }

    #[test]
    fn a_tool_call_without_an_id_is_named_by_its_call_and_place() {
        let response = json!([
            {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "x"}]},
            {"type": "function_call", "name": "a", "arguments": "{}"},
            {"type": "function_call", "name": "b", "callId": "mine", "arguments": "{}"},
        ]);
        let result = generate_result(&response, 2).unwrap();
        assert_eq!(result["content"][1]["toolCallId"], "call-3-1");
        assert_eq!(result["content"][2]["toolCallId"], "mine");
        let parts = stream_parts(&result);
        let ids: Vec<&Json> = parts
            .iter()
            .filter(|p| p["type"] == "tool-call")
            .map(|p| &p["toolCallId"])
            .collect();
        assert_eq!(ids, [&json!("call-3-1"), &json!("mine")]);
    }

    #[test]
    fn the_delta_size_is_the_models_to_choose() {
        let result = generate_result(
            &json!([{"type": "message", "content": [{"type": "output_text", "text": "abcdefg"}]},
                    {"type": "function_call", "callId": "c", "name": "t", "arguments": "{\"q\":1}"}]),
            0,
        )
        .unwrap();
        let deltas = |piece| -> Vec<String> {
            stream_parts_in(&result, piece)
                .iter()
                .filter(|p| p["type"] == "text-delta" || p["type"] == "tool-input-delta")
                .map(|p| p["delta"].as_str().unwrap().to_string())
                .collect()
        };
        assert_eq!(deltas(3), ["abc", "def", "g", "{\"q", "\":1", "}"]);
        assert_eq!(deltas(1).len(), 7 + 7);
        assert_eq!(deltas(1000), ["abcdefg", "{\"q\":1}"]);
        assert_eq!(stream_parts(&result), stream_parts_in(&result, PIECE));
    }

    #[test]
    fn a_stream_is_well_formed_with_ids_and_pieces() {
        let result = generate_result(
            &json!({"responseId": "r1", "output": [
                {"type": "message", "content": [{"type": "output_text", "text": "Hello there, how are you today?"}]},
                {"type": "function_call", "callId": "c1", "name": "t", "arguments": "{\"query\":\"a long query\"}"},
            ]}),
            0,
        )
        .unwrap();
        let parts = stream_parts(&result);
        let types: Vec<&str> = parts.iter().map(|p| p["type"].as_str().unwrap()).collect();
        assert_eq!(
            types,
            [
                "stream-start",
                "response-metadata",
                "text-start",
                "text-delta",
                "text-delta",
                "text-delta",
                "text-end",
                "tool-input-start",
                "tool-input-delta",
                "tool-input-delta",
                "tool-input-end",
                "tool-call",
                "finish",
            ]
        );
        let text: String = parts
            .iter()
            .filter(|p| p["type"] == "text-delta")
            .map(|p| p["delta"].as_str().unwrap())
            .collect();
        assert_eq!(text, "Hello there, how are you today?");
        assert!(parts
            .iter()
            .filter(|p| p["type"] == "text-delta")
            .all(|p| p["id"] == "text-0"));
        assert_eq!(
            parts.last().unwrap()["finishReason"]["unified"],
            "tool-calls"
        );
    }

    #[test]
    fn a_scripted_error_carries_what_the_sdk_retries_on() {
        assert_eq!(
            api_call_error(&json!({"status": 429, "advice": {"retryAfterMs": 10}})),
            json!({"statusCode": 429, "isRetryable": true, "responseHeaders": {"retry-after-ms": "10"}})
        );
        assert_eq!(
            api_call_error(&json!({"status": 400}))["isRetryable"],
            false
        );
        assert_eq!(
            api_call_error(&json!({"status": 400, "advice": {"suggested": true}}))["isRetryable"],
            true
        );
        assert_eq!(
            api_call_error(&json!({"status": 503, "advice": {"suggested": false}}))["isRetryable"],
            false
        );
    }
}
