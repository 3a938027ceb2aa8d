//! An attribute's value as the tokenizer would build it from its bytes as
//! written: character references decoded (13.2.5.72 to 13.2.5.80, in an
//! attribute), NUL as U+FFFD, and newlines normalized (13.2.3.5).

use super::entities::ENTITIES;

/// Appends the value written as `raw` (inside its quotes, or unquoted) to
/// `out`; whether it is `raw` as it stands (no reference, NUL or CR in
/// it), so that a caller need not compare the two.
///
/// The value's end is no input character that a reference could take:
/// its quote, a space or `>` (none alphanumeric nor `=`), so the value is
/// read alone, its end standing for the character after it.
pub(crate) fn decode(raw: &[u8], out: &mut Vec<u8>) -> bool {
    let mut at = 0;
    let mut verbatim = true;
    while let Some(i) = memchr::memchr3(b'&', 0, b'\r', &raw[at..]) {
        verbatim = false;
        out.extend_from_slice(&raw[at..at + i]);
        at += i;
        match raw[at] {
            0 => {
                out.extend_from_slice("\u{FFFD}".as_bytes());
                at += 1;
            }
            b'\r' => {
                out.push(b'\n');
                at += 1;
                if raw.get(at) == Some(&b'\n') {
                    at += 1;
                }
            }
            _ => at = reference(raw, at + 1, out),
        }
    }
    out.extend_from_slice(&raw[at..]);
    verbatim
}

/// The character reference after the `&` at `at - 1`: decoded into `out`
/// (or the `&` alone, when it starts none); the offset after what it took.
fn reference(raw: &[u8], at: usize, out: &mut Vec<u8>) -> usize {
    match raw.get(at) {
        Some(b'#') => numeric(raw, at + 1, out),
        Some(c) if c.is_ascii_alphanumeric() => named(raw, at, out),
        _ => {
            out.push(b'&');
            at
        }
    }
}

/// The longest name of a named reference with a `;`, in bytes with it.
const LONGEST: usize = 32;

/// A named reference (13.2.5.73) from `at`, after the `&`.
fn named(raw: &[u8], at: usize, out: &mut Vec<u8>) -> usize {
    let rest = &raw[at..];
    let run = rest.iter().take_while(|c| c.is_ascii_alphanumeric()).count();
    // The longest match: every name is alphanumeric with or without a `;`
    // at its end, so a name with `;` can only be the whole run and its
    // `;`, and a shorter one a legacy name (at most six letters) without.
    if rest.get(run) == Some(&b';')
        && run < LONGEST
        && let Some(chars) = lookup(&rest[..=run])
    {
        out.extend_from_slice(chars.as_bytes());
        return at + run + 1;
    }
    for len in (2..=run.min(6)).rev() {
        if let Some(chars) = lookup(&rest[..len]) {
            // In an attribute, a legacy name followed by `=` or an
            // alphanumeric is not a reference, for historical reasons.
            if rest
                .get(len)
                .is_some_and(|&c| c == b'=' || c.is_ascii_alphanumeric())
            {
                out.push(b'&');
                out.extend_from_slice(&rest[..len]);
            } else {
                out.extend_from_slice(chars.as_bytes());
            }
            return at + len;
        }
    }
    // No name: the `&` and the letters stay as written.
    out.push(b'&');
    at
}

/// The characters of the named reference `name` (without its `&`).
pub(crate) fn lookup(name: &[u8]) -> Option<&'static str> {
    let i = ENTITIES.binary_search_by(|(n, _)| (*n).cmp(name)).ok()?;
    Some(ENTITIES[i].1)
}

/// A numeric reference (13.2.5.75 to 13.2.5.80) from `at`, after `&#`.
fn numeric(raw: &[u8], at: usize, out: &mut Vec<u8>) -> usize {
    let (hex, start) = match raw.get(at) {
        Some(b'x' | b'X') => (true, at + 1),
        _ => (false, at),
    };
    let radix = if hex { 16 } else { 10 };
    let mut code: u32 = 0;
    let mut end = start;
    while let Some(d) = raw.get(end).and_then(|&c| (c as char).to_digit(radix))
    {
        // Past the last code point the value stays out of range.
        code = code.saturating_mul(radix).saturating_add(d).min(0x11_0000);
        end += 1;
    }
    if end == start {
        // No digits: `&#` or `&#x` stays as written.
        out.extend_from_slice(&raw[at - 2..start]);
        return start;
    }
    if raw.get(end) == Some(&b';') {
        end += 1;
    }
    let c = char::from_u32(replace(code)).unwrap_or('\u{FFFD}');
    out.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes());
    end
}

/// The numeric character reference end state's table (13.2.5.80): NUL,
/// out of range and surrogates are U+FFFD (by the caller, surrogates not
/// being `char`s), and the C1 controls of windows-1252 its characters.
fn replace(code: u32) -> u32 {
    match code {
        0 | 0x11_0000.. => 0xFFFD,
        0x80 => 0x20AC,
        0x82 => 0x201A,
        0x83 => 0x0192,
        0x84 => 0x201E,
        0x85 => 0x2026,
        0x86 => 0x2020,
        0x87 => 0x2021,
        0x88 => 0x02C6,
        0x89 => 0x2030,
        0x8A => 0x0160,
        0x8B => 0x2039,
        0x8C => 0x0152,
        0x8E => 0x017D,
        0x91 => 0x2018,
        0x92 => 0x2019,
        0x93 => 0x201C,
        0x94 => 0x201D,
        0x95 => 0x2022,
        0x96 => 0x2013,
        0x97 => 0x2014,
        0x98 => 0x02DC,
        0x99 => 0x2122,
        0x9A => 0x0161,
        0x9B => 0x203A,
        0x9C => 0x0153,
        0x9E => 0x017E,
        0x9F => 0x0178,
        c => c,
    }
}
