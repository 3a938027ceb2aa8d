"""Holds uriscan's verdicts on a sample site's sources to two references:
(a) the generator's own broken-link messages, (b) `uriscan check` on the
HTML the generator built. Used by conformance.sh; prints each mismatch
and exits 1 when there is one.

    compare.py GENERATOR SAMPLE_DIR SOURCE_JSON HTML_JSON HTML_DIR [MESSAGES]
"""

import json
import os
import re
import sys


def rows(path):
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def page_of(generator, src):
    """The built page (under the site's output folder) of a source path
    under the sources folder: the generator's URL rule."""
    stem, ext = os.path.splitext(src)
    if ext != ".md":
        return src
    head, name = os.path.split(stem)
    if generator == "mkdocs":
        if name in ("index", "README"):
            return os.path.join(head, "index.html")
        return os.path.join(stem, "index.html")
    if generator == "mdbook":
        if name == "README":
            return os.path.join(head, "index.html")
        return stem + ".html"
    raise SystemExit(f"no page rule for {generator}")


def main():
    generator, sample, source_json, html_json, html_dir = sys.argv[1:6]
    messages = sys.argv[6] if len(sys.argv) > 6 else None
    sources = {"mkdocs": "docs", "mdbook": "src", "hugo": "content"}[generator]
    failures = []
    source = rows(source_json)
    broken = [r for r in source if r["status"] == "broken"]
    if generator == "hugo":
        return hugo(broken, rows(html_json))

    # (b) Per page, the broken links of its source (but the site's own
    # absolute URLs, which the built page keeps absolute and no offline
    # check follows) number as many as the built page's.
    want = {}
    for r in broken:
        path = os.path.normpath(r["path"])
        if r["kind"] == "site:nav" or r["link"].startswith(("http:", "https:")):
            continue
        if not path.startswith(sources + os.sep):
            continue
        page = page_of(generator, os.path.relpath(path, sources))
        want[page] = want.get(page, 0) + 1
    # The pages the sources make (a theme's own pages, such as mdBook's
    # print.html and 404.html, are no source's).
    pages = {
        page_of(generator, os.path.relpath(os.path.normpath(r["path"]), sources))
        for r in source
        if os.path.normpath(r["path"]).startswith(sources + os.sep)
    }
    got = {}
    for r in rows(html_json):
        page = os.path.relpath(os.path.normpath(r["path"]), html_dir)
        if r["status"] != "broken" or page not in pages:
            continue
        got[page] = got.get(page, 0) + 1
    for page in sorted(set(want) | set(got)):
        if want.get(page, 0) != got.get(page, 0):
            failures.append(
                f"(b) {page}: {want.get(page, 0)} broken in the sources, "
                f"{got.get(page, 0)} in the built HTML"
            )

    # (a) The generator's own messages.
    if generator == "mkdocs" and messages:
        text = open(messages, encoding="utf-8").read()
        said = set()
        for m in re.finditer(
            r"Doc file '([^']+)' contains a link '([^']+)', but the (?:target|doc)", text
        ):
            doc, link = m.groups()
            # MkDocs validates only links to sources; a `.html` link is a
            # site URL, which (b) holds to the built page.
            if link.split("#")[0].endswith(".md"):
                said.add((os.path.join(sources, doc), link))
        for m in re.finditer(r"A reference to '([^']+)' is included in the 'nav'", text):
            said.add(("mkdocs.yml", m.group(1)))
        ours = set()
        for r in broken:
            path = os.path.normpath(r["path"])
            link = r["link"]
            if r["kind"] == "site:nav" or link.split("#")[0].endswith(".md"):
                ours.add((path, link))
        for miss in sorted(said - ours):
            failures.append(f"(a) MkDocs reports {miss}, uriscan does not")
        for extra in sorted(ours - said):
            failures.append(f"(a) uriscan reports {extra}, MkDocs does not")
        print(f"{generator}: (a) {len(said)} messages of MkDocs held to uriscan's")
    if generator == "mdbook":
        # mdBook renders no chapter that SUMMARY.md leaves out.
        for r in broken:
            if r.get("reason") == "not in SUMMARY.md":
                rel = os.path.relpath(
                    os.path.normpath(os.path.join(os.path.dirname(r["path"]), r["link"])),
                    sources,
                )
                if os.path.exists(os.path.join(html_dir, page_of("mdbook", rel))):
                    failures.append(f"(a) {rel}: not in SUMMARY.md, yet mdBook rendered it")
        print(f"{generator}: (a) the chapters left out of SUMMARY.md are not rendered")
    print(f"{generator}: (b) {sum(got.values())} broken in the built HTML, "
          f"{sum(want.values())} in the sources")
    for f in failures:
        print(f"{generator}: MISMATCH {f}")
    sys.exit(1 if failures else 0)


def hugo(broken, html):
    """Hugo writes a page's links as the source wrote them, and has no
    broken-link messages of its own: (b) alone, link by link."""
    def links(rs):
        return sorted(
            r["link"] for r in rs
            if r["status"] == "broken" and r["kind"] != "site:nav"
            and not r["link"].startswith(("http:", "https:"))
        )
    want, got = links(broken), links(html)
    print(f"hugo: (b) {len(got)} broken in the built HTML, {len(want)} in the sources")
    if want != got:
        print(f"hugo: MISMATCH (b) sources {want}, built HTML {got}")
        sys.exit(1)
    sys.exit(0)


if __name__ == "__main__":
    main()
