# Sourced by the bench scripts: sets `corpus` to the directory holding
# the shared corpus (prose.txt, markdown.md, html.html): $CORPUS, else
# ../shared/corpus beside the repository. Stops the script with a
# message when there is none. Expects `repo` set.
corpus=${CORPUS:-$repo/../shared/corpus}
if [[ -z $corpus || ! -f $corpus/prose.txt || ! -f $corpus/markdown.md \
      || ! -f $corpus/html.html ]]; then
  echo "$(basename "$0"): corpus not found (looked in ../shared/corpus" \
    "beside the repository; set CORPUS=DIR)" >&2
  exit 1
fi
corpus=$(cd "$corpus" && pwd)
