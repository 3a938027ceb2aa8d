"""The links and ids docutils finds in reStructuredText files.

For each file: the URIs of its references and images (`uris`: a
reference to a place in the document as `#id`), the URIs of its external
targets (`targets`), and the ids of its sections and internal targets
(`ids`), as docutils' doctree has them. Sphinx's roles and directives are
registered as stand-ins that record what Sphinx would resolve (`sphinx`:
`role:target` pairs), so that docutils parses Sphinx sources without
errors.

    python rst_oracle.py FILE...            # one JSON object per line
    python rst_oracle.py --record FILE...   # FILE.expected.json beside each
    python rst_oracle.py --sphinx-html OURS.jsonl SRCDIR OUTDIR
                        # our ids against the HTML sphinx-build wrote
    python rst_oracle.py --compare OURS.jsonl FILE...
                        # agreement with the reader's facts (one JSON
                        # object a line, from examples/rst_facts.rs)

What a Rust test compares (`--record`): `links`, the URIs of references
and images; `ids`; `sphinx`, the Sphinx references: each sorted.
"""

import json
import sys
from collections import Counter

from docutils import nodes
from docutils.core import publish_doctree
from docutils.parsers.rst import Directive, directives, roles

SPHINX_ROLES = {"doc", "ref", "numref", "download", "term"}
recorded = []


def sphinx_role(name, rawtext, text, lineno, inliner, options=None, content=None):
    # Sphinx's own split of `title <target>`.
    target = text
    if text.endswith(">") and "<" in text:
        target = text[text.rfind("<") + 1 : -1]
    target = " ".join(target.lstrip("~!").split())
    # `project:label`: intersphinx, another project's.
    head, colon, _ = target.partition(":")
    if name != "download" and colon and "://" not in target and head and all(
            c.isascii() and (c.isalnum() or c in "-_.") for c in head):
        name = "external"
    recorded.append(f"{name}:{target}")
    return [nodes.inline(rawtext, text)], []


def domain_role(name, rawtext, text, lineno, inliner, options=None, content=None):
    target = text[text.rfind("<") + 1 : -1] if text.endswith(">") and "<" in text else text
    recorded.append(f"external:{' '.join(target.lstrip('~!').split())}")
    return [nodes.literal(rawtext, text)], []


class Stub(Directive):
    """A Sphinx directive: its files recorded, its content dropped."""

    has_content = True
    optional_arguments = 1
    final_argument_whitespace = True
    option_spec = None

    def run(self):
        name = self.name
        if name == "toctree":
            glob = "glob" in self.options
            for entry in self.content:
                entry = entry.strip()
                if entry.endswith(">") and "<" in entry:
                    entry = entry[entry.rfind("<") + 1 : -1]
                if not entry or entry == "self":
                    continue
                if glob and any(c in entry for c in "*?["):
                    recorded.append(f"toctree-glob:{entry}")
                else:
                    recorded.append(f"toctree:{entry}")
        elif name in ("literalinclude", "include") and self.arguments:
            path = "".join(self.arguments[0].split())
            # `<isonum.txt>`: docutils' own files, not the project's.
            if not (path.startswith("<") and path.endswith(">")):
                recorded.append(f"{name}:{path}")
        return []


# The options of Sphinx's directives that the stand-in accepts.
Stub.option_spec = {o: directives.unchanged for o in (
    "maxdepth glob caption name language linenos lines emphasize-lines "
    "hidden titlesonly numbered includehidden reversed encoding pyobject "
    "start-after end-before dedent tab-width class force lineno-start diff "
    "prepend append start-at end-at lineno-match linenothreshold sorted "
    "trim dedent toctree nosignatures template recursive").split()}


class Body(Directive):
    """Any other directive: its content read as body elements, as the
    reader reads an unknown directive's (Sphinx's admonitions, `only`,
    the domain directives)."""

    has_content = True
    optional_arguments = 1
    final_argument_whitespace = True

    def run(self):
        node = nodes.container()
        self.state.nested_parse(self.content, self.content_offset, node)
        return [node]


class AnyOption(dict):
    def __missing__(self, key):
        return directives.unchanged


Body.option_spec = AnyOption(name=directives.unchanged)


def register():
    for r in SPHINX_ROLES:
        roles.register_local_role(r, sphinx_role)
    for r in ["class", "func", "meth", "mod", "attr", "exc", "data", "const", "obj", "any",
              "py:class", "py:func", "py:meth", "py:mod", "c:func", "c:macro"]:
        roles.register_local_role(r, domain_role)
    for d in ["toctree", "literalinclude", "include", "code-block", "sourcecode", "highlight",
              "index", "tabularcolumns", "productionlist", "autosummary", "doctest",
              "testcode", "testoutput", "graphviz", "digraph", "graph"]:
        directives.register_directive(d, Stub)
    # Every directive docutils does not know reads as body.
    known = directives.directive

    def directive(name, language_module, document):
        found, messages = known(name, language_module, document)
        return (found or Body), messages

    directives.directive = directive
    # Roles with a domain, and Sphinx's default domain's roles.
    known_role = roles.role

    def role(name, language_module, lineno, reporter):
        if ":" in name or name == "external" or name.startswith("external+"):
            return domain_role, []
        return known_role(name, language_module, lineno, reporter)

    roles.role = role
    # `:pep:` and `:rfc:` make URIs the reader does not list.
    for r in ["pep", "rfc", "pep-reference", "rfc-reference"]:
        roles.register_local_role(r, lambda *a, **k: ([nodes.literal(a[1], a[2])], []))


def node_parents(node):
    while node.parent is not None:
        node = node.parent
        yield node


def collect(path):
    recorded.clear()
    with open(path, encoding="utf-8", errors="replace") as f:
        src = f.read()
    doc = publish_doctree(src, source_path=path, settings_overrides={
        "report_level": 5, "halt_level": 5, "file_insertion_enabled": False,
        "raw_enabled": False, "warning_stream": False,
    })
    uris, targets, ids, images = [], [], [], []
    for node in doc.findall(nodes.Element):
        # The table of contents `.. contents::` writes: not the source's.
        if any(isinstance(a, nodes.topic) and "contents" in a["classes"]
               for a in [node, *node_parents(node)]):
            continue
        if isinstance(node, nodes.reference):
            if "refuri" in node:
                uris.append(node["refuri"])
            elif "refid" in node:
                uris.append("#" + node["refid"])
        elif isinstance(node, nodes.image):
            images.append(node["uri"])
        elif isinstance(node, nodes.target):
            if "refuri" in node and node.get("names") or node.get("anonymous"):
                if "refuri" in node and not node.get("refname"):
                    targets.append(node["refuri"])
        if isinstance(node, nodes.section) or (
            isinstance(node, nodes.target) and "refuri" not in node
        ) or (node.get("names") and not isinstance(node, (
            nodes.target, nodes.footnote, nodes.citation, nodes.reference,
            nodes.section))):
            ids.extend(i for i in node.get("ids", []) if i not in ids)
    return {"uris": uris, "targets": targets, "images": images,
            "ids": ids, "sphinx": list(recorded)}


def expected(out):
    """The sorted facts a Rust test compares with the reader's."""
    return {"links": sorted(out["uris"] + out["images"]),
            "ids": sorted(out["ids"]), "sphinx": sorted(out["sphinx"])}


def compare(ours_path, paths):
    """Prints how many files agree on each fact, and the first
    disagreements; fails when a file of the cases disagrees."""
    with open(ours_path, encoding="utf-8") as f:
        ours = {o["path"]: o for o in map(json.loads, f)}
    agree = {"links": 0, "ids": 0, "sphinx": 0}
    facts = {"links": [0, 0], "ids": [0, 0], "sphinx": [0, 0]}
    shown, failed_cases, total = 0, [], 0
    for path in paths:
        try:
            theirs = expected(collect(path))
        except Exception as e:
            print(f"{path}: docutils failed: {e}")
            continue
        mine = ours.get(path)
        if mine is None:
            print(f"{path}: no facts from the reader")
            failed_cases.append(path)
            continue
        total += 1
        for k in agree:
            a, b = mine[k], theirs[k]
            common = sum((Counter(a) & Counter(b)).values())
            facts[k][0] += common
            facts[k][1] += max(len(a), len(b))
            if a == b:
                agree[k] += 1
                continue
            if "/tests/data/rst/" in path:
                failed_cases.append(path)
            if shown < 20:
                shown += 1
                only_ours = sorted((Counter(a) - Counter(b)).elements())
                only_theirs = sorted((Counter(b) - Counter(a)).elements())
                print(f"{path}: {k}: only ours {only_ours[:5]}, "
                      f"only docutils {only_theirs[:5]}")
    for k in agree:
        n, d = facts[k]
        print(f"{k}: {agree[k]}/{total} files agree; "
              f"{n}/{d} facts ({100 * n / max(d, 1):.1f}%)")
    if failed_cases:
        print("cases that disagree:", *sorted(set(failed_cases)))
        return 1
    return 0


def sphinx_html(ours_path, srcdir, outdir):
    """Our ids against the HTML sphinx-build wrote: each id of ours must
    be an anchor of the page, and each `<section id>` of the page one of
    ours. Prints the agreement."""
    import os
    from html.parser import HTMLParser

    class Ids(HTMLParser):
        def __init__(self):
            super().__init__()
            self.ids, self.sections = set(), []

        def handle_starttag(self, tag, attrs):
            for k, v in attrs:
                if k == "id" and v:
                    self.ids.add(v)
                    if tag == "section":
                        self.sections.append(v)

    with open(ours_path, encoding="utf-8") as f:
        ours = {os.path.relpath(o["path"], srcdir): o for o in map(json.loads, f)}
    found = missing = sections = unknown = pages = 0
    shown = 0
    for rel, o in sorted(ours.items()):
        html = os.path.join(outdir, rel[: -len(".rst")] + ".html")
        if rel.startswith("..") or not os.path.exists(html):
            continue
        p = Ids()
        with open(html, encoding="utf-8") as f:
            p.feed(f.read())
        pages += 1
        mine = set(o["sphinx_ids"])
        lost = sorted(mine - p.ids)
        extra = sorted(set(p.sections) - mine)
        found += len(mine) - len(lost)
        missing += len(lost)
        sections += len(p.sections)
        unknown += len(extra)
        if (lost or extra) and shown < 10:
            shown += 1
            print(f"{rel}: ours not in the HTML {lost[:5]}, "
                  f"HTML sections not ours {extra[:5]}")
    print(f"sphinx-build: {pages} pages; {found}/{found + missing} of our ids "
          f"are anchors of the HTML; {sections - unknown}/{sections} of its "
          f"section ids are ours")
    return 0


def main():
    register()
    args = sys.argv[1:]
    if args and args[0] == "--record":
        for path in args[1:]:
            out = expected(collect(path))
            with open(path[: -len(".rst")] + ".expected.json", "w") as f:
                json.dump(out, f, indent=1, ensure_ascii=False)
                f.write("\n")
        return
    if args and args[0] == "--sphinx-html":
        sys.exit(sphinx_html(*args[1:4]))
    if args and args[0] == "--compare":
        sys.exit(compare(args[1], args[2:]))
    for path in args:
        try:
            out = collect(path)
        except Exception as e:  # a file docutils cannot read is reported
            out = {"error": f"{type(e).__name__}: {e}"}
        out["path"] = path
        print(json.dumps(out, ensure_ascii=False))


if __name__ == "__main__":
    main()
