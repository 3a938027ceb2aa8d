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

What a Rust test compares (`--record`): `links`, the URIs of references
and images; `ids`; `sphinx`, the Sphinx references: each sorted.
"""

import json
import sys

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


def register():
    for r in SPHINX_ROLES:
        roles.register_local_role(r, sphinx_role)
    for r in ["class", "func", "meth", "mod", "attr", "exc", "data", "const", "obj", "any",
              "py:class", "py:func", "py:meth", "py:mod", "c:func", "c:macro"]:
        roles.register_local_role(r, domain_role)
    for d in ["toctree", "literalinclude", "include", "code-block", "sourcecode", "highlight",
              "versionadded", "versionchanged", "deprecated", "seealso", "glossary",
              "only", "index", "tabularcolumns", "productionlist", "autosummary"]:
        directives.register_directive(d, Stub)


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
    for path in args:
        try:
            out = collect(path)
        except Exception as e:  # a file docutils cannot read is reported
            out = {"error": f"{type(e).__name__}: {e}"}
        out["path"] = path
        print(json.dumps(out, ensure_ascii=False))


if __name__ == "__main__":
    main()
