//! Which files a Sphinx project builds as documents of their own: every
//! file under its source directory whose name ends with a
//! `source_suffix`, but those `exclude_patterns` matches (or a folder
//! above them), as `sphinx.project.Project.discover` finds them. A file
//! that is no document (an excluded `.rst`, a `.inc`) is only read where
//! an `include` inserts it.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use regex::Regex;

use super::sphinx::{SphinxConf, read_conf};
use crate::links::{conf_assigned, conf_strings};

/// Sphinx's own exclusions, beside the project's (`EXCLUDE_PATHS`).
const ALWAYS_EXCLUDED: &[&str] =
    &["**/_sources", ".#*", "**/.#*", "*.lproj/**"];

/// The settings of a `conf.py` that say which files are documents.
#[derive(Debug)]
struct SourceRules {
    /// `source_suffix`: `.rst` unless it says, and `.md` with myst_parser.
    suffixes: Vec<String>,
    /// `exclude_patterns`, and Sphinx's own, as it compiles them.
    excluded: Vec<Regex>,
}

impl SourceRules {
    /// The rules of the `conf.py` whose text is `text` (with `myst`,
    /// myst_parser among its extensions). A setting that is no literal
    /// is left at Sphinx's default (the report says so).
    fn parse(text: &str, myst: bool) -> SourceRules {
        let literal =
            |name| conf_assigned(text, name).filter(|v| is_literal_strings(v));
        let mut suffixes = match literal("source_suffix") {
            Some(v) if v.trim_start().starts_with(['\'', '"']) => {
                vec![unquoted(v.trim()).to_owned()]
            }
            Some(v) => conf_strings(v),
            None => vec![".rst".to_owned()],
        };
        if myst && !suffixes.iter().any(|s| s == ".md") {
            suffixes.push(".md".to_owned());
        }
        // What Sphinx leaves out besides: templates and static files.
        let patterns: Vec<String> = [
            "exclude_patterns",
            "templates_path",
            "html_static_path",
            "html_extra_path",
        ]
        .into_iter()
        .filter_map(literal)
        .flat_map(conf_strings)
        .collect();
        let excluded = patterns
            .iter()
            .map(String::as_str)
            .chain(ALWAYS_EXCLUDED.iter().copied())
            .filter_map(|p| Regex::new(&translate(p)).ok())
            .collect();
        SourceRules { suffixes, excluded }
    }

    /// Whether the file at `relative` (under the source directory, `/`
    /// between its parts) is a document: a source suffix, and neither it
    /// nor a folder above it excluded.
    fn builds(&self, relative: &str) -> bool {
        if !self.suffixes.iter().any(|s| relative.ends_with(s.as_str())) {
            return false;
        }
        let mut at = 0;
        // Each folder above it, then the file itself.
        for part in relative.split('/') {
            at += part.len();
            let prefix = &relative[..at];
            if self.excluded.iter().any(|r| r.is_match(prefix)) {
                return false;
            }
            at += 1;
        }
        true
    }
}

/// Which files the Sphinx projects of a tree build as documents, each
/// directory's project read once.
#[derive(Debug, Default)]
pub struct SphinxSources {
    /// Each directory's project: its source directory and rules.
    of_dir: HashMap<PathBuf, Option<Arc<(PathBuf, SourceRules)>>>,
}

impl SphinxSources {
    /// Knows no project yet.
    pub fn new() -> SphinxSources {
        SphinxSources::default()
    }

    /// Whether Sphinx builds the file at `path` as a document of its
    /// own: `None` when it is in no Sphinx project (no `conf.py` above
    /// it).
    pub fn builds(&mut self, path: &Path) -> Option<bool> {
        let dir = path.parent()?;
        let project = self
            .of_dir
            .entry(dir.to_path_buf())
            .or_insert_with(|| {
                let conf = SphinxConf::of(path)?;
                let text = read_conf(&conf.srcdir);
                let rules = SourceRules::parse(&text, conf.myst);
                Some(Arc::new((conf.srcdir, rules)))
            })
            .clone()?;
        let (srcdir, rules) = &*project;
        let relative = path.strip_prefix(srcdir).ok()?;
        let parts: Vec<_> = relative
            .iter()
            .map(|c| c.to_string_lossy().into_owned())
            .collect();
        Some(rules.builds(&parts.join("/")))
    }
}

/// Whether `value` holds only string literals (in brackets, or a dict's
/// keys and values): what can be read without running the file.
fn is_literal_strings(value: &str) -> bool {
    let mut rest = String::new();
    let (mut quote, mut comment) = (None, false);
    for c in value.chars() {
        match quote {
            _ if comment => comment = c != '\n',
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None if c == '\'' || c == '"' => quote = Some(c),
            None if c == '#' => comment = true,
            None => rest.push(c),
        }
    }
    rest.chars().all(|c| "[](){},: \t\r\n".contains(c))
}

/// `value`, a string literal, without its quotes.
fn unquoted(value: &str) -> &str {
    let inner = value.get(1..value.len().saturating_sub(1)).unwrap_or("");
    if value.len() >= 2 && value.ends_with(&value[..1]) {
        inner
    } else {
        value
    }
}

/// Sphinx's `_translate_pattern`: a pattern of `exclude_patterns` as a
/// regular expression over a path under the source directory. `**`
/// crosses folders, `*` and `?` do not, `[...]` is a class (`[!...]`
/// its negation, never `/`); the whole path must match.
fn translate(pattern: &str) -> String {
    let p: Vec<char> = pattern.chars().collect();
    let (mut i, n) = (0, p.len());
    let mut out = String::from("^");
    while i < n {
        let c = p[i];
        i += 1;
        match c {
            '*' if i < n && p[i] == '*' => {
                i += 1;
                out.push_str(".*");
            }
            '*' => out.push_str("[^/]*"),
            '?' => out.push_str("[^/]"),
            '[' => {
                let mut j = i;
                if j < n && p[j] == '!' {
                    j += 1;
                }
                if j < n && p[j] == ']' {
                    j += 1;
                }
                while j < n && p[j] != ']' {
                    j += 1;
                }
                if j >= n {
                    out.push_str("\\[");
                    continue;
                }
                let stuff: String = p[i..j].iter().collect();
                let stuff = stuff.replace('\\', "\\\\").replace('[', "\\[");
                i = j + 1;
                let stuff = match stuff.strip_prefix('!') {
                    Some(rest) => format!("^/{rest}"),
                    None if stuff.starts_with('^') => format!("\\{stuff}"),
                    None => stuff,
                };
                out.push('[');
                out.push_str(&stuff);
                out.push(']');
            }
            c => out.push_str(&regex::escape(&c.to_string())),
        }
    }
    out.push('$');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn patterns_translate_as_sphinx_does() {
        let rules = SourceRules::parse(
            "exclude_patterns = ['_build', 'parts/*.rst', '**/drafts',\n    \
             'x?.rst', 'c[!a].rst']  # comment\n",
            false,
        );
        assert!(rules.builds("index.rst") && rules.builds("a/b.rst"));
        assert!(!rules.builds("_build/html/x.rst"));
        assert!(!rules.builds("parts/a.rst") && rules.builds("parts/a/b.rst"));
        assert!(!rules.builds("a/b/drafts/c.rst"));
        assert!(!rules.builds("x1.rst") && rules.builds("x12.rst"));
        assert!(!rules.builds("cb.rst") && rules.builds("ca.rst"));
        assert!(!rules.builds("part.inc") && !rules.builds("page.md"));
        assert!(!rules.builds("a/_sources/x.rst"));
    }

    #[test]
    fn suffixes_are_read_and_myst_adds_markdown() {
        let of = |text: &str, myst| SourceRules::parse(text, myst).suffixes;
        assert_eq!(of("source_suffix = '.txt'\n", false), [".txt"]);
        assert_eq!(
            of("source_suffix = ['.rst', '.txt']\n", false),
            [".rst", ".txt"]
        );
        assert_eq!(
            of("source_suffix = {\n  '.rst': 'restructuredtext',\n}\n", true),
            [".rst", ".md"]
        );
        // Code is not run: Sphinx's default stands.
        assert_eq!(of("source_suffix = SUFFIXES\n", false), [".rst"]);
        let rules = SourceRules::parse("exclude_patterns = EXCLUDED\n", false);
        assert!(rules.builds("a.rst"));
        assert_eq!(translate("[a"), "^\\[a$");
    }

    #[test]
    fn a_file_outside_a_project_is_none() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        crate::checking::write_test_file(root, "p/a.rst", "A\n");
        assert_eq!(SphinxSources::new().builds(&root.join("p/a.rst")), None);
        crate::checking::write_test_file(
            root,
            "p/conf.py",
            "exclude_patterns = ['inc']\n",
        );
        let mut sources = SphinxSources::new();
        assert_eq!(sources.builds(&root.join("p/a.rst")), Some(true));
        assert_eq!(sources.builds(&root.join("p/inc/b.rst")), Some(false));
    }
}
