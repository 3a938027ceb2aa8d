//! Docusaurus' partials: a Markdown file that a page imports
//! (`import Part from './_part.mdx'`) and renders as a component
//! (`<Part />`) puts its headings on that page, each with the id its own
//! file gives it (each MDX file is compiled apart: its slugs are counted
//! apart too), `{#id}` or the MDX comment `{/* #id */}`. Only an import
//! of a `.md` or `.mdx` file that is relative (`./`, `../`) or from the
//! site's folder (`@site/`) is followed; partials nest, a cycle cut.
//! Nothing is read outside the site's folder, by `..` or by symbolic
//! link. A partial is read once a run: the walk, which reads it as a
//! document of its own, keeps its bytes in a [`ReadOnce`] for the pages
//! that import it.

use std::path::{Path, PathBuf};

use super::includes::{ReadOnce, confined, lexical};
use crate::checking::anchors::mdx_comment_ids;

use crate::links::{GeneratorKind, Kind, mdx_links};

/// How deep partials nest before the rest is left out.
const MAX_DEPTH: usize = 8;

/// How many partials one page takes in at most.
const MAX_PARTIALS: usize = 256;

/// The texts (their ESM and expressions taken out) of the partials that
/// the page `doc` (of text `text`) renders, nested ones too, each a file
/// in the folder `top`: as `files` kept it, else from the disk.
pub(crate) fn rendered_texts(
    text: &str,
    doc: &Path,
    top: &Path,
    files: &ReadOnce,
) -> Vec<String> {
    let mut out = vec![];
    let mut open = vec![doc.to_path_buf()];
    walk(text, doc, (top, files), &mut open, &mut out);
    out
}

fn walk(
    text: &str,
    doc: &Path,
    (top, files): (&Path, &ReadOnce),
    open: &mut Vec<PathBuf>,
    out: &mut Vec<String>,
) {
    if open.len() > MAX_DEPTH {
        return;
    }
    for path in rendered(text, doc, top) {
        if open.contains(&path) || out.len() >= MAX_PARTIALS {
            continue;
        }
        // As the walk read it; else read now, not kept: a checker used
        // again sees the file as it is then.
        let Some(bytes) = files
            .get(&path)
            .or_else(|| Some(std::fs::read(&path).ok()?.into()))
        else {
            continue;
        };
        let partial = String::from_utf8_lossy(&bytes);
        open.push(path.clone());
        walk(&partial, &path, (top, files), open, out);
        open.pop();
        // Its MDX comment ids (`{/* #id */}`) as `{#id}`, as the page's.
        out.push(crate::links::mdx_markdown(&mdx_comment_ids(&partial)));
    }
}

/// The partials that `text` (of the page `doc`) imports and renders as a
/// component: `import Name from './_x.mdx'` and a `<Name` tag, each in
/// the folder `top`.
fn rendered(text: &str, doc: &Path, top: &Path) -> Vec<PathBuf> {
    let dir = doc.parent().unwrap_or(Path::new(""));
    let bytes = text.as_bytes();
    let mut out = vec![];
    for (kind, start, path) in mdx_links(text) {
        // Docusaurus' alias of the site's folder, or a relative path.
        let from_site = path.strip_prefix("@site/");
        if kind != Kind::Generator(GeneratorKind::MdxImport)
            || !(from_site.is_some()
                || path.starts_with("./")
                || path.starts_with("../"))
            || !(path.ends_with(".md") || path.ends_with(".mdx"))
        {
            continue;
        }
        let line =
            memchr::memrchr(b'\n', &bytes[..start]).map_or(0, |i| i + 1);
        let Some(name) = default_import(&text[line..start]) else { continue };
        if !renders(bytes, name) {
            continue;
        }
        let joined = match from_site {
            Some(rest) => lexical(top, Path::new(rest)),
            None => lexical(dir, Path::new(&path)),
        };
        let Some(file) = joined.and_then(|file| confined(file, top)) else {
            continue;
        };
        out.push(file);
    }
    out
}

/// The default binding of an import statement that ends at its path's
/// quote: `import Part from '` gives `Part`.
fn default_import(head: &str) -> Option<&str> {
    let rest = head.trim_start().strip_prefix("import")?;
    let rest = rest.strip_prefix(|c: char| c.is_ascii_whitespace())?;
    let rest = rest.trim_start();
    let end = rest
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '$'))
        .unwrap_or(rest.len());
    let (name, after) = rest.split_at(end);
    let after = after.trim_start().strip_prefix("from")?;
    let quoted = after.trim();
    let capital = name.starts_with(|c: char| c.is_ascii_uppercase());
    (capital && (quoted == "'" || quoted == "\"")).then_some(name)
}

/// Whether `text` holds the tag `<name` (then a space, `/` or `>`).
fn renders(text: &[u8], name: &str) -> bool {
    let tag = format!("<{name}");
    memchr::memmem::find_iter(text, tag.as_bytes()).any(|at| {
        text.get(at + tag.len()).is_some_and(|c| {
            c.is_ascii_whitespace() || matches!(c, b'/' | b'>')
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rendered_partials_give_their_text() {
        let dir = tempfile::tempdir().unwrap();
        let top = dir.path();
        let write =
            |f: &str, body: &str| super::super::write_test_file(top, f, body);
        write(
            "docs/_a.mdx",
            "import B from '../shared/_b.md';\n\n## From A\n\n<B />\n",
        );
        write(
            "shared/_b.md",
            "## From B {#b-id}\n\nimport A from '../docs/_a.mdx';\n\n<A/>\n",
        );
        write("docs/_unused.mdx", "## Unused\n");
        write(
            "docs/_c.md",
            "## By a comment {/* #c-id */}\n\nimport A from './_a.mdx';\n",
        );
        let page = top.join("docs/page.mdx");
        let text = "import A from './_a.mdx';\nimport Unused from './_unused.mdx';\nimport Pic from './pic.png';\nimport {X} from './_x.mdx';\nimport C from './_c.md';\n\n# Page\n\n<A />\n\n<Unusedx />\n<C/>\n";
        let texts = rendered_texts(text, &page, top, &ReadOnce::default());
        // B nested in A, A's own import of B's cycle cut; the unused one
        // and the named import left out.
        assert_eq!(texts.len(), 3, "{texts:?}");
        assert!(texts[0].contains("## From B {#b-id}"), "{texts:?}");
        assert!(texts[1].contains("## From A"), "{texts:?}");
        // A partial's MDX comment id is its heading's id, as the page's.
        assert!(texts[2].starts_with("## By a comment {#c-id}"), "{texts:?}");
        assert_eq!(default_import("import Part from '"), Some("Part"));
        assert_eq!(default_import("import part from '"), None);
        assert_eq!(default_import("import * as P from '"), None);
        assert_eq!(default_import("  import  P  from  \""), Some("P"));
    }

    /// `@site/` names a partial from the site's folder, as Docusaurus'
    /// webpack alias does; never out of it.
    #[test]
    fn partials_from_the_site_folder() {
        let dir = tempfile::tempdir().unwrap();
        let site = dir.path().join("site");
        std::fs::create_dir_all(site.join("docs/a")).unwrap();
        std::fs::write(site.join("docs/_p.mdx"), "## Part\n").unwrap();
        std::fs::write(dir.path().join("_out.md"), "## Out\n").unwrap();
        let page = site.join("docs/a/page.mdx");
        let text = "import P from '@site/docs/_p.mdx';\nimport O from '@site/../_out.md';\n\n<P />\n<O />\n";
        assert_eq!(
            rendered_texts(text, &page, &site, &ReadOnce::default()),
            ["## Part\n"]
        );
    }

    #[test]
    fn partials_outside_the_site_are_not_read() {
        let dir = tempfile::tempdir().unwrap();
        let site = dir.path().join("site");
        std::fs::create_dir_all(site.join("docs")).unwrap();
        std::fs::write(dir.path().join("_out.md"), "## Outside\n").unwrap();
        let page = site.join("docs/page.mdx");
        let text = "import O from '../../_out.md';\n\n<O />\n";
        assert!(
            rendered_texts(text, &page, &site, &ReadOnce::default())
                .is_empty()
        );
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink(
                dir.path().join("_out.md"),
                site.join("docs/_in.md"),
            )
            .unwrap();
            let text = "import I from './_in.md';\n\n<I />\n";
            assert!(
                rendered_texts(text, &page, &site, &ReadOnce::default())
                    .is_empty()
            );
        }
        // The same file, inside the folder given as the top, is read.
        let text = "import O from '../../_out.md';\n\n<O />\n";
        assert_eq!(
            rendered_texts(text, &page, dir.path(), &ReadOnce::default())
                .len(),
            1
        );
    }
}
