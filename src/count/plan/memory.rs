//! What a plan and its count take, estimated before anything big is
//! allocated: the plan's bytes without building it, a floor on a count's
//! bytes without building its plan, a count's bytes once it is built, and
//! the seconds the join's largest plans take to build.

use std::num::NonZeroUsize;

use super::planner::{Planner, resolve_split};
use super::{Body, Plan};
use crate::Error;
use crate::count::constellations::{self, Start};
use crate::count::join::scratch::{CHUNK_LOG, MIN_CHUNK_LOG};
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
        Ok(Self::count_memory_floor_parts(shape, threads, units)?.total())
    }

    /// [`count_memory_floor`](Self::count_memory_floor), split into what
    /// the process takes once and each thread (the join's, in its smallest
    /// chunks).
    pub(crate) fn count_memory_floor_parts(
        shape: Shape,
        threads: usize,
        units: Option<usize>,
    ) -> Result<CountMemory, Error> {
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
            Planner::Join(stage) => {
                let one = JoinPlan::count_bytes_floor(n, stage, 1);
                let two = JoinPlan::count_bytes_floor(n, stage, 2);
                (one - (two - one), JoinPlan::jobs_in(n, stage), two - one)
            }
        };
        let records = units.unwrap_or(all) as u64 * RECORD_BYTES;
        let chunk_log = (planner.stage().is_some()).then_some(MIN_CHUNK_LOG);
        Ok(CountMemory {
            once: plan + records,
            per_thread: counting,
            threads,
            chunk_log,
        })
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
    /// where each job builds its slices) and each thread's buffers in the
    /// largest chunks, the fastest (see [`count_memory_in`](Self::count_memory_in)), and
    /// the runner's record of each unit.
    #[must_use]
    pub fn count_memory(&self, threads: usize, units: usize) -> u64 {
        self.count_memory_in(threads, units, None).total()
    }

    /// What a count of `units` of its units takes on `threads` threads,
    /// once and on each thread, where it must fit in `limit` bytes
    /// (`None`: anywhere): the join counts in the largest chunks that fit
    /// (2^27 words down to 2^22: the same count, the biggest units of
    /// n = 26 to 28 slower in smaller ones), or, where none fits, the
    /// smallest, which is then what it needs.
    #[must_use]
    pub fn count_memory_in(&self, threads: usize, units: usize, limit: Option<u64>) -> CountMemory {
        let plan = match &self.body {
            Body::Mirror { units, .. } => (units.capacity() * size_of::<WorkUnit>()) as u64,
            Body::Join(join) => join.bytes(),
            Body::Constellations(starts) => (starts.capacity() * size_of::<Start>()) as u64,
            Body::Completion(plan) => size_of_val(plan.units()) as u64,
        };
        let once = plan + units as u64 * RECORD_BYTES;
        let (Body::Join(join), Some(stage)) = (&self.body, self.planner.stage()) else {
            return CountMemory {
                once,
                per_thread: 0,
                threads,
                chunk_log: None,
            };
        };
        let once = once + JoinPlan::table_bytes(self.n, stage);
        let at = |chunk_log| CountMemory {
            once,
            per_thread: join.scratch_bytes_at(chunk_log),
            threads,
            chunk_log: Some(chunk_log),
        };
        (MIN_CHUNK_LOG..=CHUNK_LOG)
            .rev()
            .map(at)
            .find(|memory| limit.is_none_or(|limit| memory.total() <= limit))
            .unwrap_or_else(|| at(MIN_CHUNK_LOG))
    }
}

/// What a count takes in memory: what the process holds once (the plan,
/// the runner's records, the join's whole tables) and what each thread
/// holds (its buffers), on how many threads; for the join, the chunks its
/// threads count in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct CountMemory {
    /// Bytes held once, whatever the threads.
    pub once: u64,
    /// Bytes each thread holds.
    pub per_thread: u64,
    /// The threads.
    pub threads: usize,
    /// The join's chunks, `1 << chunk_log` words a side at most
    /// (`None` for the other engines).
    pub chunk_log: Option<u32>,
}

impl CountMemory {
    /// All of it: once, and each thread's.
    #[must_use]
    pub fn total(&self) -> u64 {
        self.once + self.threads as u64 * self.per_thread
    }

    /// Whether the join counts in chunks smaller than its fastest, to fit.
    #[must_use]
    pub fn chunks_reduced(&self) -> bool {
        self.chunk_log.is_some_and(|log| log < CHUNK_LOG)
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Config;

    /// A count takes the largest chunks whose estimate fits under the
    /// limit, each in its turn, and the smallest where none fits (then
    /// above the limit: the runner refuses it); without a limit, the
    /// largest. n = 24: its largest job has 2^24.4 right candidates, so
    /// every size of chunk takes another figure.
    #[test]
    fn a_count_takes_the_largest_chunks_that_fit() {
        let plan = Plan::new(Shape::new(24, Engine::Join, None), &Config::default()).unwrap();
        let (threads, units) = (3, plan.len());
        let fastest = plan.count_memory_in(threads, units, None);
        assert_eq!(fastest.chunk_log, Some(CHUNK_LOG));
        assert!(!fastest.chunks_reduced());
        assert_eq!(fastest.total(), plan.count_memory(threads, units));
        let Body::Join(join) = &plan.body else {
            panic!("n = 24 counts by the join")
        };
        let mut last = 0;
        for log in MIN_CHUNK_LOG..=CHUNK_LOG {
            let at = CountMemory {
                per_thread: join.scratch_bytes_at(log),
                chunk_log: Some(log),
                ..fastest
            };
            assert!(
                at.total() >= last,
                "2^{log} words take less than 2^{}",
                log - 1
            );
            last = at.total();
            // Past 2^24 words n = 24's scratch is bounded by its largest
            // job's candidates: the larger chunks take the same and win.
            let chosen = plan.count_memory_in(threads, units, Some(at.total()));
            assert_eq!(chosen.total(), at.total(), "2^{log}");
            assert!(chosen.chunk_log >= Some(log), "2^{log}");
            let below = plan.count_memory_in(threads, units, Some(at.total() - 1));
            if log == MIN_CHUNK_LOG {
                assert_eq!(below, at);
            } else {
                assert!(below.total() < at.total() && below.chunk_log < Some(log));
            }
        }
        let smallest = plan.count_memory_in(threads, units, Some(0));
        assert!(smallest.total() < fastest.total() && smallest.chunks_reduced());
        let floor = Plan::count_memory_floor_parts(plan.shape(), threads, Some(units)).unwrap();
        assert_eq!(floor, plan.count_memory_in(threads, units, Some(0)));
    }
}
