//! `ScriptedRealtimeTransport` bindings: the transport state of `crate::doubles::realtime`
//! plus the listener registry, for a facade that runs listeners, matchers and promises. No
//! method here runs user code.

use js_sys::Array;
use wasm_bindgen::prelude::*;

use super::js;
use super::{raise, user_error};
use crate::doubles::realtime::{
    CloseTicket, ConnectEnd, Pending, RealtimeError, Status, Transport,
};

fn list<T>(items: &[T], fields: impl Fn(&T) -> Vec<(&'static str, JsValue)>) -> JsValue {
    let out = Array::new();
    for item in items {
        let o = js::object();
        for (k, v) in fields(item) {
            js::set(&o, k, &v);
        }
        out.push(&o);
    }
    out.into()
}

fn pending_list(pending: &[Pending]) -> JsValue {
    list(pending, |p| {
        vec![
            ("order", JsValue::from_f64(p.order as f64)),
            ("method", JsValue::from_str(&p.method)),
        ]
    })
}

fn text(v: &JsValue, k: &'static str) -> String {
    js::get(v, k)
        .ok()
        .and_then(|s| s.as_string())
        .unwrap_or_default()
}

fn index(v: &JsValue, k: &'static str) -> usize {
    js::get(v, k)
        .ok()
        .and_then(|n| n.as_f64())
        .map_or(0, |n| n.max(0.0) as usize)
}

fn items(v: &JsValue) -> Vec<JsValue> {
    if js::is_array(v).unwrap_or(false) {
        Array::from(v).iter().collect()
    } else {
        Vec::new()
    }
}

fn pendings(v: &JsValue) -> Vec<Pending> {
    items(v)
        .iter()
        .map(|p| Pending {
            order: index(p, "order") as u64,
            method: text(p, "method"),
        })
        .collect()
}

/// The message of a realtime error built by user code, from its constructor arguments
/// (`args` in constructor order).
#[wasm_bindgen(js_name = realtimeErrorMessage)]
pub fn realtime_error_message(class: &str, args: &Array) -> String {
    let a = |i: u32| args.get(i);
    let e = match class {
        "UnexpectedRealtimeCallError" => RealtimeError::Unexpected {
            call_index: index(&a(1), "index"),
            expected: a(0).as_string().unwrap_or_default(),
            actual: text(&a(1), "method"),
        },
        "RealtimeCallMatcherError" => RealtimeError::Matcher {
            call_index: index(&a(0), "index"),
            actual: text(&a(0), "method"),
        },
        "IncompleteRealtimeScenarioError" => RealtimeError::Incomplete {
            unconsumed: items(&a(0))
                .iter()
                .map(|u| crate::doubles::realtime::Unconsumed {
                    index: index(u, "index"),
                    method: text(u, "method"),
                })
                .collect(),
            pending: pendings(&a(1)),
            failures: items(&a(2))
                .iter()
                .map(|f| crate::doubles::realtime::PendingFailures {
                    method: text(f, "method"),
                    count: index(f, "count"),
                })
                .collect(),
        },
        "ScriptedRealtimeScenarioCancelledError" => RealtimeError::Cancelled {
            pending: pendings(&a(0)),
        },
        "RealtimeTransportNotClosedError" => RealtimeError::NotClosed {
            status: a(0).as_string().unwrap_or_else(|| js::string_of(&a(0))),
        },
        _ => crate::doubles::realtime::SUPERSEDED,
    };
    e.to_string()
}

struct Registration {
    id: u32,
    listener: JsValue,
    once: bool,
}

/// The state of one `ScriptedRealtimeTransport`.
#[wasm_bindgen]
pub struct RealtimeScript {
    transport: Transport<JsValue, JsValue, JsValue>,
    muted: JsValue,
    /// Event → registrations, in first-registration order of events (a `Map`).
    listeners: Vec<(JsValue, Vec<Registration>)>,
    next_id: u32,
    _live: super::Live,
}

impl Default for RealtimeScript {
    fn default() -> Self {
        RealtimeScript::new()
    }
}

fn ticket_of(v: &JsValue) -> CloseTicket {
    CloseTicket {
        generation: js::get(v, "generation")
            .ok()
            .and_then(|g| g.as_f64())
            .unwrap_or(0.0) as u64,
        established: js::get(v, "established")
            .map(|e| e.is_truthy())
            .unwrap_or(false),
    }
}

#[wasm_bindgen]
impl RealtimeScript {
    #[wasm_bindgen(constructor)]
    pub fn new() -> RealtimeScript {
        RealtimeScript {
            transport: Transport::default(),
            muted: JsValue::FALSE,
            listeners: Vec::new(),
            next_id: 0,
            _live: super::Live::new(),
        }
    }

    #[wasm_bindgen(getter)]
    pub fn status(&self) -> String {
        self.transport.status.as_str().to_owned()
    }

    /// Assigning `status` directly, as the reference's public field allows.
    #[wasm_bindgen(setter)]
    pub fn set_status(&mut self, status: &JsValue) -> Result<(), JsValue> {
        match status.as_string().as_deref().and_then(Status::parse) {
            Some(s) => {
                self.transport.status = s;
                Ok(())
            }
            None => {
                let got = match status.as_string() {
                    Some(text) => format!("{text:?}"),
                    None => js::describe(status),
                };
                Err(user_error(format!("ScriptedRealtimeTransport status must be disconnected, connecting, connected or disconnecting, not {got}.")))
            }
        }
    }

    #[wasm_bindgen(getter)]
    pub fn muted(&self) -> JsValue {
        self.muted.clone()
    }

    #[wasm_bindgen(setter)]
    pub fn set_muted(&mut self, muted: JsValue) {
        self.muted = muted;
    }

    // --- listeners -------------------------------------------------------------------------

    #[wasm_bindgen(js_name = addListener)]
    pub fn add_listener(&mut self, event: JsValue, listener: JsValue, once: bool) {
        let id = self.next_id;
        self.next_id += 1;
        let registration = Registration { id, listener, once };
        match self.listeners.iter_mut().find(|(e, _)| *e == event) {
            Some((_, regs)) => regs.push(registration),
            None => self.listeners.push((event, vec![registration])),
        }
    }

    /// Removes the most recently added registration of `listener` for `event`.
    #[wasm_bindgen(js_name = removeListener)]
    pub fn remove_listener(&mut self, event: &JsValue, listener: &JsValue) {
        if let Some(at) = self.listeners.iter().position(|(e, _)| e == event) {
            let regs = &mut self.listeners[at].1;
            if let Some(i) = regs.iter().rposition(|r| r.listener == *listener) {
                regs.remove(i);
            }
            if regs.is_empty() {
                self.listeners.remove(at);
            }
        }
    }

    /// A copy of `event`'s registrations as `[id, listener, once, …]`, or `undefined` when it
    /// has none (then `emit` returns `false`).
    #[wasm_bindgen(js_name = emitList)]
    pub fn emit_list(&self, event: &JsValue) -> JsValue {
        match self.listeners.iter().find(|(e, _)| e == event) {
            Some((_, regs)) if !regs.is_empty() => {
                let out = Array::new();
                for r in regs {
                    out.push(&JsValue::from_f64(f64::from(r.id)));
                    out.push(&r.listener);
                    out.push(&JsValue::from_bool(r.once));
                }
                out.into()
            }
            _ => JsValue::UNDEFINED,
        }
    }

    /// Removes one registration (a `once` listener, just before it is called).
    #[wasm_bindgen(js_name = removeRegistration)]
    pub fn remove_registration(&mut self, event: &JsValue, id: u32) {
        if let Some(at) = self.listeners.iter().position(|(e, _)| e == event) {
            let regs = &mut self.listeners[at].1;
            regs.retain(|r| r.id != id);
            if regs.is_empty() {
                self.listeners.remove(at);
            }
        }
    }

    // --- calls, expectations, failures ---------------------------------------------------------

    /// The recorded calls, oldest first (the facade hands out fresh snapshots).
    pub fn calls(&self) -> Array {
        self.transport.calls().iter().collect()
    }

    /// `failNextCall(method, error)`; a method name that is not a string could never match a
    /// call, so it is refused with a `TypeError`.
    #[wasm_bindgen(js_name = failNext)]
    pub fn fail_next(&mut self, method: &JsValue, error: JsValue) -> Result<(), JsValue> {
        let Some(name) = method.as_string() else {
            return Err(js_sys::TypeError::new(&format!(
                "failNextCall: method must be the name of a transport method (a string), got {}.",
                js::describe(method)
            ))
            .into());
        };
        self.transport.fail_next(&name, error);
        Ok(())
    }

    /// Reserves the next injected failure of `method`: `{ error }` or `undefined`.
    #[wasm_bindgen(js_name = takeFailure)]
    pub fn take_failure(&mut self, method: &str) -> JsValue {
        match self.transport.take_failure(method) {
            Some(error) => {
                let o = js::object();
                js::set(&o, "error", &error);
                o
            }
            None => JsValue::UNDEFINED,
        }
    }

    #[wasm_bindgen(js_name = nextIndex)]
    pub fn next_index(&self) -> u32 {
        self.transport.next_index() as u32
    }

    /// Records a frozen call; returns the expectation it goes to (`{ order, method, payload }`)
    /// or `undefined` when it waits for one.
    pub fn record(&mut self, method: &str, call: JsValue) -> JsValue {
        match self.transport.record(method, call) {
            Some(x) => {
                let o = js::object();
                js::set(&o, "order", &JsValue::from_f64(x.order as f64));
                js::set(&o, "method", &JsValue::from_str(&x.method));
                js::set(&o, "payload", &x.payload);
                o
            }
            None => JsValue::UNDEFINED,
        }
    }

    /// `expectCall` begins: `{ order, call }` with the oldest unconsumed call or `undefined`.
    pub fn expect(&mut self) -> JsValue {
        let (order, call) = self.transport.expect();
        let o = js::object();
        js::set(&o, "order", &JsValue::from_f64(order as f64));
        js::set(&o, "call", &call.unwrap_or(JsValue::UNDEFINED));
        o
    }

    /// Queues an expectation (`payload` holds its matcher and promise settlers).
    pub fn queue(&mut self, order: f64, method: &JsValue, payload: JsValue) -> Result<(), JsValue> {
        let method = method_name(method)?;
        self.transport.queue(order as u64, &method, payload);
        Ok(())
    }

    #[wasm_bindgen(js_name = hasPending)]
    pub fn has_pending(&self) -> bool {
        self.transport.has_pending()
    }

    /// `[{ order, method }]` of the pending expectations.
    #[wasm_bindgen(js_name = pendingExpectations)]
    pub fn pending_expectations(&self) -> JsValue {
        pending_list(&self.transport.pending())
    }

    /// Removes every pending expectation and returns their payloads (to reject them).
    #[wasm_bindgen(js_name = drainExpectations)]
    pub fn drain_expectations(&mut self) -> Array {
        self.transport
            .drain_expectations()
            .into_iter()
            .map(|x| x.payload)
            .collect()
    }

    /// The incomplete-scenario error for the current state (returned, not thrown).
    #[wasm_bindgen(js_name = incompleteError)]
    pub fn incomplete_error(&self) -> JsValue {
        raise(self.transport.incomplete())
    }

    /// The cancellation error for the current state (returned, not thrown).
    #[wasm_bindgen(js_name = cancelledError)]
    pub fn cancelled_error(&self) -> JsValue {
        raise(self.transport.cancelled())
    }

    #[wasm_bindgen(js_name = assertComplete)]
    pub fn assert_complete(&self) -> Result<(), JsValue> {
        self.transport.assert_complete().map_err(raise)
    }

    #[wasm_bindgen(js_name = assertClosed)]
    pub fn assert_closed(&self) -> Result<(), JsValue> {
        self.transport.assert_closed().map_err(raise)
    }

    // --- lifecycle -------------------------------------------------------------------------

    #[wasm_bindgen(js_name = connectBegin)]
    pub fn connect_begin(&mut self) -> f64 {
        self.transport.connect_begin() as f64
    }

    /// Throws the superseded error unless attempt `generation` is current and in `status`.
    #[wasm_bindgen(js_name = assertCurrent)]
    pub fn assert_current(&self, generation: f64, status: &str) -> Result<(), JsValue> {
        let status = Status::parse(status).unwrap_or(Status::Disconnected);
        self.transport
            .assert_current(generation as u64, status)
            .map_err(raise)
    }

    #[wasm_bindgen(js_name = connectProvisional)]
    pub fn connect_provisional(&mut self, generation: f64) {
        self.transport.connect_provisional(generation as u64);
    }

    #[wasm_bindgen(js_name = connectSettled)]
    pub fn connect_settled(&mut self, generation: f64) {
        self.transport.connect_settled(generation as u64);
    }

    /// A connect failed: `true` when the transport went disconnected (notify).
    #[wasm_bindgen(js_name = connectFailed)]
    pub fn connect_failed(&mut self, generation: f64) -> bool {
        self.transport.connect_failed(generation as u64) == ConnectEnd::Disconnected
    }

    /// `{ generation, established }`, or `undefined` when already disconnected.
    #[wasm_bindgen(js_name = closeBegin)]
    pub fn close_begin(&mut self) -> JsValue {
        match self.transport.close_begin() {
            Some(t) => {
                let o = js::object();
                js::set(&o, "generation", &JsValue::from_f64(t.generation as f64));
                js::set(&o, "established", &JsValue::from_bool(t.established));
                o
            }
            None => JsValue::UNDEFINED,
        }
    }

    #[wasm_bindgen(js_name = closeRecorded)]
    pub fn close_recorded(&mut self, ticket: &JsValue) -> bool {
        self.transport.close_recorded(ticket_of(ticket))
    }

    #[wasm_bindgen(js_name = closeFailed)]
    pub fn close_failed(&mut self, ticket: &JsValue) -> bool {
        self.transport.close_failed(ticket_of(ticket))
    }

    pub fn disconnect(&mut self) -> bool {
        self.transport.disconnect()
    }
}

/// Checks a call against the expectation's method (throws `UnexpectedRealtimeCallError`).
#[wasm_bindgen(js_name = realtimeCheckMethod)]
pub fn realtime_check_method(expected: &JsValue, call: &JsValue) -> Result<(), JsValue> {
    let expected = method_name(expected)?;
    Transport::<(), (), ()>::check_method(&expected, &text(call, "method"), index(call, "index"))
        .map_err(raise)
}

/// The method an expectation names, as it is written into messages: `String()` of it (a
/// number is "5"; a throwing `toString` propagates).
fn method_name(method: &JsValue) -> Result<String, JsValue> {
    js::string(method)
}

/// A matcher's verdict: exactly `false` throws `RealtimeCallMatcherError`.
#[wasm_bindgen(js_name = realtimeMatcherVerdict)]
pub fn realtime_matcher_verdict(returned: &JsValue, call: &JsValue) -> Result<(), JsValue> {
    Transport::<(), (), ()>::check_matcher(
        returned.as_bool() == Some(false),
        index(call, "index"),
        &text(call, "method"),
    )
    .map_err(raise)
}

/// The recorded data of a `connect` call: the options without the API key, and whether one
/// was given.
#[wasm_bindgen(js_name = realtimeConnectData)]
pub fn realtime_connect_data(options: &JsValue) -> Result<JsValue, JsValue> {
    let o = js::object();
    for k in ["model", "url", "callId", "initialSessionConfig"] {
        js::set(&o, k, &js::get(options, k)?);
    }
    js::set(
        &o,
        "apiKeyProvided",
        &JsValue::from_bool(!js::get(options, "apiKey")?.is_undefined()),
    );
    Ok(o)
}
