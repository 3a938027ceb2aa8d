//! Fragments checked against a page as it streams in: only the fragments
//! some link asks for are looked for, the page's tags are read in pieces
//! as they come, and what is kept of a page is the fragments found, so
//! memory does not grow with the size of pages. See the [module
//! docs](super).

use std::collections::{HashMap, HashSet};
use std::sync::atomic::Ordering;

use super::{Progress, RemoteTarget};
use crate::links::reader_api::IdsInPieces;

/// The longest piece of markup (one tag, comment, or the bytes a text
/// state waits on) held while a page streams in. Past it the rest of
/// the page is not read, and a fragment not found is not checked.
const MAX_PIECE: usize = 1 << 20;

/// The fragments the links of a run ask for, each with an index.
#[derive(Debug, Default)]
pub(super) struct Wanted {
    index: HashMap<String, u32>,
}

impl Wanted {
    /// The fragments of `targets`.
    pub(super) fn of(targets: &[RemoteTarget]) -> Wanted {
        let mut index = HashMap::new();
        for f in targets.iter().flat_map(|t| &t.fragments) {
            let next = index.len() as u32;
            index.entry(f.clone()).or_insert(next);
        }
        Wanted { index }
    }

    /// Adds to `found` the wanted fragment that `id` is the target of.
    fn note(&self, id: &[u8], found: &mut HashSet<u32>) {
        if let Some(i) = self.reached_by(&String::from_utf8_lossy(id)) {
            found.insert(i);
        }
    }

    /// The wanted fragment that an element with this `id` is the target
    /// of: the id itself, or the id without GitHub's `user-content-`
    /// prefix (which its page script strips).
    fn reached_by(&self, id: &str) -> Option<u32> {
        self.index.get(id).copied().or_else(|| {
            let bare = id.strip_prefix("user-content-")?;
            self.index.get(bare).copied()
        })
    }
}

/// What a page's tags say of the wanted fragments.
#[derive(Clone, Debug, Default)]
pub(super) struct Found {
    /// The wanted fragments it defines, sorted.
    reached: Vec<u32>,
    /// Why the page was not read to its end (the words after the
    /// fragments not found).
    unread: Option<String>,
}

impl Found {
    /// The fragments of `fragments` that the page does not define, and
    /// whether that is known: `Err` with the reason when part of the
    /// page was not read and some were not found. Text fragments
    /// (`:~:text=`), `top` and the empty fragment name no id.
    pub(super) fn missing(
        &self,
        wanted: &Wanted,
        fragments: &[String],
    ) -> Result<Vec<String>, String> {
        let missing: Vec<String> = fragments
            .iter()
            .filter(|f| {
                !f.is_empty()
                    && !f.starts_with(":~:")
                    && f.as_str() != "top"
                    && wanted
                        .index
                        .get(f.as_str())
                        .is_none_or(|i| self.reached.binary_search(i).is_err())
            })
            .cloned()
            .collect();
        match &self.unread {
            Some(why) if !missing.is_empty() => {
                let names: Vec<String> =
                    missing.iter().map(|f| format!("#{f}")).collect();
                Err(format!("not checked: {} {why}", names.join(", ")))
            }
            _ => Ok(missing),
        }
    }
}

/// A page read in pieces for the wanted fragments it defines. The bytes
/// it holds are counted in [`Progress`], as long as it lives.
pub(super) struct PageFragments<'a> {
    wanted: &'a Wanted,
    progress: &'a Progress,
    ids: IdsInPieces,
    /// The piece of markup the last chunk ended in.
    kept: Vec<u8>,
    /// The bytes of the page read so far.
    read: usize,
    /// The wanted fragments found so far.
    reached: HashSet<u32>,
    found: Found,
    /// The bytes counted in `progress` now.
    counted: usize,
}

impl<'a> PageFragments<'a> {
    pub(super) fn new(
        wanted: &'a Wanted,
        progress: &'a Progress,
    ) -> PageFragments<'a> {
        PageFragments {
            wanted,
            progress,
            ids: IdsInPieces::default(),
            kept: vec![],
            read: 0,
            reached: HashSet::new(),
            found: Found::default(),
            counted: 0,
        }
    }

    /// Reads the next `chunk` of the page; false when the rest of the page
    /// is not worth reading (a piece of markup too long to hold).
    pub(super) fn push(&mut self, chunk: &[u8]) -> bool {
        self.count(self.kept.capacity() + chunk.len());
        let (wanted, found) = (self.wanted, &mut self.reached);
        let mut note = |id: &[u8]| wanted.note(id, found);
        if self.kept.is_empty() {
            let done = self.ids.feed(chunk, false, &mut note);
            self.kept.extend_from_slice(&chunk[done..]);
        } else {
            self.kept.extend_from_slice(chunk);
            let done = self.ids.feed(&self.kept, false, &mut note);
            self.kept.drain(..done);
        }
        self.read += chunk.len();
        // A long piece held once is not held on to.
        if self.kept.capacity() > 1 << 18
            && self.kept.len() < self.kept.capacity() / 4
        {
            self.kept.shrink_to(self.kept.len());
        }
        self.count(self.kept.capacity());
        if self.kept.len() > MAX_PIECE {
            let at = self.read - self.kept.len();
            self.stop(format!(
                "past byte {at} of the page, where one piece of markup runs \
                 longer than {} MiB",
                MAX_PIECE >> 20
            ));
            return false;
        }
        true
    }

    /// The page was not read past this point, for the reason `why`.
    pub(super) fn stop(&mut self, why: String) {
        self.found.unread = Some(why);
        self.kept = vec![];
        self.count(0);
    }

    /// What the page's tags said, once it has all been read (or what was
    /// read of it, after [`stop`](Self::stop)).
    pub(super) fn finish(mut self) -> Found {
        if self.found.unread.is_none() {
            let (wanted, found) = (self.wanted, &mut self.reached);
            self.ids.feed(&self.kept, true, |id| wanted.note(id, found));
        }
        let mut found = std::mem::take(&mut self.found);
        found.reached = self.reached.drain().collect();
        found.reached.sort_unstable();
        found
    }

    /// Counts `now` bytes held instead of those counted before.
    fn count(&mut self, now: usize) {
        let held = &self.progress.body_bytes;
        if now >= self.counted {
            let total = held.fetch_add(now - self.counted, Ordering::Relaxed)
                + (now - self.counted);
            self.progress.peak_body_bytes.fetch_max(total, Ordering::Relaxed);
        } else {
            held.fetch_sub(self.counted - now, Ordering::Relaxed);
        }
        self.counted = now;
    }
}

impl Drop for PageFragments<'_> {
    fn drop(&mut self) {
        self.count(0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wanted(fragments: &[&str]) -> Wanted {
        Wanted::of(&[RemoteTarget {
            uri: "http://a/".into(),
            fragments: fragments.iter().map(|f| f.to_string()).collect(),
        }])
    }

    fn read(wanted: &Wanted, page: &[u8], size: usize) -> Found {
        let progress = Progress::default();
        let mut p = PageFragments::new(wanted, &progress);
        for chunk in page.chunks(size) {
            assert!(p.push(chunk));
        }
        let found = p.finish();
        assert_eq!(progress.body_bytes.load(Ordering::Relaxed), 0);
        found
    }

    #[test]
    fn fragments_match_ids_and_github_prefixes() {
        let want = ["intro", "usage", "gone", ":~:text=x", "top", "", "na"];
        let w = wanted(&want);
        let page = b"<h1 id=intro>x</h1><h2 id='user-content-usage'>\
                     <a name=na></a><!-- <p id=gone> --><p id=other>";
        let fragments: Vec<String> = want.map(String::from).to_vec();
        for size in [1, 3, 7, page.len()] {
            let found = read(&w, page, size);
            assert_eq!(found.missing(&w, &fragments), Ok(vec!["gone".into()]));
        }
    }

    #[test]
    fn a_page_not_read_whole_checks_nothing_it_did_not_find() {
        let w = wanted(&["a", "b"]);
        let progress = Progress::default();
        let mut p = PageFragments::new(&w, &progress);
        assert!(p.push(b"<p id=a><p title='"));
        assert!(!p.push(&vec![b'x'; MAX_PIECE + 1]));
        let found = p.finish();
        let both = ["a", "b"].map(String::from);
        assert_eq!(
            found.missing(&w, &both),
            Err("not checked: #b past byte 8 of the page, where one piece \
                 of markup runs longer than 1 MiB"
                .into())
        );
        assert_eq!(found.missing(&w, &both[..1]), Ok(vec![]));
        assert_eq!(progress.body_bytes.load(Ordering::Relaxed), 0);
        assert!(progress.peak_body_bytes() > MAX_PIECE);
    }
}
