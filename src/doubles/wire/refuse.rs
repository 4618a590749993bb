//! Whether the provider would refuse a request's schemas, and with which 400: OpenAI checks a
//! strict function tool's parameters and a strict `json_schema` output (on the Responses API
//! a function tool that omits `strict` is strict); Anthropic checks every tool's root `type`,
//! its strict tools and its structured output, and the request limits over them; Gemini checks
//! every function declaration's `parameters` and `responseSchema` (its OpenAPI subset). The
//! JSON Schema forms Gemini ignores keywords of (`parametersJsonSchema`, `responseJsonSchema`)
//! are not checked but for being given twice, and a `format` Gemini may only ignore is let
//! through: the double never refuses more than the provider does.

use serde_json::Value as Json;

use super::errors::provider_error;
use super::read::{output_schema, strict_tool};
use super::{Endpoint, Reply};
use crate::schema::provider::{self, ChangeKind, Provider};
use crate::schema::strict;

/// One refused schema: where it is in the request, whose it is, and why.
struct Refused {
    /// The request's field (`tools[0].parameters`, `text.format.schema`, …).
    param: String,
    /// A function tool's name, or `None` for the output schema.
    tool: Option<String>,
    /// Why, with the pointer inside the schema.
    reason: String,
}

fn items(v: Option<&Json>) -> &[Json] {
    v.and_then(Json::as_array).map_or(&[], Vec::as_slice)
}

fn name_of(t: &Json, key: &str) -> String {
    t.pointer(key)
        .and_then(Json::as_str)
        .unwrap_or("")
        .to_string()
}

/// Drops the engine's own naming prefix (`Tool "x": …`, `` Tool `x`: … ``) of a message.
fn bare(message: &str) -> &str {
    for open in ["Tool \"", "Tool `"] {
        if let Some(rest) = message.strip_prefix(open) {
            let close = if open.ends_with('"') { "\": " } else { "`: " };
            if let Some((_, after)) = rest.split_once(close) {
                return after;
            }
        }
    }
    message
}

/// OpenAI strict mode on `schema`: `Some(reason)` where it refuses it as sent.
fn openai(schema: &Json, label: &str) -> Option<String> {
    let doc = crate::schema::json::parse(&schema.to_string()).ok()?;
    strict::check_as_sent(&doc, label).err().map(|e| {
        let message = bare(&e.message);
        // The engine's message names strict mode; the provider's 400 already says what it is.
        [
            "OpenAI strict mode refuses its parameters as sent (\"Invalid schema for function\"): ",
            "OpenAI strict mode refuses its parameters: ",
        ]
        .iter()
        .find_map(|p| message.strip_prefix(p))
        .unwrap_or(message)
        .to_string()
    })
}

/// Gemini's type names may be written in capitals (`Type.OBJECT` of `@google/genai`): the
/// profile reads them in lowercase.
fn lowercase_types(schema: &Json) -> Json {
    let mut copy = schema.clone();
    let mut stack = vec![&mut copy];
    while let Some(node) = stack.pop() {
        match node {
            Json::Object(map) => {
                for (k, v) in map.iter_mut() {
                    if k == "type" {
                        if let Json::String(s) = v {
                            *s = s.to_ascii_lowercase();
                        }
                    } else {
                        stack.push(v);
                    }
                }
            }
            Json::Array(list) => stack.extend(list.iter_mut()),
            _ => {}
        }
    }
    copy
}

/// The keywords Gemini's OpenAPI schema takes beside JSON Schema's (a conversion would drop
/// or rewrite them, the provider accepts them).
const GEMINI_FIELDS: [&str; 5] = ["nullable", "propertyOrdering", "example", "title", "format"];

/// Anthropic's or Gemini's profile on `schema`: `Some(reason)` where the provider refuses it
/// as sent (a conversion would change more than annotations).
fn profile(schema: &Json, provider: Provider) -> Option<String> {
    let lowered;
    let schema = if provider == Provider::Gemini {
        lowered = lowercase_types(schema);
        &lowered
    } else {
        schema
    };
    let converted = match provider::convert(schema, provider) {
        Ok(c) => c,
        Err(e) => return Some(bare(&e.message).to_string()),
    };
    let refused = converted.changes.iter().find(|c| {
        let annotation = c.kind == ChangeKind::Dropped && c.keyword != "additionalProperties";
        let gemini_own = provider == Provider::Gemini
            && GEMINI_FIELDS.contains(&c.keyword.as_str())
            && c.kind != ChangeKind::Narrowed;
        !(annotation || gemini_own)
    })?;
    let at = if refused.pointer.is_empty() {
        "/"
    } else {
        &refused.pointer
    };
    Some(format!(
        "`{}` at {at} is not supported ({}: {}).",
        refused.keyword,
        refused.kind.as_str(),
        refused.detail
    ))
}

/// The provider's 400 for the first schema of `body` it would refuse, or `None`.
pub fn refusal(endpoint: Endpoint, body: &Json) -> Option<Reply> {
    let refused = match endpoint {
        Endpoint::Responses => responses(body),
        Endpoint::Chat => chat(body),
        Endpoint::Messages => anthropic(body),
        Endpoint::Gemini => gemini(body),
    }?;
    let message = match (endpoint, &refused.tool) {
        (Endpoint::Responses | Endpoint::Chat, Some(tool)) => {
            format!("Invalid schema for function '{tool}': {}", refused.reason)
        }
        (Endpoint::Responses | Endpoint::Chat, None) => {
            format!("Invalid schema for response_format: {}", refused.reason)
        }
        (Endpoint::Messages, Some(tool)) => {
            format!("{}: tool '{tool}': {}", refused.param, refused.reason)
        }
        (Endpoint::Messages, None) => format!("{}: {}", refused.param, refused.reason),
        (Endpoint::Gemini, Some(tool)) => format!(
            "Invalid JSON payload received. {} (function '{tool}'): {}",
            refused.param, refused.reason
        ),
        (Endpoint::Gemini, None) => format!(
            "Invalid JSON payload received. {}: {}",
            refused.param, refused.reason
        ),
    };
    Some(provider_error(
        endpoint,
        400,
        &message,
        Some(&refused.param),
    ))
}

/// The first strict OpenAI function tool of `body` that strict mode refuses as sent: the
/// Responses API's tools, or Chat's (`tools[i].function`).
fn openai_tools(endpoint: Endpoint, body: &Json) -> Option<Refused> {
    for (i, t) in items(body.get("tools")).iter().enumerate() {
        if t.get("type").and_then(Json::as_str) != Some("function") {
            continue;
        }
        let (f, param) = match endpoint {
            Endpoint::Chat => match t.get("function") {
                Some(f) => (f, format!("tools[{i}].function.parameters")),
                None => continue,
            },
            _ => (t, format!("tools[{i}].parameters")),
        };
        if !strict_tool(endpoint, f) {
            continue;
        }
        let name = name_of(f, "/name");
        let schema = f.get("parameters").unwrap_or(&Json::Null);
        if let Some(reason) = openai(schema, &name) {
            return Some(Refused {
                param,
                tool: Some(name),
                reason,
            });
        }
    }
    None
}

fn responses(body: &Json) -> Option<Refused> {
    if let Some(refused) = openai_tools(Endpoint::Responses, body) {
        return Some(refused);
    }
    let format = body.pointer("/text/format")?;
    strict_output(format, format.get("schema"), "text.format.schema")
}

/// A strict `json_schema` output (`strict: true`), checked as OpenAI strict mode.
fn strict_output(format: &Json, schema: Option<&Json>, param: &str) -> Option<Refused> {
    if format.get("type").and_then(Json::as_str) != Some("json_schema")
        || format.get("strict") != Some(&Json::Bool(true))
    {
        return None;
    }
    let reason = openai(schema?, "response_format")?;
    Some(Refused {
        param: param.into(),
        tool: None,
        reason,
    })
}

fn chat(body: &Json) -> Option<Refused> {
    if let Some(refused) = openai_tools(Endpoint::Chat, body) {
        return Some(refused);
    }
    let format = body.get("response_format")?;
    strict_output(
        format.get("json_schema").unwrap_or(&Json::Null),
        format.pointer("/json_schema/schema"),
        "response_format.json_schema.schema",
    )
    .filter(|_| format.get("type").and_then(Json::as_str) == Some("json_schema"))
}

fn anthropic(body: &Json) -> Option<Refused> {
    let mut strict_tools = Vec::new();
    for (i, t) in items(body.get("tools")).iter().enumerate() {
        if !matches!(t.get("type").and_then(Json::as_str), None | Some("custom")) {
            continue;
        }
        let name = name_of(t, "/name");
        let schema = t.get("input_schema").cloned().unwrap_or(Json::Null);
        if schema.get("type").is_none() {
            return Some(Refused {
                param: format!("tools.{i}.custom.input_schema.type"),
                tool: Some(name),
                reason: "Field required".into(),
            });
        }
        if t.get("strict") != Some(&Json::Bool(true)) {
            continue;
        }
        if let Some(reason) = profile(&schema, Provider::Anthropic) {
            return Some(Refused {
                param: format!("tools.{i}.custom.input_schema"),
                tool: Some(name),
                reason,
            });
        }
        strict_tools.push((name, schema));
    }
    let output = output_schema(body);
    if let Some(schema) = output {
        if let Some(reason) = profile(schema, Provider::Anthropic) {
            return Some(Refused {
                param: "output_format.schema".into(),
                tool: None,
                reason,
            });
        }
    }
    let breach = provider::check_request(Provider::Anthropic, &strict_tools, output)
        .into_iter()
        .next()?;
    Some(Refused {
        param: breach.pointer.trim_start_matches('/').replace('/', "."),
        tool: None,
        reason: breach.message,
    })
}

fn gemini(body: &Json) -> Option<Refused> {
    for (i, t) in items(body.get("tools")).iter().enumerate() {
        let declarations = t
            .get("functionDeclarations")
            .or_else(|| t.get("function_declarations"));
        for (j, d) in items(declarations).iter().enumerate() {
            let Some(schema) = d.get("parameters") else {
                continue;
            };
            if let Some(reason) = profile(schema, Provider::Gemini) {
                return Some(Refused {
                    param: format!("tools[{i}].function_declarations[{j}].parameters"),
                    tool: Some(name_of(d, "/name")),
                    reason,
                });
            }
        }
    }
    let config = body
        .get("generationConfig")
        .or_else(|| body.get("generation_config"))?;
    let (openapi, json) = (
        config.get("responseSchema"),
        config.get("responseJsonSchema"),
    );
    if openapi.is_some() && json.is_some() {
        return Some(Refused {
            param: "generation_config".into(),
            tool: None,
            reason: "response_schema and response_json_schema cannot both be set.".into(),
        });
    }
    let reason = profile(openapi?, Provider::Gemini)?;
    Some(Refused {
        param: "generation_config.response_schema".into(),
        tool: None,
        reason,
    })
}
