#!/usr/bin/env bash
# Times the remote check side by side with lychee in one run, against a
# local server: 10,000 distinct URLs on 200 hosts (127.0.0.1 … 127.0.0.200,
# one port), each answer delayed 20 ms, linked from a Markdown tree where
# each URL appears in 3 files. No packet leaves the machine.
#
#   uriscan check --remote --allow-private --max-concurrency C --host-concurrency H TREE
#   lychee --max-concurrency C --host-concurrency H --host-request-interval 0ms TREE
#
# lychee waits 50 ms between two requests to one host by default; the
# interval is set to 0 so that both tools run under the same limits
# (C in all, H per host), which the issue asks for. The floor is
# URLs × delay / C: no client can finish sooner with C requests in flight.
#
# Prints each tool's median (hyperfine), its distance from the floor, the
# requests the server counted for one run and requests per second, and the
# peak RSS (/usr/bin/time -v). See benches/README.md.
#
# Usage: benches/remote.sh
# Environment:
#   RUNS=5         timed runs per tool (hyperfine)
#   URLS=10000 HOSTS=200 DELAY_MS=20 FILES=100 LINKS_PER_URL=3
#   CONCURRENCY=64 HOST_CONCURRENCY=4 PORT=8613
#   SKIP_BUILD=1   do not build (uses target/release, or CARGO_TARGET_DIR)
# Needs hyperfine and curl; lychee from ~/.cargo/bin or PATH (skipped if
# absent).
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
runs=${RUNS:-5}
urls=${URLS:-10000}
hosts=${HOSTS:-200}
delay=${DELAY_MS:-20}
files=${FILES:-100}
per_url=${LINKS_PER_URL:-3}
conc=${CONCURRENCY:-64}
hconc=${HOST_CONCURRENCY:-4}
port=${PORT:-8613}
die() { echo "remote.sh: $*" >&2; exit 1; }
command -v hyperfine >/dev/null || die "needs hyperfine (apt-get install hyperfine)"
command -v curl >/dev/null || die "needs curl"
target=${CARGO_TARGET_DIR:-$repo/target}
if [[ -z ${SKIP_BUILD:-} ]]; then
  (cd "$repo" && cargo build --release --quiet -p uriscan-cli --bin uriscan && cargo build --release --quiet -p uriscan --features remote --example slow_server)
fi
uriscan=$target/release/uriscan
server=$target/release/examples/slow_server
[[ -x $uriscan && -x $server ]] || die "no $uriscan or $server (build them)"

work=$(mktemp -d)
server_pid=
cleanup() {
  [[ -n $server_pid ]] && kill "$server_pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

# The tree: URL i is on host 127.0.0.(i mod HOSTS + 1); file f links the
# URLs i with i mod FILES in f's window of LINKS_PER_URL files.
tree=$work/docs
mkdir -p "$tree"
awk -v urls="$urls" -v hosts="$hosts" -v files="$files" -v per="$per_url" \
    -v port="$port" -v dir="$tree" 'BEGIN {
  for (i = 0; i < urls; i++) {
    url = sprintf("http://127.0.0.%d:%d/page/%d", i % hosts + 1, port, i)
    for (k = 0; k < per; k++) {
      f = (i + k * 37) % files
      printf "- [page %d](%s)\n", i, url >> sprintf("%s/doc%03d.md", dir, f)
    }
  }
}'

# The server stops by itself after 15 minutes.
"$server" "$port" "$hosts" "$delay" 900 2>/dev/null &
server_pid=$!
for _ in $(seq 50); do
  curl -sf "http://127.0.0.1:$port/__stats" >/dev/null && break
  sleep 0.1
done
served() { curl -sf "http://127.0.0.1:$port/__stats"; }

floor=$(awk -v u="$urls" -v d="$delay" -v c="$conc" 'BEGIN { printf "%.3f", u * d / 1000 / c }')
echo "cores: $(nproc); $urls URLs on $hosts hosts, $delay ms each, $files files, each URL linked $per_url times"
echo "concurrency $conc in all, $hconc per host; floor $urls x $delay ms / $conc = ${floor}s"

names=(uriscan)
cmds=("$uriscan check --remote --allow-private --no-progress --max-concurrency $conc --host-concurrency $hconc $tree")
# shellcheck source=benches/lychee.sh
source "$repo/benches/lychee.sh"
if [[ -n $lychee ]]; then
  names+=(lychee)
  cmds+=("$lychee --no-progress --max-concurrency $conc --host-concurrency $hconc --host-request-interval 0ms $tree")
fi

csv=$work/times.csv
args=()
for i in "${!names[@]}"; do args+=(-n "${names[$i]}" "${cmds[$i]}"); done
hyperfine -N -i --warmup 1 --runs "$runs" --export-csv "$csv" "${args[@]}" >&2 \
  || die "hyperfine failed"

printf '%-8s %9s %9s %10s %10s %12s %12s\n' tool median min x-floor requests 'requests/s' 'peak RSS'
for i in "${!names[@]}"; do
  med=$(awk -F, -v n="${names[$i]}" '$1 == n {print $4}' "$csv")
  min=$(awk -F, -v n="${names[$i]}" '$1 == n {print $7}' "$csv")
  before=$(served)
  rss=$( { /usr/bin/time -v sh -c "${cmds[$i]} >/dev/null 2>&1" || true; } 2>&1 \
    | awk -F': ' '/Maximum resident set size/ {print $2}')
  after=$(served)
  reqs=$((after - before))
  printf '%-8s %8.2fs %8.2fs %9.2fx %10d %12.0f %9d KB\n' "${names[$i]}" "$med" "$min" \
    "$(awk -v m="$med" -v f="$floor" 'BEGIN { print m / f }')" "$reqs" \
    "$(awk -v r="$reqs" -v m="$med" 'BEGIN { print r / m }')" "$rss"
done
