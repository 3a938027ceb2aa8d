#!/usr/bin/env bash
# The hooks of .pre-commit-hooks.yaml under the real pre-commit (pip), as
# a team would use them: a temporary git repository whose
# .pre-commit-config.yaml names this checkout as its hook repository (a
# local path works as `repo:`), with `pre-commit install`, then commits:
#
#   1. documents whose links hold: the commit is made;
#   2. a document with a broken link: the `uriscan` hook stops the commit;
#   3. a rename that breaks a link in a file the commit does not touch:
#      the `uriscan-changed` hook stops it.
#
# The hooks run the `uriscan` on PATH (language: system); this script
# builds it from this checkout first. pre-commit reads the hooks at the
# commit `rev:` names: HEAD of this checkout (commit your change to
# .pre-commit-hooks.yaml before you run it).
#
#   scripts/precommit-test.sh
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
venv="$root/target/precommit-venv"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

if [ ! -x "$venv/bin/pre-commit" ]; then
  echo "== pip install pre-commit into target/precommit-venv"
  "${PYTHON:-python3}" -m venv "$venv"
  "$venv/bin/pip" --disable-pip-version-check --quiet install "pre-commit>=3.5,<5"
fi
echo "== cargo build -p uriscan-cli"
cargo build --quiet -p uriscan-cli --manifest-path "$root/Cargo.toml"
export PATH="$root/target/debug:$venv/bin:$PATH"
# pre-commit's clones of hook repositories, kept out of the user's cache.
export PRE_COMMIT_HOME="$work/cache"

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

echo "== 1. a commit whose links hold is made"
printf '# Guide\n\nSee [the install](install.md#setup).\n' > guide.md
printf '# Install\n\n## Setup\n\nRun it.\n' > install.md
git add -A
git commit -q -m "docs" > "$work/out1" 2>&1 || { cat "$work/out1"; fail "a good commit was refused"; }
grep -q "uriscan check" "$work/out1" || { cat "$work/out1"; fail "the hook did not run"; }

echo "== 2. a broken link stops the commit"
printf 'See [the missing page](missing.md).\n' > broken.md
git add broken.md
if git commit -q -m "broken" > "$work/out2" 2>&1; then
  cat "$work/out2"; fail "a commit with a broken link was made"
fi
grep -q "broken.md:1:.*missing.md" "$work/out2" || { cat "$work/out2"; fail "the broken link was not reported"; }
git rm -q --cached broken.md
rm broken.md

echo "== 3. a rename that breaks an untouched file stops the commit"
git mv install.md setup.md
if git commit -q -m "rename" > "$work/out3" 2>&1; then
  cat "$work/out3"; fail "a rename that breaks guide.md was committed"
fi
grep -q "guide.md:3:.*install.md" "$work/out3" || { cat "$work/out3"; fail "the link broken by the rename was not reported"; }

echo "pre-commit hooks: 3 of 3 cases hold"
