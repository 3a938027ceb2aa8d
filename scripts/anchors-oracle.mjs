// The github-slugger part of scripts/anchors-oracle.sh: each `##` heading
// of a document through github-slugger (one slugger per page), on its
// text as remark reads it (for `github`, without raw HTML and image alt
// text, as GitHub's rendered heading has it). `docusaurus` adds what Docusaurus's heading
// plugin does (docusaurus-mdx-loader src/remark/headings/index.ts): the
// text leaves out html nodes but keeps alt text (toString's default), and an id parsed from a trailing `{#id}`
// (docusaurus-utils parseMarkdownHeadingId) is used as it is, not slugged.
import fs from 'node:fs';
import GithubSlugger from 'github-slugger';
import {fromMarkdown} from 'mdast-util-from-markdown';
import {toString} from 'mdast-util-to-string';
import {gfm} from 'micromark-extension-gfm';
import {gfmFromMarkdown} from 'mdast-util-gfm';
import {toHast} from 'mdast-util-to-hast';
import {toHtml} from 'hast-util-to-html';

const [style, docPath, notesPath] = process.argv.slice(2);
const customHeadingIdRegex = /\s*\{#(?<id>(?:.(?!\{#|\}))*.)\}$/;
const slugger = new GithubSlugger();
const parse = (src) =>
  fromMarkdown(src, {extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()]});
const out = [`#style\t${style}`];
const doc = fs.readFileSync(docPath, 'utf8');
const texts = fs.readFileSync(process.argv[5], 'utf8').replace(/\n$/, '').split('\n');
// The heading before each `row-N` marker paragraph.
let id = '(not a heading)';
for (const node of parse(doc).children) {
  if (node.type === 'heading') {
    if (style === 'docusaurus') {
      const kept = node.children.filter(({type}) => !['html', 'jsx'].includes(type));
      const text = toString(kept.length > 0 ? kept : node);
      const m = customHeadingIdRegex.exec(text);
      id = m ? m.groups.id : slugger.slug(text);
    } else {
      id = slugger.slug(toString(node, {includeHtml: false, includeImageAlt: false}));
    }
  } else if (node.type === 'paragraph' && toString(node).startsWith('row-')) {
    const n = Number(toString(node).slice(4));
    out.push(`${texts[n - 1]}\t${id || "(none)"}`);
    id = '(not a heading)';
  }
}
// Footnote ids as remark-rehype renders them (mdast-util-to-hast, with
// its default `user-content-` clobber prefix), which Docusaurus serves.
const page = toHtml(toHast(parse(fs.readFileSync(notesPath, 'utf8'))));
for (const m of page.matchAll(/ id="([^"]*)"/g)) out.push(`footnote\t${m[1]}`);
console.log(out.join('\n'));
