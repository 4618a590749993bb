//! `#[wasm_bindgen]` bindings: the only module that names `JsValue`.
//!
//! Conventions:
//! - schemas and values arrive as JSON text in the facade's tagged encoding (see
//!   `crate::schema::json::TAG_KEY`) and leave as JSON text; the facade uses the host's native
//!   `JSON.stringify` / `JSON.parse`, which are far faster than walking objects across the
//!   boundary;
//! - every failure is a plain object `{ [ENGINE_ERROR]: true, name, message, …fields }` made by
//!   [`engine_error`]; the facade turns it into the matching `Error` subclass;
//! - exceptions raised by user code (a throwing getter, a throwing `validate`) pass through
//!   unchanged, as in the reference.

// The package's two wasm modules are two builds of this crate (Cargo features): `engine` is
// loaded by every entry; `validator` (`compileJsonSchema`) when it is first needed. Each build
// has its own input buffer, live-handle count and memory (the helpers below).
#[cfg(feature = "engine")]
mod cassette;
mod js;
#[cfg(feature = "engine")]
mod model;
#[cfg(feature = "engine")]
mod realtime;
#[cfg(feature = "engine")]
mod sandbox;
#[cfg(feature = "engine")]
mod sap;
#[cfg(feature = "engine")]
mod snapshot;
#[cfg(feature = "engine")]
mod standard;
#[cfg(feature = "engine")]
mod strict;
#[cfg(feature = "validator")]
mod validator;

#[cfg(feature = "engine")]
pub(crate) use strict::standard_error;

use js_sys::Object;
use wasm_bindgen::prelude::*;

#[cfg(feature = "validator")]
use crate::error::InvalidSchemaError;
use crate::schema::json::{self, Doc};

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
#[cfg(feature = "engine")]
pub(crate) fn take_input(len: usize) -> Result<String, JsValue> {
    with_input(len, str::to_owned)
}

#[wasm_bindgen]
extern "C" {
    /// The facade's `engineErrorObject(name, message, keys, …values)` (errors.ts).
    type ErrorMaker;
    #[wasm_bindgen(method, js_name = call)]
    #[allow(clippy::too_many_arguments)]
    fn make(
        this: &ErrorMaker,
        receiver: &JsValue,
        name: &str,
        message: &str,
        keys: &str,
        a: &JsValue,
        b: &JsValue,
        c: &JsValue,
        d: &JsValue,
        e: &JsValue,
        f: &JsValue,
    ) -> JsValue;
}

/// Fields the facade's error maker takes in one call; more are set one by one.
const MAKER_FIELDS: usize = 6;

thread_local! {
    static ERROR_MAKER: std::cell::RefCell<Option<ErrorMaker>> = const { std::cell::RefCell::new(None) };
}

/// Installs the facade's error maker (every entry does it for each module it loads): an
/// engine error is then built in one crossing, where setting its properties from here costs
/// a crossing and a key decode each.
#[wasm_bindgen(js_name = installErrorMaker)]
pub fn install_error_maker(maker: js_sys::Function) {
    ERROR_MAKER.with(|m| *m.borrow_mut() = Some(maker.unchecked_into()));
}

/// Builds the plain error object the facade converts into an `Error` subclass: one call of the
/// facade's maker (the keys joined by commas; engine field names never hold one).
pub(crate) fn engine_error(
    name: &str,
    message: &str,
    fields: &[(&'static str, JsValue)],
) -> JsValue {
    let made = ERROR_MAKER.with(|m| {
        let m = m.borrow();
        let maker = m.as_ref()?;
        let keys = fields
            .iter()
            .take(MAKER_FIELDS)
            .map(|(k, _)| *k)
            .collect::<Vec<_>>()
            .join(",");
        let undefined = JsValue::UNDEFINED;
        let value = |i: usize| fields.get(i).map_or(&undefined, |(_, v)| v);
        Some(maker.make(
            &JsValue::UNDEFINED,
            name,
            message,
            &keys,
            value(0),
            value(1),
            value(2),
            value(3),
            value(4),
            value(5),
        ))
    });
    // Without the facade (the wasm files loaded directly) the object is built here.
    let (obj, rest) = match made {
        Some(obj) => (obj, fields.get(MAKER_FIELDS..).unwrap_or_default()),
        None => {
            let obj: JsValue = Object::new().into();
            js::set(&obj, ENGINE_ERROR, &JsValue::TRUE);
            js::set(&obj, "name", &JsValue::from_str(name));
            js::set(&obj, "message", &JsValue::from_str(message));
            (obj, fields)
        }
    };
    for (k, v) in rest {
        js::set(&obj, k, v);
    }
    obj
}

#[cfg(feature = "validator")]
pub(crate) fn invalid_schema_error(e: InvalidSchemaError) -> JsValue {
    engine_error(
        "InvalidJsonSchemaError",
        &e.message,
        &[("pointer", JsValue::from_str(&e.pointer))],
    )
}

pub(crate) fn encoding_error(what: &str, e: json::ParseError) -> JsValue {
    // Only reachable when the facade's encoding is broken: the host produced the text.
    engine_error(
        "UserError",
        &format!("understudy could not read the {what} it was given: {e}"),
        &[],
    )
}

pub(crate) fn parse_schema(text: &str) -> Result<Doc, JsValue> {
    json::parse(text).map_err(|e| encoding_error("schema", e))
}

#[cfg(feature = "engine")]
pub(crate) fn to_js<T: serde::Serialize>(value: &T) -> JsValue {
    value
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .unwrap_or(JsValue::UNDEFINED)
}

#[cfg(feature = "engine")]
/// The mechanical walks the facade hands over (`pkg-template/src/walks.ts`): each runs in
/// JavaScript in one crossing, under the rule its caller states.
pub(crate) struct Walks {
    /// `standardCall(schema, value)`: runs `~standard.validate` and reads the result.
    pub standard_call: js_sys::Function,
    /// `takeStandardPayload()`: what `standardCall` found.
    pub standard_take: js_sys::Function,
    /// `issueTexts(issues)`: the texts of a Standard Schema's issues, written into the input
    /// buffer; answers their length in bytes (`standard.rs`).
    pub issue_texts: js_sys::Function,
    /// `snapshotValue(value)`: the snapshot rule of `snapshot.rs`.
    pub snapshot: js_sys::Function,
    /// `checkPatterns(sources, flags)`: compiles redaction patterns as `RegExp`s.
    pub check_patterns: js_sys::Function,
    /// `redactTexts(texts, patterns, replacement, allow)`: runs them (`cassette.rs`).
    pub redact_texts: js_sys::Function,
    /// `findSecret(texts, patterns, allow)`: the first (text, pattern) match (`cassette.rs`).
    pub find_secret: js_sys::Function,
}

#[cfg(feature = "engine")]
thread_local! {
    static WALKS: std::cell::RefCell<Option<std::rc::Rc<Walks>>> = const { std::cell::RefCell::new(None) };
}

#[cfg(feature = "engine")]
/// Installs the facade's walks (every entry does it when it installs the engine).
#[wasm_bindgen(js_name = installWalks)]
pub fn install_walks(
    standard_call: js_sys::Function,
    standard_take: js_sys::Function,
    issue_texts: js_sys::Function,
    snapshot: js_sys::Function,
    check_patterns: js_sys::Function,
    redact_texts: js_sys::Function,
    find_secret: js_sys::Function,
) {
    let walks = Walks {
        standard_call,
        standard_take,
        issue_texts,
        snapshot,
        check_patterns,
        redact_texts,
        find_secret,
    };
    WALKS.with(|w| *w.borrow_mut() = Some(std::rc::Rc::new(walks)));
}

#[cfg(feature = "engine")]
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
