//! `uriscan check`: the offline link check, and the remote one with
//! `--remote`, as named stages: [`plan`](plan::plan) the walker and the
//! checker, [`read`](read::read) every document into facts on the
//! walker's threads, [`check`] every link against the file system (each
//! target asked once), check the web links ([`RemoteStage`]), and
//! [`report`](report::report) in path order.

mod asciidoc;
mod included;
mod plan;
mod read;
#[cfg(feature = "remote")]
mod remote;
// The same stage with nothing to do, so that no other stage needs a cfg.
#[cfg(not(feature = "remote"))]
#[path = "no_remote.rs"]
mod remote;
mod report;
mod site;
mod spare;

use uriscan::checking::{Collector, Verdict};

use crate::config::CheckConfig;
use plan::Plan;
use remote::RemoteStage;
use report::Written;

/// Runs `uriscan check`; returns the exit code: 0 when every checked link
/// holds, 1 when some is broken, 2 when the run met an error.
pub fn run(cfg: CheckConfig) -> anyhow::Result<i32> {
    let plan = plan::plan(&cfg)?;
    let collector = read::read(&cfg, &plan);
    if let Some(sites) = &plan.sites.sites {
        for e in sites.errors() {
            plan.errors.say(e);
        }
    }
    let (docs, verdicts) = check(&plan, collector);
    let mut remote =
        RemoteStage::start(&cfg, &docs, &verdicts, plan.progress.as_ref())?;
    let broken =
        match report::report(&cfg, &plan, &docs, &verdicts, &mut remote)? {
            Written::All { broken } => broken,
            // As `links` does: the reader has what it wanted.
            Written::Closed => {
                return Ok(if plan.errors.any() { 2 } else { 0 });
            }
            Written::Failed => return Ok(2),
        };
    let failed = broken || remote.fails_run();
    // Millions of small allocations are about to go with the process:
    // freeing them one by one is a cost with no use.
    std::mem::forget(docs);
    std::mem::forget(verdicts);
    Ok(if plan.errors.any() {
        2
    } else if failed {
        1
    } else {
        0
    })
}

/// The check stage: every link of every document decided by the checker;
/// the documents in path order, with each one's verdicts.
fn check(
    plan: &Plan,
    collector: Collector<(std::path::PathBuf, read::KeptLinks)>,
) -> (read::ReadDocs, Vec<Vec<Verdict>>) {
    if let Some(bar) = &plan.progress {
        let n = collector.link_count();
        bar.set_message(format!("checking {n} links"));
    }
    // The sites met while reading decide their sources' anchors.
    let has_sites =
        plan.sites.sites.as_ref().is_some_and(|s| !s.sites().is_empty());
    let mut checked = if has_sites {
        collector
            .finish_with(&site::checker(&plan.builder, &plan.sites).build())
    } else {
        collector.finish()
    };
    in_path_order(&mut checked.documents, |d| &d.tag.0);
    let n = checked.documents.len();
    let (mut labels, mut kept) =
        (Vec::with_capacity(n), Vec::with_capacity(n));
    let mut verdicts = Vec::with_capacity(n);
    for d in &mut checked.documents {
        let (label, k) = std::mem::take(&mut d.tag);
        labels.push(label);
        kept.push(k);
        verdicts.push(std::mem::take(&mut d.verdicts));
    }
    (read::ReadDocs { labels, kept, checked }, verdicts)
}

/// Sorts `items` by their paths as `Path`'s order has them (component by
/// component), stably: each path split into its components once, rather
/// than at each of the sort's comparisons.
fn in_path_order<T>(
    items: &mut Vec<T>,
    path: impl Fn(&T) -> &std::path::Path,
) {
    let order: Vec<usize> = {
        let mut keyed: Vec<(Vec<std::path::Component<'_>>, usize)> = items
            .iter()
            .enumerate()
            .map(|(i, item)| (path(item).components().collect(), i))
            .collect();
        // The position breaks ties, as a stable sort keeps them.
        keyed.sort_unstable();
        keyed.into_iter().map(|(_, i)| i).collect()
    };
    let mut places: Vec<Option<T>> = items.drain(..).map(Some).collect();
    items.extend(order.iter().filter_map(|&i| places[i].take()));
}

#[cfg(test)]
mod tests {
    use std::path::{Path, PathBuf};

    proptest::proptest! {
        /// The order of `Path::cmp` and a stable sort's, on paths with
        /// empty, `.` and `..` components, trailing slashes and names
        /// that sort apart by bytes and by components (`a-b`, `a/b`).
        #[test]
        fn the_path_order_is_paths(
            paths in proptest::collection::vec("(/|\\./|\\.\\./)?([ab./-]{0,3}/?){0,4}", 0..40),
        ) {
            let mut items: Vec<(PathBuf, usize)> =
                paths.iter().map(PathBuf::from).zip(0..).collect();
            let mut expected = items.clone();
            expected.sort_by(|a, b| a.0.cmp(&b.0));
            super::in_path_order(&mut items, |(p, _)| p.as_path());
            proptest::prop_assert_eq!(items, expected);
        }
    }

    #[test]
    fn components_not_bytes() {
        let mut items =
            vec![Path::new("a-b"), Path::new("a/b"), Path::new("a//b/")];
        super::in_path_order(&mut items, |p| p);
        assert_eq!(
            items,
            [Path::new("a/b"), Path::new("a//b/"), Path::new("a-b")]
        );
    }
}
