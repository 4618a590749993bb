//! The types a schema names: the one part of JSON Schema's meta-schema the engine module
//! checks itself (the validator module holds the rest).

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
}
