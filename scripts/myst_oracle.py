"""The links, labels and ids myst-parser (under Sphinx) finds in MyST files.

The files are copied into one Sphinx project (`extensions =
["myst_parser"]`, the `colon_fence` extension on, files starting with `_`
excluded), read by Sphinx (the `dummy` builder), and each document's
doctree, before references are resolved, gives:

- `links`: `kind:target` for each reference (`url:` a URL, `path:` a
  path or `#id`, also a Markdown link MyST resolves to an id of the
  document as a last resort), image (`image:`), `pending_xref` (`doc:`, `ref:`,
  `numref:`, `term:`, `external:` for another domain's roles,
  `label-link:` for a Markdown link MyST resolves as a label,
  `path:DOC.md#id` for one it resolved to a document), download
  (`download:`) and toctree entry (`toctree:`);
- `labels`: the labels of Sphinx's standard domain the document defines;
- `ids`: the ids of its elements.

    python myst_oracle.py FILE...            # one JSON object per line
    python myst_oracle.py --record FILE...   # FILE.expected.json beside each
    python myst_oracle.py --compare OURS.jsonl FILE...
                        # agreement with the reader's facts (one JSON
                        # object a line, from examples/rst_facts.rs)
    python myst_oracle.py --project DIR CHECK.jsonl
                        # the references sphinx-build finds broken in the
                        # Sphinx project DIR (rst and MyST mixed) against
                        # those `uriscan check --json DIR` reports

The files of each directory are one project; a directory's `_conf.py` is
added to the `conf.py` (`tests/data/myst-extensions` enables `linkify`,
`substitution`, `attrs_inline` and `html_image` there).

Not compared: what `{include}` brings in (the reader lists the include,
the check follows it), toctree globs (Sphinx keeps only their matches),
bare URLs in text where linkify is off (uriscan lists them as `text`).
"""

import io
import json
import os
import re
import shutil
import sys
import tempfile

from docutils import nodes
from sphinx import addnodes
from sphinx.application import Sphinx

CONF = """extensions = ["myst_parser"]
myst_enable_extensions = ["colon_fence"]
exclude_patterns = ["_*"]
suppress_warnings = ["toc", "myst"]
"""


def is_url(t):
    return "://" in t or t.startswith("mailto:")


def doc_facts(env, docname):
    doctree = env.get_doctree(docname)
    links, ids = [], []
    for node in doctree.findall(nodes.Element):
        ids.extend(node.get("ids", []))
        if isinstance(node, addnodes.pending_xref):
            typ, dom, tgt = node["reftype"], node.get("refdomain"), node["reftarget"]
            if typ == "myst" and dom == "doc":
                frag = node.get("reftargetid")
                links.append(f"path:{tgt}.md" + (f"#{frag}" if frag else ""))
            elif typ == "myst" and node.get("reflocalid"):
                # Resolved to an id of the document, as a last resort.
                links.append(f"path:#{tgt}")
            elif typ == "myst":
                bare = not any(c in tgt for c in "/.#:?")
                links.append(("label-link:" if bare else "path:") + tgt)
            elif dom in ("std", "", None) and typ in ("doc", "ref", "numref", "term"):
                # `project:label`: intersphinx, another project's.
                head, colon, _ = tgt.partition(":")
                if colon and head and all(c.isalnum() or c in "-_." for c in head):
                    typ = "external"
                links.append(f"{typ}:{tgt}")
            else:
                links.append(f"external:{tgt}")
        elif isinstance(node, addnodes.download_reference):
            links.append(f"download:{node['reftarget']}")
        elif isinstance(node, nodes.image):
            links.append(f"image:{node['uri']}")
        elif isinstance(node, nodes.reference):
            if "refuri" in node:
                uri = node["refuri"]
                links.append(("url:" if is_url(uri) else "path:") + uri)
            elif node.get("id_link") and "refid" in node:
                links.append(f"path:#{node['refid']}")
        elif isinstance(node, addnodes.toctree):
            for _title, ref in node["entries"]:
                links.append(f"toctree:{ref}")
    std = env.domaindata["std"]
    labels = sorted(
        {n for store in ("labels", "anonlabels")
         for n, v in std[store].items() if v[0] == docname}
    )
    return {"links": sorted(links), "labels": labels, "ids": sorted(set(ids))}


def oracle(files):
    """Each file's facts, keyed by its path: the files of each directory
    read as one project, with what its `_conf.py` adds to `CONF`."""
    facts = {}
    for d in sorted({os.path.dirname(f) for f in files}):
        facts.update(oracle_dir([f for f in files if os.path.dirname(f) == d]))
    return facts


def oracle_dir(files):
    """Each file's facts (files of one directory), keyed by its path."""
    tmp = tempfile.mkdtemp(prefix="myst-oracle-")
    try:
        src = os.path.join(tmp, "src")
        os.makedirs(src)
        names = {}
        for f in files:
            base = os.path.basename(f)
            shutil.copy(f, os.path.join(src, base))
            names[os.path.splitext(base)[0]] = f
        # The case directories hold the files the cases name.
        for d in {os.path.dirname(f) for f in files}:
            for extra in os.listdir(d):
                if extra.startswith("_"):
                    shutil.copy(os.path.join(d, extra), os.path.join(src, extra))
        extra = os.path.join(os.path.dirname(files[0]), "_conf.py")
        with open(os.path.join(src, "conf.py"), "w") as c:
            c.write(CONF + f"root_doc = {sorted(names)[0]!r}\n")
            if os.path.exists(extra):
                with open(extra) as e:
                    c.write(e.read())
        app = Sphinx(src, src, os.path.join(tmp, "out"), os.path.join(tmp, "doctrees"),
                     "dummy", status=None, warning=io.StringIO(), freshenv=True)
        app.build()
        return {names[d]: doc_facts(app.env, d) for d in sorted(app.env.found_docs)
                if d in names}
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def ours_comparable(o):
    """Our facts without what the oracle cannot see."""
    skip = ("include:", "literalinclude:", "toctree-glob:")
    links = sorted(
        ("image:" + l.split(":", 1)[1]) if l.startswith("figure:") else l
        for l in o["links"] if not l.startswith(skip)
    )
    return {"links": links, "labels": o["labels"], "ids": o["ids"]}


def compare(ours_path, files):
    ours = {}
    with open(ours_path) as f:
        for line in f:
            o = json.loads(line)
            ours[o["path"]] = ours_comparable(o)
    theirs = oracle(files)
    agree = total = 0
    failed = []
    for path in files:
        t, o = theirs.get(path), ours.get(path)
        if t is None or o is None:
            continue
        for field in ("links", "labels", "ids"):
            total += 1
            if field == "ids":
                # Every id the HTML has is one a link may name; we also
                # accept labels' names (MyST resolves `doc.md#Name`).
                ok = set(t["ids"]) <= set(o["ids"])
            else:
                ok = t[field] == o[field]
            if ok:
                agree += 1
            else:
                failed.append((path, field, t[field], o[field]))
    for path, field, t, o in failed:
        print(f"DIFF {path} {field}\n  myst-parser: {t}\n  ours:        {o}")
    print(f"myst oracle: {agree}/{total} facts agree ({len(files)} files)")
    return 0 if not failed else 1


# The warnings of a reference Sphinx cannot resolve, and the name they
# quote.
BROKEN = re.compile(
    r"^(?P<file>[^:]+):\d+: WARNING: (?:undefined label: |unknown document: |"
    r"'myst' cross-reference target not found: |local id not found in doc '[^']*': |"
    r"toctree contains reference to nonexisting document )'(?P<name>[^']+)'"
)


# Where we knowingly differ: a fragment naming a section's id in another
# MyST document, which MyST resolves only with `myst_heading_anchors`
# (we accept it).
KNOWN = {("index.md", "the-page")}


def project(srcdir, ours_path):
    """Compares the broken references of a whole project, by file and name."""
    srcdir = os.path.abspath(srcdir)
    tmp = tempfile.mkdtemp(prefix="myst-project-")
    try:
        warnings = io.StringIO()
        app = Sphinx(srcdir, srcdir, os.path.join(tmp, "out"), os.path.join(tmp, "doctrees"),
                     "dummy", status=None, warning=warnings, freshenv=True)
        app.build()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    theirs = set()
    for line in re.sub(r"\x1b\[[0-9;]*m", "", warnings.getvalue()).splitlines():
        m = BROKEN.match(line)
        if m:
            rel = os.path.relpath(m["file"], srcdir)
            theirs.add((rel, m["name"].lower().rsplit("/", 1)[-1]))
    ours = set()
    with open(ours_path) as f:
        for line in f:
            o = json.loads(line)
            if o.get("status") != "broken":
                continue
            name = o["link"].split("#", 1)[1] if "#" in o["link"] else o["link"]
            for suffix in (".md", ".rst"):
                name = name.removesuffix(suffix)
            rel = os.path.relpath(os.path.join(srcdir, o["path"]), srcdir)
            ours.add((os.path.normpath(rel), name.lower().rsplit("/", 1)[-1]))
    agree = theirs & ours
    for miss in sorted(theirs - ours):
        print(f"DIFF only sphinx-build: {miss}")
    for extra in sorted(ours - theirs):
        print(f"DIFF only ours: {extra}")
    print(f"myst project: {len(agree)} broken references agree, "
          f"{len(theirs - ours)} only Sphinx's, {len(ours - theirs)} only ours")
    known = {k for k in theirs - ours if k in KNOWN}
    return 0 if theirs - known == ours else 1


def main(argv):
    if argv and argv[0] == "--project":
        return project(argv[1], argv[2])
    if argv and argv[0] == "--record":
        for path, facts in oracle(argv[1:]).items():
            with open(path[: -len(".md")] + ".expected.json", "w") as f:
                json.dump(facts, f, indent=1, sort_keys=True)
                f.write("\n")
        return 0
    if argv and argv[0] == "--compare":
        return compare(argv[1], argv[2:])
    for path, facts in oracle(argv).items():
        print(json.dumps({"path": path, **facts}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
