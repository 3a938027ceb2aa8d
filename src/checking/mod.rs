//! Checking links: whether what a document's links name exists.
//!
//! [`local`] checks the local targets (files, directories, anchors)
//! offline; [`anchors`] holds the heading-anchor rules of the Markdown
//! renderers.

pub mod anchors;
pub mod local;

pub use local::{Checker, CheckerBuilder, Document, Reason, Status, Verdict};
