//! The snapshot rule shared by the test doubles (contract §3.7) and the detached copy of a
//! provider's raw usage (§3.5).
//!
//! A snapshot copies arrays, buffers, typed arrays, `DataView`s and *plain* objects, keeps
//! every other object by identity and preserves cycles and shared references within one
//! snapshot. The walk is iterative, so nesting depth is bounded by memory, not by the stack.

use js_sys::{Array, Map};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use super::js::{self, Js};

/// A container being filled: its source, its copy and the next key to copy.
struct Frame {
    source: JsValue,
    copy: JsValue,
    keys: Option<Array>,
    len: u32,
    next: u32,
}

enum Visit {
    Done(JsValue),
    Fill(JsValue, Frame),
}

/// One snapshot (one identity map).
pub(crate) struct Snapshot {
    seen: Map,
}

impl Snapshot {
    pub(crate) fn new() -> Snapshot {
        Snapshot { seen: Map::new() }
    }

    /// Snapshots `value`; user exceptions (getters, proxy traps) propagate.
    pub(crate) fn take(&mut self, value: &JsValue) -> Js<JsValue> {
        let (root, frame) = match self.visit(value)? {
            Visit::Done(v) => return Ok(v),
            Visit::Fill(copy, frame) => (copy, frame),
        };
        let mut stack = vec![frame];
        while let Some(frame) = stack.last_mut() {
            if frame.next >= frame.len {
                stack.pop();
                continue;
            }
            let i = frame.next;
            frame.next += 1;
            let (key, entry) = match &frame.keys {
                None => (
                    JsValue::from_f64(f64::from(i)),
                    js::get_key(&frame.source, &JsValue::from_f64(f64::from(i)))?,
                ),
                Some(keys) => {
                    let key = keys.get(i);
                    let descriptor = js::own_descriptor(&frame.source, &key)?;
                    if !js::get(&descriptor, "enumerable")?.is_truthy() {
                        continue;
                    }
                    let entry = js::get_key(&frame.source, &key)?;
                    (key, entry)
                }
            };
            let copy = frame.copy.clone();
            let is_array = frame.keys.is_none();
            let value = match self.visit(&entry)? {
                Visit::Done(v) => v,
                Visit::Fill(v, child) => {
                    stack.push(child);
                    v
                }
            };
            if is_array {
                copy.unchecked_ref::<Array>().push(&value);
            } else {
                js::define(&copy, &key, &value)?;
            }
        }
        Ok(root)
    }

    fn visit(&mut self, value: &JsValue) -> Js<Visit> {
        if !js::is_object(value) {
            return Ok(Visit::Done(value.clone()));
        }
        let existing = self.seen.get(value);
        if !existing.is_undefined() {
            return Ok(Visit::Done(existing));
        }
        let tag = js::tag(value)?;
        if tag == "[object ArrayBuffer]" || tag == "[object SharedArrayBuffer]" {
            let copy = js::call_method(value, "slice", &[&JsValue::from_f64(0.0)])?;
            self.seen.set(value, &copy);
            return Ok(Visit::Done(copy));
        }
        if js_sys::ArrayBuffer::is_view(value) {
            let buffer = self.take(&js::get(value, "buffer")?)?;
            let offset = js::get(value, "byteOffset")?;
            let copy = if tag == "[object DataView]" {
                let data_view = js::get(&js_sys::global(), "DataView")?;
                js::construct(
                    &data_view,
                    &[&buffer, &offset, &js::get(value, "byteLength")?],
                )?
            } else {
                let typed_array = js::get(value, "constructor")?;
                js::construct(
                    &typed_array,
                    &[&buffer, &offset, &js::get(value, "length")?],
                )?
            };
            self.seen.set(value, &copy);
            return Ok(Visit::Done(copy));
        }
        if js::is_array(value)? {
            let copy: JsValue = Array::new().into();
            self.seen.set(value, &copy);
            let len = js::get(value, "length")?.as_f64().unwrap_or(0.0) as u32;
            return Ok(Visit::Fill(
                copy.clone(),
                Frame {
                    source: value.clone(),
                    copy,
                    keys: None,
                    len,
                    next: 0,
                },
            ));
        }
        let prototype = js::prototype_of(value)?;
        if !is_plain_prototype(&prototype)? {
            return Ok(Visit::Done(value.clone()));
        }
        let copy = js::object_with_prototype(&prototype)?;
        self.seen.set(value, &copy);
        let keys = js::own_keys(value)?;
        let len = keys.length();
        Ok(Visit::Fill(
            copy.clone(),
            Frame {
                source: value.clone(),
                copy,
                keys: Some(keys),
                len,
                next: 0,
            },
        ))
    }
}

/// A plain object's prototype: `null`, or one whose own `constructor` is a function with the
/// source text of `Object` (so plain objects of another realm count).
fn is_plain_prototype(prototype: &JsValue) -> Js<bool> {
    if prototype.is_null() {
        return Ok(true);
    }
    let constructor = js::key("constructor");
    if js::own_descriptor(prototype, &constructor)?.is_undefined() {
        return Ok(false);
    }
    let ctor = js::get_key(prototype, &constructor)?;
    if !ctor.is_function() {
        return Ok(false);
    }
    let (fn_to_string, object_source) =
        js::with_realm(|r| (r.fn_to_string.clone(), r.object_source.clone()));
    Ok(js::call(&fn_to_string, &ctor, &[])? == object_source)
}

/// Snapshot of one value, with a fresh identity map.
pub(crate) fn snapshot(value: &JsValue) -> Js<JsValue> {
    Snapshot::new().take(value)
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
