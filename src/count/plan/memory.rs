//! What a plan and its count take, estimated before anything big is
//! allocated: the plan's bytes without building it, a floor on a count's
//! bytes without building its plan, a count's bytes once it is built, and
//! the seconds the join's largest plans take to build.

use std::num::NonZeroUsize;

use super::planner::{Planner, resolve_split};
use super::{Body, Plan};
use crate::Error;
use crate::count::constellations::{self, Start};
use crate::count::join::{self, JoinPlan};
use crate::count::mirror::{self, WorkUnit};
use crate::count::{Engine, Shape};

impl Plan {
    /// The bytes [`Plan::new`] keeps for `shape`, estimated without
    /// building the plan: the mirror engine's units (counted, not made),
    /// or the join's jobs and the sizes of its quarter table's groups.
    /// Counting takes more: see [`count_memory`](Self::count_memory).
    ///
    /// # Errors
    /// As [`Plan::new`], but never [`Error::Memory`].
    pub fn memory_estimate(shape: Shape) -> Result<u64, Error> {
        let planner = Planner::from(shape.engine);
        let split = resolve_split(shape.n, planner, shape.split_depth)?;
        Self::memory_estimate_of(shape.n, planner, split)
    }

    /// [`memory_estimate`](Self::memory_estimate) of any planner's plan,
    /// checked, its split resolved (the mirror engine's; ignored by the
    /// others).
    pub(super) fn memory_estimate_of(n: u32, planner: Planner, split: u32) -> Result<u64, Error> {
        Ok(match planner {
            Planner::Constellations => {
                constellations::start_count(n) as u64 * size_of::<Start>() as u64
            }
            Planner::Mirror => {
                let units = mirror::unit_count(n, split) as u64;
                units * size_of::<WorkUnit>() as u64
            }
            Planner::Join(stage) => JoinPlan::plan_bytes(n, stage),
        })
    }

    /// A lower bound on [`count_memory`](Self::count_memory) of the plan
    /// [`Plan::new`] would build for `shape`, on `threads` threads, of
    /// `units` of its units (`None`: all), found without building it:
    /// milliseconds, where the join's plans of n = 25 to 28 take from
    /// seconds to minutes (its largest jobs are pinned, see
    /// [`Plan::planning_seconds`]). A count whose floor is above its memory
    /// limit can be refused before its plan is built, and is never one
    /// that the check after the plan would let through.
    ///
    /// # Errors
    /// As [`Plan::new`], but never [`Error::Memory`].
    pub fn count_memory_floor(
        shape: Shape,
        threads: usize,
        units: Option<usize>,
    ) -> Result<u64, Error> {
        let n = shape.n;
        let planner = Planner::from(shape.engine);
        let split = resolve_split(n, planner, shape.split_depth)?;
        let (plan, all, counting) = match planner {
            Planner::Constellations => {
                let starts = constellations::start_count(n);
                (starts as u64 * size_of::<Start>() as u64, starts, 0)
            }
            Planner::Mirror => {
                let count = mirror::unit_count(n, split);
                (count as u64 * size_of::<WorkUnit>() as u64, count, 0)
            }
            Planner::Join(stage) => (
                0,
                JoinPlan::jobs_in(n, stage),
                JoinPlan::count_bytes_floor(n, stage, threads),
            ),
        };
        let records = units.unwrap_or(all) as u64 * RECORD_BYTES;
        Ok(plan + records + counting)
    }

    /// About how many seconds [`Plan::new`] takes for `(n, engine)` on
    /// `threads` threads, where that is more than a second or so: the
    /// join's plans of n = 23 to 28 (n = 28: about 200 s on 2 threads),
    /// which compute every job's cost before the first unit can run.
    /// `None` for the plans that take less.
    #[must_use]
    pub fn planning_seconds(n: u32, engine: Engine, threads: usize) -> Option<f64> {
        join::sizes::planning_seconds(n, Planner::from(engine).stage()?, threads)
    }

    /// The bytes a count of `units` of its units takes on `threads`
    /// threads, the plan's own included: the join's quarter tables (built
    /// by the first unit that runs, 1.1 GB at n = 22; none from n = 24 on,
    /// where each job builds its slices) and each thread's buffers, and
    /// the runner's record of each unit.
    #[must_use]
    pub fn count_memory(&self, threads: usize, units: usize) -> u64 {
        let plan = match &self.body {
            Body::Mirror { units, .. } => (units.capacity() * size_of::<WorkUnit>()) as u64,
            Body::Join(join) => join.bytes(),
            Body::Constellations(starts) => (starts.capacity() * size_of::<Start>()) as u64,
            Body::Completion(plan) => size_of_val(plan.units()) as u64,
        };
        let records = units as u64 * RECORD_BYTES;
        let counting = match (&self.body, self.planner.stage()) {
            (Body::Join(join), Some(stage)) => {
                JoinPlan::table_bytes(self.n, stage) + threads as u64 * join.scratch_bytes()
            }
            _ => 0,
        };
        plan + records + counting
    }
}

/// Bytes the runner keeps for each unit of a count: its id twice (the
/// list asked for, the order by cost) and its `(id, count)` result, which
/// rayon's collect may hold twice.
const RECORD_BYTES: u64 = 2 * 4 + 2 * size_of::<(u32, u128)>() as u64;

/// The threads a count on `threads` (rayon's default when `None`) runs on,
/// for its memory estimate.
pub(crate) fn threads_of(threads: Option<NonZeroUsize>) -> usize {
    threads
        .or_else(|| std::thread::available_parallelism().ok())
        .map_or(1, NonZeroUsize::get)
}
