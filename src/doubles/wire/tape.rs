//! Wire cassettes: HTTP exchanges with a provider's API, recorded by `recordingFetch` or a
//! recording `providerServer` and replayed by `scriptedFetch` and `providerServer`. They are
//! cassettes of the same family (`super::super::cassette`, `"interface": "http"`), redacted by
//! the same rules; a step reads:
//!
//! ```json
//! { "streamed": true, "hash": "…",
//!   "request": { "method": "POST", "url": "/v1/chat/completions", "body": { … } },
//!   "requestHeaders": { "authorization": "[REDACTED]", … },
//!   "response": { "status": 200, "headers": { "content-type": "text/event-stream" } },
//!   "events": [ { "data": { … } }, { "event": "message_stop", "data": { … } }, { "data": "[DONE]" } ] }
//! ```
//!
//! The request is what a replay matches on: the method, the path with its query (the origin
//! left out, so a replay at another address matches; a `key=` parameter redacted by the URL
//! rule), and the body, parsed when it is JSON. The headers are kept beside it but do not
//! take part (clients send their version, platform and retry count). A response's body is
//! parsed when it is JSON; an event stream is kept event by event, each event's data parsed
//! when it is JSON, so redaction and a reader see values, not escaped text.

use serde_json::{Map, Value as Json};

use super::{Body, Reply};
use std::rc::Rc;

use crate::doubles::cassette::{
    self, hash, normalize_request, Cassette, CassetteError, Interface, PatternHost, Redaction,
    Taken,
};

/// Response headers that describe the transfer, not the answer: a replay's own transfer sets
/// them (the body it writes is already decoded and of another length).
const TRANSFER_HEADERS: [&str; 5] = [
    "content-length",
    "content-encoding",
    "transfer-encoding",
    "connection",
    "keep-alive",
];

/// A text as a value: parsed when it is JSON, else the text itself.
fn value_of(text: &str) -> Json {
    serde_json::from_str(text).unwrap_or_else(|_| Json::String(text.to_owned()))
}

/// A value as the text it was: a string as written, anything else as JSON.
fn text_of(value: &Json) -> String {
    match value {
        Json::String(s) => s.clone(),
        v => v.to_string(),
    }
}

/// The request as a cassette matches it: `{ method, url, body? }`, `url` the path and query of
/// `url` (an absolute URL or a path), `body` parsed when it is JSON and left out when empty.
pub fn stored_request(method: &str, url: &str, body: &str) -> Json {
    let (path, query) = super::split_url(url);
    let mut out = Map::new();
    out.insert("method".into(), method.to_ascii_uppercase().into());
    let url = if query.is_empty() {
        path.to_owned()
    } else {
        format!("{path}?{query}")
    };
    out.insert("url".into(), url.into());
    if !body.is_empty() {
        out.insert("body".into(), value_of(body));
    }
    Json::Object(out)
}

/// A request as the facade hands it over: `{ method, url, headers, body }`, the body as text.
fn incoming(request: &Json) -> (Json, Json) {
    let s = |k: &str| request.get(k).and_then(Json::as_str).unwrap_or("");
    let headers = match request.get("headers") {
        Some(Json::Object(h)) => Json::Object(h.clone()),
        _ => Json::Object(Map::new()),
    };
    (stored_request(s("method"), s("url"), s("body")), headers)
}

/// The live request of a replay by request as it is stored (`{ method, url, body? }`), not yet
/// normalized.
pub fn live_request(request: &Json) -> Json {
    incoming(request).0
}

/// The events of a server-sent event stream (the field rules of the HTML standard): each
/// `{ event?, id?, data }`, its data lines joined and parsed when JSON; comments and
/// `retry:` lines dropped.
pub fn parse_events(text: &str) -> Vec<Json> {
    let mut events = Vec::new();
    let (mut data, mut event, mut id): (Option<String>, Option<String>, Option<String>) =
        (None, None, None);
    // A closing blank line: a stream cut off before its last one still holds that event.
    let text = text.replace("\r\n", "\n").replace('\r', "\n") + "\n\n";
    for line in text.split('\n') {
        if line.is_empty() {
            if let Some(d) = data.take() {
                let mut e = Map::new();
                if let Some(name) = event.take() {
                    e.insert("event".into(), name.into());
                }
                if let Some(id) = id.take() {
                    e.insert("id".into(), id.into());
                }
                e.insert("data".into(), value_of(&d));
                events.push(Json::Object(e));
            }
            event = None;
            continue;
        }
        let (field, value) = line.split_once(':').unwrap_or((line, ""));
        let value = value.strip_prefix(' ').unwrap_or(value);
        match field {
            "data" => match &mut data {
                Some(d) => {
                    d.push('\n');
                    d.push_str(value);
                }
                None => data = Some(value.to_owned()),
            },
            "event" => event = Some(value.to_owned()),
            "id" => id = Some(value.to_owned()),
            _ => {}
        }
    }
    events
}

/// One recorded event as the text of the stream.
fn event_text(event: &Json) -> String {
    let mut out = String::new();
    for key in ["event", "id"] {
        if let Some(v) = event.get(key).and_then(Json::as_str) {
            out.push_str(&format!("{key}: {v}\n"));
        }
    }
    let data = event.get("data").map(text_of).unwrap_or_default();
    for line in data.split('\n') {
        out.push_str("data: ");
        out.push_str(line);
        out.push('\n');
    }
    out.push('\n');
    out
}

/// Keys whose strings a stream sends in pieces: text, reasoning and tool-argument deltas of
/// every provider (`delta`, `text`, `partial_json`, `thinking`, `arguments`, `content`).
const DELTA_KEYS: [&str; 6] = [
    "delta",
    "text",
    "partial_json",
    "thinking",
    "arguments",
    "content",
];

/// Members that say which output a delta adds to (an item, a content block, a tool call).
const IDENTITY_KEYS: [&str; 5] = ["type", "index", "item_id", "output_index", "content_index"];

/// The deltas of a recorded event stream, by what they add to: the event name, the pointer of
/// the string and the identifying members of each object on its way. A credential split across
/// pieces is found in their join.
fn delta_channels(events: &mut [Json]) -> Vec<Vec<&mut String>> {
    let mut channels: Vec<(String, Vec<&mut String>)> = Vec::new();
    for event in events.iter_mut() {
        let name = event
            .get("event")
            .and_then(Json::as_str)
            .unwrap_or("")
            .to_owned();
        let Some(data) = event.get_mut("data") else {
            continue;
        };
        let mut stack: Vec<(&mut Json, String)> = vec![(data, name)];
        while let Some((v, key)) = stack.pop() {
            match v {
                Json::Object(map) => {
                    let identity: String = IDENTITY_KEYS
                        .iter()
                        .filter_map(|k| map.get(*k).map(|v| format!("{k}={v}")))
                        .collect::<Vec<_>>()
                        .join(",");
                    for (k, child) in map.iter_mut() {
                        let key = format!("{key}|{identity}/{k}");
                        if child.is_object() || child.is_array() {
                            stack.push((child, key));
                        } else if let (true, Json::String(s)) =
                            (DELTA_KEYS.contains(&k.as_str()), child)
                        {
                            match channels.iter_mut().find(|(c, _)| *c == key) {
                                Some((_, pieces)) => pieces.push(s),
                                None => channels.push((key, vec![s])),
                            }
                        }
                    }
                }
                Json::Array(items) => {
                    for (i, item) in items.iter_mut().enumerate() {
                        stack.push((item, format!("{key}/{i}")));
                    }
                }
                _ => {}
            }
        }
    }
    channels.into_iter().map(|(_, pieces)| pieces).collect()
}

/// The response headers kept: all but the transfer's, names in lowercase.
fn kept_headers(headers: Option<&Json>) -> Map<String, Json> {
    let mut out = Map::new();
    if let Some(Json::Object(h)) = headers {
        for (k, v) in h {
            let k = k.to_ascii_lowercase();
            if !TRANSFER_HEADERS.contains(&k.as_str()) {
                out.insert(k, v.clone());
            }
        }
    }
    out
}

/// Whether a response's headers say it is an event stream.
fn is_event_stream(headers: &Map<String, Json>) -> bool {
    headers
        .get("content-type")
        .and_then(Json::as_str)
        .is_some_and(|t| t.to_ascii_lowercase().contains("text/event-stream"))
}

/// One recorded exchange. `request` is `{ method, url, headers, body }` and `outcome`
/// `{ status, headers, body }` (texts as sent and received) or `{ error: { name, message } }`
/// for a request that got no response. What redaction took out is added to `taken`.
pub fn record_step(
    request: &Json,
    outcome: &Json,
    redaction: &Redaction,
    taken: &mut Taken,
) -> Json {
    let (stored, mut headers) = incoming(request);
    let stored = normalize_request(stored, redaction, taken);
    redaction.apply(&mut headers, taken);
    headers.sort_all_objects();
    let mut step = Map::new();
    let mut streamed = false;
    let mut response_part = None;
    let mut events_part = None;
    let mut error_part = None;
    if let Some(error) = outcome.get("error") {
        let s = |k: &str| error.get(k).and_then(Json::as_str).unwrap_or("").to_owned();
        let mut e = serde_json::json!({ "name": s("name"), "message": s("message") });
        redaction.apply(&mut e, taken);
        error_part = Some(e);
    } else {
        let status = outcome.get("status").and_then(Json::as_u64).unwrap_or(0);
        let mut response_headers = kept_headers(outcome.get("headers"));
        let body = outcome.get("body").and_then(Json::as_str).unwrap_or("");
        let mut response = Map::new();
        response.insert("status".into(), status.into());
        if is_event_stream(&response_headers) {
            streamed = true;
            let mut events = parse_events(body);
            for mut pieces in delta_channels(&mut events) {
                redaction.apply_split(&mut pieces, taken);
            }
            let mut events = Json::Array(events);
            redaction.apply(&mut events, taken);
            events_part = Some(events);
        } else if !body.is_empty() {
            let mut body = value_of(body);
            redaction.apply(&mut body, taken);
            response.insert("body".into(), body);
        }
        let mut h = Json::Object(std::mem::take(&mut response_headers));
        redaction.apply(&mut h, taken);
        h.sort_all_objects();
        response.insert("headers".into(), h);
        response_part = Some(Json::Object(response));
    }
    step.insert("streamed".into(), streamed.into());
    step.insert("hash".into(), hash(&stored).into());
    step.insert("request".into(), stored);
    step.insert("requestHeaders".into(), headers);
    if let Some(r) = response_part {
        step.insert("response".into(), r);
    }
    if let Some(e) = events_part {
        step.insert("events".into(), e);
    }
    if let Some(e) = error_part {
        step.insert("error".into(), e);
    }
    Json::Object(step)
}

/// Loads and checks a wire cassette for replay: the family's checks, then each step's HTTP
/// shape (a cassette of another interface is refused at `/interface`).
pub fn load(doc: Json, host: Rc<dyn PatternHost>) -> Result<Cassette, CassetteError> {
    let loaded = cassette::load_for(Interface::Http, doc, host)?;
    for (i, step) in loaded.steps.iter().enumerate() {
        let s = step
            .as_object()
            .ok_or_else(|| cassette::invalid(&format!("/steps/{i}"), "a step must be an object"))?;
        check_step(s).map_err(|(below, what)| {
            let pointer = if below.is_empty() {
                format!("/steps/{i}")
            } else {
                format!("/steps/{i}/{below}")
            };
            cassette::invalid(&pointer, what)
        })?;
    }
    Ok(loaded)
}

/// Why a step of a loaded wire cassette is not one (the pointer below the step, and what).
pub fn check_step(step: &Map<String, Json>) -> Result<(), (&'static str, &'static str)> {
    let url = step
        .get("request")
        .and_then(|r| r.get("url"))
        .is_some_and(Json::is_string);
    if !url {
        return Err(("request/url", "a request needs a \"url\" string"));
    }
    match (step.get("response"), step.get("error")) {
        (Some(r), None) => {
            let status = r.get("status").and_then(Json::as_u64);
            if !status.is_some_and(|s| (100..=599).contains(&s)) {
                return Err(("response/status", "a response needs an HTTP \"status\""));
            }
            if let Some(h) = r.get("headers") {
                let strings = h
                    .as_object()
                    .is_some_and(|h| h.values().all(Json::is_string));
                if !strings {
                    return Err((
                        "response/headers",
                        "\"headers\" must be an object of strings",
                    ));
                }
            }
            if let Some(events) = step.get("events") {
                if !events
                    .as_array()
                    .is_some_and(|e| e.iter().all(Json::is_object))
                {
                    return Err(("events", "\"events\" must be an array of events"));
                }
            }
            Ok(())
        }
        (None, Some(e)) => {
            if e.get("message").is_some_and(Json::is_string) {
                Ok(())
            } else {
                Err(("error/message", "an error needs a \"message\" string"))
            }
        }
        _ => Err(("", "a step needs exactly one of \"response\" and \"error\"")),
    }
}

/// A recorded step as the reply the facade writes (its events as the stream's texts), or the
/// recorded failure (`{ name, message }`) for a request that got no response.
pub fn reply(step: &Json) -> Result<Reply, Json> {
    if let Some(error) = step.get("error") {
        return Err(error.clone());
    }
    let response = step.get("response").cloned().unwrap_or_default();
    let status = response
        .get("status")
        .and_then(Json::as_u64)
        .and_then(|s| u16::try_from(s).ok())
        .unwrap_or(200);
    let headers: Vec<(String, String)> = match response.get("headers") {
        Some(Json::Object(h)) => h.iter().map(|(k, v)| (k.clone(), text_of(v))).collect(),
        _ => Vec::new(),
    };
    let body = match step.get("events").and_then(Json::as_array) {
        Some(events) => Body::Stream(events.iter().map(event_text).collect()),
        None => Body::Text(response.get("body").map(text_of).unwrap_or_default()),
    };
    Ok(Reply {
        status,
        headers,
        body,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::doubles::cassette::{self, build_for, load_for, Interface, Matcher, RegexHost};
    use crate::doubles::redaction::tests::redaction;
    use serde_json::json;

    const KEY: &str = "sk-proj-Abc123Def456Ghi789Jkl012Mno345";

    fn chat_request(url: &str, body: &str, headers: Json) -> Json {
        json!({ "method": "post", "url": url, "headers": headers, "body": body })
    }

    fn record(steps: &[(Json, Json)]) -> Json {
        let r = redaction();
        let mut taken = Taken::default();
        let steps = steps
            .iter()
            .map(|(req, out)| record_step(req, out, &r, &mut taken))
            .collect();
        build_for(Interface::Http, None, steps, &r, &taken)
    }

    #[test]
    fn credentials_in_headers_and_the_key_parameter_are_redacted_everywhere() {
        let gemini_key = "AIzaSyDdI0hCZtE6vySjMm-WEfRq3CPzqKqqsHI";
        let doc = record(&[
            (
                chat_request(
                    "https://api.openai.com/v1/chat/completions",
                    r#"{"model":"gpt-5","messages":[]}"#,
                    json!({ "authorization": format!("Bearer {KEY}"), "x-api-key": "plain-anthropic-test-key-1234", "x-goog-api-key": "plain-google-test-key-5678" }),
                ),
                json!({ "status": 200, "headers": { "content-type": "application/json", "content-length": "12", "content-encoding": "gzip" }, "body": format!(r#"{{"echo":"{KEY}"}}"#) }),
            ),
            (
                chat_request(
                    &format!("https://generativelanguage.googleapis.com/v1beta/models/g:generateContent?key={gemini_key}&alt=sse"),
                    "{}",
                    json!({}),
                ),
                json!({ "status": 200, "headers": { "content-type": "application/json" }, "body": "{}" }),
            ),
        ]);
        let text = doc.to_string();
        for secret in [
            KEY,
            "plain-anthropic-test-key-1234",
            "plain-google-test-key-5678",
            gemini_key,
        ] {
            assert!(!text.contains(secret), "{secret} left in {text}");
        }
        let steps = doc["steps"].as_array().unwrap();
        assert_eq!(steps[0]["requestHeaders"]["x-goog-api-key"], "[REDACTED]");
        assert_eq!(
            steps[0]["response"]["body"]["echo"], "[REDACTED]",
            "a taken value goes wherever it stands"
        );
        assert_eq!(
            steps[0]["request"]["url"], "/v1/chat/completions",
            "the origin is not part of the request"
        );
        assert_eq!(steps[0]["request"]["method"], "POST");
        assert_eq!(
            steps[1]["request"]["url"],
            "/v1beta/models/g:generateContent?key=[REDACTED]&alt=sse"
        );
        let headers = steps[0]["response"]["headers"].as_object().unwrap();
        assert!(
            !headers.contains_key("content-encoding") && !headers.contains_key("content-length"),
            "{headers:?}"
        );
        assert_eq!(steps[0]["streamed"], false);
    }

    #[test]
    fn an_event_stream_is_kept_event_by_event_and_written_back_as_sent() {
        let sent = "event: message_start\ndata: {\"type\":\"message_start\"}\n\n: keep-alive\n\ndata: {\"choices\":[]}\r\n\r\ndata: [DONE]\n\n";
        let doc = record(&[(
            chat_request("/v1/messages", "{}", json!({})),
            json!({ "status": 200, "headers": { "content-type": "text/event-stream; charset=utf-8" }, "body": sent }),
        )]);
        let step = &doc["steps"][0];
        assert_eq!(step["streamed"], true);
        assert_eq!(
            step["events"],
            json!([{ "event": "message_start", "data": { "type": "message_start" } }, { "data": { "choices": [] } }, { "data": "[DONE]" }])
        );
        let reply = reply(step).unwrap();
        assert_eq!(reply.status, 200);
        assert_eq!(
            reply.body,
            Body::Stream(vec![
                "event: message_start\ndata: {\"type\":\"message_start\"}\n\n".into(),
                "data: {\"choices\":[]}\n\n".into(),
                "data: [DONE]\n\n".into(),
            ])
        );
        assert!(reply
            .headers
            .iter()
            .any(|(k, v)| k == "content-type" && v.starts_with("text/event-stream")));
        // A stream cut off before its last blank line keeps its last event.
        assert_eq!(
            parse_events("data: {\"a\":1}\n\nid: 7\ndata: {\"b\""),
            vec![
                json!({ "data": { "a": 1 } }),
                json!({ "id": "7", "data": "{\"b\"" })
            ]
        );
    }

    #[test]
    fn a_credential_split_across_deltas_is_found_in_their_join() {
        let (a, b) = KEY.split_at(14);
        let events = format!(
            "data: {{\"type\":\"response.output_text.delta\",\"item_id\":\"m1\",\"delta\":\"key {a}\"}}\n\n\
             data: {{\"type\":\"response.output_text.delta\",\"item_id\":\"m1\",\"delta\":\"{b} end\"}}\n\n"
        );
        let doc = record(&[(
            chat_request("/v1/responses", "{}", json!({})),
            json!({ "status": 200, "headers": { "content-type": "text/event-stream" }, "body": events }),
        )]);
        let text = doc.to_string();
        assert!(!text.contains(a) && !text.contains(b), "{text}");
        let deltas: String = doc["steps"][0]["events"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e["data"]["delta"].as_str().unwrap().to_owned())
            .collect();
        assert_eq!(deltas, "key [REDACTED] end");
    }

    #[test]
    fn a_failure_without_a_response_is_replayed_as_it_failed() {
        let doc = record(&[(
            chat_request("/v1/responses", "{}", json!({})),
            json!({ "error": { "name": "TypeError", "message": "fetch failed" } }),
        )]);
        assert_eq!(
            reply(&doc["steps"][0]).unwrap_err(),
            json!({ "name": "TypeError", "message": "fetch failed" })
        );
    }

    fn load(doc: Json) -> Result<cassette::Cassette, cassette::CassetteError> {
        super::load(doc, RegexHost::shared())
    }

    #[test]
    fn loading_checks_the_interface_and_each_steps_shape() {
        let doc = record(&[(
            chat_request("/v1/responses", r#"{"model":"m"}"#, json!({})),
            json!({ "status": 429, "headers": { "retry-after-ms": "10" }, "body": "{}" }),
        )]);
        assert_eq!(doc["interface"], "http");
        assert!(load(doc.clone()).is_ok());
        let err = load_for(Interface::LanguageModel, doc.clone(), RegexHost::shared()).unwrap_err();
        assert_eq!(err.pointer, "/interface");
        assert!(
            err.message.contains("scriptedFetch({ cassette })"),
            "{}",
            err.message
        );
        let mut bad = doc.clone();
        bad["steps"][0]["response"]["status"] = json!(1000);
        assert_eq!(load(bad).unwrap_err().pointer, "/steps/0/response/status");
        let mut bad = doc.clone();
        bad["steps"][0]["response"]["headers"] = json!({ "a": 1 });
        assert_eq!(load(bad).unwrap_err().pointer, "/steps/0/response/headers");
        let mut bad = doc.clone();
        bad["steps"][0]["request"] = json!({ "method": "POST" });
        assert_eq!(load(bad).unwrap_err().pointer, "/steps/0/request/url");
        let mut bad = doc;
        bad["steps"][0]["error"] = json!({ "message": "x" });
        assert_eq!(load(bad).unwrap_err().pointer, "/steps/0");
    }

    #[test]
    fn replay_by_request_ignores_headers_and_origin_and_names_the_differing_field() {
        let ok = json!({ "status": 200, "headers": {}, "body": "{}" });
        let doc = record(&[
            (
                chat_request(
                    "http://127.0.0.1:1/v1/chat/completions",
                    r#"{"model":"a","n":1}"#,
                    json!({ "user-agent": "x/1" }),
                ),
                ok.clone(),
            ),
            (
                chat_request(
                    "http://127.0.0.1:1/v1/chat/completions",
                    r#"{"model":"b","n":1}"#,
                    json!({}),
                ),
                ok,
            ),
        ]);
        let c = load(doc).unwrap();
        let mut m = Matcher::new(&c);
        let live = |body: &str| {
            let request = chat_request(
                "http://localhost:9/v1/chat/completions",
                body,
                json!({ "user-agent": "x/2" }),
            );
            normalize_request(live_request(&request), &c.redaction, &mut Taken::default())
        };
        assert_eq!(m.pick(&live(r#"{"n":1,"model":"b"}"#), 0).unwrap(), 1);
        let miss = m.pick(&live(r#"{"model":"c","n":1}"#), 1).unwrap_err();
        assert!(
            miss.to_string()
                .starts_with("No recorded request matches HTTP request #2"),
            "{miss}"
        );
        let (step, d) = miss.closest.unwrap();
        assert_eq!((step, d.pointer.as_str()), (0, "/body/model"));
        assert_eq!(m.pick(&live(r#"{"model":"a","n":1}"#), 1).unwrap(), 0);
    }
}
