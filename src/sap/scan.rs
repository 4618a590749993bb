//! The tolerant scanner: reads one JSON-ish value starting at a position of a model's reply.
//!
//! It accepts what models write (sap-rules.md, rules 4, 5): trailing commas, comments,
//! single, curly and triple quotes, unquoted keys and single-word values, Python literals,
//! raw control characters and stray inner quotes in strings, invalid escapes. When the text
//! ends inside the value (a streamed or cut reply) it closes what is open and marks the parts
//! the cut left unfinished (rules 12-16), so the aligner can decide what to keep.
//!
//! Iterative with an explicit stack; nesting deeper than [`MAX_NESTING`] is an error, so no
//! input can exhaust the stack (also when the value is dropped).

use std::borrow::Cow;

use super::fixes::FixKind;
use super::path::Seg;

/// Deepest nesting of arrays and objects the scanner accepts.
pub const MAX_NESTING: usize = 256;

/// A scanned value. Containers and strings say whether the text finished them.
#[derive(Debug, Clone, PartialEq)]
pub enum Value<'a> {
    Null,
    Bool(bool),
    /// A number as written; `complete` is false when it ran into the end of the text (more
    /// digits may follow).
    Num {
        text: &'a str,
        complete: bool,
    },
    /// `complete` is false when the text ended inside the string. Borrowed from the reply
    /// unless the string needed rewriting (an escape): a short reply's strings are most of
    /// its allocations otherwise.
    Str {
        text: Cow<'a, str>,
        complete: bool,
    },
    Arr {
        items: Vec<Value<'a>>,
        closed: bool,
    },
    Obj {
        entries: Vec<(Cow<'a, str>, Value<'a>)>,
        closed: bool,
    },
    /// A literal cut mid-way (`tr`, `nu`, `Non`): nothing may be concluded from it.
    CutLiteral,
}

/// One repair the scanner made, at a JSON Pointer into the value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SyntaxFix {
    pub kind: FixKind,
    pub pointer: String,
    pub detail: Cow<'static, str>,
}

/// Why no value could be read at a position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScanError {
    pub offset: usize,
    pub message: String,
}

/// A value read from `start` to `end` (byte offsets into the text).
#[derive(Debug, Clone, PartialEq)]
pub struct Scanned<'a> {
    pub value: Value<'a>,
    pub start: usize,
    pub end: usize,
    /// The text ended inside the value.
    pub cut: bool,
    pub fixes: Vec<SyntaxFix>,
}

enum Frame<'a> {
    Arr(Vec<Value<'a>>),
    /// Entries so far and the key whose value is being read.
    Obj(Vec<(Cow<'a, str>, Value<'a>)>, Option<Cow<'a, str>>),
}

struct Scanner<'a> {
    text: &'a str,
    bytes: &'a [u8],
    pos: usize,
    fixes: Vec<SyntaxFix>,
    /// Where the value being read is: its keys and indexes, written out as a JSON Pointer
    /// only when a fix names it (most replies need no pointer, and a borrowed key costs a copy
    /// of a reference here).
    path: Vec<Segment<'a>>,
}

/// A step of the scanner's [`Scanner::path`].
enum Segment<'a> {
    Key(Cow<'a, str>),
    Index(usize),
}

fn is_word_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'_' | b'$' | b'-' | b'.' | b'+')
}

/// Reads one value starting at `start` (leading whitespace and comments skipped).
pub fn scan_value(text: &str, start: usize) -> Result<Scanned<'_>, ScanError> {
    let mut s = Scanner {
        text,
        bytes: text.as_bytes(),
        pos: start,
        fixes: Vec::new(),
        path: Vec::new(),
    };
    s.skip_space();
    let begin = s.pos;
    let (value, cut) = s.run()?;
    Ok(Scanned {
        value,
        start: begin,
        end: s.pos,
        cut,
        fixes: s.fixes,
    })
}

impl<'a> Scanner<'a> {
    fn pointer(&self) -> String {
        let mut out = String::new();
        for segment in &self.path {
            match segment {
                Segment::Key(key) => Seg::Key(key),
                Segment::Index(i) => Seg::Index(*i),
            }
            .push_to(&mut out);
        }
        out
    }

    fn push_path(&mut self, key: Cow<'a, str>) {
        self.path.push(Segment::Key(key));
    }

    fn push_index(&mut self, index: usize) {
        self.path.push(Segment::Index(index));
    }

    fn pop_path(&mut self) {
        self.path.pop();
    }

    fn fix(&mut self, kind: FixKind, detail: impl Into<Cow<'static, str>>) {
        let pointer = self.pointer();
        self.fixes.push(SyntaxFix {
            kind,
            pointer,
            detail: detail.into(),
        });
    }

    fn error(&self, message: &str) -> ScanError {
        ScanError {
            offset: self.pos,
            message: message.to_string(),
        }
    }

    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    fn rest(&self) -> &str {
        &self.text[self.pos..]
    }

    fn at_end(&self) -> bool {
        self.pos >= self.bytes.len()
    }

    /// Skips whitespace, a byte-order mark and comments (`//`, `/* */`, `#`).
    fn skip_space(&mut self) {
        loop {
            match self.peek() {
                Some(b' ' | b'\t' | b'\n' | b'\r') => self.pos += 1,
                Some(0xEF) if self.rest().starts_with('\u{FEFF}') => self.pos += 3,
                Some(b'/') if self.rest().starts_with("//") => {
                    self.fix(FixKind::CommentRemoved, "//");
                    self.skip_line();
                }
                Some(b'#') => {
                    self.fix(FixKind::CommentRemoved, "#");
                    self.skip_line();
                }
                Some(b'/') if self.rest().starts_with("/*") => {
                    self.fix(FixKind::CommentRemoved, "/* */");
                    match self.rest()[2..].find("*/") {
                        Some(i) => self.pos += 2 + i + 2,
                        None => self.pos = self.bytes.len(),
                    }
                }
                _ => return,
            }
        }
    }

    fn skip_line(&mut self) {
        match self.rest().find('\n') {
            Some(i) => self.pos += i + 1,
            None => self.pos = self.bytes.len(),
        }
    }

    /// After an unquoted word: takes the words that follow it on the same line, separated by
    /// spaces or tabs (`in progress`, `Some key`), and stops at the end of the last one.
    fn more_words(&mut self) {
        loop {
            let mut at = self.pos;
            while matches!(self.bytes.get(at), Some(b' ' | b'\t')) {
                at += 1;
            }
            if at == self.pos || !self.bytes.get(at).copied().is_some_and(is_word_byte) {
                return;
            }
            self.pos = at;
            while self.peek().is_some_and(is_word_byte) {
                self.pos += 1;
            }
        }
    }

    /// After a word that may be the integer part of a number (`-2`, `$1`, `12`): takes `,ddd`
    /// groups and a fraction when they make one number written with thousands separators,
    /// that is when at least one group follows and then a `,` `}` `]` (not a key's `:`, not the
    /// end of the text, where more may follow). Returns whether it took them.
    fn thousands(&mut self, start: usize) -> bool {
        let word = &self.bytes[start..self.pos];
        let digits = word
            .strip_prefix(b"-")
            .or_else(|| word.strip_prefix(b"+"))
            .unwrap_or(word);
        let digits = digits.strip_prefix(b"$").unwrap_or(digits);
        if !(1..=3).contains(&digits.len()) || !digits.iter().all(u8::is_ascii_digit) {
            return false;
        }
        let mut at = self.pos;
        let mut groups = 0;
        while self.bytes.get(at) == Some(&b',')
            && self
                .bytes
                .get(at + 1..at + 4)
                .is_some_and(|g| g.iter().all(u8::is_ascii_digit))
            && !self
                .bytes
                .get(at + 4)
                .copied()
                .is_some_and(|b| b.is_ascii_digit())
        {
            at += 4;
            groups += 1;
        }
        if groups == 0 {
            return false;
        }
        if self.bytes.get(at) == Some(&b'.')
            && self.bytes.get(at + 1).is_some_and(u8::is_ascii_digit)
        {
            at += 1;
            while self.bytes.get(at).is_some_and(u8::is_ascii_digit) {
                at += 1;
            }
        }
        // What follows must end the value: a separator or a closer, not a key's `:` or more
        // of a word.
        let mut next = at;
        while matches!(self.bytes.get(next), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            next += 1;
        }
        if !matches!(self.bytes.get(next), Some(b',' | b'}' | b']'))
            || self.bytes.get(at).copied().is_some_and(is_word_byte)
        {
            return false;
        }
        self.pos = at;
        true
    }

    /// The scan loop. Returns the value and whether the text ended inside it.
    fn run(&mut self) -> Result<(Value<'a>, bool), ScanError> {
        let mut stack: Vec<Frame> = Vec::new();
        let mut cut = false;
        loop {
            // Read a value, or open a container.
            self.skip_space();
            let value = if self.at_end() {
                cut = true;
                None
            } else {
                match self.peek() {
                    Some(b'{') | Some(b'[') => {
                        if stack.len() >= MAX_NESTING {
                            return Err(self.error("nested too deeply"));
                        }
                        let open = self.peek() == Some(b'{');
                        self.pos += 1;
                        if open {
                            stack.push(Frame::Obj(Vec::new(), None));
                            match self.key(&mut stack)? {
                                KeyStep::Key => continue,
                                KeyStep::Closed(v) => Some(v),
                                KeyStep::Cut => {
                                    cut = true;
                                    None
                                }
                            }
                        } else {
                            stack.push(Frame::Arr(Vec::new()));
                            self.skip_space();
                            match self.peek() {
                                Some(b']') => {
                                    self.pos += 1;
                                    stack.pop();
                                    Some(Value::Arr {
                                        items: Vec::new(),
                                        closed: true,
                                    })
                                }
                                None => {
                                    cut = true;
                                    None
                                }
                                _ => {
                                    self.push_index(0);
                                    continue;
                                }
                            }
                        }
                    }
                    _ => {
                        let in_object = matches!(stack.last(), Some(Frame::Obj(..)));
                        let (v, ended) = self.scalar(stack.is_empty(), in_object)?;
                        cut |= ended;
                        Some(v)
                    }
                }
            };
            // Attach the value and close containers as far as the text allows.
            let mut finished = value;
            loop {
                let Some(frame) = stack.last_mut() else {
                    return match finished {
                        Some(v) => Ok((v, cut)),
                        None => Err(self.error("no value")),
                    };
                };
                if cut {
                    // The text ended: close every open container with what it holds.
                    match frame {
                        Frame::Arr(items) => {
                            if let Some(v) = finished.take() {
                                items.push(v);
                            }
                        }
                        Frame::Obj(entries, key) => {
                            // A key whose value never started is dropped (rule 15).
                            if let (Some(k), Some(v)) = (key.take(), finished.take()) {
                                entries.push((k, v));
                            }
                        }
                    }
                    let closed = match stack.pop() {
                        Some(Frame::Arr(items)) => Value::Arr {
                            items,
                            closed: false,
                        },
                        Some(Frame::Obj(entries, _)) => Value::Obj {
                            entries,
                            closed: false,
                        },
                        None => unreachable!(),
                    };
                    self.pop_path();
                    finished = Some(closed);
                    continue;
                }
                match frame {
                    Frame::Arr(items) => {
                        items.push(finished.take().expect("a value before the separator"));
                        self.pop_path();
                        self.skip_space();
                        match self.peek() {
                            Some(b',') => {
                                self.pos += 1;
                                self.skip_space();
                                if self.peek() == Some(b']') {
                                    self.fix(FixKind::TrailingCommaRemoved, ",");
                                    self.pos += 1;
                                } else {
                                    let n = items.len();
                                    self.push_index(n);
                                    break;
                                }
                            }
                            Some(b']') => self.pos += 1,
                            None => {
                                cut = true;
                                continue;
                            }
                            _ => return Err(self.error("expected `,` or `]`")),
                        }
                        let Some(Frame::Arr(items)) = stack.pop() else {
                            unreachable!()
                        };
                        finished = Some(Value::Arr {
                            items,
                            closed: true,
                        });
                    }
                    Frame::Obj(entries, key) => {
                        let k = key.take().expect("a key before the value");
                        entries.push((k, finished.take().expect("a value")));
                        self.pop_path();
                        self.skip_space();
                        match self.peek() {
                            Some(b',') => {
                                self.pos += 1;
                                match self.key(&mut stack)? {
                                    KeyStep::Key => break,
                                    KeyStep::Closed(v) => {
                                        finished = Some(v);
                                    }
                                    KeyStep::Cut => {
                                        cut = true;
                                    }
                                }
                            }
                            Some(b'}') => {
                                self.pos += 1;
                                let Some(Frame::Obj(entries, _)) = stack.pop() else {
                                    unreachable!()
                                };
                                finished = Some(Value::Obj {
                                    entries,
                                    closed: true,
                                });
                            }
                            None => cut = true,
                            _ => return Err(self.error("expected `,` or `}`")),
                        }
                    }
                }
            }
        }
    }

    /// After `{` or `,` in an object: reads the next key and its `:`, or the closing `}`.
    fn key(&mut self, stack: &mut Vec<Frame<'a>>) -> Result<KeyStep<'a>, ScanError> {
        self.skip_space();
        let after_comma =
            matches!(stack.last(), Some(Frame::Obj(entries, _)) if !entries.is_empty());
        match self.peek() {
            None => return Ok(KeyStep::Cut),
            Some(b'}') => {
                if after_comma {
                    self.fix(FixKind::TrailingCommaRemoved, ",");
                }
                self.pos += 1;
                let Some(Frame::Obj(entries, _)) = stack.pop() else {
                    unreachable!()
                };
                return Ok(KeyStep::Closed(Value::Obj {
                    entries,
                    closed: true,
                }));
            }
            _ => {}
        }
        let key = if self.quote_at().is_some() {
            let (text, complete) = self.string(false)?;
            if !complete {
                return Ok(KeyStep::Cut); // a key cut mid-way is dropped (rule 15)
            }
            text
        } else {
            let start = self.pos;
            while self.peek().is_some_and(is_word_byte) {
                self.pos += 1;
            }
            if self.pos == start {
                return Err(self.error("expected a key"));
            }
            // A key of several words (`Some key: "v"`) runs to the `:` (rule 20).
            self.more_words();
            if self.at_end() {
                return Ok(KeyStep::Cut);
            }
            let word: &'a str = &self.text[start..self.pos];
            self.fix(FixKind::UnquotedKey, word.to_string());
            Cow::Borrowed(word)
        };
        self.skip_space();
        match self.peek() {
            Some(b':') => self.pos += 1,
            None => return Ok(KeyStep::Cut),
            _ => return Err(self.error("expected `:`")),
        }
        self.skip_space();
        if self.at_end() {
            return Ok(KeyStep::Cut); // the value has not started (rule 15)
        }
        self.push_path(key.clone());
        if let Some(Frame::Obj(_, slot)) = stack.last_mut() {
            *slot = Some(key);
        }
        Ok(KeyStep::Key)
    }

    /// The quote character at the position, if any: `"`, `'`, or a curly quote.
    fn quote_at(&self) -> Option<char> {
        let c = self.rest().chars().next()?;
        matches!(
            c,
            '"' | '\'' | '\u{201C}' | '\u{201D}' | '\u{2018}' | '\u{2019}'
        )
        .then_some(c)
    }

    /// A scalar: string, number, literal or unquoted word. The bool is true when the text
    /// ended inside it.
    /// `top`: the scalar is the whole value (no container open).
    /// `in_object`: the scalar is an object's value (where `1,250` cannot be two values).
    fn scalar(&mut self, top: bool, in_object: bool) -> Result<(Value<'a>, bool), ScanError> {
        if self.quote_at().is_some() {
            let (text, complete) = self.string(top)?;
            return Ok((Value::Str { text, complete }, !complete));
        }
        let start = self.pos;
        while self.peek().is_some_and(is_word_byte) {
            self.pos += 1;
        }
        if self.pos == start {
            return Err(self.error("unexpected character"));
        }
        if in_object && self.thousands(start) {
            // `-2,000.00` as an object's value: one number written with separators (rule 19),
            // read as a string the aligner turns into the number (`string_to_number`).
            let written: &'a str = &self.text[start..self.pos];
            self.fix(
                FixKind::NumberRepaired,
                format!("thousands separators in {written}"),
            );
            return Ok((
                Value::Str {
                    text: Cow::Borrowed(written),
                    complete: true,
                },
                false,
            ));
        }
        let first_word = self.pos;
        if !top
            && literal(&self.text[start..self.pos]).is_none()
            && !is_number(&self.text[start..self.pos])
        {
            // An unquoted value of several words (`status: in progress`) runs to the next `,`
            // `}` `]` or line end (rule 20).
            self.more_words();
        }
        let word: &'a str = &self.text[start..self.pos];
        let at_end = self.at_end();
        if self.pos > first_word {
            self.fix(FixKind::UnquotedValue, word.to_string());
            return Ok((
                Value::Str {
                    text: Cow::Borrowed(word),
                    complete: !at_end,
                },
                at_end,
            ));
        }
        if let Some(v) = literal(word) {
            if word != "true" && word != "false" && word != "null" {
                self.fix(FixKind::PythonLiteral, word.to_string());
            }
            return Ok((v, false));
        }
        if is_number(word) {
            if has_bare_point(word) {
                self.fix(FixKind::NumberRepaired, word.to_string());
            }
            return Ok((
                Value::Num {
                    text: word,
                    complete: !at_end,
                },
                at_end,
            ));
        }
        if at_end
            && ["true", "false", "null", "True", "False", "None"]
                .iter()
                .any(|l| l.starts_with(word))
        {
            return Ok((Value::CutLiteral, true));
        }
        self.fix(FixKind::UnquotedValue, word.to_string());
        Ok((
            Value::Str {
                text: Cow::Borrowed(word),
                complete: !at_end,
            },
            at_end,
        ))
    }

    /// A quoted string (any quote style). Returns its text and whether it was closed: a slice of
    /// the reply, or a rewritten copy once an escape is decoded.
    /// `top`: the string is the whole value, so a closing fence after its quote ends it.
    fn string(&mut self, top: bool) -> Result<(Cow<'a, str>, bool), ScanError> {
        let text: &'a str = self.text;
        let rest = self.rest();
        for triple in ["\"\"\"", "'''"] {
            if rest.starts_with(triple) {
                self.fix(FixKind::TripleQuotes, triple);
                self.pos += 3;
                let start = self.pos;
                return Ok(match self.rest().find(triple) {
                    Some(i) => {
                        self.pos += i + 3;
                        (Cow::Borrowed(&text[start..start + i]), true)
                    }
                    None => {
                        self.pos = self.bytes.len();
                        (Cow::Borrowed(&text[start..]), false)
                    }
                });
            }
        }
        let open = self.quote_at().expect("called at a quote");
        let single = matches!(open, '\'' | '\u{2018}' | '\u{2019}');
        match open {
            '"' => {}
            '\'' => self.fix(FixKind::SingleQuotes, "'"),
            _ => self.fix(FixKind::CurlyQuotes, open.to_string()),
        }
        self.pos += open.len_utf8();
        let start = self.pos;
        // The content is `text[start..]` up to where it ends while every character is kept as
        // written; the first decoded escape copies it into `owned`, which grows from then on.
        let mut owned: Option<String> = None;
        let content = |owned: Option<String>, end: usize| match owned {
            Some(o) => Cow::Owned(o),
            None => Cow::Borrowed(&text[start..end]),
        };
        // A character kept as written (`pos` not yet past it).
        let keep = |owned: &mut Option<String>, piece: &str| {
            if let Some(o) = owned {
                o.push_str(piece);
            }
        };
        // Each kind of repair is reported once per string, not once per character.
        let mut reported: Vec<FixKind> = Vec::new();
        let mut once = |this: &mut Self, kind: FixKind, detail: String| {
            if !reported.contains(&kind) {
                reported.push(kind);
                this.fix(kind, detail);
            }
        };
        loop {
            // Take the run of ordinary characters in one step: only quotes (straight, or curly,
            // whose UTF-8 starts with 0xE2), backslashes and raw control characters need a look.
            let run = self.bytes[self.pos..]
                .iter()
                .position(|&b| matches!(b, b'"' | b'\'' | b'\\' | b'\n' | b'\r' | b'\t' | 0xE2))
                .unwrap_or(self.bytes.len() - self.pos);
            if run > 0 {
                keep(&mut owned, &text[self.pos..self.pos + run]);
                self.pos += run;
            }
            let Some(c) = self.rest().chars().next() else {
                return Ok((content(owned, self.pos), false));
            };
            let here = &text[self.pos..self.pos + c.len_utf8()];
            let closes = if single {
                matches!(c, '\'' | '\u{2018}' | '\u{2019}')
            } else {
                matches!(c, '"' | '\u{201C}' | '\u{201D}')
            };
            if closes {
                let after = self.pos + c.len_utf8();
                let next = text[after..]
                    .trim_start_matches([' ', '\t', '\r', '\n'])
                    .chars()
                    .next();
                let is_content = if single {
                    // `'O'Brien'`: a quote followed by a letter is content.
                    next.is_some_and(char::is_alphabetic)
                        && !text[after..].starts_with(char::is_whitespace)
                } else {
                    // `"He said "hi" to me"`: a quote not followed by structure is content.
                    // A comment after the string (`"eu-west" /* default */`) counts as
                    // structure: the comment is skipped like whitespace. So does the fence
                    // that closes a fenced string that is the whole value (`"AB"` then ```).
                    let rest = text[after..].trim_start_matches([' ', '\t', '\r', '\n']);
                    let structure = matches!(next, None | Some(',' | '}' | ']' | ':'))
                        || rest.starts_with("//")
                        || rest.starts_with("/*")
                        || top && rest.starts_with("```");
                    !structure
                };
                if is_content {
                    once(self, FixKind::InnerQuoteKept, c.to_string());
                    keep(&mut owned, here);
                    self.pos = after;
                    continue;
                }
                if c != '"' && c != '\'' {
                    once(self, FixKind::CurlyQuotes, c.to_string());
                }
                let end = self.pos;
                self.pos = after;
                return Ok((content(owned, end), true));
            }
            match c {
                '\\' => {
                    let Some(e) = text[self.pos + 1..].chars().next() else {
                        let end = self.pos;
                        self.pos = self.bytes.len();
                        // an escape cut mid-way is dropped (rule 14)
                        return Ok((content(owned, end), false));
                    };
                    let mapped = match e {
                        '"' => Some('"'),
                        '\\' => Some('\\'),
                        '/' => Some('/'),
                        'b' => Some('\u{8}'),
                        'f' => Some('\u{c}'),
                        'n' => Some('\n'),
                        'r' => Some('\r'),
                        't' => Some('\t'),
                        '\'' => Some('\''),
                        _ => None,
                    };
                    if let Some(m) = mapped {
                        let at = self.pos;
                        owned
                            .get_or_insert_with(|| text[start..at].to_string())
                            .push(m);
                        self.pos += 1 + e.len_utf8();
                    } else if e == 'u' {
                        let digits = &text[self.pos + 2..];
                        let hex: String = digits.chars().take(4).collect();
                        if hex.len() < 4
                            && digits.len() == hex.len()
                            && hex.chars().all(|h| h.is_ascii_hexdigit())
                        {
                            let end = self.pos;
                            self.pos = self.bytes.len();
                            return Ok((content(owned, end), false)); // `\u00` at the cut is dropped
                        }
                        match u32::from_str_radix(&hex, 16) {
                            Ok(code) if hex.len() == 4 => {
                                let at = self.pos;
                                self.pos += 6;
                                let decoded = self.unicode(code);
                                owned
                                    .get_or_insert_with(|| text[start..at].to_string())
                                    .push(decoded);
                            }
                            _ => {
                                once(self, FixKind::InvalidEscapeKept, "\\u".into());
                                keep(&mut owned, here);
                                self.pos += 1;
                            }
                        }
                    } else {
                        // `"\d+"`, `"C:\Users"`: the backslash stays.
                        once(self, FixKind::InvalidEscapeKept, format!("\\{e}"));
                        keep(&mut owned, here);
                        self.pos += 1;
                    }
                }
                '\n' | '\r' | '\t' => {
                    once(self, FixKind::RawControlCharacter, format!("{:?}", c));
                    keep(&mut owned, here);
                    self.pos += 1;
                }
                _ => {
                    keep(&mut owned, here);
                    self.pos += c.len_utf8();
                }
            }
        }
    }

    /// Completes a `\uXXXX` escape, joining a surrogate pair when the low half follows.
    fn unicode(&mut self, high: u32) -> char {
        if (0xD800..0xDC00).contains(&high) && self.rest().starts_with("\\u") {
            if let Some(low) = self
                .text
                .get(self.pos + 2..self.pos + 6)
                .and_then(|h| u32::from_str_radix(h, 16).ok())
            {
                if (0xDC00..0xE000).contains(&low) {
                    self.pos += 6;
                    return char::from_u32(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
                        .unwrap_or('\u{FFFD}');
                }
            }
        }
        char::from_u32(high).unwrap_or('\u{FFFD}')
    }
}

enum KeyStep<'a> {
    /// A key and `:` were read; its value comes next.
    Key,
    /// The object closed.
    Closed(Value<'a>),
    /// The text ended before a value could start.
    Cut,
}

fn literal(word: &str) -> Option<Value<'static>> {
    Some(match word {
        "true" | "True" => Value::Bool(true),
        "false" | "False" => Value::Bool(false),
        "null" | "None" => Value::Null,
        _ => return None,
    })
}

/// A number as models write it: JSON's, optionally with a leading `+`, and with digits on only
/// one side of the decimal point (`.5`, `-.25`, `5.`).
pub fn is_number(word: &str) -> bool {
    let b = word.strip_prefix(['-', '+']).unwrap_or(word).as_bytes();
    let mut i = 0;
    let digits = |i: &mut usize| {
        let s = *i;
        while *i < b.len() && b[*i].is_ascii_digit() {
            *i += 1;
        }
        *i > s
    };
    let whole = digits(&mut i);
    let mut fraction = false;
    if i < b.len() && b[i] == b'.' {
        i += 1;
        fraction = digits(&mut i);
    }
    // `.5` and `5.` are numbers (what the model meant); `.` alone is not.
    if !whole && !fraction {
        return false;
    }
    if i < b.len() && (b[i] == b'e' || b[i] == b'E') {
        i += 1;
        if i < b.len() && (b[i] == b'+' || b[i] == b'-') {
            i += 1;
        }
        if !digits(&mut i) {
            return false;
        }
    }
    i == b.len()
}

/// A number whose decimal point has digits on one side only (`.5`, `5.`, `-.25e2`).
pub fn has_bare_point(word: &str) -> bool {
    let b = word.as_bytes();
    b.iter().enumerate().any(|(i, &c)| {
        c == b'.'
            && (i == 0
                || !b[i - 1].is_ascii_digit()
                || !b.get(i + 1).is_some_and(u8::is_ascii_digit))
    })
}
