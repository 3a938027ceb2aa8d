"""Holds uriscan's verdicts on a sample site's sources to two references:
(a) the generator's own broken-link messages, (b) `uriscan check` on the
HTML the generator built. Used by conformance.sh; prints each mismatch
and exits 1 when there is one.

    compare.py GENERATOR SAMPLE_DIR SOURCE_JSON HTML_JSON HTML_DIR [MESSAGES]
    compare.py jekyll-strip SAMPLE_COPY SOURCE_JSON
    compare.py docusaurus-strip SAMPLE_COPY SOURCE_JSON MESSAGES
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
    if sys.argv[1] == "jekyll-strip":
        return jekyll_strip(sys.argv[2], rows(sys.argv[3]))
    if sys.argv[1] == "docusaurus-strip":
        return docusaurus_strip(sys.argv[2], rows(sys.argv[3]), sys.argv[4])
    generator, sample, source_json, html_json, html_dir = sys.argv[1:6]
    messages = sys.argv[6] if len(sys.argv) > 6 else None
    failures = []
    source = rows(source_json)
    broken = [r for r in source if r["status"] == "broken"]
    if generator == "hugo":
        return hugo(sample, broken, rows(html_json), messages)
    if generator == "jekyll":
        return jekyll(broken, rows(html_json), messages, rows(sys.argv[7]))
    if generator == "docusaurus":
        return docusaurus(sample, source, rows(html_json), html_dir, messages)
    sources = {"mkdocs": "docs", "mdbook": "src"}[generator]

    # (b) Per page, the broken links of its source (but the site's own
    # absolute URLs, which the built page keeps absolute and no offline
    # check follows) number as many as the built page's.
    want = {}
    for r in broken:
        # A file a page includes is checked on that page (`via`).
        path = os.path.normpath(r.get("via") or r["path"])
        if r["kind"] == "site:nav" or r["link"].startswith(("http:", "https:")):
            continue
        # An include directive leaves no link in the built page.
        if r["kind"].startswith("mkdocs:"):
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
        # An included file's link, as the page holds it: by its target.
        said_targets = {}
        for m in re.finditer(
            r"Doc file '([^']+)' contains a link '([^']+)', but the (?:target|doc) '([^']+)'", text
        ):
            doc, link, target = m.groups()
            # MkDocs validates only links to sources; a `.html` link is a
            # site URL, which (b) holds to the built page.
            if link.split("#")[0].endswith(".md"):
                said.add((os.path.join(sources, doc), link))
                said_targets[(os.path.join(sources, doc), os.path.normpath(os.path.join(sources, target)))] = (
                    os.path.join(sources, doc), link)
        for m in re.finditer(r"A reference to '([^']+)' is included in the 'nav'", text):
            said.add(("mkdocs.yml", m.group(1)))
        # A link to a page exclude_docs leaves out: by its target.
        for m in re.finditer(
            r"Doc file '([^']+)' contains a link to '([^']+)' which is excluded", text
        ):
            doc, target = m.groups()
            said.add(("excluded", os.path.join(sources, doc), os.path.join(sources, target)))
        ours = set()
        for r in broken:
            path = os.path.normpath(r["path"])
            link = r["link"]
            if r["kind"].startswith("mkdocs:"):
                # An include is no link MkDocs validates.
                continue
            if r["kind"] != "site:nav" and not link.split("#")[0].endswith(".md"):
                continue
            if r["kind"] != "site:nav" and "excluded from the built site" in r.get("reason", ""):
                target = os.path.normpath(os.path.join(os.path.dirname(path), link.split("#")[0]))
                ours.add(("excluded", path, target))
                continue
            if r.get("via"):
                # Checked on the page that includes the file, whose
                # rewritten link MkDocs names.
                key = (os.path.normpath(r["via"]), os.path.normpath(r.get("local", "")))
                ours.add(said_targets.get(key, key))
            else:
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


def by_link(generator, broken, html, adjust=lambda r: r["link"]):
    """(b) link by link, for a generator that writes a page's links as
    the source wrote them (its own link syntax rewritten: `adjust` gives
    what the page holds instead, None where no offline check can say)."""
    def links(rs, of):
        out = []
        for r in rs:
            if r["status"] != "broken" or r["kind"] == "site:nav":
                continue
            link = of(r)
            if link is not None and not link.startswith(("http:", "https:")):
                out.append(link)
        return sorted(out)
    want, got = links(broken, adjust), links(html, lambda r: r["link"])
    print(f"{generator}: (b) {len(got)} broken in the built HTML, {len(want)} in the sources")
    if want != got:
        print(f"{generator}: MISMATCH (b) sources {want}, built HTML {got}")
        return False
    return True


def hugo(sample, broken, html, messages):
    """Hugo has no broken-link messages of its own but REF_NOT_FOUND: (a)
    each of them is a broken `ref` or `relref` of uriscan's, at the same
    line; (b) link by link, its shortcodes aside (Hugo writes their
    URLs, absolute for `ref`)."""
    said = set()
    for m in re.finditer(r'REF_NOT_FOUND: Ref "[^"]*": "([^"]+):(\d+):\d+"',
                         open(messages, encoding="utf-8").read()):
        path = os.path.relpath(m.group(1), sample)
        said.add((path, int(m.group(2))))
    ours = {
        (os.path.normpath(r["path"]), r["line"])
        for r in broken
        if r["kind"].startswith("hugo:") and r.get("reason", "").startswith("Hugo's")
    }
    ok = said == ours
    print(f"hugo: (a) {len(said)} REF_NOT_FOUND of Hugo held to uriscan's {len(ours)}")
    if not ok:
        print(f"hugo: MISMATCH (a) Hugo {sorted(said)}, uriscan {sorted(ours)}")
    # A ref to no page is written as refLinksNotFoundURL.
    not_found = [r for r in html if r["link"] == "/ref-not-found/"]
    if len(not_found) != len(said):
        ok = False
        print(f"hugo: MISMATCH (a) {len(not_found)} refs to no page in the built HTML")
    html = [r for r in html if r["link"] != "/ref-not-found/"]
    ok = by_link("hugo", broken, html,
                 lambda r: None if r["kind"].startswith("hugo:") else r["link"]) and ok
    sys.exit(0 if ok else 1)


def jekyll_tags(source):
    """uriscan's broken `link` and `post_url` tags."""
    return [
        r for r in source
        if r["status"] == "broken" and r["kind"] in ("jekyll:link", "jekyll:post_url")
    ]


def drop_lines(copy, rows):
    """Removes from the copy of the sample the line of each of uriscan's
    rows."""
    lines = {}
    for r in rows:
        lines.setdefault(os.path.normpath(r["path"]), set()).add(r["line"])
    for path, drop in lines.items():
        file = os.path.join(copy, path)
        with open(file, encoding="utf-8") as f:
            kept = [l for i, l in enumerate(f, 1) if i not in drop]
        with open(file, "w", encoding="utf-8") as f:
            f.writelines(kept)


def jekyll_strip(copy, source):
    """Removes from the copy of the sample the lines of uriscan's broken
    tags: what is left must build."""
    drop_lines(copy, jekyll_tags(source))
    sys.exit(0)


def jekyll(broken, html, messages, first_source):
    """(a) The tag Jekyll stopped at is one uriscan reports broken (the
    copy without uriscan's broken tags built, so no other tag is); (b)
    link by link on that copy, a `jekyll:url` as the page holds it, under
    the base URL."""
    text = open(messages, encoding="utf-8").read()
    m = re.search(r"Could not find (?:document|post) ['\"]([^'\"]+)['\"] in tag '(\w+)'", text)
    ours = {(r["kind"].split(":")[1], r["link"]) for r in jekyll_tags(first_source)}
    ok = True
    if m is None:
        ok = not ours
        if not ok:
            print(f"jekyll: MISMATCH (a) Jekyll built the sample, uriscan reports {sorted(ours)}")
    else:
        said = (m.group(2), m.group(1))
        ok = said in ours
        print(f"jekyll: (a) Jekyll stops at {said}, among uriscan's {len(ours)} broken tags")
        if not ok:
            print(f"jekyll: MISMATCH (a) Jekyll stops at {said}, uriscan reports {sorted(ours)}")

    def adjust(r):
        if r["kind"] == "jekyll:url":
            return "/blog" + r["link"]
        return None if r["kind"].startswith("jekyll:") or "{{" in r["link"] else r["link"]
    ok = by_link("jekyll", broken, html, adjust) and ok
    sys.exit(0 if ok else 1)


def docusaurus_strip(copy, source, messages):
    """A Docusaurus build that stopped: at the sidebars, its doc ids that
    name no doc are uriscan's broken sidebar entries; in the bundle, its
    modules not found are uriscan's broken imports and requires. Either
    way they are removed from the copy, which is built again."""
    text = open(messages, encoding="utf-8").read()
    broken = [r for r in source if r["status"] == "broken"]
    m = re.search(r"These sidebar document ids do not exist:\n((?:\s*- .+\n)+)", text)
    if m:
        said = sorted(set(re.findall(r"- (.+)", m.group(1))))
        ours = sorted({r["link"] for r in broken if r["kind"] == "site:nav"})
        print(f"docusaurus: (a) the sidebars' ids that name no doc: Docusaurus {said}")
        if said != ours:
            print(f"docusaurus: MISMATCH (a) Docusaurus {said}, uriscan {ours}")
            sys.exit(1)
        # The sidebars file as uriscan read it (its entries' path).
        named = {os.path.normpath(r["path"]) for r in broken if r["kind"] == "site:nav"}
        sidebars = os.path.join(copy, named.pop() if len(named) == 1 else "sidebars.json")
        if not sidebars.endswith(".json"):
            # JavaScript: each id's string is cut, with its comma (a
            # trailing comma is valid JavaScript).
            with open(sidebars, encoding="utf-8") as f:
                text = f.read()
            for i in said:
                text = re.sub(r"""(['"])%s\1\s*,?""" % re.escape(i), "", text)
            with open(sidebars, "w", encoding="utf-8") as f:
                f.write(text)
            sys.exit(0)
        with open(sidebars, encoding="utf-8") as f:
            tree = json.load(f)

        def keep(item):
            return not (item in said or isinstance(item, dict) and item.get("id") in said)

        def strip(node):
            if isinstance(node, list):
                return [strip(i) for i in node if keep(i)]
            if isinstance(node, dict):
                return {k: strip(v) for k, v in node.items()}
            return node
        with open(sidebars, "w", encoding="utf-8") as f:
            json.dump(strip(tree), f)
        sys.exit(0)
    found = re.findall(r"Module not found: Error: Can't resolve '([^']+)' in '([^']+)'", text)
    if found:
        said = sorted({(os.path.relpath(d, copy), link) for link, d in found})
        modules = [r for r in broken if r["kind"] in ("mdx:import", "mdx:require")]
        ours = sorted({(os.path.dirname(os.path.normpath(r["path"])), r["link"])
                       for r in modules})
        print(f"docusaurus: (a) the modules not found: Docusaurus {said}")
        if said != ours:
            print(f"docusaurus: MISMATCH (a) Docusaurus {said}, uriscan {ours}")
            sys.exit(1)
        drop_lines(copy, modules)
        sys.exit(0)
    print(text[-3000:])
    print("docusaurus: MISMATCH the build failed, for no reason uriscan models")
    sys.exit(1)


def docusaurus_pages(copy):
    """Each source's URL, from the metadata the build wrote in
    `.docusaurus/`: the generator's own URL rule."""
    urls = {}
    for folder, _, files in os.walk(os.path.join(copy, ".docusaurus")):
        for name in files:
            if not name.endswith(".json"):
                continue
            with open(os.path.join(folder, name), encoding="utf-8") as f:
                try:
                    data = json.load(f)
                except ValueError:
                    continue
            items = data if isinstance(data, list) else [data]
            for d in items:
                if (isinstance(d, dict) and isinstance(d.get("source"), str)
                        and d["source"].startswith("@site/") and "permalink" in d):
                    urls[d["source"][len("@site/"):]] = d["permalink"]
    return urls


def docusaurus(copy, source, html, html_dir, messages):
    """(a) link by link: Docusaurus' broken links, anchors and Markdown
    links (by the page's source, from the build's metadata; a link no
    source writes, such as the theme's, left out) are uriscan's broken
    links but the site's own absolute URLs, which Docusaurus does not
    check; (b) per page, as many broken links in the built HTML as in
    its source."""
    text = open(messages, encoding="utf-8").read()
    urls = docusaurus_pages(copy)
    # The pages plugin leaves no metadata for a Markdown page: its URL
    # is its path under src/pages.
    for r in source:
        path = os.path.normpath(r["path"])
        if path.startswith("src/pages/") and path not in urls:
            stem = os.path.splitext(path[len("src/pages/"):])[0]
            urls[path] = "/" + (stem[: -len("index")] if stem.endswith("index") else stem)
    source_of = {u.rstrip("/") or "/": p for p, u in urls.items()}
    written = {(os.path.normpath(r["path"]), r["link"]) for r in source}
    # Docusaurus rewrites a link to a Markdown source into the source's
    # URL before it checks it (from the linking file's folder, else from
    # the root of its docs folder): the link as written stands for it.
    as_written = {}
    for path, link in written:
        target, _, fragment = link.partition("#")
        if not target.endswith((".md", ".mdx")):
            continue
        for base in (os.path.dirname(path), path.split(os.sep)[0]):
            found = urls.get(os.path.normpath(os.path.join(base, target)))
            if found:
                url = found + ("#" + fragment if fragment else "")
                as_written[(path, url)] = (path, link)
                break
    said = set()
    for block in re.finditer(
        r"- Broken (?:link|anchor) on source page path = (\S+):\n((?:\s+-> .+\n)+)", text
    ):
        page = block.group(1).rstrip("/") or "/"
        for link in re.findall(r"-> linking to (.+?)(?: \(resolved as: .+\))?\n", block.group(2)):
            pair = (source_of.get(page, page), link)
            said.add(as_written.get(pair, pair))
    for link, path in re.findall(
        r"Markdown link with URL `([^`]+)` in source file \"([^\"]+)\"", text
    ):
        said.add((os.path.normpath(path), link))
    said = {s for s in said if s in written}
    ours = {
        (os.path.normpath(r["path"]), r["link"])
        for r in source
        if r["status"] == "broken"
        and r["kind"] not in ("site:nav", "mdx:import", "mdx:require")
        and not r["link"].startswith(("http:", "https:"))
    }
    ok = True
    for miss in sorted(said - ours):
        ok = False
        print(f"docusaurus: MISMATCH (a) Docusaurus reports {miss}, uriscan does not")
    for extra in sorted(ours - said):
        ok = False
        print(f"docusaurus: MISMATCH (a) uriscan reports {extra}, Docusaurus does not")
    print(f"docusaurus: (a) {len(said)} broken links of Docusaurus held to uriscan's {len(ours)}")

    def page_file(url):
        return os.path.join(url.strip("/"), "index.html") if url.strip("/") else "index.html"
    want = {}
    for path, _ in ours:
        if path in urls:
            page = page_file(urls[path])
            want[page] = want.get(page, 0) + 1
    pages = {page_file(u) for u in urls.values()}
    got = {}
    for r in html:
        page = os.path.relpath(os.path.normpath(r["path"]), html_dir)
        if r["status"] == "broken" and page in pages:
            got[page] = got.get(page, 0) + 1
    for page in sorted(set(want) | set(got)):
        if want.get(page, 0) != got.get(page, 0):
            ok = False
            print(f"docusaurus: MISMATCH (b) {page}: {want.get(page, 0)} broken in the "
                  f"sources, {got.get(page, 0)} in the built HTML")
    print(f"docusaurus: (b) {sum(got.values())} broken in the built HTML, "
          f"{sum(want.values())} in the sources")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
