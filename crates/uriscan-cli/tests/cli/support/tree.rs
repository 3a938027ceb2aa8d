//! Building the trees the command-line tests run on.

use std::path::Path;

/// Writes `text` to `root/path`, making the directories on the way.
pub fn write(root: &Path, path: &str, text: &str) {
    let p = root.join(path);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, text).unwrap();
}
