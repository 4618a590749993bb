//! The schema half of the engine: strict normalization, local validation and the rules of the
//! Standard Schema bridge.

pub mod book;
#[cfg(feature = "validator")]
pub mod ecma_regex;
pub mod json;
pub mod nulls;
pub mod pointer;
pub mod provider;
#[cfg(feature = "validator")]
pub mod simple_pattern;
pub mod standard;
pub mod strict;
pub mod tools;
pub mod types;
#[cfg(feature = "validator")]
pub mod validate;
#[cfg(feature = "validator")]
pub mod verdict;

/// How deep a value may nest for local validation and null stripping.
pub const MAX_VALUE_DEPTH: usize = 128;
