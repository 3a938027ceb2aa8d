//! The remote check's readers of untrusted text, for the `remote` fuzz
//! target: they stay private to `checking::remote` otherwise.

pub use crate::checking::remote::retry_after::parse_retry_after;
