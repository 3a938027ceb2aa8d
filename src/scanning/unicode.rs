//! The non-ASCII character classes the scanner needs: UTF-8 decoding at a
//! position, the RFC 3987 `ucschar`/`iprivate` ranges, the punctuation and
//! whitespace that end a bare URI in prose, and the scripts written
//! without spaces between words.

/// The character that ends exactly at `bytes.len()`, if the last bytes
/// are one valid UTF-8 character.
pub(crate) fn decode_last(bytes: &[u8]) -> Option<char> {
    let n = bytes.len();
    for len in 1..=4.min(n) {
        let start = n - len;
        if bytes[start] & 0xC0 != 0x80 {
            return match std::str::from_utf8(&bytes[start..]) {
                Ok(s) => s.chars().next(),
                Err(_) => None,
            };
        }
    }
    None
}

pub(crate) use crate::syntax::iri::{
    Decoded, decode, is_iprivate, is_ucschar,
};

/// Punctuation (and the Latin-1 symbols) that ends a bare URI in prose,
/// although RFC 3987 would allow it in an IRI: `。`, `，`, `“`, `»`,
/// `…`, fullwidth brackets and the like. The ranges are the Unicode
/// punctuation blocks, minus the few letters and numbers they hold.
pub(crate) fn is_punctuation(c: char) -> bool {
    match c as u32 {
        // Latin-1: ¡ « » ¿ · and symbols; ª µ º are letters.
        0xA0..=0xBF => !matches!(c as u32, 0xAA | 0xB5 | 0xBA),
        0x37E | 0x387 => true,
        0x55A..=0x55F | 0x589 | 0x5BE | 0x5C0 | 0x5C3 | 0x5F3 | 0x5F4 => true,
        0x60C | 0x60D | 0x61B | 0x61E | 0x61F | 0x66A..=0x66D | 0x6D4 => true,
        0x964 | 0x965 | 0x970 | 0xE4F | 0xE5A | 0xE5B => true,
        0x104A..=0x104F | 0x17D4..=0x17DA => true,
        // General Punctuation (includes the typographic spaces),
        // Supplemental Punctuation.
        0x2000..=0x206F | 0x2E00..=0x2E7F => true,
        // CJK Symbols and Punctuation, minus 々 〆 〇 and the numerals.
        0x3000..=0x3004 | 0x3008..=0x3020 | 0x3030 | 0x303D..=0x303F => true,
        0x30FB => true,
        // Vertical, compatibility and small forms.
        0xFE10..=0xFE19 | 0xFE30..=0xFE6F => true,
        // Fullwidth ASCII punctuation and halfwidth CJK punctuation.
        0xFF01..=0xFF0F | 0xFF1A..=0xFF20 | 0xFF3B..=0xFF40 => true,
        0xFF5B..=0xFF65 => true,
        0xFEFF | 0xFFFC | 0xFFFD => true,
        _ => false,
    }
}

/// Whether `c` may continue a bare URI: not whitespace, not a control,
/// not punctuation. Whether it is allowed *where* it stands is the
/// validator's business.
#[inline]
pub(crate) fn continues_uri(c: char) -> bool {
    !c.is_whitespace() && !c.is_control() && !is_punctuation(c)
}

/// Letters of scripts written without spaces between words (Han, kana,
/// Hangul, Yi, Thai, Lao, Tibetan, Myanmar, Khmer, and the fullwidth
/// forms): a URI may follow one directly, as in `请看http://example.com/`.
pub(crate) fn is_spaceless_script(c: char) -> bool {
    matches!(c as u32,
        0x0E00..=0x0FFF
        | 0x1000..=0x109F
        | 0x1780..=0x17FF
        | 0x2E80..=0x2FDF
        | 0x3000..=0x31FF
        | 0x3400..=0x4DBF
        | 0x4E00..=0x9FFF
        | 0xA000..=0xA4CF
        | 0xAC00..=0xD7AF
        | 0xF900..=0xFAFF
        | 0xFF00..=0xFFEF
        | 0x20000..=0x3FFFF)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decode_reports_incomplete_and_invalid() {
        assert_eq!(decode("é".as_bytes()), Decoded::Char('é', 2));
        assert_eq!(decode(&"请".as_bytes()[..2]), Decoded::Incomplete);
        assert_eq!(decode(&[0xE8, 0x41]), Decoded::Invalid);
        assert_eq!(decode(&[0xFF]), Decoded::Invalid);
        assert_eq!(decode(&[0xED, 0xA0, 0x80]), Decoded::Invalid);
        assert_eq!(decode_last("a请".as_bytes()), Some('请'));
        assert_eq!(decode_last(&[0x41, 0x80]), None);
    }

    #[test]
    fn classes() {
        assert!(
            is_ucschar('é') && is_ucschar('请') && !is_ucschar('\u{E000}')
        );
        assert!(!is_ucschar('\u{1FFFE}') && is_ucschar('\u{1F600}'));
        assert!(is_iprivate('\u{E000}') && !is_iprivate('a'));
        assert!(is_punctuation('。') && is_punctuation('“'));
        assert!(!is_punctuation('é') && !is_punctuation('々'));
        assert!(!continues_uri('\u{3000}') && continues_uri('ü'));
        assert!(is_spaceless_script('请') && !is_spaceless_script('é'));
    }
}
