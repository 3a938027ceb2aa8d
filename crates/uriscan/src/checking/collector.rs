//! The seam between the reading threads and the check: a [`Collector`]
//! per thread takes each document's links as they are read, collectors
//! merge, and the last one gives the verdicts.

use std::ops::RangeInclusive;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::links::LinkRef;

use super::anchors::KeptAnchors;
use super::facts::is_refresh;
use super::facts::{
    Document, DocumentFacts, LinkFacts, LinkTable, NO_PATH, Texts,
};
use super::fxhash::FxHashSet;
use super::local::{Checker, Reason, Verdict};

/// The documents of one check, gathered on any number of threads: make
/// one with [`Checker::collector`], one more per thread with
/// [`sibling`](Self::sibling), [`ingest`](Self::ingest) documents, then
/// [`merge`](Self::merge) them and [`finish`](Self::finish). Each link is
/// kept as a few numbers, not as its text, until the verdicts. `T` is the
/// caller's own data of each document (a label, the links it keeps).
///
/// ```
/// use uriscan::checking::{Checker, Document};
/// use uriscan::links::{Format, LinkExtractor, Page};
///
/// let html = br#"<a href="b.html#x">b</a> <a href="mailto:me@example.com">m</a>"#;
/// let page = Page::new(html, Format::Html).url("file:///site/a.html");
/// let (links, ids) = LinkExtractor::new().extract_with_anchors(&page);
/// let doc = Document {
///     path: "/site/a.html".into(),
///     root: "/site".into(),
///     links: links.collect(),
///     ids,
///     disabled: vec![],
/// };
/// let checker = Checker::new();
/// let mut collector = checker.collector();
/// let mut other = collector.sibling(); // for another thread
/// other.ingest(&doc, "a");
/// collector.merge(other);
/// let checked = collector.finish();
/// let a = &checked.documents[0];
/// assert_eq!(a.tag, "a");
/// assert_eq!(a.verdicts.len(), 2);
/// assert!(a.verdicts[0].is_local() && !a.verdicts[1].is_local());
/// assert_eq!(checked.linked_paths(), [std::path::Path::new("/site/b.html")]);
/// ```
#[derive(Debug)]
pub struct Collector<T = ()> {
    shared: Arc<Shared>,
    facts: Vec<DocumentFacts>,
    tags: Vec<T>,
}

/// What the collectors of one check share: the checker, and the table
/// that numbers paths and fragments.
#[derive(Debug)]
struct Shared {
    checker: Checker,
    table: LinkTable,
}

/// The verdicts of a check, document by document, and the texts their
/// reasons are made of ([`reason`](Self::reason)).
#[derive(Debug)]
pub struct Checked<T = ()> {
    /// The documents, in the order they were collected.
    pub documents: Vec<CheckedDocument<T>>,
    paths: Vec<PathBuf>,
    texts: Texts,
}

/// One document's verdicts.
#[derive(Debug)]
pub struct CheckedDocument<T = ()> {
    /// The caller's data of the document, as given to the collector.
    pub tag: T,
    /// One verdict per link, in document order.
    pub verdicts: Vec<Verdict>,
    facts: DocumentFacts,
}

impl Checker {
    /// A collector for a new check with this checker.
    pub fn collector<T>(&self) -> Collector<T> {
        let table = LinkTable::new(self.checks_fragments());
        let shared = Arc::new(Shared { checker: self.clone(), table });
        Collector { shared, facts: vec![], tags: vec![] }
    }
}

impl<T> Collector<T> {
    /// An empty collector for the same check, for another thread.
    pub fn sibling(&self) -> Collector<T> {
        Collector { shared: self.shared.clone(), facts: vec![], tags: vec![] }
    }

    /// Takes one document's links, its disabled lines excluded.
    pub fn ingest(&mut self, doc: &Document, tag: T) {
        let mut d = self.document(doc.disabled.clone());
        for l in &doc.links {
            d.push(l.as_ref());
        }
        d.finish(doc.path.clone(), doc.root.clone(), doc.ids.clone(), tag);
    }

    /// Takes one document's links one by one, as they are read, with no
    /// [`Link`](crate::links::Link) kept: what a reading thread hands
    /// each link of
    /// [`LinkExtractor::for_each_with_anchors`](crate::links::LinkExtractor::for_each_with_anchors)
    /// to. `disabled` as in [`Document`].
    pub fn document(
        &mut self,
        disabled: Vec<RangeInclusive<u64>>,
    ) -> DocumentDigest<'_, T> {
        DocumentDigest {
            collector: self,
            links: vec![],
            disabled,
            redirect: None,
            kept_anchors: None,
        }
    }

    /// Takes the documents of `other`, after its own.
    pub fn merge(&mut self, mut other: Collector<T>) {
        if !Arc::ptr_eq(&self.shared, &other.shared) {
            // Another check's collector: its numbers mean other paths.
            let (paths, texts) =
                self.shared.table.renumber(&other.shared.table);
            let at = |map: &[u32], n: u32| {
                if n == NO_PATH { n } else { map[n as usize] }
            };
            for f in other.facts.iter_mut().flat_map(|d| &mut d.links) {
                f.path = at(&paths, f.path);
                if f.text_is_interned() {
                    f.text = at(&texts, f.text);
                }
            }
        }
        self.facts.append(&mut other.facts);
        self.tags.append(&mut other.tags);
    }

    /// Keeps only the documents for which `keep` (given each one's path
    /// and tag) holds: a caller that read a file again in another form
    /// drops the first reading.
    pub fn retain_documents(
        &mut self,
        mut keep: impl FnMut(&Path, &T) -> bool,
    ) {
        let facts = std::mem::take(&mut self.facts);
        let tags = std::mem::take(&mut self.tags);
        for (f, t) in facts.into_iter().zip(tags) {
            if keep(&f.path, &t) {
                self.facts.push(f);
                self.tags.push(t);
            }
        }
    }

    /// The number of documents taken.
    pub fn len(&self) -> usize {
        self.facts.len()
    }

    /// Whether no document was taken.
    pub fn is_empty(&self) -> bool {
        self.facts.is_empty()
    }

    /// The number of links taken, in all documents.
    pub fn link_count(&self) -> usize {
        self.facts.iter().map(|d| d.links.len()).sum()
    }

    /// Checks every link taken: one verdict per link, for each document,
    /// in the order they were taken.
    pub fn finish(self) -> Checked<T> {
        let checker = self.shared.checker.clone();
        self.finish_with(&checker)
    }

    /// [`finish`](Self::finish) with `checker` in place of the one the
    /// collector was made with: one configured from what reading the
    /// documents found (the sites, whose anchor styles are known only
    /// once their configuration has been met). Whether fragments are
    /// checked stays the first checker's choice.
    pub fn finish_with(self, checker: &Checker) -> Checked<T> {
        let Collector { shared, facts, tags } = self;
        let (verdicts, texts) = checker.check_facts(&shared.table, &facts);
        let documents = tags
            .into_iter()
            .zip(verdicts)
            .zip(facts)
            .map(|((tag, verdicts), facts)| CheckedDocument {
                tag,
                verdicts,
                facts,
            })
            .collect();
        Checked { documents, paths: shared.table.paths(), texts }
    }
}

impl<T> Checked<T> {
    /// Why `verdict`, one of this check's, is broken, a warning, or
    /// skipped for a reason of its own ([`Reason::Template`]; a web link
    /// skipped offline has none). Made when asked, of the check's texts:
    /// a verdict keeps its reason's text (the fragment that no anchor
    /// matches) as a number into them, not as a string of its own.
    ///
    /// ```
    /// use uriscan::checking::{Checker, Document, Reason, Status};
    /// use uriscan::links::{Format, LinkExtractor, Page};
    ///
    /// # let dir = std::env::temp_dir()
    /// #     .join(format!("uriscan-doc-reason-{}", std::process::id()));
    /// # std::fs::create_dir_all(&dir).unwrap();
    /// # let dir = dir.canonicalize().unwrap();
    /// # let root = dir.to_str().unwrap();
    /// // A page that links to an anchor of its own that it lacks.
    /// let html = br#"<h1 id="top">Top</h1> <a href="a.html#nowhere">a</a>"#;
    /// std::fs::write(format!("{root}/a.html"), html).unwrap();
    /// let url = format!("file://{root}/a.html");
    /// let page = Page::new(html, Format::Html).url(&url);
    /// let (links, ids) = LinkExtractor::new().extract_with_anchors(&page);
    /// let doc = Document {
    ///     path: format!("{root}/a.html").into(),
    ///     root: root.into(),
    ///     links: links.collect(),
    ///     ids,
    ///     disabled: vec![],
    /// };
    /// let mut collector = Checker::new().collector();
    /// collector.ingest(&doc, ());
    /// let checked = collector.finish();
    /// let v = &checked.documents[0].verdicts[0];
    /// assert_eq!(v.status(), Status::Broken);
    /// let reason = checked.reason(v);
    /// assert_eq!(reason, Some(Reason::NoAnchor("nowhere".into())));
    /// assert_eq!(reason.unwrap().to_string(), "no anchor '#nowhere' in the target");
    /// # std::fs::remove_dir_all(&dir).unwrap();
    /// ```
    pub fn reason(&self, verdict: &Verdict) -> Option<Reason<'_>> {
        verdict.reason_in(&self.texts)
    }

    /// The local paths that some document links to, other than itself,
    /// excluded links included, each once.
    pub fn linked_paths(&self) -> Vec<&Path> {
        let mut linked = FxHashSet::default();
        for doc in &self.documents {
            for id in doc.facts.links.iter().filter_map(LinkFacts::path_id) {
                if self.paths[id as usize] != doc.facts.path {
                    linked.insert(id);
                }
            }
        }
        let mut ids: Vec<u32> = linked.into_iter().collect();
        ids.sort_unstable();
        ids.into_iter().map(|id| self.paths[id as usize].as_path()).collect()
    }
}

impl<T> CheckedDocument<T> {
    /// The document's absolute path.
    pub fn path(&self) -> &Path {
        self.facts.path()
    }
    /// The root its root-relative links resolved under.
    pub fn root(&self) -> &Path {
        self.facts.root()
    }
}

/// One document's links being taken one by one: made by
/// [`Collector::document`].
#[derive(Debug)]
pub struct DocumentDigest<'c, T> {
    collector: &'c mut Collector<T>,
    links: Vec<LinkFacts>,
    disabled: Vec<RangeInclusive<u64>>,
    /// The local target of the first meta refresh, once one is met.
    redirect: Option<Option<PathBuf>>,
    kept_anchors: Option<KeptAnchors>,
}

impl<T> DocumentDigest<'_, T> {
    /// Takes the document's next link, its line's disabling applied.
    pub fn push(&mut self, link: LinkRef<'_>) {
        let f = self.collector.shared.table.facts(link);
        // Where a redirect page sends the reader: its first meta
        // refresh's local target.
        if self.redirect.is_none() && is_refresh(link) {
            self.redirect = Some(link.file_path());
        }
        self.take(link, f);
    }

    /// Keeps the facts `f` of `link`, excluded when its line is disabled.
    fn take(&mut self, link: LinkRef<'_>, mut f: LinkFacts) {
        if self.disabled.iter().any(|r| r.contains(&link.line())) {
            f.exclude();
        }
        self.links.push(f);
    }

    /// Takes the document's next link with the target a mapping gave it
    /// ([`Remapper::map`](super::Remapper::map)): a local target must stay
    /// under the document's root even where other links may leave it.
    pub fn push_remapped(&mut self, link: LinkRef<'_>, mapped_target: &str) {
        self.push(link.with_target(mapped_target));
        if let Some(f) = self.links.last_mut() {
            f.mapped();
        }
    }

    /// Takes the document's next link, checked as a link to the local
    /// file `path` with the fragment `fragment` (as written): where a
    /// site's rules map it ([`Site::map`](super::site::Site::map)).
    pub fn push_mapped(
        &mut self,
        link: LinkRef<'_>,
        path: &Path,
        fragment: Option<&str>,
    ) {
        let f = self.collector.shared.table.facts_at(path, fragment);
        self.take(link, f);
    }

    /// Takes the document's next link, broken because its site serves
    /// nothing there, for `reason`.
    pub fn push_unavailable(&mut self, link: LinkRef<'_>, reason: &str) {
        let f = self.collector.shared.table.unavailable(reason);
        self.take(link, f);
    }

    /// Takes the document's next link as a warning, for `warning` in its
    /// processor's words (`tag 't' not found in include file`): the
    /// target holds, and still counts as linked.
    pub fn push_warned(&mut self, link: LinkRef<'_>, warning: &str) {
        self.push(link);
        let text = self.collector.shared.table.intern_text(warning);
        if let Some(f) = self.links.last_mut()
            && f.what() != super::facts::TargetKind::Excluded
        {
            f.warned(text);
        }
    }

    /// Takes the document's next link, skipped: a file its site's
    /// generator downloads while it builds, which the check never fetches.
    pub fn push_downloaded(&mut self, link: LinkRef<'_>) {
        let f = self.collector.shared.table.downloaded();
        self.take(link, f);
    }

    /// Takes the document's next link, skipped: a URL that its site's
    /// `include-markdown` plugin downloads while it builds, which the
    /// check never fetches.
    pub fn push_included_url(&mut self, link: LinkRef<'_>) {
        let f = self.collector.shared.table.included_url();
        self.take(link, f);
    }

    /// Takes the document's next link, left out of the check (an
    /// exclusion of the caller's): its local path still counts as linked.
    pub fn push_excluded(&mut self, link: LinkRef<'_>) {
        self.push(link);
        if let Some(f) = self.links.last_mut() {
            f.exclude();
        }
    }

    /// Keeps the anchors named while the document was read
    /// ([`for_each_with_kept_anchors`]), for links into it: the check
    /// uses them where it names its anchors the same way.
    ///
    /// [`for_each_with_kept_anchors`]: super::anchors::for_each_with_kept_anchors
    pub fn keep_anchors(&mut self, anchors: KeptAnchors) {
        self.kept_anchors = Some(anchors);
    }

    /// Ends the document: its `path`, its `root` and the `ids` it
    /// defines, as in [`Document`], and the caller's `tag`.
    pub fn finish(
        self,
        path: PathBuf,
        root: PathBuf,
        ids: Option<Vec<String>>,
        tag: T,
    ) {
        let DocumentDigest {
            collector,
            mut links,
            redirect,
            kept_anchors,
            ..
        } = self;
        // Held until the whole tree is read: without the room growing left.
        links.shrink_to_fit();
        let redirect = redirect.flatten();
        collector.facts.push(DocumentFacts {
            path,
            root,
            links,
            ids,
            redirect,
            kept_anchors,
        });
        collector.tags.push(tag);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::links::{Format, LinkExtractor, Page};

    fn doc(path: &str, html: &[u8]) -> Document {
        let url = format!("file://{path}");
        let page = Page::new(html, Format::Html).url(&url);
        let (links, ids) = LinkExtractor::new().extract_with_anchors(&page);
        Document {
            path: path.into(),
            root: "/".into(),
            links: links.collect(),
            ids,
            disabled: vec![],
        }
    }

    /// Collectors of two checks number paths and fragments apart; merged,
    /// the facts mean what they meant.
    #[test]
    fn merging_another_checks_collector_renumbers() {
        let checker = Checker::new();
        let a = doc("/nowhere/a.html", br#"<a id="x" href="b.html#y">"#);
        let b = doc("/nowhere/b.html", br#"<a id="y" href="a.html#x">"#);
        let mut one = checker.collector();
        // Numbers taken in the first table, not the second.
        one.ingest(&doc("/nowhere/c.html", br#"<a href="z.html#w">"#), 'c');
        one.ingest(&a, 'a');
        let mut two = checker.collector();
        two.ingest(&b, 'b');
        one.merge(two);
        let checked = one.finish();
        let tags: Vec<char> =
            checked.documents.iter().map(|d| d.tag).collect();
        assert_eq!(tags, ['c', 'a', 'b']);
        let linked = checked.linked_paths();
        assert!(linked.contains(&Path::new("/nowhere/a.html")));
        assert!(linked.contains(&Path::new("/nowhere/b.html")));
        assert!(linked.contains(&Path::new("/nowhere/z.html")));
        assert_eq!(linked.len(), 3);
        // Outside no root ("/"), missing on disk: broken for the path,
        // whatever the fragment.
        for d in &checked.documents {
            assert_eq!(d.verdicts.len(), 1);
            assert!(d.verdicts[0].is_local());
            assert_eq!(
                checked.reason(&d.verdicts[0]),
                Some(super::super::Reason::NoSuchFile)
            );
        }
    }

    /// A link pushed as excluded is not checked, and its path still
    /// counts as linked.
    #[test]
    fn excluded_links_still_link() {
        let checker = Checker::new();
        let mut c = checker.collector();
        let page = Page::new(br#"<a href="b.html">"#, Format::Html)
            .url("file:///nowhere/a.html");
        let mut d = c.document(vec![]);
        let ids = LinkExtractor::new().for_each_with_anchors(&page, |l| {
            d.push_excluded(l);
        });
        d.finish("/nowhere/a.html".into(), "/".into(), ids, ());
        let checked = c.finish();
        let v = &checked.documents[0].verdicts[0];
        assert_eq!(v.status(), super::super::Status::Excluded);
        assert!(!v.is_local());
        assert_eq!(checked.linked_paths(), [Path::new("/nowhere/b.html")]);
    }

    /// An unused definition and a duplicate one are warnings, whose
    /// targets are not checked; a used one is checked. Merged from
    /// another check's collector, a duplicate keeps the line it names.
    #[test]
    fn unused_and_duplicate_definitions_are_warnings() {
        use super::super::{Reason, Status};
        let md = b"[a]\n\n[a]: gone.md\n[b]: gone.md\n[A]: other.md\n";
        let page = Page::new(md, Format::Markdown).url("file:///nowhere/a.md");
        let doc = Document {
            path: "/nowhere/a.md".into(),
            root: "/nowhere".into(),
            links: LinkExtractor::new().extract(&page).collect(),
            ids: None,
            disabled: vec![],
        };
        let checker = Checker::new();
        let mut one = checker.collector();
        let mut two = checker.collector();
        // Another table, whose texts are numbered apart.
        two.ingest(
            &self::doc("/nowhere/c.html", br#"<a href="z.html#w">"#),
            (),
        );
        two.ingest(&doc, ());
        one.ingest(
            &self::doc("/nowhere/d.html", br#"<a href="y.html#v">"#),
            (),
        );
        one.merge(two);
        let checked = one.finish();
        let v = &checked.documents[2].verdicts;
        let got: Vec<_> =
            v.iter().map(|v| (v.status(), checked.reason(v))).collect();
        assert_eq!(
            got,
            [
                (Status::Broken, Some(Reason::NoSuchFile)),
                (Status::Broken, Some(Reason::NoSuchFile)),
                (Status::Warning, Some(Reason::UnusedDefinition)),
                (Status::Warning, Some(Reason::DuplicateDefinition(3))),
            ]
        );
        assert_eq!(
            Reason::DuplicateDefinition(3).to_string(),
            "duplicate of the definition at line 3"
        );
        assert_eq!(Status::Warning.as_str(), "warning");
    }

    /// A link that still holds template syntax is skipped as a template,
    /// with a reason (a web link skipped offline has none), and its
    /// target is not linked.
    #[test]
    fn template_links_are_skipped_as_templates() {
        use super::super::{Reason, Status};
        let checker = Checker::new();
        let mut c = checker.collector();
        c.ingest(
            &doc(
                "/nowhere/t.html",
                br#"<a href="{{ url }}/a.html"></a><a href="https://e.org/{% x %}"></a><a href="https://e.org/"></a>"#,
            ),
            (),
        );
        let checked = c.finish();
        let v = &checked.documents[0].verdicts;
        assert_eq!(v[0].status(), Status::Skipped);
        assert_eq!(checked.reason(&v[0]), Some(Reason::Template));
        assert_eq!(checked.reason(&v[1]), Some(Reason::Template));
        assert_eq!(
            (v[2].status(), checked.reason(&v[2])),
            (Status::Skipped, None)
        );
        assert!(v[0].has_reason() && !v[2].has_reason());
        assert!(checked.linked_paths().is_empty());
        assert_eq!(Reason::Template.to_string(), "template");
    }

    /// A mapped local target stays under the root even where other links
    /// may leave it; its fragment and path are those of the mapping.
    #[test]
    fn mapped_targets_stay_under_the_root() {
        use super::super::{Reason, RemapRule, Remapper, Status};
        let mut b = Checker::builder();
        b.allow_outside_root(true);
        let checker = b.build();
        let mut remap = Remapper::new();
        remap.rule(
            RemapRule::parse("^https://e.org/(.*)$ file:///r/../$1").unwrap(),
        );
        let mut c = checker.collector();
        let page = Page::new(
            br#"<a href="https://e.org/etc/passwd"></a><a href="/etc/passwd"></a>"#,
            Format::Html,
        )
        .url("file:///r/a.html");
        let mut d = c.document(vec![]);
        LinkExtractor::new().for_each(&page, |l| {
            match l.target().and_then(|t| remap.map(t)) {
                Some(m) => d.push_remapped(l, &m.target),
                None => d.push(l),
            }
        });
        d.finish("/r/a.html".into(), "/r".into(), None, ());
        let checked = c.finish();
        let v = &checked.documents[0].verdicts;
        assert_eq!(v[0].status(), Status::Broken);
        assert_eq!(checked.reason(&v[0]), Some(Reason::OutsideRoot));
        assert!(v[0].is_local());
        // Unmapped, the same target may leave the root here.
        assert_ne!(checked.reason(&v[1]), Some(Reason::OutsideRoot));
        assert_eq!(checked.linked_paths().len(), 1);
    }
}
