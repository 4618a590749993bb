//! Strict JSON Schema normalization: the checks, the conversion, `$ref`
//! stabilization and input normalization of `@openai/agents-core`'s strict tool schemas.
//!
//! Walks follow the reference step by step, with arena ids standing in for JavaScript object
//! identity. Recursion is bounded by the depth limit (every walk checks depth before it
//! descends), so it never runs deeper than [`MAX_DEPTH`] frames.

use crate::map::{FastMap, ObjMap};

type FastSet<T> = std::collections::HashSet<T, std::hash::BuildHasherDefault<crate::map::Fnv>>;

use super::pointer::{first_opaque, resolve_ref, Locator};
use crate::error::{StrictError, StrictReason};
use crate::schema::json::{Doc, Id, Node};

/// Deepest schema nesting accepted, physically and logically.
pub const MAX_DEPTH: usize = 100;
/// Deepest value nesting `normalize_input` descends through. Deeper than
/// [`super::MAX_VALUE_DEPTH`] (validation, null stripping): the reference's `normalizeInput`
/// descends without a limit, so this only bounds the stack, well past any value it handles.
pub const MAX_NORMALIZE_DEPTH: usize = 1000;

pub const DEPTH_MESSAGE: &str =
    "JSON schema is too deeply nested to process safely. Simplify or flatten the schema, or disable strict mode.";

const UNSUPPORTED_KEYWORDS: [&str; 21] = [
    "$dynamicRef",
    "$recursiveRef",
    "additionalItems",
    "allOf",
    "contains",
    "contentSchema",
    "dependencies",
    "dependentRequired",
    "dependentSchemas",
    "else",
    "if",
    "maxContains",
    "minContains",
    "not",
    "oneOf",
    "patternProperties",
    "prefixItems",
    "propertyNames",
    "then",
    "unevaluatedItems",
    "unevaluatedProperties",
];

/// `$ref` siblings that are metadata, not constraints (matched by `is_reference_metadata`).
#[cfg_attr(not(test), allow(dead_code))]
const REFERENCE_METADATA: [&str; 14] = [
    "$anchor",
    "$comment",
    "$defs",
    "$id",
    "$ref",
    "$schema",
    "default",
    "deprecated",
    "description",
    "definitions",
    "examples",
    "readOnly",
    "title",
    "writeOnly",
];

/// Whether a schema accepts `null`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Nullability {
    Allows,
    Disallows,
    Unknown,
}

/// Which checks a preparation runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// `toOpenAIStrictToolSchema`: no unambiguous-normalization rule.
    Convert,
    /// `prepareOpenAIStrictToolSchema`: rejects `anyOf` branches that would need null stripping.
    Prepare,
}

/// A prepared strict schema: the strict document plus what `normalize_input` needs.
#[derive(Debug, Clone)]
pub struct Prepared {
    /// The strict schema; its root is [`Prepared::root`].
    pub doc: Doc,
    pub root: Id,
    /// Synthetic nullable wrappers created by the conversion: wrapper id → wrapped id.
    synthetic: FastMap<Id, Id>,
}

type Result<T> = std::result::Result<T, StrictError>;

// ---------------------------------------------------------------------------------------------
// Errors

struct Fault {
    reason: StrictReason,
    node: Option<Id>,
    keyword: Option<String>,
    message: String,
}

fn fault(reason: StrictReason, node: Id, message: impl Into<String>) -> Fault {
    Fault {
        reason,
        node: Some(node),
        keyword: None,
        message: message.into(),
    }
}

fn fault_kw(reason: StrictReason, node: Id, keyword: &str, message: String) -> Fault {
    Fault {
        reason,
        node: Some(node),
        keyword: Some(keyword.to_string()),
        message,
    }
}

fn depth_fault(node: Id) -> Fault {
    fault(StrictReason::Depth, node, DEPTH_MESSAGE)
}

impl Fault {
    /// Names the node by its pointer in `doc` (the caller's schema).
    fn locate(self, doc: &Doc, root: Id) -> StrictError {
        let pointer = match self.node {
            Some(node) => Locator::new(doc, root).pointer(node),
            None => String::new(),
        };
        StrictError {
            reason: self.reason,
            pointer,
            keyword: self.keyword,
            message: self.message,
            tool_name: None,
        }
    }
}

/// The error for a schema that could not even be encoded because it is cyclic or nested
/// deeper than the host can serialize: the reference reports both as too deeply nested.
pub fn depth_error_unlocated() -> StrictError {
    StrictError {
        reason: StrictReason::Depth,
        pointer: String::new(),
        keyword: None,
        message: DEPTH_MESSAGE.into(),
        tool_name: None,
    }
}

// ---------------------------------------------------------------------------------------------
// Small JavaScript-shaped helpers over the arena

/// `String(value)` for the members of a `required` array.
fn js_string(doc: &Doc, id: Id) -> String {
    match doc.node(id) {
        Node::Null => "null".into(),
        Node::Undefined => "undefined".into(),
        Node::Bool(b) => b.to_string(),
        Node::Num(n) => n
            .parse::<f64>()
            .map(js_number)
            .unwrap_or_else(|_| n.clone()),
        Node::Str(s) => s.clone(),
        Node::Arr(items) => items
            .iter()
            .map(|&i| match doc.node(i) {
                Node::Null | Node::Undefined => String::new(),
                _ => js_string(doc, i),
            })
            .collect::<Vec<_>>()
            .join(","),
        Node::Obj(_) => "[object Object]".into(),
        Node::Opaque(kind) => format!("[{kind}]"),
    }
}

fn js_number(f: f64) -> String {
    if f.fract() == 0.0 && f.abs() < 1e21 {
        format!("{}", f as i64)
    } else {
        format!("{f}")
    }
}

/// `new Set(required.map(String))`; members that are already strings are borrowed.
fn required_set(doc: &Doc, node: Option<Id>) -> FastSet<std::borrow::Cow<'_, str>> {
    use std::borrow::Cow;
    node.and_then(|n| doc.get(n, "required"))
        .and_then(|r| doc.arr(r))
        .map(|items| {
            items
                .iter()
                .map(|&i| match doc.as_str(i) {
                    Some(s) => Cow::Borrowed(s),
                    None => Cow::Owned(js_string(doc, i)),
                })
                .collect()
        })
        .unwrap_or_default()
}

fn is_false(doc: &Doc, id: Option<Id>) -> bool {
    id.is_some_and(|i| matches!(doc.node(i), Node::Bool(false)))
}

/// `type === 'object' || (Array.isArray(type) && type.includes('object'))`.
fn has_object_type(doc: &Doc, node: Id) -> bool {
    type_includes_object(doc, doc.get(node, "type"))
}

fn type_includes_object(doc: &Doc, ty: Option<Id>) -> bool {
    match ty.map(|t| doc.node(t)) {
        Some(Node::Str(s)) => s == "object",
        Some(Node::Arr(items)) => items.iter().any(|&i| doc.as_str(i) == Some("object")),
        _ => false,
    }
}

/// A node whose `properties` the conversion rewrites: a `properties` object and an object or
/// absent `type`.
fn converts_properties(doc: &Doc, node: Id) -> bool {
    doc.get(node, "properties")
        .is_some_and(|p| doc.is_record(p))
        && (has_object_type(doc, node) || doc.get_defined(node, "type").is_none())
}

/// [`entries`], owned: for the conversion, which rewrites the object it walks.
fn record_entries(doc: &Doc, node: Option<Id>) -> Vec<(String, Id)> {
    entries(doc, node)
        .map(|(k, v)| (k.to_string(), v))
        .collect()
}

/// The entries of an object node, borrowed (for walks that do not change the document).
fn entries(doc: &Doc, node: Option<Id>) -> impl Iterator<Item = (&str, Id)> {
    node.and_then(|n| doc.obj(n))
        .into_iter()
        .flat_map(|m| m.iter().map(|(k, &v)| (k.as_str(), v)))
}

/// The keywords of one schema object, found in a single pass over its keys (schema objects
/// have a handful of keys; one `match` per key beats a lookup per keyword).
#[derive(Default)]
struct Keys<'a> {
    id: bool,
    reference: Option<Id>,
    any_of: Option<Id>,
    properties: Option<Id>,
    items: Option<Id>,
    additional: Option<Id>,
    defs: Option<Id>,
    definitions: Option<Id>,
    ty: Option<Id>,
    /// Index in [`UNSUPPORTED_KEYWORDS`] of the first unsupported keyword in that list's order.
    unsupported: Option<usize>,
    /// First key (in key order) outside the `$ref` metadata set, and outside it plus `anyOf`.
    ref_sibling: Option<&'a str>,
    any_of_sibling: Option<&'a str>,
}

/// Position of `key` in [`UNSUPPORTED_KEYWORDS`] (a `match` the compiler turns into a few
/// length and byte comparisons).
fn unsupported_index(key: &str) -> Option<usize> {
    Some(match key {
        "$dynamicRef" => 0,
        "$recursiveRef" => 1,
        "additionalItems" => 2,
        "allOf" => 3,
        "contains" => 4,
        "contentSchema" => 5,
        "dependencies" => 6,
        "dependentRequired" => 7,
        "dependentSchemas" => 8,
        "else" => 9,
        "if" => 10,
        "maxContains" => 11,
        "minContains" => 12,
        "not" => 13,
        "oneOf" => 14,
        "patternProperties" => 15,
        "prefixItems" => 16,
        "propertyNames" => 17,
        "then" => 18,
        "unevaluatedItems" => 19,
        "unevaluatedProperties" => 20,
        _ => return None,
    })
}

/// Membership in [`REFERENCE_METADATA`].
fn is_reference_metadata(key: &str) -> bool {
    matches!(
        key,
        "$anchor"
            | "$comment"
            | "$defs"
            | "$id"
            | "$ref"
            | "$schema"
            | "default"
            | "deprecated"
            | "description"
            | "definitions"
            | "examples"
            | "readOnly"
            | "title"
            | "writeOnly"
    )
}

impl<'a> Keys<'a> {
    fn scan(doc: &'a Doc, node: Id) -> Self {
        let mut k = Keys::default();
        for (key, &value) in doc.obj(node).into_iter().flatten() {
            let key = key.as_str();
            match key {
                "$id" => k.id = true,
                "$ref" => k.reference = Some(value),
                "anyOf" => k.any_of = Some(value),
                "properties" => k.properties = Some(value),
                "items" => k.items = Some(value),
                "additionalProperties" => k.additional = Some(value),
                "$defs" => k.defs = Some(value),
                "definitions" => k.definitions = Some(value),
                "type" => k.ty = Some(value),
                _ => {}
            }
            if let Some(i) = unsupported_index(key) {
                k.unsupported = Some(k.unsupported.map_or(i, |j| j.min(i)));
            }
            if !is_reference_metadata(key) {
                k.ref_sibling.get_or_insert(key);
                if key != "anyOf" {
                    k.any_of_sibling.get_or_insert(key);
                }
            }
        }
        k
    }

    fn definitions(&self) -> [Option<Id>; 2] {
        [self.defs, self.definitions]
    }
}

// ---------------------------------------------------------------------------------------------
// Traversal state (active path + deepest visit)

/// Per-node state of one walk: the deepest depth a node was entered at and whether it is on
/// the active path. A map, not a dense vector: the `anyOf` check starts a fresh walk per
/// branch, and each must cost what it visits, not the size of the document.
#[derive(Default)]
struct Traversal {
    nodes: FastMap<Id, (usize, bool)>,
}

impl Traversal {
    /// `Ok(false)` when the node is on the active path or was seen at this depth or deeper.
    fn enter(&mut self, node: Id, depth: usize) -> std::result::Result<bool, Fault> {
        if let Some(&(seen, active)) = self.nodes.get(&node) {
            if active || seen >= depth {
                return Ok(false);
            }
        }
        if depth > MAX_DEPTH {
            return Err(depth_fault(node));
        }
        self.nodes.insert(node, (depth, true));
        Ok(true)
    }

    fn leave(&mut self, node: Id) {
        if let Some(state) = self.nodes.get_mut(&node) {
            state.1 = false;
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Checks

struct Checker<'a> {
    doc: &'a Doc,
    root: Id,
}

impl Checker<'_> {
    /// The physical check: every object/array value, root at depth 1.
    fn physical_depth(&self) -> std::result::Result<(), Fault> {
        let doc = self.doc;
        if !matches!(doc.node(self.root), Node::Obj(_) | Node::Arr(_)) {
            return Ok(());
        }
        let mut visited = vec![0u8; doc.nodes.len()];
        let mut pending = vec![(self.root, 1usize)];
        let container = |id: &Id| matches!(doc.node(*id), Node::Obj(_) | Node::Arr(_));
        while let Some((node, depth)) = pending.pop() {
            if depth > MAX_DEPTH {
                return Err(depth_fault(node));
            }
            if usize::from(visited[node]) >= depth {
                continue;
            }
            visited[node] = depth as u8;
            match doc.node(node) {
                Node::Obj(map) => pending.extend(
                    map.values()
                        .filter(|c| container(c))
                        .map(|&c| (c, depth + 1)),
                ),
                Node::Arr(items) => pending.extend(
                    items
                        .iter()
                        .filter(|c| container(c))
                        .map(|&c| (c, depth + 1)),
                ),
                _ => {}
            }
        }
        Ok(())
    }

    fn unresolved(&self, node: Id, reference: &str) -> Fault {
        fault_kw(
            StrictReason::UnresolvedRef,
            node,
            "$ref",
            format!("Cannot convert unresolved or external JSON schema reference `{reference}` to strict mode. Use a local reference or disable strict mode."),
        )
    }

    fn non_string_ref(&self, node: Id) -> Fault {
        fault_kw(
            StrictReason::NonStringRef,
            node,
            "$ref",
            "Cannot convert a JSON schema with a non-string `$ref` to strict mode.".into(),
        )
    }

    fn invalid_any_of(&self, node: Id) -> Fault {
        fault_kw(
            StrictReason::InvalidAnyOf,
            node,
            "anyOf",
            "Cannot convert a JSON schema with an invalid `anyOf` to strict mode.".into(),
        )
    }

    /// The provider-compatibility walk.
    fn provider(
        &self,
        node: Id,
        state: &mut Traversal,
        depth: usize,
    ) -> std::result::Result<(), Fault> {
        let doc = self.doc;
        match doc.node(node) {
            Node::Bool(_) => {
                return if depth > MAX_DEPTH { Err(depth_fault(node)) } else { Ok(()) };
            }
            Node::Obj(_) => {}
            _ => {
                return Err(fault(
                    StrictReason::NonSchemaNode,
                    node,
                    "Cannot convert a JSON schema containing a non-boolean, non-object schema node to strict mode. Replace the invalid node with a JSON schema object or boolean, or disable strict mode.",
                ))
            }
        }
        if !state.enter(node, depth)? {
            return Ok(());
        }
        let keys = Keys::scan(doc, node);
        if node != self.root && keys.id {
            return Err(fault_kw(
                StrictReason::NestedId,
                node,
                "$id",
                "Cannot convert a JSON schema with a nested `$id` resource to strict mode because local references are resolved only within the root resource. Remove the nested `$id` or disable strict mode.".into(),
            ));
        }
        if let Some(keyword) = keys.unsupported.map(|i| UNSUPPORTED_KEYWORDS[i]) {
            return Err(fault_kw(
                StrictReason::UnsupportedKeyword,
                node,
                keyword,
                format!("Cannot convert a JSON schema using unsupported keyword `{keyword}` to strict mode. Remove the keyword or disable strict mode."),
            ));
        }
        if let Some(r) = keys.reference {
            let Some(reference) = doc.as_str(r) else {
                return Err(self.non_string_ref(node));
            };
            let Some(target) = resolve_ref(doc, self.root, reference) else {
                return Err(self.unresolved(node, reference));
            };
            self.provider(target, state, depth + 1)?;
        }
        if let Some(any_of) = keys.any_of {
            match doc.arr(any_of) {
                Some(branches) if !branches.is_empty() => {
                    for &branch in branches {
                        self.provider(branch, state, depth + 1)?;
                    }
                }
                _ => return Err(self.invalid_any_of(node)),
            }
        }
        for (_, property) in entries(doc, keys.properties) {
            self.provider(property, state, depth + 1)?;
        }
        self.each_item(keys.items, |item| self.provider(item, state, depth + 1))?;
        if let Some(additional) = keys.additional {
            self.provider(additional, state, depth + 1)?;
        }
        for definitions in keys.definitions() {
            for (_, definition) in entries(doc, definitions) {
                self.provider(definition, state, depth + 1)?;
            }
        }
        state.leave(node);
        Ok(())
    }

    /// Calls `f` for each `items` entry (array form) or the single `items` (any other defined
    /// value).
    fn each_item(
        &self,
        items: Option<Id>,
        mut f: impl FnMut(Id) -> std::result::Result<(), Fault>,
    ) -> std::result::Result<(), Fault> {
        let Some(items) = items.filter(|&i| !matches!(self.doc.node(i), Node::Undefined)) else {
            return Ok(());
        };
        match self.doc.arr(items) {
            Some(entries) => entries.clone().into_iter().try_for_each(&mut f),
            None => f(items),
        }
    }

    /// The normalization-safety walk.
    fn safety(
        &self,
        node: Id,
        state: &mut Traversal,
        unambiguous: bool,
        reject_open: bool,
        depth: usize,
    ) -> std::result::Result<(), Fault> {
        let doc = self.doc;
        if matches!(doc.node(node), Node::Bool(_)) {
            return if depth > MAX_DEPTH {
                Err(depth_fault(node))
            } else {
                Ok(())
            };
        }
        if !doc.is_record(node) || !state.enter(node, depth)? {
            return Ok(());
        }
        let keys = Keys::scan(doc, node);
        if let Some(r) = keys.reference {
            let Some(reference) = doc.as_str(r) else {
                return Err(self.non_string_ref(node));
            };
            if let Some(sibling) = keys.ref_sibling {
                return Err(fault_kw(
                    StrictReason::RefSibling,
                    node,
                    sibling,
                    format!("Cannot convert a JSON schema combining `$ref` with sibling keyword `{sibling}` to strict mode. Move the constraint into the referenced schema or disable strict mode."),
                ));
            }
            let Some(target) = resolve_ref(doc, self.root, reference) else {
                return Err(self.unresolved(node, reference));
            };
            self.safety(target, state, unambiguous, reject_open, depth + 1)?;
        }
        if let Some(any_of) = keys.any_of {
            let branches = match doc.arr(any_of) {
                Some(b) if !b.is_empty() => b,
                _ => return Err(self.invalid_any_of(node)),
            };
            if let Some(sibling) = keys.any_of_sibling {
                return Err(fault_kw(
                    StrictReason::AnyOfSibling,
                    node,
                    sibling,
                    format!("Cannot convert a JSON schema combining `anyOf` with sibling keyword `{sibling}` to strict mode. Move the constraint into each branch or disable strict mode."),
                ));
            }
            for &branch in branches {
                self.safety(branch, state, unambiguous, reject_open, depth + 1)?;
            }
            if unambiguous {
                for &branch in branches {
                    if self.needs_null_stripping(branch, &mut Traversal::default(), depth + 1)? {
                        return Err(fault_kw(
                            StrictReason::AmbiguousAnyOf,
                            branch,
                            "anyOf",
                            "Cannot convert an `anyOf` branch containing optional object properties to strict mode because plain JSON Schema tools do not select a branch during input normalization. Use a Zod schema, make the branch properties required, or disable strict mode.".into(),
                        ));
                    }
                }
            }
        }
        let properties = keys.properties.filter(|&p| doc.is_record(p));
        let declared = properties
            .and_then(|p| doc.obj(p))
            .is_some_and(|m| !m.is_empty());
        let object_type = type_includes_object(doc, keys.ty);
        if reject_open
            && object_type
            && !is_false(doc, keys.additional)
            && (!declared || keys.additional.is_some())
        {
            return Err(fault_kw(
                StrictReason::OpenObject,
                node,
                "additionalProperties",
                "Cannot convert an open JSON schema object to strict mode without changing its accepted values. Set `additionalProperties: false`, declare at least one property, or disable strict mode.".into(),
            ));
        }
        let typeless = keys
            .ty
            .is_none_or(|t| matches!(doc.node(t), Node::Undefined));
        if properties.is_some() && (object_type || typeless) {
            let required = required_set(doc, Some(node));
            for (key, property) in entries(doc, properties) {
                self.safety(property, state, unambiguous, reject_open, depth + 1)?;
                if !required.contains(key) {
                    self.known_nullability(property, depth + 1)?;
                }
            }
        }
        self.each_item(keys.items, |item| {
            self.safety(item, state, unambiguous, reject_open, depth + 1)
        })?;
        for definitions in keys.definitions() {
            for (_, definition) in entries(doc, definitions) {
                self.safety(definition, state, unambiguous, reject_open, depth + 1)?;
            }
        }
        state.leave(node);
        Ok(())
    }

    fn known_nullability(&self, node: Id, depth: usize) -> std::result::Result<Nullability, Fault> {
        let n = self.nullability(node, &mut Vec::new(), depth)?;
        if n == Nullability::Unknown {
            return Err(fault(
                StrictReason::UnknownNullability,
                node,
                "Cannot determine whether an optional JSON schema property accepts `null`. Make its nullability explicit with a supported schema form, make the property required, or disable strict mode.",
            ));
        }
        Ok(n)
    }

    /// Nullability. `followed` holds the references already followed on this path.
    fn nullability(
        &self,
        node: Id,
        followed: &mut Vec<String>,
        depth: usize,
    ) -> std::result::Result<Nullability, Fault> {
        use Nullability::*;
        let doc = self.doc;
        if depth > MAX_DEPTH {
            return Err(depth_fault(node));
        }
        match doc.node(node) {
            Node::Bool(true) => return Ok(Allows),
            Node::Bool(false) => return Ok(Disallows),
            Node::Obj(_) => {}
            _ => return Ok(Unknown),
        }
        if let Some(t) = doc.get(node, "type") {
            match doc.node(t) {
                Node::Str(s) if s == "null" => {}
                Node::Str(_) => return Ok(Disallows),
                Node::Arr(items) => {
                    if !items.iter().any(|&i| doc.as_str(i) == Some("null")) {
                        return Ok(Disallows);
                    }
                }
                _ => return Ok(Unknown),
            }
        }
        if let Some(e) = doc.get(node, "enum") {
            match doc.arr(e) {
                None => return Ok(Unknown),
                Some(items) => {
                    if !items.iter().any(|&i| doc.is_null(i)) {
                        return Ok(Disallows);
                    }
                }
            }
        }
        if doc.get(node, "const").is_some_and(|c| !doc.is_null(c)) {
            return Ok(Disallows);
        }
        if let Some(r) = doc.get(node, "$ref") {
            let referenced = match doc.as_str(r) {
                Some(reference) if !followed.iter().any(|f| f == reference) => {
                    match resolve_ref(doc, self.root, reference) {
                        Some(target) => {
                            followed.push(reference.to_string());
                            let n = self.nullability(target, followed, depth + 1);
                            followed.pop();
                            n?
                        }
                        None => Unknown,
                    }
                }
                _ => Unknown,
            };
            if referenced != Allows {
                return Ok(referenced);
            }
        }
        if let Some(any_of) = doc.get(node, "anyOf") {
            let Some(branches) = doc.arr(any_of) else {
                return Ok(Unknown);
            };
            let mut entries = Vec::with_capacity(branches.len());
            for &branch in branches {
                entries.push(self.nullability(branch, followed, depth + 1)?);
            }
            return Ok(if entries.contains(&Allows) {
                Allows
            } else if entries.iter().all(|&e| e == Disallows) {
                Disallows
            } else {
                Unknown
            });
        }
        if !doc.has(node, "type")
            && doc
                .get(node, "properties")
                .is_some_and(|p| doc.is_record(p))
        {
            return Ok(Disallows);
        }
        Ok(Allows)
    }

    /// Whether input normalization would have to strip a synthetic `null` somewhere in `node`.
    fn needs_null_stripping(
        &self,
        node: Id,
        state: &mut Traversal,
        depth: usize,
    ) -> std::result::Result<bool, Fault> {
        let doc = self.doc;
        if !doc.is_record(node) || !state.enter(node, depth)? {
            return Ok(false);
        }
        let result = (|| {
            if let Some(reference) = doc.get(node, "$ref").and_then(|r| doc.as_str(r)) {
                return match resolve_ref(doc, self.root, reference) {
                    Some(target) => self.needs_null_stripping(target, state, depth + 1),
                    None => Ok(false),
                };
            }
            if let Some(branches) = doc.get(node, "anyOf").and_then(|a| doc.arr(a)) {
                for &branch in branches {
                    if self.needs_null_stripping(branch, state, depth + 1)? {
                        return Ok(true);
                    }
                }
                return Ok(false);
            }
            let properties = if converts_properties(doc, node) {
                doc.get(node, "properties")
            } else {
                None
            };
            let required = required_set(doc, Some(node));
            for (key, property) in entries(doc, properties) {
                if (!required.contains(key)
                    && self.known_nullability(property, depth + 1)? == Nullability::Disallows)
                    || self.needs_null_stripping(property, state, depth + 1)?
                {
                    return Ok(true);
                }
            }
            match doc.get(node, "items") {
                Some(items) => match doc.arr(items) {
                    Some(entries) => {
                        for &item in entries {
                            if self.needs_null_stripping(item, state, depth + 1)? {
                                return Ok(true);
                            }
                        }
                        Ok(false)
                    }
                    None => self.needs_null_stripping(items, state, depth + 1),
                },
                None => Ok(false),
            }
        })();
        state.leave(node);
        result
    }

    /// Finds a value JSON cannot carry anywhere in the document.
    fn not_json(&self) -> std::result::Result<(), Fault> {
        match first_opaque(self.doc, self.root) {
            Some((id, _, kind)) => Err(fault(
                StrictReason::NotJson,
                id,
                format!("Cannot convert a JSON schema containing a non-JSON value ({kind}) to strict mode. Schemas must be plain JSON data."),
            )),
            None => Ok(()),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Conversion

struct Converter<'a> {
    orig: &'a Doc,
    root: Id,
    prep: Doc,
    /// original node → prepared node (memoized by identity).
    prepared: FastMap<Id, Id>,
    /// (original `$ref` text, prepared node carrying it), in visit order.
    references: Vec<(String, Id)>,
    synthetic: FastMap<Id, Id>,
}

impl Converter<'_> {
    fn set(&mut self, node: Id, key: &str, value: Id) {
        if let Node::Obj(map) = &mut self.prep.nodes[node] {
            map.insert(key.to_string(), value);
        }
    }

    fn ensure(
        &mut self,
        entry: Id,
        original: Option<Id>,
        is_root: bool,
    ) -> std::result::Result<Id, Fault> {
        if !self.prep.is_record(entry) {
            return Ok(entry);
        }
        let orig = self.orig;
        let original = original.filter(|&o| orig.is_record(o));
        if let Some(o) = original {
            if let Some(&done) = self.prepared.get(&o) {
                return Ok(done);
            }
            self.prepared.insert(o, entry);
            if let Some(reference) = orig.get(o, "$ref").and_then(|r| orig.as_str(r)) {
                self.references.push((reference.to_string(), entry));
            }
        }
        let properties = self
            .prep
            .get(entry, "properties")
            .filter(|&p| self.prep.is_record(p));
        let has_object_keywords =
            properties.is_some() || self.prep.has(entry, "additionalProperties");
        let typeless = self.prep.get_defined(entry, "type").is_none();
        if typeless
            && has_object_keywords
            && !is_false(&self.prep, self.prep.get(entry, "additionalProperties"))
        {
            return Err(fault(
                StrictReason::TypelessOpenObject,
                original.unwrap_or(entry),
                "Cannot convert a typeless open JSON schema to strict mode. Set `type: \"object\"` with `additionalProperties: false`, or disable strict mode.",
            ));
        }
        if !is_root && typeless && properties.is_some() {
            let t = self.prep.push(Node::Str("object".into()));
            self.set(entry, "type", t);
        }
        if let (true, Some(props)) = (converts_properties(&self.prep, entry), properties) {
            let original_props = original
                .and_then(|o| orig.get(o, "properties"))
                .filter(|&p| orig.is_record(p));
            let required = required_set(orig, original);
            let checker = Checker {
                doc: orig,
                root: self.root,
            };
            let mut out = ObjMap::new();
            for (key, value) in record_entries(&self.prep, Some(props)) {
                let original_value = original_props
                    .and_then(|p| orig.get(p, &key))
                    .filter(|&v| !matches!(orig.node(v), Node::Null | Node::Undefined));
                let nullability = if required.contains(key.as_str()) {
                    None
                } else {
                    Some(match original_value {
                        Some(v) => checker.known_nullability(v, 1)?,
                        None => {
                            return Err(fault(
                                StrictReason::UnknownNullability,
                                original.unwrap_or(entry),
                                "Cannot determine whether an optional JSON schema property accepts `null`. Make its nullability explicit with a supported schema form, make the property required, or disable strict mode.",
                            ))
                        }
                    })
                };
                let normalized = self.ensure(value, original_value, false)?;
                let placed = if nullability == Some(Nullability::Disallows) {
                    self.wrap_nullable(normalized)
                } else {
                    normalized
                };
                out.insert(key, placed);
            }
            let names: Vec<Id> = out
                .keys()
                .cloned()
                .collect::<Vec<_>>()
                .into_iter()
                .map(|k| self.prep.push(Node::Str(k)))
                .collect();
            self.prep.nodes[props] = Node::Obj(out);
            let required_node = self.prep.push(Node::Arr(names));
            self.set(entry, "required", required_node);
            let no = self.prep.push(Node::Bool(false));
            self.set(entry, "additionalProperties", no);
        }
        for key in ["$defs", "definitions"] {
            let Some(nested) = self
                .prep
                .get(entry, key)
                .filter(|&n| self.prep.is_record(n))
            else {
                continue;
            };
            let original_nested = original
                .and_then(|o| orig.get(o, key))
                .filter(|&n| orig.is_record(n));
            for (name, value) in record_entries(&self.prep, Some(nested)) {
                let original_value = original_nested.and_then(|n| orig.get(n, &name));
                let done = self.ensure(value, original_value, false)?;
                self.set(nested, &name, done);
            }
        }
        if let Some(any_of) = self.prep.get(entry, "anyOf") {
            if let Some(branches) = self.prep.arr(any_of).cloned() {
                let original_branches = original
                    .and_then(|o| orig.get(o, "anyOf"))
                    .and_then(|a| orig.arr(a))
                    .cloned()
                    .unwrap_or_default();
                let mut out = Vec::with_capacity(branches.len());
                for (i, branch) in branches.into_iter().enumerate() {
                    out.push(self.ensure(branch, original_branches.get(i).copied(), false)?);
                }
                self.prep.nodes[any_of] = Node::Arr(out);
            }
        }
        if let Some(items) = self.prep.get(entry, "items") {
            let original_items = original.and_then(|o| orig.get(o, "items"));
            if let Some(entries) = self.prep.arr(items).cloned() {
                let original_entries = original_items
                    .and_then(|i| orig.arr(i))
                    .cloned()
                    .unwrap_or_default();
                let mut out = Vec::with_capacity(entries.len());
                for (i, item) in entries.into_iter().enumerate() {
                    out.push(self.ensure(item, original_entries.get(i).copied(), false)?);
                }
                self.prep.nodes[items] = Node::Arr(out);
            } else if self.prep.is_record(items) {
                let done = self.ensure(items, original_items, false)?;
                self.set(entry, "items", done);
            }
        }
        if self
            .prep
            .get(entry, "default")
            .is_some_and(|d| self.prep.is_null(d))
        {
            if let Node::Obj(map) = &mut self.prep.nodes[entry] {
                map.shift_remove("default");
            }
        }
        Ok(entry)
    }

    fn wrap_nullable(&mut self, schema: Id) -> Id {
        let description = match self.prep.node(schema) {
            Node::Bool(false) | Node::Arr(_) => None,
            Node::Obj(_) => self
                .prep
                .get(schema, "description")
                .and_then(|d| self.prep.as_str(d))
                .map(str::to_string),
            _ => return schema,
        };
        let null_type = self.prep.push(Node::Str("null".into()));
        let null_schema = self
            .prep
            .push(Node::Obj(ObjMap::from([("type".to_string(), null_type)])));
        let any_of = self.prep.push(Node::Arr(vec![schema, null_schema]));
        let mut map = ObjMap::new();
        if let Some(d) = description {
            map.insert("description".to_string(), self.prep.push(Node::Str(d)));
        }
        map.insert("anyOf".to_string(), any_of);
        let wrapper = self.prep.push(Node::Obj(map));
        self.synthetic.insert(wrapper, schema);
        wrapper
    }

    /// Hoists references whose pointer no longer lands on the prepared target.
    fn stabilize(&mut self, prepared_root: Id) -> std::result::Result<(), Fault> {
        if !self.prep.is_record(prepared_root) {
            return Ok(());
        }
        let orig = self.orig;
        let mut hoisted: FastMap<Id, String> = FastMap::default();
        let mut next = 0usize;
        let mut index = 0;
        while index < self.references.len() {
            let (reference, carrier) = self.references[index].clone();
            index += 1;
            let Some(target) = resolve_ref(orig, self.root, &reference) else {
                continue;
            };
            let prepared_target = if orig.is_record(target) {
                match self.prepared.get(&target) {
                    Some(&p) => p,
                    None => {
                        let fresh = self.prep.copy_from(orig, target);
                        self.ensure(fresh, Some(target), false)?
                    }
                }
            } else {
                self.prep.copy_from(orig, target)
            };
            let pointer_target = resolve_ref(&self.prep, prepared_root, &reference);
            let same = match pointer_target {
                Some(p) if p == prepared_target => true,
                // Primitives (boolean schemas) compare by value, as `===` does.
                Some(p) if !orig.is_record(target) => {
                    !matches!(self.prep.node(p), Node::Obj(_) | Node::Arr(_))
                        && self.prep.node(p) == self.prep.node(prepared_target)
                }
                _ => false,
            };
            if same {
                continue;
            }
            let name = match orig
                .is_record(target)
                .then(|| hoisted.get(&target).cloned())
                .flatten()
            {
                Some(name) => name,
                None => {
                    let existing = self.prep.get_defined(prepared_root, "$defs");
                    let definitions = match existing {
                        Some(d) if self.prep.is_record(d) => d,
                        Some(_) => {
                            return Err(fault_kw(
                                StrictReason::DefsNotObject,
                                self.root,
                                "$defs",
                                "Cannot stabilize local JSON schema references because the root `$defs` value is not an object. Use an object-valued `$defs` or disable strict mode.".into(),
                            ))
                        }
                        None => {
                            let d = self.prep.push(Node::Obj(ObjMap::new()));
                            self.set(prepared_root, "$defs", d);
                            d
                        }
                    };
                    let mut name;
                    loop {
                        name = format!("__openai_strict_ref_{next}");
                        next += 1;
                        if !self.prep.has(definitions, &name) {
                            break;
                        }
                    }
                    self.set(definitions, &name, prepared_target);
                    if orig.is_record(target) {
                        hoisted.insert(target, name.clone());
                    }
                    name
                }
            };
            let rewritten = self.prep.push(Node::Str(format!("#/$defs/{name}")));
            self.set(carrier, "$ref", rewritten);
        }
        Ok(())
    }
}

// ---------------------------------------------------------------------------------------------
// Entry points

/// Runs the checks and the conversion on the schema rooted at `root` of `doc`.
pub fn prepare(doc: &Doc, root: Id, mode: Mode) -> Result<Prepared> {
    prepare_inner(doc, root, mode).map_err(|f| f.locate(doc, root))
}

fn prepare_inner(doc: &Doc, root: Id, mode: Mode) -> std::result::Result<Prepared, Fault> {
    let checker = Checker { doc, root };
    checker.physical_depth()?;
    checker.provider(root, &mut Traversal::default(), 1)?;
    checker.safety(
        root,
        &mut Traversal::default(),
        mode == Mode::Prepare,
        false,
        1,
    )?;
    checker.not_json()?;
    let mut converter = Converter {
        orig: doc,
        root,
        prep: doc.clone(),
        prepared: FastMap::default(),
        references: Vec::new(),
        synthetic: FastMap::default(),
    };
    let prepared_root = converter.ensure(root, Some(root), true)?;
    converter.stabilize(prepared_root)?;
    Ok(Prepared {
        doc: converter.prep,
        root: prepared_root,
        synthetic: converter.synthetic,
    })
}

/// `assertOpenAIStrictToolSchemaPreservesOpenObjects`: the depth check and the safety walk
/// with open objects rejected.
pub fn assert_preserves_open_objects(doc: &Doc, root: Id) -> Result<()> {
    let checker = Checker { doc, root };
    let run = || -> std::result::Result<(), Fault> {
        checker.physical_depth()?;
        checker.safety(root, &mut Traversal::default(), true, true, 1)
    };
    run().map_err(|f| f.locate(doc, root))
}

/// Why `normalize_input` refused a value (a `UserError` with the `pointer` of the value).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum NormalizeError {
    #[error("Cannot normalize a value containing a non-JSON value ({kind}) at `{pointer}`. Pass plain JSON data.")]
    NotJson { kind: String, pointer: String },
    #[error("Cannot normalize a value nested deeper than {max} levels.")]
    TooDeep { max: usize },
}

impl serde::Serialize for NormalizeError {
    fn serialize<S: serde::Serializer>(
        &self,
        serializer: S,
    ) -> std::result::Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let pointer = match self {
            NormalizeError::NotJson { pointer, .. } => pointer.as_str(),
            NormalizeError::TooDeep { .. } => "",
        };
        let mut map = serializer.serialize_map(Some(1))?;
        map.serialize_entry("pointer", pointer)?;
        map.end()
    }
}

impl crate::error::Raise for NormalizeError {
    fn kind(&self) -> crate::error::Class {
        crate::error::Class::UserError
    }
}

impl Prepared {
    /// `normalizeInput(value)` : maps synthetic `null`s back to absent. Returns the id of
    /// the normalized value in `value_doc` (new nodes are appended; the input is not changed).
    pub fn normalize_input(
        &self,
        value_doc: &mut Doc,
        value: Id,
    ) -> std::result::Result<Id, NormalizeError> {
        if let Some((_, pointer, kind)) = first_opaque(value_doc, value) {
            return Err(NormalizeError::NotJson { kind, pointer });
        }
        self.normalize(Some(self.root), value_doc, value, 0)
    }

    fn resolve_chain(&self, schema: Id) -> Id {
        let doc = &self.doc;
        let mut current = schema;
        let mut followed: Vec<&str> = Vec::new();
        while let Some(reference) = doc.get(current, "$ref").and_then(|r| doc.as_str(r)) {
            if followed.contains(&reference) {
                return schema;
            }
            followed.push(reference);
            match resolve_ref(doc, self.root, reference) {
                Some(target) => current = target,
                None => return schema,
            }
        }
        current
    }

    fn normalize(
        &self,
        schema: Option<Id>,
        vd: &mut Doc,
        value: Id,
        depth: usize,
    ) -> std::result::Result<Id, NormalizeError> {
        if depth > MAX_NORMALIZE_DEPTH {
            return Err(NormalizeError::TooDeep {
                max: MAX_NORMALIZE_DEPTH,
            });
        }
        if matches!(vd.node(value), Node::Undefined) {
            return Ok(value);
        }
        let Some(mut current) = schema else {
            return Ok(value);
        };
        if let Some(&inner) = self.synthetic.get(&current) {
            if vd.is_null(value) {
                return Ok(vd.push(Node::Undefined));
            }
            current = inner;
        }
        let resolved = self.resolve_chain(current);
        if resolved != current {
            return self.normalize(Some(resolved), vd, value, depth + 1);
        }
        let doc = &self.doc;
        match vd.node(value).clone() {
            Node::Null => Ok(value),
            Node::Arr(entries) => {
                let Some(items) = doc.get(current, "items") else {
                    return Ok(value);
                };
                let out = if let Some(schemas) = doc.arr(items) {
                    let mut out = Vec::with_capacity(entries.len());
                    for (i, &entry) in entries.iter().enumerate() {
                        out.push(self.normalize(schemas.get(i).copied(), vd, entry, depth + 1)?);
                    }
                    out
                } else if matches!(doc.node(items), Node::Obj(_)) {
                    let mut out = Vec::with_capacity(entries.len());
                    for &entry in &entries {
                        out.push(self.normalize(Some(items), vd, entry, depth + 1)?);
                    }
                    out
                } else {
                    return Ok(value);
                };
                Ok(vd.push(Node::Arr(out)))
            }
            Node::Obj(map) if doc.is_record(current) && converts_properties(doc, current) => {
                let mut copy = map.clone();
                for (key, property) in entries(doc, doc.get(current, "properties")) {
                    let Some(&entry) = copy.get(key) else {
                        continue;
                    };
                    let next = self.normalize(Some(property), vd, entry, depth + 1)?;
                    if matches!(vd.node(next), Node::Undefined) {
                        copy.shift_remove(key);
                    } else {
                        copy.insert(key.to_string(), next);
                    }
                }
                Ok(vd.push(Node::Obj(copy)))
            }
            _ => Ok(value),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schema::json::{parse, to_string};

    #[test]
    fn keyword_matchers_agree_with_the_lists() {
        for (i, k) in UNSUPPORTED_KEYWORDS.iter().enumerate() {
            assert_eq!(unsupported_index(k), Some(i));
        }
        for k in REFERENCE_METADATA {
            assert!(is_reference_metadata(k));
        }
        assert_eq!(unsupported_index("type"), None);
        assert!(!is_reference_metadata("type"));
    }

    fn run(schema: &str, mode: Mode) -> std::result::Result<String, StrictError> {
        let doc = parse(schema).unwrap();
        prepare(&doc, 0, mode).map(|p| to_string(&p.doc, p.root))
    }

    fn strict(schema: &str) -> String {
        run(schema, Mode::Prepare).unwrap_or_else(|e| panic!("{schema}: {e}"))
    }

    fn refuse(schema: &str, mode: Mode) -> StrictError {
        run(schema, mode).expect_err(schema)
    }

    fn normalize(schema: &str, value: &str) -> String {
        let doc = parse(schema).unwrap();
        let prepared = prepare(&doc, 0, Mode::Prepare).unwrap();
        let mut vd = parse(value).unwrap();
        let out = prepared.normalize_input(&mut vd, 0).unwrap();
        to_string(&vd, out)
    }

    /// `{ value: $ref → d0 → d1 → … → d(n-1) → tail }`
    fn ref_chain(n: usize, tail: &str) -> String {
        let mut defs = Vec::new();
        for i in 0..n {
            let next = if i + 1 < n {
                format!(r##"{{"$ref":"#/$defs/d{}"}}"##, i + 1)
            } else {
                tail.to_string()
            };
            defs.push(format!(r#""d{i}":{next}"#));
        }
        format!(
            r##"{{"type":"object","properties":{{"value":{{"$ref":"#/$defs/d0"}}}},"required":["value"],"$defs":{{{}}}}}"##,
            defs.join(",")
        )
    }

    #[test]
    fn optional_properties_become_required_and_nullable() {
        assert_eq!(
            strict(
                r#"{"type":"object","properties":{"a":{"type":"string"},"n":{"type":"number","description":"Optional count"}},"required":["a"]}"#
            ),
            r#"{"type":"object","properties":{"a":{"type":"string"},"n":{"description":"Optional count","anyOf":[{"type":"number","description":"Optional count"},{"type":"null"}]}},"required":["a","n"],"additionalProperties":false}"#
        );
    }

    #[test]
    fn nullable_optionals_stay_unwrapped() {
        assert_eq!(
            strict(
                r#"{"type":"object","properties":{"a":{"type":["string","null"]},"b":{},"c":{"enum":["x",null]},"d":{"const":null}}}"#
            ),
            r#"{"type":"object","properties":{"a":{"type":["string","null"]},"b":{},"c":{"enum":["x",null]},"d":{"const":null}},"required":["a","b","c","d"],"additionalProperties":false}"#
        );
    }

    #[test]
    fn inferred_objects_get_a_type_but_the_root_does_not() {
        assert_eq!(
            strict(
                r#"{"properties":{"o":{"properties":{"x":{"type":"string"}},"required":["x"],"additionalProperties":false}},"required":["o"],"additionalProperties":false}"#
            ),
            r#"{"properties":{"o":{"properties":{"x":{"type":"string"}},"required":["x"],"additionalProperties":false,"type":"object"}},"required":["o"],"additionalProperties":false}"#
        );
        assert_eq!(
            strict(
                r#"{"type":"object","properties":{"o":{"properties":{},"required":[],"additionalProperties":false}}}"#
            ),
            r#"{"type":"object","properties":{"o":{"anyOf":[{"properties":{},"required":[],"additionalProperties":false,"type":"object"},{"type":"null"}]}},"required":["o"],"additionalProperties":false}"#
        );
    }

    #[test]
    fn additional_properties_schema_is_replaced_and_null_default_removed() {
        assert_eq!(
            strict(
                r#"{"type":"object","properties":{"a":{"type":"string","default":null}},"required":["a"],"additionalProperties":{"type":"number"}}"#
            ),
            r#"{"type":"object","properties":{"a":{"type":"string"}},"required":["a"],"additionalProperties":false}"#
        );
    }

    #[test]
    fn properties_under_non_object_types_are_left_alone() {
        assert_eq!(
            strict(
                r#"{"type":"object","properties":{"s":{"type":"string","properties":{"x":{"type":"string"}}}},"required":["s"]}"#
            ),
            r#"{"type":"object","properties":{"s":{"type":"string","properties":{"x":{"type":"string"}}}},"required":["s"],"additionalProperties":false}"#
        );
    }

    #[test]
    fn boolean_properties_wrap_false_only() {
        assert_eq!(
            strict(r#"{"type":"object","properties":{"t":true,"f":false}}"#),
            r#"{"type":"object","properties":{"t":true,"f":{"anyOf":[false,{"type":"null"}]}},"required":["t","f"],"additionalProperties":false}"#
        );
    }

    #[test]
    fn optional_refs_are_wrapped_and_stable_refs_kept() {
        assert_eq!(
            strict(
                r##"{"type":"object","properties":{"r":{"$ref":"#/$defs/reference"}},"$defs":{"reference":{"type":"string"}}}"##
            ),
            r##"{"type":"object","properties":{"r":{"anyOf":[{"$ref":"#/$defs/reference"},{"type":"null"}]}},"$defs":{"reference":{"type":"string"}},"required":["r"],"additionalProperties":false}"##
        );
    }

    #[test]
    fn refs_into_rewritten_locations_are_hoisted() {
        // `#/properties/a` lands on a synthetic wrapper after conversion, so it is hoisted.
        assert_eq!(
            strict(
                r##"{"type":"object","properties":{"a":{"type":"string"},"b":{"$ref":"#/properties/a"}},"required":["b"]}"##
            ),
            r##"{"type":"object","properties":{"a":{"anyOf":[{"type":"string"},{"type":"null"}]},"b":{"$ref":"#/$defs/__openai_strict_ref_0"}},"required":["a","b"],"additionalProperties":false,"$defs":{"__openai_strict_ref_0":{"type":"string"}}}"##
        );
        // An `additionalProperties` target is converted fresh; one name per target, reused.
        let out = strict(
            r##"{"type":"object","properties":{"x":{"$ref":"#/additionalProperties"},"y":{"$ref":"#/additionalProperties"}},"required":["x","y"],"additionalProperties":{"type":"object","properties":{"z":{"type":"string"}},"required":["z"]},"$defs":{"__openai_strict_ref_0":true}}"##,
        );
        assert!(
            out.contains(r##""x":{"$ref":"#/$defs/__openai_strict_ref_1"}"##),
            "{out}"
        );
        assert!(
            out.contains(r##""y":{"$ref":"#/$defs/__openai_strict_ref_1"}"##),
            "{out}"
        );
        assert!(out.contains(r#""__openai_strict_ref_1":{"type":"object","properties":{"z":{"type":"string"}},"required":["z"],"additionalProperties":false}"#), "{out}");
    }

    #[test]
    fn recursive_schemas_convert() {
        assert_eq!(
            strict(
                r##"{"type":"object","properties":{"name":{"type":"string"},"children":{"type":"array","items":{"$ref":"#"}}},"required":["name","children"]}"##
            ),
            r##"{"type":"object","properties":{"name":{"type":"string"},"children":{"type":"array","items":{"$ref":"#"}}},"required":["name","children"],"additionalProperties":false}"##
        );
    }

    #[test]
    fn unsupported_keywords_are_refused_in_order() {
        let e = refuse(
            r#"{"type":"object","properties":{"a":{"if":{},"then":{}}}}"#,
            Mode::Convert,
        );
        assert_eq!(e.reason, StrictReason::UnsupportedKeyword);
        assert_eq!(e.keyword.as_deref(), Some("if"));
        assert_eq!(e.pointer, "/properties/a");
        assert_eq!(e.message, "Cannot convert a JSON schema using unsupported keyword `if` to strict mode. Remove the keyword or disable strict mode.");
        for k in UNSUPPORTED_KEYWORDS {
            let e = refuse(&format!(r#"{{"type":"object","{k}":{{}}}}"#), Mode::Convert);
            assert_eq!(e.keyword.as_deref(), Some(k));
        }
    }

    #[test]
    fn provider_walk_visits_retained_locations() {
        let e = refuse(
            r#"{"type":"object","properties":{"s":{"type":"string","properties":{"x":{"oneOf":[]}}}}}"#,
            Mode::Convert,
        );
        assert_eq!(
            (e.reason, e.pointer.as_str()),
            (
                StrictReason::UnsupportedKeyword,
                "/properties/s/properties/x"
            )
        );
        let e = refuse(
            r#"{"type":"object","additionalProperties":{"allOf":[]}}"#,
            Mode::Convert,
        );
        assert_eq!(e.pointer, "/additionalProperties");
    }

    #[test]
    fn malformed_nodes_and_refs_are_refused() {
        let e = refuse(r#"{"type":"object","properties":{"a":5}}"#, Mode::Convert);
        assert_eq!(
            (e.reason, e.pointer.as_str()),
            (StrictReason::NonSchemaNode, "/properties/a")
        );
        assert!(e.message.starts_with(
            "Cannot convert a JSON schema containing a non-boolean, non-object schema node"
        ));
        let e = refuse(
            r#"{"type":"object","properties":{"a":{"$id":"x","type":"string"}}}"#,
            Mode::Convert,
        );
        assert_eq!(e.reason, StrictReason::NestedId);
        assert!(strict(r#"{"$id":"root","type":"object","properties":{}}"#).contains("root"));
        let e = refuse(
            r#"{"type":"object","properties":{"a":{"$ref":5}}}"#,
            Mode::Convert,
        );
        assert_eq!(
            (e.reason, e.message.as_str()),
            (
                StrictReason::NonStringRef,
                "Cannot convert a JSON schema with a non-string `$ref` to strict mode."
            )
        );
        let e = refuse(
            r##"{"type":"object","properties":{"a":{"$ref":"#/$defs/missing"}}}"##,
            Mode::Convert,
        );
        assert_eq!(e.message, "Cannot convert unresolved or external JSON schema reference `#/$defs/missing` to strict mode. Use a local reference or disable strict mode.");
        let e = refuse(
            r#"{"type":"object","properties":{"a":{"$ref":"https://example.com/s.json"}}}"#,
            Mode::Convert,
        );
        assert_eq!(e.reason, StrictReason::UnresolvedRef);
        for bad in [r#"{"anyOf":[]}"#, r#"{"anyOf":{}}"#] {
            let e = refuse(
                &format!(r#"{{"type":"object","properties":{{"a":{bad}}},"required":["a"]}}"#),
                Mode::Convert,
            );
            assert_eq!(
                e.message,
                "Cannot convert a JSON schema with an invalid `anyOf` to strict mode."
            );
        }
    }

    #[test]
    fn pointers_resolve_against_the_original_schema() {
        // `.../anyOf/0` exists only after conversion wraps `a`.
        let e = refuse(
            r##"{"type":"object","properties":{"a":{"type":"string"},"b":{"$ref":"#/properties/a/anyOf/0"}}}"##,
            Mode::Convert,
        );
        assert_eq!(e.reason, StrictReason::UnresolvedRef);
    }

    #[test]
    fn sibling_keywords_are_refused() {
        let e = refuse(
            r##"{"type":"object","properties":{"a":{"$ref":"#/$defs/x","minLength":1,"description":"ok"}},"required":["a"],"$defs":{"x":{"type":"string"}}}"##,
            Mode::Convert,
        );
        assert_eq!(e.reason, StrictReason::RefSibling);
        assert_eq!(e.message, "Cannot convert a JSON schema combining `$ref` with sibling keyword `minLength` to strict mode. Move the constraint into the referenced schema or disable strict mode.");
        let e = refuse(
            r#"{"type":"object","properties":{"a":{"anyOf":[{"type":"string"}],"type":"string"}},"required":["a"]}"#,
            Mode::Convert,
        );
        assert_eq!(e.message, "Cannot convert a JSON schema combining `anyOf` with sibling keyword `type` to strict mode. Move the constraint into each branch or disable strict mode.");
        assert!(run(r#"{"type":"object","properties":{"a":{"anyOf":[{"type":"string"}],"title":"t","description":"d"}},"required":["a"]}"#, Mode::Convert).is_ok());
    }

    #[test]
    fn ambiguous_any_of_only_in_prepare() {
        let schema = r#"{"type":"object","properties":{"a":{"anyOf":[{"type":"object","properties":{"x":{"type":"string"}}},{"type":"string"}]}},"required":["a"]}"#;
        let e = refuse(schema, Mode::Prepare);
        assert_eq!(e.reason, StrictReason::AmbiguousAnyOf);
        assert!(e
            .message
            .starts_with("Cannot convert an `anyOf` branch containing optional object properties"));
        assert!(run(schema, Mode::Convert).is_ok());
        // properties of non-object branches are ignored
        assert!(run(r#"{"type":"object","properties":{"a":{"anyOf":[{"type":"string","properties":{"x":{"type":"string"}}},{"type":"null"}]}},"required":["a"]}"#, Mode::Prepare).is_ok());
    }

    #[test]
    fn unknown_nullability_is_refused() {
        let e = refuse(
            r#"{"type":"object","properties":{"a":{"type":5}}}"#,
            Mode::Convert,
        );
        assert_eq!(
            (e.reason, e.pointer.as_str()),
            (StrictReason::UnknownNullability, "/properties/a")
        );
        assert!(
            refuse(
                r#"{"type":"object","properties":{"a":{"enum":"x"}}}"#,
                Mode::Convert
            )
            .reason
                == StrictReason::UnknownNullability
        );
        assert!(refuse(r#"{"type":"object","properties":{"a":{"anyOf":[{"type":"string"},{"type":5}]}},"required":[]}"#, Mode::Convert).reason == StrictReason::UnknownNullability);
        // required properties need no nullability
        assert!(run(
            r#"{"type":"object","properties":{"a":{"type":5}},"required":["a"]}"#,
            Mode::Convert
        )
        .is_ok());
    }

    #[test]
    fn typeless_open_objects_are_refused_root_included() {
        let e = refuse(
            r#"{"properties":{"a":{"type":"string"}},"required":["a"]}"#,
            Mode::Convert,
        );
        assert_eq!(
            (e.reason, e.pointer.as_str()),
            (StrictReason::TypelessOpenObject, "")
        );
        let e = refuse(
            r#"{"type":"object","properties":{"o":{"additionalProperties":true}},"required":["o"]}"#,
            Mode::Convert,
        );
        assert_eq!(e.pointer, "/properties/o");
    }

    #[test]
    fn root_defs_must_be_an_object_to_hoist() {
        let e = refuse(
            r##"{"type":"object","properties":{"a":{"type":"string"},"b":{"$ref":"#/properties/a"}},"required":["b"],"$defs":[]}"##,
            Mode::Convert,
        );
        assert_eq!(e.reason, StrictReason::DefsNotObject);
    }

    #[test]
    fn depth_limits_match_the_reference() {
        // Figures read off the reference for this construction (its own suite nests one level
        // deeper, hence its 97/98).
        assert!(run(&ref_chain(98, r#"{"type":"string"}"#), Mode::Prepare).is_ok());
        assert!(refuse(&ref_chain(99, r#"{"type":"string"}"#), Mode::Prepare).is_depth());
        assert!(run(&ref_chain(98, r##"{"$ref":"#"}"##), Mode::Prepare).is_ok());
        assert!(refuse(&ref_chain(99, r##"{"$ref":"#"}"##), Mode::Prepare).is_depth());
        // a cycle of n definitions
        let cycle = |n: usize| {
            let defs: Vec<String> = (0..n)
                .map(|i| format!(r##""d{i}":{{"$ref":"#/$defs/d{}"}}"##, (i + 1) % n))
                .collect();
            format!(
                r##"{{"type":"object","properties":{{"value":{{"$ref":"#/$defs/d0"}}}},"required":["value"],"$defs":{{{}}}}}"##,
                defs.join(",")
            )
        };
        assert!(run(&cycle(98), Mode::Prepare).is_ok());
        assert!(refuse(&cycle(99), Mode::Prepare).is_depth());
        let many: Vec<String> = (0..100)
            .map(|i| format!(r##""d{i}":{{"$ref":"#"}}"##))
            .collect();
        assert!(run(
            &format!(
                r#"{{"type":"object","properties":{{}},"$defs":{{{}}}}}"#,
                many.join(",")
            ),
            Mode::Prepare
        )
        .is_ok());
        // physical nesting: 1000 deep objects
        let deep =
            r#"{"type":"object","properties":{"a":"#.repeat(1000) + "{}" + &"}}".repeat(1000);
        let e = refuse(&deep, Mode::Convert);
        assert!(e.is_depth());
        assert_eq!(e.message, DEPTH_MESSAGE);
        assert!(e.pointer.starts_with("/properties/a/properties/a"));
    }

    #[test]
    fn physical_depth_counts_every_value() {
        // 100 nested arrays under `examples` pass; 101 levels fail.
        let nest = |n: usize| {
            format!(
                r#"{{"type":"object","properties":{{}},"examples":{}1{}}}"#,
                "[".repeat(n),
                "]".repeat(n)
            )
        };
        assert!(run(&nest(99), Mode::Convert).is_ok());
        assert!(refuse(&nest(100), Mode::Convert).is_depth());
    }

    #[test]
    fn open_objects_check() {
        let doc = parse(r#"{"type":"object","properties":{"a":{"type":"object"}},"required":["a"],"additionalProperties":false}"#).unwrap();
        let e = assert_preserves_open_objects(&doc, 0).unwrap_err();
        assert_eq!(
            (e.reason, e.pointer.as_str()),
            (StrictReason::OpenObject, "/properties/a")
        );
        let ok =
            parse(r#"{"type":"object","properties":{"a":{"type":"string"}},"required":["a"]}"#)
                .unwrap();
        assert!(assert_preserves_open_objects(&ok, 0).is_ok());
        let explicit = parse(
            r#"{"type":"object","properties":{"a":{"type":"string"}},"additionalProperties":true}"#,
        )
        .unwrap();
        assert!(assert_preserves_open_objects(&explicit, 0).is_err());
    }

    #[test]
    fn non_json_values_are_refused_with_a_pointer() {
        let e = refuse(
            r#"{"type":"object","properties":{},"examples":[{"\u0000understudy":"function"}]}"#,
            Mode::Convert,
        );
        assert_eq!(
            (e.reason, e.pointer.as_str()),
            (StrictReason::NotJson, "/examples/0")
        );
        let e = refuse(
            r#"{"type":"object","properties":{"a":{"\u0000understudy":"undefined"}}}"#,
            Mode::Convert,
        );
        assert_eq!(e.reason, StrictReason::NonSchemaNode);
    }

    #[test]
    fn the_input_is_never_mutated() {
        let doc = parse(r##"{"type":"object","properties":{"a":{"type":"string"},"b":{"$ref":"#/properties/a"}}}"##).unwrap();
        let before = to_string(&doc, 0);
        prepare(&doc, 0, Mode::Prepare).unwrap();
        assert_eq!(to_string(&doc, 0), before);
    }

    #[test]
    fn normalize_input_maps_synthetic_nulls_back() {
        let schema = r#"{"type":"object","properties":{"a":{"type":"string"},"b":{"type":["string","null"]},"o":{"type":"object","properties":{"x":{"type":"number"}},"additionalProperties":false}}}"#;
        assert_eq!(
            normalize(schema, r#"{"a":null,"b":null,"o":{"x":null},"extra":1}"#),
            r#"{"b":null,"o":{},"extra":1}"#
        );
        assert_eq!(normalize(schema, r#"{"a":"v","o":null}"#), r#"{"a":"v"}"#);
        assert_eq!(normalize(schema, "[1]"), "[1]");
    }

    #[test]
    fn normalize_input_is_contextual_recursive_and_boolean_aware() {
        let shared = r##"{"type":"object","properties":{"requiredOwner":{"$ref":"#/$defs/req"},"optionalOwner":{"type":"object","properties":{"value":{"type":"string"}},"required":[]}},"required":["requiredOwner","optionalOwner"],"$defs":{"req":{"type":"object","properties":{"value":{"type":"string"}},"required":["value"]}}}"##;
        assert_eq!(
            normalize(
                shared,
                r#"{"requiredOwner":{"value":null},"optionalOwner":{"value":null}}"#
            ),
            r#"{"requiredOwner":{"value":null},"optionalOwner":{}}"#
        );
        let tree = r##"{"type":"object","properties":{"label":{"type":"string"},"children":{"type":"array","items":{"$ref":"#"}}},"required":["children"]}"##;
        assert_eq!(
            normalize(
                tree,
                r#"{"label":null,"children":[{"label":null,"children":[]}]}"#
            ),
            r#"{"children":[{"children":[]}]}"#
        );
        let booleans = r##"{"type":"object","properties":{"t":true,"f":false,"af":{"anyOf":[false,true]},"c":{"anyOf":[false,{"const":"value"}]}}}"##;
        assert_eq!(
            normalize(booleans, r#"{"t":null,"f":null,"af":null,"c":null}"#),
            r#"{"t":null,"af":null}"#
        );
        let tuple = r#"{"type":"object","properties":{"p":{"type":"array","items":[{"type":"object","properties":{"q":{"type":"string"}}}]}},"required":["p"]}"#;
        assert_eq!(
            normalize(tuple, r#"{"p":[{"q":null},{"q":null}]}"#),
            r#"{"p":[{},{"q":null}]}"#
        );
    }

    #[test]
    fn normalize_input_refuses_non_json_and_bounds_depth() {
        let doc = parse(r##"{"type":"object","properties":{"c":{"type":"array","items":{"$ref":"#/properties/c"}}},"required":["c"]}"##).unwrap();
        let prepared = prepare(&doc, 0, Mode::Prepare).unwrap();
        let mut vd = parse(r#"{"c":[{"\u0000understudy":"function"}]}"#).unwrap();
        assert!(
            matches!(prepared.normalize_input(&mut vd, 0), Err(NormalizeError::NotJson { ref pointer, .. }) if pointer == "/c/0")
        );
        let deep = format!(r#"{{"c":{}{}}}"#, "[".repeat(5000), "]".repeat(5000));
        let mut vd = parse(&deep).unwrap();
        assert!(matches!(
            prepared.normalize_input(&mut vd, 0),
            Err(NormalizeError::TooDeep { .. })
        ));
    }

    #[test]
    fn non_object_roots() {
        assert_eq!(strict("true"), "true");
        assert_eq!(
            refuse("5", Mode::Convert).reason,
            StrictReason::NonSchemaNode
        );
        assert_eq!(
            refuse("[]", Mode::Convert).reason,
            StrictReason::NonSchemaNode
        );
        assert_eq!(strict(r#"{"type":"string"}"#), r#"{"type":"string"}"#);
    }
}

/// The check of `ScriptedModel`'s `strictTools` option on a function tool's `parameters`:
/// OpenAI strict mode takes the schema as it is sent, so it must already be its own strict form
/// (every property required, objects closed, only keywords strict mode knows). A schema strict
/// mode cannot represent at all fails with that refusal; one the conversion would change fails
/// with `not_strict` at the first node that would change. Messages name the tool.
pub fn check_as_sent(schema: &Doc, tool: &str) -> Result<()> {
    as_sent_refusal(schema).map_err(|e| StrictError {
        message: if e.reason == StrictReason::NotStrict {
            format!("Tool \"{tool}\": OpenAI strict mode refuses its parameters as sent (\"Invalid schema for function\"): {}", e.message)
        } else {
            format!(
                "Tool \"{tool}\": OpenAI strict mode refuses its parameters: {}",
                e.message
            )
        },
        ..e
    })
}

/// [`check_as_sent`] without the tool: the refusal's message says only why.
pub fn as_sent_refusal(schema: &Doc) -> Result<()> {
    let strict = prepare(schema, schema.root(), Mode::Convert)?;
    let as_sent: serde_json::Value =
        serde_json::from_str(&crate::schema::json::to_string(schema, schema.root()))
            .unwrap_or_default();
    let strict_form: serde_json::Value =
        serde_json::from_str(&crate::schema::json::to_string(&strict.doc, strict.root))
            .unwrap_or_default();
    match crate::doubles::cassette::first_difference(&as_sent, &strict_form) {
        None => Ok(()),
        Some(d) => {
            let show = |v: &Option<serde_json::Value>| match v {
                None => "absent".to_owned(),
                Some(v) => serde_json::to_string(v).unwrap_or_default(),
            };
            const FIX: &str = "convert the schemas before the request: `providerSchemas('openai')` in an AI SDK app, `toStrictJsonSchema(schema)` otherwise.";
            let why = if let Some((at, name)) =
                optional_property(&as_sent, &strict_form, &d.pointer)
            {
                format!("property `{name}` (at `{at}`) is optional, and strict mode needs every property required (an optional one as required and nullable). Make it nullable instead of optional (Zod: `.nullable()`), or {FIX}")
            } else if let Some(object) = d
                .pointer
                .strip_suffix("/additionalProperties")
                .filter(|_| d.recorded.is_none())
            {
                format!("the object at `{}` does not say `additionalProperties: false`, which strict mode needs. Close it (Zod: `.strict()`), or {FIX}", if object.is_empty() { "/" } else { object })
            } else {
                format!(
                    "at `{}` the schema has {}, its strict form has {}. To send it as is, {FIX}",
                    if d.pointer.is_empty() {
                        "/"
                    } else {
                        &d.pointer
                    },
                    show(&d.recorded),
                    show(&d.live)
                )
            };
            Err(StrictError {
                reason: StrictReason::NotStrict,
                pointer: d.pointer.clone(),
                keyword: d
                    .pointer
                    .rsplit('/')
                    .next()
                    .filter(|k| !k.is_empty())
                    .map(str::to_owned),
                message: why,
                tool_name: None,
            })
        }
    }
}

/// The property the schema left optional where its strict form makes it required, on the way
/// to `pointer` (the first difference of the two): `(its pointer, its name)`. A difference in
/// an object's `required` names the first property only the strict form requires.
fn optional_property(
    as_sent: &serde_json::Value,
    strict: &serde_json::Value,
    pointer: &str,
) -> Option<(String, String)> {
    let names = |v: Option<&serde_json::Value>| -> Vec<String> {
        v.and_then(|r| r.get("required"))
            .and_then(serde_json::Value::as_array)
            .map(|a| {
                a.iter()
                    .filter_map(|n| n.as_str().map(str::to_owned))
                    .collect()
            })
            .unwrap_or_default()
    };
    // The tokens as the pointer writes them (the two keywords read the same escaped or not).
    let tokens: Vec<&str> = pointer.split('/').skip(1).collect();
    let mut at = String::new();
    for (i, token) in tokens.iter().enumerate() {
        let optional = match *token {
            // A difference in an object's `required`: the first name only the strict form requires.
            "required" => {
                let sent = names(as_sent.pointer(&at));
                Some(
                    names(strict.pointer(&at))
                        .into_iter()
                        .find(|n| !sent.contains(n))?,
                )
            }
            "properties" => tokens
                .get(i + 1)
                .map(|t| t.replace("~1", "/").replace("~0", "~"))
                .filter(|name| !names(as_sent.pointer(&at)).contains(name)),
            _ => None,
        };
        if let Some(name) = optional {
            let at = crate::schema::json::pointer_push(&at, "properties");
            return Some((crate::schema::json::pointer_push(&at, &name), name));
        }
        at.push('/');
        at.push_str(token);
    }
    None
}

#[cfg(test)]
mod as_sent_tests {
    use super::*;

    fn check(schema: &str) -> Result<()> {
        check_as_sent(&crate::schema::json::parse(schema).unwrap(), "weather")
    }

    #[test]
    fn strict_tools_accept_their_own_strict_form_only() {
        let strict = r#"{"type":"object","properties":{"city":{"type":"string"}},"required":["city"],"additionalProperties":false}"#;
        assert_eq!(check(strict), Ok(()));
        // Key order does not matter.
        let reordered = r#"{"additionalProperties":false,"required":["city"],"type":"object","properties":{"city":{"type":"string"}}}"#;
        assert_eq!(check(reordered), Ok(()));
        // An optional property: strict mode wants every property required.
        let optional = r#"{"type":"object","properties":{"city":{"type":"string"},"days":{"type":"integer"}},"required":["city"],"additionalProperties":false}"#;
        let e = check(optional).unwrap_err();
        assert_eq!(e.reason, StrictReason::NotStrict);
        assert!(
            e.pointer.starts_with("/properties/days") || e.pointer.starts_with("/required"),
            "{}",
            e.pointer
        );
        assert!(
            e.message
                .starts_with("Tool \"weather\": OpenAI strict mode refuses its parameters as sent"),
            "{}",
            e.message
        );
        // Said in words: which property is optional, and how to fix it.
        assert!(
            e.message
                .contains("property `days` (at `/properties/days`) is optional")
                && e.message.contains("`.nullable()`")
                && e.message
                    .contains("`providerSchemas('openai')` in an AI SDK app"),
            "{}",
            e.message
        );
        // A nested optional property is named where it is.
        let nested = r#"{"type":"object","properties":{"filter":{"type":"object","properties":{"limit":{"type":"integer"}},"required":[],"additionalProperties":false}},"required":["filter"],"additionalProperties":false}"#;
        let e = check(nested).unwrap_err();
        assert!(
            e.message.contains(
                "property `limit` (at `/properties/filter/properties/limit`) is optional"
            ),
            "{}",
            e.message
        );
        // An open object.
        let open =
            r#"{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}"#;
        let e = check(open).unwrap_err();
        assert_eq!(
            (e.reason, e.pointer.as_str()),
            (StrictReason::NotStrict, "/additionalProperties")
        );
        assert!(
            e.message
                .contains("the object at `/` does not say `additionalProperties: false`"),
            "{}",
            e.message
        );
        // A keyword strict mode cannot represent: the conversion's own refusal, named.
        let e = check(r#"{"type":"object","properties":{"a":{"allOf":[{"type":"string"}]}}}"#)
            .unwrap_err();
        assert_eq!(e.reason, StrictReason::UnsupportedKeyword);
        assert!(
            e.message
                .starts_with("Tool \"weather\": OpenAI strict mode refuses its parameters: "),
            "{}",
            e.message
        );
    }
}
