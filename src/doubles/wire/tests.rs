use serde_json::{json, Value as Json};

use super::*;

/// What a request reads as: its arrival and its neutral form.
struct Seen {
    route: Route,
    streamed: bool,
    model: String,
    request: Json,
    offered: Vec<String>,
}

fn arrive_ok(url: &str, body: Json) -> Seen {
    let text = body.to_string();
    let a = arrive("POST", url, &text).expect("routed");
    let request = neutral(a.route.endpoint, &text, &a.model, a.streamed);
    // What the refusal check reads is what the whole body says of schemas.
    assert_eq!(
        refuse::refusal(a.route.endpoint, &a.schemas),
        refuse::refusal(a.route.endpoint, &body)
    );
    Seen {
        route: a.route,
        streamed: a.streamed,
        model: a.model,
        request,
        offered: a.offered,
    }
}

/// The provider's refusal of a request to `url` with `body`.
fn refused(url: &str, body: Json) -> Option<Reply> {
    let route = route("POST", url).unwrap();
    refuse::refusal(route.endpoint, &body)
}

struct Checked {
    refusal: Option<Reply>,
}

fn checked(url: &str, body: Json) -> Checked {
    Checked {
        refusal: refused(url, body),
    }
}

fn answer_of(arrival: &Seen, answer: Json) -> Reply {
    answer::write(
        &arrival.route,
        arrival.streamed,
        &arrival.model,
        &answer,
        0,
        4,
        true,
    )
    .unwrap()
}

fn body_json(reply: &Reply) -> Json {
    match &reply.body {
        Body::Text(t) => serde_json::from_str(t).unwrap(),
        Body::Stream(_) => panic!("a stream"),
    }
}

/// The data of each event (`[DONE]` as a string).
fn events(reply: &Reply) -> Vec<Json> {
    let Body::Stream(events) = &reply.body else {
        panic!("not a stream")
    };
    events
        .iter()
        .map(|e| {
            let data = e.lines().find_map(|l| l.strip_prefix("data: ")).unwrap();
            serde_json::from_str(data).unwrap_or_else(|_| Json::String(data.into()))
        })
        .collect()
}

fn tool_answer() -> Json {
    json!({
        "output": [
            {"type": "reasoning", "content": [{"type": "input_text", "text": "think first"}]},
            {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "Looking it up."}]},
            {"type": "function_call", "name": "weather", "arguments": "{\"city\":\"Oslo\"}"},
            {"type": "function_call", "callId": "mine", "name": "time", "arguments": "{\"zone\":\"CET\"}"},
        ],
        "usage": {"inputTokens": 20, "outputTokens": 9, "inputTokensDetails": {"cached_tokens": 5}, "outputTokensDetails": {"reasoning_tokens": 3}},
    })
}

#[test]
fn routes_each_providers_endpoint_and_no_other() {
    let r = |m: &str, u: &str| route(m, u).map(|r| (r.endpoint, r.path_streams, r.sse, r.model));
    assert_eq!(
        r("POST", "https://api.openai.com/v1/responses"),
        Some((Endpoint::Responses, false, true, None))
    );
    assert_eq!(
        r("post", "http://127.0.0.1:9/v1/chat/completions?x=1"),
        Some((Endpoint::Chat, false, true, None))
    );
    assert_eq!(
        r("POST", "/v1/messages"),
        Some((Endpoint::Messages, false, true, None))
    );
    assert_eq!(
        r("POST", "https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse"),
        Some((Endpoint::Gemini, true, true, Some("gemini-2.5-flash".into())))
    );
    assert_eq!(
        r(
            "POST",
            "/v1beta/models/gemini-2.5-flash:streamGenerateContent"
        ),
        Some((
            Endpoint::Gemini,
            true,
            false,
            Some("gemini-2.5-flash".into())
        ))
    );
    assert!(!r("POST", "/v1beta/models/g:generateContent").unwrap().1);
    assert_eq!(r("GET", "/v1/responses"), None);
    assert_eq!(r("POST", "/v1/embeddings"), None);
    assert_eq!(r("POST", "/v1beta/models/g:countTokens"), None);
    let missing = arrive("POST", "/v1/embeddings", "{}").unwrap_err();
    assert_eq!(missing.status, 404);
    let text = match missing.body {
        Body::Text(t) => t,
        _ => unreachable!(),
    };
    assert!(
        text.contains("/v1/embeddings")
            && text.contains("chat/completions")
            && text.contains(":generateContent"),
        "{text}"
    );
}

#[test]
fn a_body_that_is_not_json_is_the_providers_400() {
    let e = arrive("POST", "/v1/messages", "{oops").unwrap_err();
    assert_eq!(e.status, 400);
    assert_eq!(body_json(&e)["type"], "error");
    assert_eq!(body_json(&e)["error"]["type"], "invalid_request_error");
}

#[test]
fn requests_read_alike_in_the_neutral_form() {
    let chat = arrive_ok(
        "/v1/chat/completions",
        json!({
            "model": "gpt-4.1", "stream": true,
            "messages": [
                {"role": "system", "content": "Be brief."},
                {"role": "user", "content": "Weather in Oslo?"},
                {"role": "assistant", "content": null, "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "weather", "arguments": "{\"city\":\"Oslo\"}"}}]},
                {"role": "tool", "tool_call_id": "c1", "content": "sunny"},
            ],
            "tools": [{"type": "function", "function": {"name": "weather", "parameters": {"type": "object"}}}],
            "tool_choice": "required",
        }),
    );
    assert!(chat.streamed);
    assert_eq!(chat.model, "gpt-4.1");
    let r = &chat.request;
    assert_eq!(r["system"], "Be brief.");
    assert_eq!(
        r["messages"][1]["content"][0],
        json!({"type": "tool-call", "toolCallId": "c1", "toolName": "weather", "input": {"city": "Oslo"}})
    );
    assert_eq!(
        r["messages"][2],
        json!({"role": "tool", "content": [{"type": "tool-result", "toolCallId": "c1", "output": "sunny"}]})
    );
    assert_eq!(
        r["tools"],
        json!([{"name": "weather", "inputSchema": {"type": "object"}}])
    );
    assert_eq!(r["toolChoice"], "required");
    assert_eq!(chat.offered, ["weather"]);

    let anthropic = arrive_ok(
        "/v1/messages",
        json!({
            "model": "claude", "system": [{"type": "text", "text": "Be brief."}],
            "messages": [
                {"role": "user", "content": "Weather in Oslo?"},
                {"role": "assistant", "content": [{"type": "tool_use", "id": "c1", "name": "weather", "input": {"city": "Oslo"}}]},
                {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "c1", "content": "sunny"}]},
            ],
            "tools": [{"name": "weather", "input_schema": {"type": "object"}, "strict": true}],
            "tool_choice": {"type": "tool", "name": "weather"},
        }),
    );
    let a = &anthropic.request;
    assert_eq!(a["system"], "Be brief.");
    assert_eq!(a["messages"], r["messages"]);
    assert_eq!(a["tools"][0]["strict"], true);
    assert_eq!(
        a["toolChoice"],
        json!({"type": "tool", "toolName": "weather"})
    );

    let gemini = arrive_ok(
        "/v1beta/models/gemini-2.5-flash:generateContent",
        json!({
            "systemInstruction": {"parts": [{"text": "Be brief."}]},
            "contents": [
                {"role": "user", "parts": [{"text": "Weather in Oslo?"}]},
                {"role": "model", "parts": [{"functionCall": {"name": "weather", "args": {"city": "Oslo"}}}]},
                {"role": "user", "parts": [{"functionResponse": {"name": "weather", "response": {"result": "sunny"}}}]},
            ],
            "tools": [{"functionDeclarations": [{"name": "weather", "parameters": {"type": "OBJECT"}}]}],
            "generationConfig": {"responseMimeType": "application/json", "responseSchema": {"type": "OBJECT"}},
        }),
    );
    let g = &gemini.request;
    assert_eq!(gemini.model, "gemini-2.5-flash");
    assert_eq!(g["messages"][1]["content"][0]["toolName"], "weather");
    assert_eq!(
        g["messages"][2]["content"][0]["output"],
        json!({"result": "sunny"})
    );
    assert_eq!(g["responseSchema"], json!({"type": "OBJECT"}));

    let responses = arrive_ok(
        "/v1/responses",
        json!({
            "model": "gpt-5", "instructions": "Be brief.",
            "input": [
                {"role": "user", "content": [{"type": "input_text", "text": "Weather in Oslo?"}]},
                {"type": "function_call", "call_id": "c1", "name": "weather", "arguments": "{\"city\":\"Oslo\"}"},
                {"type": "function_call_output", "call_id": "c1", "output": "sunny"},
            ],
            "tools": [{"type": "function", "name": "weather", "parameters": {"type": "object", "properties": {}, "required": [], "additionalProperties": false}}],
        }),
    );
    assert_eq!(responses.request["messages"], r["messages"]);
    assert_eq!(
        responses.request["tools"][0]["strict"], true,
        "the Responses API reads an omitted strict as strict"
    );
}

#[test]
fn a_schema_the_provider_refuses_is_its_400_naming_the_tool_pointer_and_reason() {
    let open = json!({"type": "object", "properties": {"city": {"type": "string"}}});
    // OpenAI Responses: strict by default.
    let responses = checked(
        "/v1/responses",
        json!({"tools": [{"type": "function", "name": "weather", "parameters": open}]}),
    );
    let refusal = responses.refusal.expect("refused");
    assert_eq!(refusal.status, 400);
    let b = body_json(&refusal);
    let message = b["error"]["message"].as_str().unwrap();
    assert!(
        message.starts_with("Invalid schema for function 'weather':"),
        "{message}"
    );
    assert!(
        message.contains("city") || message.contains("additionalProperties"),
        "{message}"
    );
    assert_eq!(b["error"]["param"], "tools[0].parameters");
    assert_eq!(b["error"]["type"], "invalid_request_error");
    // `strict: false` is not checked; Chat checks only `strict: true`.
    assert!(checked(
        "/v1/responses",
        json!({"tools": [{"type": "function", "name": "w", "strict": false, "parameters": open}]})
    )
    .refusal
    .is_none());
    assert!(checked(
        "/v1/chat/completions",
        json!({"tools": [{"type": "function", "function": {"name": "w", "parameters": open}}]})
    )
    .refusal
    .is_none());
    assert!(refused("/v1/chat/completions", json!({"tools": [{"type": "function", "function": {"name": "w", "strict": true, "parameters": open}}]})).is_some());
    // A strict schema in its own form goes through.
    let closed = json!({"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"], "additionalProperties": false});
    assert!(checked(
        "/v1/responses",
        json!({"tools": [{"type": "function", "name": "w", "parameters": closed}]})
    )
    .refusal
    .is_none());
    assert!(refused("/v1/responses", json!({"text": {"format": {"type": "json_schema", "name": "out", "strict": true, "schema": closed}}})).is_none());
    assert!(refused("/v1/responses", json!({"text": {"format": {"type": "json_schema", "name": "out", "strict": true, "schema": open}}})).is_some());

    // Anthropic: strict tools and the output schema; `minimum` is refused there.
    let bounded = json!({"type": "object", "properties": {"days": {"type": "integer", "minimum": 1}}, "required": ["days"], "additionalProperties": false});
    let strict_tool = checked(
        "/v1/messages",
        json!({"tools": [{"name": "forecast", "strict": true, "input_schema": bounded}]}),
    );
    let b = body_json(&strict_tool.refusal.expect("refused"));
    let message = b["error"]["message"].as_str().unwrap();
    assert!(
        message.contains("forecast")
            && message.contains("minimum")
            && message.contains("/properties/days"),
        "{message}"
    );
    assert_eq!(b["error"]["type"], "invalid_request_error");
    assert!(
        checked(
            "/v1/messages",
            json!({"tools": [{"name": "forecast", "input_schema": bounded}]})
        )
        .refusal
        .is_none(),
        "not strict: not checked"
    );
    let untyped = checked(
        "/v1/messages",
        json!({"tools": [{"name": "t", "input_schema": {"properties": {}}}]}),
    );
    assert!(body_json(&untyped.refusal.unwrap())["error"]["message"]
        .as_str()
        .unwrap()
        .contains("tools.0.custom.input_schema.type: Field required"));
    assert!(checked(
        "/v1/messages",
        json!({"output_format": {"type": "json_schema", "schema": bounded}})
    )
    .refusal
    .is_some());
    assert!(checked(
        "/v1/messages",
        json!({"output_config": {"format": {"type": "json_schema", "schema": closed}}})
    )
    .refusal
    .is_none());

    // Gemini: always; `exclusiveMinimum` is an unknown field there, capital type names are its own.
    let exclusive =
        json!({"type": "OBJECT", "properties": {"n": {"type": "INTEGER", "exclusiveMinimum": 0}}});
    let g = checked(
        "/v1beta/models/g:generateContent",
        json!({"tools": [{"functionDeclarations": [{"name": "count", "parameters": exclusive}]}]}),
    );
    let b = body_json(&g.refusal.expect("refused"));
    assert_eq!(b["error"]["status"], "INVALID_ARGUMENT");
    let message = b["error"]["message"].as_str().unwrap();
    assert!(
        message.contains("count") && message.contains("exclusiveMinimum"),
        "{message}"
    );
    let native = json!({"type": "OBJECT", "properties": {"n": {"type": "INTEGER", "minimum": 1, "nullable": true, "format": "int32"}}, "required": ["n"], "propertyOrdering": ["n"]});
    assert!(
        checked(
            "/v1beta/models/g:generateContent",
            json!({"tools": [{"functionDeclarations": [{"name": "count", "parameters": native}]}]})
        )
        .refusal
        .is_none(),
        "Gemini's own fields are accepted"
    );
    assert!(
        checked(
            "/v1beta/models/g:generateContent",
            json!({"generationConfig": {"responseJsonSchema": exclusive}})
        )
        .refusal
        .is_none(),
        "the JSON Schema form ignores what it does not know"
    );
    assert!(checked(
        "/v1beta/models/g:generateContent",
        json!({"generationConfig": {"responseSchema": native, "responseJsonSchema": native}})
    )
    .refusal
    .is_some());
}

/// The message of a refused request, or `None` when the double takes it.
fn refusal_message(url: &str, body: Json) -> Option<String> {
    refused(url, body).map(|r| {
        body_json(&r)["error"]["message"]
            .as_str()
            .unwrap()
            .to_string()
    })
}

#[test]
fn each_request_is_judged_in_the_mode_it_uses_by_the_rule_book() {
    let uri = json!({"type": "object", "properties": {"url": {"type": "string", "format": "uri"}}, "required": ["url"], "additionalProperties": false});
    // OpenAI strict: `format: "uri"` is a 400 (E1); the same tool with `strict: false` goes (E2).
    let m = refusal_message(
        "/v1/responses",
        json!({"tools": [{"type": "function", "name": "fetch", "parameters": uri}]}),
    )
    .unwrap();
    assert!(
        m.contains("Invalid schema for function 'fetch'")
            && m.contains("'uri' is not a valid format"),
        "{m}"
    );
    assert!(refused("/v1/responses", json!({"tools": [{"type": "function", "name": "fetch", "strict": false, "parameters": uri}]})).is_none());
    // Chat's standard mode takes an open map; `propertyNames` is refused even there (E5).
    let map = json!({"type": "object", "properties": {"m": {"type": "object", "additionalProperties": {"type": "string"}}}});
    assert!(refused(
        "/v1/chat/completions",
        json!({"tools": [{"type": "function", "function": {"name": "w", "parameters": map}}]})
    )
    .is_none());
    let names = json!({"type": "object", "properties": {"m": {"type": "object", "propertyNames": {"pattern": "^a"}}}});
    let m = refusal_message(
        "/v1/chat/completions",
        json!({"tools": [{"type": "function", "function": {"name": "w", "parameters": names}}]}),
    )
    .unwrap();
    assert!(m.contains("'propertyNames' is not permitted"), "{m}");
    // A name OpenAI refuses, in its own words.
    let m = refusal_message("/v1/chat/completions", json!({"tools": [{"type": "function", "function": {"name": "files.read", "parameters": map}}]})).unwrap();
    assert_eq!(m, "Invalid 'tools[0].function.name': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'.");

    // Anthropic standard tools: open maps and bounds go (E9); a root that is not an object or
    // is a union does not (E11, E12).
    let bounded = json!({"type": "object", "properties": {"s": {"type": "string", "minLength": 2}, "m": {"type": "object", "additionalProperties": {"type": "number"}}}});
    assert!(refused(
        "/v1/messages",
        json!({"tools": [{"name": "t", "input_schema": bounded}]})
    )
    .is_none());
    let m = refusal_message("/v1/messages", json!({"tools": [{"name": "t", "input_schema": {"type": "array", "items": {"type": "string"}}}]})).unwrap();
    assert_eq!(
        m,
        "tools.0.custom.input_schema.type: Input should be 'object'"
    );
    let m = refusal_message("/v1/messages", json!({"tools": [{"name": "t", "input_schema": {"type": "object", "anyOf": [{"properties": {"a": {"type": "string"}}}]}}]})).unwrap();
    assert_eq!(m, "tools.0.custom.input_schema: input_schema does not support oneOf, allOf, or anyOf at the top level");
    let m = refusal_message(
        "/v1/messages",
        json!({"tools": [{"name": "a b", "input_schema": bounded}]}),
    )
    .unwrap();
    assert_eq!(
        m,
        "tools.0.custom.name: String should match pattern '^[a-zA-Z0-9_-]{1,128}$'"
    );
    // Anthropic strict: a local `$ref` goes (its docs), `minLength` does not.
    let referred = json!({"type": "object", "properties": {"at": {"$ref": "#/$defs/p"}}, "required": ["at"], "additionalProperties": false, "$defs": {"p": {"type": "object", "properties": {"c": {"type": "string"}}, "required": ["c"], "additionalProperties": false}}});
    assert!(refused(
        "/v1/messages",
        json!({"tools": [{"name": "t", "strict": true, "input_schema": referred}]})
    )
    .is_none());
    let strict_bounded = json!({"type": "object", "properties": {"s": {"type": "string", "minLength": 2}}, "required": ["s"], "additionalProperties": false});
    let m = refusal_message(
        "/v1/messages",
        json!({"tools": [{"name": "t", "strict": true, "input_schema": strict_bounded}]}),
    )
    .unwrap();
    assert!(
        m.contains("minLength") && m.contains("/properties/s"),
        "{m}"
    );

    // Gemini: proto3 JSON takes snake_case field names (google-genai sends
    // `property_ordering`, E21); a name starting with a digit is refused (E18).
    let snake = json!({"generation_config": {"response_schema": {"type": "OBJECT", "properties": {"a": {"type": "STRING"}, "b": {"type": "INTEGER"}}, "property_ordering": ["a", "b"], "required": ["a", "b"]}}});
    assert!(refused("/v1beta/models/g:generateContent", snake).is_none());
    let m = refusal_message("/v1beta/models/g:generateContent", json!({"tools": [{"function_declarations": [{"name": "1password", "parameters": {"type": "OBJECT", "properties": {}}}]}]})).unwrap();
    assert!(
        m.contains("Invalid function name. Must start with a letter or an underscore"),
        "{m}"
    );
    // `parameters_json_schema`: JSON Schema, unknown keywords ignored.
    assert!(refused("/v1beta/models/g:generateContent", json!({"tools": [{"function_declarations": [{"name": "f", "parameters_json_schema": bounded}]}]})).is_none());
}

#[test]
fn responses_json_and_events() {
    let a = arrive_ok("/v1/responses", json!({"model": "gpt-5"}));
    let body = body_json(&answer_of(&a, tool_answer()));
    assert_eq!(body["status"], "completed");
    let kinds: Vec<&str> = body["output"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["type"].as_str().unwrap())
        .collect();
    assert_eq!(
        kinds,
        ["reasoning", "message", "function_call", "function_call"]
    );
    assert_eq!(body["output"][2]["call_id"], "call-1-2");
    assert_eq!(body["output"][3]["call_id"], "mine");
    assert_eq!(body["output"][0]["summary"][0]["text"], "think first");
    assert_eq!(
        body["usage"],
        json!({"input_tokens": 20, "input_tokens_details": {"cached_tokens": 5}, "output_tokens": 9, "output_tokens_details": {"reasoning_tokens": 3}, "total_tokens": 29})
    );

    let s = arrive_ok("/v1/responses", json!({"model": "gpt-5", "stream": true}));
    let reply = answer_of(&s, tool_answer());
    assert_eq!(
        reply.headers[0],
        ("content-type".into(), "text/event-stream".into())
    );
    let events = events(&reply);
    assert_eq!(events[0]["type"], "response.created");
    assert_eq!(events.last().unwrap()["type"], "response.completed");
    assert_eq!(events.last().unwrap()["response"]["output"], body["output"]);
    let text: String = events
        .iter()
        .filter(|e| e["type"] == "response.output_text.delta")
        .map(|e| e["delta"].as_str().unwrap())
        .collect();
    assert_eq!(text, "Looking it up.");
    let args: String = events
        .iter()
        .filter(|e| e["type"] == "response.function_call_arguments.delta" && e["output_index"] == 2)
        .map(|e| e["delta"].as_str().unwrap())
        .collect();
    assert_eq!(args, "{\"city\":\"Oslo\"}");
    assert!(events
        .iter()
        .all(|e| e["type"] != "response.output_text.delta"
            || e["delta"].as_str().unwrap().chars().count() <= 4));
    let sequence: Vec<u64> = events
        .iter()
        .map(|e| e["sequence_number"].as_u64().unwrap())
        .collect();
    assert_eq!(sequence, (0..events.len() as u64).collect::<Vec<_>>());
}

#[test]
fn chat_json_and_chunks_with_tool_call_deltas_usage_and_done() {
    let a = arrive_ok("/v1/chat/completions", json!({"model": "gpt-4.1"}));
    let body = body_json(&answer_of(&a, tool_answer()));
    let m = &body["choices"][0]["message"];
    assert_eq!(m["content"], "Looking it up.");
    assert_eq!(m["reasoning_content"], "think first");
    assert_eq!(m["tool_calls"][1]["id"], "mine");
    assert_eq!(body["choices"][0]["finish_reason"], "tool_calls");
    assert_eq!(body["usage"]["prompt_tokens"], 20);

    let s = arrive_ok(
        "/v1/chat/completions",
        json!({"model": "gpt-4.1", "stream": true}),
    );
    let events = events(&answer_of(&s, tool_answer()));
    assert_eq!(events.last().unwrap(), &json!("[DONE]"));
    let usage = &events[events.len() - 2];
    assert_eq!(usage["choices"], json!([]));
    assert_eq!(usage["usage"]["completion_tokens"], 9);
    let args: String = events
        .iter()
        .filter_map(|e| e.pointer("/choices/0/delta/tool_calls/0"))
        .filter(|c| c["index"] == 0)
        .map(|c| c["function"]["arguments"].as_str().unwrap())
        .collect();
    assert_eq!(args, "{\"city\":\"Oslo\"}");
    let finish: Vec<&Json> = events
        .iter()
        .filter_map(|e| e.pointer("/choices/0/finish_reason"))
        .filter(|f| !f.is_null())
        .collect();
    assert_eq!(finish, [&json!("tool_calls")]);
    let plain = answer::write(&s.route, true, "m", &json!([]), 0, 4, false).unwrap();
    assert!(events_of_no_usage(&plain));
}

fn events_of_no_usage(reply: &Reply) -> bool {
    events(reply).iter().all(|e| e.get("usage").is_none())
}

#[test]
fn anthropic_message_and_events() {
    let a = arrive_ok("/v1/messages", json!({"model": "claude"}));
    let body = body_json(&answer_of(&a, tool_answer()));
    let kinds: Vec<&str> = body["content"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["type"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, ["thinking", "text", "tool_use", "tool_use"]);
    assert_eq!(body["content"][2]["input"], json!({"city": "Oslo"}));
    assert_eq!(body["stop_reason"], "tool_use");
    assert_eq!(body["usage"]["input_tokens"], 15);
    assert_eq!(body["usage"]["cache_read_input_tokens"], 5);

    let s = arrive_ok("/v1/messages", json!({"model": "claude", "stream": true}));
    let reply = answer_of(&s, tool_answer());
    let Body::Stream(raw) = &reply.body else {
        unreachable!()
    };
    assert!(raw[0].starts_with("event: message_start\n"));
    let events = events(&reply);
    let kinds: Vec<&str> = events.iter().map(|e| e["type"].as_str().unwrap()).collect();
    assert_eq!(kinds[0], "message_start");
    assert_eq!(&kinds[kinds.len() - 2..], ["message_delta", "message_stop"]);
    let partial: String = events
        .iter()
        .filter(|e| e.pointer("/delta/type") == Some(&json!("input_json_delta")) && e["index"] == 2)
        .map(|e| e["delta"]["partial_json"].as_str().unwrap())
        .collect();
    assert_eq!(partial, "{\"city\":\"Oslo\"}");
    assert!(events
        .iter()
        .any(|e| e.pointer("/delta/type") == Some(&json!("thinking_delta"))));
    assert!(events
        .iter()
        .any(|e| e.pointer("/delta/type") == Some(&json!("signature_delta"))));
    assert_eq!(events[events.len() - 2]["delta"]["stop_reason"], "tool_use");

    // Broken input: only a stream can carry it.
    let broken = json!([{"type": "function_call", "name": "t", "arguments": "{city: 'Oslo',}"}]);
    let e = answer::write(&a.route, false, "m", &broken, 0, 4, false).unwrap_err();
    assert!(
        e.contains("not a JSON object") && e.contains("streamed Anthropic"),
        "{e}"
    );
    assert!(answer::write(&s.route, true, "m", &broken, 0, 4, false).is_ok());
}

#[test]
fn gemini_candidates_json_sse_and_array() {
    let a = arrive_ok("/v1beta/models/gemini-2.5-flash:generateContent", json!({}));
    let body = body_json(&answer_of(&a, tool_answer()));
    let parts = &body["candidates"][0]["content"]["parts"];
    assert_eq!(parts[0], json!({"text": "think first", "thought": true}));
    assert_eq!(
        parts[2],
        json!({"functionCall": {"name": "weather", "args": {"city": "Oslo"}}})
    );
    assert_eq!(body["candidates"][0]["finishReason"], "STOP");
    assert_eq!(
        body["usageMetadata"],
        json!({"promptTokenCount": 20, "candidatesTokenCount": 6, "totalTokenCount": 29, "cachedContentTokenCount": 5, "thoughtsTokenCount": 3})
    );

    let s = arrive_ok(
        "/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse",
        json!({}),
    );
    let events = events(&answer_of(
        &s,
        json!([{"type": "message", "content": [{"type": "output_text", "text": "Hello there"}]}]),
    ));
    let text: String = events
        .iter()
        .map(|e| {
            e["candidates"][0]["content"]["parts"][0]["text"]
                .as_str()
                .unwrap()
        })
        .collect();
    assert_eq!(text, "Hello there");
    assert!(events[..events.len() - 1]
        .iter()
        .all(|e| e["candidates"][0].get("finishReason").is_none()));
    assert_eq!(
        events.last().unwrap()["candidates"][0]["finishReason"],
        "STOP"
    );

    let array = arrive_ok("/v1beta/models/g:streamGenerateContent", json!({}));
    let reply = answer_of(
        &array,
        json!([{"type": "message", "content": [{"type": "output_text", "text": "Hello there"}]}]),
    );
    let Body::Stream(pieces) = &reply.body else {
        unreachable!()
    };
    let whole: Json = serde_json::from_str(&pieces.concat()).unwrap();
    assert_eq!(whole.as_array().unwrap().len(), 3);
}

#[test]
fn error_steps_become_each_providers_error_with_retry_headers() {
    let facts = json!({"status": 429, "message": "Slow down", "advice": {"retryAfterMs": 1500, "suggested": true}});
    let openai = errors::write(Endpoint::Chat, &facts).unwrap();
    assert_eq!(openai.status, 429);
    assert_eq!(
        body_json(&openai),
        json!({"error": {"message": "Slow down", "type": "rate_limit_error", "param": null, "code": "rate_limit_exceeded"}})
    );
    assert!(openai
        .headers
        .contains(&("retry-after-ms".into(), "1500".into())));
    assert!(openai.headers.contains(&("retry-after".into(), "2".into())));
    assert!(openai
        .headers
        .contains(&("x-should-retry".into(), "true".into())));
    let anthropic = errors::write(Endpoint::Messages, &facts).unwrap();
    assert_eq!(
        body_json(&anthropic),
        json!({"type": "error", "error": {"type": "rate_limit_error", "message": "Slow down"}})
    );
    let gemini =
        errors::write(Endpoint::Gemini, &json!({"status": 503, "message": "busy"})).unwrap();
    assert_eq!(
        body_json(&gemini),
        json!({"error": {"code": 503, "message": "busy", "status": "UNAVAILABLE"}})
    );
    assert_eq!(gemini.headers.len(), 1);
    // No HTTP status: the call throws the error itself (a network failure).
    assert_eq!(
        errors::write(Endpoint::Chat, &json!({"message": "fetch failed"})),
        None
    );
    assert_eq!(
        errors::write(Endpoint::Chat, &json!({"status": 200, "message": "x"})),
        None
    );
    let failure = errors::failure(
        crate::schema::provider::Provider::OpenAi,
        "scriptedFetch received unexpected call #2",
    );
    assert_eq!(failure.status, 500);
    assert!(failure
        .headers
        .contains(&("x-should-retry".into(), "false".into())));
}

#[test]
fn an_answer_with_no_wire_form_says_so() {
    let a = arrive_ok("/v1/responses", json!({}));
    let e = answer::write(
        &a.route,
        false,
        "m",
        &json!([{"type": "hosted_tool_call"}]),
        1,
        4,
        false,
    )
    .unwrap_err();
    assert!(e.contains("part 0 is a `hosted_tool_call`"), "{e}");
    assert!(answer::write(&a.route, false, "m", &json!({"usage": {}}), 1, 4, false).is_err());
}

#[test]
fn sessions_come_from_the_path_prefix_or_the_header() {
    let none = json!({});
    let (s, url) = address("http://127.0.0.1:9/session/w1/v1/responses?x=1", &none).unwrap();
    assert_eq!(s.as_deref(), Some("w1"));
    assert_eq!(url, "http://127.0.0.1:9/v1/responses?x=1");
    let (s, url) = address(
        "/v1/chat/completions",
        &json!({ "x-understudy-session": "a b" }),
    )
    .unwrap();
    assert_eq!(s.as_deref(), Some("a b"));
    assert_eq!(url, "/v1/chat/completions");
    assert_eq!(
        address("/v1/messages", &none).unwrap(),
        (None, "/v1/messages".into())
    );
    // Both given and agreeing is one session; disagreeing, or empty, is the double's 400.
    assert!(address(
        "/session/a/v1/messages",
        &json!({ "x-understudy-session": "a" })
    )
    .is_ok());
    let two = address(
        "/session/a/v1/messages",
        &json!({ "x-understudy-session": "b" }),
    )
    .unwrap_err();
    assert_eq!(two.status, 400);
    assert!(matches!(&two.body, Body::Text(t) if t.contains("two sessions")));
    assert_eq!(
        address("/session//v1/messages", &none).unwrap_err().status,
        400
    );
    let long = "x".repeat(201);
    assert_eq!(
        address("/v1/messages", &json!({ "x-understudy-session": long }))
            .unwrap_err()
            .status,
        400
    );
}

#[test]
fn an_addressed_request_is_a_model_call_a_service_or_the_journal() {
    let none = json!({});
    let a = arrive_addressed(
        "POST",
        "/session/w/v1/responses",
        &none,
        r#"{"model":"m","input":"x"}"#,
    )
    .unwrap();
    assert_eq!(a.session.as_deref(), Some("w"));
    assert_eq!(
        a.url, "/v1/responses",
        "the script sees the URL without the prefix"
    );
    assert!(matches!(a.arrived, Arrived::Model(ref m) if m.route.endpoint == Endpoint::Responses));
    let a = arrive_addressed("POST", "/v1/embeddings", &none, "{}").unwrap();
    assert!(matches!(
        a.arrived,
        Arrived::Service {
            service: service::Service::OpenAiEmbeddings,
            ..
        }
    ));
    let a = arrive_addressed("GET", "/__understudy/sessions/w%201/calls", &none, "").unwrap();
    assert_eq!(a.arrived, Arrived::Journal(Some("w%201".into())));
    let a = arrive_addressed(
        "GET",
        "/__understudy/calls",
        &json!({ "x-understudy-session": "k" }),
        "",
    )
    .unwrap();
    assert_eq!(a.arrived, Arrived::Journal(Some("k".into())));
    let missing = arrive_addressed("POST", "/v1/nowhere", &none, "{}").unwrap_err();
    assert_eq!(missing.status, 404);
    assert!(
        matches!(&missing.body, Body::Text(t) if t.contains("/embeddings") && t.contains("/__understudy/calls"))
    );
}

#[test]
fn the_cassette_rules_do_not_reach_into_the_wire_tape() {
    // The tape uses the family's rules (hash, normalization, redaction); the family's loader
    // leaves the HTTP step shape to the tape's own `load`, so the two modules form no cycle.
    let family = include_str!("../cassette.rs");
    assert!(
        !family.contains("wire::"),
        "src/doubles/cassette.rs names the wire module"
    );
}

#[test]
fn overloaded_is_each_providers_own_status_and_body() {
    let facts =
        json!({ "fault": "overloaded", "message": "ignored", "advice": { "retryAfterMs": 1500 } });
    let text = |r: &Reply| match &r.body {
        Body::Text(t) => serde_json::from_str::<Json>(t).unwrap(),
        _ => panic!(),
    };
    let a = errors::write(Endpoint::Messages, &facts).unwrap();
    assert_eq!(a.status, 529);
    assert_eq!(
        text(&a),
        json!({ "type": "error", "error": { "type": "overloaded_error", "message": "Overloaded" } })
    );
    assert!(a.headers.contains(&("retry-after".into(), "2".into())));
    let o = errors::write(Endpoint::Chat, &facts).unwrap();
    assert_eq!(
        (o.status, text(&o)),
        (
            503,
            json!({ "error": { "message": "Our servers are currently overloaded. Please try again later.", "type": "service_unavailable_error", "param": null, "code": "server_is_overloaded" } })
        )
    );
    let g = errors::write(Endpoint::Gemini, &facts).unwrap();
    assert_eq!(
        (g.status, text(&g)["error"]["status"].clone()),
        (503, json!("UNAVAILABLE"))
    );
}
