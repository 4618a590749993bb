//! Compiling arbitrary schemas and validating arbitrary text: typed errors and issues only.
#![no_main]
use libfuzzer_sys::fuzz_target;
use understudy::schema::validate::compile_json;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let (schema, value) = text.split_once('\n').unwrap_or((text, "null"));
    if let Ok(validator) = compile_json(schema) {
        let _ = validator.validate_json(value);
    }
});
