//! MkDocs' includes as the site has them: where a directive leads, never
//! out of the project's folder; a page's text with its includes in place,
//! for its anchors (an included heading is an anchor of the including
//! page); and the files a page includes, each with what its links are
//! resolved against.
//!
//! - `pymdownx.snippets` looks a path up under each of its `base_path`
//!   entries in turn (default `.`, the folder MkDocs runs in: the
//!   project's), a file entry matching only itself; with
//!   `restrict_base_path` (the default) a path may not climb out of its
//!   base. It inserts the text as it is: its links are the page's.
//! - `mkdocs-include-markdown-plugin` reads a path that starts with `./`
//!   or `../` from the including file's folder, any other from
//!   `docs_dir`; a path that names no file as it is may be a glob
//!   pattern, whose every match it includes, sorted (`include_glob`),
//!   and a URL it downloads (`include_from_url`, on by default), which is
//!   not fetched here. It rewrites the included relative links so that they
//!   still lead where they did (`rewrite-relative-urls`, by default):
//!   its links resolve against their own file, but for a bare `#anchor`
//!   and a root-relative path, which it leaves as they are.
//! - The plugin runs on the page's Markdown before the extensions do: an
//!   `include-markdown` directive inside a snippet's text is never seen.
//!
//! An included file is read once a run (`ReadOnce`, shared by every copy
//! of the rules): the walk of a page's includes reads it for its links,
//! the page's expansion for its anchors, and many pages include the same
//! file.

use std::borrow::Cow;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use super::include_glob;
// The one include guard, which AsciiDoc's includes share.
use super::yaml::{Node, Value};
use crate::checking::confine::is_url;
pub(super) use crate::checking::confine::{confined, lexical};
use crate::links::{GeneratorKind, directives};

/// How deep includes nest before the rest is left out: a cycle is
/// guarded besides, and this bounds the work of a chain.
const MAX_DEPTH: usize = 8;

/// How much included text one page takes in at most.
const MAX_BYTES: usize = 16 << 20;

/// How much included text a run keeps for its second reader, at most:
/// past it, a file is read again.
const MAX_KEPT: usize = 64 << 20;

/// The include rules of an MkDocs project: its folder, its docs_dir and
/// the settings of the two include extensions, as its mkdocs.yml has
/// them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Includes {
    /// The project's folder (of mkdocs.yml): no include leaves it.
    folder: PathBuf,
    /// Its docs_dir, which `include-markdown` paths start from.
    docs_dir: PathBuf,
    /// `pymdownx.snippets` `base_path`, as written.
    base_paths: Vec<String>,
    /// `pymdownx.snippets` `restrict_base_path`.
    restrict_base_path: bool,
    /// `pymdownx.snippets` `check_paths`: a missing snippet fails the
    /// build (else it is left out in silence).
    check_paths: bool,
    /// `pymdownx.snippets` `url_download`: a URL is downloaded (else it
    /// is read as a path).
    url_download: bool,
    /// The `include-markdown` plugin's `rewrite-relative-urls`.
    rewrite_urls: bool,
    /// The `include-markdown` plugin's `include_from_url`.
    from_url: bool,
    /// The files read so far.
    read: ReadOnce,
}

/// The included files' bytes, read once a run by whichever copy of the
/// rules reads first (or handed over by a reader that read them before:
/// [`ReadOnce::keep`]). Docusaurus' partials are read through one too.
#[derive(Clone, Default)]
pub(crate) struct ReadOnce(Arc<Mutex<Kept>>);

#[derive(Default)]
struct Kept {
    files: HashMap<PathBuf, Arc<[u8]>>,
    bytes: usize,
}

impl ReadOnce {
    /// The bytes of `path`, from what was read if it was.
    pub(crate) fn read(&self, path: &Path) -> Option<Arc<[u8]>> {
        if let Some(bytes) = self.get(path) {
            return Some(bytes);
        }
        let bytes: Arc<[u8]> = std::fs::read(path).ok()?.into();
        self.hold(path, bytes.clone());
        Some(bytes)
    }

    /// The bytes kept of `path`, if they were.
    pub(crate) fn get(&self, path: &Path) -> Option<Arc<[u8]>> {
        self.kept().files.get(path).cloned()
    }

    /// Keeps `bytes`, read elsewhere, as the file `path`'s, for the next
    /// reader (within the run's bound): it need not read the file again.
    pub(crate) fn keep(&self, path: &Path, bytes: &[u8]) {
        if bytes.len() <= MAX_KEPT {
            self.hold(path, bytes.into());
        }
    }

    /// Holds `bytes` as `path`'s, while the run's bound allows.
    fn hold(&self, path: &Path, bytes: Arc<[u8]>) {
        let mut kept = self.kept();
        if kept.bytes + bytes.len() <= MAX_KEPT
            && !kept.files.contains_key(path)
        {
            kept.bytes += bytes.len();
            kept.files.insert(path.to_path_buf(), bytes);
        }
    }

    fn kept(&self) -> std::sync::MutexGuard<'_, Kept> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// What was read is no rule: two sets of rules are equal by their
/// settings.
impl PartialEq for ReadOnce {
    fn eq(&self, _: &ReadOnce) -> bool {
        true
    }
}

impl Eq for ReadOnce {}

impl std::fmt::Debug for ReadOnce {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ReadOnce")
    }
}

/// Where an include directive leads.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Target {
    /// A local file (that may not exist).
    File(PathBuf),
    /// The files a glob pattern matches, sorted, one at least
    /// (`include-markdown`).
    Files(Vec<PathBuf>),
    /// A URL that the extension downloads: not fetched here.
    Download,
    /// A URL that the `include-markdown` plugin downloads: not fetched
    /// here.
    Url,
    /// Nothing may be read there, for this reason.
    Refused(String),
}

/// A file a page includes, and how its links resolve on the page.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Included {
    /// The included file.
    pub file: PathBuf,
    /// Whether its links resolve against the including page (a snippet's
    /// text, inserted as it is), or else against the file itself
    /// (`include-markdown` rewrites them so).
    pub against_page: bool,
}

impl Includes {
    /// The rules of the project at `folder` with the docs_dir `docs_dir`,
    /// from its configuration `config` (mkdocs.yml).
    pub(crate) fn read(
        folder: &Path,
        docs_dir: &Path,
        config: &Node,
    ) -> Includes {
        let snippets = extension(config, "pymdownx.snippets");
        let flag = |key: &str, default: bool| {
            snippets
                .and_then(|s| s.get(key))
                .and_then(Node::as_bool)
                .unwrap_or(default)
        };
        let base_paths = match snippets.and_then(|s| s.get("base_path")) {
            Some(Node { value: Value::Str(s), .. }) => vec![s.clone()],
            Some(n @ Node { value: Value::Seq(_), .. }) => n
                .as_seq()
                .iter()
                .filter_map(Node::as_str)
                .map(str::to_string)
                .collect(),
            _ => vec![".".to_string()],
        };
        let plugin_flag = |key: &str| {
            plugin(config, "include-markdown")
                .and_then(|p| {
                    p.get(key).or_else(|| p.get(&key.replace('_', "-")))
                })
                .and_then(Node::as_bool)
                .unwrap_or(true)
        };
        let rewrite_urls = plugin_flag("rewrite_relative_urls");
        let from_url = plugin_flag("include_from_url");
        Includes {
            folder: folder.to_path_buf(),
            docs_dir: docs_dir.to_path_buf(),
            base_paths,
            restrict_base_path: flag("restrict_base_path", true),
            check_paths: flag("check_paths", false),
            url_download: flag("url_download", false),
            rewrite_urls,
            from_url,
            read: ReadOnce::default(),
        }
    }

    /// The project's folder.
    pub fn folder(&self) -> &Path {
        &self.folder
    }

    /// The file that the include directive `kind`, in the file `holder`,
    /// names with `path`; or why none may be read.
    pub(crate) fn target(
        &self,
        kind: GeneratorKind,
        holder: &Path,
        path: &str,
    ) -> Target {
        match kind {
            GeneratorKind::MkdocsSnippet => self.snippet(path),
            _ => self.include_markdown(holder, path),
        }
    }

    /// Why a missing snippet matters: what the build does with it.
    pub(crate) fn missing_snippet(&self, path: &str) -> String {
        let bases = self.base_paths.join("', '");
        if self.check_paths {
            format!(
                "no snippet '{path}' under the base path '{bases}': the build fails (check_paths)"
            )
        } else {
            format!(
                "no snippet '{path}' under the base path '{bases}': the page leaves it out in silence"
            )
        }
    }

    /// A snippet, looked up under each base path in turn.
    fn snippet(&self, path: &str) -> Target {
        let lower = path.get(..8).unwrap_or(path).to_ascii_lowercase();
        let url =
            lower.starts_with("http://") || lower.starts_with("https://");
        if url && self.url_download {
            return Target::Download;
        }
        let mut refused = None;
        let mut first = None;
        for base in &self.base_paths {
            let Some(base) = self.inside(Path::new(base)) else {
                refused.get_or_insert_with(|| self.leaves());
                continue;
            };
            if base.is_file() {
                // A file base path matches only itself.
                let dir = base.parent().unwrap_or(&self.folder);
                match self.joined(dir, path) {
                    Some(f) if f == base => return Target::File(f),
                    _ => continue,
                }
            }
            if !base.is_dir() {
                continue;
            }
            let Some(file) = self.joined(&base, path) else {
                refused.get_or_insert_with(|| self.leaves());
                continue;
            };
            if self.restrict_base_path && !file.starts_with(&base) {
                refused.get_or_insert_with(|| {
                    format!(
                        "a snippet may not leave its base path '{}'",
                        self.shown(&base)
                    )
                });
                continue;
            }
            if file.exists() {
                return Target::File(file);
            }
            first.get_or_insert(file);
        }
        match (first, refused) {
            (Some(f), _) => Target::File(f),
            (None, Some(why)) => Target::Refused(why),
            (None, None) => Target::Refused(self.missing_snippet(path)),
        }
    }

    /// An `include-markdown` path: a URL; `./` and `../` from the
    /// including file's folder, any other from docs_dir, a file as it is
    /// named, else every file its glob pattern matches.
    fn include_markdown(&self, holder: &Path, path: &str) -> Target {
        if is_url(path) {
            return match self.from_url {
                true => Target::Url,
                false => Target::Refused(
                    "include_from_url is false: the build fails".into(),
                ),
            };
        }
        let relative = path.starts_with("./") || path.starts_with("../");
        let base = if relative {
            holder.parent().unwrap_or(&self.folder)
        } else {
            &self.docs_dir
        };
        let Some(file) = self.joined(base, path) else {
            return Target::Refused(self.leaves());
        };
        if !include_glob::is_glob(path) || file.is_file() {
            return Target::File(file);
        }
        let folder_of = |base: &Path, rel: &str| self.joined(base, rel);
        match include_glob::matches(base, path, &folder_of) {
            Ok(found) => {
                let found: Vec<PathBuf> = found
                    .into_iter()
                    .filter_map(|f| self.inside(&f))
                    .collect();
                match found.is_empty() {
                    true => Target::Refused(format!(
                        "no file matches '{path}': the build fails"
                    )),
                    false => Target::Files(found),
                }
            }
            Err(why) => Target::Refused(format!("'{path}' is {why}")),
        }
    }

    /// `path` under `base` with its dot segments removed (an absolute
    /// `path` as it is), when it stays in the project's folder.
    fn joined(&self, base: &Path, path: &str) -> Option<PathBuf> {
        self.inside(&lexical(base, Path::new(path))?)
    }

    /// `path` (relative to the project's folder, or absolute), when it
    /// is in the folder, no symbolic link taking it out either.
    fn inside(&self, path: &Path) -> Option<PathBuf> {
        confined(lexical(&self.folder, path)?, &self.folder)
    }

    fn leaves(&self) -> String {
        format!(
            "an include may not leave the project's folder '{}'",
            self.folder.file_name().map_or("".into(), |n| n.to_string_lossy())
        )
    }

    /// A folder as the report names it: under the project's folder.
    fn shown(&self, dir: &Path) -> String {
        match dir.strip_prefix(&self.folder) {
            Ok(rel) if rel.as_os_str().is_empty() => ".".into(),
            Ok(rel) => rel.to_string_lossy().into_owned(),
            Err(_) => dir.to_string_lossy().into_owned(),
        }
    }

    /// The bytes of the included file `path`, when it is read within the
    /// `budget` of bytes left (which it takes from).
    fn read_within(
        &self,
        path: &Path,
        budget: &mut usize,
    ) -> Option<Arc<[u8]>> {
        let bytes = self.read.read(path)?;
        if bytes.len() > *budget {
            return None;
        }
        *budget -= bytes.len();
        Some(bytes)
    }

    /// Whether the `include-markdown` directive (with its own option, if
    /// it has one) rewrites the included relative links.
    fn rewrites(&self, option: Option<bool>) -> bool {
        option.unwrap_or(self.rewrite_urls)
    }

    /// The files the page `doc`, whose text is `text`, includes, each
    /// once, in the order met, with what their links resolve against.
    pub fn included(&self, text: &str, doc: &Path) -> Vec<Included> {
        let mut out = vec![];
        self.each_included(text, doc, &mut |one, _| out.push(one));
        out
    }

    /// Calls `each` with every file the page `doc`, whose text is `text`,
    /// includes, once, in the order met, and the file's bytes as the walk
    /// read them: a caller that reads its links needs no second read.
    pub fn each_included(
        &self,
        text: &str,
        doc: &Path,
        each: &mut dyn FnMut(Included, &[u8]),
    ) {
        let mut seen: Vec<Included> = vec![];
        let mut open = vec![doc.to_path_buf()];
        let mut budget = MAX_BYTES;
        self.walk(
            text,
            doc,
            false,
            &mut open,
            &mut budget,
            &mut |file, against_page, bytes| {
                let one = Included { file: file.to_path_buf(), against_page };
                if !seen.contains(&one) {
                    seen.push(one.clone());
                    each(one, bytes);
                }
            },
        );
    }

    /// Calls `each` for every file that `text` (of `holder`) includes,
    /// nested ones after their includer, giving whether its links resolve
    /// against the page. `snippet_text` says that `text` was inserted by
    /// a snippet: the plugin never sees its directives.
    fn walk(
        &self,
        text: &str,
        holder: &Path,
        snippet_text: bool,
        open: &mut Vec<PathBuf>,
        budget: &mut usize,
        each: &mut dyn FnMut(&Path, bool, &[u8]),
    ) {
        if open.len() > MAX_DEPTH {
            return;
        }
        for d in directives(text) {
            if snippet_text && d.kind == GeneratorKind::MkdocsIncludeMarkdown {
                continue;
            }
            for path in self.target(d.kind, holder, &d.path).files() {
                // A cycle includes nothing more.
                if open.contains(&path) {
                    continue;
                }
                let Some(bytes) = self.read_within(&path, budget) else {
                    continue;
                };
                let included = String::from_utf8_lossy(&bytes);
                let snippet = d.kind == GeneratorKind::MkdocsSnippet;
                let against_page = snippet || !self.rewrites(d.rewrite_urls);
                each(&path, against_page, &bytes);
                open.push(path.clone());
                self.walk(
                    &included,
                    &path,
                    snippet || snippet_text,
                    open,
                    budget,
                    each,
                );
                open.pop();
            }
        }
    }
}

/// The link `link` of the included file `file` as the plugin rewrites it
/// for the page `page` (`rewrite-relative-urls`): the same target,
/// written from the page's folder. `None` for a link it leaves as it is:
/// a URL, an absolute path, a bare anchor.
pub(crate) fn rewritten(
    link: &str,
    file: &Path,
    page: &Path,
) -> Option<String> {
    if link.is_empty() || is_url(link) || link.starts_with(['/', '#']) {
        return None;
    }
    let cut = link.find(['?', '#']).unwrap_or(link.len());
    let (path, suffix) = link.split_at(cut);
    let target = lexical(file.parent()?, Path::new(path))?;
    let from = page.parent()?;
    let common = target
        .components()
        .zip(from.components())
        .take_while(|(a, b)| a == b)
        .count();
    let mut out: Vec<String> = vec![];
    out.extend(from.components().skip(common).map(|_| "..".to_string()));
    out.extend(
        target
            .components()
            .skip(common)
            .map(|c| c.as_os_str().to_string_lossy().into_owned()),
    );
    let mut rel = if out.is_empty() { ".".to_string() } else { out.join("/") };
    if path.ends_with('/') {
        rel.push('/');
    }
    rel.push_str(suffix);
    Some(rel)
}

impl Target {
    /// The files it reads: none for a URL or a refusal.
    fn files(self) -> Vec<PathBuf> {
        match self {
            Target::File(file) => vec![file],
            Target::Files(files) => files,
            Target::Download | Target::Url | Target::Refused(_) => vec![],
        }
    }
}

/// The settings of the Markdown extension `name` in mkdocs.yml's
/// `markdown_extensions` (a list of names and one-key maps, or a map).
fn extension<'c>(config: &'c Node, name: &str) -> Option<&'c Node> {
    named_entry(config.get("markdown_extensions")?, name)
}

/// The settings of the plugin `name` in mkdocs.yml's `plugins`.
fn plugin<'c>(config: &'c Node, name: &str) -> Option<&'c Node> {
    named_entry(config.get("plugins")?, name)
}

/// The entry `name` of a list of names and one-key maps (or of a map):
/// its settings, an empty node when it has none.
fn named_entry<'c>(list: &'c Node, name: &str) -> Option<&'c Node> {
    static NONE: Node = Node { line: 0, tag: None, value: Value::Null };
    match &list.value {
        Value::Seq(items) => items.iter().find_map(|e| match &e.value {
            Value::Str(s) if s == name => Some(&NONE),
            Value::Map(_) => e.get(name),
            _ => None,
        }),
        Value::Map(_) => list.get(name),
        _ => None,
    }
}

/// The page `doc`'s `text` with each include directive replaced by the
/// included file's text (its own includes in place), as the site renders
/// it: what its anchors are computed from. Borrowed when it has none.
pub(crate) fn expanded<'t>(
    text: &'t str,
    doc: &Path,
    includes: &Includes,
) -> Cow<'t, str> {
    let mut open = vec![doc.to_path_buf()];
    let mut budget = MAX_BYTES;
    expand(text, doc, includes, false, &mut open, &mut budget)
}

fn expand<'t>(
    text: &'t str,
    doc: &Path,
    includes: &Includes,
    snippet_text: bool,
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
        if d.whole.start < at
            || (snippet_text && d.kind == GeneratorKind::MkdocsIncludeMarkdown)
        {
            continue;
        }
        out.push_str(&text[at..d.whole.start]);
        at = d.whole.end;
        for path in includes.target(d.kind, doc, &d.path).files() {
            // A cycle includes nothing more.
            if open.contains(&path) {
                continue;
            }
            let Some(bytes) = includes.read_within(&path, budget) else {
                continue;
            };
            let included = String::from_utf8_lossy(&bytes);
            let snippet =
                snippet_text || d.kind == GeneratorKind::MkdocsSnippet;
            open.push(path.clone());
            out.push_str(&expand(
                &included, &path, includes, snippet, open, budget,
            ));
            open.pop();
            // The included text ends its line, as the directive's did.
            if !out.ends_with('\n') {
                out.push('\n');
            }
        }
    }
    out.push_str(&text[at..]);
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn project(
        files: &[(&str, &str)],
        config: &str,
    ) -> (tempfile::TempDir, PathBuf, Includes) {
        let dir = tempfile::tempdir().unwrap();
        let top = dir.path().canonicalize().unwrap();
        for (f, body) in files {
            std::fs::create_dir_all(top.join(f).parent().unwrap()).unwrap();
            std::fs::write(top.join(f), body).unwrap();
        }
        let folder = top.join("site");
        let config = super::super::yaml::parse(config).unwrap();
        let includes = Includes::read(&folder, &folder.join("docs"), &config);
        (dir, top, includes)
    }

    #[test]
    fn includes_expand_within_the_folder() {
        let (_dir, top, includes) = project(
            &[
                ("site/docs/index.md", ""),
                (
                    "site/snippets/a.md",
                    "## From A\n\n--8<-- \"snippets/b.md\"\n",
                ),
                (
                    "site/snippets/b.md",
                    "## From B\n--8<-- \"snippets/a.md\"\n",
                ),
                ("site/README.md", "# Readme\n"),
                ("outside.md", "## Outside\n"),
            ],
            "",
        );
        let folder = top.join("site");
        let doc = folder.join("docs/index.md");
        let text = "# Home\n\n--8<-- \"snippets/a.md\"\n\n{% include-markdown \"../README.md\" %}\n--8<-- \"../outside.md\"\n";
        let got = expanded(text, &doc, &includes);
        // A's snippet of B, B's of A left out (a cycle), the README,
        // not the file outside the folder.
        assert_eq!(
            got,
            "# Home\n\n## From A\n\n## From B\n\n\n\n\n# Readme\n\n\n"
        );
        let snippet = GeneratorKind::MkdocsSnippet;
        assert_eq!(
            includes.target(snippet, &doc, "../outside.md"),
            Target::Refused(
                "an include may not leave the project's folder 'site'".into()
            )
        );
        assert_eq!(
            includes.target(
                GeneratorKind::MkdocsIncludeMarkdown,
                &doc,
                "../README.md"
            ),
            Target::File(folder.join("README.md"))
        );
        assert!(matches!(
            expanded("# x\n", &doc, &includes),
            Cow::Borrowed(_)
        ));
        assert_eq!(
            includes.included(text, &doc),
            [
                Included {
                    file: folder.join("snippets/a.md"),
                    against_page: true
                },
                Included {
                    file: folder.join("snippets/b.md"),
                    against_page: true
                },
                Included {
                    file: folder.join("README.md"),
                    against_page: false
                },
            ]
        );
    }

    /// `base_path` as `pymdownx.snippets` reads it: each entry in turn, a
    /// file entry matching only itself, a missing entry skipped, no path
    /// out of its base under `restrict_base_path`; `include-markdown`
    /// from docs_dir but for `./` and `../`; a URL downloaded only with
    /// `url_download`.
    #[test]
    fn snippet_base_paths() {
        let files = [
            ("site/docs/a/page.md", ""),
            ("site/docs/part.md", ""),
            ("site/inc/one.md", ""),
            ("site/more/two.md", ""),
            ("site/more/one.md", ""),
            ("site/LICENSE", ""),
            ("site/x.md", ""),
        ];
        let config = "markdown_extensions:\n  - toc\n  - pymdownx.snippets:\n      base_path: [gone, inc, more, LICENSE]\n      check_paths: true\n      url_download: true\n";
        let (_dir, top, includes) = project(&files, config);
        let site = top.join("site");
        let doc = site.join("docs/a/page.md");
        let t =
            |p: &str| includes.target(GeneratorKind::MkdocsSnippet, &doc, p);
        assert_eq!(t("one.md"), Target::File(site.join("inc/one.md")));
        assert_eq!(t("two.md"), Target::File(site.join("more/two.md")));
        assert_eq!(t("LICENSE"), Target::File(site.join("LICENSE")));
        assert_eq!(t("nothing.md"), Target::File(site.join("inc/nothing.md")));
        assert_eq!(
            t("../x.md"),
            Target::Refused(
                "a snippet may not leave its base path 'inc'".into()
            )
        );
        assert_eq!(t("https://e.org/a.md"), Target::Download);
        assert_eq!(
            includes.missing_snippet("n.md"),
            "no snippet 'n.md' under the base path 'gone', 'inc', 'more', 'LICENSE': the build fails (check_paths)"
        );
        let im = |p: &str| {
            includes.target(GeneratorKind::MkdocsIncludeMarkdown, &doc, p)
        };
        assert_eq!(im("part.md"), Target::File(site.join("docs/part.md")));
        assert_eq!(im("./part.md"), Target::File(site.join("docs/a/part.md")));
        assert_eq!(im("../part.md"), Target::File(site.join("docs/part.md")));
        assert!(matches!(im("../../../x.md"), Target::Refused(_)));

        // The defaults: `.`, restricted, a URL read as a path.
        let (_dir, top, includes) =
            project(&files, "markdown_extensions: [pymdownx.snippets]\n");
        let site = top.join("site");
        let t =
            |p: &str| includes.target(GeneratorKind::MkdocsSnippet, &doc, p);
        assert_eq!(t("inc/one.md"), Target::File(site.join("inc/one.md")));
        assert_eq!(
            t("https://e.org/a.md"),
            Target::File(site.join("https:/e.org/a.md"))
        );
        assert!(matches!(t("../x.md"), Target::Refused(_)));
        // Unrestricted, a path may leave its base, not the folder.
        let (_dir, top, includes) = project(
            &files,
            "markdown_extensions:\n  - pymdownx.snippets:\n      base_path: inc\n      restrict_base_path: false\nplugins:\n  - include-markdown:\n      rewrite_relative_urls: false\n",
        );
        let site = top.join("site");
        let t =
            |p: &str| includes.target(GeneratorKind::MkdocsSnippet, &doc, p);
        assert_eq!(t("../x.md"), Target::File(site.join("x.md")));
        assert!(matches!(t("../../x.md"), Target::Refused(_)));
        assert!(!includes.rewrites(None));
        assert!(includes.rewrites(Some(true)));
    }

    /// The plugin's rewriting of an included file's links for the page
    /// (`process.rewrite_relative_urls`: `os.path.relpath` of the link
    /// joined to the file's folder, from the page's folder; a trailing
    /// slash kept; URLs, absolute paths and bare anchors left alone).
    #[test]
    fn included_links_are_rewritten_as_the_plugin_does() {
        let file = Path::new("/p/snippets/part.md");
        let page = Path::new("/p/docs/guide/usage.md");
        for (link, want) in [
            ("../docs/guide/install.md#setup", Some("install.md#setup")),
            ("../docs/index.md", Some("../index.md")),
            ("other.md?q=1", Some("../../snippets/other.md?q=1")),
            ("../docs/guide/", Some("./")),
            ("../docs/guide", Some(".")),
            ("../README.md", Some("../../README.md")),
            ("#a-part", None),
            ("/abs/x.md", None),
            ("https://e.org/x", None),
            ("mailto:a@e.org", None),
        ] {
            assert_eq!(rewritten(link, file, page).as_deref(), want, "{link}");
        }
    }

    /// An included file is read once a run: the walk of a page's
    /// includes (for its links) and the page's expansion (for its
    /// anchors) see the same bytes, here though the file changed between.
    #[test]
    fn an_included_file_is_read_once() {
        let (_dir, top, includes) = project(
            &[("site/docs/i.md", ""), ("site/a.md", "## From A\n")],
            "",
        );
        let doc = top.join("site/docs/i.md");
        let text = "--8<-- \"a.md\"\n";
        let mut read = vec![];
        includes.each_included(text, &doc, &mut |one, bytes| {
            read.push((one.file, bytes.to_vec()))
        });
        assert_eq!(read, [(top.join("site/a.md"), b"## From A\n".to_vec())]);
        std::fs::write(top.join("site/a.md"), "## Changed\n").unwrap();
        // The copy the checker holds shares what was read.
        let theirs = includes.clone();
        assert_eq!(expanded(text, &doc, &theirs), "## From A\n\n");
    }

    #[cfg(unix)]
    #[test]
    fn no_symbolic_link_leads_out() {
        let (_dir, top, includes) =
            project(&[("site/docs/i.md", ""), ("secret.md", "")], "");
        std::os::unix::fs::symlink(
            top.join("secret.md"),
            top.join("site/s.md"),
        )
        .unwrap();
        let doc = top.join("site/docs/i.md");
        assert!(matches!(
            includes.target(GeneratorKind::MkdocsSnippet, &doc, "s.md"),
            Target::Refused(_)
        ));
    }
}
