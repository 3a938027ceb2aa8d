//! The links the read stage keeps for the report beyond those it must
//! keep, so that the report need not read a document again for the text
//! of its broken links: every link of a document, while all the
//! documents' spare links stay within one budget of bytes shared by the
//! walker's threads. Past it a document keeps none, and the report reads
//! it again.

use std::sync::atomic::{AtomicUsize, Ordering};

use uriscan::links::{Link, LinkRef};

/// The bytes of spare links all documents may hold at once: a small
/// tree's every link, while a huge document or tree stays near its old
/// peak.
const BUDGET: usize = 16 << 20;

/// What a document reserves of the budget at a time: one shared counter
/// touched per chunk, not per link.
const CHUNK: usize = 64 << 10;

/// The budget of spare links, shared by the walker's threads.
pub struct SpareBudget {
    left: AtomicUsize,
}

impl SpareBudget {
    /// The whole budget.
    pub fn new() -> SpareBudget {
        SpareBudget::with(BUDGET)
    }

    /// A budget of `bytes`.
    fn with(bytes: usize) -> SpareBudget {
        SpareBudget { left: AtomicUsize::new(bytes) }
    }

    /// Takes `bytes` of the budget; false (and none taken) when less is
    /// left.
    pub(super) fn take(&self, bytes: usize) -> bool {
        self.left
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |left| {
                left.checked_sub(bytes)
            })
            .is_ok()
    }

    /// Whether less than a chunk is left.
    pub(super) fn is_spent(&self) -> bool {
        self.left.load(Ordering::Relaxed) < CHUNK
    }

    /// Gives `bytes` back.
    fn give(&self, bytes: usize) {
        self.left.fetch_add(bytes, Ordering::Relaxed);
    }
}

/// One document's spare links, as it is read: each link not kept
/// otherwise, with its index, until the budget runs out.
pub struct SpareLinks<'a> {
    budget: &'a SpareBudget,
    links: Vec<(u32, Link)>,
    /// Bytes taken of the budget, at least those `links` holds.
    reserved: usize,
    used: usize,
    /// Whether the budget ran out: then `links` is empty for good.
    spent: bool,
}

impl<'a> SpareLinks<'a> {
    /// None yet, drawing on `budget`.
    pub fn new(budget: &'a SpareBudget) -> SpareLinks<'a> {
        SpareLinks {
            budget,
            links: vec![],
            reserved: 0,
            used: 0,
            spent: false,
        }
    }

    /// Keeps link `i`, while the budget allows.
    pub fn push(&mut self, i: u32, l: LinkRef<'_>) {
        if self.spent {
            return;
        }
        let cost = std::mem::size_of::<(u32, Link)>()
            + l.link().len()
            + l.target().map_or(0, str::len)
            + l.raw().len();
        while self.used + cost > self.reserved {
            let chunk = CHUNK.max(cost);
            if !self.budget.take(chunk) {
                // Past the budget: the report reads this document again,
                // so none of its spare links is worth holding.
                self.budget.give(self.reserved);
                self.links = vec![];
                self.reserved = 0;
                self.used = 0;
                self.spent = true;
                return;
            }
            self.reserved += chunk;
        }
        self.used += cost;
        self.links.push((i, l.to_link()));
    }

    /// The links kept, with the unused part of the budget given back;
    /// `None` when the budget ran out.
    pub fn finish(mut self) -> Option<Vec<(u32, Link)>> {
        self.budget.give(self.reserved - self.used);
        if self.spent {
            return None;
        }
        self.links.shrink_to_fit();
        Some(std::mem::take(&mut self.links))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use uriscan::links::{Format, LinkExtractor, Page};

    fn links_of(doc: &str) -> Vec<Link> {
        LinkExtractor::new()
            .extract(&Page::new(doc.as_bytes(), Format::Markdown))
            .collect()
    }

    #[test]
    fn keeps_every_link_within_the_budget() {
        let budget = SpareBudget::with(1 << 20);
        let links = links_of("[a](#x) [b](https://b.example/) [c](c.md)");
        let mut spare = SpareLinks::new(&budget);
        for (i, l) in links.iter().enumerate() {
            spare.push(i as u32, l.as_ref());
        }
        let kept = spare.finish().expect("within the budget");
        assert_eq!(kept.len(), 3);
        assert_eq!(kept[1].0, 1);
        assert_eq!(kept[1].1.link(), "https://b.example/");
        // All but what the links hold is given back.
        let left = budget.left.load(Ordering::Relaxed);
        assert!(left < 1 << 20 && left > (1 << 20) - 4096);
    }

    #[test]
    fn keeps_none_past_the_budget_and_gives_it_all_back() {
        let budget = SpareBudget::with(CHUNK);
        let doc = "[l](#h) ".repeat(CHUNK / 32);
        let links = links_of(&doc);
        let mut spare = SpareLinks::new(&budget);
        for (i, l) in links.iter().enumerate() {
            spare.push(i as u32, l.as_ref());
        }
        assert!(spare.finish().is_none());
        assert_eq!(budget.left.load(Ordering::Relaxed), CHUNK);
        // A smaller document after it still fits.
        let mut spare = SpareLinks::new(&budget);
        spare.push(0, links[0].as_ref());
        assert_eq!(spare.finish().map(|l| l.len()), Some(1));
    }
}
