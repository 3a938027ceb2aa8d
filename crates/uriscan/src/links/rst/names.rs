//! Reference names and ids as docutils makes them: `fully_normalize_name`
//! (how a reference finds its target) and `make_id` (the id a target or
//! section gets in the built HTML).

/// A reference name as docutils compares it: whitespace runs to one
/// space, trimmed, lowercase.
pub(crate) fn normalize_name(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    for word in name.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    }
    out.to_lowercase()
}

/// The id docutils' `nodes.make_id` makes of `name`: lowercase, a few
/// letters spelt out (`ß` to `sz`, `ø` to `o`), accents dropped (its
/// NFKD step, for the Latin letters), every run of other characters to
/// one `-`, then leading digits and hyphens, and trailing hyphens, cut.
/// Empty when nothing is left.
pub(crate) fn make_id(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    let mut pending_dash = false;
    let mut push = |c: char, out: &mut String| {
        if c.is_ascii_lowercase() || c.is_ascii_digit() {
            if pending_dash && !out.is_empty() {
                out.push('-');
            }
            pending_dash = false;
            // Leading digits are cut, as `^[-0-9]+` does.
            if !(out.is_empty() && c.is_ascii_digit()) {
                out.push(c);
            }
        } else {
            pending_dash = true;
        }
    };
    for c in name.chars().flat_map(char::to_lowercase) {
        match spelt_out(c) {
            Some(s) => s.chars().for_each(|c| push(c, &mut out)),
            None if c.is_ascii() => push(c, &mut out),
            // A character NFKD leaves without an ASCII base is dropped,
            // not turned into a separator.
            None => {}
        }
    }
    out
}

/// What `make_id` turns a non-ASCII lowercase letter into: its two
/// translation tables, then the ASCII base letter NFKD leaves.
fn spelt_out(c: char) -> Option<&'static str> {
    Some(match c {
        'ß' => "sz",
        'æ' => "ae",
        'œ' => "oe",
        'ȸ' => "db",
        'ȹ' => "qp",
        'ø' | 'ò'..='ö' | 'ō' | 'ŏ' | 'ő' | 'ơ' | 'ǒ' => "o",
        'đ' | 'ď' | 'ƌ' => "d",
        'ħ' | 'ĥ' => "h",
        'ı' | 'ì'..='ï' | 'ĩ' | 'ī' | 'ĭ' | 'į' | 'ǐ' => "i",
        'ł' | 'ŀ' | 'ƚ' | 'ȴ' | 'ĺ' | 'ļ' | 'ľ' => "l",
        'ŧ' | 'ƫ' | 'ƭ' | 'ȶ' | 'ţ' | 'ť' => "t",
        'ƀ' | 'ƃ' => "b",
        'ƈ' | 'ȼ' | 'ç' | 'ć' | 'ĉ' | 'ċ' | 'č' => "c",
        'ƒ' => "f",
        'ƙ' | 'ķ' => "k",
        'ƞ' | 'ȵ' | 'ñ' | 'ń' | 'ņ' | 'ň' => "n",
        'ƥ' => "p",
        'ƴ' | 'ɏ' | 'ý' | 'ÿ' | 'ŷ' => "y",
        'ƶ' | 'ȥ' | 'ɀ' | 'ź' | 'ż' | 'ž' => "z",
        'ǥ' | 'ĝ' | 'ğ' | 'ġ' | 'ģ' => "g",
        'ȷ' | 'ɉ' | 'ĵ' => "j",
        'ȿ' | 'ś' | 'ŝ' | 'ş' | 'š' => "s",
        'ɇ' | 'è'..='ë' | 'ē' | 'ĕ' | 'ė' | 'ę' | 'ě' => "e",
        'ɋ' => "q",
        'ɍ' | 'ŕ' | 'ŗ' | 'ř' => "r",
        'à'..='å' | 'ā' | 'ă' | 'ą' | 'ǎ' => "a",
        'ù'..='ü' | 'ũ' | 'ū' | 'ŭ' | 'ů' | 'ű' | 'ų' | 'ư' | 'ǔ' => {
            "u"
        }
        'ŵ' => "w",
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_as_docutils_makes_them() {
        // Each pair from docutils' `nodes.make_id`.
        for (name, id) in [
            ("Hello World", "hello-world"),
            ("  Spaces   here ", "spaces-here"),
            ("1. Introduction", "introduction"),
            ("C++ API", "c-api"),
            ("--dash--", "dash"),
            ("Straße", "strasze"),
            ("Café déjà vu", "cafe-deja-vu"),
            ("日本語", ""),
            ("a日b", "ab"),
            ("x_y.z", "x-y-z"),
            ("123", ""),
            ("-1a", "a"),
        ] {
            assert_eq!(make_id(name), id, "{name}");
        }
    }

    #[test]
    fn names_compare_as_docutils_compares_them() {
        assert_eq!(normalize_name(" A  Name\n here"), "a name here");
    }
}
