use serde_json::json;

use super::*;

const ALL: [Provider; 3] = [Provider::OpenAi, Provider::Anthropic, Provider::Gemini];

fn one(schema: Json) -> Report {
    check_tools(
        &json!({ "tools": [{ "name": "t", "input": schema }] }),
        &ALL,
    )
}

fn row(report: &Report, provider: Provider) -> &ToolResult {
    report
        .results
        .iter()
        .find(|r| r.provider == provider)
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

#[test]
fn a_strict_schema_goes_as_it_is_and_gemini_loses_nothing_by_its_closed_objects() {
    let r = one(closed(json!({ "a": { "type": "string" } }), &["a"]));
    assert_eq!(row(&r, Provider::OpenAi).status, ToolStatus::Accepted);
    assert_eq!(row(&r, Provider::Anthropic).status, ToolStatus::Accepted);
    let gemini = row(&r, Provider::Gemini);
    assert_eq!(gemini.status, ToolStatus::Converted);
    assert_eq!(kinds(gemini), [" additionalProperties dropped"]);
    assert_eq!(gemini.loss, Some(ToolLoss::None));
    assert_eq!(verdict(&r, ToolPolicy::AnyLoss), None);
}

#[test]
fn a_format_openai_cannot_run_is_refused_there_and_described_for_gemini() {
    let mut schema = closed(
        json!({ "path": { "type": "string", "format": "uri" } }),
        &["path"],
    );
    schema["$schema"] = json!("http://json-schema.org/draft-07/schema#");
    let r = one(schema);
    let openai = row(&r, Provider::OpenAi);
    assert_eq!(openai.status, ToolStatus::Refused);
    assert_eq!(openai.reason.as_deref(), Some("unsupported_value"));
    assert_eq!(openai.pointer.as_deref(), Some("/properties/path"));
    assert_eq!(openai.keyword.as_deref(), Some("format"));
    assert!(openai
        .message
        .as_deref()
        .unwrap()
        .contains("'uri' is not a valid format"));
    assert!(openai
        .message
        .as_deref()
        .unwrap()
        .starts_with("OpenAI refuses the input schema of tool `t` at `/properties/path`"));
    assert!(openai.fix.as_deref().unwrap().starts_with("Drop `format`"));
    // Anthropic takes `uri`; only the `$schema` annotation is left out.
    let anthropic = row(&r, Provider::Anthropic);
    assert_eq!(
        (anthropic.status, anthropic.loss),
        (ToolStatus::Converted, Some(ToolLoss::Annotations))
    );
    let gemini = row(&r, Provider::Gemini);
    assert_eq!(
        (gemini.status, gemini.loss),
        (ToolStatus::Converted, Some(ToolLoss::Validation))
    );
    assert!(kinds(gemini).contains(&"/properties/path format described".to_string()));
}

#[test]
fn a_supported_format_is_accepted_by_openai() {
    let r = one(closed(
        json!({ "at": { "type": "string", "format": "date-time" } }),
        &["at"],
    ));
    assert_eq!(row(&r, Provider::OpenAi).status, ToolStatus::Accepted);
}

#[test]
fn an_open_map_is_refused_by_openai_and_anthropic_with_its_pointer() {
    let r = one(closed(
        json!({ "m": { "type": "object", "additionalProperties": { "type": "string" } } }),
        &["m"],
    ));
    for p in [Provider::OpenAi, Provider::Anthropic] {
        let refused = row(&r, p);
        assert_eq!(refused.status, ToolStatus::Refused, "{p:?}");
        assert_eq!(refused.reason.as_deref(), Some("open_object"));
        assert_eq!(
            refused.pointer.as_deref(),
            Some("/properties/m/additionalProperties")
        );
    }
    assert_eq!(row(&r, Provider::Gemini).loss, Some(ToolLoss::Validation));
}

#[test]
fn a_property_named_like_a_keyword_is_not_read_as_one() {
    let r = one(closed(
        json!({ "format": { "type": "string" }, "additionalProperties": { "type": "boolean" } }),
        &["format", "additionalProperties"],
    ));
    assert_eq!(row(&r, Provider::OpenAi).status, ToolStatus::Accepted);
}

#[test]
fn recursion_goes_to_openai_and_is_refused_by_the_others() {
    let node = json!({ "type": "object", "properties": { "children": { "type": "array", "items": { "$ref": "#/$defs/node" } } }, "required": ["children"], "additionalProperties": false });
    let mut schema = closed(json!({ "n": { "$ref": "#/$defs/node" } }), &["n"]);
    schema["$defs"] = json!({ "node": node });
    let r = one(schema);
    assert_eq!(row(&r, Provider::OpenAi).status, ToolStatus::Accepted);
    for p in [Provider::Anthropic, Provider::Gemini] {
        assert_eq!(row(&r, p).reason.as_deref(), Some("recursive"), "{p:?}");
        assert!(row(&r, p)
            .fix
            .as_deref()
            .unwrap()
            .starts_with("Unroll the recursion"));
    }
}

#[test]
fn openai_lists_an_optional_property_as_one_lossless_rewrite() {
    let r = one(
        json!({ "type": "object", "properties": { "q": { "type": "string" }, "n": { "type": "integer" } }, "required": ["n"] }),
    );
    let openai = row(&r, Provider::OpenAi);
    assert_eq!(openai.status, ToolStatus::Converted);
    assert_eq!(openai.loss, Some(ToolLoss::None));
    assert_eq!(
        kinds(openai),
        [
            " additionalProperties narrowed",
            " required rewritten",
            "/properties/q anyOf rewritten"
        ]
    );
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
    let r = check_tools(&request, &[Provider::OpenAi]);
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
fn an_output_schema_is_a_row_of_its_own() {
    let request = json!({ "tools": [{ "name": "t", "input": closed(json!({}), &[]), "output": { "type": "object", "properties": { "m": { "type": "object", "additionalProperties": { "type": "number" } } } } }] });
    let r = check_tools(&request, &[Provider::Anthropic]);
    let rows: Vec<(&str, ToolStatus)> = r.results.iter().map(|x| (x.schema, x.status)).collect();
    assert_eq!(
        rows,
        [
            ("input", ToolStatus::Accepted),
            ("output", ToolStatus::Refused)
        ]
    );
    assert!(r.results[1]
        .message
        .as_deref()
        .unwrap()
        .contains("the output schema of tool `t`"));
}

#[test]
fn the_whole_set_is_checked_against_each_providers_request_limits() {
    let tools: Vec<Json> = (0..21).map(|i| json!({ "name": format!("t{i}"), "input": closed(json!({ "a": { "type": "string" } }), &["a"]) })).collect();
    let r = check_tools(&json!({ "tools": tools }), &ALL);
    let anthropic = r
        .limits
        .iter()
        .find(|l| l.provider == Provider::Anthropic)
        .unwrap();
    assert_eq!(anthropic.breaches.len(), 1);
    assert_eq!(
        anthropic.breaches[0].limit,
        provider::RequestLimit::StrictTools
    );
    assert!(r
        .limits
        .iter()
        .filter(|l| l.provider != Provider::Anthropic)
        .all(|l| l.breaches.is_empty()));
    let message = verdict(&r, ToolPolicy::Refusals).unwrap();
    assert!(
        message.contains("Anthropic request limit `strict_tools` (at tool `t20`)"),
        "{message}"
    );
}

#[test]
fn the_policies_go_from_refusals_only_to_any_loss() {
    // Anthropic: `$schema` left out (annotations). Gemini: `multipleOf` described (validation).
    let mut schema = closed(json!({ "n": { "type": "integer" } }), &["n"]);
    schema["$schema"] = json!("https://json-schema.org/draft/2020-12/schema");
    let anthropic_only = check_tools(
        &json!({ "tools": [{ "name": "t", "input": schema.clone() }] }),
        &[Provider::Anthropic],
    );
    assert_eq!(verdict(&anthropic_only, ToolPolicy::Refusals), None);
    assert_eq!(verdict(&anthropic_only, ToolPolicy::Validation), None);
    let any = verdict(&anthropic_only, ToolPolicy::AnyLoss).unwrap();
    assert!(
        any.starts_with("1 of 1 tool fails the check for Anthropic:"),
        "{any}"
    );
    assert!(any.contains("`$schema` at the root dropped"), "{any}");
    schema["properties"]["n"]["multipleOf"] = json!(5);
    let gemini = check_tools(
        &json!({ "tools": [{ "name": "t", "input": schema }] }),
        &[Provider::Gemini],
    );
    assert_eq!(verdict(&gemini, ToolPolicy::Refusals), None);
    assert!(verdict(&gemini, ToolPolicy::Validation).unwrap().contains(
        "Gemini converts `t` (input) with loss: `$schema` at the root dropped, `multipleOf` at `/properties/n` described"
    ));
}

#[test]
fn a_refusal_fails_every_policy_with_its_fix() {
    let r = check_tools(
        &json!({ "tools": [{ "name": "open", "input": { "type": "object", "additionalProperties": true } }] }),
        &[Provider::OpenAi],
    );
    for policy in ToolPolicy::ALL {
        let message = verdict(&r, *policy).unwrap();
        assert!(message.contains("- OpenAI refuses the input schema of tool `open` at `/additionalProperties`: strict mode needs"), "{message}");
        assert!(message.contains("Fix: Replace the open map"), "{message}");
    }
}

#[test]
fn an_invalid_schema_is_a_refused_row() {
    let r = one(json!({ "type": "object", "properties": { "a": { "type": "strng" } } }));
    for p in ALL {
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
