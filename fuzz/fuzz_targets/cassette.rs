//! Cassettes from arbitrary files: loading is a value or a typed error, never a panic; a loaded
//! cassette replays each of its own requests by request match, and normalizing, redacting,
//! hashing and diffing arbitrary JSON never panic.
#![no_main]
use libfuzzer_sys::fuzz_target;
use serde_json::Value;
use understudy::doubles::cassette::{first_difference, hash, load, normalize_request, Matcher, RegexHost, Redaction};

fuzz_target!(|data: &[u8]| {
    let Ok(doc) = serde_json::from_slice::<Value>(data) else { return };
    let redaction = Redaction::new(&["x-key".into()], &["tok-[0-9]+".into()], RegexHost::shared()).expect("valid patterns");
    let normalized = normalize_request(doc.clone(), &redaction);
    let _ = hash(&normalized);
    let _ = first_difference(&doc, &normalized);
    if let Ok(cassette) = load(doc, RegexHost::shared()) {
        let mut matcher = Matcher::new(&cassette);
        for (i, step) in cassette.steps.iter().enumerate() {
            let request = normalize_request(step["request"].clone(), &cassette.redaction);
            // Every step's own (normalized) request finds a step; a stored request that was not
            // normalized may differ, which must be a mismatch, not a panic.
            let _ = matcher.pick(&request, i);
        }
    }
});
