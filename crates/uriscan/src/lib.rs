//! uriscan finds, delimits, validates and resolves URIs in text, by the
//! rules of RFC 3986 (STD 66).
//!
//! The crate is a pipeline: [`syntax`] holds the grammar (parse, resolve,
//! normalize), [`scanning`] finds and delimits URIs in bytes, [`links`]
//! reads the links of Markdown and HTML documents, `checking` checks
//! them, `walking` lists the files of a tree and `reading` reads them.
//! The `uriscan` binary is a thin command line on top; nothing in the
//! library prints or exits.
//!
//! # Features
//!
//! With no feature the crate is [`syntax`], [`scanning`] and [`links`],
//! over memchr and the document readers: no argument parser, async
//! runtime or HTTP client. The rest is opt-in:
//!
//! - `walk`: the `walking` module, with ignore. Turns on `read`.
//! - `read`: the `reading` module, with flate2.
//! - `check`: the `checking` module, with rayon.
//! - `remote`: `checking::remote`, web links checked over the network
//!   (reqwest on tokio, rustls). Turns on `check`.
//! - `warc`: the `warc` module (WARC and WET files), with flate2.
//!
//! The `uriscan` command line is the `uriscan-cli` package.

#![deny(unsafe_op_in_unsafe_fn)]
#![deny(missing_docs)]
// docs.rs builds with `--cfg docsrs`: show which feature each item needs.
#![cfg_attr(docsrs, feature(doc_cfg))]

#[cfg(feature = "check")]
pub mod checking;
#[cfg(feature = "internals")]
#[doc(hidden)]
pub mod internals;
pub mod links;
#[cfg(feature = "read")]
pub mod reading;
pub mod scanning;
mod span;
pub mod syntax;
#[cfg(feature = "walk")]
pub mod walking;
#[cfg(feature = "warc")]
pub mod warc;

pub use span::Span;

/// The Rust examples of the library's guide, docs/library.md, run as doc
/// tests so that they stay true; they use every feature but `internals`.
#[cfg(all(doctest, feature = "walk", feature = "warc", feature = "remote"))]
#[doc = include_str!("../../../docs/library.md")]
pub struct ReadmeDoctests;
