use serde_json::json;

use super::*;

fn schema() -> Json {
    json!({"type": "object", "properties": {
        "title": {"type": "string"},
        "n": {"type": "integer"},
        "tags": {"type": "array", "items": {"type": "string"}},
        "meta": {"type": "object", "properties": {"k": {"type": "string"}}}
    }, "required": ["title"]})
}

/// Every cut of a clean reply is sent as far as a continuation can be written, never past a
/// key, number, literal or escape that is not whole, and never back.
#[test]
fn a_clean_reply_is_sent_as_it_arrives() {
    let text = r#"{"title": "Fix lo\u00e9gin", "n": 12, "tags": ["a", "b"], "meta": {"k": "v"}}"#;
    let mut sent = 0;
    let mut cuts = Vec::new();
    for end in 1..=text.len() {
        let now = sendable(&text[..end], &schema(), sent);
        assert!(now >= sent);
        if now > sent {
            cuts.push(text[..now].to_string());
        }
        sent = now;
    }
    assert_eq!(sent, utf16_len(text));
    for cut in &cuts {
        assert!(!cut.ends_with("\\u00"), "{cut}");
        assert!(!cut.ends_with("\"ti"), "a key is sent whole: {cut}");
        assert!(!cut.ends_with("1"), "a number is sent when it ends: {cut}");
        assert_eq!(
            continuation(cut, &serde_json::from_str(text).unwrap())
                .map(|rest| format!("{cut}{rest}"))
                .and_then(|whole| serde_json::from_str::<Json>(&whole).ok()),
            Some(serde_json::from_str(text).unwrap()),
            "{cut}"
        );
    }
    assert!(
        cuts.iter().any(|c| c.ends_with("\"Fix lo")),
        "a string value streams: {cuts:?}"
    );
}

/// What needs a repair is not sent: a fence, prose, single quotes, a string for an integer.
#[test]
fn a_prefix_that_needs_a_repair_stops_the_sending() {
    for (text, upto) in [
        ("```json\n{\"title\": \"x\"}", ""),
        ("Sure! {\"title\": \"x\"}", ""),
        ("{'title': 'x'}", "{"),
        // The key goes with its colon: the continuation writes the value as read (12).
        (
            "{\"title\": \"x\", \"n\": \"12\", \"tags\": []}",
            "{\"title\": \"x\", \"n\":",
        ),
        // The comma waits for the next member, which the comment keeps from coming.
        (
            "{\"title\": \"x\", // note\n \"n\": 1}",
            "{\"title\": \"x\"",
        ),
    ] {
        let mut sent = 0;
        for end in 1..=text.len() {
            if text.is_char_boundary(end) {
                sent = sendable(&text[..end], &schema(), sent);
            }
        }
        assert_eq!(&text[..byte_len(text, sent)], upto, "{text}");
    }
}

/// Trailing commas: what streaming sent is always a prefix of the repaired value's text, for
/// every delta size, so the continuation can always be written (a comma is held until the next
/// value starts).
#[test]
fn a_trailing_comma_is_never_sent_before_what_follows_it() {
    let schema = json!({"type": "object", "properties": {
        "tags": {"type": "array", "items": {"type": "string"}},
        "estimate": {"type": "integer"}
    }});
    for text in [
        r#"{"tags": ["auth", "web",], "estimate": 3,}"#,
        r#"{"tags": ["auth",
  "web", ], "estimate": 3 , }"#,
        r#"[{"tags": [],}, {"estimate": 1,},]"#,
    ] {
        let schema = if text.starts_with('[') {
            json!({"type": "array", "items": schema.clone()})
        } else {
            schema.clone()
        };
        let value = crate::sap::parse_structured(text, &schema).unwrap().value;
        for delta in [1, 3, 10] {
            let mut sent = 0;
            let mut end = 0;
            while end < text.len() {
                end = (end + delta).min(text.len());
                sent = sendable(&text[..end], &schema, sent);
                let prefix = &text[..byte_len(text, sent)];
                assert!(!prefix.trim_end().ends_with(','), "{prefix}");
                let whole = continuation(prefix, &value).map(|rest| format!("{prefix}{rest}"));
                assert_eq!(
                    whole.and_then(|w| serde_json::from_str::<Json>(&w).ok()),
                    Some(value.clone()),
                    "{text} in {delta}-byte deltas, sent {prefix}"
                );
            }
        }
    }
}

/// The continuation writes the rest of the repaired value after what was sent, or says it
/// cannot (a sent member the value does not hold).
#[test]
fn the_repaired_value_continues_what_was_sent() {
    let value = json!({"title": "Fix login", "n": 12, "tags": ["a", "b"]});
    for (prefix, rest) in [
        (
            "{\"title\": \"Fix lo",
            "gin\",\"n\":12,\"tags\":[\"a\",\"b\"]}",
        ),
        (
            "{\"title\": \"Fix login\", ",
            "\"n\":12,\"tags\":[\"a\",\"b\"]}",
        ),
        (
            "{\"title\": \"Fix login\", \"tags\": [\"a\"",
            ",\"b\"],\"n\":12}",
        ),
        (
            "{\"title\": \"Fix login\", \"tags\": [\"a\", \"",
            "b\"],\"n\":12}",
        ),
        (
            "{",
            "\"title\":\"Fix login\",\"n\":12,\"tags\":[\"a\",\"b\"]}",
        ),
        (
            "{\"title\":",
            "\"Fix login\",\"n\":12,\"tags\":[\"a\",\"b\"]}",
        ),
    ] {
        assert_eq!(
            continuation(prefix, &value).as_deref(),
            Some(rest),
            "{prefix}"
        );
    }
    for prefix in [
        "{\"title\": \"Draft",
        "{\"other\": 1, ",
        "{\"title\": \"Fix login\", \"tags\": [\"a\", \"b\", \"c\"",
        "[",
        "{\"title\": \"Fix login\", \"n\": 12, \"tags\": [\"a\", \"b\"], ",
    ] {
        assert_eq!(continuation(prefix, &value), None, "{prefix}");
    }
    // Numbers compare by value: a sent `12.0` continues into 12.
    assert!(continuation("{\"n\": 12.0, ", &json!({"n": 12, "title": "x"})).is_some());
}

#[test]
fn lengths_are_javascript_string_lengths() {
    let text = "{\"t\": \"é😀x\"}";
    assert_eq!(utf16_len(text), 13);
    assert_eq!(&text[..byte_len(text, 9)], "{\"t\": \"é😀");
}

/// Every prefix of texts with escapes next to multibyte characters, cut anywhere: no panic,
/// and a cut is always a character boundary of the text.
#[test]
fn no_prefix_panics() {
    let texts = [
        "{\"a\": \"\\u00e9\\ud83d\\ude00é😀\\\"x\", \"b\": [\"\\né\", 1.5e3, true, null]}",
        "{\"a\": \"\\é\\😀\\u12é4\"}",
        "[\"\\ud83d\", \"\\uZZZZ\", \"\\",
        "{\"é😀\": \"x\", \"k\\u00e9y\": {\"n\": -0.5}}",
        "  {\"t\": \"tab\there\"}",
        "[\"\\u1😀\\u1é4\\é\\😀",
        "{\"a\": \"\\ud83d\\u😀x",
    ];
    let schema = json!({"type": "object"});
    let array = json!({"type": "array", "items": {"type": "string"}});
    for text in texts {
        let mut sent = 0;
        for end in 0..=text.len() {
            if !text.is_char_boundary(end) {
                continue;
            }
            let prefix = &text[..end];
            for s in [&schema, &array] {
                let now = sendable(prefix, s, sent.min(utf16_len(prefix)));
                let cut = byte_len(prefix, now);
                assert!(prefix.is_char_boundary(cut));
            }
            sent = sendable(prefix, &schema, sent.min(utf16_len(prefix)));
            let _ = continuation(prefix, &json!({"a": "é😀", "b": ["x"]}));
        }
    }
}
