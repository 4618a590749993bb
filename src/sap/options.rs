//! The options of schema-aligned parsing and of the repairing wrappers, read from what the host
//! found in the caller's objects: which keys exist, what each may hold, and the message that
//! refuses anything else (a misspelled option never passes silently). The bindings only say
//! what each value is ([`Given`]); every decision is here, tested natively.

use super::repair::Completion;
use super::{FixKind, Options};

/// An option's value as the host read it, with what a message needs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Given {
    /// `undefined`.
    Absent,
    Bool(bool),
    Str(String),
    /// An array: each element's text, or `Err` with the host's `String()` of a non-string
    /// element; and the host's `String()` of the whole array.
    List {
        items: Vec<Result<String, String>>,
        text: String,
    },
    /// Anything else, as the host's `String()` of it.
    Other(String),
}

impl Given {
    /// The host's `String()` of the value, for a message.
    fn text(&self) -> String {
        match self {
            Given::Absent => "undefined".into(),
            Given::Bool(b) => b.to_string(),
            Given::Str(s) | Given::Other(s) | Given::List { text: s, .. } => s.clone(),
        }
    }
}

/// An options argument: `undefined` or `null`, a value that is not an object, or an object's
/// own enumerable keys in order with their values.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OptionsArg {
    Missing,
    NotObject,
    Entries(Vec<(String, Given)>),
}

impl OptionsArg {
    /// The entries of `surface`'s options: none when they are missing, and a message when they
    /// are not an object.
    fn entries(self, surface: &str) -> Result<Vec<(String, Given)>, String> {
        match self {
            OptionsArg::Missing => Ok(Vec::new()),
            OptionsArg::NotObject => Err(format!("{surface} options must be an object.")),
            OptionsArg::Entries(entries) => Ok(entries),
        }
    }
}

/// `parseStructured`'s (and `parse`'s) `{ truncated?: 'close' | 'error', allowFixes?: kind[] }`.
pub fn parse_options(arg: OptionsArg) -> Result<Options, String> {
    let mut out = Options::default();
    for (key, value) in arg.entries("parseStructured")? {
        match key.as_str() {
            "truncated" => match value {
                Given::Str(s) if s == "close" => out.refuse_truncated = false,
                Given::Str(s) if s == "error" => out.refuse_truncated = true,
                Given::Absent => {}
                _ => return Err("parseStructured option `truncated` must be 'close' or 'error'.".into()),
            },
            "allowFixes" => {
                if value != Given::Absent {
                    out.allow_fixes = Some(allow_fixes(value, "parseStructured")?);
                }
            }
            other => {
                return Err(format!(
                    "Unknown parseStructured option `{other}`; the options are `truncated` and `allowFixes`."
                ))
            }
        }
    }
    Ok(out)
}

/// `allowFixes`: an array of repair kinds ([`FixKind`]); `surface` is the function the caller
/// gave it to (`parseStructured`, `repairingModel`, `repairingMiddleware`).
pub fn allow_fixes(value: Given, surface: &str) -> Result<Vec<String>, String> {
    let Given::List { items, .. } = value else {
        return Err(format!(
            "{surface} option `allowFixes` must be an array of repair kinds."
        ));
    };
    let mut kinds = Vec::new();
    for item in items {
        match item {
            Ok(k) if FixKind::ALL.iter().any(|f| f.as_str() == k) => kinds.push(k),
            Ok(text) | Err(text) => return Err(unknown_kind(&text, surface)),
        }
    }
    Ok(kinds)
}

fn unknown_kind(text: &str, surface: &str) -> String {
    format!(
        "{surface} option `allowFixes` has an unknown repair kind {text}; the kinds are {}.",
        FixKind::ALL
            .iter()
            .map(|f| f.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    )
}

/// `parsePartial`'s (and `partial`'s) `{ atomic?: string[] }`: JSON Pointers (`*` for any key
/// or index).
pub fn partial_options(arg: OptionsArg) -> Result<Vec<String>, String> {
    let mut atomic = Vec::new();
    for (key, value) in arg.entries("parsePartial")? {
        if key != "atomic" {
            return Err(format!(
                "Unknown parsePartial option `{key}`; the option is `atomic`."
            ));
        }
        match value {
            Given::Absent => {}
            Given::List { items, .. } => {
                for item in items {
                    match item {
                        Ok(p) if p.is_empty() || p.starts_with('/') => atomic.push(p),
                        Ok(text) | Err(text) => {
                            return Err(format!(
                                "parsePartial option `atomic` has {text}, which is not a JSON Pointer (\"\" or starting with \"/\")."
                            ))
                        }
                    }
                }
            }
            _ => {
                return Err(
                    "parsePartial option `atomic` must be an array of JSON Pointers.".into(),
                )
            }
        }
    }
    Ok(atomic)
}

/// `completeTruncated` of a repairing wrapper (`surface` names it): `true` (every tool call
/// and the final output), `false` or absent (never), or an array of tool names.
pub fn completion(value: Given, surface: &str) -> Result<Completion, String> {
    match value {
        Given::Absent | Given::Bool(false) => Ok(Completion::Never),
        Given::Bool(true) => Ok(Completion::Always),
        Given::List { ref items, .. } if items.iter().all(Result::is_ok) => Ok(Completion::Tools(
            items.iter().flatten().cloned().collect(),
        )),
        other => Err(format!(
            "{surface} option `completeTruncated` must be true, false or an array of tool names, got {}.",
            other.text()
        )),
    }
}

/// The message for a schema argument that is neither a JSON Schema (a non-array object or a
/// boolean) nor a Standard Schema with JSON; `surface` is the function it was given to.
pub fn not_a_guide(surface: &str) -> String {
    format!("{surface} expects a JSON Schema (an object or a boolean) or a Standard Schema with JSON Schema conversion.")
}

/// The message for a schema `JSON.stringify` cannot follow (a cycle, or nested deeper than the
/// host's stack).
pub fn unreadable_guide(surface: &str) -> String {
    format!("{surface} expects a JSON Schema it can read as JSON; this one is cyclic or nested too deeply.")
}

/// A few parsed schemas, keyed by their JSON text: the SDKs hand the same schemas call after
/// call, and a schema mutated between calls is simply another key. The oldest goes first.
pub struct SchemaCache<K, V> {
    entries: std::collections::VecDeque<(K, std::rc::Rc<V>)>,
    capacity: usize,
}

impl<K: PartialEq, V> SchemaCache<K, V> {
    pub const fn new(capacity: usize) -> Self {
        SchemaCache {
            entries: std::collections::VecDeque::new(),
            capacity,
        }
    }

    /// The value kept for `key`.
    pub fn get(&self, key: &K) -> Option<std::rc::Rc<V>> {
        self.entries
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.clone())
    }

    /// Keeps `value` for `key`, dropping the oldest entry when full.
    pub fn insert(&mut self, key: K, value: V) -> std::rc::Rc<V> {
        if self.entries.len() >= self.capacity {
            self.entries.pop_front();
        }
        let value = std::rc::Rc::new(value);
        self.entries.push_back((key, value.clone()));
        value
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entries(list: &[(&str, Given)]) -> OptionsArg {
        OptionsArg::Entries(
            list.iter()
                .map(|(k, v)| (k.to_string(), v.clone()))
                .collect(),
        )
    }

    fn list(items: &[Result<&str, &str>]) -> Given {
        Given::List {
            items: items
                .iter()
                .map(|i| i.map(str::to_owned).map_err(str::to_owned))
                .collect(),
            text: "[list]".into(),
        }
    }

    #[test]
    fn parse_options_take_truncated_and_allow_fixes_only() {
        assert_eq!(parse_options(OptionsArg::Missing), Ok(Options::default()));
        let read = parse_options(entries(&[
            ("truncated", Given::Str("error".into())),
            ("allowFixes", list(&[Ok("closed_at_end")])),
        ]))
        .unwrap();
        assert!(read.refuse_truncated);
        assert_eq!(read.allow_fixes, Some(vec!["closed_at_end".to_string()]));
        let absent = parse_options(entries(&[
            ("truncated", Given::Absent),
            ("allowFixes", Given::Absent),
        ]))
        .unwrap();
        assert_eq!(absent, Options::default());
        for (options, message) in [
            (OptionsArg::NotObject, "parseStructured options must be an object."),
            (entries(&[("truncated", Given::Str("cut".into()))]), "parseStructured option `truncated` must be 'close' or 'error'."),
            (entries(&[("truncated", Given::Bool(true))]), "parseStructured option `truncated` must be 'close' or 'error'."),
            (entries(&[("allowFixes", Given::Str("x".into()))]), "parseStructured option `allowFixes` must be an array of repair kinds."),
            (entries(&[("truncate", Given::Absent)]), "Unknown parseStructured option `truncate`; the options are `truncated` and `allowFixes`."),
        ] {
            assert_eq!(parse_options(options), Err(message.to_string()));
        }
        let unknown = parse_options(entries(&[("allowFixes", list(&[Err("5")]))])).unwrap_err();
        assert!(
            unknown.starts_with(
                "parseStructured option `allowFixes` has an unknown repair kind 5; the kinds are "
            ),
            "{unknown}"
        );
        assert!(unknown.contains("closed_at_end"), "{unknown}");
        let misspelled = allow_fixes(list(&[Ok("closed")]), "repairingMiddleware").unwrap_err();
        assert!(
            misspelled.starts_with(
                "repairingMiddleware option `allowFixes` has an unknown repair kind closed;"
            ),
            "the message names the function called: {misspelled}"
        );
        assert_eq!(
            not_a_guide("repairText"),
            "repairText expects a JSON Schema (an object or a boolean) or a Standard Schema with JSON Schema conversion."
        );
    }

    #[test]
    fn partial_options_take_json_pointers() {
        assert_eq!(partial_options(OptionsArg::Missing), Ok(vec![]));
        assert_eq!(
            partial_options(entries(&[("atomic", list(&[Ok(""), Ok("/a/*")]))])),
            Ok(vec!["".to_string(), "/a/*".to_string()])
        );
        assert_eq!(
            partial_options(entries(&[("atomic", Given::Absent)])),
            Ok(vec![])
        );
        assert_eq!(
            partial_options(entries(&[("atomic", list(&[Ok("a")]))])),
            Err("parsePartial option `atomic` has a, which is not a JSON Pointer (\"\" or starting with \"/\").".into())
        );
        assert_eq!(
            partial_options(entries(&[("atomic", list(&[Err("1")]))])),
            Err("parsePartial option `atomic` has 1, which is not a JSON Pointer (\"\" or starting with \"/\").".into())
        );
        assert_eq!(
            partial_options(entries(&[("atomic", Given::Str("/a".into()))])),
            Err("parsePartial option `atomic` must be an array of JSON Pointers.".into())
        );
        assert_eq!(
            partial_options(entries(&[("atom", Given::Absent)])),
            Err("Unknown parsePartial option `atom`; the option is `atomic`.".into())
        );
        assert_eq!(
            partial_options(OptionsArg::NotObject),
            Err("parsePartial options must be an object.".into())
        );
    }

    #[test]
    fn complete_truncated_is_a_boolean_or_tool_names() {
        assert_eq!(completion(Given::Absent, "s"), Ok(Completion::Never));
        assert_eq!(completion(Given::Bool(false), "s"), Ok(Completion::Never));
        assert_eq!(completion(Given::Bool(true), "s"), Ok(Completion::Always));
        assert_eq!(
            completion(list(&[Ok("read_file")]), "s"),
            Ok(Completion::Tools(vec!["read_file".into()]))
        );
        assert_eq!(
            completion(Given::Other("[object Object]".into()), "repairingModel"),
            Err("repairingModel option `completeTruncated` must be true, false or an array of tool names, got [object Object].".into())
        );
        assert_eq!(
            completion(list(&[Ok("a"), Err("1")]), "repairingMiddleware"),
            Err("repairingMiddleware option `completeTruncated` must be true, false or an array of tool names, got [list].".into())
        );
    }

    #[test]
    fn the_schema_cache_keeps_the_newest() {
        let mut cache = SchemaCache::new(2);
        cache.insert("a", 1);
        cache.insert("b", 2);
        assert_eq!(cache.get(&"a").as_deref(), Some(&1));
        cache.insert("c", 3);
        assert_eq!(cache.get(&"a"), None);
        assert_eq!(cache.get(&"b").as_deref(), Some(&2));
        assert_eq!(cache.get(&"c").as_deref(), Some(&3));
    }
}
