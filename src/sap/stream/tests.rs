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

/// [`Live`] streams as the whole-prefix check does, or further, and never sends what the
/// repaired value cannot continue: for every text here (clean, broken, nested, with unions,
/// references and extra keys) against every schema, in deltas of 1, 3 and 8 bytes, each cut it
/// answers continues into the value `parse_structured` reads wherever `sendable`'s does, and a
/// text `sendable` streams whole is sent at least as far at each step, and whole at the end.
#[test]
fn live_sends_what_the_repaired_value_continues() {
    let closed = json!({"type": "object", "properties": {
        "id": {"type": "integer"}, "name": {"type": "string"}, "tags": {"type": "array", "items": {"type": "string"}},
        "owner": {"anyOf": [{"type": "null"}, {"type": "object", "properties": {"login": {"type": "string"}}, "required": ["login"]}]},
        "kind": {"enum": ["bug", "feature"]}
    }, "required": ["id", "name"], "additionalProperties": false});
    let records = json!({"type": "array", "items": closed.clone()});
    let wrapped = json!({"type": "object", "properties": {"items": {"$ref": "#/$defs/list"}, "total": {"type": "integer"}},
        "$defs": {"list": {"type": "array", "items": closed.clone()}}});
    let union_root = json!({"anyOf": [{"type": "object", "properties": {"a": {"type": "string"}}}, {"type": "array"}]});
    let texts = [
        r#"[{"id": 1, "name": "a", "tags": ["x", "y"], "owner": null, "kind": "bug"}, {"id": 2, "name": "b\u00e9", "owner": {"login": "q"}}]"#,
        r#"[{"id": 1, "name": "a"}, {"id": "2", "name": "b"}, {"id": 3, "name": "c"}]"#,
        r#"[{"id": 1, "name": "a", "extra": true}, {"id": 2, "name": "b"}]"#,
        r#"[{"id": 1, "name": "a", "kind": "BUG"}]"#,
        r#"[{"id": 1, "name": "a",}, {"id": 2, "name": "b"},]"#,
        r#"[{"id": 1}, {"id": 2, "name": "b"}]"#,
        r#"{"items": [{"id": 1, "name": "a"}, {"id": 2, "name": "b", "tags": []}], "total": 2}"#,
        r#"{"items": [{"id": 1, "name": "a", "owner": {"login": 5}}], "total": 2}"#,
        r#"{"title": "Fix lo\u00e9gin", "n": 12, "tags": ["a", "b"], "meta": {"k": "v"}}"#,
        r#"{"title": "x", "n": "12", "tags": []}"#,
        r#"{"a": "x"}"#,
        r#"  [1, "é😀", {"k": [true, null]}]"#,
        "```json\n[{\"id\": 1, \"name\": \"a\"}]\n```",
        r#"{"title": "x", "title": "y"}"#,
        r#"{"tags": ["auth", "web",], "estimate": 3,}"#,
        r#"{"title": "a \"quoted\" word", "tags": ["\ud83d\ude00"]}"#,
        "```json\n{\"title\": \"x\", \"n\": 1}\n```",
        "\n```\n[{\"id\": 1, \"name\": \"a\"}]\n```\nDone.",
        "```json\n{\"title\": \"draft\"}\n```\nFinal:\n```json\n{\"title\": \"final\"}\n```",
        "``json\n{}",
    ];
    for schema in [
        &closed,
        &records,
        &wrapped,
        &union_root,
        &schema(),
        &json!(true),
        &json!({"type": "object"}),
    ] {
        for text in texts {
            let value =
                crate::sap::parse_structured_reading(text, schema, &crate::sap::Options::default())
                    .ok()
                    .map(|r| r.value.into_json());
            // What the whole-prefix check streams whole.
            let clean = sendable(text, schema, 0) == utf16_len(text);
            for delta in [1, 3, 8] {
                let (mut sent, mut live, mut end, mut last) = (0, Live::new(schema.clone()), 0, 0);
                while end < text.len() {
                    let mut next = (end + delta).min(text.len());
                    while !text.is_char_boundary(next) {
                        next += 1;
                    }
                    sent = sendable(&text[..next], schema, sent);
                    let now = live.push(&text[end..next]);
                    let at = format!("{text} against {schema} in {delta}-byte deltas, at {next}");
                    assert!(now >= last, "{at}");
                    last = now;
                    let prefix = &text[byte_len(text, live.skip())..byte_len(text, now)];
                    // Where the whole-prefix check's cut continues into the value, so does this one
                    // (a later duplicate key can make neither continue: the final check refuses).
                    if let Some(value) = &value {
                        let old = &text[..byte_len(text, sent)];
                        if sent > 0 && continuation(old, value).is_some() {
                            assert!(
                                prefix.is_empty() || continuation(prefix, value).is_some(),
                                "{at}: {prefix}"
                            );
                        }
                    }
                    if clean {
                        assert!(now >= sent, "{at}: {now} < {sent}");
                    }
                    end = next;
                }
                if clean {
                    assert_eq!(last, utf16_len(text), "{text} against {schema}");
                }
            }
        }
    }
}

/// A reply that opens with a code fence streams the block's JSON as it arrives (the first
/// sendable cut within one delta of its opening brace); prose before a fence is held, as a
/// later block may replace it.
#[test]
fn a_reply_opening_with_a_fence_streams_its_block() {
    let schema = schema();
    let text = "```json\n{\"title\": \"Fix login\", \"n\": 3, \"tags\": [\"a\"]}\n```";
    let value = crate::sap::parse_structured(text, &schema).unwrap().value;
    for delta in [1, 3, 10] {
        let (mut live, mut end, mut first, mut now) = (Live::new(schema.clone()), 0, None, 0);
        while end < text.len() {
            let next = (end + delta).min(text.len());
            now = live.push(&text[end..next]);
            let sent = &text[byte_len(text, live.skip())..byte_len(text, now)];
            assert!(!sent.starts_with('`'), "{sent}");
            if first.is_none() && !sent.is_empty() {
                first = Some(next);
            }
            assert!(
                sent.is_empty() || continuation(sent, &value).is_some(),
                "{sent}"
            );
            end = next;
        }
        let brace = text.find('{').unwrap();
        assert!(
            first.unwrap() <= brace + 1 + delta,
            "delta {delta}: first sent at {first:?}"
        );
        let sent = &text[byte_len(text, live.skip())..byte_len(text, now)];
        assert_eq!(
            serde_json::from_str::<Json>(sent).unwrap(),
            value,
            "the whole block went"
        );
    }
    // A fenced draft, then a final block: what was streamed is the draft, which the value
    // (the final block) does not continue: the release refuses it as `streamed`, visibly.
    let two = "```json\n{\"title\": \"draft\"}\n```\nFinal:\n```json\n{\"title\": \"final\"}\n```";
    let mut live = Live::new(schema.clone());
    let now = live.push(two);
    let sent = &two[byte_len(two, live.skip())..byte_len(two, now)];
    assert_eq!(sent, "{\"title\": \"draft\"}");
    let value = crate::sap::parse_structured(two, &schema).unwrap().value;
    assert_eq!(value, json!({"title": "final"}));
    assert_eq!(continuation(sent, &value), None);
    for held in [
        "Here it is:\n```json\n{\"title\": \"x\"}\n```",
        "```python\nprint(1)\n```",
        "` {}",
    ] {
        let mut live = Live::new(schema.clone());
        assert_eq!(live.push(held), live.skip(), "{held}");
    }
}

/// No text panics the reader and its cut never goes back: seeded random texts of JSON pieces
/// (multi-byte characters, escapes, fences, broken tokens) pushed in random deltas at character
/// boundaries, against schemas with and without member-by-member reading.
#[test]
fn live_survives_any_text() {
    let pieces = [
        "{",
        "}",
        "[",
        "]",
        ",",
        ":",
        "\"a\"",
        "\"é😀\"",
        "\"\\u00e9\"",
        "\"\\ud83d",
        "\\",
        "1",
        "-0.5e3",
        "true",
        "null",
        " ",
        "\n",
        "```json\n",
        "```",
        "'x'",
        "\"id\"",
        "\"tags\"",
        "é",
        "😀",
        "\"",
        "n",
    ];
    let schemas = [
        schema(),
        json!({"type": "array", "items": {"type": "object", "properties": {"id": {"type": "integer"}, "tags": {"type": "array", "items": {"type": "string"}}}, "additionalProperties": false}}),
        json!({"anyOf": [{"type": "object"}, {"type": "array"}]}),
        json!({"type": "object", "patternProperties": {"^a": {"type": "integer"}}}),
        json!(true),
    ];
    let mut seed: u64 = 0x9e3779b97f4a7c15;
    let mut next = |n: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n as u64) as usize
    };
    let starts = [
        "{",
        "[",
        "```json\n{",
        "  [",
        "{\"id\": ",
        "[{\"id\": 1, \"tags\": [",
    ];
    for _ in 0..20000 {
        let start = starts[next(starts.len())];
        let text: String = std::iter::once(start)
            .chain((0..next(24)).map(|_| pieces[next(pieces.len())]))
            .collect();
        for schema in &schemas {
            let mut live = Live::new(schema.clone());
            let (mut end, mut last) = (0, 0);
            while end < text.len() {
                let mut to = (end + 1 + next(6)).min(text.len());
                while !text.is_char_boundary(to) {
                    to += 1;
                }
                let now = live.push(&text[end..to]);
                assert!(now >= last && now <= utf16_len(&text[..to]), "{text:?}");
                assert!(live.skip() <= now, "{text:?}");
                last = now;
                end = to;
            }
        }
    }
}
