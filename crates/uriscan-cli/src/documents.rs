//! Reading the documents of a walk for their links: what `links` and
//! `check` share. Each file is read whole into a buffer that a worker
//! reuses, its format taken from its name, and its base and root decided:
//! the file's own `file:` URI, and for root-relative links `--root`, else
//! the git repository of a Markdown file, else the walked directory.

use std::collections::HashMap;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::Context;
use uriscan::checking::{
    Antora, AsciidocIncluded, Component, FormatDetector, asciidoc_included,
    included_files,
};
use uriscan::links::{
    Format, Kind, LinkExtractor, LinkRef, MystKind, MystSettings, Page,
    PathKind, RelativeInclude, RstKind, file_uri, relative_includes,
};
use uriscan::reading::{Contents, FileReader, is_binary};
use uriscan::syntax::is_scheme;
use uriscan::walking::{Entry, Error};

use super::mapped::{Mapped, map_file};

/// The largest document read whole: HTML and Markdown are parsed in
/// memory (a `<base href>` anywhere changes every link), so a larger file
/// is reported rather than read.
pub const MAX_DOCUMENT: u64 = 1 << 30;

/// How documents are read, resolved once from the arguments.
#[derive(Debug)]
pub struct Sources {
    pub extractor: LinkExtractor,
    /// `--format`, else by extension.
    pub format: Option<Format>,
    pub base_url: Option<String>,
    /// `--root`, canonical.
    pub root: Option<PathBuf>,
    pub cwd: PathBuf,
    /// The walked directories, for the default root of a file.
    walked: Vec<PathBuf>,
    /// The Antora components of the documents read.
    pub antora: Antora,
}

impl Sources {
    /// `walked` are the paths named on the command line.
    pub fn new<'p>(
        walked: impl IntoIterator<Item = &'p Path>,
        extractor: LinkExtractor,
        format: Option<Format>,
        base_url: Option<String>,
        root: Option<&Path>,
    ) -> anyhow::Result<Sources> {
        if let Some(b) = &base_url {
            uriscan::syntax::resolve::parse_base(
                uriscan::syntax::Parser::new().iri(true),
                b,
            )
            .map_err(|e| anyhow::anyhow!("--base-url {b:?}: {e}"))?;
        }
        let cwd = std::env::current_dir().context("the current directory")?;
        let root = match root {
            Some(r) => Some(
                std::fs::canonicalize(r)
                    .with_context(|| format!("--root {}", r.display()))?,
            ),
            None => None,
        };
        let walked = walked
            .into_iter()
            .map(|p| absolute(&cwd, p))
            .map(|p| {
                if p.is_dir() {
                    p
                } else {
                    p.parent().map_or(p.clone(), Path::to_path_buf)
                }
            })
            .collect();
        let antora = Antora::new();
        Ok(Sources { extractor, format, base_url, root, cwd, walked, antora })
    }

    /// The directories named on the command line (a file's own
    /// directory for a file), absolute.
    pub fn walked(&self) -> &[PathBuf] {
        &self.walked
    }

    /// The page to extract: `doc` at `url`, with its root and the base.
    pub fn page<'a>(&'a self, doc: &'a [u8], loaded: &'a Loaded) -> Page<'a> {
        let mut page = Page::new(doc, loaded.format).url(&loaded.url);
        if let Some(r) = &loaded.root_uri {
            page = page.root(r);
        }
        if let Some(b) = &self.base_url {
            page = page.base(b);
        }
        if let Some(c) = &loaded.component {
            page = page.attributes(&c.attributes);
        }
        if let Some(m) = &loaded.myst {
            page = page.myst(m);
        }
        page
    }
}

/// Whether a reStructuredText or MyST document may hold an `include`
/// directive: only those are followed.
pub fn holds_include(format: Format, doc: &[u8]) -> bool {
    let needle: &[u8] = match format {
        Format::Rst => b"include::",
        Format::Myst => b"{include}",
        _ => return false,
    };
    memchr::memmem::find(doc, needle).is_some()
}

/// The files that the document `includer` includes, followed in turn,
/// none outside `bound` ([`included_files`]), each with the options of
/// its MyST directive when they make its links relative to it.
pub fn included_by(
    includer: &Loaded,
    bound: &Path,
) -> Vec<(PathBuf, Option<RelativeInclude>)> {
    let relative = relative_includes_of(includer);
    included_files(&includer.abs, includer.format, bound)
        .into_iter()
        .map(|file| {
            let options = relative.iter().find(|(p, _)| *p == file);
            let options = options.map(|(_, r)| r.clone());
            (file, options)
        })
        .collect()
}

/// The files that the AsciiDoc document `includer`, whose text is
/// `text`, includes (none outside `bound`), as Asciidoctor inserts them:
/// [`asciidoc_included`], with its Antora component's attributes.
pub fn asciidoc_included_by(
    includer: &Loaded,
    text: &str,
    bound: &Path,
) -> Vec<AsciidocIncluded> {
    let preset = includer.component.as_ref().map(|c| &c.attributes[..]);
    asciidoc_included(&includer.abs, text, preset.unwrap_or(&[]), bound)
}

/// The files that the MyST document `includer` includes with links
/// relative to them (`:relative-images:`, `:relative-docs:`): each
/// canonical path with its directive's options.
fn relative_includes_of(includer: &Loaded) -> Vec<(PathBuf, RelativeInclude)> {
    let (Format::Myst, Some(dir)) = (includer.format, includer.abs.parent())
    else {
        return vec![];
    };
    let Ok(bytes) = std::fs::read(&includer.abs) else { return vec![] };
    relative_includes(&String::from_utf8_lossy(&bytes))
        .into_iter()
        .filter_map(|r| {
            Some((std::fs::canonicalize(dir.join(&r.path)).ok()?, r))
        })
        .collect()
}

/// The target a link of `file`, a file a document includes (with
/// `relative`, its directive's options, when they make links relative),
/// takes instead of its own, or `None` for its own: an include inside
/// names a file from the included file's own directory, as docutils reads
/// it, where other paths are the includer's unless `relative` says.
pub fn included_target(
    link: LinkRef<'_>,
    file: &Path,
    relative: Option<&RelativeInclude>,
) -> Option<String> {
    let dir = file.parent().unwrap_or(Path::new("/"));
    let nested = matches!(
        link.kind(),
        Kind::Rst(RstKind::Include)
            | Kind::Myst(MystKind::Include)
            | Kind::AdocInclude
    );
    if nested {
        Some(file_uri(&dir.join(link.link()), PathKind::File))
    } else {
        relative.and_then(|r| relative_target(link, r, dir))
    }
}

/// The target of `link`, of a file in `dir` included with `include`'s
/// options, when they make it relative to that file (as myst-parser
/// reads it) rather than to the includer.
fn relative_target(
    link: LinkRef<'_>,
    include: &RelativeInclude,
    dir: &Path,
) -> Option<String> {
    let value = link.link();
    let scheme = value.split_once(':').is_some_and(|(s, _)| is_scheme(s));
    let relative = match link.kind() {
        Kind::MdImage => include.images && !scheme,
        Kind::Myst(MystKind::Project | MystKind::Download) => {
            include.docs.as_deref().is_some_and(|p| value.starts_with(p))
        }
        _ => false,
    };
    if !relative {
        return None;
    }
    let (path, fragment) = match value.split_once('#') {
        Some((p, f)) => (p, Some(f)),
        None => (value, None),
    };
    let mut uri = file_uri(&dir.join(path), PathKind::File);
    if let Some(f) = fragment {
        uri.push('#');
        uri.push_str(f);
    }
    Some(uri)
}

/// Whether a document may hold an include directive that `links`
/// follows: those [`holds_include`] finds, and AsciiDoc's `include::`.
pub fn holds_listed_include(format: Format, doc: &[u8]) -> bool {
    holds_include(format, doc)
        || (format == Format::AsciiDoc
            && memchr::memmem::find(doc, b"include::").is_some())
}

/// The canonical form of `p`, or `p` under `cwd` when it has none.
pub fn absolute(cwd: &Path, p: &Path) -> PathBuf {
    std::fs::canonicalize(p).unwrap_or_else(|_| cwd.join(p))
}

/// A document read into a [`DocReader`]'s buffer.
#[derive(Clone, Debug)]
pub struct Loaded {
    pub format: Format,
    /// The absolute path.
    pub abs: PathBuf,
    pub url: String,
    pub root: Option<PathBuf>,
    pub root_uri: Option<String>,
    /// The Antora component of an AsciiDoc document.
    pub component: Option<Arc<Component>>,
    /// The settings of myst-parser of a MyST document's project.
    pub myst: Option<Arc<MystSettings>>,
}

/// What went wrong reading a document; what was read before an error is
/// still in the buffer.
pub enum LoadError {
    /// Nothing was read.
    Unreadable(Error),
    /// Read in part: the rest is lost, what came before is kept.
    Partial(Error),
    /// Larger than [`MAX_DOCUMENT`]; not read.
    TooLarge,
    /// Named on the command line, and binary (a NUL byte): not read.
    Binary,
}

/// A document's bytes, out of its [`DocReader`]: read into the reader's
/// buffer, or mapped.
pub enum DocBytes {
    Read(Vec<u8>),
    Mapped(Mapped),
}

impl std::ops::Deref for DocBytes {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        match self {
            DocBytes::Read(v) => v,
            DocBytes::Mapped(m) => m,
        }
    }
}

/// One worker's reader: the file reader, the document buffer and the git
/// roots met, all reused from file to file.
pub struct DocReader {
    reader: FileReader,
    /// The last document: read (its buffer handed back to `reader` for
    /// the next file), or mapped.
    doc: DocBytes,
    /// Whether large files named on the command line are mapped.
    map_named: bool,
    /// Whether a UTF-16 document is decoded by its byte order mark, and
    /// a binary file named on the command line is an error, not skipped.
    tell_encodings: bool,
    /// Whether the last document was decoded from UTF-16: its bytes are
    /// not the file's.
    from_utf16: bool,
    git_roots: HashMap<PathBuf, Option<PathBuf>>,
    /// Which directories hold MyST (a Sphinx project's Markdown).
    formats: FormatDetector,
    /// Each directory's canonical form, found once: see
    /// [`DocReader::absolute`].
    dirs: HashMap<PathBuf, PathBuf>,
}

impl DocReader {
    pub fn new(search_zip: bool, text: bool) -> DocReader {
        let mut reader = FileReader::new();
        reader
            .decompress(search_zip)
            .skip_binary(!text)
            .stream_above(Some(MAX_DOCUMENT));
        DocReader {
            reader,
            doc: DocBytes::Read(vec![]),
            map_named: false,
            tell_encodings: false,
            from_utf16: false,
            git_roots: HashMap::new(),
            formats: FormatDetector::new(),
            dirs: HashMap::new(),
        }
    }

    /// Whether a file named on the command line (not found in a
    /// directory) of [`super::mapped::MAP_ABOVE`] or more is mapped
    /// rather than read (`--no-mmap` says no): see [`super::mapped`].
    pub fn map_named(&mut self, yes: bool) -> &mut DocReader {
        self.map_named = yes;
        self
    }

    /// Whether a document in UTF-16 is decoded by its byte order mark,
    /// and a binary file named on the command line reported
    /// ([`LoadError::Binary`]) rather than skipped in silence.
    pub fn tell_encodings(&mut self, yes: bool) -> &mut DocReader {
        self.tell_encodings = yes;
        self
    }

    /// The bytes of the last document loaded.
    pub fn doc(&self) -> &[u8] {
        &self.doc
    }

    /// Whether the last document loaded was decoded from UTF-16, so that
    /// [`DocReader::doc`] is not the file's bytes.
    pub fn doc_from_utf16(&self) -> bool {
        self.from_utf16
    }

    /// Takes the last document's bytes out, to be read while the reader
    /// is borrowed elsewhere; [`DocReader::restore_doc`] gives the buffer
    /// back for reuse.
    pub fn take_doc(&mut self) -> DocBytes {
        std::mem::replace(&mut self.doc, DocBytes::Read(vec![]))
    }

    /// Gives back what [`DocReader::take_doc`] took.
    pub fn restore_doc(&mut self, doc: DocBytes) {
        self.doc = doc;
    }

    /// The last document's buffer, emptied, to read the next into; a map
    /// is dropped (an empty buffer then).
    fn buffer(&mut self) -> Vec<u8> {
        match self.take_doc() {
            DocBytes::Read(mut v) => {
                v.clear();
                v
            }
            DocBytes::Mapped(_) => vec![],
        }
    }

    /// Reads standard input as a document at the working directory.
    pub fn load_stdin(
        &mut self,
        src: &Sources,
    ) -> (Loaded, Option<std::io::Error>) {
        let mut buf = self.buffer();
        let err = std::io::stdin().lock().read_to_end(&mut buf).err();
        self.doc = DocBytes::Read(buf);
        let root = src.root.clone();
        let loaded = Loaded {
            format: src.format.unwrap_or(Format::Text),
            abs: src.cwd.clone(),
            url: file_uri(&src.cwd, PathKind::Directory),
            root_uri: root.as_ref().map(|r| file_uri(r, PathKind::Directory)),
            root,
            component: None,
            myst: None,
        };
        (loaded, err)
    }

    /// Reads the file at `path` into the buffer. `Ok(None)` for a binary
    /// file that is skipped; on `Err(Partial)` the buffer holds what was
    /// read, and the document is still to be read for its links.
    pub fn load(
        &mut self,
        src: &Sources,
        path: &Path,
    ) -> (Option<Loaded>, Option<LoadError>) {
        self.load_as(src, path, None, false)
    }

    /// [`DocReader::load`] of a file named on the command line, mapped
    /// as the walk's reading of it was (see [`DocReader::map_named`]).
    pub fn load_named(
        &mut self,
        src: &Sources,
        path: &Path,
    ) -> (Option<Loaded>, Option<LoadError>) {
        self.load_as(src, path, None, true)
    }

    /// [`DocReader::load`] of a file the walk found: whether its path is
    /// a symbolic link is known, and not asked again (a system call per
    /// file).
    pub fn load_entry(
        &mut self,
        src: &Sources,
        entry: &Entry,
    ) -> (Option<Loaded>, Option<LoadError>) {
        let (path, symlink) = (entry.path(), Some(entry.path_is_symlink()));
        self.load_as(src, path, symlink, entry.is_named())
    }

    fn load_as(
        &mut self,
        src: &Sources,
        path: &Path,
        symlink: Option<bool>,
        named: bool,
    ) -> (Option<Loaded>, Option<LoadError>) {
        let compressed = self.reader.is_compressed(path);
        let format = src.format.unwrap_or_else(|| {
            if compressed {
                Format::from_path(&path.with_extension(""))
            } else {
                self.formats.format(path)
            }
        });
        self.from_utf16 = false;
        // The last document's map, if any, is dropped here.
        let buf = self.buffer();
        self.reader.give_buffer(buf);
        let mapped = if named && self.map_named && !compressed {
            match map_file(path, MAX_DOCUMENT) {
                Err(e) => {
                    return (
                        None,
                        Some(LoadError::Unreadable(Error::io(path, &e))),
                    );
                }
                Ok(m) => m,
            }
        } else {
            None
        };
        let err = match mapped {
            Some(m) if self.reader.skips_binary() && is_binary(&m) => {
                if !self.tell_encodings {
                    return (None, None);
                }
                match utf16_to_utf8(&m[..]) {
                    Some(text) => {
                        self.doc = DocBytes::Read(text);
                        self.from_utf16 = true;
                        None
                    }
                    // Only a named file is mapped.
                    None => return (None, Some(LoadError::Binary)),
                }
            }
            Some(m) => {
                self.doc = DocBytes::Mapped(m);
                None
            }
            None => match self.read(path) {
                Ok((bytes, err)) => {
                    self.doc = DocBytes::Read(self.decoded(bytes));
                    err
                }
                Err(None) if self.tell_encodings => {
                    match std::fs::read(path).map(utf16_to_utf8) {
                        Ok(Some(text)) => {
                            self.doc = DocBytes::Read(text);
                            self.from_utf16 = true;
                            None
                        }
                        Ok(None) if named => {
                            return (None, Some(LoadError::Binary));
                        }
                        Ok(None) => return (None, None),
                        Err(e) => {
                            let e = Error::io(path, &e);
                            return (None, Some(LoadError::Unreadable(e)));
                        }
                    }
                }
                Err(e) => return (None, e),
            },
        };
        let abs = self.absolute(&src.cwd, path, symlink);
        let root = self.root_of(src, &abs, format);
        let component = (format == Format::AsciiDoc)
            .then(|| src.antora.component_of(&abs))
            .flatten();
        let myst = (format == Format::Myst)
            .then(|| self.formats.myst_settings(path))
            .flatten();
        let loaded = Loaded {
            format,
            component,
            myst,
            url: file_uri(&abs, PathKind::File),
            root_uri: root.as_ref().map(|r| file_uri(r, PathKind::Directory)),
            root,
            abs,
        };
        (Some(loaded), err)
    }

    /// `bytes`, or their UTF-8 when they are UTF-16 with a byte order
    /// mark (and UTF-16 is looked for).
    fn decoded(&mut self, bytes: Vec<u8>) -> Vec<u8> {
        if !self.tell_encodings {
            return bytes;
        }
        match utf16_to_utf8(&bytes) {
            Some(text) => {
                self.from_utf16 = true;
                text
            }
            None => bytes,
        }
    }

    /// Reads the file at `path`: `Ok` with its bytes and the error that
    /// cut them short; `Err` when there is no document, with the error
    /// if any (a binary file has none).
    fn read(
        &mut self,
        path: &Path,
    ) -> Result<(Vec<u8>, Option<LoadError>), Option<LoadError>> {
        let (streamed, res) = match self.reader.read(path) {
            Err(e) => {
                return Err(Some(LoadError::Unreadable(Error::io(path, &e))));
            }
            Ok(Contents::Binary) => return Err(None),
            Ok(Contents::Text(_)) => (None, Ok(())),
            Ok(Contents::Stream(r)) => {
                let mut v = vec![];
                let res = r.take(MAX_DOCUMENT + 1).read_to_end(&mut v);
                if v.len() as u64 > MAX_DOCUMENT {
                    return Err(Some(LoadError::TooLarge));
                }
                (Some(v), res.map(drop))
            }
        };
        let err = res.err().map(|e| LoadError::Partial(Error::io(path, &e)));
        // A whole file is in the file reader's buffer, exactly: taken, not
        // copied, which would touch as much fresh memory again.
        let bytes = streamed.unwrap_or_else(|| self.reader.take_buffer());
        Ok((bytes, err))
    }

    /// [`absolute`] of a file, its directory's canonical form found once
    /// per reader: canonicalizing each file asks the kernel about every
    /// component of its path. A file that is a symbolic link is still
    /// resolved to its target.
    fn absolute(
        &mut self,
        cwd: &Path,
        path: &Path,
        symlink: Option<bool>,
    ) -> PathBuf {
        let (Some(dir), Some(name)) = (path.parent(), path.file_name()) else {
            return absolute(cwd, path);
        };
        let symlink = symlink.unwrap_or_else(|| {
            std::fs::symlink_metadata(path)
                .map_or(true, |m| m.file_type().is_symlink())
        });
        if symlink {
            return absolute(cwd, path);
        }
        let dir =
            if dir.as_os_str().is_empty() { Path::new(".") } else { dir };
        if let Some(d) = self.dirs.get(dir) {
            return d.join(name);
        }
        let d = absolute(cwd, dir);
        let abs = d.join(name);
        self.dirs.insert(dir.to_path_buf(), d);
        abs
    }

    /// The root of root-relative links for a file: `--root`, else the git
    /// repository holding a Markdown file (as GitHub renders it), else the
    /// walked directory.
    fn root_of(
        &mut self,
        src: &Sources,
        abs: &Path,
        format: Format,
    ) -> Option<PathBuf> {
        if let Some(r) = &src.root {
            return Some(r.clone());
        }
        if matches!(format, Format::Markdown | Format::Mdx) {
            let dir = abs.parent()?.to_path_buf();
            let git = self
                .git_roots
                .entry(dir.clone())
                .or_insert_with(|| {
                    dir.ancestors()
                        .find(|d| d.join(".git").exists())
                        .map(Path::to_path_buf)
                })
                .clone();
            if git.is_some() {
                return git;
            }
        }
        src.walked
            .iter()
            .filter(|w| abs.starts_with(w))
            .max_by_key(|w| w.as_os_str().len())
            .cloned()
    }
}

/// The UTF-8 of `bytes` when they start with a UTF-16 byte order mark
/// (which UTF-8 never starts with), without the mark.
fn utf16_to_utf8(bytes: impl AsRef<[u8]>) -> Option<Vec<u8>> {
    let bytes = bytes.as_ref();
    let unit: fn([u8; 2]) -> u16 = match bytes.get(..2)? {
        [0xFF, 0xFE] => u16::from_le_bytes,
        [0xFE, 0xFF] => u16::from_be_bytes,
        _ => return None,
    };
    let units = bytes[2..].chunks(2).map(|c| match c {
        [a, b] => unit([*a, *b]),
        // An odd last byte is not a character.
        _ => 0xFFFD,
    });
    let text: String = char::decode_utf16(units)
        .map(|c| c.unwrap_or(char::REPLACEMENT_CHARACTER))
        .collect();
    Some(text.into_bytes())
}

impl LoadError {
    /// The line to print for it.
    pub fn message(&self, path: &Path) -> String {
        match self {
            LoadError::Unreadable(e) | LoadError::Partial(e) => e.to_string(),
            LoadError::TooLarge => format!(
                "{}: larger than {} MiB: its links were not read",
                path.display(),
                MAX_DOCUMENT >> 20
            ),
            LoadError::Binary => format!(
                "{}: binary (a NUL byte): its links were not read",
                path.display()
            ),
        }
    }
}
