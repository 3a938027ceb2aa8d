//! The JSON Lines rows: the scan's, `links`' and `check`'s (with its
//! remote fields). Each row's field order is the documented one.

use std::borrow::Cow;
use std::path::{Path, PathBuf};

use serde::Serialize;
use uriscan::links::{LinkRef, Role};
use uriscan::scanning::{BufferedText, Match};
use uriscan::syntax::security::Warning;

use super::Label;
use super::mask_password;

/// One JSON Lines row. The field order is the documented one.
#[derive(Serialize)]
struct MatchRow<'a> {
    path: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    path_bytes: Option<&'a [u8]>,
    line: u64,
    column: u64,
    offset: usize,
    uri: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    raw: Option<Cow<'a, str>>,
    scheme: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    trimmed: Option<MatchTrimmed<'a>>,
    /// A line break after a hyphen inside the URI: the hyphen was kept,
    /// but a typesetter may have added it (Appendix C).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    hyphen_break: bool,
    warnings: Vec<&'static str>,
}

#[derive(Serialize)]
struct MatchTrimmed<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    prefix: Option<Cow<'a, str>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    suffix: Option<Cow<'a, str>>,
    reasons: Vec<&'static str>,
}

/// Where the JSON printer finds the raw and trimmed texts of a match.
#[derive(Clone, Copy)]
pub enum Texts<'a> {
    /// The file's bytes, read whole.
    Haystack(&'a [u8]),
    /// A stream's buffer, while it holds the match.
    Buffered(&'a BufferedText<'a>),
}

impl<'a> Texts<'a> {
    /// The bytes of `m`'s span: the URI as written.
    fn raw(self, m: &Match<'_>) -> &'a [u8] {
        match self {
            Texts::Haystack(h) => &h[m.span().range()],
            Texts::Buffered(t) => t.raw(),
        }
    }
    /// The bytes of `m`'s `URL:` prefix, if any.
    fn url_prefix(self, m: &Match<'_>) -> Option<&'a [u8]> {
        match self {
            Texts::Haystack(h) => {
                m.trimmed().url_prefix.map(|s| &h[s.range()])
            }
            Texts::Buffered(t) => t.url_prefix(),
        }
    }
    /// The bytes delimiting cut after `m`, if any.
    fn suffix(self, m: &Match<'_>) -> Option<&'a [u8]> {
        match self {
            Texts::Haystack(h) => m.trimmed().suffix.map(|s| &h[s.range()]),
            Texts::Buffered(t) => t.suffix(),
        }
    }
}

/// The scan's JSON row of `m`, printed as `uri`; `mask` hides the
/// password of the raw text too.
pub fn match_row(
    out: &mut Vec<u8>,
    label: &Label<'_>,
    m: &Match<'_>,
    texts: Texts<'_>,
    uri: &str,
    warnings: &[Warning],
    mask: bool,
) {
    let raw_bytes = texts.raw(m);
    let raw = if raw_bytes != uri.as_bytes() || m.rejoined() {
        let raw = String::from_utf8_lossy(raw_bytes);
        Some(if mask {
            Cow::Owned(mask_password(&raw).into_owned())
        } else {
            raw
        })
    } else {
        None
    };
    let t = m.trimmed();
    let trimmed = (!t.is_empty()).then(|| {
        let prefix = texts.url_prefix(m);
        let suffix = texts.suffix(m);
        let mut reasons = vec![];
        if t.url_prefix.is_some() {
            reasons.push("url-prefix");
        }
        if t.punctuation {
            reasons.push("punctuation");
        }
        if t.unbalanced_bracket {
            reasons.push("unbalanced-bracket");
        }
        if t.invalid_tail {
            reasons.push("invalid-tail");
        }
        MatchTrimmed {
            prefix: prefix.map(String::from_utf8_lossy),
            suffix: suffix.map(String::from_utf8_lossy),
            reasons,
        }
    });
    // The scheme as printed: normalization lowercases it, which
    // keeps its length.
    let scheme = &uri[..m.scheme().len()];
    let row = MatchRow {
        path: label.lossy(),
        path_bytes: label.bytes_if_not_utf8(),
        line: m.line(),
        column: m.column(),
        offset: m.span().start,
        uri,
        raw,
        scheme,
        trimmed,
        hyphen_break: m.hyphen_break(),
        warnings: warnings.iter().map(|w| w.code()).collect(),
    };
    // Serializing plain strings and numbers into a Vec cannot fail.
    let _ = serde_json::to_writer(&mut *out, &row);
    out.push(b'\n');
}

/// One JSON Lines row of `links` (and the first fields of `check`'s);
/// the field order is the documented one.
#[derive(Serialize)]
pub struct LinkRow<'a> {
    path: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    path_bytes: Option<&'a [u8]>,
    line: u64,
    column: u64,
    offset: usize,
    kind: String,
    raw: Cow<'a, str>,
    link: Cow<'a, str>,
    pub target: Option<Cow<'a, str>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    local: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    fragment: Option<Cow<'a, str>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    rel: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    hreflang: Option<&'a str>,
    /// The part of its file an AsciiDoc include takes (`tag=x`).
    #[serde(skip_serializing_if = "Option::is_none")]
    include_selection: Option<&'a str>,
    /// `navigate` or `embed`; left out for the other links.
    #[serde(skip_serializing_if = "Option::is_none")]
    role: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub record_id: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub record_offset: Option<u64>,
    /// What `record_offset` counts: `gzip-member`, `decompressed` or
    /// `file`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub offset_kind: Option<&'static str>,
    /// What was odd in a web archive's record but read all the same, and
    /// where browsers read the link otherwise than its target.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub warnings: Option<Cow<'a, [&'static str]>>,
}

impl<'a> LinkRow<'a> {
    /// The row of `link` in the file `label`: `local` is the target's
    /// file when it is under `root`, relative to `cwd`.
    pub fn new(
        label: &'a Label<'_>,
        link: LinkRef<'a>,
        root: Option<&Path>,
        cwd: &Path,
    ) -> LinkRow<'a> {
        let local = link.file_path().and_then(|p| {
            p.starts_with(root?)
                .then(|| relative_to(cwd, &p).to_string_lossy().into_owned())
        });
        LinkRow {
            path: label.lossy(),
            path_bytes: label.bytes_if_not_utf8(),
            line: link.line(),
            column: link.column(),
            offset: link.span().start,
            kind: link.kind().to_string(),
            raw: Cow::Borrowed(link.raw()),
            link: Cow::Borrowed(link.link()),
            target: link.target().map(Cow::Borrowed),
            local,
            fragment: link.fragment(),
            error: link.error().map(|e| e.to_string()),
            rel: link.rel(),
            hreflang: link.hreflang(),
            include_selection: link.include_selection().map(|s| s.as_str()),
            role: (link.role() != Role::Other).then(|| link.role().as_str()),
            page: None,
            record_id: None,
            record_offset: None,
            offset_kind: None,
            warnings: None,
        }
    }

    /// The row with the password of each URI masked (`user:***@host`),
    /// for reports: the remote check never prints credentials in clear.
    #[cfg(feature = "remote")]
    pub fn mask_passwords(self) -> LinkRow<'a> {
        let mask = |s: Cow<'a, str>| match s {
            Cow::Borrowed(b) => mask_password(b),
            Cow::Owned(o) => Cow::Owned(mask_password(&o).into_owned()),
        };
        LinkRow {
            raw: mask(self.raw),
            link: mask(self.link),
            target: self.target.map(mask),
            ..self
        }
    }
}

/// `path` relative to `dir` (both absolute), with `..` where it is not
/// below it.
pub fn relative_to(dir: &Path, path: &Path) -> PathBuf {
    let d: Vec<_> = dir.components().collect();
    let p: Vec<_> = path.components().collect();
    let common = d.iter().zip(&p).take_while(|(a, b)| a == b).count();
    let mut out = PathBuf::new();
    for _ in common..d.len() {
        out.push("..");
    }
    for c in &p[common..] {
        out.push(c);
    }
    out
}

/// One row of `check --json`: the fields of `links --json`, then the
/// verdict.
#[derive(Serialize)]
pub struct CheckRow<'a> {
    #[serde(flatten)]
    pub link: LinkRow<'a>,
    pub status: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub suggestion: Option<Cow<'a, str>>,
    /// For a Markdown definition, the lines of the links that use it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub uses: Option<&'a [u64]>,
    /// For a mapped link, the target it was checked as, and what mapped
    /// it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mapped_to: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mapped_by: Option<String>,
    /// How a site's rules mapped the link to a local target.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mapped: Option<&'a str>,
    /// For a file that a page includes, the page it was checked on.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub via: Option<&'a str>,
}

/// One row of `check --json` for a remote link: the fields of `links
/// --json`, then the remote verdict.
#[cfg(feature = "remote")]
#[derive(Serialize)]
pub struct RemoteRow<'a> {
    #[serde(flatten)]
    pub link: LinkRow<'a>,
    #[serde(flatten)]
    pub remote: RemoteFields<'a>,
}

/// The remote fields of a `check --json` row.
#[cfg(feature = "remote")]
#[derive(Serialize)]
pub struct RemoteFields<'a> {
    status: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    reason: Option<String>,
    http_status: Option<u16>,
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    chain: Vec<RedirectHop<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    final_uri: Option<&'a str>,
    time_ms: u64,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    cached: bool,
}

/// One redirect of `chain`.
#[cfg(feature = "remote")]
#[derive(Serialize)]
struct RedirectHop<'a> {
    uri: &'a str,
    status: u16,
}

#[cfg(feature = "remote")]
impl<'a> RemoteFields<'a> {
    /// The fields of a link's verdict: its status and reason (a missing
    /// fragment makes a fine page broken) and its URI's result.
    pub fn new(
        status: uriscan::checking::remote::RemoteStatus,
        reason: Option<String>,
        r: &'a uriscan::checking::remote::RemoteResult,
    ) -> RemoteFields<'a> {
        RemoteFields {
            status: status.as_str(),
            reason,
            http_status: r.http_status(),
            chain: r
                .chain()
                .iter()
                .map(|h| RedirectHop { uri: &h.uri, status: h.status })
                .collect(),
            final_uri: (!r.chain().is_empty()).then(|| r.final_uri()),
            time_ms: r.elapsed().as_millis() as u64,
            cached: r.is_cached(),
        }
    }
}

/// The row of `check --orphans --json` for a document nothing links to.
pub fn orphan_row(out: &mut Vec<u8>, path: &Path) {
    let row = serde_json::json!({
        "path": path.to_string_lossy(),
        "status": "orphan",
    });
    let _ = serde_json::to_writer(&mut *out, &row);
    out.push(b'\n');
}
