//! Scripted test doubles: the rules of the drop-ins for `@openai/agents/testing` and
//! `@openai/agents/realtime/testing`, free of JavaScript.
//!
//! Each double is a queue of scripted steps plus a log of calls. What a JavaScript value *is*
//! (an array, a function, an iterable, an instance of the SDK's `Usage`) is read by the
//! bindings and handed in as facts; which step that makes, which error a mismatch raises and
//! with which message and fields is decided here.

pub mod ai_sdk;
pub mod cassette;
pub mod model;
pub mod realtime;
pub mod redaction;
pub mod sandbox;
pub mod wire;

/// Call and input positions are zero-based in fields and one-based in messages.
pub fn display_index(index: usize) -> usize {
    index + 1
}
