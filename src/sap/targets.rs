//! Which texts of a model's answer a repairing wrapper reads, and against which schema: the
//! tool calls whose tool the request names, and the final output when the request asks for
//! JSON. The facade reads the answer's shape in one pass ([`Shape`], one JSON text) and puts
//! the engine's decisions back where these targets say.

use serde_json::Value;

/// One entry of an answer as the facade read it: an output item of an `@openai/agents`
/// response, or a content part of an AI SDK result. `[type, name, namespace, role, parts,
/// providerExecuted]`: `name` the called tool (a string, else absent); `parts` the `type` of
/// each content part when the item's `content` is an array; `providerExecuted` an AI SDK tool
/// call the provider ran itself (never repaired).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Entry(
    pub Option<String>,
    pub Option<String>,
    pub Option<String>,
    pub Option<String>,
    pub Option<Vec<Option<String>>>,
    pub Option<bool>,
);

/// A tool the request offers: `[type, name, namespace]`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Tool(pub Option<String>, pub Option<String>, pub Option<String>);

/// Where the answer came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// An `@openai/agents` `ModelResponse.output` (items), for a `ModelRequest`.
    Agents,
    /// An AI SDK `LanguageModel` result's `content` (parts), for its call options.
    AiSdk,
}

/// What the facade read of an answer and its request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shape {
    pub source: Source,
    pub entries: Vec<Entry>,
    pub tools: Vec<Tool>,
    /// The request asks for JSON with a schema (`outputType` of type `json_schema`; the AI
    /// SDK's `responseFormat` of type `json` with a schema object).
    pub json: bool,
}

/// A text to read: the arguments of the call at `entry` against the parameters of `tool`, or
/// the final output, the texts of `parts` joined (of the item `entry` for the Agents SDK; the
/// parts are entries themselves for the AI SDK), against the output schema. A repaired output
/// goes in the first of `parts`; the others are dropped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    Call {
        entry: usize,
        tool: usize,
    },
    Output {
        entry: Option<usize>,
        parts: Vec<usize>,
    },
}

impl Target {
    /// `[entry, tool]` for a call, `[entry or null, [parts…]]` for the output.
    fn json(&self) -> String {
        match self {
            Target::Call { entry, tool } => format!("[{entry},{tool}]"),
            Target::Output { entry, parts } => {
                let parts: Vec<String> = parts.iter().map(usize::to_string).collect();
                let entry = entry.map_or("null".to_owned(), |e| e.to_string());
                format!("[{entry},[{}]]", parts.join(","))
            }
        }
    }
}

fn is(value: &Option<String>, expected: &str) -> bool {
    value.as_deref() == Some(expected)
}

/// The tool a call names. The Agents SDK takes the first function tool of that name whose
/// namespace agrees (either side may have none), as `@openai/agents-core` resolves a call; the
/// AI SDK keys its tools by name, so the last of that name.
fn tool_of(shape: &Shape, entry: &Entry) -> Option<usize> {
    let name = entry.1.as_deref()?;
    let fits = |t: &Tool| {
        is(&t.0, "function")
            && t.1.as_deref() == Some(name)
            && match shape.source {
                Source::Agents => entry.2.is_none() || t.2.is_none() || t.2 == entry.2,
                Source::AiSdk => true,
            }
    };
    match shape.source {
        Source::Agents => shape.tools.iter().position(fits),
        Source::AiSdk => shape.tools.iter().rposition(fits),
    }
}

/// The texts a repairing wrapper reads in an answer of this shape, calls first.
pub fn targets(shape: &Shape) -> Vec<Target> {
    let call = match shape.source {
        Source::Agents => "function_call",
        Source::AiSdk => "tool-call",
    };
    let mut out: Vec<Target> = shape
        .entries
        .iter()
        .enumerate()
        .filter(|(_, e)| is(&e.0, call) && e.5 != Some(true))
        .filter_map(|(i, e)| tool_of(shape, e).map(|tool| Target::Call { entry: i, tool }))
        .collect();
    // An answer that calls a tool the caller runs (a function tool, a handoff) is a step of a
    // loop, not the final answer: its text ("Let me look that up.") is not the output, and is
    // neither read nor refused.
    let calls_a_tool = shape
        .entries
        .iter()
        .any(|e| is(&e.0, call) && e.5 != Some(true));
    if !shape.json || calls_a_tool {
        return out;
    }
    match shape.source {
        // The final output is the text of the last item when it is an assistant message (as
        // `getOutputText` of `@openai/agents-core` reads it): its `output_text` parts joined.
        Source::Agents => {
            let Some((last, item)) = shape.entries.iter().enumerate().next_back() else {
                return out;
            };
            if !(is(&item.0, "message") && is(&item.3, "assistant")) {
                return out;
            }
            let parts: Vec<usize> = item
                .4
                .iter()
                .flatten()
                .enumerate()
                .filter(|(_, t)| is(t, "output_text"))
                .map(|(i, _)| i)
                .collect();
            if !parts.is_empty() {
                out.push(Target::Output {
                    entry: Some(last),
                    parts,
                });
            }
        }
        // The AI SDK's text is every text part (or text delta) of the step joined.
        Source::AiSdk => {
            let parts: Vec<usize> = shape
                .entries
                .iter()
                .enumerate()
                .filter(|(_, e)| is(&e.0, "text") || is(&e.0, "text-delta"))
                .map(|(i, _)| i)
                .collect();
            if !parts.is_empty() {
                out.push(Target::Output { entry: None, parts });
            }
        }
    }
    out
}

/// A shape from its JSON text `[source, json, [Entry…], [Tool…]]`: `source` `"agents"` or
/// `"aiSdk"`, `json` a boolean, tuples as arrays (absent members `null` or left out).
pub fn read_shape(text: &str) -> Option<Shape> {
    let v: Value = serde_json::from_str(text).ok()?;
    let v = v.as_array()?;
    let source = match v.first()?.as_str()? {
        "agents" => Source::Agents,
        "aiSdk" => Source::AiSdk,
        _ => return None,
    };
    let json = v.get(1)?.as_bool()?;
    let list = |i: usize| v.get(i)?.as_array();
    let at = |t: &[Value], i: usize| t.get(i).and_then(Value::as_str).map(str::to_owned);
    let entries = list(2)?
        .iter()
        .map(|e| {
            let e = e.as_array()?;
            let parts = e.get(4).and_then(Value::as_array).map(|parts| {
                parts
                    .iter()
                    .map(|p| p.as_str().map(str::to_owned))
                    .collect()
            });
            let executed = e.get(5).and_then(Value::as_bool);
            Some(Entry(
                at(e, 0),
                at(e, 1),
                at(e, 2),
                at(e, 3),
                parts,
                executed,
            ))
        })
        .collect::<Option<Vec<_>>>()?;
    let tools = list(3)?
        .iter()
        .map(|t| {
            let t = t.as_array()?;
            Some(Tool(at(t, 0), at(t, 1), at(t, 2)))
        })
        .collect::<Option<Vec<_>>>()?;
    Some(Shape {
        source,
        entries,
        tools,
        json,
    })
}

/// [`targets`] of a shape in its JSON text ([`read_shape`]), as JSON text (`None` for a text
/// that is not one).
pub fn targets_text(shape: &str) -> Option<String> {
    let targets: Vec<String> = targets(&read_shape(shape)?)
        .iter()
        .map(Target::json)
        .collect();
    Some(format!("[{}]", targets.join(",")))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Runs a shape written as an object, sent as the facade sends it.
    fn run(shape: serde_json::Value) -> serde_json::Value {
        let sent = serde_json::json!([
            shape["source"],
            shape["json"],
            shape["entries"],
            shape["tools"]
        ]);
        serde_json::from_str(&targets_text(&sent.to_string()).unwrap()).unwrap()
    }

    #[test]
    fn agents_calls_find_their_tool_by_name_and_namespace() {
        let shape = serde_json::json!({
            "source": "agents",
            "entries": [
                ["function_call", "read", null],
                ["function_call", "read", "fs"],
                ["function_call", "write"],
                ["function_call", null],
                ["reasoning"],
                ["function_call", "read", "db"],
            ],
            "tools": [["web_search", "read"], ["function", "read", "db"], ["function", "read"], ["function", "read", "fs"]],
            "json": false
        });
        // No namespace on the call: the first function tool named `read` (namespace `db`);
        // `fs`: the first whose namespace agrees or is absent (index 2); `write`: none.
        assert_eq!(run(shape), serde_json::json!([[0, 1], [1, 2], [5, 1]]));
    }

    #[test]
    fn the_agents_output_is_the_last_assistant_message_s_text_parts() {
        let mut shape = serde_json::json!({
            "source": "agents",
            "entries": [
                ["message", null, null, "assistant", ["output_text"]],
                ["message", null, null, "assistant", ["refusal", "output_text", null, "output_text"]],
            ],
            "tools": [],
            "json": true
        });
        assert_eq!(run(shape.clone()), serde_json::json!([[1, [1, 3]]]));
        shape["json"] = false.into();
        assert_eq!(run(shape.clone()), serde_json::json!([]));
        shape["json"] = true.into();
        shape["entries"][1][3] = "user".into();
        assert_eq!(
            run(shape.clone()),
            serde_json::json!([]),
            "not an assistant message"
        );
        shape["entries"][1] = serde_json::json!(["function_call", "x"]);
        assert_eq!(
            run(shape),
            serde_json::json!([]),
            "the last item is not a message"
        );
    }

    #[test]
    fn ai_sdk_calls_take_the_last_tool_of_their_name_and_text_parts_join() {
        let shape = serde_json::json!({
            "source": "aiSdk",
            "entries": [["text"], ["tool-call", "lookup"], ["tool-call", "other"], ["text"], ["reasoning"], ["tool-call", "lookup", null, null, null, true]],
            "tools": [["function", "lookup"], ["provider", "other"], ["function", "lookup"]],
            "json": true
        });
        // A step with calls to run has no output (its text is a preamble).
        assert_eq!(run(shape), serde_json::json!([[1, 2]]));
        let answer = serde_json::json!({
            "source": "aiSdk",
            "entries": [["text"], ["reasoning"], ["text"], ["tool-call", "lookup", null, null, null, true]],
            "tools": [["function", "lookup"]],
            "json": true
        });
        assert_eq!(run(answer), serde_json::json!([[null, [0, 2]]]));
        let deltas = serde_json::json!({
            "source": "aiSdk",
            "entries": [["text-start"], ["text-delta"], ["text-delta"], ["text-end"]],
            "tools": [],
            "json": true
        });
        assert_eq!(run(deltas), serde_json::json!([[null, [1, 2]]]));
    }

    #[test]
    fn a_step_that_calls_a_tool_has_no_output_to_read() {
        let shape = |source: &str, entries: serde_json::Value, tools: serde_json::Value| serde_json::json!({ "source": source, "entries": entries, "tools": tools, "json": true });
        // The AI SDK: a preamble before a tool call is not the output; a provider-executed
        // call (the provider's own search) does not make the step a loop step.
        assert_eq!(
            run(shape(
                "aiSdk",
                serde_json::json!([["text"], ["tool-call", "search"]]),
                serde_json::json!([["function", "search"]])
            )),
            serde_json::json!([[1, 0]])
        );
        assert_eq!(
            run(shape(
                "aiSdk",
                serde_json::json!([["text"], ["tool-call", "web", null, null, null, true]]),
                serde_json::json!([])
            )),
            serde_json::json!([[null, [0]]])
        );
        // The Agents SDK: a message beside a function call is not the output either.
        assert_eq!(
            run(shape(
                "agents",
                serde_json::json!([
                    ["function_call", "search"],
                    ["message", null, null, "assistant", ["output_text"]]
                ]),
                serde_json::json!([["function", "search"]])
            )),
            serde_json::json!([[0, 0]])
        );
    }

    #[test]
    fn a_shape_that_is_not_one_is_refused() {
        assert_eq!(targets_text("{}"), None);
        assert_eq!(targets_text("[1]"), None);
        assert_eq!(
            targets_text(r#"["agents", true, [[1]], []]"#).as_deref(),
            Some("[]")
        );
        assert_eq!(targets_text(r#"["other", true, [], []]"#), None);
        assert_eq!(targets_text(r#"["agents", true, [5], []]"#), None);
    }
}
