//! Whether the provider would refuse a request's schemas, and with which 400. Every verdict is
//! the rule book's ([`crate::schema::book`]) for the mode the request uses: a tool's own
//! `strict` decides, else the endpoint's default (the Responses API reads an omitted `strict`
//! as strict, Chat Completions as standard; Anthropic tools are standard unless `strict: true`;
//! Gemini's `parameters` / `responseSchema` are its OpenAPI schema, `parametersJsonSchema` /
//! `responseJsonSchema` its JSON Schema fields). Tool names are checked as each provider does.
//! The double never refuses more than the rule book says the provider does.

use serde_json::Value as Json;

use super::errors::provider_error;
use super::read::{output_schema, strict_tool};
use super::{Endpoint, Reply};
use crate::schema::book::{self, Mode, Role};

/// One refused schema: where it is in the request, whose it is, and why.
struct Refused {
    /// The request's field (`tools[0].parameters`, `text.format.schema`, …).
    param: String,
    /// A function tool's name, or `None` for the output schema.
    tool: Option<String>,
    /// Why, with the pointer inside the schema.
    reason: String,
    /// The whole message as the provider writes it (a refused name), not a schema's reason.
    whole: bool,
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

/// The rule book's verdict on `schema` in `mode`, as the 400's reason: the refusal's words
/// and where in the schema.
fn judged(mode: Mode, role: Role, schema: &Json) -> Option<String> {
    let (words, pointer) = refusal_words(mode, role, schema)?;
    let at = if pointer.is_empty() { "/" } else { &pointer };
    Some(format!("{words} (at {at})"))
}

/// The rule book's refusal of `schema` in `mode`: its words without the mode's name, and its
/// pointer.
fn refusal_words(mode: Mode, role: Role, schema: &Json) -> Option<(String, String)> {
    let e = book::judge(mode, role, schema).err()?;
    let words = e
        .message
        .strip_prefix(mode.name())
        .and_then(|m| m.strip_prefix(" refuses it: "))
        .unwrap_or(&e.message)
        .to_string();
    Some((words, e.pointer))
}

/// A tool whose name the provider refuses, with the provider's message for the field.
fn bad_name(endpoint: Endpoint, name: &str, param: String) -> Option<Refused> {
    let words = book::check_name(endpoint.provider(), name).err()?;
    let reason = match endpoint {
        Endpoint::Responses | Endpoint::Chat => format!("Invalid '{param}': {words}"),
        Endpoint::Messages => format!("{param}: {words}"),
        Endpoint::Gemini => format!("* GenerateContentRequest.{param}: {words}"),
    };
    Some(Refused {
        param,
        tool: None,
        reason,
        whole: true,
    })
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
        _ if refused.whole => refused.reason.clone(),
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

/// The first OpenAI function tool of `body` the provider refuses, in the mode it declares
/// (the endpoint's default where it declares none): the Responses API's tools, or Chat's
/// (`tools[i].function`).
fn openai_tools(endpoint: Endpoint, body: &Json) -> Option<Refused> {
    for (i, t) in items(body.get("tools")).iter().enumerate() {
        if t.get("type").and_then(Json::as_str) != Some("function") {
            continue;
        }
        let (f, base) = match endpoint {
            Endpoint::Chat => match t.get("function") {
                Some(f) => (f, format!("tools[{i}].function")),
                None => continue,
            },
            _ => (t, format!("tools[{i}]")),
        };
        let name = name_of(f, "/name");
        if let Some(refused) = bad_name(endpoint, &name, format!("{base}.name")) {
            return Some(refused);
        }
        let mode = if strict_tool(endpoint, f) {
            Mode::OpenAiStrict
        } else {
            Mode::OpenAiStandard
        };
        // A function without `parameters` takes no arguments: nothing to refuse.
        let Some(schema) = f.get("parameters") else {
            continue;
        };
        if let Some(reason) = judged(mode, Role::Tool, schema) {
            return Some(Refused {
                param: format!("{base}.parameters"),
                tool: Some(name),
                reason,
                whole: false,
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

/// A `json_schema` output: `strict: true` is Structured Outputs (OpenAI strict mode); without
/// it the schema only guides the model and is not checked.
fn strict_output(format: &Json, schema: Option<&Json>, param: &str) -> Option<Refused> {
    if format.get("type").and_then(Json::as_str) != Some("json_schema")
        || format.get("strict") != Some(&Json::Bool(true))
    {
        return None;
    }
    let reason = judged(Mode::OpenAiStrict, Role::Output, schema?)?;
    Some(Refused {
        param: param.into(),
        tool: None,
        reason,
        whole: false,
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
        if let Some(refused) = bad_name(Endpoint::Messages, &name, format!("tools.{i}.custom.name"))
        {
            return Some(refused);
        }
        let schema = t.get("input_schema").cloned().unwrap_or(Json::Null);
        let mode = if t.get("strict") == Some(&Json::Bool(true)) {
            Mode::AnthropicStrict
        } else {
            Mode::AnthropicStandard
        };
        if let Some((words, pointer)) = refusal_words(mode, Role::Tool, &schema) {
            // The root's rules are the API's own validation, worded on the field itself.
            let root = words.starts_with("input_schema");
            let reason = match () {
                _ if words.starts_with("input_schema.type") => format!("tools.{i}.custom.{words}"),
                _ if root => format!("tools.{i}.custom.input_schema: {words}"),
                _ => format!(
                    "{words} (at {})",
                    if pointer.is_empty() { "/" } else { &pointer }
                ),
            };
            return Some(Refused {
                param: format!("tools.{i}.custom.input_schema"),
                tool: Some(name),
                reason,
                whole: root,
            });
        }
        if mode == Mode::AnthropicStrict {
            strict_tools.push((name, schema));
        }
    }
    let output = output_schema(body);
    if let Some(schema) = output {
        if let Some(reason) = judged(Mode::AnthropicStrict, Role::Output, schema) {
            return Some(Refused {
                param: "output_config.format.schema".into(),
                tool: None,
                reason,
                whole: false,
            });
        }
    }
    let breach = book::limits(Mode::AnthropicStrict, &strict_tools, output)
        .into_iter()
        .next()?;
    Some(Refused {
        param: breach.pointer.trim_start_matches('/').replace('/', "."),
        tool: None,
        reason: breach.message,
        whole: false,
    })
}

/// A field of a Gemini object in either proto3 spelling (lowerCamelCase or snake_case).
fn field<'a>(v: &'a Json, camel: &str, snake: &str) -> Option<&'a Json> {
    v.get(camel).or_else(|| v.get(snake))
}

fn gemini(body: &Json) -> Option<Refused> {
    for (i, t) in items(body.get("tools")).iter().enumerate() {
        let declarations = field(t, "functionDeclarations", "function_declarations");
        for (j, d) in items(declarations).iter().enumerate() {
            let base = format!("tools[{i}].function_declarations[{j}]");
            let name = name_of(d, "/name");
            if let Some(refused) = bad_name(Endpoint::Gemini, &name, format!("{base}.name")) {
                return Some(refused);
            }
            let openapi = d.get("parameters");
            let json = field(d, "parametersJsonSchema", "parameters_json_schema");
            let (schema, mode, param) = match (openapi, json) {
                (Some(_), Some(_)) => {
                    return Some(Refused {
                        param: base,
                        tool: Some(name),
                        reason: "parameters and parameters_json_schema cannot both be set.".into(),
                        whole: false,
                    })
                }
                (Some(s), None) => (s, Mode::GeminiOpenApi, "parameters"),
                (None, Some(s)) => (s, Mode::GeminiJson, "parameters_json_schema"),
                (None, None) => continue,
            };
            if let Some(reason) = judged(mode, Role::Tool, schema) {
                return Some(Refused {
                    param: format!("{base}.{param}"),
                    tool: Some(name),
                    reason,
                    whole: false,
                });
            }
        }
    }
    let config = field(body, "generationConfig", "generation_config")?;
    let (openapi, json) = (
        field(config, "responseSchema", "response_schema"),
        field(config, "responseJsonSchema", "response_json_schema"),
    );
    let (schema, mode, param) = match (openapi, json) {
        (Some(_), Some(_)) => {
            return Some(Refused {
                param: "generation_config".into(),
                tool: None,
                reason: "response_schema and response_json_schema cannot both be set.".into(),
                whole: false,
            })
        }
        (Some(s), None) => (s, Mode::GeminiOpenApi, "response_schema"),
        (None, Some(s)) => (s, Mode::GeminiJson, "response_json_schema"),
        (None, None) => return None,
    };
    let reason = judged(mode, Role::Output, schema)?;
    Some(Refused {
        param: format!("generation_config.{param}"),
        tool: None,
        reason,
        whole: false,
    })
}
