//! Entity and numeric character references (CommonMark 6.2) in link
//! destinations, decoded as pulldown-cmark decodes them: a name from the
//! HTML standard's list and `;`, or `&#` and up to 7 decimal digits or
//! `&#x` and up to 6 hex digits, and `;`.

use super::super::tokenizer::named_reference;

/// `raw` with its backslash escapes and references undone; `None` when
/// the result is not UTF-8.
pub(super) fn decode(raw: &[u8]) -> Option<String> {
    let mut out = Vec::with_capacity(raw.len());
    let mut k = 0;
    while k < raw.len() {
        match raw[k] {
            b'\\' if raw.get(k + 1).is_some_and(u8::is_ascii_punctuation) => {
                out.push(raw[k + 1]);
                k += 2;
            }
            b'&' => match reference(&raw[k..]) {
                Some((len, value)) => {
                    let mut buf = [0; 4];
                    out.extend_from_slice(match value {
                        Value::Char(c) => c.encode_utf8(&mut buf).as_bytes(),
                        Value::Named(s) => s.as_bytes(),
                    });
                    k += len;
                }
                None => {
                    out.push(b'&');
                    k += 1;
                }
            },
            b => {
                out.push(b);
                k += 1;
            }
        }
    }
    String::from_utf8(out).ok()
}

/// What a reference stands for.
enum Value {
    Char(char),
    Named(&'static str),
}

/// The reference at the start of `bytes` (its `&` first): its length
/// and what it stands for.
fn reference(bytes: &[u8]) -> Option<(usize, Value)> {
    if bytes.get(1) == Some(&b'#') {
        let hex = matches!(bytes.get(2), Some(b'x' | b'X'));
        let (start, radix, limit) = if hex { (3, 16, 6) } else { (2, 10, 7) };
        let digits = bytes[start.min(bytes.len())..]
            .iter()
            .take(limit)
            .take_while(|b| char::from(**b).is_digit(radix))
            .count();
        let end = start + digits;
        if digits == 0 || bytes.get(end) != Some(&b';') {
            return None;
        }
        let text = std::str::from_utf8(&bytes[start..end]).ok()?;
        let value = u32::from_str_radix(text, radix).ok()?;
        let c = (value != 0).then(|| char::from_u32(value)).flatten();
        return Some((end + 1, Value::Char(c.unwrap_or('\u{FFFD}'))));
    }
    let name =
        bytes[1..].iter().take_while(|b| b.is_ascii_alphanumeric()).count();
    if name == 0 || bytes.get(1 + name) != Some(&b';') {
        return None;
    }
    let value = named_reference(&bytes[1..name + 2])?;
    Some((name + 2, Value::Named(value)))
}

/// The reference at the start of `bytes` (its `&` first) as text reads
/// it: its length, and the text it stands for pushed onto `out`.
pub(super) fn push_reference(bytes: &[u8], out: &mut String) -> Option<usize> {
    let (len, value) = reference(bytes)?;
    match value {
        Value::Char(c) => out.push(c),
        Value::Named(s) => out.push_str(s),
    }
    Some(len)
}
