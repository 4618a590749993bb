//! Strict normalization on arbitrary text: the parser, every walk, conversion, stabilization
//! and input normalization must return a value or a typed error, never panic or recurse
//! without bound.
#![no_main]
use libfuzzer_sys::fuzz_target;
use understudy::schema::json;
use understudy::schema::strict::{assert_preserves_open_objects, prepare, Mode};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    // First line: the schema; the rest: a value to normalize.
    let (schema, value) = text.split_once('\n').unwrap_or((text, "null"));
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
