# Sourced by the bench scripts: `build_mdtree DIR` writes the Markdown
# docs tree of benches/mdtree.sh into DIR/docs (emptied first):
# $corpus/markdown.md cut into about 2,300 files of 10 lines or more (at a
# blank line outside any code fence), each starting with a heading and
# links to three other files, to the heading of each, and to a file that
# does not exist.
# Expects `corpus` set (benches/corpus.sh).
build_mdtree() {
  local tree=$1
  rm -rf "$tree" && mkdir -p "$tree/docs"
  awk -v dir="$tree/docs" '
    BEGIN { n = 0; lines = 0; file = sprintf("%s/part-%04d.md", dir, n) }
    /^(```|~~~)/ { fence = !fence }
    !fence && /^$/ && lines >= 10 {
      close(file); n++; lines = 0; file = sprintf("%s/part-%04d.md", dir, n)
    }
    { print > file; lines++ }
  ' "$corpus/markdown.md"
  local files=("$tree"/docs/part-*.md)
  local n=${#files[@]} i j k t head
  for i in "${!files[@]}"; do
    head=$(mktemp)
    {
      # GitHub's anchor of this heading is part-I.
      printf '# Part %d\n\n' "$i"
      for k in 1 7 31; do
        j=$(( (i + k) % n ))
        t=$(basename "${files[$j]}")
        printf -- '- [part %d](%s) and [its heading](%s#part-%d)\n' "$j" "$t" "$t" "$j"
      done
      printf -- '- [a missing page](missing-%d.md)\n\n' "$i"
      cat "${files[$i]}"
    } > "$head"
    mv "$head" "${files[$i]}"
  done
}
