//! The snapshot rule shared by the test doubles and the detached copy of a
//! provider's raw usage .
//!
//! The rule: a snapshot copies arrays, `ArrayBuffer`s and `SharedArrayBuffer`s, typed arrays
//! and `DataView`s (over a copy of their buffer) and *plain* objects (prototype `null`, or one
//! whose own `constructor` has the source text of `Object`, so plain objects of another realm
//! count), with their enumerable own keys (symbols included) as data properties; every other
//! object (class instances, functions, `Date`, `Map`, …) is kept by identity; cycles and
//! shared references map to one copy within one snapshot; user code (getters, proxy traps)
//! may throw, and its exception propagates. The walk is iterative, so depth is bounded by
//! memory, not by the stack.
//!
//! The walk itself runs in JavaScript (`snapshotValue` in `pkg-template/src/engine/snapshot.ts`, handed
//! over by `installWalks`) in one crossing: made from here, it crossed the boundary three
//! times per property. It recurses to a bounded depth and iterates below it, and defines a
//! key by assignment only where the copy's prototype has no property of that name (so no
//! setter can run). The differential suites compare its results with the reference's.
//!
//! `ScriptedModel`'s call records follow the rule in the facade, without a crossing: a record
//! is `Object.freeze({ index, streamed, request })` with the request a frozen snapshot taken
//! when the call is made, and every read hands out a fresh frozen copy (`frozenSnapshot`).
//! Records are never handed out themselves, so a record's snapshot takes over the parts of the
//! previous record's that a fresh copy would equal exactly (`snapshotLike`): a runner sends the
//! whole history on every call, and each unchanged item is then held once.

use js_sys::Array;
use wasm_bindgen::prelude::*;

use super::js::{self, Js};

/// Snapshot of one value, with a fresh identity map.
pub(crate) fn snapshot(value: &JsValue) -> Js<JsValue> {
    super::with_walks(|w| w.snapshot.call1(&JsValue::UNDEFINED, value))
}

/// `snapshotTestingValue` of the reference's internal utilities.
#[wasm_bindgen(js_name = snapshotTestingValue)]
pub fn snapshot_testing_value(value: &JsValue) -> Result<JsValue, JsValue> {
    snapshot(value)
}

/// How deep a raw usage object may nest before it is treated as not JSON-compatible.
const RAW_USAGE_MAX_DEPTH: usize = 256;

/// A detached JSON-compatible copy of a provider's raw usage object, or `undefined` when it is
/// not a plain JSON object (a class instance, a cycle, a non-finite number, a function, a
/// throwing getter …). `undefined` members are dropped.
pub(crate) fn raw_usage(value: &JsValue) -> JsValue {
    if !js::is_object(value) || js::is_array(value).unwrap_or(true) {
        return JsValue::UNDEFINED;
    }
    let mut ancestors = Vec::new();
    match clone_json(value, &mut ancestors) {
        Ok(Some(copy)) if js::is_object(&copy) && !js::is_array(&copy).unwrap_or(true) => copy,
        _ => JsValue::UNDEFINED,
    }
}

/// `Ok(None)`: not JSON-compatible.
fn clone_json(value: &JsValue, ancestors: &mut Vec<JsValue>) -> Js<Option<JsValue>> {
    if value.is_null() || value.is_string() || value.as_bool().is_some() {
        return Ok(Some(value.clone()));
    }
    if let Some(n) = value.as_f64() {
        return Ok(n.is_finite().then(|| value.clone()));
    }
    if !js::is_object(value)
        || ancestors.iter().any(|a| a == value)
        || ancestors.len() >= RAW_USAGE_MAX_DEPTH
    {
        return Ok(None);
    }
    ancestors.push(value.clone());
    let result = clone_container(value, ancestors);
    ancestors.pop();
    result
}

fn clone_container(value: &JsValue, ancestors: &mut Vec<JsValue>) -> Js<Option<JsValue>> {
    if js::is_array(value)? {
        let copy = Array::new();
        let len = js::get(value, "length")?.as_f64().unwrap_or(0.0) as u32;
        for i in 0..len {
            match clone_json(
                &js::get_key(value, &JsValue::from_f64(f64::from(i)))?,
                ancestors,
            )? {
                Some(v) => copy.push(&v),
                None => return Ok(None),
            };
        }
        return Ok(Some(copy.into()));
    }
    let prototype = js::prototype_of(value)?;
    let object_prototype = js::with_realm(|r| r.object_prototype.clone());
    if !prototype.is_null() && prototype != object_prototype {
        return Ok(None);
    }
    let keys = js::keys(value)?;
    let mut entries = Vec::with_capacity(keys.length() as usize);
    for key in keys.iter() {
        let entry = js::get_key(value, &key)?;
        if entry.is_undefined() {
            continue;
        }
        match clone_json(&entry, ancestors)? {
            Some(v) => entries.push((key, v)),
            None => return Ok(None),
        }
    }
    let copy = js::object();
    for (key, v) in entries {
        js::define(&copy, &key, &v)?;
    }
    Ok(Some(copy))
}

/// `snapshotRawUsage` of the reference's internal utilities.
#[wasm_bindgen(js_name = snapshotRawUsage)]
pub fn snapshot_raw_usage(value: &JsValue) -> JsValue {
    raw_usage(value)
}
