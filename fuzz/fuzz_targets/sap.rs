//! parseStructured and parsePartial on arbitrary replies against a few schemas: a value or a
//! typed error, never a panic; and a parse of the whole text agrees with parsePartial on it
//! whenever the value was finished. When the clean-reply fast path takes a text as is, the full
//! path reads the same value with no fix. A streamed prefix and its continuation never panic and
//! make the value.
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
        let full = parse_structured(text, schema);
        if understudy::sap::as_is::conforms_as_is(text, schema) {
            let full = full.as_ref().expect("the fast path took a text the full path refuses");
            assert!(full.fixes.is_empty(), "the fast path took {text:?}, the full path fixes {:?}", full.fixes);
            let as_is: serde_json::Value = serde_json::from_str(text).expect("strict JSON");
            assert!(same_js(&as_is, &full.value), "{text:?}: as is {as_is}, full path {}", full.value);
        }
        let _ = parse_partial(text, schema);
        // Every prefix at a char boundary, for short inputs; a streamed middleware sends what
        // its `Live` reader lets through (from after a leading fence's first line), and the
        // repaired value continues it into a text that reads as that value.
        if text.len() < 64 {
            let mut live = understudy::sap::stream::Live::new(schema.clone());
            let (mut sent, mut last) = (0, 0);
            for (i, _) in text.char_indices().chain(std::iter::once((text.len(), ' '))) {
                let _ = parse_partial(&text[..i], schema);
                sent = live.push(&text[last..i]);
                last = i;
            }
            let skip = understudy::sap::stream::byte_len(text, live.skip());
            let prefix = &text[skip..understudy::sap::stream::byte_len(text, sent)];
            if let Ok(full) = &full {
                if let Some(rest) = understudy::sap::stream::continuation(prefix, &full.value) {
                    let whole: serde_json::Value = serde_json::from_str(&format!("{prefix}{rest}")).expect("a continuation makes JSON");
                    assert!(same_js(&whole, &full.value) || whole == full.value, "{text:?}: sent {prefix:?}, continued {rest:?}");
                }
            }
        }
    }
});

/// Numbers as JSON.parse reads them (doubles, sign of zero included).
fn same_js(a: &serde_json::Value, b: &serde_json::Value) -> bool {
    use serde_json::Value as J;
    match (a, b) {
        (J::Number(x), J::Number(y)) => {
            let (x, y) = (x.as_f64().unwrap_or(f64::NAN), y.as_f64().unwrap_or(f64::NAN));
            x == y && x.is_sign_negative() == y.is_sign_negative()
        }
        (J::Array(x), J::Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(a, b)| same_js(a, b)),
        (J::Object(x), J::Object(y)) => x.len() == y.len() && x.iter().zip(y).all(|((k, a), (l, b))| k == l && same_js(a, b)),
        _ => a == b,
    }
}
