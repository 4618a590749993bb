//! `stripStrictNulls` for a Standard Schema: the reference's `stripStrictNullsForZodSchema`,
//! walked over the schema's input JSON Schema instead of the Zod object.
//!
//! Unlike `normalizeInput` of a prepared strict schema, it needs no strict conversion, so it
//! reaches into constructs strict mode refuses (tuples as `prefixItems`, records as
//! `additionalProperties` schemas). The rules, as the reference applies them:
//!
//! - a `null` for an optional property (not in `required`) whose schema does not accept `null`
//!   is removed; any other `null` stays;
//! - objects walk their `properties` (only the keys present), records their
//!   `additionalProperties` schema; arrays their `prefixItems` by position, then `items`;
//! - `anyOf` / `oneOf`: the first branch whose stripped value the branch accepts gives the
//!   value; `allOf` applies every member in turn;
//! - nothing else changes, and the input is never mutated (new nodes are appended).
//!
//! "Accepts" is a structural check (type, `const`, `enum`, `required`, closed objects, and the
//! same recursively through properties, items and the applicators): enough to tell union
//! branches apart the way a Zod union does, without loading the JSON Schema validator.

use crate::schema::json::{Doc, Id, Node};
use crate::schema::pointer::resolve_ref;
use crate::schema::strict::NormalizeError;
use crate::schema::MAX_VALUE_DEPTH;

/// Schema walks follow at most this many nested schemas (the depth limit of strict schemas).
const MAX_SCHEMA_STEPS: usize = 100;

struct Walk<'a> {
    schema: &'a Doc,
    root: Id,
}

/// Strips the strict-mode `null`s of `value` (in `values`) under the schema rooted at `root` of
/// `schema`. Returns the id of the result in `values`.
pub fn strip_nulls(
    schema: &Doc,
    root: Id,
    values: &mut Doc,
    value: Id,
) -> Result<Id, NormalizeError> {
    if let Some((_, pointer, kind)) = crate::schema::pointer::first_opaque(values, value) {
        return Err(NormalizeError::NotJson { kind, pointer });
    }
    let walk = Walk { schema, root };
    Ok(walk.strip(root, false, values, value, 0)?.unwrap_or(value))
}

impl Walk<'_> {
    /// Follows `$ref`s (local, without loops) to the schema that holds the keywords.
    fn resolve(&self, mut node: Id) -> Id {
        let doc = self.schema;
        let mut followed: Vec<&str> = Vec::new();
        while let Some(reference) = doc.get(node, "$ref").and_then(|r| doc.as_str(r)) {
            if followed.contains(&reference) || followed.len() >= MAX_SCHEMA_STEPS {
                break;
            }
            followed.push(reference);
            match resolve_ref(doc, self.root, reference) {
                Some(target) => node = target,
                None => break,
            }
        }
        node
    }

    fn members(&self, node: Id, keyword: &str) -> &[Id] {
        self.schema
            .get(node, keyword)
            .and_then(|m| self.schema.arr(m))
            .map_or(&[], Vec::as_slice)
    }

    /// The value with its strict `null`s stripped; `None` when the value itself goes (a `null`
    /// for an optional property that does not accept it).
    fn strip(
        &self,
        schema: Id,
        optional: bool,
        vd: &mut Doc,
        value: Id,
        depth: usize,
    ) -> Result<Option<Id>, NormalizeError> {
        if depth > MAX_VALUE_DEPTH {
            return Err(NormalizeError::TooDeep {
                max: MAX_VALUE_DEPTH,
            });
        }
        let doc = self.schema;
        let s = self.resolve(schema);
        match vd.node(value) {
            Node::Undefined => return Ok(None),
            Node::Null => {
                let drop = optional && !self.accepts(s, vd, value, 0);
                return Ok((!drop).then_some(value));
            }
            _ => {}
        }
        if !doc.is_record(s) {
            return Ok(Some(value));
        }
        for keyword in ["anyOf", "oneOf"] {
            for &branch in self.members(s, keyword) {
                if let Some(v) = self.strip(branch, false, vd, value, depth + 1)? {
                    if self.accepts(branch, vd, v, 0) {
                        return Ok(Some(v));
                    }
                }
            }
        }
        let mut current = value;
        for &member in self.members(s, "allOf") {
            current = self
                .strip(member, false, vd, current, depth + 1)?
                .unwrap_or(current);
        }
        match vd.node(current).clone() {
            Node::Obj(map) => {
                let properties = doc.get(s, "properties").and_then(|p| doc.obj(p));
                let extra = doc
                    .get(s, "additionalProperties")
                    .filter(|&a| doc.is_record(a));
                if properties.is_none() && extra.is_none() {
                    return Ok(Some(current));
                }
                let required = self.members(s, "required");
                let mut copy = map.clone();
                for (key, &entry) in &map {
                    let (schema, optional) = match properties.and_then(|p| p.get(key)) {
                        Some(&p) => (
                            p,
                            !required
                                .iter()
                                .any(|&r| doc.as_str(r) == Some(key.as_str())),
                        ),
                        // A record's value: Zod's JSON Schema does not say whether it is
                        // optional; a `null` its schema refuses goes, as for an optional one.
                        None => match extra {
                            Some(a) => (a, true),
                            None => continue,
                        },
                    };
                    match self.strip(schema, optional, vd, entry, depth + 1)? {
                        Some(next) => {
                            copy.insert(key.clone(), next);
                        }
                        None => {
                            copy.shift_remove(key);
                        }
                    }
                }
                Ok(Some(vd.push(Node::Obj(copy))))
            }
            Node::Arr(entries) => {
                let prefix = self.members(s, "prefixItems");
                let items = doc.get(s, "items");
                // Draft 7 tuples: `items` as an array.
                let (prefix, rest) = match items.and_then(|i| doc.arr(i)) {
                    Some(tuple) => (tuple.as_slice(), None),
                    None => (prefix, items.filter(|&i| doc.is_record(i))),
                };
                if prefix.is_empty() && rest.is_none() {
                    return Ok(Some(current));
                }
                // A tuple's positions past `minItems` are optional (`z.tuple([a.optional()])`).
                let min_items = match doc.get(s, "minItems").map(|m| doc.node(m)) {
                    Some(Node::Num(n)) => n.parse::<f64>().map_or(0, |m| m as usize),
                    _ => 0,
                };
                let mut out = Vec::with_capacity(entries.len());
                for (i, &entry) in entries.iter().enumerate() {
                    let positional = prefix.get(i).copied();
                    let optional = positional.is_some() && i >= min_items;
                    let next = match positional.or(rest) {
                        Some(item) => self.strip(item, optional, vd, entry, depth + 1)?,
                        None => Some(entry),
                    };
                    // An array keeps its length: a stripped optional position is `undefined`
                    // (as the reference's `map` leaves it), any other `null` stays.
                    out.push(match next {
                        Some(v) => v,
                        None if optional => vd.push(Node::Undefined),
                        None => entry,
                    });
                }
                Ok(Some(vd.push(Node::Arr(out))))
            }
            _ => Ok(Some(current)),
        }
    }

    /// Whether the schema structurally accepts the value (see the module notes).
    fn accepts(&self, schema: Id, vd: &Doc, value: Id, steps: usize) -> bool {
        if steps > MAX_SCHEMA_STEPS {
            return true; // too deep to tell: keep the first reading
        }
        let doc = self.schema;
        let s = self.resolve(schema);
        match doc.node(s) {
            Node::Bool(b) => return *b,
            Node::Obj(_) => {}
            _ => return true,
        }
        let v = vd.node(value);
        if let Some(t) = doc.get(s, "type") {
            let fits = |name: &str| type_fits(name, v);
            let ok = match doc.node(t) {
                Node::Str(name) => fits(name),
                Node::Arr(names) => names.iter().any(|&n| doc.as_str(n).is_some_and(fits)),
                _ => true,
            };
            if !ok {
                return false;
            }
        }
        if let Some(c) = doc.get(s, "const") {
            if !same(doc, c, vd, value) {
                return false;
            }
        }
        if let Some(options) = doc.get(s, "enum").and_then(|e| doc.arr(e)) {
            if !options.iter().any(|&o| same(doc, o, vd, value)) {
                return false;
            }
        }
        let any = |keyword| {
            let members = self.members(s, keyword);
            members.is_empty()
                || members
                    .iter()
                    .any(|&m| self.accepts(m, vd, value, steps + 1))
        };
        if !any("anyOf") || !any("oneOf") {
            return false;
        }
        if !self
            .members(s, "allOf")
            .iter()
            .all(|&m| self.accepts(m, vd, value, steps + 1))
        {
            return false;
        }
        match v {
            Node::Obj(map) => {
                let present = |key: &str| {
                    map.get(key)
                        .is_some_and(|&e| !matches!(vd.node(e), Node::Undefined))
                };
                if !self
                    .members(s, "required")
                    .iter()
                    .all(|&r| doc.as_str(r).is_some_and(present))
                {
                    return false;
                }
                let properties = doc.get(s, "properties").and_then(|p| doc.obj(p));
                let extra = doc.get(s, "additionalProperties");
                for (key, &entry) in map {
                    if matches!(vd.node(entry), Node::Undefined) {
                        continue;
                    }
                    let schema = match properties.and_then(|p| p.get(key)) {
                        Some(&p) => p,
                        None => match extra {
                            Some(a) => a,
                            None => continue,
                        },
                    };
                    if !self.accepts(schema, vd, entry, steps + 1) {
                        return false;
                    }
                }
                true
            }
            Node::Arr(entries) => {
                let prefix = self.members(s, "prefixItems");
                let items = doc.get(s, "items");
                entries.iter().enumerate().all(|(i, &entry)| {
                    match prefix
                        .get(i)
                        .copied()
                        .or(items.filter(|&i| doc.arr(i).is_none()))
                    {
                        Some(item) => self.accepts(item, vd, entry, steps + 1),
                        None => true,
                    }
                })
            }
            _ => true,
        }
    }
}

fn type_fits(name: &str, v: &Node) -> bool {
    match (name, v) {
        ("null", Node::Null) | ("boolean", Node::Bool(_)) | ("string", Node::Str(_)) => true,
        ("number", Node::Num(_)) | ("array", Node::Arr(_)) | ("object", Node::Obj(_)) => true,
        ("integer", Node::Num(n)) => n.parse::<f64>().is_ok_and(|f| f.fract() == 0.0),
        _ => false,
    }
}

/// JSON equality of a schema node and a value node (numbers by value).
fn same(a: &Doc, x: Id, b: &Doc, y: Id) -> bool {
    match (a.node(x), b.node(y)) {
        (Node::Num(m), Node::Num(n)) => m.parse::<f64>().ok() == n.parse::<f64>().ok(),
        (Node::Arr(m), Node::Arr(n)) => {
            m.len() == n.len() && m.iter().zip(n).all(|(&i, &j)| same(a, i, b, j))
        }
        (Node::Obj(m), Node::Obj(n)) => {
            m.len() == n.len()
                && m.iter()
                    .all(|(k, &i)| n.get(k).is_some_and(|&j| same(a, i, b, j)))
        }
        (p, q) => p == q,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schema::json::{parse, to_string_tagged as to_string};

    fn strip(schema: &str, value: &str) -> String {
        let s = parse(schema).unwrap();
        let mut v = parse(value).unwrap();
        let root = v.root();
        let out = strip_nulls(&s, 0, &mut v, root).unwrap();
        to_string(&v, out)
    }

    #[test]
    fn optional_tuple_positions_and_record_values_lose_their_nulls() {
        // Zod's `z.tuple([z.string().optional(), z.number().optional()])`: no `minItems`, so
        // both positions are optional and become `undefined` (the array keeps its length).
        let tuple = r#"{"type":"array","prefixItems":[{"type":"string"},{"type":"number"}],"items":false,"maxItems":2}"#;
        let undefined = crate::schema::json::TAG_TEXT;
        assert_eq!(
            strip(tuple, "[null,null]"),
            format!("[{{\"{undefined}\":\"undefined\"}},{{\"{undefined}\":\"undefined\"}}]")
        );
        // `z.tuple([z.string(), z.number().nullable()])`: `minItems` 2, the null stays.
        let required = r#"{"type":"array","prefixItems":[{"type":"string"},{"type":["number","null"]}],"minItems":2}"#;
        assert_eq!(strip(required, r#"["a",null]"#), r#"["a",null]"#);
        // `z.record(z.string(), z.string().optional())`: the null value goes.
        let record = r#"{"type":"object","propertyNames":{"type":"string"},"additionalProperties":{"type":"string"}}"#;
        assert_eq!(
            strip(record, r#"{"keep":"value","drop":null}"#),
            r#"{"keep":"value"}"#
        );
        let nullable = r#"{"type":"object","additionalProperties":{"type":["string","null"]}}"#;
        assert_eq!(strip(nullable, r#"{"a":null}"#), r#"{"a":null}"#);
    }

    // The schemas are what Zod 4's toJSONSchema(…, { io: 'input' }) writes; the expected values
    // are what the reference's stripStrictNullsForZodSchema returns for the Zod schema.
    #[test]
    fn optional_fields_lose_their_nulls_and_others_keep_them() {
        let s = r#"{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"number"},"n":{"type":["string","null"]},"r":{"type":"string"}},"required":["r"]}"#;
        assert_eq!(
            strip(s, r#"{"a":null,"b":null,"n":null,"r":null,"c":null}"#),
            r#"{"n":null,"r":null,"c":null}"#
        );
        assert_eq!(strip(s, r#"{"a":"x"}"#), r#"{"a":"x"}"#);
    }

    #[test]
    fn tuples_records_arrays_and_refs() {
        let tuple = r#"{"type":"object","properties":{"t":{"type":"array","prefixItems":[{"type":"string"},{"type":"object","properties":{"a":{"type":"string"}}}],"items":false}},"required":["t"]}"#;
        assert_eq!(
            strip(tuple, r#"{"t":["x",{"a":null}]}"#),
            r#"{"t":["x",{}]}"#
        );
        let record = r#"{"type":"object","properties":{"r":{"type":"object","propertyNames":{"type":"string"},"additionalProperties":{"type":"object","properties":{"a":{"type":"string"}}}}},"required":["r"]}"#;
        assert_eq!(
            strip(record, r#"{"r":{"k":{"a":null},"j":{"a":"y"}}}"#),
            r#"{"r":{"k":{},"j":{"a":"y"}}}"#
        );
        let array = r##"{"type":"array","items":{"$ref":"#/$defs/i"},"$defs":{"i":{"type":"object","properties":{"a":{"type":"string"}}}}}"##;
        assert_eq!(
            strip(array, r#"[{"a":null},{"a":"q"},null]"#),
            r#"[{},{"a":"q"},null]"#
        );
        let draft7 =
            r#"{"type":"array","items":[{"type":"object","properties":{"a":{"type":"string"}}}]}"#;
        assert_eq!(
            strip(draft7, r#"[{"a":null},{"a":null}]"#),
            r#"[{},{"a":null}]"#
        );
    }

    #[test]
    fn unions_take_the_first_branch_that_accepts_the_stripped_value() {
        let first = r#"{"anyOf":[{"type":"object","properties":{"a":{"type":"string"}}},{"type":"object","properties":{"b":{"type":"number"}},"required":["b"]}]}"#;
        assert_eq!(strip(first, r#"{"a":null}"#), "{}");
        let second = r#"{"anyOf":[{"type":"object","properties":{"b":{"type":"number"}},"required":["b"]},{"type":"object","properties":{"a":{"type":"string"}}}]}"#;
        assert_eq!(strip(second, r#"{"a":null}"#), "{}");
        let discriminated = r#"{"oneOf":[{"type":"object","properties":{"k":{"const":"x"},"a":{"type":"string"}},"required":["k"]},{"type":"object","properties":{"k":{"const":"y"},"a":{"type":["string","null"]}},"required":["k"]}]}"#;
        assert_eq!(
            strip(discriminated, r#"{"k":"y","a":null}"#),
            r#"{"k":"y","a":null}"#
        );
        assert_eq!(
            strip(discriminated, r#"{"k":"x","a":null}"#),
            r#"{"k":"x"}"#
        );
        let all = r#"{"allOf":[{"type":"object","properties":{"a":{"type":"string"}}},{"type":"object","properties":{"b":{"type":"string"}}}]}"#;
        assert_eq!(strip(all, r#"{"a":null,"b":null}"#), "{}");
    }

    #[test]
    fn bounded_and_non_json_refused() {
        let s = parse(r#"{"type":"object"}"#).unwrap();
        let mut deep = parse(&format!("{}{}", "[".repeat(200), "]".repeat(200))).unwrap();
        let nested = parse(r##"{"$ref":"#"}"##).unwrap();
        let root = deep.root();
        assert!(strip_nulls(&s, 0, &mut deep, root).is_ok());
        assert!(strip_nulls(&nested, 0, &mut deep, root).is_ok());
        let items = parse(r##"{"items":{"$ref":"#"}}"##).unwrap();
        assert!(matches!(
            strip_nulls(&items, 0, &mut deep, root),
            Err(NormalizeError::TooDeep { .. })
        ));
        let mut opaque = parse(r#"{"a":{"\u0000understudy":"function"}}"#).unwrap();
        let root = opaque.root();
        assert!(matches!(
            strip_nulls(&s, 0, &mut opaque, root),
            Err(NormalizeError::NotJson { .. })
        ));
    }
}
