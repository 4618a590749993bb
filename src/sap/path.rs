//! JSON Pointers into a reply's value, as alignment and the scanner name them.

use crate::schema::json::push_token;

/// A JSON Pointer built lazily: a chain of segments on the stack, turned into text only when a
/// fix or a mismatch names it.
#[derive(Clone, Copy)]
pub enum Seg<'a> {
    Key(&'a str),
    Index(usize),
}

impl Seg<'_> {
    /// Appends `/` and the segment, escaped, to a JSON Pointer (the scanner's path too).
    pub fn push_to(&self, pointer: &mut String) {
        match self {
            Seg::Key(k) => push_token(pointer, k),
            Seg::Index(i) => {
                use std::fmt::Write;
                let _ = write!(pointer, "/{i}");
            }
        }
    }
}

#[derive(Clone, Copy)]
pub struct Path<'a> {
    parent: Option<&'a Path<'a>>,
    seg: Option<Seg<'a>>,
}

impl<'a> Path<'a> {
    pub const ROOT: Path<'static> = Path {
        parent: None,
        seg: None,
    };

    pub fn child(&'a self, seg: Seg<'a>) -> Path<'a> {
        Path {
            parent: Some(self),
            seg: Some(seg),
        }
    }

    pub fn to_pointer(&self) -> String {
        let mut segs = Vec::new();
        let mut at = Some(self);
        while let Some(p) = at {
            if let Some(seg) = p.seg {
                segs.push(seg);
            }
            at = p.parent;
        }
        let mut out = String::new();
        for seg in segs.iter().rev() {
            seg.push_to(&mut out);
        }
        out
    }
}
