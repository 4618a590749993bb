//! Typed errors, one enum per area. Every error carries structured fields; the message text of
//! strict-schema and Standard Schema errors equals the reference's, word for word.

crate::code_enum! {
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
        /// A tool name the provider refuses (characters or length).
        InvalidName = "invalid_name",
    }
}

/// A schema strict mode refuses. `message` is the reference's text; `pointer` is the JSON
/// Pointer (RFC 6901) of the offending node in the caller's schema; `keyword` names the
/// keyword at fault where there is one.
#[derive(Debug, Clone, PartialEq, thiserror::Error, serde::Serialize)]
#[cfg_attr(
    test,
    derive(ts_rs::TS),
    ts(rename = "StrictSchemaErrorFields", optional_fields)
)]
#[error("{message}")]
pub struct StrictError {
    /// Stable cause code.
    #[cfg_attr(test, ts(type = "StrictSchemaErrorReason"))]
    pub reason: StrictReason,
    /// JSON Pointer (RFC 6901) to the offending node of the schema you passed; `''` is the root.
    pub pointer: String,
    /// The keyword at fault, where there is one (`allOf`, `$ref`, `anyOf`, …).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub keyword: Option<String>,
    /// The tool whose schema it is, where a tool set was converted (`providerSchemas`).
    #[serde(skip_serializing_if = "Option::is_none", rename = "toolName")]
    pub tool_name: Option<String>,
    /// The message (`Display`); it crosses once, as the error's own.
    #[serde(skip)]
    pub message: String,
}

impl StrictError {
    pub fn is_depth(&self) -> bool {
        self.reason == StrictReason::Depth
    }
}

/// A JSON Schema that cannot be compiled for validation.
#[derive(Debug, Clone, PartialEq, thiserror::Error, serde::Serialize)]
#[cfg_attr(
    test,
    derive(ts_rs::TS),
    ts(rename = "InvalidJsonSchemaErrorFields", optional_fields)
)]
#[error("{message}")]
pub struct InvalidSchemaError {
    /// JSON Pointer to the offending node of the schema.
    pub pointer: String,
    /// The message (`Display`); it crosses once, as the error's own.
    #[serde(skip)]
    pub message: String,
}

/// Failures of the Standard Schema bridge. The messages are the reference's.
///
/// None has fields of its own: `StandardSchemaValidationError.issues` is the validator's own
/// array, which the binding hands over as it came.
#[derive(Debug, Clone, PartialEq, thiserror::Error, serde::Serialize)]
#[serde(untagged)]
pub enum StandardSchemaError {
    #[error("Standard Schema values must provide both `~standard.validate` and `~standard.jsonSchema` conversion. Upgrade the schema library or use its Standard JSON Schema adapter.")]
    Unsupported,
    #[error("Unable to convert the provided Standard Schema to JSON Schema.{}", detail.as_ref().map(|d| format!(" {d}")).unwrap_or_default())]
    Conversion {
        #[serde(skip)]
        detail: Option<String>,
    },
    #[error("{surface} Standard Schema must produce a JSON Schema with `type: \"object\"` at the root. Wrap the schema in an object schema.")]
    NonObjectRoot {
        #[serde(skip)]
        surface: String,
    },
    #[error("Standard Schema validation returned a Promise. Async Standard Schema validation is not supported.")]
    AsyncValidation,
    /// The value failed validation; the message joins the issues as the reference does.
    #[error("{message}")]
    Validation {
        #[serde(skip)]
        message: String,
    },
}

crate::error_classes! {
    /// A configuration problem: a schema or option the library cannot use.
    UserError;
    /// A schema strict mode refuses. The message is the reference's; the fields say where and
    /// why.
    StrictSchemaError: UserError("StrictSchemaErrorFields");
    /// A schema nested deeper than 100 levels (physically, or logically through `$ref`), or
    /// cyclic.
    SchemaDepthError: StrictSchemaError;
    /// A JSON Schema that cannot be compiled for validation.
    InvalidJsonSchemaError: UserError("InvalidJsonSchemaErrorFields");
    /// A Standard Schema value without both `~standard.validate` and `~standard.jsonSchema`.
    UnsupportedStandardSchemaError: UserError;
    /// A Standard Schema whose `validate` returned a Promise (async validation is not
    /// supported).
    AsyncStandardSchemaValidationError: UserError;
    /// A value failed a Standard Schema (carries the validator's own issues).
    StandardSchemaValidationError;
    /// Text a model returned could not be read as a value of the schema.
    StructuredParseError: UserError("StructuredParseErrorFields");
    /// A value that fails the original schema of a provider conversion (carries the
    /// validator's issues).
    ProviderOutputValidationError;
    /// A cassette (or a redaction pattern) cannot be used.
    InvalidCassetteError: UserError("InvalidCassetteErrorFields");
    /// A cassette file that does not exist where it must be replayed:
    /// `UNDERSTUDY_CASSETTES=replay`, or the default `auto` mode under `CI` (which never
    /// records). The message names the file and how to record it; nothing was written.
    CassetteMissingError: InvalidCassetteError("CassetteMissingErrorFields");
    /// No recorded request matches a live one (replay by request).
    CassetteMismatchError: UserError("CassetteMismatchErrorFields");
    // The test doubles' errors: the reference's constructors (src/doubles).
    InvalidScriptedModelStepError;
    UnexpectedModelCallError;
    UnconsumedModelStepsError;
    ScriptedModelRequestAbortedError as "AbortError";
    InvalidScriptedSandboxStepError;
    UnexpectedSandboxCallError;
    SandboxCallMatcherError;
    UnconsumedSandboxStepsError;
    UnexpectedRealtimeCallError;
    RealtimeCallMatcherError;
    IncompleteRealtimeScenarioError;
    ScriptedRealtimeScenarioCancelledError as "AbortError";
    RealtimeTransportNotClosedError;
    ScriptedRealtimeConnectionSupersededError;
}

/// An error the engine raises, as data: `kind` is the facade's class, `Display` is the
/// message, and `Serialize` writes the fields under the names the facade's class gives them.
/// Every kind crosses to JavaScript in the one form [`error_data`] writes.
pub trait Raise: serde::Serialize + std::fmt::Display {
    /// The facade's class for this error.
    fn kind(&self) -> Class;
    /// The error's `name`: its class's ([`Class::error_name`]).
    fn name(&self) -> &'static str {
        self.kind().error_name()
    }
}

/// `{"kind":…,"message":…,…fields}` as JSON text, with `"name"` after the kind where the
/// error's name is not its class: the form in which every engine error crosses (one string,
/// read by the facade's `engineErrorObject`). An absent field is left out
/// (`skip_serializing_if`), except in a test double's error, whose class has every field as
/// an own property: there it is `null`. A kind that serializes its own `kind` tag first (an
/// enum of several classes, `#[serde(tag = "kind")]`) has it written once.
pub fn error_data(e: &impl Raise) -> String {
    let text = |s: &str| serde_json::to_string(s).unwrap_or_default();
    let (kind, name) = (e.kind().name(), e.name());
    // A class name is an identifier: nothing in it to escape.
    let mut out = format!("{{\"kind\":\"{kind}\"");
    if name != kind {
        out.push_str(",\"name\":");
        out.push_str(&text(name));
    }
    out.push_str(",\"message\":");
    out.push_str(&text(&e.to_string()));
    // A kind with fields serializes as a map (a unit kind as `null`): its members follow.
    let fields = serde_json::to_string(e).unwrap_or_default();
    if let Some(members) = fields.strip_prefix('{').and_then(|f| f.strip_suffix('}')) {
        let tagged = members
            .strip_prefix("\"kind\":\"")
            .and_then(|rest| rest.strip_prefix(kind))
            .and_then(|rest| rest.strip_prefix('"'));
        let members = match tagged {
            Some(rest) => rest.strip_prefix(',').unwrap_or(rest),
            None => members,
        };
        if !members.is_empty() {
            out.push(',');
            out.push_str(members);
        }
    }
    out.push('}');
    out
}

/// A configuration problem described by its message alone (the facade's `UserError`).
#[derive(Debug, Clone, PartialEq, thiserror::Error, serde::Serialize)]
#[error("{0}")]
pub struct UserError(#[serde(skip)] pub String);

impl UserError {
    pub fn new(message: impl Into<String>) -> Self {
        UserError(message.into())
    }
}

impl Raise for UserError {
    fn kind(&self) -> Class {
        Class::UserError
    }
}

/// A value `JSON.stringify` cannot follow (cyclic, or nested deeper than the host's stack): a
/// `UserError` at the root (`pointer` `''`).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("Cannot read a value that is cyclic or nested deeper than JSON.stringify can follow. Pass plain JSON data.")]
pub struct Unencodable;

impl serde::Serialize for Unencodable {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = serializer.serialize_map(Some(1))?;
        map.serialize_entry("pointer", "")?;
        map.end()
    }
}

impl Raise for Unencodable {
    fn kind(&self) -> Class {
        Class::UserError
    }
}

impl Raise for StrictError {
    fn kind(&self) -> Class {
        if self.is_depth() {
            Class::SchemaDepthError
        } else {
            Class::StrictSchemaError
        }
    }
}

impl Raise for InvalidSchemaError {
    fn kind(&self) -> Class {
        Class::InvalidJsonSchemaError
    }
}

impl Raise for StandardSchemaError {
    fn kind(&self) -> Class {
        match self {
            StandardSchemaError::Unsupported => Class::UnsupportedStandardSchemaError,
            StandardSchemaError::AsyncValidation => Class::AsyncStandardSchemaValidationError,
            StandardSchemaError::Conversion { .. } | StandardSchemaError::NonObjectRoot { .. } => {
                Class::UserError
            }
            StandardSchemaError::Validation { .. } => Class::StandardSchemaValidationError,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The data as the facade reads it.
    fn data(e: &impl Raise) -> serde_json::Value {
        serde_json::from_str(&error_data(e)).unwrap()
    }

    #[test]
    fn errors_cross_as_kind_message_and_named_fields() {
        let strict = StrictError {
            reason: StrictReason::RefSibling,
            pointer: "/properties/a".into(),
            keyword: None,
            message: "no".into(),
            tool_name: None,
        };
        assert_eq!(
            data(&strict),
            serde_json::json!({"kind": "StrictSchemaError", "message": "no", "reason": "ref_sibling", "pointer": "/properties/a"})
        );
        let depth = StrictError {
            reason: StrictReason::Depth,
            keyword: Some("$ref".into()),
            ..strict
        };
        assert_eq!(data(&depth)["kind"], "SchemaDepthError");
        assert_eq!(data(&depth)["keyword"], "$ref");
        assert_eq!(
            data(&UserError::new("bad")),
            serde_json::json!({"kind": "UserError", "message": "bad"})
        );
        let standard = StandardSchemaError::NonObjectRoot {
            surface: "Tool".into(),
        };
        let d = data(&standard);
        assert_eq!(d["kind"], "UserError");
        assert!(d["message"]
            .as_str()
            .unwrap()
            .starts_with("Tool Standard Schema"));
        assert_eq!(d.as_object().unwrap().len(), 2, "{d}");
        assert_eq!(
            data(&InvalidSchemaError {
                pointer: "/type".into(),
                message: "m".into()
            }),
            serde_json::json!({"kind": "InvalidJsonSchemaError", "message": "m", "pointer": "/type"})
        );
    }

    #[test]
    fn an_absent_field_is_left_out_except_in_a_test_double_error() {
        let strict = StrictError {
            reason: StrictReason::RefSibling,
            pointer: String::new(),
            keyword: None,
            message: "no".into(),
            tool_name: None,
        };
        assert!(!error_data(&strict).contains("null"));
        let mismatch = crate::doubles::cassette::Mismatch {
            call_index: 0,
            hash: "h".into(),
            interface: crate::doubles::cassette::Interface::AgentsModel,
            closest: None,
        };
        assert!(!error_data(&mismatch).contains("null"));
        let invalid = crate::doubles::sandbox::SandboxError::InvalidStep {
            reason: crate::doubles::sandbox::StepReason::InvalidInput,
            input_index: 0,
            method: None,
            problem: None,
        };
        assert!(error_data(&invalid).ends_with(r#""inputIndex":0,"method":null}"#));
    }

    #[test]
    fn a_test_double_error_is_tagged_with_its_class() {
        use crate::doubles::{model::*, realtime::*, sandbox};
        fn check(e: &impl Raise) {
            let tag = serde_json::to_value(e).unwrap()["kind"].clone();
            assert_eq!(tag, e.kind().name(), "{e}");
            assert_eq!(error_data(e).matches("\"kind\"").count(), 1, "{e}");
        }
        let model = [
            ModelError::responder_invalid_response(0),
            ModelError::Unexpected {
                call_index: 0,
                streamed: false,
            },
            ModelError::Unconsumed { remaining: 1 },
            ModelError::Aborted { call_index: None },
        ];
        model.iter().for_each(check);
        let sandbox = [
            sandbox::SandboxError::InvalidStep {
                reason: sandbox::StepReason::InvalidInput,
                input_index: 0,
                method: None,
                problem: None,
            },
            sandbox::SandboxError::Unexpected {
                call_index: 0,
                actual: "exec".into(),
                expected: None,
                remaining: 0,
            },
            sandbox::SandboxError::Matcher {
                call_index: 0,
                method: "exec".into(),
            },
            sandbox::SandboxError::unconsumed(vec!["exec".into()]),
        ];
        sandbox.iter().for_each(check);
        let realtime = [
            RealtimeError::Unexpected {
                call_index: 0,
                expected: "close".into(),
                actual: "mute".into(),
            },
            RealtimeError::Matcher {
                call_index: 0,
                actual: "mute".into(),
            },
            RealtimeError::Incomplete {
                unconsumed: vec![],
                pending: vec![],
                failures: vec![],
            },
            RealtimeError::Cancelled { pending: vec![] },
            RealtimeError::NotClosed {
                status: "connected".into(),
            },
            SUPERSEDED,
        ];
        realtime.iter().for_each(check);
    }

    #[test]
    fn a_tagged_kind_is_written_once_with_its_fields_in_order() {
        use crate::doubles::model::ModelError;
        assert_eq!(
            error_data(&ModelError::Aborted { call_index: None }),
            r#"{"kind":"ScriptedModelRequestAbortedError","name":"AbortError","message":"Scripted model request was aborted.","callIndex":null}"#
        );
        assert_eq!(
            error_data(&ModelError::Unexpected {
                call_index: 2,
                streamed: true
            }),
            r#"{"kind":"UnexpectedModelCallError","message":"ScriptedModel received unexpected streaming call #3; no scripted steps remain.","callIndex":2,"streamed":true}"#
        );
    }
}
