//! Hugo's heading anchors: goldmark's auto heading ids, by Hugo's
//! `markup.goldmark.parser.autoHeadingIDType`.

use unicode_normalization::UnicodeNormalization;
use unicode_properties::{
    GeneralCategory as Gc, GeneralCategoryGroup as Group,
    UnicodeGeneralCategory,
};

use super::{AnchorStyle, UnknownSlugRule};

/// Hugo's `markup.goldmark.parser.autoHeadingIDType`. Made by
/// [`AnchorStyle::hugo`].
#[non_exhaustive]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum HugoIdType {
    /// `github`, the default.
    #[default]
    Github,
    /// `github-ascii`: as `github`, with accents removed and whatever is
    /// not ASCII left out.
    GithubAscii,
    /// `blackfriday`: the rule of Hugo's former Markdown renderer.
    Blackfriday,
}

impl HugoIdType {
    /// The type Hugo's configuration names; `None` for the default.
    pub(super) fn named(
        name: Option<&str>,
    ) -> Result<HugoIdType, UnknownSlugRule> {
        match name.map(str::trim) {
            None | Some("github") => Ok(HugoIdType::Github),
            Some("github-ascii") => Ok(HugoIdType::GithubAscii),
            Some("blackfriday") => Ok(HugoIdType::Blackfriday),
            Some(other) => Err(UnknownSlugRule {
                setting: "autoHeadingIDType",
                value: other.to_owned(),
                fallback: AnchorStyle::Hugo(HugoIdType::Github),
                fallback_name: "github",
            }),
        }
    }

    /// The id of a heading whose Markdown source is `text`.
    ///
    /// goldmark's parser (`parser/atx_heading.go`,
    /// `generateAutoHeadingID`) hands the id generator the heading's
    /// last source line as written, not its rendered text: emphasis
    /// markers, a link's URL and character references are read as text
    /// (`[link](x.md)` is `linkxmd`, `&amp;` is `amp`, `_em_` keeps its
    /// underscores). Hugo's generator (`markup/goldmark/autoid.go`,
    /// `sanitizeAnchorNameWithHook`) then does:
    ///
    /// ```go
    /// if asciiOnly { b = text.RemoveAccents(b) }  // NFD, drop Mn, NFC
    /// b = bytes.TrimSpace(b)
    /// for each rune r:
    ///     case asciiOnly && size != 1:          // dropped
    ///     case r == '-' || r == ' ': '-'
    ///     case r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
    ///         unicode.ToLower(r)
    /// ```
    ///
    /// Marks go (`हिन्दी` is `हनद`, a variation selector goes), and so do
    /// numbers that are not decimal digits (`²`). `unicode.ToLower` maps
    /// one rune to one: `İ` is `i`, and there is no final sigma. With
    /// `blackfriday`, `blackfriday.SanitizedAnchorName`: letters and
    /// numbers lowercased, and every run of anything else one `-`
    /// between them (none at either end).
    ///
    /// An empty id is `heading` (the hook in `idFactory.Generate`).
    pub(super) fn slug(self, text: &str) -> String {
        let line = text.rsplit('\n').next().unwrap_or_default();
        let id = match self {
            HugoIdType::Github => github(line, false),
            HugoIdType::GithubAscii => {
                let plain: String = line
                    .nfd()
                    .filter(|&c| c.general_category() != Gc::NonspacingMark)
                    .nfc()
                    .collect();
                github(&plain, true)
            }
            HugoIdType::Blackfriday => blackfriday(line),
        };
        if id.is_empty() { "heading".to_owned() } else { id }
    }
}

/// The `github` loop over a trimmed line, which drops what is not ASCII
/// when `ascii_only` (after the trim: `🚀 Launch` is `-launch`).
fn github(line: &str, ascii_only: bool) -> String {
    line.trim()
        .chars()
        .filter_map(|c| match c {
            c if ascii_only && !c.is_ascii() => None,
            '-' | ' ' => Some('-'),
            c if c == '_' || is_letter(c) || is_digit(c) => Some(go_lower(c)),
            _ => None,
        })
        .collect()
}

/// `blackfriday.SanitizedAnchorName`.
fn blackfriday(line: &str) -> String {
    let mut out = String::new();
    let mut dash = false;
    for c in line.chars() {
        if is_letter(c) || c.general_category_group() == Group::Number {
            if dash && !out.is_empty() {
                out.push('-');
            }
            dash = false;
            out.push(go_lower(c));
        } else {
            dash = true;
        }
    }
    out
}

/// Go's `unicode.IsLetter`.
fn is_letter(c: char) -> bool {
    c.general_category_group() == Group::Letter
}

/// Go's `unicode.IsDigit`: decimal digits only.
fn is_digit(c: char) -> bool {
    c.general_category() == Gc::DecimalNumber
}

/// Go's `unicode.ToLower`, one rune to one: the first of the full
/// lowercase mapping, which is longer only for `İ` (to `i` and a
/// combining dot, where Go gives `i`).
fn go_lower(c: char) -> char {
    c.to_lowercase().next().unwrap_or(c)
}
