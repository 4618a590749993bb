//! The engine's JSON document: an arena of nodes addressed by [`Id`].
//!
//! Schemas are walked by *node identity* (the reference keys its traversal state, memo tables
//! and synthetic-wrapper markers on JavaScript object identity), so nodes live in an arena and
//! an [`Id`] is that identity. The parser and the serializer are iterative: nesting depth costs
//! heap, never stack, so 10k nested brackets cannot overflow the wasm stack.
//!
//! Besides JSON the arena has two host-only node kinds that the facade encodes with a tagged
//! object (see [`TAG_KEY`]): `undefined` (a key present with value `undefined`, which JavaScript
//! `in` checks see) and opaque values (functions, symbols, bigints, non-finite numbers).

use crate::map::ObjMap;
use std::fmt::Write as _;

/// Index of a node in a [`Doc`].
pub type Id = usize;

/// Key under which the facade encodes a value that JSON cannot carry:
/// `{"\u0000understudy": "undefined" | "function" | "symbol" | "bigint" | "number"}`.
pub const TAG_KEY: &str = "\u{0}understudy";
/// [`TAG_KEY`] as `JSON.stringify` writes it: a text without it holds no tagged value.
pub const TAG_TEXT: &str = "\\u0000understudy";

/// One node of a [`Doc`].
#[derive(Debug, Clone, PartialEq)]
pub enum Node {
    Null,
    Bool(bool),
    /// The number exactly as written, so output reproduces the input's digits.
    Num(String),
    Str(String),
    Arr(Vec<Id>),
    Obj(ObjMap),
    /// A property that exists with the value `undefined`.
    Undefined,
    /// A JavaScript value with no JSON form; the string names its kind.
    Opaque(String),
}

/// An arena of JSON nodes; node 0 is the root of a parsed document.
#[derive(Debug, Clone, Default)]
pub struct Doc {
    pub nodes: Vec<Node>,
}

/// Where and why JSON text failed to parse.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{message} at line {line} column {column}")]
pub struct ParseError {
    pub message: String,
    /// Byte offset of the failure.
    pub offset: usize,
    pub line: usize,
    pub column: usize,
}

impl Doc {
    pub fn root(&self) -> Id {
        0
    }

    pub fn node(&self, id: Id) -> &Node {
        &self.nodes[id]
    }

    pub fn push(&mut self, node: Node) -> Id {
        self.nodes.push(node);
        self.nodes.len() - 1
    }

    /// The object entries of `id`, if it is an object (JavaScript `isRecord`).
    pub fn obj(&self, id: Id) -> Option<&ObjMap> {
        match &self.nodes[id] {
            Node::Obj(map) => Some(map),
            _ => None,
        }
    }

    pub fn arr(&self, id: Id) -> Option<&Vec<Id>> {
        match &self.nodes[id] {
            Node::Arr(items) => Some(items),
            _ => None,
        }
    }

    pub fn is_record(&self, id: Id) -> bool {
        matches!(self.nodes[id], Node::Obj(_))
    }

    /// `key in node` for an object node.
    pub fn has(&self, id: Id, key: &str) -> bool {
        self.obj(id).is_some_and(|m| m.contains_key(key))
    }

    /// `node[key]` for an object node, `undefined` values included.
    pub fn get(&self, id: Id, key: &str) -> Option<Id> {
        self.obj(id).and_then(|m| m.get(key).copied())
    }

    /// `node[key]`, treating a present `undefined` as absent (`node[key] !== undefined`).
    pub fn get_defined(&self, id: Id, key: &str) -> Option<Id> {
        self.get(id, key)
            .filter(|&v| !matches!(self.nodes[v], Node::Undefined))
    }

    pub fn as_str(&self, id: Id) -> Option<&str> {
        match &self.nodes[id] {
            Node::Str(s) => Some(s),
            _ => None,
        }
    }

    /// Copies the subtree at `id` of `src` into `self` and returns the new id.
    pub fn copy_from(&mut self, src: &Doc, id: Id) -> Id {
        // Iterative: push placeholders, fill children afterwards.
        let root = self.push(Node::Null);
        let mut stack = vec![(root, id)];
        while let Some((dst, from)) = stack.pop() {
            let node = match &src.nodes[from] {
                Node::Arr(items) => {
                    let mut out = Vec::with_capacity(items.len());
                    for &child in items {
                        let slot = self.push(Node::Null);
                        stack.push((slot, child));
                        out.push(slot);
                    }
                    Node::Arr(out)
                }
                Node::Obj(entries) => {
                    let mut out = ObjMap::with_capacity(entries.len());
                    for (k, &child) in entries {
                        let slot = self.push(Node::Null);
                        stack.push((slot, child));
                        out.insert(k.clone(), slot);
                    }
                    Node::Obj(out)
                }
                other => other.clone(),
            };
            self.nodes[dst] = node;
        }
        root
    }

    /// Whether the node is JSON `null` (not `undefined`).
    pub fn is_null(&self, id: Id) -> bool {
        matches!(self.nodes[id], Node::Null)
    }
}

/// Escapes one JSON Pointer token (`~` → `~0`, `/` → `~1`).
pub fn escape_token(token: &str) -> String {
    let mut out = String::with_capacity(token.len());
    push_escaped(&mut out, token);
    out
}

/// Appends a token to a JSON Pointer.
pub fn pointer_push(pointer: &str, token: &str) -> String {
    let mut out = String::with_capacity(pointer.len() + token.len() + 1);
    out.push_str(pointer);
    push_token(&mut out, token);
    out
}

/// Appends `/` and the escaped token to a JSON Pointer in place.
pub fn push_token(pointer: &mut String, token: &str) {
    pointer.push('/');
    push_escaped(pointer, token);
}

fn push_escaped(out: &mut String, token: &str) {
    if !token.contains(['~', '/']) {
        out.push_str(token);
        return;
    }
    for c in token.chars() {
        match c {
            '~' => out.push_str("~0"),
            '/' => out.push_str("~1"),
            c => out.push(c),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Parsing

/// Parses JSON text into a new document whose root is node 0. Tagged host values (see
/// [`TAG_KEY`]) become [`Node::Undefined`] / [`Node::Opaque`].
pub fn parse(text: &str) -> Result<Doc, ParseError> {
    let mut doc = Doc {
        nodes: Vec::with_capacity(text.len() / 8 + 1),
    };
    Parser {
        bytes: text.as_bytes(),
        text,
        pos: 0,
    }
    .run(&mut doc)?;
    Ok(doc)
}

struct Parser<'a> {
    bytes: &'a [u8],
    text: &'a str,
    pos: usize,
}

enum Frame {
    Arr(Id, Vec<Id>),
    Obj(Id, ObjMap, Option<String>),
}

impl Parser<'_> {
    fn error(&self, message: &str) -> ParseError {
        let upto = &self.bytes[..self.pos.min(self.bytes.len())];
        let line = upto.iter().filter(|&&b| b == b'\n').count() + 1;
        let line_start = upto.iter().rposition(|&b| b == b'\n').map_or(0, |p| p + 1);
        let column = self.text[line_start..self.pos.min(self.text.len())]
            .chars()
            .count()
            + 1;
        ParseError {
            message: message.to_string(),
            offset: self.pos,
            line,
            column,
        }
    }

    fn ws(&mut self) {
        while let Some(&b) = self.bytes.get(self.pos) {
            if matches!(b, b' ' | b'\t' | b'\n' | b'\r') {
                self.pos += 1;
            } else {
                break;
            }
        }
    }

    fn run(&mut self, doc: &mut Doc) -> Result<(), ParseError> {
        let mut stack: Vec<Frame> = Vec::new();
        let root = doc.push(Node::Null);
        // The slot the next value goes into.
        let mut slot = root;
        loop {
            // Parse one value into `slot`, or open a container.
            self.ws();
            let Some(&b) = self.bytes.get(self.pos) else {
                return Err(self.error("unexpected end of JSON input"));
            };
            let mut opened = false;
            match b {
                b'{' => {
                    self.pos += 1;
                    self.ws();
                    if self.bytes.get(self.pos) == Some(&b'}') {
                        self.pos += 1;
                        doc.nodes[slot] = Node::Obj(ObjMap::new());
                    } else {
                        let key = self.key()?;
                        stack.push(Frame::Obj(slot, ObjMap::new(), Some(key)));
                        opened = true;
                    }
                }
                b'[' => {
                    self.pos += 1;
                    self.ws();
                    if self.bytes.get(self.pos) == Some(&b']') {
                        self.pos += 1;
                        doc.nodes[slot] = Node::Arr(Vec::new());
                    } else {
                        stack.push(Frame::Arr(slot, Vec::new()));
                        opened = true;
                    }
                }
                b'"' => {
                    let s = self.string()?;
                    doc.nodes[slot] = Node::Str(s);
                }
                b't' => {
                    self.literal("true")?;
                    doc.nodes[slot] = Node::Bool(true);
                }
                b'f' => {
                    self.literal("false")?;
                    doc.nodes[slot] = Node::Bool(false);
                }
                b'n' => {
                    self.literal("null")?;
                    doc.nodes[slot] = Node::Null;
                }
                b'-' | b'0'..=b'9' => {
                    let n = self.number()?;
                    doc.nodes[slot] = Node::Num(n);
                }
                _ => return Err(self.error("unexpected character")),
            }
            if opened {
                slot = doc.push(Node::Null);
                continue;
            }
            // Value complete: attach it and close containers as far as possible.
            let mut finished = slot;
            loop {
                match stack.last_mut() {
                    None => {
                        self.ws();
                        if self.pos != self.bytes.len() {
                            return Err(self.error("unexpected text after the JSON value"));
                        }
                        return Ok(());
                    }
                    Some(Frame::Arr(_, items)) => {
                        items.push(finished);
                        self.ws();
                        match self.bytes.get(self.pos) {
                            Some(b',') => {
                                self.pos += 1;
                                break;
                            }
                            Some(b']') => {
                                self.pos += 1;
                                let Some(Frame::Arr(id, items)) = stack.pop() else {
                                    unreachable!()
                                };
                                doc.nodes[id] = Node::Arr(items);
                                finished = id;
                            }
                            None => return Err(self.error("unexpected end of JSON input")),
                            _ => return Err(self.error("expected `,` or `]`")),
                        }
                    }
                    Some(Frame::Obj(_, entries, key)) => {
                        let k = key.take().unwrap_or_default();
                        entries.insert(k, finished);
                        self.ws();
                        match self.bytes.get(self.pos) {
                            Some(b',') => {
                                self.pos += 1;
                                self.ws();
                                let next = self.key()?;
                                if let Some(Frame::Obj(_, _, key)) = stack.last_mut() {
                                    *key = Some(next);
                                }
                                break;
                            }
                            Some(b'}') => {
                                self.pos += 1;
                                let Some(Frame::Obj(id, entries, _)) = stack.pop() else {
                                    unreachable!()
                                };
                                doc.nodes[id] = decode_tag(doc, entries);
                                finished = id;
                            }
                            None => return Err(self.error("unexpected end of JSON input")),
                            _ => return Err(self.error("expected `,` or `}`")),
                        }
                    }
                }
            }
            slot = doc.push(Node::Null);
        }
    }

    fn key(&mut self) -> Result<String, ParseError> {
        self.ws();
        if self.bytes.get(self.pos) != Some(&b'"') {
            return Err(self.error("expected a string key"));
        }
        let k = self.string()?;
        self.ws();
        if self.bytes.get(self.pos) != Some(&b':') {
            return Err(self.error("expected `:`"));
        }
        self.pos += 1;
        Ok(k)
    }

    fn literal(&mut self, word: &str) -> Result<(), ParseError> {
        if self.bytes[self.pos..].starts_with(word.as_bytes()) {
            self.pos += word.len();
            Ok(())
        } else {
            Err(self.error("unexpected token"))
        }
    }

    fn number(&mut self) -> Result<String, ParseError> {
        let start = self.pos;
        let b = self.bytes;
        if b.get(self.pos) == Some(&b'-') {
            self.pos += 1;
        }
        match b.get(self.pos) {
            Some(b'0') => self.pos += 1,
            Some(b'1'..=b'9') => {
                while matches!(b.get(self.pos), Some(b'0'..=b'9')) {
                    self.pos += 1;
                }
            }
            _ => return Err(self.error("invalid number")),
        }
        if b.get(self.pos) == Some(&b'.') {
            self.pos += 1;
            if !matches!(b.get(self.pos), Some(b'0'..=b'9')) {
                return Err(self.error("invalid number"));
            }
            while matches!(b.get(self.pos), Some(b'0'..=b'9')) {
                self.pos += 1;
            }
        }
        if matches!(b.get(self.pos), Some(b'e' | b'E')) {
            self.pos += 1;
            if matches!(b.get(self.pos), Some(b'+' | b'-')) {
                self.pos += 1;
            }
            if !matches!(b.get(self.pos), Some(b'0'..=b'9')) {
                return Err(self.error("invalid number"));
            }
            while matches!(b.get(self.pos), Some(b'0'..=b'9')) {
                self.pos += 1;
            }
        }
        Ok(self.text[start..self.pos].to_string())
    }

    fn string(&mut self) -> Result<String, ParseError> {
        self.pos += 1; // opening quote
        let mut out = String::new();
        loop {
            let start = self.pos;
            while let Some(&b) = self.bytes.get(self.pos) {
                if b == b'"' || b == b'\\' || b < 0x20 {
                    break;
                }
                self.pos += 1;
            }
            out.push_str(&self.text[start..self.pos]);
            match self.bytes.get(self.pos) {
                Some(b'"') => {
                    self.pos += 1;
                    return Ok(out);
                }
                Some(b'\\') => {
                    self.pos += 1;
                    let Some(&e) = self.bytes.get(self.pos) else {
                        return Err(self.error("unexpected end of JSON input"));
                    };
                    self.pos += 1;
                    match e {
                        b'"' => out.push('"'),
                        b'\\' => out.push('\\'),
                        b'/' => out.push('/'),
                        b'b' => out.push('\u{8}'),
                        b'f' => out.push('\u{c}'),
                        b'n' => out.push('\n'),
                        b'r' => out.push('\r'),
                        b't' => out.push('\t'),
                        b'u' => {
                            let hi = self.hex4()?;
                            let c = if (0xD800..0xDC00).contains(&hi)
                                && self.bytes[self.pos..].starts_with(b"\\u")
                            {
                                let save = self.pos;
                                self.pos += 2;
                                let lo = self.hex4()?;
                                if (0xDC00..0xE000).contains(&lo) {
                                    char::from_u32(0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00))
                                } else {
                                    self.pos = save;
                                    None
                                }
                            } else {
                                char::from_u32(hi)
                            };
                            // Lone surrogates have no UTF-8 form; JSON.stringify never emits
                            // them unescaped, and U+FFFD keeps the text readable.
                            out.push(c.unwrap_or('\u{FFFD}'));
                        }
                        _ => {
                            self.pos -= 1;
                            return Err(self.error("invalid escape in string"));
                        }
                    }
                }
                Some(_) => return Err(self.error("control character in string")),
                None => return Err(self.error("unterminated string")),
            }
        }
    }

    fn hex4(&mut self) -> Result<u32, ParseError> {
        let Some(digits) = self.text.get(self.pos..self.pos + 4) else {
            return Err(self.error("invalid \\u escape"));
        };
        let v = u32::from_str_radix(digits, 16).map_err(|_| self.error("invalid \\u escape"))?;
        self.pos += 4;
        Ok(v)
    }
}

fn decode_tag(doc: &Doc, entries: ObjMap) -> Node {
    if entries.len() == 1 {
        if let Some(&v) = entries.get(TAG_KEY) {
            if let Node::Str(kind) = &doc.nodes[v] {
                return if kind == "undefined" {
                    Node::Undefined
                } else {
                    Node::Opaque(kind.clone())
                };
            }
        }
    }
    Node::Obj(entries)
}

// ---------------------------------------------------------------------------------------------
// Serializing

/// Writes the subtree at `id` as JSON text. `undefined` members of objects are left out and
/// `undefined` array entries become `null`, as `JSON.stringify` does; a top-level `undefined`
/// becomes the tag object so the facade can restore it. Iterative: depth costs heap only.
pub fn to_string(doc: &Doc, id: Id) -> String {
    write(doc, id, false)
}

/// [`to_string`], with `undefined` inside containers written as its tag (as at the root) rather
/// than as `null`, for a reader that revives it (`stripStrictNulls`: a stripped tuple position).
pub fn to_string_tagged(doc: &Doc, id: Id) -> String {
    write(doc, id, true)
}

fn write(doc: &Doc, id: Id, tag_undefined: bool) -> String {
    let mut out = String::with_capacity(256);
    if matches!(doc.nodes[id], Node::Undefined) {
        out.push_str("{\"\\u0000understudy\":\"undefined\"}");
        return out;
    }
    // (container, index of the next child) for every open container.
    let mut stack: Vec<(Id, usize)> = Vec::new();
    let mut next = Some(id);
    loop {
        if let Some(v) = next.take() {
            match &doc.nodes[v] {
                Node::Undefined if tag_undefined => {
                    out.push_str("{\"\\u0000understudy\":\"undefined\"}")
                }
                Node::Null | Node::Undefined | Node::Opaque(_) => out.push_str("null"),
                Node::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
                Node::Num(n) => out.push_str(n),
                Node::Str(s) => write_str(&mut out, s),
                Node::Arr(_) => {
                    out.push('[');
                    stack.push((v, 0));
                }
                Node::Obj(_) => {
                    out.push('{');
                    stack.push((v, 0));
                }
            }
        }
        let Some((container, index)) = stack.last_mut() else {
            return out;
        };
        match &doc.nodes[*container] {
            Node::Arr(items) => {
                if *index < items.len() {
                    if *index > 0 {
                        out.push(',');
                    }
                    next = Some(items[*index]);
                    *index += 1;
                } else {
                    out.push(']');
                    stack.pop();
                }
            }
            Node::Obj(map) => {
                // Skip members whose value is `undefined`.
                let mut found = None;
                for (i, (k, &c)) in map.iter().enumerate().skip(*index) {
                    if !matches!(doc.nodes[c], Node::Undefined) {
                        found = Some((i, k, c));
                        break;
                    }
                }
                match found {
                    Some((i, k, c)) => {
                        if out.as_bytes().last() != Some(&b'{') {
                            out.push(',');
                        }
                        write_str(&mut out, k);
                        out.push(':');
                        next = Some(c);
                        *index = i + 1;
                    }
                    None => {
                        out.push('}');
                        stack.pop();
                    }
                }
            }
            _ => unreachable!("only containers are stacked"),
        }
    }
}

fn write_str(out: &mut String, s: &str) {
    out.push('"');
    let bytes = s.as_bytes();
    let mut start = 0;
    for (i, &b) in bytes.iter().enumerate() {
        let esc: &str = match b {
            b'"' => "\\\"",
            b'\\' => "\\\\",
            b'\n' => "\\n",
            b'\r' => "\\r",
            b'\t' => "\\t",
            0x08 => "\\b",
            0x0c => "\\f",
            0..=0x1f => "",
            _ => continue,
        };
        out.push_str(&s[start..i]);
        if esc.is_empty() {
            let _ = write!(out, "\\u{:04x}", b);
        } else {
            out.push_str(esc);
        }
        start = i + 1;
    }
    out.push_str(&s[start..]);
    out.push('"');
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_and_keeps_key_order_and_number_text() {
        let text = r#"{"b":1,"a":[true,false,null,"x\n\"y\u00e9"],"n":-1.50e+3,"o":{}}"#;
        let doc = parse(text).unwrap();
        assert_eq!(
            to_string(&doc, 0),
            r#"{"b":1,"a":[true,false,null,"x\n\"yé"],"n":-1.50e+3,"o":{}}"#
        );
    }

    #[test]
    fn nesting_costs_no_stack() {
        let depth = 200_000;
        let text = "[".repeat(depth) + &"]".repeat(depth);
        let doc = parse(&text).unwrap();
        assert_eq!(to_string(&doc, 0).len(), text.len());
    }

    #[test]
    fn errors_carry_position() {
        let err = parse("{\n  \"a\": tru }").unwrap_err();
        assert_eq!((err.line, err.column, err.offset), (2, 8, 9));
        assert!(parse("[1,]").is_err());
        assert!(parse("\"abc").unwrap_err().message.contains("unterminated"));
        assert!(parse("1 2").is_err());
        assert!(parse("").is_err());
    }

    #[test]
    fn surrogate_pairs_decode() {
        let doc = parse(r#""\ud83d\ude00 \ud800""#).unwrap();
        assert_eq!(doc.as_str(0), Some("😀 \u{FFFD}"));
    }

    #[test]
    fn host_tags_decode_and_undefined_members_are_left_out() {
        let doc =
            parse(r#"{"a":{"\u0000understudy":"undefined"},"f":{"\u0000understudy":"function"}}"#)
                .unwrap();
        let a = doc.get(0, "a").unwrap();
        assert_eq!(doc.node(a), &Node::Undefined);
        assert!(doc.has(0, "a"));
        assert_eq!(doc.get_defined(0, "a"), None);
        let f = doc.get(0, "f").unwrap();
        assert_eq!(doc.node(f), &Node::Opaque("function".into()));
        assert_eq!(to_string(&doc, 0), r#"{"f":null}"#);
    }
}
