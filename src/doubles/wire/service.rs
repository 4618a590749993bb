//! The endpoints an application calls beside the model, answered without a scripted step:
//! embeddings (OpenAI `POST …/embeddings`; Gemini `:embedContent`, `:batchEmbedContents`),
//! model lists and single models (`GET …/models`, `GET …/models/{id}`, for each provider), and
//! token counts (Anthropic `POST …/messages/count_tokens`, Gemini `:countTokens`).
//!
//! Every answer is deterministic: an embedding is derived from its input text alone (the same
//! text gives the same vector in every run and every provider's dimension), a token count is
//! an estimate of one token per four characters of the request's text.

use std::fmt::Write as _;

use serde_json::{json, Map, Value as Json};

use super::{errors, split_url, Reply};
use crate::schema::provider::Provider;

/// An endpoint answered without a step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Service {
    /// OpenAI `POST …/embeddings`.
    OpenAiEmbeddings,
    /// Gemini `POST …/models/{model}:embedContent`.
    GeminiEmbed,
    /// Gemini `POST …/models/{model}:batchEmbedContents`.
    GeminiBatchEmbed,
    /// `GET …/models` of a provider.
    Models(Provider),
    /// `GET …/models/{id}` of a provider.
    Model(Provider),
    /// Anthropic `POST …/messages/count_tokens`.
    AnthropicCountTokens,
    /// Gemini `POST …/models/{model}:countTokens`.
    GeminiCountTokens,
}

impl Service {
    /// The endpoint's code in `calls`.
    pub fn code(self) -> &'static str {
        match self {
            Service::OpenAiEmbeddings => "openai.embeddings",
            Service::GeminiEmbed => "gemini.embedContent",
            Service::GeminiBatchEmbed => "gemini.batchEmbedContents",
            Service::Models(Provider::OpenAi) => "openai.models",
            Service::Models(Provider::Anthropic) => "anthropic.models",
            Service::Models(Provider::Gemini) => "gemini.models",
            Service::Model(Provider::OpenAi) => "openai.model",
            Service::Model(Provider::Anthropic) => "anthropic.model",
            Service::Model(Provider::Gemini) => "gemini.model",
            Service::AnthropicCountTokens => "anthropic.countTokens",
            Service::GeminiCountTokens => "gemini.countTokens",
        }
    }

    pub fn provider(self) -> Provider {
        match self {
            Service::OpenAiEmbeddings => Provider::OpenAi,
            Service::GeminiEmbed | Service::GeminiBatchEmbed | Service::GeminiCountTokens => {
                Provider::Gemini
            }
            Service::AnthropicCountTokens => Provider::Anthropic,
            Service::Models(p) | Service::Model(p) => p,
        }
    }

    pub fn from_code(code: &str) -> Option<Service> {
        Some(match code {
            "openai.embeddings" => Service::OpenAiEmbeddings,
            "gemini.embedContent" => Service::GeminiEmbed,
            "gemini.batchEmbedContents" => Service::GeminiBatchEmbed,
            "openai.models" => Service::Models(Provider::OpenAi),
            "anthropic.models" => Service::Models(Provider::Anthropic),
            "gemini.models" => Service::Models(Provider::Gemini),
            "openai.model" => Service::Model(Provider::OpenAi),
            "anthropic.model" => Service::Model(Provider::Anthropic),
            "gemini.model" => Service::Model(Provider::Gemini),
            "anthropic.countTokens" => Service::AnthropicCountTokens,
            "gemini.countTokens" => Service::GeminiCountTokens,
            _ => return None,
        })
    }

    /// Whether the endpoint answers embeddings (which an `embeddingStep` may script).
    pub fn embeds(self) -> bool {
        matches!(
            self,
            Service::OpenAiEmbeddings | Service::GeminiEmbed | Service::GeminiBatchEmbed
        )
    }
}

/// The endpoints in words, for the 404 of any other path.
pub const SUPPORTED: &str = "POST …/embeddings (OpenAI), POST …/models/{model}:embedContent, :batchEmbedContents and :countTokens (Gemini), POST …/messages/count_tokens (Anthropic), GET …/models and …/models/{id} (each provider)";

/// Which provider a `GET …/models` is for. The paths are alike (`/v1/models`); the clients'
/// own headers tell them apart: Anthropic's send `anthropic-version` (and `x-api-key`),
/// Gemini's `x-goog-api-key` or the query's `key`, or use the `v1beta` path; anything else is
/// OpenAI's (or an OpenAI-compatible client's).
fn lister(path: &str, query: &str, headers: &Json) -> Provider {
    let has = |name: &str| headers.get(name).is_some();
    if has("anthropic-version") || has("x-api-key") {
        Provider::Anthropic
    } else if has("x-goog-api-key")
        || query.split('&').any(|p| p.starts_with("key="))
        || path.contains("/v1beta/")
    {
        Provider::Gemini
    } else {
        Provider::OpenAi
    }
}

/// The service `method url` calls (`headers`: the request's headers, names in lowercase, as a
/// JSON object), with the model its path names; `None` for any other request.
pub fn route(method: &str, url: &str, headers: &Json) -> Option<(Service, Option<String>)> {
    let (path, query) = split_url(url);
    let path = path.trim_end_matches('/');
    if method.eq_ignore_ascii_case("GET") {
        if path.ends_with("/models") || path == "models" {
            return Some((Service::Models(lister(path, query, headers)), None));
        }
        let (_, id) = path.rsplit_once("/models/")?;
        if id.is_empty() || id.contains('/') {
            return None;
        }
        return Some((
            Service::Model(lister(path, query, headers)),
            Some(id.to_string()),
        ));
    }
    if !method.eq_ignore_ascii_case("POST") {
        return None;
    }
    if path.ends_with("/embeddings") || path == "embeddings" {
        return Some((Service::OpenAiEmbeddings, None));
    }
    if path.ends_with("/messages/count_tokens") {
        return Some((Service::AnthropicCountTokens, None));
    }
    let (at, verb) = path.rsplit_once(':')?;
    let service = match verb {
        "embedContent" => Service::GeminiEmbed,
        "batchEmbedContents" => Service::GeminiBatchEmbed,
        "countTokens" => Service::GeminiCountTokens,
        _ => return None,
    };
    let model = at.rsplit_once("/models/").map(|(_, m)| m.to_string())?;
    Some((service, Some(model)))
}

/// One embedding request's inputs: the texts (a token array reads as its JSON text) and the
/// dimension each asks for.
struct Embeds {
    model: String,
    texts: Vec<(String, Option<u64>)>,
    base64: bool,
}

/// The texts of a Gemini `content` (its parts' `text`, joined).
fn content_text(content: &Json) -> String {
    let parts = content.get("parts").and_then(Json::as_array);
    parts
        .into_iter()
        .flatten()
        .filter_map(|p| p.get("text").and_then(Json::as_str))
        .collect::<Vec<_>>()
        .join("")
}

fn dimension(v: Option<&Json>) -> Result<Option<u64>, String> {
    match v {
        None | Some(Json::Null) => Ok(None),
        Some(d) => match d.as_u64() {
            Some(n) if (1..=MAX_DIMENSION).contains(&n) => Ok(Some(n)),
            _ => Err(format!(
                "The requested dimension must be an integer from 1 to {MAX_DIMENSION}, got {d}."
            )),
        },
    }
}

/// The largest dimension the double makes (the providers' largest is 3072).
const MAX_DIMENSION: u64 = 16384;

fn read_embeds(service: Service, path_model: Option<&str>, body: &Json) -> Result<Embeds, String> {
    let model_of = |v: Option<&Json>| {
        v.and_then(Json::as_str)
            .map(|m| m.trim_start_matches("models/").to_string())
    };
    match service {
        Service::OpenAiEmbeddings => {
            let dims = dimension(body.get("dimensions"))?;
            let one = |v: &Json| match v {
                Json::String(s) => Some(s.clone()),
                Json::Array(a) if a.iter().all(Json::is_number) => Some(v.to_string()),
                _ => None,
            };
            let texts = match body.get("input") {
                Some(Json::Array(items))
                    if !items.is_empty() && !items.iter().all(Json::is_number) =>
                {
                    items.iter().map(one).collect::<Option<Vec<_>>>()
                }
                Some(v) => one(v).map(|t| vec![t]),
                None => None,
            }
            .ok_or("`input` must be a string, an array of strings, or token arrays.")?;
            let base64 = match body.get("encoding_format") {
                None | Some(Json::Null) => false,
                Some(Json::String(f)) if f == "float" => false,
                Some(Json::String(f)) if f == "base64" => true,
                Some(other) => {
                    return Err(format!(
                        "`encoding_format` must be 'float' or 'base64', got {other}."
                    ))
                }
            };
            Ok(Embeds {
                model: model_of(body.get("model")).ok_or("`model` is required.")?,
                texts: texts.into_iter().map(|t| (t, dims)).collect(),
                base64,
            })
        }
        Service::GeminiEmbed => {
            let content = body.get("content").ok_or("`content` is required.")?;
            Ok(Embeds {
                model: path_model.unwrap_or_default().to_string(),
                texts: vec![(
                    content_text(content),
                    dimension(body.get("outputDimensionality"))?,
                )],
                base64: false,
            })
        }
        _ => {
            let requests = body
                .get("requests")
                .and_then(Json::as_array)
                .ok_or("`requests` must be an array.")?;
            let texts = requests
                .iter()
                .map(|r| {
                    let content = r.get("content").ok_or("each request needs `content`.")?;
                    Ok((
                        content_text(content),
                        dimension(r.get("outputDimensionality"))?,
                    ))
                })
                .collect::<Result<Vec<_>, String>>()?;
            Ok(Embeds {
                model: path_model.unwrap_or_default().to_string(),
                texts,
                base64: false,
            })
        }
    }
}

/// The dimension `model` answers with when the request names none.
fn usual_dimension(provider: Provider, model: &str) -> u64 {
    let m = model.to_ascii_lowercase();
    if m.contains("3-large") || m.contains("gemini-embedding") {
        3072
    } else if m.contains("text-embedding-00") || m == "embedding-001" {
        768
    } else if provider == Provider::Gemini {
        3072
    } else {
        1536
    }
}

/// The unit vector of `dims` components the double gives `text`: a pseudo-random sequence
/// seeded by the text's FNV-1a hash (splitmix64), normalized, each component rounded to six
/// decimals. Texts that differ give unrelated vectors; the same text always the same one.
pub fn vector(text: &str, dims: usize) -> Vec<f64> {
    let mut state: u64 = 0xcbf2_9ce4_8422_2325;
    for b in text.bytes() {
        state ^= u64::from(b);
        state = state.wrapping_mul(0x0000_0100_0000_01b3);
    }
    let mut next = || {
        state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    };
    let raw: Vec<f64> = (0..dims)
        .map(|_| (next() >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0)
        .collect();
    let norm = raw
        .iter()
        .map(|x| x * x)
        .sum::<f64>()
        .sqrt()
        .max(f64::MIN_POSITIVE);
    raw.iter().map(|x| (x / norm * 1e6).round() / 1e6).collect()
}

/// `values` as OpenAI's base64 encoding: little-endian float32s, base64 (RFC 4648, padded).
fn base64_f32(values: &[f64]) -> String {
    const ABC: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let bytes: Vec<u8> = values
        .iter()
        .flat_map(|v| (*v as f32).to_le_bytes())
        .collect();
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let n = (u32::from(chunk[0]) << 16)
            | (u32::from(*chunk.get(1).unwrap_or(&0)) << 8)
            | u32::from(*chunk.get(2).unwrap_or(&0));
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(ABC[(n >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// The estimated tokens of `text`: one per four characters, rounded up.
fn tokens_of(chars: usize) -> u64 {
    chars.div_ceil(4) as u64
}

/// The characters of every string in `v` (values, not keys).
fn text_chars(v: &Json) -> usize {
    match v {
        Json::String(s) => s.chars().count(),
        Json::Array(a) => a.iter().map(text_chars).sum(),
        Json::Object(m) => m.values().map(text_chars).sum(),
        _ => 0,
    }
}

/// A refused service request: the provider's 400 with `message`.
fn bad_request(service: Service, message: &str) -> Reply {
    errors::provider_error_of(service.provider(), 400, message, None)
}

/// The answer to a service request (`path_model`: the model its path names, `body`: its text),
/// with the double's own vectors for an embedding request.
pub fn answer(service: Service, path_model: Option<&str>, body: &str) -> Reply {
    answer_with(service, path_model, body, None)
        .unwrap_or_else(|problem| bad_request(service, &problem))
}

/// The answer to a service request with `vectors` for an embedding one (an `embeddingStep`'s,
/// one per input, or the double's own where `None`); `Err` when the scripted vectors do not
/// fit the request (the double's failure, not the client's).
pub fn answer_with(
    service: Service,
    path_model: Option<&str>,
    body: &str,
    vectors: Option<&Json>,
) -> Result<Reply, String> {
    let parsed: Json = if body.trim().is_empty() {
        Json::Object(Map::new())
    } else {
        match serde_json::from_str(body) {
            Ok(v @ Json::Object(_)) => v,
            _ => {
                return Ok(bad_request(
                    service,
                    "The request body is not a JSON object.",
                ))
            }
        }
    };
    Ok(match service {
        Service::Models(p) => json_text(models(p)),
        Service::Model(p) => json_text(model_entry(p, path_model.unwrap_or_default())),
        Service::AnthropicCountTokens => {
            let chars = ["system", "messages", "tools"]
                .iter()
                .filter_map(|k| parsed.get(*k))
                .map(text_chars)
                .sum();
            json_text(format!("{{\"input_tokens\":{}}}", tokens_of(chars).max(1)))
        }
        Service::GeminiCountTokens => {
            let chars = ["contents", "generateContentRequest"]
                .iter()
                .filter_map(|k| parsed.get(*k))
                .map(text_chars)
                .sum();
            json_text(format!("{{\"totalTokens\":{}}}", tokens_of(chars)))
        }
        _ => match read_embeds(service, path_model, &parsed) {
            Ok(e) => embed(service, e, vectors)?,
            Err(message) => bad_request(service, &message),
        },
    })
}

fn embed(service: Service, e: Embeds, scripted: Option<&Json>) -> Result<Reply, String> {
    let vectors: Vec<Vec<f64>> = match scripted {
        Some(given) => scripted_vectors(given, e.texts.len())?,
        None => e
            .texts
            .iter()
            .map(|(text, dims)| {
                let d = dims.unwrap_or_else(|| usual_dimension(service.provider(), &e.model));
                vector(text, d as usize)
            })
            .collect(),
    };
    let mut out = String::new();
    // serde_json writes floats with ryu, as every other number the engine writes.
    let list =
        |out: &mut String, v: &[f64]| out.push_str(&serde_json::to_string(v).unwrap_or_default());
    match service {
        Service::OpenAiEmbeddings => {
            out.push_str("{\"object\":\"list\",\"data\":[");
            for (i, v) in vectors.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                let _ = write!(
                    out,
                    "{{\"object\":\"embedding\",\"index\":{i},\"embedding\":"
                );
                if e.base64 {
                    let _ = write!(out, "\"{}\"", base64_f32(v));
                } else {
                    list(&mut out, v);
                }
                out.push('}');
            }
            let tokens: u64 = e
                .texts
                .iter()
                .map(|(t, _)| tokens_of(t.chars().count()))
                .sum();
            let model = Json::String(e.model).to_string();
            let _ = write!(out, "],\"model\":{model},\"usage\":{{\"prompt_tokens\":{tokens},\"total_tokens\":{tokens}}}}}");
        }
        Service::GeminiEmbed => {
            out.push_str("{\"embedding\":{\"values\":");
            list(&mut out, &vectors[0]);
            out.push_str("}}");
        }
        _ => {
            out.push_str("{\"embeddings\":[");
            for (i, v) in vectors.iter().enumerate() {
                out.push_str(if i > 0 {
                    ",{\"values\":"
                } else {
                    "{\"values\":"
                });
                list(&mut out, v);
                out.push('}');
            }
            out.push_str("]}");
        }
    }
    Ok(json_text(out))
}

/// A 200 whose JSON body is `text`.
fn json_text(text: String) -> Reply {
    Reply {
        status: 200,
        headers: vec![("content-type".into(), "application/json".into())],
        body: super::Body::Text(text),
    }
}

/// An `embeddingStep`'s vectors (one vector, or one per input) for a request of `count` inputs.
fn scripted_vectors(given: &Json, count: usize) -> Result<Vec<Vec<f64>>, String> {
    let as_vector =
        |v: &Json| -> Option<Vec<f64>> { v.as_array()?.iter().map(Json::as_f64).collect() };
    let vectors = match given.as_array() {
        Some(items) if items.iter().all(Json::is_array) => {
            items.iter().map(as_vector).collect::<Option<Vec<_>>>()
        }
        Some(_) => as_vector(given).map(|v| vec![v]),
        None => None,
    }
    .ok_or("the embeddingStep's vectors must be an array of numbers or an array of such arrays")?;
    if vectors.len() != count {
        return Err(format!(
            "the embeddingStep holds {} vector(s) but the request embeds {count} input(s)",
            vectors.len()
        ));
    }
    Ok(vectors)
}

/// The models each provider's list names (text and embedding models), in the order listed.
const OPENAI_MODELS: &[&str] = &[
    "gpt-5",
    "gpt-5-mini",
    "gpt-5-nano",
    "gpt-4.1",
    "gpt-4.1-mini",
    "gpt-4o",
    "gpt-4o-mini",
    "o4-mini",
    "text-embedding-3-small",
    "text-embedding-3-large",
];
const ANTHROPIC_MODELS: &[(&str, &str)] = &[
    ("claude-opus-4-5", "Claude Opus 4.5"),
    ("claude-sonnet-4-5", "Claude Sonnet 4.5"),
    ("claude-haiku-4-5", "Claude Haiku 4.5"),
];
const GEMINI_MODELS: &[&str] = &[
    "gemini-2.5-pro",
    "gemini-2.5-flash",
    "gemini-2.5-flash-lite",
    "gemini-embedding-001",
];

/// One model in `provider`'s own shape, as JSON text.
fn model_entry(provider: Provider, id: &str) -> String {
    let quoted = |t: &str| Json::String(t.to_string()).to_string();
    match provider {
        Provider::OpenAi => format!(
            "{{\"id\":{},\"object\":\"model\",\"created\":1700000000,\"owned_by\":\"understudy\"}}",
            quoted(id)
        ),
        Provider::Anthropic => {
            let display = ANTHROPIC_MODELS
                .iter()
                .find(|(m, _)| *m == id)
                .map_or(id, |(_, d)| *d);
            format!(
                "{{\"type\":\"model\",\"id\":{},\"display_name\":{},\"created_at\":\"2025-01-01T00:00:00Z\"}}",
                quoted(id),
                quoted(display)
            )
        }
        Provider::Gemini => {
            let id = id.trim_start_matches("models/");
            let methods = if id.contains("embedding") {
                r#"["embedContent","batchEmbedContents"]"#
            } else {
                r#"["generateContent","streamGenerateContent","countTokens"]"#
            };
            format!(
                "{{\"name\":{},\"version\":\"001\",\"displayName\":{},\"inputTokenLimit\":1048576,\"outputTokenLimit\":65536,\"supportedGenerationMethods\":{methods}}}",
                quoted(&format!("models/{id}")),
                quoted(id)
            )
        }
    }
}

/// `provider`'s model list, one page holding every model, as JSON text.
fn models(provider: Provider) -> String {
    let join = |ids: &mut dyn Iterator<Item = &str>| {
        ids.map(|m| model_entry(provider, m))
            .collect::<Vec<_>>()
            .join(",")
    };
    match provider {
        Provider::OpenAi => format!(
            "{{\"object\":\"list\",\"data\":[{}]}}",
            join(&mut OPENAI_MODELS.iter().copied())
        ),
        Provider::Anthropic => format!(
            "{{\"data\":[{}],\"has_more\":false,\"first_id\":\"{}\",\"last_id\":\"{}\"}}",
            join(&mut ANTHROPIC_MODELS.iter().map(|(m, _)| *m)),
            ANTHROPIC_MODELS[0].0,
            ANTHROPIC_MODELS[ANTHROPIC_MODELS.len() - 1].0
        ),
        Provider::Gemini => format!(
            "{{\"models\":[{}]}}",
            join(&mut GEMINI_MODELS.iter().copied())
        ),
    }
}

/// A service request in the neutral form of `calls`: the endpoint, provider and model, and
/// what it reads as messages (each embedded input a user message of its text; a token count's
/// messages as the model endpoint reads them).
pub fn neutral(service: Service, path_model: Option<&str>, body: &str) -> Json {
    let parsed: Json = serde_json::from_str(body).unwrap_or_default();
    let model = path_model
        .map(str::to_string)
        .or_else(|| {
            parsed
                .get("model")
                .and_then(Json::as_str)
                .map(str::to_string)
        })
        .unwrap_or_default();
    let mut out = match service {
        Service::AnthropicCountTokens => {
            super::read::neutral(super::Endpoint::Messages, &parsed, &model, false)
        }
        Service::GeminiCountTokens => {
            let request = parsed.get("generateContentRequest").unwrap_or(&parsed);
            super::read::neutral(super::Endpoint::Gemini, request, &model, false)
        }
        _ => {
            let texts = read_embeds(service, path_model, &parsed)
                .map(|e| e.texts)
                .unwrap_or_default();
            let messages: Vec<Json> = texts
                .into_iter()
                .map(|(t, _)| json!({ "role": "user", "content": [{ "type": "text", "text": t }] }))
                .collect();
            json!({ "model": model, "stream": false, "messages": messages, "tools": [] })
        }
    };
    if let Json::Object(map) = &mut out {
        map.insert("endpoint".into(), service.code().into());
        map.insert("provider".into(), service.provider().as_str().into());
        map.insert("model".into(), model.into());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answered(method: &str, url: &str, headers: Json, body: &str) -> (Service, Reply) {
        let (service, model) = route(method, url, &headers).expect("a service");
        (service, answer(service, model.as_deref(), body))
    }

    fn body_of(reply: &Reply) -> Json {
        match &reply.body {
            super::super::Body::Text(t) => serde_json::from_str(t).unwrap(),
            _ => panic!("a JSON body"),
        }
    }

    #[test]
    fn vectors_are_unit_length_deterministic_and_differ_by_text() {
        let a = vector("hello", 1536);
        assert_eq!(a.len(), 1536);
        assert_eq!(a, vector("hello", 1536));
        assert_ne!(a, vector("hellp", 1536));
        let norm: f64 = a.iter().map(|x| x * x).sum::<f64>().sqrt();
        assert!((norm - 1.0).abs() < 1e-3, "{norm}");
        assert!(a.iter().all(|x| x.abs() <= 1.0));
    }

    #[test]
    fn openai_embeddings_in_float_and_base64_with_the_requested_dimension() {
        let (s, r) = answered(
            "POST",
            "https://api.openai.com/v1/embeddings",
            json!({}),
            r#"{"model":"text-embedding-3-small","input":["a","bb"],"dimensions":8}"#,
        );
        assert_eq!(s.code(), "openai.embeddings");
        let b = body_of(&r);
        assert_eq!(b["data"].as_array().unwrap().len(), 2);
        assert_eq!(b["data"][1]["index"], 1);
        assert_eq!(b["data"][0]["embedding"].as_array().unwrap().len(), 8);
        assert_eq!(b["usage"]["prompt_tokens"], 2);
        let (_, r) = answered(
            "POST",
            "/v1/embeddings",
            json!({}),
            r#"{"model":"text-embedding-3-large","input":"a","encoding_format":"base64"}"#,
        );
        let b = body_of(&r);
        let text = b["data"][0]["embedding"].as_str().unwrap();
        // 3072 float32s are 12288 bytes: 16384 base64 characters.
        assert_eq!(text.len(), 16384);
        assert_eq!(&text[..8], &base64_f32(&vector("a", 3072)[..2])[..8]);
    }

    #[test]
    fn base64_matches_rfc_4648() {
        // 1.0f32 is 00 00 80 3f.
        assert_eq!(base64_f32(&[1.0]), "AACAPw==");
        assert_eq!(base64_f32(&[1.0, 1.0]), "AACAPwAAgD8=");
    }

    #[test]
    fn gemini_embeds_one_or_a_batch() {
        let (_, r) = answered(
            "POST",
            "/v1/models/gemini-embedding-001:batchEmbedContents",
            json!({}),
            r#"{"requests":[{"content":{"parts":[{"text":"a"}]},"outputDimensionality":4},{"content":{"parts":[{"text":"b"}]}}]}"#,
        );
        let b = body_of(&r);
        assert_eq!(b["embeddings"][0]["values"].as_array().unwrap().len(), 4);
        assert_eq!(b["embeddings"][1]["values"].as_array().unwrap().len(), 3072);
        let (_, r) = answered(
            "POST",
            "/v1beta/models/text-embedding-004:embedContent",
            json!({}),
            r#"{"content":{"parts":[{"text":"a"}]}}"#,
        );
        assert_eq!(
            body_of(&r)["embedding"]["values"].as_array().unwrap().len(),
            768
        );
    }

    #[test]
    fn scripted_vectors_must_match_the_inputs() {
        let body = r#"{"model":"m","input":["a","b"]}"#;
        let scripted = json!([[1, 0], [0, 1]]);
        let r = answer_with(Service::OpenAiEmbeddings, None, body, Some(&scripted));
        assert_eq!(
            body_of(&r.unwrap())["data"][1]["embedding"],
            json!([0.0, 1.0])
        );
        let e = answer_with(
            Service::OpenAiEmbeddings,
            None,
            body,
            Some(&json!([[1, 0]])),
        );
        assert!(e
            .unwrap_err()
            .contains("holds 1 vector(s) but the request embeds 2"));
        // A malformed request is still the client's 400, scripted vectors or not.
        let r = answer_with(Service::OpenAiEmbeddings, None, "[]", Some(&json!([[1]])));
        assert_eq!(r.unwrap().status, 400);
    }

    #[test]
    fn bad_embedding_requests_get_the_providers_400() {
        let (_, r) = answered(
            "POST",
            "/v1/embeddings",
            json!({}),
            r#"{"model":"m","input":{}}"#,
        );
        assert_eq!(r.status, 400);
        assert_eq!(body_of(&r)["error"]["type"], "invalid_request_error");
        let (_, r) = answered(
            "POST",
            "/v1/embeddings",
            json!({}),
            r#"{"model":"m","input":"a","dimensions":0}"#,
        );
        assert_eq!(r.status, 400);
        let (_, r) = answered("POST", "/v1/models/m:embedContent", json!({}), "[1]");
        assert_eq!(body_of(&r)["error"]["status"], "INVALID_ARGUMENT");
    }

    #[test]
    fn model_lists_follow_the_clients_headers() {
        let (s, r) = answered(
            "GET",
            "/v1/models",
            json!({ "authorization": "Bearer k" }),
            "",
        );
        assert_eq!(s.code(), "openai.models");
        assert_eq!(body_of(&r)["object"], "list");
        let (s, r) = answered(
            "GET",
            "/v1/models",
            json!({ "anthropic-version": "2023-06-01" }),
            "",
        );
        assert_eq!(s.code(), "anthropic.models");
        assert_eq!(body_of(&r)["has_more"], false);
        let (s, r) = answered("GET", "/v1/models", json!({ "x-goog-api-key": "k" }), "");
        assert_eq!(s.code(), "gemini.models");
        assert_eq!(body_of(&r)["models"][0]["name"], "models/gemini-2.5-pro");
        let (s, r) = answered("GET", "/v1/models/gpt-x", json!({}), "");
        assert_eq!(s.code(), "openai.model");
        assert_eq!(body_of(&r)["id"], "gpt-x");
    }

    #[test]
    fn token_counts_estimate_four_characters_a_token() {
        let (_, r) = answered(
            "POST",
            "/v1/messages/count_tokens",
            json!({}),
            r#"{"model":"c","messages":[{"role":"user","content":"abcdefgh"}],"system":"abcd"}"#,
        );
        // "user" (4) + "abcdefgh" (8) + "abcd" (4) = 16 characters.
        assert_eq!(body_of(&r), json!({ "input_tokens": 4 }));
        let (_, r) = answered(
            "POST",
            "/v1/models/gemini-2.5-flash:countTokens",
            json!({}),
            r#"{"contents":[{"parts":[{"text":"abcdefg"}],"role":"user"}]}"#,
        );
        assert_eq!(body_of(&r), json!({ "totalTokens": 3 }));
    }

    #[test]
    fn neutral_forms_name_the_service() {
        let n = neutral(
            Service::OpenAiEmbeddings,
            None,
            r#"{"model":"m","input":["x","y"]}"#,
        );
        assert_eq!(n["endpoint"], "openai.embeddings");
        assert_eq!(n["messages"][1]["content"][0]["text"], "y");
        let n = neutral(
            Service::AnthropicCountTokens,
            None,
            r#"{"model":"c","messages":[{"role":"user","content":"hi"}]}"#,
        );
        assert_eq!(n["endpoint"], "anthropic.countTokens");
        assert_eq!(n["provider"], "anthropic");
        assert_eq!(n["messages"][0]["content"][0]["text"], "hi");
    }

    #[test]
    fn other_requests_are_no_service() {
        assert!(route("POST", "/v1/responses", &json!({})).is_none());
        assert!(route("DELETE", "/v1/models/x", &json!({})).is_none());
        assert!(route("POST", "/v1/models/m:generateContent", &json!({})).is_none());
    }
}
