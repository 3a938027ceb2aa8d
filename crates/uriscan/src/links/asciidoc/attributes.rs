//! Document attributes: the `:name: value` entries met so far, and the
//! expansion of `{name}` references in a target.

use std::collections::HashMap;

/// The attributes in effect at a point of a document.
#[derive(Clone, Debug, Default)]
pub(crate) struct Attributes {
    /// Set (`Some`) or unset (`None`) by the document, lowercase names.
    entries: HashMap<Box<str>, Option<Box<str>>>,
    /// The names set from outside the document (an Antora component's
    /// attributes) that the document cannot change.
    locked: Vec<Box<str>>,
}

/// The attributes Asciidoctor defines for every document that stand for
/// characters, as a target may use them.
const INTRINSIC: &[(&str, &str)] = &[
    ("empty", ""),
    ("blank", ""),
    ("sp", " "),
    ("nbsp", "\u{a0}"),
    ("zwsp", "\u{200b}"),
    ("amp", "&"),
    ("lt", "<"),
    ("gt", ">"),
    ("startsb", "["),
    ("endsb", "]"),
    ("vbar", "|"),
    ("caret", "^"),
    ("asterisk", "*"),
    ("tilde", "~"),
    ("apos", "'"),
    ("backtick", "`"),
    ("brvbar", "\u{a6}"),
    ("quot", "\""),
    ("plus", "+"),
    ("deg", "\u{b0}"),
    ("two-colons", "::"),
    ("two-semicolons", ";;"),
    ("cpp", "C++"),
    ("pp", "++"),
];

/// What expanding a text's references found.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Expanded {
    /// Every reference was defined: the text, expanded.
    Text(String),
    /// This attribute is not defined; the text keeps its reference, as
    /// Asciidoctor's default `attribute-missing: skip` leaves it.
    Undefined(String, Box<str>),
}

impl Attributes {
    /// Sets `name` to `value`, or unsets it (`None`).
    pub(crate) fn set(&mut self, name: &str, value: Option<&str>) {
        let name: Box<str> = name.to_ascii_lowercase().into();
        if !self.locked.contains(&name) {
            self.entries.insert(name, value.map(Into::into));
        }
    }

    /// Sets `name` from outside the document: to `value`, which the
    /// document cannot change unless it ends with `@` (a soft set, as
    /// Antora reads a component's attributes).
    pub(crate) fn preset(&mut self, name: &str, value: &str) {
        let soft = value.strip_suffix('@');
        self.set(name, Some(soft.unwrap_or(value)));
        if soft.is_none() {
            self.locked.push(name.to_ascii_lowercase().into());
        }
    }

    /// The value of `name`: the document's, else an intrinsic one.
    pub(crate) fn get(&self, name: &str) -> Option<&str> {
        let lower;
        let name = if name.bytes().any(|b| b.is_ascii_uppercase()) {
            lower = name.to_ascii_lowercase();
            lower.as_str()
        } else {
            name
        };
        match self.entries.get(name) {
            Some(v) => v.as_deref(),
            None => {
                INTRINSIC.iter().find(|(n, _)| *n == name).map(|(_, v)| *v)
            }
        }
    }

    /// The attributes set, as presets of a text read where they are in
    /// effect (an included file): those set from outside stay locked,
    /// the document's own are soft sets (`@`), which the text may change.
    pub(crate) fn as_presets(&self) -> Vec<(String, String)> {
        let mut presets: Vec<(String, String)> = self
            .entries
            .iter()
            .filter_map(|(name, value)| {
                let value = value.as_deref()?;
                let soft = if self.locked.contains(name) { "" } else { "@" };
                Some((name.to_string(), format!("{value}{soft}")))
            })
            .collect();
        presets.sort();
        presets
    }

    /// Whether the document unset `name` (`:name!:`).
    pub(crate) fn explicitly_unset(&self, name: &str) -> bool {
        matches!(self.entries.get(name), Some(None))
    }

    /// `text` with each `{name}` replaced by its value. A reference that
    /// is no attribute name (`{ x }`), an escaped one (`\{x}`) and a
    /// counter are left as written.
    pub(crate) fn expand(&self, text: &str) -> Expanded {
        if !text.contains('{') {
            return Expanded::Text(text.to_owned());
        }
        let mut out = String::with_capacity(text.len());
        let mut undefined: Option<Box<str>> = None;
        let mut rest = text;
        while let Some(open) = rest.find('{') {
            out.push_str(&rest[..open]);
            let after = &rest[open + 1..];
            let close = after.find('}');
            let name = close.map(|c| &after[..c]).filter(|n| is_name(n));
            let escaped = out.ends_with('\\');
            match name {
                Some(name) if !escaped => {
                    match self.get(name) {
                        Some(v) => out.push_str(v),
                        None => {
                            undefined.get_or_insert_with(|| name.into());
                            out.push('{');
                            out.push_str(name);
                            out.push('}');
                        }
                    }
                    rest = &after[name.len() + 1..];
                }
                _ => {
                    out.push('{');
                    rest = after;
                }
            }
        }
        out.push_str(rest);
        match undefined {
            Some(name) => Expanded::Undefined(out, name),
            None => Expanded::Text(out),
        }
    }
}

/// Whether `name` can name an attribute: a word character, then word
/// characters and hyphens.
pub(crate) fn is_name(name: &str) -> bool {
    let mut bytes = name.bytes();
    bytes.next().is_some_and(|b| b.is_ascii_alphanumeric() || b == b'_')
        && bytes.all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

/// An attribute entry line, `:name: value`, `:name!:` or `:!name:`: the
/// name, and the value (`None` when it unsets).
pub(crate) fn entry(line: &str) -> Option<(&str, Option<&str>)> {
    let rest = line.strip_prefix(':')?;
    let end = rest.find(':')?;
    let raw_name = &rest[..end];
    let value = rest[end + 1..].trim();
    let (name, unset) = match raw_name.strip_prefix('!') {
        Some(n) => (n, true),
        None => match raw_name.strip_suffix('!') {
            Some(n) => (n, true),
            None => (raw_name, false),
        },
    };
    if !is_name(name) {
        return None;
    }
    // The value starts after a blank, or the line ends at the colon.
    let after = &rest[end + 1..];
    if !after.is_empty() && !after.starts_with([' ', '\t']) {
        return None;
    }
    Some((name, (!unset).then_some(value)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn references_expand_and_undefined_ones_are_named() {
        let mut a = Attributes::default();
        a.set("base-url", Some("https://x.example"));
        assert_eq!(
            a.expand("{base-url}/a{startsb}1{endsb}"),
            Expanded::Text("https://x.example/a[1]".into())
        );
        assert_eq!(
            a.expand("{nope}/x"),
            Expanded::Undefined("{nope}/x".into(), "nope".into())
        );
        assert_eq!(a.expand("{ x } \\{base-url}"), {
            Expanded::Text("{ x } \\{base-url}".into())
        });
        a.set("base-url", None);
        assert_eq!(a.get("base-url"), None);
    }

    #[test]
    fn entries_set_and_unset() {
        assert_eq!(entry(":a-b: v w "), Some(("a-b", Some("v w"))));
        assert_eq!(entry(":a:"), Some(("a", Some(""))));
        assert_eq!(entry(":a!:"), Some(("a", None)));
        assert_eq!(entry(":!a:"), Some(("a", None)));
        assert_eq!(entry(":a:b"), None);
        assert_eq!(entry(": a: b"), None);
    }
}
