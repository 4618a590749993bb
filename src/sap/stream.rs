//! A JSON output streamed through a repairing wrapper (`repairingMiddleware` with `streamText`):
//! the text passes on as it arrives while it is plain JSON that needs no repair, so a UI renders
//! it progressively; what follows is held, and when the step ends the repaired value is written
//! as the continuation of what was already sent. Partials never contradict the final value: a
//! sent prefix is part of the final text, or the text is left as the model wrote it.
//!
//! Only a prefix that is strict JSON from its first character (after white space) and that
//! [`super::parse_partial`] reads with no fix is sent, cut where a continuation can be written:
//! after `{`, `[`, `,`, `:` or a complete value, or inside a string value after a whole
//! character. A key, a number, a literal or an escape is sent only whole.

use serde_json::Value as Json;

/// One open container of a prefix, with what comes next in it.
#[derive(Debug, Clone)]
enum Frame {
    Object { keys: Vec<String>, at: At },
    Array { count: usize, at: At },
}

/// Where a prefix stands inside its innermost container.
#[derive(Debug, Clone, PartialEq)]
enum At {
    /// Right after the opening bracket.
    Open,
    /// Right after a comma.
    Comma,
    /// After `"key":`, before its value.
    Colon(String),
    /// After a complete value (or a member).
    Value,
}

/// A strict JSON prefix read up to a safe cut: the open containers and, inside a string value,
/// what the string holds so far.
#[derive(Debug, Clone, Default)]
struct Prefix {
    frames: Vec<Frame>,
    open_string: Option<String>,
    /// The root value is complete.
    done: bool,
}

/// Reads `text` as a strict JSON prefix (an object or array root) and answers the longest safe
/// cut in bytes with the state there; `None` when no byte of it can be sent. `sending`: a cut
/// to send up to, which never ends after a separator or a number or literal (both wait for the
/// next value: a `,` the reply closes its container after, `["a", "b",]`, is not in the
/// repaired value's text, and a prefix ending in `12` does not say whether `3` follows);
/// otherwise the end of a prefix sent so, to continue it.
fn scan(text: &str, sending: bool) -> Option<(usize, Prefix)> {
    let b = text.as_bytes();
    let mut i = 0;
    let skip_ws = |i: &mut usize| {
        while *i < b.len() && matches!(b[*i], b' ' | b'\t' | b'\n' | b'\r') {
            *i += 1;
        }
    };
    skip_ws(&mut i);
    if i >= b.len() || !matches!(b[i], b'{' | b'[') {
        return None;
    }
    let mut state = Prefix::default();
    let mut safe: Option<(usize, Prefix)> = None;
    // The value just read was a number or literal.
    let mut after_scalar = false;
    loop {
        // Here the state is exact at `i`: record it as a cut when it is one.
        let after_comma = matches!(
            state.frames.last(),
            Some(Frame::Object { at: At::Comma, .. } | Frame::Array { at: At::Comma, .. })
        );
        if state.open_string.is_none() && !(sending && (after_comma || after_scalar)) {
            safe = Some((i, state.clone()));
        }
        after_scalar = false;
        if state.done {
            return safe;
        }
        skip_ws(&mut i);
        if i >= b.len() {
            return safe;
        }
        let c = b[i];
        let top = state.frames.last_mut();
        match (top, c) {
            (None, b'{')
            | (
                Some(Frame::Array {
                    at: At::Open | At::Comma,
                    ..
                }),
                b'{',
            )
            | (
                Some(Frame::Object {
                    at: At::Colon(_), ..
                }),
                b'{',
            ) => {
                state.frames.push(Frame::Object {
                    keys: Vec::new(),
                    at: At::Open,
                });
                i += 1;
            }
            (None, b'[')
            | (
                Some(Frame::Array {
                    at: At::Open | At::Comma,
                    ..
                }),
                b'[',
            )
            | (
                Some(Frame::Object {
                    at: At::Colon(_), ..
                }),
                b'[',
            ) => {
                state.frames.push(Frame::Array {
                    count: 0,
                    at: At::Open,
                });
                i += 1;
            }
            (
                Some(Frame::Object {
                    at: At::Open | At::Comma,
                    keys,
                }),
                b'"',
            ) => {
                // A key is sent only with its colon.
                let Some((key, Some(mut j))) = string_at(text, i) else {
                    return safe;
                };
                skip_ws(&mut j);
                if j >= b.len() || b[j] != b':' || keys.contains(&key) {
                    return safe;
                }
                let Some(Frame::Object { at, .. }) = state.frames.last_mut() else {
                    return safe;
                };
                *at = At::Colon(key);
                i = j + 1;
            }
            (Some(Frame::Object { at: At::Value, .. }), b',')
            | (Some(Frame::Array { at: At::Value, .. }), b',') => {
                match state.frames.last_mut() {
                    Some(Frame::Object { at, .. }) | Some(Frame::Array { at, .. }) => {
                        *at = At::Comma
                    }
                    None => return safe,
                }
                i += 1;
            }
            (
                Some(Frame::Object {
                    at: At::Open | At::Value,
                    ..
                }),
                b'}',
            )
            | (
                Some(Frame::Array {
                    at: At::Open | At::Value,
                    ..
                }),
                b']',
            ) => {
                state.frames.pop();
                close_value(&mut state);
                i += 1;
            }
            (
                Some(Frame::Object {
                    at: At::Colon(_), ..
                }),
                _,
            )
            | (
                Some(Frame::Array {
                    at: At::Open | At::Comma,
                    ..
                }),
                _,
            ) => {
                // A scalar value.
                if c == b'"' {
                    let Some((_, end)) = string_at(text, i) else {
                        return safe;
                    };
                    match end {
                        Some(end) => {
                            close_value(&mut state);
                            i = end;
                        }
                        None => {
                            // Inside the string: cut after the last whole character.
                            let len = string_cut(text, i);
                            let mut open = state.clone();
                            open.open_string = Some(whole_content(text, i, len));
                            return Some((len, open));
                        }
                    }
                } else {
                    let Some(end) = scalar_end(b, i) else {
                        return safe;
                    };
                    if end >= b.len() || serde_json::from_str::<Json>(&text[i..end]).is_err() {
                        // A number or literal is sent only whole, when something follows it.
                        return safe;
                    }
                    close_value(&mut state);
                    after_scalar = true;
                    i = end;
                }
            }
            _ => return safe,
        }
    }
}

/// A container or scalar value just ended: its parent stands after a value.
fn close_value(state: &mut Prefix) {
    match state.frames.last_mut() {
        None => state.done = true,
        Some(Frame::Object { keys, at }) => {
            if let At::Colon(key) = std::mem::replace(at, At::Value) {
                keys.push(key);
            }
        }
        Some(Frame::Array { count, at }) => {
            *count += 1;
            *at = At::Value;
        }
    }
}

/// The string starting at byte `i` (a `"`): its content and the byte after its closing quote,
/// or `None` for the end when the text stops inside it. `None` overall for a string that is not
/// strict JSON (a raw control character, an invalid escape).
fn string_at(text: &str, i: usize) -> Option<(String, Option<usize>)> {
    let slice = &text[i..];
    let b = slice.as_bytes();
    let mut j = 1;
    while j < b.len() {
        match b[j] {
            b'"' => {
                let content: String = serde_json::from_str(&slice[..=j]).ok()?;
                return Some((content, Some(i + j + 1)));
            }
            b'\\' => j += 2,
            c if c < 0x20 => return None,
            _ => j += 1,
        }
    }
    // Open: its escapes must be valid as far as they go.
    let len = string_cut(text, i);
    serde_json::from_str::<String>(&format!("{}\"", &text[i..len])).ok()?;
    Some((String::new(), None))
}

/// For an open string at byte `i`: the byte length up to the last whole character or escape
/// (a high surrogate escape waits for its low half).
fn string_cut(text: &str, i: usize) -> usize {
    string_cut_from(text, i + 1)
}

/// [`string_cut`] from byte `from` inside an open string, a cut already found (a whole
/// character or escape ends there).
fn string_cut_from(text: &str, from: usize) -> usize {
    let b = text.as_bytes();
    // `\uXXXX` at byte `at`: its code unit, when the six bytes are there and are an escape.
    let unit = |at: usize| -> Option<u16> {
        let hex = b.get(at + 2..at + 6)?;
        if b.get(at..at + 2) != Some(b"\\u") || !hex.iter().all(u8::is_ascii_hexdigit) {
            return None;
        }
        hex.iter().try_fold(0u16, |n, d| {
            Some(n * 16 + (*d as char).to_digit(16)? as u16)
        })
    };
    let mut j = from;
    let mut cut = j;
    while j < b.len() {
        if b[j] == b'\\' {
            match b.get(j + 1) {
                Some(b'u') => match unit(j) {
                    // A high surrogate waits for its low half.
                    Some(u) if (0xD800..0xDC00).contains(&u) => match unit(j + 6) {
                        Some(_) => j += 12,
                        None => break,
                    },
                    Some(_) => j += 6,
                    None => break,
                },
                Some(b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't') => j += 2,
                // Cut or not an escape JSON has: nothing past it goes.
                _ => break,
            }
        } else {
            j += 1;
            while j < b.len() && !text.is_char_boundary(j) {
                j += 1;
            }
        }
        cut = j;
    }
    cut
}

/// The content of the open string at byte `i` up to byte `len`.
fn whole_content(text: &str, i: usize, len: usize) -> String {
    serde_json::from_str(&format!("{}\"", &text[i..len])).unwrap_or_default()
}

/// The byte after a number or literal starting at `i`, or `None` for a character no scalar
/// starts with.
fn scalar_end(b: &[u8], i: usize) -> Option<usize> {
    if !matches!(b[i], b'-' | b'0'..=b'9' | b't' | b'f' | b'n') {
        return None;
    }
    let mut j = i;
    while j < b.len() && (b[j].is_ascii_alphanumeric() || matches!(b[j], b'-' | b'+' | b'.')) {
        j += 1;
    }
    Some(j)
}

/// The byte length of `text`'s first `units` UTF-16 code units (JavaScript's string length).
pub fn byte_len(text: &str, units: usize) -> usize {
    let mut seen = 0;
    for (at, c) in text.char_indices() {
        if seen >= units {
            return at;
        }
        seen += c.len_utf16();
    }
    text.len()
}

/// The UTF-16 length of `text` (JavaScript's string length).
pub fn utf16_len(text: &str) -> usize {
    text.chars().map(char::len_utf16).sum()
}

/// How much of `text` (in UTF-16 code units) may be sent on, given that `sent` units already
/// were: the longest safe cut of a strict JSON prefix that `schema` reads with no fix, or
/// `sent` when the text cannot go further (never less: what was sent is sent). The whole-prefix
/// check, kept as the reference [`Live`] is tested against (streams use [`Live`]).
pub fn sendable(text: &str, schema: &Json, sent: usize) -> usize {
    let Some((cut, state)) = scan(text, true) else {
        return sent;
    };
    let units = utf16_len(&text[..cut]);
    if units <= sent {
        return sent;
    }
    let Ok(partial) = super::parse_partial(&text[..cut], schema) else {
        return sent;
    };
    // An open string goes only where the schema reads it as that string so far (not a
    // number written in quotes, which the reading coerces once it is whole).
    let reads_as_sent = match &state.open_string {
        None => true,
        Some(so_far) => {
            string_at_frames(partial.value.as_ref(), &state.frames) == Some(so_far.as_str())
        }
    };
    if partial.fixes.is_empty() && reads_as_sent {
        units
    } else {
        sent
    }
}

/// The string in `value` where `frames` (the open containers of a prefix, outermost first)
/// stand: the open string of a prefix cut inside one, as the reading has it.
fn string_at_frames<'v>(value: Option<&'v Json>, frames: &[Frame]) -> Option<&'v str> {
    let mut node = value;
    for frame in frames {
        node = match frame {
            Frame::Object {
                at: At::Colon(key), ..
            } => node.and_then(|n| n.get(key)),
            Frame::Array { count, .. } => node.and_then(|n| n.get(*count)),
            Frame::Object { .. } => None,
        };
    }
    node.and_then(Json::as_str)
}

/// The text that, written after `prefix` (a prefix [`sendable`] let through), makes the JSON
/// text of `value`: `None` when `prefix` cannot be continued into it (it holds a member or
/// element the value does not).
pub fn continuation(prefix: &str, value: &Json) -> Option<String> {
    let (cut, state) = scan(prefix, false)?;
    if !prefix[cut..].trim_start().is_empty() {
        return None;
    }
    // The value at each open container, outermost first.
    let mut at_frames: Vec<&Json> = Vec::new();
    let mut node = value;
    for (n, frame) in state.frames.iter().enumerate() {
        at_frames.push(node);
        if n + 1 == state.frames.len() {
            break;
        }
        node = match frame {
            Frame::Object {
                at: At::Colon(key), ..
            } => node.get(key)?,
            Frame::Array { count, .. } => node.get(*count)?,
            Frame::Object { .. } => return None,
        };
    }
    let mut out = String::new();
    let mut frames = state.frames.clone();
    let mut open_string = state.open_string.clone();
    while let Some(frame) = frames.pop() {
        let here = at_frames.pop()?;
        match frame {
            Frame::Object { keys, at } => {
                let obj = here.as_object()?;
                let mut after_value = at == At::Value;
                let mut written = keys;
                if let At::Colon(key) = at {
                    let member = obj.get(&key)?;
                    match open_string.take() {
                        Some(so_far) => out.push_str(&string_rest(member, &so_far)?),
                        None => out.push_str(&serde_json::to_string(member).ok()?),
                    }
                    written.push(key);
                    after_value = true;
                }
                for (k, v) in obj.iter().filter(|(k, _)| !written.contains(k)) {
                    if after_value {
                        out.push(',');
                    }
                    out.push_str(&serde_json::to_string(k).ok()?);
                    out.push(':');
                    out.push_str(&serde_json::to_string(v).ok()?);
                    after_value = true;
                }
                out.push('}');
            }
            Frame::Array { count, at } => {
                let items = here.as_array()?;
                let mut after_value = at == At::Value;
                let mut from = count;
                if let Some(so_far) = open_string.take() {
                    out.push_str(&string_rest(items.get(count)?, &so_far)?);
                    from += 1;
                    after_value = true;
                }
                for item in items.get(from..)? {
                    if after_value {
                        out.push(',');
                    }
                    out.push_str(&serde_json::to_string(item).ok()?);
                    after_value = true;
                }
                out.push(']');
            }
        }
        // The container just closed is a value of its parent.
        if let Some(Frame::Object { keys, at }) = frames.last_mut() {
            if let At::Colon(key) = std::mem::replace(at, At::Value) {
                keys.push(key);
            }
        } else if let Some(Frame::Array { count, at }) = frames.last_mut() {
            *count += 1;
            *at = At::Value;
        }
    }
    // The whole text must read as the value (a member sent before may differ from it).
    let whole: Json = serde_json::from_str(&format!("{prefix}{out}")).ok()?;
    same(&whole, value).then_some(out)
}

/// The rest of a string value after `so_far`, with its closing quote, as JSON text.
fn string_rest(value: &Json, so_far: &str) -> Option<String> {
    let rest = value.as_str()?.strip_prefix(so_far)?;
    let quoted = serde_json::to_string(rest).ok()?;
    Some(quoted[1..].to_string())
}

/// JSON equality with numbers compared by value (`1.0` is `1`).
fn same(a: &Json, b: &Json) -> bool {
    match (a, b) {
        (Json::Number(x), Json::Number(y)) => x == y || x.as_f64() == y.as_f64(),
        (Json::Array(x), Json::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| same(a, b))
        }
        (Json::Object(x), Json::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| same(v, w)))
        }
        _ => a == b,
    }
}

mod live;
pub use live::Live;

#[cfg(test)]
mod tests;
