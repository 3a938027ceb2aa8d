#!/usr/bin/env bash
# `uriscan check` against `sphinx-build -b html -n` on the Sphinx tree of
# the corpus (../shared/corpus/sites/sphinx-doc/doc): wall and CPU time
# (user + sys), medians of RUNS runs each, their ratio, and the broken
# references each reports (sphinx's `-n` warnings "undefined label",
# "unknown document", "reference target not found" against uriscan's
# broken `rst:ref`/`rst:doc` links), compared by file and line.
#
#   RUNS=3 benches/sphinx.sh        # SKIP_BUILD=1: use target/release/uriscan
#
# Offline: the tree has no conf.py, so sphinx-build runs with `-C` (no
# configuration file, hence no extension at all: no intersphinx, nothing
# fetched); where `unshare -n` works (root) both tools also run in a
# network namespace with no interface but loopback. Installs docutils and
# Sphinx with pip into target/rst-venv the first time, as
# scripts/rst-oracle.sh does (the only step that uses the network).
# Slow (sphinx-build takes tens of seconds a run): never a CI step.
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$repo"
runs=${RUNS:-3}
tree=${TREE:-../shared/corpus/sites/sphinx-doc/doc}
[ -d "$tree" ] || { echo "skipped: $tree is not beside the repository"; exit 0; }
venv=target/rst-venv
. scripts/venv.sh
venv_with "$venv" docutils,sphinx docutils sphinx
if [ "${SKIP_BUILD:-0}" != 1 ]; then
  cargo build -q --release -p uriscan-cli
fi
bin="${CARGO_TARGET_DIR:-target}/release/uriscan"
offline=()
if unshare -n true 2>/dev/null; then offline=(unshare -n); fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# One run of a command: "wall user sys" appended to $1, output kept.
timed() {
  local times=$1 out=$2; shift 2
  /usr/bin/time -f '%e %U %S' -a -o "$times" "${offline[@]}" "$@" > "$out.out" 2> "$out.err" || true
}
for i in $(seq "$runs"); do
  rm -rf "$work/html" "$work/doctrees"
  timed "$work/sphinx.times" "$work/sphinx" \
    "$venv/bin/sphinx-build" -C -b html -n -q -d "$work/doctrees" "$tree" "$work/html"
  timed "$work/uriscan.times" "$work/uriscan" "$bin" check --json "$tree"
done

"$venv/bin/python" - "$work" "$tree" "$runs" "$("$venv/bin/sphinx-build" --version)" <<'EOF'
import json, os, re, statistics, sys
work, tree, runs, version = sys.argv[1:]
tree = os.path.realpath(tree)

def medians(name):
    rows = [list(map(float, l.split())) for l in open(f"{work}/{name}.times")
            if re.match(r"^[0-9.]+ [0-9.]+ [0-9.]+$", l.strip())]
    wall = statistics.median(r[0] for r in rows)
    cpu = statistics.median(r[1] + r[2] for r in rows)
    return wall, cpu, rows

print(f"{version}; uriscan check; {runs} runs each, load average "
      f"{open('/proc/loadavg').read().split()[0]} at the end")
sw, sc, _ = medians("sphinx")
uw, uc, _ = medians("uriscan")
print(f"{'':24}{'wall s':>10}{'CPU s':>10}")
print(f"{'sphinx-build -b html -n':24}{sw:10.3f}{sc:10.3f}")
print(f"{'uriscan check':24}{uw:10.3f}{uc:10.3f}")
print(f"{'uriscan / sphinx':24}{uw / sw:10.4f}{uc / sc:10.4f}"
      f"   (target: < 0.1)")

def rel(path):
    p = os.path.realpath(path)
    return os.path.relpath(p, tree) if p.startswith(tree) else path

# sphinx: "PATH:LINE: WARNING: undefined label: 'x' [ref.ref]", "unknown
# document: 'x' [ref.doc]", "py:class reference target not found: x".
warning = re.compile(r"^(.+?):(\d+): WARNING: (.*) \[ref\.(\w+)\]$")
sphinx, domain = {}, {}
for line in open(f"{work}/sphinx.err", errors="replace"):
    m = warning.match(line.rstrip("\n"))
    if not m:
        continue
    key = (rel(m.group(1)), int(m.group(2)))
    if m.group(4) in ("ref", "doc"):
        sphinx.setdefault(key, []).append(m.group(3))
    else:
        domain[m.group(4)] = domain.get(m.group(4), 0) + 1
ours, skipped = {}, {}
for line in open(f"{work}/uriscan.out", errors="replace"):
    try:
        row = json.loads(line)
    except ValueError:
        continue
    if row.get("kind") == "rst:external":
        skipped.setdefault((rel(row["path"]), row.get("link", "").lower()), []).append(row["line"])
    if row.get("kind") not in ("rst:ref", "rst:doc") or row.get("status") != "broken":
        continue
    key = (rel(row["path"]), row["line"])
    ours.setdefault(key, []).append(f"{row['kind']} {row.get('link', '')}")
# An intersphinx name (`project:label`) is unresolved by a build with no
# intersphinx_mapping; uriscan lists it as skipped, never broken.
external = {k: v for k, v in sphinx.items()
            if all(re.search(r"'[\w.-]+:", w) for w in v)}
local = {k: v for k, v in sphinx.items() if k not in external}
both = sorted(local.keys() & ours.keys())
print(f"\nbroken :ref:/:doc: (sphinx's undefined label / unknown document "
      f"against uriscan's broken rst:ref / rst:doc):")
print(f"  sphinx {len(local)} places, uriscan {len(ours)}, "
      f"at the same file and line {len(both)}")
for key in sorted(local.keys() - ours.keys()):
    print(f"  only sphinx:  {key[0]}:{key[1]}: {'; '.join(local[key])}")
for key in sorted(ours.keys() - local.keys()):
    print(f"  only uriscan: {key[0]}:{key[1]}: {'; '.join(ours[key])}")
# Matched by file and name: sphinx gives the paragraph's first line,
# uriscan the role's own; sphinx prints a label lowercased.
names = [(k, re.search(r"'([^']*)'", w).group(1).lower()) for k, v in sorted(external.items()) for w in v]
found = [(k, n) for k, n in names if (k[0], n) in skipped]
print(f"intersphinx names sphinx cannot resolve (no intersphinx offline): "
      f"{len(names)}, of which uriscan lists {len(found)} as skipped (rst:external) "
      f"in the same file ({sum(1 for k, n in found if k[1] in skipped[(k[0], n)])} at the same line)")
for key, name in names:
    if (key[0], name) not in skipped:
        print(f"  not listed by uriscan: {key[0]}:{key[1]}: {name}")
    elif key[1] not in skipped[(key[0], name)]:
        print(f"  other line: {key[0]}:{key[1]} (sphinx) against "
              f"{skipped[(key[0], name)]} (uriscan): {name}")
print("other roles sphinx could not resolve (domain roles, and roles this tree's own conf.py would add; uriscan skips them): "
      + (", ".join(f"{n} {k}" for k, n in sorted(domain.items())) or "none"))
EOF
