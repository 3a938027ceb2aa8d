#!/usr/bin/env bash
# The hooks of .pre-commit-hooks.yaml under the real pre-commit (pip), as
# a team would use them: a temporary git repository whose
# .pre-commit-config.yaml names this checkout as its hook repository (a
# local path works as `repo:`), with `pre-commit install`, then commits:
#
#   1. documents whose links hold (Markdown, reStructuredText, AsciiDoc):
#      the commit is made;
#   2. a Markdown and an AsciiDoc document with broken links: the
#      `uriscan` hook stops the commit and names both;
#   3. a rename that breaks a link in a file the commit does not touch:
#      the `uriscan-changed` hook stops it.
#
# The hooks are `language: rust`: pre-commit clones this checkout at the
# commit `rev:` names (HEAD: commit your change before you run this) and
# builds `uriscan` there with `cargo install --path .`, a release build.
# CARGO_TARGET_DIR points that build at this checkout's target/, so that
# it reuses the dependencies of any earlier release build (and of its own
# earlier runs) instead of a cold build in a temporary directory; only
# the workspace's own two crates are built again, since the clone's path
# is new each time. Like any `cargo install`, it resolves the
# dependencies afresh (crates.io index), not from Cargo.lock.
#
#   scripts/precommit-test.sh
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
venv="$root/target/precommit-venv"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
started=$SECONDS

if [ ! -x "$venv/bin/pre-commit" ]; then
  echo "== pip install pre-commit into target/precommit-venv"
  "${PYTHON:-python3}" -m venv "$venv"
  "$venv/bin/pip" --disable-pip-version-check --quiet install "pre-commit>=3.5,<5"
fi
export PATH="$venv/bin:$PATH"
# pre-commit's clones of hook repositories and their builds, kept out of
# the user's cache.
export PRE_COMMIT_HOME="$work/cache"
export CARGO_TARGET_DIR="$root/target"

rev="$(git -C "$root" rev-parse HEAD)"
repo="$work/docs"
mkdir -p "$repo"
cd "$repo"
git init -q -b main
git config user.email ci@example.invalid
git config user.name ci
git config commit.gpgsign false
cat > .pre-commit-config.yaml <<EOF
repos:
  - repo: $root
    rev: $rev
    hooks:
      - id: uriscan
      - id: uriscan-changed
EOF
pre-commit install >/dev/null

fail() { echo "FAIL: $*" >&2; exit 1; }

echo "== pre-commit install-hooks: cargo install --path . in its clone"
install_started=$SECONDS
pre-commit install-hooks > "$work/out0" 2>&1 || { cat "$work/out0"; fail "pre-commit could not build the hooks"; }
built=$(find "$PRE_COMMIT_HOME" -path '*/rustenv-*/bin/uriscan' -type f | head -n 1)
[ -n "$built" ] || fail "no uriscan built by language: rust under $PRE_COMMIT_HOME"
echo "   built $("$built" --version) in $((SECONDS - install_started)) s"

echo "== 1. a commit whose links hold is made"
printf '# Guide\n\nSee [the install](install.md#setup).\n' > guide.md
printf '# Install\n\n## Setup\n\nRun it.\n' > install.md
printf 'Notes\n=====\n\nSee `the guide <guide.md>`_.\n' > notes.rst
printf '= Manual\n\nSee link:guide.md[the guide] and <<usage>>.\n\n[[usage]]\n== Usage\n' > manual.adoc
git add -A
git commit -q -m "docs" > "$work/out1" 2>&1 || { cat "$work/out1"; fail "a good commit was refused"; }
grep -q "uriscan check" "$work/out1" || { cat "$work/out1"; fail "the hook did not run"; }

echo "== 2. broken links stop the commit"
printf 'See [the missing page](missing.md).\n' > broken.md
printf '= Broken\n\nSee <<nowhere>>.\n' > broken.adoc
git add broken.md broken.adoc
if git commit -q -m "broken" > "$work/out2" 2>&1; then
  cat "$work/out2"; fail "a commit with a broken link was made"
fi
grep -q "broken.md:1:.*missing.md" "$work/out2" || { cat "$work/out2"; fail "the broken link was not reported"; }
grep -q "broken.adoc:3:.*#nowhere" "$work/out2" || { cat "$work/out2"; fail "the AsciiDoc document was not checked"; }
git rm -q --cached broken.md broken.adoc
rm broken.md broken.adoc

echo "== 3. a rename that breaks an untouched file stops the commit"
git mv install.md setup.md
if git commit -q -m "rename" > "$work/out3" 2>&1; then
  cat "$work/out3"; fail "a rename that breaks guide.md was committed"
fi
grep -q "guide.md:3:.*install.md" "$work/out3" || { cat "$work/out3"; fail "the link broken by the rename was not reported"; }

echo "pre-commit hooks: 3 of 3 cases hold ($((SECONDS - started)) s)"
