use serde_json::json;

use super::*;

#[test]
fn a_provider_named_alone_takes_the_mode_a_tool_declares_else_its_default() {
    use Provider::*;
    assert_eq!(Mode::declared(OpenAi, None), Mode::OpenAiStrict);
    assert_eq!(Mode::declared(OpenAi, Some(false)), Mode::OpenAiStandard);
    assert_eq!(Mode::declared(Anthropic, None), Mode::AnthropicStandard);
    assert_eq!(Mode::declared(Anthropic, Some(true)), Mode::AnthropicStrict);
    assert_eq!(Mode::declared(Gemini, Some(true)), Mode::GeminiOpenApi);
    assert_eq!(
        Target::from_code("openai:standard"),
        Some(Target::Mode(Mode::OpenAiStandard))
    );
    assert_eq!(
        Target::from_code("anthropic"),
        Some(Target::Provider(Anthropic))
    );
    assert_eq!(Target::from_code("openai:loose"), None);
    assert_eq!(
        Target::Mode(Mode::OpenAiStrict).mode_for(Some(false)),
        Mode::OpenAiStrict
    );
}

/// Schemas that exercise the modes' rules: each conversion's result is one its mode takes.
fn corpus() -> Vec<Json> {
    vec![
        json!({ "type": "object", "properties": { "a": { "type": "string" } }, "required": ["a"], "additionalProperties": false }),
        json!({ "type": "object", "properties": { "q": { "type": "string", "minLength": 2, "format": "uri" }, "n": { "type": "integer", "minimum": 1, "exclusiveMaximum": 10 } }, "required": ["q"] }),
        json!({ "type": "object", "properties": { "m": { "type": "object", "propertyNames": { "pattern": "^a" } } } }),
        json!({ "type": "object", "properties": { "tags": { "type": "array", "items": { "type": "string" }, "minItems": 2 } }, "$defs": { "unused": { "type": "object" } } }),
        json!({ "type": "object", "properties": { "at": { "$ref": "#/$defs/p" } }, "$defs": { "p": { "type": "object", "properties": { "c": { "type": ["string", "null"] } } } } }),
        json!({ "type": "object", "properties": { "v": { "oneOf": [{ "type": "string" }, { "type": "number" }] }, "e": { "enum": [1, 2, 3] } } }),
        json!({ "type": "object", "properties": { "k": { "const": "x" }, "d": { "type": "string", "format": "date-time" } }, "$schema": "http://json-schema.org/draft-07/schema#" }),
    ]
}

#[test]
fn every_conversion_gives_what_its_mode_takes() {
    for schema in corpus() {
        for mode in Mode::ALL {
            for role in [Role::Tool, Role::Output] {
                if let Ok(converted) = convert(*mode, role, &schema, None) {
                    let verdict = judge(*mode, role, &converted.schema);
                    assert!(
                        verdict.is_ok(),
                        "{mode:?} {role:?}: {schema}\n→ {}\n{verdict:?}",
                        converted.schema
                    );
                }
            }
        }
    }
}

#[test]
fn a_schema_a_mode_takes_converts_to_itself_but_for_lossless_noise() {
    let strict = json!({ "type": "object", "properties": { "a": { "type": "string" } }, "required": ["a"], "additionalProperties": false });
    for mode in [
        Mode::OpenAiStrict,
        Mode::OpenAiStandard,
        Mode::AnthropicStandard,
        Mode::AnthropicStrict,
    ] {
        assert!(judge(mode, Role::Tool, &strict).is_ok(), "{mode:?}");
        let c = convert(mode, Role::Tool, &strict, None).unwrap();
        assert_eq!(c.schema, strict, "{mode:?}");
        assert!(c.changes.is_empty(), "{mode:?}: {:?}", c.changes);
    }
}

#[test]
fn anthropic_strict_refuses_what_its_grammar_cannot_hold() {
    let refused = |schema: Json| judge(Mode::AnthropicStrict, Role::Tool, &schema).unwrap_err();
    let e = refused(
        json!({ "type": "object", "properties": { "s": { "type": "string", "minLength": 2 } }, "required": ["s"], "additionalProperties": false }),
    );
    assert_eq!(
        (e.pointer.as_str(), e.keyword.as_deref()),
        ("/properties/s", Some("minLength"))
    );
    let e = refused(
        json!({ "type": "object", "properties": { "s": { "type": "string" } }, "required": ["s"] }),
    );
    assert_eq!(e.keyword.as_deref(), Some("additionalProperties"));
    // Standard tools take both.
    assert!(judge(
        Mode::AnthropicStandard,
        Role::Tool,
        &json!({ "type": "object", "properties": { "s": { "type": "string", "minLength": 2 } } })
    )
    .is_ok());
}

#[test]
fn anthropic_roots_need_an_object_type_and_no_union() {
    let e = judge(
        Mode::AnthropicStandard,
        Role::Tool,
        &json!({ "properties": {} }),
    )
    .unwrap_err();
    assert_eq!(e.reason, StrictReason::RootNotObject);
    assert!(e.message.contains("input_schema.type: Field required"));
    let e = judge(
        Mode::AnthropicStandard,
        Role::Tool,
        &json!({ "type": "object", "oneOf": [] }),
    )
    .unwrap_err();
    assert_eq!(e.pointer, "/oneOf");
    let e = convert(Mode::AnthropicStrict, Role::Tool, &json!({ "type": "object", "anyOf": [{ "type": "object", "properties": { "a": { "type": "string" } }, "required": ["a"] }] }), None).unwrap_err();
    assert_eq!(e.pointer, "/anyOf");
}

#[test]
fn openai_strict_refuses_formats_outside_its_nine() {
    let schema = json!({ "type": "object", "properties": { "u": { "type": "string", "format": "uri" } }, "required": ["u"], "additionalProperties": false });
    let e = judge(Mode::OpenAiStrict, Role::Tool, &schema).unwrap_err();
    assert_eq!(
        (e.reason, e.pointer.as_str()),
        (StrictReason::UnsupportedValue, "/properties/u")
    );
    assert!(e.message.contains("'uri' is not a valid format"));
    assert!(judge(Mode::OpenAiStandard, Role::Tool, &schema).is_ok());
    assert_eq!(
        convert(Mode::OpenAiStrict, Role::Tool, &schema, None)
            .unwrap_err()
            .reason,
        StrictReason::UnsupportedValue
    );
}

#[test]
fn gemini_reads_both_proto3_spellings_and_refuses_unknown_fields() {
    let snake = json!({ "type": "OBJECT", "properties": { "min_items": { "type": "STRING" } }, "property_ordering": ["min_items"], "required": ["min_items"] });
    assert!(judge(Mode::GeminiOpenApi, Role::Output, &snake).is_ok());
    assert_eq!(
        gemini_spelling(&snake)["propertyOrdering"],
        json!(["min_items"])
    );
    assert!(gemini_spelling(&snake)["properties"]["min_items"].is_object());
    let e = judge(Mode::GeminiOpenApi, Role::Tool, &json!({ "type": "object", "properties": { "a": { "type": "string" } }, "additionalProperties": false, "$schema": "x" })).unwrap_err();
    assert!(
        e.message.starts_with("Gemini (OpenAPI schema) refuses it"),
        "{}",
        e.message
    );
    let e = judge(
        Mode::GeminiOpenApi,
        Role::Tool,
        &json!({ "type": "object", "properties": { "u": { "type": "string", "format": "uri" } } }),
    )
    .unwrap_err();
    assert_eq!(e.keyword.as_deref(), Some("format"));
    assert!(judge(Mode::GeminiOpenApi, Role::Tool, &json!({ "type": "object", "properties": { "u": { "type": "string", "format": "date-time" } } })).is_ok());
}

#[test]
fn gemini_json_refuses_a_keyword_beside_a_ref_and_ignores_the_rest() {
    let e = judge(Mode::GeminiJson, Role::Tool, &json!({ "type": "object", "properties": { "a": { "$ref": "#/$defs/x", "description": "d" } }, "$defs": { "x": { "type": "string" } } })).unwrap_err();
    assert_eq!(e.reason, StrictReason::RefSibling);
    assert_eq!(e.pointer, "/properties/a/description");
    let taken = judge(
        Mode::GeminiJson,
        Role::Tool,
        &json!({ "type": "object", "not": {}, "properties": {} }),
    )
    .unwrap();
    assert_eq!(taken.ignored[0].keyword, "not");
}

#[test]
fn names_follow_each_providers_pattern() {
    use Provider::*;
    assert!(check_name(OpenAi, "get_weather-v2").is_ok());
    assert!(check_name(OpenAi, "files.read")
        .unwrap_err()
        .contains("'^[a-zA-Z0-9_-]+$'"));
    assert!(check_name(OpenAi, &"a".repeat(65))
        .unwrap_err()
        .contains("maximum length 64"));
    assert!(check_name(Anthropic, &"a".repeat(128)).is_ok());
    assert!(check_name(Anthropic, "a b").is_err());
    assert!(check_name(Gemini, "files.read").is_ok());
    assert!(check_name(Gemini, "1password")
        .unwrap_err()
        .contains("Must start with a letter or an underscore"));
    assert!(check_name(Gemini, "_x").is_ok());
}

#[test]
fn unused_definitions_are_dropped_and_used_ones_kept() {
    let schema = json!({ "type": "object", "properties": { "a": { "$ref": "#/$defs/used" } }, "$defs": { "used": { "$ref": "#/$defs/deep" }, "deep": { "type": "string" }, "lone": { "type": "number" } } });
    let (pruned, changes) = without_unused_defs(&schema);
    let defs: Vec<&String> = pruned["$defs"].as_object().unwrap().keys().collect();
    assert_eq!(defs, ["used", "deep"]);
    assert_eq!(changes.len(), 1);
    assert_eq!(changes[0].pointer, "/$defs/lone");
}

#[test]
fn request_limits_belong_to_the_strict_modes() {
    let tools: Vec<(String, Json)> = (0..21)
        .map(|i| {
            (
                format!("t{i}"),
                json!({ "type": "object", "properties": {}, "additionalProperties": false }),
            )
        })
        .collect();
    assert_eq!(limits(Mode::AnthropicStrict, &tools, None).len(), 1);
    assert!(limits(Mode::AnthropicStandard, &tools, None).is_empty());
}

#[test]
fn a_root_standard_tools_refuse_is_wrapped_when_asked() {
    let list = json!({ "type": "array", "items": { "type": "string" } });
    assert_eq!(
        convert(Mode::AnthropicStandard, Role::Output, &list, None)
            .unwrap_err()
            .reason,
        StrictReason::RootNotObject
    );
    let wrapped = convert(Mode::AnthropicStandard, Role::Output, &list, Some("value")).unwrap();
    assert_eq!(wrapped.schema["properties"]["value"]["type"], "array");
    assert!(wrapped.unwrap.is_some());
    assert!(judge(Mode::AnthropicStandard, Role::Output, &wrapped.schema).is_ok());
}
