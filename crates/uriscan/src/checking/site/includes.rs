//! MkDocs' includes as the site has them: where a directive leads (a
//! snippet from the project's folder, `include-markdown` from the page's
//! own), never out of the project's folder, and a page's text with its
//! includes in place, for its anchors: an included heading is an anchor
//! of the including page.

use std::borrow::Cow;
use std::path::{Component, Path, PathBuf};

use crate::links::{GeneratorKind, directives};

/// How deep includes nest before the rest is left out: a cycle is
/// guarded besides, and this bounds the work of a chain.
const MAX_DEPTH: usize = 8;

/// How much included text one page takes in at most.
const MAX_BYTES: usize = 16 << 20;

/// The file that the include directive `kind` of the page `doc` names
/// with `path`, in the project whose folder is `folder`; or why it may
/// not be read.
pub(crate) fn target(
    kind: GeneratorKind,
    doc: &Path,
    folder: &Path,
    path: &str,
) -> Result<PathBuf, String> {
    let base = match kind {
        GeneratorKind::MkdocsSnippet => folder,
        _ => doc.parent().unwrap_or(folder),
    };
    let leaves = || {
        format!(
            "an include may not leave the project's folder '{}'",
            folder.file_name().map_or("".into(), |n| n.to_string_lossy())
        )
    };
    let mut out = base.to_path_buf();
    for c in Path::new(path.trim_start_matches('/')).components() {
        match c {
            Component::Normal(n) => out.push(n),
            Component::ParentDir if !out.pop() => return Err(leaves()),
            _ => {}
        }
    }
    if !out.starts_with(folder) {
        return Err(leaves());
    }
    // No symbolic link may take a read out of the folder either.
    if let (Ok(real), Ok(top)) = (out.canonicalize(), folder.canonicalize())
        && !real.starts_with(top)
    {
        return Err(leaves());
    }
    Ok(out)
}

/// The page `doc`'s `text` with each include directive replaced by the
/// included file's text (its own includes in place), as the site renders
/// it: what its anchors are computed from. Borrowed when it has none.
pub(crate) fn expanded<'t>(
    text: &'t str,
    doc: &Path,
    folder: &Path,
) -> Cow<'t, str> {
    let mut open = vec![doc.to_path_buf()];
    let mut budget = MAX_BYTES;
    expand(text, doc, folder, &mut open, &mut budget)
}

fn expand<'t>(
    text: &'t str,
    doc: &Path,
    folder: &Path,
    open: &mut Vec<PathBuf>,
    budget: &mut usize,
) -> Cow<'t, str> {
    let found = directives(text);
    if found.is_empty() || open.len() > MAX_DEPTH {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for d in found {
        if d.whole.start < at {
            continue;
        }
        out.push_str(&text[at..d.whole.start]);
        at = d.whole.end;
        let Ok(path) = target(d.kind, doc, folder, &d.path) else { continue };
        // A cycle includes nothing more.
        if open.contains(&path) {
            continue;
        }
        let Ok(bytes) = std::fs::read(&path) else { continue };
        if bytes.len() > *budget {
            continue;
        }
        *budget -= bytes.len();
        let included = String::from_utf8_lossy(&bytes);
        open.push(path.clone());
        out.push_str(&expand(&included, &path, folder, open, budget));
        open.pop();
        // The included text ends its line, as the directive's did.
        if !out.ends_with('\n') {
            out.push('\n');
        }
    }
    out.push_str(&text[at..]);
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn includes_expand_within_the_folder() {
        let dir = tempfile::tempdir().unwrap();
        let top = dir.path().canonicalize().unwrap();
        let write = |f: &str, body: &str| {
            std::fs::create_dir_all(top.join(f).parent().unwrap()).unwrap();
            std::fs::write(top.join(f), body).unwrap();
        };
        write("site/docs/index.md", "");
        write("site/snippets/a.md", "## From A\n\n--8<-- \"snippets/b.md\"\n");
        write("site/snippets/b.md", "## From B\n--8<-- \"snippets/a.md\"\n");
        write("site/README.md", "# Readme\n");
        write("outside.md", "## Outside\n");
        let folder = top.join("site");
        let doc = folder.join("docs/index.md");
        let text = "# Home\n\n--8<-- \"snippets/a.md\"\n\n{% include-markdown \"../README.md\" %}\n--8<-- \"../outside.md\"\n";
        let got = expanded(text, &doc, &folder);
        // A's snippet of B, B's of A left out (a cycle), the README,
        // not the file outside the folder.
        assert_eq!(
            got,
            "# Home\n\n## From A\n\n## From B\n\n\n\n\n# Readme\n\n\n"
        );
        let snippet = GeneratorKind::MkdocsSnippet;
        assert_eq!(
            target(snippet, &doc, &folder, "../outside.md"),
            Err("an include may not leave the project's folder 'site'".into())
        );
        assert_eq!(
            target(
                GeneratorKind::MkdocsIncludeMarkdown,
                &doc,
                &folder,
                "../README.md"
            ),
            Ok(folder.join("README.md"))
        );
        assert!(matches!(expanded("# x\n", &doc, &folder), Cow::Borrowed(_)));
    }
}
