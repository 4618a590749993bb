//! Who runs the regular expressions: natively the `regex` crate ([`RegexHost`]), in the wasm
//! module the JavaScript host's `RegExp`, so the engine carries no regex engine and a user's
//! `RegExp` means what it means in JavaScript. The engine decides which strings are redacted
//! and with which patterns.

#[cfg(not(target_arch = "wasm32"))]
use std::rc::Rc;

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

/// A text some pattern matched in: the text with the matches replaced, and what was taken out
/// (for a `keep` pattern, the part between groups 1 and 2).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Replaced {
    pub text: String,
    pub taken: Vec<String>,
}

/// Runs redaction patterns for the engine.
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
    ) -> Vec<Option<Replaced>>;
    /// The first (text, pattern) pair where a pattern matches something no `allow` pattern
    /// finds anything in.
    fn first_match(
        &self,
        texts: &[&str],
        patterns: &[Pattern],
        allow: &[Pattern],
    ) -> Option<(usize, usize)>;
}

/// The native pattern host: the `regex` crate, with compiled patterns cached by text. `\b` and
/// `\B` mean what they mean in JavaScript (an ASCII word boundary), as in the wasm module.
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
        let regex = regex::Regex::new(&ascii_boundaries(pattern))?;
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

    /// Whether an `allow` pattern finds something in a matched text.
    fn allowed(allow: &[Pattern]) -> impl Fn(&str) -> bool {
        let allow: Vec<regex::Regex> = allow
            .iter()
            .filter_map(|p| RegexHost::compile(&p.text).ok())
            .collect();
        move |text: &str| allow.iter().any(|a| a.is_match(text))
    }
}

/// `\b` and `\B` (not escaped backslashes) as JavaScript reads them: ASCII word boundaries.
#[cfg(not(target_arch = "wasm32"))]
fn ascii_boundaries(pattern: &str) -> String {
    let mut out = String::with_capacity(pattern.len());
    let mut chars = pattern.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some(b @ ('b' | 'B')) => {
                out.push_str("(?-u:\\");
                out.push(b);
                out.push(')');
            }
            Some(other) => {
                out.push('\\');
                out.push(other);
            }
            None => out.push('\\'),
        }
    }
    out
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
    ) -> Vec<Option<Replaced>> {
        let compiled: Vec<(regex::Regex, bool)> = patterns
            .iter()
            .filter_map(|p| RegexHost::compile(&p.text).ok().map(|r| (r, p.keep)))
            .collect();
        let allowed = RegexHost::allowed(allow);
        texts
            .iter()
            .map(|text| {
                let mut out: Option<Replaced> = None;
                for (re, keep) in &compiled {
                    let current = out.as_ref().map_or(*text, |r| r.text.as_str());
                    if !re.is_match(current) {
                        continue;
                    }
                    let mut taken = Vec::new();
                    let replaced = re.replace_all(current, |caps: &regex::Captures| {
                        let whole = &caps[0];
                        if allowed(whole) {
                            return whole.to_owned();
                        }
                        if *keep {
                            let group = |i| caps.get(i).map_or("", |m| m.as_str());
                            let (before, after) = (group(1), group(2));
                            taken.push(whole[before.len()..whole.len() - after.len()].to_owned());
                            format!("{before}{with}{after}")
                        } else {
                            taken.push(whole.to_owned());
                            with.to_owned()
                        }
                    });
                    if replaced != current {
                        let replaced = replaced.into_owned();
                        match &mut out {
                            Some(r) => {
                                r.text = replaced;
                                r.taken.extend(taken);
                            }
                            None => {
                                out = Some(Replaced {
                                    text: replaced,
                                    taken,
                                })
                            }
                        }
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

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;

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
    fn word_boundaries_are_ascii_as_in_javascript() {
        assert_eq!(ascii_boundaries(r"\bsk-\\b\B"), r"(?-u:\b)sk-\\b(?-u:\B)");
        let re = RegexHost::compile(r"\bab").unwrap();
        // JavaScript: `é` is not a word character, so a boundary stands before `a`.
        assert!(re.is_match("éab"));
        assert!(!re.is_match("xab"));
    }

    #[test]
    fn replacing_reports_what_was_taken() {
        let mut keep = Pattern::new(r"(p=)\w+()");
        keep.keep = true;
        let out = RegexHost.replace_all(
            &["a p=xyz b", "none"],
            &[Pattern::new(r"\d{3}"), keep],
            "#",
            &[],
        );
        assert_eq!(
            out,
            vec![
                Some(Replaced {
                    text: "a p=# b".into(),
                    taken: vec!["xyz".into()]
                }),
                None
            ]
        );
    }
}
