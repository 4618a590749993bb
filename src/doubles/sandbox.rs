//! `scriptedSandboxSession`: step validation, the single global call order across
//! synchronous and asynchronous session methods, and the error for each mismatch.

use std::collections::VecDeque;
use std::fmt;

use super::display_index;

/// Whether a session method returns directly or through a promise.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    Sync,
    Async,
}

/// The `SandboxSession` methods a script may name, with their modes, in the SDK's order.
pub const METHODS: [(&str, Mode); 25] = [
    ("start", Mode::Async),
    ("running", Mode::Async),
    ("registerPreStopHook", Mode::Sync),
    ("runPreStopHooks", Mode::Async),
    ("preStop", Mode::Async),
    ("stop", Mode::Async),
    ("shutdown", Mode::Async),
    ("delete", Mode::Async),
    ("createEditor", Mode::Sync),
    ("exec", Mode::Async),
    ("execCommand", Mode::Async),
    ("writeStdin", Mode::Async),
    ("viewImage", Mode::Async),
    ("readFile", Mode::Async),
    ("listDir", Mode::Async),
    ("pathExists", Mode::Async),
    ("directoryExists", Mode::Async),
    ("materializeEntry", Mode::Async),
    ("applyManifest", Mode::Async),
    ("persistWorkspace", Mode::Async),
    ("hydrateWorkspace", Mode::Async),
    ("setArchiveLimits", Mode::Sync),
    ("resolveExposedPort", Mode::Async),
    ("supportsPty", Mode::Sync),
    ("close", Mode::Async),
];

/// The mode of a known method.
pub fn mode(method: &str) -> Option<Mode> {
    METHODS
        .iter()
        .find(|(m, _)| *m == method)
        .map(|(_, mode)| *mode)
}

crate::code_enum! {
    /// `InvalidScriptedSandboxStepError.reason`.
    pub enum StepReason {
        InvalidInput = "invalid_input",
        UnknownMethod = "unknown_method",
        InvalidMatcher = "invalid_matcher",
        InvalidOutcome = "invalid_outcome",
    }
}

/// What is wrong with an `invalid_outcome` step (the two have different messages).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OutcomeProblem {
    /// Not exactly one of `result`, `respond`, `error`.
    NotExactlyOne,
    /// `respond` is not a function.
    ResponderNotFunction,
}

/// Every error the scripted sandbox raises by itself. Each variant is one facade class (its
/// `kind`), with its fields in the class's order under the class's names
/// ([`crate::error::Raise`]); the facade's field types are generated from it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "kind")]
#[cfg_attr(
    test,
    derive(ts_rs::TS),
    ts(rename = "SandboxErrorFields", optional_fields)
)]
pub enum SandboxError {
    /// A step given to `scriptedSandboxSession` is malformed.
    #[serde(rename = "InvalidScriptedSandboxStepError", rename_all = "camelCase")]
    InvalidStep {
        #[cfg_attr(test, ts(type = "InvalidScriptedSandboxStepReason"))]
        reason: StepReason,
        /// The zero-based position of the invalid factory input.
        input_index: usize,
        method: Option<String>,
        /// What is wrong with the step's outcome (in the message only).
        #[serde(skip)]
        problem: Option<OutcomeProblem>,
    },
    /// A call of another method than the next step's, or after the script.
    #[serde(rename = "UnexpectedSandboxCallError", rename_all = "camelCase")]
    Unexpected {
        /// The zero-based position of the call in `calls`.
        call_index: usize,
        #[serde(rename = "actualMethod")]
        actual: String,
        #[serde(rename = "expectedMethod")]
        expected: Option<String>,
        #[serde(rename = "remainingSteps")]
        remaining: usize,
    },
    /// The step's matcher returned exactly `false`.
    #[serde(rename = "SandboxCallMatcherError", rename_all = "camelCase")]
    Matcher {
        /// The zero-based position of the call in `calls`.
        call_index: usize,
        method: String,
    },
    /// `assertComplete()` with steps left ([`SandboxError::unconsumed`]).
    #[serde(rename = "UnconsumedSandboxStepsError")]
    Unconsumed {
        /// How many steps were left (`pendingMethods.length`).
        #[serde(rename = "remainingSteps")]
        remaining: usize,
        /// The methods of the steps left, in script order.
        #[serde(rename = "pendingMethods")]
        #[cfg_attr(test, ts(type = "readonly string[]"))]
        pending: Vec<String>,
    },
}

use crate::error::Class;

impl crate::error::Raise for SandboxError {
    fn kind(&self) -> Class {
        match self {
            SandboxError::InvalidStep { .. } => Class::InvalidScriptedSandboxStepError,
            SandboxError::Unexpected { .. } => Class::UnexpectedSandboxCallError,
            SandboxError::Matcher { .. } => Class::SandboxCallMatcherError,
            SandboxError::Unconsumed { .. } => Class::UnconsumedSandboxStepsError,
        }
    }
}

impl SandboxError {
    /// `assertComplete()` found these steps' methods left.
    pub fn unconsumed(pending: Vec<String>) -> SandboxError {
        SandboxError::Unconsumed {
            remaining: pending.len(),
            pending,
        }
    }
}

impl fmt::Display for SandboxError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SandboxError::InvalidStep {
                reason,
                input_index,
                method,
                problem,
            } => {
                let n = display_index(*input_index);
                let m = method.as_deref().unwrap_or("");
                match reason {
                    StepReason::InvalidInput => write!(f, "Scripted sandbox step #{n} must be an object."),
                    StepReason::UnknownMethod => write!(f, "Scripted sandbox step #{n} has an unknown method."),
                    StepReason::InvalidMatcher => write!(f, "Scripted sandbox step #{n} for {m} must use a function matcher."),
                    StepReason::InvalidOutcome => match problem {
                        Some(OutcomeProblem::ResponderNotFunction) => {
                            write!(f, "Scripted sandbox step #{n} for {m} must use a function responder.")
                        }
                        _ => write!(f, "Scripted sandbox step #{n} for {m} must define exactly one of result, respond, or error."),
                    },
                }
            }
            SandboxError::Unexpected {
                call_index,
                actual,
                expected,
                ..
            } => {
                write!(
                    f,
                    "Scripted sandbox session received unexpected {actual} call #{}",
                    display_index(*call_index)
                )?;
                match expected.as_deref() {
                    Some(e) if !e.is_empty() => write!(f, "; expected {e}."),
                    _ => f.write_str("; no scripted steps remain."),
                }
            }
            SandboxError::Matcher { call_index, method } => {
                write!(
                    f,
                    "Scripted sandbox session matcher rejected {method} call #{}.",
                    display_index(*call_index)
                )
            }
            SandboxError::Unconsumed { pending, .. } => write!(
                f,
                "Scripted sandbox session has {} unconsumed step{}: {}.",
                pending.len(),
                if pending.len() == 1 { "" } else { "s" },
                pending.join(", ")
            ),
        }
    }
}

/// What classification needs to know about one step input, asked in the reference's order.
pub trait StepView {
    type HostError;
    /// `typeof input === 'object' && input !== null`.
    fn is_object(&self) -> bool;
    /// `input.method` when it is a string; `Ok(None)` for any other value.
    fn method(&mut self) -> Result<Option<String>, Self::HostError>;
    /// `typeof input.match`: `None` for `'undefined'`, else whether it is `'function'`.
    fn matcher(&mut self) -> Result<Option<bool>, Self::HostError>;
    /// Own-property checks for `result`, `respond`, `error`.
    fn has_own(&mut self, key: &'static str) -> Result<bool, Self::HostError>;
    /// `typeof input.respond === 'function'`.
    fn respond_is_function(&mut self) -> Result<bool, Self::HostError>;
}

/// How a valid step answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Result,
    Responder,
    Error,
}

/// A valid step: its method, outcome and whether it has a matcher.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Classified {
    pub method: &'static str,
    pub outcome: Outcome,
    pub has_matcher: bool,
}

/// Why a step was refused: a sandbox error, or an exception from the host.
#[derive(Debug)]
pub enum Refusal<E> {
    Step(SandboxError),
    Host(E),
}

/// Validates step input `index`.
pub fn classify<V: StepView>(
    input: &mut V,
    index: usize,
) -> Result<Classified, Refusal<V::HostError>> {
    let invalid = |reason, method: Option<&str>, problem| {
        Refusal::Step(SandboxError::InvalidStep {
            reason,
            input_index: index,
            method: method.map(str::to_owned),
            problem,
        })
    };
    if !input.is_object() {
        return Err(invalid(StepReason::InvalidInput, None, None));
    }
    let given = input.method().map_err(Refusal::Host)?;
    let method = match given
        .as_deref()
        .and_then(|m| METHODS.iter().find(|(k, _)| *k == m))
    {
        Some((m, _)) => *m,
        None => return Err(invalid(StepReason::UnknownMethod, given.as_deref(), None)),
    };
    let has_matcher = match input.matcher().map_err(Refusal::Host)? {
        None => false,
        Some(true) => true,
        Some(false) => return Err(invalid(StepReason::InvalidMatcher, Some(method), None)),
    };
    let has_result = input.has_own("result").map_err(Refusal::Host)?;
    let has_respond = input.has_own("respond").map_err(Refusal::Host)?;
    let has_error = input.has_own("error").map_err(Refusal::Host)?;
    if usize::from(has_result) + usize::from(has_respond) + usize::from(has_error) != 1 {
        return Err(invalid(
            StepReason::InvalidOutcome,
            Some(method),
            Some(OutcomeProblem::NotExactlyOne),
        ));
    }
    let outcome = if has_respond {
        if !input.respond_is_function().map_err(Refusal::Host)? {
            return Err(invalid(
                StepReason::InvalidOutcome,
                Some(method),
                Some(OutcomeProblem::ResponderNotFunction),
            ));
        }
        Outcome::Responder
    } else if has_error {
        Outcome::Error
    } else {
        Outcome::Result
    };
    Ok(Classified {
        method,
        outcome,
        has_matcher,
    })
}

/// The step list and the call count of one session.
#[derive(Debug)]
pub struct Script<S> {
    steps: VecDeque<(&'static str, S)>,
    calls: usize,
}

impl<S> Script<S> {
    pub fn new(steps: impl IntoIterator<Item = (&'static str, S)>) -> Script<S> {
        Script {
            steps: steps.into_iter().collect(),
            calls: 0,
        }
    }

    /// The distinct methods the script names, in first-use order: the ones the session has.
    pub fn methods(&self) -> Vec<&'static str> {
        let mut out: Vec<&'static str> = Vec::new();
        for (m, _) in &self.steps {
            if !out.contains(m) {
                out.push(m);
            }
        }
        out
    }

    pub fn remaining(&self) -> usize {
        self.steps.len()
    }

    pub fn calls(&self) -> usize {
        self.calls
    }

    /// Records a call of `method` (the caller keeps its snapshot at `call_index`) and takes the
    /// next step, which is consumed even when it names another method.
    pub fn take(&mut self, method: &str) -> Result<(usize, S), SandboxError> {
        let call_index = self.calls;
        self.calls += 1;
        match self.steps.pop_front() {
            Some((m, step)) if m == method => Ok((call_index, step)),
            other => Err(SandboxError::Unexpected {
                call_index,
                actual: method.to_owned(),
                expected: other.map(|(m, _)| m.to_owned()),
                remaining: self.steps.len(),
            }),
        }
    }

    pub fn assert_complete(&self) -> Result<(), SandboxError> {
        if self.steps.is_empty() {
            Ok(())
        } else {
            Err(SandboxError::unconsumed(
                self.steps.iter().map(|(m, _)| (*m).to_owned()).collect(),
            ))
        }
    }
}

/// The matcher's verdict: exactly `false` rejects the call.
pub fn check_matcher(
    returned_false: bool,
    call_index: usize,
    method: &str,
) -> Result<(), SandboxError> {
    if returned_false {
        Err(SandboxError::Matcher {
            call_index,
            method: method.to_owned(),
        })
    } else {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Raise;

    #[derive(Default)]
    struct Step {
        not_object: bool,
        method: Option<&'static str>,
        matcher: Option<bool>,
        own: Vec<&'static str>,
        respond_fn: bool,
    }

    impl StepView for Step {
        type HostError = ();
        fn is_object(&self) -> bool {
            !self.not_object
        }
        fn method(&mut self) -> Result<Option<String>, ()> {
            Ok(self.method.map(str::to_owned))
        }
        fn matcher(&mut self) -> Result<Option<bool>, ()> {
            Ok(self.matcher)
        }
        fn has_own(&mut self, key: &'static str) -> Result<bool, ()> {
            Ok(self.own.contains(&key))
        }
        fn respond_is_function(&mut self) -> Result<bool, ()> {
            Ok(self.respond_fn)
        }
    }

    fn step(method: &'static str, own: &[&'static str]) -> Step {
        Step {
            method: Some(method),
            own: own.to_vec(),
            ..Step::default()
        }
    }

    fn refused(mut s: Step, index: usize) -> SandboxError {
        match classify(&mut s, index) {
            Err(Refusal::Step(e)) => e,
            other => panic!("expected a refusal, got {other:?}"),
        }
    }

    #[test]
    fn the_method_table_has_25_methods_and_4_synchronous_ones() {
        assert_eq!(METHODS.len(), 25);
        let sync: Vec<_> = METHODS
            .iter()
            .filter(|(_, m)| *m == Mode::Sync)
            .map(|(n, _)| *n)
            .collect();
        assert_eq!(
            sync,
            [
                "registerPreStopHook",
                "createEditor",
                "setArchiveLimits",
                "supportsPty"
            ]
        );
        assert_eq!(mode("execCommand"), Some(Mode::Async));
        assert_eq!(mode("toString"), None);
    }

    #[test]
    fn non_objects_are_invalid_input() {
        let e = refused(
            Step {
                not_object: true,
                ..Step::default()
            },
            0,
        );
        assert!(matches!(
            e,
            SandboxError::InvalidStep {
                reason: StepReason::InvalidInput,
                input_index: 0,
                method: None,
                ..
            }
        ));
        assert_eq!(e.to_string(), "Scripted sandbox step #1 must be an object.");
    }

    #[test]
    fn unknown_methods_keep_the_given_string() {
        let e = refused(step("constructor", &["result"]), 2);
        assert!(
            matches!(&e, SandboxError::InvalidStep { reason: StepReason::UnknownMethod, method: Some(m), .. } if m == "constructor")
        );
        assert_eq!(
            e.to_string(),
            "Scripted sandbox step #3 has an unknown method."
        );
        let e = refused(
            Step {
                method: None,
                own: vec!["result"],
                ..Step::default()
            },
            0,
        );
        assert!(matches!(
            e,
            SandboxError::InvalidStep {
                reason: StepReason::UnknownMethod,
                method: None,
                ..
            }
        ));
    }

    #[test]
    fn matchers_must_be_functions() {
        let e = refused(
            Step {
                matcher: Some(false),
                ..step("exec", &["result"])
            },
            0,
        );
        assert_eq!(
            e.to_string(),
            "Scripted sandbox step #1 for exec must use a function matcher."
        );
        let ok = classify(
            &mut Step {
                matcher: Some(true),
                ..step("exec", &["result"])
            },
            0,
        )
        .unwrap();
        assert!(ok.has_matcher);
    }

    #[test]
    fn exactly_one_outcome() {
        for own in [
            &[][..],
            &["result", "error"][..],
            &["result", "respond", "error"][..],
        ] {
            let e = refused(step("readFile", own), 0);
            assert!(matches!(
                e,
                SandboxError::InvalidStep {
                    reason: StepReason::InvalidOutcome,
                    ..
                }
            ));
            assert_eq!(e.to_string(), "Scripted sandbox step #1 for readFile must define exactly one of result, respond, or error.");
        }
        let e = refused(step("readFile", &["respond"]), 0);
        assert_eq!(
            e.to_string(),
            "Scripted sandbox step #1 for readFile must use a function responder."
        );
        let mut responder = Step {
            respond_fn: true,
            ..step("readFile", &["respond"])
        };
        assert_eq!(
            classify(&mut responder, 0).unwrap().outcome,
            Outcome::Responder
        );
        assert_eq!(
            classify(&mut step("stop", &["error"]), 0).unwrap().outcome,
            Outcome::Error
        );
        assert_eq!(
            classify(&mut step("stop", &["result"]), 0).unwrap().outcome,
            Outcome::Result
        );
    }

    #[test]
    fn one_global_order_across_methods() {
        let mut script = Script::new([
            ("supportsPty", 'a'),
            ("execCommand", 'b'),
            ("supportsPty", 'c'),
        ]);
        assert_eq!(script.methods(), ["supportsPty", "execCommand"]);
        assert_eq!(script.take("supportsPty").unwrap(), (0, 'a'));
        let e = script.take("writeStdin").unwrap_err();
        assert_eq!(
            e,
            SandboxError::Unexpected {
                call_index: 1,
                actual: "writeStdin".into(),
                expected: Some("execCommand".into()),
                remaining: 1
            }
        );
        assert_eq!(e.to_string(), "Scripted sandbox session received unexpected writeStdin call #2; expected execCommand.");
        assert_eq!(script.take("supportsPty").unwrap(), (2, 'c'));
        let e = script.take("stop").unwrap_err();
        assert_eq!(
            e.to_string(),
            "Scripted sandbox session received unexpected stop call #4; no scripted steps remain."
        );
        assert!(matches!(
            e,
            SandboxError::Unexpected {
                expected: None,
                remaining: 0,
                ..
            }
        ));
    }

    #[test]
    fn unconsumed_steps_list_their_methods() {
        let script = Script::new([("exec", ()), ("stop", ())]);
        let e = script.assert_complete().unwrap_err();
        assert_eq!(
            e.to_string(),
            "Scripted sandbox session has 2 unconsumed steps: exec, stop."
        );
        let one = Script::new([("exec", ())]);
        assert_eq!(
            one.assert_complete().unwrap_err().to_string(),
            "Scripted sandbox session has 1 unconsumed step: exec."
        );
        assert!(Script::<()>::new([]).assert_complete().is_ok());
    }

    #[test]
    fn a_matcher_rejects_only_with_false() {
        assert!(check_matcher(false, 0, "exec").is_ok());
        let e = check_matcher(true, 1, "exec").unwrap_err();
        assert_eq!(
            e.to_string(),
            "Scripted sandbox session matcher rejected exec call #2."
        );
        assert_eq!(e.name(), "SandboxCallMatcherError");
    }
}
