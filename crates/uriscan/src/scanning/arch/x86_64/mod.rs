//! The x86-64 loops: SSE2 (part of the baseline, so always available),
//! and AVX2 and AVX-512, which [`super::super::kernels`] uses only once
//! it has found them on the CPU. Each module holds the loops of the scan
//! module of the same name.

pub(crate) mod common_shape;
pub(crate) mod lines;
pub(crate) mod run_class;
pub(crate) mod search;
