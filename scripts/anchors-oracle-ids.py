"""Writes a TSV of scripts/anchors-oracle.sh from rendered pages: the
`#style` line, the id of each heading of headings.txt (the `h2` before
its `row-N` marker paragraph: `(none)` when it has no id, `(not a
heading)` when the renderer made none), then every id of the footnotes
page."""
import html.parser
import sys

style, headings, page, notes = sys.argv[1:]


class Ids(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.all, self.rows, self.h2, self.in_p = [], {}, None, False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if a.get('id') is not None:
            self.all.append(a['id'])
        if tag == 'h2':
            self.h2 = a.get('id') or '(none)'
        self.in_p = tag == 'p'

    def handle_data(self, data):
        if self.in_p and data.startswith('row-'):
            self.rows[int(data[4:])] = self.h2 or '(not a heading)'
            self.h2 = None
        self.in_p = False


def read(path):
    p = Ids()
    p.feed(open(path, encoding='utf-8').read())
    return p


texts = open(headings, encoding='utf-8').read().rstrip('\n').split('\n')
print('#style\t' + '\t'.join(style.replace('\\t', '\t').split('\t')).rstrip('\t'))
rows = read(page).rows
for n, text in enumerate(texts, 1):
    print('%s\t%s' % (text, rows.get(n, '(missing)')))
for id in read(notes).all:
    print('footnote\t%s' % id)
