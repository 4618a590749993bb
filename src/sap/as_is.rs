//! Whether a reply conforms as written (the clean-reply fast path): a reply that is exactly one strict JSON value (surrounding
//! whitespace aside) which already conforms to the schema needs no repair, so its value is the
//! text itself and the host can hand it to its native `JSON.parse`.
//!
//! [`conforms_as_is`] walks the text once with serde_json's streaming deserializer, checking
//! each value against the schema as it goes and allocating nothing for values. It answers
//! `true` only where the full path (`parse_structured`) would return the same value with no
//! fix: it models the aligner's exact (no coercion) pass, and gives up — falling back to the
//! full path — on anything else. `tests.rs` checks the two agree on every rule's inputs.

use std::fmt;

use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;
use serde_json::Value as Json;

use super::align::{admits_null, implied_type, resolve, Kw};

/// Deepest nesting the fast path follows (serde_json stops at 128 by itself); deeper replies
/// take the full path, which bounds nesting at 256 with a typed error.
const MAX_DEPTH: usize = 120;

/// The schema that accepts anything, for the members of an unconstrained container.
static ANY: Json = Json::Bool(true);

/// Whether `text` is one strict JSON value that `schema` accepts exactly as written.
pub fn conforms_as_is(text: &str, schema: &Json) -> bool {
    let trimmed = text.trim_matches(|c: char| matches!(c, ' ' | '\t' | '\n' | '\r'));
    // Only a whole-text object or array: anything else takes the candidate search, and fence
    // markers inside strings are candidates of their own there.
    if !(trimmed.starts_with('{') || trimmed.starts_with('[')) || text.contains("```") {
        return false;
    }
    let compiled = std::cell::RefCell::new(Compiled {
        root: schema,
        nodes: Vec::new(),
        index: Default::default(),
    });
    let mut de = serde_json::Deserializer::from_str(text);
    let ok = Check {
        compiled: &compiled,
        schema,
        depth: 0,
        null_forbidden: false,
    }
    .deserialize(&mut de)
    .is_ok();
    ok && de.end().is_ok()
}

/// The message of the error that stops the check: "not as is", the full path decides.
const FALLBACK: &str = "needs the full path";

/// What the aligner would do with a schema node, in its exact pass.
enum Shape<'s> {
    /// Any value, kept as is.
    Any,
    /// No value.
    Never,
    /// A type array: the schema with each of these types in turn (the other keywords apply
    /// unchanged).
    Types(&'s Json, Vec<&'s str>),
    /// `anyOf` / `oneOf` branches: one must fit exactly.
    BranchRefs(&'s [Json]),
    Enum(&'s [Json]),
    Const(&'s Json),
    Null,
    String,
    Integer,
    Number,
    Boolean,
    Array(&'s Json),
    Object(&'s Json),
    Unknown,
}

fn shape<'s>(schema: &'s Json, root: &'s Json) -> Shape<'s> {
    let schema = resolve(schema, root);
    let obj = match schema {
        Json::Bool(true) => return Shape::Any,
        Json::Bool(false) => return Shape::Never,
        Json::Object(o) => o,
        _ => return Shape::Any,
    };
    if let Some(Json::Array(branches)) = obj.kw("anyOf").or_else(|| obj.kw("oneOf")) {
        return Shape::BranchRefs(branches);
    }
    if let Some(Json::Array(options)) = obj.kw("enum") {
        return Shape::Enum(options);
    }
    if let Some(c) = obj.kw("const") {
        return Shape::Const(c);
    }
    let types: Vec<&str> = match obj.kw("type") {
        Some(Json::String(t)) => vec![t.as_str()],
        Some(Json::Array(ts)) => ts.iter().filter_map(Json::as_str).collect(),
        _ => Vec::new(),
    };
    if types.len() > 1 {
        return Shape::Types(schema, types);
    }
    match implied_type(obj, types.first().copied()) {
        None => Shape::Any,
        Some("null") => Shape::Null,
        Some("string") => Shape::String,
        Some("integer") => Shape::Integer,
        Some("number") => Shape::Number,
        Some("boolean") => Shape::Boolean,
        Some("array") => Shape::Array(schema),
        Some("object") => Shape::Object(schema),
        Some(_) => Shape::Unknown,
    }
}

// Value kinds a compiled node accepts as they stream by.
const NULL: u8 = 1;
const BOOL: u8 = 2;
const INT: u8 = 4;
const NUM: u8 = 8;
const STR: u8 = 16;
const ARR: u8 = 32;
const OBJ: u8 = 64;
const ALL: u8 = 127;

/// A schema node compiled once per call: what the streaming check needs without looking up
/// keywords for every value.
struct Node<'s> {
    /// The value must be parsed whole and checked with [`exact`] (unions, enums, consts).
    buffered: Option<&'s Json>,
    kinds: u8,
    /// Item schemas: one for all, or a tuple.
    items: Items<'s>,
    /// Properties with whether their schema admits `null`.
    properties: Vec<(&'s str, &'s Json, bool)>,
    required: Vec<&'s str>,
    additional: Additional<'s>,
}

enum Items<'s> {
    All(&'s Json),
    Tuple(&'s [Json]),
}

enum Additional<'s> {
    Any,
    Forbidden,
    Schema(&'s Json, bool),
}

/// The compiled nodes of one call, memoized by the (resolved) schema's address.
struct Compiled<'s> {
    root: &'s Json,
    nodes: Vec<Node<'s>>,
    index: crate::map::FastMap<usize, usize>,
}

impl<'s> Compiled<'s> {
    fn node(&mut self, schema: &'s Json) -> usize {
        // Memoized under the schema's own address and its resolved one, so a `$ref` is
        // followed once per call, not once per value.
        let given = schema as *const Json as usize;
        if let Some(&id) = self.index.get(&given) {
            return id;
        }
        let resolved = resolve(schema, self.root);
        let key = resolved as *const Json as usize;
        let id = match self.index.get(&key) {
            Some(&id) => id,
            None => {
                let node = self.compile(resolved);
                self.nodes.push(node);
                let id = self.nodes.len() - 1;
                self.index.insert(key, id);
                id
            }
        };
        self.index.insert(given, id);
        id
    }

    fn compile(&self, schema: &'s Json) -> Node<'s> {
        let root = self.root;
        let mut node = Node {
            buffered: None,
            kinds: 0,
            items: Items::All(&ANY),
            properties: Vec::new(),
            required: Vec::new(),
            additional: Additional::Any,
        };
        let structured = |node: &mut Node<'s>, s: &'s Json| {
            node.items = match s.kw("items") {
                Some(Json::Array(tuple)) => Items::Tuple(tuple),
                Some(x) => Items::All(x),
                None => Items::All(&ANY),
            };
            if let Some(props) = s.kw("properties").and_then(Json::as_object) {
                node.properties = props
                    .iter()
                    .map(|(k, v)| (k.as_str(), v, admits_null(v, root)))
                    .collect();
            }
            node.required = s
                .kw("required")
                .and_then(Json::as_array)
                .map(|r| r.iter().filter_map(Json::as_str).collect())
                .unwrap_or_default();
            node.additional = match s.kw("additionalProperties") {
                Some(Json::Bool(false)) => Additional::Forbidden,
                Some(x @ Json::Object(_)) => Additional::Schema(x, admits_null(x, root)),
                _ => Additional::Any,
            };
        };
        match shape(schema, root) {
            Shape::Any => node.kinds = ALL,
            Shape::Never | Shape::Unknown => node.kinds = 0,
            Shape::BranchRefs(_) | Shape::Enum(_) | Shape::Const(_) => node.buffered = Some(schema),
            Shape::Null => node.kinds = NULL,
            Shape::String => node.kinds = STR,
            Shape::Integer => node.kinds = INT,
            Shape::Number => node.kinds = INT | NUM,
            Shape::Boolean => node.kinds = BOOL,
            Shape::Array(s) => {
                node.kinds = ARR;
                structured(&mut node, s);
            }
            Shape::Object(s) => {
                node.kinds = OBJ;
                structured(&mut node, s);
            }
            Shape::Types(s, types) => {
                for t in types {
                    node.kinds |= match t {
                        "null" => NULL,
                        "boolean" => BOOL,
                        "integer" => INT,
                        "number" => INT | NUM,
                        "string" => STR,
                        "array" => ARR,
                        "object" => OBJ,
                        _ => 0,
                    };
                }
                structured(&mut node, s);
            }
        }
        node
    }
}

/// Checks one value against one schema node.
struct Check<'c, 's> {
    compiled: &'c std::cell::RefCell<Compiled<'s>>,
    schema: &'s Json,
    depth: usize,
    /// The value is an optional property whose schema does not admit `null`: a `null` here
    /// would be dropped (a fix).
    null_forbidden: bool,
}

impl<'c, 's> Check<'c, 's> {
    fn child(&self, schema: &'s Json, null_forbidden: bool) -> Check<'c, 's> {
        Check {
            compiled: self.compiled,
            schema,
            depth: self.depth + 1,
            null_forbidden,
        }
    }
}

impl<'de> DeserializeSeed<'de> for Check<'_, '_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        if self.depth > MAX_DEPTH {
            return Err(de::Error::custom(FALLBACK));
        }
        let (id, buffered, root) = {
            let mut c = self.compiled.borrow_mut();
            let id = c.node(self.schema);
            (id, c.nodes[id].buffered, c.root)
        };
        if let Some(schema) = buffered {
            // Unions, enums and consts need the value whole (rare in bulk data).
            let value = Json::deserialize(deserializer)?;
            if self.null_forbidden && value.is_null() || !exact(&value, schema, root, self.depth) {
                return Err(de::Error::custom(FALLBACK));
            }
            return Ok(());
        }
        deserializer.deserialize_any(CheckVisitor { check: self, id })
    }
}

struct CheckVisitor<'c, 's> {
    check: Check<'c, 's>,
    id: usize,
}

fn fallback<E: de::Error>() -> E {
    E::custom(FALLBACK)
}

fn integral(f: f64) -> bool {
    f.is_finite() && f.fract() == 0.0
}

impl CheckVisitor<'_, '_> {
    fn kinds(&self) -> u8 {
        self.check.compiled.borrow().nodes[self.id].kinds
    }

    fn accept<E: de::Error>(&self, kind: u8) -> Result<(), E> {
        if self.kinds() & kind != 0 {
            Ok(())
        } else {
            Err(fallback())
        }
    }
}

impl<'de> Visitor<'de> for CheckVisitor<'_, '_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_unit<E: de::Error>(self) -> Result<(), E> {
        if self.check.null_forbidden {
            return Err(fallback());
        }
        self.accept(NULL)
    }

    fn visit_bool<E: de::Error>(self, _: bool) -> Result<(), E> {
        self.accept(BOOL)
    }

    fn visit_i64<E: de::Error>(self, _: i64) -> Result<(), E> {
        self.accept(INT | NUM)
    }

    fn visit_u64<E: de::Error>(self, _: u64) -> Result<(), E> {
        self.accept(INT | NUM)
    }

    fn visit_f64<E: de::Error>(self, f: f64) -> Result<(), E> {
        if !f.is_finite() {
            return Err(fallback());
        }
        self.accept(if integral(f) { INT | NUM } else { NUM })
    }

    fn visit_str<E: de::Error>(self, _: &str) -> Result<(), E> {
        self.accept(STR)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        self.accept::<A::Error>(ARR)?;
        let mut i = 0;
        loop {
            let item_schema = {
                let c = self.check.compiled.borrow();
                match &c.nodes[self.id].items {
                    Items::All(s) => *s,
                    Items::Tuple(tuple) => tuple.get(i).unwrap_or(&ANY),
                }
            };
            if seq
                .next_element_seed(self.check.child(item_schema, false))?
                .is_none()
            {
                return Ok(());
            }
            i += 1;
        }
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        self.accept::<A::Error>(OBJ)?;
        let required = self.check.compiled.borrow().nodes[self.id].required.len();
        let mut seen = 0usize;
        let mut seen_flags = vec![false; required];
        while let Some((target, null_forbidden, required_at)) = map.next_key_seed(KeySeed {
            compiled: self.check.compiled,
            id: self.id,
        })? {
            if let Some(at) = required_at {
                if !seen_flags[at] {
                    seen_flags[at] = true;
                    seen += 1;
                }
            }
            map.next_value_seed(self.check.child(target, null_forbidden))?;
        }
        if seen == required {
            Ok(())
        } else {
            Err(fallback())
        }
    }
}

/// Reads a key without allocating and looks up what its value must be: the target schema,
/// whether a `null` there would be dropped, and which required property it is.
struct KeySeed<'c, 's> {
    compiled: &'c std::cell::RefCell<Compiled<'s>>,
    id: usize,
}

type KeyTarget<'s> = (&'s Json, bool, Option<usize>);

impl<'de, 's> DeserializeSeed<'de> for KeySeed<'_, 's> {
    type Value = KeyTarget<'s>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<KeyTarget<'s>, D::Error> {
        deserializer.deserialize_str(self)
    }
}

impl<'de, 's> Visitor<'de> for KeySeed<'_, 's> {
    type Value = KeyTarget<'s>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a key")
    }

    fn visit_str<E: de::Error>(self, key: &str) -> Result<KeyTarget<'s>, E> {
        let c = self.compiled.borrow();
        let node = &c.nodes[self.id];
        let required_at = node.required.iter().position(|r| *r == key);
        let (target, admits) = match node.properties.iter().find(|(k, _, _)| *k == key) {
            Some((_, schema, admits)) => (*schema, *admits),
            None => match node.additional {
                Additional::Forbidden => return Err(fallback()),
                Additional::Schema(s, admits) => (s, admits),
                Additional::Any => (&ANY, true),
            },
        };
        Ok((target, required_at.is_none() && !admits, required_at))
    }
}

/// The exact pass over a parsed value (for unions, enums and consts).
fn exact(value: &Json, schema: &Json, root: &Json, depth: usize) -> bool {
    if depth > MAX_DEPTH {
        return false;
    }
    match shape(schema, root) {
        Shape::Any => true,
        Shape::Never | Shape::Unknown => false,
        Shape::Types(s, ts) => ts.iter().any(|t| match (*t, value) {
            ("null", Json::Null) | ("boolean", Json::Bool(_)) | ("string", Json::String(_)) => true,
            ("number", Json::Number(n)) => n.as_f64().is_some_and(f64::is_finite),
            ("integer", Json::Number(n)) => n.as_f64().is_some_and(integral),
            ("array", Json::Array(_)) => exact_array(value, s, root, depth),
            ("object", Json::Object(_)) => exact_object(value, s, root, depth),
            _ => false,
        }),
        Shape::BranchRefs(branches) => branches.iter().any(|b| exact(value, b, root, depth + 1)),
        Shape::Enum(options) => options.iter().any(|o| same_value(o, value)),
        Shape::Const(c) => same_value(c, value),
        Shape::Null => value.is_null(),
        Shape::String => value.is_string(),
        Shape::Boolean => value.is_boolean(),
        Shape::Number => value.as_f64().is_some_and(f64::is_finite),
        Shape::Integer => value.as_f64().is_some_and(integral),
        Shape::Array(s) => exact_array(value, s, root, depth),
        Shape::Object(s) => exact_object(value, s, root, depth),
    }
}

fn exact_array(value: &Json, s: &Json, root: &Json, depth: usize) -> bool {
    let Json::Array(items) = value else {
        return false;
    };
    items.iter().enumerate().all(|(i, item)| {
        let item_schema = match s.kw("items") {
            Some(Json::Array(tuple)) => tuple.get(i).unwrap_or(&ANY),
            Some(x) => x,
            None => &ANY,
        };
        exact(item, item_schema, root, depth + 1)
    })
}

fn exact_object(value: &Json, s: &Json, root: &Json, depth: usize) -> bool {
    let Json::Object(entries) = value else {
        return false;
    };
    let properties = s.kw("properties").and_then(Json::as_object);
    let required: Vec<&str> = s
        .kw("required")
        .and_then(Json::as_array)
        .map(|r| r.iter().filter_map(Json::as_str).collect())
        .unwrap_or_default();
    let additional = s.kw("additionalProperties");
    let entries_ok = entries.iter().all(|(key, item)| {
        let target = match (properties.and_then(|p| p.kw(key)), additional) {
            (Some(p), _) => p,
            (None, Some(Json::Bool(false))) => return false,
            (None, Some(x @ Json::Object(_))) => x,
            (None, _) => &ANY,
        };
        if item.is_null() && !required.contains(&key.as_str()) && !admits_null(target, root) {
            return false;
        }
        exact(item, target, root, depth + 1)
    });
    entries_ok && required.iter().all(|r| entries.contains_key(*r))
}

/// Enum/const equality as the aligner sees it: numbers by value (the aligner compares its
/// normalized number with the option), everything else structurally.
fn same_value(option: &Json, value: &Json) -> bool {
    match (option, value) {
        (Json::Number(a), Json::Number(b)) => {
            // The aligner normalizes integral values below 2^53 to integers before comparing
            // with serde_json equality, so 3 == 3 but 3.0 (float) != 3 (int).
            let normalize = |n: &serde_json::Number| {
                let f = n.as_f64().unwrap_or(f64::NAN);
                if f.fract() == 0.0
                    && f.abs() < 9.007_199_254_740_992e15
                    && !(f == 0.0 && f.is_sign_negative())
                {
                    (true, f)
                } else {
                    (false, f)
                }
            };
            let (ai, af) = (a.is_i64() || a.is_u64(), a.as_f64().unwrap_or(f64::NAN));
            let (bi, bf) = normalize(b);
            ai == bi && af == bf
        }
        (Json::Array(a), Json::Array(b)) => {
            a.len() == b.len() && a.iter().zip(b).all(|(x, y)| same_value(x, y))
        }
        (Json::Object(a), Json::Object(b)) => {
            a.len() == b.len()
                && a.iter()
                    .all(|(k, x)| b.get(k).is_some_and(|y| same_value(x, y)))
        }
        _ => option == value,
    }
}
