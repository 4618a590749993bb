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
//! rule), and the body, parsed when it is JSON. A request that continues an earlier one of its
//! conversation (the same method and URL, its `messages`, `input` or `contents` extending the
//! earlier one's) is stored as what it adds: `{ "method", "url", "continues": 3, "append": {
//! "messages": [ … ] }, "set"?: { … }, "unset"?: [ … ] }`, so a tool loop's history is in the
//! cassette once ([`compress`], [`expand`]). `textHash`, where redaction left the request as it
//! was, is the hash of its text as sent: a replay by request finds it without reading the body. The headers are kept beside it but do not
//! take part (clients send their version, platform and retry count). A response's body is
//! parsed when it is JSON; an event stream is kept event by event, each event's data parsed
//! when it is JSON, so redaction and a reader see values, not escaped text.

use serde_json::{Map, Value as Json};

use super::{Body, Reply};
use std::rc::Rc;

use crate::doubles::cassette::{
    self, hash, normalize_request, normalize_unredacted, text_hash, Cassette, CassetteError,
    Interface, PatternHost, Redaction, Taken,
};

/// Response headers that describe the transfer, not the answer: a replay's own transfer sets
/// them (the body it writes is already decoded and of another length), and a recording proxy
/// does not pass them on.
pub const TRANSFER_HEADERS: [&str; 5] = [
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
    let plain = normalize_unredacted(stored.clone());
    let stored = normalize_request(stored, redaction, taken);
    // A request redaction left as it was may be found again by its text alone.
    let text = (plain == stored).then(|| {
        let s = |k: &str| request.get(k).and_then(Json::as_str).unwrap_or("");
        request_text_hash(s("method"), s("url"), s("body"))
    });
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
    if let Some(t) = text {
        step.insert("textHash".into(), t.into());
    }
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

/// The hash of a request's text as the client sent it: its method, its path and query, and its
/// body's text. A replay finds a recorded request by it without reading the body (a request
/// redaction changed has none, so no hash of a credential is stored).
pub fn request_text_hash(method: &str, url: &str, body: &str) -> String {
    let (path, query) = super::split_url(url);
    let sep = if query.is_empty() { "" } else { "?" };
    text_hash(&format!(
        "{} {path}{sep}{query}\n{body}",
        method.to_ascii_uppercase()
    ))
}

/// The members of a body whose arrays grow turn by turn: the conversation.
const HISTORY_KEYS: [&str; 3] = ["messages", "input", "contents"];

/// How many earlier requests to the same URL a request is compared with for a base.
const BASES_TRIED: usize = 16;

/// The delta of `body` against `base` (both objects): the history key whose array extends the
/// base's, the members set or changed, and those taken out; `None` when no history key does.
fn delta(base: &Map<String, Json>, body: &Map<String, Json>) -> Option<Map<String, Json>> {
    let key = HISTORY_KEYS.iter().find(|k| {
        match (
            base.get(**k).and_then(Json::as_array),
            body.get(**k).and_then(Json::as_array),
        ) {
            (Some(b), Some(a)) => a.len() >= b.len() && a[..b.len()] == b[..],
            _ => false,
        }
    })?;
    let grown = &body[*key].as_array()?[base[*key].as_array()?.len()..];
    let mut append = Map::new();
    append.insert((*key).into(), Json::Array(grown.to_vec()));
    let mut set = Map::new();
    for (k, v) in body {
        if k != key && base.get(k) != Some(v) {
            set.insert(k.clone(), v.clone());
        }
    }
    let unset: Vec<Json> = base
        .keys()
        .filter(|k| !body.contains_key(*k))
        .map(|k| Json::String(k.clone()))
        .collect();
    let mut out = Map::new();
    out.insert("append".into(), Json::Object(append));
    if !set.is_empty() {
        out.insert("set".into(), Json::Object(set));
    }
    if !unset.is_empty() {
        out.insert("unset".into(), Json::Array(unset));
    }
    Some(out)
}

/// Stores each request that continues an earlier one of its conversation (the same method and
/// URL, its history array extending the earlier one's) as what it adds: `{ method, url,
/// continues: <step>, append: { messages: [...] }, set?, unset? }` in place of its `body`. A
/// tool loop sends its whole history every turn; stored so, the history is in the cassette once.
pub fn compress(steps: &mut [Json]) {
    for k in (1..steps.len()).rev() {
        let (before, rest) = steps.split_at_mut(k);
        let Some(request) = rest[0].get_mut("request").and_then(Json::as_object_mut) else {
            continue;
        };
        let Some(body) = request.get("body").and_then(Json::as_object) else {
            continue;
        };
        let found = before
            .iter()
            .enumerate()
            .rev()
            .filter_map(|(j, s)| Some((j, s.get("request")?.as_object()?)))
            .filter(|(_, r)| {
                r.get("method") == request.get("method") && r.get("url") == request.get("url")
            })
            .take(BASES_TRIED)
            .find_map(|(j, r)| Some((j, delta(r.get("body")?.as_object()?, body)?)));
        if let Some((j, d)) = found {
            request.shift_remove("body");
            request.insert("continues".into(), j.into());
            request.extend(d);
        }
    }
}

/// Why a step's continued request is not one (the pointer below the step, and what), given its
/// index: `continues` names an earlier step, `append` an object of arrays, `set` an object,
/// `unset` an array of strings.
fn check_continued(
    request: &Map<String, Json>,
    index: usize,
) -> Result<(), (&'static str, &'static str)> {
    let Some(base) = request.get("continues") else {
        return Ok(());
    };
    if base.as_u64().is_none_or(|j| (j as usize) >= index) {
        return Err((
            "request/continues",
            "\"continues\" must be the index of an earlier step",
        ));
    }
    if request.contains_key("body") {
        return Err((
            "request/body",
            "a request that continues another has no \"body\"",
        ));
    }
    let arrays = request
        .get("append")
        .and_then(Json::as_object)
        .is_some_and(|a| a.values().all(Json::is_array));
    if !arrays {
        return Err(("request/append", "\"append\" must be an object of arrays"));
    }
    if request.get("set").is_some_and(|s| !s.is_object()) {
        return Err(("request/set", "\"set\" must be an object"));
    }
    if request
        .get("unset")
        .is_some_and(|u| !u.as_array().is_some_and(|u| u.iter().all(Json::is_string)))
    {
        return Err((
            "request/unset",
            "\"unset\" must be an array of member names",
        ));
    }
    Ok(())
}

/// Writes each continued request out whole again (in order: a step continues an earlier one,
/// checked at load), for a replay that compares requests. A base whose history member is not
/// an array takes the appended items as that member.
pub fn expand(steps: &mut [Json]) {
    for k in 0..steps.len() {
        let (before, rest) = steps.split_at_mut(k);
        let Some(request) = rest[0].get_mut("request").and_then(Json::as_object_mut) else {
            continue;
        };
        let Some(j) = request.get("continues").and_then(Json::as_u64) else {
            continue;
        };
        let mut body = before
            .get(j as usize)
            .and_then(|s| s.get("request")?.get("body")?.as_object().cloned())
            .unwrap_or_default();
        if let Some(Json::Object(append)) = request.shift_remove("append") {
            for (key, items) in append {
                let Json::Array(items) = items else { continue };
                match body.get_mut(&key) {
                    Some(Json::Array(history)) => history.extend(items),
                    _ => {
                        body.insert(key, Json::Array(items));
                    }
                }
            }
        }
        if let Some(Json::Object(set)) = request.shift_remove("set") {
            body.extend(set);
        }
        if let Some(Json::Array(unset)) = request.shift_remove("unset") {
            for key in unset.iter().filter_map(Json::as_str) {
                body.shift_remove(key);
            }
        }
        request.shift_remove("continues");
        request.insert("body".into(), Json::Object(body));
    }
}

/// A wire cassette's text: pretty JSON, each streamed event on a line of its own (a stream
/// written out member by member would be most of the file; a line per event also diffs as one).
pub fn text(doc: &Json) -> String {
    let mut marked = doc.clone();
    let mut streams: Vec<String> = Vec::new();
    if let Some(steps) = marked.get_mut("steps").and_then(Json::as_array_mut) {
        for step in steps.iter_mut() {
            let Some(events) = step.get_mut("events") else {
                continue;
            };
            let lines: Vec<String> = events
                .as_array()
                .map(|e| e.iter().map(Json::to_string).collect())
                .unwrap_or_default();
            let array = if lines.is_empty() {
                "[]".to_string()
            } else {
                format!("[\n        {}\n      ]", lines.join(",\n        "))
            };
            *events = Json::String(format!("\u{0}events {}", streams.len()));
            streams.push(array);
        }
    }
    let pretty = serde_json::to_string_pretty(&marked).unwrap_or_default();
    const MARK: &str = "\"\\u0000events ";
    // A recorded string that reads as a mark would misplace a stream: then no line per event.
    if pretty.matches(MARK).count() != streams.len() {
        return serde_json::to_string_pretty(doc).unwrap_or_default();
    }
    let mut out = String::with_capacity(pretty.len());
    let mut rest = pretty.as_str();
    for array in &streams {
        let Some(at) = rest.find(MARK) else { break };
        out.push_str(&rest[..at]);
        let after = &rest[at + MARK.len()..];
        let end = after.find('"').map_or(after.len(), |e| e + 1);
        out.push_str(array);
        rest = &after[end..];
    }
    out.push_str(rest);
    out
}

/// Loads and checks a wire cassette for replay: the family's checks, then each step's HTTP
/// shape (a cassette of another interface is refused at `/interface`).
pub fn load(doc: Json, host: Rc<dyn PatternHost>) -> Result<Cassette, CassetteError> {
    let loaded = cassette::load_for(Interface::Http, doc, host)?;
    for (i, step) in loaded.steps.iter().enumerate() {
        let s = step
            .as_object()
            .ok_or_else(|| cassette::invalid(&format!("/steps/{i}"), "a step must be an object"))?;
        let request = s.get("request").and_then(Json::as_object);
        let continued = request.map_or(Ok(()), |r| check_continued(r, i));
        continued
            .and_then(|()| check_step(s))
            .map_err(|(below, what)| {
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

#[cfg(test)]
mod continued {
    use super::*;
    use crate::doubles::cassette::{build_for, RegexHost};
    use crate::doubles::redaction::tests::redaction;
    use serde_json::json;

    /// A tool loop's requests: each sends the whole history so far, and the tools every time.
    fn turns(n: usize) -> Vec<(Json, Json)> {
        let tools = json!([{ "type": "function", "function": { "name": "lookup", "parameters": { "type": "object" } } }]);
        let mut messages = vec![json!({ "role": "user", "content": "go" })];
        (0..n)
            .map(|i| {
                let body = json!({ "model": "m", "messages": messages.clone(), "tools": tools.clone() });
                messages.push(json!({ "role": "assistant", "content": format!("turn {i}") }));
                messages.push(json!({ "role": "tool", "tool_call_id": format!("c{i}"), "content": "ok" }));
                (
                    json!({ "method": "POST", "url": "https://api.openai.com/v1/chat/completions", "headers": {}, "body": body.to_string() }),
                    json!({ "status": 200, "headers": { "content-type": "application/json" }, "body": "{}" }),
                )
            })
            .collect()
    }

    fn recorded(exchanges: &[(Json, Json)]) -> Vec<Json> {
        let r = redaction();
        let mut taken = Taken::default();
        let steps = exchanges
            .iter()
            .map(|(q, o)| record_step(q, o, &r, &mut taken))
            .collect();
        let doc = build_for(Interface::Http, None, steps, &r, &taken);
        doc["steps"].as_array().unwrap().clone()
    }

    #[test]
    fn each_request_is_stored_as_what_it_adds_and_reads_back_whole() {
        let whole = recorded(&turns(30));
        let mut stored = whole.clone();
        compress(&mut stored);
        assert!(
            stored[0]["request"].get("body").is_some(),
            "the first is whole"
        );
        for (k, step) in stored.iter().enumerate().skip(1) {
            let r = &step["request"];
            assert_eq!(r["continues"], json!(k - 1));
            assert_eq!(
                r["append"]["messages"].as_array().unwrap().len(),
                2,
                "two messages a turn"
            );
            assert!(
                r.get("body").is_none() && r.get("set").is_none(),
                "the tools are not repeated"
            );
        }
        // Stored so, the cassette grows with the conversation, not with its square.
        let size = |n: usize| {
            let mut steps = recorded(&turns(n));
            let whole = serde_json::to_string(&steps).unwrap().len();
            compress(&mut steps);
            (serde_json::to_string(&steps).unwrap().len(), whole)
        };
        let ((small30, whole30), (small60, whole60)) = (size(30), size(60));
        assert!(whole60 > 3 * whole30, "{whole30} → {whole60}");
        assert!(small60 < 2 * small30 + 1000, "{small30} → {small60}");
        let mut back = stored.clone();
        expand(&mut back);
        assert_eq!(back, whole);
    }

    #[test]
    fn a_request_that_changes_more_than_its_history_says_what_changed() {
        let mut exchanges = turns(3);
        let mut body: Json =
            serde_json::from_str(exchanges[2].0["body"].as_str().unwrap()).unwrap();
        body["stream"] = json!(true);
        body.as_object_mut().unwrap().shift_remove("tools");
        exchanges[2].0["body"] = json!(body.to_string());
        // Another endpoint in between is no base for the chat requests.
        exchanges.insert(1, (json!({ "method": "POST", "url": "/v1/embeddings", "headers": {}, "body": "{\"input\":\"x\"}" }), json!({ "status": 200, "headers": {}, "body": "{}" })));
        let whole = recorded(&exchanges);
        let mut stored = whole.clone();
        compress(&mut stored);
        assert!(stored[1]["request"].get("body").is_some());
        let last = &stored[3]["request"];
        assert_eq!(last["continues"], json!(2));
        assert_eq!(last["set"], json!({ "stream": true }));
        assert_eq!(last["unset"], json!(["tools"]));
        let mut back = stored;
        expand(&mut back);
        assert_eq!(back, whole);
    }

    #[test]
    fn a_request_redaction_changed_has_no_text_hash() {
        let exchanges = [
            (
                json!({ "method": "POST", "url": "/v1/chat/completions", "headers": {}, "body": "{\"messages\":[{\"content\":\"hello\"}]}" }),
                json!({ "status": 200, "headers": {}, "body": "{}" }),
            ),
            (
                json!({ "method": "POST", "url": "/v1/chat/completions", "headers": {}, "body": "{\"messages\":[{\"content\":\"my key is sk-proj-Abc123Def456Ghi789Jkl012Mno345\"}]}" }),
                json!({ "status": 200, "headers": {}, "body": "{}" }),
            ),
        ];
        let steps = recorded(&exchanges);
        assert_eq!(
            steps[0]["textHash"],
            json!(request_text_hash(
                "post",
                "https://x/v1/chat/completions",
                "{\"messages\":[{\"content\":\"hello\"}]}"
            ))
        );
        assert!(steps[1].get("textHash").is_none());
    }

    #[test]
    fn a_cassettes_text_has_a_line_per_event_and_reads_back_as_the_document() {
        let doc = json!({ "steps": [
            { "request": { "url": "/a" }, "events": [{ "data": { "a": 1 } }, { "event": "e", "data": "[DONE]" }] },
            { "request": { "url": "/b", "body": { "s": "events 9" } } },
            { "request": { "url": "/c" }, "events": [] },
        ] });
        let text = text(&doc);
        assert!(text.contains("\n        {\"data\":{\"a\":1}},\n        {\"data\":\"[DONE]\",\"event\":\"e\"}\n      ]") || text.contains("{\"event\":\"e\",\"data\":\"[DONE]\"}"), "{text}");
        assert_eq!(serde_json::from_str::<Json>(&text).unwrap(), doc);
        // A recorded string that looks like the mark: plain pretty JSON, still the document.
        let doc = json!({ "steps": [{ "request": { "body": "\u{0}events 0" }, "events": [{ "data": 1 }] }] });
        assert_eq!(
            serde_json::from_str::<Json>(&text_of_doc(&doc)).unwrap(),
            doc
        );
    }

    fn text_of_doc(doc: &Json) -> String {
        super::text(doc)
    }

    #[test]
    fn a_continued_request_is_checked_at_load() {
        let mut steps = recorded(&turns(3));
        compress(&mut steps);
        let doc = |steps: &[Json]| json!({ "format": "understudy-cassette", "version": 1, "interface": "http", "redaction": { "keys": [], "patterns": [] }, "steps": steps });
        assert!(load(doc(&steps), RegexHost::shared()).is_ok());
        let mut bad = steps.clone();
        bad[1]["request"]["continues"] = json!(1);
        let e = load(doc(&bad), RegexHost::shared()).unwrap_err();
        assert_eq!(e.pointer, "/steps/1/request/continues");
        let mut bad = steps.clone();
        bad[2]["request"]["append"] = json!({ "messages": {} });
        assert_eq!(
            load(doc(&bad), RegexHost::shared()).unwrap_err().pointer,
            "/steps/2/request/append"
        );
        let mut bad = steps;
        bad[2]["request"]["body"] = json!({});
        assert_eq!(
            load(doc(&bad), RegexHost::shared()).unwrap_err().pointer,
            "/steps/2/request/body"
        );
    }
}
