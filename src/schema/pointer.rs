//! Local `$ref` resolution and JSON Pointers for error reports.

use crate::schema::json::{pointer_push, Doc, Id, Node};

/// Where a JSON Pointer points, as messages say it: `the root`, or the pointer in backticks.
pub fn place(pointer: &str) -> String {
    if pointer.is_empty() {
        "the root".to_string()
    } else {
        format!("`{pointer}`")
    }
}

/// Resolves a local reference (`#`, `#/a/b`, URI-encoded) against `root` of `doc`, looking
/// tokens up as own properties. `None` means unresolved (external, malformed or missing).
pub fn resolve_ref(doc: &Doc, root: Id, reference: &str) -> Option<Id> {
    let rest = reference.strip_prefix('#')?;
    if rest.is_empty() {
        return Some(root);
    }
    let pointer = percent_decode(rest)?;
    let pointer = pointer.strip_prefix('/')?;
    let mut current = root;
    for raw in pointer.split('/') {
        if !escapes_valid(raw) {
            return None;
        }
        let token = raw.replace("~1", "/").replace("~0", "~");
        current = match doc.node(current) {
            Node::Obj(map) => *map.get(&token)?,
            Node::Arr(items) => *items.get(array_index(&token)?)?,
            _ => return None,
        };
    }
    Some(current)
}

/// [`resolve_ref`] over a `serde_json` document: the same rules, with array indexes as
/// `serde_json`'s pointers read them.
pub fn resolve_json_ref<'s>(
    root: &'s serde_json::Value,
    reference: &str,
) -> Option<&'s serde_json::Value> {
    let rest = reference.strip_prefix('#')?;
    if rest.is_empty() {
        return Some(root);
    }
    let pointer = percent_decode(rest)?;
    if !pointer.starts_with('/') || !pointer.split('/').all(escapes_valid) {
        return None;
    }
    root.pointer(&pointer)
}

/// Whether every `~` of a pointer token is followed by 0 or 1.
fn escapes_valid(token: &str) -> bool {
    let bytes = token.as_bytes();
    bytes
        .iter()
        .enumerate()
        .all(|(i, &b)| b != b'~' || matches!(bytes.get(i + 1), Some(b'0' | b'1')))
}

/// An array index token as JavaScript own-property lookup accepts it (canonical digits).
fn array_index(token: &str) -> Option<usize> {
    if token.is_empty()
        || (token.len() > 1 && token.starts_with('0'))
        || !token.bytes().all(|b| b.is_ascii_digit())
    {
        return None;
    }
    token.parse().ok()
}

/// `decodeURIComponent`: `None` where JavaScript throws (a bad `%` escape or invalid UTF-8).
pub fn percent_decode(text: &str) -> Option<String> {
    if !text.contains('%') {
        return Some(text.to_string());
    }
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = text.get(i + 1..i + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// Parent links of a document, to name any node by its JSON Pointer. Built only when an
/// error needs a pointer; tokens are made only for the nodes on the path asked for.
pub struct Locator<'a> {
    doc: &'a Doc,
    root: Id,
    /// (parent, position of the child in the parent) for every node reached from the root.
    parent: Vec<Option<(Id, usize)>>,
}

impl<'a> Locator<'a> {
    pub fn new(doc: &'a Doc, root: Id) -> Self {
        let mut parent = vec![None; doc.nodes.len()];
        let mut seen = vec![false; doc.nodes.len()];
        let mut stack = vec![root];
        seen[root] = true;
        while let Some(id) = stack.pop() {
            let children: &mut dyn Iterator<Item = Id> = match doc.node(id) {
                Node::Obj(map) => &mut map.values().copied(),
                Node::Arr(items) => &mut items.iter().copied(),
                _ => continue,
            };
            for (position, child) in children.enumerate() {
                if !seen[child] {
                    seen[child] = true;
                    parent[child] = Some((id, position));
                    stack.push(child);
                }
            }
        }
        Locator { doc, root, parent }
    }

    /// Whether `id` is the root or lies under it.
    pub fn reaches(&self, id: Id) -> bool {
        self.parent.get(id).is_some_and(Option::is_some) || self.root == id
    }

    /// The JSON Pointer of `id` (`""` for the root or a node outside the tree).
    pub fn pointer(&self, id: Id) -> String {
        let mut tokens = Vec::new();
        let mut current = id;
        while let Some(Some((parent, position))) = self.parent.get(current) {
            tokens.push(match self.doc.node(*parent) {
                Node::Obj(map) => map
                    .iter()
                    .nth(*position)
                    .map(|(k, _)| k.clone())
                    .unwrap_or_default(),
                _ => position.to_string(),
            });
            current = *parent;
        }
        tokens
            .iter()
            .rev()
            .fold(String::new(), |acc, t| pointer_push(&acc, t))
    }
}

/// The first value JSON cannot carry (in document order) under `root`, as `(pointer, kind)`.
/// Tree links are built only when the document holds such a value at all.
pub fn first_opaque(doc: &Doc, root: Id) -> Option<(Id, String, String)> {
    if !doc.nodes.iter().any(|n| matches!(n, Node::Opaque(_))) {
        return None;
    }
    let locator = Locator::new(doc, root);
    doc.nodes
        .iter()
        .enumerate()
        .find_map(|(id, node)| match node {
            Node::Opaque(kind) if locator.reaches(id) => {
                Some((id, locator.pointer(id), kind.clone()))
            }
            _ => None,
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schema::json::parse;

    fn doc() -> Doc {
        parse(r#"{"$defs":{"a/b":{"type":"string"},"m~n":true,"group":{"x":1}},"items":[{"k":2}]}"#)
            .unwrap()
    }

    #[test]
    fn resolves_root_and_escaped_tokens() {
        let d = doc();
        assert_eq!(resolve_ref(&d, 0, "#"), Some(0));
        let ab = resolve_ref(&d, 0, "#/$defs/a~1b").unwrap();
        assert_eq!(
            d.get_defined(ab, "type").and_then(|t| d.as_str(t)),
            Some("string")
        );
        assert!(resolve_ref(&d, 0, "#/$defs/m~0n").is_some());
        assert!(resolve_ref(&d, 0, "#/items/0/k").is_some());
    }

    #[test]
    fn decodes_before_splitting() {
        let d = doc();
        assert_eq!(
            resolve_ref(&d, 0, "#%2F$defs%2Fgroup"),
            resolve_ref(&d, 0, "#/$defs/group")
        );
    }

    #[test]
    fn rejects_what_javascript_rejects() {
        let d = doc();
        for bad in [
            "http://x/y#/a",
            "#$defs",
            "#/$defs/m~2n",
            "#/$defs/m~",
            "#/nope",
            "#/items/01",
            "#/items/1",
            "#/$defs/%zz",
            "#/%C0",
        ] {
            assert_eq!(resolve_ref(&d, 0, bad), None, "{bad}");
        }
    }

    #[test]
    fn locator_names_nodes() {
        let d = doc();
        let ab = resolve_ref(&d, 0, "#/$defs/a~1b").unwrap();
        assert_eq!(Locator::new(&d, 0).pointer(ab), "/$defs/a~1b");
        assert_eq!(Locator::new(&d, 0).pointer(0), "");
    }
}
