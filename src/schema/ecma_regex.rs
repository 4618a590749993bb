//! ECMA-262 regular expressions (the `u` flag, as JSON Schema's `pattern` means them), matched
//! in bounded time: a pattern without backreferences or lookarounds runs on a Pike VM (time
//! linear in the text: every position is read once, with each state at most once); one with
//! them runs on a backtracking VM that stops after [`STEP_BUDGET`] steps and says so, instead of
//! running for hours on `^(a+)+$` and a long text.
//!
//! The Pike VM's sets of states are cached as the states of a DFA built as texts are read (a
//! lazy DFA, bounded to a few thousand states), so a pattern tested again and again, as a tool
//! schema's are, reads each character with one table lookup.
//!
//! Unicode property escapes (`\p{L}`) are classes whose members the caller's [`Classes`] answers
//! (the host's `RegExp` in wasm), one character at a time, so they keep ECMA-262's meaning
//! without tables in the module and without letting the host backtrack.

use std::cell::RefCell;
use std::fmt;

use crate::map::FastMap;

/// Steps the backtracking VM may take for one match (a step: one instruction at one position).
pub const STEP_BUDGET: u64 = 1_000_000;

/// Most instructions a compiled pattern may hold (counted repetitions are expanded).
const MAX_PROGRAM: usize = 20_000;

/// States the lazy DFA of one pattern may hold; past it, matching runs on the Pike VM.
const MAX_DFA_STATES: usize = 2_000;

/// Deepest nesting of groups the parser follows.
const MAX_NESTING: usize = 64;

/// Repetition counts above this are refused.
const MAX_COUNT: u32 = 1000;

/// The members of classes this module cannot decide alone (`\p{…}` and classes holding one),
/// by a handle [`Classes::compile`] gave out.
pub trait Classes {
    /// A handle for a class (`\p{L}`, `[\p{L}\d_]`), or the reason the host refuses it.
    fn compile(&self, source: &str) -> Result<u32, String>;
    /// Whether the class holds `c`.
    fn contains(&self, handle: u32, c: char) -> bool;
}

/// A pattern this module refuses: a syntax error under the `u` flag, or past its limits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PatternError(pub String);

impl fmt::Display for PatternError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

fn err<T>(message: impl Into<String>) -> Result<T, PatternError> {
    Err(PatternError(message.into()))
}

#[derive(Debug, Clone, PartialEq)]
enum Set {
    /// `.`: anything but a line terminator.
    Dot,
    Ranges {
        negated: bool,
        ranges: Vec<(char, char)>,
    },
    /// A class the caller's [`Classes`] decides, with its ASCII members known.
    Host { handle: u32, ascii: u128 },
}

// The escapes and line terminators of the `u` flag, shared with the simple matcher.
use super::simple_pattern::{self, is_line_terminator};

fn is_word(c: Option<char>) -> bool {
    c.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_')
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Assert {
    Start,
    End,
    WordBoundary,
    NotWordBoundary,
}

#[derive(Debug, Clone)]
enum Node {
    Empty,
    Set(usize),
    Assert(Assert),
    /// A group; `Some(i)` captures into group `i` (1-based).
    Group(Box<Node>, Option<usize>),
    Cat(Vec<Node>),
    Alt(Vec<Node>),
    Repeat {
        node: Box<Node>,
        min: u32,
        max: Option<u32>,
        greedy: bool,
    },
    Look {
        node: Box<Node>,
        ahead: bool,
        negate: bool,
    },
    BackRef(usize),
}

/// Parses ECMA-262 pattern syntax with the `u` flag into a [`Node`] tree.
struct Parser<'a, 'c> {
    chars: Vec<char>,
    pos: usize,
    sets: Vec<Set>,
    groups: usize,
    names: Vec<(String, usize)>,
    /// `\k<name>` met before its group: resolved at the end.
    pending_names: Vec<String>,
    backrefs: bool,
    lookarounds: bool,
    classes: &'a (dyn Classes + 'c),
    /// Without the `u` flag (Annex B): an unknown escape is its character, a lone `{`, `}` or
    /// `]` is literal, a class escape may stand beside `-`.
    legacy: bool,
}

enum Escape {
    Char(char),
    Class(&'static [(char, char)], bool),
    Property(String),
}

impl Parser<'_, '_> {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.pos).copied()
    }

    /// The characters up to `end`, which is consumed; `None` when the pattern ends first.
    fn until(&mut self, end: char) -> Option<String> {
        let start = self.pos;
        while self.peek().is_some_and(|c| c != end) {
            self.pos += 1;
        }
        let name: String = self.chars[start..self.pos].iter().collect();
        self.eat(end).then_some(name)
    }

    fn eat(&mut self, c: char) -> bool {
        if self.peek() == Some(c) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    fn next(&mut self) -> Result<char, PatternError> {
        let c = self
            .peek()
            .ok_or_else(|| PatternError("the pattern ends inside an escape or a group".into()))?;
        self.pos += 1;
        Ok(c)
    }

    fn hex(&mut self, digits: usize) -> Result<u32, PatternError> {
        let mut n = 0;
        for _ in 0..digits {
            let d = self
                .next()?
                .to_digit(16)
                .ok_or_else(|| PatternError("invalid escape".into()))?;
            n = n * 16 + d;
        }
        Ok(n)
    }

    fn code_point(n: u32) -> Result<char, PatternError> {
        char::from_u32(n).ok_or_else(|| PatternError("invalid Unicode escape".into()))
    }

    /// After a `\` (outside or inside a class).
    fn escape(&mut self, in_class: bool) -> Result<Escape, PatternError> {
        let c = self.next()?;
        // The escapes the simple matcher knows mean the same here.
        if let Some(known) = simple_pattern::escape(c, in_class) {
            return Ok(match known {
                simple_pattern::Escape::Char(c) => Escape::Char(c),
                simple_pattern::Escape::Class(set, negated) => Escape::Class(set, negated),
            });
        }
        Ok(match c {
            '0' if !self.peek().is_some_and(|d| d.is_ascii_digit()) => Escape::Char('\0'),
            'b' if in_class => Escape::Char('\u{8}'),
            'c' => {
                let l = self.next()?;
                if !l.is_ascii_alphabetic() {
                    return err("invalid `\\c` escape");
                }
                Escape::Char(char::from(l as u8 % 32))
            }
            'x' => Escape::Char(Self::code_point(self.hex(2)?)?),
            'u' => {
                if self.eat('{') {
                    let mut n: u32 = 0;
                    let mut digits = 0;
                    while let Some(d) = self.peek().and_then(|c| c.to_digit(16)) {
                        self.pos += 1;
                        n = n
                            .checked_mul(16)
                            .and_then(|n| n.checked_add(d))
                            .ok_or_else(|| PatternError("invalid Unicode escape".into()))?;
                        digits += 1;
                    }
                    if digits == 0 || !self.eat('}') {
                        return err("invalid Unicode escape");
                    }
                    Escape::Char(Self::code_point(n)?)
                } else {
                    let hi = self.hex(4)?;
                    // A surrogate pair written as two escapes is one code point.
                    if (0xD800..0xDC00).contains(&hi)
                        && self.chars.get(self.pos) == Some(&'\\')
                        && self.chars.get(self.pos + 1) == Some(&'u')
                    {
                        let save = self.pos;
                        self.pos += 2;
                        if let Ok(lo) = self.hex(4) {
                            if (0xDC00..0xE000).contains(&lo) {
                                return Ok(Escape::Char(Self::code_point(
                                    0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00),
                                )?));
                            }
                        }
                        self.pos = save;
                    }
                    Escape::Char(char::from_u32(hi).unwrap_or('\u{FFFD}'))
                }
            }
            'p' | 'P' => {
                if !self.eat('{') {
                    return err("invalid property escape");
                }
                let name = match self.until('}') {
                    Some(name) if !name.is_empty() => name,
                    _ => return err("invalid property escape"),
                };
                Escape::Property(format!("\\{c}{{{name}}}"))
            }
            c if self.legacy && c != 'c' => Escape::Char(c),
            _ => return err(format!("invalid escape `\\{c}`")),
        })
    }

    /// A class the host decides: its handle, with its ASCII members read once.
    fn host_set(&mut self, source: &str) -> Result<Set, PatternError> {
        let handle = self.classes.compile(source).map_err(PatternError)?;
        let mut ascii = 0u128;
        for c in 0u8..128 {
            if self.classes.contains(handle, c as char) {
                ascii |= 1 << c;
            }
        }
        Ok(Set::Host { handle, ascii })
    }

    /// After `[`.
    fn class(&mut self) -> Result<Set, PatternError> {
        let start = self.pos - 1;
        let negated = self.eat('^');
        let mut ranges: Vec<(char, char)> = Vec::new();
        let mut host = false;
        loop {
            let c = self.next()?;
            let low = match c {
                ']' => break,
                '\\' => match self.escape(true)? {
                    Escape::Char(c) => c,
                    Escape::Class(set, negated_escape) => {
                        if !self.legacy
                            && self.peek() == Some('-')
                            && self.chars.get(self.pos + 1) != Some(&']')
                        {
                            return err("a class escape cannot start a range");
                        }
                        if negated_escape {
                            host = true;
                        } else {
                            ranges.extend_from_slice(set);
                        }
                        continue;
                    }
                    Escape::Property(_) => {
                        host = true;
                        continue;
                    }
                },
                c => c,
            };
            if self.peek() == Some('-') && self.chars.get(self.pos + 1).is_some_and(|c| *c != ']') {
                self.pos += 1;
                let high = match self.next()? {
                    '\\' => match self.escape(true)? {
                        Escape::Char(c) => c,
                        _ => return err("a class escape cannot end a range"),
                    },
                    c => c,
                };
                if high < low {
                    return err("range out of order in character class");
                }
                ranges.push((low, high));
                continue;
            }
            ranges.push((low, low));
        }
        if host {
            // A class with `\p{…}` or a negated class escape: the host decides it as written.
            let source: String = self.chars[start..self.pos].iter().collect();
            return self.host_set(&source);
        }
        Ok(Set::Ranges { negated, ranges })
    }

    fn set(&mut self, set: Set) -> Node {
        self.sets.push(set);
        Node::Set(self.sets.len() - 1)
    }

    /// Whether `{n}`, `{n,}` or `{n,m}` starts here.
    fn braces_ahead(&self) -> bool {
        let mut i = self.pos + 1;
        let digits = |i: &mut usize| {
            let s = *i;
            while self.chars.get(*i).is_some_and(char::is_ascii_digit) {
                *i += 1;
            }
            *i > s
        };
        if !digits(&mut i) {
            return false;
        }
        if self.chars.get(i) == Some(&',') {
            i += 1;
            digits(&mut i);
        }
        self.chars.get(i) == Some(&'}')
    }

    fn number(&mut self) -> Option<u32> {
        let start = self.pos;
        let mut n: u32 = 0;
        while let Some(d) = self.peek().and_then(|c| c.to_digit(10)) {
            self.pos += 1;
            n = n.saturating_mul(10).saturating_add(d);
        }
        (self.pos > start).then_some(n)
    }

    fn alternation(&mut self, depth: usize) -> Result<Node, PatternError> {
        if depth > MAX_NESTING {
            return err("groups nested too deeply");
        }
        let mut branches = vec![self.sequence(depth)?];
        while self.eat('|') {
            branches.push(self.sequence(depth)?);
        }
        Ok(if branches.len() == 1 {
            branches.pop().expect("one")
        } else {
            Node::Alt(branches)
        })
    }

    fn sequence(&mut self, depth: usize) -> Result<Node, PatternError> {
        let mut items = Vec::new();
        while let Some(c) = self.peek() {
            if c == '|' || c == ')' {
                break;
            }
            self.pos += 1;
            let (atom, quantifiable) = match c {
                '^' => (Node::Assert(Assert::Start), false),
                '$' => (Node::Assert(Assert::End), false),
                '.' => (self.set(Set::Dot), true),
                '[' => {
                    let set = self.class()?;
                    (self.set(set), true)
                }
                '(' => self.group(depth)?,
                '\\' => match self.peek() {
                    Some('b') => {
                        self.pos += 1;
                        (Node::Assert(Assert::WordBoundary), false)
                    }
                    Some('B') => {
                        self.pos += 1;
                        (Node::Assert(Assert::NotWordBoundary), false)
                    }
                    Some('1'..='9') => {
                        let n = self.number().unwrap_or(0) as usize;
                        self.backrefs = true;
                        (Node::BackRef(n), true)
                    }
                    Some('k') => {
                        self.pos += 1;
                        if !self.eat('<') {
                            return err("invalid named reference");
                        }
                        let Some(name) = self.until('>') else {
                            return err("invalid named reference");
                        };
                        self.backrefs = true;
                        self.pending_names.push(name.clone());
                        // Resolved once every group is known; 0 until then.
                        let index = self
                            .names
                            .iter()
                            .find(|(n, _)| *n == name)
                            .map_or(0, |(_, i)| *i);
                        (Node::BackRef(index), true)
                    }
                    _ => match self.escape(false)? {
                        Escape::Char(c) => (
                            self.set(Set::Ranges {
                                negated: false,
                                ranges: vec![(c, c)],
                            }),
                            true,
                        ),
                        Escape::Class(ranges, negated) => (
                            self.set(Set::Ranges {
                                negated,
                                ranges: ranges.to_vec(),
                            }),
                            true,
                        ),
                        Escape::Property(source) => {
                            let set = self.host_set(&source)?;
                            (self.set(set), true)
                        }
                    },
                },
                '{' | '}' | ']' if self.legacy => (
                    self.set(Set::Ranges {
                        negated: false,
                        ranges: vec![(c, c)],
                    }),
                    true,
                ),
                '*' | '+' | '?' | '{' | '}' | ']' => {
                    return err(format!("nothing to repeat or a lone `{c}`"))
                }
                c => (
                    self.set(Set::Ranges {
                        negated: false,
                        ranges: vec![(c, c)],
                    }),
                    true,
                ),
            };
            let mut quantifier = self.peek().filter(|c| matches!(c, '*' | '+' | '?' | '{'));
            if quantifier == Some('{') && self.legacy && !self.braces_ahead() {
                // Annex B: a `{` that does not start `{n}`, `{n,}` or `{n,m}` is literal.
                quantifier = None;
            }
            let Some(q) = quantifier else {
                items.push(atom);
                continue;
            };
            if !quantifiable {
                return err("nothing to repeat");
            }
            self.pos += 1;
            let (min, max) = match q {
                '*' => (0, None),
                '+' => (1, None),
                '?' => (0, Some(1)),
                _ => {
                    let min = self
                        .number()
                        .ok_or_else(|| PatternError("incomplete quantifier".into()))?;
                    let max = if self.eat(',') {
                        if self.peek() == Some('}') {
                            None
                        } else {
                            Some(
                                self.number()
                                    .ok_or_else(|| PatternError("incomplete quantifier".into()))?,
                            )
                        }
                    } else {
                        Some(min)
                    };
                    if !self.eat('}') {
                        return err("incomplete quantifier");
                    }
                    if max.is_some_and(|m| m < min) {
                        return err("numbers out of order in quantifier");
                    }
                    if min > MAX_COUNT || max.is_some_and(|m| m > MAX_COUNT) {
                        return err(format!("a repetition count above {MAX_COUNT}"));
                    }
                    (min, max)
                }
            };
            let greedy = !self.eat('?');
            items.push(Node::Repeat {
                node: Box::new(atom),
                min,
                max,
                greedy,
            });
        }
        Ok(match items.len() {
            0 => Node::Empty,
            1 => items.pop().expect("one"),
            _ => Node::Cat(items),
        })
    }

    /// After `(`: the group, and whether a quantifier may follow it.
    fn group(&mut self, depth: usize) -> Result<(Node, bool), PatternError> {
        let rest = |p: &Self, s: &str| {
            s.chars()
                .enumerate()
                .all(|(i, c)| p.chars.get(p.pos + i) == Some(&c))
        };
        let look = [
            ("?=", true, false),
            ("?!", true, true),
            ("?<=", false, false),
            ("?<!", false, true),
        ]
        .into_iter()
        .find(|(prefix, _, _)| rest(self, prefix));
        if let Some((prefix, ahead, negate)) = look {
            self.pos += prefix.len();
            self.lookarounds = true;
            let node = self.alternation(depth + 1)?;
            if !self.eat(')') {
                return err("unterminated group");
            }
            // ECMA-262 with `u`: lookarounds are not quantifiable.
            return Ok((
                Node::Look {
                    node: Box::new(node),
                    ahead,
                    negate,
                },
                false,
            ));
        }
        let capture = if rest(self, "?:") {
            self.pos += 2;
            None
        } else if rest(self, "?<") {
            self.pos += 2;
            let name = match self.until('>') {
                Some(name) if !name.is_empty() => name,
                _ => return err("invalid group name"),
            };
            self.groups += 1;
            self.names.push((name, self.groups));
            Some(self.groups)
        } else if self.peek() == Some('?') {
            return err("invalid group");
        } else {
            self.groups += 1;
            Some(self.groups)
        };
        let node = self.alternation(depth + 1)?;
        if !self.eat(')') {
            return err("unterminated group");
        }
        Ok((Node::Group(Box::new(node), capture), true))
    }
}

/// The names of `\k<name>` references, resolved to their groups.
fn resolve_names(
    node: &mut Node,
    names: &[(String, usize)],
    pending: &mut std::slice::Iter<'_, String>,
) -> Result<(), PatternError> {
    match node {
        Node::BackRef(i) if *i == 0 => {
            let name = pending.next().cloned().unwrap_or_default();
            *i = names
                .iter()
                .find(|(n, _)| *n == name)
                .map(|(_, i)| *i)
                .ok_or_else(|| PatternError(format!("no group named `{name}`")))?;
        }
        Node::Group(n, _) | Node::Repeat { node: n, .. } | Node::Look { node: n, .. } => {
            resolve_names(n, names, pending)?
        }
        Node::Cat(ns) | Node::Alt(ns) => {
            for n in ns {
                resolve_names(n, names, pending)?;
            }
        }
        _ => {}
    }
    Ok(())
}

#[derive(Debug, Clone, Copy)]
enum Inst {
    Set(usize),
    /// Try the first, then the second.
    Split(usize, usize),
    Jmp(usize),
    Assert(Assert),
    Save(usize),
    BackRef(usize),
    /// A lookaround whose body starts at the next instruction and ends with `LookEnd`;
    /// matching resumes at `next`.
    Look {
        ahead: bool,
        negate: bool,
        next: usize,
    },
    LookEnd,
    /// Where an iteration of an unbounded loop starts (into slot `n`)...
    Mark(usize),
    /// ...and its end: an iteration that read nothing fails (ECMA-262's empty check), so a
    /// loop like `(a*)*` cannot spin in place.
    Progress(usize),
    Match,
}

struct Compiler {
    prog: Vec<Inst>,
    /// The first loop slot, and how many loops have one.
    loop_base: usize,
    loops: usize,
}

impl Compiler {
    fn emit(&mut self, inst: Inst) -> Result<usize, PatternError> {
        if self.prog.len() >= MAX_PROGRAM {
            return err(format!(
                "the pattern expands to more than {MAX_PROGRAM} instructions"
            ));
        }
        self.prog.push(inst);
        Ok(self.prog.len() - 1)
    }

    fn node(&mut self, node: &Node) -> Result<(), PatternError> {
        match node {
            Node::Empty => {}
            Node::Set(i) => {
                self.emit(Inst::Set(*i))?;
            }
            Node::Assert(a) => {
                self.emit(Inst::Assert(*a))?;
            }
            Node::BackRef(i) => {
                self.emit(Inst::BackRef(*i))?;
            }
            Node::Group(n, capture) => {
                if let Some(i) = capture {
                    self.emit(Inst::Save(2 * i))?;
                }
                self.node(n)?;
                if let Some(i) = capture {
                    self.emit(Inst::Save(2 * i + 1))?;
                }
            }
            Node::Cat(ns) => {
                for n in ns {
                    self.node(n)?;
                }
            }
            Node::Alt(ns) => {
                let mut jumps = Vec::new();
                for (k, n) in ns.iter().enumerate() {
                    if k + 1 < ns.len() {
                        let split = self.emit(Inst::Split(0, 0))?;
                        self.node(n)?;
                        jumps.push(self.emit(Inst::Jmp(0))?);
                        let next = self.prog.len();
                        self.prog[split] = Inst::Split(split + 1, next);
                    } else {
                        self.node(n)?;
                    }
                }
                let end = self.prog.len();
                for j in jumps {
                    self.prog[j] = Inst::Jmp(end);
                }
            }
            Node::Repeat {
                node,
                min,
                max,
                greedy,
            } => {
                for _ in 0..*min {
                    self.node(node)?;
                }
                match max {
                    None => {
                        // L: split body, out; mark; body; progress; jmp L
                        let slot = self.loop_base + self.loops;
                        self.loops += 1;
                        let split = self.emit(Inst::Split(0, 0))?;
                        self.emit(Inst::Mark(slot))?;
                        self.node(node)?;
                        self.emit(Inst::Progress(slot))?;
                        self.emit(Inst::Jmp(split))?;
                        let out = self.prog.len();
                        self.prog[split] = if *greedy {
                            Inst::Split(split + 1, out)
                        } else {
                            Inst::Split(out, split + 1)
                        };
                    }
                    Some(max) => {
                        let mut splits = Vec::new();
                        for _ in *min..*max {
                            splits.push(self.emit(Inst::Split(0, 0))?);
                            self.node(node)?;
                        }
                        let out = self.prog.len();
                        for s in splits {
                            self.prog[s] = if *greedy {
                                Inst::Split(s + 1, out)
                            } else {
                                Inst::Split(out, s + 1)
                            };
                        }
                    }
                }
            }
            Node::Look {
                node,
                ahead,
                negate,
            } => {
                let look = self.emit(Inst::Look {
                    ahead: *ahead,
                    negate: *negate,
                    next: 0,
                })?;
                self.node(node)?;
                self.emit(Inst::LookEnd)?;
                let next = self.prog.len();
                self.prog[look] = Inst::Look {
                    ahead: *ahead,
                    negate: *negate,
                    next,
                };
            }
        }
        Ok(())
    }
}

/// A compiled pattern.
#[derive(Debug, Clone)]
pub struct EcmaRegex {
    prog: Vec<Inst>,
    sets: Vec<Set>,
    /// Capture slots (two per group, group 0 included).
    slots: usize,
    /// Backreferences or lookarounds: the backtracking VM, with its budget.
    backtracking: bool,
    /// The lazy DFA, for a pattern whose only assertions are `^` and `$` (`None`: the Pike VM
    /// or the backtracking VM).
    dfa: Option<RefCell<Dfa>>,
}

/// A state of the lazy DFA: the instructions the Pike VM's threads wait at after a character
/// (its kernel), with what follows from it at a position inside the text.
#[derive(Debug, Clone)]
struct DfaState {
    /// The `Set` instructions alive at a position past the start and before the end (the
    /// kernel's closure, with a new thread from the first instruction: the search is
    /// unanchored).
    sets: Vec<u32>,
    /// Whether a thread reaches `Match` there.
    matches: bool,
    /// Whether a thread reaches `Match` at the end of the text.
    matches_at_end: bool,
    /// The next state for each ASCII character, once known (`UNKNOWN`).
    next: Box<[u32; 128]>,
}

const UNKNOWN: u32 = u32::MAX;

#[derive(Debug, Clone, Default)]
struct Dfa {
    states: Vec<DfaState>,
    by_kernel: FastMap<Box<[u32]>, u32>,
    /// The `Set` instructions alive at the start of a text, and whether `Match` is reached
    /// there (for a text of one character or more).
    start: Option<(Vec<u32>, bool)>,
}

/// A match the backtracking VM could not finish within [`STEP_BUDGET`] steps.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OverBudget;

impl EcmaRegex {
    /// Compiles `pattern` (ECMA-262 syntax with the `u` flag); `classes` decides `\p{…}`.
    pub fn compile(pattern: &str, classes: &dyn Classes) -> Result<EcmaRegex, PatternError> {
        Self::compile_with(pattern, classes, false)
    }

    /// [`Self::compile`], or without the `u` flag (`legacy`: the syntax Annex B allows, for a
    /// pattern only the legacy syntax accepts, such as `\_`).
    pub fn compile_with(
        pattern: &str,
        classes: &dyn Classes,
        legacy: bool,
    ) -> Result<EcmaRegex, PatternError> {
        let mut p = Parser {
            chars: pattern.chars().collect(),
            pos: 0,
            sets: Vec::new(),
            groups: 0,
            names: Vec::new(),
            pending_names: Vec::new(),
            backrefs: false,
            lookarounds: false,
            classes,
            legacy,
        };
        let mut node = p.alternation(0)?;
        if p.pos < p.chars.len() {
            return err("unmatched `)`");
        }
        if !p.pending_names.is_empty() {
            let pending = std::mem::take(&mut p.pending_names);
            resolve_names(&mut node, &p.names, &mut pending.iter())?;
        }
        check_backrefs(&node, p.groups)?;
        let mut c = Compiler {
            prog: Vec::new(),
            loop_base: 2 * (p.groups + 1),
            loops: 0,
        };
        c.node(&node)?;
        c.emit(Inst::Match)?;
        let backtracking = p.backrefs || p.lookarounds;
        let dfa = (!backtracking
            && !c.prog.iter().any(|i| {
                matches!(
                    i,
                    Inst::Assert(Assert::WordBoundary | Assert::NotWordBoundary)
                )
            }))
        .then(|| RefCell::new(Dfa::default()));
        Ok(EcmaRegex {
            prog: c.prog,
            sets: p.sets,
            slots: c.loop_base + c.loops,
            backtracking,
            dfa,
        })
    }

    /// The [`Classes`] handles the pattern holds, for the caller to release.
    pub fn host_handles(&self) -> Vec<u32> {
        self.sets
            .iter()
            .filter_map(|s| match s {
                Set::Host { handle, .. } => Some(*handle),
                _ => None,
            })
            .collect()
    }

    fn contains(&self, set: usize, c: char, classes: &dyn Classes) -> bool {
        match &self.sets[set] {
            Set::Dot => !is_line_terminator(c),
            Set::Ranges { negated, ranges } => {
                ranges.iter().any(|&(lo, hi)| lo <= c && c <= hi) != *negated
            }
            Set::Host { handle, ascii } => {
                if c.is_ascii() {
                    ascii >> (c as u32) & 1 == 1
                } else {
                    classes.contains(*handle, c)
                }
            }
        }
    }

    /// Whether the pattern matches somewhere in `text` (as `RegExp.prototype.test`), or
    /// [`OverBudget`] when a backtracking pattern needs more steps than allowed.
    pub fn is_match(&self, text: &str, classes: &dyn Classes) -> Result<bool, OverBudget> {
        if !self.backtracking {
            return Ok(self.is_match_regular(text, classes));
        }
        let chars: Vec<char> = text.chars().collect();
        {
            let mut vm = Backtracker {
                re: self,
                text: &chars,
                classes,
                steps: 0,
            };
            let mut caps = vec![usize::MAX; self.slots];
            // A pattern that starts with `^` can only match from the start.
            let last = if self.anchored() { 0 } else { chars.len() };
            for start in 0..=last {
                caps.fill(usize::MAX);
                if vm.run(0, start, &mut caps, None)?.is_some() {
                    return Ok(true);
                }
            }
            Ok(false)
        }
    }

    #[cfg(test)]
    fn is_match_pike(&self, text: &str, classes: &dyn Classes) -> bool {
        self.pike(&text.chars().collect::<Vec<_>>(), classes)
    }

    /// Whether the pattern matches somewhere in `text`, for a pattern without backreferences
    /// or lookarounds: the lazy DFA where the pattern allows it and its cache has room, else
    /// the Pike VM.
    fn is_match_regular(&self, text: &str, classes: &dyn Classes) -> bool {
        if let Some(found) = self
            .dfa
            .as_ref()
            .and_then(|dfa| dfa.try_borrow_mut().ok())
            .and_then(|mut dfa| self.run_dfa(&mut dfa, text, classes))
        {
            return found;
        }
        let chars: Vec<char> = text.chars().collect();
        self.pike(&chars, classes)
    }

    /// The lazy DFA over `text`; `None` when its cache is full.
    fn run_dfa(&self, dfa: &mut Dfa, text: &str, classes: &dyn Classes) -> Option<bool> {
        let mut chars = text.chars();
        let Some(first) = chars.next() else {
            return Some(self.closure(&[], true, true).1);
        };
        if dfa.start.is_none() {
            dfa.start = Some(self.closure(&[], true, false));
        }
        let (sets, matched) = dfa.start.as_ref()?;
        if *matched {
            return Some(true);
        }
        let kernel = self.step(sets, first, classes);
        let mut state = self.state(dfa, kernel)?;
        for c in chars {
            let s = &dfa.states[state as usize];
            if s.matches {
                return Some(true);
            }
            let cached = if c.is_ascii() {
                s.next[c as usize]
            } else {
                UNKNOWN
            };
            state = if cached != UNKNOWN {
                cached
            } else {
                let kernel = self.step(&s.sets, c, classes);
                let next = self.state(dfa, kernel)?;
                if c.is_ascii() {
                    dfa.states[state as usize].next[c as usize] = next;
                }
                next
            };
        }
        Some(dfa.states[state as usize].matches_at_end)
    }

    /// The kernel after reading `c`: the instruction after each `Set` that holds it.
    fn step(&self, sets: &[u32], c: char, classes: &dyn Classes) -> Vec<u32> {
        let mut kernel: Vec<u32> = sets
            .iter()
            .filter(|&&pc| match self.prog[pc as usize] {
                Inst::Set(set) => self.contains(set, c, classes),
                _ => false,
            })
            .map(|pc| pc + 1)
            .collect();
        kernel.sort_unstable();
        kernel.dedup();
        kernel
    }

    /// The state of `kernel`, made if new; `None` past [`MAX_DFA_STATES`].
    fn state(&self, dfa: &mut Dfa, kernel: Vec<u32>) -> Option<u32> {
        if let Some(&id) = dfa.by_kernel.get(&kernel[..]) {
            return Some(id);
        }
        if dfa.states.len() >= MAX_DFA_STATES {
            return None;
        }
        let (sets, matches) = self.closure(&kernel, false, false);
        let matches_at_end = self.closure(&kernel, false, true).1;
        let id = dfa.states.len() as u32;
        dfa.states.push(DfaState {
            sets,
            matches,
            matches_at_end,
            next: Box::new([UNKNOWN; 128]),
        });
        dfa.by_kernel.insert(kernel.into_boxed_slice(), id);
        Some(id)
    }

    /// What the threads waiting at `kernel`, and a new one from the first instruction, reach
    /// without reading: the `Set` instructions (sorted) and whether `Match` is among them,
    /// with `^` holding at the start and `$` at the end.
    fn closure(&self, kernel: &[u32], at_start: bool, at_end: bool) -> (Vec<u32>, bool) {
        let mut seen = vec![false; self.prog.len()];
        let mut stack: Vec<usize> = kernel.iter().map(|&pc| pc as usize).collect();
        stack.push(0);
        let mut sets = Vec::new();
        let mut matched = false;
        while let Some(pc) = stack.pop() {
            if std::mem::replace(&mut seen[pc], true) {
                continue;
            }
            match self.prog[pc] {
                Inst::Jmp(x) => stack.push(x),
                Inst::Split(x, y) => stack.extend([y, x]),
                Inst::Save(_) | Inst::Mark(_) | Inst::Progress(_) => stack.push(pc + 1),
                Inst::Assert(Assert::Start) if at_start => stack.push(pc + 1),
                Inst::Assert(Assert::End) if at_end => stack.push(pc + 1),
                Inst::Assert(_) => {}
                Inst::Match => matched = true,
                Inst::Set(_) => sets.push(pc as u32),
                Inst::BackRef(_) | Inst::Look { .. } | Inst::LookEnd => {}
            }
        }
        sets.sort_unstable();
        (sets, matched)
    }

    /// Whether every match must start at the text's start (the program begins with `^`).
    fn anchored(&self) -> bool {
        matches!(self.prog.first(), Some(Inst::Assert(Assert::Start)))
    }

    fn assert(a: Assert, text: &[char], at: usize) -> bool {
        match a {
            Assert::Start => at == 0,
            Assert::End => at == text.len(),
            Assert::WordBoundary | Assert::NotWordBoundary => {
                let before = at.checked_sub(1).map(|i| text[i]);
                let boundary = is_word(before) != is_word(text.get(at).copied());
                boundary == (a == Assert::WordBoundary)
            }
        }
    }

    /// The Pike VM: the set of instructions alive at each position, each at most once.
    fn pike(&self, text: &[char], classes: &dyn Classes) -> bool {
        let n = self.prog.len();
        let mut current: Vec<usize> = Vec::with_capacity(n);
        let mut next: Vec<usize> = Vec::with_capacity(n);
        let mut seen = vec![usize::MAX; n];
        let mut stack: Vec<usize> = Vec::new();
        // Adds `pc` and what it reaches without reading, at position `at` (marked `gen`).
        let add = |list: &mut Vec<usize>,
                   seen: &mut Vec<usize>,
                   stack: &mut Vec<usize>,
                   pc: usize,
                   at: usize,
                   gen: usize|
         -> bool {
            stack.push(pc);
            while let Some(pc) = stack.pop() {
                if seen[pc] == gen {
                    continue;
                }
                seen[pc] = gen;
                match self.prog[pc] {
                    Inst::Jmp(x) => stack.push(x),
                    Inst::Split(x, y) => {
                        stack.push(y);
                        stack.push(x);
                    }
                    Inst::Save(_) | Inst::Mark(_) | Inst::Progress(_) => stack.push(pc + 1),
                    Inst::Assert(a) => {
                        if Self::assert(a, text, at) {
                            stack.push(pc + 1);
                        }
                    }
                    Inst::Match => return true,
                    Inst::Set(_) => list.push(pc),
                    // Not compiled for the Pike VM.
                    Inst::BackRef(_) | Inst::Look { .. } | Inst::LookEnd => {}
                }
            }
            false
        };
        for at in 0..=text.len() {
            // An unanchored search: a new thread starts at every position. Every list entry of
            // position `at` is marked `at`, so each instruction is in it at most once.
            if add(&mut current, &mut seen, &mut stack, 0, at, at) {
                return true;
            }
            let Some(&c) = text.get(at) else { break };
            next.clear();
            for &pc in &current {
                if let Inst::Set(s) = self.prog[pc] {
                    if self.contains(s, c, classes)
                        && add(&mut next, &mut seen, &mut stack, pc + 1, at + 1, at + 1)
                    {
                        return true;
                    }
                }
            }
            std::mem::swap(&mut current, &mut next);
        }
        false
    }
}

/// Backreferences to a group the pattern does not have are a syntax error with `u`.
fn check_backrefs(node: &Node, groups: usize) -> Result<(), PatternError> {
    match node {
        Node::BackRef(i) if *i > groups => err(format!(
            "a reference to group {i}, which the pattern does not have"
        )),
        Node::Group(n, _) | Node::Repeat { node: n, .. } | Node::Look { node: n, .. } => {
            check_backrefs(n, groups)
        }
        Node::Cat(ns) | Node::Alt(ns) => ns.iter().try_for_each(|n| check_backrefs(n, groups)),
        _ => Ok(()),
    }
}

struct Backtracker<'r, 't> {
    re: &'r EcmaRegex,
    text: &'t [char],
    classes: &'r dyn Classes,
    steps: u64,
}

/// What the backtracker must undo when it returns to a choice.
enum Undo {
    /// Resume at (pc, at), restoring these capture slots first.
    Resume(usize, usize),
    Slot(usize, usize),
}

impl Backtracker<'_, '_> {
    /// Runs from `pc` at `at`; `Some(end)` on reaching `Match` (or, inside a lookaround, its
    /// `LookEnd`; with `end_at`, only at that position).
    fn run(
        &mut self,
        pc: usize,
        at: usize,
        caps: &mut [usize],
        end_at: Option<usize>,
    ) -> Result<Option<usize>, OverBudget> {
        let mut stack: Vec<Undo> = vec![Undo::Resume(pc, at)];
        while let Some(frame) = stack.pop() {
            let (mut pc, mut at) = match frame {
                Undo::Slot(slot, old) => {
                    caps[slot] = old;
                    continue;
                }
                Undo::Resume(pc, at) => (pc, at),
            };
            loop {
                self.steps += 1;
                if self.steps > STEP_BUDGET {
                    return Err(OverBudget);
                }
                match self.re.prog[pc] {
                    Inst::Set(s) => match self.text.get(at) {
                        Some(&c) if self.re.contains(s, c, self.classes) => {
                            pc += 1;
                            at += 1;
                        }
                        _ => break,
                    },
                    Inst::Jmp(x) => pc = x,
                    Inst::Split(x, y) => {
                        stack.push(Undo::Resume(y, at));
                        pc = x;
                    }
                    Inst::Assert(a) => {
                        if !EcmaRegex::assert(a, self.text, at) {
                            break;
                        }
                        pc += 1;
                    }
                    Inst::Save(slot) | Inst::Mark(slot) => {
                        stack.push(Undo::Slot(slot, caps[slot]));
                        caps[slot] = at;
                        pc += 1;
                    }
                    Inst::Progress(slot) => {
                        if caps[slot] == at {
                            break;
                        }
                        pc += 1;
                    }
                    Inst::BackRef(group) => {
                        let (s, e) = (caps[2 * group], caps[2 * group + 1]);
                        if s == usize::MAX || e == usize::MAX || e < s {
                            // An unset group matches the empty string.
                            pc += 1;
                            continue;
                        }
                        let len = e - s;
                        if at + len <= self.text.len() && self.text[s..e] == self.text[at..at + len]
                        {
                            pc += 1;
                            at += len;
                        } else {
                            break;
                        }
                    }
                    Inst::Look {
                        ahead,
                        negate,
                        next,
                    } => {
                        let found = if ahead {
                            self.run(pc + 1, at, caps, None)?.is_some()
                        } else {
                            // Lookbehind: a start at or before `at` whose body ends exactly at `at`.
                            let mut found = false;
                            for start in (0..=at).rev() {
                                if self.run(pc + 1, start, caps, Some(at))?.is_some() {
                                    found = true;
                                    break;
                                }
                            }
                            found
                        };
                        if found == negate {
                            break;
                        }
                        pc = next;
                    }
                    Inst::LookEnd | Inst::Match => {
                        if end_at.is_some_and(|e| e != at) {
                            break;
                        }
                        // Undo nothing: the captures of a successful run are kept.
                        return Ok(Some(at));
                    }
                }
            }
        }
        Ok(None)
    }
}

/// No class the module cannot decide alone: for patterns without `\p{…}`.
pub struct NoHostClasses;

impl Classes for NoHostClasses {
    fn compile(&self, _source: &str) -> Result<u32, String> {
        Err("Unicode property escapes need the host's RegExp".into())
    }
    fn contains(&self, _handle: u32, _c: char) -> bool {
        false
    }
}

#[cfg(test)]
mod tests;
