//! The global allocator of the binary: jemalloc, but for large blocks,
//! which are mapped on their own and backed by huge pages.
//!
//! Why jemalloc: `check`'s threads free blocks that other threads
//! allocated, and glibc's allocator takes the owning arena's lock for
//! each such free (benches/README.md weighs the choice).
//!
//! Why: a Markdown document's parse tree (pulldown-cmark's) grows in one
//! vector to tens of megabytes, and each of its 4 KiB pages costs a page
//! fault on first touch. With transparent huge pages in `madvise` mode
//! (the common default), a block that asks for them takes one fault per
//! 2 MiB instead.
//! Where THP is off, the advice does nothing and the blocks are plain
//! mappings, as glibc's own for blocks this large. A few freed blocks
//! are kept for reuse, as glibc reuses freed memory: without that, a web
//! archive's record buffers were mapped and cleared afresh each record.

// Linux only: `mremap` and `MADV_HUGEPAGE` are Linux's. Elsewhere the
// binary allocates with the system allocator.
#[cfg(target_os = "linux")]
pub use linux::Allocator;
#[cfg(not(target_os = "linux"))]
pub use std::alloc::System as Allocator;

#[cfg(target_os = "linux")]
mod linux {
    use std::alloc::{GlobalAlloc, Layout};

    use std::sync::atomic::{AtomicPtr, Ordering};
    use tikv_jemallocator::Jemalloc as Small;

    /// Blocks of this size or more are mapped with huge pages advised.
    const BIG: usize = 2 << 20;

    /// A huge page; big blocks are mapped in multiples of it, so that the
    /// kernel places them on its boundaries.
    const HUGE: usize = 2 << 20;

    /// jemalloc, but for blocks of `BIG` bytes or more.
    pub struct Allocator;

    fn is_big(size: usize, align: usize) -> bool {
        size >= BIG && align <= 4096
    }

    fn mapped_len(size: usize) -> usize {
        size.div_ceil(HUGE) * HUGE
    }

    /// Freed big blocks of at most this many mapped bytes are kept for
    /// the next big allocation of the same mapped size, as glibc keeps
    /// freed memory for reuse: a web archive's record buffers, mapped and
    /// unmapped once a record, would each clear a fresh huge page.
    /// At most `KEPT_SLOTS` of them.
    const KEEP_MAX: usize = 8 << 20;
    const KEPT_SLOTS: usize = 4;

    /// Freed blocks kept for reuse, a slot each.
    struct FreeBlocks([AtomicPtr<u8>; KEPT_SLOTS]);

    static KEPT: FreeBlocks = FreeBlocks::new();

    impl FreeBlocks {
        const fn new() -> FreeBlocks {
            FreeBlocks(
                [const { AtomicPtr::new(std::ptr::null_mut()) }; KEPT_SLOTS],
            )
        }

        /// A kept block cut to `len` mapped bytes, or null.
        fn take(&self, len: usize) -> *mut u8 {
            if len > KEEP_MAX {
                return std::ptr::null_mut();
            }
            for slot in &self.0 {
                let p = slot.swap(std::ptr::null_mut(), Ordering::Acquire);
                if p.is_null() {
                    continue;
                }
                // SAFETY: a kept block is ours alone once swapped out, and
                // holds its mapped length in its first word (`keep`).
                let kept_len = unsafe { p.cast::<usize>().read() };
                if kept_len >= len {
                    if kept_len > len {
                        // Larger (a block grown past its first size): its
                        // tail is unmapped, its head handed out.
                        // SAFETY: the tail of a mapping of `kept_len`
                        // bytes; both lengths are multiples of `HUGE`.
                        unsafe {
                            libc::munmap(p.add(len).cast(), kept_len - len)
                        };
                    }
                    return p;
                }
                // Smaller: back to a free slot, else unmapped.
                if slot
                    .compare_exchange(
                        std::ptr::null_mut(),
                        p,
                        Ordering::Release,
                        Ordering::Relaxed,
                    )
                    .is_err()
                {
                    // SAFETY: a mapping of `kept_len` bytes, no longer kept.
                    unsafe { libc::munmap(p.cast(), kept_len) };
                }
            }
            std::ptr::null_mut()
        }

        /// Keeps a freed block of `len` mapped bytes for reuse; whether it
        /// was kept (else the caller unmaps it).
        fn keep(&self, p: *mut u8, len: usize) -> bool {
            if len > KEEP_MAX {
                return false;
            }
            // SAFETY: the block is freed, ours, and at least a word long.
            unsafe { p.cast::<usize>().write(len) };
            self.0.iter().any(|slot| {
                slot.compare_exchange(
                    std::ptr::null_mut(),
                    p,
                    Ordering::Release,
                    Ordering::Relaxed,
                )
                .is_ok()
            })
        }
    }

    /// Maps `size` bytes with huge pages advised; null on failure.
    unsafe fn map_big(size: usize) -> *mut u8 {
        // SAFETY: an anonymous private mapping, no address asked for.
        let p = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                mapped_len(size),
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            )
        };
        if p == libc::MAP_FAILED {
            return std::ptr::null_mut();
        }
        // SAFETY: the range was just mapped; the advice is only a hint.
        unsafe { libc::madvise(p, mapped_len(size), libc::MADV_HUGEPAGE) };
        p.cast()
    }

    // SAFETY: every block is either jemalloc's (small, or with a
    // large alignment) or mapped here, decided by its size and alignment, which
    // the caller passes the same to `dealloc` and `realloc`.
    unsafe impl GlobalAlloc for Allocator {
        unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
            if is_big(layout.size(), layout.align()) {
                let kept = KEPT.take(mapped_len(layout.size()));
                if !kept.is_null() {
                    return kept;
                }
                // SAFETY: see `map_big`.
                unsafe { map_big(layout.size()) }
            } else {
                // SAFETY: the caller's layout, passed on.
                unsafe { Small.alloc(layout) }
            }
        }

        unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
            if is_big(layout.size(), layout.align()) {
                // A fresh anonymous mapping is zeroed already: no memset to
                // touch every page.
                // SAFETY: see `map_big`.
                unsafe { map_big(layout.size()) }
            } else {
                // SAFETY: the caller's layout, passed on.
                unsafe { Small.alloc_zeroed(layout) }
            }
        }

        unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
            if is_big(layout.size(), layout.align()) {
                let len = mapped_len(layout.size());
                if !KEPT.keep(ptr, len) {
                    // SAFETY: `ptr` was mapped by `map_big` with this
                    // length.
                    unsafe { libc::munmap(ptr.cast(), len) };
                }
            } else {
                // SAFETY: jemalloc's block, with its layout.
                unsafe { Small.dealloc(ptr, layout) }
            }
        }

        unsafe fn realloc(
            &self,
            ptr: *mut u8,
            layout: Layout,
            new_size: usize,
        ) -> *mut u8 {
            let align = layout.align();
            match (is_big(layout.size(), align), is_big(new_size, align)) {
                // SAFETY: jemalloc's block, with its layout.
                (false, false) => unsafe {
                    Small.realloc(ptr, layout, new_size)
                },
                (true, true) => {
                    let (old, new) =
                        (mapped_len(layout.size()), mapped_len(new_size));
                    if old == new {
                        return ptr;
                    }
                    // SAFETY: `ptr` is a mapping of `old` bytes; the kernel
                    // moves its pages (and its advice) without a copy.
                    let p = unsafe {
                        libc::mremap(
                            ptr.cast(),
                            old,
                            new,
                            libc::MREMAP_MAYMOVE,
                        )
                    };
                    if p == libc::MAP_FAILED {
                        std::ptr::null_mut()
                    } else {
                        p.cast()
                    }
                }
                _ => {
                    // From one kind of block to the other: a copy.
                    // SAFETY: a layout of the caller's alignment, valid since
                    // the old one was.
                    let new_layout = unsafe {
                        Layout::from_size_align_unchecked(new_size, align)
                    };
                    // SAFETY: as `alloc`.
                    let q = unsafe { self.alloc(new_layout) };
                    if !q.is_null() {
                        let n = layout.size().min(new_size);
                        // SAFETY: both blocks hold at least `n` bytes and are
                        // distinct.
                        unsafe { std::ptr::copy_nonoverlapping(ptr, q, n) };
                        // SAFETY: as `dealloc`.
                        unsafe { self.dealloc(ptr, layout) };
                    }
                    q
                }
            }
        }
    }

    #[cfg(test)]
    mod tests {
        use super::*;

        /// A block keeps its bytes through every kind of move: small to big,
        /// big to bigger (a remap), big to small, and a big zeroed block is
        /// zero.
        #[test]
        fn blocks_keep_their_bytes_across_sizes() {
            let a = Allocator;
            let fill = |p: *mut u8, n: usize| {
                for i in (0..n).step_by(4093) {
                    // SAFETY: `p` holds `n` bytes.
                    unsafe { *p.add(i) = (i % 251) as u8 };
                }
            };
            let check = |p: *mut u8, n: usize| {
                for i in (0..n).step_by(4093) {
                    // SAFETY: `p` holds at least `n` bytes.
                    let byte = unsafe { *p.add(i) };
                    assert_eq!(byte, (i % 251) as u8, "at {i}");
                }
            };
            let sizes = [100_000, BIG + 1, 3 * BIG + 5, 7 * BIG, BIG - 1, 10];
            let layout = Layout::from_size_align(sizes[0], 8).unwrap();
            // SAFETY: a non-zero size.
            let mut p = unsafe { a.alloc(layout) };
            assert!(!p.is_null());
            fill(p, sizes[0]);
            let mut old = layout;
            for w in sizes.windows(2) {
                // SAFETY: `p` is this allocator's block of layout `old`.
                p = unsafe { a.realloc(p, old, w[1]) };
                assert!(!p.is_null());
                check(p, w[0].min(w[1]));
                fill(p, w[1]);
                old = Layout::from_size_align(w[1], 8).unwrap();
            }
            // SAFETY: the block and its layout.
            unsafe { a.dealloc(p, old) };
            let big = Layout::from_size_align(3 * BIG, 4096).unwrap();
            // SAFETY: a non-zero size.
            let z = unsafe { a.alloc_zeroed(big) };
            let zero = (0..3 * BIG).step_by(997).all(|i| {
                // SAFETY: `z` holds `3 * BIG` bytes.
                unsafe { *z.add(i) == 0 }
            });
            assert!(zero);
            // SAFETY: the block and its layout.
            unsafe { a.dealloc(z, big) };
        }

        /// A freed block is kept and handed out again, cut to the size
        /// asked, never for a larger one; past the slots, or past
        /// `KEEP_MAX`, it is not kept.
        #[test]
        fn freed_blocks_are_kept_for_their_size() {
            let kept = FreeBlocks::new();
            let four = 4 << 20;
            // SAFETY: fresh mappings of `four` bytes, each unmapped once.
            unsafe {
                let blocks: Vec<*mut u8> =
                    (0..=KEPT_SLOTS).map(|_| map_big(four)).collect();
                for &b in &blocks[..KEPT_SLOTS] {
                    assert!(kept.keep(b, four));
                }
                assert!(!kept.keep(blocks[KEPT_SLOTS], four));
                libc::munmap(blocks[KEPT_SLOTS].cast(), four);
                // A smaller size takes a kept block's head.
                let head = kept.take(2 << 20);
                assert!(blocks.contains(&head));
                libc::munmap(head.cast(), 2 << 20);
                assert!(kept.keep(map_big(2 << 20), 2 << 20));
                // A larger size takes none.
                assert!(kept.take(6 << 20).is_null());
                let mut back = vec![];
                for _ in 1..KEPT_SLOTS {
                    let p = kept.take(four);
                    assert!(blocks.contains(&p));
                    back.push(p);
                }
                // Only the 2 MiB block is left, too small for 4 MiB.
                assert!(kept.take(four).is_null());
                for p in back {
                    libc::munmap(p.cast(), four);
                }
                let two = kept.take(2 << 20);
                assert!(!two.is_null());
                libc::munmap(two.cast(), 2 << 20);
                let large = map_big(KEEP_MAX + HUGE);
                assert!(!kept.keep(large, KEEP_MAX + HUGE));
                libc::munmap(large.cast(), KEEP_MAX + HUGE);
            }
        }
    }
}
