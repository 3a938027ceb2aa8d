//! The vectorized inner loops of a scan, chosen once per finder.
//!
//! A scan runs three loops over bytes: the candidate search
//! ([`super::search`]), the skip over the plain bytes of a URI run
//! ([`super::run_class`]) and the look back for a match's line start
//! ([`super::lines`]). Each has a portable (or SSE2, the x86-64
//! baseline) version and an AVX2 one; the search also has an AVX-512
//! one ([`Avx512`]). Asking the CPU which to use at each call, and
//! calling each out of line, is costly per URI on URI-dense text. So a
//! finder picks [`Kernels`] once, when it is built ([`Chosen`]; detecting
//! them for each iterator shows in a scan of one line), and its iterators
//! run their whole `next` (or `fold`) compiled for them ([`Chosen::next`],
//! [`Chosen::fold`]): with [`Avx2`], the AVX2 loops are inlined into one
//! function.

use super::arch::all::{
    RunMasks, last_newline_in_portable, skip_plain_portable,
};
#[cfg(target_arch = "x86_64")]
use super::arch::x86_64;

/// The byte loops a scan uses; the value is the proof that the CPU can
/// run them.
pub(crate) trait Kernels: Copy {
    /// The first offset in `i..end` whose byte is not
    /// [`PLAIN`](super::run_class::PLAIN), or `end` (`end <= hay.len()`).
    fn skip_plain(self, hay: &[u8], i: usize, end: usize) -> usize;

    /// The first candidate `:` in `hay[from..]`, counting newlines from
    /// `counted` (see [`super::arch::all::find_candidate_portable`]).
    fn find_candidate(
        self,
        hay: &[u8],
        counted: usize,
        from: usize,
        strict: bool,
        newlines: &mut u64,
    ) -> Option<usize>;

    /// The offset of the last `\n` in `hay[from..to]`.
    fn last_newline_in(
        self,
        hay: &[u8],
        from: usize,
        to: usize,
    ) -> Option<usize>;

    /// The [`RunMasks`] of `hay[at..at + 32]` for the common-shape lane of
    /// confirmation ([`super::common_shape`]); `None` past the end of `hay`,
    /// and always where the kernels have no fast classification (the
    /// lane then compiles away).
    fn run_masks(self, hay: &[u8], at: usize) -> Option<RunMasks>;
}

/// What every CPU of the target has: the SSE2 search on x86-64 (part of
/// its baseline), the portable loops otherwise and for the rest.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Baseline;

impl Kernels for Baseline {
    #[inline(always)]
    fn skip_plain(self, hay: &[u8], i: usize, end: usize) -> usize {
        skip_plain_portable(hay, i, end)
    }

    #[inline(always)]
    fn find_candidate(
        self,
        hay: &[u8],
        counted: usize,
        from: usize,
        strict: bool,
        newlines: &mut u64,
    ) -> Option<usize> {
        #[cfg(all(target_arch = "x86_64", not(uriscan_disable_simd)))]
        {
            x86_64::search::find_candidate_sse2(
                hay, counted, from, strict, newlines,
            )
        }
        #[cfg(not(all(target_arch = "x86_64", not(uriscan_disable_simd))))]
        {
            super::arch::all::find_candidate_portable(
                hay, counted, from, strict, newlines,
            )
        }
    }

    #[inline(always)]
    fn last_newline_in(
        self,
        hay: &[u8],
        from: usize,
        to: usize,
    ) -> Option<usize> {
        last_newline_in_portable(hay, from, to)
    }

    /// None: SSE2 has no byte shuffle for the classification, and a
    /// byte loop would be no faster than the general path.
    #[inline(always)]
    fn run_masks(self, _: &[u8], _: usize) -> Option<RunMasks> {
        None
    }
}

/// The AVX2 loops, with POPCNT, BMI1, BMI2 and LZCNT (which AVX2 CPUs
/// have: the bit scans and variable shifts of the hot path are single
/// instructions with them). Inlined only into code compiled for these
/// features; elsewhere each is a call.
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy, Debug)]
pub(crate) struct Avx2(());

#[cfg(target_arch = "x86_64")]
impl Avx2 {
    /// The AVX2 loops, if the CPU has AVX2, POPCNT, BMI1, BMI2 and
    /// LZCNT.
    #[inline]
    pub(crate) fn detect() -> Option<Avx2> {
        (std::is_x86_feature_detected!("avx2")
            && std::is_x86_feature_detected!("popcnt")
            && std::is_x86_feature_detected!("bmi1")
            && std::is_x86_feature_detected!("bmi2")
            && std::is_x86_feature_detected!("lzcnt"))
        .then_some(Avx2(()))
    }
}

#[cfg(target_arch = "x86_64")]
impl Kernels for Avx2 {
    #[inline(always)]
    fn skip_plain(self, hay: &[u8], i: usize, end: usize) -> usize {
        // SAFETY: an `Avx2` exists only when the CPU has AVX2.
        unsafe { x86_64::run_class::skip_plain_avx2(hay, i, end) }
    }

    #[inline(always)]
    fn find_candidate(
        self,
        hay: &[u8],
        counted: usize,
        from: usize,
        strict: bool,
        newlines: &mut u64,
    ) -> Option<usize> {
        // SAFETY: an `Avx2` exists only when the CPU has AVX2 and POPCNT
        // (and more).
        unsafe {
            x86_64::search::find_candidate_avx2(
                hay, counted, from, strict, newlines,
            )
        }
    }

    #[inline(always)]
    fn last_newline_in(
        self,
        hay: &[u8],
        from: usize,
        to: usize,
    ) -> Option<usize> {
        if hay.len() < 32 {
            return last_newline_in_portable(hay, from, to);
        }
        // SAFETY: an `Avx2` exists only when the CPU has AVX2, and `hay`
        // holds 32 bytes.
        unsafe { x86_64::lines::last_newline_in_avx2(hay, from, to) }
    }

    #[inline(always)]
    fn run_masks(self, hay: &[u8], at: usize) -> Option<RunMasks> {
        // SAFETY: an `Avx2` exists only when the CPU has AVX2.
        unsafe { x86_64::common_shape::run_masks_avx2(hay, at) }
    }
}

/// The AVX2 loops with the AVX-512 candidate search, for CPUs with
/// AVX-512BW. The search is called out of line; the rest of the scan
/// stays compiled for AVX2.
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy, Debug)]
pub(crate) struct Avx512(Avx2);

#[cfg(target_arch = "x86_64")]
impl Avx512 {
    /// The loops, if the CPU has AVX-512F and AVX-512BW besides the AVX2
    /// set (which `avx2` proves).
    #[inline]
    pub(crate) fn detect(avx2: Avx2) -> Option<Avx512> {
        (std::is_x86_feature_detected!("avx512f")
            && std::is_x86_feature_detected!("avx512bw"))
        .then_some(Avx512(avx2))
    }
}

#[cfg(target_arch = "x86_64")]
impl Kernels for Avx512 {
    #[inline(always)]
    fn skip_plain(self, hay: &[u8], i: usize, end: usize) -> usize {
        self.0.skip_plain(hay, i, end)
    }

    #[inline(always)]
    fn find_candidate(
        self,
        hay: &[u8],
        counted: usize,
        from: usize,
        strict: bool,
        newlines: &mut u64,
    ) -> Option<usize> {
        // SAFETY: an `Avx512` exists only when the CPU has AVX-512F,
        // AVX-512BW, AVX2 and POPCNT.
        unsafe {
            x86_64::search::find_candidate_avx512(
                hay, counted, from, strict, newlines,
            )
        }
    }

    #[inline(always)]
    fn last_newline_in(
        self,
        hay: &[u8],
        from: usize,
        to: usize,
    ) -> Option<usize> {
        self.0.last_newline_in(hay, from, to)
    }

    #[inline(always)]
    fn run_masks(self, hay: &[u8], at: usize) -> Option<RunMasks> {
        self.0.run_masks(hay, at)
    }
}

/// A scan that yields its items one at a time, with the loops of any
/// [`Kernels`]: what an iterator's `next` and `fold` run through
/// [`Chosen`].
pub(crate) trait KernelIter {
    type Item;
    /// The next item, with the loops of `k`. Implementations are
    /// `#[inline(always)]`, so that this is compiled into the
    /// function [`Chosen`] compiled for `k`.
    fn next_with<K: Kernels>(&mut self, k: K) -> Option<Self::Item>;
}

/// Work that runs with the loops of any [`Kernels`], handed to
/// [`Chosen::run`]: a step, or all of them folded.
trait WithKernels {
    type Output;
    fn with<K: Kernels>(self, k: K) -> Self::Output;
}

/// One step of a scan, as work.
struct Next<'a, S>(&'a mut S);

impl<S: KernelIter> WithKernels for Next<'_, S> {
    type Output = Option<S::Item>;
    #[inline(always)]
    fn with<K: Kernels>(self, k: K) -> Option<S::Item> {
        self.0.next_with(k)
    }
}

/// The remaining steps of a scan, folded, as work.
struct Fold<'a, S, B, F> {
    scan: &'a mut S,
    init: B,
    f: F,
}

impl<S: KernelIter, B, F: FnMut(B, S::Item) -> B> WithKernels
    for Fold<'_, S, B, F>
{
    type Output = B;
    #[inline(always)]
    fn with<K: Kernels>(mut self, k: K) -> B {
        let mut acc = self.init;
        while let Some(item) = self.scan.next_with(k) {
            acc = (self.f)(acc, item);
        }
        acc
    }
}

/// The loops a scan runs with, chosen once when its finder is built: the
/// best set the CPU has.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Chosen {
    /// The AVX2 loops with the AVX-512 search.
    #[cfg(target_arch = "x86_64")]
    Avx512(Avx512),
    /// The AVX2 loops.
    #[cfg(target_arch = "x86_64")]
    Avx2(Avx2),
    /// The loops every CPU of the target has.
    Baseline,
}

impl Chosen {
    /// The best loops for this CPU (the baseline ones under
    /// `--cfg uriscan_disable_simd`).
    #[inline]
    pub(crate) fn for_scan() -> Chosen {
        #[cfg(target_arch = "x86_64")]
        if !cfg!(uriscan_disable_simd)
            && let Some(avx2) = Avx2::detect()
        {
            return Avx512::detect(avx2)
                .map_or(Chosen::Avx2(avx2), Chosen::Avx512);
        }
        Chosen::Baseline
    }

    /// The next item of `scan`: an iterator's `next`.
    #[inline(always)]
    pub(crate) fn next<S: KernelIter>(self, scan: &mut S) -> Option<S::Item> {
        self.run(Next(scan))
    }

    /// The remaining items of `scan`, folded by `f`: an iterator's
    /// `fold`, behind `count`, `for_each`, `sum` and the adapters that
    /// forward to it. The whole loop runs in one call, so that the scan's
    /// state stays in registers between items instead of being saved and
    /// reloaded by every `next`.
    #[inline(always)]
    pub(crate) fn fold<S: KernelIter, B>(
        self,
        scan: &mut S,
        init: B,
        f: impl FnMut(B, S::Item) -> B,
    ) -> B {
        self.run(Fold { scan, init, f })
    }

    /// Runs `work` with the chosen loops, in a function compiled for
    /// them.
    #[inline(always)]
    fn run<W: WithKernels>(self, work: W) -> W::Output {
        match self {
            // SAFETY: an `Avx512` exists only when the CPU has the
            // features `run_avx2` is compiled for (and AVX-512BW).
            #[cfg(target_arch = "x86_64")]
            Chosen::Avx512(k) => unsafe { run_avx2(k, work) },
            // SAFETY: an `Avx2` exists only when the CPU has the features
            // `run_avx2` is compiled for.
            #[cfg(target_arch = "x86_64")]
            Chosen::Avx2(k) => unsafe { run_avx2(k, work) },
            Chosen::Baseline => run_baseline(work),
        }
    }
}

/// [`Chosen::run`] with the AVX2 loops, compiled for their features so
/// that they inline.
///
/// # Safety
///
/// The CPU must support AVX2, POPCNT, BMI1, BMI2 and LZCNT (which
/// `avx2` proves).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,popcnt,bmi1,bmi2,lzcnt")]
unsafe fn run_avx2<K: Kernels, W: WithKernels>(k: K, work: W) -> W::Output {
    work.with(k)
}

/// [`Chosen::run`] with the baseline loops, out of line: inlined, it made
/// the caller save registers and stack before choosing, for every URI.
#[inline(never)]
fn run_baseline<W: WithKernels>(work: W) -> W::Output {
    work.with(Baseline)
}
