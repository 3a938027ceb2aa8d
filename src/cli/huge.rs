//! The global allocator of the binary: the system's, but for large blocks,
//! which are mapped on their own and backed by huge pages.
//!
//! Why: a Markdown document's parse tree (pulldown-cmark's) grows in one
//! vector to tens of megabytes, and each of its 4 KiB pages cost a page
//! fault on first touch, about 2 µs each in a virtual machine: two thirds
//! of the 12,400 faults of `links -o` on an 8 MB Markdown file. With
//! transparent huge pages in `madvise` mode (the common default), a block
//! that asks for them takes one fault per 2 MiB: 2,460 faults, and 98.6
//! -> 79.9 ms (benches/README.md, "Huge pages for large blocks").
//! Where THP is off, the advice does nothing and the blocks are plain
//! mappings, as glibc's own for blocks this large.

// Linux only: `mremap` and `MADV_HUGEPAGE` are Linux's. Elsewhere the
// binary allocates with the system allocator.
#[cfg(target_os = "linux")]
pub use linux::Allocator;
#[cfg(not(target_os = "linux"))]
pub use std::alloc::System as Allocator;

#[cfg(target_os = "linux")]
mod linux {
    use std::alloc::{GlobalAlloc, Layout, System};

    /// Blocks of this size or more are mapped with huge pages advised.
    const BIG: usize = 2 << 20;

    /// A huge page; big blocks are mapped in multiples of it, so that the
    /// kernel places them on its boundaries.
    const HUGE: usize = 2 << 20;

    /// The system allocator, but for blocks of `BIG` bytes or more.
    pub struct Allocator;

    fn is_big(size: usize, align: usize) -> bool {
        size >= BIG && align <= 4096
    }

    fn mapped_len(size: usize) -> usize {
        size.div_ceil(HUGE) * HUGE
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

    // SAFETY: every block is either the system allocator's (small, or with a
    // large alignment) or mapped here, decided by its size and alignment, which
    // the caller passes the same to `dealloc` and `realloc`.
    unsafe impl GlobalAlloc for Allocator {
        unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
            if is_big(layout.size(), layout.align()) {
                // SAFETY: see `map_big`.
                unsafe { map_big(layout.size()) }
            } else {
                // SAFETY: the caller's layout, passed on.
                unsafe { System.alloc(layout) }
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
                unsafe { System.alloc_zeroed(layout) }
            }
        }

        unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
            if is_big(layout.size(), layout.align()) {
                // SAFETY: `ptr` was mapped by `map_big` with this length.
                unsafe { libc::munmap(ptr.cast(), mapped_len(layout.size())) };
            } else {
                // SAFETY: the system allocator's block, with its layout.
                unsafe { System.dealloc(ptr, layout) }
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
                // SAFETY: the system allocator's block, with its layout.
                (false, false) => unsafe {
                    System.realloc(ptr, layout, new_size)
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
    }
}
