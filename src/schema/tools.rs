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
use crate::schema::book::{self, Mode, Role, Target};
use crate::schema::json::pointer_push;
use crate::schema::pointer::place;
use crate::schema::provider::{Breach, Change, ChangeKind, Provider};

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

/// One schema of one tool, for one provider in one mode.
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
    /// `input`: the parameters (an MCP tool's `outputSchema` is checked apart, in `outputs`).
    #[cfg_attr(test, ts(type = "'input'"))]
    pub schema: &'static str,
    /// The provider as the options named it (`openai`, `anthropic:strict`, …): the report's
    /// column.
    #[cfg_attr(test, ts(type = "SchemaProviderName"))]
    pub target: &'static str,
    #[cfg_attr(test, ts(type = "SchemaProvider"))]
    pub provider: Provider,
    /// The request mode the row is for: the one named, or (for a provider named alone) the one
    /// the tool declares with `strict`, else the provider's default.
    #[cfg_attr(test, ts(type = "SchemaProviderMode"))]
    pub mode: Mode,
    /// `accepted` (sent as it is), `converted` (see `changes` and `loss`) or `refused`.
    #[cfg_attr(test, ts(type = "ToolCheckStatus"))]
    pub status: ToolStatus,
    /// With `accepted`: keywords the mode takes but does not hold the model to.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ignored: Option<Vec<Change>>,
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
    /// With `converted` (and `refused`): what the provider answers to the schema sent as it
    /// is, unconverted (the 400 the HTTP double gives).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub as_sent: Option<AsSent>,
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

/// What a provider answers to a schema sent as it is (`ToolCheckResult.asSent`): the refusal
/// the HTTP double gives too.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(
    test,
    derive(ts_rs::TS),
    ts(rename = "ToolCheckAsSent", optional_fields)
)]
pub struct AsSent {
    #[cfg_attr(test, ts(type = "StrictSchemaErrorReason"))]
    pub reason: StrictReason,
    pub pointer: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub keyword: Option<String>,
    pub message: String,
}

impl From<StrictError> for AsSent {
    fn from(e: StrictError) -> AsSent {
        AsSent {
            reason: e.reason,
            pointer: e.pointer,
            keyword: e.keyword,
            message: e.message,
        }
    }
}

/// An MCP tool's `outputSchema`, checked against what MCP clients require of it: an object
/// schema (`type: "object"`). No provider receives it.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(
    test,
    derive(ts_rs::TS),
    ts(rename = "ToolOutputCheck", optional_fields)
)]
pub struct OutputResult {
    pub tool: String,
    /// `accepted` or `refused`.
    #[cfg_attr(test, ts(type = "ToolCheckStatus"))]
    pub status: ToolStatus,
    /// With `refused`: why, naming the tool.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// With `refused`: the JSON Pointer at fault.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pointer: Option<String>,
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
    /// The provider as the options named it (the report's column).
    #[cfg_attr(test, ts(type = "SchemaProviderName"))]
    pub provider: &'static str,
    pub breaches: Vec<Breach>,
}

/// `checkTools`' report.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS), ts(rename = "ToolCheckReport"))]
pub struct Report {
    /// The providers checked, as named (a provider, or a provider with its mode), in the order
    /// given: the report's columns.
    #[cfg_attr(test, ts(type = "SchemaProviderName[]"))]
    pub providers: Vec<&'static str>,
    /// The names of the tools checked, in the set's order.
    pub tools: Vec<String>,
    /// One row per tool and provider, in that order.
    pub results: Vec<ToolResult>,
    /// One row per tool with an MCP `outputSchema`.
    pub outputs: Vec<OutputResult>,
    /// Per provider, the request limits the whole set breaks (tools as they would be sent).
    pub limits: Vec<ProviderLimits>,
    pub skipped: Vec<Skipped>,
}

/// A tool as the facade read it: `{ name, type?, strict?, input?, output?, error? }`
/// (`error`: why its schema could not be read, such as a Standard Schema without JSON Schema).
struct ReadTool<'a> {
    name: String,
    /// Whether the tool had a name of its own (else `tools[i]`).
    named: bool,
    kind: Option<String>,
    strict: Option<bool>,
    input: Option<&'a Json>,
    output: Option<&'a Json>,
    error: Option<String>,
}

fn read_tool(i: usize, tool: &Json) -> ReadTool<'_> {
    let given = tool.get("name").and_then(Json::as_str);
    ReadTool {
        name: match given {
            Some(n) if !n.is_empty() => n.to_string(),
            _ => format!("tools[{i}]"),
        },
        named: given.is_some(),
        kind: tool.get("type").and_then(Json::as_str).map(str::to_string),
        strict: tool.get("strict").and_then(Json::as_bool),
        input: tool.get("input"),
        output: tool.get("output"),
        error: tool.get("error").and_then(Json::as_str).map(str::to_string),
    }
}

/// Tool types whose schema is the user's: function tools (`@openai/agents`, the AI SDK's
/// `function` and `dynamic`). Any other typed tool is hosted or provider-defined.
fn is_function_type(kind: Option<&str>) -> bool {
    matches!(kind, None | Some("function" | "dynamic"))
}

/// Checks the tools of `request` (`{ tools: [...] }`, read by the facade) for `targets`.
pub fn check_tools(request: &Json, targets: &[Target]) -> Report {
    let tools = request
        .get("tools")
        .and_then(Json::as_array)
        .cloned()
        .unwrap_or_default();
    let mut report = Report {
        providers: targets.iter().map(|t| t.code()).collect(),
        tools: Vec::new(),
        results: Vec::new(),
        outputs: Vec::new(),
        limits: Vec::new(),
        skipped: Vec::new(),
    };
    // Per target, the tools' parameters as they would be sent, with their mode, for the
    // request limits.
    let mut sent: Vec<Vec<(Mode, String, Json)>> = vec![Vec::new(); targets.len()];
    for (i, tool) in tools.iter().enumerate() {
        let t = read_tool(i, tool);
        if !is_function_type(t.kind.as_deref()) {
            let kind = t.kind.clone().unwrap_or_default();
            report.skipped.push(Skipped {
                reason: format!(
                    "`{}` is a `{kind}` tool: the provider defines its schema, not you.",
                    t.name
                ),
                tool: t.name.clone(),
                kind,
            });
            continue;
        }
        report.tools.push(t.name.clone());
        for (p, &target) in targets.iter().enumerate() {
            let mode = target.mode_for(t.strict);
            let row = match (&t.error, t.input) {
                (Some(e), _) => unreadable(&t.name, target, mode, e.clone()),
                (_, None | Some(Json::Null)) => unreadable(
                    &t.name,
                    target,
                    mode,
                    format!(
                        "Tool `{}` has no input schema (`inputSchema` or `parameters`).",
                        t.name
                    ),
                ),
                (_, Some(schema)) => {
                    let named = t.named.then_some(t.name.as_str());
                    let (row, as_sent) = check_one(&t.name, named, schema, target, mode);
                    if let Some(as_sent) = as_sent {
                        sent[p].push((mode, t.name.clone(), as_sent));
                    }
                    row
                }
            };
            report.results.push(row);
        }
        if let Some(output) = t.output.filter(|o| !o.is_null()) {
            report.outputs.push(check_output(&t.name, output));
        }
    }
    for (p, &target) in targets.iter().enumerate() {
        let mut breaches = Vec::new();
        for mode in Mode::ALL
            .iter()
            .filter(|m| m.provider() == target.provider())
        {
            let in_mode: Vec<(String, Json)> = sent[p]
                .iter()
                .filter(|(m, _, _)| m == mode)
                .map(|(_, n, s)| (n.clone(), s.clone()))
                .collect();
            // A breach's `/tools/<k>` names the k-th tool in this mode: written back as the
            // tool's place in the whole set.
            for mut b in book::limits(*mode, &in_mode, None) {
                if let Some((k, rest)) = b
                    .pointer
                    .strip_prefix("/tools/")
                    .and_then(|r| r.split_once('/').or(Some((r, ""))))
                {
                    let place = k
                        .parse::<usize>()
                        .ok()
                        .and_then(|k| in_mode.get(k))
                        .and_then(|(n, _)| report.tools.iter().position(|t| t == n));
                    if let Some(i) = place {
                        let slash = if rest.is_empty() { "" } else { "/" };
                        b.pointer = format!("/tools/{i}{slash}{rest}");
                    }
                }
                breaches.push(b);
            }
        }
        report.limits.push(ProviderLimits {
            provider: target.code(),
            breaches,
        });
    }
    report
}

/// An MCP `outputSchema` against what MCP clients require: an object whose `type` is
/// `"object"` (the official SDK refuses the whole listing otherwise).
fn check_output(tool: &str, schema: &Json) -> OutputResult {
    let fault = match schema.get("type") {
        _ if !schema.is_object() => Some(("", "is not an object".to_string())),
        Some(Json::String(t)) if t == "object" => None,
        Some(t) => Some(("/type", format!("has `type` {}", compact(t)))),
        None => Some(("", "has no `type`".to_string())),
    };
    match fault {
        None => OutputResult {
            tool: tool.to_string(),
            status: ToolStatus::Accepted,
            message: None,
            pointer: None,
        },
        Some((pointer, what)) => OutputResult {
            tool: tool.to_string(),
            status: ToolStatus::Refused,
            message: Some(format!(
                "The output schema of tool `{tool}` {what}; MCP clients require `type: \"object\"` (the official SDK then rejects the server's whole tools/list). No provider receives it."
            )),
            pointer: Some(pointer.to_string()),
        },
    }
}

fn row(tool: &str, target: Target, mode: Mode, status: ToolStatus) -> ToolResult {
    ToolResult {
        tool: tool.to_string(),
        schema: "input",
        target: target.code(),
        provider: mode.provider(),
        mode,
        status,
        ignored: None,
        changes: None,
        loss: None,
        lost: None,
        as_sent: None,
        reason: None,
        pointer: None,
        keyword: None,
        message: None,
        fix: None,
    }
}

fn unreadable(tool: &str, target: Target, mode: Mode, message: String) -> ToolResult {
    ToolResult {
        reason: Some(UNREADABLE.to_string()),
        pointer: Some(String::new()),
        message: Some(message),
        fix: Some("Give the tool a JSON Schema, or a schema library's schema that converts to one (Zod 4, Valibot with @valibot/to-json-schema, ArkType).".to_string()),
        ..row(tool, target, mode, ToolStatus::Refused)
    }
}

/// One tool's parameters for one mode: its row, and the schema as it would be sent (unless
/// refused). `name` is the tool's own name, checked against the provider's rule (a tool read
/// without one is named by its place and not checked).
fn check_one(
    tool: &str,
    name: Option<&str>,
    schema: &Json,
    target: Target,
    mode: Mode,
) -> (ToolResult, Option<Json>) {
    if let Some(Err(words)) = name.map(|n| book::check_name(mode.provider(), n)) {
        let e = StrictError {
            reason: StrictReason::InvalidName,
            pointer: String::new(),
            keyword: None,
            message: format!("its name is refused: {words}"),
            tool_name: None,
        };
        return (refused(tool, target, mode, e, None, false), None);
    }
    let as_sent = match book::judge(mode, Role::Tool, schema) {
        Ok(taken) => {
            let ignored = (!taken.ignored.is_empty()).then_some(taken.ignored);
            let r = ToolResult {
                ignored,
                ..row(tool, target, mode, ToolStatus::Accepted)
            };
            return (r, Some(schema.clone()));
        }
        Err(e) => e,
    };
    match book::convert(mode, Role::Tool, schema, None) {
        Err(e) => {
            // A strict mode's fix offers `strict: false` only where the standard mode takes
            // the tool as it is.
            let standard_takes =
                mode.is_strict() && book::judge(mode.counterpart(), Role::Tool, schema).is_ok();
            (
                refused(tool, target, mode, e, Some(as_sent), standard_takes),
                None,
            )
        }
        Ok(converted) => {
            let mut changes = converted.changes;
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
                as_sent: Some(as_sent.into()),
                ..row(tool, target, mode, ToolStatus::Converted)
            };
            (r, Some(converted.schema))
        }
    }
}

/// What OpenAI's strict conversion changed, node by node: keywords it added, left out or
/// rewrote (the reference's conversion lists nothing itself).
pub(crate) fn diff(original: &Json, strict: &Json, pointer: &str, out: &mut Vec<Change>) {
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
pub(crate) fn compact(value: &Json) -> String {
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

/// Keywords whose leaving out loses nothing once references are inlined: what they named is
/// there in full.
const LOSSLESS: [&str; 6] = [
    "$schema",
    "$id",
    "$defs",
    "definitions",
    "$anchor",
    "$comment",
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
        // Bookkeeping a provider never reads: inlined references make their definitions and
        // identifiers unneeded, an unused definition was never sent.
        ChangeKind::Dropped if LOSSLESS.contains(&c.keyword.as_str()) => ToolLoss::None,
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

/// A refused row, with what to change. `as_sent` is the refusal of the schema as it is, where
/// the conversion's refusal (`e`) is another.
fn refused(
    tool: &str,
    target: Target,
    mode: Mode,
    e: StrictError,
    as_sent: Option<StrictError>,
    standard_takes: bool,
) -> ToolResult {
    let where_ = place(&e.pointer);
    // The refusal as sent, where it says something the conversion's refusal does not.
    let as_sent = as_sent
        .filter(|a| a.pointer != e.pointer || a.reason != e.reason)
        .map(AsSent::from);
    ToolResult {
        fix: Some(fix_for(
            e.reason,
            e.keyword.as_deref(),
            mode,
            standard_takes,
        )),
        message: Some(format!(
            "{} refuses the input schema of tool `{tool}` at {where_}: {}",
            mode.provider().name(),
            e.message
        )),
        reason: Some(e.reason.as_str().to_string()),
        pointer: Some(e.pointer),
        keyword: e.keyword,
        as_sent,
        ..row(tool, target, mode, ToolStatus::Refused)
    }
}

/// What to change for a refusal of `reason` in `mode`; `standard_takes`: the provider's
/// standard mode takes the tool as it is (a strict mode's fix then offers `strict: false`).
fn fix_for(
    reason: StrictReason,
    keyword: Option<&str>,
    mode: Mode,
    standard_takes: bool,
) -> String {
    let or_standard = if standard_takes {
        " Or send the tool with `strict: false`: the provider's standard mode takes it as it is."
    } else {
        ""
    };
    let fix: &str = if keyword == Some("format") {
        "Drop `format` and say it in `description` (the answer can still be checked locally), or use one of the formats the provider takes."
    } else {
        match (reason, mode.provider()) {
            (StrictReason::InvalidName, _) => "Rename the tool: letters, digits, `_` and `-` only, at most 64 characters, a letter or `_` first (what every provider takes).",
            (StrictReason::Recursive, _) => "Unroll the recursion to the depth you need (a `children` of a fixed number of levels), or take the nested part as a JSON string the tool parses.",
            (StrictReason::RootNotObject, _) => "Put the value under one property of an object (`{ type: 'object', properties: { value: … }, required: ['value'] }`), or convert with `wrapRoot: 'value'`.",
            (StrictReason::UnsupportedKeyword, Provider::Anthropic) if keyword.is_some_and(|k| matches!(k, "anyOf" | "oneOf" | "allOf")) => "Move the union below the root: one object whose properties are the union of the branches' (a `kind` property naming the branch), or one property holding the union.",
            (StrictReason::OpenObject | StrictReason::TypelessOpenObject, _) => "Replace the open map (`additionalProperties` with a schema, or no `properties`) by an array of `{ key, value }` objects, or by the properties you expect.",
            (StrictReason::UnsupportedKeyword, Provider::OpenAi) => "Rewrite the keyword strict mode cannot take (`allOf` merged, `oneOf` as `anyOf`, `if`/`then`/`else` as an `anyOf` of the cases).",
            (StrictReason::UnsupportedKeyword, _) => "Rewrite the keyword the provider cannot take (`not`, `if`/`then`/`else`, `patternProperties`, `dependentSchemas`…) as an `anyOf` of the cases, or check it in the tool itself.",
            (StrictReason::UnsupportedValue, _) => "Use values the provider takes there (strings, numbers, booleans or null in an `enum`).",
            (StrictReason::AmbiguousAnyOf | StrictReason::UnknownNullability, _) => "Make the optional properties of the `anyOf` branches required (nullable where they may be missing), so an answer maps back unambiguously.",
            (StrictReason::RefSibling | StrictReason::AnyOfSibling, _) => "Move the keywords beside `$ref` / `anyOf` into the referenced schema or into each branch.",
            (StrictReason::UnresolvedRef | StrictReason::NonStringRef | StrictReason::DefsNotObject, _) => "Make every `$ref` point inside the schema (`#/$defs/…`) and `$defs` an object of schemas.",
            (StrictReason::Depth | StrictReason::TooLarge, _) => "Flatten the schema: fewer levels of nesting and fewer nodes.",
            (StrictReason::NonSchemaNode | StrictReason::NotJson | StrictReason::NestedId | StrictReason::InvalidAnyOf, _) => "Fix the schema itself: every position a schema (an object or a boolean), valid `type` names, JSON values only.",
            (StrictReason::NotStrict | StrictReason::RequestLimit, _) => "Convert the schema for the provider before the request (`providerSchemas`), or split the tool set across requests.",
        }
    };
    format!("{fix}{or_standard}")
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
/// failing row (provider and mode, tool, pointer and what to change) and every request-limit
/// breach; with `outputs`, refused MCP output schemas fail too.
pub fn verdict(report: &Report, policy: ToolPolicy, outputs: bool) -> Option<String> {
    let mut lines = Vec::new();
    // The tools with a failing row, and the providers that fail, each once.
    let mut failing: Vec<&str> = Vec::new();
    let mut columns: Vec<&str> = Vec::new();
    let fail_in = |column: &'static str, columns: &mut Vec<&str>| {
        if !columns.contains(&column) {
            columns.push(column);
        }
    };
    for r in report.results.iter().filter(|r| fails(r, policy)) {
        if !failing.contains(&r.tool.as_str()) {
            failing.push(&r.tool);
        }
        fail_in(r.target, &mut columns);
        match r.status {
            ToolStatus::Refused => lines.push(format!(
                "- [{}] {} Fix: {}",
                r.mode.as_str(),
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
                    "- [{}] {} converts `{}` with loss: {}",
                    r.mode.as_str(),
                    r.mode.name(),
                    r.tool,
                    lost.join(", ")
                ));
            }
        }
    }
    for limits in &report.limits {
        for b in &limits.breaches {
            fail_in(limits.provider, &mut columns);
            let tool = tool_of_pointer(&report.tools, &b.pointer);
            lines.push(format!(
                "- [{}] request limit `{}`{tool}: {}",
                limits.provider,
                b.limit.as_str(),
                b.message
            ));
        }
    }
    if outputs {
        for o in report
            .outputs
            .iter()
            .filter(|o| o.status == ToolStatus::Refused)
        {
            if !failing.contains(&o.tool.as_str()) {
                failing.push(&o.tool);
            }
            lines.push(format!(
                "- [output] {}",
                o.message.as_deref().unwrap_or_default()
            ));
        }
    }
    if lines.is_empty() {
        return None;
    }
    let tools = report.tools.len();
    let whom = if columns.is_empty() {
        "MCP clients (output schemas)".to_string()
    } else {
        columns.join(", ")
    };
    Some(format!(
        "{} of {tools} tool{} fail{} the check for {whom}:\n{}",
        failing.len(),
        if tools == 1 { "" } else { "s" },
        if failing.len() == 1 { "s" } else { "" },
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
