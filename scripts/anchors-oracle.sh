#!/usr/bin/env bash
# Regenerates crates/uriscan/tests/data/anchors/<style>.tsv: the id each
# site generator gives the headings of headings.txt (one document, each
# line a `## ` heading, in order so duplicates count), as the real tools
# render them. Tools are installed under target/oracle (pip venvs, npm);
# Hugo and kramdown come from Debian. A tool that cannot be had is
# reported as "skipped: REASON" and its files are left as they are.
#
# The versions the data was recorded with: Python-Markdown 3.11.3,
# pymdown-extensions 13.1.2 and 9.11 (pinned below), github-slugger
# 2.0.0 with remark's mdast 2.1.0 (pinned), Hugo 0.111.3 and kramdown
# 2.4.0 with kramdown-parser-gfm 1.1.0 (Debian 12); the script prints
# the Hugo and kramdown it finds.
#
# Each TSV starts with `#style` and the style's settings (read by the Rust
# test), then `heading<TAB>id` rows (`(none)` when the heading got no id),
# then `footnote<TAB>id` rows: every id of footnotes.md as rendered.
set -u
cd "$(dirname "$0")/.."
data=crates/uriscan/tests/data/anchors
work=target/oracle
mkdir -p "$work"
headings="$data/headings.txt"
footnotes="$data/footnotes.md"
doc="$work/headings.md"
# Each heading is followed by a marker paragraph `row-N`, so a heading
# that a renderer does not take as one (kramdown's empty `##`) shows.
awk '{ printf "## %s\n\nrow-%d\n\n", $0, NR }' "$headings" > "$doc"

# Python-Markdown (MkDocs): toc + attr_list + footnotes, as mkdocs.yml
# enables them, with each slugify MkDocs sites configure.
python_oracle() { # venv pip-spec
  local venv=$1 spec=$2
  { [ -x "$venv/bin/python" ] || python3 -m venv "$venv"; } &&
    "$venv/bin/pip" install -q $spec >/dev/null 2>&1 \
    || { echo "skipped: pip install $spec failed"; return 1; }
}
mkdocs_run() { # venv out slugify [kw=value...]
  local venv=$1 out=$2 name=$3; shift 3
  "$venv/bin/python" - "$doc" "$footnotes" "$work/m.html" "$work/mf.html" "$name" "$@" <<'PY'
import importlib, sys
import markdown
doc, notes, page, notes_page, name, *kw = sys.argv[1:]
kwds = dict(k.split('=', 1) for k in kw)
cfg = {}
if name != '-':
    module, func = name.rsplit('.', 1)
    f = getattr(importlib.import_module(module), func)
    if func == 'slugify' and module == 'pymdownx.slugs':
        f = f(**{k: (v == 'true' if k == 'percent_encode' else v) for k, v in kwds.items()})
    cfg['slugify'] = f
for src, dst in [(doc, page), (notes, notes_page)]:
    out = markdown.markdown(open(src, encoding='utf-8').read(),
                            extensions=['toc', 'attr_list', 'footnotes'],
                            extension_configs={'toc': cfg})
    open(dst, 'w', encoding='utf-8').write(out)
PY
  python3 scripts/anchors-oracle-ids.py "mkdocs\t$name\t$*" "$headings" \
    "$work/m.html" "$work/mf.html" > "$data/$out"
}
venv=$work/venv
if python_oracle "$venv" "markdown==3.11.3 pymdown-extensions==13.1.2"; then
  mkdocs_run "$venv" mkdocs.tsv -
  mkdocs_run "$venv" mkdocs-toc-unicode.tsv markdown.extensions.toc.slugify_unicode
  mkdocs_run "$venv" mkdocs-slugs.tsv pymdownx.slugs.slugify
  mkdocs_run "$venv" mkdocs-slugs-lower.tsv pymdownx.slugs.slugify case=lower
  mkdocs_run "$venv" mkdocs-slugs-lower-ascii.tsv pymdownx.slugs.slugify case=lower-ascii
  mkdocs_run "$venv" mkdocs-slugs-fold.tsv pymdownx.slugs.slugify case=fold
  mkdocs_run "$venv" mkdocs-slugs-lower-encoded.tsv pymdownx.slugs.slugify case=lower percent_encode=true
  mkdocs_run "$venv" mkdocs-slugs-nfkd.tsv pymdownx.slugs.slugify case=lower normalize=NFKD
fi
# The slugify functions pymdown-extensions 10 removed, still named in
# older mkdocs.yml files.
venv9=$work/venv9
if python_oracle "$venv9" "markdown==3.11.3 pymdown-extensions==9.11"; then
  for f in uslugify uslugify_encoded uslugify_cased uslugify_cased_encoded gfm gfm_encoded; do
    mkdocs_run "$venv9" "mkdocs-$f.tsv" "pymdownx.slugs.$f"
  done
fi

# github-slugger (GitHub's rule, and Docusaurus's) on the text of each
# heading as remark reads it (mdast-util-to-string; for GitHub raw HTML
# and an image's alt text left out, as GitHub's rendered text has them). Docusaurus's heading plugin
# (docusaurus-mdx-loader src/remark/headings/index.ts) is reproduced
# around it: its {#id} parse and its one slugger per page.
npm_dir=$work/npm
if [ ! -d "$npm_dir/node_modules/hast-util-to-html" ]; then
  mkdir -p "$npm_dir" && (cd "$npm_dir" && npm init -y >/dev/null &&
    npm install -q github-slugger@2.0.0 mdast-util-from-markdown@2.1.0 \
      mdast-util-to-string@4.0.0 micromark-extension-gfm@3.0.0 \
      mdast-util-gfm@3.1.0 mdast-util-to-hast@13.2.2 \
      hast-util-to-html@9.0.6 >/dev/null 2>&1) \
    || echo "skipped: npm install github-slugger failed"
fi
if [ -d "$npm_dir/node_modules/hast-util-to-html" ]; then
  cp scripts/anchors-oracle.mjs "$npm_dir/oracle.mjs"
  for style in github docusaurus; do
    node "$npm_dir/oracle.mjs" "$style" "$doc" "$footnotes" "$headings" > "$data/$style.tsv"
  done
fi

# Hugo (goldmark): a one-page site per autoHeadingIDType.
if command -v hugo >/dev/null || apt-get install -y -q hugo >/dev/null 2>&1; then
  hugo version
  for t in github github-ascii blackfriday; do
    site=$work/hugo-$t
    rm -rf "$site"; mkdir -p "$site/content" "$site/layouts/_default"
    printf 'baseURL = "http://example.org/"\ndisableKinds = ["taxonomy", "term", "RSS", "sitemap"]\n[markup.goldmark.parser]\nautoHeadingIDType = "%s"\n' "$t" > "$site/config.toml"
    echo '{{ .Content }}' > "$site/layouts/_default/single.html"
    echo '{{ .Content }}' > "$site/layouts/_default/list.html"
    { printf -- '---\ntitle: p\n---\n'; cat "$doc"; } > "$site/content/p.md"
    { printf -- '---\ntitle: f\n---\n'; cat "$footnotes"; } > "$site/content/f.md"
    hugo --quiet -s "$site" >/dev/null || { echo "skipped: hugo build failed"; continue; }
    python3 scripts/anchors-oracle-ids.py "hugo\t$t" "$headings" \
      "$site/public/p/index.html" "$site/public/f/index.html" > "$data/hugo-$t.tsv"
  done
else
  echo "skipped: hugo is not installed (Debian package hugo)"
fi

# kramdown (Jekyll): GFM input is Jekyll's default, kramdown's own input
# the other choice; Jekyll's default kramdown options.
if ruby -e 'require "kramdown"; require "kramdown-parser-gfm"' 2>/dev/null ||
   apt-get install -y -q ruby-kramdown ruby-kramdown-parser-gfm >/dev/null 2>&1; then
  ruby -e 'require "kramdown"; require "kramdown-parser-gfm"
    puts "kramdown #{Kramdown::VERSION}, kramdown-parser-gfm #{Kramdown::Parser::GFM::VERSION}"'
  kramdown_run() { # out input prefix stripping
    ruby -e '
      require "kramdown"; require "kramdown-parser-gfm"
      input, prefix, strip, doc, notes, page, notes_page = ARGV
      opts = {input: input, auto_ids: true, auto_id_prefix: prefix == "-" ? "" : prefix,
              auto_id_stripping: strip == "true", entity_output: :as_char,
              smart_quotes: "lsquo,rsquo,ldquo,rdquo", hard_wrap: false,
              footnote_nr: 1}
      File.write(page, Kramdown::Document.new(File.read(doc), opts).to_html)
      File.write(notes_page, Kramdown::Document.new(File.read(notes), opts).to_html)
    ' "$2" "$3" "$4" "$doc" "$footnotes" "$work/k.html" "$work/kf.html"
    python3 scripts/anchors-oracle-ids.py "jekyll\t$2\t$3\t$4" "$headings" \
      "$work/k.html" "$work/kf.html" > "$data/$1"
  }
  kramdown_run jekyll.tsv GFM "-" false
  kramdown_run jekyll-prefix.tsv GFM "sec-" false
  kramdown_run jekyll-stripping.tsv GFM "-" true
  kramdown_run kramdown.tsv kramdown "-" false
  kramdown_run kramdown-stripping.tsv kramdown "-" true
else
  echo "skipped: kramdown is not installed (Debian ruby-kramdown, ruby-kramdown-parser-gfm)"
fi
