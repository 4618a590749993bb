//! The first violation the fast path meets, written as the full validator writes it.
//!
//! When the walk stops at a violation of a keyword it models exactly (`type` naming one type,
//! `enum`, `const`, lengths, `pattern`, `format`, bounds, `required`), [`Plan::explain`] walks
//! the text again, noting the keys and indices it passes, and writes that violation as an issue
//! with the `jsonschema` crate's message, instance path, schema path and keyword. Anything else
//! (a violation inside an applicator, below a `$ref`, of `additionalProperties: false`, or on an
//! array or object value, whose message would show the whole value) is left to the crate.

use std::cell::{Cell, RefCell};

use serde_json::Value as Json;

use super::{Node, Plan, Verdict, Walk};
use crate::map::FastMap;

/// One violation, as the full validator reports it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Explained {
    pub keyword: &'static str,
    pub message: String,
    pub instance_path: String,
    pub schema_path: String,
}

/// What an explaining walk wrote down.
#[derive(Default)]
pub(super) struct Explain {
    found: Option<Option<(&'static str, String, String)>>,
    /// The path of the violation, innermost segment first.
    segments: Vec<String>,
}

impl Explain {
    /// The violation of `keyword` at the node at `pointer`, with its message (`None`: it cannot
    /// be written exactly). Only the first counts.
    pub(super) fn found(&mut self, keyword: &'static str, message: Option<String>, pointer: &str) {
        if self.found.is_none() {
            self.found = Some(message.map(|m| (keyword, m, format!("{pointer}/{keyword}"))));
        }
    }

    /// A violation this module does not write (an applicator's verdict, a container's count).
    pub(super) fn unexplained(&mut self) {
        if self.found.is_none() {
            self.found = Some(None);
        }
    }

    /// The walk leaves the member or item `segment` on its way out of the violation.
    pub(super) fn at(&mut self, segment: String) {
        self.segments.push(segment);
    }
}

/// The bound keywords, in the order the walk checks them.
pub(super) const BOUNDS: [&str; 4] = ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"];

pub(super) fn type_message(shown: &str, node: &Node) -> Option<String> {
    use super::{ARR, BOOL, FLOAT, INT, NULL, OBJ, STR};
    if !node.single_type {
        return None;
    }
    let name = match node.kinds {
        NULL => "null",
        BOOL => "boolean",
        INT => "integer",
        k if k == INT | FLOAT => "number",
        STR => "string",
        ARR => "array",
        OBJ => "object",
        _ => return None,
    };
    Some(format!("{shown} is not of type \"{name}\""))
}

/// `enum` as the crate writes it: up to three options (`a, b or c`), else the first two and
/// how many others; `const` as the value expected.
pub(super) fn options_message(shown: &str, node: &Node) -> Option<String> {
    let options = node.options.as_deref()?;
    match node.options_keyword {
        "const" => Some(format!("{} was expected", options.first()?)),
        "enum" => {
            let mut out = format!("{shown} is not one of ");
            let list = |o: &[Json]| o.iter().map(Json::to_string).collect::<Vec<_>>();
            if options.len() <= 3 {
                let all = list(options);
                match all.split_last() {
                    Some((last, [])) => out.push_str(last),
                    Some((last, rest)) => {
                        out.push_str(&rest.join(", "));
                        out.push_str(" or ");
                        out.push_str(last);
                    }
                    None => return None,
                }
            } else {
                out.push_str(&list(&options[..2]).join(", "));
                out.push_str(&format!(" or {} other candidates", options.len() - 2));
            }
            Some(out)
        }
        _ => None,
    }
}

pub(super) fn length_message(shown: &str, which: &str, limit: usize) -> String {
    let plural = if limit == 1 { "" } else { "s" };
    format!("{shown} is {which} than {limit} character{plural}")
}

pub(super) fn bound_message(shown: &str, which: usize, node: &Node) -> Option<String> {
    let limit = node.limits.as_ref()?[which].as_ref()?;
    let relation = [
        "less than the minimum",
        "greater than the maximum",
        "less than or equal to the minimum",
        "greater than or equal to the maximum",
    ][which];
    Some(format!("{shown} is {relation} of {limit}"))
}

/// The first required key (in `required`'s order) the object lacks.
pub(super) fn required_message(node: &Node, seen: u64) -> Option<String> {
    let missing = node
        .keys
        .iter()
        .filter_map(|k| Some((k.required_bit?, k)))
        .filter(|(bit, _)| seen & (1 << bit) == 0)
        .min_by_key(|(bit, _)| *bit)?
        .1;
    Some(format!(
        "{} is a required property",
        serde_json::to_string(&*missing.name).ok()?
    ))
}

/// Sets each node's `pointer` to where its schema sits in the document: every subschema is one
/// value of the document, at one place, and nodes are made per value (`memo`, by address).
pub(super) fn locate(root: &Json, memo: &FastMap<usize, usize>, nodes: &mut [Node]) {
    let mut stack = vec![(root, String::new())];
    while let Some((value, pointer)) = stack.pop() {
        if let Some(&id) = memo.get(&(value as *const Json as usize)) {
            nodes[id].pointer = pointer.as_str().into();
        }
        match value {
            Json::Object(o) => {
                for (k, v) in o {
                    if v.is_object() || v.is_array() || v.is_boolean() {
                        let mut at = format!("{pointer}/");
                        push_escaped(&mut at, k);
                        stack.push((v, at));
                    }
                }
            }
            Json::Array(a) => {
                for (i, v) in a.iter().enumerate() {
                    stack.push((v, format!("{pointer}/{i}")));
                }
            }
            _ => {}
        }
    }
}

/// Appends `segment` as a JSON Pointer segment (`~` as `~0`, `/` as `~1`).
fn push_escaped(out: &mut String, segment: &str) {
    for c in segment.chars() {
        match c {
            '~' => out.push_str("~0"),
            '/' => out.push_str("~1"),
            c => out.push(c),
        }
    }
}

impl Plan {
    /// The plan's verdict on `text` (as [`Plan::verdict`]) and, when invalid, the violation
    /// that makes it so, written as the full validator writes it, when the fast path models
    /// it exactly (`None`: a violation it leaves to the full validator).
    pub fn explain(&self, text: &str) -> (Option<bool>, Option<Explained>) {
        let budget = Cell::new(text.len().saturating_mul(8).saturating_add(4096));
        let refuted = Cell::new(false);
        let explain = RefCell::new(Explain::default());
        let walk = Walk {
            plan: self,
            budget: &budget,
            refuted: &refuted,
            explain: Some(&explain),
        };
        match walk.whole(text, self.root, 0, false) {
            Verdict::Valid => (Some(true), None),
            Verdict::Unknown => (None, None),
            // The walk stopped at the violation: the text past it must still be JSON (as the
            // full path reads it), or the issue is that it is not.
            Verdict::Invalid if super::scan(text).is_some() => {
                (Some(false), explain.into_inner().written())
            }
            Verdict::Invalid => (Some(false), None),
        }
    }
}

impl Explain {
    fn written(self) -> Option<Explained> {
        let (keyword, message, schema_path) = self.found??;
        let mut instance_path = String::new();
        for segment in self.segments.iter().rev() {
            instance_path.push('/');
            push_escaped(&mut instance_path, segment);
        }
        Some(Explained {
            keyword,
            message,
            instance_path,
            schema_path,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The issues the `jsonschema` crate reports for `text`, as (keyword, message, instance
    /// path, schema path).
    fn full(schema: &Json, text: &str) -> Vec<(String, String, String, String)> {
        let validator = jsonschema::options()
            .should_validate_formats(true)
            .build(schema)
            .unwrap();
        let value: Json = serde_json::from_str(text).unwrap();
        validator
            .iter_errors(&value)
            .map(|e| {
                (
                    e.kind().keyword().to_string(),
                    e.to_string(),
                    e.instance_path().to_string(),
                    e.schema_path().to_string(),
                )
            })
            .collect()
    }

    /// Explains `text` and checks the issue is one the crate reports; `Some(keyword)` when
    /// the fast path wrote it.
    fn explained(schema: &Json, text: &str) -> Option<&'static str> {
        let plan = Plan::compile(schema, true).unwrap();
        let (verdict, e) = plan.explain(text);
        assert_eq!(verdict, plan.verdict(text), "{text}");
        let e = e?;
        let issues = full(schema, text);
        let mine = (
            e.keyword.to_string(),
            e.message.clone(),
            e.instance_path.clone(),
            e.schema_path.clone(),
        );
        assert!(
            issues.contains(&mine),
            "{text}: {mine:?} not among {issues:?}"
        );
        Some(e.keyword)
    }

    #[test]
    fn explained_violations_are_the_full_validators_own() {
        let schema: Json = serde_json::from_str(
            r##"{
            "type": "object",
            "properties": {
                "owner": {"type": "string", "pattern": "^[A-Za-z0-9-]{1,39}$"},
                "title": {"type": "string", "minLength": 1, "maxLength": 5},
                "n": {"type": "integer", "exclusiveMinimum": 0, "maximum": 100},
                "f": {"type": "number", "minimum": 0.5, "exclusiveMaximum": 1e3},
                "state": {"type": "string", "enum": ["open", "closed", "all"]},
                "pick": {"enum": ["a", 1, null, true, "e"]},
                "two": {"enum": ["x", "y"]},
                "one": {"const": "only"},
                "email": {"type": "string", "format": "email"},
                "since": {"type": "string", "format": "date-time"},
                "id": {"type": "string", "format": "uuid"},
                "a/b~c": {"type": "boolean"},
                "tags": {"type": "array", "items": {"type": "string", "maxLength": 3}, "maxItems": 2},
                "pair": {"type": "array", "prefixItems": [{"type": "integer"}, {"type": "null"}]},
                "meta": {"type": "object", "properties": {"deep": {"type": "string"}}, "required": ["deep", "x\"y"]},
                "ref": {"$ref": "#/$defs/s"},
                "either": {"type": ["string", "null"]},
                "extra": {"type": "object", "additionalProperties": {"type": "integer"}},
                "closed": {"type": "object", "properties": {"k": {}}, "additionalProperties": false},
                "pp": {"type": "object", "patternProperties": {"^n_": {"type": "integer"}}}
            },
            "required": ["owner", "title"],
            "$defs": {"s": {"type": "string"}}
        }"##,
        )
        .unwrap();
        let cases: &[(&str, Option<&str>)] = &[
            (r#"{"owner":"octo org","title":"x"}"#, Some("pattern")),
            (r#"{"owner":"a","title":""}"#, Some("minLength")),
            (r#"{"owner":"a","title":"toolong"}"#, Some("maxLength")),
            (r#"{"owner":"a"}"#, Some("required")),
            (r#"{}"#, Some("required")),
            (
                r#"{"owner":"a","title":"x","n":0}"#,
                Some("exclusiveMinimum"),
            ),
            (r#"{"owner":"a","title":"x","n":500}"#, Some("maximum")),
            (r#"{"owner":"a","title":"x","n":"5"}"#, Some("type")),
            (r#"{"owner":"a","title":"x","n":true}"#, Some("type")),
            (r#"{"owner":"a","title":"x","n":null}"#, Some("type")),
            (r#"{"owner":"a","title":"x","f":0.25}"#, Some("minimum")),
            (
                r#"{"owner":"a","title":"x","f":1000}"#,
                Some("exclusiveMaximum"),
            ),
            (r#"{"owner":"a","title":"x","f":-1.5e2}"#, Some("minimum")),
            (r#"{"owner":"a","title":"x","state":"OPEN"}"#, Some("enum")),
            (r#"{"owner":"a","title":"x","pick":"z"}"#, Some("enum")),
            (r#"{"owner":"a","title":"x","two":"z"}"#, Some("enum")),
            (r#"{"owner":"a","title":"x","one":"two"}"#, Some("const")),
            (
                r#"{"owner":"a","title":"x","email":"ada@"}"#,
                Some("format"),
            ),
            (
                r#"{"owner":"a","title":"x","since":"last week"}"#,
                Some("format"),
            ),
            (
                r#"{"owner":"a","title":"x","id":"2024-13-45"}"#,
                Some("format"),
            ),
            (r#"{"owner":"a","title":"x","a/b~c":"yes"}"#, Some("type")),
            (
                r#"{"owner":"a","title":"x","tags":["ok","long!"]}"#,
                Some("maxLength"),
            ),
            (r#"{"owner":"a","title":"x","pair":[1,2]}"#, Some("type")),
            (
                r#"{"owner":"a","title":"x","pair":[1,false]}"#,
                Some("type"),
            ),
            (r#"{"owner":"a","title":"x","f":"x"}"#, Some("type")),
            (r#"{"owner":"a","title":"x","meta":1}"#, Some("type")),
            (r#"{"owner":"a","title":"x","tags":"x"}"#, Some("type")),
            (
                r#"{"owner":"a","title":"x","meta":{"deep":"d"}}"#,
                Some("required"),
            ),
            (
                r#"{"owner":"a","title":"x","meta":{"deep":7,"x\"y":1}}"#,
                Some("type"),
            ),
            (
                r#"{"owner":"a","title":"x","extra":{"q":"s"}}"#,
                Some("type"),
            ),
            (
                r#"{"owner":"a","title":"x","pp":{"n_1":"s"}}"#,
                Some("type"),
            ),
            (r#"{"owner":"a\nb\u0001é\"","title":"x"}"#, Some("pattern")),
            // Left to the crate: a `$ref`, several types, a closed object, a count, an
            // array or object value.
            (r#"{"owner":"a","title":"x","ref":1}"#, None),
            (r#"{"owner":"a","title":"x","either":1}"#, None),
            (r#"{"owner":"a","title":"x","closed":{"z":1}}"#, None),
            (r#"{"owner":"a","title":"x","tags":["a","b","c"]}"#, None),
            (r#"{"owner":"a","title":"x","meta":[1]}"#, None),
            (r#"[1]"#, None),
            // Valid, and duplicate keys.
            (r#"{"owner":"a","title":"x"}"#, None),
            (r#"{"owner":"a","title":"","title":"x"}"#, None),
        ];
        for (text, keyword) in cases {
            assert_eq!(explained(&schema, text), *keyword, "{text}");
        }
    }

    #[test]
    fn draft_7_tuples_and_applicators() {
        let d7: Json = serde_json::from_str(
            r#"{"$schema":"http://json-schema.org/draft-07/schema#","type":"array","items":[{"type":"string","format":"uuid"},{"type":"integer","minimum":1}]}"#,
        )
        .unwrap();
        assert_eq!(explained(&d7, r#"["x"]"#), Some("format"));
        assert_eq!(
            explained(&d7, r#"["0b6f9c1e-8d44-4bd6-9a0e-6f0f1f8e3d1a",0]"#),
            Some("minimum")
        );
        let applied: Json = serde_json::from_str(
            r#"{"properties":{"a":{"anyOf":[{"type":"string"},{"type":"integer"}]},"b":{"not":{"type":"null"}},"c":{"allOf":[{"minimum":3}]}}}"#,
        )
        .unwrap();
        for text in [r#"{"a":true}"#, r#"{"b":null}"#, r#"{"c":1}"#] {
            assert_eq!(explained(&applied, text), None, "{text}");
        }
    }

    #[test]
    fn unevaluated_properties_are_left_to_the_crate() {
        // The crate reports "Unevaluated properties are not allowed" at the keyword, not the
        // inner `minLength`: the fast path writes nothing, and its verdict stands.
        let schema: Json =
            serde_json::from_str(r#"{"unevaluatedProperties":{"type":"string","minLength":3}}"#)
                .unwrap();
        assert_eq!(explained(&schema, r#"{"foo":"fo"}"#), None);
        assert_eq!(explained(&schema, r#"{"foo":3}"#), None);
        let names: Json = serde_json::from_str(
            r#"{"propertyNames":{"maxLength":0},"unevaluatedProperties":{"type":"number"}}"#,
        )
        .unwrap();
        // Whatever the fast path writes here is one of the crate's issues (`explained` checks).
        explained(&names, r#"{"a":"b"}"#);
        // `additionalProperties` with a schema is still written as the inner keyword.
        let additional: Json =
            serde_json::from_str(r#"{"additionalProperties":{"type":"string","minLength":3}}"#)
                .unwrap();
        assert_eq!(explained(&additional, r#"{"foo":"fo"}"#), Some("minLength"));
    }
}
