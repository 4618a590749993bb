//! Credentials written as `name = value` inside a text: JSON or a Python dict held in a string
//! (tool-call arguments, a tool's JSON output, escaped once or not), `.env` and shell lines
//! (`DD_API_KEY=…`, `export TOKEN="…"`), YAML and header lines (`password: …`,
//! `Authorization: Bearer …`), command-line flags (`--password=…`) and URL parameters
//! (`?access_token=…`). The name is judged by [`super::names`]; only the value's span is
//! replaced, so the rest of the text keeps its layout byte for byte.
//!
//! Which forms are read (a bare value is one without quotes):
//! - a quoted value after any credential name and `=`, `:` or `=>` (`"password": "…"`,
//!   `password="…"`, `'api_key' => '…'`), and each quoted item of an array after a quoted
//!   name (`"api_keys": ["…", "…"]`);
//! - a bare value after an unquoted name and `=` with no space around it (`API_KEY=…`,
//!   `--token=…`, `?sig=…`), up to a space (in a URL, up to `&`, `#` or `;` as well);
//! - a bare value at the end of a line that starts with the name (`password: …`,
//!   `export SECRET=…`): one word, or an auth scheme and one word; a line holding prose
//!   (`Password: ask the admin`) or code (`password = get(…)`, `token: env.TOKEN,`) is kept.
//!
//! A JSON literal after a quoted name (`"password": null`, `"pin": 1234`) is not a secret.

use super::names::{self, Context, Kind};
use std::ops::Range;

/// A value found in a text: its byte range and the rule that found it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found {
    pub range: Range<usize>,
    pub rule: &'static str,
}

/// The rule of a value after a quoted name (a JSON or dict key).
pub const QUOTED_RULE: &str = "credential-key";
/// The rule of a value after a bare name (an assignment, a flag, a header or YAML line).
pub const ASSIGNMENT_RULE: &str = "credential-assignment";
/// The rule of a URL query parameter's value.
pub const URL_RULE: &str = "url-secret-parameter";

/// Longest name looked at, and longest quoted value followed.
const MAX_NAME: usize = 64;
const MAX_VALUE: usize = 8192;

/// Every credential value in `text`, in order, not overlapping.
pub fn find(text: &str) -> Vec<Found> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'=' || b[i] == b':' {
            let before = out.len();
            if let Some(next) = at_separator(text, i, &mut out) {
                if out.len() > before {
                    i = next;
                    continue;
                }
            }
        }
        i += 1;
    }
    out
}

fn is_name_byte(c: u8) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, b'_' | b'-' | b'.')
}

fn is_quote(c: u8) -> bool {
    matches!(c, b'"' | b'\'' | b'`')
}

/// A quote as written: the quote character, escaped once (`\"`) or not.
#[derive(Clone, Copy)]
struct QuoteMark {
    quote: u8,
    escaped: bool,
}

impl QuoteMark {
    fn len(self) -> usize {
        1 + usize::from(self.escaped)
    }

    /// The mark that opens at `at`, if any.
    fn opening(b: &[u8], at: usize) -> Option<QuoteMark> {
        match (b.get(at), b.get(at + 1)) {
            (Some(b'\\'), Some(&q)) if q == b'"' => Some(QuoteMark {
                quote: q,
                escaped: true,
            }),
            (Some(&q), _) if is_quote(q) => Some(QuoteMark {
                quote: q,
                escaped: false,
            }),
            _ => None,
        }
    }

    /// Where the string opened by this mark at `start` (its first content byte) closes: the
    /// position of the closing mark. Backslash escapes are skipped; a line end or
    /// [`MAX_VALUE`] bytes give up.
    fn closing(self, b: &[u8], start: usize) -> Option<usize> {
        let mut i = start;
        let end = b.len().min(start + MAX_VALUE);
        while i < end {
            let c = b[i];
            if c == b'\n' {
                return None;
            }
            if self.escaped {
                // Inside an escaped string, the content's own escapes are doubled: `\\\"`.
                if c == b'\\' {
                    if b.get(i + 1) == Some(&self.quote) {
                        return Some(i);
                    }
                    if b.get(i + 1) == Some(&b'\\') {
                        i += 2;
                        // `\\\"` is an escaped quote inside the content.
                        if b.get(i) == Some(&b'\\') && b.get(i + 1) == Some(&self.quote) {
                            i += 2;
                        }
                        continue;
                    }
                }
                i += 1;
                continue;
            }
            if c == b'\\' {
                i += 2;
                continue;
            }
            if c == self.quote {
                return Some(i);
            }
            i += 1;
        }
        None
    }
}

/// The name before a separator: `(start, end, name, quoted)`, from where the name (or its
/// opening quote) begins to where it (or its closing quote) ends.
fn name_before(text: &str, mut j: usize) -> Option<(usize, usize, &str, bool)> {
    let b = text.as_bytes();
    while j > 0 && matches!(b[j - 1], b' ' | b'\t') {
        j -= 1;
    }
    if j == 0 {
        return None;
    }
    let last = b[j - 1];
    if is_quote(last) {
        let escaped = j >= 2 && b[j - 2] == b'\\';
        let end = j - 1 - usize::from(escaped);
        let mut k = end;
        let floor = end.saturating_sub(MAX_NAME);
        while k > floor {
            k -= 1;
            if b[k] == last {
                let open_escaped = k >= 1 && b[k - 1] == b'\\';
                if open_escaped != escaped {
                    return None;
                }
                let start = k - usize::from(escaped);
                return Some((start, j, text.get(k + 1..end)?, true));
            }
            if !is_name_byte(b[k]) && b[k] != b' ' {
                return None;
            }
        }
        return None;
    }
    let end = j;
    let mut k = end;
    while k > 0 && is_name_byte(b[k - 1]) {
        k -= 1;
        if end - k > MAX_NAME {
            return None;
        }
    }
    let name = text[k..end].trim_start_matches(['-', '.']);
    (!name.is_empty()).then_some((k, end, name, false))
}

/// Whether only blanks (and an `export ` or a list dash) stand between the line's start and
/// `at`.
fn starts_line(b: &[u8], at: usize) -> bool {
    let mut k = at;
    while k > 0 && matches!(b[k - 1], b' ' | b'\t') {
        k -= 1;
    }
    for word in [&b"export"[..], b"set", b"-"] {
        if k >= word.len() && &b[k - word.len()..k] == word && k < at {
            let mut s = k - word.len();
            while s > 0 && matches!(b[s - 1], b' ' | b'\t') {
                s -= 1;
            }
            if s == 0 || b[s - 1] == b'\n' {
                return true;
            }
        }
    }
    k == 0 || b[k - 1] == b'\n'
}

fn push(out: &mut Vec<Found>, text: &str, kind: Kind, range: Range<usize>, rule: &'static str) {
    if !range.is_empty() && names::is_secret_value(kind, &text[range.clone()]) {
        out.push(Found { range, rule });
    }
}

/// Reads a `name <sep> value` at the separator byte `sep`; pushes what it finds and answers
/// where reading goes on.
fn at_separator(text: &str, sep: usize, out: &mut Vec<Found>) -> Option<usize> {
    let b = text.as_bytes();
    let next = b.get(sep + 1).copied();
    let sep_len = match (b[sep], next) {
        (b'=', Some(b'>')) => 2,
        (b'=', Some(b'=')) | (b':', Some(b':')) | (b':', Some(b'/')) | (b':', Some(b'=')) => {
            return None
        }
        _ => 1,
    };
    if b[sep] == b'=' && sep > 0 && matches!(b[sep - 1], b'=' | b'!' | b'<' | b'>') {
        return None;
    }
    let (start, end, name, quoted) = name_before(text, sep)?;
    let tight_before = end == sep;
    let in_url =
        !quoted && b[sep] == b'=' && start > 0 && matches!(b[start - 1], b'?' | b'&' | b';');
    let context = if in_url { Context::Url } else { Context::Key };
    let kind = names::credential_kind(name, context)?;
    let rule = if quoted {
        QUOTED_RULE
    } else if in_url {
        URL_RULE
    } else {
        ASSIGNMENT_RULE
    };
    let mut k = sep + sep_len;
    while k < b.len() && matches!(b[k], b' ' | b'\t') {
        k += 1;
    }
    let tight_after = k == sep + sep_len;
    // A quoted value, anywhere.
    if let Some(mark) = QuoteMark::opening(b, k) {
        let from = k + mark.len();
        let to = mark.closing(b, from)?;
        push(out, text, kind, from..to, rule);
        return Some(to + mark.len());
    }
    // The quoted items of an array after a quoted name.
    if quoted && b.get(k) == Some(&b'[') {
        let mut i = k + 1;
        let limit = b.len().min(k + MAX_VALUE);
        while i < limit && b[i] != b']' {
            if let Some(mark) = QuoteMark::opening(b, i) {
                let from = i + mark.len();
                let to = mark.closing(b, from)?;
                push(out, text, kind, from..to, rule);
                i = to + mark.len();
            } else {
                i += 1;
            }
        }
        return Some(i);
    }
    if quoted {
        return None;
    }
    // A bare value right after `name=` (an assignment, a flag, a URL parameter).
    let line_end = b[k..]
        .iter()
        .position(|&c| c == b'\n')
        .map_or(b.len(), |n| k + n);
    if b[sep] == b'=' && sep_len == 1 && tight_before && tight_after {
        let stop = |c: u8| {
            c.is_ascii_whitespace()
                || matches!(c, b'"' | b'\'' | b'<' | b'>' | b'`')
                || (in_url && matches!(c, b'&' | b'#' | b';'))
        };
        let to = b[k..line_end]
            .iter()
            .position(|&c| stop(c))
            .map_or(line_end, |n| k + n);
        let value = &text[k..to];
        if !looks_like_code(value) {
            push(out, text, kind, k..to, rule);
        }
        return Some(to);
    }
    // A bare value ending a line that starts with the name.
    if !starts_line(b, start) || (b[sep] == b'=' && !tight_before) {
        return None;
    }
    let value = text[k..line_end].trim_end();
    let to = k + value.len();
    if value.is_empty() || looks_like_code(value) {
        return None;
    }
    // A cookie header of several words (`sid=…; Path=/; HttpOnly`): each cookie's value.
    if value.contains([' ', '\t']) && names::is_cookie_header(name) {
        cookie_values(text, k, to, kind, rule, out);
        return Some(to);
    }
    match value.split_once([' ', '\t']) {
        None => push(out, text, kind, k..to, rule),
        Some((scheme, rest)) if names::is_auth_scheme(scheme) => {
            let rest_trimmed = rest.trim_start();
            if !rest_trimmed.contains([' ', '\t']) {
                push(out, text, kind, to - rest_trimmed.len()..to, rule);
            }
        }
        Some(_) => {}
    }
    Some(to)
}

/// The values of the `name=value` pairs in `text[from..to]` (a cookie header's value, pairs
/// separated by `;`), leaving the names and `Set-Cookie` attributes as they are.
fn cookie_values(
    text: &str,
    from: usize,
    to: usize,
    kind: Kind,
    rule: &'static str,
    out: &mut Vec<Found>,
) {
    let mut at = from;
    for pair in text[from..to].split(';') {
        let start = at;
        at += pair.len() + 1;
        let Some(eq) = pair.find('=') else { continue };
        if names::is_cookie_attribute(pair[..eq].trim()) {
            continue;
        }
        let written = &pair[eq + 1..];
        let value = written.trim();
        let value_start = start + eq + 1 + (written.len() - written.trim_start().len());
        push(
            out,
            text,
            kind,
            value_start..value_start + value.len(),
            rule,
        );
    }
}

/// A bare value that is code rather than a value: a call, an index, a statement's end.
fn looks_like_code(value: &str) -> bool {
    value.contains(['(', ')', '[', ']', '{', '}']) || value.ends_with([',', ';'])
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The text with every value found replaced by `[REDACTED]`.
    fn redact(text: &str) -> String {
        let mut out = String::new();
        let mut at = 0;
        for f in find(text) {
            out.push_str(&text[at..f.range.start]);
            out.push_str("[REDACTED]");
            at = f.range.end;
        }
        out.push_str(&text[at..]);
        out
    }

    #[test]
    fn json_and_dicts_in_text_keep_their_layout() {
        for (text, expected) in [
            (
                r#"{"user":"ann","password":"hunter2hunter2"}"#,
                r#"{"user":"ann","password":"[REDACTED]"}"#,
            ),
            (
                "{\n  \"user\": \"ann\",\n  \"password\" : \"p\\\"w\"\n}",
                "{\n  \"user\": \"ann\",\n  \"password\" : \"[REDACTED]\"\n}",
            ),
            (
                r#"{'api_key': 'a8f5f167f44f4964e6c998dee827110c', 'n': 1}"#,
                r#"{'api_key': '[REDACTED]', 'n': 1}"#,
            ),
            (
                r#"{"output":"{\"SecretAccessKey\":\"wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY\"}"}"#,
                r#"{"output":"{\"SecretAccessKey\":\"[REDACTED]\"}"}"#,
            ),
            (
                r#"{"api_keys": ["a8f5f167f44f4964", "0cc175b9c0f1b6a8"]}"#,
                r#"{"api_keys": ["[REDACTED]", "[REDACTED]"]}"#,
            ),
            (
                r#"login(user="ann", password="hunter2")"#,
                r#"login(user="ann", password="[REDACTED]")"#,
            ),
        ] {
            assert_eq!(redact(text), expected, "{text}");
        }
    }

    #[test]
    fn env_shell_yaml_and_header_lines() {
        let text = "DD_API_KEY=0123456789abcdef0123456789abcdef\n\
                    AZURE_OPENAI_API_KEY=3f2a9c1b8e7d6f5a4b3c2d1e0f9a8b7c\n\
                    export MY_SERVICE_TOKEN=\"tok_live_9a8b7c6d5e4f3a2b\"\n\
                    SESSION_SECRET=s3ss10n-s3cr3t-v4lu3\n\
                    PASSWORD=admin\n\
                    DATABASE_URL=postgres://localhost/app\n\
                    password: hunter2\n\
                    Authorization: Bearer abc.def.ghi\n\
                    PORT=8080\n";
        assert_eq!(
            redact(text),
            "DD_API_KEY=[REDACTED]\n\
             AZURE_OPENAI_API_KEY=[REDACTED]\n\
             export MY_SERVICE_TOKEN=\"[REDACTED]\"\n\
             SESSION_SECRET=[REDACTED]\n\
             PASSWORD=[REDACTED]\n\
             DATABASE_URL=postgres://localhost/app\n\
             password: [REDACTED]\n\
             Authorization: Bearer [REDACTED]\n\
             PORT=8080\n"
        );
        assert_eq!(
            redact("run --password=hunter2 --user=ann now"),
            "run --password=[REDACTED] --user=ann now"
        );
    }

    #[test]
    fn cookie_header_lines_lose_each_cookie_value_and_keep_the_attributes() {
        assert_eq!(
            redact("Set-Cookie: sessionid=8f3k2l9d0sQ7; Path=/; Max-Age=3600; HttpOnly\nContent-Type: text/html"),
            "Set-Cookie: sessionid=[REDACTED]; Path=/; Max-Age=3600; HttpOnly\nContent-Type: text/html"
        );
        assert_eq!(
            redact("Cookie: theme=dark-mode-v2; sid=Zk81nQv4Lm0pRt7s"),
            "Cookie: theme=[REDACTED]; sid=[REDACTED]"
        );
        // One word: the whole value, as for any credential header.
        assert_eq!(redact("Cookie: sid=abcdef123456"), "Cookie: [REDACTED]");
        // Prose that names cookies is not a header line.
        assert_eq!(
            redact("We use cookies: they keep you signed in; see Path=/help"),
            "We use cookies: they keep you signed in; see Path=/help"
        );
    }

    #[test]
    fn url_parameters_by_their_whole_name() {
        assert_eq!(
            redact(
                "https://x.io/a?keyword=cat&key=AIzaFAKE1234567&monkey=1&sig=abcdEFGH1234&page=2"
            ),
            "https://x.io/a?keyword=cat&key=[REDACTED]&monkey=1&sig=[REDACTED]&page=2"
        );
        let found = find("https://x.io/a?access_token=abc123def456#top");
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].rule, URL_RULE);
    }

    #[test]
    fn ordinary_text_and_code_are_kept() {
        for text in [
            "secretary: Ms. Smith",
            "password_policy: min 12 chars",
            "tokenType: Bearer",
            r#"{"token_type": "Bearer", "expires_in": 3600}"#,
            r#"{"password": null, "pin": 1234, "secret": ""}"#,
            "Password: ask the admin for it",
            "The token: it is issued on login.",
            "password = get_password()",
            "  token: process.env.TOKEN,",
            "if (a == b && password != x) {}",
            "color: red; margin: 0 auto;",
            "SELECT id FROM users WHERE created_at >= '2024-01-01'",
            "https://example.com/search?q=risk&keyword=cat",
            r#"{"secret": "The secret is less salt"}"#,
            r#"{"api_key": "${OPENAI_API_KEY}"}"#,
            "API_KEY=<your-key-here>",
        ] {
            assert_eq!(redact(text), text);
        }
    }
}
