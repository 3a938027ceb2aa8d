#!/usr/bin/env bash
# Compares the links and ids uriscan's AsciiDoc reader finds with the HTML
# Asciidoctor renders, file by file.
#
#   scripts/asciidoc-oracle.sh [--record] [PATH...]
#
# PATH: .adoc files or directories (default: the per-rule cases in
# crates/uriscan/tests/data/asciidoc and ../shared/corpus/sites). Each file
# is rendered alone (`asciidoctor -S secure -s`: an include becomes a link
# to its file, as uriscan lists it) and read alone by uriscan (no Antora
# component), so both see the same document. A file in a folder named
# `select` is rendered with its includes (`-S safe`) and read so by
# uriscan (`--follow-includes`): the cases of `tag=`, `tags=` and `lines=`.
# --record writes each case's `.expected` file (Asciidoctor's links and
# ids) that the Rust tests read.
# Prints "skipped: REASON" and succeeds when Asciidoctor cannot be had.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v asciidoctor >/dev/null 2>&1; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        apt-get install -y -qq asciidoctor >/dev/null 2>&1 \
            || { apt-get update -qq >/dev/null 2>&1 \
                && apt-get install -y -qq asciidoctor >/dev/null 2>&1; } \
            || true
    fi
fi
if ! command -v asciidoctor >/dev/null 2>&1; then
    echo "skipped: asciidoctor is not installed (Debian: apt-get install asciidoctor)"
    exit 0
fi
if ! command -v python3 >/dev/null 2>&1; then
    echo "skipped: python3 is not installed"
    exit 0
fi

cargo build -q -p uriscan --example asciidoc_links
exec python3 - "$@" <<'PY'
import html.parser, json, os, subprocess, sys

record = "--record" in sys.argv[1:]
paths = [a for a in sys.argv[1:] if a != "--record"] or [
    "crates/uriscan/tests/data/asciidoc",
    "../shared/corpus/sites",
]
files = []
for p in paths:
    if os.path.isdir(p):
        for root, _, names in os.walk(p):
            files += [os.path.join(root, n) for n in sorted(names) if n.endswith(".adoc")]
    elif os.path.isfile(p):
        files.append(p)
files.sort()
if not files:
    print("skipped: no .adoc files under " + " ".join(paths))
    sys.exit(0)

# Ids Asciidoctor's embedded HTML adds of its own.
OWN_IDS = {"preamble", "content", "toc", "toctitle", "footnotes"}

class Html(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.links, self.ids = [], []
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if a.get("id") and a["id"] not in OWN_IDS and not a["id"].startswith("_footnote"):
            self.ids.append(a["id"])
        value = a.get("href") if tag == "a" else a.get("src") if tag == "img" else None
        if value is not None and not value.startswith("#_footnote"):
            self.links.append(value)

def follows(path):
    """Whether the file is a case of the parts includes take."""
    return os.path.basename(os.path.dirname(path)) == "select"

def theirs(path):
    mode = "safe" if follows(path) else "secure"
    out = subprocess.run(
        ["asciidoctor", "-S", mode, "-s", "-a", "attribute-missing=skip",
         "-a", "toc!", "-o", "-", path],
        capture_output=True, text=True, check=False).stdout
    h = Html()
    h.feed(out)
    return h.links, h.ids

def as_rendered(kind, link):
    """Our link as Asciidoctor writes it in HTML: a document's .adoc as .html."""
    if kind in ("adoc:xref", "site:nav"):
        path, hash_, frag = link.partition("#")
        if path.endswith(".adoc"):
            path = path[:-5] + ".html"
        link = path + hash_ + frag
    return link

ours = {}
bin_ = os.path.join(os.environ.get("CARGO_TARGET_DIR", "target"), "debug", "examples", "asciidoc_links")
for group, flags in (([f for f in files if not follows(f)], []),
                     ([f for f in files if follows(f)], ["--follow-includes"])):
    for i in range(0, len(group), 200):
        run = subprocess.run([bin_] + flags + group[i:i + 200], capture_output=True, text=True, check=True)
        for line in run.stdout.splitlines():
            row = json.loads(line)
            ours[row["file"]] = row

def multiset_match(a, b):
    rest = list(b)
    same = 0
    for x in a:
        if x in rest:
            rest.remove(x)
            same += 1
    return same

totals = {"links": [0, 0, 0], "ids": [0, 0, 0], "verbatim includes": 0}
shown = 0
for f in files:
    t_links, t_ids = theirs(f)
    row = ours.get(f, {"links": [], "ids": []})
    o_links = [as_rendered(l["kind"], l["link"]) for l in row["links"]]
    # An include in a listing block is included all the same; the secure
    # render writes it there as text, not as a link: set aside, counted.
    for l in row["links"]:
        if l["kind"] == "adoc:include" and o_links.count(l["link"]) > t_links.count(l["link"]):
            o_links.remove(l["link"])
            totals["verbatim includes"] += 1
    o_ids = row["ids"]
    for name, o, t in (("links", o_links, t_links), ("ids", o_ids, t_ids)):
        same = multiset_match(o, t)
        totals[name][0] += same
        totals[name][1] += len(o) - same
        totals[name][2] += len(t) - same
        if same != len(o) or same != len(t):
            only_o = [x for x in o if x not in t]
            only_t = [x for x in t if x not in o]
            if shown < 40:
                print(f"{f}: {name}: only uriscan {only_o[:5]}, only asciidoctor {only_t[:5]}")
                shown += 1
    if record and "tests/data/asciidoc" in f:
        with open(f[:-5] + ".expected", "w") as out:
            out.write("# Asciidoctor's links and ids for %s, written by scripts/asciidoc-oracle.sh --record\n" % os.path.basename(f))
            out.writelines("link %s\n" % l for l in t_links)
            out.writelines("id %s\n" % i for i in t_ids)

print(f"includes in verbatim blocks (links for uriscan, text in the secure render): {totals.pop('verbatim includes')}")
for name, (same, only_o, only_t) in totals.items():
    union = same + only_o + only_t
    pct = 100.0 * same / union if union else 100.0
    print(f"{name}: {same} agree, {only_o} only uriscan, {only_t} only asciidoctor: {pct:.1f}% of {union} in {len(files)} files")
PY
