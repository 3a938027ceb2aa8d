//! The 16 MiB page of the large-pages cases, shared by the remote tests
//! and `examples/slow_server.rs` (which includes this file by path), so
//! that the test and the bench serve the same bytes.

use bytes::Bytes;

/// A page of exactly 16 MiB with an id every KiB, `start` first and
/// `end` last; made once.
pub fn large_page() -> Bytes {
    static PAGE: std::sync::OnceLock<Bytes> = std::sync::OnceLock::new();
    PAGE.get_or_init(|| {
        let size = 16 << 20;
        let mut page = b"<!doctype html><h1 id=start>Start</h1>".to_vec();
        let end = b"<p id=end>The end</p>";
        let text = "Some text, & more. ".repeat(50);
        let mut i = 0;
        while page.len() + 1100 + end.len() < size {
            let p = format!("<p id=n{i} class=x>{text}</p>\n");
            page.extend_from_slice(p.as_bytes());
            i += 1;
        }
        page.resize(size - end.len(), b' ');
        page.extend_from_slice(end);
        Bytes::from(page)
    })
    .clone()
}
