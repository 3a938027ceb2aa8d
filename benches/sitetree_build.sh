# Sourced by benches/sitetree.sh: `build_sitetree DIR` writes an MkDocs
# site into DIR (emptied first): DIR/mkdocs.yml (site_url
# https://docs.example.org/, directory URLs) and the pages of
# benches/mdtree_build.sh in DIR/docs, whose head links are rewritten
# into the URL shapes a site written with site URLs uses: a page's own
# relative URL (`../part-0007/`), a root-relative one with an anchor
# (`/part-0007/#part-7`), the site's own absolute URL
# (`https://docs.example.org/part-0007/`), and a missing page by its
# relative URL (`../missing-3/`). Expects `corpus` set (benches/corpus.sh).
build_sitetree() {
  local tree=$1
  # shellcheck source=benches/mdtree_build.sh
  source "$repo/benches/mdtree_build.sh"
  build_mdtree "$tree"
  printf 'site_name: sitetree\nsite_url: https://docs.example.org/\n' >"$tree/mkdocs.yml"
  # Only the head's lines (`- [part ...` and `- [a missing page]`).
  find "$tree/docs" -name 'part-*.md' -print0 | xargs -0 sed -i -E \
    -e '/^- \[part [0-9]+\]/{
          s#\[part ([0-9]+)\]\((part-[0-9]+)\.md\) and \[its heading\]\(part-[0-9]+\.md(\#part-[0-9]+)\)#[part \1](../\2/) and [its heading](/\2/\3) and [its URL](https://docs.example.org/\2/)#
        }' \
    -e 's#^- \[a missing page\]\(missing-([0-9]+)\.md\)#- [a missing page](../missing-\1/)#'
}
