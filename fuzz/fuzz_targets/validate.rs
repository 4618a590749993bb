//! Compiling arbitrary schemas and validating arbitrary text: typed errors and issues only.
//! Whenever the fast path gives a verdict, the full validator (the `jsonschema` crate on the
//! parsed value) must give the same one, and the first issue (written by the fast path where
//! it can) must be one of all the issues. The input is a schema line and a text; the text is
//! also checked against a few fixed schemas, since random schemas rarely compile.
#![no_main]
use libfuzzer_sys::fuzz_target;
use serde_json::json;
use understudy::schema::validate::{compile, compile_json, Compiled};

fn check(validator: &Compiled, text: &str) {
    let report = validator.validate_json(text);
    assert_eq!(validator.is_valid_json(text), report.valid);
    let first = validator.validate_json_first(text);
    assert_eq!(first.valid, report.valid);
    let text_form = (!first.valid).then(|| first.issues_text());
    assert_eq!(validator.first_issue_text(text), text_form);
    if let Some(issue) = first.issues.first() {
        assert_eq!(first.issues.len(), 1);
        assert!(report.issues.contains(issue), "{issue:?} is not among {:?}", report.issues);
    }
    if let Some(valid) = validator.fast_verdict(text) {
        let full = serde_json::from_str::<serde_json::Value>(text).is_ok_and(|value| validator.validate(&value).valid);
        assert_eq!(full, valid, "the fast path says {valid}, the full validator {full}");
        assert_eq!(report.valid, valid);
    }
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let (schema, value) = text.split_once('\n').unwrap_or((text, "null"));
    if let Ok(validator) = compile_json(schema) {
        check(&validator, value);
    }
    let fixed = [
        json!({"type":"object","properties":{"a":{"type":"integer","minimum":-5,"exclusiveMaximum":9},"b":{"type":"array","items":{"type":"string","maxLength":3},"minItems":1},"c":{"enum":["x",1,[true],{"k":null}]},"d":{"type":["boolean","null"]},"e":{"anyOf":[{"type":"string"},{"type":"number","minimum":0.5}]}},"required":["a","b"],"additionalProperties":false}),
        json!({"$defs":{"n":{"type":"object","properties":{"v":{"const":1.0},"next":{"anyOf":[{"$ref":"#/$defs/n"},{"type":"null"}]}},"required":["v"]}},"$ref":"#/$defs/n"}),
        json!({"type":"array","prefixItems":[{"type":"string","minLength":1}],"items":{"allOf":[{"type":"number"},{"maximum":100}]},"maxItems":4}),
        json!({"$schema":"http://json-schema.org/draft-07/schema#","type":"array","items":[{"type":"integer"},{"$ref":"#/definitions/s","type":"null"}],"definitions":{"s":{"type":"string","format":"email"}}}),
    ];
    for schema in &fixed {
        check(&compile(schema).expect("fixed schemas compile"), value);
    }
});
