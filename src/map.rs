//! The object map of the JSON arena: insertion-ordered, with `Vec` storage and linear search
//! for the small objects schemas are made of, and a hash index once an object grows past
//! `INDEX_FROM` keys (so a 10k-key `properties` stays linear, not quadratic).

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// Objects with at least this many keys get a hash index.
const INDEX_FROM: usize = 12;

/// FNV-1a: fast on the short keys of schemas; the engine hashes no untrusted data where
/// flooding would matter more than the input's own size.
#[derive(Default)]
pub struct Fnv(u64);

impl Hasher for Fnv {
    fn finish(&self) -> u64 {
        self.0
    }
    /// Node ids: one multiply (Fibonacci hashing) instead of eight byte steps.
    fn write_usize(&mut self, n: usize) {
        self.0 = (self.0 ^ n as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }
    fn write(&mut self, bytes: &[u8]) {
        let mut h = if self.0 == 0 {
            0xcbf2_9ce4_8422_2325
        } else {
            self.0
        };
        for &b in bytes {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
        self.0 = h;
    }
}

pub type FastMap<K, V> = HashMap<K, V, BuildHasherDefault<Fnv>>;

/// An insertion-ordered string-keyed map of node ids.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ObjMap {
    entries: Vec<(String, usize)>,
    index: Option<FastMap<String, usize>>,
}

impl ObjMap {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn with_capacity(n: usize) -> Self {
        ObjMap {
            entries: Vec::with_capacity(n),
            index: None,
        }
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    fn position(&self, key: &str) -> Option<usize> {
        match &self.index {
            Some(index) => index.get(key).copied(),
            None => self.entries.iter().position(|(k, _)| k == key),
        }
    }

    pub fn get(&self, key: &str) -> Option<&usize> {
        self.position(key).map(|i| &self.entries[i].1)
    }

    pub fn contains_key(&self, key: &str) -> bool {
        self.position(key).is_some()
    }

    /// Inserts or replaces; a replaced key keeps its position (as a JavaScript assignment does).
    pub fn insert(&mut self, key: String, value: usize) {
        if let Some(i) = self.position(&key) {
            self.entries[i].1 = value;
            return;
        }
        if let Some(index) = &mut self.index {
            index.insert(key.clone(), self.entries.len());
        }
        self.entries.push((key, value));
        if self.index.is_none() && self.entries.len() >= INDEX_FROM {
            self.reindex();
        }
    }

    /// Removes a key, keeping the order of the others.
    pub fn shift_remove(&mut self, key: &str) -> Option<usize> {
        let i = self.position(key)?;
        let (_, value) = self.entries.remove(i);
        if self.index.is_some() {
            self.reindex();
        }
        Some(value)
    }

    fn reindex(&mut self) {
        let mut index = FastMap::with_capacity_and_hasher(self.entries.len(), Default::default());
        for (i, (k, _)) in self.entries.iter().enumerate() {
            index.insert(k.clone(), i);
        }
        self.index = Some(index);
    }

    pub fn iter(&self) -> impl DoubleEndedIterator<Item = (&String, &usize)> + ExactSizeIterator {
        self.entries.iter().map(|(k, v)| (k, v))
    }

    pub fn keys(&self) -> impl Iterator<Item = &String> {
        self.entries.iter().map(|(k, _)| k)
    }

    pub fn values(&self) -> impl Iterator<Item = &usize> {
        self.entries.iter().map(|(_, v)| v)
    }
}

impl<'a> IntoIterator for &'a ObjMap {
    type Item = (&'a String, &'a usize);
    type IntoIter = std::iter::Map<
        std::slice::Iter<'a, (String, usize)>,
        fn(&'a (String, usize)) -> (&'a String, &'a usize),
    >;
    fn into_iter(self) -> Self::IntoIter {
        self.entries.iter().map(|(k, v)| (k, v))
    }
}

impl<const N: usize> From<[(String, usize); N]> for ObjMap {
    fn from(items: [(String, usize); N]) -> Self {
        let mut map = ObjMap::with_capacity(N);
        for (k, v) in items {
            map.insert(k, v);
        }
        map
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_order_replaces_in_place_and_indexes_large_maps() {
        let mut m = ObjMap::new();
        for i in 0..40 {
            m.insert(format!("k{i}"), i);
        }
        m.insert("k3".into(), 300);
        assert_eq!(m.get("k3"), Some(&300));
        assert_eq!(m.keys().nth(3).map(String::as_str), Some("k3"));
        assert_eq!(m.shift_remove("k0"), Some(0));
        assert_eq!(m.keys().next().map(String::as_str), Some("k1"));
        assert_eq!(m.get("k39"), Some(&39));
        assert!(!m.contains_key("k0"));
        assert_eq!(m.len(), 39);
        let mut small = ObjMap::from([("a".to_string(), 1), ("b".to_string(), 2)]);
        small.shift_remove("a");
        assert_eq!(
            small
                .iter()
                .map(|(k, v)| (k.as_str(), *v))
                .collect::<Vec<_>>(),
            vec![("b", 2)]
        );
    }
}
