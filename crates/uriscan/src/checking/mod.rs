//! Whether the links of a document resolve, offline: local files and the
//! fragments that point into them (`uriscan check`). This layer sits on
//! [`links`](crate::links), which finds and resolves each link.
//!
//! - [`Checker`] checks local targets (files, directories, case, index
//!   files, fallback extensions, fragments) as a map-reduce over the
//!   documents, which the reading threads hand to [`Collector`]s;
//! - `facts` is what it keeps of each link between reading and the
//!   verdicts: a kind, an interned path and a fragment, not the text;
//! - [`disabled_lines`] reads the comments that leave lines unchecked;
//! - [`anchors`] computes the fragments a target document offers: heading
//!   anchors by the rules of the renderer that will show it (GitHub,
//!   GitLab, mdBook), explicit ids, and `id`/`name` in raw HTML;
//! - [`Remapper`] maps targets before they are checked: `REGEX
//!   REPLACEMENT` rules, and the repository's own web views;
//! - [`site`] knows the site generators (MkDocs, mdBook, Docusaurus,
//!   Hugo, Jekyll): which generator builds a part of the tree, and how
//!   it turns a page's links into files;
//! - `sphinx` reads the few assignments of a Sphinx `conf.py` that
//!   change which labels `:ref:` names, and which Markdown is MyST
//!   ([`FormatDetector`]), and follows `include` directives;
//! - [`SphinxSources`] says which files a Sphinx project builds as
//!   documents (`source_suffix`, `exclude_patterns`);
//! - [`asciidoc_included`] follows AsciiDoc's `include::` directives as
//!   Asciidoctor inserts them (`tag=`, `lines=`), and
//!   [`asciidoc_standing`] says which files are documents of their own;
//! - `confine` is the one guard of every include that reads a file;
//! - [`Antora`] reads Antora's `antora.yml`: a component's attributes,
//!   and the components beside it that another's resource ids name;
//! - `remote` (the `remote` feature) checks `http` and `https` links
//!   over the network.

pub mod anchors;
mod antora;
mod asciidoc_includes;
mod collector;
mod confine;
mod disabled;
mod facts;
mod fxhash;
mod local;
mod remap;
#[cfg(feature = "remote")]
pub mod remote;
pub mod site;
mod sphinx;
mod sphinx_sources;
mod suggest;

pub use antora::{Antora, Component};
pub use asciidoc_includes::{
    AsciidocIncluded, AsciidocStanding, asciidoc_included, asciidoc_standing,
};
pub use collector::{Checked, CheckedDocument, Collector, DocumentDigest};
pub use disabled::disabled_lines;
pub use facts::Document;
pub use local::{Checker, CheckerBuilder, Reason, Status, Verdict};
pub use remap::{
    Mapped, MappedBy, RemapError, RemapRule, Remapper, RepoViews,
};
pub use sphinx::{
    FormatDetector, conf_notes as sphinx_conf_notes, included_files,
};
pub use sphinx_sources::SphinxSources;

/// Writes `text` to `name` under `root`, with the directories it needs:
/// the trees the tests build.
#[cfg(test)]
pub(crate) fn write_test_file(root: &std::path::Path, name: &str, text: &str) {
    let path = root.join(name);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}
