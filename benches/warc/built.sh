# Sourced by the scripts that measure what benches/warc.sh built: sets
# repo, work (target/warc-bench), warc (the archive) and uriscan (the
# release binary), and stops the caller when warc.sh has not run yet.
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
work=$repo/target/warc-bench
warc=$work/corpus.warc.gz
uriscan=$repo/target/release/uriscan
[[ -s $warc && -x $uriscan ]] || { echo "${0##*/}: run benches/warc.sh first" >&2; exit 1; }
