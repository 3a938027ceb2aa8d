//! Hugo's include-style shortcodes: a site's own
//! `layouts/shortcodes/NAME.html` that reads a file or a page named by
//! one of its parameters. Only a template of a known shape is one: one
//! call of `readFile`, `.Site.GetPage` (or `site.GetPage`) or
//! `.Resources.Get`, and one parameter, `.Get 0` or `.Get "name"`. A
//! page's `{{< NAME "path" >}}` (or `{{% NAME path %}}`) is then a link
//! of kind `hugo:include` to what the call reads:
//!
//! - `readFile`: a file of the project, from its folder (a leading `/`
//!   too: Hugo reads it from the working directory);
//! - `GetPage`: a page by its path under `contentDir` (`a/b`,
//!   `a/b.md`, a bundle's `index.md` or a section's `_index.md`);
//! - `.Resources.Get`: a file of the page's own bundle.
//!
//! Any other shortcode is left alone.

use std::path::{Path, PathBuf};

use super::includes::{confined, lexical};
use crate::Span;

/// How many shortcode templates are read at most, and how large each.
const MAX_TEMPLATES: usize = 512;
const MAX_TEMPLATE_BYTES: u64 = 64 << 10;

/// What an include shortcode's template calls.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Reads {
    /// `readFile`: a file from the project's folder.
    File,
    /// `.Site.GetPage`: a page under `contentDir`.
    Page,
    /// `.Resources.Get`: a file of the page's bundle.
    Resource,
}

/// The parameter a template passes to its call.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Param {
    /// `.Get N`.
    Position(usize),
    /// `.Get "name"`.
    Named(String),
}

/// A site's include shortcodes, by name.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Shortcodes {
    by_name: Vec<(String, Reads, Param)>,
}

/// One use of an include shortcode in a page.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Use {
    /// What its template reads.
    pub(crate) reads: Reads,
    /// The argument as written, and where.
    pub(crate) path: String,
    pub(crate) span: Span,
}

impl Shortcodes {
    /// The include shortcodes of the Hugo site in `dir`.
    pub(crate) fn read(dir: &Path) -> Shortcodes {
        let mut by_name = vec![];
        let Ok(entries) = std::fs::read_dir(dir.join("layouts/shortcodes"))
        else {
            return Shortcodes { by_name };
        };
        let mut files: Vec<PathBuf> =
            entries.flatten().map(|e| e.path()).collect();
        files.sort();
        for file in files.into_iter().take(MAX_TEMPLATES) {
            let Some(name) = file
                .file_name()
                .and_then(|n| n.to_str())
                .and_then(|n| n.strip_suffix(".html"))
            else {
                continue;
            };
            // Not through a symbolic link, nor a large file.
            let small = std::fs::symlink_metadata(&file)
                .is_ok_and(|m| m.is_file() && m.len() <= MAX_TEMPLATE_BYTES);
            let Some(text) =
                small.then(|| std::fs::read_to_string(&file).ok()).flatten()
            else {
                continue;
            };
            if let Some((reads, param)) = shape(&text) {
                by_name.push((name.to_string(), reads, param));
            }
        }
        Shortcodes { by_name }
    }

    /// Whether the site has none.
    pub(crate) fn is_empty(&self) -> bool {
        self.by_name.is_empty()
    }

    /// The uses of the include shortcodes in a page's `text` (anywhere:
    /// Hugo renders shortcodes before the Markdown), but for the
    /// commented-out ones (`{{</* x */>}}`).
    pub(crate) fn uses(&self, text: &str) -> Vec<Use> {
        let b = text.as_bytes();
        let mut out = vec![];
        for open in memchr::memmem::find_iter(b, b"{{") {
            let (close, at) = match b.get(open + 2) {
                Some(b'<') => (&b">}}"[..], open + 3),
                Some(b'%') => (&b"%}}"[..], open + 3),
                _ => continue,
            };
            let Some(len) = memchr::memmem::find(&b[at..], close) else {
                continue;
            };
            let inner = Span::new(at, at + len);
            if let Some(one) = self.use_in(text, inner) {
                out.push(one);
            }
        }
        out
    }

    /// The use inside the delimiters `inner`, when it is one of an
    /// include shortcode.
    fn use_in(&self, text: &str, inner: Span) -> Option<Use> {
        let args = arguments(text, inner)?;
        let (None, name) = args.first()? else { return None };
        let name = &text[name.range()];
        let (_, reads, param) =
            self.by_name.iter().find(|(n, _, _)| n == name)?;
        let rest = &args[1..];
        let span = match param {
            Param::Position(i) => match rest.get(*i)? {
                (None, span) => *span,
                _ => return None,
            },
            Param::Named(key) => rest.iter().find_map(|(k, span)| {
                (k.as_deref() == Some(key.as_str())).then_some(*span)
            })?,
        };
        let path = text[span.range()].to_string();
        Some(Use { reads: *reads, path, span })
    }
}

/// The name and the arguments inside a shortcode's delimiters, each with
/// its `key=` when named: `name`, `"quoted"`, `` `raw` ``, `bare`,
/// `key="value"`. `None` for a comment (`/* ... */`) or what does not
/// read so.
fn arguments(text: &str, inner: Span) -> Option<Vec<(Option<String>, Span)>> {
    let b = text.as_bytes();
    let mut at = inner.start;
    let mut out = vec![];
    loop {
        while at < inner.end && b[at].is_ascii_whitespace() {
            at += 1;
        }
        if at >= inner.end {
            break;
        }
        // A comment (`{{</* x */>}}`) is no use; a lone `/` closes the
        // shortcode in itself (`{{< x "a" />}}`).
        if b[at..inner.end].starts_with(b"/*") {
            return None;
        }
        if b[at] == b'/' && at + 1 == inner.end {
            break;
        }
        let mut key = None;
        let word_end = at
            + b[at..inner.end]
                .iter()
                .take_while(|c| {
                    c.is_ascii_alphanumeric() || b"_-.".contains(c)
                })
                .count();
        if word_end < inner.end && b[word_end] == b'=' && word_end > at {
            key = Some(text[at..word_end].to_string());
            at = word_end + 1;
        }
        let (span, next) = match b.get(at) {
            Some(&q @ (b'"' | b'`')) if at < inner.end => {
                let len = memchr::memchr(q, &b[at + 1..inner.end])?;
                (Span::new(at + 1, at + 1 + len), at + len + 2)
            }
            Some(_) if at < inner.end => {
                let len = b[at..inner.end]
                    .iter()
                    .take_while(|c| !c.is_ascii_whitespace())
                    .count();
                (Span::new(at, at + len), at + len)
            }
            _ => return None,
        };
        out.push((key, span));
        at = next;
    }
    Some(out)
}

/// What a template reads, and with which parameter, when it is of a
/// known include shape: one call, one parameter.
fn shape(template: &str) -> Option<(Reads, Param)> {
    let calls = [
        (Reads::File, "readFile"),
        (Reads::Page, ".Site.GetPage"),
        (Reads::Page, "site.GetPage"),
        (Reads::Resource, ".Resources.Get"),
    ];
    let mut found = None;
    let mut count = 0;
    for (reads, call) in calls {
        for at in memchr::memmem::find_iter(template.as_bytes(), call) {
            // `.Resources.GetMatch` is another call; `.Site.GetPage` is
            // no `site.GetPage`.
            let after = template.as_bytes().get(at + call.len());
            let before = at.checked_sub(1).map(|i| template.as_bytes()[i]);
            if after.is_some_and(|c| c.is_ascii_alphanumeric())
                || (call == "site.GetPage" && before == Some(b'.'))
            {
                continue;
            }
            count += 1;
            found = Some(reads);
        }
    }
    if count != 1 {
        return None;
    }
    let params = params(template);
    match params.as_slice() {
        [one] => Some((found?, one.clone())),
        _ => None,
    }
}

/// The distinct `.Get N` and `.Get "name"` of a template.
fn params(template: &str) -> Vec<Param> {
    let b = template.as_bytes();
    let mut out: Vec<Param> = vec![];
    for at in memchr::memmem::find_iter(b, b".Get ") {
        let before = at.checked_sub(1).map(|i| b[i]);
        if before.is_some_and(|c| c.is_ascii_alphanumeric() || c == b'_') {
            continue;
        }
        let rest = template[at + 5..].trim_start();
        let param = if let Some(q) = rest.strip_prefix('"') {
            let Some(end) = q.find('"') else { continue };
            Param::Named(q[..end].to_string())
        } else {
            let digits: String =
                rest.chars().take_while(char::is_ascii_digit).collect();
            let Ok(n) = digits.parse() else { continue };
            Param::Position(n)
        };
        if !out.contains(&param) {
            out.push(param);
        }
    }
    out
}

/// The file a use reads, from the page `page` of the site in `dir`
/// whose pages are under `content`: `Err` with why none.
pub(crate) fn target(
    one: &Use,
    dir: &Path,
    content: &Path,
    page: &Path,
) -> Result<PathBuf, String> {
    let path = one.path.as_str();
    match one.reads {
        Reads::File => within(dir, dir, path).ok_or_else(|| {
            "a shortcode may not read outside the site's folder".to_string()
        }),
        Reads::Page => {
            let logical = path.trim_matches('/');
            let base = within(content, dir, logical).ok_or_else(|| {
                "a shortcode may not read outside the site's folder"
                    .to_string()
            })?;
            let mut tries = vec![];
            if base.extension().is_some() {
                tries.push(base.clone());
            }
            let with = |ext: &str| {
                let mut s = base.as_os_str().to_owned();
                s.push(ext);
                PathBuf::from(s)
            };
            tries.push(with(".md"));
            tries.push(base.join("index.md"));
            tries.push(base.join("_index.md"));
            tries.into_iter().find(|p| p.is_file()).ok_or_else(|| {
                format!("no page '{path}' under the content folder (GetPage)")
            })
        }
        Reads::Resource => {
            let name = page.file_name().and_then(|n| n.to_str());
            if !matches!(name, Some("index.md" | "_index.md")) {
                return Err(
                    "not a page bundle: the page has no resources".into()
                );
            }
            let bundle = page.parent().unwrap_or(dir);
            within(bundle, dir, path)
                .filter(|p| p.starts_with(bundle))
                .ok_or_else(|| {
                    "a resource is a file of the page's own bundle".to_string()
                })
        }
    }
}

/// `path` under `base` (a leading `/` from `base` too), its dot segments
/// removed, when it stays in `top`, no symbolic link taking it out.
fn within(base: &Path, top: &Path, path: &str) -> Option<PathBuf> {
    let joined = lexical(base, Path::new(path.trim_start_matches('/')))?;
    confined(joined, top)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The shapes of template that read a file, and those left alone.
    #[test]
    fn template_shapes() {
        for (template, want) in [
            (
                "{{ .Get 0 | readFile | markdownify }}",
                Some((Reads::File, Param::Position(0))),
            ),
            (
                "{{ $f := .Get \"file\" }}{{ readFile $f | .Page.RenderString }}",
                Some((Reads::File, Param::Named("file".into()))),
            ),
            (
                "{{ with .Site.GetPage (.Get 0) }}{{ .Content }}{{ end }}",
                Some((Reads::Page, Param::Position(0))),
            ),
            (
                "{{ with site.GetPage (.Get 1) }}{{ .Content }}{{ end }}",
                Some((Reads::Page, Param::Position(1))),
            ),
            (
                "{{ with .Page.Resources.Get (.Get 0) }}{{ .Content }}{{ end }}",
                Some((Reads::Resource, Param::Position(0))),
            ),
            // Two parameters, two calls, another call, no parameter.
            ("{{ readFile (printf \"%s/%s\" (.Get 0) (.Get 1)) }}", None),
            ("{{ readFile (.Get 0) }}{{ readFile (.Get 0) }}", None),
            ("{{ with .Page.Resources.GetMatch (.Get 0) }}{{ end }}", None),
            ("{{ readFile \"x.md\" }}", None),
            ("<b>{{ .Get 0 }}</b>", None),
        ] {
            assert_eq!(shape(template), want, "{template}");
        }
    }

    #[test]
    fn uses_in_a_page() {
        let codes = Shortcodes {
            by_name: vec![
                ("inc".into(), Reads::File, Param::Position(0)),
                ("page".into(), Reads::Page, Param::Named("path".into())),
            ],
        };
        let text = "{{< inc \"a b.md\" />}} {{% inc x.md %}} {{</* inc \"no.md\" */>}}\n{{< page path=\"/guide/install\" >}} {{< other \"o.md\" >}} {{< inc >}} {{< page \"p\" >}}";
        let uses: Vec<(Reads, &str, &str)> = codes
            .uses(text)
            .iter()
            .map(|u| (u.reads, &text[u.span.range()], ""))
            .collect();
        assert_eq!(
            uses,
            [
                (Reads::File, "a b.md", ""),
                (Reads::File, "x.md", ""),
                (Reads::Page, "/guide/install", ""),
            ]
        );
    }
}
