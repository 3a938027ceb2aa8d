//! The reStructuredText reader's facts of each file named, one JSON
//! object a line, in the shape `scripts/rst_oracle.py` gives docutils'
//! (`scripts/rst-oracle.sh` compares the two); for a `.md` file, the
//! MyST reader's, in the shape of `scripts/myst_oracle.py`
//! (`scripts/myst-oracle.sh`).
//!
//!     cargo run -p uriscan --features internals --example rst_facts -- FILE...

fn main() {
    for path in std::env::args().skip(1) {
        let bytes = match std::fs::read(&path) {
            Ok(b) => b,
            Err(e) => {
                eprintln!("{path}: {e}");
                continue;
            }
        };
        let text = String::from_utf8_lossy(&bytes);
        if path.ends_with(".md") {
            // A case directory's `_conf.py` adds to the oracle's conf.py.
            let conf = std::path::Path::new(&path).with_file_name("_conf.py");
            let conf = std::fs::read_to_string(conf).unwrap_or_default();
            let (links, labels, ids) =
                uriscan::internals::links::myst_facts(&text, &conf);
            let line = serde_json::json!({
                "path": path, "links": links, "labels": labels, "ids": ids,
            });
            println!("{line}");
            continue;
        }
        let (links, ids, sphinx) = uriscan::internals::links::rst_facts(&text);
        let sphinx_ids = uriscan::internals::links::rst_anchors(&text, true);
        let line = serde_json::json!({
            "path": path, "links": links, "ids": ids, "sphinx": sphinx,
            "sphinx_ids": sphinx_ids,
        });
        println!("{line}");
    }
}
