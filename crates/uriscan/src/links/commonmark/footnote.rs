//! Footnotes (a GitHub extension) as pulldown-cmark reads them:
//! definitions (`[^label]: text`), container blocks whose lines after the
//! first are indented by 4 columns, and references (`[^label]`), which
//! are no links and, where their label is defined, end every open
//! bracket. Labels other than ASCII letters, digits and `-`, and the
//! shapes whose reading pulldown-cmark mixes with references to links
//! (a bracket after the reference, an image's `!`) decline the document.

use unicase::UniCase;

use super::{Declined, declined};

/// The label of a footnote definition opening `rest` (a line from its
/// first non-space byte) and the offset in `rest` where its content
/// starts; `None` when it opens none.
pub(super) fn definition(
    rest: &[u8],
) -> Result<Option<(&str, usize)>, Declined> {
    if !rest.starts_with(b"[^") {
        return Ok(None);
    }
    let Some(close) = memchr::memchr(b']', rest) else { return Ok(None) };
    if rest.get(close + 1) != Some(&b':') {
        return Ok(None);
    }
    let Some(label) = simple_label(&rest[2..close]) else {
        return Err(declined());
    };
    let mut content = close + 2;
    while content < rest.len() && matches!(rest[content], b' ' | b'\t') {
        content += 1;
    }
    Ok(Some((label, content)))
}

/// What a bracket's text `^label` is, with footnotes read.
pub(super) enum Reference {
    /// A reference to a defined footnote.
    Defined,
    /// An undefined footnote's: text.
    Undefined,
}

/// What the link text `text_start..at` (`at` its `]`, `..end` the
/// inline content) is when it is a footnote's label; `None` when it is
/// not one, or footnotes are not read (`labels` is `None`).
pub(super) fn reference(
    bytes: &[u8],
    (text_start, at, end): (usize, usize, usize),
    image: bool,
    labels: Option<&[String]>,
) -> Result<Option<Reference>, Declined> {
    let Some(labels) = labels else { return Ok(None) };
    // A footnote's label after link text makes pulldown-cmark read the
    // text as a shortcut reference, which is not read.
    if bytes[at + 1..end.max(at + 1)].starts_with(b"[^") {
        return Err(declined());
    }
    if bytes.get(text_start) != Some(&b'^') || text_start + 1 >= at {
        return Ok(None);
    }
    // pulldown-cmark reads `]\[` on as a reference to a link, which is
    // not read.
    if bytes.get(at + 1..at + 3) == Some(b"\\[") && at + 2 < end {
        return Err(declined());
    }
    if image || (bytes.get(at + 1) == Some(&b'[') && at + 1 < end) {
        return Err(declined());
    }
    let Some(label) = simple_label(&bytes[text_start + 1..at]) else {
        return Err(declined());
    };
    let defined =
        labels.iter().any(|l| UniCase::new(l.as_str()) == UniCase::new(label));
    Ok(Some(if defined { Reference::Defined } else { Reference::Undefined }))
}

/// A label of ASCII letters, digits and `-`, the ones read here.
fn simple_label(label: &[u8]) -> Option<&str> {
    let simple = !label.is_empty()
        && label.len() <= 100
        && label.iter().all(|b| b.is_ascii_alphanumeric() || *b == b'-');
    simple.then(|| std::str::from_utf8(label).ok()).flatten()
}
