//! Strict normalization on arbitrary text: the parser, every walk, conversion, stabilization
//! and input normalization must return a value or a typed error, never panic or recurse
//! without bound; so must the Anthropic and Gemini profiles (root wrapping, enum texts).
#![no_main]
use libfuzzer_sys::fuzz_target;
use understudy::schema::json;
use understudy::schema::strict::{assert_preserves_open_objects, prepare, Mode};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    // First line: the schema; the rest: a value to normalize.
    let (schema, value) = text.split_once('\n').unwrap_or((text, "null"));
    // The provider profiles on the same schema, wrapping a refused root, and the answer's enum
    // texts read back.
    if let Ok(given) = serde_json::from_str::<serde_json::Value>(schema) {
        use understudy::schema::provider::{convert_given, restore_numbers, Provider};
        if understudy::schema::types::check(&given).is_ok() {
            for provider in [Provider::Anthropic, Provider::Gemini] {
                if let Ok(converted) = convert_given(given.clone(), provider, Some("value")) {
                    if let Ok(mut answer) = serde_json::from_str::<serde_json::Value>(value) {
                        restore_numbers(&mut answer, &converted.restore);
                    }
                }
            }
        }
    }
    let Ok(doc) = json::parse(schema) else { return };
    let _ = assert_preserves_open_objects(&doc, 0);
    let _ = prepare(&doc, 0, Mode::Convert).map(|p| json::to_string(&p.doc, p.root));
    if let Ok(prepared) = prepare(&doc, 0, Mode::Prepare) {
        let out = json::to_string(&prepared.doc, prepared.root);
        // The strict schema is itself JSON the engine can read back.
        json::parse(&out).expect("strict output parses");
        if let Ok(mut vd) = json::parse(value) {
            if let Ok(id) = prepared.normalize_input(&mut vd, 0) {
                let _ = json::to_string(&vd, id);
            }
        }
    }
});
