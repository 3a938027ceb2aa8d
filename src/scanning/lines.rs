//! Line and column numbers, computed lazily: the newlines between the
//! previous match and the next one are counted when the next one is
//! emitted, so the numbers cost no separate pass over the input.

/// Where counting has got to, in absolute byte offsets of the input.
#[derive(Clone, Copy, Debug)]
pub(crate) struct LineCounter {
    /// The 1-based line of the byte at `counted`.
    line: u64,
    /// The offset of the first byte of that line.
    line_start: u64,
    /// Everything before this offset is counted.
    counted: u64,
}

impl Default for LineCounter {
    fn default() -> LineCounter {
        LineCounter { line: 1, line_start: 0, counted: 0 }
    }
}

impl LineCounter {
    /// Counts the newlines of `bytes`, which start at absolute offset
    /// `base`, up to absolute offset `to` (not before what is counted).
    pub(crate) fn advance(&mut self, bytes: &[u8], base: u64, to: u64) {
        if to <= self.counted {
            return;
        }
        let from = (self.counted - base) as usize;
        let upto = (to - base) as usize;
        let chunk = &bytes[from..upto];
        super::work::add(chunk.len());
        // A plain counting loop: the compiler vectorizes it, and unlike
        // memchr_iter it does not pay per newline.
        let n = chunk.iter().fold(0u64, |n, &b| n + u64::from(b == b'\n'));
        if n > 0 {
            self.line += n;
            let last = memchr::memrchr(b'\n', chunk).unwrap_or(0);
            self.line_start = self.counted + last as u64 + 1;
        }
        self.counted = to;
    }

    /// The line and column of absolute offset `at`, which must have been
    /// counted up to.
    pub(crate) fn position(&self, at: u64) -> (u64, u64) {
        debug_assert_eq!(at, self.counted);
        (self.line, at - self.line_start + 1)
    }
}
