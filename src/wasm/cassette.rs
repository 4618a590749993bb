//! Cassette bindings: recording, loading and request matching of `crate::doubles::cassette`.
//! Requests, responses and events cross as JSON text in the facade's tagged encoding.

use js_sys::Array;
use serde_json::Value;
use wasm_bindgen::prelude::*;

use super::js;
use super::{raise, user_error};
use crate::doubles::cassette::{
    self as rules, Cassette, CassetteError, CassetteReason, MatchMode, Matcher, Outcome, Pattern,
    PatternHost, Redaction, Replaced, Taken, REDACTED,
};

/// Redaction patterns run by the host's `RegExp` (`checkPatterns` / `redactTexts` in
/// `pkg-template/src/engine/patterns.ts`): one crossing per check and per redacted value.
struct JsPatterns;

fn pattern_arrays(patterns: &[Pattern]) -> (Array, Array) {
    let sources = Array::new();
    let flags = Array::new();
    for p in patterns {
        sources.push(&JsValue::from_str(&p.source));
        flags.push(&JsValue::from_str(&p.flags));
    }
    (sources, flags)
}

/// The patterns as the facade's walks take them: `[sources, flags, keeps]`.
fn pattern_spec(patterns: &[Pattern]) -> Array {
    let (sources, flags) = pattern_arrays(patterns);
    let keeps = Array::new();
    for p in patterns {
        keeps.push(&JsValue::from_bool(p.keep));
    }
    Array::of3(&sources, &flags, &keeps)
}

fn text_list(texts: &[&str]) -> Array {
    let list = Array::new_with_length(texts.len() as u32);
    for (i, t) in texts.iter().enumerate() {
        list.set(i as u32, JsValue::from_str(t));
    }
    list
}

impl PatternHost for JsPatterns {
    fn check(&self, patterns: &[Pattern]) -> Result<(), (usize, String)> {
        let (sources, flags) = pattern_arrays(patterns);
        let answer = super::with_walks(|w| {
            w.check_patterns
                .call2(&JsValue::UNDEFINED, &sources, &flags)
        })
        .map_err(|e| (0, format!("{e:?}")))?;
        if answer.is_undefined() {
            return Ok(());
        }
        let answer = Array::from(&answer);
        let index = answer.get(0).as_f64().unwrap_or(0.0) as usize;
        Err((index, answer.get(1).as_string().unwrap_or_default()))
    }

    /// Fails closed: if the host cannot run the patterns (out of memory, no facade), every text
    /// is replaced whole, so nothing that should be redacted is written. The host answers each
    /// text with `undefined` or `[replaced, ...taken]`.
    fn replace_all(
        &self,
        texts: &[&str],
        patterns: &[Pattern],
        with: &str,
        allow: &[Pattern],
    ) -> Vec<Option<Replaced>> {
        let answer = super::with_walks(|w| {
            let args = Array::of4(
                &text_list(texts),
                &pattern_spec(patterns),
                &JsValue::from_str(with),
                &pattern_spec(allow),
            );
            js_sys::Reflect::apply(&w.redact_texts, &JsValue::UNDEFINED, &args)
        });
        match answer {
            Ok(answer) if Array::is_array(&answer) => {
                let answer = Array::from(&answer);
                (0..texts.len() as u32)
                    .map(|i| {
                        let item = answer.get(i);
                        if !Array::is_array(&item) {
                            return None;
                        }
                        let item = Array::from(&item);
                        let mut parts = item.iter().map(|p| p.as_string().unwrap_or_default());
                        Some(Replaced {
                            text: parts.next().unwrap_or_else(|| REDACTED.to_owned()),
                            taken: parts.collect(),
                        })
                    })
                    .collect()
            }
            _ => texts
                .iter()
                .map(|t| {
                    Some(Replaced {
                        text: REDACTED.to_owned(),
                        taken: vec![(*t).to_owned()],
                    })
                })
                .collect(),
        }
    }

    /// Fails closed too: a host that cannot answer reports the first text as a match.
    fn first_match(
        &self,
        texts: &[&str],
        patterns: &[Pattern],
        allow: &[Pattern],
    ) -> Option<(usize, usize)> {
        if texts.is_empty() || patterns.is_empty() {
            return None;
        }
        let answer = super::with_walks(|w| {
            let args = Array::of3(
                &text_list(texts),
                &pattern_spec(patterns),
                &pattern_spec(allow),
            );
            js_sys::Reflect::apply(&w.find_secret, &JsValue::UNDEFINED, &args)
        });
        match answer {
            Ok(answer) if answer.is_undefined() => None,
            Ok(answer) if Array::is_array(&answer) => {
                let answer = Array::from(&answer);
                let at = |i| answer.get(i).as_f64().unwrap_or(0.0) as usize;
                Some((at(0), at(1)))
            }
            _ => Some((0, 0)),
        }
    }
}

fn js_patterns() -> std::rc::Rc<dyn PatternHost> {
    std::rc::Rc::new(JsPatterns)
}

fn json(text: &str, what: &str) -> Result<Value, JsValue> {
    serde_json::from_str(text).map_err(|e| user_error(format!("{what} is not JSON: {e}")))
}

fn strings(list: &Array) -> Vec<String> {
    list.iter()
        .map(|v| v.as_string().unwrap_or_default())
        .collect()
}

/// Records steps of a run being forwarded to a real model.
#[wasm_bindgen]
pub struct CassetteRecorder {
    redaction: Redaction,
    steps: Vec<Value>,
    /// What redaction took out so far, taken out of every step when the cassette is built.
    taken: Taken,
    interface: rules::Interface,
    /// The language model recorded, once the facade says ([`CassetteRecorder::set_model`]).
    model: Option<rules::ModelIdentity>,
    _live: super::Live,
}

fn interface_of(code: u8) -> rules::Interface {
    rules::Interface::from_code(code)
}

#[wasm_bindgen]
impl CassetteRecorder {
    /// `keys`: extra secret key names; `patterns`: extra regular expressions to redact;
    /// `allow`: regular expressions of values to keep (`allowSecrets`); `interface`: whose
    /// calls are recorded (0 an `@openai/agents` `Model`, 1 an AI SDK language model, 2 a
    /// provider's HTTP API: `rules::Interface::from_code`).
    #[wasm_bindgen(constructor)]
    pub fn new(
        keys: &Array,
        patterns: &Array,
        allow: &Array,
        interface: u8,
    ) -> Result<CassetteRecorder, JsValue> {
        let redaction = Redaction::with_allow(
            &strings(keys),
            &strings(patterns),
            &strings(allow),
            js_patterns(),
        )
        .map_err(|e| raise(CassetteError::from(e)))?;
        Ok(CassetteRecorder {
            redaction,
            steps: Vec::new(),
            taken: Taken::default(),
            interface: interface_of(interface),
            model: None,
            _live: super::Live::new(),
        })
    }

    /// The language model being recorded (its `provider`, `modelId` and
    /// `specificationVersion`), written into the cassette as `"model"`.
    #[wasm_bindgen(js_name = setModel)]
    pub fn set_model(&mut self, provider: &JsValue, model_id: &JsValue, version: &JsValue) {
        self.model = Some(rules::ModelIdentity {
            provider: js::string_of(provider),
            model_id: js::string_of(model_id),
            specification_version: js::string_of(version),
        });
    }

    /// Records one call: `outcome` is `{ response }`, `{ events }` or `{ error: { name, message,
    /// status?, retryable?, retryAfterMs? } }`. For HTTP, `request` is `{ method, url, headers,
    /// body }` and `outcome` `{ status, headers, body }` or `{ error }`, bodies as texts
    /// (`wire::tape::record_step`, which reads whether it streamed from the response).
    pub fn record(&mut self, request: &str, streamed: bool, outcome: &str) -> Result<(), JsValue> {
        let request = json(request, "The request")?;
        let outcome = json(outcome, "The outcome")?;
        if self.interface == rules::Interface::Http {
            let step = crate::doubles::wire::tape::record_step(
                &request,
                &outcome,
                &self.redaction,
                &mut self.taken,
            );
            self.steps.push(step);
            return Ok(());
        }
        let outcome = if let Some(events) = outcome.get("events").and_then(Value::as_array) {
            Outcome::Events(events.clone())
        } else if let Some(error) = outcome.get("error") {
            Outcome::Error {
                name: error
                    .get("name")
                    .and_then(Value::as_str)
                    .unwrap_or("Error")
                    .to_owned(),
                message: error
                    .get("message")
                    .and_then(Value::as_str)
                    .unwrap_or("")
                    .to_owned(),
                retry: rules::RetryFacts::read(error),
            }
        } else {
            Outcome::Response(outcome.get("response").cloned().unwrap_or(Value::Null))
        };
        self.steps.push(rules::record_step_for(
            self.interface,
            request,
            streamed,
            outcome,
            &self.redaction,
            &mut self.taken,
        ));
        Ok(())
    }

    #[wasm_bindgen(getter, js_name = stepCount)]
    pub fn step_count(&self) -> u32 {
        self.steps.len() as u32
    }

    /// The cassette document as pretty JSON text, after the last check: a string that still
    /// looks like a credential is an `InvalidCassetteError` (reason `credential`) naming its
    /// pointer and the rule, and nothing is returned.
    #[wasm_bindgen(js_name = toJson)]
    pub fn to_json(&self) -> Result<String, JsValue> {
        let mut cassette = rules::build_for(
            self.interface,
            self.model.as_ref(),
            self.steps.clone(),
            &self.redaction,
            &self.taken,
        );
        if let (rules::Interface::Http, Some(steps)) = (
            self.interface,
            cassette.get_mut("steps").and_then(Value::as_array_mut),
        ) {
            crate::doubles::wire::tape::compress(steps);
        }
        if let Some(leak) = self.redaction.find_leak(&cassette["steps"], "/steps") {
            return Err(raise(rules::leak_error(&leak)));
        }
        if self.interface == rules::Interface::Http {
            return Ok(crate::doubles::wire::tape::text(&cassette));
        }
        Ok(serde_json::to_string_pretty(&cassette).unwrap_or_default())
    }
}

/// A loaded cassette for replay.
#[wasm_bindgen]
pub struct CassetteReplay {
    cassette: Cassette,
    /// Made at the first pick a request's text does not decide: a replay in order never needs it.
    matcher: Option<Matcher>,
    /// An HTTP cassette: steps are replies, live requests are read as `wire::tape` stores them.
    http: bool,
    /// Per step, the hash of its request's text as sent, where it has one (HTTP).
    text_hashes: Vec<Option<String>>,
    /// The steps picked.
    used: Vec<bool>,
    _live: super::Live,
}

#[wasm_bindgen]
impl CassetteReplay {
    /// Loads and checks a cassette (JSON text) for a replay of `interface` (the codes of
    /// [`CassetteRecorder::new`]).
    #[wasm_bindgen(constructor)]
    pub fn new(text: &str, interface: u8) -> Result<CassetteReplay, JsValue> {
        let doc = serde_json::from_str(text).map_err(|e| {
            raise(CassetteError {
                reason: CassetteReason::InvalidCassette,
                pointer: String::new(),
                message: format!("Invalid cassette: not JSON ({e})."),
            })
        })?;
        let cassette = match interface_of(interface) {
            rules::Interface::Http => crate::doubles::wire::tape::load(doc, js_patterns()),
            other => rules::load_for(other, doc, js_patterns()),
        }
        .map_err(raise)?;
        let text_hashes = cassette
            .steps
            .iter()
            .map(|s| s.get("textHash").and_then(Value::as_str).map(str::to_owned))
            .collect();
        Ok(CassetteReplay {
            matcher: None,
            used: vec![false; cassette.steps.len()],
            http: interface_of(interface) == rules::Interface::Http,
            text_hashes,
            cassette,
            _live: super::Live::new(),
        })
    }

    /// The model the cassette recorded, as `{ provider, modelId, specificationVersion }` JSON
    /// text; `undefined` when it does not say.
    pub fn model(&self) -> Option<String> {
        self.cassette
            .model
            .as_ref()
            .map(|m| serde_json::to_string(m).unwrap_or_default())
    }

    /// The steps as `[{ kind: 'response' | 'stream' | 'error', response?, events?, error? }]`
    /// JSON text, for replay in recorded order.
    pub fn steps(&self) -> String {
        let out: Vec<Value> = (0..self.cassette.steps.len())
            .map(|i| self.step_value(i))
            .collect();
        Value::Array(out).to_string()
    }

    /// One step as `{ kind, response?, error? }` JSON text (replay by request answers with the
    /// recorded response; a streamed step is streamed again by the scripted model).
    pub fn step(&self, index: u32) -> String {
        let mut v = self.step_value(index as usize);
        if let Some(o) = v.as_object_mut() {
            o.remove("events");
            if o.get("kind").and_then(Value::as_str) == Some("stream") {
                o.insert("kind".into(), Value::String("response".into()));
            }
        }
        v.to_string()
    }

    /// The step whose request matches the live request (JSON text), each used once; throws
    /// `CassetteMismatchError` with the closest step's first differing field otherwise.
    pub fn pick(&mut self, request: &str, call_index: u32) -> Result<u32, JsValue> {
        // An HTTP request comes through `pickHttp`, its body unescaped.
        let request = json(request, "The request")?;
        self.pick_value(request, call_index)
    }

    /// [`CassetteReplay::pick`] for an HTTP request: `method`, `url`, and the body's text in
    /// the input buffer (read once, not escaped inside another text).
    #[wasm_bindgen(js_name = pickHttp)]
    pub fn pick_http(
        &mut self,
        method: &str,
        url: &str,
        len: usize,
        call_index: u32,
    ) -> Result<u32, JsValue> {
        // The request as it was recorded, byte for byte: found by its text's hash, unread.
        let text = super::with_input(len, |body| {
            crate::doubles::wire::tape::request_text_hash(method, url, body)
        })?;
        let same = (0..self.text_hashes.len())
            .find(|&i| !self.used[i] && self.text_hashes[i].as_deref() == Some(text.as_str()));
        if let Some(i) = same {
            self.used[i] = true;
            if let Some(m) = &mut self.matcher {
                m.take(i);
            }
            return Ok(i as u32);
        }
        let request = super::with_input(len, |body| {
            crate::doubles::wire::tape::stored_request(method, url, body)
        })?;
        self.pick_value(request, call_index)
    }

    /// The step for `request`, in the form a step's request is stored in (not yet normalized).
    fn pick_value(&mut self, request: Value, call_index: u32) -> Result<u32, JsValue> {
        // The steps' requests are read only here, so the matcher takes them over.
        let matcher = match &mut self.matcher {
            Some(m) => m,
            none => {
                if self.http {
                    // Requests stored as what they add to an earlier one are compared whole.
                    crate::doubles::wire::tape::expand(&mut self.cassette.steps);
                }
                let mut m = Matcher::taking(&mut self.cassette);
                for (i, _) in self.used.iter().enumerate().filter(|(_, u)| **u) {
                    m.take(i);
                }
                none.insert(m)
            }
        };
        // A request with nothing to redact matches as it is: the redaction's walk (every
        // string through the patterns) is paid only when that fails.
        if let Some(i) = matcher.pick_exact(&rules::normalize_unredacted(request.clone())) {
            self.used[i] = true;
            return Ok(i as u32);
        }
        let live =
            rules::normalize_request(request, &self.cassette.redaction, &mut Taken::default());
        let i = matcher
            .pick(&live, call_index as usize)
            .map_err(|m| raise(*m))?;
        self.used[i] = true;
        Ok(i as u32)
    }

    #[wasm_bindgen(getter, js_name = stepCount)]
    pub fn step_count(&self) -> u32 {
        self.cassette.steps.len() as u32
    }

    fn step_value(&self, i: usize) -> Value {
        let s = &self.cassette.steps[i];
        let mut out = serde_json::Map::new();
        if self.http {
            // `{ kind: 'reply', reply }` in the form the HTTP doubles write, or the failure.
            match crate::doubles::wire::tape::reply(s) {
                Ok(reply) => {
                    out.insert("kind".into(), "reply".into());
                    out.insert("reply".into(), reply.to_json());
                }
                Err(error) => {
                    out.insert("kind".into(), "error".into());
                    out.insert("error".into(), error);
                }
            }
            return Value::Object(out);
        }
        if let Some(error) = s.get("error") {
            out.insert("kind".into(), "error".into());
            out.insert("error".into(), error.clone());
        } else if let (true, Some(events)) = (
            s.get("streamed") == Some(&Value::Bool(true)),
            s.get("events"),
        ) {
            out.insert("kind".into(), "stream".into());
            out.insert("events".into(), events.clone());
            out.insert(
                "response".into(),
                s.get("response").cloned().unwrap_or(Value::Null),
            );
        } else {
            out.insert("kind".into(), "response".into());
            out.insert(
                "response".into(),
                s.get("response").cloned().unwrap_or(Value::Null),
            );
        }
        Value::Object(out)
    }
}

/// The error for a cassette file that does not exist yet.
#[wasm_bindgen(js_name = cassetteMissingError)]
pub fn cassette_missing_error(path: &str) -> JsValue {
    raise(crate::doubles::cassette::PlanError::Missing {
        path: path.to_owned(),
        ci: false,
    })
}

/// What `cassette()` does (`'record'`, `'replay'` or `'off'`), from the environment variables
/// `UNDERSTUDY_CASSETTES`, `UNDERSTUDY_RECORD` and `CI` (`undefined` when unset), the `record`
/// option and whether the file at `path` exists; throws `CassetteMissingError` where a missing
/// cassette must not be recorded.
#[wasm_bindgen(js_name = cassettePlan)]
pub fn cassette_plan(
    mode: Option<String>,
    record_env: Option<String>,
    ci: Option<String>,
    record_option: Option<bool>,
    exists: bool,
    path: &str,
) -> Result<String, JsValue> {
    use crate::doubles::cassette::{plan, Plan};
    match plan(
        mode.as_deref(),
        record_env.as_deref(),
        ci.as_deref(),
        record_option,
        exists,
        path,
    ) {
        Ok(Plan::Record) => Ok("record".into()),
        Ok(Plan::Replay) => Ok("replay".into()),
        Ok(Plan::Off) => Ok("off".into()),
        Err(e) => Err(raise(e)),
    }
}

/// The file of the `index`-th cassette of the running test (`test_cassette_path`).
#[wasm_bindgen(js_name = testCassettePath)]
pub fn test_cassette_path(test_file: &str, full_name: &str, index: usize) -> String {
    rules::test_cassette_path(test_file, full_name, index)
}

/// The file of the cassette `name` in `dir` (`named_cassette_path`).
#[wasm_bindgen(js_name = cassettePath)]
pub fn cassette_path(dir: Option<String>, name: &str) -> String {
    rules::named_cassette_path(dir.as_deref(), name)
}

/// A `RegExp`'s source and flags as a cassette stores the pattern (`pattern_text`).
#[wasm_bindgen(js_name = cassettePatternText)]
pub fn cassette_pattern_text(source: &str, flags: &str) -> String {
    rules::pattern_text(source, flags)
}

/// Whether `match` (`ReplayOptions.match`, `undefined` or `null` when absent) replays by
/// request rather than in order (`match_mode`); a `UserError` for an unknown mode.
#[wasm_bindgen(js_name = cassetteMatchesByRequest)]
pub fn cassette_matches_by_request(mode: &JsValue) -> Result<bool, JsValue> {
    // A non-string (read as "") is never a mode; its JSON spelling names it in the message.
    let given =
        (!mode.is_undefined() && !mode.is_null()).then(|| mode.as_string().unwrap_or_default());
    let shown = match js_sys::JSON::stringify(mode) {
        // `undefined` for a function or a symbol, as the host spells it.
        Ok(text) => text.as_string().unwrap_or_else(|| "undefined".into()),
        Err(_) => super::js::string_of(mode),
    };
    match rules::match_mode(given.as_deref(), &shown) {
        Ok(mode) => Ok(mode == MatchMode::Request),
        Err(message) => Err(user_error(message)),
    }
}

/// The patterns of the `redact: 'pii'` preset (`PII_PATTERNS`).
#[wasm_bindgen(js_name = cassettePiiPatterns)]
pub fn cassette_pii_patterns() -> Array {
    crate::doubles::cassette::PII_PATTERNS
        .iter()
        .map(|p| JsValue::from_str(p))
        .collect()
}

/// The error for a cassette object the host could not encode: cyclic, or nested deeper than
/// `JSON.stringify` can follow.
#[wasm_bindgen(js_name = cassetteUnencodableError)]
pub fn cassette_unencodable_error() -> JsValue {
    raise(CassetteError {
        reason: CassetteReason::InvalidCassette,
        pointer: String::new(),
        message: "Invalid cassette: the object is cyclic or nested too deeply to be JSON.".into(),
    })
}
