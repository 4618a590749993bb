//! [`sendable`](super::sendable) kept between deltas: a stream's JSON output is read once, in
//! the order it arrives, so a step's work is proportional to its delta (and to the value still
//! open), not to the text so far.
//!
//! The scanner resumes where its last whole token ended. What the whole-prefix check reads
//! against the schema is checked piece by piece instead: down the open containers whose schema
//! says, without looking at their siblings, what each member or element must be (`properties`,
//! `items`, `$ref` followed; not a union or a conditional), each member or element is read
//! against its own schema once, when it completes, and each key when it is read; below the
//! deepest such container, the value still open is read as a prefix at each step. A container
//! that completes is read whole once more (its `required`, its extra keys), so a value at depth
//! `d` is read `d` times in all.

use serde_json::Value as Json;

use super::{
    scalar_end, string_at, string_at_frames, string_cut_from, utf16_len, At, Frame, Prefix,
};
use crate::sap::align::resolve;
use crate::sap::reads_without_fix;

/// An open container of the stream, beside the scanner's [`Frame`].
#[derive(Debug, Clone)]
struct Open {
    /// Byte where the container starts.
    start: usize,
    /// Byte where its current member's value (or element) starts, once it has begun.
    child: Option<usize>,
    /// Its schema (references followed), when it and every container above it are read piece
    /// by piece.
    schema: Option<Json>,
}

/// A string value the text stops inside: where it starts, how far it was read (a cut after a
/// whole character or escape), and its content so far, so the next delta reads on from there.
#[derive(Debug)]
struct OpenString {
    start: usize,
    cut: usize,
    content: String,
}

/// Decodes a piece of a string's JSON text between two cuts (whole characters and escapes).
fn decode(piece: &str) -> Option<String> {
    serde_json::from_str(&format!("\"{piece}\"")).ok()
}

/// Whether a schema (references followed) reads any string as itself: `true`, a schema of
/// annotations only, or `type: "string"` without a union, an enum or a constant.
fn plain_string(schema: &Json) -> bool {
    const ANNOTATIONS: [&str; 6] = [
        "description",
        "title",
        "examples",
        "default",
        "$comment",
        "format",
    ];
    match schema {
        Json::Bool(true) => true,
        Json::Object(o) => match o.get("type") {
            None => o.keys().all(|k| ANNOTATIONS.contains(&k.as_str())),
            Some(Json::String(t)) if t == "string" => ![
                "anyOf", "oneOf", "allOf", "not", "if", "enum", "const", "$ref",
            ]
            .iter()
            .any(|k| o.contains_key(*k)),
            _ => false,
        },
        _ => false,
    }
}

/// The incremental reader of one streamed JSON output.
#[derive(Debug)]
pub struct Live {
    root: Json,
    text: String,
    /// Where the scanner resumes: the byte after its last whole token, with the state there.
    pos: usize,
    state: Prefix,
    opens: Vec<Open>,
    /// Where the root value starts (after white space), once it has.
    begun: Option<usize>,
    /// The last token read was a number or literal.
    after_scalar: bool,
    /// The longest cut sent or sendable so far: bytes and UTF-16 units.
    cut: (usize, usize),
    /// A piece needed a fix: nothing more is sent.
    stuck: bool,
    /// A reply that opens with a code fence: where the JSON after the fence's first line starts
    /// (bytes and UTF-16 units). What is sent begins there.
    skip: (usize, usize),
    /// The string value the text stopped inside, read so far.
    string: Option<OpenString>,
}

/// Anything goes (`true`), and "read it with its container" (`null`): the schemas of members
/// and elements a container's own schema does not give one by one.
static ANY: Json = Json::Bool(true);
static WITH_CONTAINER: Json = Json::Null;

/// What a member of `schema` (an object schema) named `key` must be: `None` when the schema
/// does not allow the key (`additionalProperties: false`).
fn member_schema<'s>(schema: &'s Json, key: &str) -> Option<&'s Json> {
    if let Some(p) = schema.get("properties").and_then(|p| p.get(key)) {
        return Some(p);
    }
    if schema.get("patternProperties").is_some() {
        // Which pattern matches is the aligner's to say: read the object whole.
        return Some(&WITH_CONTAINER);
    }
    match schema.get("additionalProperties") {
        Some(Json::Bool(false)) => None,
        Some(s @ Json::Object(_)) => Some(s),
        _ => Some(&ANY),
    }
}

/// What element `index` of `schema` (an array schema) must be.
fn element_schema(schema: &Json, index: usize) -> &Json {
    if let Some(p) = schema.get("prefixItems").and_then(|p| p.get(index)) {
        return p;
    }
    match schema.get("items") {
        Some(s @ (Json::Object(_) | Json::Bool(_))) => s,
        // Draft 4's tuple form: read the array whole.
        Some(_) => &WITH_CONTAINER,
        None => &ANY,
    }
}

/// Whether a container's members can be read one by one against `schema` (resolved): no
/// keyword that makes one member's reading depend on another's or on a branch.
fn piecewise(schema: &Json) -> bool {
    match schema {
        Json::Bool(true) => true,
        Json::Object(o) => ![
            "anyOf",
            "oneOf",
            "allOf",
            "not",
            "if",
            "then",
            "else",
            "dependentSchemas",
            "dependentRequired",
            "dependencies",
            "unevaluatedProperties",
            "unevaluatedItems",
            "contains",
            "uniqueItems",
            "propertyNames",
            "enum",
            "const",
        ]
        .iter()
        .any(|k| o.contains_key(*k)),
        _ => false,
    }
}

impl Live {
    /// A reader for an output read against `root`.
    pub fn new(root: Json) -> Live {
        Live {
            root,
            text: String::new(),
            pos: 0,
            state: Prefix::default(),
            opens: Vec::new(),
            begun: None,
            after_scalar: false,
            cut: (0, 0),
            stuck: false,
            skip: (0, 0),
            string: None,
        }
    }

    /// Where what may be sent begins (UTF-16 units): after a leading code fence's first line
    /// (```` ```json ````), else 0.
    pub fn skip(&self) -> usize {
        self.skip.1
    }

    /// The schema of the value starting (or open) in open container `d`, its current member or
    /// element, when `d` is read piece by piece; `null` for "read it with its container".
    fn child_schema_at(&self, d: usize) -> Option<&Json> {
        let schema = self.opens[d].schema.as_ref()?;
        Some(match &self.state.frames[d] {
            Frame::Object {
                at: At::Colon(key), ..
            } => member_schema(schema, key).unwrap_or(&WITH_CONTAINER),
            Frame::Array { count, .. } => element_schema(schema, *count),
            _ => &WITH_CONTAINER,
        })
    }

    /// The schema of a value starting in the innermost open container (or the root's), when
    /// that container is read piece by piece; `null` for "read it with its container".
    fn child_schema(&self) -> Option<&Json> {
        match self.opens.len() {
            0 => Some(&self.root),
            n => self.child_schema_at(n - 1),
        }
    }

    /// The schema a container starting here (`{` or `[`) is read piece by piece with, or
    /// `None`.
    fn container_schema(&self, bracket: u8) -> Option<Json> {
        let schema = self.child_schema()?;
        if schema.is_null() {
            return None;
        }
        let resolved = resolve(schema, &self.root).clone();
        let kind = if bracket == b'{' { "object" } else { "array" };
        // A container of another type than the schema's is the whole reading's to judge.
        let typed = match resolved.get("type") {
            None => true,
            Some(Json::String(t)) => t == kind,
            Some(Json::Array(ts)) => ts.iter().any(|t| t == kind),
            Some(_) => false,
        };
        (typed && piecewise(&resolved)).then_some(resolved)
    }

    /// A value of the innermost piecewise container completed at `text[from..to]`: read it
    /// whole against its schema.
    fn check_complete(&mut self, text: &str, from: usize, to: usize) {
        let Some(schema) = self.child_schema() else {
            return;
        };
        if schema.is_null() {
            return;
        }
        if reads_without_fix(&text[from..to], &self.root, schema, false).is_none() {
            self.stuck = true;
        }
    }

    /// Appends `delta` and answers how much of the text (UTF-16 units) may be sent on now: the
    /// longest safe cut whose prefix reads with no fix, never less than before.
    pub fn push(&mut self, delta: &str) -> usize {
        self.text.push_str(delta);
        if self.stuck {
            return self.cut.1;
        }
        let Some(candidate) = self.advance() else {
            return self.cut.1;
        };
        if candidate.0 > self.cut.0 && self.open_reads(&candidate) {
            let units = self.cut.1 + utf16_len(&self.text[self.cut.0..candidate.0]);
            self.cut = (candidate.0, units);
        }
        self.cut.1
    }

    /// Whether the value still open below the deepest piecewise container reads with no fix
    /// up to `cut` (and, with `open_string`, the string the text stops inside as itself).
    fn open_reads(&self, (cut, open_string): &(usize, bool)) -> bool {
        // The deepest open container read piece by piece, and where its open child starts.
        let deepest = self.opens.iter().rposition(|o| o.schema.is_some());
        let (from, schema) = match deepest {
            // Below the root container: the whole text is the open value (the root itself is
            // not read piece by piece).
            None => match self.begun {
                Some(start) => (start, &self.root),
                None => return true,
            },
            Some(d) => {
                let Some(from) = self.opens[d].child else {
                    return true;
                };
                let schema = self.child_schema_at(d).expect("piecewise");
                if schema.is_null() {
                    // Read with its container: the container's own text so far.
                    let parent = self.opens[d].schema.as_ref().expect("piecewise");
                    return match reads_without_fix(
                        &self.text[self.opens[d].start..*cut],
                        &self.root,
                        parent,
                        true,
                    ) {
                        Some(_) => !open_string,
                        None => false,
                    };
                }
                // The open string is that child itself, of a schema that reads any string as
                // itself: nothing to read (a long string costs its new characters only).
                if *open_string
                    && self.state.frames.len() == d + 1
                    && plain_string(resolve(schema, &self.root))
                {
                    return true;
                }
                (from, schema)
            }
        };
        if from >= *cut {
            return true;
        }
        match reads_without_fix(&self.text[from..*cut], &self.root, schema, true) {
            None => false,
            Some(_) if !open_string => true,
            // An open string goes only where the schema reads it as that string so far.
            Some(value) => {
                let so_far = self.string.as_ref().map(|s| s.content.as_str());
                so_far.is_some() && self.string_at_cut(value.as_ref(), deepest) == so_far
            }
        }
    }

    /// The open string in the value read from the deepest piecewise container's open child
    /// (`value`), following the frames below it.
    fn string_at_cut<'v>(
        &self,
        value: Option<&'v Json>,
        deepest: Option<usize>,
    ) -> Option<&'v str> {
        let below = deepest.map_or(0, |d| d + 1);
        string_at_frames(value, &self.state.frames[below..])
    }

    /// Scans on from where the last whole token ended; answers the longest safe cut of the
    /// text so far (with the open string there), `None` when the text is not a strict JSON
    /// object or array from its first character (nothing can be sent).
    fn advance(&mut self) -> Option<(usize, bool)> {
        let text = std::mem::take(&mut self.text);
        let out = self.advance_in(&text);
        self.text = text;
        out
    }

    fn advance_in(&mut self, text: &str) -> Option<(usize, bool)> {
        let b = text.as_bytes();
        let mut i = self.pos;
        let skip_ws = |i: &mut usize| {
            while *i < b.len() && matches!(b[*i], b' ' | b'\t' | b'\n' | b'\r') {
                *i += 1;
            }
        };
        if self.begun.is_none() {
            skip_ws(&mut i);
            if i >= b.len() {
                return None;
            }
            // A reply that opens with a fence (```` ```json ````): its JSON starts on the next
            // line. Prose before a fence is not streamed: a later block may replace that one.
            if self.skip.0 == 0 && b[i] == b'`' {
                let rest = &text[i..];
                if rest.len() < 3 && "```".starts_with(rest) {
                    return None;
                }
                let Some(tag) = rest.strip_prefix("```") else {
                    self.stuck = true;
                    return None;
                };
                let Some(line) = tag.find('\n') else {
                    // The fence's first line is not whole yet (or is not a fence's).
                    if !tag
                        .bytes()
                        .all(|c| c.is_ascii_alphanumeric() || c == b'-' || c == b'_' || c == b' ')
                    {
                        self.stuck = true;
                    }
                    return None;
                };
                if !tag[..line]
                    .trim()
                    .bytes()
                    .all(|c| c.is_ascii_alphanumeric() || c == b'-' || c == b'_')
                {
                    self.stuck = true;
                    return None;
                }
                let at = i + 3 + line + 1;
                self.skip = (at, utf16_len(&text[..at]));
                self.cut = self.skip;
                i = at;
                skip_ws(&mut i);
                if i >= b.len() {
                    self.pos = at;
                    return None;
                }
            }
            if !matches!(b[i], b'{' | b'[') {
                self.stuck = true;
                return None;
            }
            self.begun = Some(i);
            self.pos = i;
        }
        let mut safe: Option<(usize, bool)> = None;
        loop {
            let after_comma = matches!(
                self.state.frames.last(),
                Some(Frame::Object { at: At::Comma, .. } | Frame::Array { at: At::Comma, .. })
            );
            if !(after_comma || self.after_scalar) {
                safe = Some((i, false));
            }
            // The state is exact here: the scanner resumes from this token boundary.
            self.pos = i;
            if self.state.done {
                return safe;
            }
            skip_ws(&mut i);
            if i >= b.len() {
                return safe;
            }
            let c = b[i];
            let opening = matches!(
                self.state.frames.last(),
                None | Some(Frame::Array {
                    at: At::Open | At::Comma,
                    ..
                }) | Some(Frame::Object {
                    at: At::Colon(_),
                    ..
                })
            );
            let (frame_is_object, at) = match self.state.frames.last() {
                Some(Frame::Object { at, .. }) => (Some(true), Some(at.clone())),
                Some(Frame::Array { at, .. }) => (Some(false), Some(at.clone())),
                None => (None, None),
            };
            if opening && (c == b'{' || c == b'[') {
                let schema = self.container_schema(c);
                if let Some(open) = self.opens.last_mut() {
                    open.child = Some(i);
                }
                self.opens.push(Open {
                    start: i,
                    child: None,
                    schema,
                });
                self.state.frames.push(if c == b'{' {
                    Frame::Object {
                        keys: Vec::new(),
                        at: At::Open,
                    }
                } else {
                    Frame::Array {
                        count: 0,
                        at: At::Open,
                    }
                });
                self.after_scalar = false;
                i += 1;
                continue;
            }
            match (frame_is_object, at, c) {
                (Some(true), Some(At::Open | At::Comma), b'"') => {
                    let Some((key, Some(mut j))) = string_at(text, i) else {
                        return safe;
                    };
                    skip_ws(&mut j);
                    if j >= b.len() {
                        return safe;
                    }
                    let Some(Frame::Object { keys, .. }) = self.state.frames.last() else {
                        return safe;
                    };
                    if b[j] != b':' || keys.contains(&key) {
                        self.stuck = true;
                        return safe;
                    }
                    let open = self.opens.last().expect("an open object");
                    if open
                        .schema
                        .as_ref()
                        .is_some_and(|s| member_schema(s, &key).is_none())
                    {
                        // A key the schema does not allow: its reading drops it.
                        self.stuck = true;
                        return safe;
                    }
                    if let Some(Frame::Object { at, .. }) = self.state.frames.last_mut() {
                        *at = At::Colon(key);
                    }
                    self.after_scalar = false;
                    i = j + 1;
                }
                (Some(_), Some(At::Value), b',') => {
                    if let Some(Frame::Object { at, .. } | Frame::Array { at, .. }) =
                        self.state.frames.last_mut()
                    {
                        *at = At::Comma;
                    }
                    self.after_scalar = false;
                    i += 1;
                }
                (Some(true), Some(At::Open | At::Value), b'}')
                | (Some(false), Some(At::Open | At::Value), b']') => {
                    let closed = self.opens.pop().expect("an open container");
                    self.state.frames.pop();
                    // The container is a whole value of its parent: read it whole once.
                    self.check_complete(text, closed.start, i + 1);
                    self.close();
                    self.after_scalar = false;
                    i += 1;
                }
                (Some(true), Some(At::Colon(_)), _)
                | (Some(false), Some(At::Open | At::Comma), _) => {
                    if let Some(open) = self.opens.last_mut() {
                        open.child = Some(i);
                    }
                    if c == b'"' {
                        match self.read_string(text, i) {
                            None => {
                                self.stuck = true;
                                return safe;
                            }
                            Some(Some(end)) => {
                                self.check_complete(text, i, end);
                                self.close();
                                self.after_scalar = false;
                                i = end;
                            }
                            // Inside the string: a cut after its last whole character.
                            Some(None) => {
                                return Some((self.string.as_ref().map_or(i, |s| s.cut), true))
                            }
                        }
                    } else {
                        let Some(end) = scalar_end(b, i) else {
                            self.stuck = true;
                            return safe;
                        };
                        if end >= b.len() {
                            return safe;
                        }
                        if serde_json::from_str::<Json>(&text[i..end]).is_err() {
                            self.stuck = true;
                            return safe;
                        }
                        self.check_complete(text, i, end);
                        self.close();
                        self.after_scalar = true;
                        i = end;
                    }
                }
                _ => {
                    self.stuck = true;
                    return safe;
                }
            }
            if self.stuck {
                return safe;
            }
        }
    }

    /// Reads the string value starting at byte `i` on from where the last delta stopped inside
    /// it: `Some(Some(end))` when it closed (the byte after its quote), `Some(None)` when the
    /// text stops inside it (`self.string` holds the cut and content), `None` for a string that
    /// is not strict JSON (a raw control character, an invalid escape).
    fn read_string(&mut self, text: &str, i: usize) -> Option<Option<usize>> {
        let (from, mut content) = match self.string.take() {
            Some(open) if open.start == i => (open.cut, open.content),
            _ => (i + 1, String::new()),
        };
        let b = text.as_bytes();
        let mut j = from;
        while j < b.len() {
            match b[j] {
                b'"' => {
                    decode(&text[from..j])?;
                    return Some(Some(j + 1));
                }
                b'\\' => j += 2,
                c if c < 0x20 => return None,
                _ => j += 1,
            }
        }
        let cut = string_cut_from(text, from);
        content.push_str(&decode(&text[from..cut])?);
        self.string = Some(OpenString {
            start: i,
            cut,
            content,
        });
        Some(None)
    }

    /// A value just ended in the innermost container (or the root ended).
    fn close(&mut self) {
        super::close_value(&mut self.state);
        if let Some(open) = self.opens.last_mut() {
            open.child = None;
        }
    }
}
