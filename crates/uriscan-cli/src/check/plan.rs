//! The plan stage of `check`: the walker, the checker, the progress bar,
//! and where the run's errors are told.

use std::io::{self, IsTerminal as _, Write as _};
use std::sync::atomic::{AtomicBool, Ordering};

use indicatif::{ProgressBar, ProgressStyle};
use uriscan::checking::anchors::AnchorStyle;
use uriscan::checking::{Checker, CheckerBuilder};
use uriscan::walking::Walker;

use crate::config::CheckConfig;

/// What the stages after the plan share.
pub struct Plan {
    pub walker: Walker,
    pub checker: Checker,
    /// The checker's settings, for the one that knows the sites found.
    pub builder: CheckerBuilder,
    /// Whose anchors the documents outside every site have.
    pub anchors: AnchorStyle,
    /// The sites of the tree (`--site`).
    pub sites: super::site::SitePlan,
    /// A spinner on a terminal: documents read, then the check.
    pub progress: Option<ProgressBar>,
    pub errors: RunErrors,
    /// The Sphinx `conf.py` files the walk met, whose unread settings
    /// the report tells.
    pub sphinx_confs: std::sync::Mutex<Vec<std::path::PathBuf>>,
    /// How many files were checked only where other documents include
    /// them (AsciiDoc fragments), not alone: the summary says so.
    pub included_only: std::sync::atomic::AtomicUsize,
}

/// Whether the run met an error; each is told on standard error as it
/// comes, and makes the exit status 2.
#[derive(Default)]
pub struct RunErrors(AtomicBool);

impl RunErrors {
    /// Tells `msg` and remembers that the run failed.
    pub fn say(&self, msg: impl std::fmt::Display) {
        self.0.store(true, Ordering::Relaxed);
        let _ = writeln!(io::stderr().lock(), "uriscan: {msg}");
    }

    /// Whether any error was told.
    pub fn any(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}

/// Builds what the run needs from the configuration.
pub fn plan(cfg: &CheckConfig) -> anyhow::Result<Plan> {
    let walker = cfg.walker.build()?;
    let mut checker = Checker::builder();
    checker
        .index_files(cfg.index_files.clone())
        .fallback_extensions(cfg.fallback_extensions.clone())
        .fragments(cfg.fragments)
        .anchors(cfg.anchors)
        .allow_outside_root(cfg.allow_outside_root)
        .markdown_parser(cfg.markdown_parser);
    let sites = super::site::plan(cfg);
    let anchors = match sites.style {
        Some(style) if !cfg.anchors_given => style,
        _ => cfg.anchors,
    };
    checker.anchors(anchors);
    let builder = checker.clone();
    let checker = checker.build();
    let progress = (cfg.progress && io::stderr().is_terminal()).then(|| {
        let bar = ProgressBar::new_spinner();
        bar.set_style(
            ProgressStyle::with_template(
                "{spinner} {pos} documents read ({per_sec}) {msg}",
            )
            .unwrap_or_else(|_| ProgressStyle::default_spinner()),
        );
        bar.enable_steady_tick(std::time::Duration::from_millis(120));
        bar
    });
    Ok(Plan {
        walker,
        checker,
        builder,
        anchors,
        sites,
        progress,
        errors: RunErrors::default(),
        sphinx_confs: std::sync::Mutex::default(),
        included_only: std::sync::atomic::AtomicUsize::new(0),
    })
}
