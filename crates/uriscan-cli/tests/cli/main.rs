//! The `uriscan` command line, run as a process: the scan, the syntax
//! commands, `links`, `check` (offline and remote), the WARC reader and
//! README's examples, one binary.

mod support;

mod action;
mod changed;
mod check;
mod definitions;
mod fragments;
mod links;
mod readme;
mod remap;
#[cfg(feature = "remote")]
mod remote;
mod report_forms;
mod search;
mod sites;
mod snapshots;
mod syntax;
mod templates;
mod warc;
