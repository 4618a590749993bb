//! Cassettes: recorded model runs that `ScriptedModel` replays.
//!
//! A cassette is a versioned JSON document:
//!
//! ```json
//! { "format": "understudy-cassette", "version": 1,
//!   "redaction": { "keys": [...], "patterns": [...] },
//!   "steps": [ { "streamed": false, "hash": "…", "request": {…}, "response": {…} },
//!              { "streamed": true, "hash": "…", "request": {…}, "response": {…}, "events": [...] },
//!              { "streamed": false, "hash": "…", "request": {…}, "error": { "name": "…", "message": "…" } } ] }
//! ```
//!
//! Requests are *normalized* before they are stored or hashed: runtime-only members (`signal`,
//! `tracing`, the SDK's `_internal`) and values JSON cannot carry (functions, `undefined`, …) are dropped, object keys
//! are sorted, and secrets are redacted (key names such as `authorization` or `api_key`, and
//! string parts matching `sk-…`, `Bearer …` or the cassette's own patterns). Responses and
//! events are redacted the same way. The hash is FNV-1a (64-bit) of the canonical JSON of the
//! normalized request: a fingerprint for matching, not a security measure.

use serde_json::{Map, Value};
use std::fmt;
use std::rc::Rc;

pub const FORMAT: &str = "understudy-cassette";
pub const VERSION: u64 = 1;
pub const REDACTED: &str = "[REDACTED]";

/// Request members that describe the run, not the request, and never take part in matching
/// (`_internal` is the SDK's private bookkeeping, including the tracing parent span).
const RUNTIME_KEYS: [&str; 3] = ["signal", "tracing", "_internal"];

/// Key names whose values are always redacted, whatever the value (compared with case and
/// `-`/`_` ignored).
pub const DEFAULT_SECRET_KEYS: [&str; 20] = [
    "authorization",
    "proxy-authorization",
    "api-key",
    "apikey",
    "x-api-key",
    "openai-api-key",
    "client-secret",
    "secret",
    "password",
    "passwd",
    "access-token",
    "refresh-token",
    "id-token",
    "session-token",
    "auth-token",
    "api-token",
    "cookie",
    "set-cookie",
    "private-key",
    "x-goog-api-key",
];

/// Whether a key looks like it holds a credential beyond [`DEFAULT_SECRET_KEYS`] (its string
/// value is redacted): `*token*` (not counts such as `max_tokens`, not `tokenizer`),
/// `*secret*`, `*password*`, `*passwd*`, `*private-key*`, `*api-key*`, and `x-*-key` headers.
/// `folded`: lowercase, without `-` and `_`.
fn credential_like_key(folded: &str) -> bool {
    (folded.contains("token") && !folded.ends_with("tokens") && !folded.contains("tokeniz"))
        || folded.contains("secret")
        || folded.contains("password")
        || folded.contains("passwd")
        || folded.contains("privatekey")
        || folded.ends_with("apikey")
        || (folded.starts_with('x') && folded.ends_with("key") && folded.len() > 4)
}

/// A built-in credential format: redacted wherever it occurs in a string, and refused at save
/// time if it is still there. Written in the syntax both JavaScript's `RegExp` and the `regex`
/// crate read (no lookaround); `keep`: the texts of groups 1 and 2 stay around the marker
/// (`https://user:[REDACTED]@host`, `?token=[REDACTED]`). Formats as well-kept scanners
/// (gitleaks, secretlint) define them, kept to the prefixes that make them unambiguous.
pub struct Rule {
    pub name: &'static str,
    pub pattern: &'static str,
    pub keep: bool,
}

/// The built-in credential rules, in the order they run.
pub const CREDENTIAL_RULES: &[Rule] = &[
    Rule {
        name: "private-key",
        pattern: r"-----BEGIN[ A-Z0-9]*PRIVATE KEY-----[\s\S]*?-----END[ A-Z0-9]*PRIVATE KEY-----",
        keep: false,
    },
    Rule {
        name: "openai-or-anthropic-key",
        pattern: r"sk-[A-Za-z0-9_\-]{8,}",
        keep: false,
    },
    Rule {
        name: "bearer",
        pattern: r"(?i)bearer\s+[A-Za-z0-9._~+/=\-]+",
        keep: false,
    },
    Rule {
        name: "github-token",
        pattern: r"\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{30,})",
        keep: false,
    },
    Rule {
        name: "gitlab-token",
        pattern: r"\bgl(?:pat|ptt|dt|rt|oas|cbt|soat|ffct|imt|agent)-[A-Za-z0-9_\-]{20,}",
        keep: false,
    },
    Rule {
        name: "aws-access-key",
        pattern: r"\b(?:AKIA|ASIA|ABIA|ACCA|A3T[A-Z0-9])[A-Z0-9]{16}\b",
        keep: false,
    },
    Rule {
        name: "aws-secret-key",
        pattern: r#"(?i)(aws.{0,20}?secret.{0,20}?["']?\s*[:=]\s*["']?)[A-Za-z0-9/+=]{40}()"#,
        keep: true,
    },
    Rule {
        name: "google-api-key",
        pattern: r"\bAIza[0-9A-Za-z_\-]{35}",
        keep: false,
    },
    Rule {
        name: "slack-token",
        pattern: r"\bxox[abposre]-[A-Za-z0-9\-]{10,}",
        keep: false,
    },
    Rule {
        name: "slack-webhook",
        pattern: r"https://hooks\.slack\.com/services/[A-Za-z0-9_/]+",
        keep: false,
    },
    Rule {
        name: "stripe-key",
        pattern: r"\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{10,}",
        keep: false,
    },
    Rule {
        name: "twilio-key",
        pattern: r"\bSK[0-9a-fA-F]{32}\b",
        keep: false,
    },
    Rule {
        name: "sendgrid-key",
        pattern: r"\bSG\.[A-Za-z0-9_\-]{16,}\.[A-Za-z0-9_\-]{16,}",
        keep: false,
    },
    Rule {
        name: "npm-token",
        pattern: r"\bnpm_[A-Za-z0-9]{36}\b",
        keep: false,
    },
    Rule {
        name: "jwt",
        pattern: r"\beyJ[A-Za-z0-9_\-]{8,}\.eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}",
        keep: false,
    },
    Rule {
        name: "url-password",
        pattern: r#"([A-Za-z][A-Za-z0-9+.\-]*://[^\s/@:"'<>]+:)[^\s/@"'<>]+(@)"#,
        keep: true,
    },
    Rule {
        name: "url-secret-parameter",
        pattern: r#"(?i)([?&;][A-Za-z0-9_.\-]*(?:token|key|secret|signature|sig|password|passwd|pwd|auth|credential)[A-Za-z0-9_.\-]*=)[^&#;\s"'<>]+()"#,
        keep: true,
    },
];

/// The `redact: 'pii'` preset: email addresses, phone numbers (an international `+` form, or
/// ten digits grouped 3-3-4) and payment card numbers (13 to 19 digits, optionally grouped by
/// spaces or dashes). Stored in the cassette like any pattern, so replay redacts the live
/// request the same way before matching.
pub const PII_PATTERNS: [&str; 4] = [
    r"[A-Za-z0-9._%+\-]+@[A-Za-z0-9\-]+(?:\.[A-Za-z0-9\-]+)*\.[A-Za-z]{2,}",
    r"\+\d{1,3}(?:[ .\-]?\(?\d{1,4}\)?){2,5}\d",
    r"\(?\b\d{3}\)?[ .\-]\d{3}[ .\-]\d{4}\b",
    r"\b(?:\d[ \-]?){12,18}\d\b",
];

/// The key of the facade's tagged encoding (`crate::schema::json::TAG_KEY`): a value JSON cannot carry.
const TAG_KEY: &str = "\u{0}understudy";

crate::codes! {
    /// `InvalidCassetteError.reason`.
    pub enum CassetteReason {
        /// Not a cassette this version reads (shape, members, values).
        InvalidCassette = "invalid_cassette",
        UnsupportedVersion = "unsupported_version",
        /// A redaction pattern that does not compile.
        InvalidPattern = "invalid_pattern",
        /// Replay found no cassette where it should be.
        Missing = "missing",
        /// A value that still looks like a credential at save time.
        Credential = "credential",
    }
}

/// Why a cassette or a recording option is refused (`InvalidCassetteError`).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(
    test,
    derive(ts_rs::TS),
    ts(rename = "InvalidCassetteErrorFields", optional_fields)
)]
pub struct CassetteError {
    #[cfg_attr(test, ts(type = "InvalidCassetteReason"))]
    pub reason: CassetteReason,
    /// JSON Pointer into the cassette (or the options) of the offending member.
    pub pointer: String,
    /// The message (`Display`); it crosses once, as the error's own.
    #[serde(skip)]
    pub message: String,
}

impl fmt::Display for CassetteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

fn invalid(pointer: &str, what: &str) -> CassetteError {
    CassetteError {
        reason: CassetteReason::InvalidCassette,
        pointer: pointer.to_owned(),
        message: format!(
            "Invalid cassette: {what} at {}.",
            if pointer.is_empty() {
                "the root"
            } else {
                pointer
            }
        ),
    }
}

/// A redaction pattern as stored in a cassette: regular-expression source text, optionally led
/// by inline flags out of `i`, `m`, `s`, `u` (`(?i)`, `(?is)`, …), which is how a JavaScript
/// `RegExp`'s flags are written into the cassette. Any other leading group is part of the
/// expression (so `(?y)` is refused as an invalid pattern, not dropped).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pattern {
    /// The text as written (stored in the cassette).
    pub text: String,
    /// The expression without its leading flags.
    pub source: String,
    /// The leading flags, out of `imsu`, in the order written.
    pub flags: String,
    /// Groups 1 and 2 stay around the marker (built-in rules only).
    pub keep: bool,
}

impl Pattern {
    pub fn new(text: &str) -> Pattern {
        let flags_end = text.strip_prefix("(?").and_then(|rest| {
            let n = rest.find(')')?;
            let flags = &rest[..n];
            (!flags.is_empty() && flags.chars().all(|c| matches!(c, 'i' | 'm' | 's' | 'u')))
                .then_some(flags.len())
        });
        match flags_end {
            Some(n) => Pattern {
                text: text.to_owned(),
                flags: text[2..2 + n].to_owned(),
                source: text[3 + n..].to_owned(),
                keep: false,
            },
            None => Pattern {
                text: text.to_owned(),
                flags: String::new(),
                source: text.to_owned(),
                keep: false,
            },
        }
    }
}

/// Runs redaction patterns. The engine decides which strings are redacted and with which
/// patterns; the host runs the regular expressions: natively the `regex` crate
/// ([`RegexHost`]), in the wasm module the JavaScript host's `RegExp` (so the engine carries no
/// regex engine, and a user's `RegExp` means what it means in JavaScript).
pub trait PatternHost {
    /// Checks that each pattern compiles: the index and the host's message for the first that
    /// does not.
    fn check(&self, patterns: &[Pattern]) -> Result<(), (usize, String)>;
    /// Each text with every match of every pattern replaced by `with` (between the texts of
    /// groups 1 and 2 for a `keep` pattern), pattern after pattern, except matches an `allow`
    /// pattern finds something in; `None` for a text nothing was replaced in.
    fn replace_all(
        &self,
        texts: &[&str],
        patterns: &[Pattern],
        with: &str,
        allow: &[Pattern],
    ) -> Vec<Option<String>>;
    /// The first (text, pattern) pair where a pattern matches something no `allow` pattern
    /// finds anything in.
    fn first_match(
        &self,
        texts: &[&str],
        patterns: &[Pattern],
        allow: &[Pattern],
    ) -> Option<(usize, usize)>;
}

/// The native pattern host: the `regex` crate, with compiled patterns cached by text.
#[cfg(not(target_arch = "wasm32"))]
pub struct RegexHost;

#[cfg(not(target_arch = "wasm32"))]
impl RegexHost {
    /// Compiled redaction patterns, by their text: every recorder and replayed cassette uses
    /// the default ones. Bounded: past 64 distinct patterns the cache starts again.
    fn compile(pattern: &str) -> Result<regex::Regex, regex::Error> {
        thread_local! {
            static CACHE: std::cell::RefCell<std::collections::HashMap<String, regex::Regex>> =
                std::cell::RefCell::new(std::collections::HashMap::new());
        }
        if let Some(hit) = CACHE.with(|c| c.borrow().get(pattern).cloned()) {
            return Ok(hit);
        }
        let regex = regex::Regex::new(pattern)?;
        CACHE.with(|c| {
            let mut c = c.borrow_mut();
            if c.len() >= 64 {
                c.clear();
            }
            c.insert(pattern.to_owned(), regex.clone());
        });
        Ok(regex)
    }

    pub fn shared() -> Rc<dyn PatternHost> {
        Rc::new(RegexHost)
    }
}

#[cfg(not(target_arch = "wasm32"))]
impl PatternHost for RegexHost {
    fn check(&self, patterns: &[Pattern]) -> Result<(), (usize, String)> {
        for (i, p) in patterns.iter().enumerate() {
            RegexHost::compile(&p.text).map_err(|e| (i, e.to_string()))?;
        }
        Ok(())
    }

    fn replace_all(
        &self,
        texts: &[&str],
        patterns: &[Pattern],
        with: &str,
        allow: &[Pattern],
    ) -> Vec<Option<String>> {
        let compiled: Vec<(regex::Regex, bool)> = patterns
            .iter()
            .filter_map(|p| RegexHost::compile(&p.text).ok().map(|r| (r, p.keep)))
            .collect();
        let allowed = RegexHost::allowed(allow);
        texts
            .iter()
            .map(|text| {
                let mut out: Option<String> = None;
                for (re, keep) in &compiled {
                    let current = out.as_deref().unwrap_or(text);
                    if !re.is_match(current) {
                        continue;
                    }
                    let replaced = re.replace_all(current, |caps: &regex::Captures| {
                        let whole = &caps[0];
                        if allowed(whole) {
                            return whole.to_owned();
                        }
                        if *keep {
                            let group = |i| caps.get(i).map_or("", |m| m.as_str());
                            format!("{}{with}{}", group(1), group(2))
                        } else {
                            with.to_owned()
                        }
                    });
                    if replaced != current {
                        out = Some(replaced.into_owned());
                    }
                }
                out
            })
            .collect()
    }

    fn first_match(
        &self,
        texts: &[&str],
        patterns: &[Pattern],
        allow: &[Pattern],
    ) -> Option<(usize, usize)> {
        let allowed = RegexHost::allowed(allow);
        for (t, text) in texts.iter().enumerate() {
            for (p, pattern) in patterns.iter().enumerate() {
                let Ok(re) = RegexHost::compile(&pattern.text) else {
                    continue;
                };
                if re.find_iter(text).any(|m| !allowed(m.as_str())) {
                    return Some((t, p));
                }
            }
        }
        None
    }
}

#[cfg(not(target_arch = "wasm32"))]
impl RegexHost {
    /// Whether an `allow` pattern finds something in a matched text.
    fn allowed(allow: &[Pattern]) -> impl Fn(&str) -> bool {
        let allow: Vec<regex::Regex> = allow
            .iter()
            .filter_map(|p| RegexHost::compile(&p.text).ok())
            .collect();
        move |text: &str| allow.iter().any(|a| a.is_match(text))
    }
}

/// What gets redacted.
#[derive(Clone)]
pub struct Redaction {
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

fn fold_key(k: &str) -> String {
    k.chars()
        .filter(|c| *c != '-' && *c != '_')
        .flat_map(char::to_lowercase)
        .collect()
}

/// A credential still in a cassette about to be written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Leak {
    /// JSON Pointer of the string in the cassette.
    pub pointer: String,
    /// The rule that found it (`github-token`, `credential-key`, …).
    pub rule: String,
}

impl Leak {
    pub fn error(&self) -> CassetteError {
        CassetteError {
            reason: CassetteReason::Credential,
            pointer: self.pointer.clone(),
            message: format!(
                "The cassette would hold what looks like a credential at {} (rule `{}`), so it is not written. Redact it (the `redact` or `redactKeys` option), or, for a value the test means to keep, allow it with `allowSecrets: [/…/]`.",
                self.pointer, self.rule
            ),
        }
    }
}

fn compile_all(
    list: &[String],
    pointer: &str,
    host: &dyn PatternHost,
) -> Result<Vec<Pattern>, CassetteError> {
    let compiled: Vec<Pattern> = list.iter().map(|p| Pattern::new(p)).collect();
    host.check(&compiled).map_err(|(i, e)| CassetteError {
        reason: CassetteReason::InvalidPattern,
        pointer: format!("{pointer}/{i}"),
        message: format!(
            "Redaction pattern {:?} is not a valid regular expression: {e}",
            list[i]
        ),
    })?;
    Ok(compiled)
}

impl Redaction {
    /// The defaults plus extra key names and regular-expression patterns, run by `host`.
    pub fn new(
        extra_keys: &[String],
        extra_patterns: &[String],
        host: Rc<dyn PatternHost>,
    ) -> Result<Redaction, CassetteError> {
        Redaction::with_allow(extra_keys, extra_patterns, &[], host)
    }

    /// [`Redaction::new`], keeping values an `allow` pattern finds something in.
    pub fn with_allow(
        extra_keys: &[String],
        extra_patterns: &[String],
        allow: &[String],
        host: Rc<dyn PatternHost>,
    ) -> Result<Redaction, CassetteError> {
        let mut keys: Vec<String> = DEFAULT_SECRET_KEYS
            .iter()
            .map(|k| (*k).to_owned())
            .collect();
        for k in extra_keys {
            if !keys.iter().any(|have| fold_key(have) == fold_key(k)) {
                keys.push(k.clone());
            }
        }
        // A cassette written before the rules were built in stored two of them: they are rules
        // now, not the caller's patterns.
        let mut patterns: Vec<String> = Vec::new();
        for p in extra_patterns {
            if !patterns.contains(p) && !CREDENTIAL_RULES.iter().any(|r| r.pattern == p) {
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

    pub fn keys(&self) -> &[String] {
        &self.keys
    }

    pub fn patterns(&self) -> &[String] {
        &self.patterns
    }

    pub fn allow(&self) -> &[String] {
        &self.allow
    }

    /// Whether the value under `key` is redacted whole: a secret key name (any value), or a
    /// credential-looking one (a string).
    fn redacts_key(&self, key: &str, value: &Value) -> bool {
        let k = fold_key(key);
        if value.is_null() || matches!(value, Value::String(s) if s == REDACTED) {
            return false;
        }
        self.folded_keys.contains(&k) || (value.is_string() && credential_like_key(&k))
    }

    /// Whether an `allow` pattern keeps `text`.
    fn allowed(&self, text: &str) -> bool {
        !self.allow_compiled.is_empty()
            && self
                .host
                .first_match(&[text], &self.allow_compiled, &[])
                .is_some()
    }

    /// Redacts in place: secret keys' values become `"[REDACTED]"`, matching string parts are
    /// replaced. Iterative, so depth is bounded by memory; the strings go to the pattern host
    /// in one call.
    pub fn apply(&self, value: &mut Value) {
        let mut strings: Vec<&mut String> = Vec::new();
        let mut stack: Vec<&mut Value> = vec![value];
        while let Some(v) = stack.pop() {
            match v {
                Value::String(s) => strings.push(s),
                Value::Array(items) => stack.extend(items.iter_mut()),
                Value::Object(map) => {
                    for (k, child) in map.iter_mut() {
                        let keep = matches!(&*child, Value::String(s) if self.allowed(s));
                        if !keep && self.redacts_key(k, child) {
                            *child = Value::String(REDACTED.to_owned());
                        } else {
                            stack.push(child);
                        }
                    }
                }
                _ => {}
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
                *s = r;
            }
        }
    }

    /// The last check before a cassette is written: the first string of `value` (at `base`)
    /// that still holds a credential by a built-in rule, or a credential key's string value,
    /// that no `allow` pattern keeps.
    pub fn find_leak(&self, value: &Value, base: &str) -> Option<Leak> {
        let mut strings: Vec<(String, &str)> = Vec::new();
        let mut stack: Vec<(String, &Value)> = vec![(base.to_owned(), value)];
        while let Some((pointer, v)) = stack.pop() {
            match v {
                Value::String(s) if s != REDACTED => strings.push((pointer, s)),
                Value::Array(items) => {
                    for (i, item) in items.iter().enumerate().rev() {
                        stack.push((format!("{pointer}/{i}"), item));
                    }
                }
                Value::Object(map) => {
                    for (k, child) in map.iter().rev() {
                        let mut at = pointer.clone();
                        crate::schema::json::push_token(&mut at, k);
                        let keep = matches!(child, Value::String(s) if self.allowed(s));
                        if !keep && self.redacts_key(k, child) {
                            return Some(Leak {
                                pointer: at,
                                rule: "credential-key".into(),
                            });
                        }
                        stack.push((at, child));
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
        Some(Leak {
            pointer: strings[t].0.clone(),
            rule: CREDENTIAL_RULES[r].name.into(),
        })
    }

    fn to_json(&self) -> Value {
        serde_json::json!({ "keys": self.keys, "patterns": self.patterns, "allow": self.allow })
    }
}

/// Drops the facade's tagged non-JSON values (functions, `undefined`, …) everywhere, and the
/// runtime members at the top of a request.
fn drop_non_json(value: &mut Value) {
    let mut stack: Vec<&mut Value> = vec![value];
    while let Some(v) = stack.pop() {
        match v {
            Value::Array(items) => {
                // An array keeps its length: a non-JSON item becomes null, as JSON.stringify does.
                for item in items.iter_mut() {
                    if is_tagged(item) {
                        *item = Value::Null;
                    } else {
                        stack.push(item);
                    }
                }
            }
            Value::Object(map) => {
                map.retain(|_, child| !is_tagged(child));
                stack.extend(map.values_mut());
            }
            _ => {}
        }
    }
}

fn is_tagged(v: &Value) -> bool {
    matches!(v, Value::Object(m) if m.len() == 1 && m.contains_key(TAG_KEY))
}

/// The normalized form of a model request: what is stored and hashed.
pub fn normalize_request(mut request: Value, redaction: &Redaction) -> Value {
    if let Value::Object(map) = &mut request {
        for k in RUNTIME_KEYS {
            map.shift_remove(k);
        }
    }
    drop_non_json(&mut request);
    redaction.apply(&mut request);
    // Keys sorted, so equal requests have one text whatever order they were built in. (Values
    // come from `serde_json::from_str`, whose recursion limit bounds this recursive sort.)
    request.sort_all_objects();
    request
}

/// FNV-1a 64 of the JSON text (no whitespace) of a normalized request, whose keys are sorted,
/// as 16 hex digits.
pub fn hash(normalized: &Value) -> String {
    let text = serde_json::to_string(normalized).unwrap_or_default();
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in text.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    format!("{h:016x}")
}

/// How a recorded call ended.
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    Response(Value),
    /// A streamed call's events; the response is taken from its `response_done` event.
    Events(Vec<Value>),
    Error {
        name: String,
        message: String,
    },
}

/// The normalized response carried by a `response_done` event, in `ModelResponse` shape.
pub fn response_from_events(events: &[Value]) -> Option<Value> {
    let done = events
        .iter()
        .rev()
        .find(|e| e.get("type").and_then(Value::as_str) == Some("response_done"))?;
    let r = done.get("response")?;
    let mut out = Map::new();
    out.insert(
        "output".into(),
        r.get("output").cloned().unwrap_or(Value::Array(Vec::new())),
    );
    out.insert(
        "usage".into(),
        r.get("usage")
            .cloned()
            .unwrap_or_else(|| serde_json::json!({ "requests": 1 })),
    );
    for (from, to) in [
        ("id", "responseId"),
        ("requestId", "requestId"),
        ("providerData", "providerData"),
    ] {
        if let Some(v) = r.get(from).filter(|v| !v.is_null()) {
            out.insert(to.into(), v.clone());
        }
    }
    Some(Value::Object(out))
}

/// One recorded step.
pub fn record_step(
    request: Value,
    streamed: bool,
    outcome: Outcome,
    redaction: &Redaction,
) -> Value {
    let request = normalize_request(request, redaction);
    let mut step = Map::new();
    step.insert("streamed".into(), Value::Bool(streamed));
    step.insert("hash".into(), Value::String(hash(&request)));
    step.insert("request".into(), request);
    match outcome {
        Outcome::Response(mut response) => {
            drop_non_json(&mut response);
            redaction.apply(&mut response);
            step.insert("response".into(), response);
        }
        Outcome::Events(events) => {
            let mut events = Value::Array(events);
            drop_non_json(&mut events);
            redaction.apply(&mut events);
            let list = events.as_array().map(Vec::as_slice).unwrap_or(&[]);
            match response_from_events(list) {
                Some(response) => {
                    step.insert("response".into(), response);
                }
                None => {
                    step.insert(
                        "error".into(),
                        serde_json::json!({ "name": "IncompleteStreamError", "message": "The recorded stream ended before its response_done event." }),
                    );
                }
            }
            step.insert("events".into(), events);
        }
        Outcome::Error { name, message } => {
            let mut error = serde_json::json!({ "name": name, "message": message });
            redaction.apply(&mut error);
            step.insert("error".into(), error);
        }
    }
    Value::Object(step)
}

/// A whole cassette from recorded steps.
pub fn build(steps: Vec<Value>, redaction: &Redaction) -> Value {
    serde_json::json!({ "format": FORMAT, "version": VERSION, "redaction": redaction.to_json(), "steps": steps })
}

/// A loaded cassette: its redaction settings and its steps, checked.
#[derive(Debug)]
pub struct Cassette {
    pub redaction: Redaction,
    pub steps: Vec<Value>,
}

fn strings(v: Option<&Value>, pointer: &str) -> Result<Vec<String>, CassetteError> {
    match v {
        None => Ok(Vec::new()),
        Some(Value::Array(items)) => items
            .iter()
            .enumerate()
            .map(|(i, s)| {
                s.as_str()
                    .map(str::to_owned)
                    .ok_or_else(|| invalid(&format!("{pointer}/{i}"), "a string was expected"))
            })
            .collect(),
        Some(_) => Err(invalid(pointer, "an array of strings was expected")),
    }
}

/// Checks a cassette document (format, version, every step's shape).
pub fn load(doc: Value, host: Rc<dyn PatternHost>) -> Result<Cassette, CassetteError> {
    let root = doc
        .as_object()
        .ok_or_else(|| invalid("", "an object was expected"))?;
    if root.get("format").and_then(Value::as_str) != Some(FORMAT) {
        return Err(invalid(
            "/format",
            &format!("\"format\" must be \"{FORMAT}\""),
        ));
    }
    match root.get("version").and_then(Value::as_u64) {
        Some(VERSION) => {}
        Some(v) => {
            return Err(CassetteError {
                reason: CassetteReason::UnsupportedVersion,
                pointer: "/version".into(),
                message: format!("Cassette version {v} is not supported; this version of understudy reads version {VERSION}."),
            })
        }
        None => return Err(invalid("/version", "\"version\" must be a number")),
    }
    let redaction_json = root.get("redaction");
    let redaction = Redaction::with_allow(
        &strings(
            redaction_json.and_then(|r| r.get("keys")),
            "/redaction/keys",
        )?,
        &strings(
            redaction_json.and_then(|r| r.get("patterns")),
            "/redaction/patterns",
        )?,
        &strings(
            redaction_json.and_then(|r| r.get("allow")),
            "/redaction/allow",
        )?,
        host,
    )?;
    let steps = root
        .get("steps")
        .and_then(Value::as_array)
        .ok_or_else(|| invalid("/steps", "\"steps\" must be an array"))?;
    for (i, step) in steps.iter().enumerate() {
        let at = |k: &str| format!("/steps/{i}/{k}");
        let s = step
            .as_object()
            .ok_or_else(|| invalid(&format!("/steps/{i}"), "a step must be an object"))?;
        if !s.get("streamed").is_some_and(Value::is_boolean) {
            return Err(invalid(&at("streamed"), "\"streamed\" must be a boolean"));
        }
        if !s.get("request").is_some_and(Value::is_object) {
            return Err(invalid(&at("request"), "\"request\" must be an object"));
        }
        match (s.get("response"), s.get("error")) {
            (Some(r), None) => {
                if !r.get("output").is_some_and(Value::is_array) {
                    return Err(invalid(
                        &at("response/output"),
                        "a response needs an \"output\" array",
                    ));
                }
                if let Some(events) = s.get("events") {
                    if !events.is_array() {
                        return Err(invalid(&at("events"), "\"events\" must be an array"));
                    }
                }
            }
            (None, Some(e)) => {
                if !e.get("message").is_some_and(Value::is_string) {
                    return Err(invalid(
                        &at("error/message"),
                        "an error needs a \"message\" string",
                    ));
                }
            }
            _ => {
                return Err(invalid(
                    &format!("/steps/{i}"),
                    "a step needs exactly one of \"response\" and \"error\"",
                ))
            }
        }
    }
    Ok(Cassette {
        redaction,
        steps: steps.clone(),
    })
}

/// Where two normalized requests first differ.
#[derive(Clone, Debug, PartialEq)]
pub struct Difference {
    pub pointer: String,
    pub recorded: Option<Value>,
    pub live: Option<Value>,
}

fn escape(token: &str) -> String {
    token.replace('~', "~0").replace('/', "~1")
}

/// Walks two values in document order (keys sorted): how many leaves agree before the first
/// difference, and that difference (`None` when the values are equal).
fn compare(recorded: &Value, live: &Value) -> (usize, Option<Difference>) {
    let mut agreeing = 0;
    let mut stack: Vec<(String, Option<&Value>, Option<&Value>)> =
        vec![(String::new(), Some(recorded), Some(live))];
    while let Some((pointer, a, b)) = stack.pop() {
        match (a, b) {
            (Some(Value::Object(x)), Some(Value::Object(y))) => {
                let mut keys: Vec<&String> = x.keys().chain(y.keys()).collect();
                keys.sort();
                keys.dedup();
                for k in keys.into_iter().rev() {
                    stack.push((format!("{pointer}/{}", escape(k)), x.get(k), y.get(k)));
                }
            }
            (Some(Value::Array(x)), Some(Value::Array(y))) => {
                for i in (0..x.len().max(y.len())).rev() {
                    stack.push((format!("{pointer}/{i}"), x.get(i), y.get(i)));
                }
            }
            (x, y) if x == y => agreeing += 1,
            (x, y) => {
                return (
                    agreeing,
                    Some(Difference {
                        pointer,
                        recorded: x.cloned(),
                        live: y.cloned(),
                    }),
                )
            }
        }
    }
    (agreeing, None)
}

/// The first difference between two values in document order (keys sorted), or `None`.
pub fn first_difference(recorded: &Value, live: &Value) -> Option<Difference> {
    compare(recorded, live).1
}

/// No recorded request matches a live one (`CassetteMismatchError`).
#[derive(Clone, Debug, PartialEq)]
pub struct Mismatch {
    pub call_index: usize,
    pub hash: String,
    /// The closest unused recorded step, and where it differs.
    pub closest: Option<(usize, Difference)>,
}

fn excerpt(v: &Option<Value>) -> String {
    match v {
        None => "(absent)".to_owned(),
        Some(v) => {
            let text = serde_json::to_string(v).unwrap_or_default();
            if text.chars().count() > 80 {
                format!("{}…", text.chars().take(79).collect::<String>())
            } else {
                text
            }
        }
    }
}

use crate::error::Class;

impl crate::error::Raise for CassetteError {
    fn kind(&self) -> Class {
        Class::InvalidCassetteError
    }
}

/// `CassetteMismatchError`'s fields: the closest step flattened, the two values as JSON text.
#[derive(serde::Serialize)]
#[cfg_attr(
    test,
    derive(ts_rs::TS),
    ts(rename = "CassetteMismatchErrorFields", optional_fields)
)]
#[serde(rename_all = "camelCase")]
pub struct MismatchFields {
    /// The zero-based position of the live call.
    pub call_index: usize,
    /// The live request's hash.
    pub hash: String,
    /// The closest unused recorded step, when one is left.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub closest_step: Option<usize>,
    /// JSON Pointer of the first field where that step's request differs.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pointer: Option<String>,
    /// That field as recorded (JSON text; absent when the field is).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub recorded: Option<String>,
    /// That field as sent now (JSON text; absent when the field is).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub live: Option<String>,
}

impl serde::Serialize for Mismatch {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let closest = self.closest.as_ref();
        let text = |v: Option<&Option<Value>>| v.and_then(Option::as_ref).map(Value::to_string);
        MismatchFields {
            call_index: self.call_index,
            hash: self.hash.clone(),
            closest_step: closest.map(|(step, _)| *step),
            pointer: closest.map(|(_, d)| d.pointer.clone()),
            recorded: text(closest.map(|(_, d)| &d.recorded)),
            live: text(closest.map(|(_, d)| &d.live)),
        }
        .serialize(serializer)
    }
}

impl crate::error::Raise for Mismatch {
    fn kind(&self) -> Class {
        Class::CassetteMismatchError
    }
}

/// `CassetteMissingError`'s fields: an `InvalidCassetteError`'s (reason `missing`, pointer
/// `''`) and the file's path.
#[derive(serde::Serialize)]
#[cfg_attr(
    test,
    derive(ts_rs::TS),
    ts(rename = "CassetteMissingErrorFields", optional_fields)
)]
pub struct MissingFields<'a> {
    #[cfg_attr(test, ts(type = "InvalidCassetteReason"))]
    pub reason: CassetteReason,
    pub pointer: &'a str,
    /// The cassette file that was looked for.
    pub path: &'a str,
}

/// A missing cassette's fields ([`MissingFields`]); an unknown mode (a `UserError`) has none.
impl serde::Serialize for PlanError {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            PlanError::Missing { path, .. } => MissingFields {
                reason: CassetteReason::Missing,
                pointer: "",
                path,
            }
            .serialize(serializer),
            PlanError::UnknownMode(_) => serializer.serialize_unit(),
        }
    }
}

impl crate::error::Raise for PlanError {
    fn kind(&self) -> Class {
        match self {
            PlanError::Missing { .. } => Class::CassetteMissingError,
            PlanError::UnknownMode(_) => Class::UserError,
        }
    }
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "No recorded request matches model call #{} (request hash {}).",
            self.call_index + 1,
            self.hash
        )?;
        match &self.closest {
            Some((step, d)) => write!(
                f,
                " The closest unused recorded request (step #{}) differs at {}: recorded {}, live {}.",
                step + 1,
                if d.pointer.is_empty() { "the root" } else { &d.pointer },
                excerpt(&d.recorded),
                excerpt(&d.live)
            ),
            None => f.write_str(" Every recorded step has been used."),
        }?;
        f.write_str(" If the change is intended, re-record the cassette: run the test with UNDERSTUDY_CASSETTES=record.")
    }
}

/// How a replayed cassette answers the calls (`ReplayOptions.match`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MatchMode {
    /// Step by step, in the order recorded (the default).
    Order,
    /// Each call by the recorded request it equals.
    Request,
}

/// The match mode `given` names (`None`: the option is absent, which is `order`); `Err` with
/// the message for anything else, which `shown` spells as JSON.
pub fn match_mode(given: Option<&str>, shown: &str) -> Result<MatchMode, String> {
    match given {
        None => Ok(MatchMode::Order),
        Some("order") => Ok(MatchMode::Order),
        Some("request") => Ok(MatchMode::Request),
        Some(_) => Err(format!(
            "Unknown cassette match mode {shown}; use 'order' or 'request'."
        )),
    }
}

/// A pattern as the cassette stores it: a `RegExp`'s flags lead its source as `(?flags)`; `g`
/// and `d` change nothing about what matches and are left out. [`Pattern`] reads the flags
/// back and refuses the ones it cannot run.
pub fn pattern_text(source: &str, flags: &str) -> String {
    let flags: String = flags.chars().filter(|c| !matches!(c, 'g' | 'd')).collect();
    if flags.is_empty() {
        source.to_owned()
    } else {
        format!("(?{flags}){source}")
    }
}

/// The file of the cassette `name` in the folder `dir` (default `cassettes`; trailing
/// separators dropped): `<dir>/<name>.cassette.json`.
pub fn named_cassette_path(dir: Option<&str>, name: &str) -> String {
    let dir = dir.unwrap_or("cassettes").trim_end_matches(['/', '\\']);
    format!("{dir}/{name}.cassette.json")
}

/// The file of the `index`-th cassette (0 for the first) of the test `full_name` in
/// `test_file`: `<folder>/__cassettes__/<test file name>/<`[`cassette_file_name`]`>.cassette.json`,
/// next to the test file (`.` when its path has no folder).
pub fn test_cassette_path(test_file: &str, full_name: &str, index: usize) -> String {
    let (folder, file) = match test_file.rfind(['/', '\\']) {
        Some(cut) => (&test_file[..cut], &test_file[cut + 1..]),
        None => (".", test_file),
    };
    let base = cassette_file_name(full_name, index);
    format!("{folder}/__cassettes__/{file}/{base}.cassette.json")
}

/// The file name (without `.cassette.json`) of the `index`-th cassette (from 0) of the test
/// `full_name`: stable across runs and safe on every file system. Letters, digits, spaces, `.`,
/// `-` and `_` are kept, `suite > test` becomes `suite - test`, anything else becomes `_`;
/// leading and trailing dots and spaces go; names past 100 characters are cut and end in a hash
/// of the whole name; Windows device names get a `_`; the second cassette of a test ends in
/// `-2`, the third in `-3`.
pub fn cassette_file_name(full_name: &str, index: usize) -> String {
    const MAX: usize = 100;
    let spaced = full_name.replace(" > ", " - ");
    let mut name: String = spaced
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || matches!(c, ' ' | '.' | '-' | '_') {
                c
            } else {
                '_'
            }
        })
        .collect();
    name = name.trim_matches(|c| c == ' ' || c == '.').to_owned();
    if name.is_empty() {
        name = "test".to_owned();
    }
    if name.chars().count() > MAX {
        // FNV-1a of the whole name: two long names that share a prefix stay apart.
        let hash = full_name.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
            (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
        });
        let cut: String = name.chars().take(MAX - 9).collect();
        name = format!("{}-{:08x}", cut.trim_end_matches([' ', '.']), hash as u32);
    }
    let stem = name.split('.').next().unwrap_or("").to_ascii_uppercase();
    let device = matches!(stem.as_str(), "CON" | "PRN" | "AUX" | "NUL")
        || (stem.len() == 4
            && (stem.starts_with("COM") || stem.starts_with("LPT"))
            && stem.as_bytes()[3].is_ascii_digit());
    if device {
        name.push('_');
    }
    if index > 0 {
        name = format!("{name}-{}", index + 1);
    }
    name
}

/// What `cassette()` does for one test: call the real model and record, replay the file, or
/// call the real model and record nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Plan {
    Record,
    Replay,
    Off,
}

/// Why `cassette()` cannot run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlanError {
    /// The cassette is missing where it must be replayed (`replay`, or `auto` under `CI`).
    Missing {
        path: String,
        ci: bool,
    },
    UnknownMode(String),
}

impl fmt::Display for PlanError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlanError::Missing { path, ci } => write!(
                f,
                "Cassette {path} does not exist{}; record it by running the test with UNDERSTUDY_CASSETTES=record (or UNDERSTUDY_RECORD=1) where the real model is reachable, and commit the file.",
                if *ci { " and CI is set, so nothing is recorded" } else { "" }
            ),
            PlanError::UnknownMode(m) => write!(
                f,
                "UNDERSTUDY_CASSETTES is {m:?}; the modes are auto (the default), record, replay and off."
            ),
        }
    }
}

/// An environment flag that is set: present, not empty, not `0` or `false`.
fn set(v: Option<&str>) -> bool {
    matches!(v.map(str::trim), Some(v) if !v.is_empty() && v != "0" && !v.eq_ignore_ascii_case("false"))
}

/// The plan from `UNDERSTUDY_CASSETTES` (`mode`), `UNDERSTUDY_RECORD` (`1` / `true` spell
/// `record`), `CI`, the `record` option (which wins: `true` records, `false` replays) and
/// whether the cassette file exists. `auto` replays an existing cassette and records a missing
/// one, except under `CI`, where a missing one is an error and nothing is written.
pub fn plan(
    mode: Option<&str>,
    record_env: Option<&str>,
    ci: Option<&str>,
    record_option: Option<bool>,
    exists: bool,
    path: &str,
) -> Result<Plan, PlanError> {
    let missing = |ci| PlanError::Missing {
        path: path.to_owned(),
        ci,
    };
    let mode = match record_option {
        Some(true) => "record",
        Some(false) => "replay",
        None if matches!(record_env.map(str::trim), Some("1" | "true")) => "record",
        None => mode
            .map(str::trim)
            .filter(|m| !m.is_empty())
            .unwrap_or("auto"),
    };
    match mode {
        "record" => Ok(Plan::Record),
        "off" => Ok(Plan::Off),
        "replay" if exists => Ok(Plan::Replay),
        "replay" => Err(missing(set(ci))),
        "auto" if exists => Ok(Plan::Replay),
        "auto" if set(ci) => Err(missing(true)),
        "auto" => Ok(Plan::Record),
        other => Err(PlanError::UnknownMode(other.to_owned())),
    }
}

/// Replay by request: which recorded steps are still unused.
#[derive(Debug)]
pub struct Matcher {
    hashes: Vec<String>,
    requests: Vec<Value>,
    used: Vec<bool>,
}

impl Matcher {
    pub fn new(cassette: &Cassette) -> Matcher {
        // Sorted and hashed again here, so a hand-edited request still matches what it says.
        let requests: Vec<Value> = cassette
            .steps
            .iter()
            .map(|s| {
                let mut request = s.get("request").cloned().unwrap_or(Value::Null);
                request.sort_all_objects();
                request
            })
            .collect();
        let hashes = requests.iter().map(hash).collect();
        Matcher {
            hashes,
            used: vec![false; requests.len()],
            requests,
        }
    }

    /// The first unused step whose normalized request equals `live` (already normalized).
    pub fn pick(&mut self, live: &Value, call_index: usize) -> Result<usize, Box<Mismatch>> {
        let h = hash(live);
        if let Some(i) = (0..self.hashes.len())
            .find(|&i| !self.used[i] && self.hashes[i] == h && self.requests[i] == *live)
        {
            self.used[i] = true;
            return Ok(i);
        }
        let closest = (0..self.requests.len())
            .filter(|&i| !self.used[i])
            .map(|i| (compare(&self.requests[i], live).0, i))
            .fold(None::<(usize, usize)>, |best, (score, i)| match best {
                Some((s, _)) if s >= score => best,
                _ => Some((score, i)),
            })
            .and_then(|(_, i)| first_difference(&self.requests[i], live).map(|d| (i, d)));
        Err(Box::new(Mismatch {
            call_index,
            hash: h,
            closest,
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn load(doc: Value) -> Result<Cassette, CassetteError> {
        super::load(doc, RegexHost::shared())
    }

    fn redaction() -> Redaction {
        Redaction::new(
            &["x-team-token".into()],
            &["corp-[0-9]+".into()],
            RegexHost::shared(),
        )
        .unwrap()
    }

    #[test]
    fn normalization_drops_runtime_members_and_non_json_values() {
        let tagged = json!({ TAG_KEY: "function" });
        let request = json!({ "input": "hi", "signal": {}, "tracing": true, "_internal": { "tracingParent": { "id": "span_1" } }, "tools": [tagged.clone(), { "name": "t", "invoke": tagged }], "b": 1, "a": 2 });
        let n = normalize_request(request, &redaction());
        assert_eq!(
            n,
            json!({ "input": "hi", "tools": [null, { "name": "t" }], "a": 2, "b": 1 })
        );
        assert_eq!(
            serde_json::to_string(&n).unwrap(),
            r#"{"a":2,"b":1,"input":"hi","tools":[null,{"name":"t"}]}"#,
            "keys sorted"
        );
    }

    #[test]
    fn secrets_are_redacted_by_key_and_by_pattern() {
        let request = json!({
            "modelSettings": { "providerData": { "extra_headers": { "Authorization": "Bearer abc.def", "X-Team-Token": "t0", "x-trace": "ok" } } },
            "input": "my key is sk-proj-ABCDEFGH12345678 and account corp-42; Bearer xyz",
            "api_key": null,
        });
        let n = normalize_request(request, &redaction());
        let text = serde_json::to_string(&n).unwrap();
        for secret in ["abc.def", "t0", "sk-proj", "corp-42", "xyz"] {
            assert!(!text.contains(secret), "{secret} leaked: {text}");
        }
        assert_eq!(
            n["modelSettings"]["providerData"]["extra_headers"]["x-trace"],
            "ok"
        );
        assert_eq!(
            n["input"],
            "my key is [REDACTED] and account [REDACTED]; [REDACTED]"
        );
        assert_eq!(n["api_key"], Value::Null, "an absent secret stays null");
    }

    #[test]
    fn leading_inline_flags_are_read_as_flags() {
        let p = Pattern::new("(?is)bearer.+");
        assert_eq!((p.flags.as_str(), p.source.as_str()), ("is", "bearer.+"));
        assert_eq!(p.text, "(?is)bearer.+");
        let p = Pattern::new("(?i)x");
        assert_eq!((p.flags.as_str(), p.source.as_str()), ("i", "x"));
        // Not flags: a group, an unknown flag, a flag that is not at the start.
        for text in ["(?:a)", "(?y)a", "(?i", "a(?i)b", "()"] {
            let p = Pattern::new(text);
            assert_eq!((p.flags.as_str(), p.source.as_str()), ("", text), "{text}");
        }
    }

    #[test]
    fn redaction_hands_every_string_to_the_host_in_one_call() {
        use std::cell::RefCell;
        struct Counting(RefCell<Vec<usize>>);
        impl PatternHost for Counting {
            fn check(&self, _: &[Pattern]) -> Result<(), (usize, String)> {
                Ok(())
            }
            fn replace_all(
                &self,
                texts: &[&str],
                _: &[Pattern],
                with: &str,
                _: &[Pattern],
            ) -> Vec<Option<String>> {
                self.0.borrow_mut().push(texts.len());
                texts
                    .iter()
                    .map(|t| (*t == "secret").then(|| with.to_owned()))
                    .collect()
            }
            fn first_match(
                &self,
                _: &[&str],
                _: &[Pattern],
                _: &[Pattern],
            ) -> Option<(usize, usize)> {
                None
            }
        }
        let host = Rc::new(Counting(RefCell::new(Vec::new())));
        let r = Redaction::new(&[], &[], host.clone()).unwrap();
        let mut v = json!({ "a": "secret", "b": ["x", { "c": "secret" }], "password": "p" });
        r.apply(&mut v);
        assert_eq!(
            v,
            json!({ "a": REDACTED, "b": ["x", { "c": REDACTED }], "password": REDACTED })
        );
        assert_eq!(*host.0.borrow(), vec![3], "one call with the three strings");
    }

    #[test]
    fn invalid_patterns_are_refused_with_a_pointer() {
        let e = Redaction::new(&[], &["(".into()], RegexHost::shared()).unwrap_err();
        assert_eq!(
            (e.reason, e.pointer.as_str()),
            (CassetteReason::InvalidPattern, "/redaction/patterns/0")
        );
        let e = Redaction::with_allow(&[], &[], &["[".into()], RegexHost::shared()).unwrap_err();
        assert_eq!(
            (e.reason, e.pointer.as_str()),
            (CassetteReason::InvalidPattern, "/redaction/allow/0")
        );
    }

    /// Fake credentials of every built-in format (built from parts, so no scanner flags this
    /// file), each in a sentence.
    fn fake_credentials() -> Vec<(&'static str, String)> {
        let r = |c: char, n: usize| c.to_string().repeat(n);
        vec![
            ("openai-or-anthropic-key", format!("sk-proj-{}", r('A', 24))),
            (
                "openai-or-anthropic-key",
                format!("sk-ant-api03-{}", r('b', 40)),
            ),
            ("github-token", format!("ghp_{}", r('a', 36))),
            (
                "github-token",
                format!("github_pat_11{}_{}", r('A', 20), r('z', 59)),
            ),
            ("github-token", format!("gho_{}", r('C', 36))),
            ("gitlab-token", format!("glpat-{}", r('x', 20))),
            ("aws-access-key", format!("AKIA{}", r('Q', 16))),
            (
                "aws-secret-key",
                format!("aws_secret_access_key = {}", r('k', 40)),
            ),
            ("google-api-key", format!("AIza{}", r('S', 35))),
            ("slack-token", format!("xoxb-{}-{}", r('1', 12), r('a', 24))),
            ("stripe-key", format!("sk_live_{}", r('4', 24))),
            ("stripe-key", format!("rk_test_{}", r('5', 24))),
            ("twilio-key", format!("SK{}", r('f', 32))),
            ("sendgrid-key", format!("SG.{}.{}", r('g', 22), r('h', 43))),
            ("npm-token", format!("npm_{}", r('n', 36))),
            (
                "jwt",
                format!("eyJ{}.eyJ{}.{}", r('h', 16), r('p', 20), r('s', 22)),
            ),
            (
                "private-key",
                format!(
                    "-----BEGIN RSA PRIVATE KEY-----\nMII{}\n-----END RSA PRIVATE KEY-----",
                    r('E', 60)
                ),
            ),
            (
                "url-password",
                "postgres://admin:hunter2pass@db.internal:5432/app".to_owned(),
            ),
            (
                "url-secret-parameter",
                "https://api.example.com/v1/files?id=7&access_token=abc123def456".to_owned(),
            ),
            ("bearer", format!("Bearer {}", r('t', 30))),
        ]
    }

    #[test]
    fn every_built_in_format_is_redacted_wherever_it_stands() {
        let r = redaction();
        for (rule, secret) in fake_credentials() {
            let mut v = json!({
                "input": [{ "role": "user", "content": format!("use {secret} please") }],
                "instructions": secret,
                "tools": [{ "arguments": format!("{{\"key\": \"{secret}\"}}") }],
            });
            r.apply(&mut v);
            let text = v.to_string();
            // What must be gone: the secret part (URLs keep their user, host and other parameters).
            let core: String = match rule {
                "url-password" => "hunter2pass".into(),
                "url-secret-parameter" => "abc123def456".into(),
                _ => secret
                    .chars()
                    .rev()
                    .take(12)
                    .collect::<String>()
                    .chars()
                    .rev()
                    .collect(),
            };
            assert!(!text.contains(&core), "{rule}: {text}");
            assert!(text.contains(REDACTED), "{rule}");
            assert_eq!(
                r.find_leak(&v, ""),
                None,
                "{rule}: nothing left after redaction"
            );
            // Unredacted, the save-time check names the pointer and the rule.
            let raw = json!({ "input": [{ "content": format!("use {secret} please") }] });
            let leak = r.find_leak(&raw, "/steps/0/request").expect(rule);
            assert_eq!(leak.pointer, "/steps/0/request/input/0/content", "{rule}");
            assert_eq!(leak.rule, rule, "{secret}");
        }
        // URL parts keep what is not secret.
        let mut v = json!({ "u": "postgres://admin:hunter2pass@db.internal:5432/app and https://x.io/a?access_token=abc123&page=2" });
        r.apply(&mut v);
        assert_eq!(v["u"], json!("postgres://admin:[REDACTED]@db.internal:5432/app and https://x.io/a?access_token=[REDACTED]&page=2"));
    }

    #[test]
    fn credential_keys_are_redacted_and_counts_are_not() {
        let r = redaction();
        let mut v = json!({
            "headers": { "x-goog-api-key": "k1", "X-Custom-Key": "k2", "client_secret": "k3", "Private-Key": "k4", "github_token": "k5" },
            "usage": { "input_tokens": 10, "max_tokens": 20, "total_tokens": 30 },
            "modelSettings": { "maxTokens": 100 },
            "tokenizer": "o200k",
            "id": "resp_123",
            "password": null
        });
        r.apply(&mut v);
        for k in [
            "x-goog-api-key",
            "X-Custom-Key",
            "client_secret",
            "Private-Key",
            "github_token",
        ] {
            assert_eq!(v["headers"][k], json!(REDACTED), "{k}");
        }
        assert_eq!(
            v["usage"],
            json!({ "input_tokens": 10, "max_tokens": 20, "total_tokens": 30 })
        );
        assert_eq!(v["modelSettings"]["maxTokens"], json!(100));
        assert_eq!(v["tokenizer"], json!("o200k"));
        assert_eq!(v["password"], json!(null));
        let leak = r
            .find_leak(&json!({ "h": { "Authorization": "Basic abc" } }), "")
            .unwrap();
        assert_eq!(
            (leak.pointer.as_str(), leak.rule.as_str()),
            ("/h/Authorization", "credential-key")
        );
    }

    #[test]
    fn allowed_values_are_kept_and_not_refused() {
        let fixture = format!("ghp_{}", "F".repeat(36));
        let r = Redaction::with_allow(&[], &[], &["ghp_F+".into()], RegexHost::shared()).unwrap();
        let mut v = json!({ "a": format!("token {fixture}"), "b": format!("ghp_{}", "a".repeat(36)), "api_key": fixture });
        r.apply(&mut v);
        assert_eq!(v["a"], json!(format!("token {fixture}")));
        assert_eq!(v["b"], json!(REDACTED));
        assert_eq!(v["api_key"], json!(fixture));
        assert_eq!(r.find_leak(&v, ""), None);
        assert_eq!(r.to_json()["allow"], json!(["ghp_F+"]));
    }

    #[test]
    fn realistic_recordings_raise_no_false_alarm() {
        let r = redaction();
        let base64_png = format!(
            "data:image/png;base64,iVBORw0KGgo{}",
            "AAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg"
                .repeat(20)
        );
        let v = json!({
            "responseId": "resp_68c1f0a2b3d4e5f60718293a4b5c6d7e",
            "output": [{ "id": "msg_0123456789abcdef0123456789abcdef", "callId": "call_AbCdEfGhIjKlMnOpQrStUvWx", "type": "function_call", "arguments": "{\"sha\": \"3f786850e387550fdab836ed7e6dc881de23001b\"}" }],
            "providerData": { "encrypted_content": "gAAAAABo" , "system_fingerprint": "fp_44709d6fcb" },
            "image": base64_png,
            "commit": "e83c5163316f89bfbde7d9ab23ca2e25604af290",
            "uuid": "9b2d7c1e-3f4a-4b5c-8d6e-7f8091a2b3c4",
            "usage": { "inputTokens": 120, "outputTokens": 30 }
        });
        let mut redacted = v.clone();
        r.apply(&mut redacted);
        assert_eq!(
            redacted, v,
            "nothing in a realistic recording is taken for a credential"
        );
        assert_eq!(r.find_leak(&v, ""), None);
    }

    #[test]
    fn hashing_is_stable_and_order_insensitive_for_keys() {
        let r = redaction();
        let a = normalize_request(json!({ "a": 1, "b": [1, 2] }), &r);
        let b = normalize_request(json!({ "b": [1, 2], "a": 1 }), &r);
        assert_eq!(hash(&a), hash(&b));
        assert_ne!(
            hash(&a),
            hash(&normalize_request(json!({ "a": 1, "b": [2, 1] }), &r))
        );
        assert_eq!(hash(&json!({})).len(), 16);
    }

    #[test]
    fn streamed_steps_carry_events_and_the_derived_response() {
        let events = vec![
            json!({ "type": "response_started" }),
            json!({ "type": "output_text_delta", "delta": "Hi" }),
            json!({ "type": "response_done", "response": { "id": "r1", "usage": { "requests": 1 }, "output": [{ "type": "message" }] } }),
        ];
        let step = record_step(
            json!({ "input": "x" }),
            true,
            Outcome::Events(events),
            &redaction(),
        );
        assert_eq!(
            step["response"],
            json!({ "output": [{ "type": "message" }], "usage": { "requests": 1 }, "responseId": "r1" })
        );
        assert_eq!(step["events"].as_array().unwrap().len(), 3);
        assert_eq!(step["streamed"], true);
        let cut = record_step(
            json!({}),
            true,
            Outcome::Events(vec![json!({ "type": "response_started" })]),
            &redaction(),
        );
        assert_eq!(
            cut["error"]["name"], "IncompleteStreamError",
            "a stream cut short is kept, as an error step"
        );
        assert!(load(build(vec![cut], &redaction())).is_ok());
    }

    #[test]
    fn cassettes_round_trip_and_bad_ones_are_refused_with_pointers() {
        let r = redaction();
        let steps = vec![
            record_step(
                json!({ "input": "a" }),
                false,
                Outcome::Response(json!({ "output": [], "usage": {} })),
                &r,
            ),
            record_step(
                json!({ "input": "b" }),
                false,
                Outcome::Error {
                    name: "Error".into(),
                    message: "429 sk-ABCDEFGH1234".into(),
                },
                &r,
            ),
        ];
        let doc = build(steps, &r);
        assert_eq!(doc["steps"][1]["error"]["message"], "429 [REDACTED]");
        let loaded = load(doc.clone()).unwrap();
        assert_eq!(loaded.steps.len(), 2);
        assert_eq!(loaded.redaction.patterns(), r.patterns());

        let mut bad = doc.clone();
        bad["version"] = json!(2);
        assert_eq!(load(bad).unwrap_err().reason, "unsupported_version");
        let mut bad = doc.clone();
        bad["steps"][0]["response"]["output"] = json!({});
        assert_eq!(load(bad).unwrap_err().pointer, "/steps/0/response/output");
        let mut bad = doc.clone();
        bad["steps"][1]["response"] = json!({ "output": [] });
        let e = load(bad).unwrap_err();
        assert_eq!(e.pointer, "/steps/1");
        assert_eq!(
            e.message,
            "Invalid cassette: a step needs exactly one of \"response\" and \"error\" at /steps/1."
        );
        assert_eq!(
            load(json!([])).unwrap_err().message,
            "Invalid cassette: an object was expected at the root."
        );
        assert_eq!(
            load(json!({ "format": "x" })).unwrap_err().pointer,
            "/format"
        );
    }

    #[test]
    fn the_pii_preset_redacts_emails_phones_and_cards() {
        let extra: Vec<String> = PII_PATTERNS.iter().map(|p| p.to_string()).collect();
        let r = Redaction::new(&[], &extra, RegexHost::shared()).unwrap();
        let mut v = serde_json::json!({
            "input": "Mail ada.l@example.co.uk or call +44 20 7946 0958 / (415) 555-0132; card 4111 1111 1111 1111, 4111-1111-1111-1111 or 4111111111111111."
        });
        r.apply(&mut v);
        assert_eq!(
            v["input"],
            "Mail [REDACTED] or call [REDACTED] / [REDACTED]; card [REDACTED], [REDACTED] or [REDACTED]."
        );
        // Ordinary numbers and dates stay.
        let mut v = serde_json::json!({ "input": "Order 12345 on 2026-12-01, 3 items at 19.99, id 550e8400" });
        r.apply(&mut v);
        assert_eq!(
            v["input"],
            "Order 12345 on 2026-12-01, 3 items at 19.99, id 550e8400"
        );
    }

    #[test]
    fn match_modes_patterns_and_paths() {
        assert_eq!(match_mode(None, ""), Ok(MatchMode::Order));
        assert_eq!(match_mode(Some("order"), ""), Ok(MatchMode::Order));
        assert_eq!(match_mode(Some("request"), ""), Ok(MatchMode::Request));
        assert_eq!(
            match_mode(Some("hash"), "\"hash\""),
            Err("Unknown cassette match mode \"hash\"; use 'order' or 'request'.".into())
        );
        assert_eq!(pattern_text("sk-[a-z]+", ""), "sk-[a-z]+");
        assert_eq!(pattern_text("sk-[a-z]+", "dgi"), "(?i)sk-[a-z]+");
        assert_eq!(pattern_text("a.b", "gims"), "(?ims)a.b");
        assert_eq!(
            named_cassette_path(None, "run"),
            "cassettes/run.cassette.json"
        );
        assert_eq!(
            named_cassette_path(Some("fix/tures//"), "run"),
            "fix/tures/run.cassette.json"
        );
        assert_eq!(
            named_cassette_path(Some("c:\\x\\"), "run"),
            "c:\\x/run.cassette.json"
        );
        assert_eq!(
            test_cassette_path("/repo/test/a.test.mjs", "suite > it works", 1),
            "/repo/test/__cassettes__/a.test.mjs/suite - it works-2.cassette.json"
        );
        assert_eq!(
            test_cassette_path("C:\\repo\\a.test.mjs", "t", 0),
            "C:\\repo/__cassettes__/a.test.mjs/t.cassette.json"
        );
        assert_eq!(
            test_cassette_path("a.test.mjs", "t", 0),
            "./__cassettes__/a.test.mjs/t.cassette.json"
        );
    }

    #[test]
    fn cassette_file_names_are_safe_and_stable() {
        assert_eq!(
            cassette_file_name("orders > looks up an order", 0),
            "orders - looks up an order"
        );
        assert_eq!(
            cassette_file_name("orders > looks up an order", 1),
            "orders - looks up an order-2"
        );
        assert_eq!(
            cassette_file_name("a/b: c*d? \"e\" <f>|g\\h", 0),
            "a_b_ c_d_ _e_ _f__g_h"
        );
        assert_eq!(cassette_file_name("  ..hidden.  ", 0), "hidden");
        assert_eq!(cassette_file_name("", 2), "test-3");
        assert_eq!(cassette_file_name("con", 0), "con_");
        assert_eq!(cassette_file_name("météo à Paris", 0), "météo à Paris");
        let long = "x".repeat(150);
        let a = cassette_file_name(&long, 0);
        assert_eq!(a.chars().count(), 100);
        assert_eq!(a, cassette_file_name(&long, 0), "stable");
        assert_ne!(
            a,
            cassette_file_name(&format!("{long}y"), 0),
            "a different long name stays apart"
        );
    }

    #[test]
    fn cassette_plans() {
        let p = |mode, rec, ci, opt, exists| plan(mode, rec, ci, opt, exists, "c/x.cassette.json");
        // auto: replay what exists, record what is missing, but never record under CI.
        assert_eq!(p(None, None, None, None, true), Ok(Plan::Replay));
        assert_eq!(p(None, None, None, None, false), Ok(Plan::Record));
        assert_eq!(
            p(Some("auto"), None, Some("true"), None, false),
            Err(PlanError::Missing {
                path: "c/x.cassette.json".into(),
                ci: true
            })
        );
        assert_eq!(p(None, None, Some("1"), None, true), Ok(Plan::Replay));
        assert_eq!(
            p(None, None, Some("false"), None, false),
            Ok(Plan::Record),
            "CI=false is not CI"
        );
        assert_eq!(p(None, None, Some(""), None, false), Ok(Plan::Record));
        // record, replay, off.
        assert_eq!(
            p(Some("record"), None, Some("true"), None, true),
            Ok(Plan::Record)
        );
        assert_eq!(p(Some("replay"), None, None, None, true), Ok(Plan::Replay));
        assert_eq!(
            p(Some("replay"), None, None, None, false),
            Err(PlanError::Missing {
                path: "c/x.cassette.json".into(),
                ci: false
            })
        );
        assert_eq!(p(Some("off"), None, None, None, false), Ok(Plan::Off));
        // UNDERSTUDY_RECORD=1 is another spelling of record; the option wins over both.
        assert_eq!(
            p(Some("replay"), Some("1"), None, None, true),
            Ok(Plan::Record)
        );
        assert_eq!(
            p(Some("record"), None, None, Some(false), true),
            Ok(Plan::Replay)
        );
        assert_eq!(
            p(None, None, Some("true"), Some(true), false),
            Ok(Plan::Record)
        );
        assert_eq!(
            p(Some("recrod"), None, None, None, true),
            Err(PlanError::UnknownMode("recrod".into()))
        );
        let message = PlanError::Missing {
            path: "c/x.cassette.json".into(),
            ci: true,
        }
        .to_string();
        assert!(message.starts_with("Cassette c/x.cassette.json does not exist and CI is set, so nothing is recorded; record it by running the test with UNDERSTUDY_CASSETTES=record"), "{message}");
    }

    #[test]
    fn first_difference_reports_the_earliest_pointer() {
        let a = json!({ "input": [{ "content": "What is 2+2?" }], "model": "m" });
        let b = json!({ "input": [{ "content": "What is 3+3?" }], "model": "n" });
        let d = first_difference(&a, &b).unwrap();
        assert_eq!(d.pointer, "/input/0/content");
        assert_eq!(
            (d.recorded, d.live),
            (Some(json!("What is 2+2?")), Some(json!("What is 3+3?")))
        );
        let d = first_difference(&json!({ "a/b": [1] }), &json!({ "a/b": [1, 2] })).unwrap();
        assert_eq!(
            (d.pointer.as_str(), d.recorded, d.live),
            ("/a~1b/1", None, Some(json!(2)))
        );
        assert_eq!(first_difference(&a, &a), None);
    }

    #[test]
    fn matching_by_request_is_robust_to_order_and_uses_each_step_once() {
        let r = redaction();
        let step = |input: &str| {
            record_step(
                json!({ "input": input }),
                false,
                Outcome::Response(json!({ "output": [] })),
                &r,
            )
        };
        let cassette = load(build(
            vec![step("first"), step("second"), step("first")],
            &r,
        ))
        .unwrap();
        let mut m = Matcher::new(&cassette);
        let live = |input: &str| normalize_request(json!({ "input": input, "signal": {} }), &r);
        assert_eq!(m.pick(&live("second"), 0), Ok(1));
        assert_eq!(m.pick(&live("first"), 1), Ok(0));
        assert_eq!(m.pick(&live("first"), 2), Ok(2));
        let e = m.pick(&live("first"), 3).unwrap_err();
        assert_eq!(e.closest, None);
        // A hand-edited request with its keys out of order still matches.
        let mut edited = build(vec![step("x")], &r);
        edited["steps"][0]["request"] = serde_json::from_str(r#"{"z": 1, "input": "x"}"#).unwrap();
        let mut m = Matcher::new(&load(edited).unwrap());
        assert_eq!(
            m.pick(&normalize_request(json!({ "input": "x", "z": 1 }), &r), 0),
            Ok(0)
        );
        assert!(e
            .to_string()
            .ends_with("Every recorded step has been used. If the change is intended, re-record the cassette: run the test with UNDERSTUDY_CASSETTES=record."));
    }

    #[test]
    fn a_mismatch_names_the_closest_step_and_the_first_differing_field() {
        let r = redaction();
        let step = |input: &str, model: &str| {
            record_step(
                json!({ "input": [{ "role": "user", "content": input }], "model": model }),
                false,
                Outcome::Response(json!({ "output": [] })),
                &r,
            )
        };
        let cassette = load(build(
            vec![step("weather in Paris", "a"), step("weather in Tokyo", "b")],
            &r,
        ))
        .unwrap();
        let mut m = Matcher::new(&cassette);
        let live = normalize_request(
            json!({ "input": [{ "role": "user", "content": "weather in Tokyo" }], "model": "c" }),
            &r,
        );
        let e = m.pick(&live, 4).unwrap_err();
        let (step, d) = e.closest.clone().unwrap();
        assert_eq!((step, d.pointer.as_str()), (1, "/model"));
        assert_eq!(
            e.to_string(),
            format!(
                "No recorded request matches model call #5 (request hash {}). The closest unused recorded request (step #2) differs at /model: recorded \"b\", live \"c\". If the change is intended, re-record the cassette: run the test with UNDERSTUDY_CASSETTES=record.",
                hash(&live)
            )
        );
    }
}
