//! A Sphinx project's `conf.py`, read, never executed: the few simple
//! assignments that change which labels `:ref:` can name, and whether
//! its Markdown is MyST; and what follows from them: the labels of a
//! document, and the source a missing page or document name stands for.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::links::{Format, Kind, MystKind, MystSettings, RstKind, label_key};

/// What the check takes from a `conf.py`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct SphinxConf {
    /// The source directory: where `conf.py` is.
    pub(crate) srcdir: PathBuf,
    /// `sphinx.ext.autosectionlabel` is among the extensions: every
    /// section title is a label.
    pub(crate) autosectionlabel: bool,
    /// `autosectionlabel_prefix_document = True`: the labels are
    /// `docname:title`.
    pub(crate) prefix_document: bool,
    /// `myst_parser` is among the extensions: `.md` files are MyST.
    pub(crate) myst: bool,
    /// The settings of myst-parser it gives.
    pub(crate) myst_settings: MystSettings,
}

impl SphinxConf {
    /// The configuration of the project `doc` belongs to: the `conf.py`
    /// of its directory or the nearest above.
    pub(crate) fn of(doc: &Path) -> Option<SphinxConf> {
        let dir = doc
            .ancestors()
            .skip(1)
            .take(16)
            .find(|d| d.join("conf.py").is_file())?;
        Some(SphinxConf::parse(dir, &read_conf(dir)))
    }

    /// Reads `text`, the `conf.py` of `srcdir`: code lines only (a line
    /// that is a comment says nothing).
    pub(crate) fn parse(srcdir: &Path, text: &str) -> SphinxConf {
        let code = text
            .lines()
            .map(|l| l.split('#').next().unwrap_or(""))
            .filter(|l| !l.trim().is_empty());
        let mut conf = SphinxConf {
            srcdir: srcdir.to_path_buf(),
            ..SphinxConf::default()
        };
        for line in code {
            if line.contains("sphinx.ext.autosectionlabel") {
                conf.autosectionlabel = true;
            }
            if line.contains("myst_parser") || line.contains("myst_nb") {
                conf.myst = true;
            }
        }
        conf.prefix_document = crate::links::conf_assigned(
            text,
            "autosectionlabel_prefix_document",
        )
        .is_some_and(|v| v.trim() == "True");
        conf.myst_settings = MystSettings::from_conf_py(text);
        conf
    }

    /// The document name of `doc` (its path under the source directory,
    /// without its suffix, `/` between): what `:doc:` and the prefix of
    /// autosectionlabel call it.
    pub(crate) fn docname(&self, doc: &Path) -> Option<String> {
        let under = doc.strip_prefix(&self.srcdir).ok()?.with_extension("");
        let parts: Vec<_> = under
            .components()
            .map(|c| c.as_os_str().to_string_lossy())
            .collect();
        Some(parts.join("/"))
    }
}

/// Which documents are MyST: a `.md` file of a Sphinx project whose
/// `conf.py` enables `myst_parser` (or `myst_nb`), and the settings of
/// myst-parser it gives. Each directory's answer is kept, so that a tree
/// of Markdown files is not searched for a `conf.py` once a file.
#[derive(Debug, Default)]
pub struct FormatDetector {
    myst_dirs: HashMap<PathBuf, Option<Arc<MystSettings>>>,
}

impl FormatDetector {
    /// A detector that knows no directory yet.
    pub fn new() -> FormatDetector {
        FormatDetector::default()
    }

    /// The format the check reads `path` in: [`Format::Myst`] for a
    /// Markdown file of a MyST project, else what its extension says
    /// ([`Format::from_path`]).
    pub fn format(&mut self, path: &Path) -> Format {
        let format = Format::from_path(path);
        if format == Format::Markdown && self.myst_settings(path).is_some() {
            Format::Myst
        } else {
            format
        }
    }

    /// The settings of myst-parser that the `conf.py` of the MyST project
    /// of `path` (a Markdown file) gives; `None` when it is in no such
    /// project.
    pub fn myst_settings(&mut self, path: &Path) -> Option<Arc<MystSettings>> {
        let dir = path.parent()?;
        if let Some(found) = self.myst_dirs.get(dir) {
            return found.clone();
        }
        let found = SphinxConf::of(path)
            .filter(|c| c.myst)
            .map(|c| Arc::new(c.myst_settings));
        self.myst_dirs.insert(dir.to_path_buf(), found.clone());
        found
    }
}

/// How many files one document's `include` directives are followed to.
const MAX_INCLUDED: usize = 64;

/// The text of the document at `path` (read in `format`), then of each
/// file its `include` directives name, followed in turn: each file once
/// (a cycle ends), only files under `bound` (an include that leaves the
/// root is not read; its link says so), at most [`MAX_INCLUDED`].
/// Docutils inserts an included file's text where the directive stands:
/// its labels and ids are the including document's.
pub(crate) fn with_includes(
    path: &Path,
    format: Format,
    bound: &Path,
) -> Vec<(PathBuf, String)> {
    let srcdir = SphinxConf::of(path).map(|c| c.srcdir);
    let bound = std::fs::canonicalize(bound).unwrap_or(bound.to_path_buf());
    let mut seen = vec![std::fs::canonicalize(path).unwrap_or(path.into())];
    let mut texts = vec![];
    let mut pending = vec![path.to_path_buf()];
    while let Some(file) = pending.pop() {
        let Ok(bytes) = std::fs::read(&file) else { continue };
        let text = String::from_utf8_lossy(&bytes).into_owned();
        let page = crate::links::Page::new(text.as_bytes(), format);
        for link in crate::links::LinkExtractor::new().extract(&page) {
            if !matches!(
                link.kind(),
                Kind::Rst(RstKind::Include)
                    | Kind::Myst(MystKind::Include)
                    | Kind::AdocInclude
            ) || seen.len() >= MAX_INCLUDED
            {
                continue;
            }
            // `/x` is from the source directory, as Sphinx reads it.
            let named = link.link();
            let to = match (named.strip_prefix('/'), &srcdir) {
                (Some(rest), Some(dir)) if format != Format::AsciiDoc => {
                    dir.join(rest)
                }
                _ => file.parent().unwrap_or(Path::new("")).join(named),
            };
            let Ok(to) = std::fs::canonicalize(&to) else { continue };
            if to.starts_with(&bound) && to.is_file() && !seen.contains(&to) {
                seen.push(to.clone());
                pending.push(to);
            }
        }
        texts.push((file, text));
    }
    texts
}

/// The files that the document at `path` (read in `format`: a
/// reStructuredText, MyST or AsciiDoc document) includes, followed in
/// turn, each once, none outside `root`: what docutils (or Asciidoctor)
/// inserts into it.
pub fn included_files(
    path: &Path,
    format: Format,
    root: &Path,
) -> Vec<PathBuf> {
    with_includes(path, format, root)
        .into_iter()
        .skip(1)
        .map(|(p, _)| p)
        .collect()
}

/// The labels of the document at `path` (under `root`) for `:ref:` and
/// `{ref}`, keyed as Sphinx keys them: those of a reStructuredText
/// document, or of a MyST one, and of the files they include; with
/// autosectionlabel, the section titles (`docname:title` with the
/// prefix). None for another document.
pub(crate) fn labels_of(path: &Path, root: &Path) -> Vec<String> {
    let format = Format::from_path(path);
    if !matches!(format, Format::Rst | Format::Markdown) {
        return vec![];
    }
    let conf = SphinxConf::of(path);
    if format == Format::Markdown && !conf.as_ref().is_some_and(|c| c.myst) {
        return vec![];
    }
    let (mut names, mut sections) = (vec![], vec![]);
    for (_, text) in with_includes(path, format, root) {
        if format == Format::Rst {
            let (labels, titles) = crate::links::rst_labels(&text);
            names.extend(labels.into_iter().map(|(name, _)| name));
            sections.extend(titles);
        } else {
            let (labels, titles) = crate::links::myst_labels(&text);
            names.extend(labels);
            sections.extend(titles.iter().map(|t| label_key(t)));
        }
    }
    if let Some(c) = conf.filter(|c| c.autosectionlabel) {
        let prefix = c.prefix_document.then(|| c.docname(path));
        names.extend(sections.into_iter().map(|t| match prefix.as_ref() {
            Some(Some(p)) => label_key(&format!("{p}:{t}")),
            _ => t,
        }));
    }
    names
}

/// The glossary terms of the document at `path` (under `root`) for
/// `:term:` and `{term}`, keyed as Sphinx looks them up (lowercase): those
/// of a reStructuredText document, or of a MyST one, and of the files
/// they include. None for another document.
pub(crate) fn terms_of(path: &Path, root: &Path) -> Vec<String> {
    let format = Format::from_path(path);
    let myst = match format {
        Format::Rst => false,
        Format::Markdown if SphinxConf::of(path).is_some_and(|c| c.myst) => {
            true
        }
        _ => return vec![],
    };
    with_includes(path, format, root)
        .iter()
        .flat_map(|(_, text)| crate::links::glossary_terms(text, myst))
        .map(|t| label_key(&t))
        .collect()
}

/// The ids of the reStructuredText document at `path` and of the files
/// it includes (none outside its Sphinx project, or its directory when
/// it has none), as Sphinx makes them in a Sphinx project.
pub(crate) fn rst_anchors_of(path: &Path) -> Vec<String> {
    let conf = SphinxConf::of(path);
    let bound = match &conf {
        Some(c) => c.srcdir.clone(),
        None => path.parent().unwrap_or(Path::new("/")).to_path_buf(),
    };
    with_includes(path, Format::Rst, &bound)
        .iter()
        .flat_map(|(_, text)| crate::links::rst_anchors(text, conf.is_some()))
        .collect()
}

/// The anchors of the Markdown document at `path` when it is MyST: its
/// labels and section ids (and heading slugs with
/// `myst_heading_anchors`); `None` for another.
pub(crate) fn myst_anchors_of(path: &Path, text: &str) -> Option<Vec<String>> {
    let conf = SphinxConf::of(path).filter(|c| c.myst)?;
    Some(crate::links::myst_anchors(text, &conf.myst_settings))
}

/// The source in a Sphinx project (a `conf.py` in its directory or
/// above) that a missing `path` stands for: a page of the built site
/// (`page.html`), a document name without its suffix, or with another
/// source suffix (`:doc:` says `.rst`, `{doc}` says `.md`: either may be
/// the source, in a project that mixes them).
pub(crate) fn source_of(path: &Path) -> Option<PathBuf> {
    let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
    let known = ["html", "rst", "rest", "md", ""];
    if !known.iter().any(|k| ext.eq_ignore_ascii_case(k)) {
        return None;
    }
    let conf = path
        .ancestors()
        .skip(1)
        .take(8)
        .find(|d| d.join("conf.py").is_file())?;
    // Markdown files are sources only where MyST reads them.
    let myst = SphinxConf::parse(conf, &read_conf(conf)).myst;
    ["rst", "rest", "md"]
        .iter()
        .filter(|s| !s.eq_ignore_ascii_case(ext) && (**s != "md" || myst))
        .map(|s| path.with_extension(s))
        .find(|p| p.is_file())
}

/// What the check could not read of the `conf.py` of `srcdir`: one line
/// for each setting it reads that the file sets otherwise than by a
/// top-level assignment of a literal, with what was used instead.
pub fn conf_notes(srcdir: &Path) -> Vec<String> {
    let text = read_conf(srcdir);
    let unread = |name| crate::links::unread_setting(&text, name);
    let mut notes = vec![];
    if let Some(why) = unread("extensions") {
        notes.push(format!(
            "extensions: {why}, only the names conf.py writes as strings read"
        ));
    }
    if let Some(why) = unread("autosectionlabel_prefix_document") {
        notes.push(format!(
            "autosectionlabel_prefix_document: {why}, False used"
        ));
    }
    notes.extend(MystSettings::unread_in_conf_py(&text));
    // Which files are documents (`sphinx_sources`).
    for name in ["source_suffix", "exclude_patterns"] {
        if let Some(why) = unread(name) {
            notes.push(format!("{name}: {why}, Sphinx's default used"));
        }
    }
    notes
}

/// The text of the `conf.py` of `dir`.
pub(super) fn read_conf(dir: &Path) -> String {
    let text = std::fs::read(dir.join("conf.py")).unwrap_or_default();
    String::from_utf8_lossy(&text).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn simple_assignments_are_read() {
        let conf = SphinxConf::parse(
            Path::new("/p/docs"),
            "extensions = [\n    'sphinx.ext.autosectionlabel',\n]\n\
             autosectionlabel_prefix_document = True\n",
        );
        assert!(conf.autosectionlabel && conf.prefix_document);
        assert!(!conf.myst);
        let myst = SphinxConf::parse(
            Path::new("/p"),
            "extensions = [\"myst_parser\"]\nmyst_heading_anchors = 3\n",
        );
        assert!(myst.myst && myst.myst_settings.heading_anchors == 3);
        let off = SphinxConf::parse(
            Path::new("/p"),
            "# extensions = ['sphinx.ext.autosectionlabel']\n",
        );
        assert!(!off.autosectionlabel);
        assert_eq!(
            conf.docname(Path::new("/p/docs/usage/guide.rst")).as_deref(),
            Some("usage/guide")
        );
    }

    #[test]
    fn settings_set_by_code_are_told() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        super::super::write_test_file(
            root,
            "conf.py",
            "extensions = BASE + ['myst_parser']\n\
             if x:\n    autosectionlabel_prefix_document = True\n\
             myst_heading_anchors = depth()\n",
        );
        assert_eq!(
            conf_notes(root),
            [
                "extensions: not a literal, only the names conf.py writes as strings read",
                "autosectionlabel_prefix_document: set inside a block, False used",
                "myst_heading_anchors: not a literal, 0 used",
            ]
        );
        let conf = SphinxConf::parse(root, &read_conf(root));
        assert!(conf.myst && !conf.prefix_document);
        super::super::write_test_file(root, "conf.py", "extensions = []\n");
        assert!(conf_notes(root).is_empty());
    }

    #[test]
    fn includes_are_followed_once_and_within_the_bound() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        let write =
            |name, text| super::super::write_test_file(&root, name, text);
        write("out.rst", ".. _out:\n\nOut\n===\n");
        write("p/conf.py", "");
        write(
            "p/index.rst",
            ".. include:: a.inc\n.. include:: ../out.rst\n.. include:: /b.inc\n",
        );
        write("p/a.inc", ".. _a-label:\n\n.. include:: ../p/index.rst\n");
        write("p/b.inc", ".. include:: a.inc\n.. include:: b.inc\n");
        let index = root.join("p/index.rst");
        let files = included_files(&index, Format::Rst, &root.join("p"));
        assert_eq!(files, [root.join("p/b.inc"), root.join("p/a.inc")]);
        assert_eq!(labels_of(&index, &root.join("p")), ["a-label"]);
        write("p/b.inc", ".. glossary::\n\n   Included Term\n      Def.\n");
        assert_eq!(terms_of(&index, &root.join("p")), ["included term"]);
        // With a wider root, the file outside the project is read too.
        assert_eq!(included_files(&index, Format::Rst, &root).len(), 3);
    }

    #[test]
    fn asciidoc_includes_are_followed_from_their_own_directory() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        let write =
            |name, text| super::super::write_test_file(&root, name, text);
        // A `conf.py` gives `/x` no meaning in AsciiDoc: it stays absolute.
        write("p/conf.py", "");
        write(
            "p/index.adoc",
            ":dir: inc\n\ninclude::{dir}/a.txt[tag=x]\ninclude::/b.txt[]\n",
        );
        write("p/inc/a.txt", "include::c.txt[lines=1]\ninclude::a.txt[]\n");
        write("p/inc/c.txt", "C\n");
        write("p/b.txt", "B\n");
        let index = root.join("p/index.adoc");
        let files = included_files(&index, Format::AsciiDoc, &root);
        assert_eq!(
            files,
            [root.join("p/inc/a.txt"), root.join("p/inc/c.txt")]
        );
    }
}
