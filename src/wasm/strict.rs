//! Strict-schema bindings: `toStrictJsonSchema`, `prepareStrictJsonSchema`, `stripStrictNulls`,
//! `assertStrictSchemaPreservesOpenObjects`, the strict-tools check, and the errors of the
//! strict and Standard Schema rules.

use wasm_bindgen::prelude::*;

use super::{encoding_error, js, parse_schema, raise, raise_with, user_error, with_input, Live};
use crate::schema::book::{self, Mode as BookMode, Role, Target};
use crate::schema::json;
use crate::schema::provider::{self, Provider};
use crate::schema::strict::{self, Mode, Prepared};

/// Parses a schema in the facade's encoding and prepares it in `mode`.
fn prepare_text(schema: &str, mode: Mode) -> Result<Prepared, JsValue> {
    let doc = parse_schema(schema)?;
    strict::prepare(&doc, doc.root(), mode).map_err(raise)
}

/// `toStrictJsonSchema`: the strict copy of the schema in the input buffer (`len` bytes), as
/// JSON text.
#[wasm_bindgen(js_name = strictConvert)]
pub fn strict_convert(len: usize) -> Result<String, JsValue> {
    let prepared = with_input(len, |schema| prepare_text(schema, Mode::Convert))??;
    Ok(json::to_string(&prepared.doc, prepared.root))
}

/// The result of `prepareStrictJsonSchema`: the strict schema and its input normalizer.
#[wasm_bindgen]
pub struct PreparedSchema {
    inner: Prepared,
    _live: Live,
}

#[wasm_bindgen]
impl PreparedSchema {
    /// The strict schema as JSON text.
    #[wasm_bindgen(js_name = schemaJson)]
    pub fn schema_json(&self) -> String {
        json::to_string(&self.inner.doc, self.inner.root)
    }

    /// Maps the synthetic `null`s of optional properties back to absent keys. Returns
    /// `undefined` for an `undefined` value.
    #[wasm_bindgen(js_name = normalizeInput)]
    pub fn normalize_input(&self, len: usize) -> Result<Option<String>, JsValue> {
        with_input(len, |value| normalize_with(&self.inner, value))?
    }
}

fn normalize_with(prepared: &Prepared, value: &str) -> Result<Option<String>, JsValue> {
    let mut doc = json::parse(value).map_err(|e| encoding_error("value", e))?;
    let root = doc.root();
    let out = prepared.normalize_input(&mut doc, root).map_err(raise)?;
    finish_normalized(&doc, out)
}

/// `stripStrictNulls` of a Standard Schema's input JSON Schema (`schema::nulls`).
fn standard_strip_nulls(schema: &str, value: &str) -> Result<Option<String>, JsValue> {
    let schema = parse_schema(schema)?;
    let mut doc = json::parse(value).map_err(|e| encoding_error("value", e))?;
    let root = doc.root();
    let out =
        crate::schema::nulls::strip_nulls(&schema, schema.root(), &mut doc, root).map_err(raise)?;
    // `undefined` inside the value (a stripped tuple position) is written as its tag; the
    // facade revives it.
    Ok(match doc.node(out) {
        json::Node::Undefined => None,
        _ => Some(json::to_string_tagged(&doc, out)),
    })
}

fn finish_normalized(doc: &json::Doc, out: json::Id) -> Result<Option<String>, JsValue> {
    Ok(match doc.node(out) {
        json::Node::Undefined => None,
        _ => Some(json::to_string(doc, out)),
    })
}

/// `prepareStrictJsonSchema` of the schema in the input buffer (`len` bytes).
#[wasm_bindgen(js_name = strictPrepare)]
pub fn strict_prepare(len: usize) -> Result<PreparedSchema, JsValue> {
    let inner = with_input(len, |schema| prepare_text(schema, Mode::Prepare))??;
    Ok(PreparedSchema {
        inner,
        _live: Live::new(),
    })
}

/// The strict schema of `prepareStrictJsonSchema` (its checks included), as JSON text, without
/// keeping a handle.
#[wasm_bindgen(js_name = strictPrepareSchema)]
pub fn strict_prepare_schema(len: usize) -> Result<String, JsValue> {
    let prepared = with_input(len, |schema| prepare_text(schema, Mode::Prepare))??;
    Ok(json::to_string(&prepared.doc, prepared.root))
}

/// `stripStrictNulls` for a JSON Schema: prepare, then normalize, without a handle to free.
/// The input buffer holds the schema (`schema_len` bytes), then the value.
#[wasm_bindgen(js_name = strictStripNulls)]
pub fn strict_strip_nulls(
    schema_len: usize,
    value_len: usize,
    standard: bool,
) -> Result<Option<String>, JsValue> {
    with_input(schema_len + value_len, |text| {
        let (schema, value) = text.split_at_checked(schema_len).ok_or_else(|| {
            user_error("understudy could not split the schema from the value it was given.")
        })?;
        if standard {
            return standard_strip_nulls(schema, value);
        }
        let prepared = prepare_text(schema, Mode::Prepare)?;
        normalize_with(&prepared, value)
    })?
}

/// `assertStrictSchemaPreservesOpenObjects`.
#[wasm_bindgen(js_name = strictAssertOpenObjects)]
pub fn strict_assert_open_objects(len: usize) -> Result<(), JsValue> {
    let doc = with_input(len, parse_schema)??;
    strict::assert_preserves_open_objects(&doc, doc.root()).map_err(raise)
}

/// The error for a schema the host could not encode because it is cyclic or nested too
/// deeply for `JSON.stringify`: the reference reports both as too deeply nested.
#[wasm_bindgen(js_name = strictUnencodableError)]
pub fn strict_unencodable_error() -> JsValue {
    raise(strict::depth_error_unlocated())
}

/// The error for a value (not a schema) the host could not encode: cyclic, or nested deeper
/// than `JSON.stringify` can follow.
#[wasm_bindgen(js_name = valueUnencodableError)]
pub fn value_unencodable_error() -> JsValue {
    raise(crate::error::Unencodable)
}

/// Reads a schema in the facade's encoding as a JSON value; a nesting serde_json cannot follow
/// is the depth error.
fn schema_value(text: &str) -> Result<serde_json::Value, JsValue> {
    serde_json::from_str(text).map_err(|_| raise(strict::depth_error_unlocated()))
}

/// A provider as an option names it: `openai`, `anthropic`, `gemini`, or one of them with its
/// mode (`openai:standard`, …); anything else is a `UserError` naming the choices.
fn target_of(code: &JsValue, surface: &str) -> Result<Target, JsValue> {
    code.as_string()
        .as_deref()
        .and_then(Target::from_code)
        .ok_or_else(|| {
            let choices: Vec<String> = Target::codes().iter().map(|c| format!("'{c}'")).collect();
            user_error(format!(
                "{surface}: provider must be one of {}, got {}.",
                choices.join(", "),
                js::string_of(code)
            ))
        })
}

/// The mode a conversion targets: a provider named alone converts for its strict form
/// (OpenAI's and Anthropic's strict modes, Gemini's OpenAPI schema), which every mode of it
/// takes; a mode named converts for that mode.
fn conversion_mode(target: Target) -> BookMode {
    match target {
        Target::Provider(Provider::OpenAi) => BookMode::OpenAiStrict,
        Target::Provider(Provider::Anthropic) => BookMode::AnthropicStrict,
        Target::Provider(Provider::Gemini) => BookMode::GeminiOpenApi,
        Target::Mode(m) => m,
    }
}

/// Checks a provider code (`toStrictJsonSchema`'s `provider` option, `strictTools`) and
/// answers whether its conversion is OpenAI's strict one (the reference's).
#[wasm_bindgen(js_name = providerIsOpenAi)]
pub fn provider_is_openai(code: &JsValue, surface: &str, wrap: &JsValue) -> Result<bool, JsValue> {
    let target = target_of(code, surface)?;
    wrap_of(wrap, target.provider(), surface)?;
    Ok(conversion_mode(target) == BookMode::OpenAiStrict)
}

/// The `wrapRoot` option: a property name, for a provider whose profile wraps a root it refuses
/// ([`provider::convert_wrapping`]); OpenAI's conversion is the reference's and has none.
fn wrap_of(wrap: &JsValue, provider: Provider, surface: &str) -> Result<Option<String>, JsValue> {
    if wrap.is_undefined() {
        return Ok(None);
    }
    match wrap.as_string() {
        Some(name) if !name.is_empty() && provider != Provider::OpenAi => Ok(Some(name)),
        Some(name) if !name.is_empty() => Err(user_error(format!(
            "{surface}: option `wrapRoot` applies to the providers 'anthropic' and 'gemini'; OpenAI's strict conversion keeps the root as @openai/agents does."
        ))),
        _ => Err(user_error(format!(
            "{surface}: option `wrapRoot` must be a property name such as 'value', got {}.",
            js::string_of(wrap)
        ))),
    }
}

/// The schema in the input buffer (`len` bytes) converted for a provider: OpenAI's strict
/// conversion (the reference's, as `strictConvert`) or [`provider::convert`], as JSON text of
/// the schema; with `changes`, of `{ schema, changes }` (not for OpenAI).
#[wasm_bindgen(js_name = providerConvert)]
pub fn provider_convert(
    len: usize,
    code: &JsValue,
    changes: bool,
    wrap: &JsValue,
    tool: &JsValue,
) -> Result<String, JsValue> {
    // A tool's schema (`providerSchemas`): a refusal names the tool in its message and fields.
    let tool = tool.as_string();
    let named = |e: crate::error::StrictError| match &tool {
        Some(name) => raise(crate::error::StrictError {
            message: format!("Tool `{name}`: {}", e.message),
            tool_name: Some(name.clone()),
            ..e
        }),
        None => raise(e),
    };
    let surface = if changes {
        "prepareStrictJsonSchema"
    } else {
        "toStrictJsonSchema"
    };
    let target = target_of(code, surface)?;
    let wrap = wrap_of(wrap, target.provider(), surface)?;
    let mode = conversion_mode(target);
    with_input(len, |text| {
        if mode == BookMode::OpenAiStrict {
            let doc = parse_schema(text)?;
            let prepared = strict::prepare(&doc, doc.root(), Mode::Convert).map_err(named)?;
            return Ok(json::to_string(&prepared.doc, prepared.root));
        }
        let schema = schema_value(text)?;
        // Never an invalid schema passed on (OpenAI's conversion stays the reference's).
        crate::schema::types::check(&schema).map_err(raise)?;
        let converted =
            book::convert(mode, Role::Output, &schema, wrap.as_deref()).map_err(named)?;
        Ok(if changes {
            serde_json::to_string(&converted)
        } else {
            serde_json::to_string(&converted.schema)
        }
        .unwrap_or_default())
    })?
}

/// The text in the input buffer, `[restore, value]` (a Gemini conversion's `restore` and an
/// answer in the facade's encoding), as the answer with its enum texts read back as numbers
/// ([`provider::restore_numbers`]), in the same encoding.
#[wasm_bindgen(js_name = providerRestoreNumbers)]
pub fn provider_restore_numbers(len: usize) -> Result<String, JsValue> {
    with_input(len, |text| {
        let mut pair = schema_value(text)?;
        let restore: Vec<provider::Restore> = pair[0]
            .as_array()
            .map(|rs| rs.iter().filter_map(provider::Restore::read).collect())
            .unwrap_or_default();
        let mut value = pair[1].take();
        provider::restore_numbers(&mut value, &restore);
        Ok(serde_json::to_string(&value).unwrap_or_default())
    })?
}

/// `strictTools`: throws `StrictSchemaError` unless the provider `code` names takes the
/// function tool `tool` (its name, and its parameters in the input buffer) as sent, in the mode
/// the tool declares with `strict` (a boolean, or `undefined` for the provider's default)
/// ([`book::judge`], once). A refusal in OpenAI's strict mode keeps [`strict::check_as_sent`]'s
/// messages where the reference's conversion is the reason.
#[wasm_bindgen(js_name = toolCheckAsSent)]
pub fn tool_check_as_sent(
    len: usize,
    tool: &JsValue,
    code: &JsValue,
    declared: &JsValue,
) -> Result<(), JsValue> {
    let target = target_of(code, "strictTools")?;
    let mode = target.mode_for(declared.as_bool());
    let tool = js::string_of(tool);
    if let Err(words) = book::check_name(mode.provider(), &tool) {
        return Err(raise(crate::error::StrictError {
            reason: crate::error::StrictReason::InvalidName,
            pointer: String::new(),
            keyword: None,
            message: format!(
                "Tool \"{tool}\": {} refuses its name: {words}",
                mode.provider().name()
            ),
            tool_name: None,
        }));
    }
    with_input(len, |text| {
        let schema = schema_value(text)?;
        let Err(e) = book::judge(mode, Role::Tool, &schema) else {
            return Ok(());
        };
        // A refusal in OpenAI's strict mode: the reference's own first, in
        // `strict::check_as_sent`'s words, read as the rule book reads the schema (a definition
        // nothing uses left out).
        if mode == BookMode::OpenAiStrict {
            let (read, _) = book::without_unused_defs(&schema);
            if let Ok(doc) = json::parse(&read.to_string()) {
                strict::check_as_sent(&doc, &tool).map_err(raise)?;
            }
        }
        // `strict: false` is offered only where the standard mode takes the tool.
        let loosen =
            mode.is_strict() && book::judge(mode.counterpart(), Role::Tool, &schema).is_ok();
        let hint = format!(
            " Convert the parameters before the request: providerSchemas('{}') in an AI SDK app, toStrictJsonSchema(schema, {{ provider: '{}' }}) otherwise{}.",
            target.code(),
            target.code(),
            if loosen {
                "; or declare the tool `strict: false`, which the provider's standard mode takes as it is"
            } else {
                ""
            }
        );
        Err(raise(crate::error::StrictError {
            message: format!(
                "Tool \"{tool}\": {}.{hint}",
                e.message.trim_end_matches('.')
            ),
            ..e
        }))
    })?
}

/// The request in the input buffer (`{ tools: [{ name, parameters }], output? }` as JSON text)
/// against a provider's request limits: JSON text of every breach ([`provider::check_request`]).
/// With `assert`, a request over a limit throws `StrictSchemaError` (reason `request_limit`,
/// the pointer of the first breach, every breach in the message) and nothing is returned.
#[wasm_bindgen(js_name = providerRequestCheck)]
pub fn provider_request_check(len: usize, code: &JsValue, assert: bool) -> Result<String, JsValue> {
    let target = target_of(
        code,
        if assert {
            "strictTools"
        } else {
            "checkRequestLimits"
        },
    )?;
    with_input(len, |text| {
        let request = schema_value(text)?;
        // Each tool in the mode it declares; a mode's limits count its own tools (and the
        // output, which is always strict where a schema is enforced).
        let tools: Vec<(BookMode, String, serde_json::Value)> = request
            .get("tools")
            .and_then(serde_json::Value::as_array)
            .map(|tools| {
                tools
                    .iter()
                    .map(|t| {
                        let name = t
                            .get("name")
                            .and_then(serde_json::Value::as_str)
                            .unwrap_or_default();
                        let strict = t.get("strict").and_then(serde_json::Value::as_bool);
                        (
                            target.mode_for(strict),
                            name.to_string(),
                            t.get("parameters").cloned().unwrap_or_default(),
                        )
                    })
                    .collect()
            })
            .unwrap_or_default();
        let strict_mode = BookMode::declared(target.provider(), Some(true));
        let mut breaches = Vec::new();
        for mode in BookMode::ALL
            .iter()
            .filter(|m| m.provider() == target.provider())
        {
            let in_mode: Vec<(String, serde_json::Value)> = tools
                .iter()
                .filter(|(m, _, _)| m == mode)
                .map(|(_, n, p)| (n.clone(), p.clone()))
                .collect();
            let output = request.get("output").filter(|_| *mode == strict_mode);
            if !in_mode.is_empty() || output.is_some() {
                breaches.extend(book::limits(*mode, &in_mode, output));
            }
        }
        if let (true, Some(first)) = (assert, breaches.first()) {
            let message: Vec<String> = breaches
                .iter()
                .map(|b| format!("{} (at `{}`)", b.message, b.pointer))
                .collect();
            return Err(raise(crate::error::StrictError {
                reason: crate::error::StrictReason::RequestLimit,
                pointer: first.pointer.clone(),
                keyword: None,
                message: message.join(" "),
                tool_name: None,
            }));
        }
        Ok(serde_json::to_string(&breaches).unwrap_or_default())
    })?
}

/// The error of a value that fails the original schema of a provider conversion
/// (`normalizeInput`): `issues` are `compileJsonSchema`'s, named in the message.
#[wasm_bindgen(js_name = providerOutputError)]
pub fn provider_output_error(code: &JsValue, issues: &JsValue) -> Result<JsValue, JsValue> {
    // The provider as `prepareStrictJsonSchema` was given it: alone or with a mode.
    let provider = target_of(code, "normalizeInput")?.provider();
    let list = js_sys::Array::from(issues);
    let mut parts = Vec::new();
    for issue in list.iter().take(5) {
        let field = |name: &str| {
            js_sys::Reflect::get(&issue, &JsValue::from_str(name))
                .ok()
                .and_then(|v| v.as_string())
                .unwrap_or_default()
        };
        let at = crate::schema::pointer::place(&field("instancePath"));
        parts.push(format!("{} (at {at})", field("message")));
    }
    if list.length() > 5 {
        parts.push(format!("and {} more", list.length() - 5));
    }
    Ok(raise_with(
        crate::schema::provider::ProviderOutputError {
            provider,
            message: format!(
                "The value does not match the schema as written (the {} form only describes some of its constraints): {}.",
                provider.name(),
                parts.join("; ")
            ),
        },
        issues,
    ))
}

/// `checkTools` and its verdicts: the tool set in the input buffer (`{ tools: [{ name, type?,
/// input?, output?, error? }] }`, as the facade read it) checked for `providers` (codes;
/// `undefined` for all three). JSON text of `{ report, failure }`: `failure` is the verdict
/// under `policy` (a `ToolPolicy` code), the message listing every failing row, or `null`.
#[wasm_bindgen(js_name = checkTools)]
pub fn check_tools(
    len: usize,
    providers: &JsValue,
    policy: &str,
    surface: &str,
    outputs: bool,
) -> Result<String, JsValue> {
    use crate::schema::tools::{self, ToolPolicy};
    let providers = if providers.is_undefined() {
        vec![
            Target::Provider(Provider::OpenAi),
            Target::Provider(Provider::Anthropic),
            Target::Provider(Provider::Gemini),
        ]
    } else {
        let list = providers_of(providers, surface)?;
        if list.is_empty() {
            return Err(user_error(format!(
                "{surface}: name at least one provider ('openai', 'anthropic', 'gemini', or one with its mode such as 'openai:standard')."
            )));
        }
        list
    };
    let policy = ToolPolicy::from_code(policy)
        .ok_or_else(|| user_error(format!("{surface}: unknown policy '{policy}'.")))?;
    with_input(len, |text| {
        let request = schema_value(text)?;
        let report = tools::check_tools(&request, &providers);
        let failure = tools::verdict(&report, policy, outputs);
        Ok(serde_json::json!({ "report": report, "failure": failure }).to_string())
    })?
}

/// A provider code or an array of them, each checked, duplicates removed.
fn providers_of(value: &JsValue, surface: &str) -> Result<Vec<Target>, JsValue> {
    let items: Vec<JsValue> = if js_sys::Array::is_array(value) {
        js_sys::Array::from(value).iter().collect()
    } else {
        vec![value.clone()]
    };
    let mut out = Vec::new();
    for item in &items {
        let p = target_of(item, surface)?;
        if !out.contains(&p) {
            out.push(p);
        }
    }
    Ok(out)
}
