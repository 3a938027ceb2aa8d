//! Jekyll's heading anchors: kramdown's automatic header ids, by the
//! GFM parser Jekyll uses by default (`kramdown.input: GFM`) or by
//! kramdown's own (`input: kramdown`).

use std::collections::HashMap;
use std::sync::Mutex;

use super::document::Piece;
use unicode_properties::{
    GeneralCategory as Gc, GeneralCategoryGroup as Group,
    UnicodeGeneralCategory,
};

/// How kramdown gives headings ids on a Jekyll site (`kramdown:` in
/// `_config.yml`). Made by [`AnchorStyle::jekyll`] and
/// [`AnchorStyle::kramdown`].
///
/// [`AnchorStyle::jekyll`]: super::AnchorStyle::jekyll
/// [`AnchorStyle::kramdown`]: super::AnchorStyle::kramdown
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct KramdownIds {
    /// The GFM parser (kramdown-parser-gfm), Jekyll's default input.
    pub(super) gfm: bool,
    /// `auto_ids`: headings get ids at all.
    pub(super) auto_ids: bool,
    /// `auto_id_prefix`, interned so that the style stays `Copy`.
    pub(super) prefix: &'static str,
    /// `auto_id_stripping`: kramdown's parser reads the heading's text
    /// elements only, not its source.
    pub(super) stripping: bool,
}

impl KramdownIds {
    /// The settings, with the prefix interned.
    pub(super) fn new(
        gfm: bool,
        auto_ids: bool,
        prefix: Option<&str>,
        stripping: bool,
    ) -> KramdownIds {
        let prefix = intern(prefix.unwrap_or_default());
        KramdownIds { gfm, auto_ids, prefix, stripping }
    }

    /// The text kramdown derives an id from, out of the heading's pieces
    /// (in order, character references decoded) and its Markdown source
    /// `raw`.
    ///
    /// - GFM: the text of the heading's elements (`update_raw_text` in
    ///   `kramdown/parser/gfm.rb`, which this parser applies whether
    ///   `auto_id_stripping` is set or not, as kramdown 2.4 with
    ///   kramdown-parser-gfm 1.1 shows): text, code spans, character
    ///   references and typographic symbols as characters.
    /// - kramdown: the heading's source (`raw_text`), or with
    ///   `auto_id_stripping` its text elements only (`update_raw_text`
    ///   in `kramdown/parser/kramdown.rb`: no code span, no reference,
    ///   no symbol).
    ///
    /// Typographic symbols: kramdown reads `---` and `--` in text as
    /// dashes, which no id keeps, so of a run of N hyphens one stays
    /// exactly when N is 1 more than a multiple of 3 (`TYPOGRAPHIC_SYMS`
    /// is matched left to right, `---` first).
    pub(super) fn text_of(
        self,
        pieces: &[(Piece, &str)],
        raw: &str,
    ) -> String {
        if !self.gfm && !self.stripping {
            return raw.to_owned();
        }
        let mut out = String::new();
        for &(piece, text) in pieces {
            match piece {
                Piece::Text => push_without_dashes(&mut out, text),
                Piece::Code | Piece::Reference if self.gfm => {
                    out.push_str(text)
                }
                _ => {}
            }
        }
        out
    }

    /// The id before the prefix and the suffix for duplicates.
    ///
    /// GFM (`generate_gfm_header_id`): `text.downcase`, then
    /// `gsub(/[^\p{Word}\- \t]/, '')` and `tr(" \t", '-')`. Ruby's
    /// `\p{Word}` is Alphabetic, marks, decimal digits, connector
    /// punctuation and the joiners; its `downcase` is the full mapping
    /// per character, with no final sigma (`ΣΟΣ` is `σοσ`).
    ///
    /// kramdown (`Converter::Base#basic_generate_id`):
    /// `gsub(/^[^a-zA-Z]+/, '')`, `tr('^a-zA-Z0-9 -', '')`,
    /// `tr(' ', '-')`, `downcase`: ASCII only, no leading digit, and
    /// `section` when nothing is left.
    pub(super) fn base(self, text: &str) -> String {
        if self.gfm {
            text.chars()
                .flat_map(char::to_lowercase)
                .filter(|&c| is_ruby_word(c) || matches!(c, '-' | ' ' | '\t'))
                .map(|c| if c == ' ' || c == '\t' { '-' } else { c })
                .collect()
        } else {
            let from_letter = text
                .find(|c: char| c.is_ascii_alphabetic())
                .map_or("", |i| &text[i..]);
            let id: String = from_letter
                .chars()
                .filter(|&c| c.is_ascii_alphanumeric() || c == ' ' || c == '-')
                .map(|c| if c == ' ' { '-' } else { c.to_ascii_lowercase() })
                .collect();
            if id.is_empty() { "section".to_owned() } else { id }
        }
    }

    /// The id of the next heading, with a count per base id in `seen`:
    /// the N-th repeat of a base gets `-N`, and (both parsers alike) the
    /// result is not checked against the ids already given, so `Foo`,
    /// `Foo`, `Foo 1` give `foo`, `foo-1`, `foo-1`.
    pub(super) fn unique(
        self,
        base: String,
        seen: &mut HashMap<String, usize>,
    ) -> String {
        let n = seen.entry(base.clone()).or_insert(0);
        let id = if *n == 0 { base } else { format!("{base}-{n}") };
        *n += 1;
        format!("{}{id}", self.prefix)
    }
}

/// `text` with kramdown's dashes (`---`, `--`) left out.
fn push_without_dashes(out: &mut String, text: &str) {
    let mut run = 0usize;
    for c in text.chars().chain(std::iter::once('\0')) {
        if c == '-' {
            run += 1;
            continue;
        }
        if run % 3 == 1 {
            out.push('-');
        }
        run = 0;
        if c != '\0' {
            out.push(c);
        }
    }
}

/// Onigmo's `\p{Word}`: Alphabetic, Mark, Decimal_Number,
/// Connector_Punctuation and Join_Control.
fn is_ruby_word(c: char) -> bool {
    c.is_alphabetic()
        || matches!(c, '\u{200c}' | '\u{200d}')
        || matches!(
            c.general_category(),
            Gc::DecimalNumber | Gc::ConnectorPunctuation
        )
        || c.general_category_group() == Group::Mark
}

/// `s` as a `&'static str`, each distinct prefix leaked once: a site has
/// one or two, and a style must stay `Copy`.
fn intern(s: &str) -> &'static str {
    static INTERNED: Mutex<Vec<&'static str>> = Mutex::new(Vec::new());
    if s.is_empty() {
        return "";
    }
    let mut all = INTERNED.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(&found) = all.iter().find(|&&p| p == s) {
        return found;
    }
    let leaked: &'static str = Box::leak(s.to_owned().into_boxed_str());
    all.push(leaked);
    leaked
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dashes() {
        let mut out = String::new();
        push_without_dashes(&mut out, "a-b--c---d----e-----f");
        // 1 stays, 2 and 3 go, 4 is `---` then `-`, 5 is `---` `--`.
        assert_eq!(out, "a-bcd-ef");
    }

    #[test]
    fn interned_prefixes() {
        let a = intern("sec-");
        assert!(std::ptr::eq(a, intern(&String::from("sec-"))));
        assert_eq!(intern(""), "");
    }
}
