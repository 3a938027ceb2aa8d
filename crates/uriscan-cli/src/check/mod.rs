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
    checked.documents.sort_by(|a, b| a.tag.0.cmp(&b.tag.0));
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
