//! Redaction: what a cassette never writes, and what it must keep.
//!
//! A cassette is meant for version control, so credentials never reach it; and it replays
//! what the model said, so nothing else is changed. Four rules find credentials, each tested
//! here:
//! - **names** ([`names`]): the value under a credential name (`password`, `api_key`,
//!   `clientSecret`, `Authorization`, `x-api-key`, …; whole words, so `secretary`,
//!   `token_type` and `keyword` are not), in JSON values and in texts;
//! - **texts** ([`text`]): such a name and its value written inside a string: JSON or a dict
//!   in tool arguments and outputs, `.env` and shell lines, YAML and header lines, flags, URL
//!   parameters; only the value's span is replaced;
//! - **formats** ([`rules`]): credentials of known shapes wherever they stand (`sk-proj-…`,
//!   `ghp_…`, JWTs, PEM keys, passwords in URLs, …), anchored at word boundaries;
//! - **everywhere else**: a value one of the rules above took out (of at least
//!   [`MIN_PROPAGATED`] characters) is taken out wherever else it stands as a whole word in
//!   the cassette (the password of a connection string, repeated in the assistant's reply).
//!
//! Values the caller allows (`allowSecrets`) are kept by every rule; a value evidently not a
//! secret (`''`, `'Bearer'`, a number, `${API_KEY}`) is kept under any name. The save-time
//! check ([`Redaction::find_leak`]) reads with the same rules.

pub mod host;
pub mod names;
pub mod rules;
pub mod text;

use serde_json::Value;
use std::collections::BTreeSet;
use std::fmt;
use std::rc::Rc;

#[cfg(not(target_arch = "wasm32"))]
pub use host::RegexHost;
pub use host::{Pattern, PatternHost, Replaced};
pub use rules::{Rule, CREDENTIAL_RULES, PII_PATTERNS};

/// What a redacted value becomes.
pub const REDACTED: &str = "[REDACTED]";

/// The shortest value taken out everywhere once a rule took it out: a shorter one (`admin`)
/// would take ordinary words with it.
pub const MIN_PROPAGATED: usize = 8;

/// A redaction pattern that does not compile: where (`/redaction/patterns/1`) and the host's
/// message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InvalidPattern {
    pub pointer: String,
    pub message: String,
}

/// A credential still in a cassette about to be written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Leak {
    /// JSON Pointer of the string in the cassette.
    pub pointer: String,
    /// The rule that found it (`github-token`, `credential-key`, …).
    pub rule: String,
}

/// Values the rules took out, to take out wherever else they stand ([`propagate`]). Never
/// written anywhere.
#[derive(Clone, Debug)]
pub struct Taken {
    values: BTreeSet<String>,
    /// The shortest value kept: [`MIN_PROPAGATED`], or 1 to find every value again in the text
    /// it was taken from ([`Redaction::apply_split`]).
    min: usize,
}

impl Default for Taken {
    fn default() -> Taken {
        Taken {
            values: BTreeSet::new(),
            min: MIN_PROPAGATED,
        }
    }
}

impl Taken {
    fn add(&mut self, value: &str) {
        let v = value.trim();
        if v.chars().count() >= self.min && !names::evidently_not_secret(v) {
            self.values.insert(v.to_owned());
        }
    }

    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    pub fn len(&self) -> usize {
        self.values.len()
    }
}

/// What gets redacted: the built-in rules and the caller's additions.
#[derive(Clone)]
pub struct Redaction {
    /// The caller's key names (stored in the cassette): any value under them is redacted.
    keys: Vec<String>,
    /// `keys` folded (lowercase, no `-` or `_`), as every key of a value is compared.
    folded_keys: Vec<String>,
    /// The caller's own patterns (stored in the cassette; the built-in rules always apply).
    patterns: Vec<String>,
    /// Patterns of values the caller means to keep (`allowSecrets`), stored in the cassette.
    allow: Vec<String>,
    /// The built-in rules, then the caller's patterns.
    compiled: Vec<Pattern>,
    allow_compiled: Vec<Pattern>,
    host: Rc<dyn PatternHost>,
}

impl fmt::Debug for Redaction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Redaction")
            .field("keys", &self.keys)
            .field("patterns", &self.patterns)
            .field("allow", &self.allow)
            .finish_non_exhaustive()
    }
}

/// A key as the caller's key names are compared: lowercase, without `-` and `_`.
pub fn fold_key(k: &str) -> String {
    k.chars()
        .filter(|c| *c != '-' && *c != '_')
        .flat_map(char::to_lowercase)
        .collect()
}

fn compile_all(
    list: &[String],
    pointer: &str,
    host: &dyn PatternHost,
) -> Result<Vec<Pattern>, InvalidPattern> {
    let compiled: Vec<Pattern> = list.iter().map(|p| Pattern::new(p)).collect();
    host.check(&compiled).map_err(|(i, e)| InvalidPattern {
        pointer: format!("{pointer}/{i}"),
        message: format!(
            "Redaction pattern {:?} is not a valid regular expression: {e}",
            list[i]
        ),
    })?;
    Ok(compiled)
}

/// Where a value stands: under a credential name (at any depth below it), or not.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Under {
    Nothing,
    Credential(names::Kind),
}

impl Under {
    /// Where the value under `key` stands, inside a value standing at `self`.
    fn below(self, key: &str) -> Under {
        match names::credential_kind(key, names::Context::Key) {
            Some(kind) => Under::Credential(kind),
            None => self,
        }
    }
}

/// `text` with each range replaced by the marker (ranges in order, not overlapping).
fn splice(text: &str, ranges: &[std::ops::Range<usize>]) -> String {
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for r in ranges {
        out.push_str(&text[at..r.start]);
        out.push_str(REDACTED);
        at = r.end;
    }
    out.push_str(&text[at..]);
    out
}

impl Redaction {
    /// The built-in rules plus extra key names and regular-expression patterns, run by `host`.
    pub fn new(
        extra_keys: &[String],
        extra_patterns: &[String],
        host: Rc<dyn PatternHost>,
    ) -> Result<Redaction, InvalidPattern> {
        Redaction::with_allow(extra_keys, extra_patterns, &[], host)
    }

    /// [`Redaction::new`], keeping values an `allow` pattern finds something in.
    pub fn with_allow(
        extra_keys: &[String],
        extra_patterns: &[String],
        allow: &[String],
        host: Rc<dyn PatternHost>,
    ) -> Result<Redaction, InvalidPattern> {
        let mut keys: Vec<String> = Vec::new();
        for k in extra_keys {
            if !keys.iter().any(|have| fold_key(have) == fold_key(k)) {
                keys.push(k.clone());
            }
        }
        let mut patterns: Vec<String> = Vec::new();
        for p in extra_patterns {
            let built_in = CREDENTIAL_RULES.iter().any(|r| r.pattern == p)
                || rules::LEGACY_STORED_PATTERNS.contains(&p.as_str());
            if !patterns.contains(p) && !built_in {
                patterns.push(p.clone());
            }
        }
        let user = compile_all(extra_patterns, "/redaction/patterns", host.as_ref())?;
        let mut compiled: Vec<Pattern> = CREDENTIAL_RULES
            .iter()
            .map(|r| Pattern {
                keep: r.keep,
                ..Pattern::new(r.pattern)
            })
            .collect();
        compiled.extend(user.into_iter().filter(|p| patterns.contains(&p.text)));
        let allow_compiled = compile_all(allow, "/redaction/allow", host.as_ref())?;
        Ok(Redaction {
            folded_keys: keys.iter().map(|k| fold_key(k)).collect(),
            keys,
            patterns,
            allow: allow.to_vec(),
            compiled,
            allow_compiled,
            host,
        })
    }

    /// The caller's key names.
    pub fn keys(&self) -> &[String] {
        &self.keys
    }

    /// The caller's patterns.
    pub fn patterns(&self) -> &[String] {
        &self.patterns
    }

    pub fn allow(&self) -> &[String] {
        &self.allow
    }

    /// Whether an `allow` pattern keeps `text`.
    fn allowed(&self, text: &str) -> bool {
        !self.allow_compiled.is_empty()
            && self
                .host
                .first_match(&[text], &self.allow_compiled, &[])
                .is_some()
    }

    /// Whether the value under `key` is redacted whole: `key` is one of the caller's, the value
    /// is not null (nor already the marker), and no `allow` pattern keeps it.
    fn redacts_whole(&self, key: &str, value: &Value) -> bool {
        !self.folded_keys.is_empty()
            && !value.is_null()
            && self.folded_keys.contains(&fold_key(key))
            && !matches!(value, Value::String(s) if s == REDACTED || self.allowed(s))
    }

    /// Whether a string standing `under` a credential name is a secret no `allow` pattern keeps.
    fn secret_under(&self, under: Under, s: &str) -> bool {
        matches!(under, Under::Credential(kind) if names::is_secret_value(kind, s) && !self.allowed(s))
    }

    /// Redacts in place and adds what it took out to `taken`. Iterative, so depth is bounded
    /// by memory; the strings go to the pattern host in one call.
    pub fn apply(&self, value: &mut Value, taken: &mut Taken) {
        let mut strings: Vec<&mut String> = Vec::new();
        let mut stack: Vec<(&mut Value, Under)> = vec![(value, Under::Nothing)];
        while let Some((v, under)) = stack.pop() {
            match v {
                Value::String(s) if self.secret_under(under, s) => {
                    taken.add(s);
                    *s = REDACTED.to_owned();
                }
                Value::String(s) => strings.push(s),
                Value::Array(items) => stack.extend(items.iter_mut().map(|i| (i, under))),
                Value::Object(map) => {
                    for (k, child) in map.iter_mut() {
                        if self.redacts_whole(k, child) {
                            if let Value::String(s) = &*child {
                                taken.add(s);
                            }
                            *child = Value::String(REDACTED.to_owned());
                        } else {
                            stack.push((child, under.below(k)));
                        }
                    }
                }
                _ => {}
            }
        }
        // Names and values written inside the texts.
        for s in strings.iter_mut() {
            let found: Vec<std::ops::Range<usize>> = text::find(s)
                .into_iter()
                .map(|f| f.range)
                .filter(|r| !self.allowed(&s[r.clone()]))
                .collect();
            if !found.is_empty() {
                for r in &found {
                    taken.add(&s[r.clone()]);
                }
                **s = splice(s, &found);
            }
        }
        if strings.is_empty() || self.compiled.is_empty() {
            return;
        }
        let texts: Vec<&str> = strings.iter().map(|s| s.as_str()).collect();
        let replaced =
            self.host
                .replace_all(&texts, &self.compiled, REDACTED, &self.allow_compiled);
        for (s, r) in strings.into_iter().zip(replaced) {
            if let Some(r) = r {
                for t in &r.taken {
                    taken.add(t);
                }
                *s = r.text;
            }
        }
    }

    /// Redacts a text written in pieces (a stream's deltas) as one text, and keeps the pieces:
    /// each piece keeps its own part, a value taken out becomes one marker in the piece where
    /// it began, and the pieces it ran on into lose their part of it. So a credential split
    /// across deltas is found, and the pieces still join into the redacted text.
    pub fn apply_split(&self, pieces: &mut [&mut String], taken: &mut Taken) {
        if pieces.len() < 2 {
            return;
        }
        let joined: String = pieces.iter().map(|p| p.as_str()).collect();
        let mut whole = Value::String(joined.clone());
        let mut local = Taken {
            values: BTreeSet::new(),
            min: 1,
        };
        self.apply(&mut whole, &mut local);
        if whole.as_str() == Some(joined.as_str()) {
            return;
        }
        // Where the values taken out stand in the joined text, longest first, not overlapping.
        let mut values: Vec<&String> = local.values.iter().collect();
        values.sort_by_key(|v| std::cmp::Reverse(v.len()));
        let mut ranges: Vec<std::ops::Range<usize>> = Vec::new();
        for v in values {
            for (at, _) in joined.match_indices(v.as_str()) {
                let r = at..at + v.len();
                if !ranges.iter().any(|x| x.start < r.end && r.start < x.end) {
                    ranges.push(r);
                }
            }
            taken.add(v);
        }
        ranges.sort_by_key(|r| r.start);
        // Each piece's span in the joined text, then its part of the redacted text.
        let mut start = 0;
        let spans: Vec<std::ops::Range<usize>> = pieces
            .iter()
            .map(|p| {
                let span = start..start + p.len();
                start = span.end;
                span
            })
            .collect();
        for (piece, span) in pieces.iter_mut().zip(spans) {
            let mut out = String::new();
            let mut at = span.start;
            for r in ranges
                .iter()
                .filter(|r| r.end > span.start && r.start < span.end)
            {
                if r.start >= at {
                    out.push_str(&joined[at..r.start]);
                    out.push_str(REDACTED);
                }
                at = r.end.min(span.end).max(at);
            }
            if at < span.end {
                out.push_str(&joined[at..span.end]);
            }
            **piece = out;
        }
    }

    /// The last check before a cassette is written: the first string of `value` (at `base`)
    /// that still holds a credential by the built-in rules (names, texts, formats) or the
    /// caller's keys, that no `allow` pattern keeps.
    pub fn find_leak(&self, value: &Value, base: &str) -> Option<Leak> {
        let mut strings: Vec<(String, &str)> = Vec::new();
        let mut stack: Vec<(String, &Value, Under)> =
            vec![(base.to_owned(), value, Under::Nothing)];
        let leak = |pointer: String, rule: &str| {
            Some(Leak {
                pointer,
                rule: rule.to_owned(),
            })
        };
        while let Some((pointer, v, under)) = stack.pop() {
            match v {
                Value::String(s) if s != REDACTED => {
                    if self.secret_under(under, s) {
                        return leak(pointer, text::QUOTED_RULE);
                    }
                    if let Some(f) = text::find(s)
                        .into_iter()
                        .find(|f| !self.allowed(&s[f.range.clone()]))
                    {
                        return leak(pointer, f.rule);
                    }
                    strings.push((pointer, s));
                }
                Value::Array(items) => {
                    for (i, item) in items.iter().enumerate().rev() {
                        stack.push((format!("{pointer}/{i}"), item, under));
                    }
                }
                Value::Object(map) => {
                    for (k, child) in map.iter().rev() {
                        let mut at = pointer.clone();
                        crate::schema::json::push_token(&mut at, k);
                        if self.redacts_whole(k, child) {
                            return leak(at, text::QUOTED_RULE);
                        }
                        stack.push((at, child, under.below(k)));
                    }
                }
                _ => {}
            }
        }
        let rules = &self.compiled[..CREDENTIAL_RULES.len()];
        let texts: Vec<&str> = strings.iter().map(|(_, s)| *s).collect();
        // A match that holds the marker is one redaction already took care of (a URL keeps its
        // user and host around `[REDACTED]`).
        let mut allow = self.allow_compiled.clone();
        allow.push(Pattern::new(r"\[REDACTED\]"));
        let (t, r) = self.host.first_match(&texts, rules, &allow)?;
        leak(strings[t].0.clone(), CREDENTIAL_RULES[r].name)
    }

    /// The settings a cassette stores: only what the caller added.
    pub fn to_json(&self) -> Value {
        serde_json::json!({ "keys": self.keys, "patterns": self.patterns, "allow": self.allow })
    }
}

fn is_word_byte(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

/// `text` with every whole-word occurrence of `secret` replaced by the marker; `None` when
/// there is none. A word: not led or followed by a letter, a digit or `_` where the secret
/// itself begins or ends with one.
fn replace_word(text: &str, secret: &str) -> Option<String> {
    let b = text.as_bytes();
    let s = secret.as_bytes();
    let check_start = is_word_byte(s[0]);
    let check_end = is_word_byte(s[s.len() - 1]);
    let mut out: Option<String> = None;
    let mut copied = 0;
    let mut from = 0;
    while let Some(n) = text[from..].find(secret) {
        let at = from + n;
        let end = at + s.len();
        let bounded = (!check_start || at == 0 || !is_word_byte(b[at - 1]))
            && (!check_end || end == b.len() || !is_word_byte(b[end]));
        if bounded {
            let o = out.get_or_insert_with(|| String::with_capacity(text.len()));
            o.push_str(&text[copied..at]);
            o.push_str(REDACTED);
            copied = end;
            from = end;
        } else {
            from = at + text[at..].chars().next().map_or(1, char::len_utf8);
        }
    }
    out.map(|mut o| {
        o.push_str(&text[copied..]);
        o
    })
}

/// Takes every value of `taken` out of every string of each of `values`, wherever it stands as
/// a whole word (also as it is written inside a JSON string, escaped). Which of `values`
/// changed.
pub fn propagate(values: &mut [Value], taken: &Taken) -> Vec<bool> {
    if taken.is_empty() {
        return vec![false; values.len()];
    }
    // Longest first, so a value that holds another is taken whole.
    let mut secrets: Vec<String> = Vec::new();
    for t in &taken.values {
        secrets.push(t.clone());
        if let Ok(escaped) = serde_json::to_string(t) {
            let inner = &escaped[1..escaped.len() - 1];
            if inner != t {
                secrets.push(inner.to_owned());
            }
        }
    }
    secrets.sort_by_key(|s| std::cmp::Reverse(s.len()));
    values
        .iter_mut()
        .map(|value| {
            let mut changed = false;
            let mut stack: Vec<&mut Value> = vec![value];
            while let Some(v) = stack.pop() {
                match v {
                    Value::String(s) => {
                        for secret in &secrets {
                            if let Some(r) = replace_word(s, secret) {
                                *s = r;
                                changed = true;
                            }
                        }
                    }
                    Value::Array(items) => stack.extend(items.iter_mut()),
                    Value::Object(map) => stack.extend(map.values_mut()),
                    _ => {}
                }
            }
            changed
        })
        .collect()
}

/// Whether a recorded string that holds markers stands for `live`: each marker matches some
/// text (at least one character), the rest is equal. So a recorded request matches the live
/// one although the live one carries, in plain text, a value that redaction learned elsewhere.
fn text_matches(recorded: &str, live: &str) -> bool {
    let mut pieces = recorded.split(REDACTED);
    let first = pieces.next().unwrap_or("");
    let Some(mut rest) = live.strip_prefix(first) else {
        return false;
    };
    let pieces: Vec<&str> = pieces.collect();
    let Some((last, middle)) = pieces.split_last() else {
        return rest.is_empty();
    };
    for piece in middle {
        // At least one character for the marker before the piece.
        let skip = rest.chars().next().map_or(usize::MAX, char::len_utf8);
        let Some(found) = rest.get(skip..).and_then(|r| r.find(piece)) else {
            return false;
        };
        rest = &rest[skip + found + piece.len()..];
    }
    rest.len() > last.len() && rest.ends_with(last) && {
        let cut = rest.len() - last.len();
        rest.is_char_boundary(cut)
    }
}

/// Whether a recorded (normalized) value equals a live one, a recorded string with markers
/// matching when each marker stands for some text (at least one character) and the rest is
/// equal.
pub fn matches_redacted(recorded: &Value, live: &Value) -> bool {
    let mut stack: Vec<(&Value, &Value)> = vec![(recorded, live)];
    while let Some((a, b)) = stack.pop() {
        match (a, b) {
            (Value::String(x), Value::String(y)) => {
                if x != y && !(x.contains(REDACTED) && text_matches(x, y)) {
                    return false;
                }
            }
            (Value::Array(x), Value::Array(y)) => {
                if x.len() != y.len() {
                    return false;
                }
                stack.extend(x.iter().zip(y));
            }
            (Value::Object(x), Value::Object(y)) => {
                if x.len() != y.len() {
                    return false;
                }
                for (k, xv) in x {
                    match y.get(k) {
                        Some(yv) => stack.push((xv, yv)),
                        None => return false,
                    }
                }
            }
            (x, y) => {
                if x != y {
                    return false;
                }
            }
        }
    }
    true
}

#[cfg(test)]
pub(crate) mod tests;
