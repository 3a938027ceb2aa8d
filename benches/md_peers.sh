#!/usr/bin/env bash
# The field's fastest CommonMark parsers against our reader, parse only
# (nothing rendered), on the same bytes: ../shared/corpus/markdown.md cut
# into the 4 KB pages of examples/md_reader_profile.rs (the pages our
# reader reads, written out by its `pages` step), each parser in process:
#
#   floor           every line found, every byte classified (md_bound.sh)
#   bare            our reader's bare parse (links and regions gathered)
#   pulldown        pulldown-cmark, the options `links` uses
#   md4c            md4c's md_parse, callbacks that do nothing (tables,
#                   strikethrough; it has no footnotes or heading
#                   attributes)
#   md4c-links      the same, enter_span counting links and images
#   cmark           cmark-gfm: feed and finish, the table and
#                   strikethrough extensions attached, footnotes on, the
#                   tree freed
#
# The C parsers are Debian's (libmd4c-dev, libcmark-gfm-dev,
# libcmark-gfm-extensions-dev), installed with apt-get when missing and
# the script may (root, or sudo with no password); else their steps print
# "skipped: REASON". The driver, benches/md_peers/driver.c, is built
# with cc. Each step prints its fastest and median of PASSES passes (wall
# time), then, where valgrind is installed, the instructions of one pass
# (callgrind, the pass alone) and their number a byte.
#
#   benches/md_peers.sh                 # PASSES=20
#   PASSES=50 benches/md_peers.sh md4c bare
# Environment: CORPUS=DIR, SKIP_BUILD=1 (no cargo build --release).
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$repo"
# shellcheck source=benches/corpus.sh
source "$repo/benches/corpus.sh"
passes=${PASSES:-20}
steps=("$@")
[ ${#steps[@]} -gt 0 ] || steps=(floor bare pulldown md4c md4c-links cmark)

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The C parsers: installed where the script may, else skipped.
have() { [[ -f /usr/include/$1 ]]; }
if ! have md4c.h || ! have cmark-gfm-core-extensions.h; then
  packages=(libmd4c-dev cmark-gfm libcmark-gfm-dev libcmark-gfm-extensions-dev)
  if [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null; then
    apt-get install -y -qq "${packages[@]}" >/dev/null 2>&1 || true
  elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
    sudo apt-get install -y -qq "${packages[@]}" >/dev/null 2>&1 || true
  fi
fi
flags=() libraries=() skipped_md4c="" skipped_cmark=""
if ! command -v cc >/dev/null; then
  skipped_md4c="no C compiler (cc)" skipped_cmark=$skipped_md4c
else
  if have md4c.h; then
    flags+=(-DHAVE_MD4C) libraries+=(-lmd4c)
  else
    skipped_md4c="md4c is not installed (apt-get install libmd4c-dev needs root or sudo)"
  fi
  if have cmark-gfm-core-extensions.h; then
    flags+=(-DHAVE_CMARK) libraries+=(-lcmark-gfm-extensions -lcmark-gfm)
  else
    skipped_cmark="cmark-gfm is not installed (apt-get install libcmark-gfm-dev libcmark-gfm-extensions-dev needs root or sudo)"
  fi
  if [[ ${#flags[@]} -gt 0 ]]; then
    cc -O2 "${flags[@]}" -o "$work/driver" benches/md_peers/driver.c "${libraries[@]}"
  fi
fi

if [[ -z ${SKIP_BUILD:-} ]]; then
  cargo build --quiet --release -p uriscan --example md_reader_profile --features internals
fi
profile="${CARGO_TARGET_DIR:-$repo/target}/release/examples/md_reader_profile"
"$profile" pages 1 "$corpus/markdown.md" >"$work/pages"

echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'), $(nproc) cores"
echo "tree: $(git -C "$repo" rev-parse --short HEAD 2>/dev/null || echo '?')"
version() { dpkg-query -W -f='${Version}' "$1" 2>/dev/null || echo '?'; }
echo "md4c $(version libmd4c0), cmark-gfm $(version libcmark-gfm-dev)"

# The command of one step: ours (Rust) or the C driver's; empty when
# the step is skipped (its reason printed).
command_of() {
  case $1 in
    md4c | md4c-links)
      [[ -z $skipped_md4c ]] && echo "$work/driver $1" ;;
    cmark)
      [[ -z $skipped_cmark ]] && echo "$work/driver $1" ;;
    *) echo "$profile $1" ;;
  esac
}
reason_of() {
  case $1 in
    md4c | md4c-links) echo "$skipped_md4c" ;;
    cmark) echo "$skipped_cmark" ;;
  esac
}
# Ours cuts the corpus into its pages itself; the driver reads them.
input_of() {
  case $1 in
    md4c | md4c-links | cmark) echo "$work/pages" ;;
    *) echo "$corpus/markdown.md" ;;
  esac
}
toggle_of() {
  case $1 in
    md4c | md4c-links | cmark) echo "pass" ;;
    *) echo "md_reader_profile::pass" ;;
  esac
}

for step in "${steps[@]}"; do
  run=$(command_of "$step" || true)
  if [[ -z $run ]]; then
    echo "$step: skipped: $(reason_of "$step")"
    continue
  fi
  # shellcheck disable=SC2086
  $run "$passes" "$(input_of "$step")" | grep "^$step:"
done
if ! command -v valgrind >/dev/null; then
  echo "instructions: skipped: valgrind is not installed"
  exit 0
fi
for step in "${steps[@]}"; do
  run=$(command_of "$step" || true)
  [[ -n $run ]] || continue
  # shellcheck disable=SC2086
  valgrind --tool=callgrind --toggle-collect="$(toggle_of "$step")" \
    --callgrind-out-file="$work/$step.out" $run 1 "$(input_of "$step")" >"$work/$step.txt" 2>&1
  instructions=$(sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$work/$step.txt")
  bytes=$(sed -n 's/^[0-9]* pages, \([0-9]*\) bytes.*/\1/p' "$work/$step.txt")
  awk -v s="$step" -v i="$instructions" -v b="$bytes" \
    'BEGIN { printf "%s: %d instructions a pass, %.1f a byte\n", s, i, i / b }'
done
