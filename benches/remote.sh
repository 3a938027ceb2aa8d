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
# Then the fault cases, one run each per tool with --timeout 2s, each on a
# tree of its own: a host that accepts and never answers (200 links), a
# refused port (200 links), a host answering 503 (40 links), a host asking
# `Retry-After: 3600` (40 links), a name that never resolves (200
# links to `nowhere.invalid`, which uriscan never looks up and lychee
# excludes by default), a name that does not resolve (200 links to
# `nowhere.uriscan-bench.net`, which both tools look up: they run in a
# network namespace of their own whose only resolver,
# benches/remote/nxdomain.py on 127.0.0.1, answers NXDOMAIN, so no
# lookup leaves the machine; the case is skipped where `unshare` is not
# allowed),
# and 40 HTML pages of 16 MiB each linked with a fragment (`#end`, the
# last id of each page), checked with --remote-fragments (lychee:
# --include-fragments) and --timeout 60s. Prints each tool's wall time,
# exit status and peak RSS (/usr/bin/time -v).
#
# Usage: benches/remote.sh
# Environment:
#   RUNS=5         timed runs per tool (hyperfine)
#   URLS=10000 HOSTS=200 DELAY_MS=20 FILES=100 LINKS_PER_URL=3
#   CONCURRENCY=64 HOST_CONCURRENCY=4 PORT=8613
#   SKIP_BUILD=1   do not build (uses target/release, or CARGO_TARGET_DIR)
#   SPEED=0        skip the speed bench; FAULTS=0 skip the fault cases
#   CASES="large"  run only these fault cases (dead refused 503
#                  retry-after invalid nxdomain large)
#   SERVER=PATH    the slow_server binary (a debug build, say)
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
server=${SERVER:-$target/release/examples/slow_server}
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
else
  echo "lychee: skipped, not installed"
fi

csv=$work/times.csv
args=()
for i in "${!names[@]}"; do args+=(-n "${names[$i]}" "${cmds[$i]}"); done
if [[ ${SPEED:-1} != 0 ]]; then
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
fi

[[ ${FAULTS:-1} == 0 ]] && exit 0

# One fault case: NAME, the number of links, the printf format of link
# i, and optionally the timeout in seconds (2) and the options each tool
# adds. Each tool runs once, bounded by 15 minutes; prints the wall
# time, the exit status and the peak RSS.
fault() {
  local name=$1 n=$2 fmt=$3 timeout=${4:-2} more=${5:-} lmore=${6:-}
  if [[ -n ${CASES:-} && " $CASES " != *" $name "* ]]; then
    return 0
  fi
  local dir=$work/fault-$1
  mkdir -p "$dir"
  for ((i = 0; i < n; i++)); do
    # shellcheck disable=SC2059
    printf -- "- [link %d]($fmt)\n" "$i" "$i"
  done >"$dir/doc.md"
  if [[ $name == nxdomain && -z $isolate ]]; then
    printf '%-12s skipped: needs unshare -n -m (root), so that no lookup leaves the machine\n' "$name"
    return 0
  fi
  local -a tools=(uriscan) runs=(
    "$uriscan check --remote --allow-private --no-progress --timeout ${timeout}s --max-concurrency $conc --host-concurrency $hconc $more $dir")
  if [[ -z $lychee ]]; then
    printf '%-12s %-8s skipped, not installed\n' "$name" lychee
  else
    tools+=(lychee)
    runs+=("$lychee --no-progress --timeout $timeout --max-concurrency $conc --host-concurrency $hconc --host-request-interval 0ms $lmore $dir")
  fi
  local -a wrap=()
  if [[ ($name == invalid || $name == nxdomain) && -n $isolate ]]; then
    wrap=(isolated)
  fi
  for i in "${!tools[@]}"; do
    local report status
    report=$( { "${wrap[@]}" /usr/bin/time -v timeout 900 sh -c "${runs[$i]} >/dev/null 2>&1"; } 2>&1 || true)
    status=$(awk -F': ' '/Exit status/ {print $2}' <<<"$report")
    printf '%-12s %-8s %6d links %10s wall  exit %-3s %9s KB\n' "$name" "${tools[$i]}" "$n" \
      "$(awk -F': ' '/Elapsed \(wall clock\)/ {print $2}' <<<"$report")" "$status" \
      "$(awk -F': ' '/Maximum resident set size/ {print $2}' <<<"$report")"
  done
}

# Runs a command in a network namespace of its own (lo only) whose
# resolver is benches/remote/nxdomain.py: every lookup gets NXDOMAIN, as
# `.invalid` does from a real resolver, and nothing leaves the machine.
isolated() {
  unshare -n -m sh -c '
    ip link set lo up && mount --bind "$1" /etc/resolv.conf || exit 97
    python3 "$2" >/dev/null & py=$!
    sleep 0.3
    shift 2
    "$@"; rc=$?
    kill "$py"
    exit "$rc"' sh "$work/resolv.conf" "$repo/benches/remote/nxdomain.py" "$@"
}
isolate=
if unshare -n -m true 2>/dev/null && command -v ip >/dev/null && command -v python3 >/dev/null; then
  echo "nameserver 127.0.0.1" >"$work/resolv.conf"
  isolate=1
fi

echo "fault cases: --timeout 2s, concurrency $conc in all, $hconc per host"
# A port nobody listens on: the server's, plus one.
refused=$((port + 1))
fault dead 200 "http://127.0.0.1:$port/hang/%d"
fault refused 200 "http://127.0.0.1:$refused/%d"
fault 503 40 "http://127.0.0.1:$port/503/%d"
fault retry-after 40 "http://127.0.0.1:$port/retry-after/%d"
fault invalid 200 "http://nowhere.invalid/%d"
fault nxdomain 200 "http://nowhere.uriscan-bench.net/%d"
# 40 pages of 16 MiB; all at once (host concurrency 40).
hconc_before=$hconc
hconc=40
fault large 40 "http://127.0.0.1:$port/large/%d#end" 60 --remote-fragments --include-fragments
hconc=$hconc_before
