//! The validator module's bindings (`compileJsonSchema`): the only code that needs the
//! `jsonschema` crate, so it ships as its own wasm module; its patterns run on the host's
//! `RegExp` or, when simple, natively (`HostRegExps`).

use std::cell::RefCell;
use std::rc::{Rc, Weak};

use js_sys::Reflect;
use wasm_bindgen::prelude::*;

use super::{encoding_error, js, parse_schema, raise, user_error, with_input, Live};
use crate::error::InvalidSchemaError;
use crate::map::FastMap;
use crate::schema::ecma_regex::{self, EcmaRegex};
use crate::schema::json;
use crate::schema::simple_pattern::SimplePattern;
use crate::schema::validate::{self, Compiled};

/// A compiled JSON Schema validator.
#[wasm_bindgen]
pub struct Validator {
    /// Shared by every validator of the same schema text and options ([`COMPILED`]).
    compiled: Rc<Compiled>,
    _live: Live,
}

/// A report crosses as `None` (`undefined`) when valid (the common case, and no text to build)
/// and as its issues' text otherwise ([`validate::Report::issues_text`]).
fn report_text(report: validate::Report) -> Option<String> {
    (!report.valid).then(|| report.issues_text())
}

#[wasm_bindgen]
impl Validator {
    /// Validates the value in the input buffer (`len` bytes of the facade's tagged JSON
    /// encoding): `undefined` when valid, else the issues' text.
    #[wasm_bindgen(js_name = validateInput)]
    pub fn validate_input(&self, len: usize) -> Result<Option<String>, JsValue> {
        with_input(len, |value| self.validate(value))?
    }

    /// Validates the JSON text in the input buffer (`len` bytes): `undefined` when valid, else
    /// the issues' text (malformed text is one `json` issue with its position); with `first`,
    /// only the first issue ([`Compiled::validate_json_first`]).
    #[wasm_bindgen(js_name = validateJsonInput)]
    pub fn validate_json_input(&self, len: usize, first: bool) -> Result<Option<String>, JsValue> {
        with_input(len, |text| {
            if first {
                self.compiled.first_issue_text(text)
            } else {
                report_text(self.compiled.validate_json(text))
            }
        })
    }

    /// Whether the JSON text in the input buffer (`len` bytes) is valid, without collecting an
    /// invalid text's issues (most callers only branch on the verdict).
    #[wasm_bindgen(js_name = checkJsonInput)]
    pub fn check_json_input(&self, len: usize) -> Result<bool, JsValue> {
        with_input(len, |text| self.compiled.is_valid_json(text))
    }
}

impl Validator {
    fn validate(&self, value: &str) -> Result<Option<String>, JsValue> {
        // Without tagged members the encoding is plain JSON, which the fast path reads as is.
        if !value.contains(json::TAG_TEXT) && self.compiled.proves_valid(value) {
            return Ok(None);
        }
        let doc = json::parse(value).map_err(|e| encoding_error("value", e))?;
        Ok(report_text(self.compiled.validate_doc(&doc, doc.root())))
    }
}

/// `compileJsonSchema`'s options as read: whether `format` asserts, and the resources (URI,
/// JSON text) non-local `$ref`s may name.
struct CompileOptions {
    formats: bool,
    resources: Vec<(String, String)>,
}

/// Reads `compileJsonSchema`'s options, `{ formats?: boolean, resources?: { [uri]: schema } }`
/// (default: formats assert, no resources); anything else is refused, so a misspelled option
/// never passes silently.
fn compile_options(options: &JsValue) -> Result<CompileOptions, JsValue> {
    let refuse = |message: &str| Err(user_error(message));
    let mut out = CompileOptions {
        formats: true,
        resources: Vec::new(),
    };
    if options.is_undefined() || options.is_null() {
        return Ok(out);
    }
    if !options.is_object() || js_sys::Array::is_array(options) {
        return refuse("compileJsonSchema options must be an object such as { formats: false }.");
    }
    for key in js::keys(options)?.iter() {
        let key = key.as_string().unwrap_or_default();
        let value = Reflect::get(options, &JsValue::from_str(&key))?;
        match key.as_str() {
            "formats" => match value.as_bool() {
                Some(b) => out.formats = b,
                None if value.is_undefined() => {}
                None => return refuse("compileJsonSchema option `formats` must be a boolean."),
            },
            "resources" if value.is_undefined() => {}
            "resources" => {
                const NOT_RESOURCES: &str = "compileJsonSchema option `resources` must be an object of JSON Schemas by URI, such as { 'https://example.com/item.json': { type: 'object' } }.";
                if !value.is_object() || js_sys::Array::is_array(&value) {
                    return refuse(NOT_RESOURCES);
                }
                for uri in js::keys(&value)?.iter() {
                    let uri = uri.as_string().unwrap_or_default();
                    let doc = Reflect::get(&value, &JsValue::from_str(&uri))?;
                    let is_schema = (doc.is_object() && !js_sys::Array::is_array(&doc))
                        || doc.as_bool().is_some();
                    let text = is_schema
                        .then(|| js_sys::JSON::stringify(&doc).ok())
                        .flatten()
                        .and_then(|t| t.as_string());
                    let Some(text) = text else {
                        return refuse(&format!(
                            "compileJsonSchema option `resources`: `{uri}` must be a JSON Schema (an object or a boolean that JSON can carry)."
                        ));
                    };
                    out.resources.push((uri, text));
                }
            }
            other => {
                return refuse(&format!(
                    "compileJsonSchema has no option `{other}`; its options are `formats` and `resources`."
                ))
            }
        }
    }
    Ok(out)
}

#[wasm_bindgen]
extern "C" {
    /// The facade's table of compiled patterns (`PatternTable` in `pkg-template/src/engine/patterns.ts`):
    /// it holds the host's `RegExp`s by the handles this module hands out and reads a tested
    /// text straight out of this module's memory, so a match crosses with three numbers. Its
    /// methods catch what `RegExp` throws and answer `false`, its message in
    /// [`PatternTable::error`].
    #[derive(Clone)]
    pub type PatternTable;
    /// `RegExp(source, flags)` stored at `handle`: `true`, or `false` when the host refuses it
    /// (its message in [`PatternTable::error`]).
    #[wasm_bindgen(method)]
    fn compile(this: &PatternTable, handle: u32, source: &str, flags: &str) -> bool;
    /// Whether the pattern at `handle` matches the UTF-8 text at `ptr` (`len` bytes); `false`
    /// also when the host failed.
    #[wasm_bindgen(method)]
    fn test(this: &PatternTable, handle: u32, ptr: u32, len: u32) -> bool;
    #[wasm_bindgen(method)]
    fn release(this: &PatternTable, handle: u32);
    #[wasm_bindgen(method, getter)]
    fn error(this: &PatternTable) -> String;
}

/// The host's `RegExp` as the validator's pattern engine (`jsonschema`'s `host-regex` patch):
/// `pattern` and `patternProperties` mean what ECMA-262 says they mean, as JSON Schema asks,
/// and no Rust regex engine ships. Simple patterns (`crate::schema::simple_pattern`: classes,
/// counts, anchors) are matched natively with the same meaning and never cross. Others compile
/// with the `u` flag (as ajv does); one that only the legacy syntax accepts (identity escapes
/// such as `\_`, a lone `{`) compiles without it, as the translation to Rust syntax used to
/// accept such patterns. The handles are this
/// module's, each counted by `engineLiveHandles` while alive; `jsonschema` releases each with
/// the last validator that uses it.
struct HostRegExps;

/// How a handle's pattern is matched: natively as a simple pattern, natively in bounded time
/// (`ecma_regex`), or, for a `\p{…}` class inside the latter, by a `RegExp` that tests one
/// character at a time.
enum Matcher {
    Simple(SimplePattern),
    /// With the pattern as written, for messages.
    Bounded(Box<EcmaRegex>, Box<str>),
    Class,
}

/// Live handles by number, and the numbers free for reuse.
struct Handles {
    live: Vec<Option<(Live, Matcher)>>,
    free: Vec<u32>,
}

/// A pattern's handle, shared by every validator (and fast-path check) that compiles the same
/// pattern text, with how many hold it: tool schemas repeat patterns (a library's `email` or
/// `uuid` in every schema that uses it), and each compiled pattern holds a program and its
/// DFA cache.
#[derive(Default)]
struct Shared {
    by_pattern: FastMap<Box<str>, u32>,
    /// Holders of each shared handle, and its pattern (the key above).
    holders: FastMap<u32, (u32, Box<str>)>,
}

thread_local! {
    static TABLE: RefCell<Option<PatternTable>> = const { RefCell::new(None) };
    static HANDLES: RefCell<Handles> = const {
        RefCell::new(Handles {
            live: Vec::new(),
            free: Vec::new(),
        })
    };
    static SHARED: RefCell<Option<Shared>> = const { RefCell::new(None) };
}

/// Runs `f` on the shared-pattern table, made on first use.
fn shared<T>(f: impl FnOnce(&mut Shared) -> T) -> T {
    SHARED.with_borrow_mut(|slot| f(slot.get_or_insert_with(Shared::default)))
}

/// The installed table, cloned out so that no borrow is held while the host runs.
fn table() -> Result<PatternTable, String> {
    TABLE
        .with_borrow(Clone::clone)
        .ok_or_else(|| "no pattern table is installed (installPatterns)".to_owned())
}

/// A new handle for `matcher`.
fn new_handle(matcher: Matcher) -> u32 {
    HANDLES.with_borrow_mut(|Handles { live, free }| match free.pop() {
        Some(handle) => {
            live[handle as usize] = Some((Live::new(), matcher));
            handle
        }
        None => {
            live.push(Some((Live::new(), matcher)));
            (live.len() - 1) as u32
        }
    })
}

/// Frees `handle`; `true` when the host holds a `RegExp` for it. A bounded pattern's class
/// handles are freed with it.
fn release_handle(handle: u32) -> bool {
    let taken = HANDLES.with_borrow_mut(|Handles { live, free }| {
        let taken = live.get_mut(handle as usize).and_then(Option::take);
        if taken.is_some() {
            free.push(handle);
        }
        taken
    });
    match taken {
        Some((_, Matcher::Class)) => true,
        Some((_, Matcher::Bounded(re, _))) => {
            for class in re.host_handles() {
                if release_handle(class) {
                    if let Ok(table) = table() {
                        table.release(class);
                    }
                }
            }
            false
        }
        _ => false,
    }
}

/// `\p{…}` classes of a bounded pattern, decided by the host's `RegExp` one character at a
/// time (`^[…]$` with the `u` flag): the host never searches, so it never backtracks.
struct HostClasses;

impl ecma_regex::Classes for HostClasses {
    fn compile(&self, source: &str) -> Result<u32, String> {
        let handle = new_handle(Matcher::Class);
        let table = table()?;
        let whole = if source.starts_with('[') {
            format!("^{source}$")
        } else {
            format!("^[{source}]$")
        };
        if table.compile(handle, &whole, "u") {
            return Ok(handle);
        }
        release_handle(handle);
        Err(table.error())
    }

    fn contains(&self, handle: u32, c: char) -> bool {
        let mut buffer = [0u8; 4];
        let text = c.encode_utf8(&mut buffer);
        table().is_ok_and(|t| t.test(handle, text.as_ptr() as u32, text.len() as u32))
    }
}

/// The host's verdict on a pattern the bounded matcher refuses: its own error (the pattern is
/// invalid), or none when it would accept it.
fn host_verdict(pattern: &str) -> Result<(), String> {
    let table = table()?;
    let probe = new_handle(Matcher::Class);
    let unicode = table.compile(probe, pattern, "u");
    let error = table.error();
    let legacy = unicode || table.compile(probe, pattern, "");
    if release_handle(probe) && (unicode || legacy) {
        table.release(probe);
    }
    if unicode || legacy {
        Ok(())
    } else {
        Err(error)
    }
}

/// A new handle for `pattern`: a simple pattern runs on the bit-parallel automaton; any other
/// on the bounded matcher, with the `u` flag's syntax, or the legacy syntax where only it
/// parses (`\_`).
fn compile_pattern(pattern: &str) -> Result<u32, String> {
    if let Some(simple) = SimplePattern::compile(pattern) {
        return Ok(new_handle(Matcher::Simple(simple)));
    }
    let bounded = EcmaRegex::compile(pattern, &HostClasses).or_else(|unicode| {
        EcmaRegex::compile_with(pattern, &HostClasses, true).map_err(|_| unicode)
    });
    match bounded {
        Ok(re) => Ok(new_handle(Matcher::Bounded(Box::new(re), pattern.into()))),
        Err(reason) => match host_verdict(pattern) {
            Err(host) => Err(host),
            Ok(()) => Err(format!(
                "Invalid regular expression: /{pattern}/: understudy runs patterns in bounded time and does not support this syntax ({reason})"
            )),
        },
    }
}

impl jsonschema::host_regex::HostPatterns for HostRegExps {
    fn compile(&self, pattern: &str) -> Result<u32, String> {
        let known = shared(|s| {
            let handle = *s.by_pattern.get(pattern)?;
            s.holders.get_mut(&handle)?.0 += 1;
            Some(handle)
        });
        if let Some(handle) = known {
            return Ok(handle);
        }
        let handle = compile_pattern(pattern)?;
        shared(|s| {
            s.by_pattern.insert(pattern.into(), handle);
            s.holders.insert(handle, (1, pattern.into()));
        });
        Ok(handle)
    }

    fn is_match(&self, handle: u32, text: &str) -> Result<bool, String> {
        // The matcher is taken out while it runs: a `\p{…}` class calls the host, which must
        // not find the table borrowed.
        let taken = HANDLES.with_borrow_mut(|Handles { live, .. }| {
            live.get_mut(handle as usize)
                .and_then(Option::as_mut)
                .map(|(_, m)| std::mem::replace(m, Matcher::Class))
        });
        let Some(matcher) = taken else {
            return Err("the pattern was released".to_owned());
        };
        let result = match &matcher {
            Matcher::Simple(simple) => Ok(simple.is_match(text)),
            Matcher::Bounded(re, pattern) => re.is_match(text, &HostClasses).map_err(|_| {
                format!(
                    "The pattern /{pattern}/ needs more than {} steps of backtracking on this value; it was stopped, and the value is not taken as matching.",
                    ecma_regex::STEP_BUDGET
                )
            }),
            Matcher::Class => Err("not a pattern".to_owned()),
        };
        HANDLES.with_borrow_mut(|Handles { live, .. }| {
            if let Some(Some((_, slot))) = live.get_mut(handle as usize) {
                *slot = matcher;
            }
        });
        result
    }

    fn release(&self, handle: u32) {
        // The last holder of a shared pattern frees it.
        let last = shared(|s| match s.holders.get_mut(&handle) {
            Some((holders, _)) if *holders > 1 => {
                *holders -= 1;
                false
            }
            Some(_) => {
                if let Some((_, pattern)) = s.holders.remove(&handle) {
                    s.by_pattern.remove(&pattern);
                }
                true
            }
            None => true,
        });
        if last && release_handle(handle) {
            if let Ok(table) = table() {
                table.release(handle);
            }
        }
    }
}

/// Installs the facade's pattern table (once per module, when the facade loads it).
#[wasm_bindgen(js_name = installPatterns)]
pub fn install_patterns(table: PatternTable) {
    TABLE.with_borrow_mut(|slot| *slot = Some(table));
    jsonschema::host_regex::install(&HostRegExps);
}

/// How many compiled schemas are remembered for sharing, keyed by their JSON text and options.
/// An entry is weak: validators of the same schema alive at once share one compiled schema (a
/// server that compiles the same tool schema per request holds one, however many requests are
/// in flight: memory a wasm module takes is never given back), and it is freed with the last
/// of them, so nothing stays alive for the cache's sake.
const COMPILED_CACHE: usize = 64;

type CompiledCache = std::collections::VecDeque<(String, bool, Weak<Compiled>)>;

thread_local! {
    static COMPILED: RefCell<CompiledCache> = const { RefCell::new(std::collections::VecDeque::new()) };
}

fn cached(text: &str, formats: bool) -> Option<Rc<Compiled>> {
    COMPILED.with_borrow_mut(|cache| {
        cache.retain(|(_, _, weak)| weak.strong_count() > 0);
        cache
            .iter()
            .find(|(t, f, _)| *f == formats && t == text)
            .and_then(|(_, _, weak)| weak.upgrade())
    })
}

fn remember(text: String, formats: bool, compiled: &Rc<Compiled>) {
    COMPILED.with_borrow_mut(|cache| {
        if cache.len() == COMPILED_CACHE {
            cache.pop_front();
        }
        cache.push_back((text, formats, Rc::downgrade(compiled)));
    });
}

/// `compileJsonSchema`; `options.formats: false` makes `format` an annotation, and
/// `options.resources` gives the documents non-local `$ref`s name.
#[wasm_bindgen(js_name = compileSchema)]
pub fn compile_schema(len: usize, options: &JsValue) -> Result<Validator, JsValue> {
    let CompileOptions { formats, resources } = compile_options(options)?;
    let doc = with_input(len, parse_schema)??;
    if let Some((_, pointer, _)) = crate::schema::pointer::first_opaque(&doc, doc.root()) {
        return Err(raise(InvalidSchemaError {
            message: format!(
                "Invalid JSON Schema at `{pointer}`: the schema holds a value JSON cannot carry."
            ),
            pointer,
        }));
    }
    let text = json::to_string(&doc, doc.root());
    // The resources are part of what is compiled: the cache keys them with the schema (a key
    // is built only when there are some).
    let key = (!resources.is_empty()).then(|| {
        let mut key = text.clone();
        for (uri, doc) in &resources {
            key.push('\u{0}');
            key.push_str(uri);
            key.push('\u{0}');
            key.push_str(doc);
        }
        key
    });
    let compiled = match cached(key.as_deref().unwrap_or(&text), formats) {
        Some(hit) => hit,
        None => {
            let compiled = Rc::new(
                validate::compile_json_with_resources(&text, formats, &resources).map_err(raise)?,
            );
            remember(key.unwrap_or(text), formats, &compiled);
            compiled
        }
    };
    Ok(Validator {
        compiled,
        _live: Live::new(),
    })
}
