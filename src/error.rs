//! Typed errors, one enum per area. Every error carries structured fields; the message text of
//! strict-schema and Standard Schema errors equals the reference's, word for word.

use serde::Serialize;

/// Stable machine-readable cause of a strict-schema rejection.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum StrictReason {
    /// Nesting deeper than 100 (physically, or logically through `$ref`).
    Depth,
    /// A schema position holds something other than an object or a boolean.
    NonSchemaNode,
    /// A non-root node declares `$id`.
    NestedId,
    /// A keyword strict mode cannot represent (`allOf`, `oneOf`, `if`, …).
    UnsupportedKeyword,
    /// `$ref` is not a string.
    NonStringRef,
    /// `$ref` is external or does not resolve inside the root document.
    UnresolvedRef,
    /// `anyOf` is not a non-empty array.
    InvalidAnyOf,
    /// `$ref` combined with an assertion keyword.
    RefSibling,
    /// `anyOf` combined with an assertion keyword.
    AnyOfSibling,
    /// An `anyOf` branch holds optional properties that input normalization cannot map back.
    AmbiguousAnyOf,
    /// An open object (MCP check) whose accepted values strict mode would change.
    OpenObject,
    /// An optional property whose acceptance of `null` cannot be decided.
    UnknownNullability,
    /// An object schema without `type` that is open.
    TypelessOpenObject,
    /// The root `$defs` is not an object, so references cannot be hoisted.
    DefsNotObject,
    /// A value JSON cannot carry (function, symbol, bigint, NaN/Infinity) inside the schema.
    NotJson,
    /// More nodes than the engine processes in one call.
    TooLarge,
}

impl StrictReason {
    pub fn as_str(self) -> &'static str {
        match self {
            StrictReason::Depth => "depth",
            StrictReason::NonSchemaNode => "non_schema_node",
            StrictReason::NestedId => "nested_id",
            StrictReason::UnsupportedKeyword => "unsupported_keyword",
            StrictReason::NonStringRef => "non_string_ref",
            StrictReason::UnresolvedRef => "unresolved_ref",
            StrictReason::InvalidAnyOf => "invalid_any_of",
            StrictReason::RefSibling => "ref_sibling",
            StrictReason::AnyOfSibling => "any_of_sibling",
            StrictReason::AmbiguousAnyOf => "ambiguous_any_of",
            StrictReason::OpenObject => "open_object",
            StrictReason::UnknownNullability => "unknown_nullability",
            StrictReason::TypelessOpenObject => "typeless_open_object",
            StrictReason::DefsNotObject => "defs_not_object",
            StrictReason::NotJson => "not_json",
            StrictReason::TooLarge => "too_large",
        }
    }
}

/// A schema strict mode refuses. `message` is the reference's text; `pointer` is the JSON
/// Pointer (RFC 6901) of the offending node in the caller's schema; `keyword` names the
/// keyword at fault where there is one.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{message}")]
pub struct StrictError {
    pub reason: StrictReason,
    pub pointer: String,
    pub keyword: Option<String>,
    pub message: String,
}

impl StrictError {
    pub fn is_depth(&self) -> bool {
        self.reason == StrictReason::Depth
    }
}

/// A JSON Schema that cannot be compiled for validation.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{message}")]
pub struct InvalidSchemaError {
    /// Pointer to the offending node in the schema.
    pub pointer: String,
    pub message: String,
}

/// Failures of the Standard Schema bridge. The messages are the reference's.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum StandardSchemaError {
    #[error("Standard Schema values must provide both `~standard.validate` and `~standard.jsonSchema` conversion. Upgrade the schema library or use its Standard JSON Schema adapter.")]
    Unsupported,
    #[error("Unable to convert the provided Standard Schema to JSON Schema.{}", detail.as_ref().map(|d| format!(" {d}")).unwrap_or_default())]
    Conversion { detail: Option<String> },
    #[error("{surface} Standard Schema must produce a JSON Schema with `type: \"object\"` at the root. Wrap the schema in an object schema.")]
    NonObjectRoot { surface: String },
    #[error("Standard Schema validation returned a Promise. Async Standard Schema validation is not supported.")]
    AsyncValidation,
    /// The value failed validation; the message joins the issues as the reference does.
    #[error("{message}")]
    Validation { message: String },
}
