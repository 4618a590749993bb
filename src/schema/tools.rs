//! A whole tool set checked for every provider before the request (`checkTools`,
//! `assertToolsAccepted`, the `check-tools` command): per tool and provider, whether the schema
//! goes as it is, goes converted (and what the conversion changed and loses), or is refused
//! (why, where, and what to change); per provider, the request limits of the whole set.
//!
//! OpenAI's column is its strict mode (`strict: true`, the default of `@openai/agents`' function
//! tools): the reference's conversion; the others are the provider profiles of
//! [`crate::schema::provider`]. A tool the check cannot read is a row, never an error: only a
//! value that is not a tool set at all is refused as a whole (by the facade, which reads it).

use serde::Serialize;
use serde_json::Value as Json;

use crate::error::{StrictError, StrictReason};
use crate::schema::json::pointer_push;
use crate::schema::pointer::place;
use crate::schema::provider::{self, Breach, Change, ChangeKind, Provider};
use crate::schema::strict::{self, Mode};

crate::code_enum! {
    /// What a provider does with one schema of a tool (`ToolCheckResult.status`).
    pub enum ToolStatus {
        /// Sent as it is: the provider takes the schema unchanged.
        Accepted = "accepted",
        /// Taken once converted for the provider (`changes` lists what the conversion did).
        Converted = "converted",
        /// The provider cannot take it, converted or not.
        Refused = "refused",
    }
}

crate::code_enum! {
    /// What a conversion loses at the provider (`ToolCheckResult.loss`).
    pub enum ToolLoss {
        /// Nothing: every change is a rewrite with the same meaning, or stricter.
        None = "none",
        /// Only annotations the provider does not take (`$schema`, `examples`, …): the model
        /// sees less, every answer is checked the same.
        Annotations = "annotations",
        /// Constraints the provider does not enforce (described in words or left out): the
        /// model may answer outside them, and only a local check of the answer catches it.
        Validation = "validation",
    }
}

crate::code_enum! {
    /// How strict a verdict over a report is (`check-tools`: `--allow-converted`, the default,
    /// `--fail-on-loss`).
    pub enum ToolPolicy {
        /// Only refusals and request-limit breaches fail.
        Refusals = "refusals",
        /// Also conversions that lose validation (the default).
        Validation = "validation",
        /// Also conversions that lose annotations.
        AnyLoss = "any-loss",
    }
}

/// The reason of a refused row that no schema rule gave: the tool could not be read.
const UNREADABLE: &str = "unreadable";

/// One schema of one tool, for one provider.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(
    test,
    derive(ts_rs::TS),
    ts(rename = "ToolCheckResult", optional_fields)
)]
pub struct ToolResult {
    /// The tool's name.
    pub tool: String,
    /// `input` (the parameters) or `output` (an MCP tool's `outputSchema`).
    #[cfg_attr(test, ts(type = "'input' | 'output'"))]
    pub schema: &'static str,
    #[cfg_attr(test, ts(type = "SchemaProvider"))]
    pub provider: Provider,
    /// `accepted` (sent as it is), `converted` (see `changes` and `loss`) or `refused`.
    #[cfg_attr(test, ts(type = "ToolCheckStatus"))]
    pub status: ToolStatus,
    /// With `converted`: what the conversion changed, at JSON Pointers of your schema.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub changes: Option<Vec<Change>>,
    /// With `converted`: what the changes lose at the provider.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(type = "ToolCheckLoss", optional))]
    pub loss: Option<ToolLoss>,
    /// With `converted`: the changes that lose something (those `loss` counts), in `changes`'
    /// order.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lost: Option<Vec<Change>>,
    /// With `refused`: the reason code (a `StrictSchemaErrorReason`, or `unreadable` for a
    /// tool whose schema could not be read).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(type = "StrictSchemaErrorReason | 'unreadable'", optional))]
    pub reason: Option<String>,
    /// With `refused`: the JSON Pointer of the node at fault in your schema.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pointer: Option<String>,
    /// With `refused`: the keyword at fault, where there is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub keyword: Option<String>,
    /// With `refused`: why, in words, naming the tool and the provider.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// With `refused`: what to change so the provider takes it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fix: Option<String>,
}

/// A tool the check leaves alone (a hosted or provider-defined tool: no schema of yours).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS), ts(rename = "SkippedTool"))]
pub struct Skipped {
    pub tool: String,
    /// The tool's `type` as given.
    #[serde(rename = "type")]
    pub kind: String,
    pub reason: String,
}

/// The breaches of one provider's request limits by the whole set.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS), ts(rename = "ToolCheckLimits"))]
pub struct ProviderLimits {
    #[cfg_attr(test, ts(type = "SchemaProvider"))]
    pub provider: Provider,
    pub breaches: Vec<Breach>,
}

/// `checkTools`' report.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS), ts(rename = "ToolCheckReport"))]
pub struct Report {
    /// The providers checked, in the order given.
    #[cfg_attr(test, ts(type = "SchemaProvider[]"))]
    pub providers: Vec<Provider>,
    /// The names of the tools checked, in the set's order.
    pub tools: Vec<String>,
    /// One row per tool, schema and provider, in that order.
    pub results: Vec<ToolResult>,
    /// Per provider, the request limits the whole set breaks (tools as they would be sent).
    pub limits: Vec<ProviderLimits>,
    pub skipped: Vec<Skipped>,
}

/// A tool as the facade read it: `{ name, type?, input?, output?, error? }` (`error`: why its
/// schema could not be read, such as a Standard Schema without JSON Schema).
fn read_tool(
    i: usize,
    tool: &Json,
) -> (
    String,
    Option<String>,
    Option<&Json>,
    Option<&Json>,
    Option<String>,
) {
    let name = match tool.get("name").and_then(Json::as_str) {
        Some(n) if !n.is_empty() => n.to_string(),
        _ => format!("tools[{i}]"),
    };
    let kind = tool.get("type").and_then(Json::as_str).map(str::to_string);
    let error = tool.get("error").and_then(Json::as_str).map(str::to_string);
    (name, kind, tool.get("input"), tool.get("output"), error)
}

/// Tool types whose schema is the user's: function tools (`@openai/agents`, the AI SDK's
/// `function` and `dynamic`). Any other typed tool is hosted or provider-defined.
fn is_function_type(kind: Option<&str>) -> bool {
    matches!(kind, None | Some("function" | "dynamic"))
}

/// Checks the tools of `request` (`{ tools: [...] }`, read by the facade) for `providers`.
pub fn check_tools(request: &Json, providers: &[Provider]) -> Report {
    let tools = request
        .get("tools")
        .and_then(Json::as_array)
        .cloned()
        .unwrap_or_default();
    let mut report = Report {
        providers: providers.to_vec(),
        tools: Vec::new(),
        results: Vec::new(),
        limits: Vec::new(),
        skipped: Vec::new(),
    };
    // Per provider, the tools' parameters as they would be sent, for the request limits.
    let mut sent: Vec<Vec<(String, Json)>> = vec![Vec::new(); providers.len()];
    for (i, tool) in tools.iter().enumerate() {
        let (name, kind, input, output, error) = read_tool(i, tool);
        if !is_function_type(kind.as_deref()) {
            let kind = kind.unwrap_or_default();
            report.skipped.push(Skipped {
                reason: format!(
                    "`{name}` is a `{kind}` tool: the provider defines its schema, not you."
                ),
                tool: name,
                kind,
            });
            continue;
        }
        report.tools.push(name.clone());
        let schemas = [("input", input), ("output", output)];
        for (which, schema) in schemas {
            if which == "output" && schema.is_none_or(Json::is_null) {
                continue;
            }
            for (p, &provider) in providers.iter().enumerate() {
                let row = match (&error, schema) {
                    (Some(e), _) if which == "input" => unreadable(&name, provider, e.clone()),
                    (_, None | Some(Json::Null)) => unreadable(
                        &name,
                        provider,
                        format!(
                            "Tool `{name}` has no input schema (`inputSchema` or `parameters`)."
                        ),
                    ),
                    (_, Some(schema)) => {
                        let (row, as_sent) = check_one(&name, which, schema, provider);
                        if let (Some(as_sent), "input") = (as_sent, which) {
                            sent[p].push((name.clone(), as_sent));
                        }
                        row
                    }
                };
                report.results.push(row);
            }
        }
    }
    for (p, &provider) in providers.iter().enumerate() {
        report.limits.push(ProviderLimits {
            provider,
            breaches: provider::check_request(provider, &sent[p], None),
        });
    }
    report
}

fn row(tool: &str, schema: &'static str, provider: Provider, status: ToolStatus) -> ToolResult {
    ToolResult {
        tool: tool.to_string(),
        schema,
        provider,
        status,
        changes: None,
        loss: None,
        lost: None,
        reason: None,
        pointer: None,
        keyword: None,
        message: None,
        fix: None,
    }
}

fn unreadable(tool: &str, provider: Provider, message: String) -> ToolResult {
    ToolResult {
        reason: Some(UNREADABLE.to_string()),
        pointer: Some(String::new()),
        message: Some(message),
        fix: Some("Give the tool a JSON Schema, or a schema library's schema that converts to one (Zod 4, Valibot with @valibot/to-json-schema, ArkType).".to_string()),
        ..row(tool, "input", provider, ToolStatus::Refused)
    }
}

/// One schema for one provider: its row, and the schema as it would be sent (unless refused).
fn check_one(
    tool: &str,
    which: &'static str,
    schema: &Json,
    provider: Provider,
) -> (ToolResult, Option<Json>) {
    let converted = convert(schema, provider);
    match converted {
        Err(e) => (refused(tool, which, provider, e), None),
        Ok((sent, changes)) if changes.is_empty() => {
            (row(tool, which, provider, ToolStatus::Accepted), Some(sent))
        }
        Ok((sent, mut changes)) => {
            // In document order whatever the order of the keys as given (an MCP client may
            // put the keywords it knows first).
            changes.sort_by(|a, b| (&a.pointer, &a.keyword).cmp(&(&b.pointer, &b.keyword)));
            let lost: Vec<Change> = changes
                .iter()
                .filter(|c| change_loss(c, schema) != ToolLoss::None)
                .cloned()
                .collect();
            let r = ToolResult {
                loss: Some(loss_of(&changes, schema)),
                lost: Some(lost),
                changes: Some(changes),
                ..row(tool, which, provider, ToolStatus::Converted)
            };
            (r, Some(sent))
        }
    }
}

/// The schema converted for `provider`, and what the conversion changed.
fn convert(schema: &Json, provider: Provider) -> Result<(Json, Vec<Change>), StrictError> {
    if let Err(e) = crate::schema::types::check(schema) {
        return Err(StrictError {
            reason: StrictReason::NonSchemaNode,
            pointer: e.pointer.clone(),
            keyword: Some("type".to_string()),
            message: e.to_string(),
        });
    }
    if provider == Provider::OpenAi {
        let text = serde_json::to_string(schema).unwrap_or_default();
        let doc = crate::schema::json::parse(&text).map_err(|_| strict::depth_error_unlocated())?;
        let strict = strict::prepare(&doc, doc.root(), Mode::Convert)?;
        let sent: Json =
            serde_json::from_str(&crate::schema::json::to_string(&strict.doc, strict.root))
                .unwrap_or_default();
        openai_refusals(schema, "")?;
        let mut changes = Vec::new();
        diff(schema, &sent, "", &mut changes);
        return Ok((sent, changes));
    }
    let converted = provider::convert_given(schema.clone(), provider, None)?;
    Ok((converted.schema, converted.changes))
}

/// The formats OpenAI's strict mode takes (anything else: "'uri' is not a valid format").
const OPENAI_FORMATS: [&str; 9] = [
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

/// What OpenAI's strict mode refuses that the reference's conversion passes on as it is (the
/// API answers 400): a `format` outside its nine, an open object (`additionalProperties` other
/// than `false`). Walks the subschemas of `schema` in document order.
fn openai_refusals(schema: &Json, pointer: &str) -> Result<(), StrictError> {
    let Json::Object(node) = schema else {
        return Ok(());
    };
    if let Some(Json::String(format)) = node.get("format") {
        if !OPENAI_FORMATS.contains(&format.as_str()) {
            return Err(StrictError {
                reason: StrictReason::UnsupportedValue,
                pointer: pointer.to_string(),
                keyword: Some("format".to_string()),
                message: format!("strict mode takes `format` only as one of {}; '{format}' is not a valid format.", OPENAI_FORMATS.join(", ")),
            });
        }
    }
    if let Some(open) = node
        .get("additionalProperties")
        .filter(|v| **v != Json::Bool(false))
    {
        return Err(StrictError {
            reason: StrictReason::OpenObject,
            pointer: pointer_push(pointer, "additionalProperties"),
            keyword: Some("additionalProperties".to_string()),
            message: format!(
                "strict mode needs `additionalProperties: false` on every object; this one has {}.",
                compact(open)
            ),
        });
    }
    for (key, value) in node {
        let here = pointer_push(pointer, key);
        match (key.as_str(), value) {
            (
                "properties" | "patternProperties" | "$defs" | "definitions" | "dependentSchemas",
                Json::Object(map),
            ) => {
                for (name, sub) in map {
                    openai_refusals(sub, &pointer_push(&here, name))?;
                }
            }
            ("anyOf" | "oneOf" | "allOf" | "prefixItems" | "items", Json::Array(list)) => {
                for (i, sub) in list.iter().enumerate() {
                    openai_refusals(sub, &pointer_push(&here, &i.to_string()))?;
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
            ) => {
                openai_refusals(value, &here)?;
            }
            _ => {}
        }
    }
    Ok(())
}

/// What OpenAI's strict conversion changed, node by node: keywords it added, left out or
/// rewrote (the reference's conversion lists nothing itself).
fn diff(original: &Json, strict: &Json, pointer: &str, out: &mut Vec<Change>) {
    let (Json::Object(a), Json::Object(b)) = (original, strict) else {
        if original != strict {
            out.push(openai_change(
                pointer,
                "",
                ChangeKind::Rewritten,
                "rewritten for strict mode".to_string(),
            ));
        }
        return;
    };
    // An optional property, sent as a union of itself and `null`: one change, then the
    // property's own schema against its branch.
    if let (None, Some(Json::Array(branches))) = (a.get("anyOf"), b.get("anyOf")) {
        let is_null = |s: &Json| s.get("type").and_then(Json::as_str) == Some("null");
        if let ([x, y], true) = (branches.as_slice(), branches.iter().any(is_null)) {
            let inner = if is_null(x) { y } else { x };
            out.push(openai_change(
                pointer,
                "anyOf",
                ChangeKind::Rewritten,
                OPTIONAL.to_string(),
            ));
            let rest: serde_json::Map<String, Json> = b
                .iter()
                .filter(|(k, _)| *k != "anyOf")
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect();
            let mut merged = inner.as_object().cloned().unwrap_or_default();
            merged.extend(rest);
            diff(original, &Json::Object(merged), pointer, out);
            return;
        }
    }
    for (key, value) in b {
        match a.get(key) {
            None => out.push(added(pointer, key, value)),
            Some(old) if old == value => {}
            Some(old) => changed(pointer, key, old, value, out),
        }
    }
    for key in a.keys().filter(|k| !b.contains_key(*k)) {
        out.push(openai_change(
            pointer,
            key,
            ChangeKind::Dropped,
            format!("`{key}` left out: strict mode does not take it here"),
        ));
    }
}

fn changed(pointer: &str, key: &str, old: &Json, new: &Json, out: &mut Vec<Change>) {
    let here = pointer_push(pointer, key);
    match (old, new) {
        (Json::Object(_), Json::Object(_)) if key != "additionalProperties" => {
            diff(old, new, &here, out)
        }
        (Json::Array(x), Json::Array(y))
            if x.len() == y.len() && key != "required" && key != "type" && key != "enum" =>
        {
            for (i, (o, n)) in x.iter().zip(y).enumerate() {
                diff(o, n, &pointer_push(&here, &i.to_string()), out);
            }
        }
        _ if key == "required" => out.push(openai_change(
            pointer,
            key,
            ChangeKind::Rewritten,
            REQUIRED.to_string(),
        )),
        (Json::String(t), Json::Array(ts))
            if key == "type"
                && ts.len() == 2
                && ts.contains(old)
                && ts.contains(&Json::from("null")) =>
        {
            out.push(openai_change(
                pointer,
                key,
                ChangeKind::Rewritten,
                format!("`{t}` made nullable: {OPTIONAL}"),
            ))
        }
        _ if key == "additionalProperties" && *new == Json::Bool(false) => out.push(openai_change(
            pointer,
            key,
            ChangeKind::Narrowed,
            CLOSED.to_string(),
        )),
        _ => out.push(openai_change(
            pointer,
            key,
            ChangeKind::Rewritten,
            format!("`{key}` {} became {}", compact(old), compact(new)),
        )),
    }
}

fn added(pointer: &str, key: &str, value: &Json) -> Change {
    match key {
        "additionalProperties" => {
            openai_change(pointer, key, ChangeKind::Narrowed, CLOSED.to_string())
        }
        "required" => openai_change(pointer, key, ChangeKind::Rewritten, REQUIRED.to_string()),
        _ => openai_change(
            pointer,
            key,
            ChangeKind::Rewritten,
            format!("`{key}: {}` added for strict mode", compact(value)),
        ),
    }
}

const CLOSED: &str = "closed with `additionalProperties: false`, which strict mode requires";
const REQUIRED: &str = "every property required: strict mode has no optional properties, so the optional ones take `null` instead";
const OPTIONAL: &str = "an optional property, sent as required and nullable (`normalizeInput` turns `null` back into an absent key)";

fn openai_change(pointer: &str, keyword: &str, kind: ChangeKind, detail: String) -> Change {
    Change {
        pointer: pointer.to_string(),
        keyword: keyword.to_string(),
        kind,
        detail,
    }
}

/// A value in a few characters, for a change's detail.
fn compact(value: &Json) -> String {
    let text = serde_json::to_string(value).unwrap_or_default();
    if text.chars().count() <= 60 {
        return text;
    }
    format!("{}…", text.chars().take(57).collect::<String>())
}

/// Keywords that only annotate: leaving one out changes what the model reads, not which
/// answers are valid.
const ANNOTATIONS: [&str; 14] = [
    "$schema",
    "$id",
    "$comment",
    "$anchor",
    "title",
    "description",
    "examples",
    "default",
    "deprecated",
    "readOnly",
    "writeOnly",
    "contentEncoding",
    "contentMediaType",
    "format",
];

/// What one change of `original` loses at the provider. Leaving out `additionalProperties:
/// false` (Gemini's OpenAPI schema has no such field) loses nothing: the provider's object holds
/// the properties it lists, and an open map is another change (refused, or dropped as a schema).
fn change_loss(c: &Change, original: &Json) -> ToolLoss {
    let closed = || {
        original
            .pointer(&c.pointer)
            .and_then(|n| n.get("additionalProperties"))
            == Some(&Json::Bool(false))
    };
    match c.kind {
        ChangeKind::Described => ToolLoss::Validation,
        ChangeKind::Dropped if c.keyword == "additionalProperties" && closed() => ToolLoss::None,
        ChangeKind::Dropped if ANNOTATIONS.contains(&c.keyword.as_str()) => ToolLoss::Annotations,
        ChangeKind::Dropped => ToolLoss::Validation,
        _ => ToolLoss::None,
    }
}

/// What `changes` of `original` lose at the provider: the most any one of them loses.
pub fn loss_of(changes: &[Change], original: &Json) -> ToolLoss {
    let rank = |l: ToolLoss| match l {
        ToolLoss::None => 0,
        ToolLoss::Annotations => 1,
        ToolLoss::Validation => 2,
    };
    changes
        .iter()
        .map(|c| change_loss(c, original))
        .max_by_key(|l| rank(*l))
        .unwrap_or(ToolLoss::None)
}

/// A refused row, with what to change.
fn refused(tool: &str, which: &'static str, provider: Provider, e: StrictError) -> ToolResult {
    let where_ = place(&e.pointer);
    let what = if which == "output" {
        "output schema"
    } else {
        "input schema"
    };
    ToolResult {
        fix: Some(fix_for(e.reason, e.keyword.as_deref(), provider).to_string()),
        message: Some(format!(
            "{} refuses the {what} of tool `{tool}` at {where_}: {}",
            provider.name(),
            e.message
        )),
        reason: Some(e.reason.as_str().to_string()),
        pointer: Some(e.pointer),
        keyword: e.keyword,
        ..row(tool, which, provider, ToolStatus::Refused)
    }
}

/// What to change for a refusal of `reason`.
fn fix_for(reason: StrictReason, keyword: Option<&str>, provider: Provider) -> &'static str {
    if keyword == Some("format") {
        return "Drop `format` and say it in `description` (the answer can still be checked locally), use one of the formats the provider takes, or send the tool with `strict: false`.";
    }
    match (reason, provider) {
        (StrictReason::Recursive, _) => "Unroll the recursion to the depth you need (a `children` of a fixed number of levels), or take the nested part as a JSON string the tool parses.",
        (StrictReason::RootNotObject, _) => "Put the value under one property of an object (`{ type: 'object', properties: { value: … }, required: ['value'] }`), or convert with `wrapRoot: 'value'`.",
        (StrictReason::OpenObject | StrictReason::TypelessOpenObject, _) => "Replace the open map (`additionalProperties` with a schema, or no `properties`) by an array of `{ key, value }` objects, or by the properties you expect.",
        (StrictReason::UnsupportedKeyword, Provider::OpenAi) => "Rewrite the keyword strict mode cannot take (`allOf` merged, `oneOf` as `anyOf`, `if`/`then`/`else` as an `anyOf` of the cases), or send the tool with `strict: false`.",
        (StrictReason::UnsupportedKeyword, _) => "Rewrite the keyword the provider cannot take (`not`, `if`/`then`/`else`, `patternProperties`, `dependentSchemas`…) as an `anyOf` of the cases, or check it in the tool itself.",
        (StrictReason::UnsupportedValue, _) => "Use values the provider takes there (strings, numbers, booleans or null in an `enum`).",
        (StrictReason::AmbiguousAnyOf | StrictReason::UnknownNullability, _) => "Make the optional properties of the `anyOf` branches required (nullable where they may be missing), so an answer maps back unambiguously.",
        (StrictReason::RefSibling | StrictReason::AnyOfSibling, _) => "Move the keywords beside `$ref` / `anyOf` into the referenced schema or into each branch.",
        (StrictReason::UnresolvedRef | StrictReason::NonStringRef | StrictReason::DefsNotObject, _) => "Make every `$ref` point inside the schema (`#/$defs/…`) and `$defs` an object of schemas.",
        (StrictReason::Depth | StrictReason::TooLarge, _) => "Flatten the schema: fewer levels of nesting and fewer nodes.",
        (StrictReason::NonSchemaNode | StrictReason::NotJson | StrictReason::NestedId | StrictReason::InvalidAnyOf, _) => "Fix the schema itself: every position a schema (an object or a boolean), valid `type` names, JSON values only.",
        (StrictReason::NotStrict | StrictReason::RequestLimit, _) => "Convert the schema for the provider before the request (`providerSchemas`), or split the tool set across requests.",
    }
}

/// Whether `row` fails under `policy`.
fn fails(row: &ToolResult, policy: ToolPolicy) -> bool {
    match row.status {
        ToolStatus::Refused => true,
        ToolStatus::Accepted => false,
        ToolStatus::Converted => matches!(
            (policy, row.loss.unwrap_or(ToolLoss::None)),
            (ToolPolicy::Validation, ToolLoss::Validation)
                | (
                    ToolPolicy::AnyLoss,
                    ToolLoss::Validation | ToolLoss::Annotations
                )
        ),
    }
}

/// The verdict over a report: `None` when it passes `policy`, else a message listing every
/// failing row (provider, tool, pointer and what to change) and every request-limit breach.
pub fn verdict(report: &Report, policy: ToolPolicy) -> Option<String> {
    let mut lines = Vec::new();
    // The tools with a failing row, each once.
    let mut failing: Vec<&str> = Vec::new();
    for r in report.results.iter().filter(|r| fails(r, policy)) {
        if !failing.contains(&r.tool.as_str()) {
            failing.push(&r.tool);
        }
        match r.status {
            ToolStatus::Refused => lines.push(format!(
                "- {} Fix: {}",
                r.message.as_deref().unwrap_or_default(),
                r.fix.as_deref().unwrap_or_default()
            )),
            _ => {
                let lost: Vec<String> = r
                    .lost
                    .iter()
                    .flatten()
                    .map(|c| {
                        format!(
                            "`{}` at {} {}",
                            c.keyword,
                            place(&c.pointer),
                            c.kind.as_str()
                        )
                    })
                    .collect();
                lines.push(format!(
                    "- {} converts `{}` ({}) with loss: {}",
                    r.provider.name(),
                    r.tool,
                    r.schema,
                    lost.join(", ")
                ));
            }
        }
    }
    for limits in &report.limits {
        for b in &limits.breaches {
            let tool = tool_of_pointer(&report.tools, &b.pointer);
            lines.push(format!(
                "- {} request limit `{}`{tool}: {}",
                limits.provider.name(),
                b.limit.as_str(),
                b.message
            ));
        }
    }
    if lines.is_empty() {
        return None;
    }
    let tools = report.tools.len();
    Some(format!(
        "{} of {tools} tool{} fail{} the check for {}:\n{}",
        failing.len(),
        if tools == 1 { "" } else { "s" },
        if failing.len() == 1 { "s" } else { "" },
        report
            .providers
            .iter()
            .map(|p| p.name())
            .collect::<Vec<_>>()
            .join(", "),
        lines.join("\n")
    ))
}

/// ` (tool `name`)` for a breach pointer `/tools/<i>/…`, empty otherwise.
fn tool_of_pointer(tools: &[String], pointer: &str) -> String {
    pointer
        .strip_prefix("/tools/")
        .and_then(|rest| rest.split('/').next())
        .and_then(|i| i.parse::<usize>().ok())
        .and_then(|i| tools.get(i))
        .map(|name| format!(" (at tool `{name}`)"))
        .unwrap_or_default()
}

#[cfg(test)]
mod tests;
