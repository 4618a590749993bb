//! Cassettes: recorded model runs that `ScriptedModel` replays.
//!
//! A cassette is a versioned JSON document:
//!
//! ```json
//! { "format": "understudy-cassette", "version": 1,
//!   "redaction": { "keys": [...], "patterns": [...] },
//!   "steps": [ { "streamed": false, "hash": "…", "request": {…}, "response": {…} },
//!              { "streamed": true, "hash": "…", "request": {…}, "response": {…}, "events": [...] },
//!              { "streamed": false, "hash": "…", "request": {…}, "error": { "name": "…", "message": "…" } } ] }
//! ```
//!
//! Requests are *normalized* before they are stored or hashed: runtime-only members (`signal`,
//! `tracing`, the SDK's `_internal`) and values JSON cannot carry (functions, `undefined`, …) are dropped, object keys
//! are sorted, and credentials are redacted (`super::redaction`). Responses and events are
//! redacted the same way. The hash is FNV-1a (64-bit) of the canonical JSON of the normalized
//! request: a fingerprint for matching, not a security measure.

use serde_json::{Map, Value};
use std::fmt;
use std::rc::Rc;

#[cfg(not(target_arch = "wasm32"))]
pub use super::redaction::RegexHost;
pub use super::redaction::{
    InvalidPattern, Leak, Pattern, PatternHost, Redaction, Replaced, Taken, PII_PATTERNS, REDACTED,
};

pub const FORMAT: &str = "understudy-cassette";
pub const VERSION: u64 = 1;

/// Request members that describe the run, not the request, and never take part in matching
/// (`_internal` is the SDK's private bookkeeping, including the tracing parent span).
const RUNTIME_KEYS: [&str; 3] = ["signal", "tracing", "_internal"];

/// The key of the facade's tagged encoding (`crate::schema::json::TAG_KEY`): a value JSON cannot carry.
const TAG_KEY: &str = "\u{0}understudy";

crate::code_enum! {
    /// `InvalidCassetteError.reason`.
    pub enum CassetteReason {
        /// Not a cassette this version reads (shape, members, values).
        InvalidCassette = "invalid_cassette",
        UnsupportedVersion = "unsupported_version",
        /// A redaction pattern that does not compile.
        InvalidPattern = "invalid_pattern",
        /// Replay found no cassette where it should be.
        Missing = "missing",
        /// A value that still looks like a credential at save time.
        Credential = "credential",
    }
}

/// Why a cassette or a recording option is refused (`InvalidCassetteError`).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(
    test,
    derive(ts_rs::TS),
    ts(rename = "InvalidCassetteErrorFields", optional_fields)
)]
pub struct CassetteError {
    #[cfg_attr(test, ts(type = "InvalidCassetteReason"))]
    pub reason: CassetteReason,
    /// JSON Pointer into the cassette (or the options) of the offending member.
    pub pointer: String,
    /// The message (`Display`); it crosses once, as the error's own.
    #[serde(skip)]
    pub message: String,
}

impl fmt::Display for CassetteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl From<InvalidPattern> for CassetteError {
    fn from(e: InvalidPattern) -> CassetteError {
        CassetteError {
            reason: CassetteReason::InvalidPattern,
            pointer: e.pointer,
            message: e.message,
        }
    }
}

/// The error for a credential the save-time check found.
pub fn leak_error(leak: &Leak) -> CassetteError {
    CassetteError {
        reason: CassetteReason::Credential,
        pointer: leak.pointer.clone(),
        message: format!(
            "The cassette would hold what looks like a credential at {} (rule `{}`), so it is not written. Redact it (the `redact` or `redactKeys` option), or, for a value the test means to keep, allow it with `allowSecrets: [/…/]`.",
            leak.pointer, leak.rule
        ),
    }
}

pub(crate) fn invalid(pointer: &str, what: &str) -> CassetteError {
    CassetteError {
        reason: CassetteReason::InvalidCassette,
        pointer: pointer.to_owned(),
        message: format!(
            "Invalid cassette: {what} at {}.",
            if pointer.is_empty() {
                "the root"
            } else {
                pointer
            }
        ),
    }
}

/// Drops the facade's tagged non-JSON values (functions, `undefined`, …) everywhere, and the
/// runtime members at the top of a request.
fn drop_non_json(value: &mut Value) {
    let mut stack: Vec<&mut Value> = vec![value];
    while let Some(v) = stack.pop() {
        match v {
            Value::Array(items) => {
                // An array keeps its length: a non-JSON item becomes null, as JSON.stringify does.
                for item in items.iter_mut() {
                    if is_tagged(item) {
                        *item = Value::Null;
                    } else {
                        stack.push(item);
                    }
                }
            }
            Value::Object(map) => {
                map.retain(|_, child| !is_tagged(child));
                stack.extend(map.values_mut());
            }
            _ => {}
        }
    }
}

fn is_tagged(v: &Value) -> bool {
    matches!(v, Value::Object(m) if m.len() == 1 && m.contains_key(TAG_KEY))
}

/// The normalized form of a model request: what is stored and hashed. What redaction took out
/// is added to `taken`.
pub fn normalize_request(mut request: Value, redaction: &Redaction, taken: &mut Taken) -> Value {
    strip_request(&mut request);
    redaction.apply(&mut request, taken);
    // Keys sorted, so equal requests have one text whatever order they were built in. (Values
    // come from `serde_json::from_str`, whose recursion limit bounds this recursive sort.)
    request.sort_all_objects();
    request
}

/// [`normalize_request`] without the redaction: what a live request is first compared as
/// (a request with nothing to redact equals its recorded form as it is).
pub fn normalize_unredacted(mut request: Value) -> Value {
    strip_request(&mut request);
    request.sort_all_objects();
    request
}

/// Takes out what never takes part in matching: the runtime members and non-JSON values.
fn strip_request(request: &mut Value) {
    if let Value::Object(map) = request {
        for k in RUNTIME_KEYS {
            map.shift_remove(k);
        }
    }
    drop_non_json(request);
}

/// FNV-1a 64 of the JSON text (no whitespace) of a normalized request, whose keys are sorted,
/// as 16 hex digits.
pub fn hash(normalized: &Value) -> String {
    text_hash(&serde_json::to_string(normalized).unwrap_or_default())
}

/// FNV-1a 64 of `text`, as 16 hex digits.
pub fn text_hash(text: &str) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in text.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    format!("{h:016x}")
}

/// Which model interface a cassette recorded: `@openai/agents`' `Model` (responses with an
/// `output` list; streams of its events, complete with `response_done`) or the AI SDK's
/// `LanguageModel` (results with `content` parts; streams of its parts, complete with `finish`).
/// Or a provider's HTTP API (the wire tape's: requests and responses as sent, streams as their
/// server-sent events). A language-model or HTTP cassette says so in its `"interface"`
/// member; an agents cassette has none.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Interface {
    AgentsModel,
    LanguageModel,
    Http,
}

impl Interface {
    /// The `"interface"` member that marks a language-model cassette.
    const LANGUAGE_MODEL: &'static str = "language-model";
    /// The `"interface"` member that marks an HTTP cassette.
    const HTTP: &'static str = "http";

    fn stored(self) -> Option<&'static str> {
        match self {
            Interface::AgentsModel => None,
            Interface::LanguageModel => Some(Self::LANGUAGE_MODEL),
            Interface::Http => Some(Self::HTTP),
        }
    }

    /// The interface of a facade's code: 1 a language model, 2 HTTP, else an agents `Model`.
    pub fn from_code(code: u8) -> Interface {
        match code {
            1 => Interface::LanguageModel,
            2 => Interface::Http,
            _ => Interface::AgentsModel,
        }
    }
}

/// A language model's stream parts as the result `doGenerate` would have answered: the texts
/// and reasoning joined by part id, the tool calls, the `finish` part's reason and usage; `None`
/// without a `finish` part (the stream was cut short).
pub fn result_from_parts(parts: &[Value]) -> Option<Value> {
    let finish = parts
        .iter()
        .rev()
        .find(|p| p.get("type").and_then(Value::as_str) == Some("finish"))?;
    let mut content: Vec<Value> = Vec::new();
    let mut open: Vec<(String, usize)> = Vec::new();
    for part in parts {
        let kind = part.get("type").and_then(Value::as_str).unwrap_or("");
        let id = part.get("id").map(Value::to_string).unwrap_or_default();
        match kind {
            "text-start" | "reasoning-start" => {
                let base = &kind[..kind.len() - "-start".len()];
                open.push((format!("{base}|{id}"), content.len()));
                let mut m = Map::new();
                m.insert("type".into(), Value::String(base.into()));
                m.insert("text".into(), Value::String(String::new()));
                content.push(Value::Object(m));
            }
            "text-delta" | "reasoning-delta" => {
                let base = &kind[..kind.len() - "-delta".len()];
                let key = format!("{base}|{id}");
                let delta = part.get("delta").and_then(Value::as_str).unwrap_or("");
                if let Some((_, at)) = open.iter().find(|(k, _)| *k == key) {
                    if let Some(Value::String(text)) = content[*at].get_mut("text") {
                        text.push_str(delta);
                    }
                }
            }
            "tool-call" => content.push(part.clone()),
            _ => {}
        }
    }
    let mut out = Map::new();
    out.insert("content".into(), Value::Array(content));
    for key in ["finishReason", "usage", "providerMetadata"] {
        if let Some(v) = finish.get(key) {
            out.insert(key.into(), v.clone());
        }
    }
    Some(Value::Object(out))
}

/// How a recorded call ended.
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    Response(Value),
    /// A streamed call's events; the response is taken from its `response_done` event.
    Events(Vec<Value>),
    Error {
        name: String,
        message: String,
        /// What a retry of the call is decided by, as the failure carried it.
        retry: RetryFacts,
    },
}

/// What a caller's retry logic reads of a failed call, kept so a replayed failure is retried
/// as the live one was (an AI SDK `APICallError`'s `statusCode`, `isRetryable` and
/// `retry-after-ms` header; an HTTP error's `status`). Numbers and a verdict: nothing in them
/// to redact.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RetryFacts {
    /// The HTTP status (100–599).
    pub status: Option<u64>,
    /// The provider's own verdict on retrying.
    pub retryable: Option<bool>,
    /// The delay the server asked for, in milliseconds.
    pub retry_after_ms: Option<f64>,
}

impl RetryFacts {
    /// The facts of `error` (`{ status?, retryable?, retryAfterMs? }`), each kept only when it
    /// has its type and range.
    pub fn read(error: &Value) -> RetryFacts {
        RetryFacts {
            status: error
                .get("status")
                .and_then(Value::as_u64)
                .filter(|s| (100..=599).contains(s)),
            retryable: error.get("retryable").and_then(Value::as_bool),
            retry_after_ms: error
                .get("retryAfterMs")
                .and_then(Value::as_f64)
                .filter(|ms| ms.is_finite() && *ms >= 0.0),
        }
    }

    fn write(&self, error: &mut Map<String, Value>) {
        if let Some(s) = self.status {
            error.insert("status".into(), s.into());
        }
        if let Some(r) = self.retryable {
            error.insert("retryable".into(), r.into());
        }
        if let Some(ms) = self.retry_after_ms {
            error.insert("retryAfterMs".into(), ms.into());
        }
    }
}

/// The normalized response carried by a `response_done` event, in `ModelResponse` shape.
pub fn response_from_events(events: &[Value]) -> Option<Value> {
    let done = events
        .iter()
        .rev()
        .find(|e| e.get("type").and_then(Value::as_str) == Some("response_done"))?;
    let r = done.get("response")?;
    let mut out = Map::new();
    out.insert(
        "output".into(),
        r.get("output").cloned().unwrap_or(Value::Array(Vec::new())),
    );
    out.insert(
        "usage".into(),
        r.get("usage")
            .cloned()
            .unwrap_or_else(|| serde_json::json!({ "requests": 1 })),
    );
    for (from, to) in [
        ("id", "responseId"),
        ("requestId", "requestId"),
        ("providerData", "providerData"),
    ] {
        if let Some(v) = r.get(from).filter(|v| !v.is_null()) {
            out.insert(to.into(), v.clone());
        }
    }
    Some(Value::Object(out))
}

/// The deltas of a recorded stream, by what they add to: the text deltas of `@openai/agents`
/// (`output_text_delta`), a language model's text, reasoning and tool-input parts by part id,
/// and each raw provider event stream (`type: 'model'`) whose events
/// carry a `delta` string, by its event type, item and content index (text and function-call
/// arguments arrive in pieces there). A credential split across pieces is found in their join.
fn delta_channels(events: &mut [Value]) -> Vec<Vec<&mut String>> {
    let mut channels: Vec<(String, Vec<&mut String>)> = Vec::new();
    for event in events.iter_mut() {
        let Value::Object(e) = event else { continue };
        let kind = e.get("type").and_then(Value::as_str).unwrap_or("");
        let (channel, delta) =
            if matches!(kind, "text-delta" | "reasoning-delta" | "tool-input-delta") {
                // A language model's parts: one channel per part id.
                let id = e.get("id").map(Value::to_string).unwrap_or_default();
                (format!("{kind}|{id}"), e.get_mut("delta"))
            } else if e.get("type").and_then(Value::as_str) == Some("model") {
                let Some(Value::Object(raw)) = e.get_mut("event") else {
                    continue;
                };
                let key = ["type", "item_id", "output_index", "content_index"]
                    .iter()
                    .map(|k| raw.get(*k).map(Value::to_string).unwrap_or_default())
                    .collect::<Vec<_>>()
                    .join("|");
                (format!("model|{key}"), raw.get_mut("delta"))
            } else if e.get("type").and_then(Value::as_str) == Some("output_text_delta") {
                ("output_text_delta".to_owned(), e.get_mut("delta"))
            } else {
                continue;
            };
        let Some(Value::String(delta)) = delta else {
            continue;
        };
        match channels.iter_mut().find(|(c, _)| *c == channel) {
            Some((_, pieces)) => pieces.push(delta),
            None => channels.push((channel, vec![delta])),
        }
    }
    channels.into_iter().map(|(_, pieces)| pieces).collect()
}

/// One recorded step. What redaction took out is added to `taken`, for [`build`] to take out
/// of every step.
pub fn record_step(
    request: Value,
    streamed: bool,
    outcome: Outcome,
    redaction: &Redaction,
    taken: &mut Taken,
) -> Value {
    record_step_for(
        Interface::AgentsModel,
        request,
        streamed,
        outcome,
        redaction,
        taken,
    )
}

/// [`record_step`] for a cassette of `interface`.
pub fn record_step_for(
    interface: Interface,
    request: Value,
    streamed: bool,
    outcome: Outcome,
    redaction: &Redaction,
    taken: &mut Taken,
) -> Value {
    let request = normalize_request(request, redaction, taken);
    let mut step = Map::new();
    step.insert("streamed".into(), Value::Bool(streamed));
    step.insert("hash".into(), Value::String(hash(&request)));
    step.insert("request".into(), request);
    match outcome {
        Outcome::Response(mut response) => {
            drop_non_json(&mut response);
            redaction.apply(&mut response, taken);
            step.insert("response".into(), response);
        }
        Outcome::Events(mut events) => {
            for mut pieces in delta_channels(&mut events) {
                redaction.apply_split(&mut pieces, taken);
            }
            let mut events = Value::Array(events);
            drop_non_json(&mut events);
            redaction.apply(&mut events, taken);
            let list = events.as_array().map(Vec::as_slice).unwrap_or(&[]);
            let (response, last) = match interface {
                Interface::LanguageModel => (result_from_parts(list), "finish part"),
                // HTTP steps are made by the wire tape.
                Interface::AgentsModel | Interface::Http => {
                    (response_from_events(list), "response_done event")
                }
            };
            match response {
                Some(response) => {
                    step.insert("response".into(), response);
                }
                None => {
                    let message = format!("The recorded stream ended before its {last}.");
                    step.insert(
                        "error".into(),
                        serde_json::json!({ "name": "IncompleteStreamError", "message": message }),
                    );
                }
            }
            step.insert("events".into(), events);
        }
        Outcome::Error {
            name,
            message,
            retry,
        } => {
            let mut error = serde_json::json!({ "name": name, "message": message });
            redaction.apply(&mut error, taken);
            if let Value::Object(fields) = &mut error {
                retry.write(fields);
            }
            step.insert("error".into(), error);
        }
    }
    Value::Object(step)
}

/// A whole cassette from recorded steps: what redaction took out of any step is taken out of
/// every step wherever it stands (`redaction::propagate`), and a request that changed is hashed
/// again.
pub fn build(steps: Vec<Value>, redaction: &Redaction, taken: &Taken) -> Value {
    build_for(Interface::AgentsModel, None, steps, redaction, taken)
}

/// [`build`] for a cassette of `interface` (a language-model cassette says so, and which
/// `model` it recorded when that is known).
pub fn build_for(
    interface: Interface,
    model: Option<&ModelIdentity>,
    mut steps: Vec<Value>,
    redaction: &Redaction,
    taken: &Taken,
) -> Value {
    let changed = super::redaction::propagate(&mut steps, taken);
    for (step, changed) in steps.iter_mut().zip(changed) {
        if let (true, Some(request)) = (changed, step.get("request")) {
            let h = hash(request);
            step["hash"] = Value::String(h);
            // The text as sent held what redaction took out afterwards: its hash goes too.
            if let Some(map) = step.as_object_mut() {
                map.shift_remove("textHash");
            }
        }
    }
    let mut doc = Map::new();
    doc.insert("format".into(), FORMAT.into());
    doc.insert("version".into(), VERSION.into());
    if let Some(name) = interface.stored() {
        doc.insert("interface".into(), name.into());
    }
    if let (Interface::LanguageModel, Some(model)) = (interface, model) {
        doc.insert(
            "model".into(),
            serde_json::to_value(model).unwrap_or_default(),
        );
    }
    doc.insert("redaction".into(), redaction.to_json());
    doc.insert("steps".into(), Value::Array(steps));
    Value::Object(doc)
}

/// A loaded cassette: its redaction settings and its steps, checked.
#[derive(Debug)]
pub struct Cassette {
    pub redaction: Redaction,
    pub steps: Vec<Value>,
    /// Whose calls it recorded.
    pub interface: Interface,
    /// The language model it was recorded from, when it says (`"model"`).
    pub model: Option<ModelIdentity>,
}

/// Which language model a cassette recorded: what the SDK reports of a step's model
/// (`steps[i].model`, and `response.modelId` where the provider's result has none), so a
/// replay reports the same.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ModelIdentity {
    pub provider: String,
    pub model_id: String,
    pub specification_version: String,
}

impl ModelIdentity {
    /// The interface versions a replay can answer as (a `v2` model's calls replay as `v3`).
    const VERSIONS: [&'static str; 3] = ["v2", "v3", "v4"];

    /// `"model"` of a cassette document, checked: each member a string, the version known.
    fn read(v: &Value) -> Result<ModelIdentity, CassetteError> {
        let member = |key: &str| -> Result<String, CassetteError> {
            v.get(key)
                .and_then(Value::as_str)
                .map(str::to_owned)
                .ok_or_else(|| invalid(&format!("/model/{key}"), "a string was expected"))
        };
        if !v.is_object() {
            return Err(invalid("/model", "an object was expected"));
        }
        let identity = ModelIdentity {
            provider: member("provider")?,
            model_id: member("modelId")?,
            specification_version: member("specificationVersion")?,
        };
        if !Self::VERSIONS.contains(&identity.specification_version.as_str()) {
            return Err(invalid(
                "/model/specificationVersion",
                "\"v2\", \"v3\" or \"v4\" was expected",
            ));
        }
        Ok(identity)
    }
}

fn strings(v: Option<&Value>, pointer: &str) -> Result<Vec<String>, CassetteError> {
    match v {
        None => Ok(Vec::new()),
        Some(Value::Array(items)) => items
            .iter()
            .enumerate()
            .map(|(i, s)| {
                s.as_str()
                    .map(str::to_owned)
                    .ok_or_else(|| invalid(&format!("{pointer}/{i}"), "a string was expected"))
            })
            .collect(),
        Some(_) => Err(invalid(pointer, "an array of strings was expected")),
    }
}

/// Checks a cassette document (format, version, every step's shape).
pub fn load(doc: Value, host: Rc<dyn PatternHost>) -> Result<Cassette, CassetteError> {
    load_for(Interface::AgentsModel, doc, host)
}

/// [`load`] for a replay of `interface`: a cassette recorded from the other interface is
/// refused at `/interface`.
pub fn load_for(
    interface: Interface,
    mut doc: Value,
    host: Rc<dyn PatternHost>,
) -> Result<Cassette, CassetteError> {
    let root = doc
        .as_object()
        .ok_or_else(|| invalid("", "an object was expected"))?;
    let recorded = match root.get("interface") {
        None => Interface::AgentsModel,
        Some(v) if v.as_str() == Some(Interface::LANGUAGE_MODEL) => Interface::LanguageModel,
        Some(v) if v.as_str() == Some(Interface::HTTP) => Interface::Http,
        Some(_) => {
            return Err(invalid(
                "/interface",
                "\"interface\" must be \"language-model\", \"http\" or absent",
            ))
        }
    };
    // The format first: a document that is no cassette at all is not said to come from a model.
    if root.get("format").and_then(Value::as_str) != Some(FORMAT) {
        return Err(invalid(
            "/format",
            &format!("\"format\" must be \"{FORMAT}\""),
        ));
    }
    if recorded != interface {
        let (was, with) = match recorded {
            Interface::AgentsModel => ("an @openai/agents Model", "ScriptedModel.fromCassette or cassette from @understudy/agents/testing"),
            Interface::LanguageModel => ("an AI SDK language model", "ScriptedLanguageModel.fromCassette or cassette from @understudy/agents/ai-sdk/testing"),
            Interface::Http => ("a provider's HTTP API", "scriptedFetch({ cassette }) or providerServer({ cassette })"),
        };
        return Err(invalid(
            "/interface",
            &format!("it was recorded from {was}; replay it with {with}"),
        ));
    }
    match root.get("version").and_then(Value::as_u64) {
        Some(VERSION) => {}
        Some(v) => {
            return Err(CassetteError {
                reason: CassetteReason::UnsupportedVersion,
                pointer: "/version".into(),
                message: format!("Cassette version {v} is not supported; this version of understudy reads version {VERSION}."),
            })
        }
        None => return Err(invalid("/version", "\"version\" must be a number")),
    }
    let redaction_json = root.get("redaction");
    // Earlier versions stored the built-in key names with the caller's: they are rules.
    let mut keys = strings(
        redaction_json.and_then(|r| r.get("keys")),
        "/redaction/keys",
    )?;
    keys.retain(|k| !super::redaction::rules::LEGACY_STORED_KEYS.contains(&k.as_str()));
    let redaction = Redaction::with_allow(
        &keys,
        &strings(
            redaction_json.and_then(|r| r.get("patterns")),
            "/redaction/patterns",
        )?,
        &strings(
            redaction_json.and_then(|r| r.get("allow")),
            "/redaction/allow",
        )?,
        host,
    )
    .map_err(CassetteError::from)?;
    let steps = root
        .get("steps")
        .and_then(Value::as_array)
        .ok_or_else(|| invalid("/steps", "\"steps\" must be an array"))?;
    for (i, step) in steps.iter().enumerate() {
        let at = |k: &str| format!("/steps/{i}/{k}");
        let s = step
            .as_object()
            .ok_or_else(|| invalid(&format!("/steps/{i}"), "a step must be an object"))?;
        if !s.get("streamed").is_some_and(Value::is_boolean) {
            return Err(invalid(&at("streamed"), "\"streamed\" must be a boolean"));
        }
        if !s.get("request").is_some_and(Value::is_object) {
            return Err(invalid(&at("request"), "\"request\" must be an object"));
        }
        if interface == Interface::Http {
            // An HTTP step's own shape is the wire tape's to check (its `load`).
            continue;
        }
        match (s.get("response"), s.get("error")) {
            (Some(r), None) => {
                let list = match interface {
                    Interface::LanguageModel => "content",
                    Interface::AgentsModel | Interface::Http => "output",
                };
                if !r.get(list).is_some_and(Value::is_array) {
                    return Err(invalid(
                        &at(&format!("response/{list}")),
                        &format!("a response needs an \"{list}\" array"),
                    ));
                }
                if let Some(events) = s.get("events") {
                    if !events.is_array() {
                        return Err(invalid(&at("events"), "\"events\" must be an array"));
                    }
                }
            }
            (None, Some(e)) => {
                if !e.get("message").is_some_and(Value::is_string) {
                    return Err(invalid(
                        &at("error/message"),
                        "an error needs a \"message\" string",
                    ));
                }
                let facts = RetryFacts::read(e);
                for (key, kept) in [
                    ("status", facts.status.is_some()),
                    ("retryable", facts.retryable.is_some()),
                    ("retryAfterMs", facts.retry_after_ms.is_some()),
                ] {
                    if e.get(key).is_some() && !kept {
                        return Err(invalid(
                            &at(&format!("error/{key}")),
                            "\"status\" is an HTTP status, \"retryable\" a boolean and \"retryAfterMs\" a number of milliseconds",
                        ));
                    }
                }
            }
            _ => {
                return Err(invalid(
                    &format!("/steps/{i}"),
                    "a step needs exactly one of \"response\" and \"error\"",
                ))
            }
        }
    }
    let model = match root.get("model") {
        None => None,
        Some(_) if recorded != Interface::LanguageModel => {
            return Err(invalid(
                "/model",
                "only a language-model cassette names its model",
            ))
        }
        Some(v) => Some(ModelIdentity::read(v)?),
    };
    // Checked above: moved out, not copied (a long loop's cassette holds every request whole).
    let steps = match doc.get_mut("steps").map(Value::take) {
        Some(Value::Array(steps)) => steps,
        _ => Vec::new(),
    };
    Ok(Cassette {
        redaction,
        steps,
        interface,
        model,
    })
}

/// Where two normalized requests first differ.
#[derive(Clone, Debug, PartialEq)]
pub struct Difference {
    pub pointer: String,
    pub recorded: Option<Value>,
    pub live: Option<Value>,
}

fn escape(token: &str) -> String {
    token.replace('~', "~0").replace('/', "~1")
}

/// Walks two values in document order (keys sorted): how many leaves agree before the first
/// difference, and that difference (`None` when the values are equal).
fn compare(recorded: &Value, live: &Value) -> (usize, Option<Difference>) {
    let mut agreeing = 0;
    let mut stack: Vec<(String, Option<&Value>, Option<&Value>)> =
        vec![(String::new(), Some(recorded), Some(live))];
    while let Some((pointer, a, b)) = stack.pop() {
        match (a, b) {
            (Some(Value::Object(x)), Some(Value::Object(y))) => {
                let mut keys: Vec<&String> = x.keys().chain(y.keys()).collect();
                keys.sort();
                keys.dedup();
                for k in keys.into_iter().rev() {
                    stack.push((format!("{pointer}/{}", escape(k)), x.get(k), y.get(k)));
                }
            }
            (Some(Value::Array(x)), Some(Value::Array(y))) => {
                for i in (0..x.len().max(y.len())).rev() {
                    stack.push((format!("{pointer}/{i}"), x.get(i), y.get(i)));
                }
            }
            (x, y) if x == y => agreeing += 1,
            (x, y) => {
                return (
                    agreeing,
                    Some(Difference {
                        pointer,
                        recorded: x.cloned(),
                        live: y.cloned(),
                    }),
                )
            }
        }
    }
    (agreeing, None)
}

/// The first difference between two values in document order (keys sorted), or `None`.
pub fn first_difference(recorded: &Value, live: &Value) -> Option<Difference> {
    compare(recorded, live).1
}

/// No recorded request matches a live one (`CassetteMismatchError`).
#[derive(Clone, Debug, PartialEq)]
pub struct Mismatch {
    pub call_index: usize,
    pub hash: String,
    /// What a call is, in the message: a model call, or an HTTP request.
    pub interface: Interface,
    /// The closest unused recorded step, and where it differs.
    pub closest: Option<(usize, Difference)>,
}

fn excerpt(v: &Option<Value>) -> String {
    match v {
        None => "(absent)".to_owned(),
        Some(v) => {
            let text = serde_json::to_string(v).unwrap_or_default();
            if text.chars().count() > 80 {
                format!("{}…", text.chars().take(79).collect::<String>())
            } else {
                text
            }
        }
    }
}

use crate::error::Class;

impl crate::error::Raise for CassetteError {
    fn kind(&self) -> Class {
        Class::InvalidCassetteError
    }
}

/// `CassetteMismatchError`'s fields: the closest step flattened, the two values as JSON text.
#[derive(serde::Serialize)]
#[cfg_attr(
    test,
    derive(ts_rs::TS),
    ts(rename = "CassetteMismatchErrorFields", optional_fields)
)]
#[serde(rename_all = "camelCase")]
pub struct MismatchFields {
    /// The zero-based position of the live call.
    pub call_index: usize,
    /// The live request's hash.
    pub hash: String,
    /// The closest unused recorded step, when one is left.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub closest_step: Option<usize>,
    /// JSON Pointer of the first field where that step's request differs.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pointer: Option<String>,
    /// That field as recorded (JSON text; absent when the field is).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub recorded: Option<String>,
    /// That field as sent now (JSON text; absent when the field is).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub live: Option<String>,
}

impl serde::Serialize for Mismatch {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let closest = self.closest.as_ref();
        let text = |v: Option<&Option<Value>>| v.and_then(Option::as_ref).map(Value::to_string);
        MismatchFields {
            call_index: self.call_index,
            hash: self.hash.clone(),
            closest_step: closest.map(|(step, _)| *step),
            pointer: closest.map(|(_, d)| d.pointer.clone()),
            recorded: text(closest.map(|(_, d)| &d.recorded)),
            live: text(closest.map(|(_, d)| &d.live)),
        }
        .serialize(serializer)
    }
}

impl crate::error::Raise for Mismatch {
    fn kind(&self) -> Class {
        Class::CassetteMismatchError
    }
}

/// `CassetteMissingError`'s fields: an `InvalidCassetteError`'s (reason `missing`, pointer
/// `''`) and the file's path.
#[derive(serde::Serialize)]
#[cfg_attr(
    test,
    derive(ts_rs::TS),
    ts(rename = "CassetteMissingErrorFields", optional_fields)
)]
pub struct MissingFields<'a> {
    #[cfg_attr(test, ts(type = "InvalidCassetteReason"))]
    pub reason: CassetteReason,
    pub pointer: &'a str,
    /// The cassette file that was looked for.
    pub path: &'a str,
}

/// A missing cassette's fields ([`MissingFields`]); an unknown mode (a `UserError`) has none.
impl serde::Serialize for PlanError {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            PlanError::Missing { path, .. } => MissingFields {
                reason: CassetteReason::Missing,
                pointer: "",
                path,
            }
            .serialize(serializer),
            PlanError::UnknownMode(_) => serializer.serialize_unit(),
        }
    }
}

impl crate::error::Raise for PlanError {
    fn kind(&self) -> Class {
        match self {
            PlanError::Missing { .. } => Class::CassetteMissingError,
            PlanError::UnknownMode(_) => Class::UserError,
        }
    }
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "No recorded request matches {} #{} (request hash {}).",
            match self.interface {
                Interface::Http => "HTTP request",
                Interface::AgentsModel | Interface::LanguageModel => "model call",
            },
            self.call_index + 1,
            self.hash
        )?;
        match &self.closest {
            Some((step, d)) => write!(
                f,
                " The closest unused recorded request (step #{}) differs at {}: recorded {}, live {}.",
                step + 1,
                if d.pointer.is_empty() { "the root" } else { &d.pointer },
                excerpt(&d.recorded),
                excerpt(&d.live)
            ),
            None => f.write_str(" Every recorded step has been used."),
        }?;
        // What re-records at this level: the cassette helpers read the environment variable; a
        // wire cassette given to scriptedFetch or serve is recorded by a recording double.
        f.write_str(match self.interface {
            Interface::Http => " If the change is intended, re-record the cassette where the real API is reachable: with recordingFetch (or fetchCassette under UNDERSTUDY_CASSETTES=record) in-process, providerServer({ upstream, path }) or `understudy serve --upstream <url> --record <file>` for another process.",
            Interface::AgentsModel | Interface::LanguageModel => " If the change is intended, re-record the cassette: run the test with UNDERSTUDY_CASSETTES=record.",
        })
    }
}

/// How a replayed cassette answers the calls (`ReplayOptions.match`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MatchMode {
    /// Step by step, in the order recorded (the default).
    Order,
    /// Each call by the recorded request it equals.
    Request,
}

/// The match mode `given` names (`None`: the option is absent, which is `order`); `Err` with
/// the message for anything else, which `shown` spells as JSON.
pub fn match_mode(given: Option<&str>, shown: &str) -> Result<MatchMode, String> {
    match given {
        None => Ok(MatchMode::Order),
        Some("order") => Ok(MatchMode::Order),
        Some("request") => Ok(MatchMode::Request),
        Some(_) => Err(format!(
            "Unknown cassette match mode {shown}; use 'order' or 'request'."
        )),
    }
}

/// A pattern as the cassette stores it: a `RegExp`'s flags lead its source as `(?flags)`; `g`
/// and `d` change nothing about what matches and are left out. [`Pattern`] reads the flags
/// back and refuses the ones it cannot run.
pub fn pattern_text(source: &str, flags: &str) -> String {
    let flags: String = flags.chars().filter(|c| !matches!(c, 'g' | 'd')).collect();
    if flags.is_empty() {
        source.to_owned()
    } else {
        format!("(?{flags}){source}")
    }
}

/// The file of the cassette `name` in the folder `dir` (default `cassettes`; trailing
/// separators dropped): `<dir>/<name>.cassette.json`.
pub fn named_cassette_path(dir: Option<&str>, name: &str) -> String {
    let dir = dir.unwrap_or("cassettes").trim_end_matches(['/', '\\']);
    format!("{dir}/{name}.cassette.json")
}

/// The file of the `index`-th cassette (0 for the first) of the test `full_name` in
/// `test_file`: `<folder>/__cassettes__/<test file name>/<`[`cassette_file_name`]`>.cassette.json`,
/// next to the test file (`.` when its path has no folder).
pub fn test_cassette_path(test_file: &str, full_name: &str, index: usize) -> String {
    let (folder, file) = match test_file.rfind(['/', '\\']) {
        Some(cut) => (&test_file[..cut], &test_file[cut + 1..]),
        None => (".", test_file),
    };
    let base = cassette_file_name(full_name, index);
    format!("{folder}/__cassettes__/{file}/{base}.cassette.json")
}

/// The file name (without `.cassette.json`) of the `index`-th cassette (from 0) of the test
/// `full_name`: stable across runs and safe on every file system. Letters, digits, spaces, `.`,
/// `-` and `_` are kept, `suite > test` becomes `suite - test`, anything else becomes `_`;
/// leading and trailing dots and spaces go; names past 100 characters are cut and end in a hash
/// of the whole name; Windows device names get a `_`; the second cassette of a test ends in
/// `-2`, the third in `-3`.
pub fn cassette_file_name(full_name: &str, index: usize) -> String {
    const MAX: usize = 100;
    let spaced = full_name.replace(" > ", " - ");
    let mut name: String = spaced
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || matches!(c, ' ' | '.' | '-' | '_') {
                c
            } else {
                '_'
            }
        })
        .collect();
    name = name.trim_matches(|c| c == ' ' || c == '.').to_owned();
    if name.is_empty() {
        name = "test".to_owned();
    }
    if name.chars().count() > MAX {
        // FNV-1a of the whole name: two long names that share a prefix stay apart.
        let hash = full_name.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
            (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
        });
        let cut: String = name.chars().take(MAX - 9).collect();
        name = format!("{}-{:08x}", cut.trim_end_matches([' ', '.']), hash as u32);
    }
    let stem = name.split('.').next().unwrap_or("").to_ascii_uppercase();
    let device = matches!(stem.as_str(), "CON" | "PRN" | "AUX" | "NUL")
        || (stem.len() == 4
            && (stem.starts_with("COM") || stem.starts_with("LPT"))
            && stem.as_bytes()[3].is_ascii_digit());
    if device {
        name.push('_');
    }
    if index > 0 {
        name = format!("{name}-{}", index + 1);
    }
    name
}

/// What `cassette()` does for one test: call the real model and record, replay the file, or
/// call the real model and record nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Plan {
    Record,
    Replay,
    Off,
}

/// Why `cassette()` cannot run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlanError {
    /// The cassette is missing where it must be replayed (`replay`, or `auto` under `CI`).
    Missing {
        path: String,
        ci: bool,
    },
    UnknownMode(String),
}

impl fmt::Display for PlanError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlanError::Missing { path, ci } => write!(
                f,
                "Cassette {path} does not exist{}; record it by running the test with UNDERSTUDY_CASSETTES=record (or UNDERSTUDY_RECORD=1) where the real model is reachable, and commit the file.",
                if *ci { " and CI is set, so nothing is recorded" } else { "" }
            ),
            PlanError::UnknownMode(m) => write!(
                f,
                "UNDERSTUDY_CASSETTES is {m:?}; the modes are auto (the default), record, replay and off."
            ),
        }
    }
}

/// An environment flag that is set: present, not empty, not `0` or `false`.
fn set(v: Option<&str>) -> bool {
    matches!(v.map(str::trim), Some(v) if !v.is_empty() && v != "0" && !v.eq_ignore_ascii_case("false"))
}

/// The plan from `UNDERSTUDY_CASSETTES` (`mode`), `UNDERSTUDY_RECORD` (`1` / `true` spell
/// `record`), `CI`, the `record` option (which wins: `true` records, `false` replays) and
/// whether the cassette file exists. `auto` replays an existing cassette and records a missing
/// one, except under `CI`, where a missing one is an error and nothing is written.
pub fn plan(
    mode: Option<&str>,
    record_env: Option<&str>,
    ci: Option<&str>,
    record_option: Option<bool>,
    exists: bool,
    path: &str,
) -> Result<Plan, PlanError> {
    let missing = |ci| PlanError::Missing {
        path: path.to_owned(),
        ci,
    };
    let mode = match record_option {
        Some(true) => "record",
        Some(false) => "replay",
        None if matches!(record_env.map(str::trim), Some("1" | "true")) => "record",
        None => mode
            .map(str::trim)
            .filter(|m| !m.is_empty())
            .unwrap_or("auto"),
    };
    match mode {
        "record" => Ok(Plan::Record),
        "off" => Ok(Plan::Off),
        "replay" if exists => Ok(Plan::Replay),
        "replay" => Err(missing(set(ci))),
        "auto" if exists => Ok(Plan::Replay),
        "auto" if set(ci) => Err(missing(true)),
        "auto" => Ok(Plan::Record),
        other => Err(PlanError::UnknownMode(other.to_owned())),
    }
}

/// Replay by request: which recorded steps are still unused.
#[derive(Debug)]
pub struct Matcher {
    interface: Interface,
    hashes: Vec<String>,
    requests: Vec<Value>,
    used: Vec<bool>,
}

impl Matcher {
    /// [`Matcher::new`], taking the requests out of the steps instead of copying them (a long
    /// loop's cassette holds every request whole): for a replay that reads only the answers after.
    pub fn taking(cassette: &mut Cassette) -> Matcher {
        let mut requests: Vec<Value> = cassette
            .steps
            .iter_mut()
            .map(|s| s.get_mut("request").map(Value::take).unwrap_or(Value::Null))
            .collect();
        for r in requests.iter_mut() {
            r.sort_all_objects();
        }
        Matcher {
            interface: cassette.interface,
            hashes: requests.iter().map(hash).collect(),
            used: vec![false; requests.len()],
            requests,
        }
    }

    pub fn new(cassette: &Cassette) -> Matcher {
        // Sorted and hashed again here, so a hand-edited request still matches what it says.
        let requests: Vec<Value> = cassette
            .steps
            .iter()
            .map(|s| {
                let mut request = s.get("request").cloned().unwrap_or(Value::Null);
                request.sort_all_objects();
                request
            })
            .collect();
        let hashes = requests.iter().map(hash).collect();
        Matcher {
            interface: cassette.interface,
            hashes,
            used: vec![false; requests.len()],
            requests,
        }
    }

    /// Marks step `i` used (a replay that found it by other means).
    pub fn take(&mut self, i: usize) {
        if let Some(u) = self.used.get_mut(i) {
            *u = true;
        }
    }

    /// The first unused step whose request equals `live` as it is (normalized, unredacted),
    /// taken; `None` when no step does (then [`Matcher::pick`] decides, on the redacted form).
    pub fn pick_exact(&mut self, live: &Value) -> Option<usize> {
        let h = hash(live);
        let i = (0..self.hashes.len())
            .find(|&i| !self.used[i] && self.hashes[i] == h && self.requests[i] == *live)?;
        self.used[i] = true;
        Some(i)
    }

    /// The first unused step whose normalized request equals `live` (already normalized), or
    /// else the first that equals it with each redacted part of the recorded request standing
    /// for any text (`redaction::matches_redacted`: the live request may carry in plain text a
    /// value that redaction learned from another step).
    pub fn pick(&mut self, live: &Value, call_index: usize) -> Result<usize, Box<Mismatch>> {
        let h = hash(live);
        if let Some(i) = (0..self.hashes.len())
            .find(|&i| !self.used[i] && self.hashes[i] == h && self.requests[i] == *live)
            .or_else(|| {
                (0..self.requests.len()).find(|&i| {
                    !self.used[i] && super::redaction::matches_redacted(&self.requests[i], live)
                })
            })
        {
            self.used[i] = true;
            return Ok(i);
        }
        let closest = (0..self.requests.len())
            .filter(|&i| !self.used[i])
            .map(|i| (compare(&self.requests[i], live).0, i))
            .fold(None::<(usize, usize)>, |best, (score, i)| match best {
                Some((s, _)) if s >= score => best,
                _ => Some((score, i)),
            })
            .and_then(|(_, i)| first_difference(&self.requests[i], live).map(|d| (i, d)));
        Err(Box::new(Mismatch {
            call_index,
            hash: h,
            interface: self.interface,
            closest,
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn load(doc: Value) -> Result<Cassette, CassetteError> {
        super::load(doc, RegexHost::shared())
    }

    // What redaction takes out is followed in src/doubles/redaction/tests.rs.
    fn normalize_request(request: Value, r: &Redaction) -> Value {
        super::normalize_request(request, r, &mut Taken::default())
    }

    fn record_step(request: Value, streamed: bool, outcome: Outcome, r: &Redaction) -> Value {
        super::record_step(request, streamed, outcome, r, &mut Taken::default())
    }

    fn build(steps: Vec<Value>, r: &Redaction) -> Value {
        super::build(steps, r, &Taken::default())
    }

    use crate::doubles::redaction::tests::redaction;

    #[test]
    fn normalization_drops_runtime_members_and_non_json_values() {
        let tagged = json!({ TAG_KEY: "function" });
        let request = json!({ "input": "hi", "signal": {}, "tracing": true, "_internal": { "tracingParent": { "id": "span_1" } }, "tools": [tagged.clone(), { "name": "t", "invoke": tagged }], "b": 1, "a": 2 });
        let n = normalize_request(request, &redaction());
        assert_eq!(
            n,
            json!({ "input": "hi", "tools": [null, { "name": "t" }], "a": 2, "b": 1 })
        );
        assert_eq!(
            serde_json::to_string(&n).unwrap(),
            r#"{"a":2,"b":1,"input":"hi","tools":[null,{"name":"t"}]}"#,
            "keys sorted"
        );
    }

    #[test]
    fn hashing_is_stable_and_order_insensitive_for_keys() {
        let r = redaction();
        let a = normalize_request(json!({ "a": 1, "b": [1, 2] }), &r);
        let b = normalize_request(json!({ "b": [1, 2], "a": 1 }), &r);
        assert_eq!(hash(&a), hash(&b));
        assert_ne!(
            hash(&a),
            hash(&normalize_request(json!({ "a": 1, "b": [2, 1] }), &r))
        );
        assert_eq!(hash(&json!({})).len(), 16);
    }

    #[test]
    fn streamed_steps_carry_events_and_the_derived_response() {
        let events = vec![
            json!({ "type": "response_started" }),
            json!({ "type": "output_text_delta", "delta": "Hi" }),
            json!({ "type": "response_done", "response": { "id": "r1", "usage": { "requests": 1 }, "output": [{ "type": "message" }] } }),
        ];
        let step = record_step(
            json!({ "input": "x" }),
            true,
            Outcome::Events(events),
            &redaction(),
        );
        assert_eq!(
            step["response"],
            json!({ "output": [{ "type": "message" }], "usage": { "requests": 1 }, "responseId": "r1" })
        );
        assert_eq!(step["events"].as_array().unwrap().len(), 3);
        assert_eq!(step["streamed"], true);
        let cut = record_step(
            json!({}),
            true,
            Outcome::Events(vec![json!({ "type": "response_started" })]),
            &redaction(),
        );
        assert_eq!(
            cut["error"]["name"], "IncompleteStreamError",
            "a stream cut short is kept, as an error step"
        );
        assert!(load(build(vec![cut], &redaction())).is_ok());
    }

    #[test]
    fn cassettes_round_trip_and_bad_ones_are_refused_with_pointers() {
        let r = redaction();
        let steps = vec![
            record_step(
                json!({ "input": "a" }),
                false,
                Outcome::Response(json!({ "output": [], "usage": {} })),
                &r,
            ),
            record_step(
                json!({ "input": "b" }),
                false,
                Outcome::Error {
                    name: "Error".into(),
                    message: format!("429 sk-proj-{}", "ABCDEFGH1234".repeat(2)),
                    retry: RetryFacts {
                        status: Some(429),
                        retryable: Some(true),
                        retry_after_ms: Some(5.0),
                    },
                },
                &r,
            ),
        ];
        let doc = build(steps, &r);
        assert_eq!(doc["steps"][1]["error"]["message"], "429 [REDACTED]");
        // What a retry reads is kept beside the message, and read back.
        assert_eq!(doc["steps"][1]["error"]["status"], 429);
        assert_eq!(doc["steps"][1]["error"]["retryable"], true);
        assert_eq!(doc["steps"][1]["error"]["retryAfterMs"], 5.0);
        let mut wrong = doc.clone();
        wrong["steps"][1]["error"]["status"] = json!("429");
        let e = load(wrong).unwrap_err();
        assert_eq!(e.pointer, "/steps/1/error/status", "{}", e.message);
        let mut out_of_range = doc.clone();
        out_of_range["steps"][1]["error"]["retryAfterMs"] = json!(-1);
        assert!(load(out_of_range).is_err());
        let loaded = load(doc.clone()).unwrap();
        assert_eq!(loaded.steps.len(), 2);
        assert_eq!(loaded.redaction.patterns(), r.patterns());

        let mut bad = doc.clone();
        bad["version"] = json!(2);
        assert_eq!(load(bad).unwrap_err().reason, "unsupported_version");
        let mut bad = doc.clone();
        bad["steps"][0]["response"]["output"] = json!({});
        assert_eq!(load(bad).unwrap_err().pointer, "/steps/0/response/output");
        let mut bad = doc.clone();
        bad["steps"][1]["response"] = json!({ "output": [] });
        let e = load(bad).unwrap_err();
        assert_eq!(e.pointer, "/steps/1");
        assert_eq!(
            e.message,
            "Invalid cassette: a step needs exactly one of \"response\" and \"error\" at /steps/1."
        );
        assert_eq!(
            load(json!([])).unwrap_err().message,
            "Invalid cassette: an object was expected at the root."
        );
        assert_eq!(
            load(json!({ "format": "x" })).unwrap_err().pointer,
            "/format"
        );
    }

    #[test]
    fn match_modes_patterns_and_paths() {
        assert_eq!(match_mode(None, ""), Ok(MatchMode::Order));
        assert_eq!(match_mode(Some("order"), ""), Ok(MatchMode::Order));
        assert_eq!(match_mode(Some("request"), ""), Ok(MatchMode::Request));
        assert_eq!(
            match_mode(Some("hash"), "\"hash\""),
            Err("Unknown cassette match mode \"hash\"; use 'order' or 'request'.".into())
        );
        assert_eq!(pattern_text("sk-[a-z]+", ""), "sk-[a-z]+");
        assert_eq!(pattern_text("sk-[a-z]+", "dgi"), "(?i)sk-[a-z]+");
        assert_eq!(pattern_text("a.b", "gims"), "(?ims)a.b");
        assert_eq!(
            named_cassette_path(None, "run"),
            "cassettes/run.cassette.json"
        );
        assert_eq!(
            named_cassette_path(Some("fix/tures//"), "run"),
            "fix/tures/run.cassette.json"
        );
        assert_eq!(
            named_cassette_path(Some("c:\\x\\"), "run"),
            "c:\\x/run.cassette.json"
        );
        assert_eq!(
            test_cassette_path("/repo/test/a.test.mjs", "suite > it works", 1),
            "/repo/test/__cassettes__/a.test.mjs/suite - it works-2.cassette.json"
        );
        assert_eq!(
            test_cassette_path("C:\\repo\\a.test.mjs", "t", 0),
            "C:\\repo/__cassettes__/a.test.mjs/t.cassette.json"
        );
        assert_eq!(
            test_cassette_path("a.test.mjs", "t", 0),
            "./__cassettes__/a.test.mjs/t.cassette.json"
        );
    }

    #[test]
    fn cassette_file_names_are_safe_and_stable() {
        assert_eq!(
            cassette_file_name("orders > looks up an order", 0),
            "orders - looks up an order"
        );
        assert_eq!(
            cassette_file_name("orders > looks up an order", 1),
            "orders - looks up an order-2"
        );
        assert_eq!(
            cassette_file_name("a/b: c*d? \"e\" <f>|g\\h", 0),
            "a_b_ c_d_ _e_ _f__g_h"
        );
        assert_eq!(cassette_file_name("  ..hidden.  ", 0), "hidden");
        assert_eq!(cassette_file_name("", 2), "test-3");
        assert_eq!(cassette_file_name("con", 0), "con_");
        assert_eq!(cassette_file_name("météo à Paris", 0), "météo à Paris");
        let long = "x".repeat(150);
        let a = cassette_file_name(&long, 0);
        assert_eq!(a.chars().count(), 100);
        assert_eq!(a, cassette_file_name(&long, 0), "stable");
        assert_ne!(
            a,
            cassette_file_name(&format!("{long}y"), 0),
            "a different long name stays apart"
        );
    }

    #[test]
    fn cassette_plans() {
        let p = |mode, rec, ci, opt, exists| plan(mode, rec, ci, opt, exists, "c/x.cassette.json");
        // auto: replay what exists, record what is missing, but never record under CI.
        assert_eq!(p(None, None, None, None, true), Ok(Plan::Replay));
        assert_eq!(p(None, None, None, None, false), Ok(Plan::Record));
        assert_eq!(
            p(Some("auto"), None, Some("true"), None, false),
            Err(PlanError::Missing {
                path: "c/x.cassette.json".into(),
                ci: true
            })
        );
        assert_eq!(p(None, None, Some("1"), None, true), Ok(Plan::Replay));
        assert_eq!(
            p(None, None, Some("false"), None, false),
            Ok(Plan::Record),
            "CI=false is not CI"
        );
        assert_eq!(p(None, None, Some(""), None, false), Ok(Plan::Record));
        // record, replay, off.
        assert_eq!(
            p(Some("record"), None, Some("true"), None, true),
            Ok(Plan::Record)
        );
        assert_eq!(p(Some("replay"), None, None, None, true), Ok(Plan::Replay));
        assert_eq!(
            p(Some("replay"), None, None, None, false),
            Err(PlanError::Missing {
                path: "c/x.cassette.json".into(),
                ci: false
            })
        );
        assert_eq!(p(Some("off"), None, None, None, false), Ok(Plan::Off));
        // UNDERSTUDY_RECORD=1 is another spelling of record; the option wins over both.
        assert_eq!(
            p(Some("replay"), Some("1"), None, None, true),
            Ok(Plan::Record)
        );
        assert_eq!(
            p(Some("record"), None, None, Some(false), true),
            Ok(Plan::Replay)
        );
        assert_eq!(
            p(None, None, Some("true"), Some(true), false),
            Ok(Plan::Record)
        );
        assert_eq!(
            p(Some("recrod"), None, None, None, true),
            Err(PlanError::UnknownMode("recrod".into()))
        );
        let message = PlanError::Missing {
            path: "c/x.cassette.json".into(),
            ci: true,
        }
        .to_string();
        assert!(message.starts_with("Cassette c/x.cassette.json does not exist and CI is set, so nothing is recorded; record it by running the test with UNDERSTUDY_CASSETTES=record"), "{message}");
    }

    #[test]
    fn first_difference_reports_the_earliest_pointer() {
        let a = json!({ "input": [{ "content": "What is 2+2?" }], "model": "m" });
        let b = json!({ "input": [{ "content": "What is 3+3?" }], "model": "n" });
        let d = first_difference(&a, &b).unwrap();
        assert_eq!(d.pointer, "/input/0/content");
        assert_eq!(
            (d.recorded, d.live),
            (Some(json!("What is 2+2?")), Some(json!("What is 3+3?")))
        );
        let d = first_difference(&json!({ "a/b": [1] }), &json!({ "a/b": [1, 2] })).unwrap();
        assert_eq!(
            (d.pointer.as_str(), d.recorded, d.live),
            ("/a~1b/1", None, Some(json!(2)))
        );
        assert_eq!(first_difference(&a, &a), None);
    }

    #[test]
    fn matching_by_request_is_robust_to_order_and_uses_each_step_once() {
        let r = redaction();
        let step = |input: &str| {
            record_step(
                json!({ "input": input }),
                false,
                Outcome::Response(json!({ "output": [] })),
                &r,
            )
        };
        let cassette = load(build(
            vec![step("first"), step("second"), step("first")],
            &r,
        ))
        .unwrap();
        let mut m = Matcher::new(&cassette);
        let live = |input: &str| normalize_request(json!({ "input": input, "signal": {} }), &r);
        assert_eq!(m.pick(&live("second"), 0), Ok(1));
        assert_eq!(m.pick(&live("first"), 1), Ok(0));
        assert_eq!(m.pick(&live("first"), 2), Ok(2));
        let e = m.pick(&live("first"), 3).unwrap_err();
        assert_eq!(e.closest, None);
        // A hand-edited request with its keys out of order still matches.
        let mut edited = build(vec![step("x")], &r);
        edited["steps"][0]["request"] = serde_json::from_str(r#"{"z": 1, "input": "x"}"#).unwrap();
        let mut m = Matcher::new(&load(edited).unwrap());
        assert_eq!(
            m.pick(&normalize_request(json!({ "input": "x", "z": 1 }), &r), 0),
            Ok(0)
        );
        assert!(e
            .to_string()
            .ends_with("Every recorded step has been used. If the change is intended, re-record the cassette: run the test with UNDERSTUDY_CASSETTES=record."));
    }

    #[test]
    fn a_mismatch_names_the_closest_step_and_the_first_differing_field() {
        let r = redaction();
        let step = |input: &str, model: &str| {
            record_step(
                json!({ "input": [{ "role": "user", "content": input }], "model": model }),
                false,
                Outcome::Response(json!({ "output": [] })),
                &r,
            )
        };
        let cassette = load(build(
            vec![step("weather in Paris", "a"), step("weather in Tokyo", "b")],
            &r,
        ))
        .unwrap();
        let mut m = Matcher::new(&cassette);
        let live = normalize_request(
            json!({ "input": [{ "role": "user", "content": "weather in Tokyo" }], "model": "c" }),
            &r,
        );
        let e = m.pick(&live, 4).unwrap_err();
        let (step, d) = e.closest.clone().unwrap();
        assert_eq!((step, d.pointer.as_str()), (1, "/model"));
        assert_eq!(
            e.to_string(),
            format!(
                "No recorded request matches model call #5 (request hash {}). The closest unused recorded request (step #2) differs at /model: recorded \"b\", live \"c\". If the change is intended, re-record the cassette: run the test with UNDERSTUDY_CASSETTES=record.",
                hash(&live)
            )
        );
    }

    #[test]
    fn an_unredacted_request_matches_as_it_is_and_one_with_a_secret_only_once_redacted() {
        let r = redaction();
        let key = "sk-proj-Abc123Def456Ghi789Jkl012Mno345";
        let step = |input: &str| {
            record_step(
                json!({ "input": input, "b": 1, "a": 2 }),
                false,
                Outcome::Response(json!({ "output": [] })),
                &r,
            )
        };
        let cassette = load(build(vec![step("plain"), step(&format!("key {key}"))], &r)).unwrap();
        let mut m = Matcher::new(&cassette);
        let with_secret = json!({ "input": format!("key {key}"), "a": 2, "b": 1 });
        assert_eq!(
            m.pick_exact(&normalize_unredacted(with_secret.clone())),
            None,
            "the secret is redacted in the recording"
        );
        assert_eq!(
            m.pick_exact(&normalize_unredacted(
                json!({ "a": 2, "b": 1, "input": "plain", "signal": {} })
            )),
            Some(0)
        );
        assert_eq!(
            m.pick_exact(&normalize_unredacted(
                json!({ "a": 2, "b": 1, "input": "plain" })
            )),
            None,
            "each step once"
        );
        assert_eq!(m.pick(&normalize_request(with_secret, &r), 1).unwrap(), 1);
    }

    /// A language model's stream parts: texts joined by id, tool calls kept, the finish part's
    /// reason and usage; a language-model cassette says so, and each replay loads only its own.
    #[test]
    fn language_model_cassettes_read_their_parts_and_say_what_they_are() {
        let parts = vec![
            json!({"type": "stream-start", "warnings": []}),
            json!({"type": "text-start", "id": "t"}),
            json!({"type": "text-delta", "id": "t", "delta": "Hel"}),
            json!({"type": "reasoning-start", "id": "r"}),
            json!({"type": "reasoning-delta", "id": "r", "delta": "hmm"}),
            json!({"type": "text-delta", "id": "t", "delta": "lo"}),
            json!({"type": "tool-call", "toolCallId": "c1", "toolName": "w", "input": "{}"}),
            json!({"type": "finish", "finishReason": {"unified": "stop"}, "usage": {"inputTokens": {"total": 1}}}),
        ];
        assert_eq!(
            result_from_parts(&parts).unwrap(),
            json!({"content": [
                {"type": "text", "text": "Hello"},
                {"type": "reasoning", "text": "hmm"},
                {"type": "tool-call", "toolCallId": "c1", "toolName": "w", "input": "{}"},
            ], "finishReason": {"unified": "stop"}, "usage": {"inputTokens": {"total": 1}}})
        );
        assert_eq!(result_from_parts(&parts[..7]), None);
        let r = redaction();
        let mut taken = Taken::default();
        let step = record_step_for(
            Interface::LanguageModel,
            json!({"prompt": []}),
            true,
            Outcome::Events(parts),
            &r,
            &mut taken,
        );
        assert_eq!(step["response"]["content"][0]["text"], "Hello");
        let doc = build_for(
            Interface::LanguageModel,
            None,
            vec![step.clone()],
            &r,
            &taken,
        );
        assert_eq!(doc["interface"], "language-model");
        assert!(doc.get("model").is_none());
        assert!(load_for(Interface::LanguageModel, doc.clone(), RegexHost::shared()).is_ok());
        let e = load(doc).unwrap_err();
        assert_eq!(e.pointer, "/interface");
        assert!(e.message.contains("AI SDK language model"), "{}", e.message);
        // An agents cassette has no such member, and is not a language model's.
        let agents = build(Vec::new(), &r);
        assert!(agents.get("interface").is_none());
        let e = load_for(Interface::LanguageModel, agents, RegexHost::shared()).unwrap_err();
        assert_eq!(e.pointer, "/interface");
    }

    /// A language-model cassette names the model it recorded, checked on load at its pointer.
    #[test]
    fn a_language_model_cassette_names_its_model() {
        let r = redaction();
        let model = ModelIdentity {
            provider: "google.generative-ai".into(),
            model_id: "gemini-2.5-flash".into(),
            specification_version: "v3".into(),
        };
        let doc = build_for(
            Interface::LanguageModel,
            Some(&model),
            Vec::new(),
            &r,
            &Taken::default(),
        );
        assert_eq!(
            doc["model"],
            json!({"provider": "google.generative-ai", "modelId": "gemini-2.5-flash", "specificationVersion": "v3"})
        );
        let loaded = load_for(Interface::LanguageModel, doc.clone(), RegexHost::shared()).unwrap();
        assert_eq!(loaded.model.as_ref(), Some(&model));
        let broken = |path: &str, value: Value| {
            let mut d = doc.clone();
            *d.pointer_mut(path).unwrap() = value;
            load_for(Interface::LanguageModel, d, RegexHost::shared())
                .unwrap_err()
                .pointer
        };
        assert_eq!(broken("/model/modelId", json!(3)), "/model/modelId");
        assert_eq!(
            broken("/model/specificationVersion", json!("v9")),
            "/model/specificationVersion"
        );
        assert_eq!(broken("/model", json!("gemini")), "/model");
        // An agents cassette does not name one.
        let agents = build_for(
            Interface::AgentsModel,
            Some(&model),
            Vec::new(),
            &r,
            &Taken::default(),
        );
        assert!(agents.get("model").is_none());
        let mut named = agents.clone();
        named["model"] = doc["model"].clone();
        assert_eq!(load(named).unwrap_err().pointer, "/model");
    }
}
