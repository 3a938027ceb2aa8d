//! The `parse`, `resolve` and `normalize` subcommands: one item per line
//! on standard input, or given as arguments, one line of output per item.
//!
//! Input is read as bytes and split on `\n`, with a trailing `\r`
//! stripped, so a line that is not UTF-8 is one invalid item, never a
//! crash. Output is buffered (flushed after each line when standard input
//! is a terminal, for interactive use); a closed pipe ends the run
//! quietly.

use std::ffi::OsString;
use std::io::{self, BufRead, IsTerminal, Write};

use serde::Serialize;
use uriscan::syntax::normalize::{normalize, normalize_scheme_based};
use uriscan::syntax::resolve::{parse_base, resolve_into};
use uriscan::syntax::{HostKind, Parser, RefKind, UriRef};

use crate::args::SyntaxCommand;

/// Runs a subcommand; returns the exit code: 0 if every item was valid,
/// 1 if some was not. An error is a usage or I/O error (exit code 2).
pub fn run(cmd: SyntaxCommand) -> anyhow::Result<i32> {
    match cmd {
        SyntaxCommand::Parse { iri, items } => {
            let parser = Parser::new().iri(iri);
            each_item(items, |line, out| parse_item(parser, line, out))
        }
        SyntaxCommand::Resolve { base, iri, items } => {
            let parser = Parser::new().iri(iri);
            let base = parse_base(parser, &base)
                .map_err(|e| anyhow::anyhow!("--base {base:?}: {e}"))?;
            let mut target = String::new();
            each_item(items, |line, out| {
                let r = match text(line) {
                    Ok(s) => parser.parse_reference(s),
                    Err(e) => return error_line(out, &e, line),
                };
                match r {
                    Ok(r) => {
                        target.clear();
                        match resolve_into(&base, &r, &mut target) {
                            Ok(()) => {
                                writeln!(out, "{target}")?;
                                Ok(true)
                            }
                            Err(e) => error_line(out, &e, line),
                        }
                    }
                    Err(e) => error_line(out, &e, line),
                }
            })
        }
        SyntaxCommand::Normalize { scheme_based, iri, items } => {
            let parser = Parser::new().iri(iri);
            each_item(items, |line, out| {
                let r = match text(line) {
                    Ok(s) => parser.parse_reference(s),
                    Err(e) => return error_line(out, &e, line),
                };
                match r {
                    Ok(r) => {
                        let n = if scheme_based {
                            normalize_scheme_based(&r)
                        } else {
                            normalize(&r)
                        };
                        writeln!(out, "{n}")?;
                        Ok(true)
                    }
                    Err(e) => error_line(out, &e, line),
                }
            })
        }
    }
}

/// A line that is not UTF-8.
struct NotUtf8(usize);

impl std::fmt::Display for NotUtf8 {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "input is not valid UTF-8 at byte {}", self.0)
    }
}

fn text(line: &[u8]) -> Result<&str, NotUtf8> {
    std::str::from_utf8(line).map_err(|e| NotUtf8(e.valid_up_to()))
}

/// Writes `error: MESSAGE: "INPUT"` (the input escaped, so that any
/// byte is safe on a terminal) and reports the item as invalid.
fn error_line(
    out: &mut dyn Write,
    e: &dyn std::fmt::Display,
    line: &[u8],
) -> io::Result<bool> {
    writeln!(out, "error: {e}: {:?}", String::from_utf8_lossy(line))?;
    Ok(false)
}

/// The JSON object of a parsed reference; field order as documented.
#[derive(Serialize)]
struct Parsed<'a> {
    input: &'a str,
    valid: bool,
    kind: &'static str,
    scheme: Option<&'a str>,
    authority: Option<&'a str>,
    userinfo: Option<&'a str>,
    host: Option<&'a str>,
    host_kind: Option<&'static str>,
    port: Option<&'a str>,
    path: &'a str,
    query: Option<&'a str>,
    fragment: Option<&'a str>,
}

impl<'a> Parsed<'a> {
    fn new(r: &UriRef<'a>) -> Parsed<'a> {
        Parsed {
            input: r.as_str(),
            valid: true,
            kind: match r.kind() {
                RefKind::Uri => "uri",
                RefKind::Relative => "relative",
            },
            scheme: r.scheme(),
            authority: r.authority(),
            userinfo: r.userinfo(),
            host: r.host(),
            host_kind: r.host_kind().map(|k| match k {
                HostKind::Ipv4 => "ipv4",
                HostKind::Ipv6 => "ipv6",
                HostKind::IpvFuture => "ipvfuture",
                HostKind::RegName => "reg-name",
            }),
            port: r.port(),
            path: r.path(),
            query: r.query(),
            fragment: r.fragment(),
        }
    }
}

/// The JSON object of an item that failed to parse.
#[derive(Serialize)]
struct Invalid<'a> {
    input: &'a str,
    valid: bool,
    error: String,
}

fn parse_item(
    parser: Parser,
    line: &[u8],
    out: &mut dyn Write,
) -> io::Result<bool> {
    let parsed = text(line)
        .map_err(|e| e.to_string())
        .and_then(|s| parser.parse_reference(s).map_err(|e| e.to_string()));
    let valid = match parsed {
        Ok(r) => {
            serde_json::to_writer(&mut *out, &Parsed::new(&r))?;
            true
        }
        Err(error) => {
            let input = String::from_utf8_lossy(line);
            let rec = Invalid { input: &input, valid: false, error };
            serde_json::to_writer(&mut *out, &rec)?;
            false
        }
    };
    out.write_all(b"\n")?;
    Ok(valid)
}

/// Feeds each item to `f`, from the arguments or else from standard
/// input, and turns what `f` says (valid or not) into the exit code. A
/// broken pipe ends the run quietly with the code so far.
fn each_item(
    items: Vec<OsString>,
    mut f: impl FnMut(&[u8], &mut dyn Write) -> io::Result<bool>,
) -> anyhow::Result<i32> {
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    let mut all_valid = true;
    let result = (|| -> io::Result<()> {
        if items.is_empty() {
            let stdin = io::stdin();
            let interactive = stdin.is_terminal();
            let mut input = stdin.lock();
            let mut line = Vec::new();
            loop {
                line.clear();
                if input.read_until(b'\n', &mut line)? == 0 {
                    break;
                }
                let mut item = line.as_slice();
                item = item.strip_suffix(b"\n").unwrap_or(item);
                item = item.strip_suffix(b"\r").unwrap_or(item);
                all_valid &= f(item, &mut out)?;
                if interactive {
                    out.flush()?;
                }
            }
        } else {
            for item in &items {
                all_valid &= f(item.as_encoded_bytes(), &mut out)?;
            }
        }
        out.flush()
    })();
    match result {
        Ok(()) => Ok(if all_valid { 0 } else { 1 }),
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => {
            Ok(if all_valid { 0 } else { 1 })
        }
        Err(e) => Err(e.into()),
    }
}
