#!/usr/bin/env bash
# The GitHub Action's check step: annotations on standard output (GitHub
# reads them from the log), the Markdown report appended to
# $GITHUB_STEP_SUMMARY, the exit status in $GITHUB_OUTPUT. The inputs come
# as INPUT_ARGS, INPUT_FAIL, INPUT_CHANGED_ONLY and INPUT_SUMMARY.
set -uo pipefail

uriscan="${URISCAN:-uriscan}"
# The arguments split as xargs splits them: quotes honoured, nothing run.
mapfile -d '' args < <(printf '%s' "${INPUT_ARGS:-.}" | xargs printf '%s\0')

if [ "${INPUT_CHANGED_ONLY:-false}" = true ]; then
  base=""
  if [ -n "${GITHUB_BASE_REF:-}" ]; then
    # A pull request: what it changes against the point it left its base.
    git fetch --quiet --no-tags origin "$GITHUB_BASE_REF" 2>/dev/null || true
    for ref in "origin/$GITHUB_BASE_REF" FETCH_HEAD; do
      if base=$(git merge-base "$ref" HEAD 2>/dev/null); then break; fi
      base=""
    done
  elif [ -n "${UR_BEFORE:-}" ] && [ "${UR_BEFORE//0/}" != "" ]; then
    # A push: what its commits change.
    git cat-file -e "$UR_BEFORE^{commit}" 2>/dev/null && base="$UR_BEFORE"
  fi
  if [ -n "$base" ]; then
    args=(--changed-since "$base" "${args[@]}")
  else
    echo "uriscan: no base commit found; checking the whole tree"
  fi
fi

"$uriscan" check --no-progress --format github "${args[@]}"
code=$?

if [ "${INPUT_SUMMARY:-true}" = true ] && [ -n "${GITHUB_STEP_SUMMARY:-}" ] && [ "$code" -ne 2 ]; then
  "$uriscan" check --no-progress --format markdown "${args[@]}" >> "$GITHUB_STEP_SUMMARY"
fi

echo "exit-code=$code" >> "${GITHUB_OUTPUT:-/dev/null}"
if [ "$code" -eq 2 ]; then
  exit 2
fi
if [ "$code" -ne 0 ] && [ "${INPUT_FAIL:-true}" = true ]; then
  exit "$code"
fi
exit 0
