//! The per-thread scratch space of extraction: the buffer of raw links,
//! kept from one document to the next.

use super::RawLink;

/// A thread's buffer of raw links, kept from one document to the next:
/// a large page's links taken in fresh memory each time cost more in
/// page faults than their work, and crawlers read page after page on one
/// thread.
pub(super) struct Scratch(Vec<RawLink>);

thread_local! {
    static SCRATCH: std::cell::Cell<Vec<RawLink>> =
        const { std::cell::Cell::new(Vec::new()) };
}

impl Scratch {
    /// The buffer kept is at most this large, so that one huge page does
    /// not hold its memory for the thread's life.
    const MAX_KEPT: usize = 8 << 20;

    /// The thread's buffer, empty; a fresh one when it is in use (a
    /// sink that reads another page from inside its callback).
    pub(super) fn take() -> Scratch {
        Scratch(SCRATCH.try_with(|s| s.take()).unwrap_or_default())
    }
}

impl std::ops::Deref for Scratch {
    type Target = Vec<RawLink>;
    fn deref(&self) -> &Vec<RawLink> {
        &self.0
    }
}

impl std::ops::DerefMut for Scratch {
    fn deref_mut(&mut self) -> &mut Vec<RawLink> {
        &mut self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let mut v = std::mem::take(&mut self.0);
        v.clear();
        if v.capacity() * std::mem::size_of::<RawLink>() <= Self::MAX_KEPT {
            // `try_with`: a thread being torn down keeps nothing.
            let _ = SCRATCH.try_with(|s| {
                // Keep the larger of two buffers (a nested read's).
                let old = s.take();
                s.set(if old.capacity() > v.capacity() { old } else { v });
            });
        }
    }
}
