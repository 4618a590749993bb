//! A scripted answer (the step builders' parts, or `{ output, usage?, responseId? }`) in each
//! provider's wire format: one JSON body, or the provider's stream of events (OpenAI Responses'
//! typed events, Chat Completions chunks ending in `[DONE]`, Anthropic's message and content
//! block events, Gemini's candidates as server-sent events or one JSON array). Text, tool
//! input and reasoning stream in deltas of at most `piece` characters; ids are the call's own
//! (`call-<call>-<position>` for a tool call without one, as the AI SDK double names it).

use serde_json::{json, Map, Value as Json};

use super::{Body, Endpoint, Reply, Route};
use crate::doubles::ai_sdk::pieces;
use crate::doubles::display_index;

/// One part of an answer, as every provider writes it.
#[derive(Clone, Debug, PartialEq)]
enum Part {
    Text {
        text: String,
        refusal: bool,
    },
    Call {
        id: String,
        name: String,
        input: String,
    },
    Reasoning {
        text: String,
    },
}

/// Token counts: input (cached ones included), cached input, output (reasoning included),
/// reasoning.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Counts {
    input: u64,
    cached: u64,
    output: u64,
    reasoning: u64,
}

/// What an answer says, read once.
struct Answer {
    parts: Vec<Part>,
    counts: Counts,
    id: String,
}

fn count(v: Option<&Json>) -> u64 {
    v.and_then(Json::as_f64)
        .filter(|n| n.is_finite() && *n >= 0.0)
        .map_or(0, |n| n as u64)
}

/// A `…Details` count: `{ key }` or `[{ key }]`.
fn detail(v: Option<&Json>, key: &str) -> u64 {
    let first = v.and_then(|d| d.as_array().and_then(|a| a.first()).or(Some(d)));
    count(first.and_then(|d| d.get(key)))
}

fn counts(usage: Option<&Json>) -> Counts {
    let Some(u) = usage else {
        return Counts::default();
    };
    let (input, cached) = match u.get("inputTokens") {
        Some(t @ Json::Object(_)) => (count(t.get("total")), count(t.get("cacheRead"))),
        v => (
            count(v),
            detail(u.get("inputTokensDetails"), "cached_tokens"),
        ),
    };
    let (output, reasoning) = match u.get("outputTokens") {
        Some(t @ Json::Object(_)) => (count(t.get("total")), count(t.get("reasoning"))),
        v => (
            count(v),
            detail(u.get("outputTokensDetails"), "reasoning_tokens"),
        ),
    };
    Counts {
        input,
        cached,
        output,
        reasoning,
    }
}

fn read(answer: &Json, call: usize) -> Result<Answer, String> {
    let (items, usage, id) = match answer {
        Json::Array(items) => (items.as_slice(), None, None),
        _ => (
            answer
                .get("output")
                .and_then(Json::as_array)
                .map(Vec::as_slice)
                .ok_or("the response has no `output` array")?,
            answer.get("usage"),
            answer.get("responseId").and_then(Json::as_str),
        ),
    };
    let mut parts = Vec::new();
    for (i, item) in items.iter().enumerate() {
        match item.get("type").and_then(Json::as_str).unwrap_or("") {
            "message" => {
                for p in item.get("content").and_then(Json::as_array).into_iter().flatten() {
                    let (key, refusal) = match p.get("type").and_then(Json::as_str) {
                        Some("output_text") => ("text", false),
                        Some("refusal") => ("refusal", true),
                        other => {
                            return Err(format!(
                                "part {i} is a message holding a `{}` part (script `output_text` or `refusal`)",
                                other.unwrap_or("?")
                            ))
                        }
                    };
                    let text = p.get(key).and_then(Json::as_str).unwrap_or("").to_string();
                    parts.push(Part::Text { text, refusal });
                }
            }
            "function_call" => {
                let input = match item.get("arguments") {
                    Some(Json::String(t)) => t.clone(),
                    Some(other) => other.to_string(),
                    None => "{}".into(),
                };
                let id = item
                    .get("callId")
                    .and_then(Json::as_str)
                    .map_or_else(|| format!("call-{}-{i}", display_index(call)), str::to_string);
                let name = item.get("name").and_then(Json::as_str).unwrap_or("").to_string();
                parts.push(Part::Call { id, name, input });
            }
            "reasoning" => {
                let text: Vec<&str> = ["content", "rawContent"]
                    .iter()
                    .filter_map(|k| item.get(*k).and_then(Json::as_array))
                    .flatten()
                    .filter_map(|p| p.get("text").and_then(Json::as_str))
                    .collect();
                parts.push(Part::Reasoning {
                    text: text.join("\n"),
                });
            }
            other => {
                return Err(format!(
                    "part {i} is a `{other}`, which no provider API answers (script assistantMessage, toolCall or reasoning parts)"
                ))
            }
        }
    }
    Ok(Answer {
        parts,
        counts: counts(usage),
        id: id.map_or_else(
            || crate::doubles::model::scripted_response_id(call),
            str::to_string,
        ),
    })
}

/// A server-sent event (`event:` only where the provider names its events).
fn sse(event: Option<&str>, data: &Json) -> String {
    match event {
        Some(e) => format!("event: {e}\ndata: {data}\n\n"),
        None => format!("data: {data}\n\n"),
    }
}

fn event_stream(events: Vec<String>) -> Reply {
    Reply {
        status: 200,
        headers: vec![
            ("content-type".into(), "text/event-stream".into()),
            ("cache-control".into(), "no-cache".into()),
        ],
        body: Body::Stream(events),
    }
}

/// A tool input as the providers that send objects send it: the parsed JSON object; `Err` for
/// text that is not one (those providers cannot send it).
fn input_object(name: &str, input: &str, provider: &str) -> Result<Json, String> {
    match serde_json::from_str::<Json>(input) {
        Ok(v @ Json::Object(_)) => Ok(v),
        _ => Err(format!(
            "the call to `{name}` has input that is not a JSON object ({input:?}); {provider} sends a tool's input as an object, so broken input can only be scripted for an OpenAI endpoint or a streamed Anthropic call"
        )),
    }
}

/// A request's answer (`streamed`: the request asked for a stream; `include_usage`: Chat's
/// `stream_options.include_usage`). `Err` says why the answer has no form at this endpoint.
pub fn write(
    route: &Route,
    streamed: bool,
    model: &str,
    answer: &Json,
    call: usize,
    piece: usize,
    include_usage: bool,
) -> Result<Reply, String> {
    let a = read(answer, call)?;
    match (route.endpoint, streamed) {
        (Endpoint::Responses, false) => {
            Ok(Reply::json(200, &responses_body(&a, model, "completed")))
        }
        (Endpoint::Responses, true) => Ok(event_stream(responses_events(&a, model, piece))),
        (Endpoint::Chat, false) => Ok(Reply::json(200, &chat_body(&a, model))),
        (Endpoint::Chat, true) => Ok(event_stream(chat_events(&a, model, piece, include_usage))),
        (Endpoint::Messages, false) => Ok(Reply::json(200, &anthropic_body(&a, model)?)),
        (Endpoint::Messages, true) => Ok(event_stream(anthropic_events(&a, model, piece))),
        (Endpoint::Gemini, false) => Ok(Reply::json(
            200,
            &gemini_chunk(&a, model, gemini_parts(&a.parts)?, true),
        )),
        (Endpoint::Gemini, true) => gemini_stream(&a, model, piece, route.sse),
    }
}

const CREATED: u64 = 1_767_225_600;

// ---- OpenAI Responses ----

fn responses_usage(c: Counts) -> Json {
    json!({
        "input_tokens": c.input,
        "input_tokens_details": { "cached_tokens": c.cached },
        "output_tokens": c.output,
        "output_tokens_details": { "reasoning_tokens": c.reasoning },
        "total_tokens": c.input + c.output,
    })
}

/// The output items; `done: false` writes them as `response.output_item.added` shows them.
fn responses_item(a: &Answer, i: usize, done: bool) -> Json {
    let status = if done { "completed" } else { "in_progress" };
    match &a.parts[i] {
        Part::Text { text, refusal } => {
            let content = if !done {
                json!([])
            } else if *refusal {
                json!([{ "type": "refusal", "refusal": text }])
            } else {
                json!([{ "type": "output_text", "text": text, "annotations": [], "logprobs": [] }])
            };
            json!({ "type": "message", "id": format!("msg_{}_{i}", a.id), "status": status, "role": "assistant", "content": content })
        }
        Part::Call { id, name, input } => json!({
            "type": "function_call", "id": format!("fc_{}_{i}", a.id), "call_id": id, "name": name,
            "arguments": if done { input.as_str() } else { "" }, "status": status,
        }),
        Part::Reasoning { text } => json!({
            "type": "reasoning", "id": format!("rs_{}_{i}", a.id),
            "summary": if done { json!([{ "type": "summary_text", "text": text }]) } else { json!([]) },
        }),
    }
}

fn responses_body(a: &Answer, model: &str, status: &str) -> Json {
    let done = status == "completed";
    let output: Vec<Json> = if done {
        (0..a.parts.len())
            .map(|i| responses_item(a, i, true))
            .collect()
    } else {
        Vec::new()
    };
    json!({
        "id": a.id, "object": "response", "created_at": CREATED, "status": status,
        "error": null, "incomplete_details": null, "model": model, "output": output,
        "parallel_tool_calls": true, "tools": [], "tool_choice": "auto",
        "usage": if done { responses_usage(a.counts) } else { Json::Null },
    })
}

fn responses_events(a: &Answer, model: &str, piece: usize) -> Vec<String> {
    let mut events: Vec<Json> = vec![
        json!({ "type": "response.created", "response": responses_body(a, model, "in_progress") }),
        json!({ "type": "response.in_progress", "response": responses_body(a, model, "in_progress") }),
    ];
    for (i, part) in a.parts.iter().enumerate() {
        let item_id = responses_item(a, i, true)["id"].clone();
        events.push(json!({ "type": "response.output_item.added", "output_index": i, "item": responses_item(a, i, false) }));
        match part {
            Part::Text {
                text,
                refusal: false,
            } => {
                let empty =
                    json!({ "type": "output_text", "text": "", "annotations": [], "logprobs": [] });
                events.push(json!({ "type": "response.content_part.added", "item_id": item_id, "output_index": i, "content_index": 0, "part": empty }));
                for delta in pieces(text, piece) {
                    events.push(json!({ "type": "response.output_text.delta", "item_id": item_id, "output_index": i, "content_index": 0, "delta": delta, "logprobs": [] }));
                }
                events.push(json!({ "type": "response.output_text.done", "item_id": item_id, "output_index": i, "content_index": 0, "text": text, "logprobs": [] }));
                let full = json!({ "type": "output_text", "text": text, "annotations": [], "logprobs": [] });
                events.push(json!({ "type": "response.content_part.done", "item_id": item_id, "output_index": i, "content_index": 0, "part": full }));
            }
            Part::Text {
                text,
                refusal: true,
            } => {
                for delta in pieces(text, piece) {
                    events.push(json!({ "type": "response.refusal.delta", "item_id": item_id, "output_index": i, "content_index": 0, "delta": delta }));
                }
                events.push(json!({ "type": "response.refusal.done", "item_id": item_id, "output_index": i, "content_index": 0, "refusal": text }));
            }
            Part::Call { input, .. } => {
                for delta in pieces(input, piece) {
                    events.push(json!({ "type": "response.function_call_arguments.delta", "item_id": item_id, "output_index": i, "delta": delta }));
                }
                events.push(json!({ "type": "response.function_call_arguments.done", "item_id": item_id, "output_index": i, "arguments": input }));
            }
            Part::Reasoning { text } => {
                events.push(json!({ "type": "response.reasoning_summary_part.added", "item_id": item_id, "output_index": i, "summary_index": 0, "part": { "type": "summary_text", "text": "" } }));
                for delta in pieces(text, piece) {
                    events.push(json!({ "type": "response.reasoning_summary_text.delta", "item_id": item_id, "output_index": i, "summary_index": 0, "delta": delta }));
                }
                events.push(json!({ "type": "response.reasoning_summary_text.done", "item_id": item_id, "output_index": i, "summary_index": 0, "text": text }));
                events.push(json!({ "type": "response.reasoning_summary_part.done", "item_id": item_id, "output_index": i, "summary_index": 0, "part": { "type": "summary_text", "text": text } }));
            }
        }
        events.push(json!({ "type": "response.output_item.done", "output_index": i, "item": responses_item(a, i, true) }));
    }
    events.push(
        json!({ "type": "response.completed", "response": responses_body(a, model, "completed") }),
    );
    events
        .into_iter()
        .enumerate()
        .map(|(n, mut e)| {
            e["sequence_number"] = n.into();
            let kind = e["type"].as_str().unwrap_or("").to_string();
            sse(Some(&kind), &e)
        })
        .collect()
}

// ---- OpenAI Chat Completions ----

fn chat_usage(c: Counts) -> Json {
    json!({
        "prompt_tokens": c.input, "completion_tokens": c.output, "total_tokens": c.input + c.output,
        "prompt_tokens_details": { "cached_tokens": c.cached },
        "completion_tokens_details": { "reasoning_tokens": c.reasoning },
    })
}

fn has_calls(a: &Answer) -> bool {
    a.parts.iter().any(|p| matches!(p, Part::Call { .. }))
}

fn chat_finish(a: &Answer) -> &'static str {
    if has_calls(a) {
        "tool_calls"
    } else {
        "stop"
    }
}

fn joined(a: &Answer, want_refusal: bool) -> Option<String> {
    let texts: Vec<&str> = a
        .parts
        .iter()
        .filter_map(|p| match p {
            Part::Text { text, refusal } if *refusal == want_refusal => Some(text.as_str()),
            _ => None,
        })
        .collect();
    (!texts.is_empty()).then(|| texts.concat())
}

fn reasoning_text(a: &Answer) -> Option<String> {
    let texts: Vec<&str> = a
        .parts
        .iter()
        .filter_map(|p| match p {
            Part::Reasoning { text } => Some(text.as_str()),
            _ => None,
        })
        .collect();
    (!texts.is_empty()).then(|| texts.join("\n"))
}

fn calls(a: &Answer) -> impl Iterator<Item = (&String, &String, &String)> {
    a.parts.iter().filter_map(|p| match p {
        Part::Call { id, name, input } => Some((id, name, input)),
        _ => None,
    })
}

fn chat_body(a: &Answer, model: &str) -> Json {
    let mut message =
        json!({ "role": "assistant", "content": joined(a, false), "refusal": joined(a, true) });
    if let Some(r) = reasoning_text(a) {
        message["reasoning_content"] = r.into();
    }
    let tool_calls: Vec<Json> = calls(a)
        .map(|(id, name, input)| json!({ "id": id, "type": "function", "function": { "name": name, "arguments": input } }))
        .collect();
    if !tool_calls.is_empty() {
        message["tool_calls"] = Json::Array(tool_calls);
    }
    json!({
        "id": a.id, "object": "chat.completion", "created": CREATED, "model": model,
        "choices": [{ "index": 0, "message": message, "finish_reason": chat_finish(a), "logprobs": null }],
        "usage": chat_usage(a.counts),
    })
}

fn chat_events(a: &Answer, model: &str, piece: usize, include_usage: bool) -> Vec<String> {
    let chunk = |delta: Json, finish: Json| {
        let mut c = json!({ "id": a.id, "object": "chat.completion.chunk", "created": CREATED, "model": model,
            "choices": [{ "index": 0, "delta": delta, "finish_reason": finish, "logprobs": null }] });
        if include_usage {
            c["usage"] = Json::Null;
        }
        sse(None, &c)
    };
    let mut events = vec![chunk(
        json!({ "role": "assistant", "content": "" }),
        Json::Null,
    )];
    if let Some(r) = reasoning_text(a) {
        for p in pieces(&r, piece) {
            events.push(chunk(json!({ "reasoning_content": p }), Json::Null));
        }
    }
    for p in &a.parts {
        if let Part::Text { text, refusal } = p {
            let key = if *refusal { "refusal" } else { "content" };
            for piece in pieces(text, piece) {
                let mut delta = Map::new();
                delta.insert(key.into(), piece.into());
                events.push(chunk(Json::Object(delta), Json::Null));
            }
        }
    }
    for (index, (id, name, input)) in calls(a).enumerate() {
        let parts = pieces(input, piece);
        events.push(chunk(
            json!({ "tool_calls": [{ "index": index, "id": id, "type": "function", "function": { "name": name, "arguments": parts[0] } }] }),
            Json::Null,
        ));
        for p in &parts[1..] {
            events.push(chunk(
                json!({ "tool_calls": [{ "index": index, "function": { "arguments": p } }] }),
                Json::Null,
            ));
        }
    }
    events.push(chunk(json!({}), chat_finish(a).into()));
    if include_usage {
        let last = json!({ "id": a.id, "object": "chat.completion.chunk", "created": CREATED, "model": model, "choices": [], "usage": chat_usage(a.counts) });
        events.push(sse(None, &last));
    }
    events.push("data: [DONE]\n\n".into());
    events
}

// ---- Anthropic Messages ----

fn anthropic_stop(a: &Answer) -> &'static str {
    if has_calls(a) {
        "tool_use"
    } else {
        "end_turn"
    }
}

fn anthropic_usage(c: Counts, output: u64) -> Json {
    json!({
        "input_tokens": c.input.saturating_sub(c.cached), "output_tokens": output,
        "cache_creation_input_tokens": 0, "cache_read_input_tokens": c.cached,
    })
}

/// A thinking block's signature (a client sends it back with the block; any text will do).
fn signature(a: &Answer, i: usize) -> String {
    format!("scripted-signature-{}-{i}", a.id)
}

fn anthropic_body(a: &Answer, model: &str) -> Result<Json, String> {
    let mut content = Vec::new();
    for (i, p) in a.parts.iter().enumerate() {
        content.push(match p {
            Part::Text { text, .. } => json!({ "type": "text", "text": text }),
            Part::Reasoning { text } => json!({ "type": "thinking", "thinking": text, "signature": signature(a, i) }),
            Part::Call { id, name, input } => json!({ "type": "tool_use", "id": id, "name": name, "input": input_object(name, input, "Anthropic")? }),
        });
    }
    Ok(json!({
        "id": a.id, "type": "message", "role": "assistant", "model": model, "content": content,
        "stop_reason": anthropic_stop(a), "stop_sequence": null, "usage": anthropic_usage(a.counts, a.counts.output),
    }))
}

fn anthropic_events(a: &Answer, model: &str, piece: usize) -> Vec<String> {
    let mut events = vec![json!({ "type": "message_start", "message": {
        "id": a.id, "type": "message", "role": "assistant", "model": model, "content": [],
        "stop_reason": null, "stop_sequence": null, "usage": anthropic_usage(a.counts, 0),
    } })];
    for (index, p) in a.parts.iter().enumerate() {
        let (block, deltas): (Json, Vec<Json>) = match p {
            Part::Text { text, .. } => (
                json!({ "type": "text", "text": "" }),
                pieces(text, piece)
                    .into_iter()
                    .map(|t| json!({ "type": "text_delta", "text": t }))
                    .collect(),
            ),
            Part::Reasoning { text } => {
                let mut d: Vec<Json> = pieces(text, piece)
                    .into_iter()
                    .map(|t| json!({ "type": "thinking_delta", "thinking": t }))
                    .collect();
                d.push(json!({ "type": "signature_delta", "signature": signature(a, index) }));
                (
                    json!({ "type": "thinking", "thinking": "", "signature": "" }),
                    d,
                )
            }
            Part::Call { id, name, input } => (
                json!({ "type": "tool_use", "id": id, "name": name, "input": {} }),
                pieces(input, piece)
                    .into_iter()
                    .map(|t| json!({ "type": "input_json_delta", "partial_json": t }))
                    .collect(),
            ),
        };
        events
            .push(json!({ "type": "content_block_start", "index": index, "content_block": block }));
        for delta in deltas {
            events.push(json!({ "type": "content_block_delta", "index": index, "delta": delta }));
        }
        events.push(json!({ "type": "content_block_stop", "index": index }));
    }
    events.push(json!({ "type": "message_delta", "delta": { "stop_reason": anthropic_stop(a), "stop_sequence": null }, "usage": { "output_tokens": a.counts.output } }));
    events.push(json!({ "type": "message_stop" }));
    events
        .iter()
        .map(|e| sse(Some(e["type"].as_str().unwrap_or("")), e))
        .collect()
}

// ---- Gemini ----

fn gemini_usage(c: Counts) -> Json {
    let mut u = json!({
        "promptTokenCount": c.input, "candidatesTokenCount": c.output.saturating_sub(c.reasoning),
        "totalTokenCount": c.input + c.output,
    });
    if c.cached > 0 {
        u["cachedContentTokenCount"] = c.cached.into();
    }
    if c.reasoning > 0 {
        u["thoughtsTokenCount"] = c.reasoning.into();
    }
    u
}

fn gemini_parts(parts: &[Part]) -> Result<Vec<Json>, String> {
    parts
        .iter()
        .map(|p| {
            Ok(match p {
                Part::Text { text, .. } => json!({ "text": text }),
                Part::Reasoning { text } => json!({ "text": text, "thought": true }),
                Part::Call { name, input, .. } => json!({ "functionCall": { "name": name, "args": input_object(name, input, "Gemini")? } }),
            })
        })
        .collect()
}

fn gemini_chunk(a: &Answer, model: &str, parts: Vec<Json>, last: bool) -> Json {
    let mut candidate = json!({ "content": { "role": "model", "parts": parts }, "index": 0 });
    if last {
        candidate["finishReason"] = "STOP".into();
    }
    json!({ "candidates": [candidate], "usageMetadata": gemini_usage(a.counts), "modelVersion": model, "responseId": a.id })
}

fn gemini_stream(a: &Answer, model: &str, piece: usize, as_sse: bool) -> Result<Reply, String> {
    let mut chunks = Vec::new();
    for p in &a.parts {
        match p {
            Part::Text { text, .. } | Part::Reasoning { text } => {
                let thought = matches!(p, Part::Reasoning { .. });
                for t in pieces(text, piece) {
                    let part = if thought {
                        json!({ "text": t, "thought": true })
                    } else {
                        json!({ "text": t })
                    };
                    chunks.push(vec![part]);
                }
            }
            Part::Call { .. } => chunks.push(gemini_parts(std::slice::from_ref(p))?),
        }
    }
    if chunks.is_empty() {
        chunks.push(vec![json!({ "text": "" })]);
    }
    let n = chunks.len();
    let values: Vec<Json> = chunks
        .into_iter()
        .enumerate()
        .map(|(i, parts)| gemini_chunk(a, model, parts, i + 1 == n))
        .collect();
    if as_sse {
        return Ok(event_stream(values.iter().map(|v| sse(None, v)).collect()));
    }
    // Without `alt=sse`, one JSON array, written in pieces as it streams.
    let mut pieces_out = Vec::with_capacity(n);
    for (i, v) in values.iter().enumerate() {
        let open = if i == 0 { "[" } else { ",\r\n" };
        let close = if i + 1 == n { "]" } else { "" };
        pieces_out.push(format!("{open}{v}{close}"));
    }
    Ok(Reply {
        status: 200,
        headers: vec![("content-type".into(), "application/json".into())],
        body: Body::Stream(pieces_out),
    })
}
