//! Local validation against a JSON Schema (drafts 2020-12 and 7, chosen by `$schema`; 2020-12
//! when absent), compiled once by the `jsonschema` crate. Failures are data, not exceptions.

use serde::Serialize;

use crate::error::InvalidSchemaError;
use crate::schema::json::{self, Doc, Id, Node};
use crate::schema::verdict::Plan;

/// Deepest value `validate` accepts (the same bound `serde_json` puts on `validateJson` text).
pub use super::MAX_VALUE_DEPTH;

/// One reason a value failed validation.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(
    test,
    derive(ts_rs::TS),
    ts(rename = "ValidationIssue", optional_fields)
)]
pub struct Issue {
    /// What failed, in words.
    pub message: String,
    /// JSON Pointer to the failing part of the value.
    pub instance_path: String,
    /// JSON Pointer to the failing keyword in the schema.
    pub schema_path: String,
    /// The failing keyword; `json` when the text is not JSON, `depth` when nested too deeply.
    pub keyword: String,
    /// Where malformed JSON text broke (only with `keyword: 'json'`).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(inline))]
    pub position: Option<Position>,
}

/// Where in a JSON text it broke.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct Position {
    /// Byte offset into the text.
    pub offset: usize,
    /// One-based line.
    pub line: usize,
    /// One-based column.
    pub column: usize,
}

/// The outcome of one validation.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Report {
    pub valid: bool,
    pub issues: Vec<Issue>,
}

impl Report {
    fn from_issues(issues: Vec<Issue>) -> Self {
        Report {
            valid: issues.is_empty(),
            issues,
        }
    }

    /// The issues as one text for the host to read in one pass: each issue's message, instance
    /// path, schema path and keyword, each field after a NUL (`\0message\0/a\0/properties/a/type\0type…`).
    /// A field holding a NUL, or a position, takes the JSON form (an array, as `Issue`
    /// serializes) instead.
    pub fn issues_text(&self) -> String {
        fn fields(i: &Issue) -> [&str; 4] {
            [&i.message, &i.instance_path, &i.schema_path, &i.keyword]
        }
        let plain = self
            .issues
            .iter()
            .all(|i| i.position.is_none() && fields(i).iter().all(|f| !f.contains('\0')));
        if !plain {
            return serde_json::to_string(&self.issues).unwrap_or_else(|_| "[]".into());
        }
        let mut out = String::new();
        for field in self.issues.iter().flat_map(fields) {
            out.push('\0');
            out.push_str(field);
        }
        out
    }
}

/// A compiled validator.
pub struct Compiled {
    validator: jsonschema::Validator,
    /// The valid-text fast path (`None` for drafts it does not model).
    plan: Option<Plan>,
}

impl std::fmt::Debug for Compiled {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Compiled")
    }
}

/// Compiles `schema` with formats asserted. A schema that is not a valid JSON Schema is an
/// error naming the pointer of the offending node.
pub fn compile(schema: &serde_json::Value) -> Result<Compiled, InvalidSchemaError> {
    compile_with(schema, true)
}

/// [`compile`]; `formats` says whether `format` asserts (the formats `jsonschema` knows: dates,
/// times, durations, email, hostnames, IP addresses, UUIDs, URIs, regexes, …; unknown formats
/// pass) or is an annotation, in every draft.
pub fn compile_with(
    schema: &serde_json::Value,
    formats: bool,
) -> Result<Compiled, InvalidSchemaError> {
    compile_with_resources(schema, formats, Vec::new())
}

/// The documents a schema's non-local `$ref`s may name, by URI (`compileJsonSchema`'s
/// `resources`): what a schema split across documents (an MCP server's, OpenAPI components)
/// refers to. A URI no resource has is the crate's unresolvable-reference error; nothing is
/// fetched.
struct Resources(std::collections::HashMap<String, serde_json::Value>);

impl jsonschema::Retrieve for Resources {
    fn retrieve(
        &self,
        uri: &jsonschema::Uri<String>,
    ) -> Result<serde_json::Value, Box<dyn std::error::Error + Send + Sync>> {
        let uri = uri.as_str();
        self.0
            .get(without_fragment(uri))
            .cloned()
            .ok_or_else(|| format!("no resource `{uri}` was given (the `resources` option)").into())
    }
}

/// A URI without its `#…` fragment: what names a document.
fn without_fragment(uri: &str) -> &str {
    uri.split_once('#').map_or(uri, |(base, _)| base)
}

/// [`compile_with`], with the documents non-local `$ref`s name (URI, schema); a URI's
/// fragment is not part of its key.
pub fn compile_with_resources(
    schema: &serde_json::Value,
    formats: bool,
    resources: Vec<(String, serde_json::Value)>,
) -> Result<Compiled, InvalidSchemaError> {
    if !matches!(
        schema,
        serde_json::Value::Object(_) | serde_json::Value::Bool(_)
    ) {
        return Err(InvalidSchemaError {
            pointer: String::new(),
            message: format!(
                "A JSON Schema must be an object or a boolean, not {}.",
                kind_of(schema)
            ),
        });
    }
    let resources = Resources(
        resources
            .into_iter()
            .map(|(uri, doc)| (without_fragment(&uri).to_owned(), doc))
            .collect(),
    );
    jsonschema::options()
        .should_validate_formats(formats)
        .with_retriever(resources)
        .build(schema)
        .map(|validator| Compiled {
            validator,
            plan: Plan::compile(schema, formats),
        })
        .map_err(|e| {
            let pointer = e.instance_path().to_string();
            InvalidSchemaError {
                message: format!("Invalid JSON Schema at `{pointer}`: {e}"),
                pointer,
            }
        })
}

/// Compiles the JSON text of a schema, formats asserted.
pub fn compile_json(text: &str) -> Result<Compiled, InvalidSchemaError> {
    compile_json_with(text, true)
}

/// [`compile_json`] with the `formats` choice of [`compile_with`].
pub fn compile_json_with(text: &str, formats: bool) -> Result<Compiled, InvalidSchemaError> {
    compile_json_with_resources(text, formats, &[])
}

/// [`compile_json_with`] and the resources of [`compile_with_resources`], as JSON texts.
pub fn compile_json_with_resources(
    text: &str,
    formats: bool,
    resources: &[(String, String)],
) -> Result<Compiled, InvalidSchemaError> {
    let schema: serde_json::Value = serde_json::from_str(text).map_err(|e| InvalidSchemaError {
        pointer: String::new(),
        message: format!("The schema is not valid JSON: {e}"),
    })?;
    let mut documents = Vec::with_capacity(resources.len());
    for (uri, doc) in resources {
        let doc: serde_json::Value = serde_json::from_str(doc).map_err(|e| InvalidSchemaError {
            pointer: String::new(),
            message: format!("The resource `{uri}` is not valid JSON: {e}"),
        })?;
        documents.push((uri.clone(), doc));
    }
    compile_with_resources(&schema, formats, documents)
}

fn kind_of(v: &serde_json::Value) -> &'static str {
    match v {
        serde_json::Value::Null => "null",
        serde_json::Value::Bool(_) => "a boolean",
        serde_json::Value::Number(_) => "a number",
        serde_json::Value::String(_) => "a string",
        serde_json::Value::Array(_) => "an array",
        serde_json::Value::Object(_) => "an object",
    }
}

impl Compiled {
    pub fn validate(&self, value: &serde_json::Value) -> Report {
        if self.validator.is_valid(value) {
            return Report::from_issues(Vec::new());
        }
        self.issues(value)
    }

    /// The issues of a value known to be invalid.
    fn issues(&self, value: &serde_json::Value) -> Report {
        let issues = self
            .validator
            .iter_errors(value)
            .map(|e| issue(&e))
            .collect();
        Report::from_issues(issues)
    }

    /// Validates JSON text; text that is not JSON is one `json` issue with its position.
    pub fn validate_json(&self, text: &str) -> Report {
        let verdict = self.fast_verdict(text);
        if verdict == Some(true) {
            return Report::from_issues(Vec::new());
        }
        match serde_json::from_str::<serde_json::Value>(text) {
            // The fast path found a violation: straight to the issues.
            Ok(value) if verdict == Some(false) => self.issues(&value),
            Ok(value) => self.validate(&value),
            Err(e) => Report::from_issues(vec![json_issue(text, e)]),
        }
    }

    /// [`Compiled::validate_json`] with at most one issue: the first violation the fast path
    /// meets, written by it when it models that keyword exactly, else the first of the full
    /// validator's issues. What a caller that reports one reason pays, without collecting them all.
    pub fn validate_json_first(&self, text: &str) -> Report {
        if let Some(plan) = &self.plan {
            match plan.explain(text) {
                (Some(true), _) => return Report::from_issues(Vec::new()),
                (Some(false), Some(e)) => {
                    return Report::from_issues(vec![Issue {
                        message: e.message,
                        instance_path: e.instance_path,
                        schema_path: e.schema_path,
                        keyword: e.keyword.into(),
                        position: None,
                    }])
                }
                _ => {}
            }
        }
        match serde_json::from_str::<serde_json::Value>(text) {
            // The first of all the issues: `jsonschema`'s own `validate` stops earlier and can
            // write a shorter one (`additionalProperties` names only the first extra key).
            Ok(value) => Report::from_issues(
                self.validator
                    .iter_errors(&value)
                    .next()
                    .map(|e| issue(&e))
                    .into_iter()
                    .collect(),
            ),
            Err(e) => Report::from_issues(vec![json_issue(text, e)]),
        }
    }

    /// [`Compiled::validate_json_first`] as the host reads it: `None` when valid, else the
    /// issue's text ([`Report::issues_text`]), written at once when the fast path explains it.
    pub fn first_issue_text(&self, text: &str) -> Option<String> {
        if let Some(plan) = &self.plan {
            match plan.explain(text) {
                (Some(true), _) => return None,
                (Some(false), Some(e)) => {
                    let fields = [&*e.message, &e.instance_path, &e.schema_path, e.keyword];
                    if fields.iter().all(|f| !f.contains('\0')) {
                        let mut out =
                            String::with_capacity(fields.iter().map(|f| f.len() + 1).sum());
                        for field in fields {
                            out.push('\0');
                            out.push_str(field);
                        }
                        return Some(out);
                    }
                }
                _ => {}
            }
        }
        let report = self.validate_json_first(text);
        (!report.valid).then(|| report.issues_text())
    }

    /// Whether `text` is valid JSON of the schema, without collecting the issues of an invalid
    /// one: the fast path's verdict, else `jsonschema`'s own yes/no (malformed text is invalid).
    pub fn is_valid_json(&self, text: &str) -> bool {
        if let Some(verdict) = self.fast_verdict(text) {
            return verdict;
        }
        serde_json::from_str::<serde_json::Value>(text)
            .is_ok_and(|value| self.validator.is_valid(&value))
    }

    /// Whether the fast path proves `text` valid without building its value (`false`: the
    /// full path must decide).
    pub fn proves_valid(&self, text: &str) -> bool {
        self.fast_verdict(text) == Some(true)
    }

    /// The fast path's verdict on `text` (`None`: the full path must decide); one it gives
    /// is the full path's.
    pub fn fast_verdict(&self, text: &str) -> Option<bool> {
        self.plan.as_ref().and_then(|p| p.verdict(text))
    }

    /// Validates a value from the host's tagged encoding: `undefined` members are absent (as in
    /// JSON) and values JSON cannot carry are issues, never silently dropped.
    pub fn validate_doc(&self, doc: &Doc, root: Id) -> Report {
        if depth_of(doc, root) > MAX_VALUE_DEPTH {
            return Report::from_issues(vec![Issue {
                message: format!("The value is nested deeper than {MAX_VALUE_DEPTH} levels."),
                instance_path: String::new(),
                schema_path: String::new(),
                keyword: "depth".into(),
                position: None,
            }]);
        }
        let mut opaque = Vec::new();
        let value = to_serde(doc, root, &mut String::new(), &mut opaque);
        let mut report = self.validate(&value);
        for (pointer, kind) in opaque {
            report.issues.insert(
                0,
                Issue {
                    message: format!("{kind} is not a JSON value"),
                    instance_path: pointer,
                    schema_path: String::new(),
                    keyword: "json".into(),
                    position: None,
                },
            );
        }
        report.valid = report.issues.is_empty();
        report
    }
}

fn json_issue(text: &str, e: serde_json::Error) -> Issue {
    let (line, column) = (e.line(), e.column());
    let offset = line_column_to_offset(text, line, column);
    Issue {
        message: format!("Invalid JSON: {e}"),
        instance_path: String::new(),
        schema_path: String::new(),
        keyword: "json".into(),
        position: Some(Position {
            offset,
            line,
            column,
        }),
    }
}

fn issue(e: &jsonschema::ValidationError<'_>) -> Issue {
    Issue {
        message: e.to_string(),
        instance_path: e.instance_path().to_string(),
        schema_path: e.schema_path().to_string(),
        keyword: e.kind().keyword().to_string(),
        position: None,
    }
}

fn line_column_to_offset(text: &str, line: usize, column: usize) -> usize {
    let line_start: usize = text
        .split_inclusive('\n')
        .take(line.saturating_sub(1))
        .map(str::len)
        .sum();
    (line_start + column.saturating_sub(1)).min(text.len())
}

/// Converts an arena subtree to `serde_json::Value`, collecting opaque values. Recursion depth
/// equals value depth; `validate_doc` checks
/// `MAX_VALUE_DEPTH` first.
fn to_serde(
    doc: &Doc,
    id: Id,
    pointer: &mut String,
    opaque: &mut Vec<(String, String)>,
) -> serde_json::Value {
    use serde_json::Value as V;
    match doc.node(id) {
        Node::Null | Node::Undefined => V::Null,
        Node::Bool(b) => V::Bool(*b),
        Node::Num(n) => serde_json::from_str(n).unwrap_or(V::Null),
        Node::Str(s) => V::String(s.clone()),
        Node::Opaque(kind) => {
            opaque.push((pointer.clone(), kind.clone()));
            V::Null
        }
        Node::Arr(items) => V::Array(
            items
                .iter()
                .enumerate()
                .map(|(i, &c)| {
                    let len = pointer.len();
                    pointer.push_str(&format!("/{i}"));
                    let v = to_serde(doc, c, pointer, opaque);
                    pointer.truncate(len);
                    v
                })
                .collect(),
        ),
        Node::Obj(map) => V::Object(
            map.iter()
                .filter(|(_, &c)| !matches!(doc.node(c), Node::Undefined))
                .map(|(k, &c)| {
                    let len = pointer.len();
                    pointer.push('/');
                    pointer.push_str(&json::escape_token(k));
                    let v = to_serde(doc, c, pointer, opaque);
                    pointer.truncate(len);
                    (k.clone(), v)
                })
                .collect(),
        ),
    }
}

/// Depth of the deepest container of a subtree (iterative).
pub fn depth_of(doc: &Doc, root: Id) -> usize {
    let mut max = 0;
    let mut stack = vec![(root, 1usize)];
    while let Some((id, d)) = stack.pop() {
        match doc.node(id) {
            Node::Arr(items) => {
                max = max.max(d);
                stack.extend(items.iter().map(|&c| (c, d + 1)));
            }
            Node::Obj(map) => {
                max = max.max(d);
                stack.extend(map.values().map(|&c| (c, d + 1)));
            }
            _ => {}
        }
    }
    max
}

#[cfg(test)]
mod tests {
    use super::*;

    fn compiled(schema: &str) -> Compiled {
        compile_json(schema).unwrap()
    }

    #[test]
    fn remote_references_resolve_to_the_resources_given() {
        let schema = r#"{"type":"object","properties":{"item":{"$ref":"https://example.com/item.json"},"tag":{"$ref":"https://example.com/defs.json#/$defs/tag"}}}"#;
        let resources = [
            (
                "https://example.com/item.json".to_owned(),
                r#"{"type":"object","properties":{"qty":{"type":"integer","minimum":1}},"required":["qty"]}"#.to_owned(),
            ),
            (
                "https://example.com/defs.json".to_owned(),
                r#"{"$defs":{"tag":{"type":"string","maxLength":3}}}"#.to_owned(),
            ),
        ];
        let v = compile_json_with_resources(schema, true, &resources).unwrap();
        assert!(v.validate_json(r#"{"item":{"qty":2},"tag":"abc"}"#).valid);
        let report = v.validate_json(r#"{"item":{"qty":0},"tag":"abcd"}"#);
        assert!(!report.valid);
        assert_eq!(report.issues.len(), 2, "{:?}", report.issues);
        // Without the resource, the reference is an error naming the URI; nothing is fetched.
        let Err(e) = compile_json_with_resources(schema, true, &resources[..1]) else {
            panic!("an unresolvable reference compiled");
        };
        assert!(
            e.message.contains("https://example.com/defs.json"),
            "{}",
            e.message
        );
        assert!(compile_json(schema).is_err());
    }

    #[test]
    fn valid_values_have_no_issues() {
        let v =
            compiled(r#"{"type":"object","properties":{"a":{"type":"string"}},"required":["a"]}"#);
        assert_eq!(
            v.validate_json(r#"{"a":"x"}"#),
            Report {
                valid: true,
                issues: vec![]
            }
        );
    }

    #[test]
    fn issues_name_paths_and_keywords() {
        let v = compiled(
            r#"{"type":"object","properties":{"a":{"type":"array","items":{"minimum":2}}},"required":["b"]}"#,
        );
        let report = v.validate_json(r#"{"a":[3,1]}"#);
        assert!(!report.valid);
        let mut found: Vec<(String, String, String)> = report
            .issues
            .iter()
            .map(|i| {
                (
                    i.instance_path.clone(),
                    i.schema_path.clone(),
                    i.keyword.clone(),
                )
            })
            .collect();
        found.sort();
        assert_eq!(
            found,
            vec![
                ("".into(), "/required".into(), "required".into()),
                (
                    "/a/1".into(),
                    "/properties/a/items/minimum".into(),
                    "minimum".into()
                ),
            ]
        );
    }

    #[test]
    fn issues_cross_as_nul_separated_fields_or_json() {
        let v = compiled(r#"{"required":["b"],"properties":{"a":{"type":"string"}}}"#);
        let report = v.validate_json(r#"{"a":1}"#);
        let fields: Vec<&str> = report
            .issues
            .iter()
            .flat_map(|i| {
                [
                    i.message.as_str(),
                    &i.instance_path,
                    &i.schema_path,
                    &i.keyword,
                ]
            })
            .collect();
        let text = report.issues_text();
        assert_eq!(text, format!("\0{}", fields.join("\0")));
        assert_eq!(text.split('\0').count(), 1 + 4 * report.issues.len());
        // A NUL in a key, or a position, takes the JSON form.
        let keyed = compiled(r#"{"additionalProperties":{"type":"string"}}"#)
            .validate_json(r#"{"\u0000":1}"#);
        let json: serde_json::Value = serde_json::from_str(&keyed.issues_text()).unwrap();
        assert_eq!(json[0]["instancePath"], "/\u{0}");
        let malformed = v.validate_json("{");
        let json: serde_json::Value = serde_json::from_str(&malformed.issues_text()).unwrap();
        assert_eq!(json[0]["keyword"], "json");
        assert!(json[0]["position"]["offset"].is_number());
    }

    #[test]
    fn the_first_issue_is_one_of_all_the_issues() {
        let v = compiled(
            r##"{"type":"object","properties":{"a":{"type":"string","format":"email","pattern":"^[a-z@.]+$"},"b":{"$ref":"#/$defs/n"},"c":{"anyOf":[{"type":"null"},{"minimum":2}]}},"required":["a"],"additionalProperties":false,"$defs":{"n":{"type":"integer"}}}"##,
        );
        let texts = [
            r#"{"a":"x@example.com"}"#,
            r#"{"a":"X"}"#,
            r#"{"a":"x@example.com","b":"s"}"#,
            r#"{"a":"x@example.com","c":1}"#,
            r#"{"a":"x@example.com","z":1}"#,
            // Two extra keys: one issue naming both.
            r#"{"a":"x@example.com","z":1,"y":2}"#,
            r#"{}"#,
            r#"[]"#,
            r#"{"a":"#,
            // Malformed after the violation: the issue is the malformation.
            r#"{"a":"X""#,
            r#"{"a":1,"#,
            r#"{"a":1,"b":1e999}"#,
            r#"{"a":1} x"#,
        ];
        for text in texts {
            let all = v.validate_json(text);
            let first = v.validate_json_first(text);
            assert_eq!(first.valid, all.valid, "{text}");
            assert_eq!(first.issues.len(), usize::from(!all.valid), "{text}");
            if let Some(issue) = first.issues.first() {
                assert!(
                    all.issues.contains(issue),
                    "{text}: {issue:?} not in {:?}",
                    all.issues
                );
            }
            let expected = (!first.valid).then(|| first.issues_text());
            assert_eq!(v.first_issue_text(text), expected, "{text}");
        }
    }

    #[test]
    fn malformed_text_is_a_positioned_issue() {
        let v = compiled("{}");
        let report = v.validate_json("{\n  \"a\": [1,]\n}");
        assert_eq!(report.issues.len(), 1);
        let issue = &report.issues[0];
        assert_eq!(issue.keyword, "json");
        let pos = issue.position.unwrap();
        assert_eq!((pos.line, pos.column), (2, 11));
        assert_eq!(&"{\n  \"a\": [1,]\n}"[pos.offset..pos.offset + 1], "]");
    }

    #[test]
    fn draft_7_is_chosen_by_schema_keyword() {
        let v = compiled(
            r#"{"$schema":"http://json-schema.org/draft-07/schema#","items":[{"type":"string"}],"additionalItems":false}"#,
        );
        assert!(v.validate_json(r#"["a"]"#).valid);
        assert!(!v.validate_json(r#"["a",1]"#).valid);
        let v = compiled(r#"{"prefixItems":[{"type":"string"}],"items":false}"#);
        assert!(!v.validate_json(r#"["a",1]"#).valid);
    }

    #[test]
    fn bad_schemas_name_the_pointer() {
        let e = compile_json(r#"{"properties":{"a":{"type":"strng"}}}"#).unwrap_err();
        assert_eq!(e.pointer, "/properties/a/type");
        assert!(e.message.contains("/properties/a/type"));
        assert!(compile_json("5").unwrap_err().message.contains("a number"));
        assert!(compile_json("{").is_err());
    }

    #[test]
    fn host_values_are_issues_and_depth_is_bounded() {
        let v = compiled("{}");
        let doc = json::parse(
            r#"{"f":{"\u0000understudy":"function"},"u":{"\u0000understudy":"undefined"}}"#,
        )
        .unwrap();
        let report = v.validate_doc(&doc, 0);
        assert_eq!(report.issues.len(), 1);
        assert_eq!(
            (
                report.issues[0].instance_path.as_str(),
                report.issues[0].keyword.as_str()
            ),
            ("/f", "json")
        );
        let deep = json::parse(&("[".repeat(200) + &"]".repeat(200))).unwrap();
        assert_eq!(v.validate_doc(&deep, 0).issues[0].keyword, "depth");
        assert!(
            !v.validate_json(&("[".repeat(10_000) + &"]".repeat(10_000)))
                .valid
        );
    }
}
