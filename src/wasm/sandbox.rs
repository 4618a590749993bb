//! `scriptedSandboxSession` bindings: reads step inputs for the rules in
//! `crate::doubles::sandbox`, keeps the step list and the call log, and snapshots arguments.
//! As for the model, no [`SandboxScript`] method runs user code.

use js_sys::Array;
use wasm_bindgen::prelude::*;

use super::js::{self, Js};
use super::raise;
use super::snapshot::snapshot;
use crate::doubles::sandbox::{self as rules, Outcome, Refusal, SandboxError, Script, StepView};

/// The message of a sandbox error built by user code, from its constructor arguments.
#[wasm_bindgen(js_name = sandboxErrorMessage)]
pub fn sandbox_error_message(class: &str, fields: &JsValue) -> String {
    let text = |k: &'static str| js::get(fields, k).ok().and_then(|v| v.as_string());
    let index = |k: &'static str| {
        js::get(fields, k)
            .ok()
            .and_then(|v| v.as_f64())
            .map_or(0, |n| n.max(0.0) as usize)
    };
    let e = match class {
        "UnexpectedSandboxCallError" => SandboxError::Unexpected {
            call_index: index("callIndex"),
            actual: text("actualMethod").unwrap_or_default(),
            expected: text("expectedMethod"),
            remaining: index("remainingSteps"),
        },
        "SandboxCallMatcherError" => SandboxError::Matcher {
            call_index: index("index"),
            method: text("method").unwrap_or_default(),
        },
        _ => {
            let pending = js::get(fields, "pendingMethods")
                .ok()
                .map(|v| Array::from(&v))
                .unwrap_or_default();
            SandboxError::unconsumed(
                pending
                    .iter()
                    .map(|m| m.as_string().unwrap_or_default())
                    .collect(),
            )
        }
    };
    e.to_string()
}

struct JsStep<'a>(&'a JsValue);

impl StepView for JsStep<'_> {
    type HostError = JsValue;
    fn is_object(&self) -> bool {
        js::is_object(self.0)
    }
    fn method(&mut self) -> Js<Option<String>> {
        Ok(js::get(self.0, "method")?.as_string())
    }
    fn matcher(&mut self) -> Js<Option<bool>> {
        let m = js::get(self.0, "match")?;
        Ok(if m.is_undefined() {
            None
        } else {
            Some(m.is_function())
        })
    }
    fn has_own(&mut self, key: &'static str) -> Js<bool> {
        Ok(!js::own_descriptor(self.0, &js::key(key))?.is_undefined())
    }
    fn respond_is_function(&mut self) -> Js<bool> {
        Ok(js::get(self.0, "respond")?.is_function())
    }
}

/// The steps and the call log of one scripted sandbox session.
#[wasm_bindgen]
pub struct SandboxScript {
    script: Script<JsValue>,
    records: Vec<JsValue>,
    _live: super::Live,
}

#[wasm_bindgen]
impl SandboxScript {
    /// Validates every input (the first invalid one throws) and snapshots `result` values.
    #[wasm_bindgen(constructor)]
    pub fn new(inputs: &Array) -> Result<SandboxScript, JsValue> {
        let mut steps = Vec::with_capacity(inputs.length() as usize);
        for (index, input) in inputs.iter().enumerate() {
            let c = match rules::classify(&mut JsStep(&input), index) {
                Ok(c) => c,
                Err(Refusal::Step(e)) => return Err(raise(e)),
                Err(Refusal::Host(e)) => return Err(e),
            };
            let step = js::object();
            js::set(&step, "method", &JsValue::from_str(c.method));
            if c.has_matcher {
                js::set(&step, "match", &js::get(&input, "match")?);
            }
            let (kind, key, value) = match c.outcome {
                Outcome::Responder => ("responder", "respond", js::get(&input, "respond")?),
                Outcome::Error => ("error", "error", js::get(&input, "error")?),
                Outcome::Result => ("result", "result", snapshot(&js::get(&input, "result")?)?),
            };
            js::set(&step, "type", &JsValue::from_str(kind));
            js::set(&step, key, &value);
            steps.push((c.method, step));
        }
        Ok(SandboxScript {
            script: Script::new(steps),
            records: Vec::new(),
            _live: super::Live::new(),
        })
    }

    /// The methods the session has: those the script names, in first-use order.
    pub fn methods(&self) -> Array {
        self.script
            .methods()
            .into_iter()
            .map(JsValue::from_str)
            .collect()
    }

    #[wasm_bindgen(getter, js_name = remainingSteps)]
    pub fn remaining_steps(&self) -> u32 {
        self.script.remaining() as u32
    }

    #[wasm_bindgen(js_name = assertComplete)]
    pub fn assert_complete(&self) -> Result<(), JsValue> {
        self.script.assert_complete().map_err(raise)
    }

    /// Records a call (`args`: the frozen snapshot from `snapshotSandboxArgs`) and takes its
    /// step: `{ record, step }`, or the error for a call the script does not expect.
    pub fn begin(&mut self, method: &str, args: JsValue) -> Result<JsValue, JsValue> {
        let record = js::object();
        js::set(&record, "index", &js::num(self.script.calls()));
        js::set(&record, "method", &JsValue::from_str(method));
        js::set(&record, "args", &js::freeze(&args)?);
        let record = js::freeze(&record)?;
        self.records.push(record.clone());
        let (_, step) = self.script.take(method).map_err(raise)?;
        let out = js::object();
        js::set(&out, "record", &record);
        js::set(&out, "step", &step);
        Ok(out)
    }

    /// The stored call records, oldest first.
    pub fn records(&self) -> Array {
        self.records.iter().collect()
    }
}

/// Whether a session method is synchronous (`registerPreStopHook`, `createEditor`,
/// `setArchiveLimits`, `supportsPty`); the others return promises.
#[wasm_bindgen(js_name = sandboxMethodIsSync)]
pub fn sandbox_method_is_sync(method: &str) -> bool {
    rules::mode(method) == Some(rules::Mode::Sync)
}

/// A frozen snapshot of a call's arguments; an `applyManifest` `Manifest` is replaced by the
/// SDK's `cloneManifest` copy (which keeps mount-credential acknowledgements).
#[wasm_bindgen(js_name = snapshotSandboxArgs)]
pub fn snapshot_sandbox_args(
    method: &str,
    args: &JsValue,
    manifest_class: &JsValue,
    clone_manifest: &JsValue,
) -> Result<JsValue, JsValue> {
    let copy = snapshot(&Array::from(args).into())?;
    if method == "applyManifest" {
        let first = js::get_key(&copy, &JsValue::from_f64(0.0))?;
        if js::instance_of(&first, manifest_class)? {
            let cloned = js::call(clone_manifest, &JsValue::UNDEFINED, &[&first])?;
            js::set(&copy, "0", &cloned);
        }
    }
    Ok(copy)
}

/// A fresh frozen copy of a stored call record with freshly snapshotted arguments.
#[wasm_bindgen(js_name = snapshotSandboxCall)]
pub fn snapshot_sandbox_call(
    record: &JsValue,
    manifest_class: &JsValue,
    clone_manifest: &JsValue,
) -> Result<JsValue, JsValue> {
    let method = js::get(record, "method")?.as_string().unwrap_or_default();
    let args = snapshot_sandbox_args(
        &method,
        &js::get(record, "args")?,
        manifest_class,
        clone_manifest,
    )?;
    let out = js::object();
    js::set(&out, "index", &js::get(record, "index")?);
    js::set(&out, "method", &JsValue::from_str(&method));
    js::set(&out, "args", &js::freeze(&args)?);
    js::freeze(&out)
}

/// The matcher's verdict: exactly `false` throws `SandboxCallMatcherError`.
#[wasm_bindgen(js_name = sandboxMatcherVerdict)]
pub fn sandbox_matcher_verdict(returned: &JsValue, record: &JsValue) -> Result<(), JsValue> {
    let call_index = js::get(record, "index")?.as_f64().unwrap_or(0.0) as usize;
    let method = js::get(record, "method")?.as_string().unwrap_or_default();
    rules::check_matcher(returned.as_bool() == Some(false), call_index, &method).map_err(raise)
}
