//! One document to read: its bytes, its [`Format`] and its place.

/// How a document is read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Format {
    /// CommonMark (with the GitHub extensions unless turned off).
    Markdown,
    /// HTML, by the WHATWG tokenizer.
    Html,
    /// Plain text: the URIs the [`Finder`](crate::scanning::Finder) finds.
    Text,
    /// reStructuredText, as docutils and Sphinx read it.
    Rst,
    /// AsciiDoc, as Asciidoctor reads it (and Antora, for a document in
    /// a component's `modules/NAME/...`).
    AsciiDoc,
    /// MDX (Docusaurus): Markdown with ESM lines, `{expressions}` and JSX.
    Mdx,
    /// MyST: CommonMark with the roles, directives and targets of MyST,
    /// as myst-parser reads Markdown in a Sphinx project. No extension
    /// says it ([`Format::from_path`] says Markdown): the check and the
    /// command line choose it for a `.md` file of a Sphinx project whose
    /// `conf.py` enables `myst_parser`.
    Myst,
}

impl Format {
    /// The format a file name's extension says: `.md`, `.markdown`,
    /// `.mdown`, `.mkd` are Markdown, `.html`, `.htm`, `.xhtml` HTML,
    /// `.rst`, `.rest` reStructuredText, `.adoc`, `.asciidoc`, `.asc`
    /// AsciiDoc, `.mdx` MDX, anything else text.
    ///
    /// ```
    /// use uriscan::links::Format;
    /// assert_eq!(Format::from_path("docs/README.md".as_ref()), Format::Markdown);
    /// assert_eq!(Format::from_path("a/INDEX.HTM".as_ref()), Format::Html);
    /// assert_eq!(Format::from_path("main.rs".as_ref()), Format::Text);
    /// ```
    pub fn from_path(path: &std::path::Path) -> Format {
        let Some(ext) = path.extension().and_then(|e| e.to_str()) else {
            return Format::Text;
        };
        let is =
            |list: &[&str]| list.iter().any(|x| ext.eq_ignore_ascii_case(x));
        if is(&["md", "markdown", "mdown", "mkd"]) {
            Format::Markdown
        } else if is(&["html", "htm", "xhtml"]) {
            Format::Html
        } else if is(&["rst", "rest"]) {
            Format::Rst
        } else if is(&["adoc", "asciidoc", "asc"]) {
            Format::AsciiDoc
        } else if is(&["mdx"]) {
            Format::Mdx
        } else {
            Format::Text
        }
    }
}

/// One document to read: its bytes, format and place.
#[derive(Clone, Copy, Debug)]
pub struct Page<'a> {
    pub(super) bytes: &'a [u8],
    pub(super) format: Format,
    pub(super) url: Option<&'a str>,
    pub(super) base: Option<&'a str>,
    pub(super) root: Option<&'a str>,
    pub(super) charset: Option<&'a str>,
    pub(super) attributes: &'a [(String, String)],
    pub(super) myst: Option<&'a super::MystSettings>,
}

impl<'a> Page<'a> {
    /// A document of `format`, with no URL: relative links get no target.
    pub fn new(bytes: &'a [u8], format: Format) -> Page<'a> {
        Page {
            bytes,
            format,
            url: None,
            base: None,
            root: None,
            charset: None,
            attributes: &[],
            myst: None,
        }
    }
    /// The document's own URL (for a file, its `file:` URI, see
    /// [`file_uri`](super::file_uri)): the base when no other is given.
    pub fn url(mut self, url: &'a str) -> Page<'a> {
        self.url = Some(url);
        self
    }
    /// A base URI that wins over the document's `<base href>` and URL.
    pub fn base(mut self, base: &'a str) -> Page<'a> {
        self.base = Some(base);
        self
    }
    /// The URI of the root directory that root-relative links (`/x`)
    /// resolve under, when the base is the page's own URL.
    pub fn root(mut self, root: &'a str) -> Page<'a> {
        self.root = Some(root);
        self
    }
    /// The attributes an AsciiDoc document starts with, name and value:
    /// an Antora component's `asciidoc.attributes`. The document cannot
    /// change them, but those whose value ends with `@` (a soft set, as
    /// Antora reads them).
    pub fn attributes(
        mut self,
        attributes: &'a [(String, String)],
    ) -> Page<'a> {
        self.attributes = attributes;
        self
    }
    /// The settings of myst-parser (from the project's `conf.py`) a MyST
    /// document is read with; without them, every construct of MyST is
    /// accepted.
    pub fn myst(mut self, settings: &'a super::MystSettings) -> Page<'a> {
        self.myst = Some(settings);
        self
    }
    /// The charset the transport declared (HTTP `Content-Type`): it wins
    /// over the document's `<meta charset>`, not over a byte order mark.
    pub fn charset(mut self, label: &'a str) -> Page<'a> {
        self.charset = Some(label);
        self
    }
}
