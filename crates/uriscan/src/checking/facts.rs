//! What the offline check keeps of each link between the reading phase
//! and the verdicts.
//!
//! A site's links all wait for the whole tree to be read, since any of
//! them may point into any document, and their texts would be most of
//! the check's memory. So each link becomes a small [`LinkFacts`] as soon
//! as its document is read: the kind of its target, and its local path
//! and fragment as numbers in a [`LinkTable`] that the reading threads
//! share. The text is wanted again only for the links a report prints.

use std::hash::BuildHasher;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU32, Ordering};

use crate::links::{
    Kind, Link, LinkRef, MystKind, Reference, RstKind, file_path_bytes,
    path_from_bytes, percent_decode,
};

use super::anchors::KeptAnchors;
use super::fxhash::FxHasher;

/// Shards of the path table: every reading thread interns the path of
/// each link it reads, and behind one lock they would queue.
const SHARDS: usize = 16;

/// The interned path of a link that has none (and its absent fragment).
pub(crate) const NO_PATH: u32 = u32::MAX;

/// The local paths and the fragments of a check's links, each interned
/// once: a site has millions of links to tens of thousands of files and
/// anchors, so a link keeps two numbers. Shared by the threads that read
/// the documents (it is `Sync`), through their collectors.
#[derive(Debug)]
pub(crate) struct LinkTable {
    paths: Interner,
    /// The fragments, and the errors of malformed links.
    texts: Interner,
    /// Whether fragments are kept (the check looks them up).
    fragments: bool,
}

/// Byte strings to numbers, from any number of threads.
#[derive(Debug)]
struct Interner {
    shards: Box<[Mutex<Shard>]>,
    next: AtomicU32,
}

/// One shard of an [`Interner`]: its strings end to end in one buffer,
/// found through a table of their indexes. A site's fragments run to
/// millions, and a map of boxed strings would cost a heap block, a box
/// and a slot of three words for each.
#[derive(Debug, Default)]
struct Shard {
    bytes: Vec<u8>,
    /// Where each string starts in `bytes`, in the order interned: it
    /// ends where the next one starts.
    starts: Vec<usize>,
    /// Each string's number, in the same order.
    ids: Vec<u32>,
    /// Indexes into `starts`, plus one (0: free), each at the place its
    /// string's hash picks or the first free one after it; at most half
    /// full.
    slots: Vec<u32>,
}

/// The strings of a table by their numbers, end to end in one buffer.
#[derive(Debug, Default)]
pub(crate) struct Texts {
    text: String,
    /// Where each one ends in `text`; it starts where the one before ends.
    ends: Vec<usize>,
}

/// What the check needs of one link, without its text. See the
/// [module docs](self).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct LinkFacts {
    pub(crate) what: TargetKind,
    /// Its local path in the [`LinkTable`], or [`NO_PATH`].
    pub(crate) path: u32,
    /// The fragment to look up, as written, for a local target; the
    /// error, for a malformed link; or [`NO_PATH`].
    pub(crate) text: u32,
}

/// The kind of a link's target, as the check sorts them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum TargetKind {
    /// Left out: a disabled line, or an exclusion of the caller's.
    Excluded,
    /// Not a URI reference.
    Malformed,
    /// A `file:` URI: a local target, or one on another host.
    File,
    /// A `file:` URI that a mapping made: it stays under the root,
    /// whatever the check allows other links.
    MappedFile,
    /// A `mailto:` or `tel:` link, and whether it holds an address.
    Address(bool),
    /// A reStructuredText `:ref:` or `:numref:`: a label that some
    /// document of the project defines (its key in the texts).
    Label,
    /// A `:term:` or `{term}`: a term that some glossary of the project
    /// defines (its key in the texts).
    Term,
    /// A reStructuredText reference that cannot be resolved offline (a
    /// role with a domain, intersphinx, a glob).
    Unresolvable(RstKind),
    /// Anything else: not checked offline.
    Other,
    /// A link that still holds template syntax.
    Template,
    /// A Markdown definition that no link uses.
    UnusedDefinition,
    /// A Markdown definition that an earlier one overrides; `text` holds
    /// the earlier one's line.
    DuplicateDefinition,
    /// A local link to nothing its site serves; the text is why.
    Unavailable,
    /// A link that holds but that its processor warns about (an include
    /// that names a tag its file does not hold); the text is the warning.
    Warned,
    /// A file the site's generator downloads while it builds: neither
    /// checked offline nor fetched.
    Downloaded,
    /// A URL that the `include-markdown` plugin downloads while the site
    /// builds: neither checked offline nor fetched.
    IncludedUrl,
}

/// One document's links as facts, with what other links may look up in
/// it: the ids it defines and the page it redirects to.
#[derive(Debug)]
pub(crate) struct DocumentFacts {
    pub(crate) path: PathBuf,
    pub(crate) root: PathBuf,
    pub(crate) links: Vec<LinkFacts>,
    pub(crate) ids: Option<Vec<String>>,
    pub(crate) redirect: Option<PathBuf>,
    /// A Markdown document's anchors, named while its links were read,
    /// with what decided them: the check uses them where it would name
    /// them the same way, else reads the document again.
    pub(crate) kept_anchors: Option<KeptAnchors>,
}

/// One document's links, as the reading phase gives them.
#[derive(Debug)]
pub struct Document {
    /// The document's absolute path.
    pub path: PathBuf,
    /// The root its root-relative links resolved under; a local target
    /// outside it is reported.
    pub root: PathBuf,
    /// Its links, in document order.
    pub links: Vec<Link>,
    /// The fragment identifiers it defines, when it was read as HTML.
    pub ids: Option<Vec<String>>,
    /// The lines whose links are not checked: see [`disabled_lines`](super::disabled_lines).
    pub disabled: Vec<std::ops::RangeInclusive<u64>>,
}

impl LinkTable {
    pub(crate) fn new(fragments: bool) -> LinkTable {
        LinkTable { paths: Interner::new(), texts: Interner::new(), fragments }
    }

    /// The facts of one link.
    pub(crate) fn facts(&self, link: LinkRef<'_>) -> LinkFacts {
        let fact = |what, path, text| LinkFacts { what, path, text };
        // A definition that is never rendered: nothing to check. But for
        // the comment idiom (`[//]: # (a comment)`, `[//]: <>`), whose
        // destination links nowhere on purpose.
        let comment = matches!(link.link(), "" | "#");
        match link.reference().filter(|_| !comment) {
            Some(Reference::Definition { uses }) if uses.is_empty() => {
                return fact(TargetKind::UnusedDefinition, NO_PATH, NO_PATH);
            }
            Some(Reference::Duplicate { first_line }) => {
                let line = u32::try_from(*first_line).unwrap_or(u32::MAX - 1);
                return fact(TargetKind::DuplicateDefinition, NO_PATH, line);
            }
            _ => {}
        }
        // A theme's or a page's template that was never rendered: its
        // links are not links yet (before the error: `{{ x }}` is none).
        // A generator's own link syntax (Hugo's `ref`, Jekyll's `link`)
        // that no site of its generator resolved: a template too.
        if holds_template(link.link())
            || matches!(link.kind(), Kind::Generator(k) if k.is_template())
        {
            return fact(TargetKind::Template, NO_PATH, NO_PATH);
        }
        if let Some(e) = link.error() {
            let e = self.texts.intern(e.to_string().as_bytes());
            return fact(TargetKind::Malformed, NO_PATH, e);
        }
        match link.kind() {
            Kind::Rst(RstKind::Term) | Kind::Myst(MystKind::Term) => {
                let key = crate::links::label_key(link.link());
                let key = self.texts.intern(key.as_bytes());
                return fact(TargetKind::Term, NO_PATH, key);
            }
            Kind::Rst(RstKind::Ref | RstKind::Numref) => {
                let key = crate::links::label_key(link.link());
                let key = self.texts.intern(key.as_bytes());
                return fact(TargetKind::Label, NO_PATH, key);
            }
            Kind::Rst(k) if !k.resolves() => {
                return fact(TargetKind::Unresolvable(k), NO_PATH, NO_PATH);
            }
            // A MyST link to a label keeps the path MyST tries as well: a
            // document or file of that name beside its document.
            Kind::Myst(k) if k.names_label() => {
                let key = crate::links::label_key(link.link());
                let key = self.texts.intern(key.as_bytes());
                let path = link
                    .target()
                    .filter(|t| t.starts_with("file:"))
                    .and_then(file_path_bytes)
                    .map_or(NO_PATH, |p| self.paths.intern(&p));
                return fact(TargetKind::Label, path, key);
            }
            Kind::Myst(k) if !k.resolves() => {
                let like = TargetKind::Unresolvable(k.as_rst());
                return fact(like, NO_PATH, NO_PATH);
            }
            _ => {}
        }
        let Some(target) = link.target() else {
            return fact(TargetKind::Other, NO_PATH, NO_PATH);
        };
        // The scheme, compared without a copy: this runs for every link.
        let scheme = target.split(':').next().unwrap_or("");
        let is = |s: &str| scheme.eq_ignore_ascii_case(s);
        if is("file") {
            // A file: URI with a host names another machine: no path.
            let path = file_path_bytes(target)
                .map_or(NO_PATH, |p| self.paths.intern(&p));
            let fragment = checked_fragment(target)
                .filter(|_| self.fragments)
                .map_or(NO_PATH, |f| self.texts.intern(f.as_bytes()));
            return fact(TargetKind::File, path, fragment);
        }
        if is("mailto") || is("tel") {
            let ok = address_ok(&scheme.to_ascii_lowercase(), target);
            return fact(TargetKind::Address(ok), NO_PATH, NO_PATH);
        }
        fact(TargetKind::Other, NO_PATH, NO_PATH)
    }

    /// The facts of a link whose target a site maps to the local file
    /// `path`, with the fragment `fragment` (as written).
    pub(crate) fn facts_at(
        &self,
        path: &Path,
        fragment: Option<&str>,
    ) -> LinkFacts {
        let path = self.paths.intern(path.as_os_str().as_encoded_bytes());
        let fragment = fragment
            .filter(|_| self.fragments)
            .and_then(checked_fragment_text)
            .map_or(NO_PATH, |f| self.texts.intern(f.as_bytes()));
        LinkFacts { what: TargetKind::File, path, text: fragment }
    }

    /// The facts of a link to nothing its site serves, for `reason`.
    pub(crate) fn downloaded(&self) -> LinkFacts {
        LinkFacts {
            what: TargetKind::Downloaded,
            path: NO_PATH,
            text: NO_PATH,
        }
    }

    /// The facts of a URL that the `include-markdown` plugin downloads.
    pub(crate) fn included_url(&self) -> LinkFacts {
        LinkFacts {
            what: TargetKind::IncludedUrl,
            path: NO_PATH,
            text: NO_PATH,
        }
    }

    /// The number of `text` among the texts.
    pub(crate) fn intern_text(&self, text: &str) -> u32 {
        self.texts.intern(text.as_bytes())
    }

    pub(crate) fn unavailable(&self, reason: &str) -> LinkFacts {
        let text = self.texts.intern(reason.as_bytes());
        LinkFacts { what: TargetKind::Unavailable, path: NO_PATH, text }
    }

    /// Every local path the links name, indexed by their numbers.
    pub(crate) fn paths(&self) -> Vec<PathBuf> {
        self.paths.all().into_iter().map(path_from_bytes).collect()
    }

    /// The numbers in this table of every path and text of `other`,
    /// indexed by their numbers there: to move facts between tables.
    pub(crate) fn renumber(&self, other: &LinkTable) -> (Vec<u32>, Vec<u32>) {
        let map = |to: &Interner, from: &Interner| {
            from.all().iter().map(|b| to.intern(b)).collect()
        };
        (map(&self.paths, &other.paths), map(&self.texts, &other.texts))
    }

    /// Every fragment and error, indexed by their numbers.
    pub(crate) fn texts(&self) -> Texts {
        Texts::of(&self.texts)
    }
}

/// The hash of `bytes`: its high half picks a shard, its low half a
/// slot.
fn hash_of(bytes: &[u8]) -> u64 {
    std::hash::BuildHasherDefault::<FxHasher>::default().hash_one(bytes)
}

impl Interner {
    fn new() -> Interner {
        Interner {
            shards: (0..SHARDS).map(|_| Mutex::default()).collect(),
            next: AtomicU32::new(0),
        }
    }

    /// The number of `bytes`.
    fn intern(&self, bytes: &[u8]) -> u32 {
        let hash = hash_of(bytes);
        // Not the low bits, which pick the slot in the shard.
        let shard = &self.shards[(hash >> 32) as usize % SHARDS];
        let mut shard = shard.lock().unwrap_or_else(|e| e.into_inner());
        shard.intern(bytes, hash, &self.next)
    }

    /// Every string interned, indexed by its number.
    fn all(&self) -> Vec<Vec<u8>> {
        let mut out = vec![];
        self.each_in_order(|b| out.push(b.to_vec()));
        out
    }

    /// Calls `each` with every string interned, in the order of their
    /// numbers.
    fn each_in_order(&self, mut each: impl FnMut(&[u8])) {
        let shards: Vec<_> = self
            .shards
            .iter()
            .map(|s| s.lock().unwrap_or_else(|e| e.into_inner()))
            .collect();
        let n = self.next.load(Ordering::Relaxed) as usize;
        // Each number's shard and index there.
        let mut at = vec![(u32::MAX, 0u32); n];
        for (si, shard) in shards.iter().enumerate() {
            for (i, &id) in shard.ids.iter().enumerate() {
                at[id as usize] = (si as u32, i as u32);
            }
        }
        for (si, i) in at {
            // A number taken by a thread that has not stored its string:
            // none while the table is read, as the readers have ended.
            let s = shards.get(si as usize).map_or(&[][..], |s| s.get(i));
            each(s);
        }
    }
}

impl Shard {
    /// The number of `bytes` (whose hash is `hash`), a new one from
    /// `next` when it is new.
    fn intern(&mut self, bytes: &[u8], hash: u64, next: &AtomicU32) -> u32 {
        if self.starts.len() * 2 >= self.slots.len() {
            self.grow();
        }
        let mask = self.slots.len() - 1;
        let mut at = slot_of(hash, mask);
        loop {
            match self.slots[at] {
                0 => break,
                s if self.get(s - 1) == bytes => {
                    return self.ids[s as usize - 1];
                }
                _ => at = (at + 1) & mask,
            }
        }
        let id = next.fetch_add(1, Ordering::Relaxed);
        self.slots[at] = self.starts.len() as u32 + 1;
        self.starts.push(self.bytes.len());
        self.bytes.extend_from_slice(bytes);
        self.ids.push(id);
        id
    }

    /// String `i` of the shard, in the order interned.
    fn get(&self, i: u32) -> &[u8] {
        let i = i as usize;
        let end = self.starts.get(i + 1).copied().unwrap_or(self.bytes.len());
        self.starts.get(i).map_or(&[][..], |&start| &self.bytes[start..end])
    }

    /// Twice the slots, each string placed again.
    fn grow(&mut self) {
        let size = (self.slots.len() * 2).max(16);
        let mask = size - 1;
        let mut slots = vec![0u32; size];
        for i in 0..self.starts.len() as u32 {
            let mut at = slot_of(hash_of(self.get(i)), mask);
            while slots[at] != 0 {
                at = (at + 1) & mask;
            }
            slots[at] = i + 1;
        }
        self.slots = slots;
    }
}

/// The slot that `hash` picks among `mask + 1`: its bits mixed, as a
/// hash of few rounds leaves the low ones alike.
fn slot_of(hash: u64, mask: usize) -> usize {
    (hash.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 32) as usize & mask
}

impl Texts {
    /// The strings of `interner`, in the order of their numbers.
    fn of(interner: &Interner) -> Texts {
        let mut texts = Texts::default();
        interner.each_in_order(|b| {
            // They were `str`s when interned.
            texts.push(&String::from_utf8_lossy(b));
        });
        texts
    }

    /// Where text number `i` lies in `text`, if there is one.
    fn span(&self, i: usize) -> Option<std::ops::Range<usize>> {
        let end = *self.ends.get(i)?;
        let start = if i == 0 { 0 } else { self.ends[i - 1] };
        Some(start..end)
    }

    /// Text number `i`, if there is one.
    pub(crate) fn get(&self, i: u32) -> Option<&str> {
        self.text.get(self.span(i as usize)?)
    }

    /// Adds `text` after the others; its number.
    pub(crate) fn push(&mut self, text: &str) -> u32 {
        self.text.push_str(text);
        self.ends.push(self.text.len());
        // A check's texts are numbered by `u32`s, as the table's are.
        u32::try_from(self.ends.len() - 1).unwrap_or(NO_PATH)
    }
}

impl std::ops::Index<usize> for Texts {
    type Output = str;
    fn index(&self, i: usize) -> &str {
        let span = self.span(i).expect("a text of this check");
        &self.text[span]
    }
}

impl LinkFacts {
    /// Leaves the link out of the check: its verdict is excluded. Its
    /// local path still counts as linked.
    pub(crate) fn exclude(&mut self) {
        self.what = TargetKind::Excluded;
        self.text = NO_PATH;
    }
    /// Whether the target is a `file:` URI (or a site's URL that names
    /// nothing local, or a local file its processor warns about).
    pub(crate) fn is_file(&self) -> bool {
        matches!(
            self.what,
            TargetKind::File
                | TargetKind::MappedFile
                | TargetKind::Unavailable
                | TargetKind::Warned
        )
    }
    /// Marks the link as one its processor warns about, with the warning
    /// `text` (a number in the texts); its path still counts as linked.
    pub(crate) fn warned(&mut self, text: u32) {
        self.what = TargetKind::Warned;
        self.text = text;
    }
    /// Marks a `file:` target as made by a mapping.
    pub(crate) fn mapped(&mut self) {
        if self.what == TargetKind::File {
            self.what = TargetKind::MappedFile;
        }
    }
    /// The number of the local path it names in the [`LinkTable`]: an
    /// index into [`LinkTable::paths`].
    pub(crate) fn path_id(&self) -> Option<u32> {
        (self.path != NO_PATH).then_some(self.path)
    }
    pub(crate) fn what(&self) -> TargetKind {
        self.what
    }
    /// The number of the fragment to look up, as written in the target,
    /// in [`LinkTable::texts`].
    pub(crate) fn fragment(&self) -> Option<u32> {
        (matches!(self.what, TargetKind::File | TargetKind::MappedFile)
            && self.text != NO_PATH)
            .then_some(self.text)
    }
    /// The number of the key of a `:ref:` label in [`LinkTable::texts`].
    pub(crate) fn label(&self) -> Option<u32> {
        (self.what == TargetKind::Label).then_some(self.text)
    }
    /// The key of the glossary term a `:term:` names, in the texts.
    pub(crate) fn term(&self) -> Option<u32> {
        (self.what == TargetKind::Term).then_some(self.text)
    }
    /// Whether `text` is a number in the [`LinkTable`]'s texts (not a
    /// line).
    pub(crate) fn text_is_interned(&self) -> bool {
        self.what != TargetKind::DuplicateDefinition
    }
    /// The line of the definition a duplicate one repeats.
    pub(crate) fn first_definition_line(&self) -> Option<u64> {
        (self.what == TargetKind::DuplicateDefinition)
            .then_some(u64::from(self.text))
    }
    /// The number of the error of a malformed link, or of why a site
    /// serves nothing there.
    pub(crate) fn error(&self) -> Option<u32> {
        matches!(
            self.what,
            TargetKind::Malformed
                | TargetKind::Unavailable
                | TargetKind::Warned
        )
        .then_some(self.text)
    }
}

impl DocumentFacts {
    /// The document's absolute path.
    pub(crate) fn path(&self) -> &Path {
        &self.path
    }
    /// The root its root-relative links resolved under.
    pub(crate) fn root(&self) -> &Path {
        &self.root
    }
    /// The facts of its links, in document order.
    pub(crate) fn links(&self) -> &[LinkFacts] {
        &self.links
    }
}

/// Where a redirect page sends the reader: its meta refresh's local target.
pub(crate) fn refresh_target(links: &[Link]) -> Option<PathBuf> {
    links.iter().find(|l| is_refresh(l.as_ref())).and_then(Link::file_path)
}

/// Whether `link` is the URL of a meta refresh.
pub(crate) fn is_refresh(link: LinkRef<'_>) -> bool {
    link.kind().html_attr().is_some_and(|a| a.attribute() == "refresh")
}

/// The fragment of `target` to check, as written: none for an empty one,
/// `top` (which always holds, HTML 7.4.6.4), or a text fragment
/// (`:~:text=`).
fn checked_fragment(target: &str) -> Option<&str> {
    // Most links have no fragment: say so before decoding anything.
    checked_fragment_text(&target[target.find('#')? + 1..])
}

/// [`checked_fragment`] of a fragment given without its `#` (as a site
/// maps it): no target string made for it.
fn checked_fragment_text(raw: &str) -> Option<&str> {
    let f = percent_decode(raw);
    if f.is_empty() || f.eq_ignore_ascii_case("top") || f.starts_with(":~:") {
        return None;
    }
    Some(raw)
}

/// Whether `link` still holds template syntax: `{{ … }}` (Jinja, Liquid,
/// Go templates, Handlebars) or `{% … %}` (Jinja, Liquid tags).
pub(crate) fn holds_template(link: &str) -> bool {
    let bytes = link.as_bytes();
    // Most links hold no brace: one search says so.
    let Some(open) = memchr::memchr(b'{', bytes) else {
        return false;
    };
    memchr::memchr_iter(b'{', &bytes[open..]).any(|i| {
        let rest = &bytes[open + i..];
        match rest.get(1) {
            Some(b'{') => memchr::memmem::find(&rest[2..], b"}}").is_some(),
            Some(b'%') => memchr::memmem::find(&rest[2..], b"%}").is_some(),
            _ => false,
        }
    })
}

/// A `mailto:` with an address (RFC 6068: `addr-spec` has an `@`), or a
/// `tel:` with a number (RFC 3966: digits and visual separators, `+`).
fn address_ok(scheme: &str, target: &str) -> bool {
    let rest = &target[scheme.len() + 1..];
    let body = rest.split(['?', '#']).next().unwrap_or("");
    match scheme {
        "mailto" => {
            let decoded = percent_decode(body);
            decoded.is_empty() && rest.starts_with('?')
                || decoded.split(',').all(|a| {
                    let a = a.trim();
                    a.split_once('@')
                        .is_some_and(|(l, d)| !l.is_empty() && !d.is_empty())
                })
        }
        _ => {
            let num = body.split(';').next().unwrap_or("");
            num.chars().any(|c| c.is_ascii_digit())
                && num
                    .chars()
                    .all(|c| c.is_ascii_digit() || "+-.()*#".contains(c))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Millions of these wait for the verdicts: twelve bytes.
    #[test]
    fn facts_are_small() {
        assert!(std::mem::size_of::<LinkFacts>() <= 12);
    }

    #[test]
    fn paths_are_interned_once_each() {
        let t = LinkTable::new(true);
        let a = t.paths.intern(b"/a/b.html");
        let b = t.paths.intern(b"/a/c.html");
        assert_ne!(a, b);
        assert_eq!(t.paths.intern(b"/a/b.html"), a);
        let paths = t.paths();
        assert_eq!(paths.len(), 2);
        assert_eq!(paths[a as usize], Path::new("/a/b.html"));
        assert_eq!(paths[b as usize], Path::new("/a/c.html"));
    }

    /// Many strings, through every growth of the shards' tables: each
    /// keeps its number, and the texts give each back by it, the empty
    /// one too.
    #[test]
    fn texts_are_interned_once_each_and_given_back_in_order() {
        let t = LinkTable::new(true);
        let words: Vec<String> = (0..5000)
            .map(|i| format!("h{i}"))
            .chain([String::new()])
            .collect();
        let ids: Vec<u32> = words.iter().map(|w| t.intern_text(w)).collect();
        for (w, &id) in words.iter().zip(&ids) {
            assert_eq!(t.intern_text(w), id, "{w}");
        }
        let texts = t.texts();
        for (w, &id) in words.iter().zip(&ids) {
            assert_eq!(&texts[id as usize], w.as_str());
        }
        let mut sorted = ids.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), words.len());
        assert_eq!(*sorted.last().unwrap() as usize, words.len() - 1);
    }

    /// Strings that share a slot (and a prefix) stay apart.
    #[test]
    fn strings_in_one_slot_stay_apart() {
        let mut shard = Shard::default();
        let next = AtomicU32::new(0);
        let a = shard.intern(b"ab", 7, &next);
        let b = shard.intern(b"abc", 7, &next);
        let c = shard.intern(b"", 7, &next);
        assert_eq!((a, b, c), (0, 1, 2));
        assert_eq!(shard.intern(b"abc", 7, &next), 1);
        assert_eq!(shard.intern(b"ab", 7, &next), 0);
        assert_eq!(shard.intern(b"", 7, &next), 2);
    }

    #[test]
    fn template_syntax() {
        for t in [
            "{{ site.baseurl }}/a.md",
            "{{site.url}}",
            "/x/{% link _posts/a.md %}",
            "https://{{ .Site.BaseURL }}/a",
            "a{b}{{c}}",
        ] {
            assert!(holds_template(t), "{t}");
        }
        for t in [
            "a.md",
            "{{ unclosed",
            "{% unclosed",
            "{x}",
            "%7B%7Bx%7D%7D",
            "}}{{",
        ] {
            assert!(!holds_template(t), "{t}");
        }
    }

    #[test]
    fn fragments_kept_are_those_checked() {
        assert_eq!(checked_fragment("file:///a#x%20y"), Some("x%20y"));
        assert_eq!(checked_fragment("file:///a#"), None);
        assert_eq!(checked_fragment("file:///a#TOP"), None);
        assert_eq!(checked_fragment("file:///a#:~:text=x"), None);
        assert_eq!(checked_fragment("file:///a"), None);
    }

    /// A site's mapped fragment is kept as the `#`-prefixed form it
    /// was once formatted into was.
    #[test]
    fn mapped_fragments_are_those_of_their_hash_form() {
        for fragments in [true, false] {
            let t = LinkTable::new(fragments);
            let path = Path::new("/a/b.md");
            for f in [
                None,
                Some(""),
                Some("x"),
                Some("x%20y"),
                Some("top"),
                Some("Top"),
                Some(":~:text=x"),
                Some("a#b"),
                Some("%"),
                Some("é"),
            ] {
                let by_hash_form = f
                    .map(|f| format!("#{f}"))
                    .as_deref()
                    .and_then(checked_fragment)
                    .filter(|_| fragments)
                    .map_or(NO_PATH, |f| t.texts.intern(f.as_bytes()));
                let facts = t.facts_at(path, f);
                assert_eq!(facts.text, by_hash_form, "{f:?}");
                assert_eq!(facts.path, t.paths.intern(b"/a/b.md"));
                assert!(matches!(facts.what, TargetKind::File));
            }
        }
    }
}
