#!/usr/bin/env bash
# The GitHub Action's install step: the release binary for this runner
# (named as .github/workflows/release.yml names it), else `cargo install`
# from the action's own source. The binary's directory goes on GITHUB_PATH.
set -euo pipefail

bin_dir="${RUNNER_TEMP:-/tmp}/uriscan-bin"
mkdir -p "$bin_dir"

case "${RUNNER_OS:-Linux}-${RUNNER_ARCH:-X64}" in
  Linux-X64) target=x86_64-unknown-linux-musl ;;
  Linux-ARM64) target=aarch64-unknown-linux-musl ;;
  macOS-X64) target=x86_64-apple-darwin ;;
  macOS-ARM64) target=aarch64-apple-darwin ;;
  Windows-X64) target=x86_64-pc-windows-msvc ;;
  *) target="" ;;
esac
archive="uriscan-$target.tar.gz"
[ "${RUNNER_OS:-}" = Windows ] && archive="uriscan-$target.zip"

fetched=false
if [ -n "$target" ] && [ -n "${UR_REPOSITORY:-}" ] && command -v gh >/dev/null; then
  tag=()
  [ "${UR_VERSION:-latest}" != latest ] && tag=("$UR_VERSION")
  if gh release download "${tag[@]}" --repo "$UR_REPOSITORY" \
      --pattern "$archive" --dir "$bin_dir" --clobber 2>/dev/null; then
    case "$archive" in
      *.zip) (cd "$bin_dir" && unzip -oq "$archive") ;;
      *) tar -xzf "$bin_dir/$archive" -C "$bin_dir" ;;
    esac
    fetched=true
  fi
fi

if [ "$fetched" = false ]; then
  echo "uriscan: no release binary for ${target:-this runner}; building it with cargo"
  cargo install --locked --root "$bin_dir/.." --path "$GITHUB_ACTION_PATH"
  bin_dir="$bin_dir/../bin"
fi

echo "$bin_dir" >> "${GITHUB_PATH:-/dev/null}"
"$bin_dir/uriscan" --version
