//! `#[wasm_bindgen]` bindings: the only module that names `JsValue`.
//!
//! Conventions:
//! - schemas and values arrive as JSON text in the facade's tagged encoding (see
//!   `crate::json::TAG_KEY`) and leave as JSON text; the facade uses the host's native
//!   `JSON.stringify` / `JSON.parse`, which are far faster than walking objects across the
//!   boundary;
//! - every failure is a plain object `{ [ENGINE_ERROR]: true, name, message, …fields }` made by
//!   [`engine_error`]; the facade turns it into the matching `Error` subclass;
//! - exceptions raised by user code (a throwing getter, a throwing `validate`) pass through
//!   unchanged, as in the reference.

mod cassette;
mod js;
mod model;
mod realtime;
mod sandbox;
mod sap;
mod snapshot;
mod standard;

use js_sys::{Object, Reflect};
use wasm_bindgen::prelude::*;

use crate::error::{InvalidSchemaError, StandardSchemaError, StrictError};
use crate::json::{self, Doc};
use crate::schema::strict::{self, Mode, NormalizeError, Prepared};
use crate::schema::validate::{self, Compiled};

/// Property that marks an engine error object.
const ENGINE_ERROR: &str = "__understudyError";

thread_local! {
    /// The engine's input buffer: the facade encodes texts straight into it
    /// (`TextEncoder.encodeInto` on a view of linear memory) and passes only their length.
    /// That costs a fixed few tens of nanoseconds at any length, where the bindings' copy of a
    /// string walks it character by character in JavaScript (about 2 ns a character) and
    /// allocates for it.
    static INPUT: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
}

fn input_busy() -> JsValue {
    engine_error(
        "UserError",
        "The engine's input buffer is in use by a call that has not returned.",
        &[],
    )
}

/// The input buffer keeps up to this much room between calls; a larger buffer, grown for a
/// large text, gives its room back to the allocator when a smaller text follows.
const INPUT_KEPT: usize = 1 << 20;

/// The address of the input buffer, grown to at least `capacity` bytes (or shrunk to it, when
/// it holds more than [`INPUT_KEPT`] and `capacity` is smaller). Its address changes only here.
#[wasm_bindgen(js_name = inputBuffer)]
pub fn input_buffer(capacity: usize) -> Result<usize, JsValue> {
    INPUT.with(|buffer| {
        let mut buffer = buffer.try_borrow_mut().map_err(|_| input_busy())?;
        if buffer.len() < capacity {
            buffer.resize(capacity, 0);
        } else if buffer.len() > INPUT_KEPT && capacity < buffer.len() {
            let keep = capacity.max(INPUT_KEPT);
            buffer.truncate(keep);
            buffer.shrink_to_fit();
        }
        Ok(buffer.as_mut_ptr() as usize)
    })
}

/// The engine's linear memory, for the facade's view of the input buffer.
#[wasm_bindgen(js_name = engineMemory)]
pub fn engine_memory() -> JsValue {
    wasm_bindgen::memory()
}

/// Runs `f` on the first `len` bytes of the input buffer as text. Only for calls that run no
/// JavaScript meanwhile (JavaScript could write the buffer); the others take [`take_input`].
pub(crate) fn with_input<T>(len: usize, f: impl FnOnce(&str) -> T) -> Result<T, JsValue> {
    INPUT.with(|buffer| {
        let buffer = buffer.try_borrow().map_err(|_| input_busy())?;
        let bytes = buffer.get(..len).ok_or_else(|| {
            engine_error(
                "UserError",
                "The text is longer than the engine's input buffer.",
                &[],
            )
        })?;
        let text = std::str::from_utf8(bytes).map_err(|e| {
            engine_error(
                "UserError",
                &format!("The text is not valid UTF-8: {e}"),
                &[],
            )
        })?;
        Ok(f(text))
    })
}

/// A copy of the first `len` bytes of the input buffer as text, for calls that run user code.
pub(crate) fn take_input(len: usize) -> Result<String, JsValue> {
    with_input(len, str::to_owned)
}

/// Builds the plain error object the facade converts into an `Error` subclass.
pub(crate) fn engine_error(name: &str, message: &str, fields: &[(&str, JsValue)]) -> JsValue {
    let obj = Object::new();
    let set = |k: &str, v: &JsValue| {
        let _ = Reflect::set(&obj, &JsValue::from_str(k), v);
    };
    set(ENGINE_ERROR, &JsValue::TRUE);
    set("name", &JsValue::from_str(name));
    set("message", &JsValue::from_str(message));
    for (k, v) in fields {
        set(k, v);
    }
    obj.into()
}

fn opt_str(s: &Option<String>) -> JsValue {
    s.as_deref().map_or(JsValue::UNDEFINED, JsValue::from_str)
}

fn strict_error(e: StrictError) -> JsValue {
    let name = if e.is_depth() {
        "SchemaDepthError"
    } else {
        "StrictSchemaError"
    };
    engine_error(
        name,
        &e.message,
        &[
            ("reason", JsValue::from_str(e.reason.as_str())),
            ("pointer", JsValue::from_str(&e.pointer)),
            ("keyword", opt_str(&e.keyword)),
        ],
    )
}

fn invalid_schema_error(e: InvalidSchemaError) -> JsValue {
    engine_error(
        "InvalidJsonSchemaError",
        &e.message,
        &[("pointer", JsValue::from_str(&e.pointer))],
    )
}

pub(crate) fn standard_error(e: StandardSchemaError) -> JsValue {
    let message = e.to_string();
    match e {
        StandardSchemaError::Unsupported => {
            engine_error("UnsupportedStandardSchemaError", &message, &[])
        }
        StandardSchemaError::AsyncValidation => {
            engine_error("AsyncStandardSchemaValidationError", &message, &[])
        }
        StandardSchemaError::Conversion { .. } | StandardSchemaError::NonObjectRoot { .. } => {
            engine_error("UserError", &message, &[])
        }
        StandardSchemaError::Validation { .. } => {
            engine_error("StandardSchemaValidationError", &message, &[])
        }
    }
}

fn encoding_error(what: &str, e: json::ParseError) -> JsValue {
    // Only reachable when the facade's encoding is broken: the host produced the text.
    engine_error(
        "UserError",
        &format!("understudy could not read the {what} it was given: {e}"),
        &[],
    )
}

fn parse_schema(text: &str) -> Result<Doc, JsValue> {
    json::parse(text).map_err(|e| encoding_error("schema", e))
}

/// Parses a schema in the facade's encoding and prepares it in `mode`.
fn prepare_text(schema: &str, mode: Mode) -> Result<Prepared, JsValue> {
    let doc = parse_schema(schema)?;
    strict::prepare(&doc, doc.root(), mode).map_err(strict_error)
}

/// `strictTools`: throws `StrictSchemaError` unless the function tool `tool`'s parameters (in
/// the input buffer, `len` bytes) are their own strict form ([`strict::check_as_sent`]).
#[wasm_bindgen(js_name = strictToolCheck)]
pub fn strict_tool_check(len: usize, tool: &JsValue) -> Result<(), JsValue> {
    let tool = js::string_of(tool);
    with_input(len, |schema| {
        let doc = parse_schema(schema)?;
        strict::check_as_sent(&doc, &tool).map_err(strict_error)
    })?
}

/// `toStrictJsonSchema`: the strict copy of the schema in the input buffer (`len` bytes), as
/// JSON text.
#[wasm_bindgen(js_name = strictConvert)]
pub fn strict_convert(len: usize) -> Result<String, JsValue> {
    let prepared = with_input(len, |schema| prepare_text(schema, Mode::Convert))??;
    Ok(json::to_string(&prepared.doc, prepared.root))
}

/// The result of `prepareStrictJsonSchema`: the strict schema and its input normalizer.
#[wasm_bindgen]
pub struct PreparedSchema {
    inner: Prepared,
    _live: Live,
}

#[wasm_bindgen]
impl PreparedSchema {
    /// The strict schema as JSON text.
    #[wasm_bindgen(js_name = schemaJson)]
    pub fn schema_json(&self) -> String {
        json::to_string(&self.inner.doc, self.inner.root)
    }

    /// Maps the synthetic `null`s of optional properties back to absent keys. Returns
    /// `undefined` for an `undefined` value.
    #[wasm_bindgen(js_name = normalizeInput)]
    pub fn normalize_input(&self, len: usize) -> Result<Option<String>, JsValue> {
        with_input(len, |value| normalize_with(&self.inner, value))?
    }
}

fn normalize_error(e: NormalizeError) -> JsValue {
    let pointer = match &e {
        NormalizeError::NotJson { pointer, .. } => JsValue::from_str(pointer),
        NormalizeError::TooDeep { .. } => JsValue::from_str(""),
    };
    engine_error("UserError", &e.to_string(), &[("pointer", pointer)])
}

fn normalize_with(prepared: &Prepared, value: &str) -> Result<Option<String>, JsValue> {
    let mut doc = json::parse(value).map_err(|e| encoding_error("value", e))?;
    let root = doc.root();
    let out = prepared
        .normalize_input(&mut doc, root)
        .map_err(normalize_error)?;
    finish_normalized(&doc, out)
}

/// `stripStrictNulls` of a Standard Schema's input JSON Schema (`schema::nulls`).
fn standard_strip_nulls(schema: &str, value: &str) -> Result<Option<String>, JsValue> {
    let schema = parse_schema(schema)?;
    let mut doc = json::parse(value).map_err(|e| encoding_error("value", e))?;
    let root = doc.root();
    let out = crate::schema::nulls::strip_nulls(&schema, schema.root(), &mut doc, root)
        .map_err(normalize_error)?;
    finish_normalized(&doc, out)
}

fn finish_normalized(doc: &json::Doc, out: json::Id) -> Result<Option<String>, JsValue> {
    Ok(match doc.node(out) {
        json::Node::Undefined => None,
        _ => Some(json::to_string(doc, out)),
    })
}

/// `prepareStrictJsonSchema` of the schema in the input buffer (`len` bytes).
#[wasm_bindgen(js_name = strictPrepare)]
pub fn strict_prepare(len: usize) -> Result<PreparedSchema, JsValue> {
    let inner = with_input(len, |schema| prepare_text(schema, Mode::Prepare))??;
    Ok(PreparedSchema {
        inner,
        _live: Live::new(),
    })
}

/// The strict schema of `prepareStrictJsonSchema` (its checks included), as JSON text, without
/// keeping a handle.
#[wasm_bindgen(js_name = strictPrepareSchema)]
pub fn strict_prepare_schema(len: usize) -> Result<String, JsValue> {
    let prepared = with_input(len, |schema| prepare_text(schema, Mode::Prepare))??;
    Ok(json::to_string(&prepared.doc, prepared.root))
}

/// `stripStrictNulls` for a JSON Schema: prepare, then normalize, without a handle to free.
/// The input buffer holds the schema (`schema_len` bytes), then the value.
#[wasm_bindgen(js_name = strictStripNulls)]
pub fn strict_strip_nulls(
    schema_len: usize,
    value_len: usize,
    standard: bool,
) -> Result<Option<String>, JsValue> {
    with_input(schema_len + value_len, |text| {
        let (schema, value) = text.split_at_checked(schema_len).ok_or_else(|| {
            engine_error(
                "UserError",
                "understudy could not split the schema from the value it was given.",
                &[],
            )
        })?;
        if standard {
            return standard_strip_nulls(schema, value);
        }
        let prepared = prepare_text(schema, Mode::Prepare)?;
        normalize_with(&prepared, value)
    })?
}

/// `assertStrictSchemaPreservesOpenObjects`.
#[wasm_bindgen(js_name = strictAssertOpenObjects)]
pub fn strict_assert_open_objects(len: usize) -> Result<(), JsValue> {
    let doc = with_input(len, parse_schema)??;
    strict::assert_preserves_open_objects(&doc, doc.root()).map_err(strict_error)
}

/// The error for a schema the host could not encode because it is cyclic or nested too
/// deeply for `JSON.stringify`: the reference reports both as too deeply nested.
#[wasm_bindgen(js_name = strictUnencodableError)]
pub fn strict_unencodable_error() -> JsValue {
    strict_error(strict::depth_error_unlocated())
}

/// The error for a value (not a schema) the host could not encode: cyclic, or nested deeper
/// than `JSON.stringify` can follow.
#[wasm_bindgen(js_name = valueUnencodableError)]
pub fn value_unencodable_error() -> JsValue {
    engine_error(
        "UserError",
        "Cannot read a value that is cyclic or nested deeper than JSON.stringify can follow. Pass plain JSON data.",
        &[("pointer", JsValue::from_str(""))],
    )
}

/// A compiled JSON Schema validator.
#[wasm_bindgen]
pub struct Validator {
    compiled: Compiled,
    /// Issues kept by `checkJsonInput` for `takeIssues`.
    issues: Option<Vec<validate::Issue>>,
    _live: Live,
}

pub(crate) fn to_js<T: serde::Serialize>(value: &T) -> JsValue {
    value
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .unwrap_or(JsValue::UNDEFINED)
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

/// The mechanical walks the facade hands over (`pkg-template/src/walks.ts`): each runs in
/// JavaScript in one crossing, under the rule its caller states.
pub(crate) struct Walks {
    /// `standardCall(schema, value)`: runs `~standard.validate` and reads the result.
    pub standard_call: js_sys::Function,
    /// `takeStandardPayload()`: what `standardCall` found.
    pub standard_take: js_sys::Function,
    /// `snapshotValue(value)`: the snapshot rule of `snapshot.rs`.
    pub snapshot: js_sys::Function,
}

thread_local! {
    static WALKS: std::cell::RefCell<Option<std::rc::Rc<Walks>>> = const { std::cell::RefCell::new(None) };
}

/// Installs the facade's walks (every entry does it when it installs the engine).
#[wasm_bindgen(js_name = installWalks)]
pub fn install_walks(
    standard_call: js_sys::Function,
    standard_take: js_sys::Function,
    snapshot: js_sys::Function,
) {
    let walks = Walks {
        standard_call,
        standard_take,
        snapshot,
    };
    WALKS.with(|w| *w.borrow_mut() = Some(std::rc::Rc::new(walks)));
}

/// Runs `f` with the installed walks. No borrow is held while it runs: a walk runs user code,
/// which may call back into the engine.
pub(crate) fn with_walks<T>(f: impl FnOnce(&Walks) -> Result<T, JsValue>) -> Result<T, JsValue> {
    let walks = WALKS.with(|w| w.borrow().clone());
    match walks {
        Some(walks) => f(&walks),
        None => Err(engine_error(
            "UserError",
            "understudy's engine was loaded without its facade (import @understudy/agents, not its wasm files).",
            &[],
        )),
    }
}

thread_local! {
    static LIVE_HANDLES: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// Counts an exported object while it lives: every `#[wasm_bindgen]` struct holds one, so
/// [`engine_live_handles`] tells a leak test exactly when the collector's finalizers have
/// freed what it forgot, instead of guessing from timing.
pub(crate) struct Live(());

impl Live {
    pub(crate) fn new() -> Live {
        LIVE_HANDLES.with(|n| n.set(n.get() + 1));
        Live(())
    }
}

impl Drop for Live {
    fn drop(&mut self) {
        LIVE_HANDLES.with(|n| n.set(n.get().saturating_sub(1)));
    }
}

/// How many engine objects (validators, prepared schemas, scripts, cassettes) are alive: for
/// leak tests and diagnostics.
#[wasm_bindgen(js_name = engineLiveHandles)]
pub fn engine_live_handles() -> u32 {
    LIVE_HANDLES.with(|n| n.get()) as u32
}

/// Bytes of linear memory the engine holds (it only grows): for leak tests and diagnostics.
#[wasm_bindgen(js_name = engineMemoryBytes)]
pub fn engine_memory_bytes() -> f64 {
    (core::arch::wasm32::memory_size(0) * 65536) as f64
}
