#!/usr/bin/env bash
# flate2's backends on the bench's .warc.gz: the same member-by-member
# decompression (bufread::GzDecoder over a BufReader, one decoder per
# member) built once with zlib-rs (what uriscan uses) and once with
# miniz_oxide (flate2's rust_backend), each on one core, with zcat.
# Run benches/warc.sh first: it builds the file.
#
# Usage: benches/warc/backends.sh   (RUNS=5 by default)
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
work=$repo/target/warc-bench
warc=$work/corpus.warc.gz
[[ -s $warc ]] || { echo "backends.sh: run benches/warc.sh first" >&2; exit 1; }
for backend in zlib-rs rust_backend; do
  dir=$work/backend-$backend
  mkdir -p "$dir/src"
  cat > "$dir/Cargo.toml" <<TOML
[package]
name = "inflate-$backend"
version = "0.0.0"
edition = "2024"
publish = false
[dependencies]
flate2 = { version = "1.1.11", default-features = false, features = ["$backend", "runtime_detection"] }
[profile.release]
codegen-units = 1
lto = "thin"
[workspace]
TOML
  cat > "$dir/src/main.rs" <<'RUST'
// Decompresses a multi-member gzip file member by member, resetting one
// decoder, and prints the bytes out and the members.
use std::io::{BufRead, BufReader, Read};
fn main() {
    let path = std::env::args().nth(1).expect("a .gz file");
    let file = std::fs::File::open(path).unwrap();
    let mut r = BufReader::with_capacity(64 * 1024, file);
    let mut buf = vec![0u8; 64 * 1024];
    let (mut bytes, mut members) = (0u64, 0u64);
    let mut d = flate2::bufread::GzDecoder::new(r);
    loop {
        loop {
            let n = d.read(&mut buf).unwrap();
            if n == 0 { break; }
            bytes += n as u64;
        }
        members += 1;
        r = d.into_inner();
        if r.fill_buf().unwrap().is_empty() { break; }
        d = flate2::bufread::GzDecoder::new(r);
    }
    println!("{bytes} bytes in {members} members");
}
RUST
  (cd "$dir" && cargo build --release --quiet)
done
z=$work/backend-zlib-rs/target/release/inflate-zlib-rs
m=$work/backend-rust_backend/target/release/inflate-rust_backend
"$z" "$warc"
hyperfine -N --runs "${RUNS:-5}" --warmup 1 \
  -n zlib-rs "taskset -c ${CORE:-0} $z $warc" \
  -n miniz_oxide "taskset -c ${CORE:-0} $m $warc" \
  -n zcat "taskset -c ${CORE:-0} zcat $warc"
