//! The provider rule book: for each provider and request mode, what the provider does with a
//! schema as sent ([`judge`]: takes it, possibly ignoring keywords, or refuses it with a reason,
//! a pointer and the provider's own words where they are known), the conversion that targets
//! that mode ([`convert`]), the tool names it takes ([`check_name`]) and the request limits that
//! apply in that mode ([`limits`]). `checkTools`, the HTTP double's 400s, `providerSchemas` and
//! the doubles' `strictTools` all ask here; nothing else decides what a provider takes.
//!
//! Every rule cites its source in `docs/providers.md` (evidence rows `E1`…); a rule without a
//! public source says "unconfirmed" there and leans towards taking the schema: a double is never
//! stricter than its provider.

use std::borrow::Cow;

use serde_json::{Map, Value as Json};

use crate::error::{StrictError, StrictReason};
use crate::schema::json::pointer_push;
use crate::schema::provider::{self, Change, ChangeKind, Converted, Provider};
use crate::schema::strict;

crate::code_enum! {
    /// A provider in one request mode: what decides which schema rules apply.
    pub enum Mode {
        /// OpenAI function tools with `strict: true` (the Responses API's default), and
        /// `json_schema` outputs with `strict: true` (Structured Outputs).
        OpenAiStrict = "openai:strict",
        /// OpenAI function tools with `strict: false` (Chat Completions' default), and
        /// `json_schema` outputs without `strict`.
        OpenAiStandard = "openai:standard",
        /// Anthropic tools without `strict` (the default).
        AnthropicStandard = "anthropic:standard",
        /// Anthropic tools with `strict: true`, and structured outputs (`output_config.format`).
        AnthropicStrict = "anthropic:strict",
        /// Gemini `parameters` and `responseSchema`: its OpenAPI 3.0 schema subset.
        GeminiOpenApi = "gemini:openapi",
        /// Gemini `parametersJsonSchema` and `responseJsonSchema`: a JSON Schema subset.
        GeminiJson = "gemini:json",
    }
}

impl Mode {
    pub fn provider(self) -> Provider {
        match self {
            Mode::OpenAiStrict | Mode::OpenAiStandard => Provider::OpenAi,
            Mode::AnthropicStandard | Mode::AnthropicStrict => Provider::Anthropic,
            Mode::GeminiOpenApi | Mode::GeminiJson => Provider::Gemini,
        }
    }

    /// The mode in messages: `OpenAI strict mode`, `Anthropic standard tools`, ….
    pub fn name(self) -> &'static str {
        match self {
            Mode::OpenAiStrict => "OpenAI strict mode",
            Mode::OpenAiStandard => "OpenAI standard (non-strict) mode",
            Mode::AnthropicStandard => "Anthropic standard tools",
            Mode::AnthropicStrict => "Anthropic strict mode",
            Mode::GeminiOpenApi => "Gemini (OpenAPI schema)",
            Mode::GeminiJson => "Gemini (JSON Schema fields)",
        }
    }

    /// The mode a request to `provider` uses when a tool declares `strict` (or nothing): the
    /// declaration decides; without one, the provider's default (OpenAI: strict, as the
    /// Responses API and `@openai/agents` send; Anthropic: standard; Gemini: its OpenAPI
    /// schema).
    pub fn declared(provider: Provider, strict: Option<bool>) -> Mode {
        match (provider, strict) {
            (Provider::OpenAi, Some(false)) => Mode::OpenAiStandard,
            (Provider::OpenAi, _) => Mode::OpenAiStrict,
            (Provider::Anthropic, Some(true)) => Mode::AnthropicStrict,
            (Provider::Anthropic, _) => Mode::AnthropicStandard,
            (Provider::Gemini, _) => Mode::GeminiOpenApi,
        }
    }

    /// The same provider's other mode of a strict/standard pair.
    pub fn counterpart(self) -> Mode {
        match self {
            Mode::OpenAiStrict => Mode::OpenAiStandard,
            Mode::OpenAiStandard => Mode::OpenAiStrict,
            Mode::AnthropicStrict => Mode::AnthropicStandard,
            Mode::AnthropicStandard => Mode::AnthropicStrict,
            Mode::GeminiOpenApi => Mode::GeminiJson,
            Mode::GeminiJson => Mode::GeminiOpenApi,
        }
    }

    /// Whether the mode constrains the model's output to the schema (a `strict` flag sets it).
    pub fn is_strict(self) -> bool {
        matches!(self, Mode::OpenAiStrict | Mode::AnthropicStrict)
    }
}

/// A provider named in an option: `openai`, `anthropic`, `gemini` (each tool's declaration,
/// else the provider's default mode, decides the mode) or a mode (`openai:standard`, …).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    Provider(Provider),
    Mode(Mode),
}

impl Target {
    /// `openai`, `openai:strict`, …; `None` for anything else.
    pub fn from_code(code: &str) -> Option<Target> {
        Provider::from_code(code)
            .map(Target::Provider)
            .or_else(|| Mode::from_code(code).map(Target::Mode))
    }

    pub fn code(self) -> &'static str {
        match self {
            Target::Provider(p) => p.as_str(),
            Target::Mode(m) => m.as_str(),
        }
    }

    pub fn provider(self) -> Provider {
        match self {
            Target::Provider(p) => p,
            Target::Mode(m) => m.provider(),
        }
    }

    /// The mode for a tool that declares `strict` (or not).
    pub fn mode_for(self, strict: Option<bool>) -> Mode {
        match self {
            Target::Provider(p) => Mode::declared(p, strict),
            Target::Mode(m) => m,
        }
    }

    /// Every code an option may name, for messages.
    pub fn codes() -> Vec<&'static str> {
        Provider::ALL
            .iter()
            .map(|p| p.as_str())
            .chain(Mode::ALL.iter().map(|m| m.as_str()))
            .collect()
    }
}

/// What a schema is for: a tool's parameters or a structured output.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    Tool,
    Output,
}

/// A schema a mode takes: the keywords it ignores (taken, not enforced), at pointers of the
/// schema.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Taken {
    pub ignored: Vec<Change>,
}

fn refusal(
    mode: Mode,
    reason: StrictReason,
    pointer: &str,
    keyword: Option<&str>,
    what: impl Into<String>,
) -> StrictError {
    StrictError {
        reason,
        pointer: pointer.to_string(),
        keyword: keyword.map(str::to_string),
        message: format!("{} refuses it: {}", mode.name(), what.into()),
        tool_name: None,
    }
}

/// The schema's `type` as written at the root, for messages (`None` when absent).
fn root_type(schema: &Json) -> Option<String> {
    schema.get("type").map(|t| match t {
        Json::String(s) => s.clone(),
        other => other.to_string(),
    })
}

/// The rules on a tool's root every mode of `mode`'s provider shares. Anthropic: `type` is
/// required and is `"object"`, and no `anyOf`/`oneOf`/`allOf` sits at the top level (E11,
/// E12). OpenAI: the parameters (and an output) are an object schema (E22). Gemini's OpenAPI schema needs a
/// `type` on every node, its profile says so.
fn root_rules(mode: Mode, role: Role, schema: &Json) -> Result<(), StrictError> {
    if !schema.is_object() {
        return Err(refusal(
            mode,
            StrictReason::NonSchemaNode,
            "",
            None,
            "a schema must be an object",
        ));
    }
    match mode.provider() {
        Provider::Anthropic => {
            let field = if role == Role::Tool {
                "input_schema"
            } else {
                "the output schema"
            };
            match root_type(schema).as_deref() {
                None => {
                    return Err(refusal(
                        mode,
                        StrictReason::RootNotObject,
                        "",
                        Some("type"),
                        format!("{field}.type: Field required"),
                    ))
                }
                Some("object") => {}
                Some(_) => {
                    return Err(refusal(
                        mode,
                        StrictReason::RootNotObject,
                        "/type",
                        Some("type"),
                        format!("{field}.type: Input should be 'object'"),
                    ))
                }
            }
            if let Some(k) = ["anyOf", "oneOf", "allOf"]
                .into_iter()
                .find(|k| schema.get(*k).is_some())
            {
                return Err(refusal(
                    mode,
                    StrictReason::UnsupportedKeyword,
                    &format!("/{k}"),
                    Some(k),
                    format!("{field} does not support oneOf, allOf, or anyOf at the top level"),
                ));
            }
        }
        // A structured output's root is an object too (the Structured Outputs guide).
        Provider::OpenAi if root_type(schema).as_deref() != Some("object") => {
            let got = root_type(schema).unwrap_or_else(|| "None".into());
            return Err(refusal(
                mode,
                StrictReason::RootNotObject,
                "",
                Some("type"),
                format!(
                    "schema must be a JSON Schema of 'type: \"object\"', got 'type: \"{got}\"'"
                ),
            ));
        }
        _ => {}
    }
    Ok(())
}

/// `schema` without the `$defs` / `definitions` entries no `$ref` reaches from the root: such
/// an entry is never sent (dropping it loses nothing), and is never a reason to refuse. The
/// changes name each entry dropped.
pub fn without_unused_defs(schema: &Json) -> (Cow<'_, Json>, Vec<Change>) {
    let Some(root) = schema.as_object() else {
        return (Cow::Borrowed(schema), Vec::new());
    };
    let has_defs = ["$defs", "definitions"]
        .iter()
        .any(|k| root.get(*k).is_some_and(Json::is_object));
    if !has_defs {
        return (Cow::Borrowed(schema), Vec::new());
    }
    // The references reachable from the root outside the definitions, then through each
    // definition reached.
    let mut reached: Vec<String> = Vec::new();
    let mut pending: Vec<&Json> = root
        .iter()
        .filter(|(k, _)| *k != "$defs" && *k != "definitions")
        .map(|(_, v)| v)
        .collect();
    while let Some(node) = pending.pop() {
        match node {
            Json::Object(o) => {
                if let Some(Json::String(r)) = o.get("$ref") {
                    if !reached.contains(r) {
                        reached.push(r.clone());
                        if let Some(target) = r.strip_prefix('#').and_then(|p| schema.pointer(p)) {
                            pending.push(target);
                        }
                    }
                }
                pending.extend(o.values());
            }
            Json::Array(a) => pending.extend(a.iter()),
            _ => {}
        }
    }
    let mut out = root.clone();
    let mut changes = Vec::new();
    for key in ["$defs", "definitions"] {
        let Some(Json::Object(defs)) = out.get(key).cloned() else {
            continue;
        };
        let base = pointer_push("", key);
        let kept: Map<String, Json> = defs
            .into_iter()
            .filter(|(name, _)| {
                let at = pointer_push(&base, name);
                let used = reached
                    .iter()
                    .any(|r| r == &format!("#{at}") || r.starts_with(&format!("#{at}/")));
                if !used {
                    changes.push(Change {
                        pointer: at,
                        keyword: key.to_string(),
                        kind: ChangeKind::Dropped,
                        detail: "an unused definition: nothing refers to it".into(),
                    });
                }
                used
            })
            .collect();
        if kept.is_empty() {
            out.shift_remove(key);
        } else {
            out.insert(key.to_string(), Json::Object(kept));
        }
    }
    if changes.is_empty() {
        return (Cow::Borrowed(schema), Vec::new());
    }
    (Cow::Owned(Json::Object(out)), changes)
}

/// `schema` as `mode` reads it, or its refusal when it is no valid schema. Gemini reads type
/// names in any case (`Type.OBJECT`) and its Schema's fields in either proto3 spelling
/// (unconfirmed for the JSON Schema fields: read the same way, never stricter).
fn as_read(mode: Mode, schema: &Json) -> Result<Cow<'_, Json>, StrictError> {
    let schema = if mode.provider() == Provider::Gemini {
        Cow::Owned(gemini_spelling(schema))
    } else {
        Cow::Borrowed(schema)
    };
    match crate::schema::types::check(&schema) {
        Ok(()) => Ok(schema),
        Err(e) => Err(refusal(
            mode,
            StrictReason::NonSchemaNode,
            &e.pointer,
            Some("type"),
            e.to_string(),
        )),
    }
}

/// What `mode` does with `schema` sent as it is: takes it (with the keywords it ignores), or
/// refuses it (the reason, the pointer in `schema`, and the message the provider gives, where
/// known, in its words).
pub fn judge(mode: Mode, role: Role, schema: &Json) -> Result<Taken, StrictError> {
    let schema = as_read(mode, schema)?;
    let schema = schema.as_ref();
    root_rules(mode, role, schema)?;
    let (schema, _) = without_unused_defs(schema);
    let schema = schema.as_ref();
    match mode {
        Mode::OpenAiStrict => openai_strict(schema).map(|()| Taken::default()),
        Mode::OpenAiStandard => {
            // E5: `propertyNames` is refused even without strict mode.
            if let Some(at) = find_keyword(schema, "propertyNames") {
                return Err(refusal(
                    mode,
                    StrictReason::UnsupportedKeyword,
                    &at,
                    Some("propertyNames"),
                    "'propertyNames' is not permitted",
                ));
            }
            Ok(Taken::default())
        }
        // E9, E10: standard tools take any JSON Schema with an object root.
        Mode::AnthropicStandard => Ok(Taken::default()),
        Mode::AnthropicStrict => anthropic_strict(schema).map(|()| Taken::default()),
        Mode::GeminiOpenApi => {
            profile_verdict(Mode::GeminiOpenApi, schema).map(|()| Taken::default())
        }
        Mode::GeminiJson => gemini_json(schema),
    }
}

/// The first pointer at which `keyword` is a keyword of a subschema (not a property name).
fn find_keyword(schema: &Json, keyword: &str) -> Option<String> {
    let mut found = None;
    walk_subschemas(schema, "", &mut |node, at| {
        if found.is_none() && node.get(keyword).is_some() {
            found = Some(pointer_push(at, keyword));
        }
    });
    found
}

/// Calls `f` on every subschema of `schema` (itself first), with its pointer, in document order.
fn walk_subschemas(schema: &Json, pointer: &str, f: &mut dyn FnMut(&Map<String, Json>, &str)) {
    fn go(schema: &Json, pointer: &str, depth: usize, f: &mut dyn FnMut(&Map<String, Json>, &str)) {
        let Json::Object(node) = schema else { return };
        if depth > strict::MAX_DEPTH {
            return;
        }
        f(node, pointer);
        for (key, value) in node {
            let here = pointer_push(pointer, key);
            match (key.as_str(), value) {
                (
                    "properties" | "patternProperties" | "$defs" | "definitions"
                    | "dependentSchemas",
                    Json::Object(map),
                ) => {
                    for (name, sub) in map {
                        go(sub, &pointer_push(&here, name), depth + 1, f);
                    }
                }
                ("anyOf" | "oneOf" | "allOf" | "prefixItems" | "items", Json::Array(list)) => {
                    for (i, sub) in list.iter().enumerate() {
                        go(sub, &pointer_push(&here, &i.to_string()), depth + 1, f);
                    }
                }
                (
                    "items"
                    | "additionalProperties"
                    | "not"
                    | "if"
                    | "then"
                    | "else"
                    | "contains"
                    | "propertyNames"
                    | "unevaluatedProperties"
                    | "unevaluatedItems",
                    Json::Object(_),
                ) => go(value, &here, depth + 1, f),
                _ => {}
            }
        }
    }
    go(schema, pointer, 0, f)
}

/// The formats OpenAI's strict mode takes (E1, E3, E6: anything else is "'uri' is not a valid
/// format").
pub const OPENAI_FORMATS: [&str; 9] = [
    "date-time",
    "time",
    "date",
    "duration",
    "email",
    "hostname",
    "ipv4",
    "ipv6",
    "uuid",
];

/// OpenAI strict mode on a schema as sent: it must be its own strict form (every property
/// required, every object closed, only keywords strict mode knows: the reference's rules), every
/// `format` one of [`OPENAI_FORMATS`] (E1), and no object open (E7: the reference's conversion
/// passes an open map on as it is, the API refuses it).
fn openai_strict(schema: &Json) -> Result<(), StrictError> {
    let text = schema.to_string();
    let doc = crate::schema::json::parse(&text).map_err(|_| strict::depth_error_unlocated())?;
    strict::as_sent_refusal(&doc).map_err(|e| StrictError {
        message: format!("{} refuses it: {}", Mode::OpenAiStrict.name(), e.message),
        ..e
    })?;
    openai_strict_extra(schema)
}

/// What OpenAI's strict mode refuses that the reference's conversion passes on: a `format`
/// outside its nine, an open object; the first in document order.
fn openai_strict_extra(schema: &Json) -> Result<(), StrictError> {
    let mut fault = None;
    walk_subschemas(schema, "", &mut |node, at| {
        if fault.is_some() {
            return;
        }
        if let Some(Json::String(f)) = node.get("format") {
            if !OPENAI_FORMATS.contains(&f.as_str()) {
                fault = Some(refusal(
                    Mode::OpenAiStrict,
                    StrictReason::UnsupportedValue,
                    at,
                    Some("format"),
                    format!(
                        "'{f}' is not a valid format (strict mode takes {})",
                        OPENAI_FORMATS.join(", ")
                    ),
                ));
                return;
            }
        }
        if let Some(open) = node
            .get("additionalProperties")
            .filter(|v| **v != Json::Bool(false))
        {
            fault = Some(refusal(
                Mode::OpenAiStrict,
                StrictReason::OpenObject,
                &pointer_push(at, "additionalProperties"),
                Some("additionalProperties"),
                format!(
                    "strict mode needs `additionalProperties: false` on every object; this one has {}",
                    crate::schema::tools::compact(open)
                ),
            ));
        }
    });
    match fault {
        Some(f) => Err(f),
        None => Ok(()),
    }
}

/// Changes a provider profile makes that a mode takes as they are: annotations it drops
/// unread, and (Anthropic strict) local `$ref`s and their `$defs`, which it resolves itself.
fn taken_as_is(mode: Mode, c: &Change) -> bool {
    let dropped_annotation = c.kind == ChangeKind::Dropped && c.keyword != "additionalProperties";
    match mode {
        // Unconfirmed whether strict mode refuses annotations: taken (never stricter).
        Mode::AnthropicStrict => {
            dropped_annotation
                || (matches!(c.keyword.as_str(), "$ref" | "allOf")
                    && c.kind == ChangeKind::Rewritten)
        }
        // Any field outside its Schema is a 400 (E13, E14, E15): only its own fields are taken.
        Mode::GeminiOpenApi => {
            GEMINI_OWN.contains(&c.keyword.as_str()) && c.kind != ChangeKind::Narrowed
        }
        _ => false,
    }
}

/// The keywords Gemini's OpenAPI schema takes beside JSON Schema's (its profile would rewrite
/// or drop them, the provider takes them).
const GEMINI_OWN: [&str; 4] = ["nullable", "propertyOrdering", "example", "title"];

/// A provider profile's verdict on a schema as sent: refused where converting it changes more
/// than what the mode takes as it is.
fn profile_verdict(mode: Mode, schema: &Json) -> Result<(), StrictError> {
    let converted = provider::convert(schema, mode.provider()).map_err(|e| StrictError {
        message: format!("{} refuses it: {}", mode.name(), strip_provider(&e.message)),
        ..e
    })?;
    let Some(c) = converted.changes.iter().find(|c| !taken_as_is(mode, c)) else {
        return Ok(());
    };
    let at = crate::schema::pointer::place(&c.pointer);
    Err(StrictError {
        reason: StrictReason::NotStrict,
        pointer: c.pointer.clone(),
        keyword: Some(c.keyword.clone()),
        message: format!(
            "{} refuses it: `{}` at {at} is not supported ({}: {}).",
            mode.name(),
            c.keyword,
            c.kind.as_str(),
            c.detail
        ),
        tool_name: None,
    })
}

/// A profile's message without its `<Provider> cannot take this schema: ` opening.
fn strip_provider(message: &str) -> &str {
    message
        .split_once("cannot take this schema: ")
        .map_or(message, |(_, rest)| rest)
}

/// Anthropic strict mode (structured outputs' grammar): its profile, with local `$ref`s taken.
fn anthropic_strict(schema: &Json) -> Result<(), StrictError> {
    profile_verdict(Mode::AnthropicStrict, schema)
}

/// The snake_case spellings of Gemini's Schema fields, and their lowerCamelCase names.
const GEMINI_SNAKE: [(&str, &str); 9] = [
    ("any_of", "anyOf"),
    ("property_ordering", "propertyOrdering"),
    ("min_items", "minItems"),
    ("max_items", "maxItems"),
    ("min_length", "minLength"),
    ("max_length", "maxLength"),
    ("min_properties", "minProperties"),
    ("max_properties", "maxProperties"),
    ("prefix_items", "prefixItems"),
];

/// A Gemini schema with its fields in lowerCamelCase and its type names in lowercase, walking
/// schema positions only (a property named `min_items` stays as it is).
pub fn gemini_spelling(schema: &Json) -> Json {
    fn go(node: &Json, depth: usize) -> Json {
        let Json::Object(o) = node else {
            return node.clone();
        };
        if depth > strict::MAX_DEPTH {
            return node.clone();
        }
        let mut out = Map::new();
        for (k, v) in o {
            let key = GEMINI_SNAKE
                .iter()
                .find(|(snake, _)| snake == k)
                .map_or(k.as_str(), |(_, camel)| camel);
            let value = match (key, v) {
                ("type", Json::String(t)) => Json::String(t.to_ascii_lowercase()),
                ("properties", Json::Object(props)) => Json::Object(
                    props
                        .iter()
                        .map(|(n, s)| (n.clone(), go(s, depth + 1)))
                        .collect(),
                ),
                ("items", _) => go(v, depth + 1),
                ("anyOf" | "prefixItems", Json::Array(list)) => {
                    Json::Array(list.iter().map(|s| go(s, depth + 1)).collect())
                }
                _ => v.clone(),
            };
            out.insert(key.to_string(), value);
        }
        Json::Object(out)
    }
    go(schema, 0)
}

/// The keywords Gemini's JSON Schema fields read (E-docs: `responseJsonSchema`); any other is
/// ignored, not refused.
const GEMINI_JSON_KEYWORDS: [&str; 23] = [
    "$id",
    "$defs",
    "$ref",
    "$anchor",
    "type",
    "format",
    "title",
    "description",
    "enum",
    "items",
    "prefixItems",
    "minItems",
    "maxItems",
    "minimum",
    "maximum",
    "anyOf",
    "oneOf",
    "properties",
    "additionalProperties",
    "required",
    "propertyOrdering",
    "property_ordering",
    "definitions",
];

/// Gemini's JSON Schema fields: a keyword other than `$…` beside `$ref` is refused; keywords
/// outside its subset are ignored (listed).
fn gemini_json(schema: &Json) -> Result<Taken, StrictError> {
    let mode = Mode::GeminiJson;
    let mut fault = None;
    let mut ignored = Vec::new();
    walk_subschemas(schema, "", &mut |node, at| {
        if fault.is_none() && node.contains_key("$ref") {
            if let Some(k) = node.keys().find(|k| !k.starts_with('$')) {
                fault = Some(refusal(
                    mode,
                    StrictReason::RefSibling,
                    &pointer_push(at, k),
                    Some(k),
                    format!("`{k}` beside `$ref`: only `$`-keywords may sit beside a reference"),
                ));
            }
        }
        for k in node.keys() {
            if !GEMINI_JSON_KEYWORDS.contains(&k.as_str()) && !k.starts_with('$') {
                ignored.push(Change {
                    pointer: at.to_string(),
                    keyword: k.clone(),
                    kind: ChangeKind::Dropped,
                    detail: "ignored: the model is not held to it".into(),
                });
            }
        }
    });
    match fault {
        Some(f) => Err(f),
        None => Ok(Taken { ignored }),
    }
}

/// `schema` converted for `mode`: what that mode takes, and what the conversion changed (at
/// pointers of `schema`). `wrap` puts a root the mode refuses as a root under that property
/// (Anthropic's and Gemini's profiles). The result is always one `judge` takes.
pub fn convert(
    mode: Mode,
    role: Role,
    schema: &Json,
    wrap: Option<&str>,
) -> Result<Converted, StrictError> {
    let schema = as_read(mode, schema)?;
    let (pruned, mut changes) = without_unused_defs(schema.as_ref());
    let converted = match mode {
        Mode::OpenAiStrict => {
            root_rules(mode, role, &pruned)?;
            let text = pruned.to_string();
            let doc =
                crate::schema::json::parse(&text).map_err(|_| strict::depth_error_unlocated())?;
            // The reference's refusals first, then what it passes on that the API refuses.
            let prepared = strict::prepare(&doc, doc.root(), strict::Mode::Convert)?;
            openai_strict_extra(&pruned)?;
            let sent: Json = serde_json::from_str(&crate::schema::json::to_string(
                &prepared.doc,
                prepared.root,
            ))
            .unwrap_or_default();
            let mut diff_changes = Vec::new();
            crate::schema::tools::diff(&pruned, &sent, "", &mut diff_changes);
            changes.extend(diff_changes);
            Converted {
                schema: sent,
                changes,
                unwrap: None,
                restore: Vec::new(),
            }
        }
        Mode::OpenAiStandard => {
            root_rules(mode, role, &pruned)?;
            let mut out = pruned.into_owned();
            drop_keyword(&mut out, "propertyNames", &mut changes);
            Converted {
                schema: out,
                changes,
                unwrap: None,
                restore: Vec::new(),
            }
        }
        // A root standard tools refuse, with `wrap` given: the profile wraps it (its strict form,
        // which standard tools take too).
        Mode::AnthropicStandard
            if wrap.is_some() && pruned.get("type") != Some(&Json::String("object".into())) =>
        {
            let mut c = provider::convert_given(pruned.into_owned(), Provider::Anthropic, wrap)?;
            changes.append(&mut c.changes);
            c.changes = changes;
            c
        }
        Mode::AnthropicStandard => {
            root_rules(mode, role, &pruned)?;
            Converted {
                schema: pruned.into_owned(),
                changes,
                unwrap: None,
                restore: Vec::new(),
            }
        }
        Mode::AnthropicStrict | Mode::GeminiOpenApi => {
            let mut c = provider::convert_given(pruned.into_owned(), mode.provider(), wrap)?;
            if mode == Mode::AnthropicStrict {
                root_rules(mode, role, &c.schema)?;
            }
            changes.append(&mut c.changes);
            c.changes = changes;
            c
        }
        Mode::GeminiJson => {
            root_rules(mode, role, &pruned)?;
            gemini_json(&pruned)?;
            Converted {
                schema: pruned.into_owned(),
                changes,
                unwrap: None,
                restore: Vec::new(),
            }
        }
    };
    Ok(converted)
}

/// Removes `keyword` from every subschema of `schema`, listing each removal.
fn drop_keyword(schema: &mut Json, keyword: &str, changes: &mut Vec<Change>) {
    let mut at = Vec::new();
    walk_subschemas(schema, "", &mut |node, p| {
        if node.contains_key(keyword) {
            at.push(p.to_string());
        }
    });
    for p in at {
        if let Some(Json::Object(node)) = schema.pointer_mut(&p) {
            node.shift_remove(keyword);
            changes.push(Change {
                pointer: p,
                keyword: keyword.to_string(),
                kind: ChangeKind::Dropped,
                detail: format!("`{keyword}` left out: the provider refuses it"),
            });
        }
    }
}

/// Whether `provider` takes `name` as a tool's name: OpenAI `^[a-zA-Z0-9_-]+$`, at most 64
/// characters (E8), Anthropic `^[a-zA-Z0-9_-]{1,128}$` (E23), Gemini a letter or `_` first,
/// then letters, digits, `_`, `.`, `-`, at most 64 (E18, E24). `Err` holds the provider's own
/// words (without the field they are about).
pub fn check_name(provider: Provider, name: &str) -> Result<(), String> {
    let plain = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '-';
    let len = name.chars().count();
    match provider {
        Provider::OpenAi if len > 64 => Err(format!(
            "string too long. Expected a string with maximum length 64, but got a string with length {len} instead."
        )),
        Provider::OpenAi if len == 0 || !name.chars().all(plain) => Err(
            "string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'.".into(),
        ),
        Provider::Anthropic if len == 0 || len > 128 || !name.chars().all(plain) => {
            Err("String should match pattern '^[a-zA-Z0-9_-]{1,128}$'".into())
        }
        Provider::Gemini
            if len == 0
                || len > 64
                || !name.chars().all(|c| plain(c) || c == '.')
                || !name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') =>
        {
            Err("Invalid function name. Must start with a letter or an underscore. Must be alphameric (a-z, A-Z, 0-9), underscores (_), dots (.) or dashes (-), with a maximum length of 64.".into())
        }
        _ => Ok(()),
    }
}

/// The request limits of `mode` over the schemas a request sends in that mode (tools'
/// parameters as sent, and the output schema): Anthropic's apply to strict tools and outputs
/// only (E10); OpenAI's to Structured Outputs (strict); Gemini publishes none.
pub fn limits(
    mode: Mode,
    tools: &[(String, Json)],
    output: Option<&Json>,
) -> Vec<provider::Breach> {
    match mode {
        Mode::OpenAiStrict | Mode::AnthropicStrict => {
            provider::check_request(mode.provider(), tools, output)
        }
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod tests;
