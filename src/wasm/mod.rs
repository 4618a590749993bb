//! `#[wasm_bindgen]` bindings: the only module that names `JsValue`.
//!
//! Conventions:
//! - schemas and values arrive as JSON text in the facade's tagged encoding (see
//!   `crate::schema::json::TAG_KEY`) and leave as JSON text; the facade uses the host's native
//!   `JSON.stringify` / `JSON.parse`, which are far faster than walking objects across the
//!   boundary;
//! - every failure is an error of the engine's (`crate::error::Raise`: kind, message, fields)
//!   crossing as one JSON text through [`raise`]; the facade turns it into its class;
//! - exceptions raised by user code (a throwing getter, a throwing `validate`) pass through
//!   unchanged, as in the reference.

// The package's three wasm modules are three builds of this crate (Cargo features): `engine` is
// loaded by every entry; `doubles` (scripts, cassettes, redaction) by the testing entries;
// `validator` (`compileJsonSchema`) when it is first needed. Each build
// has its own input buffer, live-handle count and memory (the helpers below).
#[cfg(feature = "doubles")]
mod cassette;
mod js;
#[cfg(feature = "doubles")]
mod model;
#[cfg(feature = "doubles")]
mod realtime;
#[cfg(feature = "doubles")]
mod sandbox;
#[cfg(feature = "engine")]
mod sap;
#[cfg(feature = "doubles")]
mod snapshot;
#[cfg(feature = "engine")]
mod standard;
#[cfg(feature = "engine")]
mod strict;
#[cfg(feature = "validator")]
mod validator;
#[cfg(feature = "doubles")]
mod wire;
#[cfg(feature = "engine")]
mod wire_refusal;

use wasm_bindgen::prelude::*;

use crate::error::{Raise, UserError};
#[cfg(any(feature = "engine", feature = "validator"))]
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
    user_error("The engine's input buffer is in use by a call that has not returned.")
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
        let bytes = buffer
            .get(..len)
            .ok_or_else(|| user_error("The text is longer than the engine's input buffer."))?;
        let text = std::str::from_utf8(bytes)
            .map_err(|e| user_error(format!("The text is not valid UTF-8: {e}")))?;
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
    /// The facade's `engineErrorObject(data, issues)` (engine/errors.ts).
    type ErrorMaker;
    #[wasm_bindgen(method, js_name = call)]
    fn make(this: &ErrorMaker, receiver: &JsValue, data: &str, issues: &JsValue) -> JsValue;
}

thread_local! {
    static ERROR_MAKER: std::cell::RefCell<Option<ErrorMaker>> = const { std::cell::RefCell::new(None) };
}

/// Installs the facade's error maker (every entry does it for each module it loads).
#[wasm_bindgen(js_name = installErrorMaker)]
pub fn install_error_maker(maker: js_sys::Function) {
    ERROR_MAKER.with(|m| *m.borrow_mut() = Some(maker.unchecked_into()));
}

/// The one conversion of an engine error to JavaScript: its data
/// ([`crate::error::error_data`], one string) handed to the facade's maker, which returns the
/// marked plain object the facade turns into the error's class. `issues` is a host value the
/// error carries as it came (a Standard Schema validator's issues), or `undefined`.
pub(crate) fn raise_with(e: impl Raise, issues: &JsValue) -> JsValue {
    let data = crate::error::error_data(&e);
    let made = ERROR_MAKER.with(|m| {
        let m = m.borrow();
        Some(m.as_ref()?.make(&JsValue::UNDEFINED, &data, issues))
    });
    // Without the facade (the wasm files loaded directly) the object is built here.
    made.unwrap_or_else(|| {
        let obj = js_sys::JSON::parse(&data).unwrap_or_else(|_| js::object());
        js::set(&obj, ENGINE_ERROR, &JsValue::TRUE);
        if !issues.is_undefined() {
            js::set(&obj, "issues", issues);
        }
        obj
    })
}

/// [`raise_with`] for an error that carries no host value.
pub(crate) fn raise(e: impl Raise) -> JsValue {
    raise_with(e, &JsValue::UNDEFINED)
}

/// A `UserError` with `message`.
pub(crate) fn user_error(message: impl Into<String>) -> JsValue {
    raise(UserError::new(message))
}

#[cfg(any(feature = "engine", feature = "validator"))]
pub(crate) fn encoding_error(what: &str, e: json::ParseError) -> JsValue {
    // Only reachable when the facade's encoding is broken: the host produced the text.
    user_error(format!(
        "understudy could not read the {what} it was given: {e}"
    ))
}

#[cfg(any(feature = "engine", feature = "validator"))]
pub(crate) fn parse_schema(text: &str) -> Result<Doc, JsValue> {
    json::parse(text).map_err(|e| encoding_error("schema", e))
}

#[cfg(any(feature = "engine", feature = "doubles"))]
/// The mechanical walks the facade hands over (`snapshot.ts`, `standard-call.ts` and
/// `patterns.ts` in `pkg-template/src/engine/`): each runs in JavaScript in one crossing, under
/// the rule its caller states.
// Every module that takes walks is given all of them (one signature for the facade): the engine
// reads the Standard Schema walks, the doubles module the snapshot and redaction walks.
#[cfg_attr(not(all(feature = "engine", feature = "doubles")), allow(dead_code))]
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

#[cfg(any(feature = "engine", feature = "doubles"))]
thread_local! {
    static WALKS: std::cell::RefCell<Option<std::rc::Rc<Walks>>> = const { std::cell::RefCell::new(None) };
}

#[cfg(any(feature = "engine", feature = "doubles"))]
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

#[cfg(any(feature = "engine", feature = "doubles"))]
/// Runs `f` with the installed walks. No borrow is held while it runs: a walk runs user code,
/// which may call back into the engine.
pub(crate) fn with_walks<T>(f: impl FnOnce(&Walks) -> Result<T, JsValue>) -> Result<T, JsValue> {
    let walks = WALKS.with(|w| w.borrow().clone());
    match walks {
        Some(walks) => f(&walks),
        None => Err(user_error("understudy's engine was loaded without its facade (import @understudy/agents, not its wasm files).")),
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
