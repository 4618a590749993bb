//! The part of JSON Schema's meta-schema the engine module checks itself (the validator module
//! holds the rest): the types a schema names and the shape of each assertion keyword's value.

use serde_json::Value as Json;

/// The JSON types a schema's `type` may name.
const JSON_TYPES: [&str; 7] = [
    "array", "boolean", "integer", "null", "number", "object", "string",
];

/// Keywords whose value is a schema, a list of schemas or a map of them.
const SUBSCHEMA_KEYWORDS: [&str; 20] = [
    "properties",
    "patternProperties",
    "$defs",
    "definitions",
    "dependentSchemas",
    "items",
    "prefixItems",
    "additionalItems",
    "additionalProperties",
    "unevaluatedProperties",
    "unevaluatedItems",
    "contains",
    "propertyNames",
    "not",
    "if",
    "then",
    "else",
    "anyOf",
    "oneOf",
    "allOf",
];

/// Whether every `type` of a schema names JSON types. One that names another
/// (`{ type: 'nope' }`) is not a JSON Schema: an `InvalidJsonSchemaError` at the keyword's
/// pointer, which a reading (no reply is to blame) and a provider conversion (never an invalid
/// schema passed on) raise. Walks subschemas only (so data in `enum`, `const` or `default` is
/// not read), to the schema depth limit.
pub fn check(schema: &Json) -> Result<(), crate::error::InvalidSchemaError> {
    let mut stack: Vec<(String, &Json, usize)> = vec![(String::new(), schema, 0)];
    while let Some((pointer, node, depth)) = stack.pop() {
        let Json::Object(map) = node else { continue };
        if depth > crate::schema::strict::MAX_DEPTH {
            continue;
        }
        let bad = match map.get("type") {
            Some(Json::String(t)) => (!JSON_TYPES.contains(&t.as_str())).then(|| t.clone()),
            Some(Json::Array(ts)) => ts.iter().find_map(|t| match t {
                Json::String(t) if JSON_TYPES.contains(&t.as_str()) => None,
                other => Some(other.to_string()),
            }),
            Some(other) => Some(other.to_string()),
            None => None,
        };
        if let Some(bad) = bad {
            return Err(crate::error::InvalidSchemaError {
                message: format!(
                    "Invalid JSON Schema at `{pointer}/type`: `{}` is not a JSON type (the types are {}).",
                    bad.trim_matches('"'),
                    JSON_TYPES.join(", ")
                ),
                pointer: format!("{pointer}/type"),
            });
        }
        if let Some((keyword, shape)) = map
            .iter()
            .find_map(|(k, v)| shape_of(k).filter(|shape| !shape.fits(v)).map(|s| (k, s)))
        {
            let mut at = pointer.clone();
            crate::schema::json::push_token(&mut at, keyword);
            return Err(crate::error::InvalidSchemaError {
                message: format!(
                    "Invalid JSON Schema at `{at}`: `{keyword}` must be {}, got {}.",
                    shape.words(),
                    shown(&map[keyword])
                ),
                pointer: at,
            });
        }
        for keyword in SUBSCHEMA_KEYWORDS {
            let Some(value) = map.get(keyword) else {
                continue;
            };
            let mut at = pointer.clone();
            crate::schema::json::push_token(&mut at, keyword);
            let maps = matches!(
                keyword,
                "properties" | "patternProperties" | "$defs" | "definitions" | "dependentSchemas"
            );
            match value {
                Json::Object(children) if maps => {
                    for (k, child) in children {
                        let mut child_at = at.clone();
                        crate::schema::json::push_token(&mut child_at, k);
                        stack.push((child_at, child, depth + 1));
                    }
                }
                Json::Array(items) => {
                    for (i, item) in items.iter().enumerate() {
                        stack.push((format!("{at}/{i}"), item, depth + 1));
                    }
                }
                other => stack.push((at, other, depth + 1)),
            }
        }
    }
    Ok(())
}

/// What the meta-schema (drafts 7 and 2020-12; draft 4's boolean `exclusiveMinimum` too) lets
/// an assertion or annotation keyword hold.
#[derive(Clone, Copy)]
enum Shape {
    Number,
    Positive,
    Count,
    Text,
    Flag,
    Names,
    Bound,
}

/// A keyword's value in a message: its JSON, cut at 60 characters.
fn shown(v: &Json) -> String {
    let text = v.to_string();
    match text.char_indices().nth(60) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text,
    }
}

fn shape_of(keyword: &str) -> Option<Shape> {
    Some(match keyword {
        "minimum" | "maximum" => Shape::Number,
        "exclusiveMinimum" | "exclusiveMaximum" => Shape::Bound,
        "multipleOf" => Shape::Positive,
        "minLength" | "maxLength" | "minItems" | "maxItems" | "minProperties" | "maxProperties"
        | "minContains" | "maxContains" => Shape::Count,
        "pattern" | "format" | "title" | "description" | "$comment" | "$id" | "$schema"
        | "$anchor" | "contentEncoding" | "contentMediaType" => Shape::Text,
        "uniqueItems" | "deprecated" | "readOnly" | "writeOnly" => Shape::Flag,
        "required" => Shape::Names,
        _ => return None,
    })
}

impl Shape {
    fn fits(self, v: &Json) -> bool {
        match self {
            Shape::Number => v.is_number(),
            Shape::Bound => v.is_number() || v.is_boolean(),
            Shape::Positive => v.as_f64().is_some_and(|n| n > 0.0),
            Shape::Count => {
                v.as_u64().is_some() || v.as_f64().is_some_and(|n| n >= 0.0 && n.fract() == 0.0)
            }
            Shape::Text => v.is_string(),
            Shape::Flag => v.is_boolean(),
            Shape::Names => v.as_array().is_some_and(|names| {
                names.iter().all(Json::is_string)
                    && names
                        .iter()
                        .enumerate()
                        .all(|(i, n)| !names[..i].contains(n))
            }),
        }
    }

    fn words(self) -> &'static str {
        match self {
            Shape::Number => "a number",
            Shape::Bound => "a number",
            Shape::Positive => "a number greater than 0",
            Shape::Count => "a non-negative integer",
            Shape::Text => "a string",
            Shape::Flag => "a boolean",
            Shape::Names => "an array of distinct property names",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_type_that_names_no_json_type_is_an_invalid_schema() {
        let e = check(&json!({"type":"nope"})).unwrap_err();
        assert_eq!(e.pointer, "/type");
        assert_eq!(
            e.message,
            "Invalid JSON Schema at `/type`: `nope` is not a JSON type (the types are array, boolean, integer, null, number, object, string)."
        );
        let e = check(&json!({"type":"object","properties":{"a":{"type":["string","text"]}},"$defs":{"x":{"type":"object"}}})).unwrap_err();
        assert_eq!(e.pointer, "/properties/a/type");
        let e = check(&json!({"anyOf":[{"type":"string"},{"items":{"type":5}}]})).unwrap_err();
        assert_eq!(e.pointer, "/anyOf/1/items/type");
        // Data is not read as a schema; a property named `type` is a property.
        for ok in [
            json!({"type":"object","properties":{"type":{"type":"string"}}}),
            json!({"enum":[{"type":"nope"}],"default":{"type":"x"}}),
            json!(true),
            json!({}),
        ] {
            assert_eq!(check(&ok), Ok(()), "{ok}");
        }
    }

    #[test]
    fn a_keyword_whose_value_the_meta_schema_refuses_is_an_invalid_schema() {
        for (schema, pointer) in [
            (json!({"type":"object","required":"a"}), "/required"),
            (json!({"required":["a","a"]}), "/required"),
            (
                json!({"properties":{"a":{"minLength":-1}}}),
                "/properties/a/minLength",
            ),
            (json!({"items":{"maxItems":1.5}}), "/items/maxItems"),
            (json!({"anyOf":[{"pattern":5}]}), "/anyOf/0/pattern"),
            (json!({"format":5}), "/format"),
            (json!({"minimum":"x"}), "/minimum"),
            (json!({"multipleOf":0}), "/multipleOf"),
            (json!({"description":5}), "/description"),
            (json!({"uniqueItems":"yes"}), "/uniqueItems"),
        ] {
            let e = check(&schema).expect_err(&schema.to_string());
            assert_eq!(e.pointer, pointer, "{schema}");
            assert!(
                e.message
                    .starts_with(&format!("Invalid JSON Schema at `{pointer}`: `")),
                "{}",
                e.message
            );
        }
        let e = check(&json!({"minLength":-1})).unwrap_err();
        assert_eq!(e.message, "Invalid JSON Schema at `/minLength`: `minLength` must be a non-negative integer, got -1.");
        // What the meta-schema takes: draft 4's boolean bounds, an integer written as 2.0,
        // data under `enum` / `const` / `default`, an empty `required`.
        for ok in [
            json!({"minimum":0,"exclusiveMinimum":true,"maxLength":2.0,"required":[]}),
            json!({"const":{"minLength":-1},"default":{"required":"a"},"examples":[{"format":5}]}),
            json!({"properties":{"required":{"type":"string"},"minLength":{"type":"integer"}}}),
        ] {
            assert_eq!(check(&ok), Ok(()), "{ok}");
        }
    }
}
