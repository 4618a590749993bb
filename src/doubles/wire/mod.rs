//! The scripted model at the HTTP level (`scriptedFetch`, `providerServer`): one script answers
//! as the provider whose endpoint is called. This module owns the wire formats: which endpoint
//! a request is for ([`route`]), how its body reads in a provider-neutral form
//! ([`read::neutral`]), whether the provider would refuse its schemas ([`refuse::refusal`]),
//! what a scripted answer becomes in each provider's JSON and SSE ([`answer::write`]), and
//! which error body and headers a scripted error becomes ([`errors::write`]), which session a
//! request runs in ([`address`]), the endpoints answered without a step ([`service`]) and how a
//! fault cuts a reply ([`fault`]). The facade only turns `Request` and `Response` objects into
//! texts and back.

pub mod answer;
pub mod errors;
pub mod fault;
pub mod read;
pub mod refuse;
pub mod service;
pub mod tape;
#[cfg(test)]
mod tests;

use serde_json::{Map, Value as Json};

use crate::schema::provider::Provider;

/// An HTTP API a request can be for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Endpoint {
    /// OpenAI Responses, `POST …/responses`.
    Responses,
    /// OpenAI Chat Completions (and OpenAI-compatible servers), `POST …/chat/completions`.
    Chat,
    /// Anthropic Messages, `POST …/messages`.
    Messages,
    /// Gemini `POST …/models/{model}:generateContent` and `:streamGenerateContent`.
    Gemini,
}

impl Endpoint {
    /// The endpoint's code in `calls` and cassettes.
    pub fn code(self) -> &'static str {
        match self {
            Endpoint::Responses => "openai.responses",
            Endpoint::Chat => "openai.chat",
            Endpoint::Messages => "anthropic.messages",
            Endpoint::Gemini => "gemini.generateContent",
        }
    }

    pub fn from_code(code: &str) -> Option<Endpoint> {
        [
            Endpoint::Responses,
            Endpoint::Chat,
            Endpoint::Messages,
            Endpoint::Gemini,
        ]
        .into_iter()
        .find(|e| e.code() == code)
    }

    /// The provider whose schema rules the endpoint follows.
    pub fn provider(self) -> Provider {
        match self {
            Endpoint::Responses | Endpoint::Chat => Provider::OpenAi,
            Endpoint::Messages => Provider::Anthropic,
            Endpoint::Gemini => Provider::Gemini,
        }
    }
}

/// The endpoints in words, for the 404 of any other path.
pub const SUPPORTED: &str = "POST …/responses (OpenAI Responses), POST …/chat/completions (OpenAI Chat Completions), POST …/messages (Anthropic Messages), POST …/models/{model}:generateContent and :streamGenerateContent (Gemini)";

/// Where a request goes: its endpoint, whether it streams and how, and the model the path names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Route {
    pub endpoint: Endpoint,
    /// Gemini's `:streamGenerateContent` (the others say `stream: true` in the body).
    pub path_streams: bool,
    /// Gemini's `alt=sse`: a stream as server-sent events, else as one JSON array.
    pub sse: bool,
    /// The model named in the path (Gemini).
    pub model: Option<String>,
}

/// The path of `url` (an absolute URL, or a path) without its query, and the query.
pub(crate) fn split_url(url: &str) -> (&str, &str) {
    let rest = match url.find("://") {
        Some(i) => {
            let after = &url[i + 3..];
            after.find('/').map_or("/", |j| &after[j..])
        }
        None => url,
    };
    let rest = rest.split('#').next().unwrap_or(rest);
    match rest.split_once('?') {
        Some((path, query)) => (path, query),
        None => (rest, ""),
    }
}

/// The endpoint of `POST url`; `None` for any other method or path.
pub fn route(method: &str, url: &str) -> Option<Route> {
    if !method.eq_ignore_ascii_case("POST") {
        return None;
    }
    let (path, query) = split_url(url);
    let path = path.trim_end_matches('/');
    let plain = |endpoint| Route {
        endpoint,
        path_streams: false,
        sse: true,
        model: None,
    };
    if path.ends_with("/responses") || path == "responses" {
        return Some(plain(Endpoint::Responses));
    }
    if path.ends_with("/chat/completions") {
        return Some(plain(Endpoint::Chat));
    }
    if path.ends_with("/messages") {
        return Some(plain(Endpoint::Messages));
    }
    let (at, method) = path.rsplit_once(':')?;
    let streams = match method {
        "generateContent" => false,
        "streamGenerateContent" => true,
        _ => return None,
    };
    let model = at.rsplit_once("/models/").map(|(_, m)| m.to_string())?;
    let sse = query.split('&').any(|pair| pair == "alt=sse");
    Some(Route {
        endpoint: Endpoint::Gemini,
        path_streams: streams,
        sse,
        model: Some(model),
    })
}

/// An HTTP answer as the facade writes it: a status, headers, and a body that is one text or
/// a stream of texts (one server-sent event each, or one piece of a JSON array).
#[derive(Clone, Debug, PartialEq)]
pub struct Reply {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Body,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Body {
    Text(String),
    Stream(Vec<String>),
}

impl Reply {
    /// A JSON answer.
    pub fn json(status: u16, value: &Json) -> Reply {
        Reply {
            status,
            headers: vec![("content-type".into(), "application/json".into())],
            body: Body::Text(value.to_string()),
        }
    }

    /// The reply as the facade reads it: `{ status, headers, body }` or `{ status, headers,
    /// events }`.
    pub fn to_json(&self) -> Json {
        let mut out = Map::new();
        out.insert("status".into(), self.status.into());
        out.insert(
            "headers".into(),
            Json::Array(
                self.headers
                    .iter()
                    .map(|(k, v)| Json::Array(vec![k.clone().into(), v.clone().into()]))
                    .collect(),
            ),
        );
        match &self.body {
            Body::Text(text) => out.insert("body".into(), text.clone().into()),
            Body::Stream(events) => out.insert(
                "events".into(),
                Json::Array(events.iter().cloned().map(Json::String).collect()),
            ),
        };
        Json::Object(out)
    }
}

/// What a request is, read once when it arrives: its route, whether it streams, the model,
/// Chat's `stream_options.include_usage`, the names of its function tools, and its
/// schema-bearing fields alone (`schemas`: the tools and the output format, what
/// [`refuse::refusal`] reads; the engine module binds that check, where the schema rules
/// live). The provider-neutral request is [`neutral`]'s, made only when something reads it:
/// a long tool loop sends the whole history every time.
#[derive(Clone, Debug, PartialEq)]
pub struct Arrival {
    pub route: Route,
    pub streamed: bool,
    pub model: String,
    pub include_usage: bool,
    pub offered: Vec<String>,
    pub schemas: Json,
}

/// The fields of a body the arrival reads; the rest is checked as JSON and skipped.
#[derive(serde::Deserialize)]
struct Head<'a> {
    #[serde(borrow, default)]
    model: Option<std::borrow::Cow<'a, str>>,
    #[serde(default)]
    stream: Option<Json>,
    #[serde(default)]
    stream_options: Option<Json>,
    #[serde(borrow, default)]
    tools: Option<&'a serde_json::value::RawValue>,
    #[serde(borrow, default)]
    text: Option<&'a serde_json::value::RawValue>,
    #[serde(borrow, default)]
    response_format: Option<&'a serde_json::value::RawValue>,
    #[serde(borrow, default)]
    output_format: Option<&'a serde_json::value::RawValue>,
    #[serde(borrow, default)]
    output_config: Option<&'a serde_json::value::RawValue>,
    #[serde(
        borrow,
        default,
        rename = "generationConfig",
        alias = "generation_config"
    )]
    generation_config: Option<&'a serde_json::value::RawValue>,
}

/// Reads a request (`method`, `url`, the body's text): its [`Arrival`], or the reply for a
/// request no endpoint takes (404 naming the supported ones) or a body that is not a JSON
/// object (the provider's 400).
pub fn arrive(method: &str, url: &str, body: &str) -> Result<Arrival, Reply> {
    let Some(route) = route(method, url) else {
        return Err(errors::not_found(method, url));
    };
    let head: Head = match serde_json::from_str(body) {
        Ok(head) if body.trim_start().starts_with('{') => head,
        _ => {
            return Err(errors::provider_error(
                route.endpoint,
                400,
                "The request body is not a JSON object.",
                None,
            ))
        }
    };
    let raw = |v: Option<&serde_json::value::RawValue>| {
        v.and_then(|r| serde_json::from_str::<Json>(r.get()).ok())
    };
    let mut schemas = Map::new();
    for (key, value) in [
        ("tools", head.tools),
        ("text", head.text),
        ("response_format", head.response_format),
        ("output_format", head.output_format),
        ("output_config", head.output_config),
        ("generationConfig", head.generation_config),
    ] {
        if let Some(v) = raw(value) {
            schemas.insert(key.into(), v);
        }
    }
    let schemas = Json::Object(schemas);
    let streamed = route.path_streams || head.stream == Some(Json::Bool(true));
    let model = route
        .model
        .clone()
        .or_else(|| head.model.map(|m| m.into_owned()))
        .unwrap_or_default();
    let tools = read::neutral(route.endpoint, &schemas, &model, streamed);
    let offered = tools["tools"]
        .as_array()
        .map(|t| {
            t.iter()
                .map(|t| t["name"].as_str().unwrap_or("").to_string())
                .collect()
        })
        .unwrap_or_default();
    let include_usage = head
        .stream_options
        .as_ref()
        .and_then(|o| o.get("include_usage"))
        == Some(&Json::Bool(true));
    Ok(Arrival {
        route,
        streamed,
        model,
        include_usage,
        offered,
        schemas,
    })
}

/// The header that runs a request in a session of its own.
pub const SESSION_HEADER: &str = "x-understudy-session";

/// The longest session id taken.
const MAX_SESSION: usize = 200;

/// What an addressed request is for.
#[derive(Clone, Debug, PartialEq)]
pub enum Arrived {
    /// A model endpoint: a scripted step answers it.
    Model(Arrival),
    /// An endpoint answered without a step ([`service`]); `model`: the one its path names.
    Service {
        service: service::Service,
        model: Option<String>,
    },
    /// `GET /__understudy/calls` (the session the header names, else the default one) or
    /// `GET /__understudy/sessions/{id}/calls`: the double's journal of that session's calls.
    Journal(Option<String>),
}

/// A session id as given: non-empty, at most 200 characters, no control character.
fn session_id(id: &str, from: &str) -> Result<String, Reply> {
    if id.is_empty() || id.chars().count() > MAX_SESSION || id.chars().any(char::is_control) {
        return Err(errors::double_error(
            400,
            "invalid_request_error",
            &format!("The understudy HTTP double takes a session id of 1 to {MAX_SESSION} characters without control characters; {from} gave {id:?}."),
        ));
    }
    Ok(id.to_string())
}

/// The session a request runs in (the path prefix `/session/{id}/` or the
/// `x-understudy-session` header; both must agree) and its URL without the prefix.
pub fn address(url: &str, headers: &Json) -> Result<(Option<String>, String), Reply> {
    let start = match url.find("://") {
        Some(i) => url[i + 3..].find('/').map_or(url.len(), |j| i + 3 + j),
        None => 0,
    };
    let (origin, path) = url.split_at(start);
    let mut session = None;
    let mut rest = path.to_string();
    if let Some(after) = path.strip_prefix("/session/") {
        let end = after.find(['/', '?', '#']).unwrap_or(after.len());
        session = Some(session_id(&after[..end], "the path")?);
        rest = format!("/{}", after[end..].trim_start_matches('/'));
    }
    if let Some(given) = headers.get(SESSION_HEADER).and_then(Json::as_str) {
        let given = session_id(given, &format!("the {SESSION_HEADER} header"))?;
        if session.as_ref().is_some_and(|s| *s != given) {
            return Err(errors::double_error(
                400,
                "invalid_request_error",
                &format!("The request names two sessions: {:?} in its path and {given:?} in its {SESSION_HEADER} header.", session.unwrap_or_default()),
            ));
        }
        session = Some(given);
    }
    Ok((session, format!("{origin}{rest}")))
}

/// A request as addressed: the session it runs in, its URL without the session's path prefix
/// (what the script, its calls and a cassette see), and what it is for.
#[derive(Clone, Debug, PartialEq)]
pub struct Addressed {
    pub session: Option<String>,
    pub url: String,
    pub arrived: Arrived,
}

/// Reads a request (`method`, `url`, its headers as a JSON object with lowercase names, the
/// body's text): where it is addressed and what it is for, or the reply for a request no
/// endpoint takes (a 404 naming them), a body that is not a JSON object (the provider's 400),
/// or a malformed session address (400).
pub fn arrive_addressed(
    method: &str,
    url: &str,
    headers: &Json,
    body: &str,
) -> Result<Addressed, Reply> {
    let (session, url) = address(url, headers)?;
    let (path, _) = split_url(&url);
    let mut journal = None;
    if method.eq_ignore_ascii_case("GET") {
        if path == "/__understudy/calls" {
            journal = Some(session.clone());
        } else if let Some(id) = path
            .strip_prefix("/__understudy/sessions/")
            .and_then(|p| p.strip_suffix("/calls"))
        {
            journal = Some(Some(session_id(id, "the path")?));
        }
    }
    let (session, arrived) = match journal {
        Some(of) => (of.clone(), Arrived::Journal(of)),
        None => match service::route(method, &url, headers) {
            Some((service, model)) => (session, Arrived::Service { service, model }),
            None => (session, Arrived::Model(arrive(method, &url, body)?)),
        },
    };
    Ok(Addressed {
        session,
        url,
        arrived,
    })
}

/// The provider-neutral form of a request body to `endpoint` (its text), read when a responder
/// or `calls` needs it.
pub fn neutral(endpoint: Endpoint, body: &str, model: &str, streamed: bool) -> Json {
    let body: Json = serde_json::from_str(body).unwrap_or_default();
    read::neutral(endpoint, &body, model, streamed)
}

/// A step `surface` cannot take: at the HTTP level a step is an answer, an error or a
/// responder; the AI SDK's own stream parts (`modelStream`) have no wire form. `Some` says what
/// to script instead.
pub fn refuse_step(
    surface: crate::doubles::model::Surface,
    classified: crate::doubles::model::Classified,
) -> Option<&'static str> {
    use crate::doubles::model::Classified;
    (surface.is_http()
        && matches!(classified, Classified::Stream | Classified::StreamResponder))
    .then_some(
        "a modelStream step holds the AI SDK's stream parts, which no HTTP API sends; script the answer (textStep, toolCall, reasoning, modelResponse) and the double streams it in the provider's own events when the request asks for a stream.",
    )
}
