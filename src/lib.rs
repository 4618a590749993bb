//! understudy: strict JSON Schema, local validation and Standard Schema rules for LLM agents.
//!
//! The engine is plain Rust and knows nothing of JavaScript; `wasm` (built for wasm32 only)
//! is the one module that names `JsValue`.

mod code_enum;
pub mod codes;
pub mod doubles;
pub mod error;
pub mod error_class;
pub mod map;
pub mod sap;
pub mod schema;

#[cfg(target_arch = "wasm32")]
mod wasm;
