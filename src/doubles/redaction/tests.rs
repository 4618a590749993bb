//! Redaction's rules, natively: what is taken out, what is kept, what the save-time check sees.

use super::*;
use crate::doubles::cassette::{self, build, normalize_request, record_step, Outcome};
use serde_json::json;

/// The redaction the cassette tests use too: one key and one pattern of the caller's.
pub(crate) fn redaction() -> Redaction {
    Redaction::new(
        &["x-team-token".into()],
        &["corp-[0-9]+".into()],
        RegexHost::shared(),
    )
    .unwrap()
}

fn normalize(request: Value, r: &Redaction) -> Value {
    normalize_request(request, r, &mut Taken::default())
}

/// `value` redacted.
fn redacted(r: &Redaction, mut value: Value) -> Value {
    r.apply(&mut value, &mut Taken::default());
    value
}

#[test]
fn secrets_are_redacted_by_key_and_by_pattern() {
    let key = format!("sk-proj-{}", "ABCDEFGH1234".repeat(2));
    let request = json!({
        "modelSettings": { "providerData": { "extra_headers": { "Authorization": "Bearer abc.def", "X-Team-Token": "t0", "x-trace": "ok" } } },
        "input": format!("my key is {key} and account corp-42; Bearer xyz"),
        "api_key": null,
    });
    let n = normalize(request, &redaction());
    let text = serde_json::to_string(&n).unwrap();
    for secret in ["abc.def", "t0", "sk-proj", "corp-42"] {
        assert!(!text.contains(secret), "{secret} leaked: {text}");
    }
    assert_eq!(
        n["modelSettings"]["providerData"]["extra_headers"]["x-trace"],
        "ok"
    );
    assert_eq!(
        n["input"], "my key is [REDACTED] and account [REDACTED]; Bearer xyz",
        "a short word after `Bearer` is prose"
    );
    assert_eq!(n["api_key"], Value::Null, "an absent secret stays null");
}

#[test]
fn redaction_hands_every_string_to_the_host_in_one_call() {
    use std::cell::RefCell;
    struct Counting(RefCell<Vec<usize>>);
    impl PatternHost for Counting {
        fn check(&self, _: &[Pattern]) -> Result<(), (usize, String)> {
            Ok(())
        }
        fn replace_all(
            &self,
            texts: &[&str],
            _: &[Pattern],
            with: &str,
            _: &[Pattern],
        ) -> Vec<Option<Replaced>> {
            self.0.borrow_mut().push(texts.len());
            texts
                .iter()
                .map(|t| {
                    (*t == "secret").then(|| Replaced {
                        text: with.to_owned(),
                        taken: vec![(*t).to_owned()],
                    })
                })
                .collect()
        }
        fn first_match(&self, _: &[&str], _: &[Pattern], _: &[Pattern]) -> Option<(usize, usize)> {
            None
        }
    }
    let host = Rc::new(Counting(RefCell::new(Vec::new())));
    let r = Redaction::new(&[], &[], host.clone()).unwrap();
    let v = redacted(
        &r,
        json!({ "a": "secret", "b": ["x", { "c": "secret" }], "password": "p" }),
    );
    assert_eq!(
        v,
        json!({ "a": REDACTED, "b": ["x", { "c": REDACTED }], "password": REDACTED })
    );
    assert_eq!(
        *host.0.borrow(),
        vec![3],
        "one call with the three strings (a password is the engine's)"
    );
}

#[test]
fn invalid_patterns_are_refused_with_a_pointer() {
    let e = Redaction::new(&[], &["(".into()], RegexHost::shared()).unwrap_err();
    assert_eq!(e.pointer, "/redaction/patterns/0");
    let e = Redaction::with_allow(&[], &[], &["[".into()], RegexHost::shared()).unwrap_err();
    assert_eq!(e.pointer, "/redaction/allow/0");
    let e = cassette::CassetteError::from(e);
    assert_eq!(e.reason, cassette::CassetteReason::InvalidPattern);
}

/// Fake credentials of every built-in format (built from parts, so no scanner flags this
/// file), each in a sentence.
fn fake_credentials() -> Vec<(&'static str, String)> {
    let r = |c: char, n: usize| c.to_string().repeat(n);
    vec![
        ("openai-or-anthropic-key", format!("sk-proj-{}", r('A', 24))),
        (
            "openai-or-anthropic-key",
            format!("sk-ant-api03-{}", r('b', 40)),
        ),
        ("openai-or-anthropic-key", format!("sk-{}", r('C', 48))),
        ("github-token", format!("ghp_{}", r('a', 36))),
        (
            "github-token",
            format!("github_pat_11{}_{}", r('A', 20), r('z', 59)),
        ),
        ("github-token", format!("gho_{}", r('C', 36))),
        ("gitlab-token", format!("glpat-{}", r('x', 20))),
        ("aws-access-key", format!("AKIA{}", r('Q', 16))),
        (
            "aws-secret-key",
            format!("aws_secret_access_key = {}", r('k', 40)),
        ),
        ("google-api-key", format!("AIza{}", r('S', 35))),
        ("slack-token", format!("xoxb-{}-{}", r('1', 12), r('a', 24))),
        ("stripe-key", format!("sk_live_{}", r('4', 24))),
        ("stripe-key", format!("rk_test_{}", r('5', 24))),
        ("twilio-key", format!("SK{}", r('f', 32))),
        ("sendgrid-key", format!("SG.{}.{}", r('g', 22), r('h', 43))),
        ("npm-token", format!("npm_{}", r('n', 36))),
        ("heroku-key", format!("HRKU-AA{}", r('h', 58))),
        ("datadog-key", format!("datadog api key: {}", r('d', 32))),
        ("azure-key", format!("azure openai key = {}", r('e', 32))),
        ("azure-client-secret", format!("abc8Q~{}", r('w', 34))),
        (
            "jwt",
            format!("eyJ{}.eyJ{}.{}", r('h', 16), r('p', 20), r('s', 22)),
        ),
        (
            "private-key",
            format!(
                "-----BEGIN RSA PRIVATE KEY-----\nMII{}\n-----END RSA PRIVATE KEY-----",
                r('E', 60)
            ),
        ),
        (
            "url-password",
            "postgres://admin:hunter2pass@db.internal:5432/app".to_owned(),
        ),
        (
            "url-secret-parameter",
            "https://api.example.com/v1/files?id=7&access_token=abc123def456".to_owned(),
        ),
        ("bearer", format!("Bearer {}", r('t', 30))),
    ]
}

#[test]
fn every_built_in_format_is_redacted_wherever_it_stands() {
    let r = redaction();
    for (rule, secret) in fake_credentials() {
        let v = redacted(
            &r,
            json!({
                "input": [{ "role": "user", "content": format!("use {secret} please") }],
                "instructions": secret,
                "tools": [{ "arguments": format!("{{\"query\": \"{secret}\"}}") }],
            }),
        );
        let text = v.to_string();
        // What must be gone: the secret part (URLs keep their user, host and other parameters).
        let core: String = match rule {
            "url-password" => "hunter2pass".into(),
            "url-secret-parameter" => "abc123def456".into(),
            _ => secret
                .chars()
                .rev()
                .take(12)
                .collect::<String>()
                .chars()
                .rev()
                .collect(),
        };
        assert!(!text.contains(&core), "{rule}: {text}");
        assert!(text.contains(REDACTED), "{rule}");
        assert_eq!(
            r.find_leak(&v, ""),
            None,
            "{rule}: nothing left after redaction"
        );
        // Unredacted, the save-time check names the pointer and the rule.
        let raw = json!({ "input": [{ "content": format!("use {secret} please") }] });
        let leak = r.find_leak(&raw, "/steps/0/request").expect(rule);
        assert_eq!(leak.pointer, "/steps/0/request/input/0/content", "{rule}");
        assert_eq!(leak.rule, rule, "{secret}");
    }
    // URL parts keep what is not secret.
    let v = redacted(
        &r,
        json!({ "u": "postgres://admin:hunter2pass@db.internal:5432/app and https://x.io/a?access_token=abc123&page=2" }),
    );
    assert_eq!(v["u"], json!("postgres://admin:[REDACTED]@db.internal:5432/app and https://x.io/a?access_token=[REDACTED]&page=2"));
}

#[test]
fn formats_are_anchored_at_word_boundaries() {
    let r = redaction();
    // Words that hold a format's prefix, prose that holds its word: replayed as recorded.
    for text in [
        "Moved task-list-item-42 to Done.",
        "See risk-assessment-matrix-v2 and desk-booking-system-v3.",
        "Ask-me-anything-thread-2024-06 is pinned; kiosk-mode-enabled-terminal-7 rebooted.",
        "The bearer of this letter is a friend.",
        "Bearer bonds were popular.",
        "task_live_tracking_enabled and disk_test_results_2024",
        "https://shop.example.com/search?keyword=cat&monkey=1&sort_key=price",
        "SKU SKaaaa is not a key; neither is AKIA alone.",
        "eyJ alone, or sk- alone, or ghp_ alone.",
    ] {
        assert_eq!(redacted(&r, json!(text)), json!(text), "{text}");
        assert_eq!(r.find_leak(&json!(text), ""), None, "{text}");
    }
}

#[test]
fn credential_keys_are_redacted_and_counts_are_not() {
    let r = redaction();
    let key = "a8f5f167f44f4964e6c998dee827110c";
    let v = redacted(
        &r,
        json!({
            "headers": { "x-goog-api-key": key, "X-Custom-Key": key, "client_secret": key, "Private-Key": key, "github_token": key, "Cookie": "sid=1" },
            "usage": { "input_tokens": 10, "max_tokens": 20, "total_tokens": 30 },
            "modelSettings": { "maxTokens": 100 },
            "tokenizer": "o200k",
            "id": "resp_123",
            "password": null
        }),
    );
    for k in [
        "x-goog-api-key",
        "X-Custom-Key",
        "client_secret",
        "Private-Key",
        "github_token",
        "Cookie",
    ] {
        assert_eq!(v["headers"][k], json!(REDACTED), "{k}");
    }
    assert_eq!(
        v["usage"],
        json!({ "input_tokens": 10, "max_tokens": 20, "total_tokens": 30 })
    );
    assert_eq!(v["modelSettings"]["maxTokens"], json!(100));
    assert_eq!(v["tokenizer"], json!("o200k"));
    assert_eq!(v["password"], json!(null));
    let leak = r
        .find_leak(&json!({ "h": { "Authorization": "Basic abc" } }), "")
        .unwrap();
    assert_eq!(
        (leak.pointer.as_str(), leak.rule.as_str()),
        ("/h/Authorization", "credential-key")
    );
}

#[test]
fn ordinary_keys_and_evident_values_are_kept() {
    let r = redaction();
    let v = json!({
        "secretary": "Ms. Smith",
        "password_policy": "min 12 chars",
        "tokenType": "Bearer",
        "token_type": "bearer",
        "keyword": "cat",
        "monkey": "George",
        "key": "user:42",
        "signature": "EqQBCkgIARABGAIiQK",
        "next_page_token": "CAoQAA",
        "authorization": "",
        "api_key": "${OPENAI_API_KEY}",
        "password": 12345678,
        "secret": true,
        "logprobs": [{ "token": " the", "logprob": -0.1 }, { "token": " international", "logprob": -0.4 }, { "token": "everything", "logprob": -0.2 }],
        "note": "The secret is to keep going.",
    });
    assert_eq!(redacted(&r, v.clone()), v);
    assert_eq!(r.find_leak(&v, ""), None);
    // Under a credential key, every string that looks like a secret goes, at any depth.
    let v = redacted(
        &r,
        json!({ "credentials": { "user": "ann", "pass": "hunter2hunter2" }, "api_keys": ["a8f5f167f44f4964", "n/a"] }),
    );
    assert_eq!(
        v["credentials"]["user"], "ann",
        "three characters under `credentials` are not a key"
    );
    assert_eq!(v["credentials"]["pass"], REDACTED);
    assert_eq!(v["api_keys"][0], REDACTED);
    assert_eq!(v["api_keys"][1], "n/a", "three characters are not a key");
}

#[test]
fn json_held_in_a_string_is_redacted_in_place() {
    let r = redaction();
    let arguments = "{\"user\":\"ann\",\"password\":\"hunter2hunter2\"}";
    let pretty = "{\n  \"user\": \"ann\",\n  \"password\": \"hunter2hunter2\"\n}";
    let v = redacted(
        &r,
        json!({ "type": "function_call", "arguments": arguments, "output": pretty }),
    );
    assert_eq!(
        v["arguments"], "{\"user\":\"ann\",\"password\":\"[REDACTED]\"}",
        "the layout is kept byte for byte"
    );
    assert_eq!(
        v["output"],
        "{\n  \"user\": \"ann\",\n  \"password\": \"[REDACTED]\"\n}"
    );
    // The save-time check reads JSON in strings too.
    let leak = r
        .find_leak(&json!({ "arguments": arguments }), "/steps/0/response")
        .unwrap();
    assert_eq!(
        (leak.pointer.as_str(), leak.rule.as_str()),
        ("/steps/0/response/arguments", "credential-key")
    );
}

#[test]
fn env_and_shell_text_in_tool_output() {
    let r = redaction();
    let env = "DD_API_KEY=0123456789abcdef0123456789abcdef\nAZURE_OPENAI_API_KEY=3f2a9c1b8e7d6f5a4b3c2d1e0f9a8b7c\nHEROKU_API_KEY=HRKU-AAbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb\nSESSION_SECRET=s3ss10n-s3cr3t\nPASSWORD=admin\nexport MY_SERVICE_TOKEN=\"tok_live_9a8b7c6d5e4f\"\nNODE_ENV=production\n";
    let v = redacted(&r, json!({ "output": env }));
    assert_eq!(
        v["output"],
        "DD_API_KEY=[REDACTED]\nAZURE_OPENAI_API_KEY=[REDACTED]\nHEROKU_API_KEY=[REDACTED]\nSESSION_SECRET=[REDACTED]\nPASSWORD=[REDACTED]\nexport MY_SERVICE_TOKEN=\"[REDACTED]\"\nNODE_ENV=production\n"
    );
    let leak = r.find_leak(&json!({ "output": env }), "").unwrap();
    assert_eq!(leak.rule, "credential-assignment");
}

#[test]
fn a_value_taken_once_is_taken_everywhere_in_the_cassette() {
    let r = redaction();
    let mut taken = Taken::default();
    let steps = vec![
        record_step(
            json!({ "input": "connect" }),
            false,
            Outcome::Response(
                json!({ "output": [{ "type": "function_call_result", "output": "DATABASE_URL=postgres://app:S3cretPassw0rd@db:5432/app" }] }),
            ),
            &r,
            &mut taken,
        ),
        record_step(
            json!({ "input": "what is it? S3cretPassw0rd? S3cretPassw0rds" }),
            false,
            Outcome::Response(
                json!({ "output": [{ "type": "message", "content": [{ "type": "output_text", "text": "Your DB password is S3cretPassw0rd." }] }] }),
            ),
            &r,
            &mut taken,
        ),
    ];
    assert_eq!(taken.len(), 1);
    let doc = build(steps, &r, &taken);
    let text = doc.to_string();
    assert!(!text.contains("S3cretPassw0rd\""), "{text}");
    assert_eq!(
        doc["steps"][1]["response"]["output"][0]["content"][0]["text"],
        "Your DB password is [REDACTED]."
    );
    assert_eq!(
        doc["steps"][1]["request"]["input"], "what is it? [REDACTED]? S3cretPassw0rds",
        "a whole word only"
    );
    assert_eq!(
        doc["steps"][1]["hash"],
        json!(cassette::hash(&doc["steps"][1]["request"])),
        "hashed again"
    );
    // Replay: the live request carries the value in plain text, and matches by request.
    let loaded = cassette::load(doc, RegexHost::shared()).unwrap();
    let mut m = cassette::Matcher::new(&loaded);
    let live = normalize(
        json!({ "input": "what is it? S3cretPassw0rd? S3cretPassw0rds" }),
        &loaded.redaction,
    );
    assert_eq!(m.pick(&live, 0), Ok(1));
}

#[test]
fn short_values_are_not_taken_everywhere() {
    let mut taken = Taken::default();
    taken.add("admin");
    taken.add("Bearer");
    assert!(taken.is_empty());
    taken.add("hunter2hunter2");
    let mut v = json!([
        "hunter2hunter2",
        "xhunter2hunter2",
        "hunter2hunter2!",
        "a \"hunter2hunter2\""
    ]);
    assert_eq!(propagate(std::slice::from_mut(&mut v), &taken), [true]);
    assert_eq!(
        v,
        json!([
            REDACTED,
            "xhunter2hunter2",
            "[REDACTED]!",
            "a \"[REDACTED]\""
        ])
    );
}

#[test]
fn a_redacted_part_matches_any_text() {
    for (recorded, live, expected) in [
        ("a [REDACTED] b", "a xyz b", true),
        ("a [REDACTED] b", "a  b", false),
        ("[REDACTED]", "anything", true),
        ("[REDACTED]", "", false),
        ("x=[REDACTED]&y=[REDACTED]", "x=1&y=2", true),
        ("x=[REDACTED]&y=[REDACTED]", "x=1&z=2", false),
        ("pre[REDACTED]", "pre", false),
        ("a [REDACTED] b", "a [REDACTED] b", true),
    ] {
        assert_eq!(
            matches_redacted(&json!({ "t": recorded }), &json!({ "t": live })),
            expected,
            "{recorded} ~ {live}"
        );
    }
    assert!(!matches_redacted(
        &json!({ "a": 1 }),
        &json!({ "a": 1, "b": 2 })
    ));
    assert!(!matches_redacted(&json!([1]), &json!([1, 2])));
}

#[test]
fn a_cassette_stores_only_what_the_caller_added() {
    let r = Redaction::new(&["x-team".into()], &[], RegexHost::shared()).unwrap();
    assert_eq!(r.to_json()["keys"], json!(["x-team"]));
    // An older cassette listed the built-in names: read back, they are rules, not the caller's.
    let mut legacy: Vec<String> = rules::LEGACY_STORED_KEYS
        .iter()
        .map(|k| (*k).to_owned())
        .collect();
    legacy.push("x-team".into());
    let doc = json!({ "format": cassette::FORMAT, "version": cassette::VERSION, "redaction": { "keys": legacy, "patterns": [rules::LEGACY_STORED_PATTERNS[0]] }, "steps": [] });
    let loaded = cassette::load(doc, RegexHost::shared()).unwrap();
    assert_eq!(loaded.redaction.keys(), ["x-team".to_owned()]);
    assert!(loaded.redaction.patterns().is_empty());
}

#[test]
fn allowed_values_are_kept_and_not_refused() {
    let fixture = format!("ghp_{}", "F".repeat(36));
    let r = Redaction::with_allow(&[], &[], &["ghp_F+".into()], RegexHost::shared()).unwrap();
    let v = redacted(
        &r,
        json!({ "a": format!("token {fixture}"), "b": format!("ghp_{}", "a".repeat(36)), "api_key": fixture, "c": format!("{{\"api_key\": \"{fixture}\"}}") }),
    );
    assert_eq!(v["a"], json!(format!("token {fixture}")));
    assert_eq!(v["b"], json!(REDACTED));
    assert_eq!(v["api_key"], json!(fixture));
    assert_eq!(v["c"], json!(format!("{{\"api_key\": \"{fixture}\"}}")));
    assert_eq!(r.find_leak(&v, ""), None);
    assert_eq!(r.to_json()["allow"], json!(["ghp_F+"]));
}

#[test]
fn realistic_recordings_raise_no_false_alarm() {
    let r = redaction();
    let base64_png = format!(
        "data:image/png;base64,iVBORw0KGgo{}",
        "AAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg"
            .repeat(20)
    );
    let v = json!({
        "responseId": "resp_68c1f0a2b3d4e5f60718293a4b5c6d7e",
        "output": [{ "id": "msg_0123456789abcdef0123456789abcdef", "callId": "call_AbCdEfGhIjKlMnOpQrStUvWx", "type": "function_call", "arguments": "{\"sha\": \"3f786850e387550fdab836ed7e6dc881de23001b\"}" }],
        "providerData": { "encrypted_content": "gAAAAABo" , "system_fingerprint": "fp_44709d6fcb" },
        "image": base64_png,
        "commit": "e83c5163316f89bfbde7d9ab23ca2e25604af290",
        "uuid": "9b2d7c1e-3f4a-4b5c-8d6e-7f8091a2b3c4",
        "url": "https://bucket.s3.amazonaws.com/a.png?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Date=20261204T000000Z&X-Amz-Expires=900",
        "usage": { "inputTokens": 120, "outputTokens": 30 }
    });
    assert_eq!(
        redacted(&r, v.clone()),
        v,
        "nothing in a realistic recording is taken for a credential"
    );
    assert_eq!(r.find_leak(&v, ""), None);
}

#[test]
fn the_pii_preset_redacts_emails_phones_and_cards() {
    let extra: Vec<String> = PII_PATTERNS.iter().map(|p| p.to_string()).collect();
    let r = Redaction::new(&[], &extra, RegexHost::shared()).unwrap();
    let v = redacted(
        &r,
        json!({
            "input": "Mail ada.l@example.co.uk or call +44 20 7946 0958 / (415) 555-0132; card 4111 1111 1111 1111, 4111-1111-1111-1111 or 4111111111111111."
        }),
    );
    assert_eq!(
        v["input"],
        "Mail [REDACTED] or call [REDACTED] / [REDACTED]; card [REDACTED], [REDACTED] or [REDACTED]."
    );
    // Ordinary numbers and dates stay.
    let text = "Order 12345 on 2026-12-01, 3 items at 19.99, id 550e8400";
    assert_eq!(redacted(&r, json!({ "input": text }))["input"], text);
}

#[test]
fn a_credential_split_across_stream_deltas_is_found_in_their_join() {
    let r = redaction();
    let key = format!("sk-proj-{}", "K1".repeat(20));
    let text = format!("Use {key} for staging; password=hunter2hunter2 ok");
    // Cut in pieces of 5 bytes, as a provider streams tokens.
    let cuts: Vec<String> = text
        .as_bytes()
        .chunks(5)
        .map(|c| String::from_utf8(c.to_vec()).unwrap())
        .collect();
    let mut events: Vec<Value> = vec![json!({ "type": "response_started" })];
    events.extend(
        cuts.iter()
            .map(|d| json!({ "type": "output_text_delta", "delta": d })),
    );
    // The same text as raw provider events of one item.
    events.extend(cuts.iter().map(|d| {
        json!({ "type": "model", "event": { "type": "response.output_text.delta", "item_id": "msg_1", "content_index": 0, "delta": d } })
    }));
    events.push(json!({ "type": "response_done", "response": { "id": "r", "output": [{ "type": "message", "content": [{ "type": "output_text", "text": text }] }] } }));
    let mut taken = Taken::default();
    let step = record_step(json!({}), true, Outcome::Events(events), &r, &mut taken);
    let saved = step.to_string();
    assert!(!saved.contains("K1K1K1"), "{saved}");
    assert!(!saved.contains("ter2hun"), "{saved}");
    let expected = "Use [REDACTED] for staging; password=[REDACTED] ok";
    let joined = |kind: &str| -> String {
        step["events"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|e| match kind {
                "text" => e["delta"].as_str(),
                _ => e["event"]["delta"].as_str(),
            })
            .collect()
    };
    assert_eq!(joined("text"), expected);
    assert_eq!(joined("model"), expected);
    assert_eq!(
        step["events"].as_array().unwrap().len(),
        cuts.len() * 2 + 2,
        "every delta is kept"
    );
    assert_eq!(r.find_leak(&step, ""), None);
    // Text without a credential keeps its pieces exactly.
    let mut a = "The bearer of ".to_owned();
    let mut b = "this letter".to_owned();
    r.apply_split(&mut [&mut a, &mut b], &mut Taken::default());
    assert_eq!((a.as_str(), b.as_str()), ("The bearer of ", "this letter"));
}
