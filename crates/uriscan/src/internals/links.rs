//! Hooks into [`crate::links`]: the floors of the links bench (each a
//! part of extraction alone) and the differential tests of the fuzz
//! targets.

pub use crate::links::hooks::{
    count_link_concatenated, count_link_handed_out, count_link_targets,
    count_link_values, count_markdown_events, count_markdown_items,
    count_start_tags, differential, markdown_decline, markdown_differential,
    markdown_pages, shortcut_differential,
};

/// The reStructuredText reader's facts of a document, as the oracle
/// script (`scripts/rst_oracle.py`) records docutils': links, ids and
/// Sphinx references, each sorted.
pub use crate::links::rst_hooks::facts as rst_facts;

/// The anchors of a reStructuredText document, ids made for want of a
/// name as Sphinx makes them (`true`) or as docutils does.
pub use crate::links::rst_hooks::anchors as rst_anchors;

/// The MyST reader's facts of a document, as the oracle script
/// (`scripts/myst_oracle.py`) records myst-parser's: links as
/// `kind:link`, labels and ids, each sorted.
pub use crate::links::myst_hooks::facts as myst_facts;
