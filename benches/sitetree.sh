#!/usr/bin/env bash
# The offline check of a docs tree written with site URLs, side by side
# with lychee given the --remap rules that make it resolve the same links:
# the MkDocs site of benches/sitetree_build.sh (the pages of mdtree.sh,
# their head links rewritten as `../part-0007/`, `/part-0007/#part-7`,
# `https://docs.example.org/part-0007/` and a missing `../missing-3/`).
# First says whether both report the same broken links, then times both
# in paired rounds (CPU time and wall time, medians, the per-round ratio
# lychee / uriscan with its range). See benches/README.md.
#
# Usage: benches/sitetree.sh
# Environment:
#   ROUNDS=11     paired rounds
#   TREE=DIR      where to build the tree (default: $TMPDIR/uriscan-sitetree)
#   SKIP_BUILD=1  do not run cargo build --release
#   LYCHEE=PATH   the lychee binary (default: on PATH or ~/.cargo/bin)
#   URISCAN=PATH  the uriscan binary (default: target/release/uriscan)
# Needs lychee (cargo install lychee --locked) and python3.
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
rounds=${ROUNDS:-11}
die() { echo "sitetree.sh: $*" >&2; exit 1; }
# shellcheck source=benches/corpus.sh
source "$repo/benches/corpus.sh"
# shellcheck source=benches/lychee.sh
source "$repo/benches/lychee.sh"
lychee=${LYCHEE:-$lychee}
[[ -n $lychee ]] || die "needs lychee (cargo install lychee --locked, or LYCHEE=PATH)"
tree=${TREE:-${TMPDIR:-/tmp}/uriscan-sitetree}
if [[ -z ${SKIP_BUILD:-} ]]; then
  (cd "$repo" && cargo build --release --quiet -p uriscan-cli)
fi
uriscan=${URISCAN:-$repo/target/release/uriscan}

# shellcheck source=benches/sitetree_build.sh
source "$repo/benches/sitetree_build.sh"
build_sitetree "$tree"
tree=$(cd "$tree" && pwd)
echo "cores: $(nproc); $(find "$tree/docs" -name '*.md' | wc -l) pages in $tree;" \
  "$("$lychee" --version)"

# What MkDocs serves, as lychee needs it spelled out: lychee resolves a
# relative link against the file's folder and drops a trailing slash, so
# `../part-7/` from docs/part-3.md is file://TREE/part-7; a root-relative
# link is under --root-dir; the site's own URL is remote. Each shape gets
# its rule, onto the page's source (`[^/#.]+` keeps `part-7.md` itself).
remaps=(
  --remap "^file://$tree/docs/([^/#.]+)/?(#.*)?\$ file://$tree/docs/\${1}.md\${2}"
  --remap "^file://$tree/([^/#.]+)/?(#.*)?\$ file://$tree/docs/\${1}.md\${2}"
  --remap "^https://docs\\.example\\.org/([^#]*?)/?(#.*)?\$ file://$tree/docs/\${1}.md\${2}"
)
lychee_cmd=("$lychee" --offline --include-fragments --no-progress
  --root-dir "$tree/docs" "${remaps[@]}")
uriscan_cmd=("$uriscan" check --site auto)

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
"${uriscan_cmd[@]}" --json "$tree" >"$out/uriscan.json" || true
"${lychee_cmd[@]}" --format json "$tree" >"$out/lychee.json" 2>/dev/null || true

python3 - "$tree" "$out/uriscan.json" "$out/lychee.json" <<'PY'
"""The broken links of each tool, by (file, line): the head's site-URL
links (lines 3 to 6 of each page) must agree; the corpus' own links are
counted, with the classes where the tools differ."""
import collections, json, sys

tree, ours, theirs = sys.argv[1] + "/", sys.argv[2], sys.argv[3]
u = collections.Counter()
u_rows = {}
for line in open(ours, encoding="utf-8"):
    r = json.loads(line)
    if r["status"] == "broken":
        key = (r["path"].replace(tree, ""), r["line"])
        u[key] += 1
        u_rows.setdefault(key, []).append(r)
lychee = collections.Counter()
l_rows = {}
for path, errors in json.load(open(theirs, encoding="utf-8"))["error_map"].items():
    for e in errors:
        key = (path.replace(tree, ""), e["span"]["line"])
        lychee[key] += 1
        l_rows.setdefault(key, []).append(e)
head = lambda c: collections.Counter({k: v for k, v in c.items() if 3 <= k[1] <= 6})
hu, hl = head(u), head(lychee)
print(f"site-URL links broken: uriscan {sum(hu.values())}, lychee {sum(hl.values())},"
      f" {'the same' if hu == hl else 'NOT the same'} (file, line)")
rest_u, rest_l = u - hu, lychee - hl
print(f"the corpus' own links broken: uriscan {sum(rest_u.values())}, lychee {sum(rest_l.values())}")
classes = collections.Counter()
for k, n in (rest_u - rest_l).items():
    for r in u_rows[k][:n]:
        why = "a used definition, once at the definition" if r["kind"] == "md:definition" else r["kind"]
        classes["uriscan only: " + why] += 1
for k, n in (rest_l - rest_u).items():
    for e in l_rows[k][:n]:
        why = ("each use of a broken definition" if k not in u_rows and e["url"].startswith("file:")
               else e["status"]["text"][:40])
        classes["lychee only: " + why] += 1
for why, n in classes.most_common():
    print(f"  {n:5} {why}")
if hu != hl:
    sys.exit("sitetree.sh: the tools disagree on the site-URL links")
PY

python3 - "$rounds" "$tree" "${#uriscan_cmd[@]}" "${uriscan_cmd[@]}" "${lychee_cmd[@]}" <<'PY'
"""Paired rounds, the order alternating: CPU time (user + system, from
wait4) and wall time of each, and the per-round ratios lychee / uriscan."""
import os, statistics, subprocess, sys, time

rounds, tree, n = int(sys.argv[1]), sys.argv[2], int(sys.argv[3])
cmds = {"uriscan": sys.argv[4:4 + n] + [tree], "lychee": sys.argv[4 + n:] + [tree]}


def run(argv):
    start = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, ru = os.wait4(proc.pid, 0)
    if os.waitstatus_to_exitcode(status) not in (0, 1, 2):
        sys.exit(f"{argv[0]} exited with {os.waitstatus_to_exitcode(status)}")
    return ru.ru_utime + ru.ru_stime, time.perf_counter() - start, ru.ru_maxrss / 1024


for name in cmds:  # warm-up
    run(cmds[name])
times = {name: [] for name in cmds}
for r in range(rounds):
    for name in (list(cmds) if r % 2 == 0 else list(cmds)[::-1]):
        times[name].append(run(cmds[name]))
print(f"{'tool':<8} {'CPU s':>7} {'wall s':>7} {'peak MB':>8}  (medians of {rounds} paired rounds)")
for name, t in times.items():
    med = [statistics.median(x[i] for x in t) for i in range(3)]
    print(f"{name:<8} {med[0]:7.3f} {med[1]:7.3f} {med[2]:8.1f}")
for i, what in ((0, "CPU"), (1, "wall")):
    ratios = [b[i] / a[i] for a, b in zip(times["uriscan"], times["lychee"])]
    print(f"lychee / uriscan, {what}: {statistics.median(ratios):.2f}x"
          f" [{min(ratios):.2f}, {max(ratios):.2f}]")
PY
