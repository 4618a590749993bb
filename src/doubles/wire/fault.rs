//! Faults on cue (`withFault(step, { kind, afterEvents })`): a step's reply made to fail as a
//! connection does, at a chosen event. The engine cuts the reply; the facade enacts how it
//! ends (drops the connection, or leaves it open with nothing more to say).
//!
//! - `disconnect`: the connection closes after `afterEvents` events of a streamed answer, or,
//!   without `afterEvents`, before the first byte (no status line: the client sees a network
//!   failure).
//! - `stall`: `afterEvents` events (without it, not even the status line), then nothing until
//!   the client gives up.
//! - `malformed`: event `afterEvents` (default the first) is not JSON; a JSON answer's body is
//!   cut in half.

use serde_json::{json, Value as Json};

use super::{Body, Reply};

crate::code_enum! {
    /// How a faulted reply fails.
    pub enum FaultKind {
        Disconnect = "disconnect",
        Stall = "stall",
        Malformed = "malformed",
    }
}

/// A step's fault: its kind, and the events that go out before it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fault {
    pub kind: FaultKind,
    pub after: Option<usize>,
}

/// How a faulted reply ends, for the facade: `cut` is what happens after the events it holds,
/// `before_status` that not even the status line goes out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ending {
    pub cut: FaultKind,
    pub before_status: bool,
}

impl Ending {
    pub fn to_json(self) -> Json {
        json!({ "cut": self.cut.as_str(), "beforeStatus": self.before_status })
    }
}

/// A fault as given (`{ kind, afterEvents? }`); `Err` says what is wrong with it.
pub fn read(v: &Json) -> Result<Fault, String> {
    let kinds = || {
        FaultKind::ALL
            .iter()
            .map(|k| format!("'{}'", k.as_str()))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let kind = v
        .get("kind")
        .and_then(Json::as_str)
        .and_then(FaultKind::from_code)
        .ok_or_else(|| {
            format!(
                "a fault's kind must be one of {}, got {}",
                kinds(),
                v.get("kind").map_or("nothing".into(), Json::to_string)
            )
        })?;
    let after = match v.get("afterEvents") {
        None | Some(Json::Null) => None,
        Some(n) => Some(
            n.as_u64()
                .filter(|n| *n <= u32::MAX as u64)
                .ok_or_else(|| {
                    format!("a fault's afterEvents must be a non-negative integer, got {n}")
                })? as usize,
        ),
    };
    if let Some(key) = v
        .as_object()
        .and_then(|m| m.keys().find(|k| *k != "kind" && *k != "afterEvents"))
    {
        return Err(format!("a fault has kind and afterEvents, not `{key}`"));
    }
    Ok(Fault { kind, after })
}

/// `text` cut in half (at a character boundary): no longer JSON.
fn half(text: &str) -> String {
    let mut at = text.len() / 2;
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    text[..at].to_string()
}

/// A server-sent event whose data is cut in half (its `event:` line kept), or a piece of a
/// JSON-array stream cut in half.
fn malformed(event: &str) -> String {
    match event.find("data: ") {
        Some(i) => {
            let data = event[i + 6..].trim_end_matches('\n');
            format!("{}data: {}\n\n", &event[..i], half(data))
        }
        None => half(event),
    }
}

/// `reply` with `fault` applied, and how it ends; `Err` when the fault does not fit the reply
/// (an event the answer does not stream).
pub fn apply(mut reply: Reply, fault: Fault) -> Result<(Reply, Option<Ending>), String> {
    let events = match &mut reply.body {
        Body::Stream(events) => events,
        Body::Text(text) => {
            if let Some(n) = fault.after.filter(|n| *n > 0) {
                return Err(format!(
                    "the fault is after event {n} but the request did not ask for a stream: its answer is one JSON body, so only a fault before it (no afterEvents) fits"
                ));
            }
            if fault.kind == FaultKind::Malformed {
                reply.body = Body::Text(half(text));
                return Ok((reply, None));
            }
            let ending = Ending {
                cut: fault.kind,
                before_status: true,
            };
            return Ok((reply, Some(ending)));
        }
    };
    let n = events.len();
    match (fault.kind, fault.after) {
        (FaultKind::Malformed, after) => {
            let at = after.unwrap_or(0);
            if at >= n {
                return Err(format!(
                    "the fault makes event {at} malformed but the answer streams {n} event(s) (0 to {})",
                    n.saturating_sub(1)
                ));
            }
            events[at] = malformed(&events[at]);
            Ok((reply, None))
        }
        (kind, None) => {
            events.clear();
            Ok((
                reply,
                Some(Ending {
                    cut: kind,
                    before_status: true,
                }),
            ))
        }
        (kind, Some(at)) => {
            if at >= n {
                return Err(format!(
                    "the fault comes after {at} event(s) but the answer streams {n}: give afterEvents below {n}"
                ));
            }
            events.truncate(at);
            Ok((
                reply,
                Some(Ending {
                    cut: kind,
                    before_status: false,
                }),
            ))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stream(n: usize) -> Reply {
        Reply {
            status: 200,
            headers: vec![],
            body: Body::Stream(
                (0..n)
                    .map(|i| format!("event: e{i}\ndata: {{\"i\":{i},\"text\":\"abcdef\"}}\n\n"))
                    .collect(),
            ),
        }
    }

    fn fault(kind: &str, after: Option<u64>) -> Fault {
        read(&json!({ "kind": kind, "afterEvents": after })).unwrap()
    }

    #[test]
    fn faults_are_read_with_clear_errors() {
        assert_eq!(
            fault("stall", Some(3)),
            Fault {
                kind: FaultKind::Stall,
                after: Some(3)
            }
        );
        let e = read(&json!({ "kind": "explode" })).unwrap_err();
        assert!(e.contains("'disconnect', 'stall', 'malformed'"), "{e}");
        assert!(read(&json!({ "kind": "stall", "afterEvents": -1 })).is_err());
        assert!(read(&json!({ "kind": "stall", "after": 1 }))
            .unwrap_err()
            .contains("`after`"));
    }

    #[test]
    fn a_disconnect_keeps_the_events_before_it() {
        let (r, end) = apply(stream(5), fault("disconnect", Some(3))).unwrap();
        assert!(matches!(r.body, Body::Stream(ref e) if e.len() == 3));
        assert_eq!(
            end,
            Some(Ending {
                cut: FaultKind::Disconnect,
                before_status: false
            })
        );
        let (r, end) = apply(stream(5), fault("disconnect", None)).unwrap();
        assert!(matches!(r.body, Body::Stream(ref e) if e.is_empty()));
        assert!(end.unwrap().before_status);
        let e = apply(stream(2), fault("stall", Some(2))).unwrap_err();
        assert!(e.contains("streams 2"), "{e}");
    }

    #[test]
    fn a_malformed_event_is_not_json_and_keeps_its_framing() {
        let (r, end) = apply(stream(3), fault("malformed", Some(1))).unwrap();
        assert_eq!(end, None);
        let Body::Stream(events) = r.body else {
            panic!()
        };
        assert!(events[1].starts_with("event: e1\ndata: {"));
        assert!(events[1].ends_with("\n\n"));
        let data = events[1].trim_end().trim_start_matches("event: e1\ndata: ");
        assert!(serde_json::from_str::<Json>(data).is_err());
        assert_eq!(
            events[2],
            "event: e2\ndata: {\"i\":2,\"text\":\"abcdef\"}\n\n"
        );
    }

    #[test]
    fn a_json_answer_fails_before_its_body_or_in_it() {
        let body = Reply::json(200, &json!({ "a": "ü".repeat(9) }));
        let (r, end) = apply(body.clone(), fault("malformed", None)).unwrap();
        assert_eq!(end, None);
        assert!(matches!(r.body, Body::Text(ref t) if serde_json::from_str::<Json>(t).is_err()));
        let (_, end) = apply(body.clone(), fault("stall", None)).unwrap();
        assert!(end.unwrap().before_status);
        assert!(apply(body, fault("disconnect", Some(2)))
            .unwrap_err()
            .contains("did not ask for a stream"));
    }
}
