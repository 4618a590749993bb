//! Cassettes from arbitrary files: loading is a value or a typed error, never a panic; a loaded
//! cassette replays each of its own requests by request match, and normalizing, redacting,
//! hashing and diffing arbitrary JSON never panic; the text rules read any string without a
//! panic and what they find lies on character boundaries; taking a learned value out
//! everywhere never panics either. A language model's parts and results (recorded, or made by
//! the AI SDK scripted model) never panic.
#![no_main]
use libfuzzer_sys::fuzz_target;
use serde_json::Value;
use understudy::doubles::cassette::{build, first_difference, hash, load, load_for, normalize_request, record_step_for, result_from_parts, Interface, Matcher, Outcome, RegexHost, Redaction, Taken};
use understudy::doubles::redaction::{matches_redacted, text};

fuzz_target!(|data: &[u8]| {
    let Ok(doc) = serde_json::from_slice::<Value>(data) else { return };
    let redaction = Redaction::new(&["x-key".into()], &["tok-[0-9]+".into()], RegexHost::shared()).expect("valid patterns");
    if let Ok(text) = std::str::from_utf8(data) {
        for found in text::find(text) {
            assert!(text.is_char_boundary(found.range.start) && text.is_char_boundary(found.range.end));
        }
    }
    let mut taken = Taken::default();
    let normalized = normalize_request(doc.clone(), &redaction, &mut taken);
    let _ = hash(&normalized);
    let _ = first_difference(&doc, &normalized);
    let _ = matches_redacted(&normalized, &doc);
    let _ = build(vec![doc.clone()], &redaction, &taken);
    // A language model's parts, whatever they hold; its cassettes load or refuse alike.
    if let Value::Array(parts) = &doc {
        let _ = result_from_parts(parts);
        let _ = record_step_for(Interface::LanguageModel, Value::Null, true, Outcome::Events(parts.clone()), &redaction, &mut Taken::default());
    }
    let _ = understudy::doubles::ai_sdk::generate_result(&doc, 0).map(|r| understudy::doubles::ai_sdk::stream_parts(&r));
    let _ = load_for(Interface::LanguageModel, doc.clone(), RegexHost::shared());
    if let Ok(cassette) = load(doc, RegexHost::shared()) {
        let mut matcher = Matcher::new(&cassette);
        for (i, step) in cassette.steps.iter().enumerate() {
            let request = normalize_request(step["request"].clone(), &cassette.redaction, &mut Taken::default());
            // Every step's own (normalized) request finds a step; a stored request that was not
            // normalized may differ, which must be a mismatch, not a panic.
            let _ = matcher.pick(&request, i);
        }
    }
});
