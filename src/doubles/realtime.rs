//! `ScriptedRealtimeTransport`: the call log, ordered expectations, per-method
//! injected failures, the connection lifecycle and the error for each mismatch.
//!
//! Generic over what the host keeps for a call record (`C`), an expectation (`X`) and an
//! injected failure (`F`); matchers, listeners and promises stay with the host, which asks
//! here what to do at each step.

use std::collections::VecDeque;
use std::fmt;

use super::display_index;

/// The transport's `status`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    Disconnected,
    Connecting,
    Connected,
    Disconnecting,
}

impl Status {
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Disconnected => "disconnected",
            Status::Connecting => "connecting",
            Status::Connected => "connected",
            Status::Disconnecting => "disconnecting",
        }
    }

    pub fn parse(s: &str) -> Option<Status> {
        Some(match s {
            "disconnected" => Status::Disconnected,
            "connecting" => Status::Connecting,
            "connected" => Status::Connected,
            "disconnecting" => Status::Disconnecting,
            _ => return None,
        })
    }
}

/// An expectation still waiting for its call.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Pending {
    pub order: u64,
    pub method: String,
}

/// A recorded call no expectation has taken yet.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Unconsumed {
    pub index: usize,
    pub method: String,
}

/// Injected failures still queued for a method.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct PendingFailures {
    pub method: String,
    pub count: usize,
}

/// The lifecycle operation a superseded attempt was: always `connect`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Operation {
    Connect,
}

/// Every error the scripted transport raises by itself. Each variant is one facade class (its
/// `kind`), with its fields in the class's order under the class's names
/// ([`crate::error::Raise`]); the facade's field types are generated from it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "kind")]
#[cfg_attr(
    test,
    derive(ts_rs::TS),
    ts(rename = "RealtimeErrorFields", optional_fields)
)]
pub enum RealtimeError {
    /// The next expectation named another method.
    #[serde(rename = "UnexpectedRealtimeCallError", rename_all = "camelCase")]
    Unexpected {
        /// The zero-based position of the call in `ScriptedRealtimeTransport.calls`.
        call_index: usize,
        #[serde(rename = "expectedMethod")]
        #[cfg_attr(test, ts(type = "RealtimeTransportMethod"))]
        expected: String,
        #[serde(rename = "actualMethod")]
        actual: String,
    },
    /// An expectation's matcher returned exactly `false`.
    #[serde(rename = "RealtimeCallMatcherError", rename_all = "camelCase")]
    Matcher {
        /// The zero-based position of the call in `ScriptedRealtimeTransport.calls`.
        call_index: usize,
        #[serde(rename = "actualMethod")]
        actual: String,
    },
    /// `assertComplete()` (or a scenario's completion check) found work left.
    #[serde(rename = "IncompleteRealtimeScenarioError")]
    Incomplete {
        #[serde(rename = "unconsumedCalls")]
        #[cfg_attr(test, ts(type = "readonly RecordedRealtimeTransportCall[]"))]
        unconsumed: Vec<Unconsumed>,
        #[serde(rename = "pendingExpectations")]
        #[cfg_attr(test, ts(type = "readonly PendingRealtimeExpectation[]"))]
        pending: Vec<Pending>,
        #[serde(rename = "pendingFailures")]
        #[cfg_attr(test, ts(type = "readonly PendingRealtimeFailure[]"))]
        failures: Vec<PendingFailures>,
    },
    /// `runScenario` was aborted (`name` `'AbortError'`).
    #[serde(rename = "ScriptedRealtimeScenarioCancelledError")]
    Cancelled {
        #[serde(rename = "pendingExpectations")]
        #[cfg_attr(test, ts(type = "readonly PendingRealtimeExpectation[]"))]
        pending: Vec<Pending>,
    },
    /// `assertClosed()` while not disconnected.
    #[serde(rename = "RealtimeTransportNotClosedError")]
    NotClosed {
        #[cfg_attr(test, ts(type = "RealtimeTransportStatus"))]
        status: String,
    },
    /// A lifecycle operation replaced a connect in progress.
    #[serde(rename = "ScriptedRealtimeConnectionSupersededError")]
    Superseded {
        #[cfg_attr(test, ts(type = "'connect'"))]
        operation: Operation,
    },
}

use crate::error::Class;

impl crate::error::Raise for RealtimeError {
    fn kind(&self) -> Class {
        match self {
            RealtimeError::Unexpected { .. } => Class::UnexpectedRealtimeCallError,
            RealtimeError::Matcher { .. } => Class::RealtimeCallMatcherError,
            RealtimeError::Incomplete { .. } => Class::IncompleteRealtimeScenarioError,
            RealtimeError::Cancelled { .. } => Class::ScriptedRealtimeScenarioCancelledError,
            RealtimeError::NotClosed { .. } => Class::RealtimeTransportNotClosedError,
            RealtimeError::Superseded { .. } => Class::ScriptedRealtimeConnectionSupersededError,
        }
    }
}

/// The error a lifecycle operation that replaced a connect in progress raises.
pub const SUPERSEDED: RealtimeError = RealtimeError::Superseded {
    operation: Operation::Connect,
};

fn plural(n: usize, noun: &str) -> String {
    format!("{n} {noun}{}", if n == 1 { "" } else { "s" })
}

fn orders(pending: &[Pending]) -> String {
    pending
        .iter()
        .map(|p| format!("#{} {}", p.order, p.method))
        .collect::<Vec<_>>()
        .join(", ")
}

impl fmt::Display for RealtimeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RealtimeError::Unexpected { call_index, expected, actual } => write!(
                f,
                "ScriptedRealtimeTransport expected {expected} but received {actual} call #{}.",
                display_index(*call_index)
            ),
            RealtimeError::Matcher { call_index, actual } => {
                write!(f, "ScriptedRealtimeTransport matcher rejected {actual} call #{}.", display_index(*call_index))
            }
            RealtimeError::Incomplete { unconsumed, pending, failures } => {
                let failed: usize = failures.iter().map(|p| p.count).sum();
                let list = orders(pending);
                write!(
                    f,
                    "ScriptedRealtimeTransport scenario is incomplete: {}, {}{}, and {}.",
                    plural(unconsumed.len(), "unconsumed call"),
                    plural(pending.len(), "pending expectation"),
                    if list.is_empty() { String::new() } else { format!(" ({list})") },
                    plural(failed, "pending failure")
                )
            }
            RealtimeError::Cancelled { pending } => {
                let list = orders(pending);
                if list.is_empty() {
                    f.write_str("ScriptedRealtimeTransport scenario was cancelled.")
                } else {
                    write!(f, "ScriptedRealtimeTransport scenario was cancelled with pending expectations: {list}.")
                }
            }
            RealtimeError::NotClosed { status } => {
                write!(f, "ScriptedRealtimeTransport is not closed; current status is {status}.")
            }
            RealtimeError::Superseded { .. } => {
                f.write_str("ScriptedRealtimeTransport connection attempt was superseded by another lifecycle operation.")
            }
        }
    }
}

/// A queued expectation and what the host keeps for it (matcher, promise settlers).
#[derive(Debug)]
pub struct Expectation<X> {
    pub order: u64,
    pub method: String,
    pub payload: X,
}

/// The transport's state.
#[derive(Debug)]
pub struct Transport<C, X, F> {
    calls: Vec<C>,
    unconsumed: VecDeque<(usize, String)>,
    expectations: VecDeque<Expectation<X>>,
    /// Method-insertion order, as a `Map` keeps it (a method emptied is removed).
    failures: Vec<(String, VecDeque<F>)>,
    next_order: u64,
    pub status: Status,
    generation: u64,
    provisional: Option<u64>,
}

impl<C, X, F> Default for Transport<C, X, F> {
    fn default() -> Self {
        Transport {
            calls: Vec::new(),
            unconsumed: VecDeque::new(),
            expectations: VecDeque::new(),
            failures: Vec::new(),
            next_order: 1,
            status: Status::Disconnected,
            generation: 0,
            provisional: None,
        }
    }
}

/// How a failed `connect` ends.
#[derive(Debug, PartialEq, Eq)]
pub enum ConnectEnd {
    /// This attempt is still current: now disconnected; notify `'disconnected'`.
    Disconnected,
    /// Another operation took over; leave the state alone.
    Superseded,
}

/// The state a `close()` saw when it began.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CloseTicket {
    pub generation: u64,
    pub established: bool,
}

impl<C: Clone, X, F> Transport<C, X, F> {
    pub fn calls(&self) -> &[C] {
        &self.calls
    }

    /// `failNextCall(method, error)`.
    pub fn fail_next(&mut self, method: &str, failure: F) {
        match self.failures.iter_mut().find(|(m, _)| m == method) {
            Some((_, queue)) => queue.push_back(failure),
            None => self
                .failures
                .push((method.to_owned(), VecDeque::from([failure]))),
        }
    }

    /// Reserves the next injected failure of `method` (before the call is recorded).
    pub fn take_failure(&mut self, method: &str) -> Option<F> {
        let at = self.failures.iter().position(|(m, _)| m == method)?;
        let failure = self.failures[at].1.pop_front();
        if self.failures[at].1.is_empty() {
            self.failures.remove(at);
        }
        failure
    }

    /// Records a call at index `calls().len()` (the host built `call` with that index) and
    /// hands it to the oldest pending expectation, or queues it as unconsumed.
    pub fn record(&mut self, method: &str, call: C) -> Option<Expectation<X>> {
        let index = self.calls.len();
        self.calls.push(call);
        match self.expectations.pop_front() {
            Some(x) => Some(x),
            None => {
                self.unconsumed.push_back((index, method.to_owned()));
                None
            }
        }
    }

    /// The index the next recorded call gets.
    pub fn next_index(&self) -> usize {
        self.calls.len()
    }

    /// `expectCall(method, …)` begins: takes an order number and the oldest unconsumed call, if
    /// any (which the host validates and settles at once, even when validation fails).
    pub fn expect(&mut self) -> (u64, Option<C>) {
        let order = self.next_order;
        self.next_order += 1;
        let call = self
            .unconsumed
            .pop_front()
            .map(|(index, _)| self.calls[index].clone());
        (order, call)
    }

    /// Queues an expectation that found no call waiting.
    pub fn queue(&mut self, order: u64, method: &str, payload: X) {
        self.expectations.push_back(Expectation {
            order,
            method: method.to_owned(),
            payload,
        });
    }

    /// Checks a call against an expectation's method.
    pub fn check_method(
        expected: &str,
        actual: &str,
        call_index: usize,
    ) -> Result<(), RealtimeError> {
        if expected == actual {
            Ok(())
        } else {
            Err(RealtimeError::Unexpected {
                call_index,
                expected: expected.to_owned(),
                actual: actual.to_owned(),
            })
        }
    }

    /// A matcher's verdict: exactly `false` rejects.
    pub fn check_matcher(
        returned_false: bool,
        call_index: usize,
        actual: &str,
    ) -> Result<(), RealtimeError> {
        if returned_false {
            Err(RealtimeError::Matcher {
                call_index,
                actual: actual.to_owned(),
            })
        } else {
            Ok(())
        }
    }

    pub fn pending(&self) -> Vec<Pending> {
        self.expectations
            .iter()
            .map(|x| Pending {
                order: x.order,
                method: x.method.clone(),
            })
            .collect()
    }

    pub fn has_pending(&self) -> bool {
        !self.expectations.is_empty()
    }

    /// Removes every pending expectation (to reject them all with one error).
    pub fn drain_expectations(&mut self) -> Vec<Expectation<X>> {
        self.expectations.drain(..).collect()
    }

    pub fn incomplete(&self) -> RealtimeError {
        RealtimeError::Incomplete {
            unconsumed: self
                .unconsumed
                .iter()
                .map(|(index, method)| Unconsumed {
                    index: *index,
                    method: method.clone(),
                })
                .collect(),
            pending: self.pending(),
            failures: self
                .failures
                .iter()
                .map(|(m, q)| PendingFailures {
                    method: m.clone(),
                    count: q.len(),
                })
                .collect(),
        }
    }

    pub fn cancelled(&self) -> RealtimeError {
        RealtimeError::Cancelled {
            pending: self.pending(),
        }
    }

    /// `assertComplete()`: no unconsumed call, pending expectation or queued failure.
    pub fn assert_complete(&self) -> Result<(), RealtimeError> {
        if self.unconsumed.is_empty() && self.expectations.is_empty() && self.failures.is_empty() {
            Ok(())
        } else {
            Err(self.incomplete())
        }
    }

    /// `assertClosed()`.
    pub fn assert_closed(&self) -> Result<(), RealtimeError> {
        match self.status {
            Status::Disconnected => Ok(()),
            s => Err(RealtimeError::NotClosed {
                status: s.as_str().to_owned(),
            }),
        }
    }

    // --- lifecycle -------------------------------------------------------------------------

    /// `connect()` begins: a new generation, `'connecting'`.
    pub fn connect_begin(&mut self) -> u64 {
        self.generation += 1;
        self.status = Status::Connecting;
        self.generation
    }

    /// The connect attempt `generation` must still be current and in `status`.
    pub fn assert_current(&self, generation: u64, status: Status) -> Result<(), RealtimeError> {
        if self.generation == generation && self.status == status {
            Ok(())
        } else {
            Err(SUPERSEDED)
        }
    }

    /// `'connected'`, provisionally until the `'connected'` notification went through.
    pub fn connect_provisional(&mut self, generation: u64) {
        self.status = Status::Connected;
        self.provisional = Some(generation);
    }

    /// The attempt ended (either way): it no longer holds a provisional connection.
    pub fn connect_settled(&mut self, generation: u64) {
        if self.provisional == Some(generation) {
            self.provisional = None;
        }
    }

    /// A connect attempt failed.
    pub fn connect_failed(&mut self, generation: u64) -> ConnectEnd {
        if self.generation == generation {
            self.generation += 1;
            self.status = Status::Disconnected;
            ConnectEnd::Disconnected
        } else {
            ConnectEnd::Superseded
        }
    }

    /// `close()` begins; `None` when already disconnected (a no-op, not recorded).
    pub fn close_begin(&mut self) -> Option<CloseTicket> {
        if self.status == Status::Disconnected {
            return None;
        }
        self.generation += 1;
        let established = self.status == Status::Connected && self.provisional.is_none();
        self.status = Status::Disconnecting;
        Some(CloseTicket {
            generation: self.generation,
            established,
        })
    }

    /// The close call was recorded: `true` when this close is still current, which makes the
    /// transport disconnected (notify `'disconnected'`); `false` when a re-entrant operation
    /// took over.
    pub fn close_recorded(&mut self, ticket: CloseTicket) -> bool {
        if self.generation != ticket.generation || self.status != Status::Disconnecting {
            return false;
        }
        self.status = Status::Disconnected;
        true
    }

    /// Recording the close threw: restore `'connected'` if a connection was established, else
    /// end disconnected (`true`: notify `'disconnected'`).
    pub fn close_failed(&mut self, ticket: CloseTicket) -> bool {
        if self.generation != ticket.generation || self.status != Status::Disconnecting {
            return false;
        }
        self.status = if ticket.established {
            Status::Connected
        } else {
            Status::Disconnected
        };
        self.status == Status::Disconnected
    }

    /// `disconnect(error?)`: a new generation; `true` when the status changed (notify).
    pub fn disconnect(&mut self) -> bool {
        self.generation += 1;
        if self.status == Status::Disconnected {
            return false;
        }
        self.status = Status::Disconnected;
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    type T = Transport<usize, &'static str, &'static str>;

    #[test]
    fn calls_go_to_the_oldest_expectation_or_wait() {
        let mut t = T::default();
        assert_eq!(t.expect(), (1, None));
        t.queue(1, "connect", "x1");
        assert_eq!(t.expect(), (2, None));
        t.queue(2, "sendMessage", "x2");
        let first = t.record("connect", 0).unwrap();
        assert_eq!(
            (first.order, first.method.as_str(), first.payload),
            (1, "connect", "x1")
        );
        let second = t.record("close", 1).unwrap();
        assert_eq!(
            second.method, "sendMessage",
            "the expectation is taken even when the method differs"
        );
        assert!(
            t.record("mute", 2).is_none(),
            "no expectation: the call waits"
        );
        assert_eq!(t.expect(), (3, Some(2)));
        assert!(t.assert_complete().is_ok());
    }

    #[test]
    fn method_and_matcher_checks() {
        let e = T::check_method("connect", "close", 2).unwrap_err();
        assert_eq!(
            e.to_string(),
            "ScriptedRealtimeTransport expected connect but received close call #3."
        );
        assert!(T::check_method("close", "close", 0).is_ok());
        let e = T::check_matcher(true, 0, "sendMessage").unwrap_err();
        assert_eq!(
            e.to_string(),
            "ScriptedRealtimeTransport matcher rejected sendMessage call #1."
        );
        assert!(T::check_matcher(false, 0, "x").is_ok());
    }

    #[test]
    fn failures_queue_per_method_in_insertion_order() {
        let mut t = T::default();
        t.fail_next("sendEvent", "a");
        t.fail_next("mute", "b");
        t.fail_next("sendEvent", "c");
        assert_eq!(t.take_failure("sendEvent"), Some("a"));
        assert_eq!(t.take_failure("close"), None);
        match t.incomplete() {
            RealtimeError::Incomplete { failures, .. } => assert_eq!(
                failures,
                [
                    PendingFailures {
                        method: "sendEvent".into(),
                        count: 1
                    },
                    PendingFailures {
                        method: "mute".into(),
                        count: 1
                    }
                ]
            ),
            other => panic!("{other:?}"),
        }
        assert_eq!(t.take_failure("sendEvent"), Some("c"));
        t.fail_next("sendEvent", "d");
        match t.incomplete() {
            RealtimeError::Incomplete { failures, .. } => {
                assert_eq!(
                    failures
                        .iter()
                        .map(|f| f.method.as_str())
                        .collect::<Vec<_>>(),
                    ["mute", "sendEvent"],
                    "an emptied method is re-added at the end"
                )
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn incomplete_messages_count_and_list() {
        let mut t = T::default();
        t.record("connect", 0);
        assert_eq!(
            t.expect(),
            (1, Some(0)),
            "a waiting call is consumed whatever the expected method"
        );
        assert!(t.assert_complete().is_ok());
        let mut t2 = T::default();
        t2.record("a", 0);
        t2.fail_next("a", "f");
        let e = t2.incomplete();
        assert_eq!(e.to_string(), "ScriptedRealtimeTransport scenario is incomplete: 1 unconsumed call, 0 pending expectations, and 1 pending failure.");
        let mut t3 = T::default();
        for method in ["connect", "close"] {
            let (order, _) = t3.expect();
            t3.queue(order, method, "p");
        }
        assert_eq!(
            t3.incomplete().to_string(),
            "ScriptedRealtimeTransport scenario is incomplete: 0 unconsumed calls, 2 pending expectations (#1 connect, #2 close), and 0 pending failures."
        );
        assert_eq!(t3.cancelled().to_string(), "ScriptedRealtimeTransport scenario was cancelled with pending expectations: #1 connect, #2 close.");
        assert_eq!(
            T::default().cancelled().to_string(),
            "ScriptedRealtimeTransport scenario was cancelled."
        );
        assert_eq!(t3.drain_expectations().len(), 2);
        assert!(!t3.has_pending());
    }

    #[test]
    fn connect_lifecycle_and_supersession() {
        let mut t = T::default();
        let g = t.connect_begin();
        assert_eq!(t.status, Status::Connecting);
        t.assert_current(g, Status::Connecting).unwrap();
        t.connect_provisional(g);
        t.assert_current(g, Status::Connected).unwrap();
        t.connect_settled(g);
        assert!(t.assert_closed().is_err());
        assert_eq!(
            t.assert_closed().unwrap_err().to_string(),
            "ScriptedRealtimeTransport is not closed; current status is connected."
        );

        // A close during a connect supersedes it.
        let mut t = T::default();
        let g = t.connect_begin();
        let ticket = t.close_begin().unwrap();
        assert!(!ticket.established);
        assert!(t.close_recorded(ticket));
        assert_eq!(
            t.assert_current(g, Status::Connecting).unwrap_err(),
            SUPERSEDED
        );
        assert_eq!(t.connect_failed(g), ConnectEnd::Superseded);
        assert_eq!(t.status, Status::Disconnected);
    }

    #[test]
    fn close_restores_an_established_connection_when_recording_fails() {
        let mut t = T::default();
        let g = t.connect_begin();
        t.connect_provisional(g);
        t.connect_settled(g);
        let ticket = t.close_begin().unwrap();
        assert!(ticket.established);
        assert!(
            !t.close_failed(ticket),
            "no notification: back to connected"
        );
        assert_eq!(t.status, Status::Connected);
        // A provisional connection is not established.
        let g = t.connect_begin();
        t.connect_provisional(g);
        let ticket = t.close_begin().unwrap();
        assert!(!ticket.established);
        assert!(t.close_failed(ticket));
        assert_eq!(t.status, Status::Disconnected);
        assert!(
            t.close_begin().is_none(),
            "closing a closed transport is a no-op"
        );
    }

    #[test]
    fn a_reentrant_operation_during_close_wins() {
        let mut t = T::default();
        let g = t.connect_begin();
        t.connect_provisional(g);
        t.connect_settled(g);
        let ticket = t.close_begin().unwrap();
        let again = t.connect_begin();
        assert!(!t.close_recorded(ticket));
        assert_eq!(t.status, Status::Connecting);
        assert!(t.assert_current(again, Status::Connecting).is_ok());
    }

    #[test]
    fn disconnect_supersedes_and_reports_changes() {
        let mut t = T::default();
        assert!(!t.disconnect(), "already disconnected: no notification");
        let g = t.connect_begin();
        assert!(t.disconnect());
        assert_eq!(t.connect_failed(g), ConnectEnd::Superseded);
        assert_eq!(t.status, Status::Disconnected);
    }
}
