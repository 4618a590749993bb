//! One test per rule of `providers.md`, and a checker that walks every converted schema
//! against the provider's documented keyword list.

use serde_json::{json, Value as Json};

use super::*;

fn anthropic(schema: Json) -> Converted {
    let out = convert(&schema, Provider::Anthropic).unwrap_or_else(|e| panic!("{schema}: {e}"));
    assert_accepted(&out.schema, Provider::Anthropic, "");
    out
}

fn gemini(schema: Json) -> Converted {
    let out = convert(&schema, Provider::Gemini).unwrap_or_else(|e| panic!("{schema}: {e}"));
    assert_accepted(&out.schema, Provider::Gemini, "");
    out
}

fn refused(schema: Json, provider: Provider) -> StrictError {
    convert(&schema, provider).expect_err(&format!("{} refuses {schema}", provider.name()))
}

/// Each schema is refused with its reason, at its pointer, by a message naming the provider.
fn assert_refusals(
    provider: Provider,
    cases: impl IntoIterator<Item = (Json, StrictReason, &'static str)>,
) {
    for (schema, reason, pointer) in cases {
        let e = refused(schema.clone(), provider);
        assert_eq!(
            (e.reason, e.pointer.as_str()),
            (reason, pointer),
            "{schema}: {}",
            e.message
        );
        let start = format!("{} cannot take this schema: ", provider.name());
        assert!(e.message.starts_with(&start), "{}", e.message);
    }
}

/// Every keyword of the output is one the provider documents, every node a valid one.
fn assert_accepted(schema: &Json, provider: Provider, at: &str) {
    let Json::Object(obj) = schema else {
        panic!("{at}: not an object schema: {schema}")
    };
    let anthropic_keys = [
        "type",
        "properties",
        "required",
        "additionalProperties",
        "items",
        "enum",
        "const",
        "anyOf",
        "allOf",
        "description",
        "title",
        "default",
        "format",
        "pattern",
        "minItems",
    ];
    for (k, v) in obj {
        match provider {
            Provider::Gemini => assert!(
                GEMINI_FIELDS.contains(&k.as_str()),
                "{at}: Gemini refuses `{k}`"
            ),
            Provider::Anthropic => assert!(
                anthropic_keys.contains(&k.as_str()),
                "{at}: Anthropic refuses `{k}`"
            ),
            Provider::OpenAi => {}
        }
        if k == "minItems" && provider == Provider::Anthropic {
            assert!(v.as_f64().unwrap() <= 1.0, "{at}: Anthropic minItems {v}");
        }
        if k == "additionalProperties" {
            assert_eq!(v, &Json::Bool(false), "{at}");
        }
        if k == "format" && provider == Provider::Anthropic {
            assert!(
                ANTHROPIC_FORMATS.contains(&v.as_str().unwrap()),
                "{at}: format {v}"
            );
        }
        if k == "enum" && provider == Provider::Gemini {
            assert!(
                v.as_array().unwrap().iter().all(Json::is_string),
                "{at}: Gemini enum {v}"
            );
        }
        if k == "type" && provider == Provider::Gemini {
            assert!(v.is_string() && v != "null", "{at}: Gemini type {v}");
        }
    }
    if provider == Provider::Gemini {
        assert!(
            obj.contains_key("type") || obj.contains_key("anyOf"),
            "{at}: Gemini needs a type: {schema}"
        );
    }
    if provider == Provider::Anthropic
        && (obj.get("type") == Some(&json!("object")) || obj.contains_key("properties"))
    {
        assert_eq!(
            obj.get("additionalProperties"),
            Some(&json!(false)),
            "{at}: Anthropic objects are closed"
        );
    }
    if let Some(Json::Object(props)) = obj.get("properties") {
        for (name, p) in props {
            assert_accepted(p, provider, &format!("{at}/properties/{name}"));
        }
    }
    if let Some(items) = obj.get("items") {
        assert_accepted(items, provider, &format!("{at}/items"));
    }
    for key in ["anyOf", "allOf"] {
        if let Some(Json::Array(bs)) = obj.get(key) {
            for (i, b) in bs.iter().enumerate() {
                assert_accepted(b, provider, &format!("{at}/{key}/{i}"));
            }
        }
    }
}

fn tool(properties: Json, required: &[&str]) -> Json {
    json!({"type": "object", "properties": properties, "required": required, "additionalProperties": false})
}

#[test]
fn anthropic_moves_bounds_and_lengths_into_the_description() {
    // `z.int().positive()`, a bounded number, a bounded string, a list of at least 3.
    let out = anthropic(tool(
        json!({
            "count": {"type": "integer", "exclusiveMinimum": 0},
            "score": {"type": "number", "minimum": 1, "maximum": 10, "description": "How good"},
            "name": {"type": "string", "minLength": 2, "maxLength": 40},
            "tags": {"type": "array", "items": {"type": "string"}, "minItems": 3, "maxItems": 5},
            "one": {"type": "array", "items": {"type": "string"}, "minItems": 1},
            "step": {"type": "number", "multipleOf": 0.5}
        }),
        &["count", "score", "name", "tags", "one", "step"],
    ));
    let p = &out.schema["properties"];
    assert_eq!(
        p["count"],
        json!({"type": "integer", "description": "Must be at least 1."})
    );
    assert_eq!(
        p["score"],
        json!({"type": "number", "description": "How good. Must be at least 1, at most 10."})
    );
    assert_eq!(
        p["name"]["description"],
        json!("Must be at least 2 characters, at most 40 characters.")
    );
    assert_eq!(
        p["tags"]["description"],
        json!("Must be at least 3 items, at most 5 items.")
    );
    assert_eq!(p["one"]["minItems"], json!(1), "minItems 0 or 1 is kept");
    assert_eq!(
        p["step"]["description"],
        json!("Must be a multiple of 0.5.")
    );
    assert!(out.changes.iter().any(|c| c.pointer == "/properties/count"
        && c.keyword == "exclusiveMinimum"
        && c.kind == ChangeKind::Described));
}

#[test]
fn anthropic_closes_objects_rewrites_one_of_and_inlines_references() {
    let schema = json!({
        "type": "object",
        "$defs": {"Address": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}},
        "properties": {
            "home": {"$ref": "#/$defs/Address"},
            "pet": {"oneOf": [
                {"type": "object", "properties": {"kind": {"const": "cat"}}, "required": ["kind"]},
                {"type": "object", "properties": {"kind": {"const": "dog"}}, "required": ["kind"]}
            ]}
        },
        "required": ["home"]
    });
    let out = anthropic(schema);
    assert_eq!(out.schema["additionalProperties"], json!(false));
    assert_eq!(
        out.schema["properties"]["home"],
        json!({"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"], "additionalProperties": false})
    );
    assert!(out.schema["properties"]["pet"].get("oneOf").is_none());
    assert_eq!(
        out.schema["properties"]["pet"]["anyOf"][1]["properties"]["kind"],
        json!({"const": "dog"})
    );
    assert!(out.schema.get("$defs").is_none());
    assert_eq!(
        out.schema["required"],
        json!(["home"]),
        "optional properties stay optional"
    );
}

#[test]
fn anthropic_keeps_its_formats_and_patterns_and_describes_the_others() {
    let out = anthropic(tool(
        json!({
            "id": {"type": "string", "format": "uuid"},
            "site": {"type": "string", "format": "uri"},
            "re": {"type": "string", "format": "regex"},
            "code": {"type": "string", "pattern": "^[A-Z]{3}-\\d+$"},
            "word": {"type": "string", "pattern": "^(?!admin)\\w+\\b$"}
        }),
        &["id"],
    ));
    let p = &out.schema["properties"];
    assert_eq!(p["id"]["format"], json!("uuid"));
    assert_eq!(p["site"]["format"], json!("uri"));
    assert_eq!(p["re"]["description"], json!("Must be in regex format."));
    assert_eq!(p["code"]["pattern"], json!("^[A-Z]{3}-\\d+$"));
    assert!(p["word"].get("pattern").is_none());
    assert!(p["word"]["description"]
        .as_str()
        .unwrap()
        .contains("matching the regular expression"));
}

#[test]
fn anthropic_refuses_what_it_cannot_express_with_a_pointer() {
    let cases = [
        (
            json!({"type": "object", "properties": {"tree": {"$ref": "#"}}}),
            StrictReason::Recursive,
            "/properties/tree",
        ),
        (
            json!({"type": "object", "$defs": {"N": {"type": "object", "properties": {"next": {"$ref": "#/$defs/N"}}}}, "properties": {"n": {"$ref": "#/$defs/N"}}}),
            StrictReason::Recursive,
            "/$defs/N/properties/next",
        ),
        (
            json!({"type": "object", "additionalProperties": {"type": "string"}}),
            StrictReason::OpenObject,
            "/additionalProperties",
        ),
        (
            json!({"type": "object", "patternProperties": {"^x": {"type": "string"}}}),
            StrictReason::UnsupportedKeyword,
            "/patternProperties",
        ),
        (
            json!({"type": "object", "properties": {"a": {"not": {"type": "string"}}}}),
            StrictReason::UnsupportedKeyword,
            "/properties/a/not",
        ),
        (
            json!({"type": "object", "if": {"required": ["a"]}, "then": {"required": ["b"]}}),
            StrictReason::UnsupportedKeyword,
            "/if",
        ),
        (
            json!({"type": "object", "properties": {"p": {"enum": [{"x": 1}, "y"]}}}),
            StrictReason::UnsupportedValue,
            "/properties/p/enum",
        ),
        (
            json!({"anyOf": [{"type": "string"}, {"type": "object"}]}),
            StrictReason::RootNotObject,
            "",
        ),
    ];
    assert_refusals(Provider::Anthropic, cases);
}

#[test]
fn gemini_rewrites_exactly_where_it_can() {
    let out = gemini(tool(
        json!({
            "count": {"type": "integer", "exclusiveMinimum": 0},
            "below": {"type": "integer", "exclusiveMaximum": 10, "maximum": 20},
            "note": {"type": ["string", "null"]},
            "kind": {"const": "ticket"},
            "level": {"const": 3},
            "maybe": {"anyOf": [{"type": "integer", "minimum": 1}, {"type": "null"}]},
            "either": {"type": ["string", "integer"]},
            "color": {"enum": ["red", "green", null]}
        }),
        &["count"],
    ));
    let p = &out.schema["properties"];
    assert_eq!(p["count"], json!({"type": "integer", "minimum": 1}));
    assert_eq!(p["below"], json!({"type": "integer", "maximum": 9}));
    assert_eq!(p["note"], json!({"type": "string", "nullable": true}));
    assert_eq!(p["kind"], json!({"enum": ["ticket"], "type": "string"}));
    assert_eq!(
        p["level"],
        json!({"minimum": 3, "maximum": 3, "type": "integer"})
    );
    assert_eq!(
        p["maybe"],
        json!({"nullable": true, "type": "integer", "minimum": 1})
    );
    assert_eq!(
        p["either"],
        json!({"anyOf": [{"type": "string"}, {"type": "integer"}]})
    );
    assert_eq!(
        p["color"],
        json!({"enum": ["red", "green"], "nullable": true, "type": "string"})
    );
    assert!(out.schema.get("additionalProperties").is_none());
    assert!(out
        .changes
        .iter()
        .any(|c| c.keyword == "additionalProperties" && c.kind == ChangeKind::Dropped));
}

#[test]
fn gemini_describes_what_its_schema_cannot_hold() {
    let out = gemini(tool(
        json!({
            "ratio": {"type": "number", "exclusiveMinimum": 0, "multipleOf": 0.25},
            "email": {"type": "string", "format": "email"},
            "when": {"type": "string", "format": "date-time"},
            "size": {"type": "integer", "enum": [1, 2, 4]},
            "yes": {"const": true},
            "ids": {"type": "array", "items": {"type": "string"}, "uniqueItems": true, "examples": [["a"]]}
        }),
        &[],
    ));
    let p = &out.schema["properties"];
    assert_eq!(
        p["ratio"]["description"],
        json!("Must be greater than 0, a multiple of 0.25.")
    );
    assert_eq!(
        p["email"],
        json!({"type": "string", "description": "Must be in email format."})
    );
    assert_eq!(p["when"]["format"], json!("date-time"));
    assert_eq!(
        p["size"],
        json!({"type": "integer", "enum": ["1", "2", "4"], "format": "enum"})
    );
    assert_eq!(
        p["yes"],
        json!({"type": "boolean", "description": "Must be exactly true."})
    );
    assert_eq!(p["ids"]["example"], json!(["a"]));
    assert_eq!(p["ids"]["description"], json!("Must be items unique."));
}

#[test]
fn gemini_merges_all_of_infers_types_and_refuses_the_rest() {
    let out = gemini(json!({
        "allOf": [
            {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]},
            {"properties": {"b": {"type": "integer"}}, "required": ["b"]}
        ]
    }));
    assert_eq!(out.schema["properties"]["b"], json!({"type": "integer"}));
    assert_eq!(out.schema["required"], json!(["a", "b"]));
    assert_eq!(
        gemini(json!({"properties": {"x": {"type": "string"}}})).schema["type"],
        json!("object")
    );
    let cases = [
        (
            json!({"type": "object", "properties": {"any": {}}}),
            StrictReason::TypelessOpenObject,
            "/properties/any",
        ),
        (
            json!({"type": "object", "properties": {"tree": {"$ref": "#"}}}),
            StrictReason::Recursive,
            "/properties/tree",
        ),
        (
            json!({"type": "array", "prefixItems": [{"type": "string"}]}),
            StrictReason::UnsupportedKeyword,
            "/prefixItems",
        ),
        (
            json!({"allOf": [{"properties": {"a": {"type": "string"}}}, {"properties": {"a": {"type": "integer"}}}]}),
            StrictReason::UnsupportedKeyword,
            "/allOf/1",
        ),
        (
            json!({"type": "object", "properties": {"n": {"type": "null"}}}),
            StrictReason::UnsupportedKeyword,
            "/properties/n",
        ),
        (
            json!({"type": "object", "properties": {"x": {"type": "string", "x-custom": 1}}}),
            StrictReason::UnsupportedKeyword,
            "/properties/x/x-custom",
        ),
    ];
    assert_refusals(Provider::Gemini, cases);
}

#[test]
fn realistic_schemas_convert_for_every_provider() {
    // Zod 4 output of a tool with a discriminated union, a record refused, a nullable optional.
    let zod = json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "properties": {
            "query": {"type": "string", "minLength": 1},
            "limit": {"type": "integer", "exclusiveMinimum": 0, "maximum": 100},
            "since": {"type": "string", "format": "date-time"},
            "owner": {"anyOf": [{"type": "string"}, {"type": "null"}]},
            "filter": {"oneOf": [
                {"type": "object", "properties": {"kind": {"type": "string", "const": "label"}, "name": {"type": "string"}}, "required": ["kind", "name"], "additionalProperties": false},
                {"type": "object", "properties": {"kind": {"type": "string", "const": "state"}, "open": {"type": "boolean"}}, "required": ["kind", "open"], "additionalProperties": false}
            ]}
        },
        "required": ["query", "limit"],
        "additionalProperties": false
    });
    // Valibot (draft 7, definitions) and a hand-written MCP tool.
    let valibot = json!({
        "$schema": "http://json-schema.org/draft-07/schema#",
        "definitions": {"Id": {"type": "string", "format": "uuid"}},
        "type": "object",
        "properties": {"id": {"$ref": "#/definitions/Id"}, "tags": {"type": "array", "items": {"type": "string"}, "maxItems": 10}},
        "required": ["id"]
    });
    let mcp = json!({
        "type": "object",
        "properties": {"path": {"type": "string", "description": "Absolute path"}, "recursive": {"type": "boolean", "default": false}},
        "required": ["path"]
    });
    for schema in [zod, valibot, mcp] {
        anthropic(schema.clone());
        gemini(schema);
    }
}

#[test]
fn a_schema_as_sent_must_be_its_own_provider_form() {
    let raw = tool(json!({"n": {"type": "integer", "minimum": 1}}), &["n"]);
    let e = check_as_sent(&raw, Provider::Anthropic, "count").unwrap_err();
    assert_eq!(
        (e.reason, e.pointer.as_str(), e.keyword.as_deref()),
        (StrictReason::NotStrict, "/properties/n", Some("minimum"))
    );
    assert!(
        e.message
            .starts_with("Tool `count`: its parameters are not in Anthropic's form"),
        "{}",
        e.message
    );
    let converted = anthropic(raw.clone()).schema;
    check_as_sent(&converted, Provider::Anthropic, "count").unwrap();
    let for_gemini = gemini(raw).schema;
    check_as_sent(&for_gemini, Provider::Gemini, "count").unwrap();
    let e = check_as_sent(
        &json!({"type": "object", "properties": {"r": {"$ref": "#"}}}),
        Provider::Gemini,
        "t",
    )
    .unwrap_err();
    assert_eq!(e.reason, StrictReason::Recursive);
}

#[test]
fn request_limits_are_counted_over_the_whole_request() {
    let small = tool(json!({"a": {"type": "string"}}), &["a"]);
    let tools: Vec<(String, Json)> = (0..21).map(|i| (format!("t{i}"), small.clone())).collect();
    let b = check_request(Provider::Anthropic, &tools, None);
    assert_eq!(
        b.iter()
            .map(|b| (b.limit, b.pointer.as_str(), b.count, b.max))
            .collect::<Vec<_>>(),
        vec![(RequestLimit::StrictTools, "/tools/20", 21, 20)]
    );
    // 13 optional parameters in each of two tools, 9 unions in each: over 24 and 16.
    let props: serde_json::Map<String, Json> = (0..13)
        .map(|i| {
            (
                format!("p{i}"),
                if i < 9 {
                    json!({"type": ["string", "null"]})
                } else {
                    json!({"type": "string"})
                },
            )
        })
        .collect();
    let wide = json!({"type": "object", "properties": props, "additionalProperties": false});
    let b = check_request(
        Provider::Anthropic,
        &[("a".into(), wide.clone())],
        Some(&wide),
    );
    let got: Vec<(RequestLimit, &str)> = b.iter().map(|b| (b.limit, b.pointer.as_str())).collect();
    assert_eq!(
        got,
        vec![
            (RequestLimit::OptionalParameters, "/output/properties/p11"),
            (RequestLimit::UnionParameters, "/output/properties/p7")
        ]
    );
    assert!(
        b[0].message
            .starts_with("Anthropic allows at most 24 optional parameters"),
        "{}",
        b[0].message
    );
    // OpenAI: nesting and enum values.
    let mut deep = json!({"type": "string"});
    for _ in 0..11 {
        deep = json!({"type": "object", "properties": {"x": deep}, "required": ["x"], "additionalProperties": false});
    }
    let many: Vec<Json> = (0..1001).map(|i| json!(format!("v{i}"))).collect();
    let enumed = tool(json!({"e": {"enum": many}}), &["e"]);
    let b = check_request(
        Provider::OpenAi,
        &[("deep".into(), deep), ("e".into(), enumed)],
        None,
    );
    let got: Vec<RequestLimit> = b.iter().map(|b| b.limit).collect();
    assert_eq!(got, vec![RequestLimit::Nesting, RequestLimit::EnumValues]);
    assert!(check_request(Provider::OpenAi, &[("s".into(), small)], None).is_empty());
}

/// Gemini's types are the OpenAPI 3.0 subset (`providers.md`: "the OpenAPI 3.0 subset"; the
/// Gemini API's `Type` lists STRING, NUMBER, INTEGER, BOOLEAN, ARRAY, OBJECT): null is only
/// `nullable` beside another type. So a node that only accepts null is refused for the reason
/// it is, however it is written (`type`, `const`, an `enum` of null, an `anyOf` of null).
#[test]
fn gemini_refuses_a_null_only_node_for_that_reason_however_written() {
    for (schema, keyword) in [
        (json!({ "type": "null" }), "type"),
        (json!({ "const": null }), "const"),
        (json!({ "enum": [null] }), "enum"),
        (json!({ "anyOf": [{ "type": "null" }] }), "anyOf"),
    ] {
        let e = refused(schema.clone(), Provider::Gemini);
        assert_eq!(e.reason, StrictReason::UnsupportedKeyword, "{schema}");
        assert_eq!(e.keyword.as_deref(), Some(keyword), "{schema}");
        assert!(
            e.message.contains("only accepts null"),
            "{schema}: {}",
            e.message
        );
    }
    // Beside another type, null is `nullable`.
    assert_eq!(
        gemini(json!({ "enum": ["a", null] })).schema,
        json!({ "type": "string", "enum": ["a"], "nullable": true })
    );
}

/// An explicit `additionalProperties: true` is closed, as the providers' own SDKs do
/// (`providers.md`: Anthropic requires `additionalProperties: false` on every object; Gemini
/// has none): every answer to the closed object is an answer to the open one, and the change is
/// listed as `narrowed`. An open map with a value schema is still refused.
#[test]
fn an_explicit_open_object_is_closed_and_listed() {
    let open = json!({"type": "object", "properties": {"m": {"type": "object", "properties": {"a": {"type": "string"}}, "additionalProperties": true}}, "required": ["m"]});
    let out = anthropic(open.clone());
    assert_eq!(
        out.schema["properties"]["m"]["additionalProperties"],
        json!(false)
    );
    let change = out
        .changes
        .iter()
        .find(|c| c.pointer == "/properties/m")
        .expect("listed");
    assert_eq!(
        (change.keyword.as_str(), change.kind),
        ("additionalProperties", ChangeKind::Narrowed)
    );
    let out = gemini(open);
    assert!(out.schema["properties"]["m"]
        .get("additionalProperties")
        .is_none());
    assert!(out.changes.iter().any(|c| c.kind == ChangeKind::Narrowed));
    let e = refused(
        json!({"type": "object", "additionalProperties": {"type": "string"}}),
        Provider::Anthropic,
    );
    assert_eq!(
        (e.reason, e.pointer.as_str()),
        (StrictReason::OpenObject, "/additionalProperties")
    );
}

/// Gemini has no `additionalProperties` (providers.md: any other field is a 400), so one rule
/// holds for every open object: an explicit map is sent as an undeclared open object is,
/// `{ type: 'object' }`, its value schema listed as `dropped` and checked locally.
#[test]
fn gemini_sends_a_map_as_it_sends_an_open_object() {
    let map = gemini(json!({"type": "object", "additionalProperties": {"type": "string"}}));
    let open = gemini(json!({"type": "object"}));
    assert_eq!(map.schema, open.schema);
    assert!(map.changes.iter().any(|c| c.kind == ChangeKind::Dropped
        && c.keyword == "additionalProperties"
        && c.pointer.is_empty()));
}

/// A change or a refusal inside a merged `allOf` names the node where you wrote it.
#[test]
fn merged_all_of_members_are_named_where_they_were_written() {
    let open_branch = json!({"type": "object", "allOf": [{"properties": {"a": {"type": "string"}}}, {"additionalProperties": {"type": "string"}}]});
    let e = refused(open_branch.clone(), Provider::Anthropic);
    assert_eq!(
        (e.reason, e.pointer.as_str()),
        (StrictReason::OpenObject, "/allOf/1/additionalProperties")
    );
    // Gemini drops the map, and says so where it was written.
    let out = gemini(open_branch);
    assert!(out
        .changes
        .iter()
        .any(|c| c.kind == ChangeKind::Dropped && c.pointer == "/allOf/1"));
    let nested = json!({"type": "object", "allOf": [{"properties": {"name": {"type": "string"}}}, {"properties": {"age": {"type": "integer", "minimum": 0, "maximum": 150}}}]});
    let out = anthropic(nested);
    let described: Vec<&str> = out
        .changes
        .iter()
        .filter(|c| c.kind == ChangeKind::Described)
        .map(|c| c.pointer.as_str())
        .collect();
    assert_eq!(
        described,
        ["/allOf/1/properties/age", "/allOf/1/properties/age"]
    );
    let deep = json!({"type": "object", "allOf": [{"properties": {"m": {"type": "object", "patternProperties": {"^x": {}}}}}]});
    let e = refused(deep, Provider::Anthropic);
    assert_eq!(e.pointer, "/allOf/0/properties/m/patternProperties");
}

/// Merging closed `allOf` branches widens each of them: listed as `dropped` (the local check of
/// the answer keeps it), never as the same meaning alone.
#[test]
fn merging_closed_branches_is_listed_as_what_it_drops() {
    let closed = json!({"type": "object", "allOf": [
        {"type": "object", "properties": {"a": {"type": "string"}}, "additionalProperties": false},
        {"type": "object", "properties": {"b": {"type": "string"}}, "additionalProperties": false}
    ]});
    let out = anthropic(closed);
    let dropped: Vec<(&str, &str)> = out
        .changes
        .iter()
        .filter(|c| c.kind == ChangeKind::Dropped && c.keyword == "additionalProperties")
        .map(|c| (c.pointer.as_str(), c.detail.as_str()))
        .collect();
    assert_eq!(dropped.len(), 2, "{:?}", out.changes);
    assert_eq!(dropped[0].0, "/allOf/0");
    assert!(dropped[0].1.contains("`b`"), "{}", dropped[0].1);
    assert_eq!(dropped[1].0, "/allOf/1");
    // Branches that are open, or closed on every merged name, lose nothing.
    let fine = json!({"type": "object", "allOf": [{"properties": {"a": {"type": "string"}}}, {"properties": {"b": {"type": "string"}}}]});
    assert!(!anthropic(fine)
        .changes
        .iter()
        .any(|c| c.kind == ChangeKind::Dropped));
}

/// providers.md: Anthropic refuses a root that is not an object; with `wrapRoot` the root goes
/// under one property of a closed object, listed as `wrapped`, and the check schema refers to
/// the user's schema by the resource URI. An object root, and any Gemini root, stay as they are.
#[test]
fn a_refused_root_is_wrapped_on_request() {
    for root in [
        json!({"type": "string", "enum": ["rainy", "sunny"]}),
        json!({"type": "array", "items": {"type": "string"}, "minItems": 1}),
        json!({"anyOf": [{"type": "string"}, {"type": "number"}]}),
    ] {
        let out = convert_wrapping(&root, Provider::Anthropic, Some("value"))
            .unwrap_or_else(|e| panic!("{root}: {e}"));
        assert_accepted(&out.schema, Provider::Anthropic, "");
        assert_eq!(out.schema["type"], "object");
        assert_eq!(out.schema["required"], json!(["value"]));
        assert_eq!(out.schema["additionalProperties"], false);
        let unwrapped = convert_wrapping(
            &json!({"type": "object", "properties": {"value": root.clone()}, "required": ["value"]}),
            Provider::Anthropic,
            None,
        )
        .unwrap();
        assert_eq!(out.schema, unwrapped.schema, "{root}");
        let wrapped = out.changes.last().unwrap();
        assert_eq!(
            (wrapped.kind, wrapped.pointer.as_str()),
            (ChangeKind::Wrapped, "")
        );
        let unwrap = out.unwrap.expect("how to read the answer");
        assert_eq!(unwrap.property, "value");
        assert_eq!(
            unwrap.schema["properties"]["value"],
            json!({"$ref": unwrap.resource})
        );
    }
    let object = json!({"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"], "additionalProperties": false});
    let out = convert_wrapping(&object, Provider::Anthropic, Some("value")).unwrap();
    assert_eq!((out.schema, out.unwrap), (object, None));
    let scalar = json!({"type": "string"});
    let out = convert_wrapping(&scalar, Provider::Gemini, Some("value")).unwrap();
    assert_eq!((out.schema, out.unwrap), (scalar.clone(), None));
    let e = convert_wrapping(&scalar, Provider::Anthropic, None).unwrap_err();
    assert_eq!(e.reason, StrictReason::RootNotObject);
    assert!(e.message.contains("wrapRoot"), "{}", e.message);
}

/// Gemini's Schema documents numeric enums as texts with `format: "enum"` ({type: INTEGER,
/// format: enum, enum: ["101", "201", "301"]}); the answer's texts are read back as numbers at
/// the value paths where the converted schema holds them, and nowhere else.
#[test]
fn gemini_numeric_enums_take_the_documented_form_and_answers_read_back() {
    let out = gemini(tool(
        json!({
            "size": {"type": "integer", "enum": [1, 2, 4]},
            "ratios": {"type": "array", "items": {"enum": [0.5, 1.5, null]}},
            "either": {"anyOf": [{"type": "string"}, {"enum": [10, 20]}]},
            "flag": {"enum": [true, false]},
            "name": {"type": "string", "enum": ["1", "2"]},
        }),
        &[],
    ));
    let p = &out.schema["properties"];
    assert_eq!(p["ratios"]["items"]["enum"], json!(["0.5", "1.5"]));
    assert_eq!(p["ratios"]["items"]["nullable"], true);
    assert_eq!(p["ratios"]["items"]["type"], "number");
    assert_eq!(p["flag"], json!({"type": "boolean"}));
    assert_eq!(p["name"], json!({"type": "string", "enum": ["1", "2"]}));
    let paths: Vec<Json> = out.restore.iter().map(|r| json!(r.path)).collect();
    assert_eq!(
        paths,
        vec![json!(["size"]), json!(["ratios", null]), json!(["either"])]
    );
    let mut answer = json!({"size": "4", "ratios": ["0.5", null, 1.5, "2"], "either": "20", "flag": true, "name": "1"});
    restore_numbers(&mut answer, &out.restore);
    assert_eq!(
        answer,
        json!({"size": 4, "ratios": [0.5, null, 1.5, "2"], "either": 20, "flag": true, "name": "1"})
    );
    // A string branch of the same union keeps a string that is not one of the texts.
    let mut text = json!({"either": "twenty"});
    restore_numbers(&mut text, &out.restore);
    assert_eq!(text, json!({"either": "twenty"}));
    assert!(anthropic(tool(json!({"size": {"enum": [1, 2]}}), &[]))
        .restore
        .is_empty());
}
