//! The byte loops of a scan, by instruction set, laid out as memchr lays
//! out its own: [`all`] holds the portable loops, which every CPU runs and
//! every vectorized loop is tested against; [`x86_64`] the SSE2, AVX2 and
//! AVX-512 ones. [`super::kernels`] chooses among them once per finder.
//!
//! These modules are leaves: they use one another, memchr and the byte
//! classes of [`super::run_class`], never the dispatcher or the scan that
//! calls them, so a loop can be read, tested and changed on its own.
//! What each loop is for, and why it is shaped so, is told by the module
//! of the scan that uses it ([`super::search`], [`super::lines`],
//! [`super::run_class`], [`super::common_shape`]).

pub(crate) mod all;
#[cfg(target_arch = "x86_64")]
pub(crate) mod x86_64;
