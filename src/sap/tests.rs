//! One test per rule of sap-rules.md: input text, schema, expected value (and fixes).

use serde_json::{json, Value as Json};

use super::{parse_partial, parse_partial_atomic, parse_structured};

fn ok(text: &str, schema: Json) -> Json {
    let parsed = parse_structured(text, &schema)
        .unwrap_or_else(|e| panic!("{text:?}: {e} {:?}", e.candidates));
    agrees_with_fast_path(text, &schema);
    parsed.value
}

/// Numbers compared as the host's `JSON.parse` reads them (doubles, sign of zero included).
fn same_js(a: &Json, b: &Json) -> bool {
    match (a, b) {
        (Json::Number(x), Json::Number(y)) => {
            let (x, y) = (x.as_f64().unwrap(), y.as_f64().unwrap());
            x == y && x.is_sign_negative() == y.is_sign_negative()
        }
        (Json::Array(x), Json::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| same_js(a, b))
        }
        (Json::Object(x), Json::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .zip(y)
                    .all(|((k, a), (l, b))| k == l && same_js(a, b))
        }
        _ => a == b,
    }
}

/// When the fast path takes a reply as is, the full path returns that same value, fix-free.
fn agrees_with_fast_path(text: &str, schema: &Json) -> bool {
    if !super::as_is::conforms_as_is(text, schema) {
        return false;
    }
    let full = parse_structured(text, schema)
        .unwrap_or_else(|e| panic!("fast path took {text:?}, the full path refuses it: {e}"));
    assert!(
        full.fixes.is_empty(),
        "fast path took {text:?}, the full path fixes {:?}",
        full.fixes
    );
    let as_is: Json = serde_json::from_str(text).unwrap();
    assert!(
        same_js(&as_is, &full.value),
        "fast path took {text:?} as {as_is}, the full path reads {}",
        full.value
    );
    true
}

fn kinds(text: &str, schema: Json) -> Vec<&'static str> {
    parse_structured(text, &schema)
        .unwrap()
        .fixes
        .iter()
        .map(|f| f.kind.as_str())
        .collect()
}

fn err(text: &str, schema: Json) -> &'static str {
    match parse_structured(text, &schema) {
        Ok(p) => panic!("{text:?} parsed as {}", p.value),
        Err(e) => e.reason.as_str(),
    }
}

fn partial(text: &str, schema: &Json) -> Option<Json> {
    parse_partial(text, schema)
        .unwrap_or_else(|e| panic!("{text:?}: {e}"))
        .value
}

fn person() -> Json {
    json!({"type":"object","properties":{"name":{"type":"string"},"age":{"type":"integer"}},"required":["name","age"],"additionalProperties":false})
}

// Rule 1: finding the value.
#[test]
fn r1_whole_text_fence_and_prose() {
    assert_eq!(
        ok(r#"{"name":"Ada","age":36}"#, person()),
        json!({"name":"Ada","age":36})
    );
    assert_eq!(
        ok("```json\n{\"name\":\"Ada\",\"age\":36}\n```", person()),
        json!({"name":"Ada","age":36})
    );
    assert_eq!(
        ok("```\n{\"name\":\"Ada\",\"age\":36}", person()),
        json!({"name":"Ada","age":36})
    );
    assert_eq!(
        ok("```json\n{\"name\":\"a ``` b\",\"age\":1}\n```", person()),
        json!({"name":"a ``` b","age":1})
    );
    assert_eq!(
        ok(
            "Sure! Here it is: {\"name\":\"Ada\",\"age\":36} Hope that helps :)",
            person()
        ),
        json!({"name":"Ada","age":36})
    );
    assert_eq!(
        ok(
            "I think (see [1) that: <json>{\"name\":\"Ada\",\"age\":36}</json> don't you?",
            person()
        ),
        json!({"name":"Ada","age":36})
    );
    assert!(
        kinds("```json\n{\"name\":\"Ada\",\"age\":36}\n```", person()).contains(&"fence_stripped")
    );
    assert!(kinds("Here: {\"name\":\"Ada\",\"age\":36}", person()).contains(&"prose_skipped"));
}

// Rule 2: several candidates.
#[test]
fn r2_candidates_conforming_last_fenced_or_ambiguous() {
    assert_eq!(
        ok(
            "Example: {\"x\":1}. Answer: {\"name\":\"Ada\",\"age\":36}",
            person()
        ),
        json!({"name":"Ada","age":36})
    );
    let two_fenced = "Draft:\n```json\n{\"name\":\"A\",\"age\":1}\n```\nFinal:\n```json\n{\"name\":\"B\",\"age\":2}\n```";
    assert_eq!(ok(two_fenced, person()), json!({"name":"B","age":2}));
    assert_eq!(
        err(
            "{\"name\":\"A\",\"age\":1} or {\"name\":\"B\",\"age\":2}",
            person()
        ),
        "ambiguous"
    );
    assert_eq!(
        ok(
            "{\"name\":\"A\",\"age\":1} = {\"name\":\"A\",\"age\":1}",
            person()
        ),
        json!({"name":"A","age":1})
    );
}

// Rule 3: NDJSON-like values for an array schema.
#[test]
fn r3_top_level_values_collected_for_array_schema() {
    let schema = json!({"type":"array","items":person()});
    assert_eq!(
        ok(
            "{\"name\":\"A\",\"age\":1}\n{\"name\":\"B\",\"age\":2}",
            schema.clone()
        ),
        json!([{"name":"A","age":1},{"name":"B","age":2}])
    );
    assert_eq!(
        ok("[{\"name\":\"A\",\"age\":1}]", schema),
        json!([{"name":"A","age":1}])
    );
}

// Rule 4: syntax leniency.
#[test]
fn r4_syntax_leniency() {
    let any = json!({});
    assert_eq!(
        ok("{\"a\":1,\"b\":[1,2,],}", any.clone()),
        json!({"a":1,"b":[1,2]})
    );
    assert_eq!(
        ok(
            "{\n // note\n \"a\": 1, /* two */ \"b\": 2 # three\n}",
            any.clone()
        ),
        json!({"a":1,"b":2})
    );
    assert_eq!(
        ok("{'a': 'it\\'s', 'u': '\\u00e9'}", any.clone()),
        json!({"a":"it's","u":"é"})
    );
    assert_eq!(
        ok("{“a”: “curly”, \"b\": \"mixed”}", any.clone()),
        json!({"a":"curly","b":"mixed"})
    );
    assert_eq!(
        ok("{first-name: \"Ada\", $id: 1, status: active}", any.clone()),
        json!({"first-name":"Ada","$id":1,"status":"active"})
    );
    assert_eq!(
        ok("{\"a\": True, \"b\": False, \"c\": None}", any.clone()),
        json!({"a":true,"b":false,"c":null})
    );
    assert_eq!(
        ok("{\"doc\": \"\"\"line \"one\"\nline two\"\"\"}", any.clone()),
        json!({"doc":"line \"one\"\nline two"})
    );
    assert_eq!(ok("\u{FEFF}{\"a\":1}", any), json!({"a":1}));
    let fixes = kinds("{'a': True,}", json!({}));
    for k in ["single_quotes", "python_literal", "trailing_comma_removed"] {
        assert!(fixes.contains(&k), "{k} in {fixes:?}");
    }
}

// Rule 5: strings.
#[test]
fn r5_strings() {
    let any = json!({});
    assert_eq!(
        ok("{\"a\": \"line1\nline2\ttab\"}", any.clone()),
        json!({"a":"line1\nline2\ttab"})
    );
    assert_eq!(
        ok("{\"q\": \"He said \"hi\" to me\"}", any.clone()),
        json!({"q":"He said \"hi\" to me"})
    );
    assert_eq!(
        ok(r#"{"re": "\d+", "path": "C:\Users"}"#, any.clone()),
        json!({"re":"\\d+","path":"C:\\Users"})
    );
    assert_eq!(
        ok("{'name': 'O'Brien'}", any.clone()),
        json!({"name":"O'Brien"})
    );
    assert_eq!(ok("{\"s\": \"e\u{301}\"}", any), json!({"s":"e\u{301}"}));
}

// Rule 6: numbers and booleans.
#[test]
fn r6_scalar_coercions() {
    let num = json!({"type":"object","properties":{"n":{"type":"number"},"i":{"type":"integer"},"s":{"type":"string"},"b":{"type":"boolean"}}});
    assert_eq!(
        ok(
            r#"{"n":"$1,234.50","i":" -42 ","s":12345678901234567890,"b":"TRUE"}"#,
            num.clone()
        ),
        json!({"n":1234.5,"i":-42,"s":"12345678901234567890","b":true})
    );
    assert_eq!(ok(r#"{"i":3.0}"#, num.clone()), json!({"i":3}));
    assert_eq!(ok(r#"{"i":1e3}"#, num.clone()), json!({"i":1000}));
    assert_eq!(ok(r#"{"i":1.0e20}"#, num.clone()), json!({"i":1.0e20}));
    assert_eq!(ok(r#"{"b":"False"}"#, num.clone()), json!({"b":false}));
    assert_eq!(ok(r#"{"n":"1.5e3"}"#, num.clone()), json!({"n":1500}));
    assert_eq!(err(r#"{"i":"unknown"}"#, num.clone()), "type_mismatch");
    assert_eq!(err(r#"{"b":"maybe"}"#, num.clone()), "type_mismatch");
    assert_eq!(err(r#"{"i":2.5}"#, num), "type_mismatch");
}

// Rule 7: wrapping.
#[test]
fn r7_wrapping() {
    let tags = json!({"type":"object","properties":{"tags":{"type":"array","items":{"type":"string"}},"n":{"type":"integer"},"o":{"type":"object","properties":{"x":{"type":"integer"}}}}});
    assert_eq!(
        ok(r#"{"tags":"solo"}"#, tags.clone()),
        json!({"tags":["solo"]})
    );
    assert_eq!(ok(r#"{"n":[7]}"#, tags.clone()), json!({"n":7}));
    assert_eq!(ok(r#"{"o":[{"x":1}]}"#, tags.clone()), json!({"o":{"x":1}}));
    let single = json!({"type":"object","properties":{"items":{"type":"array","items":{"type":"integer"}}},"required":["items"]});
    assert_eq!(ok("[1,2,3]", single), json!({"items":[1,2,3]}));
    // The AI SDK's `Output.array` wrapper: one element is wrapped like two.
    let elements = json!({"type":"object","properties":{"elements":{"type":"array","items":{"type":"object","properties":{"x":{"type":"integer"}},"required":["x"],"additionalProperties":false}}},"required":["elements"],"additionalProperties":false});
    assert_eq!(
        ok(r#"[{"x":1}]"#, elements.clone()),
        json!({"elements":[{"x":1}]})
    );
    assert_eq!(
        ok(r#"[{"x":1},{"x":2}]"#, elements.clone()),
        json!({"elements":[{"x":1},{"x":2}]})
    );
    assert_eq!(
        kinds(r#"[{"x":1}]"#, elements.clone()),
        vec!["array_to_object"]
    );
    // A one-element array holding an object that fits exactly is that object.
    let list = json!({"type":"object","properties":{"tags":{"type":"array","items":{"type":"string"}}},"required":["tags"]});
    assert_eq!(
        ok(r#"[{"tags":["a"]}]"#, list.clone()),
        json!({"tags":["a"]})
    );
    assert_eq!(
        kinds(r#"[{"tags":["a"]}]"#, list.clone()),
        vec!["array_to_single"]
    );
    // When wrapping fails, the one element is unwrapped and coerced as before.
    let closed = json!({"type":"object","properties":{"tags":{"type":"array","items":{"type":"string"}}},"required":["tags"],"additionalProperties":false});
    assert_eq!(
        ok(r#"[{"tags":["a"],"extra":1}]"#, closed),
        json!({"tags":["a"]})
    );
    let s = json!({"type":"object","properties":{"s":{"type":"string"}}});
    assert_eq!(err(r#"{"s":["x"]}"#, s), "type_mismatch");
}

// Rule 8: enums.
#[test]
fn r8_enums() {
    let e = json!({"type":"object","properties":{"p":{"enum":["low","high","in_progress","GREEN"]},"n":{"enum":[1,2,3]}}});
    for (text, want) in [
        (r#"{"p":"HIGH"}"#, "high"),
        (r#"{"p":" low "}"#, "low"),
        (r#"{"p":"high."}"#, "high"),
        (r#"{"p":"IN_PROGRESS"}"#, "in_progress"),
        (r#"{"p":"green"}"#, "GREEN"),
    ] {
        assert_eq!(ok(text, e.clone()), json!({"p": want}), "{text}");
    }
    assert_eq!(ok(r#"{"n":"2"}"#, e.clone()), json!({"n":2}));
    assert_eq!(err(r#"{"p":"medium"}"#, e), "not_in_enum");
    let top = json!({"enum":["POSITIVE","NEGATIVE","NEUTRAL"]});
    assert_eq!(ok("Sentiment: NEGATIVE", top.clone()), json!("NEGATIVE"));
    assert_eq!(ok("**neutral**", top.clone()), json!("NEUTRAL"));
    assert_eq!(err("Positive or negative, hard to say", top), "ambiguous");
}

// Rule 9: unions.
#[test]
fn r9_unions() {
    let u = json!({"type":"object","properties":{"a":{"type":["integer","string"]},"b":{"anyOf":[{"type":"boolean"},{"type":"string"}]},"c":{"anyOf":[{"type":"array","items":{"type":"string"}},{"type":"string"}]},"d":{"type":["integer","null"]}}});
    assert_eq!(
        ok(r#"{"a":"5","b":"true","c":"x","d":"7"}"#, u),
        json!({"a":"5","b":"true","c":"x","d":7})
    );
    let tagged = json!({"anyOf":[
        {"type":"object","properties":{"kind":{"const":"circle"},"r":{"type":"number"}},"required":["kind","r"]},
        {"type":"object","properties":{"kind":{"const":"rect"},"w":{"type":"number"}},"required":["kind","w"]}]});
    assert_eq!(
        ok(r#"{"kind":"rect","w":"2"}"#, tagged),
        json!({"kind":"rect","w":2})
    );
}

// Rule 10: objects.
#[test]
fn r10_objects() {
    let s = json!({"type":"object","properties":{
        "req":{"type":"string"},"opt":{"type":"string"},"nullable_req":{"type":["string","null"]}},
        "required":["req","nullable_req"],"additionalProperties":false});
    assert_eq!(
        ok(r#"{"req":"x","extra":1,"opt":null}"#, s.clone()),
        json!({"req":"x","nullable_req":null})
    );
    let k = kinds(r#"{"req":"x","extra":1,"opt":null}"#, s.clone());
    for want in ["extra_key_dropped", "null_dropped", "null_filled"] {
        assert!(k.contains(&want), "{want} in {k:?}");
    }
    assert_eq!(
        err(r#"{"opt":"y","nullable_req":null}"#, s.clone()),
        "missing_required"
    );
    assert_eq!(
        err(r#"{"req":null,"nullable_req":null}"#, s),
        "type_mismatch"
    );
    let open =
        json!({"type":"object","properties":{"a":{"type":"integer"}},"additionalProperties":true});
    assert_eq!(ok(r#"{"a":1,"b":"kept"}"#, open), json!({"a":1,"b":"kept"}));
    let typed = json!({"type":"object","additionalProperties":{"type":"integer"}});
    assert_eq!(ok(r#"{"a":"1","b":2}"#, typed), json!({"a":1,"b":2}));
}

// Rule 11: errors.
#[test]
fn r11_errors() {
    assert_eq!(
        err("I'm sorry, I can't help with that.", person()),
        "no_json"
    );
    assert_eq!(err("   ", person()), "no_json");
    assert_eq!(err("null", person()), "type_mismatch");
    assert_eq!(
        err("The answer is 4 or 5", json!({"type":"integer"})),
        "ambiguous"
    );
}

// A boolean, integer or number stated in prose: one value, however often it is
// written, is read; two different values are ambiguous; words that are not values are not.
#[test]
fn scalars_in_prose() {
    let boolean = json!({"type":"boolean"});
    let integer = json!({"type":"integer"});
    let number = json!({"type":"number"});
    for (text, schema, value) in [
        (
            "After checking the logs, the answer is: true",
            &boolean,
            json!(true),
        ),
        ("**False** - the build is green.", &boolean, json!(false)),
        ("The total count is 17.", &integer, json!(17)),
        ("I count 17 tickets; yes, 17.", &integer, json!(17)),
        ("Roughly -2.5 degrees, I think", &number, json!(-2.5)),
        ("Total: $1,234.50 after tax", &number, json!(1234.5)),
        ("It takes .5 seconds", &number, json!(0.5)),
        // a date or a version is not a number, 3.5 is not an integer
        (
            "Since 2024-01-02 (v2) there were 3 outages, at 3.5 hours each",
            &integer,
            json!(3),
        ),
    ] {
        assert_eq!(ok(text, schema.clone()), value, "{text}");
        assert_eq!(kinds(text, schema.clone()), ["scalar_from_prose"], "{text}");
    }
    assert_eq!(
        err("It is true for a, false for b.", boolean.clone()),
        "ambiguous"
    );
    assert_eq!(
        err("Between 3 and 4 tickets.", integer.clone()),
        "ambiguous"
    );
    assert_eq!(err("No idea, sorry.", integer.clone()), "no_json");
    assert_eq!(err("maybe", boolean), "no_json");
    // the numbers inside a JSON candidate are not prose
    assert_eq!(
        err(r#"Here: {"count": 5}"#, integer.clone()),
        "type_mismatch"
    );
    // a string schema is not read this way (the whole text is the string)
    assert_eq!(
        ok("The count is 17.", json!({"type":"string"})),
        json!("The count is 17.")
    );
}

// Numbers with a decimal point and digits on one side only.
#[test]
fn numbers_with_a_bare_decimal_point() {
    let s = json!({"type":"object","properties":{"a":{"type":"number"},"b":{"type":"number"},"c":{"type":"number"},"d":{"type":"integer"}}});
    assert_eq!(
        ok("{a: .5, b: -.25, c: 5., d: 3.}", s.clone()),
        json!({"a":0.5,"b":-0.25,"c":5,"d":3})
    );
    let fixes = parse_structured("{\"a\": .5}", &s).unwrap().fixes;
    assert_eq!(
        (fixes[0].kind.as_str(), fixes[0].pointer.as_str()),
        ("number_repaired", "/a")
    );
    assert_eq!(
        ok(
            "[.5e1, +.5]",
            json!({"type":"array","items":{"type":"number"}})
        ),
        json!([5, 0.5])
    );
    // as a string, it keeps the text as written
    assert_eq!(
        ok(
            r#"{"v": .5}"#,
            json!({"type":"object","properties":{"v":{"type":"string"}}})
        ),
        json!({"v":".5"})
    );
    // a lone point or sign is no number
    assert_eq!(
        ok(
            r#"{"v": .}"#,
            json!({"type":"object","properties":{"v":{"type":"string"}}})
        ),
        json!({"v":"."})
    );
    assert!(!super::scan::is_number("."));
    assert!(!super::scan::is_number("-."));
    assert!(!super::scan::is_number(".e5"));
    // cut right after the point: more digits may follow (rule 16)
    assert_eq!(partial(r#"{"a": 1, "b": 5."#, &s), Some(json!({"a":1})));
}

// A comment right after a string's closing quote ends the string.
#[test]
fn comments_after_a_closing_quote() {
    let s =
        json!({"type":"object","properties":{"region":{"type":"string"},"zone":{"type":"string"}}});
    assert_eq!(
        ok(
            "{\"region\": \"eu-west\" /* default */, \"zone\": \"b\" // the second\n}",
            s.clone()
        ),
        json!({"region":"eu-west","zone":"b"})
    );
    assert_eq!(
        ok("{\"region\": \"eu-west\"/* default */}", s.clone()),
        json!({"region":"eu-west"})
    );
    assert!(kinds("{\"region\": \"eu\" /* x */}", s.clone()).contains(&"comment_removed"));
    // a quote followed by other text is still content, and slashes inside strings are text
    assert_eq!(
        ok(r#"{"region": "say "hi" /now/ please"}"#, s.clone()),
        json!({"region":"say \"hi\" /now/ please"})
    );
    assert_eq!(ok(r#"{"region": "a // b"}"#, s), json!({"region":"a // b"}));
}

// Rules 12-18: truncation.
#[test]
fn r12_to_r18_truncation() {
    let any = json!({});
    assert_eq!(partial("[{", &any), Some(json!([{}])));
    assert_eq!(partial("{\"order\": {", &any), Some(json!({"order":{}})));
    assert_eq!(
        partial("{\"a\": 1, \"b\": [1, 2", &any),
        Some(json!({"a":1,"b":[1]}))
    );
    assert_eq!(partial("{\"a\": \"hel", &any), Some(json!({"a":"hel"})));
    assert_eq!(
        partial("{\"a\": \"hello  ", &any),
        Some(json!({"a":"hello  "}))
    );
    assert_eq!(partial("{\"a\": \"", &any), Some(json!({"a":""})));
    assert_eq!(partial("{\"a\": \"x\\", &any), Some(json!({"a":"x"})));
    assert_eq!(partial("{\"a\": \"x\\u00", &any), Some(json!({"a":"x"})));
    let status = json!({"type":"object","properties":{"status":{"enum":["pending","done"]},"note":{"type":"string"}},"required":["status","note"]});
    assert_eq!(
        partial("{\"note\": \"ok\", \"status\": \"pend", &status),
        Some(json!({"note":"ok"}))
    );
    assert_eq!(partial("{\"a\": 1, \"b", &any), Some(json!({"a":1})));
    assert_eq!(partial("{\"a\": 1, \"b\":", &any), Some(json!({"a":1})));
    assert_eq!(partial("{\"pages\": 12", &any), Some(json!({})));
    assert_eq!(partial("{\"pages\": 12,", &any), Some(json!({"pages":12})));
    assert_eq!(partial("{\"pages\": 12\n", &any), Some(json!({"pages":12})));
    assert_eq!(partial("{\"ok\": tr", &any), Some(json!({})));
    assert_eq!(partial("{\"ok\": Non", &any), Some(json!({})));
    assert_eq!(partial("{\"ok\": true", &any), Some(json!({"ok":true})));
    // Rule 17: exempt from required while the cut holds it open; normal once closed.
    assert_eq!(
        partial("{\"name\": \"Ada\"", &person()),
        Some(json!({"name":"Ada"}))
    );
    assert!(parse_partial("{\"name\": \"Ada\"}", &person()).is_err());
    // Rule 18: a cut after the value ended gives the full value.
    let done = parse_partial("```json\n{\"name\":\"Ada\",\"age\":3}\n``", &person()).unwrap();
    assert_eq!(
        (done.value, done.complete),
        (Some(json!({"name":"Ada","age":3})), true)
    );
    assert_eq!(partial("Sure, here", &person()), None);
}

/// A partial value says where its candidate starts, so a stream can tell a new candidate (a
/// "Draft" block, then the "Final" one) from the one it showed.
#[test]
fn a_partial_value_says_where_its_candidate_starts() {
    let schema = json!({"type": "object", "properties": {"title": {"type": "string"}}});
    let text = "Draft:\n```json\n{\"title\":\"Draft\"}\n```\nFinal:\n```json\n{\"title\":\"Fix login\"}\n```";
    let draft = text.find('{').unwrap();
    let last = text.rfind('{').unwrap();
    let at = |end: usize| parse_partial(&text[..end], &schema).unwrap();
    let early = at(draft + 13);
    assert_eq!(
        (early.value, early.start),
        (Some(json!({"title": "Dra"})), Some(draft))
    );
    // While the final block is written after a complete draft, nothing is shown.
    let writing = at(last + 12);
    assert_eq!((writing.value, writing.start), (None, None));
    let whole = at(text.len());
    assert_eq!(
        (whole.value, whole.start),
        (Some(json!({"title": "Fix login"})), Some(last))
    );
    // The start is not part of the public answer's fields but is in its JSON for the facade.
    let json = serde_json::to_value(at(draft + 13)).unwrap();
    assert_eq!(json["candidateStart"], json!(draft));
    assert!(serde_json::to_value(at(0))
        .unwrap()
        .get("candidateStart")
        .is_none());
}

#[test]
fn bounded_on_hostile_input() {
    use std::time::Instant;
    let cases = [
        "word ".repeat(200_000),
        "\"".repeat(100_000),
        "[".repeat(10_000),
        "\\".repeat(1_000_000),
        "{".repeat(10_000) + &"}".repeat(10_000),
        // Each fenced block is skipped once by the search in the prose (it was quadratic).
        "```\n{\"a\": 1}\n```\n".repeat(20_000),
    ];
    for text in &cases {
        let started = Instant::now();
        let _ = parse_structured(text, &json!({"type":"object"}));
        let _ = parse_partial(text, &json!({}));
        // Generous for debug builds; the release figures are in the README.
        assert!(
            started.elapsed().as_secs_f64() < 5.0,
            "{} bytes took {:?}",
            text.len(),
            started.elapsed()
        );
    }
}

/// Every prefix of a valid reply: `parse_partial` never fails, and what it reports never
/// contradicts the final parse (finished scalars equal, strings are prefixes, no key or
/// element the final value lacks). `parse_partial` is a function of the text alone, so the
/// result cannot depend on how the text was chunked.
#[test]
fn partial_prefixes_never_contradict_the_final_value() {
    fn consistent(part: &Json, full: &Json) -> bool {
        match (part, full) {
            (Json::String(p), Json::String(f)) => f.starts_with(p.as_str()),
            (Json::Array(p), Json::Array(f)) => {
                p.len() <= f.len() && p.iter().zip(f).all(|(a, b)| consistent(a, b))
            }
            (Json::Object(p), Json::Object(f)) => p
                .iter()
                .all(|(k, v)| f.get(k).is_some_and(|w| consistent(v, w))),
            (p, f) => p == f,
        }
    }
    let order = json!({"type":"object","properties":{
        "id":{"type":"string"},"qty":{"type":"integer"},"price":{"type":"number"},"gift":{"type":"boolean"},
        "status":{"enum":["pending","shipped"]},"tags":{"type":"array","items":{"type":"string"}},
        "note":{"type":["string","null"]},"lines":{"type":"array","items":{"type":"object","properties":{"sku":{"type":"string"},"n":{"type":"integer"}},"required":["sku","n"]}}},
        "required":["id","qty"]});
    let replies = [
        r#"{"id": "A-17", "qty": 12, "price": 3.25, "gift": true, "status": "shipped", "tags": ["a", "b c"], "note": null, "lines": [{"sku": "x1", "n": 2}, {"sku": "y", "n": 10}]}"#,
        "Here you go:\n```json\n{\n  \"id\": \"B\\\"2\\u00e9\",\n  \"qty\": 1,\n  \"tags\": [],\n  \"status\": \"pending\"\n}\n```\nAnything else?",
        "{id: 'C-3', qty: '7', gift: False, note: None, tags: 'solo',}",
        "{\"id\": \"multi\nline\", \"qty\": 1e2, \"lines\": [{\"sku\": \"z\", \"n\": 3,},]}",
    ];
    for reply in replies {
        let full = parse_structured(reply, &order)
            .unwrap_or_else(|e| panic!("{reply}: {e}"))
            .value;
        let ends: Vec<usize> = reply
            .char_indices()
            .map(|(i, _)| i)
            .chain([reply.len()])
            .collect();
        for &cut in &ends {
            let prefix = &reply[..cut];
            let got =
                parse_partial(prefix, &order).unwrap_or_else(|e| panic!("prefix {prefix:?}: {e}"));
            if let Some(value) = &got.value {
                assert!(
                    consistent(value, &full),
                    "prefix {prefix:?} gave {value}, final {full}"
                );
            }
        }
        let last = parse_partial(reply, &order).unwrap();
        assert_eq!(last.value.as_ref(), Some(&full), "{reply}");
    }
}

// Options of parseStructured (the project's own rule, HACKING.md): refusing truncated replies
// and restricting the repairs accepted.
#[test]
fn options_refuse_truncated_replies() {
    use super::{parse_structured_with, Options};
    let refuse = Options {
        refuse_truncated: true,
        ..Options::default()
    };
    let cut = r#"{"name":"Ada","age":36"#;
    assert_eq!(
        ok(cut, person()),
        json!({"name":"Ada","age":36}),
        "closed by default"
    );
    let e = parse_structured_with(cut, &person(), &refuse).unwrap_err();
    assert_eq!(e.reason, "partial");
    assert!(e.candidates[0]
        .message
        .contains("truncated replies are refused"));
    // A complete value elsewhere in the text still wins.
    let text = "```json\n{\"name\":\"Ada\",\"age\":36}\n```\nand later {\"name\":\"Bo";
    assert_eq!(
        parse_structured_with(text, &person(), &refuse)
            .unwrap()
            .value,
        json!({"name":"Ada","age":36})
    );
}

#[test]
fn options_restrict_the_repairs_accepted() {
    use super::{parse_structured_with, Options};
    let only_fences = Options {
        allow_fixes: Some(vec!["fence_stripped".into()]),
        ..Options::default()
    };
    let fenced = "```json\n{\"name\":\"Ada\",\"age\":36}\n```";
    assert_eq!(
        parse_structured_with(fenced, &person(), &only_fences)
            .unwrap()
            .value,
        json!({"name":"Ada","age":36})
    );
    let coerced = "```json\n{\"name\":\"Ada\",\"age\":\"36\"}\n```";
    let e = parse_structured_with(coerced, &person(), &only_fences).unwrap_err();
    assert_eq!(e.reason, "fix_not_allowed");
    assert_eq!(e.candidates[0].pointer, "/age");
    assert!(e.message.contains("`string_to_number`"), "{}", e.message);
    // None: every repair refused, a clean reply still parses.
    let none = Options {
        allow_fixes: Some(Vec::new()),
        ..Options::default()
    };
    assert!(parse_structured_with(r#"{"name":"Ada","age":36}"#, &person(), &none).is_ok());
    // Results made outside the candidate loop (text as a string) are checked too.
    let e = parse_structured_with("just words", &json!({"type":"string"}), &none).unwrap_err();
    assert_eq!(e.reason, "fix_not_allowed");
}

#[test]
fn the_fast_path_agrees_with_the_full_path() {
    let nullable = json!({"type":"object","properties":{"a":{"type":["string","null"]},"b":{"anyOf":[{"type":"integer"},{"type":"null"}]}},"required":["a"]});
    let closed =
        json!({"type":"object","properties":{"a":{"type":"integer"}},"additionalProperties":false});
    let open_schema = json!({"type":"object","properties":{"a":{"type":"integer"}},"additionalProperties":{"type":"string"}});
    let enums = json!({"type":"object","properties":{"p":{"enum":["low","high",3,2.5,null]},"c":{"const":{"k":[1]}}}});
    let tree = json!({"$defs":{"n":{"type":"object","properties":{"v":{"type":"number"},"kids":{"type":"array","items":{"$ref":"#/$defs/n"}}},"required":["v"]}},"$ref":"#/$defs/n"});
    let tuple = json!({"type":"array","items":[{"type":"string"},{"type":"boolean"}]});
    let types = json!({"type":"array","items":{"type":["integer","string","object","array"],"properties":{"x":{"type":"string"}},"items":{"type":"integer"}}});
    let string = json!({"type":"string"});
    let object = json!({"type":"object"});
    // (text, schema, whether the fast path should take it)
    let cases: Vec<(&str, &Json, bool)> = vec![
        (r#"{"a":"x","b":3}"#, &nullable, true),
        (r#"{"a":null,"b":null}"#, &nullable, true),
        ("  {\"a\":\"x\"}\n", &nullable, true),
        (r#"{"b":3}"#, &nullable, false),
        (r#"{"a":"x","b":"3"}"#, &nullable, false),
        (r#"{"a":1}"#, &closed, true),
        (r#"{"a":1.0}"#, &closed, true),
        (r#"{"a":1e3}"#, &closed, true),
        (r#"{"a":-0}"#, &closed, true),
        (r#"{"a":-0.0}"#, &closed, true),
        (r#"{"a":1.5}"#, &closed, false),
        (r#"{"a":1,"z":2}"#, &closed, false),
        (r#"{"a":null}"#, &closed, false),
        (r#"{"a":1,"z":"s"}"#, &open_schema, true),
        (r#"{"a":1,"z":2}"#, &open_schema, false),
        (r#"{"p":"low","c":{"k":[1]}}"#, &enums, true),
        (r#"{"p":3}"#, &enums, true),
        (r#"{"p":3.0}"#, &enums, true),
        (r#"{"p":2.5}"#, &enums, true),
        (r#"{"p":null}"#, &enums, true),
        (r#"{"p":"LOW"}"#, &enums, false),
        (r#"{"c":{"k":[1.0]}}"#, &enums, true),
        (
            r#"{"v":1,"kids":[{"v":2,"kids":[]},{"v":3.5}]}"#,
            &tree,
            true,
        ),
        (r#"{"v":1,"kids":[{"kids":[]}]}"#, &tree, false),
        (r#"["a",true]"#, &tuple, true),
        (r#"["a",true,{"extra":1}]"#, &tuple, true),
        (r#"["a","true"]"#, &tuple, false),
        (r#"[1,"s",{"x":"y"},[2,3]]"#, &types, true),
        (r#"[1.5]"#, &types, false),
        (r#"[{"x":1}]"#, &types, false),
        (r#"[[1.5]]"#, &types, false),
        (r#"{"a":"x"} trailing prose"#, &nullable, false),
        ("```json\n{\"a\":\"x\"}\n```", &nullable, false),
        (r#"{"a":"a ``` b"}"#, &nullable, false),
        (r#"{"a":"x",}"#, &nullable, false),
        ("\u{feff}{\"a\":\"x\"}", &nullable, false),
        (r#"{"a":"x","a":"y"}"#, &nullable, true),
        (r#""just a string""#, &string, false),
        (r#"{"__proto__":{"a":1}}"#, &object, true),
    ];
    for (text, schema, expect) in cases {
        assert_eq!(agrees_with_fast_path(text, schema), expect, "{text:?}");
    }
    assert!(agrees_with_fast_path(
        &format!("{}1{}", "[".repeat(100), "]".repeat(100)),
        &json!({})
    ));
    assert!(
        !agrees_with_fast_path(
            &format!("{}1{}", "[".repeat(200), "]".repeat(200)),
            &json!({})
        ),
        "deep nesting takes the full path"
    );
}

fn ticket() -> Json {
    json!({
        "type": "object",
        "properties": {
            "priority": {"enum": ["LOW", "HIGH"]},
            "title": {"type": "string"},
            "tags": {"type": "array", "items": {"type": "string"}}
        },
        "required": ["priority", "title"]
    })
}

fn atomic(text: &str, pointers: &[&str]) -> Option<Json> {
    let pointers: Vec<String> = pointers.iter().map(|p| p.to_string()).collect();
    parse_partial_atomic(text, &ticket(), &pointers)
        .unwrap()
        .value
}

#[test]
fn atomic_fields_are_withheld_while_they_are_being_written() {
    // Without the option an unfinished string shows as received.
    assert_eq!(
        partial(r#"{"title": "Fix lo"#, &ticket()),
        Some(json!({"title": "Fix lo"}))
    );
    assert_eq!(atomic(r#"{"title": "Fix lo"#, &["/title"]), Some(json!({})));
    // Shown once the text has moved on to the next entry, and unchanged after.
    assert_eq!(
        atomic(r#"{"title": "Fix login", "tags": ["a"#, &["/title"]),
        Some(json!({"title": "Fix login", "tags": ["a"]}))
    );
    // `*` matches any index: the element being written is withheld, finished ones stay.
    assert_eq!(
        atomic(r#"{"tags": ["ui", "bac"#, &["/tags/*"]),
        Some(json!({"tags": ["ui"]}))
    );
    // A field that is not atomic is unaffected; a complete value shows everything.
    assert_eq!(
        atomic(r#"{"priority": "HIGH", "title": "F"#, &["/priority"]),
        Some(json!({"priority": "HIGH", "title": "F"}))
    );
    assert_eq!(
        atomic(r#"{"priority": "HIGH", "title": "F"}"#, &["/title"]),
        Some(json!({"priority": "HIGH", "title": "F"}))
    );
    // The root atomic: nothing until complete.
    assert_eq!(atomic(r#"{"title": "F"#, &[""]), None);
    // Pointer escapes.
    let schema = json!({"type": "object", "properties": {"a/b": {"type": "string"}}});
    let got = parse_partial_atomic(r#"{"a/b": "x"#, &schema, &["/a~1b".to_string()]).unwrap();
    assert_eq!(got.value, Some(json!({})));
}

#[test]
fn syntax_fix_pointers_name_keys_and_indexes_escaped() {
    // The scanner's pointer follows keys (`~` and `/` escaped) and array indexes, and returns
    // to the container's own pointer after each member.
    let text = r#"{"a/b": [1, {"c~d": 'x', "e": [2,],},], "f": 'y'}"#;
    let parsed = parse_structured(text, &json!({})).unwrap();
    let fixes: Vec<(&str, &str)> = parsed
        .fixes
        .iter()
        .map(|f| (f.kind.as_str(), f.pointer.as_str()))
        .collect();
    assert_eq!(
        fixes,
        [
            ("single_quotes", "/a~1b/1/c~0d"),
            ("trailing_comma_removed", "/a~1b/1/e"),
            ("trailing_comma_removed", "/a~1b/1"),
            ("trailing_comma_removed", "/a~1b"),
            ("single_quotes", "/f"),
        ]
    );
}

#[test]
fn a_fenced_string_ends_at_its_closing_quote() {
    // The closing fence after a string's closing quote is structure, not content.
    for text in [
        "```\n\"AB\"\n```",
        "```json\n\"AB\"\n```",
        "Here:\n```json\n\"AB\"```",
    ] {
        let parsed = parse_structured(text, &json!({"type": "string"})).unwrap();
        assert_eq!(parsed.value, json!("AB"), "{text:?}");
        let kinds: Vec<&str> = parsed.fixes.iter().map(|f| f.kind.as_str()).collect();
        assert!(
            kinds
                .iter()
                .all(|k| matches!(*k, "fence_stripped" | "prose_skipped")),
            "{text:?}: {kinds:?}"
        );
    }
    // Inside a container a quote before fence characters is still content.
    assert_eq!(
        ok(r#"{"a": "say "```" please"}"#, json!({})),
        json!({"a": "say \"```\" please"})
    );
}

/// Strings are read in place until an escape is decoded; from then on every character kept as
/// written (an invalid escape's backslash, an inner quote, a raw control character, a curly
/// quote, non-ASCII) must still reach the copy, and a cut after a decoded escape keeps the text
/// before it.
#[test]
fn characters_after_a_decoded_escape_are_kept() {
    let any = json!({});
    assert_eq!(
        ok(
            "{\"a\": \"x\\ny \\d \"q\" \u{e9}\ttab \u{2019}s\", \"k\\u0041y\": \"\\u00e9t\u{e9}\"}",
            any.clone()
        ),
        json!({"a": "x\ny \\d \"q\" \u{e9}\ttab \u{2019}s", "kAy": "\u{e9}t\u{e9}"})
    );
    assert_eq!(
        ok("{'k': 'it\\'s O'Brien'}", any.clone()),
        json!({"k": "it's O'Brien"})
    );
    assert_eq!(
        ok("\"\"\"a\\nb\"\"\"", json!({"type": "string"})),
        json!("a\\nb")
    );
    assert_eq!(
        partial("{\"a\": \"x\\ty\\", &any),
        Some(json!({"a": "x\ty"}))
    );
    assert_eq!(
        partial("{\"a\": \"x\\ty\\u00", &any),
        Some(json!({"a": "x\ty"}))
    );
}

/// The answer text the bindings send writes the value without building a `serde_json::Value`;
/// it must be the JSON text of the value `parse_structured` returns: key order, a key given
/// twice (first place, last value), objects past the list threshold, escapes, numbers, enum
/// values, values read without a schema.
#[test]
fn the_answer_text_writes_the_parsed_value() {
    use super::{parse_structured_reading, Options};
    let many: String = (0..40)
        .map(|i| format!("\"k{}\": {i}", i % 37))
        .collect::<Vec<_>>()
        .join(", ");
    let cases = [
        ("```json\n{\"b\": 1, \"a\": \"x\\\"y\\u00e9\\n\", \"b\": 2,}\n```", json!({"type": "object"})),
        ("{\"b\": 1, \"a\": [true, {\"c\": null}], \"b\": 2}", json!({})),
        (
            "{\"id\": \"A-1\", \"qty\": \"3\", \"tags\": \"x\", \"kind\": \"BUG\", \"extra\": {\"z\": [1, 2.5, null, true]}}",
            json!({"type": "object", "properties": {"id": {"type": "string"}, "qty": {"type": "integer"}, "tags": {"type": "array", "items": {"type": "string"}}, "kind": {"enum": ["bug", "feature"]}}}),
        ),
        (&*format!("{{{many}, \"k1\": \"last\"}}"), json!({"type": "object", "additionalProperties": {"type": ["integer", "string"]}})),
        ("[{'a': 1}, {'a': '2'}]", json!({"type": "array", "items": {"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": ["string", "null"]}}, "required": ["a", "b"]}})),
        ("The answer is 42.", json!({"type": "integer"})),
        ("plain words", json!({"type": "string"})),
    ];
    for (text, schema) in cases {
        let expected = parse_structured(text, &schema).unwrap_or_else(|e| panic!("{text:?}: {e}"));
        let answer = parse_structured_reading(text, &schema, &Options::default())
            .unwrap()
            .into_answer_text();
        let value_text = answer.rsplit('\0').next().unwrap();
        assert_eq!(
            value_text,
            serde_json::to_string(&expected.value).unwrap(),
            "{text:?}"
        );
        let kinds: Vec<&str> = answer.split('\0').skip(1).step_by(3).collect();
        let expected_kinds: Vec<&str> = expected.fixes.iter().map(|f| f.kind.as_str()).collect();
        assert_eq!(kinds[..kinds.len() - 1], expected_kinds[..], "{text:?}");
    }
}

// --- recovery (rules 19-22) ------------------------------------------------------------------

#[test]
fn rule_19_numbers_with_thousands_separators_are_numbers_and_no_element_is_lost() {
    let amounts = json!({"type":"array","items":{"type":"object","properties":{"amount":{"type":"number"}},"required":["amount"]}});
    let text = r#"[{"amount": -2,000.00}, {"amount": 15.50}, {"amount": 1,250}]"#;
    assert_eq!(
        ok(text, amounts.clone()),
        json!([{"amount": -2000}, {"amount": 15.5}, {"amount": 1250}])
    );
    let fixes = parse_structured(text, &amounts).unwrap().fixes;
    let at: Vec<(&str, &str)> = fixes
        .iter()
        .map(|f| (f.kind.as_str(), f.pointer.as_str()))
        .collect();
    assert!(at.contains(&("number_repaired", "/0/amount")), "{at:?}");
    assert!(at.contains(&("number_repaired", "/2/amount")), "{at:?}");
    // Several groups, a currency sign; as a string field the text stays as written.
    let obj = json!({"type":"object","properties":{"n":{"type":"number"},"s":{"type":"string"}}});
    assert_eq!(
        ok(r#"{"n": $1,234,567.5, "s": 12,000}"#, obj.clone()),
        json!({"n": 1234567.5, "s": "12,000"})
    );
    // Where `,ddd` can be the next value (an array) or a key, it is not joined.
    assert_eq!(
        ok(
            "[1,250]",
            json!({"type":"array","items":{"type":"integer"}})
        ),
        json!([1, 250])
    );
    assert_eq!(
        ok(r#"{"n": 1,234: 5}"#, json!({"type":"object"})),
        json!({"n": 1, "234": 5}),
        "a key `234` is not a group"
    );
    // Four digits after the comma are not a group; a group at the cut may go on.
    assert!(parse_structured(r#"{"n": 1,2345}"#, &json!({"type":"object"})).is_err());
    assert_eq!(
        super::parse_partial(r#"{"n": 1,250"#, &json!({"type":"object"}))
            .unwrap()
            .value,
        Some(json!({"n": 1}))
    );
}

#[test]
fn rule_20_a_damaged_token_spoils_only_its_own_value() {
    let list = json!({"type":"array","items":{"type":"string"}});
    assert_eq!(ok("['a', 'it's here']", list), json!(["a", "it's here"]));
    let keyed = json!({"type":"object","properties":{"Some key":{"type":"string"},"other":{"type":"integer"}},"required":["Some key","other"]});
    assert_eq!(
        ok(r#"{Some key: "v", other: 1}"#, keyed),
        json!({"Some key": "v", "other": 1})
    );
    let status = json!({"type":"object","properties":{"status":{"type":"string"},"n":{"type":"integer"}},"required":["status","n"]});
    assert_eq!(
        ok("{status: in progress, n: 2}", status.clone()),
        json!({"status": "in progress", "n": 2})
    );
    assert_eq!(
        ok("{status: in progress\n, n: 2 }", status.clone()),
        json!({"status": "in progress", "n": 2})
    );
    let fix = parse_structured("{status: in progress, n: 2}", &status)
        .unwrap()
        .fixes
        .into_iter()
        .find(|f| f.kind == "unquoted_value")
        .unwrap();
    assert_eq!(
        (fix.pointer.as_str(), &*fix.detail),
        ("/status", "in progress")
    );
    // In an array too; a single word and literals are read as before.
    assert_eq!(
        ok("[in progress, done, true]", json!({"type":"array"})),
        json!(["in progress", "done", true])
    );
}

#[test]
fn rule_21_const_is_a_one_value_enum_everywhere() {
    for schema in [
        json!({"const":"TWO"}),
        json!({"type":"string","const":"TWO"}),
    ] {
        assert_eq!(ok("Two", schema.clone()), json!("TWO"), "{schema}");
        assert_eq!(ok("The answer is TWO", schema.clone()), json!("TWO"));
        assert_eq!(ok("\"two\"", schema.clone()), json!("TWO"));
        assert_eq!(ok("**two.**", schema.clone()), json!("TWO"));
        assert!(parse_structured("The answer is THREE", &schema).is_err());
    }
    // A union that refers to itself ends in an error, not a stack overflow.
    let looping = json!({"anyOf":[{"$ref":"#"},{"const":"x"}]});
    assert!(parse_structured("some prose", &looping).is_err());
    let union = json!({"anyOf":[{"const":"yes"},{"const":"no"}]});
    assert_eq!(ok("I would say No.", union.clone()), json!("no"));
    assert_eq!(
        parse_structured("yes and no", &union).unwrap_err().reason,
        "ambiguous"
    );
}

#[test]
fn rule_22_unions_admitting_a_string_take_bare_text_and_prose_scalars_are_wrapped() {
    for schema in [
        json!({"type":["string","null"]}),
        json!({"anyOf":[{"type":"string"},{"type":"integer"}]}),
        json!({"oneOf":[{"type":"null"},{"type":"string"}]}),
    ] {
        assert_eq!(
            ok("hello there", schema.clone()),
            json!("hello there"),
            "{schema}"
        );
    }
    // Another branch that reads the text still wins.
    assert_eq!(
        ok(
            "42",
            json!({"anyOf":[{"type":"string"},{"type":"integer"}]})
        ),
        json!(42)
    );
    assert!(parse_structured("hello", &json!({"type":["integer","null"]})).is_err());
    let bools = json!({"type":"array","items":{"type":"boolean"}});
    assert_eq!(ok("The answer is true", bools.clone()), json!([true]));
    assert!(parse_structured("The answer is true", &bools)
        .unwrap()
        .fixes
        .iter()
        .any(|f| f.kind == "single_to_array"));
    assert_eq!(
        ok(
            "I count 17 of them.",
            json!({"type":"array","items":{"type":"integer"}})
        ),
        json!([17])
    );
    assert_eq!(
        ok(
            "Mostly red.",
            json!({"type":"array","items":{"enum":["red","green"]}})
        ),
        json!(["red"])
    );
}

// An object of one required property takes a bare value of that property (the AI SDK's
// `Output.choice`, `{ result: enum }`; a peer parser's `1214` → `{"foo": 1214}`).
#[test]
fn rule_23_a_bare_value_is_the_one_required_property() {
    let choice = json!({"type":"object","properties":{"result":{"type":"string","enum":["sunny","rainy","snowy"]}},"required":["result"],"additionalProperties":false});
    for (text, want) in [
        ("rainy", "rainy"),
        ("\"snowy\"", "snowy"),
        ("The weather will most likely be rainy.", "rainy"),
        ("RAINY", "rainy"),
    ] {
        assert_eq!(ok(text, choice.clone()), json!({"result": want}), "{text}");
        assert!(
            kinds(text, choice.clone()).ends_with(&["value_to_object"]),
            "{text}"
        );
    }
    assert_eq!(
        err("sunny or rainy, hard to say", choice.clone()),
        "ambiguous"
    );
    let number = json!({"type":"object","properties":{"foo":{"type":"number"}},"required":["foo"]});
    assert_eq!(ok("1214", number.clone()), json!({"foo": 1214}));
    assert_eq!(ok("12.5", number.clone()), json!({"foo": 12.5}));
    assert_eq!(
        ok("The total is 1214.", number.clone()),
        json!({"foo": 1214})
    );
    let flag = json!({"type":"object","properties":{"ok":{"type":"boolean"}},"required":["ok"]});
    assert_eq!(ok("true", flag.clone()), json!({"ok": true}));
    // A reply that holds an object is read as that object, and refused if it does not fit.
    assert_eq!(
        err(r#"{"res": "rainy"}"#, choice.clone()),
        "missing_required"
    );
    // Two required properties: no single value stands for the object.
    let two = json!({"type":"object","properties":{"a":{"type":"number"},"b":{"type":"number"}},"required":["a","b"]});
    assert_eq!(err("1214", two), "type_mismatch");
    // Nested, through `$ref`s.
    let nested = json!({"type":"object","properties":{"w":{"$ref":"#/$defs/W"}},"required":["w"],"$defs":{"W":{"type":"object","properties":{"n":{"type":"integer"}},"required":["n"]}}});
    assert_eq!(ok("7", nested), json!({"w": {"n": 7}}));
}

// A partial never goes back: once a value that fits is complete and another starts, nothing is
// shown until the reply ends.
#[test]
fn a_second_candidate_holds_the_partials() {
    let s = json!({"type":"object","properties":{"title":{"type":"string"},"body":{"type":"string"}},"required":["title"]});
    let draft =
        "Draft:\n```json\n{\"title\":\"Draft\",\"body\":\"x\"}\n```\nFinal:\n```json\n{\"ti";
    assert_eq!(
        partial(draft, &s),
        None,
        "held while the second value is written"
    );
    let first = "Draft:\n```json\n{\"title\":\"Dra";
    assert_eq!(partial(first, &s), Some(json!({"title":"Dra"})));
    // A brace in prose that is no value of the schema does not hold anything.
    let prose = "Use the {name} placeholder.\n```json\n{\"title\":\"Hel";
    assert_eq!(partial(prose, &s), Some(json!({"title":"Hel"})));
}

// A subschema read on its own keeps the root's definitions, `$defs` or draft 7's `definitions`.
#[test]
fn prose_readings_resolve_refs_to_either_definitions_keyword() {
    for defs in ["$defs", "definitions"] {
        let items = json!({"type":"array","items":{"$ref": format!("#/{defs}/n")}, defs: {"n": {"type":"integer"}}});
        assert_eq!(ok("The answer is 7.", items), json!([7]), "{defs}");
        let one = json!({"type":"object","properties":{"v":{"$ref": format!("#/{defs}/n")}},"required":["v"], defs: {"n": {"type":"integer"}}});
        assert_eq!(ok("7", one), json!({"v": 7}), "{defs}");
    }
}
