//! Provider profiles: one JSON Schema turned into what Anthropic's strict tools and structured
//! outputs, or Gemini's OpenAPI subset (`responseSchema`, function `parameters`), accept
//! (`../shared/spec/providers.md`). OpenAI keeps the reference's strict conversion
//! (`schema::strict`); this module is the other providers' walk.
//!
//! Each keyword is handled in one of four ways, and every change is listed:
//! - kept, where the provider accepts it;
//! - rewritten without loss (`oneOf` → `anyOf`, `const` → one-value `enum`, a null branch →
//!   `nullable`, an integer's `exclusiveMinimum: n` → `minimum: n + 1`, a local `$ref` inlined,
//!   a one-branch `allOf` merged);
//! - described: a constraint the provider refuses but that still means something (bounds,
//!   lengths, `multipleOf`, a format or pattern it cannot run) is written into `description`
//!   in words, and the caller checks the answer against the original schema;
//! - refused, with the provider, the reason and the JSON Pointer (recursion, open maps,
//!   `patternProperties`, `if`/`then`/`else`, `not`, …).

use serde::Serialize;
use serde_json::{Map, Value as Json};

use crate::error::{StrictError, StrictReason};
use crate::schema::json::push_token;
use crate::schema::strict::{DEPTH_MESSAGE, MAX_DEPTH};

crate::code_enum! {
    /// A model provider whose schema rules a conversion follows.
    pub enum Provider {
        OpenAi = "openai",
        Anthropic = "anthropic",
        Gemini = "gemini",
    }
}

impl Provider {
    /// The provider's name in messages.
    pub fn name(self) -> &'static str {
        match self {
            Provider::OpenAi => "OpenAI",
            Provider::Anthropic => "Anthropic",
            Provider::Gemini => "Gemini",
        }
    }
}

/// A value that fails the original schema of a provider conversion
/// (`ProviderOutputValidationError`; its `issues` are `compileJsonSchema`'s, handed over as
/// they came).
#[derive(Debug, Clone, PartialEq, thiserror::Error, serde::Serialize)]
#[cfg_attr(
    test,
    derive(ts_rs::TS),
    ts(rename = "ProviderOutputValidationErrorFields", optional_fields)
)]
#[error("{message}")]
pub struct ProviderOutputError {
    /// The provider the schema was converted for.
    #[cfg_attr(test, ts(type = "SchemaProvider"))]
    pub provider: Provider,
    #[serde(skip)]
    pub message: String,
}

impl crate::error::Raise for ProviderOutputError {
    fn kind(&self) -> crate::error::Class {
        crate::error::Class::ProviderOutputValidationError
    }
}

crate::code_enum! {
    /// How a conversion changed a keyword.
    pub enum ChangeKind {
        /// Rewritten into a form the provider accepts, with the same meaning.
        Rewritten = "rewritten",
        /// Moved into `description` in words: the provider does not enforce it, the local check
        /// of the answer does.
        Described = "described",
        /// Left out: an annotation the provider does not accept, or a constraint the local
        /// check enforces (`additionalProperties: false` on Gemini).
        Dropped = "dropped",
        /// Made stricter than your schema where the provider requires it: every answer to the
        /// converted schema is an answer to yours (an explicit `additionalProperties: true`
        /// closed).
        Narrowed = "narrowed",
        /// Your root, which the provider refuses as a root, put under one property of an
        /// object (the `wrapRoot` option): `normalizeInput` returns that property's value.
        Wrapped = "wrapped",
    }
}

/// One change of a provider conversion, at the JSON Pointer of the node in your schema.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS), ts(rename = "SchemaChange"))]
pub struct Change {
    /// JSON Pointer of the node in your schema.
    pub pointer: String,
    /// The keyword changed.
    pub keyword: String,
    /// `rewritten` (same meaning), `described` (moved into `description`), `dropped`,
    /// `narrowed` (stricter than yours, every answer still one to your schema), `wrapped` (the
    /// root under one property; `normalizeInput` unwraps).
    #[cfg_attr(test, ts(type = "SchemaChangeKind"))]
    pub kind: ChangeKind,
    /// What was done, in words.
    pub detail: String,
}

/// A schema converted for a provider.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Converted {
    pub schema: Json,
    pub changes: Vec<Change>,
    /// With a wrapped root: how `normalizeInput` checks and unwraps an answer.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unwrap: Option<Unwrap>,
    /// Where `normalizeInput` reads enum texts back as numbers (Gemini).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub restore: Vec<Restore>,
}

/// How an answer to a wrapped root is read: checked against `schema` (the wrapper, whose one
/// property refers to your schema registered as the resource `resource`), then the value of
/// `property` returned.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Unwrap {
    pub property: String,
    pub schema: Json,
    pub resource: &'static str,
}

/// The URI under which `normalizeInput` registers your schema to check a wrapped answer.
const WRAPPED_RESOURCE: &str = "urn:understudy:wrapped-root";

/// Annotations no provider here needs; left out (and listed) where the provider refuses them.
const ANNOTATIONS: [&str; 9] = [
    "$schema",
    "$id",
    "$comment",
    "examples",
    "deprecated",
    "readOnly",
    "writeOnly",
    "contentEncoding",
    "contentMediaType",
];

/// Keywords whose meaning no provider here can carry or describe: refused.
const REFUSED: [&str; 12] = [
    "not",
    "if",
    "then",
    "else",
    "patternProperties",
    "dependentRequired",
    "dependentSchemas",
    "dependencies",
    "propertyNames",
    "unevaluatedItems",
    "additionalItems",
    "contains",
];

/// Constraints Anthropic refuses (400) but that still mean something: described.
const ANTHROPIC_DESCRIBED: [&str; 11] = [
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "minLength",
    "maxLength",
    "maxItems",
    "uniqueItems",
    "minProperties",
    "maxProperties",
];

/// Anthropic's formats (structured outputs guide).
const ANTHROPIC_FORMATS: [&str; 10] = [
    "date-time",
    "time",
    "date",
    "duration",
    "email",
    "hostname",
    "uri",
    "ipv4",
    "ipv6",
    "uuid",
];

/// Most nodes a conversion writes (inlined `$ref`s multiply them).
const MAX_NODES: usize = 100_000;

struct Walk<'a> {
    root: &'a Json,
    provider: Provider,
    changes: Vec<Change>,
    /// `$ref` targets being inlined, innermost last: a target met again is recursion.
    expanding: Vec<String>,
    nodes: usize,
    /// Where merged `allOf` members came from: (pointer in the merged node, pointer in your
    /// schema), so a change or a refusal names the node as you wrote it.
    origins: Vec<(String, String)>,
}

type Fault = StrictError;

fn fault(
    provider: Provider,
    reason: StrictReason,
    pointer: &str,
    keyword: Option<&str>,
    what: String,
) -> Fault {
    let at = crate::schema::pointer::place(pointer);
    StrictError {
        reason,
        pointer: pointer.to_string(),
        keyword: keyword.map(str::to_string),
        message: format!(
            "{} cannot take this schema: {what} (at {at}).",
            provider.name()
        ),
        tool_name: None,
    }
}

fn child(pointer: &str, token: &str) -> String {
    let mut out = pointer.to_string();
    push_token(&mut out, token);
    out
}

fn number_text(n: &Json) -> String {
    match n {
        Json::Number(n) => n.to_string(),
        other => other.to_string(),
    }
}

/// `constraint` in words (`at least 1`), for a description.
fn in_words(keyword: &str, value: &Json, integer: bool) -> Option<String> {
    let n = number_text(value);
    let plural = |unit: &str| {
        if value.as_f64() == Some(1.0) {
            format!("{n} {unit}")
        } else {
            format!("{n} {unit}s")
        }
    };
    Some(match keyword {
        "minimum" => format!("at least {n}"),
        "maximum" => format!("at most {n}"),
        "exclusiveMinimum" if integer => format!("at least {}", value.as_f64()? + 1.0),
        "exclusiveMinimum" => format!("greater than {n}"),
        "exclusiveMaximum" if integer => format!("at most {}", value.as_f64()? - 1.0),
        "exclusiveMaximum" => format!("less than {n}"),
        "multipleOf" => format!("a multiple of {n}"),
        "minLength" => format!("at least {}", plural("character")),
        "maxLength" => format!("at most {}", plural("character")),
        "minItems" => format!("at least {}", plural("item")),
        "maxItems" => format!("at most {}", plural("item")),
        "minProperties" => {
            format!("at least {}", plural("property")).replace("propertys", "properties")
        }
        "maxProperties" => {
            format!("at most {}", plural("property")).replace("propertys", "properties")
        }
        "uniqueItems" if value == &Json::Bool(true) => "items unique".to_string(),
        "uniqueItems" => return None,
        "pattern" => format!("matching the regular expression {}", value),
        "format" => format!("in {} format", value.as_str().unwrap_or_default()),
        "enum" => format!(
            "one of {}",
            value
                .as_array()?
                .iter()
                .map(Json::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        ),
        "const" => format!("exactly {value}"),
        _ => return None,
    })
}

/// Whether an Anthropic strict schema can run a pattern: no backreference, lookaround or `\b`.
fn anthropic_pattern(pattern: &str) -> bool {
    let b = pattern.as_bytes();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'\\' if i + 1 < b.len() => {
                if matches!(b[i + 1], b'1'..=b'9' | b'b' | b'B' | b'k') {
                    return false;
                }
                i += 2;
                continue;
            }
            b'(' if pattern[i..].starts_with("(?=")
                || pattern[i..].starts_with("(?!")
                || pattern[i..].starts_with("(?<=")
                || pattern[i..].starts_with("(?<!") =>
            {
                return false;
            }
            _ => {}
        }
        i += 1;
    }
    true
}

/// A union branch that only admits null (`{ "type": "null" }`, with annotations at most).
fn null_branch(b: &Json) -> bool {
    b.get("type") == Some(&Json::String("null".into()))
        && b.as_object().is_some_and(|o| {
            o.keys()
                .all(|k| matches!(k.as_str(), "type" | "description" | "title"))
        })
}

/// The type names a node declares.
fn types(node: &Map<String, Json>) -> Vec<String> {
    match node.get("type") {
        Some(Json::String(t)) => vec![t.clone()],
        Some(Json::Array(ts)) => ts
            .iter()
            .filter_map(|t| t.as_str().map(str::to_string))
            .collect(),
        _ => Vec::new(),
    }
}

impl<'a> Walk<'a> {
    fn change(
        &mut self,
        pointer: &str,
        keyword: &str,
        kind: ChangeKind,
        detail: impl Into<String>,
    ) {
        // A keyword a merged `allOf` branch brought is named at that branch.
        let at_keyword = self.origin(&child(pointer, keyword));
        let pointer = match at_keyword.strip_suffix(&child("", keyword)) {
            Some(node) => node.to_string(),
            None => self.origin(pointer),
        };
        self.changes.push(Change {
            pointer,
            keyword: keyword.to_string(),
            kind,
            detail: detail.into(),
        });
    }

    fn refuse(
        &self,
        reason: StrictReason,
        pointer: &str,
        keyword: Option<&str>,
        what: impl Into<String>,
    ) -> Fault {
        fault(
            self.provider,
            reason,
            &self.origin(pointer),
            keyword,
            what.into(),
        )
    }

    /// The refusal of a node that only accepts null (Gemini: null is only `nullable` beside
    /// another type), however `keyword` wrote it.
    fn null_only(&self, pointer: &str, keyword: &str) -> Fault {
        self.refuse(
            StrictReason::UnsupportedKeyword,
            pointer,
            Some(keyword),
            "a node that only accepts null is not supported",
        )
    }

    /// `pointer` in your schema: a member an `allOf` merge moved is named where it was written
    /// (the longest recorded prefix wins).
    fn origin(&self, pointer: &str) -> String {
        let best = self
            .origins
            .iter()
            .filter(|(merged, _)| {
                pointer == merged
                    || pointer
                        .strip_prefix(merged.as_str())
                        .is_some_and(|rest| rest.starts_with('/'))
            })
            .max_by_key(|(merged, _)| merged.len());
        match best {
            Some((merged, original)) => format!("{original}{}", &pointer[merged.len()..]),
            None => pointer.to_string(),
        }
    }

    /// The node a local `$ref` names, and its pointer.
    fn target(&self, reference: &str, pointer: &str) -> Result<(&'a Json, String), Fault> {
        let root: &'a Json = self.root;
        let Some(path) = reference.strip_prefix('#') else {
            return Err(self.refuse(
                StrictReason::UnresolvedRef,
                pointer,
                Some("$ref"),
                format!("the `$ref` {reference:?} is not local"),
            ));
        };
        let node = root.pointer(path).ok_or_else(|| {
            self.refuse(
                StrictReason::UnresolvedRef,
                pointer,
                Some("$ref"),
                format!("the `$ref` {reference:?} does not resolve"),
            )
        })?;
        Ok((node, path.to_string()))
    }

    /// Converts the node at `pointer` (in the caller's schema).
    fn node(&mut self, schema: &Json, pointer: &str, depth: usize) -> Result<Json, Fault> {
        if depth > MAX_DEPTH {
            return Err(StrictError {
                reason: StrictReason::Depth,
                pointer: pointer.to_string(),
                keyword: None,
                message: DEPTH_MESSAGE.to_string(),
                tool_name: None,
            });
        }
        self.nodes += 1;
        if self.nodes > MAX_NODES {
            return Err(self.refuse(
                StrictReason::TooLarge,
                pointer,
                None,
                format!("it expands to more than {MAX_NODES} nodes"),
            ));
        }
        let obj = match schema {
            Json::Object(o) => o,
            Json::Bool(true) => {
                return Err(self.refuse(
                    StrictReason::TypelessOpenObject,
                    pointer,
                    None,
                    "`true` accepts any value, which it cannot express",
                ));
            }
            Json::Bool(false) => {
                return Err(self.refuse(
                    StrictReason::UnsupportedKeyword,
                    pointer,
                    None,
                    "`false` accepts no value",
                ));
            }
            _ => {
                return Err(self.refuse(
                    StrictReason::NonSchemaNode,
                    pointer,
                    None,
                    "a schema must be an object",
                ))
            }
        };
        if obj.contains_key(crate::schema::json::TAG_KEY) {
            return Err(self.refuse(
                StrictReason::NotJson,
                pointer,
                None,
                "it holds a value JSON cannot carry",
            ));
        }
        // A local `$ref`: inlined (with its siblings merged over it), unless it is recursive.
        if let Some(reference) = obj.get("$ref") {
            let Some(reference) = reference.as_str() else {
                return Err(self.refuse(
                    StrictReason::NonStringRef,
                    pointer,
                    Some("$ref"),
                    "`$ref` must be a string",
                ));
            };
            let (target, target_pointer) = self.target(reference, pointer)?;
            if self.expanding.contains(&target_pointer) {
                return Err(self.refuse(
                    StrictReason::Recursive,
                    pointer,
                    Some("$ref"),
                    format!(
                        "the `$ref` {reference:?} is recursive, and recursion cannot be expressed"
                    ),
                ));
            }
            let mut merged = match target {
                Json::Object(t) => t.clone(),
                other => return self.node(other, &target_pointer, depth + 1),
            };
            for (k, v) in obj {
                if k != "$ref" {
                    merged.insert(k.clone(), v.clone());
                }
            }
            self.change(
                pointer,
                "$ref",
                ChangeKind::Rewritten,
                format!("{reference} inlined"),
            );
            self.expanding.push(target_pointer.clone());
            let out = self.node(&Json::Object(merged), &target_pointer, depth + 1);
            self.expanding.pop();
            return out;
        }
        // A one-branch `allOf`, or object branches that do not overlap, merged into the node.
        if let Some(all) = obj.get("allOf") {
            let merged = self.merge_all_of(obj, all, pointer)?;
            return self.node(&Json::Object(merged), pointer, depth + 1);
        }
        // An open map is the refusal to name first (a record's `propertyNames` comes with it).
        // An explicit `true` is closed below: every answer to the closed object is an answer to
        // the open one (providers.md: both providers take only closed objects).
        // Gemini has no `additionalProperties` at all (providers.md): a map there is what an
        // undeclared open object is, `{ type: 'object' }`, its value schema checked locally.
        if self.provider != Provider::Gemini
            && obj
                .get("additionalProperties")
                .is_some_and(|v| !matches!(v, Json::Bool(_)))
        {
            return Err(self.refuse(
                StrictReason::OpenObject,
                &child(pointer, "additionalProperties"),
                Some("additionalProperties"),
                "an open map (`additionalProperties` other than false) is not supported",
            ));
        }
        let mut out = Map::new();
        let declared = types(obj);
        let integer =
            declared.iter().any(|t| t == "integer") && !declared.iter().any(|t| t == "number");
        let mut described: Vec<String> = Vec::new();
        for (key, value) in obj {
            // Written out only where a pointer is needed: most keys need none.
            let here = || child(pointer, key);
            let k = key.as_str();
            if REFUSED.contains(&k) || (k == "unevaluatedProperties" && value != &Json::Bool(false))
            {
                return Err(self.refuse(
                    StrictReason::UnsupportedKeyword,
                    &here(),
                    Some(k),
                    format!("`{k}` is not supported"),
                ));
            }
            if k == "unevaluatedProperties" {
                self.change(
                    pointer,
                    k,
                    ChangeKind::Rewritten,
                    "additionalProperties: false",
                );
                continue;
            }
            if ANNOTATIONS.contains(&k) || k == "$defs" || k == "definitions" || k == "$anchor" {
                if self.provider == Provider::Gemini && k == "examples" {
                    if let Some(first) = value.as_array().and_then(|a| a.first()) {
                        out.insert("example".into(), first.clone());
                        self.change(
                            pointer,
                            k,
                            ChangeKind::Rewritten,
                            "the first example as `example`",
                        );
                        continue;
                    }
                }
                self.change(
                    pointer,
                    k,
                    ChangeKind::Dropped,
                    if k.starts_with('$') || k == "definitions" {
                        "not needed once references are inlined"
                    } else {
                        "an annotation the provider does not accept"
                    },
                );
                continue;
            }
            match k {
                "properties" => {
                    let Json::Object(props) = value else {
                        return Err(self.refuse(
                            StrictReason::NonSchemaNode,
                            &here(),
                            Some(k),
                            "`properties` must be an object",
                        ));
                    };
                    let mut converted = Map::new();
                    let base = here();
                    for (name, prop) in props {
                        converted.insert(
                            name.clone(),
                            self.node(prop, &child(&base, name), depth + 1)?,
                        );
                    }
                    out.insert(key.clone(), Json::Object(converted));
                }
                "items" => {
                    if value.is_array() {
                        return Err(self.refuse(
                            StrictReason::UnsupportedKeyword,
                            &here(),
                            Some(k),
                            "tuple `items` (an array) is not supported",
                        ));
                    }
                    out.insert(key.clone(), self.node(value, &here(), depth + 1)?);
                }
                "prefixItems" => {
                    return Err(self.refuse(
                        StrictReason::UnsupportedKeyword,
                        &here(),
                        Some(k),
                        "tuples (`prefixItems`) are not supported",
                    ));
                }
                "anyOf" | "oneOf" => {
                    let Json::Array(branches) = value else {
                        return Err(self.refuse(
                            StrictReason::InvalidAnyOf,
                            &here(),
                            Some(k),
                            format!("`{k}` must be an array"),
                        ));
                    };
                    if branches.is_empty() {
                        return Err(self.refuse(
                            StrictReason::InvalidAnyOf,
                            &here(),
                            Some(k),
                            format!("`{k}` must not be empty"),
                        ));
                    }
                    let mut converted = Vec::new();
                    let base = here();
                    for (i, b) in branches.iter().enumerate() {
                        // Gemini's null branch becomes `nullable` below, unconverted.
                        if self.provider == Provider::Gemini && null_branch(b) {
                            converted.push(b.clone());
                            continue;
                        }
                        converted.push(self.node(b, &child(&base, &i.to_string()), depth + 1)?);
                    }
                    if k == "oneOf" {
                        self.change(
                            pointer,
                            k,
                            ChangeKind::Rewritten,
                            "anyOf (the answer is checked against the oneOf locally)",
                        );
                    }
                    match out.get_mut("anyOf") {
                        Some(Json::Array(existing)) => existing.extend(converted),
                        _ => {
                            out.insert("anyOf".into(), Json::Array(converted));
                        }
                    }
                }
                "additionalProperties" => match value {
                    Json::Bool(true) => {
                        self.change(
                            pointer,
                            k,
                            ChangeKind::Narrowed,
                            "closed: the provider takes only closed objects, and every answer to a closed one is an answer to yours",
                        );
                        if self.provider != Provider::Gemini {
                            out.insert(key.clone(), Json::Bool(false));
                        }
                    }
                    Json::Bool(false) => {
                        if self.provider == Provider::Gemini {
                            self.change(pointer, k, ChangeKind::Dropped, "Gemini has no additionalProperties; extra keys are refused by the local check");
                        } else {
                            out.insert(key.clone(), value.clone());
                        }
                    }
                    _ if self.provider == Provider::Gemini => {
                        self.change(pointer, k, ChangeKind::Dropped, "Gemini has no additionalProperties: the object is sent as an open one, and the local check of the answer holds its values to this schema");
                    }
                    _ => {
                        return Err(self.refuse(StrictReason::OpenObject, &here(), Some(k), "an open map (`additionalProperties` other than false) is not supported"));
                    }
                },
                "enum" => {
                    let Json::Array(values) = value else {
                        return Err(self.refuse(
                            StrictReason::NonSchemaNode,
                            &here(),
                            Some(k),
                            "`enum` must be an array",
                        ));
                    };
                    if values.iter().any(|v| v.is_object() || v.is_array()) {
                        return Err(self.refuse(
                            StrictReason::UnsupportedValue,
                            &here(),
                            Some(k),
                            "`enum` values must be strings, numbers, booleans or null",
                        ));
                    }
                    out.insert(key.clone(), value.clone());
                }
                "const" => {
                    if value.is_object() || value.is_array() {
                        return Err(self.refuse(
                            StrictReason::UnsupportedValue,
                            &here(),
                            Some(k),
                            "a `const` object or array is not supported",
                        ));
                    }
                    out.insert(key.clone(), value.clone());
                }
                _ => {
                    out.insert(key.clone(), value.clone());
                }
            }
        }
        match self.provider {
            Provider::Anthropic => self.anthropic(&mut out, pointer, integer, &mut described),
            Provider::Gemini => self.gemini(&mut out, pointer, integer, &mut described)?,
            Provider::OpenAi => {}
        }
        if !described.is_empty() {
            let words = described.join(", ");
            let text = match out.get("description").and_then(Json::as_str) {
                Some(d) if !d.trim().is_empty() => {
                    let d = d.trim_end();
                    let stop = if d.ends_with(['.', '!', '?']) {
                        ""
                    } else {
                        "."
                    };
                    format!("{d}{stop} Must be {words}.")
                }
                _ => format!("Must be {words}."),
            };
            out.insert("description".into(), Json::String(text));
        }
        Ok(Json::Object(out))
    }

    /// Moves `key` into the description (in words) and out of the node.
    fn describe(
        &mut self,
        out: &mut Map<String, Json>,
        key: &str,
        pointer: &str,
        integer: bool,
        described: &mut Vec<String>,
    ) {
        if let Some(value) = out.shift_remove(key) {
            if let Some(words) = in_words(key, &value, integer) {
                self.change(pointer, key, ChangeKind::Described, words.clone());
                described.push(words);
            } else {
                self.change(pointer, key, ChangeKind::Dropped, "no constraint");
            }
        }
    }

    fn anthropic(
        &mut self,
        out: &mut Map<String, Json>,
        pointer: &str,
        integer: bool,
        described: &mut Vec<String>,
    ) {
        // In the node's own key order, so the words read as the schema does.
        let refused: Vec<String> = out
            .keys()
            .filter(|k| {
                ANTHROPIC_DESCRIBED.contains(&k.as_str())
                    || (k.as_str() == "minItems"
                        && out
                            .get("minItems")
                            .and_then(Json::as_f64)
                            .is_some_and(|n| n > 1.0))
            })
            .cloned()
            .collect();
        for key in refused {
            self.describe(out, &key, pointer, integer, described);
        }
        if out
            .get("minItems")
            .and_then(Json::as_f64)
            .is_some_and(|n| n > 1.0)
        {
            self.describe(out, "minItems", pointer, integer, described);
        }
        if out
            .get("format")
            .and_then(Json::as_str)
            .is_some_and(|f| !ANTHROPIC_FORMATS.contains(&f))
        {
            self.describe(out, "format", pointer, integer, described);
        }
        if out
            .get("pattern")
            .and_then(Json::as_str)
            .is_some_and(|p| !anthropic_pattern(p))
        {
            self.describe(out, "pattern", pointer, integer, described);
        }
        // Every object is closed (Anthropic refuses anything else); the local check keeps the
        // original's meaning for the keys it names.
        let is_object = types(out).iter().any(|t| t == "object") || out.contains_key("properties");
        if is_object && !out.contains_key("additionalProperties") {
            out.insert("additionalProperties".into(), Json::Bool(false));
            self.change(
                pointer,
                "additionalProperties",
                ChangeKind::Rewritten,
                "false (Anthropic requires closed objects)",
            );
        }
        if out.contains_key("properties") && !out.contains_key("type") {
            out.insert("type".into(), Json::String("object".into()));
            self.change(
                pointer,
                "type",
                ChangeKind::Rewritten,
                "\"object\" (the node has properties)",
            );
        }
    }

    fn gemini(
        &mut self,
        out: &mut Map<String, Json>,
        pointer: &str,
        integer: bool,
        described: &mut Vec<String>,
    ) -> Result<(), Fault> {
        // Exact integer bounds, described number bounds.
        for (key, to, step) in [
            ("exclusiveMinimum", "minimum", 1.0),
            ("exclusiveMaximum", "maximum", -1.0),
        ] {
            let Some(value) = out.get(key).cloned() else {
                continue;
            };
            match value.as_f64() {
                Some(n) if integer && n.fract() == 0.0 => {
                    out.shift_remove(key);
                    let bound = Json::from((n + step) as i64);
                    let tighter = match out.get(to).and_then(Json::as_f64) {
                        Some(existing)
                            if (step > 0.0 && existing >= n + step)
                                || (step < 0.0 && existing <= n + step) =>
                        {
                            None
                        }
                        _ => Some(bound.clone()),
                    };
                    if let Some(bound) = tighter {
                        out.insert(to.into(), bound);
                    }
                    self.change(
                        pointer,
                        key,
                        ChangeKind::Rewritten,
                        format!("{to}: {}", (n + step) as i64),
                    );
                }
                _ => self.describe(out, key, pointer, integer, described),
            }
        }
        for key in ["multipleOf", "uniqueItems"] {
            self.describe(out, key, pointer, integer, described);
        }
        // Gemini's formats by type (its Schema's documentation; E16 for strings): a string
        // takes `enum` and `date-time`, an integer `int32` and `int64`, a number `float` and
        // `double`.
        let own_formats: &[&str] = match out.get("type").and_then(Json::as_str) {
            Some("integer") => &["int32", "int64", "enum"],
            Some("number") => &["float", "double", "enum"],
            _ => &["date-time", "enum"],
        };
        if out
            .get("format")
            .and_then(Json::as_str)
            .is_some_and(|f| !own_formats.contains(&f))
        {
            self.describe(out, "format", pointer, integer, described);
        }
        // `type` is one name: a null member becomes `nullable`, several become `anyOf`.
        if let Some(Json::Array(names)) = out.get("type").filter(|t| t.is_array()).cloned() {
            let names: Vec<String> = names
                .iter()
                .filter_map(|n| n.as_str().map(str::to_string))
                .collect();
            let others: Vec<&String> = names.iter().filter(|n| *n != "null").collect();
            if others.len() < names.len() {
                out.insert("nullable".into(), Json::Bool(true));
            }
            match others.as_slice() {
                [] => return Err(self.null_only(pointer, "type")),
                [one] => {
                    out.insert("type".into(), Json::String((*one).clone()));
                }
                several => {
                    out.shift_remove("type");
                    let branches = several
                        .iter()
                        .map(|t| serde_json::json!({ "type": t }))
                        .collect();
                    out.insert("anyOf".into(), Json::Array(branches));
                }
            }
            self.change(
                pointer,
                "type",
                ChangeKind::Rewritten,
                "one type name (null as `nullable`, several as `anyOf`)",
            );
        }
        if out.get("type") == Some(&Json::String("null".into())) {
            return Err(self.null_only(pointer, "type"));
        }
        // A null branch of `anyOf` becomes `nullable`.
        let null_in_union =
            matches!(out.get("anyOf"), Some(Json::Array(bs)) if bs.iter().any(null_branch));
        if let Some(Json::Array(branches)) = out.get("anyOf").filter(|_| null_in_union).cloned() {
            let rest: Vec<Json> = branches
                .iter()
                .filter(|b| !null_branch(b))
                .cloned()
                .collect();
            if rest.len() < branches.len() {
                if rest.is_empty() {
                    return Err(self.null_only(pointer, "anyOf"));
                }
                self.change(
                    pointer,
                    "anyOf",
                    ChangeKind::Rewritten,
                    "the null branch as `nullable: true`",
                );
                out.insert("nullable".into(), Json::Bool(true));
                if rest.len() == 1 {
                    out.shift_remove("anyOf");
                    if let Json::Object(only) = &rest[0] {
                        for (k, v) in only {
                            if k == "description" && out.contains_key("description") {
                                continue;
                            }
                            out.insert(k.clone(), v.clone());
                        }
                    }
                } else {
                    out.insert("anyOf".into(), Json::Array(rest));
                }
            }
        }
        // `const`: a one-value enum of strings; a number's bounds; otherwise described.
        if let Some(value) = out.get("const").cloned() {
            out.shift_remove("const");
            match &value {
                // `{ const: null }` is `{ type: 'null' }`: Gemini's types (the OpenAPI 3.0
                // subset of providers.md) have no null type, only `nullable` beside another.
                Json::Null => {
                    return Err(self.null_only(pointer, "const"));
                }
                Json::String(_) => {
                    out.insert("enum".into(), Json::Array(vec![value.clone()]));
                    out.entry("type").or_insert(Json::String("string".into()));
                    self.change(
                        pointer,
                        "const",
                        ChangeKind::Rewritten,
                        "a one-value `enum`",
                    );
                }
                Json::Number(_) => {
                    out.insert("minimum".into(), value.clone());
                    out.insert("maximum".into(), value.clone());
                    let t = if value.is_i64() || value.is_u64() {
                        "integer"
                    } else {
                        "number"
                    };
                    out.entry("type").or_insert(Json::String(t.into()));
                    self.change(
                        pointer,
                        "const",
                        ChangeKind::Rewritten,
                        "equal `minimum` and `maximum`",
                    );
                }
                _ => {
                    out.insert("const".into(), value.clone());
                    if let Json::Bool(_) = value {
                        out.entry("type").or_insert(Json::String("boolean".into()));
                    }
                    self.describe(out, "const", pointer, integer, described);
                }
            }
        }
        // `enum` holds strings only: a null member is `nullable`, other values are described.
        let plain_strings =
            matches!(out.get("enum"), Some(Json::Array(vs)) if vs.iter().all(Json::is_string));
        if plain_strings {
            out.entry("type").or_insert(Json::String("string".into()));
        } else if let Some(Json::Array(values)) = out.get("enum").cloned() {
            let non_null: Vec<Json> = values.iter().filter(|v| !v.is_null()).cloned().collect();
            if non_null.is_empty() {
                return Err(self.null_only(pointer, "enum"));
            }
            if non_null.len() < values.len() {
                out.insert("nullable".into(), Json::Bool(true));
                out.insert("enum".into(), Json::Array(non_null.clone()));
                self.change(
                    pointer,
                    "enum",
                    ChangeKind::Rewritten,
                    "the null member as `nullable: true`",
                );
            }
            if non_null.iter().all(Json::is_string) {
                out.entry("type").or_insert(Json::String("string".into()));
            } else {
                let t = if non_null.iter().all(|v| v.is_i64() || v.is_u64()) {
                    "integer"
                } else if non_null.iter().all(Json::is_number) {
                    "number"
                } else if non_null.iter().all(Json::is_boolean) {
                    "boolean"
                } else {
                    return Err(self.refuse(
                        StrictReason::UnsupportedValue,
                        pointer,
                        Some("enum"),
                        "an `enum` of mixed types is not supported",
                    ));
                };
                out.entry("type").or_insert(Json::String(t.into()));
                if t != "boolean" && !out.contains_key("format") {
                    // providers.md: Gemini's `enum` holds strings only; its Schema documents
                    // numeric enums as their texts with `format: "enum"` ({type: INTEGER,
                    // format: enum, enum: ["101", "201"]}).
                    let texts = non_null.iter().map(|v| Json::String(v.to_string()));
                    out.insert("format".into(), Json::String("enum".into()));
                    out.insert("enum".into(), Json::Array(texts.collect()));
                    self.change(
                        pointer,
                        "enum",
                        ChangeKind::Rewritten,
                        "the numbers as their texts with `format: \"enum\"`, Gemini's form; normalizeInput reads such a text in an answer as the number",
                    );
                } else if t == "boolean"
                    && non_null.contains(&Json::Bool(true))
                    && non_null.contains(&Json::Bool(false))
                {
                    out.shift_remove("enum");
                    self.change(
                        pointer,
                        "enum",
                        ChangeKind::Rewritten,
                        "both booleans: `type: \"boolean\"`",
                    );
                } else {
                    self.describe(out, "enum", pointer, integer, described);
                }
            }
        }
        // Every node names its type (an `anyOf` node excepted).
        if !out.contains_key("type") && !out.contains_key("anyOf") {
            let inferred = if out.contains_key("properties") {
                "object"
            } else if out.contains_key("items") {
                "array"
            } else {
                return Err(self.refuse(
                    StrictReason::TypelessOpenObject,
                    pointer,
                    Some("type"),
                    "every node needs a `type`, and this one accepts any value",
                ));
            };
            out.insert("type".into(), Json::String(inferred.into()));
            self.change(
                pointer,
                "type",
                ChangeKind::Rewritten,
                format!("{inferred:?} (from its keywords)"),
            );
        }
        // OpenAPI has no `required` beside a `type` other than object, nor these keywords.
        if let Some(key) = out
            .keys()
            .find(|k| !GEMINI_FIELDS.contains(&k.as_str()))
            .cloned()
        {
            return Err(self.refuse(
                StrictReason::UnsupportedKeyword,
                &child(pointer, &key),
                Some(&key),
                format!("`{key}` is not a field of Gemini's schema"),
            ));
        }
        Ok(())
    }

    /// `allOf` merged into its node: one branch, or object branches whose properties do not
    /// overlap. Anything else is refused (Gemini), or kept as `allOf` (Anthropic).
    fn merge_all_of(
        &mut self,
        obj: &Map<String, Json>,
        all: &Json,
        pointer: &str,
    ) -> Result<Map<String, Json>, Fault> {
        let here = child(pointer, "allOf");
        let Json::Array(branches) = all else {
            return Err(self.refuse(
                StrictReason::UnsupportedKeyword,
                &here,
                Some("allOf"),
                "`allOf` must be an array",
            ));
        };
        let mut merged: Map<String, Json> = obj.clone();
        merged.shift_remove("allOf");
        // The property names of each closed part (`additionalProperties: false`): merged, the
        // object takes the union, wider than the part that was closed on its own names.
        let names = |o: &Map<String, Json>| -> Vec<String> {
            o.get("properties")
                .and_then(Json::as_object)
                .map(|p| p.keys().cloned().collect())
                .unwrap_or_default()
        };
        let closed =
            |o: &Map<String, Json>| o.get("additionalProperties") == Some(&Json::Bool(false));
        let mut closed_parts: Vec<(String, Vec<String>)> = Vec::new();
        if closed(obj) {
            closed_parts.push((pointer.to_string(), names(obj)));
        }
        for (i, branch) in branches.iter().enumerate() {
            let at = child(&here, &i.to_string());
            let branch = match branch.get("$ref").and_then(Json::as_str) {
                Some(r) if branch.as_object().is_some_and(|b| b.len() == 1) => {
                    self.target(r, &at)?.0.clone()
                }
                _ => branch.clone(),
            };
            let Json::Object(b) = branch else {
                return Err(self.refuse(
                    StrictReason::NonSchemaNode,
                    &at,
                    None,
                    "an `allOf` branch must be an object",
                ));
            };
            if closed(&b) {
                closed_parts.push((at.clone(), names(&b)));
            }
            // Where each member of this branch lands in the merged node.
            for (k, v) in &b {
                if k == "properties" {
                    for name in v.as_object().into_iter().flat_map(|p| p.keys()) {
                        let mut merged_at = child(pointer, "properties");
                        push_token(&mut merged_at, name);
                        let mut original = child(&at, "properties");
                        push_token(&mut original, name);
                        self.origins.push((merged_at, original));
                    }
                } else if k != "required" && !merged.contains_key(k) {
                    self.origins.push((child(pointer, k), child(&at, k)));
                }
            }
            for (k, v) in b {
                match (k.as_str(), merged.get_mut(&k)) {
                    ("properties", Some(Json::Object(existing))) => {
                        let Json::Object(more) = v else { continue };
                        for (name, prop) in more {
                            if existing.contains_key(&name) {
                                return Err(self.refuse(StrictReason::UnsupportedKeyword, &at, Some("allOf"), format!("`allOf` branches that both constrain `{name}` cannot be merged")));
                            }
                            existing.insert(name, prop);
                        }
                    }
                    ("required", Some(Json::Array(existing))) => {
                        if let Json::Array(more) = v {
                            for r in more {
                                if !existing.contains(&r) {
                                    existing.push(r);
                                }
                            }
                        }
                    }
                    (_, Some(existing)) if *existing == v => {}
                    (_, Some(_)) => {
                        return Err(self.refuse(
                            StrictReason::UnsupportedKeyword,
                            &at,
                            Some(&k),
                            format!("`allOf` branches disagree on `{k}` and cannot be merged"),
                        ));
                    }
                    (_, None) => {
                        merged.insert(k, v);
                    }
                }
            }
        }
        self.change(
            pointer,
            "allOf",
            ChangeKind::Rewritten,
            format!("{} branch(es) merged into the node", branches.len()),
        );
        let all_names = names(&merged);
        for (at, own) in closed_parts {
            let others: Vec<&str> = all_names
                .iter()
                .filter(|n| !own.contains(n))
                .map(String::as_str)
                .collect();
            if !others.is_empty() {
                // Not the same meaning: the part alone refused the other parts' properties.
                let others: Vec<String> = others.iter().map(|n| format!("`{n}`")).collect();
                self.change(
                    &at,
                    "additionalProperties",
                    ChangeKind::Dropped,
                    format!(
                        "closed on its own properties, it refused {}; merged, the object takes them, and the local check of the answer refuses them",
                        others.join(", ")
                    ),
                );
            }
        }
        Ok(merged)
    }
}

/// The fields of Gemini's OpenAPI `Schema` object.
const GEMINI_FIELDS: [&str; 22] = [
    "anyOf",
    "type",
    "format",
    "title",
    "description",
    "nullable",
    "enum",
    "default",
    "example",
    "items",
    "minItems",
    "maxItems",
    "properties",
    "required",
    "propertyOrdering",
    "minProperties",
    "maxProperties",
    "minLength",
    "maxLength",
    "pattern",
    "minimum",
    "maximum",
];

/// Converts `schema` for `provider` (not OpenAI, whose conversion is `schema::strict`'s).
/// The root of a tool's input or a structured output must be an object for Anthropic
/// (providers.md: "a root that is not an object or is a union" is refused); see
/// [`convert_wrapping`] for the wrapping alternative.
pub fn convert(schema: &Json, provider: Provider) -> Result<Converted, StrictError> {
    convert_wrapping(schema, provider, None)
}

/// [`convert`], where a root the provider refuses as a root (Anthropic: not an object) is put
/// under the property `wrap` of a closed object, as the AI SDK's `Output.array` does with
/// `elements`, when `wrap` is given: the change is listed (`wrapped`) and [`Unwrap`] says how
/// `normalizeInput` reads the answer. A root the provider accepts is never wrapped.
pub fn convert_wrapping(
    schema: &Json,
    provider: Provider,
    wrap: Option<&str>,
) -> Result<Converted, StrictError> {
    let mut walk = Walk {
        root: schema,
        provider,
        changes: Vec::new(),
        expanding: Vec::new(),
        nodes: 0,
        origins: Vec::new(),
    };
    let mut out = walk.node(schema, "", 0)?;
    let mut unwrap = None;
    if provider == Provider::Anthropic {
        let is_object = out.get("type") == Some(&Json::String("object".into()));
        if let (false, Some(property)) = (is_object, wrap) {
            let wrapper = |inner: Json| {
                serde_json::json!({
                    "type": "object",
                    "properties": { property: inner },
                    "required": [property],
                    "additionalProperties": false,
                })
            };
            out = wrapper(std::mem::take(&mut out));
            walk.changes.push(Change {
                pointer: String::new(),
                keyword: "type".into(),
                kind: ChangeKind::Wrapped,
                detail: format!(
                    "the root is sent as the property `{property}` of an object ({} accepts only an object root); normalizeInput returns its value",
                    provider.name()
                ),
            });
            unwrap = Some(Unwrap {
                property: property.to_string(),
                schema: wrapper(serde_json::json!({ "$ref": WRAPPED_RESOURCE })),
                resource: WRAPPED_RESOURCE,
            });
        } else if !is_object {
            return Err(fault(
                provider,
                StrictReason::RootNotObject,
                "",
                Some("type"),
                "the root must be an object schema (`type: \"object\"`); the option `wrapRoot` sends it as one property of an object".into(),
            ));
        }
    }
    let mut restore = Vec::new();
    if provider == Provider::Gemini {
        enum_texts(&out, &mut Vec::new(), &mut restore);
    }
    Ok(Converted {
        schema: out,
        changes: walk.changes,
        unwrap,
        restore,
    })
}

/// Where a converted Gemini schema holds numbers as enum texts (`format: "enum"` beside
/// `integer` or `number`): the path of the value (a property name, or `null` for any element)
/// and each text with its number.
fn enum_texts(node: &Json, path: &mut Vec<Json>, found: &mut Vec<Restore>) {
    let Some(obj) = node.as_object() else { return };
    let numeric = matches!(
        obj.get("type").and_then(Json::as_str),
        Some("integer" | "number")
    );
    if let (true, Some("enum"), Some(Json::Array(texts))) = (
        numeric,
        obj.get("format").and_then(Json::as_str),
        obj.get("enum"),
    ) {
        let numbers = texts
            .iter()
            .filter_map(|t| {
                let text = t.as_str()?;
                Some((text.to_string(), serde_json::from_str(text).ok()?))
            })
            .collect();
        found.push(Restore {
            path: path.clone(),
            numbers,
        });
    }
    if let Some(Json::Object(props)) = obj.get("properties") {
        for (name, sub) in props {
            path.push(Json::String(name.clone()));
            enum_texts(sub, path, found);
            path.pop();
        }
    }
    if let Some(items) = obj.get("items") {
        path.push(Json::Null);
        enum_texts(items, path, found);
        path.pop();
    }
    if let Some(Json::Array(branches)) = obj.get("anyOf") {
        for branch in branches {
            enum_texts(branch, path, found);
        }
    }
}

/// Numbers a Gemini schema sends as enum texts (`Converted::restore`): at `path` (property
/// names, `null` for any array element) a string answer that is one of the texts is read as its
/// number.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Restore {
    pub path: Vec<Json>,
    pub numbers: Map<String, Json>,
}

impl Restore {
    /// A `Restore` as it crossed back from the facade (its own serialization); `None` for
    /// anything else.
    pub fn read(json: &Json) -> Option<Restore> {
        Some(Restore {
            path: json.get("path")?.as_array()?.clone(),
            numbers: json.get("numbers")?.as_object()?.clone(),
        })
    }
}

/// An answer to a converted schema with every enum text of `restore` read back as its number.
pub fn restore_numbers(value: &mut Json, restore: &[Restore]) {
    fn at(value: &mut Json, path: &[Json], numbers: &Map<String, Json>) {
        match path.split_first() {
            None => {
                if let Some(n) = value.as_str().and_then(|t| numbers.get(t)) {
                    *value = n.clone();
                }
            }
            Some((Json::String(key), rest)) => {
                if let Some(sub) = value.as_object_mut().and_then(|o| o.get_mut(key)) {
                    at(sub, rest, numbers);
                }
            }
            Some((_, rest)) => {
                if let Some(items) = value.as_array_mut() {
                    for item in items {
                        at(item, rest, numbers);
                    }
                }
            }
        }
    }
    for r in restore {
        at(value, &r.path, &r.numbers);
    }
}

/// Converts a schema the caller gave `toStrictJsonSchema` or `prepareStrictJsonSchema` for
/// `provider`: what a schema library writes that says nothing (Zod's safe-integer bounds, a
/// record's `propertyNames: { type: 'string' }`; `standard::tidy_converted`) goes first, so it
/// is neither described nor sent (`normalizeInput` still checks the original), then
/// [`convert`].
pub fn convert_given(
    mut schema: Json,
    provider: Provider,
    wrap: Option<&str>,
) -> Result<Converted, StrictError> {
    crate::schema::standard::tidy_converted(&mut schema);
    convert_wrapping(&schema, provider, wrap)
}

/// A tool's parameters as sent must be their own form for `provider`: converting them changes
/// nothing but annotations. Otherwise a `not_strict` error at the first change.
pub fn check_as_sent(schema: &Json, provider: Provider, tool: &str) -> Result<(), StrictError> {
    let converted = convert(schema, provider).map_err(|e| StrictError {
        message: format!("Tool `{tool}`: {}", e.message),
        ..e
    })?;
    if let Some(c) = converted
        .changes
        .iter()
        .find(|c| c.kind != ChangeKind::Dropped || c.keyword == "additionalProperties")
    {
        let at = crate::schema::pointer::place(&c.pointer);
        return Err(StrictError {
            reason: StrictReason::NotStrict,
            pointer: c.pointer.clone(),
            keyword: Some(c.keyword.clone()),
            message: format!(
                "Tool `{tool}`: its parameters are not in {}'s form: `{}` at {at} would be {} ({}). Convert them before the request: providerSchemas('{}') in an AI SDK app, toStrictJsonSchema(schema, {{ provider: '{}' }}) otherwise.",
                provider.name(),
                c.keyword,
                c.kind.as_str(),
                c.detail,
                provider.as_str(),
                provider.as_str()
            ), tool_name: None, });
    }
    Ok(())
}

crate::code_enum! {
    /// A limit a whole request must respect (over all its tools and its output schema).
    pub enum RequestLimit {
        /// Anthropic: at most 20 strict tools.
        StrictTools = "strict_tools",
        /// Anthropic: at most 24 optional parameters (properties not in `required`).
        OptionalParameters = "optional_parameters",
        /// Anthropic: at most 16 parameters with a union (`anyOf`, a type array).
        UnionParameters = "union_parameters",
        /// OpenAI: at most 5,000 object properties.
        Properties = "properties",
        /// OpenAI: at most 10 levels of nesting.
        Nesting = "nesting",
        /// OpenAI: at most 120,000 characters of property names, definition names, enum and
        /// const values.
        Characters = "characters",
        /// OpenAI: at most 1,000 enum values.
        EnumValues = "enum_values",
        /// OpenAI: a string enum of more than 250 values totals at most 15,000 characters.
        EnumCharacters = "enum_characters",
    }
}

/// A request over one of its provider's limits.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS), ts(rename = "RequestLimitBreach"))]
pub struct Breach {
    /// Which limit.
    #[cfg_attr(test, ts(type = "RequestLimit"))]
    pub limit: RequestLimit,
    /// Where the count went over: `/tools/<i>/parameters/…` or `/output/…`.
    pub pointer: String,
    /// How many the request has.
    pub count: usize,
    /// How many the provider takes.
    pub max: usize,
    /// The breach in words, naming the provider.
    pub message: String,
}

#[derive(Default)]
struct Tally {
    optional: Vec<String>,
    unions: Vec<String>,
    properties: Vec<String>,
    too_deep: Option<String>,
    characters: usize,
    characters_at: Option<String>,
    enum_values: usize,
    enum_values_at: Option<String>,
    enum_characters: Vec<(String, usize)>,
}

fn is_union(schema: &Json) -> bool {
    schema.get("anyOf").is_some()
        || schema.get("oneOf").is_some()
        || schema.get("type").is_some_and(Json::is_array)
}

/// Counts what the limits count, in one walk of a schema as sent.
fn tally(schema: &Json, pointer: &str, depth: usize, t: &mut Tally) {
    let Json::Object(obj) = schema else { return };
    if depth > 10 && t.too_deep.is_none() {
        t.too_deep = Some(pointer.to_string());
    }
    if depth > MAX_DEPTH {
        return;
    }
    let required: Vec<&str> = obj
        .get("required")
        .and_then(Json::as_array)
        .map(|r| r.iter().filter_map(Json::as_str).collect())
        .unwrap_or_default();
    let count_chars = |t: &mut Tally, n: usize, at: &str| {
        t.characters += n;
        if t.characters > 120_000 && t.characters_at.is_none() {
            t.characters_at = Some(at.to_string());
        }
    };
    if let Some(Json::Object(props)) = obj.get("properties") {
        let here = child(pointer, "properties");
        for (name, prop) in props {
            let at = child(&here, name);
            t.properties.push(at.clone());
            count_chars(t, name.chars().count(), &at);
            if !required.contains(&name.as_str()) {
                t.optional.push(at.clone());
            }
            if is_union(prop) {
                t.unions.push(at.clone());
            }
            tally(prop, &at, depth + 1, t);
        }
    }
    for defs in ["$defs", "definitions"] {
        if let Some(Json::Object(d)) = obj.get(defs) {
            let here = child(pointer, defs);
            for (name, def) in d {
                let at = child(&here, name);
                count_chars(t, name.chars().count(), &at);
                tally(def, &at, depth, t);
            }
        }
    }
    if let Some(Json::Array(values)) = obj.get("enum") {
        let at = child(pointer, "enum");
        t.enum_values += values.len();
        if t.enum_values > 1000 && t.enum_values_at.is_none() {
            t.enum_values_at = Some(at.clone());
        }
        let chars: usize = values
            .iter()
            .map(|v| {
                v.as_str()
                    .map_or_else(|| v.to_string().len(), |s| s.chars().count())
            })
            .sum();
        count_chars(t, chars, &at);
        if values.len() > 250 && values.iter().all(Json::is_string) {
            t.enum_characters.push((at, chars));
        }
    }
    if let Some(c) = obj.get("const") {
        count_chars(
            t,
            c.as_str()
                .map_or_else(|| c.to_string().len(), |s| s.chars().count()),
            &child(pointer, "const"),
        );
    }
    if let Some(items) = obj.get("items") {
        tally(items, &child(pointer, "items"), depth + 1, t);
    }
    for key in ["anyOf", "oneOf", "allOf"] {
        if let Some(Json::Array(branches)) = obj.get(key) {
            let here = child(pointer, key);
            for (i, b) in branches.iter().enumerate() {
                tally(b, &child(&here, &i.to_string()), depth, t);
            }
        }
    }
}

/// Checks a whole request, its function tools' parameters (`(name, parameters)` as sent) and
/// its output schema, against `provider`'s request limits; every breach is listed.
pub fn check_request(
    provider: Provider,
    tools: &[(String, Json)],
    output: Option<&Json>,
) -> Vec<Breach> {
    let mut t = Tally::default();
    for (i, (_, parameters)) in tools.iter().enumerate() {
        tally(parameters, &format!("/tools/{i}/parameters"), 1, &mut t);
    }
    if let Some(output) = output {
        tally(output, "/output", 1, &mut t);
    }
    let name = provider.name();
    let mut out = Vec::new();
    let mut over = |limit: RequestLimit, list: &[String], max: usize, what: &str| {
        if list.len() > max {
            out.push(Breach {
                limit,
                pointer: list[max].clone(),
                count: list.len(),
                max,
                message: format!(
                    "{name} allows at most {max} {what} in one request; this one has {}.",
                    list.len()
                ),
            });
        }
    };
    match provider {
        Provider::Anthropic => {
            let tools_at: Vec<String> = (0..tools.len()).map(|i| format!("/tools/{i}")).collect();
            over(RequestLimit::StrictTools, &tools_at, 20, "strict tools");
            over(
                RequestLimit::OptionalParameters,
                &t.optional,
                24,
                "optional parameters (properties not in `required`)",
            );
            over(
                RequestLimit::UnionParameters,
                &t.unions,
                16,
                "parameters with a union (`anyOf` or a type array)",
            );
        }
        Provider::OpenAi => {
            over(
                RequestLimit::Properties,
                &t.properties,
                5000,
                "object properties",
            );
            if let Some(at) = &t.too_deep {
                out.push(Breach {
                    limit: RequestLimit::Nesting,
                    pointer: at.clone(),
                    count: 11,
                    max: 10,
                    message: format!(
                        "{name} allows at most 10 levels of nesting; this request goes deeper."
                    ),
                });
            }
            if let Some(at) = &t.characters_at {
                out.push(Breach { limit: RequestLimit::Characters, pointer: at.clone(), count: t.characters, max: 120_000, message: format!("{name} allows at most 120000 characters of property names, definition names, enum and const values in one request; this one has {}.", t.characters) });
            }
            if let Some(at) = &t.enum_values_at {
                out.push(Breach {
                    limit: RequestLimit::EnumValues,
                    pointer: at.clone(),
                    count: t.enum_values,
                    max: 1000,
                    message: format!(
                        "{name} allows at most 1000 enum values in one request; this one has {}.",
                        t.enum_values
                    ),
                });
            }
            for (at, chars) in &t.enum_characters {
                if *chars > 15_000 {
                    out.push(Breach { limit: RequestLimit::EnumCharacters, pointer: at.clone(), count: *chars, max: 15_000, message: format!("{name} allows a string enum of more than 250 values at most 15000 characters; this one has {chars}.") });
                }
            }
        }
        Provider::Gemini => {}
    }
    out
}

#[cfg(test)]
mod tests;
