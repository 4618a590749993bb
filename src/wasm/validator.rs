//! The validator module's bindings (`compileJsonSchema`): the only code that needs the
//! `jsonschema` crate, so it ships as its own wasm module; its patterns run on the host's
//! `RegExp` or, when simple, natively (`HostRegExps`).

use std::cell::RefCell;

use js_sys::Reflect;
use wasm_bindgen::prelude::*;

use super::{
    encoding_error, engine_error, invalid_schema_error, js, parse_schema, to_js, with_input, Live,
};
use crate::error::InvalidSchemaError;
use crate::json;
use crate::schema::simple_pattern::SimplePattern;
use crate::schema::validate::{self, Compiled};

/// A compiled JSON Schema validator.
#[wasm_bindgen]
pub struct Validator {
    compiled: Compiled,
    /// Issues kept by `checkJsonInput` for `takeIssues`.
    issues: Option<Vec<validate::Issue>>,
    _live: Live,
}

/// A report crosses as `undefined` when valid (the common case, and no object to build) and
/// as its issues otherwise.
fn report_to_js(report: validate::Report) -> JsValue {
    if report.valid {
        JsValue::UNDEFINED
    } else {
        to_js(&report.issues)
    }
}

#[wasm_bindgen]
impl Validator {
    /// Validates the value in the input buffer (`len` bytes of the facade's tagged JSON
    /// encoding): `undefined` when valid, else the issues.
    #[wasm_bindgen(js_name = validateInput)]
    pub fn validate_input(&self, len: usize) -> Result<JsValue, JsValue> {
        with_input(len, |value| self.validate(value))?
    }

    /// Validates the JSON text in the input buffer (`len` bytes) and answers only whether it is
    /// valid: a boolean crosses the boundary faster than a value. The issues of an invalid text
    /// (malformed text is one `json` issue with its position) wait in the validator for
    /// [`Validator::take_issues`].
    #[wasm_bindgen(js_name = checkJsonInput)]
    pub fn check_json_input(&mut self, len: usize) -> Result<bool, JsValue> {
        let report = with_input(len, |text| self.compiled.validate_json(text))?;
        self.issues = (!report.valid).then_some(report.issues);
        Ok(report.valid)
    }

    /// The issues of the last invalid text given to [`Validator::check_json_input`] (an empty
    /// array if there are none), taken out of the validator.
    #[wasm_bindgen(js_name = takeIssues)]
    pub fn take_issues(&mut self) -> JsValue {
        to_js(&self.issues.take().unwrap_or_default())
    }
}

impl Validator {
    fn validate(&self, value: &str) -> Result<JsValue, JsValue> {
        // Without tagged members the encoding is plain JSON, which the fast path reads as is.
        if !value.contains(json::TAG_TEXT) && self.compiled.proves_valid(value) {
            return Ok(JsValue::UNDEFINED);
        }
        let doc = json::parse(value).map_err(|e| encoding_error("value", e))?;
        Ok(report_to_js(self.compiled.validate_doc(&doc, doc.root())))
    }
}

/// Reads `compileJsonSchema`'s options, `{ formats?: boolean }` (default: formats assert);
/// anything else is refused, so a misspelled option never passes silently.
fn compile_formats(options: &JsValue) -> Result<bool, JsValue> {
    let refuse = |message: &str| Err(engine_error("UserError", message, &[]));
    if options.is_undefined() || options.is_null() {
        return Ok(true);
    }
    if !options.is_object() || js_sys::Array::is_array(options) {
        return refuse("compileJsonSchema options must be an object such as { formats: false }.");
    }
    let mut formats = true;
    for key in js::keys(options)?.iter() {
        let key = key.as_string().unwrap_or_default();
        let value = Reflect::get(options, &JsValue::from_str(&key))?;
        match key.as_str() {
            "formats" => match value.as_bool() {
                Some(b) => formats = b,
                None if value.is_undefined() => {}
                None => return refuse("compileJsonSchema option `formats` must be a boolean."),
            },
            other => {
                return refuse(&format!(
                    "compileJsonSchema has no option `{other}`; its only option is `formats`."
                ))
            }
        }
    }
    Ok(formats)
}

#[wasm_bindgen]
extern "C" {
    /// The facade's table of compiled patterns (`PatternTable` in `pkg-template/src/walks.ts`):
    /// it holds the host's `RegExp`s by the handles this module hands out and reads a tested
    /// text straight out of this module's memory, so a match crosses with three numbers. Its
    /// methods catch what `RegExp` throws and answer with codes.
    #[derive(Clone)]
    pub type PatternTable;
    /// `RegExp(source, flags)` stored at `handle`: `true`, or `false` when the host refuses it
    /// (its message in [`PatternTable::error`]).
    #[wasm_bindgen(method)]
    fn compile(this: &PatternTable, handle: u32, source: &str, flags: &str) -> bool;
    /// The pattern at `handle` tested on the UTF-8 text at `ptr` (`len` bytes): 1 match,
    /// 0 none, 2 the host failed (its message in [`PatternTable::error`]).
    #[wasm_bindgen(method)]
    fn test(this: &PatternTable, handle: u32, ptr: u32, len: u32) -> u32;
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

/// Live handles by number (each with its native matcher when the pattern is simple), and the
/// numbers free for reuse.
struct Handles {
    live: Vec<Option<(Live, Option<SimplePattern>)>>,
    free: Vec<u32>,
}

thread_local! {
    static TABLE: RefCell<Option<PatternTable>> = const { RefCell::new(None) };
    static HANDLES: RefCell<Handles> = const {
        RefCell::new(Handles {
            live: Vec::new(),
            free: Vec::new(),
        })
    };
}

/// The installed table, cloned out so that no borrow is held while the host runs.
fn table() -> Result<PatternTable, String> {
    TABLE
        .with_borrow(Clone::clone)
        .ok_or_else(|| "no pattern table is installed (installPatterns)".to_owned())
}

/// Frees `handle`; `true` when it held a pattern compiled by the host (not a native one).
fn release_handle(handle: u32) -> bool {
    HANDLES.with_borrow_mut(|Handles { live, free }| {
        match live.get_mut(handle as usize).and_then(Option::take) {
            Some((_, simple)) => {
                free.push(handle);
                simple.is_none()
            }
            None => false,
        }
    })
}

impl jsonschema::host_regex::HostPatterns for HostRegExps {
    fn compile(&self, pattern: &str) -> Result<u32, String> {
        // A simple pattern is matched here, with ECMA-262's meaning, and never crosses.
        let simple = SimplePattern::compile(pattern);
        let native = simple.is_some();
        let handle = HANDLES.with_borrow_mut(|Handles { live, free }| match free.pop() {
            Some(handle) => {
                live[handle as usize] = Some((Live::new(), simple));
                handle
            }
            None => {
                live.push(Some((Live::new(), simple)));
                (live.len() - 1) as u32
            }
        });
        if native {
            return Ok(handle);
        }
        let table = table()?;
        if table.compile(handle, pattern, "u") {
            return Ok(handle);
        }
        let unicode_error = table.error();
        if table.compile(handle, pattern, "") {
            return Ok(handle);
        }
        release_handle(handle);
        Err(unicode_error)
    }

    fn is_match(&self, handle: u32, text: &str) -> Result<bool, String> {
        let native = HANDLES.with_borrow(|Handles { live, .. }| match live.get(handle as usize) {
            Some(Some((_, Some(simple)))) => Some(simple.is_match(text)),
            _ => None,
        });
        if let Some(matched) = native {
            return Ok(matched);
        }
        let table = table()?;
        match table.test(handle, text.as_ptr() as u32, text.len() as u32) {
            0 => Ok(false),
            1 => Ok(true),
            _ => Err(table.error()),
        }
    }

    fn release(&self, handle: u32) {
        if release_handle(handle) {
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

/// `compileJsonSchema`; `options.formats: false` makes `format` an annotation.
#[wasm_bindgen(js_name = compileSchema)]
pub fn compile_schema(len: usize, options: &JsValue) -> Result<Validator, JsValue> {
    let formats = compile_formats(options)?;
    let doc = with_input(len, parse_schema)??;
    if let Some((_, pointer, _)) = crate::schema::pointer::first_opaque(&doc, doc.root()) {
        return Err(invalid_schema_error(InvalidSchemaError {
            message: format!(
                "Invalid JSON Schema at `{pointer}`: the schema holds a value JSON cannot carry."
            ),
            pointer,
        }));
    }
    let compiled = validate::compile_json_with(&json::to_string(&doc, doc.root()), formats)
        .map_err(invalid_schema_error)?;
    Ok(Validator {
        compiled,
        issues: None,
        _live: Live::new(),
    })
}
