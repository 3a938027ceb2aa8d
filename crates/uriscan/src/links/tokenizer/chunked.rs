//! The tokenizer fed in pieces, for a page read from the network as it
//! comes: what it has read is dropped, and only a piece of markup that
//! a chunk cut in two is kept for the next one.
//!
//! The tokenizer reads a whole input, and a state that meets the input's
//! end returns [`Next::Eof`] having told the sink nothing (a tag is told
//! at its `>`, the tree changes with it). So a step that meets the end of
//! what has come is run again, from where it began, once more has come:
//! [`Chunked::feed`] says how many bytes are done with. Where the step
//! began is narrowed to the markup that met the end: text before it is
//! skipped, and raw text and script data keep where they last were
//! between two of their pieces (`Tokenizer::text_at`).

use super::{
    IN_MARKUP, Next, ScriptState, StartTag, TagSink, TextState, Tokenizer,
    Tree,
};

/// Where a tokenizer fed in pieces stands between two pieces.
#[derive(Debug)]
pub(crate) struct Chunked {
    tree: Tree,
    end_name: Vec<u8>,
    state: Between,
}

/// The state the next piece starts in.
#[derive(Clone, Copy, Debug)]
enum Between {
    Data,
    Text(TextState),
    Script(ScriptState),
}

impl Default for Chunked {
    fn default() -> Self {
        Chunked {
            tree: Tree::new(true, false),
            end_name: vec![],
            state: Between::Data,
        }
    }
}

impl Chunked {
    /// Tokenizes `html`, the bytes kept from the last call followed by
    /// those that came since, telling `sink` of every start tag that
    /// ends in it; returns how many bytes at its start are done with.
    /// The caller drops those and passes the rest again, before what
    /// comes next. With `last`, `html` ends the input, and all of it is
    /// done with. Offsets given to `sink` are into this call's `html`.
    ///
    /// For sinks that want start tags only (no text runs, no style).
    pub(crate) fn feed<S: TagSink>(
        &mut self,
        html: &[u8],
        sink: &mut S,
        last: bool,
    ) -> usize {
        debug_assert!(!sink.wants_text() && !sink.wants_style());
        let tree = std::mem::replace(&mut self.tree, Tree::new(true, false));
        let mut t = Tokenizer {
            html,
            sink,
            tree,
            tag: StartTag::default(),
            end_name: std::mem::take(&mut self.end_name),
            text: false,
            mark: IN_MARKUP,
            text_at: (ScriptState::Data, 0),
        };
        let mut step = match self.state {
            Between::Data => Step::Data(0),
            Between::Text(s) => Step::of_text(s, 0),
            Between::Script(s) => Step::Script(s, 0),
        };
        let done = loop {
            let next = match step {
                Step::Data(at) => t.data(at),
                Step::Raw(at) => t.raw_text(at),
                Step::Script(s, at) => t.script(at, s),
                Step::Plain => Next::Eof,
            };
            step = match next {
                Next::Data(at) => Step::Data(at),
                Next::Text(s, at) => Step::of_text(s, at),
                Next::Eof => break step,
            };
        };
        // `done` met the end of what has come: where to go on from.
        let (state, at) = match done {
            Step::Data(at) => (Between::Data, pending_markup(html, at)),
            // RCDATA and raw text are read alike.
            Step::Raw(_) => (
                Between::Text(TextState::RawText),
                script_resume(html, t.text_at.1, ScriptState::Data),
            ),
            Step::Script(..) => {
                let (s, at) = t.text_at;
                (Between::Script(s), script_resume(html, at, s))
            }
            Step::Plain => (Between::Text(TextState::PlainText), html.len()),
        };
        self.state = state;
        self.tree = t.tree;
        self.end_name = t.end_name;
        if last { html.len() } else { at }
    }
}

/// One step of the tokenizer's loop, as `Tokenizer::run` takes them.
#[derive(Clone, Copy)]
enum Step {
    Data(usize),
    Raw(usize),
    Script(ScriptState, usize),
    Plain,
}

impl Step {
    fn of_text(s: TextState, at: usize) -> Step {
        match s {
            TextState::RcData | TextState::RawText => Step::Raw(at),
            TextState::ScriptData => Step::Script(ScriptState::Data, at),
            TextState::PlainText => Step::Plain,
        }
    }
}

/// Where the markup that met the end starts, the Data state being at
/// `at`: the first `<` that opens markup (as `Tokenizer::data` reads
/// them), or the end when none does.
fn pending_markup(html: &[u8], mut at: usize) -> usize {
    loop {
        let Some(i) = memchr::memchr(b'<', &html[at..]) else {
            return html.len();
        };
        let lt = at + i;
        match html.get(lt + 1) {
            Some(b'/') if html.get(lt + 2) == Some(&b'>') => at = lt + 3,
            Some(c)
                if !(c.is_ascii_alphabetic()
                    || matches!(c, b'/' | b'!' | b'?')) =>
            {
                at = lt + 1;
            }
            _ => return lt,
        }
    }
}

/// Where raw text, or script data in state `s`, at `at` goes on: the
/// first byte that its state reads for (what is before it is passed over
/// in any case).
fn script_resume(html: &[u8], at: usize, s: ScriptState) -> usize {
    let rest = &html[at..];
    let found = match s {
        ScriptState::Data => memchr::memchr(b'<', rest),
        ScriptState::Escaped | ScriptState::DoubleEscaped => {
            memchr::memchr2(b'-', b'<', rest)
        }
    };
    found.map_or(html.len(), |i| at + i)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::links::tokenizer::for_each_tag;

    /// Start tags and their `id`s.
    #[derive(Default)]
    struct Ids(Vec<(Vec<u8>, Option<Vec<u8>>)>);

    impl TagSink for Ids {
        fn start_tag(&mut self, tag: &StartTag) {
            let id = tag.attr(b"id").map(|a| a.value.clone());
            self.0.push((tag.name.clone(), id));
        }
        fn wants_value(&self, name: &[u8]) -> bool {
            name == b"id"
        }
    }

    /// What `html` tells a sink fed whole, and fed in pieces of `size`;
    /// and the most bytes kept between two pieces.
    fn whole_and_in_pieces(html: &[u8], size: usize) -> (Ids, Ids, usize) {
        let mut whole = Ids::default();
        for_each_tag(html, &mut whole);
        let mut pieces = Ids::default();
        let mut c = Chunked::default();
        let mut buf = vec![];
        let mut kept = 0;
        let mut chunks = html.chunks(size.max(1)).peekable();
        while let Some(chunk) = chunks.next() {
            buf.extend_from_slice(chunk);
            let last = chunks.peek().is_none();
            let done = c.feed(&buf, &mut pieces, last);
            buf.drain(..done);
            kept = kept.max(buf.len());
        }
        if html.is_empty() {
            c.feed(&[], &mut pieces, true);
        }
        (whole, pieces, kept)
    }

    fn assert_same_in_pieces(html: &[u8]) {
        for size in 1..=html.len().max(1) {
            let (whole, pieces, _) = whole_and_in_pieces(html, size);
            assert_eq!(
                whole.0,
                pieces.0,
                "{:?} in pieces of {size}",
                String::from_utf8_lossy(html)
            );
        }
    }

    #[test]
    fn every_cut_gives_the_same_tags() {
        for html in [
            &b"<p id=a>x</p><div id='b c'><a id=\"d\">"[..],
            b"a < b <!-- <p id=no> --> <p id=yes>",
            b"<!--> <p id=a> <!---> <p id=b> <!-- x --!> <p id=c>",
            b"<!DOCTYPE html><?php x ?></ ><p id=a></>",
            b"<title><p id=no></title><p id=yes>",
            b"<textarea></textare><p id=no></textarea x=1><p id=yes>",
            b"<style>a</style ><p id=yes>",
            b"<script>if (a<b) x = '</scrip'; </script><p id=yes>",
            b"<script><!-- <script> </script> <p id=no> --> </script><p id=yes>",
            b"<script><!--- x --><p id=no></script><p id=yes>",
            b"<script><!-- <script></script> --></script><p id=yes>",
            b"<svg><style><p id=a></style><![CDATA[<p id=no>]]></svg><p id=b>",
            b"<p id=\"a&amp;b\" title='>'><plaintext><p id=no>",
            b"<p id=a",
            b"<!-- never closed <p id=no>",
        ] {
            assert_same_in_pieces(html);
        }
    }

    proptest::proptest! {
        #[test]
        fn any_cut_gives_the_same_tags(
            html in "(<p id=[a-c]>|<p id='<a>'>|</script x='>'|<script>|</script>|<scrIpt |<!--|-->|<!-|--|<|>|</|<style>|</style>|<svg>|</svg>|<title>|</title>|[ a-c=\"'])*",
            size in 1usize..12,
        ) {
            let (whole, pieces, _) = whole_and_in_pieces(html.as_bytes(), size);
            proptest::prop_assert_eq!(whole.0, pieces.0);
        }
    }

    #[test]
    fn little_is_kept_between_pieces() {
        let mut page = b"<!doctype html><title>t</title><p id=start>".to_vec();
        for i in 0..2000 {
            page.extend_from_slice(
                format!(
                    "<p>text {i} &amp; a &lt; b</p><script>if (a < b) {{}} \
                     // <!-- x --></script><style>p {{}}</style>"
                )
                .as_bytes(),
            );
        }
        page.extend_from_slice(b"<p id=end>");
        let (whole, pieces, kept) = whole_and_in_pieces(&page, 4096);
        assert_eq!(whole.0, pieces.0);
        // A cut tag or construct, never the page.
        assert!(kept < 200, "{kept}");
        // Long script text without a tag is not kept either.
        let mut script = b"<script>".to_vec();
        script.extend(std::iter::repeat_n(b'x', 100_000));
        script.extend_from_slice(b"<!-- ");
        script.extend(std::iter::repeat_n(b'y', 100_000));
        script.extend_from_slice(b" --></script><p id=after>");
        let (whole, pieces, kept) = whole_and_in_pieces(&script, 1000);
        assert_eq!(whole.0, pieces.0);
        assert_eq!(pieces.0.last().unwrap().1.as_deref(), Some(&b"after"[..]));
        assert!(kept < 20, "{kept}");
    }
}
