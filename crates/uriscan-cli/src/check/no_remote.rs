//! The remote stage in a build without the `remote` feature: it checks
//! nothing, so the other stages need no `cfg`.

use indicatif::ProgressBar;
use uriscan::checking::Verdict;

use super::read::ReadDocs;
use crate::config::CheckConfig;
use crate::report::check::CheckReport;

/// The remote check of a run: always none.
pub struct RemoteStage;

impl RemoteStage {
    pub fn start(
        _cfg: &CheckConfig,
        _docs: &ReadDocs,
        _verdicts: &[Vec<Verdict>],
        _progress: Option<&ProgressBar>,
    ) -> anyhow::Result<RemoteStage> {
        Ok(RemoteStage)
    }

    pub fn report_link(
        &mut self,
        _report: &mut CheckReport<'_>,
        _docs: &ReadDocs,
        _di: usize,
        _li: usize,
    ) -> bool {
        false
    }

    pub fn stream_json(
        &mut self,
        _report: &mut CheckReport<'_>,
        _docs: &ReadDocs,
        _progress: Option<&ProgressBar>,
    ) -> anyhow::Result<bool> {
        Ok(true)
    }

    pub fn checked(&self) -> u64 {
        0
    }

    pub fn summary(&self) -> Option<String> {
        None
    }

    pub fn fails_run(&self) -> bool {
        false
    }
}
