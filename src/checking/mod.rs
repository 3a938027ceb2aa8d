//! Whether the links of a document resolve, offline: local files and the
//! fragments that point into them (issue 17, `uriscan check`). This layer
//! sits on [`links`](crate::links), which finds and resolves each link;
//! [`anchors`] computes the fragments a target document offers: heading
//! anchors by the rules of the renderer that will show it (GitHub,
//! GitLab, mdBook), explicit ids, and `id`/`name` in raw HTML.

pub mod anchors;
