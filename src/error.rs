//! Typed errors, one enum per area. Every error carries structured fields; the message text of
//! strict-schema and Standard Schema errors equals the reference's, word for word.

crate::codes! {
    /// Stable machine-readable cause of a strict-schema rejection.
    pub enum StrictReason {
        /// Nesting deeper than 100 (physically, or logically through `$ref`).
        Depth = "depth",
        /// A schema position holds something other than an object or a boolean.
        NonSchemaNode = "non_schema_node",
        /// A non-root node declares `$id`.
        NestedId = "nested_id",
        /// A keyword strict mode cannot represent (`allOf`, `oneOf`, `if`, …).
        UnsupportedKeyword = "unsupported_keyword",
        /// `$ref` is not a string.
        NonStringRef = "non_string_ref",
        /// `$ref` is external or does not resolve inside the root document.
        UnresolvedRef = "unresolved_ref",
        /// `anyOf` is not a non-empty array.
        InvalidAnyOf = "invalid_any_of",
        /// `$ref` combined with an assertion keyword.
        RefSibling = "ref_sibling",
        /// `anyOf` combined with an assertion keyword.
        AnyOfSibling = "any_of_sibling",
        /// An `anyOf` branch holds optional properties that input normalization cannot map back.
        AmbiguousAnyOf = "ambiguous_any_of",
        /// An open object (MCP check) whose accepted values strict mode would change.
        OpenObject = "open_object",
        /// An optional property whose acceptance of `null` cannot be decided.
        UnknownNullability = "unknown_nullability",
        /// An object schema without `type` that is open.
        TypelessOpenObject = "typeless_open_object",
        /// The root `$defs` is not an object, so references cannot be hoisted.
        DefsNotObject = "defs_not_object",
        /// A value JSON cannot carry (function, symbol, bigint, NaN/Infinity) inside the schema.
        NotJson = "not_json",
        /// More nodes than the engine processes in one call.
        TooLarge = "too_large",
        /// A tool's parameters as sent are not their own strict form (`strictTools`): strict
        /// mode would refuse them ("Invalid schema for function").
        NotStrict = "not_strict",
        /// A recursive schema, for a provider that cannot express recursion.
        Recursive = "recursive",
        /// The root is not an object schema, for a provider that requires one.
        RootNotObject = "root_not_object",
        /// A value the provider does not accept there (an object in an `enum`, say).
        UnsupportedValue = "unsupported_value",
        /// A request over a provider's limits (`strictTools` with a provider).
        RequestLimit = "request_limit",
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
