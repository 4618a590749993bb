//! A native matcher for the simple regular expressions tool schemas carry (`^[A-Z]{2}-\d{4}$`,
//! `^\d{4}-\d{2}-\d{2}$`, `^[^@\s]+@[^@\s]+\.[a-z]{2,}$`), with exactly the meaning ECMA-262
//! gives them under the `u` flag, so that in wasm such a `pattern` is matched without crossing
//! to the host's `RegExp` (`src/wasm/validator.rs`). Anything else is `None`, and the host
//! decides.
//!
//! Accepted: an optional leading `^` and trailing `$`; a sequence of atoms, each a literal
//! character, `.`, an escape (`\d \D \w \W \s \S`, `\t \n \v \f \r`, or an escaped syntax
//! character or `/`) or a class `[…]` / `[^…]` of characters, ranges and `\d \w \s` (and the
//! escapes above, plus `\-`); each atom optionally followed by `* + ?`, `{n}`, `{n,}` or
//! `{n,m}` (a lazy `?` after it changes nothing for a yes/no answer). Not accepted: groups,
//! alternation, backreferences, lookarounds, `\b`, `\p{…}`, `\u…`, `\x…`, `\c…`, `\0`, anything
//! the `u` flag makes a syntax error, and patterns over [`MAX_STATES`] states.
//!
//! Matching is a simulation of the pattern's automaton over the text's code points, its states
//! the bits of one `u128`: linear in the text, no backtracking.

/// The most automaton states (one per count an atom can be at, plus the accepting one) a
/// pattern may need: the states are the bits of a `u128`.
pub const MAX_STATES: usize = 128;

/// Repetition counts above this are left to the host.
const MAX_COUNT: u32 = 1000;

#[derive(Debug, Clone, PartialEq)]
enum Set {
    /// `.`: anything but a line terminator.
    Dot,
    /// Inclusive code point ranges, possibly negated.
    Ranges {
        negated: bool,
        ranges: Vec<(char, char)>,
    },
}

pub(crate) const DIGIT: &[(char, char)] = &[('0', '9')];
pub(crate) const WORD: &[(char, char)] = &[('0', '9'), ('A', 'Z'), ('_', '_'), ('a', 'z')];
/// ECMA-262 `WhiteSpace` and `LineTerminator`.
pub(crate) const SPACE: &[(char, char)] = &[
    ('\t', '\r'),
    (' ', ' '),
    ('\u{a0}', '\u{a0}'),
    ('\u{1680}', '\u{1680}'),
    ('\u{2000}', '\u{200a}'),
    ('\u{2028}', '\u{2029}'),
    ('\u{202f}', '\u{202f}'),
    ('\u{205f}', '\u{205f}'),
    ('\u{3000}', '\u{3000}'),
    ('\u{feff}', '\u{feff}'),
];

pub(crate) fn is_line_terminator(c: char) -> bool {
    matches!(c, '\n' | '\r' | '\u{2028}' | '\u{2029}')
}

impl Set {
    fn contains(&self, c: char) -> bool {
        match self {
            Set::Dot => !is_line_terminator(c),
            Set::Ranges { negated, ranges } => {
                ranges.iter().any(|&(lo, hi)| lo <= c && c <= hi) != *negated
            }
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
struct Item {
    set: Set,
    /// Which ASCII characters the set holds, one bit each.
    ascii: u128,
    min: u32,
    /// `None`: unbounded.
    max: Option<u32>,
    /// The states that move one count up on a character of the set.
    step: u128,
    /// The state that stays on such a character (the last count of an unbounded item).
    stay: u128,
    /// The states counted to at least `min`: they may hand over to the next item.
    done: u128,
    /// The next item's first state (or the accepting one).
    next: u128,
}

impl Item {
    /// The counts the automaton tells apart: `0..=max`, or `0..=min` when unbounded (any count
    /// past `min` behaves as `min`).
    fn cap(&self) -> u32 {
        self.max.unwrap_or(self.min)
    }
}

/// Bits `from..=to`.
fn bits(from: usize, to: usize) -> u128 {
    let width = to - from + 1;
    let ones = if width >= 128 {
        u128::MAX
    } else {
        (1u128 << width) - 1
    };
    ones << from
}

/// A compiled simple pattern.
#[derive(Debug, Clone, PartialEq)]
pub struct SimplePattern {
    items: Vec<Item>,
    /// For each ASCII character, the states that move one count up on it and the states that
    /// stay: the union over the items whose set holds it.
    ascii: Box<[(u128, u128)]>,
    /// The state after the last item.
    accept: u128,
    anchored_start: bool,
    anchored_end: bool,
}

/// What `\x` means outside or inside a class, where it is a character or a class escape.
pub(crate) enum Escape {
    Char(char),
    Class(&'static [(char, char)], bool),
}

pub(crate) fn escape(c: char, in_class: bool) -> Option<Escape> {
    Some(match c {
        'd' => Escape::Class(DIGIT, false),
        'D' => Escape::Class(DIGIT, true),
        'w' => Escape::Class(WORD, false),
        'W' => Escape::Class(WORD, true),
        's' => Escape::Class(SPACE, false),
        'S' => Escape::Class(SPACE, true),
        't' => Escape::Char('\t'),
        'n' => Escape::Char('\n'),
        'v' => Escape::Char('\u{b}'),
        'f' => Escape::Char('\u{c}'),
        'r' => Escape::Char('\r'),
        '^' | '$' | '\\' | '.' | '*' | '+' | '?' | '(' | ')' | '[' | ']' | '{' | '}' | '|'
        | '/' => Escape::Char(c),
        '-' if in_class => Escape::Char(c),
        _ => return None,
    })
}

struct Parser<'a> {
    chars: std::iter::Peekable<std::str::Chars<'a>>,
}

impl Parser<'_> {
    fn class(&mut self) -> Option<Set> {
        let negated = self.chars.next_if_eq(&'^').is_some();
        let mut ranges: Vec<(char, char)> = Vec::new();
        loop {
            let c = self.chars.next()?;
            let low = match c {
                ']' => break,
                '\\' => match escape(self.chars.next()?, true)? {
                    Escape::Char(c) => c,
                    Escape::Class(set, false) => {
                        // A class escape cannot start a range (`[\d-z]` is a u-mode error).
                        if self.chars.peek() == Some(&'-') {
                            let mut ahead = self.chars.clone();
                            ahead.next();
                            if ahead.peek() != Some(&']') {
                                return None;
                            }
                        }
                        ranges.extend_from_slice(set);
                        continue;
                    }
                    Escape::Class(_, true) => return None,
                },
                // ECMA-262 with `u` and without `v`: `[` inside a class is a plain character,
                // but keep to the plain cases.
                '[' => return None,
                c => c,
            };
            // A range `low-high`, unless the `-` ends the class.
            if self.chars.peek() == Some(&'-') {
                let mut ahead = self.chars.clone();
                ahead.next();
                match ahead.peek() {
                    Some(']') | None => {}
                    Some(_) => {
                        self.chars.next();
                        let high = match self.chars.next()? {
                            '\\' => match escape(self.chars.next()?, true)? {
                                Escape::Char(c) => c,
                                Escape::Class(..) => return None,
                            },
                            '[' => return None,
                            c => c,
                        };
                        if high < low {
                            return None;
                        }
                        ranges.push((low, high));
                        continue;
                    }
                }
            }
            ranges.push((low, low));
        }
        ranges.sort_unstable();
        let mut merged: Vec<(char, char)> = Vec::with_capacity(ranges.len());
        for (lo, hi) in ranges {
            match merged.last_mut() {
                Some(last) if lo as u32 <= last.1 as u32 + 1 => last.1 = last.1.max(hi),
                _ => merged.push((lo, hi)),
            }
        }
        Some(Set::Ranges {
            negated,
            ranges: merged,
        })
    }

    fn number(&mut self) -> Option<u32> {
        let mut n: u32 = 0;
        let mut digits = 0;
        while let Some(d) = self.chars.peek().and_then(|c| c.to_digit(10)) {
            self.chars.next();
            n = n.checked_mul(10)?.checked_add(d)?;
            digits += 1;
        }
        (digits > 0).then_some(n)
    }

    /// `{n}`, `{n,}` or `{n,m}` after the `{`.
    fn braces(&mut self) -> Option<(u32, Option<u32>)> {
        let min = self.number()?;
        let max = if self.chars.next_if_eq(&',').is_some() {
            if self.chars.peek() == Some(&'}') {
                None
            } else {
                Some(self.number()?)
            }
        } else {
            Some(min)
        };
        if self.chars.next()? != '}' || max.is_some_and(|max| max < min) {
            return None;
        }
        if min > MAX_COUNT || max.is_some_and(|max| max > MAX_COUNT) {
            return None;
        }
        Some((min, max))
    }
}

impl SimplePattern {
    /// The pattern, if it is simple (see the module's documentation).
    pub fn compile(pattern: &str) -> Option<SimplePattern> {
        let mut p = Parser {
            chars: pattern.chars().peekable(),
        };
        let anchored_start = p.chars.next_if_eq(&'^').is_some();
        let mut anchored_end = false;
        let mut items = Vec::new();
        while let Some(c) = p.chars.next() {
            let set = match c {
                '$' if p.chars.peek().is_none() => {
                    anchored_end = true;
                    break;
                }
                '.' => Set::Dot,
                '[' => p.class()?,
                '\\' => match escape(p.chars.next()?, false)? {
                    Escape::Char(c) => Set::Ranges {
                        negated: false,
                        ranges: vec![(c, c)],
                    },
                    Escape::Class(ranges, negated) => Set::Ranges {
                        negated,
                        ranges: ranges.to_vec(),
                    },
                },
                '^' | '$' | '*' | '+' | '?' | '(' | ')' | ']' | '{' | '}' | '|' => return None,
                c => Set::Ranges {
                    negated: false,
                    ranges: vec![(c, c)],
                },
            };
            let quantifier = p.chars.next_if(|c| matches!(c, '*' | '+' | '?' | '{'));
            let (min, max) = match quantifier {
                None => (1, Some(1)),
                Some('*') => (0, None),
                Some('+') => (1, None),
                Some('?') => (0, Some(1)),
                Some(_) => p.braces()?,
            };
            if quantifier.is_some() {
                p.chars.next_if_eq(&'?'); // lazy: the same yes/no answer
            }
            items.push(item(set, min, max));
        }
        // Lay the states out: item `i` counts in bits `offset..=offset + cap`.
        let mut offset = 0usize;
        for item in &mut items {
            let cap = item.cap() as usize;
            if offset + cap + 1 >= MAX_STATES {
                return None;
            }
            let top = 1u128 << (offset + cap);
            item.step = bits(offset, offset + cap) & !top;
            item.stay = if item.max.is_none() { top } else { 0 };
            item.done = bits(offset + item.min as usize, offset + cap);
            item.next = 1u128 << (offset + cap + 1);
            offset += cap + 1;
        }
        let ascii = (0u8..128)
            .map(|c| {
                items
                    .iter()
                    .filter(|item| item.ascii >> c & 1 == 1)
                    .fold((0, 0), |(step, stay), item| {
                        (step | item.step, stay | item.stay)
                    })
            })
            .collect();
        Some(SimplePattern {
            items,
            ascii,
            accept: 1u128 << offset,
            anchored_start,
            anchored_end,
        })
    }

    /// Adds the states reachable without reading a character: an item counted to its minimum
    /// may hand over to the next one (in order, so a chain of optional items is crossed).
    fn close(&self, mut active: u128) -> u128 {
        for item in &self.items {
            if active & item.done != 0 {
                active |= item.next;
            }
        }
        active
    }

    /// Whether the pattern matches somewhere in `text`, as `RegExp.prototype.test` answers.
    pub fn is_match(&self, text: &str) -> bool {
        let start = self.close(1);
        let mut active = start;
        if active & self.accept != 0 && (!self.anchored_end || text.is_empty()) {
            return true;
        }
        for c in text.chars() {
            let mut next = if c.is_ascii() {
                let (step, stay) = self.ascii[c as usize];
                (active & step) << 1 | active & stay
            } else {
                let mut next = 0u128;
                for item in &self.items {
                    if active & (item.step | item.stay) != 0 && item.set.contains(c) {
                        next |= (active & item.step) << 1 | active & item.stay;
                    }
                }
                next
            };
            next = self.close(next);
            if !self.anchored_start {
                next |= start;
            } else if next == 0 {
                return false;
            }
            active = next;
            if active & self.accept != 0 && !self.anchored_end {
                return true;
            }
        }
        active & self.accept != 0
    }
}

/// An item of `set` counted `min..=max` (masks filled in when the states are laid out).
fn item(set: Set, min: u32, max: Option<u32>) -> Item {
    let mut ascii = 0u128;
    for c in 0u8..128 {
        if set.contains(c as char) {
            ascii |= 1 << c;
        }
    }
    Item {
        set,
        ascii,
        min,
        max,
        step: 0,
        stay: 0,
        done: 0,
        next: 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(pattern: &str, text: &str) -> bool {
        SimplePattern::compile(pattern)
            .unwrap_or_else(|| panic!("{pattern} should be simple"))
            .is_match(text)
    }

    #[test]
    fn typical_tool_patterns() {
        assert!(m(r"^[A-Z]{2}-\d{4,8}$", "AB-123456"));
        assert!(!m(r"^[A-Z]{2}-\d{4,8}$", "AB-123"));
        assert!(!m(r"^[A-Z]{2}-\d{4,8}$", "ab-1234"));
        assert!(!m(r"^[A-Z]{2}-\d{4,8}$", "AB-123456789"));
        assert!(m(r"^\d{4}-\d{2}-\d{2}$", "2026-12-02"));
        assert!(!m(r"^\d{4}-\d{2}-\d{2}$", "2026-12-0"));
        assert!(m(r"^[^@\s]+@[^@\s]+\.[a-z]{2,}$", "ada@example.com"));
        assert!(!m(r"^[^@\s]+@[^@\s]+\.[a-z]{2,}$", "ada@example"));
        assert!(!m(r"^[^@\s]+@[^@\s]+\.[a-z]{2,}$", "a da@example.com"));
        assert!(m(r"^\+?[0-9 ()-]{7,20}$", "+81 (3) 1234-5678"));
        assert!(m(r"^[a-z0-9_-]{3,16}$", "ada_l-1"));
    }

    #[test]
    fn unanchored_patterns_search() {
        assert!(m("colou?r", "the colour red"));
        assert!(m("colou?r", "color"));
        assert!(!m("colou?r", "colr"));
        assert!(m(r"\d", "abc1"));
        assert!(m("^a", "ab"));
        assert!(!m("^b", "ab"));
        assert!(m("b$", "ab"));
        assert!(!m("a$", "ab"));
        assert!(m("", "anything"));
        assert!(m("^$", ""));
        assert!(!m("^$", "x"));
        assert!(m("x*", ""));
    }

    #[test]
    fn greedy_items_hand_over() {
        // A greedy item must be able to give characters back to the next one.
        assert!(m("^a*ab$", "aaab"));
        assert!(m("^.*x.*$", "abxcd"));
        assert!(!m("^.*x.*$", "abcd"));
        assert!(m("^a{2,3}a$", "aaa"));
        assert!(!m("^a{2,3}a$", "aa"));
        assert!(m("^a+?b$", "aab"));
    }

    #[test]
    fn ecma_meanings() {
        // \d and \w are ASCII; \s is ECMA-262's whitespace; `.` stops at line terminators and
        // reads code points (the u flag).
        assert!(!m(r"^\d$", "\u{663}"));
        assert!(!m(r"^\w$", "é"));
        assert!(m(r"^\s$", "\u{a0}"));
        assert!(m(r"^\s$", "\u{feff}"));
        assert!(!m(r"^\s$", "\u{85}"));
        assert!(m(r"^\S$", "\u{85}"));
        assert!(m("^.$", "😀"));
        assert!(!m("^.$", "\n"));
        assert!(!m("^.$", "\u{2028}"));
        assert!(m(r"^[^a]$", "😀"));
        assert!(m(r"^\W$", "😀"));
        assert!(m(r"^[\w.-]+$", "a.b-c_d"));
        assert!(m(r"^[\-a]+$", "-a-"));
        assert!(m(r"^[a-]+$", "-a"));
        assert!(m(r"^\.\*\/$", ".*/"));
    }

    #[test]
    fn refused_shapes_go_to_the_host() {
        for pattern in [
            "(a)",
            "a|b",
            r"(?=x)",
            r"\1",
            r"\bword",
            r"\p{L}",
            r"\u0041",
            r"\x41",
            r"\_",
            r"\-",
            "a{",
            "a{2,1}",
            "{",
            "}",
            "]",
            "a**",
            r"[\d-z]",
            r"[\D]",
            "[[]",
            "[z-a]",
            "a{1001}",
            r"^\d{200}\d{200}$",
        ] {
            assert_eq!(SimplePattern::compile(pattern), None, "{pattern}");
        }
    }
}
