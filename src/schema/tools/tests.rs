use serde_json::json;

use super::*;
use crate::schema::provider::RequestLimit;

const ALL: [Target; 3] = [
    Target::Provider(Provider::OpenAi),
    Target::Provider(Provider::Anthropic),
    Target::Provider(Provider::Gemini),
];

fn mode(m: Mode) -> Target {
    Target::Mode(m)
}

fn one_in(schema: Json, targets: &[Target]) -> Report {
    check_tools(
        &json!({ "tools": [{ "name": "t", "input": schema }] }),
        targets,
    )
}

fn one(schema: Json) -> Report {
    one_in(schema, &ALL)
}

fn row(report: &Report, target: &str) -> ToolResult {
    report
        .results
        .iter()
        .find(|r| r.target == target)
        .cloned()
        .unwrap()
}

fn kinds(r: &ToolResult) -> Vec<String> {
    r.changes
        .iter()
        .flatten()
        .map(|c| format!("{} {} {}", c.pointer, c.keyword, c.kind.as_str()))
        .collect()
}

fn closed(props: Json, required: &[&str]) -> Json {
    json!({ "type": "object", "properties": props, "required": required, "additionalProperties": false })
}

fn status(r: &ToolResult) -> (ToolStatus, Option<&str>) {
    (r.status, r.reason.as_deref())
}

#[test]
fn a_strict_schema_goes_as_it_is_and_gemini_loses_nothing_by_its_closed_objects() {
    let r = one(closed(json!({ "a": { "type": "string" } }), &["a"]));
    assert_eq!(row(&r, "openai").status, ToolStatus::Accepted);
    assert_eq!(row(&r, "openai").mode, Mode::OpenAiStrict);
    assert_eq!(row(&r, "anthropic").status, ToolStatus::Accepted);
    assert_eq!(row(&r, "anthropic").mode, Mode::AnthropicStandard);
    let gemini = row(&r, "gemini");
    assert_eq!(gemini.status, ToolStatus::Converted);
    assert_eq!(kinds(&gemini), [" additionalProperties dropped"]);
    assert_eq!(gemini.loss, Some(ToolLoss::None));
    assert_eq!(verdict(&r, ToolPolicy::AnyLoss, false), None);
}

#[test]
fn a_format_openai_strict_cannot_run_is_refused_there_with_the_standard_mode_as_a_fix() {
    let mut schema = closed(
        json!({ "path": { "type": "string", "format": "uri" } }),
        &["path"],
    );
    schema["$schema"] = json!("http://json-schema.org/draft-07/schema#");
    let r = one(schema);
    let openai = row(&r, "openai");
    assert_eq!(
        status(&openai),
        (ToolStatus::Refused, Some("unsupported_value"))
    );
    assert_eq!(openai.pointer.as_deref(), Some("/properties/path"));
    assert_eq!(openai.keyword.as_deref(), Some("format"));
    let message = openai.message.as_deref().unwrap();
    assert!(message.contains("'uri' is not a valid format"), "{message}");
    assert!(
        message.starts_with("OpenAI refuses the input schema of tool `t` at `/properties/path`"),
        "{message}"
    );
    let fix = openai.fix.as_deref().unwrap();
    assert!(fix.starts_with("Drop `format`"), "{fix}");
    assert!(fix.contains("`strict: false`"), "{fix}");
    // Anthropic's standard tools take it as it is; Gemini describes the format and drops
    // `$schema` without loss.
    assert_eq!(row(&r, "anthropic").status, ToolStatus::Accepted);
    let gemini = row(&r, "gemini");
    assert_eq!(
        (gemini.status, gemini.loss),
        (ToolStatus::Converted, Some(ToolLoss::Validation))
    );
    assert!(kinds(&gemini).contains(&"/properties/path format described".to_string()));
    assert!(kinds(&gemini).contains(&" $schema dropped".to_string()));
    assert!(gemini.lost.iter().flatten().all(|c| c.keyword != "$schema"));
    // A converted row carries what the provider says to the schema as it is.
    let as_sent = gemini.as_sent.unwrap();
    assert!(
        as_sent
            .message
            .starts_with("Gemini (OpenAPI schema) refuses it"),
        "{}",
        as_sent.message
    );
}

#[test]
fn a_tool_declared_not_strict_is_checked_in_openais_standard_mode() {
    let open_map = closed(
        json!({ "m": { "type": "object", "additionalProperties": { "type": "string" } } }),
        &["m"],
    );
    let r = check_tools(
        &json!({ "tools": [{ "name": "mcp_tool", "strict": false, "input": open_map }] }),
        &ALL,
    );
    let openai = row(&r, "openai");
    assert_eq!(
        (openai.status, openai.mode),
        (ToolStatus::Accepted, Mode::OpenAiStandard)
    );
    // Named with its mode, the column checks that mode whatever the tool declares.
    let r = check_tools(
        &json!({ "tools": [{ "name": "mcp_tool", "strict": false, "input": open_map }] }),
        &[mode(Mode::OpenAiStrict)],
    );
    assert_eq!(
        status(&row(&r, "openai:strict")),
        (ToolStatus::Refused, Some("open_object"))
    );
}

#[test]
fn an_open_map_is_refused_by_the_strict_modes_and_taken_by_the_standard_ones() {
    let r = one_in(
        closed(
            json!({ "m": { "type": "object", "additionalProperties": { "type": "string" } } }),
            &["m"],
        ),
        &[
            mode(Mode::OpenAiStrict),
            mode(Mode::OpenAiStandard),
            mode(Mode::AnthropicStandard),
            mode(Mode::AnthropicStrict),
            mode(Mode::GeminiOpenApi),
        ],
    );
    for m in ["openai:strict", "anthropic:strict"] {
        let refused = row(&r, m);
        assert_eq!(
            status(&refused),
            (ToolStatus::Refused, Some("open_object")),
            "{m}"
        );
        assert_eq!(
            refused.pointer.as_deref(),
            Some("/properties/m/additionalProperties")
        );
    }
    for m in ["openai:standard", "anthropic:standard"] {
        assert_eq!(row(&r, m).status, ToolStatus::Accepted, "{m}");
    }
    assert_eq!(row(&r, "gemini:openapi").loss, Some(ToolLoss::Validation));
}

#[test]
fn property_names_are_refused_by_openai_even_in_standard_mode() {
    let r = one_in(
        closed(
            json!({ "m": { "type": "object", "propertyNames": { "pattern": "^[a-z]+$" }, "additionalProperties": { "type": "string" } } }),
            &["m"],
        ),
        &[mode(Mode::OpenAiStandard), mode(Mode::AnthropicStandard)],
    );
    let openai = row(&r, "openai:standard");
    assert_eq!(openai.status, ToolStatus::Converted);
    let as_sent = openai.as_sent.clone().unwrap();
    assert_eq!(as_sent.pointer, "/properties/m/propertyNames");
    assert!(as_sent.message.contains("'propertyNames' is not permitted"));
    assert!(kinds(&openai).contains(&"/properties/m propertyNames dropped".to_string()));
    assert_eq!(row(&r, "anthropic:standard").status, ToolStatus::Accepted);
}

#[test]
fn a_property_named_like_a_keyword_is_not_read_as_one() {
    let r = one(closed(
        json!({ "format": { "type": "string" }, "additionalProperties": { "type": "boolean" }, "propertyNames": { "type": "string" } }),
        &["format", "additionalProperties", "propertyNames"],
    ));
    assert_eq!(row(&r, "openai").status, ToolStatus::Accepted);
}

#[test]
fn recursion_goes_to_openai_and_anthropic_standard_and_is_refused_by_the_others() {
    let node = json!({ "type": "object", "properties": { "children": { "type": "array", "items": { "$ref": "#/$defs/node" } } }, "required": ["children"], "additionalProperties": false });
    let mut schema = closed(json!({ "n": { "$ref": "#/$defs/node" } }), &["n"]);
    schema["$defs"] = json!({ "node": node });
    let r = one_in(
        schema,
        &[
            mode(Mode::OpenAiStrict),
            mode(Mode::AnthropicStandard),
            mode(Mode::AnthropicStrict),
            mode(Mode::GeminiOpenApi),
        ],
    );
    assert_eq!(row(&r, "openai:strict").status, ToolStatus::Accepted);
    assert_eq!(row(&r, "anthropic:standard").status, ToolStatus::Accepted);
    for m in ["anthropic:strict", "gemini:openapi"] {
        let x = row(&r, m);
        assert_eq!(x.reason.as_deref(), Some("recursive"), "{m}");
        let fix = x.fix.as_deref().unwrap();
        assert!(fix.starts_with("Unroll the recursion"));
        // Only a mode with a standard counterpart that takes the tool offers `strict: false`.
        assert_eq!(
            fix.contains("strict: false"),
            m == "anthropic:strict",
            "{m}: {fix}"
        );
    }
}

#[test]
fn a_local_ref_is_taken_by_anthropic_strict_and_inlining_it_loses_nothing() {
    let mut schema = closed(json!({ "at": { "$ref": "#/$defs/place" } }), &["at"]);
    schema["$defs"] =
        json!({ "place": closed(json!({ "city": { "type": "string" } }), &["city"]) });
    let r = one_in(
        schema,
        &[mode(Mode::AnthropicStrict), mode(Mode::GeminiOpenApi)],
    );
    assert_eq!(row(&r, "anthropic:strict").status, ToolStatus::Accepted);
    let gemini = row(&r, "gemini:openapi");
    assert_eq!(gemini.status, ToolStatus::Converted);
    assert_eq!(gemini.loss, Some(ToolLoss::None), "{:?}", gemini.lost);
}

#[test]
fn an_unused_definition_is_dropped_not_refused() {
    // A tool without parameters whose schema carries a definition nothing uses (and that is not
    // in strict form).
    let mut schema = closed(json!({}), &[]);
    schema["$defs"] =
        json!({ "unused": { "type": "object", "properties": { "a": { "type": "string" } } } });
    let r = one(schema);
    assert_eq!(row(&r, "openai").status, ToolStatus::Accepted);
    assert_eq!(row(&r, "anthropic").status, ToolStatus::Accepted);
    assert_eq!(row(&r, "gemini").loss, Some(ToolLoss::None));
}

#[test]
fn a_root_union_is_refused_by_anthropic_in_both_modes() {
    let schema = json!({ "type": "object", "anyOf": [
        closed(json!({ "a": { "type": "string" } }), &["a"]),
        closed(json!({ "b": { "type": "number" } }), &["b"]),
    ] });
    let r = one_in(
        schema,
        &[mode(Mode::AnthropicStandard), mode(Mode::AnthropicStrict)],
    );
    for m in ["anthropic:standard", "anthropic:strict"] {
        let x = row(&r, m);
        assert_eq!(
            status(&x),
            (ToolStatus::Refused, Some("unsupported_keyword")),
            "{m}"
        );
        assert_eq!(x.pointer.as_deref(), Some("/anyOf"), "{m}");
        assert!(x
            .message
            .as_deref()
            .unwrap()
            .contains("does not support oneOf, allOf, or anyOf at the top level"));
    }
}

#[test]
fn a_root_that_is_not_an_object_is_refused_by_anthropic_and_openai() {
    let r = one(json!({ "type": "array", "items": { "type": "string" } }));
    let anthropic = row(&r, "anthropic");
    assert_eq!(
        status(&anthropic),
        (ToolStatus::Refused, Some("root_not_object"))
    );
    assert!(anthropic
        .message
        .as_deref()
        .unwrap()
        .contains("input_schema.type: Input should be 'object'"));
    assert_eq!(row(&r, "openai").reason.as_deref(), Some("root_not_object"));
}

#[test]
fn tool_names_are_checked_per_provider() {
    let input = closed(json!({}), &[]);
    let r = check_tools(
        &json!({ "tools": [
            { "name": "files.read", "input": input },
            { "name": "1password", "input": input },
            { "name": "a".repeat(65), "input": input },
        ] }),
        &ALL,
    );
    let verdicts: Vec<(&str, &str, ToolStatus)> = r
        .results
        .iter()
        .map(|x| (&x.tool[..x.tool.len().min(10)], x.target, x.status))
        .collect();
    use ToolStatus::{Accepted as A, Converted as C, Refused as R};
    assert_eq!(
        verdicts,
        [
            ("files.read", "openai", R),
            ("files.read", "anthropic", R),
            ("files.read", "gemini", C),
            ("1password", "openai", A),
            ("1password", "anthropic", A),
            ("1password", "gemini", R),
            ("aaaaaaaaaa", "openai", R),
            ("aaaaaaaaaa", "anthropic", A),
            ("aaaaaaaaaa", "gemini", R),
        ]
    );
    let refused = &r.results[0];
    assert_eq!(refused.reason.as_deref(), Some("invalid_name"));
    assert!(refused
        .fix
        .as_deref()
        .unwrap()
        .starts_with("Rename the tool"));
}

#[test]
fn openai_lists_an_optional_property_as_one_lossless_rewrite() {
    let r = one(
        json!({ "type": "object", "properties": { "q": { "type": "string" }, "n": { "type": "integer" } }, "required": ["n"] }),
    );
    let openai = row(&r, "openai");
    assert_eq!(openai.status, ToolStatus::Converted);
    assert_eq!(openai.loss, Some(ToolLoss::None));
    assert_eq!(
        kinds(&openai),
        [
            " additionalProperties narrowed",
            " required rewritten",
            "/properties/q anyOf rewritten"
        ]
    );
    assert_eq!(openai.as_sent.unwrap().reason, StrictReason::NotStrict);
}

#[test]
fn gemini_json_fields_ignore_keywords_outside_their_subset() {
    let schema = closed(
        json!({ "q": { "type": "string", "minLength": 2, "pattern": "^a" } }),
        &["q"],
    );
    let r = one_in(schema, &[mode(Mode::GeminiJson)]);
    let x = row(&r, "gemini:json");
    assert_eq!(x.status, ToolStatus::Accepted);
    let ignored: Vec<&str> = x
        .ignored
        .iter()
        .flatten()
        .map(|c| c.keyword.as_str())
        .collect();
    assert_eq!(ignored, ["minLength", "pattern"]);
}

#[test]
fn hosted_tools_are_skipped_unreadable_ones_are_rows() {
    let request = json!({ "tools": [
        { "name": "web_search", "type": "hosted_tool" },
        { "name": "f", "type": "function", "input": closed(json!({}), &[]) },
        { "name": "bare", "type": "function" },
        { "name": "zod", "error": "The Standard Schema has no JSON Schema conversion." },
        { "type": "function", "input": closed(json!({}), &[]) },
    ] });
    let r = check_tools(&request, &[Target::Provider(Provider::OpenAi)]);
    assert_eq!(r.skipped.len(), 1);
    assert_eq!(
        (r.skipped[0].tool.as_str(), r.skipped[0].kind.as_str()),
        ("web_search", "hosted_tool")
    );
    assert_eq!(r.tools, ["f", "bare", "zod", "tools[4]"]);
    let status: Vec<(&str, ToolStatus, Option<&str>)> = r
        .results
        .iter()
        .map(|x| (x.tool.as_str(), x.status, x.reason.as_deref()))
        .collect();
    assert_eq!(
        status,
        [
            ("f", ToolStatus::Accepted, None),
            ("bare", ToolStatus::Refused, Some("unreadable")),
            ("zod", ToolStatus::Refused, Some("unreadable")),
            ("tools[4]", ToolStatus::Accepted, None),
        ]
    );
    assert_eq!(
        r.results[2].message.as_deref(),
        Some("The Standard Schema has no JSON Schema conversion.")
    );
}

#[test]
fn output_schemas_are_checked_apart_and_fail_only_when_asked() {
    let request = json!({ "tools": [
        { "name": "t", "input": closed(json!({}), &[]), "output": { "type": "object", "properties": { "m": { "type": "object", "additionalProperties": { "type": "number" } } } } },
        { "name": "u", "input": closed(json!({}), &[]), "output": { "type": ["null", "object"] } },
    ] });
    let r = check_tools(&request, &[Target::Provider(Provider::Anthropic)]);
    assert!(r
        .results
        .iter()
        .all(|x| x.schema == "input" && x.status == ToolStatus::Accepted));
    let outputs: Vec<(&str, ToolStatus)> = r
        .outputs
        .iter()
        .map(|o| (o.tool.as_str(), o.status))
        .collect();
    assert_eq!(
        outputs,
        [("t", ToolStatus::Accepted), ("u", ToolStatus::Refused)]
    );
    assert_eq!(r.outputs[1].pointer.as_deref(), Some("/type"));
    assert!(r.outputs[1]
        .message
        .as_deref()
        .unwrap()
        .contains("MCP clients require `type: \"object\"`"));
    assert_eq!(verdict(&r, ToolPolicy::AnyLoss, false), None);
    let asked = verdict(&r, ToolPolicy::Refusals, true).unwrap();
    assert!(
        asked.starts_with("1 of 2 tools fails the check for MCP clients"),
        "{asked}"
    );
}

#[test]
fn request_limits_apply_to_the_strict_modes_only() {
    let tools: Vec<Json> = (0..21).map(|i| json!({ "name": format!("t{i}"), "input": closed(json!({ "a": { "type": "string" } }), &["a"]) })).collect();
    let r = check_tools(&json!({ "tools": tools }), &ALL);
    assert!(
        r.limits.iter().all(|l| l.breaches.is_empty()),
        "{:?}",
        r.limits
    );
    let r = check_tools(&json!({ "tools": tools }), &[mode(Mode::AnthropicStrict)]);
    assert_eq!(r.limits[0].breaches.len(), 1);
    assert_eq!(r.limits[0].breaches[0].limit, RequestLimit::StrictTools);
    let message = verdict(&r, ToolPolicy::Refusals, false).unwrap();
    assert!(
        message.contains("[anthropic:strict] request limit `strict_tools` (at tool `t20`)"),
        "{message}"
    );
    // Tools that declare `strict: true` count for Anthropic named alone; their places in the
    // whole set are named.
    let mut mixed: Vec<Json> = vec![json!({ "name": "loose", "input": closed(json!({}), &[]) })];
    mixed.extend((0..21).map(
        |i| json!({ "name": format!("s{i}"), "strict": true, "input": closed(json!({}), &[]) }),
    ));
    let r = check_tools(
        &json!({ "tools": mixed }),
        &[Target::Provider(Provider::Anthropic)],
    );
    assert_eq!(r.limits[0].breaches[0].pointer, "/tools/21");
    assert!(verdict(&r, ToolPolicy::Refusals, false)
        .unwrap()
        .contains("(at tool `s20`)"));
}

#[test]
fn the_policies_go_from_refusals_only_to_any_loss() {
    // Gemini: `deprecated` left out (annotations), `$schema` left out (nothing lost), then
    // `multipleOf` described (validation).
    let mut schema = closed(
        json!({ "n": { "type": "integer", "deprecated": true } }),
        &["n"],
    );
    schema["$schema"] = json!("https://json-schema.org/draft/2020-12/schema");
    let gemini = one_in(schema.clone(), &[Target::Provider(Provider::Gemini)]);
    assert_eq!(verdict(&gemini, ToolPolicy::Refusals, false), None);
    assert_eq!(verdict(&gemini, ToolPolicy::Validation, false), None);
    let any = verdict(&gemini, ToolPolicy::AnyLoss, false).unwrap();
    assert!(
        any.starts_with("1 of 1 tool fails the check for gemini:"),
        "{any}"
    );
    assert!(
        any.contains("`deprecated` at `/properties/n` dropped"),
        "{any}"
    );
    assert!(!any.contains("$schema"), "{any}");
    schema["properties"]["n"]["multipleOf"] = json!(5);
    let gemini = one_in(schema, &[Target::Provider(Provider::Gemini)]);
    assert_eq!(verdict(&gemini, ToolPolicy::Refusals, false), None);
    let v = verdict(&gemini, ToolPolicy::Validation, false).unwrap();
    assert!(
        v.contains("Gemini (OpenAPI schema) converts `t` with loss: `deprecated` at `/properties/n` dropped, `multipleOf` at `/properties/n` described"),
        "{v}"
    );
}

#[test]
fn a_refusal_fails_every_policy_with_its_fix() {
    let r = check_tools(
        &json!({ "tools": [{ "name": "open", "input": { "type": "object", "additionalProperties": true } }] }),
        &[Target::Provider(Provider::OpenAi)],
    );
    for policy in ToolPolicy::ALL {
        let message = verdict(&r, *policy, false).unwrap();
        assert!(
            message.contains("- [openai:strict] OpenAI refuses the input schema of tool `open` at `/additionalProperties`"),
            "{message}"
        );
        assert!(message.contains("Fix: Replace the open map"), "{message}");
    }
}

#[test]
fn an_invalid_schema_is_a_refused_row() {
    let r = one(json!({ "type": "object", "properties": { "a": { "type": "strng" } } }));
    for p in ["openai", "anthropic", "gemini"] {
        let x = row(&r, p);
        assert_eq!(
            (x.status, x.reason.as_deref(), x.pointer.as_deref()),
            (
                ToolStatus::Refused,
                Some("non_schema_node"),
                Some("/properties/a/type")
            ),
            "{p:?}"
        );
    }
}
