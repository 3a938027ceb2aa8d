//! The lines that comments in a document leave unchecked.

/// The lines that `<!-- uriscan-disable -->` … `<!-- uriscan-enable -->`
/// and `<!-- uriscan-disable-next-line -->` comments leave unchecked, in
/// Markdown and HTML alike (both keep HTML comments). A disable without
/// an enable runs to the end of the document.
///
/// ```
/// use uriscan::checking::disabled_lines;
/// let doc = b"a\n<!-- uriscan-disable-next-line -->\nb\n<!-- uriscan-disable -->\nc\nd\n<!-- uriscan-enable -->\ne\n";
/// assert_eq!(disabled_lines(doc), [3..=3, 4..=7]);
/// ```
pub fn disabled_lines(src: &[u8]) -> Vec<std::ops::RangeInclusive<u64>> {
    let mut out = vec![];
    let mut open: Option<u64> = None;
    let mut line = 1u64;
    let mut at = 0;
    let finder = memchr::memmem::Finder::new(b"<!--");
    while let Some(i) = finder.find(&src[at..]) {
        let start = at + i;
        line += memchr::memchr_iter(b'\n', &src[at..start]).count() as u64;
        let end = memchr::memmem::find(&src[start..], b"-->")
            .map_or(src.len(), |e| start + e + 3);
        let body =
            src[start + 4..end.saturating_sub(3).max(start + 4)].trim_ascii();
        match body {
            b"uriscan-disable-next-line" => out.push(line + 1..=line + 1),
            b"uriscan-disable" => {
                open.get_or_insert(line);
            }
            b"uriscan-enable" => {
                if let Some(o) = open.take() {
                    out.push(o..=line);
                }
            }
            _ => {}
        }
        line += memchr::memchr_iter(b'\n', &src[start..end]).count() as u64;
        at = end;
    }
    if let Some(o) = open {
        out.push(o..=u64::MAX);
    }
    out
}
