# Sourced by the bench scripts: `build_mdtree DIR` writes the Markdown
# docs tree of benches/mdtree.sh into DIR/docs (emptied first):
# $corpus/markdown.md cut into files of about 40 lines or more (at a
# heading outside any code fence), each starting (where no construct of
# the corpus can swallow them) with an anchor and links to three other
# files, to the anchor of each, and to a file that does not exist.
# Expects `corpus` set (benches/corpus.sh).
build_mdtree() {
  local tree=$1
  rm -rf "$tree" && mkdir -p "$tree/docs"
  awk -v dir="$tree/docs" '
    BEGIN { n = 0; lines = 0; file = sprintf("%s/part-%04d.md", dir, n) }
    /^(```|~~~)/ { fence = !fence }
    !fence && /^#+ / && lines >= 40 {
      close(file); n++; lines = 0; file = sprintf("%s/part-%04d.md", dir, n)
    }
    { print > file; lines++ }
  ' "$corpus/markdown.md"
  local files=("$tree"/docs/part-*.md)
  local n=${#files[@]} i j k t head
  for i in "${!files[@]}"; do
    head=$(mktemp)
    {
      printf '<a name="top-%d"></a>\n\n' "$i"
      for k in 1 7 31; do
        j=$(( (i + k) % n ))
        t=$(basename "${files[$j]}")
        printf -- '- [part %d](%s) and [its top](%s#top-%d)\n' "$j" "$t" "$t" "$j"
      done
      printf -- '- [a missing page](missing-%d.md)\n\n' "$i"
      cat "${files[$i]}"
    } > "$head"
    mv "$head" "${files[$i]}"
  done
}
