//! `queens count N --shard I/K`: one array task of a run split across
//! machines. The library's shard task ([`queens::shard::Task`]) says which
//! units are its own, where its result and journal go, and writes the
//! result; this file builds its plan and turns refusals into exit codes.
//!
//! Shard files are read for `merge` and `verify` by the library's reader
//! ([`queens::shard::read`], [`queens::shard::gather`]), which checks
//! whatever a file says before it is believed.

use std::path::{Path, PathBuf};

use queens::shard::{PrepareError, Problem, Task};
use queens::{Plan, shard::ShardId};

use super::UsageError;

pub use queens::shard::read;

/// Plans shard `shard` of the plan of `shape` and decides whether it has work left.
/// Refuses (exit 2) a result file already in `out_dir` that is not this
/// shard's, rather than overwrite what may be someone's other run.
pub fn prepare(plan: Plan, shard: ShardId, out_dir: &Path) -> anyhow::Result<(Plan, Task)> {
    match Task::prepare(&plan, shard, out_dir) {
        Ok(task) => Ok((plan, task)),
        Err(directory @ PrepareError::Directory { .. }) => Err(anyhow::anyhow!(directory)),
        Err(foreign @ PrepareError::NotThisShard { .. }) => Err(UsageError(format!(
            "{foreign}; move it away or choose another --out-dir"
        ))
        .into()),
        Err(other) => Err(UsageError(other.to_string()).into()),
    }
}

/// The shard files `paths` name ([`queens::shard::gather`]); a directory
/// without any is refused (exit 2).
pub fn gather(paths: &[PathBuf]) -> anyhow::Result<Vec<PathBuf>> {
    queens::shard::gather(paths).map_err(|why| UsageError(why).into())
}

/// A merge's problem as the user reads it: missing shards with the
/// command that reruns them, as a SLURM user pastes it.
pub fn problem_line(problem: &Problem) -> String {
    match problem {
        Problem::Missing {
            missing,
            shards,
            units,
        } => format!(
            "{} of {shards} shard(s) missing ({units} unit(s)): rerun them, e.g. sbatch \
             --array={}",
            missing.len(),
            queens::shard::ranges(missing)
        ),
        other => other.to_string(),
    }
}
