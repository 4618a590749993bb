//! Aligning a scanned value with a JSON Schema (sap-rules.md, rules 6-10, 14-17): the
//! coercions a careful reader would make, each reported as a fix, and a typed refusal for
//! what cannot be read as the schema.

use serde_json::{Map, Number, Value as Json};
use std::borrow::Cow;

use super::fixes::FixKind;
use super::path::{Path, Seg};
use super::scan::{is_number, Value};
use super::{Fix, ParseReason};

/// Keyword lookups on schema objects. Schema nodes hold a handful of keys, where a linear scan
/// of serde_json's ordered map is several times faster than hashing the key (SipHash through
/// `IndexMap`, about a tenth of a short reply's time in `perf`); larger maps use the index.
pub trait Kw {
    fn kw(&self, key: &str) -> Option<&Json>;
}

const SCAN_MAX: usize = 12;

impl Kw for Map<String, Json> {
    #[inline]
    fn kw(&self, key: &str) -> Option<&Json> {
        if self.len() <= SCAN_MAX {
            self.iter().find(|(k, _)| k.as_str() == key).map(|(_, v)| v)
        } else {
            self.get(key)
        }
    }
}

impl Kw for Json {
    #[inline]
    fn kw(&self, key: &str) -> Option<&Json> {
        match self {
            Json::Object(map) => map.kw(key),
            _ => None,
        }
    }
}

/// The type a schema object implies: the `type` it names (`named`), else `object` beside
/// `properties` and `array` beside `items`. The clean-reply check (`as_is`) reads schemas so too.
pub fn implied_type<'a>(obj: &Map<String, Json>, named: Option<&'a str>) -> Option<&'a str> {
    named.or_else(|| {
        if obj.contains_key("properties") {
            Some("object")
        } else if obj.contains_key("items") {
            Some("array")
        } else {
            None
        }
    })
}

/// Deepest schema/value nesting alignment follows (the scanner bounds values at 256).
const MAX_ALIGN_DEPTH: usize = 300;

/// Why a value does not fit the schema, at a pointer into the value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mismatch {
    pub reason: ParseReason,
    pub pointer: String,
    pub message: String,
}

fn mismatch(reason: ParseReason, pointer: &Path<'_>, message: impl Into<String>) -> Mismatch {
    Mismatch {
        reason,
        pointer: pointer.to_pointer(),
        message: message.into(),
    }
}

/// Alignment settings.
#[derive(Clone, Copy)]
pub struct Mode {
    /// Coercions allowed (off for the first, exact pass over union branches).
    pub coerce: bool,
    /// The text is a prefix of a streamed reply (rules 12-17 apply).
    pub partial: bool,
}

impl Mode {
    /// A whole reply, coercions allowed.
    pub const WHOLE: Mode = Mode {
        coerce: true,
        partial: false,
    };
}

pub struct Aligner<'a> {
    pub root: &'a Json,
    pub fixes: Vec<Fix>,
}

impl<'a> Aligner<'a> {
    /// An aligner against `root` (whose `$ref`s it resolves), with no fixes yet.
    pub fn new(root: &'a Json) -> Aligner<'a> {
        Aligner {
            root,
            fixes: Vec::new(),
        }
    }
}

/// An aligned value. Strings stay borrowed from the reply where it holds them as they are,
/// objects are lists of entries: a short reply's value is most of its allocations (a string
/// per key and value, an `IndexMap` with a hash per key) when built as a `serde_json::Value`
/// only to be written out as JSON text again. Values the aligner takes from elsewhere (numbers,
/// enum values, values read without a schema) are kept as JSON.
#[derive(Debug)]
pub enum Aligned<'t> {
    Str(Cow<'t, str>),
    Arr(Vec<Aligned<'t>>),
    /// Distinct keys (a key given twice keeps its first place and its last value), in the order
    /// the reply gave them.
    Obj(Vec<(Cow<'t, str>, Aligned<'t>)>),
    Json(Json),
}

impl Aligned<'_> {
    pub fn into_json(self) -> Json {
        match self {
            Aligned::Str(s) => Json::String(s.into_owned()),
            Aligned::Arr(items) => Json::Array(items.into_iter().map(Aligned::into_json).collect()),
            Aligned::Obj(entries) => Json::Object(
                entries
                    .into_iter()
                    .map(|(k, v)| (k.into_owned(), v.into_json()))
                    .collect(),
            ),
            Aligned::Json(j) => j,
        }
    }

    /// Writes the value as JSON text (what `serde_json` writes for [`Aligned::into_json`]).
    pub fn write_json(&self, out: &mut Vec<u8>) {
        // Writing into a Vec cannot fail.
        match self {
            Aligned::Str(s) => {
                let _ = serde_json::to_writer(&mut *out, s.as_ref());
            }
            Aligned::Arr(items) => {
                out.push(b'[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(b',');
                    }
                    item.write_json(out);
                }
                out.push(b']');
            }
            Aligned::Obj(entries) => {
                out.push(b'{');
                for (i, (key, value)) in entries.iter().enumerate() {
                    if i > 0 {
                        out.push(b',');
                    }
                    let _ = serde_json::to_writer(&mut *out, key.as_ref());
                    out.push(b':');
                    value.write_json(out);
                }
                out.push(b'}');
            }
            Aligned::Json(j) => {
                let _ = serde_json::to_writer(&mut *out, j);
            }
        }
    }
}

/// How many entries an object keeps as a list, where a repeated key is found by a linear
/// search; larger objects are built as a `serde_json` map (hashed keys, linear in size).
const FEW_ENTRIES: usize = 32;

/// An object being aligned. A key given twice keeps its first place and takes the last value
/// (as `serde_json`'s map does).
enum Entries<'t> {
    Few(Vec<(Cow<'t, str>, Aligned<'t>)>),
    Many(Map<String, Json>),
}

impl<'t> Entries<'t> {
    fn with_capacity(n: usize) -> Self {
        if n <= FEW_ENTRIES {
            Entries::Few(Vec::with_capacity(n))
        } else {
            Entries::Many(Map::with_capacity(n))
        }
    }

    fn insert(&mut self, key: Cow<'t, str>, value: Aligned<'t>) {
        match self {
            Entries::Few(entries) => match entries.iter_mut().find(|(k, _)| *k == key) {
                Some(slot) => slot.1 = value,
                None => entries.push((key, value)),
            },
            Entries::Many(map) => {
                map.insert(key.into_owned(), value.into_json());
            }
        }
    }

    fn contains(&self, key: &str) -> bool {
        match self {
            Entries::Few(entries) => entries.iter().any(|(k, _)| k == key),
            Entries::Many(map) => map.contains_key(key),
        }
    }

    fn finish(self) -> Aligned<'t> {
        match self {
            Entries::Few(entries) => Aligned::Obj(entries),
            Entries::Many(map) => Aligned::Json(Json::Object(map)),
        }
    }
}

fn type_names(schema: &Json) -> Vec<&str> {
    match schema.kw("type") {
        Some(Json::String(t)) => vec![t.as_str()],
        Some(Json::Array(ts)) => ts.iter().filter_map(Json::as_str).collect(),
        _ => Vec::new(),
    }
}

/// Whether a schema accepts `null`.
pub fn admits_null(schema: &Json, root: &Json) -> bool {
    let schema = resolve(schema, root);
    match schema {
        Json::Bool(b) => *b,
        Json::Object(_) => {
            if let Some(Json::Array(e)) = schema.kw("enum") {
                return e.contains(&Json::Null);
            }
            if let Some(c) = schema.kw("const") {
                return c.is_null();
            }
            if let Some(Json::Array(branches)) = schema.kw("anyOf").or_else(|| schema.kw("oneOf")) {
                return branches.iter().any(|b| admits_null(b, root));
            }
            let types = type_names(schema);
            types.is_empty() && schema.kw("properties").is_none()
                || types.contains(&"null")
                || schema.kw("nullable") == Some(&Json::Bool(true))
        }
        _ => false,
    }
}

/// Follows local `$ref`s (bounded, so a reference cycle ends).
pub fn resolve<'s>(mut schema: &'s Json, root: &'s Json) -> &'s Json {
    for _ in 0..64 {
        let Some(reference) = schema.kw("$ref").and_then(Json::as_str) else {
            return schema;
        };
        let Some(rest) = reference.strip_prefix('#') else {
            return schema;
        };
        let target = if rest.is_empty() {
            Some(root)
        } else {
            root.pointer(&crate::schema::pointer::percent_decode(rest).unwrap_or_default())
        };
        match target {
            Some(t) => schema = t,
            None => return schema,
        }
    }
    schema
}

fn num_json(f: f64) -> Option<Json> {
    // -0 stays a float, so the sign survives (JSON.parse("-0") is -0).
    if f.fract() == 0.0 && f.abs() < 9.007_199_254_740_992e15 && !(f == 0.0 && f.is_sign_negative())
    {
        Some(Json::Number(Number::from(f as i64)))
    } else {
        Number::from_f64(f).map(Json::Number)
    }
}

/// `"$1,234.50"` → 1234.5: trimmed, optional sign, `$`, thousands separators, exponent.
fn parse_number_text(text: &str) -> Option<f64> {
    let t = text.trim();
    let (sign, t) = match t.strip_prefix('-') {
        Some(rest) => ("-", rest),
        None => ("", t.strip_prefix('+').unwrap_or(t)),
    };
    let t = t.strip_prefix('$').unwrap_or(t);
    let cleaned: String = t.chars().filter(|&c| c != ',').collect();
    if t.contains(',') {
        // Separators must group thousands: 1,234 / 12,345.6
        let int = t.split('.').next().unwrap_or("");
        let groups: Vec<&str> = int.split(',').collect();
        if groups[0].is_empty() || groups[0].len() > 3 || groups[1..].iter().any(|g| g.len() != 3) {
            return None;
        }
    }
    if !is_number(&cleaned) {
        return None;
    }
    format!("{sign}{cleaned}")
        .parse::<f64>()
        .ok()
        .filter(|f| f.is_finite())
}

/// Trims whitespace and surrounding punctuation, for case-insensitive enum matching.
fn enum_key(text: &str) -> String {
    text.trim_matches(|c: char| {
        c.is_whitespace() || (c.is_ascii_punctuation() && c != '_' && c != '-')
    })
    .to_lowercase()
}

fn describe(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Num { .. } => "a number",
        Value::Str { .. } => "a string",
        Value::Arr { .. } => "an array",
        Value::Obj { .. } => "an object",
        Value::CutLiteral => "an unfinished literal",
    }
}

impl Aligner<'_> {
    fn fix(&mut self, kind: FixKind, pointer: &Path<'_>, detail: impl Into<Cow<'static, str>>) {
        self.fixes.push(Fix {
            kind,
            pointer: pointer.to_pointer(),
            detail: detail.into(),
        });
    }

    /// Aligns `value` with `schema`. `Ok(None)` means "leave this out" (a partial value the
    /// cut left undecided).
    pub fn align<'t>(
        &mut self,
        value: &Value<'t>,
        schema: &Json,
        pointer: &Path<'_>,
        mode: Mode,
        depth: usize,
    ) -> Result<Option<Aligned<'t>>, Mismatch> {
        if depth > MAX_ALIGN_DEPTH {
            return Err(mismatch(
                ParseReason::TooDeep,
                pointer,
                "the value is nested too deeply",
            ));
        }
        let root = self.root;
        let schema = resolve(schema, root);
        // Values the cut left undecided are left out in a partial reading.
        match value {
            Value::CutLiteral => return Ok(None),
            Value::Num {
                complete: false, ..
            } if mode.partial => return Ok(None),
            _ => {}
        }
        let obj = match schema {
            Json::Bool(true) => return Ok(Some(Aligned::Json(plain(value, mode.partial)))),
            Json::Bool(false) => {
                return Err(mismatch(
                    ParseReason::TypeMismatch,
                    pointer,
                    "the schema accepts no value here",
                ))
            }
            Json::Object(o) => o,
            _ => return Ok(Some(Aligned::Json(plain(value, mode.partial)))),
        };
        if let Some(Json::Array(branches)) = obj.kw("anyOf").or_else(|| obj.kw("oneOf")) {
            return self.union(value, branches, pointer, mode, depth);
        }
        if let Some(Json::Array(options)) = obj.kw("enum") {
            return self
                .enumeration(value, options, pointer, mode)
                .map(|v| Some(Aligned::Json(v)));
        }
        if let Some(c) = obj.kw("const") {
            return self
                .enumeration(value, std::slice::from_ref(c), pointer, mode)
                .map(|v| Some(Aligned::Json(v)));
        }
        // One named type, read without collecting (the common case); several become a union.
        let (first, several) = match obj.kw("type") {
            Some(Json::String(t)) => (Some(t.as_str()), false),
            Some(Json::Array(ts)) => {
                let mut names = ts.iter().filter_map(Json::as_str);
                (names.next(), names.next().is_some())
            }
            _ => (None, false),
        };
        if several {
            let branches: Vec<Json> = type_names(schema)
                .iter()
                .map(|t| {
                    let mut b = obj.clone();
                    b.insert("type".into(), Json::String((*t).to_string()));
                    Json::Object(b)
                })
                .collect();
            return self.union(value, &branches, pointer, mode, depth);
        }
        match implied_type(obj, first) {
            None => Ok(Some(Aligned::Json(plain(value, mode.partial)))),
            Some("null") => match value {
                Value::Null => Ok(Some(Aligned::Json(Json::Null))),
                _ => Err(mismatch(
                    ParseReason::TypeMismatch,
                    pointer,
                    format!("expected null, found {}", describe(value)),
                )),
            },
            Some("string") => self.string(value, pointer, mode),
            Some(t @ ("integer" | "number")) => {
                self.number(value, t == "integer", schema, pointer, mode, depth)
            }
            Some("boolean") => self.boolean(value, schema, pointer, mode, depth),
            Some("array") => self.array(value, schema, pointer, mode, depth),
            Some("object") => self.object(value, schema, pointer, mode, depth),
            Some(other) => Err(mismatch(
                ParseReason::TypeMismatch,
                pointer,
                format!("unknown schema type `{other}`"),
            )),
        }
    }

    fn string<'t>(
        &mut self,
        value: &Value<'t>,
        pointer: &Path<'_>,
        mode: Mode,
    ) -> Result<Option<Aligned<'t>>, Mismatch> {
        match value {
            Value::Str { text, .. } => Ok(Some(Aligned::Str(text.clone()))),
            Value::Num { text, .. } if mode.coerce => {
                self.fix(FixKind::NumberToString, pointer, text.to_string());
                Ok(Some(Aligned::Str(Cow::Borrowed(text))))
            }
            Value::Bool(b) if mode.coerce => {
                self.fix(FixKind::BooleanToString, pointer, b.to_string());
                Ok(Some(Aligned::Str(Cow::Borrowed(if *b {
                    "true"
                } else {
                    "false"
                }))))
            }
            _ => Err(mismatch(
                ParseReason::TypeMismatch,
                pointer,
                format!("expected a string, found {}", describe(value)),
            )),
        }
    }

    fn number<'t>(
        &mut self,
        value: &Value<'t>,
        integer: bool,
        schema: &Json,
        pointer: &Path<'_>,
        mode: Mode,
        depth: usize,
    ) -> Result<Option<Aligned<'t>>, Mismatch> {
        let want = if integer { "an integer" } else { "a number" };
        let (f, coerced) = match value {
            Value::Num { text, .. } => (text.parse::<f64>().ok().filter(|f| f.is_finite()), false),
            Value::Str { text, complete } if mode.coerce => {
                if !complete && mode.partial {
                    return Ok(None); // more characters may follow
                }
                (parse_number_text(text), true)
            }
            Value::Arr { items, .. } if mode.coerce && items.len() == 1 => {
                self.fix(FixKind::ArrayToSingle, pointer, "one-element array");
                return self.align(&items[0], schema, pointer, mode, depth + 1);
            }
            _ => {
                return Err(mismatch(
                    ParseReason::TypeMismatch,
                    pointer,
                    format!("expected {want}, found {}", describe(value)),
                ))
            }
        };
        let Some(f) = f else {
            return Err(mismatch(
                ParseReason::TypeMismatch,
                pointer,
                format!("expected {want}, found {}", describe(value)),
            ));
        };
        if integer && f.fract() != 0.0 {
            return Err(mismatch(
                ParseReason::TypeMismatch,
                pointer,
                format!("expected an integer, found {f}"),
            ));
        }
        if coerced {
            self.fix(FixKind::StringToNumber, pointer, f.to_string());
        }
        Ok(num_json(f).map(Aligned::Json))
    }

    fn boolean<'t>(
        &mut self,
        value: &Value<'t>,
        schema: &Json,
        pointer: &Path<'_>,
        mode: Mode,
        depth: usize,
    ) -> Result<Option<Aligned<'t>>, Mismatch> {
        match value {
            Value::Bool(b) => Ok(Some(Aligned::Json(Json::Bool(*b)))),
            Value::Str { text, complete } if mode.coerce => {
                if !complete && mode.partial {
                    return Ok(None);
                }
                match text.trim().to_lowercase().as_str() {
                    "true" => {
                        self.fix(FixKind::StringToBoolean, pointer, text.to_string());
                        Ok(Some(Aligned::Json(Json::Bool(true))))
                    }
                    "false" => {
                        self.fix(FixKind::StringToBoolean, pointer, text.to_string());
                        Ok(Some(Aligned::Json(Json::Bool(false))))
                    }
                    _ => Err(mismatch(
                        ParseReason::TypeMismatch,
                        pointer,
                        format!("expected a boolean, found the string {text:?}"),
                    )),
                }
            }
            Value::Arr { items, .. } if mode.coerce && items.len() == 1 => {
                self.fix(FixKind::ArrayToSingle, pointer, "one-element array");
                self.align(&items[0], schema, pointer, mode, depth + 1)
            }
            _ => Err(mismatch(
                ParseReason::TypeMismatch,
                pointer,
                format!("expected a boolean, found {}", describe(value)),
            )),
        }
    }

    fn enumeration(
        &mut self,
        value: &Value,
        options: &[Json],
        pointer: &Path<'_>,
        mode: Mode,
    ) -> Result<Json, Mismatch> {
        let exact = plain(value, mode.partial);
        if let Value::Str {
            complete: false, ..
        } = value
        {
            if mode.partial {
                // A prefix of "pending" is not a value (rule 14).
                return Err(mismatch(
                    ParseReason::Partial,
                    pointer,
                    "unfinished enum value",
                ));
            }
        }
        if options.contains(&exact) {
            return Ok(exact);
        }
        if mode.coerce {
            let text = match value {
                Value::Str { text, .. } => Some(text.as_ref()),
                Value::Num { text, .. } => Some(*text),
                _ => None,
            };
            if let Some(text) = text {
                let key = enum_key(text);
                let matches: Vec<&Json> = options
                    .iter()
                    .filter(|o| match o {
                        Json::String(s) => enum_key(s) == key,
                        Json::Number(n) => {
                            parse_number_text(text).is_some_and(|f| n.as_f64() == Some(f))
                        }
                        _ => false,
                    })
                    .collect();
                if matches.len() == 1 {
                    self.fix(
                        FixKind::EnumCase,
                        pointer,
                        format!("{text:?} -> {}", matches[0]),
                    );
                    return Ok(matches[0].clone());
                }
            }
        }
        Err(mismatch(
            ParseReason::NotInEnum,
            pointer,
            format!("{} is not one of {}", exact, Json::Array(options.to_vec())),
        ))
    }

    fn union<'t>(
        &mut self,
        value: &Value<'t>,
        branches: &[Json],
        pointer: &Path<'_>,
        mode: Mode,
        depth: usize,
    ) -> Result<Option<Aligned<'t>>, Mismatch> {
        // A branch the value satisfies without coercion wins (rule 9).
        for branch in branches {
            let mut probe = Aligner::new(self.root);
            if let Ok(v) = probe.align(
                value,
                branch,
                pointer,
                Mode {
                    coerce: false,
                    ..mode
                },
                depth + 1,
            ) {
                if probe.fixes.is_empty() {
                    return Ok(v);
                }
            }
        }
        if !mode.coerce {
            return Err(mismatch(
                ParseReason::TypeMismatch,
                pointer,
                "no branch of the union matches exactly",
            ));
        }
        let mut last = None;
        for branch in branches {
            let mut probe = Aligner::new(self.root);
            match probe.align(value, branch, pointer, mode, depth + 1) {
                Ok(v) => {
                    self.fixes.extend(probe.fixes);
                    return Ok(v);
                }
                Err(e) => last = Some(e),
            }
        }
        Err(last.unwrap_or_else(|| {
            mismatch(
                ParseReason::TypeMismatch,
                pointer,
                "the union has no branch",
            )
        }))
    }

    fn array<'t>(
        &mut self,
        value: &Value<'t>,
        schema: &Json,
        pointer: &Path<'_>,
        mode: Mode,
        depth: usize,
    ) -> Result<Option<Aligned<'t>>, Mismatch> {
        let items_schema = schema.kw("items");
        let items = match value {
            Value::Arr { items, .. } => items,
            Value::Null => {
                return Err(mismatch(
                    ParseReason::TypeMismatch,
                    pointer,
                    "expected an array, found null",
                ))
            }
            _ if mode.coerce => {
                // A single value where an array is expected (rule 7).
                let element_pointer = pointer.child(Seg::Index(0));
                let element = match items_schema {
                    Some(s) => self.align(value, s, &element_pointer, mode, depth + 1)?,
                    None => Some(Aligned::Json(plain(value, mode.partial))),
                };
                self.fix(FixKind::SingleToArray, pointer, describe(value));
                return Ok(Some(Aligned::Arr(element.into_iter().collect())));
            }
            _ => {
                return Err(mismatch(
                    ParseReason::TypeMismatch,
                    pointer,
                    format!("expected an array, found {}", describe(value)),
                ))
            }
        };
        let mut out = Vec::with_capacity(items.len());
        for (i, item) in items.iter().enumerate() {
            let item_pointer = pointer.child(Seg::Index(i));
            let item_schema = match items_schema {
                Some(Json::Array(tuple)) => tuple.get(i),
                other => other,
            };
            let aligned = match item_schema {
                Some(s) => match self.align(item, s, &item_pointer, mode, depth + 1) {
                    Err(e) if mode.partial && e.reason == ParseReason::Partial => None,
                    other => other?,
                },
                None => self.align(item, &Json::Bool(true), &item_pointer, mode, depth + 1)?,
            };
            if let Some(v) = aligned {
                out.push(v);
            }
        }
        Ok(Some(Aligned::Arr(out)))
    }

    fn object<'t>(
        &mut self,
        value: &Value<'t>,
        schema: &Json,
        pointer: &Path<'_>,
        mode: Mode,
        depth: usize,
    ) -> Result<Option<Aligned<'t>>, Mismatch> {
        let root = self.root;
        let properties = schema.kw("properties").and_then(Json::as_object);
        let required: Vec<&str> = schema
            .kw("required")
            .and_then(Json::as_array)
            .map(|r| r.iter().filter_map(Json::as_str).collect())
            .unwrap_or_default();
        let (entries, closed) = match value {
            Value::Obj { entries, closed } => (entries, *closed),
            Value::Arr { items, .. } if mode.coerce => {
                // A bare array for an object with exactly one array property (`{ elements }`)
                // is wrapped in it, whatever its length; a one-element array holding the
                // object itself (rule 7) is unwrapped when that object fits exactly, or when
                // there is no such property or wrapping fails.
                let single = items.len() == 1 && matches!(items[0], Value::Obj { .. });
                let wrapper = properties.filter(|p| p.len() == 1).and_then(|p| {
                    let (name, prop) = p.iter().next()?;
                    let prop = resolve(prop, root);
                    (type_names(prop).contains(&"array") || prop.kw("items").is_some())
                        .then_some((name, prop))
                });
                if single {
                    let mut exact = Aligner::new(root);
                    let strict = Mode {
                        coerce: false,
                        ..mode
                    };
                    if let Ok(v) = exact.align(&items[0], schema, pointer, strict, depth + 1) {
                        if exact.fixes.is_empty() {
                            self.fix(FixKind::ArrayToSingle, pointer, "one-element array");
                            return Ok(v);
                        }
                    }
                }
                if let Some((name, prop)) = wrapper {
                    let inner = pointer.child(Seg::Key(name));
                    let mut probe = Aligner::new(root);
                    match probe.align(value, prop, &inner, mode, depth + 1) {
                        Ok(aligned) => {
                            self.fixes.extend(probe.fixes);
                            self.fix(FixKind::ArrayToObject, pointer, name.clone());
                            let entries = aligned
                                .map(|v| (Cow::Owned(name.clone()), v))
                                .into_iter()
                                .collect();
                            return Ok(Some(Aligned::Obj(entries)));
                        }
                        Err(e) if !single => return Err(e),
                        Err(_) => {}
                    }
                }
                if single {
                    self.fix(FixKind::ArrayToSingle, pointer, "one-element array");
                    return self.align(&items[0], schema, pointer, mode, depth + 1);
                }
                return Err(mismatch(
                    ParseReason::TypeMismatch,
                    pointer,
                    "expected an object, found an array",
                ));
            }
            _ => {
                return Err(mismatch(
                    ParseReason::TypeMismatch,
                    pointer,
                    format!("expected an object, found {}", describe(value)),
                ))
            }
        };
        let additional = schema.kw("additionalProperties");
        let mut out = Entries::with_capacity(entries.len());
        for (key, item) in entries {
            let item_pointer = pointer.child(Seg::Key(key));
            let property = properties.and_then(|p| p.kw(key));
            let target = match (property, additional) {
                (Some(p), _) => p,
                (None, Some(Json::Bool(false))) => {
                    if mode.coerce {
                        self.fix(FixKind::ExtraKeyDropped, &item_pointer, key.to_string());
                        continue;
                    }
                    return Err(mismatch(
                        ParseReason::ExtraKey,
                        &item_pointer,
                        format!("unexpected key `{key}`"),
                    ));
                }
                (None, Some(s @ Json::Object(_))) => s,
                (None, _) => &Json::Bool(true),
            };
            if matches!(item, Value::Null)
                && !required.contains(&key.as_ref())
                && !admits_null(target, root)
            {
                if mode.coerce {
                    self.fix(FixKind::NullDropped, &item_pointer, key.to_string());
                    continue;
                }
                return Err(mismatch(
                    ParseReason::TypeMismatch,
                    &item_pointer,
                    "null for a property that does not admit null",
                ));
            }
            match self.align(item, target, &item_pointer, mode, depth + 1) {
                Ok(Some(v)) => {
                    out.insert(key.clone(), v);
                }
                Ok(None) => {}
                Err(e) if mode.partial && e.reason == ParseReason::Partial => {}
                Err(e) => return Err(e),
            }
        }
        // An object the cut closed holds exactly the keys received (rule 17).
        let exempt = mode.partial && !closed;
        if !exempt {
            for name in &required {
                if out.contains(name) {
                    continue;
                }
                let prop = properties.and_then(|p| p.kw(name));
                let item_pointer = pointer.child(Seg::Key(name));
                if prop.is_some_and(|p| admits_null(p, root)) && mode.coerce {
                    self.fix(FixKind::NullFilled, &item_pointer, (*name).to_string());
                    out.insert(Cow::Owned((*name).to_string()), Aligned::Json(Json::Null));
                } else {
                    return Err(mismatch(
                        ParseReason::MissingRequired,
                        &item_pointer,
                        format!("required property `{name}` is missing"),
                    ));
                }
            }
        }
        Ok(Some(out.finish()))
    }
}

/// A scanned value as JSON, with nothing coerced. Cut literals are left out, and so are
/// numbers that ran into the cut when `partial` (more digits may follow).
pub fn plain(value: &Value, partial: bool) -> Json {
    let keep = |v: &Value| {
        !(matches!(v, Value::CutLiteral)
            || partial
                && matches!(
                    v,
                    Value::Num {
                        complete: false,
                        ..
                    }
                ))
    };
    match value {
        Value::Null | Value::CutLiteral => Json::Null,
        Value::Bool(b) => Json::Bool(*b),
        Value::Num { text, .. } => text
            .parse::<f64>()
            .ok()
            .and_then(num_json)
            .unwrap_or(Json::Null),
        Value::Str { text, .. } => Json::String(text.as_ref().to_owned()),
        Value::Arr { items, .. } => Json::Array(
            items
                .iter()
                .filter(|v| keep(v))
                .map(|v| plain(v, partial))
                .collect(),
        ),
        Value::Obj { entries, .. } => Json::Object(
            entries
                .iter()
                .filter(|(_, v)| keep(v))
                .map(|(k, v)| (k.as_ref().to_owned(), plain(v, partial)))
                .collect(),
        ),
    }
}
