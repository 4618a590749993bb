//! A request body in a provider-neutral form, what a responder of `scriptedFetch` receives:
//! `{ endpoint, provider, model, stream, system?, messages, tools, toolChoice?,
//! responseSchema? }`. Messages are `{ role, content: [parts] }` in the AI SDK's words: `text`,
//! `reasoning`, `tool-call` (`toolCallId`, `toolName`, `input` parsed where it is JSON text),
//! `tool-result` (`toolCallId`, `toolName?`, `output`); tools are `{ name, description?,
//! inputSchema, strict? }`. What a provider's body holds beyond these stays in the raw body.

use serde_json::{Map, Value as Json};

use super::Endpoint;

fn obj<const N: usize>(pairs: [(&str, Json); N]) -> Json {
    Json::Object(pairs.into_iter().map(|(k, v)| (k.to_string(), v)).collect())
}

fn text_part(text: &str) -> Json {
    obj([("type", "text".into()), ("text", text.into())])
}

/// The text of a content value: a string, or the texts of its parts (`text` of each).
fn joined_text(content: &Json) -> Option<String> {
    match content {
        Json::String(s) => Some(s.clone()),
        Json::Array(parts) => {
            let texts: Vec<&str> = parts
                .iter()
                .filter_map(|p| p.get("text").and_then(Json::as_str))
                .collect();
            (!texts.is_empty()).then(|| texts.join(""))
        }
        _ => None,
    }
}

/// A tool input or result as a value: JSON text parsed, anything else as it is.
fn value_of_text(v: Option<&Json>) -> Json {
    match v {
        Some(Json::String(s)) => {
            serde_json::from_str(s).unwrap_or_else(|_| Json::String(s.clone()))
        }
        Some(v) => v.clone(),
        None => Json::Object(Map::new()),
    }
}

fn str_of(v: Option<&Json>) -> Json {
    v.and_then(Json::as_str).map_or(Json::Null, |s| s.into())
}

fn tool_call(id: Option<&Json>, name: Option<&Json>, input: Json) -> Json {
    obj([
        ("type", "tool-call".into()),
        ("toolCallId", str_of(id)),
        ("toolName", str_of(name)),
        ("input", input),
    ])
}

fn tool_result(id: Option<&Json>, name: Option<&Json>, output: Json) -> Json {
    let mut out = obj([
        ("type", "tool-result".into()),
        ("toolCallId", str_of(id)),
        ("output", output),
    ]);
    if let Some(name) = name.and_then(Json::as_str) {
        out["toolName"] = name.into();
    }
    out
}

fn message(role: &str, content: Vec<Json>) -> Json {
    obj([("role", role.into()), ("content", Json::Array(content))])
}

/// Appends `part` to the last message when it has `role`, else starts one.
fn push_part(messages: &mut Vec<Json>, role: &str, part: Json) {
    if let Some(last) = messages.last_mut() {
        if last["role"] == role {
            if let Some(Json::Array(content)) = last.get_mut("content") {
                content.push(part);
                return;
            }
        }
    }
    messages.push(message(role, vec![part]));
}

fn items(v: Option<&Json>) -> &[Json] {
    v.and_then(Json::as_array).map_or(&[], Vec::as_slice)
}

/// The body of a request to `endpoint` in the neutral form.
pub fn neutral(endpoint: Endpoint, body: &Json, model: &str, stream: bool) -> Json {
    let (system, messages, tools, tool_choice, schema) = match endpoint {
        Endpoint::Responses => responses(body),
        Endpoint::Chat => chat(body),
        Endpoint::Messages => anthropic(body),
        Endpoint::Gemini => gemini(body),
    };
    let mut out = obj([
        ("endpoint", endpoint.code().into()),
        ("provider", endpoint.provider().as_str().into()),
        ("model", model.into()),
        ("stream", stream.into()),
    ]);
    if let Some(system) = system {
        out["system"] = system.into();
    }
    out["messages"] = Json::Array(messages);
    out["tools"] = Json::Array(tools);
    if let Some(choice) = tool_choice {
        out["toolChoice"] = choice;
    }
    if let Some(schema) = schema {
        out["responseSchema"] = schema;
    }
    out
}

type Parts = (
    Option<String>,
    Vec<Json>,
    Vec<Json>,
    Option<Json>,
    Option<Json>,
);

fn tool(
    name: Option<&Json>,
    description: Option<&Json>,
    schema: Option<&Json>,
    strict: Option<&Json>,
) -> Json {
    let mut t = obj([
        ("name", str_of(name)),
        ("inputSchema", schema.cloned().unwrap_or(Json::Null)),
    ]);
    if let Some(d) = description.and_then(Json::as_str) {
        t["description"] = d.into();
    }
    if let Some(s) = strict.and_then(Json::as_bool) {
        t["strict"] = s.into();
    }
    t
}

/// `auto`, `none`, `required` or `{ type: 'tool', toolName }` from each provider's spelling.
fn choice(given: Option<&Json>) -> Option<Json> {
    let given = given?;
    if let Some(s) = given.as_str() {
        let s = match s {
            "any" => "required",
            "AUTO" => "auto",
            "ANY" => "required",
            "NONE" => "none",
            other => other,
        };
        return Some(s.into());
    }
    let name = given
        .get("name")
        .or_else(|| given.pointer("/function/name"))
        .and_then(Json::as_str);
    match (given.get("type").and_then(Json::as_str), name) {
        (_, Some(name)) => Some(obj([("type", "tool".into()), ("toolName", name.into())])),
        (Some("any"), None) => Some("required".into()),
        (Some(t), None) => Some(t.into()),
        _ => Some(given.clone()),
    }
}

/// Whether an OpenAI function tool (`t`: the Responses tool, or Chat's `function` object) is
/// strict: as it says, else on the Responses API strict (it reads an omitted `strict` so), on
/// Chat Completions not.
pub fn strict_tool(endpoint: Endpoint, t: &Json) -> bool {
    t.get("strict")
        .and_then(Json::as_bool)
        .unwrap_or(endpoint == Endpoint::Responses)
}

fn responses(body: &Json) -> Parts {
    let system = body
        .get("instructions")
        .and_then(Json::as_str)
        .map(str::to_string);
    let mut messages = Vec::new();
    match body.get("input") {
        Some(Json::String(s)) => messages.push(message("user", vec![text_part(s)])),
        Some(Json::Array(input)) => {
            for item in input {
                match item.get("type").and_then(Json::as_str) {
                    Some("function_call") => push_part(
                        &mut messages,
                        "assistant",
                        tool_call(
                            item.get("call_id"),
                            item.get("name"),
                            value_of_text(item.get("arguments")),
                        ),
                    ),
                    Some("function_call_output") => push_part(
                        &mut messages,
                        "tool",
                        tool_result(item.get("call_id"), None, value_of_text(item.get("output"))),
                    ),
                    Some("reasoning") => {
                        let text: Vec<&str> = items(item.get("summary"))
                            .iter()
                            .filter_map(|p| p.get("text").and_then(Json::as_str))
                            .collect();
                        push_part(
                            &mut messages,
                            "assistant",
                            obj([
                                ("type", "reasoning".into()),
                                ("text", text.join("\n").into()),
                            ]),
                        );
                    }
                    Some("message") | None => {
                        let role = match item.get("role").and_then(Json::as_str) {
                            Some("developer") => "system",
                            Some(r) => r,
                            None => "user",
                        };
                        if let Some(text) = item.get("content").and_then(joined_text) {
                            push_part(&mut messages, role, text_part(&text));
                        }
                    }
                    Some(_) => {}
                }
            }
        }
        _ => {}
    }
    let tools = items(body.get("tools"))
        .iter()
        .filter(|t| t.get("type").and_then(Json::as_str) == Some("function"))
        .map(|t| {
            let strict = Json::Bool(strict_tool(Endpoint::Responses, t));
            tool(
                t.get("name"),
                t.get("description"),
                t.get("parameters"),
                Some(&strict),
            )
        })
        .collect();
    let format = body.pointer("/text/format");
    let schema = format
        .filter(|f| f.get("type").and_then(Json::as_str) == Some("json_schema"))
        .and_then(|f| f.get("schema").cloned());
    (
        system,
        messages,
        tools,
        choice(body.get("tool_choice")),
        schema,
    )
}

fn chat(body: &Json) -> Parts {
    let mut system = Vec::new();
    let mut messages = Vec::new();
    for m in items(body.get("messages")) {
        let role = m.get("role").and_then(Json::as_str).unwrap_or("user");
        match role {
            "system" | "developer" => {
                if let Some(t) = m.get("content").and_then(joined_text) {
                    system.push(t);
                }
            }
            "tool" => push_part(
                &mut messages,
                "tool",
                tool_result(m.get("tool_call_id"), None, value_of_text(m.get("content"))),
            ),
            _ => {
                let mut content = Vec::new();
                if let Some(r) = m.get("reasoning_content").and_then(Json::as_str) {
                    content.push(obj([("type", "reasoning".into()), ("text", r.into())]));
                }
                if let Some(t) = m.get("content").and_then(joined_text) {
                    content.push(text_part(&t));
                }
                for call in items(m.get("tool_calls")) {
                    content.push(tool_call(
                        call.get("id"),
                        call.pointer("/function/name"),
                        value_of_text(call.pointer("/function/arguments")),
                    ));
                }
                messages.push(message(role, content));
            }
        }
    }
    let tools = items(body.get("tools"))
        .iter()
        .filter(|t| t.get("type").and_then(Json::as_str) == Some("function"))
        .map(|t| {
            let f = t.get("function").unwrap_or(&Json::Null);
            tool(
                f.get("name"),
                f.get("description"),
                f.get("parameters"),
                f.get("strict"),
            )
        })
        .collect();
    let schema = body
        .get("response_format")
        .filter(|f| f.get("type").and_then(Json::as_str) == Some("json_schema"))
        .and_then(|f| f.pointer("/json_schema/schema").cloned());
    let system = (!system.is_empty()).then(|| system.join("\n"));
    (
        system,
        messages,
        tools,
        choice(body.get("tool_choice")),
        schema,
    )
}

fn anthropic(body: &Json) -> Parts {
    let system = body.get("system").and_then(joined_text);
    let mut messages = Vec::new();
    for m in items(body.get("messages")) {
        let role = m.get("role").and_then(Json::as_str).unwrap_or("user");
        let content = match m.get("content") {
            Some(Json::String(s)) => vec![text_part(s)],
            Some(Json::Array(blocks)) => {
                let mut results = Vec::new();
                let mut content = Vec::new();
                for b in blocks {
                    match b.get("type").and_then(Json::as_str) {
                        Some("text") => content.push(text_part(
                            b.get("text").and_then(Json::as_str).unwrap_or(""),
                        )),
                        Some("thinking") => content.push(obj([
                            ("type", "reasoning".into()),
                            ("text", str_of(b.get("thinking"))),
                        ])),
                        Some("tool_use") => content.push(tool_call(
                            b.get("id"),
                            b.get("name"),
                            b.get("input").cloned().unwrap_or(Json::Null),
                        )),
                        Some("tool_result") => {
                            let output = match b.get("content") {
                                Some(c) => joined_text(c).map_or_else(
                                    || c.clone(),
                                    |t| value_of_text(Some(&Json::String(t))),
                                ),
                                None => Json::Null,
                            };
                            results.push(tool_result(b.get("tool_use_id"), None, output));
                        }
                        _ => {}
                    }
                }
                // Tool results travel in a user message; here they are the tool's.
                if !results.is_empty() {
                    for r in results {
                        push_part(&mut messages, "tool", r);
                    }
                    if content.is_empty() {
                        continue;
                    }
                }
                content
            }
            _ => Vec::new(),
        };
        messages.push(message(role, content));
    }
    let tools = items(body.get("tools"))
        .iter()
        .filter(|t| matches!(t.get("type").and_then(Json::as_str), None | Some("custom")))
        .map(|t| {
            tool(
                t.get("name"),
                t.get("description"),
                t.get("input_schema"),
                t.get("strict"),
            )
        })
        .collect();
    (
        system,
        messages,
        tools,
        choice(body.get("tool_choice")),
        output_schema(body).cloned(),
    )
}

/// Anthropic's structured-output schema: `output_config.format` or the beta `output_format`.
pub fn output_schema(body: &Json) -> Option<&Json> {
    body.pointer("/output_config/format")
        .or_else(|| body.get("output_format"))
        .filter(|f| f.get("type").and_then(Json::as_str) == Some("json_schema"))
        .and_then(|f| f.get("schema"))
}

fn gemini(body: &Json) -> Parts {
    let system = body
        .get("systemInstruction")
        .or_else(|| body.get("system_instruction"))
        .and_then(|s| s.get("parts"))
        .and_then(joined_text);
    let mut messages = Vec::new();
    for c in items(body.get("contents")) {
        let role = match c.get("role").and_then(Json::as_str) {
            Some("model") => "assistant",
            _ => "user",
        };
        let mut content = Vec::new();
        let mut results = Vec::new();
        for p in items(c.get("parts")) {
            if let Some(call) = p.get("functionCall") {
                content.push(tool_call(
                    call.get("id"),
                    call.get("name"),
                    call.get("args").cloned().unwrap_or(Json::Null),
                ));
            } else if let Some(r) = p.get("functionResponse") {
                results.push(tool_result(
                    r.get("id"),
                    r.get("name"),
                    r.get("response").cloned().unwrap_or(Json::Null),
                ));
            } else if let Some(t) = p.get("text").and_then(Json::as_str) {
                let kind = if p.get("thought") == Some(&Json::Bool(true)) {
                    "reasoning"
                } else {
                    "text"
                };
                content.push(obj([("type", kind.into()), ("text", t.into())]));
            }
        }
        for r in results {
            push_part(&mut messages, "tool", r);
        }
        if !content.is_empty() {
            messages.push(message(role, content));
        }
    }
    let tools = items(body.get("tools"))
        .iter()
        .flat_map(|t| {
            items(
                t.get("functionDeclarations")
                    .or_else(|| t.get("function_declarations")),
            )
        })
        .map(|d| {
            tool(
                d.get("name"),
                d.get("description"),
                d.get("parameters")
                    .or_else(|| d.get("parametersJsonSchema")),
                None,
            )
        })
        .collect();
    let config = body
        .get("generationConfig")
        .or_else(|| body.get("generation_config"));
    let schema = config
        .and_then(|c| {
            c.get("responseSchema")
                .or_else(|| c.get("responseJsonSchema"))
        })
        .cloned();
    let mode = body.pointer("/toolConfig/functionCallingConfig/mode");
    (system, messages, tools, choice(mode), schema)
}
