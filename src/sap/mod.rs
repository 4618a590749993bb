//! Schema-aligned parsing: find the value a model's reply holds, read it tolerantly, align it
//! with the schema, and report every repair (sap-rules.md).

pub mod align;
pub mod as_is;
pub mod fixes;
pub mod options;
pub mod path;
pub use fixes::FixKind;
pub mod repair;
pub mod scan;
pub mod stream;
pub mod targets;

use serde::Serialize;
use serde_json::Value as Json;
use std::borrow::Cow;

pub use align::Aligned;
use align::{Aligner, Kw, Mismatch, Mode};
use path::{Path, Seg};
use scan::{scan_value, Scanned, Value};

/// One repair schema-aligned parsing made, at a JSON Pointer into the result.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS), ts(rename = "ParseFix"))]
pub struct Fix {
    /// What was repaired: `fence_stripped`, `prose_skipped`, `trailing_comma_removed`,
    /// `single_quotes`, `string_to_number`, … (every code in `ParseFixKind`).
    #[cfg_attr(test, ts(type = "ParseFixKind"))]
    pub kind: FixKind,
    /// JSON Pointer of the repaired value in the result.
    pub pointer: String,
    /// What the repair read or wrote (the fence, the skipped prose, the separator, …).
    // Most details are fixed texts (`,`, `text before the fence`): borrowed, not allocated.
    #[cfg_attr(test, ts(as = "String"))]
    pub detail: Cow<'static, str>,
}

/// A candidate value `StructuredParseError` considered, and why it was refused.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(
    test,
    derive(ts_rs::TS),
    ts(rename = "RefusedCandidate", optional_fields)
)]
pub struct Refusal {
    /// Byte offsets of the candidate in the UTF-8 text.
    pub start: usize,
    pub end: usize,
    #[cfg_attr(test, ts(type = "StructuredParseErrorReason"))]
    pub reason: ParseReason,
    /// JSON Pointer into the candidate where it stopped fitting.
    pub pointer: String,
    pub message: String,
}

crate::code_enum! {
    /// `StructuredParseError.reason`: why no reading of a reply fits its schema.
    pub enum ParseReason {
        /// No JSON value (or prose reading) in the reply.
        NoJson = "no_json",
        TypeMismatch = "type_mismatch",
        NotInEnum = "not_in_enum",
        MissingRequired = "missing_required",
        ExtraKey = "extra_key",
        /// Several readings fit, differently.
        Ambiguous = "ambiguous",
        TooDeep = "too_deep",
        /// The reply ends before the value does.
        Partial = "partial",
        /// Reading it needs a repair the options do not allow.
        FixNotAllowed = "fix_not_allowed",
    }
}

/// Why no value of the schema could be read.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, thiserror::Error)]
#[cfg_attr(
    test,
    derive(ts_rs::TS),
    ts(rename = "StructuredParseErrorFields", optional_fields)
)]
#[error("{message}")]
pub struct ParseFailure {
    #[cfg_attr(test, ts(type = "StructuredParseErrorReason"))]
    pub reason: ParseReason,
    /// The message (`Display`); it crosses once, as the error's own.
    #[serde(skip)]
    pub message: String,
    /// Every candidate considered, with why it was refused.
    pub candidates: Vec<Refusal>,
    /// The JSON Pointer in the value where the first candidate failed, when one was read
    /// (`coerceToolInput`'s one input: where it is wrong).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pointer: Option<String>,
}

impl crate::error::Raise for ParseFailure {
    fn kind(&self) -> crate::error::Class {
        crate::error::Class::StructuredParseError
    }
}

/// The result of [`parse_structured`].
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Parsed {
    pub value: Json,
    pub fixes: Vec<Fix>,
}

/// A reading before its value is made a `serde_json::Value`: what the bindings write out as
/// the answer text ([`Reading::into_answer_text`]) without building one.
#[derive(Debug)]
pub struct Reading<'t> {
    pub value: Aligned<'t>,
    pub fixes: Vec<Fix>,
}

impl From<Parsed> for Reading<'_> {
    fn from(p: Parsed) -> Self {
        Reading {
            value: Aligned::Json(p.value),
            fixes: p.fixes,
        }
    }
}

impl Reading<'_> {
    pub fn into_parsed(self) -> Parsed {
        Parsed {
            value: self.value.into_json(),
            fixes: self.fixes,
        }
    }

    /// A parse's answer as one text for the facade (`structuredAnswer` in sap/parse.ts): each fix's
    /// kind, pointer and detail after a NUL, then a NUL and the value's JSON text. The facade
    /// slices the fields where they lie and parses only the value: JSON objects for the fixes
    /// cost more than the rest of a short reply's reading. A fix field that holds a NUL (a key
    /// with one) sends the whole result as JSON text instead, which never starts with a NUL.
    pub fn into_answer_text(self) -> String {
        let nul = |s: &str| s.contains('\0');
        if self.fixes.iter().any(|f| nul(&f.pointer) || nul(&f.detail)) {
            return serde_json::to_string(&self.into_parsed()).unwrap_or_default();
        }
        // Room for the fixes and a short value (a longer one grows the buffer).
        let fields: usize = self
            .fixes
            .iter()
            .map(|f| 3 + f.kind.as_str().len() + f.pointer.len() + f.detail.len())
            .sum();
        let mut out = Vec::with_capacity(fields + 128);
        for f in &self.fixes {
            for field in [f.kind.as_str(), &f.pointer, &f.detail] {
                out.push(0);
                out.extend_from_slice(field.as_bytes());
            }
        }
        out.push(0);
        self.value.write_json(&mut out);
        String::from_utf8(out).unwrap_or_default()
    }
}

/// The result of [`parse_partial`].
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PartialParsed {
    /// `None` while the prefix determines no value yet (left out of the JSON form).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<Json>,
    /// The value is finished: the rest of the reply cannot change it.
    pub complete: bool,
    pub fixes: Vec<Fix>,
    /// Where in the text the value's candidate starts (a byte offset; left out with no value):
    /// a stream's partial values that start elsewhere than the last shown one come from a new
    /// candidate (`partialOutput`'s `restarted`).
    #[serde(skip_serializing_if = "Option::is_none", rename = "candidateStart")]
    pub start: Option<usize>,
}

#[derive(Debug)]
struct Candidate<'a> {
    scanned: Scanned<'a>,
    /// The fenced block holding the value, from its opening fence to past its closing one.
    fence: Option<(usize, usize)>,
    /// Fixes from locating the candidate (fence stripped, prose skipped).
    located: Vec<Fix>,
}

fn fix(kind: FixKind, detail: impl Into<Cow<'static, str>>) -> Fix {
    Fix {
        kind,
        pointer: String::new(),
        detail: detail.into(),
    }
}

/// Finds the candidate values of a reply (rule 1): fenced blocks, then JSON embedded in prose,
/// then the whole text as one value.
/// The byte offset of the first "```" at or after `from` (a byte loop: `str::find` builds a
/// two-way searcher per call, a visible share of a short reply).
fn find_fence(bytes: &[u8], from: usize) -> Option<usize> {
    let mut i = from;
    while i + 3 <= bytes.len() {
        if bytes[i] == b'`' && bytes[i + 1] == b'`' && bytes[i + 2] == b'`' {
            return Some(i);
        }
        i += 1;
    }
    None
}

fn candidates(text: &str) -> Vec<Candidate<'_>> {
    let mut out = Vec::new();
    let bytes = text.as_bytes();
    // Fenced blocks. A fence's end is where the value ends (fence characters may occur inside
    // strings); the closing fence is optional.
    let mut search = 0;
    while let Some(i) = find_fence(bytes, search) {
        let tag_end = text[i + 3..]
            .find('\n')
            .map_or(text.len(), |n| i + 3 + n + 1);
        let tag = text[i + 3..tag_end].trim();
        let body = tag_end;
        match scan_value(text, body) {
            Ok(scanned) if scanned.end > scanned.start => {
                let end = scanned.end;
                let close = find_fence(bytes, end).map_or(text.len(), |c| c + 3);
                let fence: Cow<'static, str> = match tag {
                    "" => "```".into(),
                    "json" => "```json".into(),
                    _ => format!("```{tag}").into(),
                };
                // Sized for the scanner's fixes too, which join these when the value is read.
                let mut located = Vec::with_capacity(2 + scanned.fixes.len());
                located.push(fix(FixKind::FenceStripped, fence));
                if i > 0 && !text[..i].trim().is_empty() {
                    located.push(fix(FixKind::ProseSkipped, "text before the fence"));
                }
                out.push(Candidate {
                    scanned,
                    fence: Some((i, close)),
                    located,
                });
                search = close.max(i + 3);
            }
            _ => {
                search = tag_end.max(i + 3);
            }
        }
        if search >= text.len() {
            break;
        }
    }
    // Values in the prose outside fences: every `{` or `[` that starts a readable value; a
    // value found is skipped over as a whole, so the scan stays linear in practice.
    let mut i = 0;
    let mut prose_found = false;
    // Failed attempts may re-read text; their total is bounded to keep the search linear
    // (10k unmatched `[` would otherwise re-read up to MAX_NESTING bytes per bracket).
    let mut budget = 4 * bytes.len() + 65_536;
    // The candidates so far are the fenced blocks, in order and apart: each is skipped when `i`
    // reaches it (one cursor, where testing every block at every byte was quadratic).
    let fenced = out.len();
    let mut next_fence = 0;
    while i < bytes.len() {
        if let Some((start, end)) = out[..fenced].get(next_fence).and_then(|c| c.fence) {
            if i >= start {
                next_fence += 1;
                i = i.max(end);
                continue;
            }
        }
        if bytes[i] == b'{' || bytes[i] == b'[' {
            match scan_value(text, i) {
                Ok(scanned) => {
                    let end = scanned.end.max(i + 1);
                    let whole = text[..i].trim().is_empty() && text[end..].trim().is_empty();
                    let located = if whole {
                        Vec::new()
                    } else {
                        vec![fix(FixKind::ProseSkipped, "text around the value")]
                    };
                    out.push(Candidate {
                        scanned,
                        fence: None,
                        located,
                    });
                    prose_found = true;
                    i = end;
                    continue;
                }
                Err(e) => {
                    budget = budget.saturating_sub(e.offset.saturating_sub(i));
                    if budget == 0 {
                        break;
                    }
                }
            }
        }
        i += 1;
    }
    // The whole text as a scalar (`42`, `"text"`, `true`).
    if out.is_empty() && !prose_found {
        if let Ok(scanned) = scan_value(text, 0) {
            if text[scanned.end..].trim().is_empty()
                && !matches!(scanned.value, Value::Str { .. } if !text.trim_start().starts_with(['"', '\'', '\u{201C}', '\u{2018}']))
            {
                out.push(Candidate {
                    scanned,
                    fence: None,
                    located: Vec::new(),
                });
            }
        }
    }
    out
}

fn refusal(c: &Candidate, m: Mismatch) -> Refusal {
    Refusal {
        start: c.scanned.start,
        end: c.scanned.end,
        reason: m.reason,
        pointer: m.pointer,
        message: m.message,
    }
}

fn failure(
    reason: ParseReason,
    message: impl Into<String>,
    candidates: Vec<Refusal>,
) -> ParseFailure {
    ParseFailure {
        reason,
        message: message.into(),
        pointer: candidates.first().map(|c| c.pointer.clone()),
        candidates,
    }
}

fn schema_type<'a>(schema: &'a Json, root: &'a Json) -> Option<&'a str> {
    let s = align::resolve(schema, root);
    match s.kw("type") {
        Some(Json::String(t)) => Some(t),
        _ if s.kw("properties").is_some() => Some("object"),
        _ => None,
    }
}

/// Options of [`parse_structured_with`].
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Options {
    /// Refuse a value the text ended inside of (reason `partial`) instead of closing it with a
    /// `closed_at_end` fix.
    pub refuse_truncated: bool,
    /// Accept only these repair kinds; a reading that needs another is refused (reason
    /// `fix_not_allowed`). `None` accepts every repair.
    pub allow_fixes: Option<Vec<String>>,
}

impl Options {
    /// The first repair these options do not accept.
    fn disallowed<'a>(&self, fixes: &'a [Fix]) -> Option<&'a Fix> {
        let allowed = self.allow_fixes.as_ref()?;
        fixes
            .iter()
            .find(|f| !allowed.iter().any(|a| a == f.kind.as_str()))
    }
}

fn disallowed_message(f: &Fix) -> String {
    format!(
        "it needs the repair `{}` ({}), which allowFixes does not include",
        f.kind.as_str(),
        f.detail
    )
}

/// Reads the value of `schema` that `text` holds (rules 1-11), accepting every repair.
pub fn parse_structured(text: &str, schema: &Json) -> Result<Parsed, ParseFailure> {
    parse_structured_with(text, schema, &Options::default())
}

/// [`parse_structured`] with options: a result needing a repair the options refuse is an error.
pub fn parse_structured_with(
    text: &str,
    schema: &Json,
    options: &Options,
) -> Result<Parsed, ParseFailure> {
    parse_structured_reading(text, schema, options).map(Reading::into_parsed)
}

/// [`parse_structured_with`] as a [`Reading`], for a caller that writes the value out as text.
pub fn parse_structured_reading<'t>(
    text: &'t str,
    schema: &Json,
    options: &Options,
) -> Result<Reading<'t>, ParseFailure> {
    let parsed = read_structured(text, schema, options)?;
    if let Some(f) = options.disallowed(&parsed.fixes) {
        let refusal = Refusal {
            start: 0,
            end: text.len(),
            reason: ParseReason::FixNotAllowed,
            pointer: f.pointer.clone(),
            message: disallowed_message(f),
        };
        let message = format!(
            "No reading of the reply fits the schema: {} (at `{}`).",
            refusal.message, refusal.pointer
        );
        return Err(failure(ParseReason::FixNotAllowed, message, vec![refusal]));
    }
    Ok(parsed)
}

fn read_structured<'t>(
    text: &'t str,
    schema: &Json,
    options: &Options,
) -> Result<Reading<'t>, ParseFailure> {
    read_structured_at(text, schema, options, 0)
}

/// How many objects of one required property a bare value is read through (`{ a: { b: … } }`).
const MAX_WRAPPED: usize = 4;

/// An object schema with exactly one required property, that property's name and its schema
/// (with the root's `$defs`, so its `$ref`s still resolve).
fn one_required_property(schema: &Json) -> Option<(String, Json)> {
    let resolved = align::resolve(schema, schema);
    let required = resolved.kw("required").and_then(Json::as_array)?;
    let [Json::String(name)] = required.as_slice() else {
        return None;
    };
    let property = resolved.kw("properties")?.kw(name)?;
    Some((name.clone(), standalone(property, schema)))
}

/// A subschema of `root` read as a schema of its own: resolved, with the root's `$defs` and
/// `definitions`, so its `$ref`s still resolve.
fn standalone(sub: &Json, root: &Json) -> Json {
    let mut out = align::resolve(sub, root).clone();
    if let Json::Object(m) = &mut out {
        for defs in ["$defs", "definitions"] {
            if let Some(d) = root.kw(defs) {
                m.entry(defs).or_insert_with(|| d.clone());
            }
        }
    }
    out
}

fn read_structured_at<'t>(
    text: &'t str,
    schema: &Json,
    options: &Options,
    wrapped: usize,
) -> Result<Reading<'t>, ParseFailure> {
    let text = text.strip_prefix('\u{FEFF}').unwrap_or(text);
    let mut found = candidates(text);
    let mut accepted: Vec<(usize, Aligned<'t>, Vec<Fix>)> = Vec::new();
    let mut refused = Vec::new();
    // A candidate's fixes move into its reading (nothing later reads them).
    for (index, c) in found.iter_mut().enumerate() {
        let mut aligner = Aligner::new(schema);
        match aligner.align(&c.scanned.value, schema, &Path::ROOT, Mode::WHOLE, 0) {
            Ok(Some(value)) => {
                let mut fixes = std::mem::take(&mut c.located);
                fixes.extend(
                    std::mem::take(&mut c.scanned.fixes)
                        .into_iter()
                        .map(|f| Fix {
                            kind: f.kind,
                            pointer: f.pointer,
                            detail: f.detail,
                        }),
                );
                if c.scanned.cut {
                    if options.refuse_truncated {
                        refused.push(Refusal {
                            start: c.scanned.start,
                            end: c.scanned.end,
                            reason: ParseReason::Partial,
                            pointer: String::new(),
                            message: "the reply ended inside the value, and truncated replies are refused".into(),
                        });
                        continue;
                    }
                    // Plainly: the value was cut off, where, and that it was completed.
                    let cut = repair::cut_site(&c.scanned.value);
                    let what = cut.inside.noun();
                    let mut closed = fix(
                        FixKind::ClosedAtEnd,
                        format!("the reply was cut off inside {what}; the value was completed where the text ends"),
                    );
                    closed.pointer = cut.pointer;
                    fixes.push(closed);
                }
                fixes.extend(aligner.fixes);
                if let Some(f) = options.disallowed(&fixes) {
                    refused.push(Refusal {
                        start: c.scanned.start,
                        end: c.scanned.end,
                        reason: ParseReason::FixNotAllowed,
                        pointer: f.pointer.clone(),
                        message: disallowed_message(f),
                    });
                    continue;
                }
                accepted.push((index, value, fixes));
            }
            Ok(None) => refused.push(Refusal {
                start: c.scanned.start,
                end: c.scanned.end,
                reason: ParseReason::Partial,
                pointer: String::new(),
                message: "the value is unfinished".into(),
            }),
            Err(m) => refused.push(refusal(c, m)),
        }
    }
    let root_type = schema_type(schema, schema);
    let accepted_count = accepted.len();
    match accepted_count {
        0 => {}
        1 => {
            let (_, value, fixes) = accepted.pop().expect("one");
            return Ok(Reading { value, fixes });
        }
        _ => {
            // Compared as JSON (an object's key order does not count).
            let mut accepted: Vec<(usize, Json, Vec<Fix>)> = accepted
                .into_iter()
                .map(|(i, v, f)| (i, v.into_json(), f))
                .collect();
            let first = &accepted[0].1;
            if accepted.iter().all(|(_, v, _)| v == first) {
                let (_, value, fixes) = accepted.pop().expect("several");
                return Ok(Parsed { value, fixes }.into());
            }
            // Rule 2: the last complete one in a fenced block.
            if let Some(pos) = accepted
                .iter()
                .rposition(|(i, _, _)| found[*i].fence.is_some() && !found[*i].scanned.cut)
            {
                let (_, value, mut fixes) = accepted.swap_remove(pos);
                fixes.push(fix(
                    FixKind::CandidateChosen,
                    "the last complete fenced value",
                ));
                return Ok(Parsed { value, fixes }.into());
            }
            // Rule 3: several values that each fit the item schema of an array schema.
            if root_type != Some("array") {
                return Err(failure(
                    ParseReason::Ambiguous,
                    format!(
                        "The reply holds {} different values that fit the schema.",
                        accepted.len()
                    ),
                    refused,
                ));
            }
        }
    }
    if root_type == Some("array") && found.len() > 1 {
        let item_schema = align::resolve(schema, schema)
            .kw("items")
            .cloned()
            .unwrap_or(Json::Bool(true));
        let mut values = Vec::new();
        let mut fixes = Vec::new();
        let mut all = true;
        for c in &found {
            if options.refuse_truncated && c.scanned.cut {
                all = false;
                break;
            }
            let mut aligner = Aligner::new(schema);
            let pointer = Path::ROOT.child(Seg::Index(values.len()));
            match aligner.align(&c.scanned.value, &item_schema, &pointer, Mode::WHOLE, 0) {
                Ok(Some(v)) => {
                    values.push(v);
                    fixes.extend(aligner.fixes);
                }
                _ => {
                    all = false;
                    break;
                }
            }
        }
        if all {
            fixes.insert(
                0,
                fix(
                    FixKind::ValuesCollected,
                    format!("{} top-level values", values.len()),
                ),
            );
            return Ok(Reading {
                value: Aligned::Arr(values),
                fixes,
            });
        }
    }
    if accepted_count > 0 {
        return Err(failure(
            ParseReason::Ambiguous,
            format!("The reply holds {accepted_count} different values that fit the schema."),
            refused,
        ));
    }
    // A top-level enum (a `const`, a union of them) named once in prose (rules 8, 21).
    if let Some(options) = named_values(schema, schema, 0) {
        return enum_in_prose(text, &options, refused).map(Reading::from);
    }
    // A boolean or number schema and a reply that states its value in prose.
    if matches!(root_type, Some("boolean" | "integer" | "number")) {
        if let Some(result) = scalar_in_prose(text, schema, &found, &refused) {
            return result.map(Reading::from);
        }
    }
    // An array of such scalars, and one of them stated in prose: wrapped (rule 22).
    if root_type == Some("array") && found.is_empty() {
        if let Some(result) = item_in_prose(text, schema, &refused) {
            return result.map(Reading::from);
        }
    }
    // A schema that admits a string (alone or in a union) and a reply that is plain text
    // (rule 22).
    if found.is_empty() && !text.trim().is_empty() && admits_text(schema, schema, 0) {
        return Ok(Reading {
            value: Aligned::Str(Cow::Borrowed(text.trim())),
            fixes: vec![fix(FixKind::TextAsString, "the reply is the string")],
        });
    }
    // An object of one required property, and a reply that holds no object but a value of
    // that property (`rainy` for `{ result: enum }`, `1214` for `{ foo: number }`): the object
    // holding it, read by these same rules.
    let holds_object = found
        .iter()
        .any(|c| matches!(c.scanned.value, Value::Obj { .. }));
    if root_type == Some("object") && !holds_object && wrapped < MAX_WRAPPED {
        if let Some((name, property)) = one_required_property(schema) {
            let inner = read_structured_at(text, &property, options, wrapped + 1);
            // Two values of the property: that is why nothing fits.
            if let Err(e) = &inner {
                if e.reason == ParseReason::Ambiguous {
                    return inner;
                }
            }
            if let Ok(inner) = inner {
                let mut at = String::new();
                crate::schema::json::push_token(&mut at, &name);
                let mut fixes: Vec<Fix> = inner
                    .fixes
                    .into_iter()
                    .map(|mut f| {
                        f.pointer = format!("{at}{}", f.pointer);
                        f
                    })
                    .collect();
                fixes.push(fix(
                    FixKind::ValueToObject,
                    format!("the value of `{name}`"),
                ));
                return Ok(Reading {
                    value: Aligned::Obj(vec![(Cow::Owned(name), inner.value)]),
                    fixes,
                });
            }
        }
    }
    if let Some(first) = refused.first().cloned() {
        let message = format!(
            "No reading of the reply fits the schema: {} (at `{}`).",
            first.message, first.pointer
        );
        return Err(failure(first.reason, message, refused));
    }
    Err(failure(
        ParseReason::NoJson,
        "The reply holds no JSON value.",
        refused,
    ))
}

/// The values a schema allows when it names them all: an `enum`, a `const` (a one-value enum,
/// rule 21), or a union whose every branch names its values. `None` for any other schema, and
/// past 16 nested unions (a union that refers to itself).
fn named_values(schema: &Json, root: &Json, depth: usize) -> Option<Vec<Json>> {
    if depth > 16 {
        return None;
    }
    let resolved = align::resolve(schema, root);
    if let Some(Json::Array(options)) = resolved.kw("enum") {
        return Some(options.clone());
    }
    if let Some(c) = resolved.kw("const") {
        return Some(vec![c.clone()]);
    }
    if let Some(Json::Array(branches)) = resolved.kw("anyOf").or_else(|| resolved.kw("oneOf")) {
        let mut all = Vec::new();
        for b in branches {
            all.extend(named_values(b, root, depth + 1)?);
        }
        return (!all.is_empty()).then_some(all);
    }
    None
}

/// Whether bare text is a value of the schema: a `string` schema without named values, or a
/// union (a type list, `anyOf`, `oneOf`) with such a branch.
fn admits_text(schema: &Json, root: &Json, depth: usize) -> bool {
    let resolved = align::resolve(schema, root);
    if depth > 16 || resolved.kw("enum").is_some() || resolved.kw("const").is_some() {
        return false;
    }
    if let Some(Json::Array(branches)) = resolved.kw("anyOf").or_else(|| resolved.kw("oneOf")) {
        return branches.iter().any(|b| admits_text(b, root, depth + 1));
    }
    match resolved.kw("type") {
        Some(Json::String(t)) => t == "string",
        Some(Json::Array(ts)) => ts.iter().any(|t| t == "string"),
        _ => false,
    }
}

/// An array of booleans, numbers or named values, and a reply that states one of them in
/// prose: the one-element array of it (rule 22).
fn item_in_prose(
    text: &str,
    schema: &Json,
    refused: &[Refusal],
) -> Option<Result<Parsed, ParseFailure>> {
    let items = align::resolve(schema, schema).kw("items")?;
    let one = if let Some(options) = named_values(items, schema, 0) {
        enum_in_prose(text, &options, refused.to_vec()).ok()?
    } else if matches!(
        schema_type(items, schema),
        Some("boolean" | "integer" | "number")
    ) {
        // Read against the item schema, with `$ref`s resolved against the whole schema.
        match scalar_in_prose(text, &standalone(items, schema), &[], refused)? {
            Ok(p) => p,
            Err(e) => return Some(Err(e)),
        }
    } else {
        return None;
    };
    let mut fixes = one.fixes;
    fixes.push(fix(FixKind::SingleToArray, "the value found in prose"));
    Some(Ok(Parsed {
        value: Json::Array(vec![one.value]),
        fixes,
    }))
}

/// A boolean, integer or number stated in prose (`"…the answer is: true"`, `"The total count
/// is 17."`): the words of the text outside every candidate that read as a value of the
/// schema. One value (however often it is written) is the result; two different values are an
/// ambiguity; none gives `None`, and the caller reports why nothing fits.
fn scalar_in_prose(
    text: &str,
    schema: &Json,
    found: &[Candidate],
    refused: &[Refusal],
) -> Option<Result<Parsed, ParseFailure>> {
    let mut values: Vec<Json> = Vec::new();
    let mut prose_start = 0;
    let mut spans: Vec<(usize, usize)> = found
        .iter()
        .map(|c| (c.scanned.start, c.scanned.end))
        .collect();
    spans.sort_unstable();
    spans.push((text.len(), text.len()));
    for (start, end) in spans {
        if start > prose_start {
            for word in text[prose_start..start].split(|c: char| {
                !(c.is_alphanumeric() || matches!(c, '.' | ',' | '-' | '+' | '$' | '_'))
            }) {
                // Sentence punctuation after the value (`17.`, `true,`) is not part of it.
                let word = word.trim_end_matches(['.', ',']);
                if word.is_empty() {
                    continue;
                }
                let value = match word.to_ascii_lowercase().as_str() {
                    "true" => Value::Bool(true),
                    "false" => Value::Bool(false),
                    _ if word.bytes().any(|b| b.is_ascii_digit()) => Value::Str {
                        text: word.into(),
                        complete: true,
                    },
                    _ => continue,
                };
                let mut aligner = Aligner::new(schema);
                if let Ok(Some(v)) = aligner.align(&value, schema, &Path::ROOT, Mode::WHOLE, 0) {
                    let v = v.into_json();
                    if !values.contains(&v) {
                        values.push(v);
                    }
                }
            }
        }
        prose_start = prose_start.max(end);
    }
    match values.len() {
        0 => None,
        1 => {
            let value = values.pop().expect("one");
            Some(Ok(Parsed {
                fixes: vec![fix(FixKind::ScalarFromProse, value.to_string())],
                value,
            }))
        }
        n => Some(Err(failure(
            ParseReason::Ambiguous,
            format!(
                "The reply states {n} different values that fit the schema: {}.",
                values
                    .iter()
                    .map(|v| v.to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            refused.to_vec(),
        ))),
    }
}

fn enum_in_prose(
    text: &str,
    options: &[Json],
    refused: Vec<Refusal>,
) -> Result<Parsed, ParseFailure> {
    let lower = text.to_lowercase();
    let words: Vec<&str> = lower
        .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '-'))
        .filter(|w| !w.is_empty())
        .collect();
    let mut hits: Vec<&Json> = Vec::new();
    for option in options {
        let Json::String(s) = option else { continue };
        let needle = s.to_lowercase();
        let count = words.iter().filter(|w| **w == needle).count();
        if count > 0 {
            hits.push(option);
        }
    }
    match hits.len() {
        1 => Ok(Parsed {
            value: hits[0].clone(),
            fixes: vec![fix(FixKind::EnumFromProse, hits[0].to_string())],
        }),
        0 => Err(failure(
            ParseReason::NoJson,
            "The reply names none of the enum values.",
            refused,
        )),
        _ => Err(failure(
            ParseReason::Ambiguous,
            format!(
                "The reply names several enum values: {}.",
                hits.iter()
                    .map(|h| h.to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            refused,
        )),
    }
}

/// [`parse_partial`], with `atomic` fields (JSON Pointers into the value; a `*` segment matches
/// any key or index) left out until the text has moved past them: an enum, an id, a URL is
/// shown whole or not at all.
///
/// The value still being written is the last one in text order, so the unfinished part of a
/// partial value is the chain of last entries from the root down. An atomic field on that
/// chain is withheld; it appears once a later entry starts, or when the value is complete.
pub fn parse_partial_atomic(
    text: &str,
    schema: &Json,
    atomic: &[String],
) -> Result<PartialParsed, ParseFailure> {
    let mut parsed = parse_partial(text, schema)?;
    if parsed.complete || atomic.is_empty() {
        return Ok(parsed);
    }
    let patterns: Vec<Vec<String>> = atomic.iter().map(|p| pointer_segments(p)).collect();
    if patterns.iter().any(|p| p.is_empty()) {
        // The root itself is atomic: nothing is shown before it is complete.
        parsed.value = None;
        return Ok(parsed);
    }
    if let Some(value) = parsed.value.as_mut() {
        withhold_open(value, &mut Vec::new(), &patterns);
    }
    Ok(parsed)
}

/// The segments of a JSON Pointer (`~1` → `/`, `~0` → `~`); `""` is the root (no segments).
fn pointer_segments(pointer: &str) -> Vec<String> {
    pointer
        .split('/')
        .skip(1)
        .map(|s| s.replace("~1", "/").replace("~0", "~"))
        .collect()
}

fn matches(path: &[String], pattern: &[String]) -> bool {
    path.len() == pattern.len() && path.iter().zip(pattern).all(|(a, b)| b == "*" || a == b)
}

/// Removes the first atomic entry on the chain of last entries under `value`.
fn withhold_open(value: &mut Json, path: &mut Vec<String>, patterns: &[Vec<String>]) {
    let last = match value {
        Json::Object(map) => map.keys().next_back().cloned(),
        Json::Array(items) => items.len().checked_sub(1).map(|i| i.to_string()),
        _ => None,
    };
    let Some(last) = last else { return };
    path.push(last.clone());
    if patterns.iter().any(|p| matches(path, p)) {
        match value {
            Json::Object(map) => {
                map.shift_remove(&last);
            }
            Json::Array(items) => {
                items.pop();
            }
            _ => {}
        }
        return;
    }
    let child = match value {
        Json::Object(map) => map.get_mut(&last),
        Json::Array(items) => items.last_mut(),
        _ => None,
    };
    if let Some(child) = child {
        withhold_open(child, path, patterns);
    }
}

/// Reads the value a prefix of a streamed reply determines so far (rules 12-18).
pub fn parse_partial(text: &str, schema: &Json) -> Result<PartialParsed, ParseFailure> {
    let text = text.strip_prefix('\u{FEFF}').unwrap_or(text);
    let found = candidates(text);
    // The last candidate is the one the stream is writing.
    let Some(c) = found.last() else {
        return Ok(PartialParsed {
            value: None,
            complete: false,
            fixes: Vec::new(),
            start: None,
        });
    };
    // An earlier value that fits the schema ("Draft: {…} Final: {…"): which one the reply
    // finally means is known only at its end, so nothing is shown meanwhile (a partial never
    // goes back to less than was shown). An earlier candidate that does not fit (`{name}` in
    // prose) does not count.
    let earlier_fits = found[..found.len() - 1].iter().any(|e| {
        !e.scanned.cut
            && matches!(
                Aligner::new(schema).align(&e.scanned.value, schema, &Path::ROOT, Mode::WHOLE, 0),
                Ok(Some(_))
            )
    });
    if earlier_fits && c.scanned.cut {
        return Ok(PartialParsed {
            value: None,
            complete: false,
            fixes: Vec::new(),
            start: None,
        });
    }
    let mut aligner = Aligner::new(schema);
    let mode = Mode {
        coerce: true,
        partial: c.scanned.cut,
    };
    match aligner.align(&c.scanned.value, schema, &Path::ROOT, mode, 0) {
        Ok(value) => {
            let mut fixes = c.located.clone();
            fixes.extend(c.scanned.fixes.iter().map(|f| Fix {
                kind: f.kind,
                pointer: f.pointer.clone(),
                detail: f.detail.clone(),
            }));
            fixes.extend(aligner.fixes);
            let value = value.map(Aligned::into_json);
            Ok(PartialParsed {
                start: value.as_ref().map(|_| c.scanned.start),
                value,
                complete: !c.scanned.cut,
                fixes,
            })
        }
        Err(m) if m.reason == ParseReason::Partial => Ok(PartialParsed {
            value: None,
            complete: false,
            fixes: Vec::new(),
            start: None,
        }),
        Err(m) => {
            let message = format!(
                "The streamed value does not fit the schema: {} (at `{}`).",
                m.message, m.pointer
            );
            Err(failure(m.reason, message, vec![refusal(c, m)]))
        }
    }
}

/// What a strict JSON value (whole, or a prefix with `partial`) reads as against `schema`, a
/// node of `root`, for the incremental stream check ([`stream::Live`]): `Some(value)` when it
/// reads with no fix (`Some(None)`: a prefix that shows nothing yet), `None` when a reading
/// needs a fix or none fits.
pub(crate) fn reads_without_fix(
    text: &str,
    root: &Json,
    schema: &Json,
    partial: bool,
) -> Option<Option<Json>> {
    // A whole number or literal at the end of a text reads as one that may go on: a space says
    // it ended.
    let whole;
    let text = if partial || !text.ends_with(|c: char| c.is_ascii_alphanumeric() || c == '.') {
        text
    } else {
        whole = format!("{text} ");
        &whole
    };
    let scanned = scan::scan_value(text, 0).ok()?;
    if !scanned.fixes.is_empty()
        || (scanned.cut && !partial)
        || !text[scanned.end..].trim().is_empty()
    {
        return None;
    }
    let mut aligner = Aligner::new(root);
    let mode = Mode {
        coerce: true,
        partial: scanned.cut,
    };
    match aligner.align(&scanned.value, schema, &Path::ROOT, mode, 0) {
        Ok(value) if aligner.fixes.is_empty() => Some(value.map(Aligned::into_json)),
        Err(m) if m.reason == ParseReason::Partial => Some(None),
        _ => None,
    }
}

#[cfg(test)]
mod tests;
