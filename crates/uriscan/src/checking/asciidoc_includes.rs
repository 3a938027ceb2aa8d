//! The files an AsciiDoc document includes, as Asciidoctor's preprocessor
//! inserts them: each `include::` followed in turn (a nested one from the
//! directory of the file that holds it), only the part its `tag=`,
//! `tags=` or `lines=` takes, read with the attributes in effect where
//! it stands; never a file outside the bound, never a URL.

use std::path::{Path, PathBuf};

use super::confine::confined_include;
use crate::links::{
    AsciidocInclude, IncludeSelection, PathKind, asciidoc_includes, file_uri,
};

/// How many files one document's includes are followed to, and how deep:
/// Asciidoctor's default `max-include-depth` is 64.
const MAX_INCLUDED: usize = 64;

/// A file an AsciiDoc document includes, as it is inserted there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AsciidocIncluded {
    /// The included file, canonical.
    pub file: PathBuf,
    /// The file whose directive names it: the document, or a file it
    /// includes.
    pub by: PathBuf,
    /// The directive's line in `by`.
    pub line: u64,
    /// The part of the file it takes; `None` for all of it.
    pub selection: Option<IncludeSelection>,
    /// The file's text as it is taken: the lines left out blanked, so
    /// that each link keeps its line and column.
    pub text: String,
    /// The tags asked for that the file does not hold.
    pub missing_tags: Vec<String>,
    /// The attributes in effect where it is included, to read `text`
    /// with ([`Page::attributes`](crate::links::Page::attributes)).
    pub attributes: Vec<(String, String)>,
}

/// The ids of the AsciiDoc document at `path`, whose text is `text`, and
/// of the files it includes, each read with the attributes where it is
/// included: none outside the document's Antora component (a folder
/// with an `antora.yml`), or its own directory when it is in none.
pub(crate) fn asciidoc_anchors_of(path: &Path, text: &str) -> Vec<String> {
    let mut ids = crate::links::reader_api::asciidoc_anchors(text, &[]);
    if !text.contains("include::") {
        return ids;
    }
    let dir = path.parent().unwrap_or(Path::new("/"));
    let bound = dir
        .ancestors()
        .take(8)
        .find(|d| d.join("antora.yml").is_file())
        .unwrap_or(dir);
    for included in asciidoc_included(path, text, &[], bound) {
        ids.extend(crate::links::reader_api::asciidoc_anchors(
            &included.text,
            &included.attributes,
        ));
    }
    ids
}

/// The files the AsciiDoc document at `path` (whose text is `text`, read
/// with the attributes `preset`) includes, followed in turn, in document
/// order: each under `bound` only (a symbolic link out of it is not
/// followed), none that its own chain of includes already holds (a cycle
/// ends), at most 64 files. An include in a verbatim block is
/// shown as text, and holds no links: it is not read. A file may come
/// more than once, each time with the part that include takes.
pub fn asciidoc_included(
    path: &Path,
    text: &str,
    preset: &[(String, String)],
    bound: &Path,
) -> Vec<AsciidocIncluded> {
    let bound = std::fs::canonicalize(bound).unwrap_or(bound.to_path_buf());
    let top = std::fs::canonicalize(path).unwrap_or(path.to_path_buf());
    let mut out = vec![];
    follow(&top, text, preset, &bound, &mut vec![top.clone()], &mut out);
    out
}

/// The includes of `text` (the file `file`, whose chain of includers,
/// itself last, is `chain`), each followed depth first into `out`.
fn follow(
    file: &Path,
    text: &str,
    preset: &[(String, String)],
    bound: &Path,
    chain: &mut Vec<PathBuf>,
    out: &mut Vec<AsciidocIncluded>,
) {
    let url = file_uri(file, PathKind::File);
    for include in asciidoc_includes(text, Some(&url), preset) {
        if out.len() >= MAX_INCLUDED || chain.len() > MAX_INCLUDED {
            return;
        }
        if include.verbatim {
            continue;
        }
        let Some(to) = included_path(file, &include, bound) else {
            continue;
        };
        if chain.contains(&to) {
            continue;
        }
        let Ok(bytes) = std::fs::read(&to) else { continue };
        let whole = String::from_utf8_lossy(&bytes);
        let (text, missing_tags) = match &include.selection {
            Some(s) => {
                let taken = s.select(&whole);
                (taken.text, taken.missing_tags)
            }
            None => (whole.into_owned(), vec![]),
        };
        // Its own includes come after it.
        let (nested, attributes) = (text.clone(), include.attributes.clone());
        out.push(AsciidocIncluded {
            file: to.clone(),
            by: file.to_path_buf(),
            line: include.line,
            selection: include.selection,
            text,
            missing_tags,
            attributes: include.attributes,
        });
        chain.push(to.clone());
        follow(&to, &nested, &attributes, bound, chain, out);
        chain.pop();
    }
}

/// The file `include` (a directive of `file`) names, canonical, when it
/// is a file under `bound` ([`confined_include`]: not a URL, which is
/// never fetched; no symbolic link out). A `..` is taken away without
/// looking at the file system, as Asciidoctor's path resolver does.
fn included_path(
    file: &Path,
    include: &AsciidocInclude,
    bound: &Path,
) -> Option<PathBuf> {
    let dir = file.parent().unwrap_or(Path::new("/"));
    let to = confined_include(dir, include.link.as_str(), bound)?;
    let to = std::fs::canonicalize(to).ok()?;
    to.is_file().then_some(to)
}

/// Whether an AsciiDoc file is a document of its own, by where it
/// stands and by its name: what Antora publishes as a page, what
/// Asciidoctor's build tools convert alone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AsciidocStanding {
    /// A document of its own, included or not: an Antora page (in a
    /// module's `pages`, its name not starting with `_`) or navigation
    /// file (in the module's own directory).
    Document,
    /// A fragment, read where it is included: in an Antora component a
    /// file of another family (`partials`, `examples`), or a page whose
    /// name starts with `_`, which Antora does not publish; elsewhere a
    /// file whose name starts with `_`, which Asciidoctor's build tools
    /// (Maven, Gradle, Jekyll AsciiDoc) do not convert alone.
    Fragment,
    /// Not in an Antora module: a document of its own unless another
    /// document of the run includes it, which makes it a fragment.
    UnlessIncluded,
}

/// How the AsciiDoc file at `path` stands ([`AsciidocStanding`]), in the
/// Antora component whose `antora.yml` is in `component` (`None` for a
/// file in none). Asciidoctor's own command line converts whatever it is
/// given: the rule is the build tools' and Antora's.
pub fn asciidoc_standing(
    path: &Path,
    component: Option<&Path>,
) -> AsciidocStanding {
    let hidden = path
        .file_name()
        .is_some_and(|n| n.as_encoded_bytes().starts_with(b"_"));
    let in_module = component
        .and_then(|dir| path.strip_prefix(dir).ok())
        .map(|rel| rel.iter().collect::<Vec<_>>())
        .filter(|parts| parts.len() >= 3 && parts[0] == "modules");
    match in_module.as_deref() {
        // `modules/NAME/nav.adoc`: the module's own directory.
        Some([_, _, _]) if !hidden => AsciidocStanding::Document,
        Some([_, _, family, ..]) if *family == "pages" && !hidden => {
            AsciidocStanding::Document
        }
        Some([_, _, family, _, ..])
            if ["partials", "examples", "pages"]
                .iter()
                .any(|f| family == f) =>
        {
            AsciidocStanding::Fragment
        }
        _ if hidden => AsciidocStanding::Fragment,
        _ => AsciidocStanding::UnlessIncluded,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn includes_take_their_part_in_their_attributes() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        let write =
            |name, text| super::super::write_test_file(&root, name, text);
        write("out.txt", "https://out.example/\n");
        write(
            "p/index.adoc",
            "= I\n:base: https://b.example\n\n\
             include::inc/a.txt[tag=x]\ninclude::../out.txt[]\n\
             include::inc/a.txt[lines=1]\ninclude::https://x.example/y[]\n\
             ----\ninclude::inc/a.txt[]\n----\n",
        );
        write(
            "p/inc/a.txt",
            "{base}/one\n// tag::x[]\n{base}/two\ninclude::b.txt[]\n\
             include::a.txt[]\n// end::x[]\n",
        );
        write("p/inc/b.txt", "B\n");
        let index = root.join("p/index.adoc");
        let text = std::fs::read_to_string(&index).unwrap();
        let found = asciidoc_included(&index, &text, &[], &root.join("p"));
        let files: Vec<_> = found
            .iter()
            .map(|i| (i.file.strip_prefix(&root).unwrap().to_owned(), i.line))
            .collect();
        assert_eq!(
            files,
            [
                (PathBuf::from("p/inc/a.txt"), 4),
                (PathBuf::from("p/inc/b.txt"), 4),
                (PathBuf::from("p/inc/a.txt"), 6),
            ]
        );
        let tagged = &found[0];
        assert_eq!(tagged.selection.as_ref().unwrap().as_str(), "tag=x");
        assert!(!tagged.text.contains("/one") && tagged.text.contains("/two"));
        assert_eq!(tagged.text.lines().nth(2), Some("{base}/two"));
        assert_eq!(found[1].by, root.join("p/inc/a.txt"));
        assert!(
            tagged
                .attributes
                .contains(&("base".into(), "https://b.example@".into()))
        );
        assert!(
            found[2].text.contains("/one") && !found[2].text.contains("b.txt")
        );
    }

    #[test]
    fn an_included_files_ids_are_the_includers() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        let write =
            |name, text| super::super::write_test_file(&root, name, text);
        write("out.adoc", "[[outside]]\nOut\n");
        write(
            "p/index.adoc",
            "= I\n:idprefix: id-\n\n== Top\n\ninclude::part.adoc[tag=x]\n\
             include::../out.adoc[]\n",
        );
        write(
            "p/part.adoc",
            "== Left Out\n\n// tag::x[]\n== In Part\n\n[[anchor]]\nText.\n// end::x[]\n",
        );
        let index = root.join("p/index.adoc");
        let text = std::fs::read_to_string(&index).unwrap();
        assert_eq!(
            asciidoc_anchors_of(&index, &text),
            ["id_top", "id_in_part", "anchor"]
        );
    }

    #[test]
    fn pages_stand_alone_and_partials_where_included() {
        use AsciidocStanding::*;
        let c = Path::new("/docs");
        let standing = |p: &str| asciidoc_standing(Path::new(p), Some(c));
        assert_eq!(standing("/docs/modules/ROOT/pages/index.adoc"), Document);
        assert_eq!(standing("/docs/modules/cli/pages/a/b.adoc"), Document);
        assert_eq!(standing("/docs/modules/ROOT/nav.adoc"), Document);
        assert_eq!(
            standing("/docs/modules/ROOT/pages/_hidden.adoc"),
            Fragment
        );
        assert_eq!(standing("/docs/modules/ROOT/partials/p.adoc"), Fragment);
        assert_eq!(standing("/docs/modules/ROOT/examples/x/e.adoc"), Fragment);
        // Not in a module: Antora does not read it.
        assert_eq!(standing("/docs/README.adoc"), UnlessIncluded);
        assert_eq!(standing("/docs/_notes.adoc"), Fragment);
        let alone = |p: &str| asciidoc_standing(Path::new(p), None);
        assert_eq!(alone("/d/modules/ROOT/partials/p.adoc"), UnlessIncluded);
        assert_eq!(alone("/d/guide.adoc"), UnlessIncluded);
        assert_eq!(alone("/d/_attributes.adoc"), Fragment);
        assert_eq!(alone("/d/_dir/part.adoc"), UnlessIncluded);
    }

    #[test]
    fn an_include_never_leaves_its_bound() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        let write =
            |name, text| super::super::write_test_file(&root, name, text);
        write("secret.adoc", "https://secret.example/\n");
        write(
            "p/index.adoc",
            "include::../secret.adoc[]\ninclude::sub/../a.adoc[]\n\
             include::/etc/hostname[]\ninclude::file:///etc/hostname[]\n",
        );
        write("p/a.adoc", "A\n");
        let index = root.join("p/index.adoc");
        let text = std::fs::read_to_string(&index).unwrap();
        let found = asciidoc_included(&index, &text, &[], &root.join("p"));
        let files: Vec<_> = found.iter().map(|i| i.file.clone()).collect();
        // `sub` need not be there: `..` is taken away by its name.
        assert_eq!(files, [root.join("p/a.adoc")]);
    }
}
