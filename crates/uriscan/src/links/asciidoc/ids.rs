//! The ids Asciidoctor gives sections, by its `Section.generate_id`:
//! the title as converted (formatting and typographic replacements
//! gone), lowercase, characters other than word ones, blanks, `-` and
//! `.` dropped, `idprefix` before, runs of blanks, `_`, `.` and `-` made
//! one `idseparator`, a number added to an id already taken.

use std::collections::HashSet;

use super::attributes::{Attributes, Expanded};

/// The id of a section titled `title`, under `attrs`, not one of `taken`.
pub(crate) fn section_id(
    title: &str,
    attrs: &Attributes,
    taken: &HashSet<String>,
) -> String {
    let prefix = attrs.get("idprefix").unwrap_or("_");
    let sep: Option<char> = match attrs.get("idseparator") {
        None => Some('_'),
        Some(s) => s.chars().next(),
    };
    let title = match attrs.expand(title) {
        Expanded::Text(t) | Expanded::Undefined(t, _) => t,
    };
    let converted = converted_text(&title);
    let mut id = String::with_capacity(prefix.len() + converted.len());
    id.push_str(prefix);
    for c in converted.chars().flat_map(char::to_lowercase) {
        if is_word(c) || c == ' ' || c == '-' || c == '.' {
            id.push(c);
        }
    }
    let id = match sep {
        // An empty separator: blanks are deleted, nothing squeezed.
        None => id.replace(' ', ""),
        Some(sep) => {
            let squeezed = squeeze(&id, sep);
            let mut s = squeezed.as_str();
            if s.ends_with(sep) {
                s = &s[..s.len() - sep.len_utf8()];
            }
            if prefix.is_empty() && s.starts_with(sep) {
                s = &s[sep.len_utf8()..];
            }
            s.to_owned()
        }
    };
    if !taken.contains(&id) {
        return id;
    }
    let sep = sep.map(String::from).unwrap_or_default();
    (2..)
        .map(|n| format!("{id}{sep}{n}"))
        .find(|c| !taken.contains(c))
        .unwrap_or(id)
}

/// Ruby's `tr_s`: each run of blanks and separator-like characters
/// (`_`, `.`, `-`, and `sep`; but `.` and `-` alone when `sep` is one of
/// them) becomes one `sep`.
fn squeeze(id: &str, sep: char) -> String {
    let set = |c: char| {
        c == ' '
            || c == '.'
            || c == '-'
            || (sep != '-' && sep != '.' && (c == sep || c == '_'))
    };
    let mut out = String::with_capacity(id.len());
    let mut in_run = false;
    for c in id.chars() {
        if set(c) {
            if !in_run {
                out.push(sep);
            }
            in_run = true;
        } else {
            out.push(c);
            in_run = false;
        }
    }
    out
}

/// A word character as Ruby's `\p{Word}` has it, near enough: letters,
/// marks, digits, `_`.
fn is_word(c: char) -> bool {
    c.is_alphanumeric() || c == '_' || is_mark(c)
}

fn is_mark(c: char) -> bool {
    matches!(c, '\u{300}'..='\u{36f}' | '\u{1ab0}'..='\u{1aff}' | '\u{20d0}'..='\u{20ff}')
}

/// The title's text as the converter leaves it for the id: the marks of
/// constrained emphasis (`_x_`) and the typographic replacements, which
/// become entities the id drops, taken out.
fn converted_text(title: &str) -> String {
    let mut t = title.to_owned();
    for (from, to) in [
        ("(C)", ""),
        ("(R)", ""),
        ("(TM)", ""),
        (" -- ", ""),
        ("...", ""),
        ("->", ""),
        ("=>", ""),
        ("<-", ""),
        ("<=", ""),
    ] {
        if t.contains(from) {
            t = t.replace(from, to);
        }
    }
    let chars: Vec<char> = t.chars().collect();
    let mut out = String::with_capacity(t.len());
    for (i, &c) in chars.iter().enumerate() {
        let prev = i.checked_sub(1).map(|j| chars[j]);
        let next = chars.get(i + 1).copied();
        let word_before = prev.is_some_and(is_word);
        let word_after = next.is_some_and(is_word);
        match c {
            // `a--b` is an em dash between words, then gone.
            '-' if next == Some('-') && word_before => {}
            '-' if prev == Some('-') && word_after && i >= 2 => {
                if !is_word(chars[i - 2]) {
                    out.push('-');
                }
            }
            // An apostrophe between word characters is an entity.
            '\'' if word_before && word_after => {}
            '_' if emphasis_mark(&chars, i) => {}
            _ => out.push(c),
        }
    }
    out
}

/// Whether the `_` at `i` opens or closes constrained emphasis: `_x_`
/// with no word character outside the pair.
fn emphasis_mark(chars: &[char], i: usize) -> bool {
    let word = |j: Option<usize>| {
        j.and_then(|j| chars.get(j)).is_some_and(|&c| is_word(c) && c != '_')
    };
    let opens = !word(i.checked_sub(1))
        && chars.get(i + 1).is_some_and(|c| !c.is_whitespace() && *c != '_');
    let closes = !word(Some(i + 1))
        && i > 0
        && !chars[i - 1].is_whitespace()
        && chars[i - 1] != '_';
    if opens {
        // A closing mark further on.
        return (i + 2..chars.len()).any(|j| {
            chars[j] == '_'
                && !word(Some(j + 1))
                && !chars[j - 1].is_whitespace()
        });
    }
    if closes {
        return (0..i.saturating_sub(1)).rev().any(|j| {
            chars[j] == '_'
                && !word(j.checked_sub(1))
                && !chars[j + 1].is_whitespace()
        });
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id(title: &str) -> String {
        section_id(title, &Attributes::default(), &HashSet::new())
    }

    #[test]
    fn ids_follow_asciidoctor() {
        assert_eq!(id("Hello World"), "_hello_world");
        assert_eq!(id("What's new?"), "_whats_new");
        assert_eq!(id("The _emphasis_ here"), "_the_emphasis_here");
        assert_eq!(id("snake_case name"), "_snake_case_name");
        assert_eq!(id("A -- B"), "_ab");
        assert_eq!(id("v1.2 release"), "_v1_2_release");
    }

    #[test]
    fn prefix_separator_and_taken_ids() {
        let mut a = Attributes::default();
        a.set("idprefix", Some(""));
        a.set("idseparator", Some("-"));
        let mut taken = HashSet::new();
        assert_eq!(section_id("Hello World", &a, &taken), "hello-world");
        taken.insert("hello-world".to_owned());
        assert_eq!(section_id("Hello World", &a, &taken), "hello-world-2");
        a.set("idseparator", Some(""));
        assert_eq!(section_id("Hello World", &a, &taken), "helloworld");
    }
}
