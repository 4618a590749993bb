//! Rules of the Standard Schema bridge. The host reads the schema object
//! (property lookups, calls); these functions decide what the facts mean.

use crate::error::StandardSchemaError;

/// What the host found on a value's `~standard` property.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Capabilities {
    /// `'~standard' in value` for a non-null object or function.
    pub marker: bool,
    pub version_is_1: bool,
    pub validate_is_function: bool,
    pub json_input_is_function: bool,
    pub json_output_is_function: bool,
    /// A getter threw while the host looked.
    pub threw: bool,
}

impl Capabilities {
    /// `isStandardSchemaWithJSON`: marker, version 1, `validate`, and both converters.
    pub fn with_json(&self) -> bool {
        !self.threw
            && self.marker
            && self.version_is_1
            && self.validate_is_function
            && self.json_input_is_function
            && self.json_output_is_function
    }

    /// The error for a value that is to be used as a Standard Schema with JSON and is not.
    pub fn require_with_json(&self) -> Result<(), StandardSchemaError> {
        if self.with_json() {
            Ok(())
        } else {
            Err(StandardSchemaError::Unsupported)
        }
    }
}

/// Which JSON Schema of a Standard Schema is wanted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Io {
    Input,
    Output,
}

impl Io {
    pub fn parse(text: &str) -> Option<Io> {
        match text {
            "input" => Some(Io::Input),
            "output" => Some(Io::Output),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Io::Input => "input",
            Io::Output => "output",
        }
    }
}

/// Where a schema argument's `~standard` stands (what the host found).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct MarkerPlace {
    /// An own property of the value (not inherited, not a getter's class).
    pub own: bool,
    pub enumerable: bool,
    /// The value is a plain object (its prototype is `Object.prototype` or `null`).
    pub plain: bool,
}

/// Whether a schema argument that has `~standard` is read as a Standard Schema (through its
/// JSON Schema conversion) rather than as the JSON Schema it shows. Schema objects carry the
/// marker enumerable (Valibot) or inherited (Zod, ArkType); a plain object whose own marker is
/// not enumerable is a JSON Schema document its library marked (Zod's `toJSONSchema` output,
/// whose `~standard` converts the schema it came from, not the document, so its input form
/// differs): it is the JSON Schema `JSON.stringify` shows, as `@openai/agents` reads it.
pub fn reads_as_standard(place: MarkerPlace) -> bool {
    !(place.own && !place.enumerable && place.plain)
}

/// The target passed to `~standard.jsonSchema[io]`.
pub const JSON_SCHEMA_TARGET: &str = "draft-2020-12";

/// `Number.MAX_SAFE_INTEGER`: the bound Zod writes on every `int()`.
const SAFE_INTEGER: f64 = 9_007_199_254_740_991.0;

/// Tidies a JSON Schema before a provider conversion (not OpenAI's, which stays the
/// reference's) reads it: the bounds Zod adds to every integer (`minimum: -(2^53 - 1)`,
/// `maximum: 2^53 - 1`, JSON's safe integers, which no provider needs described or enforced)
/// and a record's `propertyNames: { type: 'string' }` (every key is a string) say nothing, and
/// go. Iterative; what else the schema says is kept.
pub fn tidy_converted(schema: &mut serde_json::Value) {
    use serde_json::Value;
    let mut stack: Vec<&mut Value> = vec![schema];
    while let Some(v) = stack.pop() {
        match v {
            Value::Object(map) => {
                let integer = match map.get("type") {
                    Some(Value::String(t)) => t == "integer",
                    Some(Value::Array(ts)) => ts.iter().any(|t| t == "integer"),
                    _ => false,
                };
                if integer {
                    for (key, bound) in [("minimum", -SAFE_INTEGER), ("maximum", SAFE_INTEGER)] {
                        if map.get(key).and_then(Value::as_f64) == Some(bound) {
                            map.shift_remove(key);
                        }
                    }
                }
                let string_keys = matches!(
                    map.get("propertyNames"),
                    Some(Value::Object(p)) if p.len() == 1 && p.get("type").and_then(Value::as_str) == Some("string")
                );
                if string_keys {
                    map.shift_remove("propertyNames");
                }
                stack.extend(map.values_mut());
            }
            Value::Array(items) => stack.extend(items.iter_mut()),
            _ => {}
        }
    }
}

/// The error for a converter that threw; `detail` is the thrown `Error`'s message, if it was one.
pub fn conversion_error(detail: Option<String>) -> StandardSchemaError {
    StandardSchemaError::Conversion { detail }
}

/// `assertStandardSchemaObjectRoot`: the root `type` must be exactly the string `"object"`.
pub fn assert_object_root(
    root_type_is_object: bool,
    surface: &str,
) -> Result<(), StandardSchemaError> {
    if root_type_is_object {
        Ok(())
    } else {
        Err(StandardSchemaError::NonObjectRoot {
            surface: surface.to_string(),
        })
    }
}

/// What the facade's `standardCall` found in a `~standard.validate` result. It crosses as the
/// number the facade's generated `StandardOutcome` names (engine/codes.ts, from [`Outcome::ALL`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// A result with a value (no issues).
    Value = 0,
    /// A thenable: async validation, refused.
    Thenable = 1,
    /// A result with issues.
    Issues = 2,
}

impl Outcome {
    /// Every outcome with its name in `StandardOutcome`.
    pub const ALL: [(Outcome, &'static str); 3] = [
        (Outcome::Value, "Value"),
        (Outcome::Thenable, "Thenable"),
        (Outcome::Issues, "Issues"),
    ];

    /// The outcome a number names.
    pub fn from_code(code: u32) -> Option<Outcome> {
        Outcome::ALL
            .iter()
            .find(|(o, _)| *o as u32 == code)
            .map(|(o, _)| *o)
    }
}

/// One issue as the host read it: `String(segment)` for each path segment (a segment object
/// contributes its `key`), `String(message)`, and whether the message was `null`/`undefined`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IssueText {
    pub path: Option<Vec<String>>,
    pub message: String,
    pub message_nullish: bool,
}

/// The shape of what `~standard.validate` returned.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ValidateResult {
    /// An object or function with a callable `then`.
    Thenable,
    /// A truthy `issues`.
    Issues(Vec<IssueText>),
    /// Anything else: the result's `value` is the validated output.
    Value,
}

/// What `validateStandardSchema` does with a result.
pub fn judge(result: &ValidateResult) -> Result<(), StandardSchemaError> {
    match result {
        ValidateResult::Thenable => Err(StandardSchemaError::AsyncValidation),
        ValidateResult::Issues(issues) => Err(StandardSchemaError::Validation {
            message: issues_message(issues),
        }),
        ValidateResult::Value => Ok(()),
    }
}

/// `path: message` for each issue (the path joined with `.`), joined with `, `. An issue
/// without a path is its message alone; a nullish message alone joins as empty text.
pub fn issues_message(issues: &[IssueText]) -> String {
    issues
        .iter()
        .map(|issue| {
            let path = issue.path.as_ref().map(|p| p.join(".")).unwrap_or_default();
            if !path.is_empty() {
                format!("{path}: {}", issue.message)
            } else if issue.message_nullish {
                String::new()
            } else {
                issue.message.clone()
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// The issue texts the facade's `issueTexts` walk encodes (pkg-template/src/engine/standard-call.ts): per
/// issue a field with the number of path segments (empty without a path; `!` appended when the
/// message was nullish), one field per segment and one for the message, each field
/// `<UTF-16 length>:<text>`. `None` for text not in that form.
pub fn decode_issue_texts(encoded: &str) -> Option<Vec<IssueText>> {
    /// The next `<UTF-16 length>:<text>` field of `rest`, advancing past it.
    fn field<'t>(rest: &mut &'t str) -> Option<&'t str> {
        let colon = rest.find(':')?;
        let units: usize = rest[..colon].parse().ok()?;
        let text = &rest[colon + 1..];
        let (mut taken, mut end) = (0, 0);
        for c in text.chars() {
            if taken >= units {
                break;
            }
            taken += c.len_utf16();
            end += c.len_utf8();
        }
        if taken != units {
            return None;
        }
        *rest = &text[end..];
        Some(&text[..end])
    }
    let mut rest = encoded;
    let mut issues = Vec::new();
    while !rest.is_empty() {
        let meta = field(&mut rest)?;
        let (count, message_nullish) = match meta.strip_suffix('!') {
            Some(count) => (count, true),
            None => (meta, false),
        };
        let path = if count.is_empty() {
            None
        } else {
            let n: usize = count.parse().ok()?;
            let mut segments = Vec::with_capacity(n.min(64));
            for _ in 0..n {
                segments.push(field(&mut rest)?.to_owned());
            }
            Some(segments)
        };
        let message = field(&mut rest)?.to_owned();
        issues.push(IssueText {
            path,
            message,
            message_nullish,
        });
    }
    Some(issues)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_marked_json_document_is_read_as_json_schema() {
        let place = |own, enumerable, plain| MarkerPlace {
            own,
            enumerable,
            plain,
        };
        // Zod's toJSONSchema output: an own, hidden marker on a plain object.
        assert!(!reads_as_standard(place(true, false, true)));
        // Valibot's schemas (own, enumerable), Zod's and ArkType's (inherited), a class
        // instance with a hidden marker.
        assert!(reads_as_standard(place(true, true, true)));
        assert!(reads_as_standard(place(false, false, false)));
        assert!(reads_as_standard(place(true, false, false)));
    }

    #[test]
    fn a_library_s_vacuous_bounds_and_key_types_are_tidied() {
        let mut s = serde_json::json!({
            "type": "object",
            "properties": {
                "n": { "type": "integer", "minimum": -9007199254740991i64, "maximum": 9007199254740991i64 },
                "m": { "type": ["integer", "null"], "minimum": 0, "maximum": 9007199254740991i64 },
                "f": { "type": "number", "maximum": 9007199254740991i64 },
                "r": { "type": "object", "propertyNames": { "type": "string" }, "additionalProperties": { "type": "number" } },
                "p": { "type": "object", "propertyNames": { "type": "string", "pattern": "^a" } }
            }
        });
        tidy_converted(&mut s);
        assert_eq!(
            s,
            serde_json::json!({
                "type": "object",
                "properties": {
                    "n": { "type": "integer" },
                    "m": { "type": ["integer", "null"], "minimum": 0 },
                    "f": { "type": "number", "maximum": 9007199254740991i64 },
                    "r": { "type": "object", "additionalProperties": { "type": "number" } },
                    "p": { "type": "object", "propertyNames": { "type": "string", "pattern": "^a" } }
                }
            }),
            "only an integer's safe-integer bounds and a bare string key type go"
        );
    }

    #[test]
    fn outcomes_cross_as_their_numbers() {
        for (outcome, _) in Outcome::ALL {
            assert_eq!(Outcome::from_code(outcome as u32), Some(outcome));
        }
        assert_eq!(Outcome::from_code(3), None);
    }

    #[test]
    fn issue_texts_decode_from_lengths_in_utf16_units() {
        let issues = decode_issue_texts("1:21:a1:03:m:x2:0!9:undefined0:4:\u{1F600} o").unwrap();
        assert_eq!(
            issues,
            [
                IssueText {
                    path: Some(vec!["a".into(), "0".into()]),
                    message: "m:x".into(),
                    message_nullish: false,
                },
                IssueText {
                    path: Some(vec![]),
                    message: "undefined".into(),
                    message_nullish: true,
                },
                IssueText {
                    path: None,
                    message: "\u{1F600} o".into(),
                    message_nullish: false,
                },
            ]
        );
        assert_eq!(issues_message(&issues), "a.0: m:x, , \u{1F600} o");
        assert_eq!(decode_issue_texts(""), Some(vec![]));
        for broken in ["1", "x:a", "5:ab", "1:23:a", "1:1"] {
            assert_eq!(decode_issue_texts(broken), None, "{broken}");
        }
    }

    fn issue(path: Option<&[&str]>, message: &str) -> IssueText {
        IssueText {
            path: path.map(|p| p.iter().map(|s| s.to_string()).collect()),
            message: message.into(),
            message_nullish: false,
        }
    }

    #[test]
    fn full_support_needs_every_capability() {
        let all = Capabilities {
            marker: true,
            version_is_1: true,
            validate_is_function: true,
            json_input_is_function: true,
            json_output_is_function: true,
            threw: false,
        };
        assert!(all.with_json());
        for broken in [
            Capabilities {
                marker: false,
                ..all
            },
            Capabilities {
                version_is_1: false,
                ..all
            },
            Capabilities {
                validate_is_function: false,
                ..all
            },
            Capabilities {
                json_input_is_function: false,
                ..all
            },
            Capabilities {
                json_output_is_function: false,
                ..all
            },
            Capabilities { threw: true, ..all },
        ] {
            assert!(!broken.with_json());
            assert_eq!(
                broken.require_with_json().unwrap_err().to_string(),
                "Standard Schema values must provide both `~standard.validate` and `~standard.jsonSchema` conversion. Upgrade the schema library or use its Standard JSON Schema adapter."
            );
        }
    }

    #[test]
    fn issue_messages_join_paths_and_issues() {
        let issues = vec![
            issue(Some(&["user", "0", "name"]), "Required"),
            issue(None, "Bad"),
            issue(Some(&[]), "Empty path"),
        ];
        assert_eq!(
            issues_message(&issues),
            "user.0.name: Required, Bad, Empty path"
        );
        let nullish = IssueText {
            path: None,
            message: "undefined".into(),
            message_nullish: true,
        };
        assert_eq!(issues_message(&[nullish.clone(), issue(None, "x")]), ", x");
        let with_path = IssueText {
            path: Some(vec!["a".into()]),
            ..nullish
        };
        assert_eq!(issues_message(&[with_path]), "a: undefined");
    }

    #[test]
    fn results_are_judged_as_the_reference_does() {
        assert_eq!(
            judge(&ValidateResult::Thenable).unwrap_err().to_string(),
            "Standard Schema validation returned a Promise. Async Standard Schema validation is not supported."
        );
        assert_eq!(
            judge(&ValidateResult::Issues(vec![issue(Some(&["a"]), "m")]))
                .unwrap_err()
                .to_string(),
            "a: m"
        );
        assert!(judge(&ValidateResult::Value).is_ok());
    }

    #[test]
    fn conversion_and_root_messages() {
        assert_eq!(
            conversion_error(None).to_string(),
            "Unable to convert the provided Standard Schema to JSON Schema."
        );
        assert_eq!(
            conversion_error(Some("boom".into())).to_string(),
            "Unable to convert the provided Standard Schema to JSON Schema. boom"
        );
        assert_eq!(
            assert_object_root(false, "Tool parameter").unwrap_err().to_string(),
            "Tool parameter Standard Schema must produce a JSON Schema with `type: \"object\"` at the root. Wrap the schema in an object schema."
        );
        assert!(assert_object_root(true, "Agent output").is_ok());
        assert_eq!(Io::parse("input"), Some(Io::Input));
        assert_eq!(Io::parse("both"), None);
    }
}
