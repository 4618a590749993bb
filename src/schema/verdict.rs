//! The verdict on a text without its value: the fast path of `validateJson`. Most texts a
//! program validates are valid, and proving that needs no value tree. [`Plan::compile`] turns
//! the schema into nodes once (at `compileJsonSchema` time); [`Plan::verdict`] then walks the
//! text a single time with serde_json's streaming deserializer, checking each value against its
//! node as it goes and allocating nothing for values.
//!
//! Each check answers valid, invalid or "don't know". It models a subset of keywords exactly
//! (invalid is needed too: `oneOf`, `not` and `if` turn a sub-verdict around); every other
//! keyword, draft or construct makes its node opaque, and a value reaching it gets "don't
//! know", which sends the text to the full validator. A "valid" or "invalid" at the top is the
//! full validator's verdict (`isValidJson` answers it); the issues of an invalid text are the
//! full validator's, or, for the first one only, [`Plan::explain`]'s. So a gap in the subset costs
//! speed, never a wrong verdict; `tests` and the `validate` fuzz target check every verdict
//! against `jsonschema`. `pattern` and the key patterns of `patternProperties` are matched by
//! the same compiled pattern the full path uses (natively, a one-keyword `jsonschema`
//! validator), so regular expressions mean exactly what they mean there.

use std::cell::{Cell, RefCell};
use std::fmt;

use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::Value as Json;

use crate::map::FastMap;

mod explain;
pub use explain::Explained;

/// Deepest nesting the plan follows, counting re-reads of a value for `anyOf` and friends;
/// deeper texts take the full path (serde_json itself stops at 128).
const MAX_DEPTH: usize = 120;
/// Integers up to this magnitude are exact as `f64`, so bounds compare exactly.
const EXACT: f64 = 9_007_199_254_740_992.0;
/// Properties a node may require and still track them in one word.
const MAX_REQUIRED: usize = 64;

// Value kinds a node accepts.
const NULL: u8 = 1;
const BOOL: u8 = 2;
/// Numbers written as integers (`12`, `-3`); `12.0` is a float to the streaming parser, and
/// the plan does not decide whether it counts as an integer.
const INT: u8 = 4;
const FLOAT: u8 = 8;
const STR: u8 = 16;
const ARR: u8 = 32;
const OBJ: u8 = 64;
const ALL: u8 = 127;

/// Which draft's keyword meanings apply.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Draft {
    D7,
    D2020,
}

impl Draft {
    fn uri(self) -> &'static str {
        match self {
            Draft::D7 => "http://json-schema.org/draft-07/schema#",
            Draft::D2020 => "https://json-schema.org/draft/2020-12/schema",
        }
    }
}

/// What a check concluded.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Verdict {
    Valid,
    Invalid,
    Unknown,
}

/// A `pattern` (or a key pattern of `patternProperties`). In wasm it is the host pattern the
/// full path's validator compiles for the same text (`jsonschema`'s `host-regex` patch: the
/// compiled pattern is shared, so the fast path adds no copy); natively, a one-keyword
/// `jsonschema` validator (`{"pattern": …}`). Either way a pattern means exactly what it means
/// on the full path.
struct Pattern {
    /// The pattern as the schema writes it, for issues.
    source: Box<str>,
    #[cfg(target_arch = "wasm32")]
    regex: jsonschema::host_regex::fancy_regex::Regex,
    #[cfg(not(target_arch = "wasm32"))]
    validator: OneKeyword,
}

impl Pattern {
    #[cfg(target_arch = "wasm32")]
    fn new(_draft: Draft, pattern: &Json) -> Option<Pattern> {
        let regex = jsonschema::host_regex::fancy_regex::RegexBuilder::new(pattern.as_str()?)
            .build()
            .ok()?;
        Some(Pattern {
            source: pattern.as_str()?.into(),
            regex,
        })
    }

    #[cfg(not(target_arch = "wasm32"))]
    fn new(draft: Draft, pattern: &Json) -> Option<Pattern> {
        let schema = serde_json::json!({ "$schema": draft.uri(), "pattern": pattern.as_str()? });
        let validator = jsonschema::options().build(&schema).ok().map(OneKeyword)?;
        Some(Pattern {
            source: pattern.as_str()?.into(),
            validator,
        })
    }

    /// Whether the pattern matches somewhere in `text`; `None` when the matcher failed (a
    /// backtracking pattern past its budget), which the full path reports.
    #[cfg(target_arch = "wasm32")]
    fn matches(&self, text: &str) -> Option<bool> {
        self.regex.is_match(text).ok()
    }

    #[cfg(not(target_arch = "wasm32"))]
    fn matches(&self, text: &str) -> Option<bool> {
        Some(self.validator.matches(text))
    }
}

/// A one-keyword `jsonschema` validator (`{"format": …}`, natively `{"pattern": …}`).
struct OneKeyword(jsonschema::Validator);

impl OneKeyword {
    /// For an asserted `format`, with the options the full path uses, so a format means
    /// exactly what it means there (unknown ones pass).
    fn format(draft: Draft, name: &Json) -> Option<OneKeyword> {
        let schema = serde_json::json!({ "$schema": draft.uri(), "format": name.as_str()? });
        jsonschema::options()
            .should_validate_formats(true)
            .build(&schema)
            .ok()
            .map(OneKeyword)
    }

    fn matches(&self, text: &str) -> bool {
        self.0.is_valid(&Json::String(text.to_owned()))
    }
}

/// `email` as the crate checks it, with a shortcut for the common shape: a dot-atom local part
/// of at most 64 characters and a hostname of dot-separated labels is accepted at once (a
/// subset of what the crate accepts, held to it by a test), anything else goes to the crate's
/// parser, which costs about a microsecond in wasm.
fn email(s: &str) -> bool {
    plain_email(s) || jsonschema::formats::is_valid_email(s)
}

fn plain_email(s: &str) -> bool {
    let Some((local, domain)) = s.split_once('@') else {
        return false;
    };
    let atext = |b: u8| b.is_ascii_alphanumeric() || b"!#$%&'*+/=?^_`{|}~-".contains(&b);
    let dot_atom = !local.is_empty()
        && local.len() <= 64
        && !local.starts_with('.')
        && !local.ends_with('.')
        && !local.contains("..")
        && local.bytes().all(|b| b == b'.' || atext(b));
    let label = |l: &str| {
        !l.is_empty()
            && l.len() <= 63
            && !l.starts_with('-')
            && !l.ends_with('-')
            && l.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
    };
    dot_atom
        && s.len() <= 254
        && domain.len() <= 253
        && domain.contains('.')
        && domain.split('.').all(label)
}

/// An asserted `format`: the crate's own check for the formats tool schemas carry, called
/// directly (the same function the full path's validator calls, so the same verdict, without
/// building a string value), or a one-keyword validator for the others.
enum FormatCheck {
    Native(fn(&str) -> bool),
    Validator(OneKeyword),
}

impl FormatCheck {
    fn new(draft: Draft, name: &Json) -> Option<FormatCheck> {
        use jsonschema::formats as f;
        // Which formats a draft knows follows the crate's `builtin_format` (with the vendored
        // patch: `duration` and `uuid` in draft 7 too); drafts 7 and 2020-12 agree on these.
        let native: Option<fn(&str) -> bool> = match (draft, name.as_str()?) {
            (_, "date") => Some(f::is_valid_date),
            (_, "time") => Some(f::is_valid_time),
            (_, "date-time") => Some(f::is_valid_datetime),
            (_, "duration") => Some(f::is_valid_duration),
            (_, "email") => Some(email),
            (_, "hostname") => Some(f::is_valid_hostname),
            (_, "ipv4") => Some(f::is_valid_ipv4),
            (_, "ipv6") => Some(f::is_valid_ipv6),
            (_, "uuid") => Some(f::is_valid_uuid),
            (_, "uri") => Some(f::is_valid_uri),
            _ => None,
        };
        Some(match native {
            Some(check) => FormatCheck::Native(check),
            None => FormatCheck::Validator(OneKeyword::format(draft, name)?),
        })
    }

    fn matches(&self, text: &str) -> bool {
        match self {
            FormatCheck::Native(check) => check(text),
            FormatCheck::Validator(v) => v.matches(text),
        }
    }
}

impl fmt::Debug for FormatCheck {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("FormatCheck")
    }
}

impl fmt::Debug for Pattern {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Pattern")
    }
}

/// A compiled node: the checks one schema object makes on a value.
#[derive(Debug)]
struct Node {
    /// Any value reaching it gets "don't know".
    opaque: bool,
    kinds: u8,
    min_len: usize,
    max_len: usize,
    pattern: Option<Pattern>,
    /// The asserted `format` (only when formats are validated).
    format: Option<FormatCheck>,
    /// Inclusive and exclusive bounds (±∞ when absent).
    minimum: f64,
    maximum: f64,
    exclusive_minimum: f64,
    exclusive_maximum: f64,
    /// Item schemas by position, then `items` for the rest (`None`: anything).
    prefix: Vec<usize>,
    items: Option<usize>,
    min_items: usize,
    max_items: usize,
    properties: Vec<(Box<str>, usize)>,
    required: Vec<Box<str>>,
    /// `properties` and `required` joined (built by [`Node::finish`]): per key name, its schema
    /// and its bit among the required keys.
    keys: Vec<Key>,
    /// Hash index of `keys` once there are many.
    key_index: Option<FastMap<Box<str>, usize>>,
    /// Distinct required keys.
    required_count: u32,
    pattern_properties: Vec<(Pattern, usize)>,
    property_names: Option<usize>,
    /// Schema of the keys neither `properties` nor `patternProperties` names (`None`: anything).
    additional: Option<usize>,
    /// `additional` is `unevaluatedProperties`, whose violation the full validator reports as
    /// the keyword's own ("Unevaluated properties are not allowed"), not the inner keyword's: the
    /// fast path does not write it.
    additional_unevaluated: bool,
    /// `enum`, or `const` as an enum of one.
    options: Option<Vec<Json>>,
    /// Schemas the whole value must also satisfy (`allOf`, and `$ref` next to other keywords).
    all_of: Vec<usize>,
    any_of: Vec<usize>,
    one_of: Vec<usize>,
    not: Option<usize>,
    /// `if`, `then`, `else`.
    condition: Option<(usize, Option<usize>, Option<usize>)>,
    /// A node that is only a reference: checking it is checking its target.
    alias: Option<usize>,
    /// [`Node::buffered`], [`Node::has_local_checks`] and [`Node::scalar_options`], computed
    /// once by [`Node::finish`].
    is_buffered: bool,
    is_local: bool,
    has_scalar_options: bool,
    /// What issues need ([`explain`]): where the node's schema sits in the document (a JSON
    /// Pointer), whether `type` names one type, which keyword `options` came from (empty when
    /// both did), the bounds as the schema writes them (`minimum`, `maximum`,
    /// `exclusiveMinimum`, `exclusiveMaximum`; `None` without bounds) and the `format` name.
    pointer: Box<str>,
    single_type: bool,
    options_keyword: &'static str,
    limits: Option<Box<[Option<Json>; 4]>>,
    format_name: Option<Box<str>>,
}

/// A key an object node names.
#[derive(Debug)]
struct Key {
    name: Box<str>,
    schema: Option<usize>,
    required_bit: Option<u32>,
}

impl Node {
    fn new() -> Node {
        Node {
            opaque: false,
            kinds: ALL,
            min_len: 0,
            max_len: usize::MAX,
            pattern: None,
            format: None,
            minimum: f64::NEG_INFINITY,
            maximum: f64::INFINITY,
            exclusive_minimum: f64::NEG_INFINITY,
            exclusive_maximum: f64::INFINITY,
            prefix: Vec::new(),
            items: None,
            min_items: 0,
            max_items: usize::MAX,
            properties: Vec::new(),
            required: Vec::new(),
            keys: Vec::new(),
            key_index: None,
            required_count: 0,
            pattern_properties: Vec::new(),
            property_names: None,
            additional: None,
            additional_unevaluated: false,
            options: None,
            all_of: Vec::new(),
            any_of: Vec::new(),
            one_of: Vec::new(),
            not: None,
            condition: None,
            alias: None,
            is_buffered: false,
            is_local: false,
            has_scalar_options: false,
            pointer: "".into(),
            single_type: false,
            options_keyword: "",
            limits: None,
            format_name: None,
        }
    }

    /// Joins `properties` and `required` into `keys` and computes the flags the walk reads.
    fn finish(mut self) -> Node {
        for (name, schema) in std::mem::take(&mut self.properties) {
            self.keys.push(Key {
                name,
                schema: Some(schema),
                required_bit: None,
            });
        }
        for name in std::mem::take(&mut self.required) {
            let at = match self.keys.iter().position(|k| k.name == name) {
                Some(at) => at,
                None => {
                    self.keys.push(Key {
                        name,
                        schema: None,
                        required_bit: None,
                    });
                    self.keys.len() - 1
                }
            };
            if self.keys[at].required_bit.is_none() {
                self.keys[at].required_bit = Some(self.required_count);
                self.required_count += 1;
            }
        }
        if self.keys.len() > 12 {
            self.key_index = Some(
                self.keys
                    .iter()
                    .enumerate()
                    .map(|(i, k)| (k.name.clone(), i))
                    .collect(),
            );
        }
        self.is_buffered = self.buffered();
        self.is_local = self.has_local_checks();
        self.has_scalar_options = self.scalar_options().is_some();
        self
    }

    fn opaque() -> Node {
        Node {
            opaque: true,
            ..Node::new()
        }
    }

    /// Whether checking the value needs its text whole (re-read once per applicator). Options
    /// that are all scalars are compared as the value streams by.
    fn buffered(&self) -> bool {
        !self.all_of.is_empty()
            || !self.any_of.is_empty()
            || !self.one_of.is_empty()
            || self.not.is_some()
            || self.condition.is_some()
            || self.options.is_some() && self.scalar_options().is_none()
    }

    /// The options, when none is an array or an object (they are then compared as the value
    /// streams by).
    fn scalar_options(&self) -> Option<&[Json]> {
        self.options
            .as_deref()
            .filter(|o| !o.iter().any(|v| v.is_array() || v.is_object()))
    }

    /// Whether the node checks anything beyond its applicators.
    fn has_local_checks(&self) -> bool {
        self.kinds != ALL
            || self.min_len != 0
            || self.max_len != usize::MAX
            || self.pattern.is_some()
            || self.format.is_some()
            || self.bounded_number()
            || !self.prefix.is_empty()
            || self.items.is_some()
            || self.min_items != 0
            || self.max_items != usize::MAX
            || !self.keys.is_empty()
            || !self.pattern_properties.is_empty()
            || self.property_names.is_some()
            || self.additional.is_some()
    }

    fn bounded_number(&self) -> bool {
        self.minimum != f64::NEG_INFINITY
            || self.maximum != f64::INFINITY
            || self.exclusive_minimum != f64::NEG_INFINITY
            || self.exclusive_maximum != f64::INFINITY
    }

    fn key(&self, name: &str) -> Option<&Key> {
        match &self.key_index {
            Some(index) => index.get(name).map(|&i| &self.keys[i]),
            None => self.keys.iter().find(|k| &*k.name == name),
        }
    }
}

/// A schema compiled for the fast path.
#[derive(Debug)]
pub struct Plan {
    nodes: Vec<Node>,
    root: usize,
}

/// The node that accepts anything.
const ANY: usize = 0;

/// Keywords that carry no assertion in either draft the plan handles.
const ANNOTATIONS: &[&str] = &[
    "title",
    "description",
    "default",
    "examples",
    "$comment",
    "deprecated",
    "readOnly",
    "writeOnly",
    "$defs",
    "definitions",
];

impl Plan {
    /// The plan of `schema`, or `None` when its draft is not one the plan models (the full path
    /// then handles every text).
    pub fn compile(schema: &Json, formats: bool) -> Option<Plan> {
        let draft = match schema.get("$schema") {
            None => Draft::D2020,
            Some(Json::String(s)) => match s.trim_end_matches('#') {
                "https://json-schema.org/draft/2020-12/schema" => Draft::D2020,
                "http://json-schema.org/draft-07/schema" => Draft::D7,
                _ => return None,
            },
            Some(_) => return None,
        };
        if has_identifiers(schema) {
            // `$id` below the root, anchors and dynamic references change what a `#…`
            // reference means; the plan resolves references against the root only.
            return None;
        }
        // Node 0 accepts anything (unconstrained members are still read in full: serde_json's
        // skipping reader lets numbers such as 1e999 through, which its value reader refuses).
        let mut builder = Builder {
            root: schema,
            draft,
            formats,
            nodes: vec![Node::new()],
            memo: FastMap::default(),
        };
        let root = builder.node(schema, true);
        let mut nodes = builder.nodes;
        explain::locate(schema, &builder.memo, &mut nodes);
        Some(Plan { nodes, root })
    }

    /// `true` only if `text` is one JSON value the schema accepts; `false` means "don't know".
    pub fn proves_valid(&self, text: &str) -> bool {
        self.verdict(text) == Some(true)
    }

    /// The plan's verdict on `text`: `Some(true)` valid, `Some(false)` certainly invalid (the
    /// walk stopped at a violation; the rest of the text is not read, so malformed text after
    /// it is also `Some(false)`, which it is for the full path too), `None` don't know.
    pub fn verdict(&self, text: &str) -> Option<bool> {
        let budget = Cell::new(text.len().saturating_mul(8).saturating_add(4096));
        let refuted = Cell::new(false);
        let walk = Walk {
            plan: self,
            budget: &budget,
            refuted: &refuted,
            explain: None,
        };
        match walk.whole(text, self.root, 0, false) {
            Verdict::Valid => Some(true),
            Verdict::Invalid => Some(false),
            Verdict::Unknown => None,
        }
    }
}

/// Compiles schema objects into nodes, memoized by address so `$ref` cycles end.
struct Builder<'s> {
    root: &'s Json,
    draft: Draft,
    /// Whether `format` asserts (as the full path's validator was built).
    formats: bool,
    nodes: Vec<Node>,
    memo: FastMap<usize, usize>,
}

impl<'s> Builder<'s> {
    fn node(&mut self, schema: &'s Json, is_root: bool) -> usize {
        let key = schema as *const Json as usize;
        if let Some(&id) = self.memo.get(&key) {
            return id;
        }
        let id = self.nodes.len();
        self.nodes.push(Node::opaque());
        self.memo.insert(key, id);
        let mut node = self.build(schema, is_root).unwrap_or_else(Node::opaque);
        let only_reference = node.all_of.len() == 1
            && node.any_of.is_empty()
            && node.one_of.is_empty()
            && node.not.is_none()
            && node.condition.is_none()
            && node.options.is_none();
        if !node.opaque && only_reference && !node.is_local {
            node.alias = Some(node.all_of[0]);
        }
        self.nodes[id] = node;
        id
    }

    /// The local target of a `$ref` (`#` or `#/json/pointer`), if it has one.
    fn target(&self, reference: &Json) -> Option<&'s Json> {
        super::pointer::resolve_json_ref(self.root, reference.as_str()?)
    }

    fn nodes(&mut self, list: &'s Json) -> Option<Vec<usize>> {
        let list = list.as_array()?;
        if list.is_empty() {
            return None;
        }
        Some(list.iter().map(|s| self.node(s, false)).collect())
    }

    /// `None` makes the node opaque.
    fn build(&mut self, schema: &'s Json, is_root: bool) -> Option<Node> {
        let obj = match schema {
            Json::Bool(true) => return Some(Node::new()),
            Json::Bool(false) => {
                return Some(
                    Node {
                        kinds: 0,
                        ..Node::new()
                    }
                    .finish(),
                )
            }
            Json::Object(o) => o,
            _ => return None,
        };
        let mut node = Node::new();
        if let Some(reference) = obj.get("$ref") {
            let target = self.target(reference)?;
            let id = self.node(target, false);
            node.all_of.push(id);
            if self.draft == Draft::D7 {
                // Draft 7 ignores the siblings of `$ref`.
                return Some(node.finish());
            }
        }
        let has_applicators = [
            "$ref",
            "allOf",
            "anyOf",
            "oneOf",
            "not",
            "if",
            "dependentSchemas",
        ]
        .iter()
        .any(|k| obj.contains_key(*k));
        for (keyword, value) in obj {
            match keyword.as_str() {
                "$ref" | "then" | "else" => {}
                "$schema" | "$id" if is_root => {}
                "format" if self.formats => {
                    node.format = Some(FormatCheck::new(self.draft, value)?);
                    node.format_name = value.as_str().map(Box::from);
                }
                "format" => {}
                k if ANNOTATIONS.contains(&k) => {}
                "type" => {
                    node.single_type = value.is_string();
                    node.kinds = match value {
                        Json::String(t) => kind(t)?,
                        Json::Array(ts) => ts
                            .iter()
                            .try_fold(0, |acc, t| Some(acc | kind(t.as_str()?)?))?,
                        _ => return None,
                    }
                }
                "enum" | "const" => {
                    node.options = Some(match value {
                        Json::Array(options) if keyword == "enum" => options.clone(),
                        _ if keyword == "enum" => return None,
                        _ => vec![value.clone()],
                    });
                    let both = obj.contains_key("enum") && obj.contains_key("const");
                    node.options_keyword = match keyword.as_str() {
                        _ if both => "",
                        "enum" => "enum",
                        _ => "const",
                    };
                }
                "minLength" => node.min_len = count(value)?,
                "maxLength" => node.max_len = count(value)?,
                "pattern" => node.pattern = Some(Pattern::new(self.draft, value)?),
                "minItems" => node.min_items = count(value)?,
                "maxItems" => node.max_items = count(value)?,
                k if explain::BOUNDS.contains(&k) => {
                    let which = explain::BOUNDS.iter().position(|b| *b == k)?;
                    *[
                        &mut node.minimum,
                        &mut node.maximum,
                        &mut node.exclusive_minimum,
                        &mut node.exclusive_maximum,
                    ][which] = bound(value)?;
                    node.limits.get_or_insert_with(Box::default)[which] = Some(value.clone());
                }
                "required" => {
                    node.required = value
                        .as_array()?
                        .iter()
                        .map(|r| r.as_str().map(Box::from))
                        .collect::<Option<_>>()?;
                    if node.required.len() > MAX_REQUIRED {
                        return None;
                    }
                }
                "properties" => {
                    for (key, sub) in value.as_object()? {
                        let id = self.node(sub, false);
                        node.properties.push((key.as_str().into(), id));
                    }
                }
                "patternProperties" => {
                    for (pattern, sub) in value.as_object()? {
                        let pattern = Pattern::new(self.draft, &Json::String(pattern.clone()))?;
                        let id = self.node(sub, false);
                        node.pattern_properties.push((pattern, id));
                    }
                }
                "propertyNames" => node.property_names = Some(self.node(value, false)),
                "additionalProperties" => node.additional = Some(self.node(value, false)),
                // With no applicator beside it, nothing but this object's own keywords
                // evaluates properties, so `unevaluatedProperties` is `additionalProperties`.
                "unevaluatedProperties"
                    if self.draft == Draft::D2020
                        && !has_applicators
                        && !obj.contains_key("additionalProperties") =>
                {
                    node.additional = Some(self.node(value, false));
                    node.additional_unevaluated = true;
                }
                "items" => match (value, self.draft) {
                    (Json::Array(tuple), Draft::D7) => {
                        if obj.contains_key("additionalItems") {
                            return None;
                        }
                        node.prefix = tuple.iter().map(|s| self.node(s, false)).collect();
                    }
                    (Json::Array(_), Draft::D2020) => return None,
                    (s, _) => node.items = Some(self.node(s, false)),
                },
                "prefixItems" if self.draft == Draft::D2020 => {
                    node.prefix = value
                        .as_array()?
                        .iter()
                        .map(|s| self.node(s, false))
                        .collect();
                }
                "allOf" => {
                    let ids = self.nodes(value)?;
                    node.all_of.extend(ids);
                }
                "anyOf" => node.any_of = self.nodes(value)?,
                "oneOf" => node.one_of = self.nodes(value)?,
                "not" => node.not = Some(self.node(value, false)),
                "if" => {
                    let condition = self.node(value, false);
                    let then = obj.get("then").map(|s| self.node(s, false));
                    let otherwise = obj.get("else").map(|s| self.node(s, false));
                    node.condition = Some((condition, then, otherwise));
                }
                _ => return None,
            }
        }
        if self.draft == Draft::D7 && obj.contains_key("prefixItems") {
            return None;
        }
        Some(node.finish())
    }
}

/// Whether any object below the root has a key that sets a base URI or an anchor (a property
/// named so counts too: the plan only needs to be conservative).
fn has_identifiers(root: &Json) -> bool {
    const KEYS: &[&str] = &[
        "$id",
        "$anchor",
        "$dynamicAnchor",
        "$dynamicRef",
        "$recursiveRef",
        "$recursiveAnchor",
    ];
    let mut stack = vec![(root, true)];
    while let Some((value, is_root)) = stack.pop() {
        match value {
            Json::Object(o) => {
                for (k, v) in o {
                    if KEYS.contains(&k.as_str()) && !(is_root && k == "$id") {
                        return true;
                    }
                    stack.push((v, false));
                }
            }
            Json::Array(items) => stack.extend(items.iter().map(|v| (v, false))),
            _ => {}
        }
    }
    false
}

fn kind(name: &str) -> Option<u8> {
    Some(match name {
        "null" => NULL,
        "boolean" => BOOL,
        // `12.0` is an integer to JSON Schema; the plan leaves floats to the full path.
        "integer" => INT,
        "number" => INT | FLOAT,
        "string" => STR,
        "array" => ARR,
        "object" => OBJ,
        _ => return None,
    })
}

/// A non-negative integer count keyword.
fn count(value: &Json) -> Option<usize> {
    usize::try_from(value.as_u64()?).ok()
}

/// A numeric bound, when exact as `f64`.
fn bound(value: &Json) -> Option<f64> {
    let n = value.as_number()?;
    if n.is_f64() {
        n.as_f64().filter(|f| f.is_finite())
    } else {
        n.as_f64().filter(|f| f.abs() <= EXACT)
    }
}

/// The message of the error that stops a walk; the verdict travels in [`Walk::refuted`].
const STOP: &str = "not proven valid";

/// One walk over a text, with the re-reading budget shared by every applicator in it.
#[derive(Clone, Copy)]
struct Walk<'p> {
    plan: &'p Plan,
    budget: &'p Cell<usize>,
    /// Set by the check that stopped the walk: the value is certainly invalid (else: don't know).
    refuted: &'p Cell<bool>,
    /// Where the violation that stops the walk is written down, when the caller wants it
    /// ([`Plan::explain`]); `None` in the walks applicators make over parts of the value.
    explain: Option<&'p RefCell<explain::Explain>>,
}

impl<'p> Walk<'p> {
    /// The verdict on the whole of `text` as one value for node `id`. `local` skips the node's
    /// applicators (the caller checks them).
    fn whole(self, text: &str, id: usize, depth: usize, local: bool) -> Verdict {
        if !self.charge(text) {
            return Verdict::Unknown;
        }
        self.refuted.set(false);
        let mut de = serde_json::Deserializer::from_str(text);
        let result = Check {
            walk: self,
            id,
            depth,
            local,
            exact: true,
        }
        .deserialize(&mut de);
        match result {
            Ok(()) if de.end().is_ok() => Verdict::Valid,
            // The full path's value keeps the last of duplicate keys: a violation the walk met
            // in an earlier one may not be in it. (A valid verdict holds whichever is kept:
            // each was checked.)
            Err(e) if e.is_data() && self.refuted.get() && !has_duplicate_keys(text) => {
                Verdict::Invalid
            }
            _ => Verdict::Unknown,
        }
    }

    /// Charges a read of `text`; `false` once the budget is spent.
    fn charge(self, text: &str) -> bool {
        match self.budget.get().checked_sub(text.len() + 1) {
            Some(left) => {
                self.budget.set(left);
                true
            }
            None => false,
        }
    }

    fn stop<E: de::Error>(self, verdict: Verdict) -> Result<(), E> {
        match verdict {
            Verdict::Valid => Ok(()),
            Verdict::Invalid => Err(self.invalid()),
            Verdict::Unknown => Err(self.unknown()),
        }
    }

    fn invalid<E: de::Error>(self) -> E {
        if let Some(explain) = self.explain {
            explain.borrow_mut().unexplained();
        }
        self.refuted.set(true);
        E::custom(STOP)
    }

    /// The same walk without writing violations down, for applicators' reads of a part.
    fn sub(self) -> Walk<'p> {
        Walk {
            explain: None,
            ..self
        }
    }

    fn unknown<E: de::Error>(self) -> E {
        self.refuted.set(false);
        E::custom(STOP)
    }
}

/// Whether an object of `text` has a key twice (or two keys of the same hash). Malformed text
/// answers `false`: it is invalid on the full path whatever its keys.
fn has_duplicate_keys(text: &str) -> bool {
    scan(text).unwrap_or(false)
}

/// Reads `text` as the full path's value reader does (numbers parsed, so `1e999` is refused,
/// strings decoded, nothing after the value), without building it: `None` when it is not one
/// JSON value, else whether an object in it has a key twice (or two keys of the same hash).
fn scan(text: &str) -> Option<bool> {
    struct Scan;
    impl<'de> DeserializeSeed<'de> for Scan {
        type Value = bool;
        fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<bool, D::Error> {
            d.deserialize_any(self)
        }
    }
    impl<'de> Visitor<'de> for Scan {
        type Value = bool;
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("a JSON value")
        }
        fn visit_bool<E>(self, _: bool) -> Result<bool, E> {
            Ok(false)
        }
        fn visit_i64<E>(self, _: i64) -> Result<bool, E> {
            Ok(false)
        }
        fn visit_u64<E>(self, _: u64) -> Result<bool, E> {
            Ok(false)
        }
        fn visit_f64<E>(self, _: f64) -> Result<bool, E> {
            Ok(false)
        }
        fn visit_str<E>(self, _: &str) -> Result<bool, E> {
            Ok(false)
        }
        fn visit_unit<E>(self) -> Result<bool, E> {
            Ok(false)
        }
        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<bool, A::Error> {
            let mut found = false;
            while let Some(dup) = seq.next_element_seed(Scan)? {
                found |= dup;
            }
            Ok(found)
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<bool, A::Error> {
            let mut keys = Keys::default();
            let mut found = false;
            while let Some(new) = map.next_key_seed(KeyOnce(&mut keys))? {
                found |= !new;
                found |= map.next_value_seed(Scan)?;
            }
            Ok(found)
        }
    }
    /// Records a key without allocating it: `true` when it is new.
    struct KeyOnce<'k>(&'k mut Keys);
    impl<'de> DeserializeSeed<'de> for KeyOnce<'_> {
        type Value = bool;
        fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<bool, D::Error> {
            d.deserialize_str(self)
        }
    }
    impl<'de> Visitor<'de> for KeyOnce<'_> {
        type Value = bool;
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("a key")
        }
        fn visit_str<E>(self, key: &str) -> Result<bool, E> {
            Ok(self.0.insert(key))
        }
    }
    let mut de = serde_json::Deserializer::from_str(text);
    let duplicates = Scan.deserialize(&mut de).ok()?;
    de.end().ok()?;
    Some(duplicates)
}

/// `a and b` over verdicts: invalid if either is, valid if both are.
fn and(a: Verdict, b: Verdict) -> Verdict {
    match (a, b) {
        (Verdict::Invalid, _) | (_, Verdict::Invalid) => Verdict::Invalid,
        (Verdict::Valid, Verdict::Valid) => Verdict::Valid,
        _ => Verdict::Unknown,
    }
}

/// Checks one value against node `id`.
struct Check<'p> {
    walk: Walk<'p>,
    id: usize,
    depth: usize,
    /// Skip the node's applicators (already being checked by the caller).
    local: bool,
    /// The node was reached by keywords that name where it sits (no `$ref` on the way), so its
    /// document pointer is the path the full validator reports.
    exact: bool,
}

impl<'de> DeserializeSeed<'de> for Check<'_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(mut self, deserializer: D) -> Result<(), D::Error> {
        let nodes = &self.walk.plan.nodes;
        let mut hops = 0;
        while let (false, Some(target)) = (self.local, nodes[self.id].alias) {
            self.id = target;
            self.exact = false;
            hops += 1;
            if hops > MAX_DEPTH {
                return Err(self.walk.unknown());
            }
        }
        let node = &nodes[self.id];
        if node.opaque || self.depth > MAX_DEPTH {
            return Err(self.walk.unknown());
        }
        if !self.local && node.is_buffered {
            let raw = <&RawValue>::deserialize(deserializer)?;
            let verdict = self.applicators(node, raw.get());
            return self.walk.stop(verdict);
        }
        deserializer.deserialize_any(self)
    }
}

impl Check<'_> {
    /// The node's own checks, then its applicators, each over the whole value's text (for
    /// buffered nodes only).
    fn applicators(&self, node: &Node, text: &str) -> Verdict {
        let (walk, depth) = (self.walk.sub(), self.depth + 1);
        let whole = |id: usize| walk.whole(text, id, depth, false);
        let mut verdict = Verdict::Valid;
        // Options with arrays or objects among them are compared with the whole value here;
        // scalar ones as the local re-read streams by.
        if node.options.is_some() && !node.has_scalar_options {
            let Ok(value) = serde_json::from_str::<Json>(text) else {
                return Verdict::Unknown;
            };
            verdict = one_of_options(node, |o| same(o, &value));
        }
        if verdict != Verdict::Invalid && (node.is_local || node.has_scalar_options) {
            verdict = and(verdict, walk.whole(text, self.id, depth, true));
        }
        for &id in &node.all_of {
            if verdict == Verdict::Invalid {
                return verdict;
            }
            verdict = and(verdict, whole(id));
        }
        if !node.any_of.is_empty() && verdict != Verdict::Invalid {
            let mut any = Verdict::Invalid;
            for &id in &node.any_of {
                match whole(id) {
                    Verdict::Valid => {
                        any = Verdict::Valid;
                        break;
                    }
                    Verdict::Unknown => any = Verdict::Unknown,
                    Verdict::Invalid => {}
                }
            }
            verdict = and(verdict, any);
        }
        if !node.one_of.is_empty() && verdict != Verdict::Invalid {
            let (mut valid, mut unknown) = (0, 0);
            for &id in &node.one_of {
                match whole(id) {
                    Verdict::Valid => valid += 1,
                    Verdict::Unknown => unknown += 1,
                    Verdict::Invalid => {}
                }
                if valid > 1 {
                    break;
                }
            }
            let one = match (valid, unknown) {
                (2.., _) => Verdict::Invalid,
                (1, 0) => Verdict::Valid,
                (0, 0) => Verdict::Invalid,
                _ => Verdict::Unknown,
            };
            verdict = and(verdict, one);
        }
        if let (Some(id), false) = (node.not, verdict == Verdict::Invalid) {
            let not = match whole(id) {
                Verdict::Valid => Verdict::Invalid,
                Verdict::Invalid => Verdict::Valid,
                Verdict::Unknown => Verdict::Unknown,
            };
            verdict = and(verdict, not);
        }
        if let (Some((condition, then, otherwise)), false) =
            (node.condition, verdict == Verdict::Invalid)
        {
            let branch = match whole(condition) {
                Verdict::Valid => then,
                Verdict::Invalid => otherwise,
                Verdict::Unknown => return Verdict::Unknown,
            };
            if let Some(id) = branch {
                verdict = and(verdict, whole(id));
            }
        }
        verdict
    }

    fn node(&self) -> &Node {
        &self.walk.plan.nodes[self.id]
    }

    /// The node accepts values of `kind`; for a float where only integers are allowed the
    /// answer is "don't know" (`3.0` is an integer). `shown` writes the value as the full
    /// validator's messages do (`None` for containers), for [`Check::refuse`].
    fn accept<E: de::Error>(
        &self,
        kind: u8,
        shown: impl FnOnce() -> Option<String>,
    ) -> Result<&Node, E> {
        let node = self.node();
        if node.kinds & kind != 0 {
            Ok(node)
        } else if kind == FLOAT && node.kinds & INT != 0 {
            Err(self.walk.unknown())
        } else {
            Err(self.refuse("type", || explain::type_message(&shown()?, node)))
        }
    }

    /// Scalar options compared as the value streams by.
    fn options<E: de::Error>(
        &self,
        node: &Node,
        same: impl Fn(&Json) -> Option<bool>,
        shown: impl FnOnce() -> Option<String>,
    ) -> Result<(), E> {
        if !node.has_scalar_options {
            return Ok(());
        }
        match one_of_options(node, same) {
            Verdict::Invalid => Err(self.refuse(node.options_keyword, || {
                explain::options_message(&shown()?, node)
            })),
            verdict => self.walk.stop(verdict),
        }
    }

    /// Stops the walk at a violation of `keyword`, written down with `message` when the walk
    /// explains ([`Plan::explain`]) and the node's path is exact.
    fn refuse<E: de::Error>(
        &self,
        keyword: &'static str,
        message: impl FnOnce() -> Option<String>,
    ) -> E {
        if let (Some(explain), true) = (self.walk.explain, self.exact) {
            let found = message().filter(|_| !keyword.is_empty());
            explain
                .borrow_mut()
                .found(keyword, found, &self.node().pointer);
        }
        self.walk.invalid()
    }

    fn number<E: de::Error>(&self, kind: u8, value: serde_json::Number) -> Result<(), E> {
        let node = self.accept(kind, || Some(value.to_string()))?;
        self.options(node, |o| same_number(o, &value), || Some(value.to_string()))?;
        if !node.bounded_number() {
            return Ok(());
        }
        let exact = if value.is_f64() {
            value.as_f64()
        } else {
            value.as_f64().filter(|f| f.abs() <= EXACT)
        };
        let Some(v) = exact else {
            return Err(self.walk.unknown());
        };
        let broken = [
            v < node.minimum,
            v > node.maximum,
            v <= node.exclusive_minimum,
            v >= node.exclusive_maximum,
        ];
        match broken.iter().position(|&b| b) {
            None => Ok(()),
            Some(which) => Err(self.refuse(explain::BOUNDS[which], || {
                explain::bound_message(&value.to_string(), which, node)
            })),
        }
    }

    fn child(&self, id: usize) -> Check<'_> {
        Check {
            walk: self.walk,
            id,
            depth: self.depth + 1,
            local: false,
            exact: self.exact,
        }
    }

    /// The verdict on a value for several schemas at once (a key that `properties` and
    /// `patternProperties` both name): its text is read once per schema.
    fn several<'de, A: MapAccess<'de>>(
        &self,
        map: &mut A,
        targets: &[usize],
    ) -> Result<(), A::Error> {
        let raw = map.next_value::<&RawValue>()?;
        let verdict = targets.iter().fold(Verdict::Valid, |v, &id| {
            if v == Verdict::Invalid {
                v
            } else {
                and(
                    v,
                    self.walk.sub().whole(raw.get(), id, self.depth + 1, false),
                )
            }
        });
        self.walk.stop(verdict)
    }
}

/// Whether a value equals one of the node's options (`same` answers per option; `None`: it
/// cannot tell).
fn one_of_options(node: &Node, same: impl Fn(&Json) -> Option<bool>) -> Verdict {
    let mut verdict = Verdict::Invalid;
    for option in node.options.iter().flatten() {
        match same(option) {
            Some(true) => return Verdict::Valid,
            Some(false) => {}
            None => verdict = Verdict::Unknown,
        }
    }
    verdict
}

impl<'de> Visitor<'de> for Check<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_unit<E: de::Error>(self) -> Result<(), E> {
        let shown = || Some("null".to_owned());
        let node = self.accept(NULL, shown)?;
        self.options(node, |o| Some(o.is_null()), shown)
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<(), E> {
        let shown = || Some(v.to_string());
        let node = self.accept(BOOL, shown)?;
        self.options(node, |o| Some(o.as_bool() == Some(v)), shown)
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<(), E> {
        self.number(INT, v.into())
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<(), E> {
        self.number(INT, v.into())
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<(), E> {
        match serde_json::Number::from_f64(v) {
            Some(n) => self.number(FLOAT, n),
            None => Err(self.walk.unknown()),
        }
    }

    fn visit_str<E: de::Error>(self, s: &str) -> Result<(), E> {
        let shown = || serde_json::to_string(s).ok();
        let node = self.accept(STR, shown)?;
        self.options(node, |o| Some(o.as_str() == Some(s)), shown)?;
        if node.min_len != 0 || node.max_len != usize::MAX {
            // Lengths count code points, as JSON Schema does.
            let n = s.chars().count();
            if n < node.min_len {
                return Err(self.refuse("minLength", || {
                    Some(explain::length_message(&shown()?, "shorter", node.min_len))
                }));
            }
            if n > node.max_len {
                return Err(self.refuse("maxLength", || {
                    Some(explain::length_message(&shown()?, "longer", node.max_len))
                }));
            }
        }
        if let Some(pattern) = &node.pattern {
            match pattern.matches(s) {
                None => return Err(self.walk.unknown()),
                Some(false) => {
                    return Err(self.refuse("pattern", || {
                        Some(format!(
                            "{} does not match \"{}\"",
                            shown()?,
                            pattern.source
                        ))
                    }))
                }
                Some(true) => {}
            }
        }
        match &node.format {
            Some(f) if !f.matches(s) => Err(self.refuse("format", || {
                Some(format!(
                    "{} is not a \"{}\"",
                    shown()?,
                    node.format_name.as_deref()?
                ))
            })),
            _ => Ok(()),
        }
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let node = self.accept::<A::Error>(ARR, || None)?;
        if node.has_scalar_options {
            // Scalar options only (array ones are buffered): no array equals them.
            return Err(self.walk.invalid());
        }
        let mut i = 0;
        loop {
            let id = node.prefix.get(i).copied().or(node.items).unwrap_or(ANY);
            let read = seq.next_element_seed(self.child(id));
            if let (Err(_), Some(explain)) = (&read, self.walk.explain) {
                explain.borrow_mut().at(i.to_string());
            }
            if read?.is_none() {
                break;
            }
            i += 1;
        }
        if i >= node.min_items && i <= node.max_items {
            Ok(())
        } else {
            Err(self.walk.invalid())
        }
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let node = self.accept::<A::Error>(OBJ, || None)?;
        if node.has_scalar_options {
            return Err(self.walk.invalid());
        }
        let mut seen: u64 = 0;
        let mut targets = Targets::default();
        // The key being read, kept only when the walk explains (for the violation's path).
        let mut key = String::new();
        while map
            .next_key_seed(KeySeed {
                check: &self,
                node,
                seen: &mut seen,
                targets: &mut targets,
                keep: self.walk.explain.is_some().then_some(&mut key),
            })?
            .is_some()
        {
            if targets.overflow {
                return Err(self.walk.unknown());
            }
            let read = match &targets.ids[..targets.len] {
                [] => {
                    let mut check = self.child(node.additional.unwrap_or(ANY));
                    check.exact &= !node.additional_unevaluated;
                    map.next_value_seed(check)
                }
                [id] => map.next_value_seed(self.child(*id)),
                several => self.several(&mut map, several),
            };
            if let (Err(_), Some(explain)) = (&read, self.walk.explain) {
                explain.borrow_mut().at(std::mem::take(&mut key));
            }
            read?;
        }
        if seen.count_ones() == node.required_count {
            Ok(())
        } else {
            Err(self.refuse("required", || explain::required_message(node, seen)))
        }
    }
}

/// Reads a key without allocating: marks it if required, checks it against `propertyNames`,
/// and lists the schemas its value must satisfy (none: `additionalProperties`).
struct KeySeed<'c, 'p> {
    check: &'c Check<'p>,
    node: &'c Node,
    seen: &'c mut u64,
    targets: &'c mut Targets,
    /// Where the key is copied when the walk explains.
    keep: Option<&'c mut String>,
}

/// The keys of one object read so far, by hash ([`has_duplicate_keys`]).
#[derive(Default)]
struct Keys {
    inline: [u64; 16],
    len: usize,
    more: Vec<u64>,
}

impl Keys {
    /// Records `key`; `false` if it (or a key of the same hash) was read before.
    fn insert(&mut self, key: &str) -> bool {
        // FNV-1a: keys are short, and a collision only costs the fast path.
        let hash = key.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
            (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
        });
        let (inline, more) = (&self.inline[..self.len.min(16)], &self.more);
        if inline.contains(&hash) || more.contains(&hash) {
            return false;
        }
        match self.inline.get_mut(self.len) {
            Some(slot) => *slot = hash,
            None => self.more.push(hash),
        }
        self.len += 1;
        true
    }
}

/// The schemas a member's value must satisfy, kept inline (a key matching more than four is
/// left to the full path).
#[derive(Default)]
struct Targets {
    ids: [usize; 4],
    len: usize,
    overflow: bool,
}

impl Targets {
    fn push(&mut self, id: usize) {
        match self.ids.get_mut(self.len) {
            Some(slot) => {
                *slot = id;
                self.len += 1;
            }
            None => self.overflow = true,
        }
    }
}

impl<'de> DeserializeSeed<'de> for KeySeed<'_, '_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for KeySeed<'_, '_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a key")
    }

    fn visit_str<E: de::Error>(self, key: &str) -> Result<(), E> {
        let (node, walk) = (self.node, self.check.walk);
        if let Some(keep) = self.keep {
            keep.clear();
            keep.push_str(key);
        }
        let named = node.key(key);
        if let Some(bit) = named.and_then(|k| k.required_bit) {
            *self.seen |= 1 << bit;
        }
        if let Some(id) = node.property_names {
            let name = serde_json::to_string(key).map_err(|_| walk.unknown::<E>())?;
            walk.stop::<E>(walk.sub().whole(&name, id, self.check.depth + 1, false))?;
        }
        *self.targets = Targets::default();
        if let Some(id) = named.and_then(|k| k.schema) {
            self.targets.push(id);
        }
        for (pattern, id) in &node.pattern_properties {
            match pattern.matches(key) {
                Some(true) => self.targets.push(*id),
                Some(false) => {}
                None => return Err(walk.unknown()),
            }
        }
        Ok(())
    }
}

/// JSON Schema equality (`enum`, `const`): numbers by value, objects regardless of key order.
/// `None` where it cannot tell exactly (numbers past what `f64` holds exactly).
fn same(a: &Json, b: &Json) -> Option<bool> {
    match (a, b) {
        (Json::Number(_), Json::Number(y)) => same_number(a, y),
        (Json::Array(x), Json::Array(y)) => {
            if x.len() != y.len() {
                return Some(false);
            }
            x.iter()
                .zip(y)
                .try_fold(true, |all, (x, y)| Some(all && same(x, y)?))
        }
        (Json::Object(x), Json::Object(y)) => {
            if x.len() != y.len() {
                return Some(false);
            }
            x.iter().try_fold(true, |all, (k, v)| {
                Some(all && y.get(k).map_or(Some(false), |w| same(v, w))?)
            })
        }
        _ => Some(a == b),
    }
}

/// An option against a number value: `Some(equal)` when exact, `None` when it cannot tell.
fn same_number(option: &Json, value: &serde_json::Number) -> Option<bool> {
    let Json::Number(x) = option else {
        return Some(false);
    };
    if let (Some(a), Some(b)) = (x.as_i64(), value.as_i64()) {
        return Some(a == b);
    }
    if let (Some(a), Some(b)) = (x.as_u64(), value.as_u64()) {
        return Some(a == b);
    }
    let exact = |n: &serde_json::Number| {
        n.as_f64()
            .filter(|f| n.is_f64() && f.is_finite() || f.abs() <= EXACT)
    };
    Some(exact(x)? == exact(value)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan(schema: &str) -> Plan {
        Plan::compile(&serde_json::from_str(schema).unwrap(), true).expect("a plan")
    }

    /// Asserts the plan's verdict on `text` and that a "valid" agrees with `jsonschema` (formats
    /// asserted, as `compileJsonSchema` builds it by default).
    fn verdict(schema: &str, text: &str) -> bool {
        verdict_with(schema, text, true)
    }

    fn verdict_with(schema: &str, text: &str, formats: bool) -> bool {
        let value: Json = serde_json::from_str(schema).unwrap();
        let verdict = Plan::compile(&value, formats)
            .expect("a plan")
            .verdict(text);
        if let Some(valid) = verdict {
            let full = serde_json::from_str::<Json>(text).is_ok_and(|instance| {
                jsonschema::options()
                    .should_validate_formats(formats)
                    .build(&value)
                    .unwrap()
                    .is_valid(&instance)
            });
            assert_eq!(full, valid, "{schema} on {text}: the plan says {valid}");
        }
        verdict == Some(true)
    }

    #[test]
    fn the_email_shortcut_accepts_only_what_the_crate_accepts() {
        let parts = [
            "a",
            "ada.lovelace",
            "x+tag",
            "o'brien",
            "a..b",
            ".a",
            "a.",
            "é",
            "a b",
            "\"q\"",
            "",
            "1",
            "a-b",
            "-a",
            "a_b",
            "*",
        ];
        let domains = [
            "example.com",
            "a.b.c.de",
            "localhost",
            "-x.com",
            "x-.com",
            "ex_ample.com",
            "x..com",
            "[127.0.0.1]",
            "xn--bcher-kva.example",
            "123.45",
            "a.co",
            "",
        ];
        let mut checked = 0;
        for l in parts {
            for d in domains {
                let text = format!("{l}@{d}");
                if plain_email(&text) {
                    assert!(jsonschema::formats::is_valid_email(&text), "{text}");
                    checked += 1;
                }
                assert_eq!(
                    email(&text),
                    jsonschema::formats::is_valid_email(&text),
                    "{text}"
                );
            }
        }
        let long = format!("{}@example.com", "a".repeat(65));
        assert!(!plain_email(&long));
        assert!(checked > 20, "{checked}");
    }

    #[test]
    fn proves_plain_objects() {
        let s = r#"{"type":"object","properties":{"city":{"type":"string","minLength":2},"days":{"type":"integer","minimum":1,"maximum":14},"units":{"enum":["c","f"]}},"required":["city","days"],"additionalProperties":false}"#;
        assert!(verdict(s, r#"{"city":"Oslo","days":3}"#));
        assert!(verdict(s, r#"{"days":14,"city":"Oslo","units":"f"}"#));
        // Each broken rule is "don't know", never "valid".
        for bad in [
            r#"{"city":"Oslo"}"#,
            r#"{"city":"O","days":3}"#,
            r#"{"city":"Oslo","days":15}"#,
            r#"{"city":"Oslo","days":0}"#,
            r#"{"city":"Oslo","days":3,"units":"k"}"#,
            r#"{"city":"Oslo","days":3,"x":1}"#,
            r#"{"city":"Oslo","days":"3"}"#,
            r#"{"city":"Oslo","days":3"#,
            r#"{"city":"Oslo","days":3} x"#,
            r#"[]"#,
        ] {
            assert!(!verdict(s, bad), "{bad}");
        }
    }

    #[test]
    fn unconstrained_members_are_read_in_full() {
        // serde_json's skipping reader accepts 1e999; its value reader (the full path) does not.
        assert!(!verdict("{}", r#"["",299999999924999e999]"#));
        assert!(!verdict("{}", r#"{"a":1e999}"#));
        assert!(!verdict(r#"{"items":{"anyOf":[{}]}}"#, r#"[1e999]"#));
        assert!(!verdict("{}", r#"{"a":"\ud800"}"#));
        assert!(verdict("{}", r#"{"a":[1,{"b":"\ud83d\ude00"}]}"#));
    }

    #[test]
    fn duplicate_keys_are_left_to_the_full_path() {
        // The full path keeps the last of duplicate keys; the walk checks the first one first.
        let negated = plan(r#"{"not":{"properties":{"a":{"type":"integer"}}}}"#);
        assert_eq!(negated.verdict(r#"{"a":"x","a":1}"#), None);
        assert_eq!(negated.verdict(r#"{"a":1,"a":"x"}"#), None);
        assert_eq!(negated.verdict(r#"{"a":"x"}"#), Some(true));
        let typed = plan(r#"{"properties":{"a":{"type":"string"}}}"#);
        assert_eq!(typed.verdict(r#"{"a":1,"a":"x"}"#), None);
        assert_eq!(typed.verdict(r#"{"a":1}"#), Some(false));
        // Past the inline slots too.
        let late = plan(r#"{"properties":{"k33":{"type":"string"}}}"#);
        let many: Vec<String> = (0..40).map(|i| format!(r#""k{i}":{i}"#)).collect();
        assert_eq!(
            late.verdict(&format!("{{{}}}", many.join(","))),
            Some(false)
        );
        let twice = format!(r#"{{{},"k33":"x"}}"#, many.join(","));
        assert_eq!(late.verdict(&twice), None);
        // A valid verdict holds whichever duplicate is kept: each was checked.
        let s = r#"{"required":["a","b"]}"#;
        assert!(!verdict(s, r#"{"a":1,"a":2}"#));
        assert!(verdict(s, r#"{"a":1,"b":2,"a":3}"#));
    }

    #[test]
    fn strings_count_code_points() {
        let s = r#"{"type":"string","maxLength":2}"#;
        assert!(verdict(s, r#""é😀""#));
        assert!(verdict(s, r#""\u00e9\ud83d\ude00""#));
        assert!(!verdict(s, r#""abc""#));
        // A lone surrogate is not JSON to serde_json.
        assert!(!verdict(r#"{"type":"string"}"#, r#""\ud800""#));
    }

    #[test]
    fn numbers_compare_exactly_or_not_at_all() {
        assert!(verdict(r#"{"type":"number","exclusiveMinimum":0}"#, "0.5"));
        assert!(!verdict(r#"{"type":"number","exclusiveMinimum":0}"#, "0"));
        assert!(verdict(r#"{"type":"integer"}"#, "-3"));
        // 3.0 is an integer to JSON Schema; the plan leaves it to the full path.
        assert!(!verdict(r#"{"type":"integer"}"#, "3.0"));
        assert!(verdict(r#"{"type":"integer"}"#, "18446744073709551615"));
        assert!(!verdict(
            r#"{"type":"integer","maximum":10}"#,
            "18446744073709551615"
        ));
        // A bound not exact as f64 makes the node opaque.
        assert!(!verdict(r#"{"maximum":18446744073709551615}"#, "1"));
        assert!(!verdict(r#"{"type":"number"}"#, "1e400"));
    }

    #[test]
    fn arrays_tuples_and_counts() {
        let s = r#"{"type":"array","prefixItems":[{"type":"string"}],"items":{"type":"integer"},"minItems":2,"maxItems":3}"#;
        assert!(verdict(s, r#"["a",1]"#));
        assert!(verdict(s, r#"["a",1,2]"#));
        assert!(!verdict(s, r#"["a"]"#));
        assert!(!verdict(s, r#"["a",1,2,3]"#));
        assert!(!verdict(s, r#"[1,1]"#));
        let d7 =
            r#"{"$schema":"http://json-schema.org/draft-07/schema#","items":[{"type":"string"}]}"#;
        assert!(verdict(d7, r#"["a",{}]"#));
        assert!(!verdict(d7, r#"[1]"#));
    }

    #[test]
    fn refs_unions_and_enums() {
        let s = r##"{"$defs":{"node":{"type":"object","properties":{"value":{"type":"string"},"next":{"anyOf":[{"$ref":"#/$defs/node"},{"type":"null"}]}},"required":["value","next"],"additionalProperties":false}},"$ref":"#/$defs/node"}"##;
        assert!(verdict(
            s,
            r#"{"value":"a","next":{"value":"b","next":null}}"#
        ));
        assert!(!verdict(
            s,
            r#"{"value":"a","next":{"value":1,"next":null}}"#
        ));
        assert!(!verdict(s, r#"{"value":"a","next":{"value":"b"}}"#));
        assert!(verdict(r#"{"enum":[1,{"a":[true]}]}"#, "1.0"));
        assert!(verdict(r#"{"enum":[1,{"a":[true]}]}"#, r#"{"a":[true]}"#));
        assert!(!verdict(r#"{"enum":[1,{"a":[true]}]}"#, r#"{"a":[false]}"#));
        assert!(verdict(r#"{"const":null}"#, "null"));
        assert!(verdict(
            r#"{"allOf":[{"type":"object"},{"required":["a"]}]}"#,
            r#"{"a":1}"#
        ));
        assert!(!verdict(
            r#"{"allOf":[{"type":"object"},{"required":["a"]}]}"#,
            r#"{"b":1}"#
        ));
        // $ref siblings apply in 2020-12 and are ignored in draft 7.
        assert!(!verdict(
            r##"{"$defs":{"x":{}},"$ref":"#/$defs/x","type":"string"}"##,
            "1"
        ));
        assert!(verdict(
            r##"{"$schema":"http://json-schema.org/draft-07/schema#","definitions":{"x":{}},"$ref":"#/definitions/x","type":"string"}"##,
            "1"
        ));
        // The draft-07 URI without its trailing `#` names draft 7 too (checked by `verdict`).
        assert!(verdict(
            r##"{"$schema":"http://json-schema.org/draft-07/schema","definitions":{"x":{}},"$ref":"#/definitions/x","type":"string"}"##,
            "1"
        ));
        assert!(verdict_with(
            r##"{"$schema":"https://json-schema.org/draft/2020-12/schema#","type":"string","format":"email"}"##,
            r#""x""#,
            false
        ));
    }

    #[test]
    fn refutations_turn_around() {
        let one = r#"{"oneOf":[{"type":"string"},{"type":"number"}]}"#;
        assert!(verdict(one, r#""a""#));
        assert!(verdict(one, "1.5"));
        assert!(!verdict(one, "null"));
        // Both branches hold: not exactly one.
        assert!(!verdict(
            r#"{"oneOf":[{"type":"string"},{"minLength":1}]}"#,
            r#""a""#
        ));
        // 2.0 might be an integer: the plan cannot count branches, so it does not decide.
        assert!(!verdict(
            r#"{"oneOf":[{"type":"integer"},{"type":"string"}]}"#,
            "2.0"
        ));
        assert!(verdict(r#"{"not":{"type":"null"}}"#, r#""a""#));
        assert!(!verdict(r#"{"not":{"type":"null"}}"#, "null"));
        let cond = r#"{"if":{"type":"string"},"then":{"minLength":2},"else":{"type":"integer"}}"#;
        assert!(verdict(cond, r#""ab""#));
        assert!(!verdict(cond, r#""a""#));
        assert!(verdict(cond, "3"));
        assert!(!verdict(cond, "true"));
        assert!(verdict(
            r#"{"if":{"type":"string"},"then":{"minLength":2}}"#,
            "true"
        ));
    }

    #[test]
    fn patterns_and_property_names() {
        assert!(verdict(
            r#"{"type":"string","pattern":"^a\\d"}"#,
            r#""a1x""#
        ));
        assert!(!verdict(
            r#"{"type":"string","pattern":"^a\\d"}"#,
            r#""ab""#
        ));
        let pp = r#"{"type":"object","properties":{"xa":{"type":"string"}},"patternProperties":{"^x":{"minLength":2}},"additionalProperties":false}"#;
        assert!(verdict(pp, r#"{"xa":"ab","xb":[1]}"#));
        assert!(!verdict(pp, r#"{"xa":"a"}"#));
        assert!(!verdict(pp, r#"{"y":1}"#));
        let names = r#"{"type":"object","propertyNames":{"maxLength":2},"additionalProperties":{"type":"string"}}"#;
        assert!(verdict(names, r#"{"ab":"x"}"#));
        assert!(!verdict(names, r#"{"abc":"x"}"#));
        let unevaluated =
            r#"{"type":"object","properties":{"a":{}},"unevaluatedProperties":false}"#;
        assert!(verdict(unevaluated, r#"{"a":1}"#));
        assert!(!verdict(unevaluated, r#"{"b":1}"#));
        let scalar_enum = r#"{"enum":["a",2,null,false]}"#;
        for (text, ok) in [
            (r#""a""#, true),
            ("2.0", true),
            ("null", true),
            ("false", true),
            ("true", false),
            ("[]", false),
            ("{}", false),
            (r#""b""#, false),
        ] {
            assert_eq!(verdict(scalar_enum, text), ok, "{text}");
        }
    }

    #[test]
    fn unmodelled_keywords_and_drafts_are_opaque() {
        for s in [
            r#"{"dependencies":{"a":["b"]}}"#,
            r#"{"unevaluatedProperties":false,"anyOf":[{}]}"#,
            r#"{"contains":{}}"#,
            r#"{"uniqueItems":true}"#,
            r#"{"multipleOf":2}"#,
            r#"{"nullable":true}"#,
            r##"{"$ref":"#anchor"}"##,
            r##"{"$ref":"other.json"}"##,
        ] {
            assert!(!verdict(s, r#""a""#) && !verdict(s, r#"{"a":1}"#), "{s}");
        }
        assert!(Plan::compile(
            &serde_json::json!({"$schema": "http://json-schema.org/draft-04/schema#"}),
            true
        )
        .is_none());
        // A malformed pointer escape resolves nothing (as for strict schemas): opaque.
        assert!(!plan(r##"{"$defs":{"a~2":{}},"$ref":"#/$defs/a~2"}"##).proves_valid("1"));
        assert!(plan(r##"{"$defs":{"a~1b":{}},"$ref":"#/$defs/a~01b"}"##).proves_valid("1"));
        assert!(plan(r##"{"$defs":{"a/b":{}},"$ref":"#/$defs/a~1b"}"##).proves_valid("1"));
        // A base URI below the root changes what `#/…` means inside it.
        assert!(Plan::compile(
            &serde_json::json!({"properties": {"a": {"$id": "x", "$ref": "#/b"}}}),
            true
        )
        .is_none());
        assert!(
            Plan::compile(&serde_json::json!({"$defs": {"a": {"$anchor": "x"}}}), true).is_none()
        );
        assert!(Plan::compile(
            &serde_json::json!({"$id": "https://example.com/s.json"}),
            true
        )
        .is_some());
        // Formats assert (both drafts) unless compiled with `formats: false`; only strings are
        // checked, and an unknown format passes, as in the full path.
        for draft in [
            "https://json-schema.org/draft/2020-12/schema",
            "http://json-schema.org/draft-07/schema#",
        ] {
            for (format, good, bad) in [
                ("email", "a@example.com", "spaces not allowed here"),
                ("date", "2024-02-29", "2024-13-45"),
                ("date-time", "2024-01-02T03:04:05Z", "@@@"),
                ("uuid", "123e4567-e89b-12d3-a456-426614174000", "123"),
                ("ipv4", "10.0.0.1", "10.0.0.256"),
            ] {
                // `uuid` asserts in draft 7 too (the vendored crate's patch, as ajv-formats).
                let s = format!(r#"{{"$schema":"{draft}","format":"{format}"}}"#);
                assert!(verdict(&s, &format!("{good:?}")), "{s} {good}");
                assert!(!verdict(&s, &format!("{bad:?}")), "{s} {bad}");
                assert!(verdict_with(&s, &format!("{bad:?}"), false), "{s} {bad}");
                assert!(verdict(&s, "17") && verdict(&s, r#"{"a":1}"#), "{s}");
            }
            let unknown = format!(r#"{{"$schema":"{draft}","format":"not-a-format"}}"#);
            assert!(verdict(&unknown, r#""x""#));
        }
        // The verdict turns around under `not`.
        assert!(!verdict(
            r#"{"not":{"format":"email"}}"#,
            r#""a@example.com""#
        ));
        assert!(verdict(r#"{"not":{"format":"email"}}"#, r#""nope""#));
    }

    #[test]
    fn applicator_rereads_are_bounded() {
        // Eight nested two-branch unions would re-read the value 2^8 times without the budget.
        let mut s = String::from(r#"{"type":"integer"}"#);
        for _ in 0..8 {
            s = format!(r#"{{"anyOf":[{{"type":"string"}},{s}]}}"#);
        }
        assert!(verdict(&s, "1"));
        // Past MAX_DEPTH re-reads the answer is "don't know" (texts of schemas this deep do
        // not parse, so the value is built).
        let mut deep = serde_json::json!({});
        for _ in 0..200 {
            deep = serde_json::json!({ "anyOf": [deep] });
        }
        assert!(!Plan::compile(&deep, true).unwrap().proves_valid("1"));
        // Thirty levels that each read the value twice: 2^30 reads without the budget.
        let mut defs = serde_json::Map::new();
        defs.insert("l0".into(), serde_json::json!({"type": "integer"}));
        for i in 1..=30 {
            let below = format!("#/$defs/l{}", i - 1);
            defs.insert(format!("l{i}"), serde_json::json!({"anyOf": [{"type": "string"}, {"allOf": [{"$ref": below}, {"$ref": below}]}]}));
        }
        let budget = serde_json::json!({"$defs": defs, "$ref": "#/$defs/l30"});
        assert!(!Plan::compile(&budget, true).unwrap().proves_valid("1"));
        defs.insert(
            "l31".into(),
            serde_json::json!({"allOf": [{"$ref": "#/$defs/l3"}]}),
        );
        let shallow = serde_json::json!({"$defs": defs, "$ref": "#/$defs/l31"});
        assert!(Plan::compile(&shallow, true).unwrap().proves_valid("1"));
    }
}
