//! GitHub's heading anchors, as github-slugger computes them: GitHub's
//! and Docusaurus's rule.

use unicode_properties::{GeneralCategory as Gc, UnicodeGeneralCategory};

/// GitHub's rule, from `Flet/github-slugger` (2.x), `index.js` and
/// `script/generate-regex.mjs`, which reimplement what GitHub documents
/// in "Basic writing and formatting syntax — Section links":
///
/// ```js
/// if (!maintainCase) value = value.toLowerCase()
/// return value.replace(regex, '').replace(/ /g, '-')
/// ```
///
/// where `regex` removes the general categories Other_Number, the
/// punctuation categories other than Connector_Punctuation (Dash
/// included), Symbol, Control, Private_Use, Format, Unassigned and
/// Separator, then `.remove(alphabetics)`, `.remove(' ')` and
/// `.remove('-')`. What stays is therefore: letters, marks, decimal
/// and letter numbers, connector punctuation (`_`), anything Alphabetic
/// (the circled letters `Ⓐ` are symbols but Alphabetic), space and
/// `-`. No trimming (2.x dropped it; Markdown heading text is trimmed by
/// the parser anyway) and no squeezing: `C++ & Rust` is `c--rust`.
///
/// Emoji are symbols and go, but a variation selector after one
/// (U+FE0F, a mark) stays, as it does on github.com: `⚠️ Note` is
/// `\u{fe0f}-note`.
pub(super) fn github_slug(text: &str) -> String {
    if text.is_ascii() {
        // Among ASCII, the letters and digits are the Alphabetic and the
        // decimal numbers, `_` the connector punctuation: no table.
        return text
            .bytes()
            .filter_map(|b| match b {
                b' ' => Some('-'),
                b'-' | b'_' => Some(char::from(b)),
                b if b.is_ascii_alphanumeric() => {
                    Some(char::from(b.to_ascii_lowercase()))
                }
                _ => None,
            })
            .collect();
    }
    let keeps = |c: char| {
        c == '-'
            || c.is_alphabetic()
            || matches!(
                c.general_category(),
                Gc::UppercaseLetter
                    | Gc::LowercaseLetter
                    | Gc::TitlecaseLetter
                    | Gc::ModifierLetter
                    | Gc::OtherLetter
                    | Gc::NonspacingMark
                    | Gc::SpacingMark
                    | Gc::EnclosingMark
                    | Gc::DecimalNumber
                    | Gc::LetterNumber
                    | Gc::ConnectorPunctuation
            )
    };
    spaces_to_hyphens(&text.to_lowercase(), keeps)
}

/// `text` with each space turned into `-` and the other characters
/// kept where `keeps` says so: the last steps of the GitHub and GitLab
/// rules.
pub(super) fn spaces_to_hyphens(
    text: &str,
    keeps: impl Fn(char) -> bool,
) -> String {
    text.chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c => keeps(c).then_some(c),
        })
        .collect()
}
