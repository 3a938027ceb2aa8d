//! MkDocs' heading anchors: Python-Markdown's `toc` extension, with the
//! `slugify` function a site names in mkdocs.yml.

use std::collections::HashMap;

use unicode_normalization::UnicodeNormalization;
use unicode_properties::{
    GeneralCategoryGroup as Group, UnicodeGeneralCategory,
};

use super::casefold::FOLDS;
use super::{AnchorStyle, UnknownSlugRule};

/// The `slugify` function of an MkDocs site's `toc` extension, with its
/// keyword arguments. Made by [`AnchorStyle::mkdocs`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MkdocsSlugify(Rule);

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Rule {
    /// `markdown.extensions.toc.slugify`, or `slugify_unicode`.
    Toc { unicode: bool },
    /// `pymdownx.slugs.slugify(case=…, percent_encode=…, normalize=…)`.
    Slugs { case: Case, percent_encode: bool, normalize: Form },
}

/// pymdownx.slugs' `case`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Case {
    None,
    Lower,
    LowerAscii,
    Fold,
}

/// pymdownx.slugs' `normalize`, a Unicode normalization form.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Form {
    Nfc,
    Nfd,
    Nfkc,
    Nfkd,
}

/// The default: what Python-Markdown's `toc` uses when mkdocs.yml names
/// no `slugify`.
pub(super) const DEFAULT: MkdocsSlugify =
    MkdocsSlugify(Rule::Toc { unicode: false });

impl Default for MkdocsSlugify {
    /// `markdown.extensions.toc.slugify`, Python-Markdown's default.
    fn default() -> Self {
        DEFAULT
    }
}

const TOC_DEFAULT_NAME: &str = "markdown.extensions.toc.slugify";

impl MkdocsSlugify {
    /// The function mkdocs.yml names (`!!python/name:NAME`, or
    /// `!!python/object/apply:NAME` with `kwds`).
    ///
    /// pymdown-extensions 10 dropped `uslugify` and its kin in favour of
    /// the configurable `slugify`; each is the `slugify` it called in
    /// pymdown-extensions 9.11 (`pymdownx/slugs.py`).
    pub(super) fn named(
        name: Option<&str>,
        kwds: &[(&str, &str)],
    ) -> Result<MkdocsSlugify, UnknownSlugRule> {
        let unknown = |setting: &'static str, value: &str| UnknownSlugRule {
            setting,
            value: value.to_owned(),
            fallback: AnchorStyle::Mkdocs(DEFAULT),
            fallback_name: TOC_DEFAULT_NAME,
        };
        let name = name.map(str::trim);
        let slugs = |case, percent_encode| {
            Ok(MkdocsSlugify(Rule::Slugs {
                case,
                percent_encode,
                normalize: Form::Nfc,
            }))
        };
        match name {
            None | Some(TOC_DEFAULT_NAME) => Ok(DEFAULT),
            Some("markdown.extensions.toc.slugify_unicode") => {
                Ok(MkdocsSlugify(Rule::Toc { unicode: true }))
            }
            Some("pymdownx.slugs.uslugify") => slugs(Case::Lower, false),
            Some("pymdownx.slugs.uslugify_encoded") => {
                slugs(Case::Lower, true)
            }
            Some("pymdownx.slugs.uslugify_cased") => slugs(Case::None, false),
            Some("pymdownx.slugs.uslugify_cased_encoded") => {
                slugs(Case::None, true)
            }
            Some("pymdownx.slugs.gfm") => slugs(Case::LowerAscii, false),
            Some("pymdownx.slugs.gfm_encoded") => {
                slugs(Case::LowerAscii, true)
            }
            Some("pymdownx.slugs.slugify") => {
                let (mut case, mut percent_encode, mut normalize) =
                    (Case::None, false, Form::Nfc);
                // `slugify(**kwargs)` reads these three and ignores the rest.
                for &(key, value) in kwds {
                    match key {
                        "case" => {
                            case = match value {
                                "none" => Case::None,
                                "lower" => Case::Lower,
                                "lower-ascii" => Case::LowerAscii,
                                "fold" => Case::Fold,
                                _ => return Err(unknown("case", value)),
                            }
                        }
                        "percent_encode" => {
                            percent_encode = match value {
                                "true" | "True" | "yes" | "on" | "1" => true,
                                "false" | "False" | "no" | "off" | "0" => {
                                    false
                                }
                                _ => {
                                    return Err(unknown(
                                        "percent_encode",
                                        value,
                                    ));
                                }
                            }
                        }
                        "normalize" => {
                            normalize = match value {
                                "NFC" => Form::Nfc,
                                "NFD" => Form::Nfd,
                                "NFKC" => Form::Nfkc,
                                "NFKD" => Form::Nfkd,
                                _ => return Err(unknown("normalize", value)),
                            }
                        }
                        _ => {}
                    }
                }
                Ok(MkdocsSlugify(Rule::Slugs {
                    case,
                    percent_encode,
                    normalize,
                }))
            }
            Some(other) => Err(unknown("slugify", other)),
        }
    }

    /// Whether ids are percent-encoded (`percent_encode`): a link's
    /// fragment then reaches one in its encoded form.
    pub(super) fn percent_encodes(self) -> bool {
        matches!(self.0, Rule::Slugs { percent_encode: true, .. })
    }

    /// The slug of a heading whose text (tags stripped, references
    /// decoded) is `text`.
    pub(super) fn slug(self, text: &str) -> String {
        // `toc` hands slugify the heading's inner HTML with its tags
        // stripped, whitespace collapsed (`' '.join(text.split())`).
        let text = text.split(is_py_space).filter(|w| !w.is_empty());
        let text = text.collect::<Vec<_>>().join(" ");
        match self.0 {
            Rule::Toc { unicode } => toc_slugify(&text, unicode),
            Rule::Slugs { case, percent_encode, normalize } => {
                let slug = slugs_slugify(&text, case, normalize);
                if percent_encode { percent_encode_utf8(&slug) } else { slug }
            }
        }
    }
}

/// Python-Markdown's `toc.slugify` (`markdown/extensions/toc.py`, 3.x):
///
/// ```python
/// if not unicode:
///     value = unicodedata.normalize('NFKD', value)
///     value = value.encode('ascii', 'ignore').decode('ascii')
/// value = re.sub(r'[^\w\s-]', '', value).strip().lower()
/// return re.sub(r'[{}\s]+'.format(separator), separator, value)
/// ```
///
/// The default decomposes and drops what is not ASCII (`Crème` is
/// `creme`, `x²` is `x2`, `ß` and every non-Latin script go). Python's
/// `\w` is letters, numbers and `_`, but no marks: with
/// `slugify_unicode` a combining accent (`Café` written decomposed) and
/// the Devanagari vowel signs go. Runs of `-` and whitespace become one
/// `-`; the case is lowered after the filter, so `İ` leaves `i̇`.
fn toc_slugify(text: &str, unicode: bool) -> String {
    let ascii: String;
    // ASCII decomposes to itself.
    let value = if unicode || text.is_ascii() {
        text
    } else {
        ascii = text.nfkd().filter(char::is_ascii).collect();
        &ascii
    };
    let kept: String = value
        .chars()
        .filter(|&c| is_py_word(c) || is_py_space(c) || c == '-')
        .collect();
    let lower = kept.trim_matches(is_py_space).to_lowercase();
    let mut out = String::with_capacity(lower.len());
    let mut in_run = false;
    for c in lower.chars() {
        let sep = c == '-' || is_py_space(c);
        if !sep {
            out.push(c);
        } else if !in_run {
            out.push('-');
        }
        in_run = sep;
    }
    out
}

/// pymdown-extensions' `_uslugify` (`pymdownx/slugs.py`, 10.x):
///
/// ```python
/// slug = RE_TAGS.sub('', unicodedata.normalize(normalize, text)).strip()
/// if case == 'lower': slug = slug.lower()
/// elif case == 'lower-ascii': slug = RE_ASCII_LETTERS.sub(lower, slug)
/// elif case == 'fold': slug = slug.casefold()
/// slug = RE_SEP.sub(sep, RE_INVALID_SLUG_CHAR.sub('', slug))
/// ```
///
/// with `RE_TAGS = </?[^>]*>` (so a code span's `<b>` goes, text and
/// all), `RE_INVALID_SLUG_CHAR = [^\w\- ]` and `RE_SEP = ' '`: no
/// squeezing, and no case change by default. The case changes before
/// the filter, so `İ` lowered is `i` and a combining dot that goes.
/// `casefold` has no final sigma (`ΣΟΣ` folds to `σοσ`); `lower` has.
fn slugs_slugify(text: &str, case: Case, form: Form) -> String {
    let normalized: String = match form {
        // Every normal form of ASCII is itself.
        _ if text.is_ascii() => text.to_owned(),
        Form::Nfc => text.nfc().collect(),
        Form::Nfd => text.nfd().collect(),
        Form::Nfkc => text.nfkc().collect(),
        Form::Nfkd => text.nfkd().collect(),
    };
    let untagged = strip_tags(&normalized);
    let slug = untagged.trim_matches(is_py_space);
    let cased = match case {
        Case::None => slug.to_owned(),
        Case::Lower => slug.to_lowercase(),
        Case::LowerAscii => slug.to_ascii_lowercase(),
        Case::Fold => slug.chars().map(casefold).collect(),
    };
    cased
        .chars()
        .filter(|&c| is_py_word(c) || c == '-' || c == ' ')
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// `text` without what `</?[^>]*>` matches: each `<` up to the next `>`.
fn strip_tags(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(open) = rest.find('<') {
        out.push_str(&rest[..open]);
        match rest[open..].find('>') {
            Some(close) => rest = &rest[open + close + 1..],
            None => {
                out.push('<');
                rest = &rest[open + 1..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// Python's `str.casefold` of one character: the generated table, else
/// its lowercase.
fn casefold(c: char) -> String {
    match FOLDS.binary_search_by_key(&c, |&(k, _)| k) {
        Ok(i) => FOLDS[i].1.to_owned(),
        Err(_) => c.to_lowercase().collect(),
    }
}

/// `urllib.parse.quote` of the UTF-8 bytes: all but ASCII letters,
/// digits and `_.-~/` as `%XX`, in capitals. A browser sends a
/// non-ASCII fragment in that form, which such ids are written to match.
pub(super) fn percent_encode_utf8(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for &b in s.as_bytes() {
        if b.is_ascii_alphanumeric() || b"_.-~/".contains(&b) {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// Python's `\w` on `str`: `_` and `str.isalnum()`, which is the letter
/// categories and anything numeric (marks are not).
fn is_py_word(c: char) -> bool {
    if c.is_ascii() {
        // The ASCII letters and numbers: no table.
        return c.is_ascii_alphanumeric() || c == '_';
    }
    matches!(c.general_category_group(), Group::Letter | Group::Number)
}

/// Python's `\s` and `str.isspace()`: Unicode White_Space, and the
/// information separators U+001C to U+001F.
fn is_py_space(c: char) -> bool {
    c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c)
}

/// Python-Markdown's `toc.unique`: an id already in the page (every
/// element's explicit id counts, from the start) gets `_1`, `_2`, …; an
/// id that ends in `_N` counts on from N (`foo_1` taken makes `foo_2`),
/// and an empty one becomes `_1`.
pub(super) fn unique(id: String, ids: &mut HashMap<String, usize>) -> String {
    let mut id = id;
    if id.is_empty() || ids.contains_key(&id) {
        // IDCOUNT_RE = r'^(.*)_([0-9]+)$'
        let counted = id.rsplit_once('_').and_then(|(base, n)| {
            let digits =
                !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit());
            digits.then(|| (base.to_owned(), n.parse::<u64>().ok()))
        });
        let (base, mut count) = match counted {
            Some((base, Some(n))) => (base, n),
            // Too many digits for a count: a suffix after them.
            Some((_, None)) | None => (id.clone(), 0),
        };
        loop {
            count = count.saturating_add(1);
            let next = format!("{base}_{count}");
            if !ids.contains_key(&next) || count == u64::MAX {
                id = next;
                break;
            }
        }
    }
    ids.insert(id.clone(), 0);
    id
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn python_unique() {
        let mut ids = HashMap::new();
        let got: Vec<String> = ["a", "a", "a_1", "", "", "b_9", "b_9"]
            .into_iter()
            .map(|s| unique(s.to_owned(), &mut ids))
            .collect();
        // `a_1` is taken by the second `a`: as `_1` counts on, it is
        // `a_2`. An empty id is `_1`, then `_2`.
        assert_eq!(got, ["a", "a_1", "a_2", "_1", "_2", "b_9", "b_10"]);
    }

    #[test]
    fn tags_and_encoding() {
        assert_eq!(strip_tags("a <b>c</b> <d"), "a c <d");
        assert_eq!(percent_encode_utf8("é-a_b.~"), "%C3%A9-a_b.~");
        assert_eq!(casefold('ß'), "ss");
        assert_eq!(casefold('Σ'), "σ");
    }

    #[test]
    fn names_and_arguments() {
        let named = |n, k: &[(&str, &str)]| MkdocsSlugify::named(Some(n), k);
        assert_eq!(MkdocsSlugify::named(None, &[]), Ok(DEFAULT));
        assert_eq!(
            named("pymdownx.slugs.slugify", &[("case", "lower")]),
            named("pymdownx.slugs.uslugify", &[])
        );
        // Arguments that slugify does not read are ignored, as in Python.
        assert!(named("pymdownx.slugs.slugify", &[("sep", "_")]).is_ok());
        let err =
            named("pymdownx.slugs.slugify", &[("case", "upper")]).unwrap_err();
        assert_eq!(
            err.to_string(),
            "unknown MkDocs toc case `upper`: heading anchors follow \
             markdown.extensions.toc.slugify (the default) instead"
        );
        assert!(named("my.slugify", &[]).is_err());
    }
}
