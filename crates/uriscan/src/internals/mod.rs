//! Hooks for the benches, the fuzz targets and the differential tests,
//! behind the `internals` feature: not public API, hidden from the docs,
//! and free to change in any release. Each submodule reaches into one
//! folder of the pipeline, so that nothing there is made public for them.

pub mod links;
#[cfg(feature = "remote")]
pub mod remote;
