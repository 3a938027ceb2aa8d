//! A Sphinx project's `conf.py`, read, never executed: the few simple
//! assignments that change which labels `:ref:` can name.

use std::path::{Path, PathBuf};

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
        let text = std::fs::read(dir.join("conf.py")).ok()?;
        Some(SphinxConf::parse(dir, &String::from_utf8_lossy(&text)))
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
            if let Some((name, value)) = line.split_once('=')
                && name.trim() == "autosectionlabel_prefix_document"
            {
                conf.prefix_document = value.trim() == "True";
            }
        }
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
}
