//! Repair where replies arrive (`repairingModel`, `repairingMiddleware`): whether a text an SDK
//! is about to act on is left as it came, replaced by the value it holds, or refused because
//! the reply was cut off (sap-rules.md, rule 23). Both wrappers only find the texts in their
//! SDK's shapes and put the answer back; every decision is made here, so they cannot drift.

use serde::Serialize;
use serde_json::Value as Json;

use super::path::Seg;
use super::scan::Value;
use super::{as_is, candidates, parse_structured_reading, Fix, Options, Reading};

crate::code_enum! {
    /// Why a text was left as it came instead of being repaired.
    pub enum RefusalReason {
        /// The text ends inside a value: completing it would invent the rest.
        Truncated = "truncated",
        /// The response says it was cut off (an output limit, a content filter): nothing in it
        /// is completed, wherever the text seems to end.
        ResponseTruncated = "response_truncated",
        /// No reading of the text fits the schema; the SDK raises its usual error.
        Unreadable = "unreadable",
        /// Part of the text was already streamed on, and the repaired value does not continue
        /// it (a member sent before differs from the value's); the text stays as it came.
        Streamed = "streamed",
    }
}

crate::code_enum! {
    /// What the text ended inside of.
    pub enum CutInside {
        String = "string",
        Number = "number",
        Literal = "literal",
        Object = "object",
        Array = "array",
    }
}

impl CutInside {
    /// `a string`, `an object`.
    pub fn noun(self) -> &'static str {
        match self {
            CutInside::String => "a string",
            CutInside::Number => "a number",
            CutInside::Literal => "a literal",
            CutInside::Object => "an object",
            CutInside::Array => "an array",
        }
    }
}

/// Where a text that ends inside a value was cut: the innermost unfinished value.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Cut {
    /// JSON Pointer of the unfinished value, into the value the text holds.
    pub pointer: String,
    pub inside: CutInside,
}

impl Cut {
    /// `a string at /path`, `an object at the root`.
    pub fn describe(&self) -> String {
        let what = self.inside.noun();
        if self.pointer.is_empty() {
            format!("{what} at the root")
        } else {
            format!("{what} at {}", self.pointer)
        }
    }
}

fn unfinished(value: &Value<'_>) -> bool {
    match value {
        Value::Str { complete, .. } | Value::Num { complete, .. } => !complete,
        Value::CutLiteral => true,
        Value::Arr { closed, .. } | Value::Obj { closed, .. } => !closed,
        Value::Null | Value::Bool(_) => false,
    }
}

/// The innermost unfinished value of a scanned value the text ended inside of: the chain of
/// last entries from the root down, as far as it is unfinished.
pub(super) fn cut_site(value: &Value<'_>) -> Cut {
    let mut pointer = String::new();
    let mut at = value;
    loop {
        let next = match at {
            Value::Obj { entries, .. } => entries
                .last()
                .filter(|(_, v)| unfinished(v))
                .map(|(k, v)| (Seg::Key(k), v)),
            Value::Arr { items, .. } => items
                .last()
                .filter(|v| unfinished(v))
                .map(|v| (Seg::Index(items.len() - 1), v)),
            _ => None,
        };
        match next {
            Some((seg, v)) => {
                seg.push_to(&mut pointer);
                at = v;
            }
            None => break,
        }
    }
    let inside = match at {
        Value::Str { .. } => CutInside::String,
        Value::Num { .. } => CutInside::Number,
        Value::Arr { .. } => CutInside::Array,
        Value::Obj { .. } => CutInside::Object,
        _ => CutInside::Literal,
    };
    Cut { pointer, inside }
}

/// Where the text ends inside a value, if it does: the last value found in it is unfinished.
pub fn ends_inside(text: &str) -> Option<Cut> {
    let text = text.strip_prefix('\u{FEFF}').unwrap_or(text);
    let found = candidates(text);
    let last = found.last()?;
    last.scanned.cut.then(|| cut_site(&last.scanned.value))
}

/// What a response says about its own end: a Responses API `status` (`incomplete`) and a
/// finish reason (`incomplete_details.reason`, Chat Completions' `finish_reason`, the AI SDK's
/// `finishReason`, Anthropic's `stop_reason`, Gemini's `finishReason`).
#[derive(Debug, Clone, Copy, Default)]
pub struct ResponseEnd<'a> {
    pub status: Option<&'a str>,
    pub reason: Option<&'a str>,
}

impl ResponseEnd<'_> {
    /// Why the response was cut off, when it says so: an `incomplete` status, or a finish
    /// reason that means the output stopped before the model ended it (an output limit, a
    /// content filter).
    pub fn cut_off(&self) -> Option<String> {
        let reason = self.reason.map(str::to_ascii_lowercase);
        let limit = matches!(
            reason.as_deref(),
            Some(
                "length"
                    | "max_tokens"
                    | "max_output_tokens"
                    | "content_filter"
                    | "content-filter"
                    | "model_context_window_exceeded"
            )
        );
        let incomplete = self.status == Some("incomplete");
        match (incomplete, limit, self.reason) {
            (_, true, Some(r)) => Some(format!("the response ended with `{r}`")),
            (true, _, Some(r)) => Some(format!("the response is incomplete (`{r}`)")),
            (true, _, None) => Some("the response is incomplete".into()),
            _ => None,
        }
    }
}

/// Which values a caller lets the repair complete when the text ends inside them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum Completion {
    /// Never (the default): a cut-off value is left as it came.
    #[default]
    Never,
    /// Every tool call and the final output.
    Always,
    /// The calls of these tools only.
    Tools(Vec<String>),
}

/// The options of a repairing wrapper.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Policy {
    pub complete_truncated: Completion,
    /// Accept only these repair kinds (`None`: every kind).
    pub allow_fixes: Option<Vec<String>>,
}

/// The text a wrapper is looking at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target<'a> {
    /// A tool call's arguments, for the tool of this name.
    Tool(&'a str),
    /// The final output of a call that asked for JSON.
    Output,
}

impl Policy {
    /// May a value of `target` that the text ended inside be completed?
    pub fn may_complete(&self, target: Target<'_>) -> bool {
        match (&self.complete_truncated, target) {
            (Completion::Always, _) => true,
            (Completion::Tools(names), Target::Tool(name)) => names.iter().any(|n| n == name),
            _ => false,
        }
    }
}

/// What to do with a text.
#[derive(Debug)]
pub enum Decision<'t> {
    /// Leave it: it is already its value (no report).
    AsIs,
    /// Replace it by the JSON text of the value; report the fixes.
    Repaired(Reading<'t>),
    /// Write `rest` after the part already streamed on, which makes the value's JSON text
    /// ([`decide_streamed`]); report the fixes.
    Continued { rest: String, fixes: Vec<Fix> },
    /// Leave it as it came and report why.
    Refused {
        reason: RefusalReason,
        /// Where the text was cut, for `truncated`.
        cut: Option<Cut>,
        message: String,
    },
    /// A tool call of a response that says it was cut off, whose arguments the SDK would read
    /// as whole: not passed on (it would run on what may be half a call); reported as
    /// `response_truncated` with the arguments as they came.
    Withheld { message: String },
}

/// Decides what a repairing wrapper does with `text`, a tool call's arguments or a final
/// output read against `schema`, in a response that ended as `end` says:
/// - a text that is already a conforming value is left as it is;
/// - in a response that says it was cut off, nothing is repaired unless `policy` lets the
///   target be completed, and a tool call whose arguments are JSON (which the SDK would read
///   as a whole call and run) is withheld: only the finish reason says it may be cut short;
/// - a text that ends inside a value is left as it came unless `policy` lets the target be
///   completed;
/// - otherwise the value the text holds replaces it, or, when none fits, it is left for the
///   SDK to raise its usual error.
pub fn decide<'t>(
    text: &'t str,
    schema: &Json,
    target: Target<'_>,
    end: ResponseEnd<'_>,
    policy: &Policy,
) -> Decision<'t> {
    let may_complete = policy.may_complete(target);
    if let (Target::Tool(_), false, Some(why)) = (target, may_complete, end.cut_off()) {
        if serde_json::from_str::<serde::de::IgnoredAny>(text).is_ok() {
            return Decision::Withheld {
                message: format!("{why}; the call may be cut short although its arguments are whole JSON, so it is not passed on (its arguments are in `input`)"),
            };
        }
    }
    if as_is::conforms_as_is(text, schema) {
        return Decision::AsIs;
    }
    if !may_complete {
        if let Some(why) = end.cut_off() {
            return Decision::Refused {
                reason: RefusalReason::ResponseTruncated,
                cut: ends_inside(text),
                message: format!("{why}; a cut-off response is not repaired"),
            };
        }
        if let Some(cut) = ends_inside(text) {
            let message = format!(
                "the text ends inside {}; completing it would invent the rest",
                cut.describe()
            );
            return Decision::Refused {
                reason: RefusalReason::Truncated,
                cut: Some(cut),
                message,
            };
        }
    }
    let options = Options {
        refuse_truncated: !may_complete,
        allow_fixes: policy.allow_fixes.clone(),
    };
    match parse_structured_reading(text, schema, &options) {
        Ok(reading) if reading.fixes.is_empty() => Decision::AsIs,
        Ok(reading) => Decision::Repaired(reading),
        Err(failure) => Decision::Refused {
            reason: RefusalReason::Unreadable,
            cut: None,
            message: failure.message,
        },
    }
}

/// [`decide`] for a text of which the bytes `sent` were already streamed on (from its start,
/// or from after a leading fence's first line; `super::stream`): a repair becomes the rest to
/// write after them, or a `streamed` refusal when the value does not continue what was sent.
pub fn decide_streamed<'t>(
    text: &'t str,
    schema: &Json,
    target: Target<'_>,
    end: ResponseEnd<'_>,
    policy: &Policy,
    sent: std::ops::Range<usize>,
) -> Decision<'t> {
    let decision = decide(text, schema, target, end, policy);
    let Decision::Repaired(reading) = decision else {
        return decision;
    };
    if sent.is_empty() {
        return Decision::Repaired(reading);
    }
    let value = reading.value.into_json();
    match super::stream::continuation(&text[sent], &value) {
        Some(rest) => Decision::Continued {
            rest,
            fixes: reading.fixes,
        },
        None => Decision::Refused {
            reason: RefusalReason::Streamed,
            cut: None,
            message: "the text already streamed on holds what the repaired value does not; it is left as it came".into(),
        },
    }
}

/// The repairs of one kind in a repaired text, as a wrapper reports them (`RepairReport.fixes`):
/// one entry per kind, not one per string.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS), ts(rename = "RepairFix"))]
pub struct FixGroup {
    /// What was repaired (a `ParseFixKind`).
    #[cfg_attr(test, ts(type = "ParseFixKind"))]
    pub kind: super::fixes::FixKind,
    /// How many times.
    pub count: usize,
    /// The JSON Pointers of the repaired values, each once, in the order first met.
    pub pointers: Vec<String>,
    /// What the repairs read or wrote, each once, in the order first met.
    pub details: Vec<String>,
}

/// `fixes` grouped by kind, in the order each kind was first met.
pub fn group_fixes(fixes: &[Fix]) -> Vec<FixGroup> {
    let mut groups: Vec<FixGroup> = Vec::new();
    for fix in fixes {
        let at = match groups.iter().position(|g| g.kind == fix.kind) {
            Some(at) => at,
            None => {
                groups.push(FixGroup {
                    kind: fix.kind,
                    count: 0,
                    pointers: Vec::new(),
                    details: Vec::new(),
                });
                groups.len() - 1
            }
        };
        let group = &mut groups[at];
        group.count += 1;
        if !group.pointers.contains(&fix.pointer) {
            group.pointers.push(fix.pointer.clone());
        }
        if !group.details.iter().any(|d| d == &fix.detail) {
            group.details.push(fix.detail.to_string());
        }
    }
    groups
}

/// A decision as the wrappers read it: `None` for [`Decision::AsIs`], else JSON text
/// `{"text": …, "fixes": […]}` for a repair or `{"refused": reason, "pointer"?, "inside"?,
/// "message", "withheld"?}` for a refusal (`withheld: true`: the call is not passed on).
pub fn decision_text(decision: Decision<'_>) -> Option<String> {
    #[derive(Serialize)]
    struct Repaired {
        text: String,
        fixes: Vec<FixGroup>,
    }
    #[derive(Serialize)]
    struct Refused<'a> {
        refused: RefusalReason,
        #[serde(skip_serializing_if = "Option::is_none")]
        pointer: Option<&'a str>,
        #[serde(skip_serializing_if = "Option::is_none")]
        inside: Option<CutInside>,
        message: &'a str,
        /// The call is not passed on ([`Decision::Withheld`]).
        #[serde(skip_serializing_if = "std::ops::Not::not")]
        withheld: bool,
    }
    match decision {
        Decision::AsIs => None,
        Decision::Repaired(reading) => {
            let mut value = Vec::new();
            reading.value.write_json(&mut value);
            let text = String::from_utf8(value).unwrap_or_default();
            serde_json::to_string(&Repaired {
                text,
                fixes: group_fixes(&reading.fixes),
            })
            .ok()
        }
        Decision::Continued { rest, fixes } => serde_json::to_string(&Repaired {
            text: rest,
            fixes: group_fixes(&fixes),
        })
        .ok(),
        Decision::Refused {
            reason,
            cut,
            message,
        } => serde_json::to_string(&Refused {
            refused: reason,
            pointer: cut.as_ref().map(|c| c.pointer.as_str()),
            inside: cut.as_ref().map(|c| c.inside),
            message: &message,
            withheld: false,
        })
        .ok(),
        Decision::Withheld { message } => serde_json::to_string(&Refused {
            refused: RefusalReason::ResponseTruncated,
            pointer: None,
            inside: None,
            message: &message,
            withheld: true,
        })
        .ok(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn delete_path() -> Json {
        json!({
            "type": "object",
            "properties": { "path": { "type": "string" }, "recursive": { "type": "boolean" } },
            "required": ["path", "recursive"],
            "additionalProperties": false
        })
    }

    fn refused(d: Decision<'_>) -> (RefusalReason, Option<Cut>) {
        match d {
            Decision::Refused { reason, cut, .. } => (reason, cut),
            other => panic!("expected a refusal, got {other:?}"),
        }
    }

    fn tool<'a>() -> Target<'a> {
        Target::Tool("delete_path")
    }

    #[test]
    fn a_text_cut_inside_a_value_is_never_completed_by_default() {
        let schema = delete_path();
        let cases = [
            (
                r#"{"recursive": true, "path": "/home/user/tm"#,
                "/path",
                CutInside::String,
            ),
            (
                r#"{"path": "/home/user/tmp", "recursive": tr"#,
                "/recursive",
                CutInside::Literal,
            ),
            (
                r#"{"path": "/home/user/tmp", "recursive": true"#,
                "",
                CutInside::Object,
            ),
            (r#"{"path": "/home/user/tmp","#, "", CutInside::Object),
            (
                r#"{"path": "/tmp", "depth": 12"#,
                "/depth",
                CutInside::Number,
            ),
            (r#"[{"path": "/tmp"}, {"pa"#, "/1", CutInside::Object),
            (
                "```json\n{\"path\": \"/tmp\", \"recursive\": [tru",
                "/recursive/0",
                CutInside::Literal,
            ),
        ];
        for (text, pointer, inside) in cases {
            let (reason, cut) = refused(decide(
                text,
                &schema,
                tool(),
                ResponseEnd::default(),
                &Policy::default(),
            ));
            assert_eq!(reason, RefusalReason::Truncated, "{text}");
            let cut = cut.expect("a cut site");
            assert_eq!(
                (cut.pointer.as_str(), cut.inside),
                (pointer, inside),
                "{text}"
            );
        }
    }

    #[test]
    fn a_complete_but_broken_text_is_repaired() {
        let schema = delete_path();
        let d = decide(
            "{path: '/home/user/tmp', recursive: 'true',}",
            &schema,
            tool(),
            ResponseEnd::default(),
            &Policy::default(),
        );
        let Decision::Repaired(reading) = d else {
            panic!("expected a repair, got {d:?}")
        };
        let fixes: Vec<&str> = reading.fixes.iter().map(|f| f.kind.as_str()).collect();
        assert!(fixes.contains(&"string_to_boolean"), "{fixes:?}");
        assert_eq!(
            reading.value.into_json(),
            json!({"path": "/home/user/tmp", "recursive": true})
        );
    }

    #[test]
    fn a_whole_call_of_a_cut_off_response_is_withheld_a_conforming_output_left_as_it_is() {
        let schema = delete_path();
        let end = ResponseEnd {
            status: Some("incomplete"),
            reason: Some("max_output_tokens"),
        };
        let text = r#"{"path": "/tmp", "recursive": false}"#;
        // Only the finish reason says the call may be cut short: it is not passed on.
        let Decision::Withheld { message } = decide(text, &schema, tool(), end, &Policy::default())
        else {
            panic!("a whole call of a cut-off response is withheld");
        };
        assert!(message.contains("not passed on"), "{message}");
        let withheld =
            decision_text(decide(text, &schema, tool(), end, &Policy::default())).unwrap();
        assert!(
            withheld.contains(r#""refused":"response_truncated""#)
                && withheld.contains(r#""withheld":true"#),
            "{withheld}"
        );
        // Whole JSON that does not fit the tool: withheld all the same (the SDK reads JSON).
        assert!(matches!(
            decide(r#"{"path": 1}"#, &schema, tool(), end, &Policy::default()),
            Decision::Withheld { .. }
        ));
        // Arguments that are not JSON stay as they came (the SDK cannot read them as a call).
        assert!(matches!(
            decide(r#"{"path": "/tm"#, &schema, tool(), end, &Policy::default()),
            Decision::Refused {
                reason: RefusalReason::ResponseTruncated,
                ..
            }
        ));
        // A tool completeTruncated names is passed on.
        let search = Policy {
            complete_truncated: Completion::Tools(vec!["delete_path".to_string()]),
            ..Policy::default()
        };
        assert!(matches!(
            decide(text, &schema, tool(), end, &search),
            Decision::AsIs
        ));
        // The final output is no call: a conforming one stays as it is.
        assert!(matches!(
            decide(text, &schema, Target::Output, end, &Policy::default()),
            Decision::AsIs
        ));
        // A response that ended normally passes its call on.
        let stop = ResponseEnd {
            status: None,
            reason: Some("tool-calls"),
        };
        assert!(matches!(
            decide(text, &schema, tool(), stop, &Policy::default()),
            Decision::AsIs
        ));
    }

    #[test]
    fn a_cut_off_response_is_not_repaired_even_where_the_text_seems_complete() {
        let schema = delete_path();
        for end in [
            ResponseEnd {
                status: Some("incomplete"),
                reason: Some("max_output_tokens"),
            },
            ResponseEnd {
                status: Some("incomplete"),
                reason: None,
            },
            ResponseEnd {
                status: None,
                reason: Some("length"),
            },
            ResponseEnd {
                status: None,
                reason: Some("MAX_TOKENS"),
            },
            ResponseEnd {
                status: None,
                reason: Some("content_filter"),
            },
        ] {
            let (reason, _) = refused(decide(
                "{path: '/tmp', recursive: 'true'}",
                &schema,
                tool(),
                end,
                &Policy::default(),
            ));
            assert_eq!(reason, RefusalReason::ResponseTruncated, "{end:?}");
        }
        for end in [
            ResponseEnd {
                status: Some("completed"),
                reason: Some("stop"),
            },
            ResponseEnd {
                status: None,
                reason: Some("tool-calls"),
            },
            ResponseEnd::default(),
        ] {
            assert_eq!(end.cut_off(), None, "{end:?}");
        }
    }

    #[test]
    fn completing_is_an_opt_in_per_tool_or_for_all() {
        let schema = delete_path();
        let text = r#"{"recursive": true, "path": "/home/user/tm"#;
        let search = Policy {
            complete_truncated: Completion::Tools(vec!["search".into()]),
            allow_fixes: None,
        };
        assert!(matches!(
            decide(text, &schema, tool(), ResponseEnd::default(), &search),
            Decision::Refused { .. }
        ));
        assert!(matches!(
            decide(
                text,
                &schema,
                Target::Output,
                ResponseEnd::default(),
                &search
            ),
            Decision::Refused { .. }
        ));
        let d = decide(
            text,
            &schema,
            Target::Tool("search"),
            ResponseEnd::default(),
            &search,
        );
        let Decision::Repaired(reading) = d else {
            panic!("expected a completion, got {d:?}")
        };
        let closed = reading
            .fixes
            .iter()
            .find(|f| f.kind == "closed_at_end")
            .expect("reported");
        assert_eq!(closed.pointer, "/path");
        assert!(
            closed.detail.contains("cut off inside a string"),
            "{}",
            closed.detail
        );
        let always = Policy {
            complete_truncated: Completion::Always,
            allow_fixes: None,
        };
        let end = ResponseEnd {
            status: None,
            reason: Some("length"),
        };
        assert!(matches!(
            decide(text, &schema, Target::Output, end, &always),
            Decision::Repaired(_)
        ));
    }

    #[test]
    fn what_cannot_be_read_is_refused_as_unreadable() {
        let (reason, cut) = refused(decide(
            "I cannot help with that.",
            &delete_path(),
            Target::Output,
            ResponseEnd::default(),
            &Policy::default(),
        ));
        assert_eq!((reason, cut), (RefusalReason::Unreadable, None));
        let only_fences = Policy {
            complete_truncated: Completion::Never,
            allow_fixes: Some(vec!["fence_stripped".into()]),
        };
        let (reason, _) = refused(decide(
            "{path: '/tmp', recursive: true}",
            &delete_path(),
            tool(),
            ResponseEnd::default(),
            &only_fences,
        ));
        assert_eq!(reason, RefusalReason::Unreadable);
    }

    #[test]
    fn decisions_cross_as_json_text() {
        let schema = delete_path();
        let policy = Policy::default();
        assert_eq!(
            decision_text(decide(
                r#"{"path":"/t","recursive":true}"#,
                &schema,
                tool(),
                ResponseEnd::default(),
                &policy
            )),
            None
        );
        let repaired: Json = serde_json::from_str(
            &decision_text(decide(
                "{path: '/t', recursive: true}",
                &schema,
                tool(),
                ResponseEnd::default(),
                &policy,
            ))
            .unwrap(),
        )
        .unwrap();
        assert_eq!(repaired["text"], json!(r#"{"path":"/t","recursive":true}"#));
        assert_eq!(repaired["fixes"][0]["kind"], json!("unquoted_key"));
        let refusal: Json = serde_json::from_str(
            &decision_text(decide(
                r#"{"path": "/t"#,
                &schema,
                tool(),
                ResponseEnd::default(),
                &policy,
            ))
            .unwrap(),
        )
        .unwrap();
        assert_eq!(
            refusal,
            json!({"refused": "truncated", "pointer": "/path", "inside": "string",
                   "message": "the text ends inside a string at /path; completing it would invent the rest"})
        );
    }

    #[test]
    fn parse_structured_says_plainly_where_the_reply_was_cut() {
        let parsed = super::super::parse_structured(
            r#"{"recursive": true, "path": "/home/us"#,
            &delete_path(),
        )
        .expect("read");
        let fix = parsed
            .fixes
            .iter()
            .find(|f| f.kind == "closed_at_end")
            .expect("reported");
        assert_eq!(fix.pointer, "/path");
        assert_eq!(
            fix.detail,
            "the reply was cut off inside a string; the value was completed where the text ends"
        );
    }

    /// A wrapper reports one entry per kind of repair, with each pointer and detail once.
    #[test]
    fn fixes_are_reported_by_kind() {
        let schema = json!({"type": "object", "properties": {"title": {"type": "string"}, "tags": {"type": "array", "items": {"type": "string"}}}});
        let text = "{\u{201c}title\u{201d}: \u{201c}Fix\u{201d}, \u{201c}tags\u{201d}: [\u{201c}a\u{201d}, \u{201c}b\u{201d}],}";
        let Decision::Repaired(reading) = decide(
            text,
            &schema,
            Target::Output,
            ResponseEnd::default(),
            &Policy::default(),
        ) else {
            panic!("repaired")
        };
        assert_eq!(reading.fixes.len(), 11);
        let groups = group_fixes(&reading.fixes);
        let summary: Vec<(&str, usize, Vec<&str>)> = groups
            .iter()
            .map(|g| {
                (
                    g.kind.as_str(),
                    g.count,
                    g.pointers.iter().map(String::as_str).collect(),
                )
            })
            .collect();
        assert_eq!(
            summary,
            vec![
                ("curly_quotes", 10, vec!["", "/title", "/tags/0", "/tags/1"]),
                ("trailing_comma_removed", 1, vec![""]),
            ]
        );
        assert_eq!(groups[0].details, vec!["\u{201c}", "\u{201d}"]);
    }
}
