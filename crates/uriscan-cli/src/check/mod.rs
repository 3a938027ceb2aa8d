//! `uriscan check`: the offline link check, and the remote one with
//! `--remote`, as named stages: [`plan`](plan::plan) the walker and the
//! checker, [`read`](read::read) every document into facts on the
//! walker's threads, [`check`] every link against the file system (each
//! target asked once), check the web links ([`RemoteStage`]), and
//! [`report`](report::report) in path order.

mod plan;
mod read;
#[cfg(feature = "remote")]
mod remote;
// The same stage with nothing to do, so that no other stage needs a cfg.
#[cfg(not(feature = "remote"))]
#[path = "no_remote.rs"]
mod remote;
mod report;

use uriscan::checking::{DocumentFacts, Verdict};

use crate::config::CheckConfig;
use plan::Plan;
use remote::RemoteStage;

/// Runs `uriscan check`; returns the exit code: 0 when every checked link
/// holds, 1 when some is broken, 2 when the run met an error.
pub fn run(cfg: CheckConfig) -> anyhow::Result<i32> {
    let plan = plan::plan(&cfg)?;
    let docs = read::read(&cfg, &plan);
    let verdicts = check(&plan, &docs.facts);
    let mut remote =
        RemoteStage::start(&cfg, &docs, &verdicts, plan.progress.as_ref())?;
    let Some(broken) =
        report::report(&cfg, &plan, &docs, &verdicts, &mut remote)?
    else {
        return Ok(2);
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

/// The check stage: every link of every document decided by the checker.
fn check(plan: &Plan, facts: &[DocumentFacts]) -> Vec<Vec<Verdict>> {
    if let Some(bar) = &plan.progress {
        let n: usize = facts.iter().map(|d| d.links().len()).sum();
        bar.set_message(format!("checking {n} links"));
    }
    plan.checker.check(&plan.table, facts)
}
