//! What the library's tests share: the RFC 3986 data tables and their
//! strategies, a reader that hands out a few bytes at a time, and a local
//! HTTP server.

// Each test module uses part of this.
#![allow(dead_code)]

#[cfg(feature = "remote")]
pub mod http;
#[cfg(feature = "remote")]
pub mod large_page;
pub mod refs;
pub mod trickle;
