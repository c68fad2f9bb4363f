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
                let once = JoinPlan::count_bytes_floor(n, stage, 0);
                let one = JoinPlan::count_bytes_floor(n, stage, 1);
                (once, JoinPlan::jobs_in(n, stage), one - once)
            }
        };
        let records = units.unwrap_or(all) as u64 * RECORD_BYTES;
        let once = plan + records;
        Ok(match planner.stage() {
            // The least the join takes: one unit at a time, in its
            // smallest chunks, all the threads counting it, or one a
            // thread where that is less (units smaller than a helper's
            // tables), as `count_memory_in` takes.
            Some(_) => {
                let one = CountMemory {
                    once,
                    per_thread: counting,
                    threads,
                    at_once: 1.min(threads),
                    per_helper: JoinPlan::HELPER_BYTES,
                    chunk_log: Some(MIN_CHUNK_LOG),
                };
                let all = CountMemory {
                    at_once: threads,
                    ..one
                };
                if all.total() <= one.total() { all } else { one }
            }
            None => CountMemory::once(once, threads),
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
    /// n = 26 to 28 slower in smaller ones) one unit a thread, or as many
    /// units at once as fit in them (one for every 8 threads at least),
    /// each counted by all the threads ([`CountMemory::shared`]); where
    /// nothing fits, one unit at a time in the smallest chunks, which is
    /// then what it needs.
    #[must_use]
    pub fn count_memory_in(&self, threads: usize, units: usize, limit: Option<u64>) -> CountMemory {
        let at = |chunk_log, at_once| self.count_memory_at(threads, units, chunk_log, at_once);
        let fits = |memory: &CountMemory| limit.is_none_or(|limit| memory.total() <= limit);
        let fewest = fewest_at_once(threads);
        for log in (MIN_CHUNK_LOG..=CHUNK_LOG).rev() {
            let all = at(log, threads);
            if fits(&all) || all.chunk_log.is_none() {
                return all;
            }
            // Fewer units at once than threads, but only where enough are
            // at once that the parts of a unit one thread does (making its
            // half-boards and bucketing them) leave the others something
            // to count.
            if let Some(limit) = limit
                && threads > 1
            {
                let one = at(log, 1);
                let room = limit.saturating_sub(one.total() - one.per_thread);
                let most = (room / one.per_thread.max(1)) as usize;
                if most >= fewest {
                    return at(log, most.min(threads - 1));
                }
            }
        }
        // Nothing fits as asked: the least a count can take, one unit at a
        // time in the smallest chunks (or one a thread, on boards whose
        // units take less than a helper's tables), which is then what it
        // needs.
        let (one, all) = (at(MIN_CHUNK_LOG, 1), at(MIN_CHUNK_LOG, threads));
        if all.total() <= one.total() { all } else { one }
    }

    /// What a count of `units` of its units takes on `threads` threads,
    /// `at_once` units at a time (at most `threads`; fewer: each counted by
    /// all the threads) in the join's chunks of `1 << chunk_log` words
    /// (the other engines: one unit a thread, no chunks).
    #[must_use]
    pub fn count_memory_at(
        &self,
        threads: usize,
        units: usize,
        chunk_log: u32,
        at_once: usize,
    ) -> CountMemory {
        let plan = match &self.body {
            Body::Mirror { units, .. } => (units.capacity() * size_of::<WorkUnit>()) as u64,
            Body::Join(join) => join.bytes(),
            Body::Constellations(starts) => (starts.capacity() * size_of::<Start>()) as u64,
            Body::Completion(plan) => size_of_val(plan.units()) as u64,
        };
        let once = plan + units as u64 * RECORD_BYTES;
        let (Body::Join(join), Some(stage)) = (&self.body, self.planner.stage()) else {
            return CountMemory::once(once, threads);
        };
        let chunk_log = chunk_log.clamp(MIN_CHUNK_LOG, CHUNK_LOG);
        CountMemory {
            once: once + JoinPlan::table_bytes(self.n, stage),
            per_thread: join.scratch_bytes_at(chunk_log),
            threads,
            at_once: at_once.clamp(1.min(threads), threads),
            per_helper: JoinPlan::HELPER_BYTES,
            chunk_log: Some(chunk_log),
        }
    }
}

/// The fewest units a count on `threads` threads holds at once where it
/// shares them out ([`CountMemory::shared`]): one for every
/// [`SHARED_PER_UNIT`] threads.
#[must_use]
pub(crate) fn fewest_at_once(threads: usize) -> usize {
    threads.div_ceil(SHARED_PER_UNIT).max(1)
}

/// The most threads one unit counted at a time is shared by where a
/// count holds fewer units at once than it has threads
/// ([`CountMemory::at_once`]).
pub(crate) const SHARED_PER_UNIT: usize = 8;

/// What a count takes in memory: what the process holds once (the plan,
/// the runner's records, the join's whole tables) and what each thread
/// holds (its buffers), on how many threads; for the join, the chunks its
/// threads count in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct CountMemory {
    /// Bytes held once, whatever the threads.
    pub once: u64,
    /// Bytes each unit counted at once holds (its thread's buffers).
    pub per_thread: u64,
    /// The threads.
    pub threads: usize,
    /// How many units are counted at once: one a thread, or fewer where
    /// that many would not fit even in the join's smaller chunks; then
    /// all the threads count each of them together
    /// ([`shared`](Self::shared)).
    pub at_once: usize,
    /// Bytes each thread holds besides to count its share of units it
    /// does not hold, where they are [`shared`](Self::shared).
    pub per_helper: u64,
    /// The join's chunks, `1 << chunk_log` words a side at most
    /// (`None` for the other engines).
    pub chunk_log: Option<u32>,
}

impl CountMemory {
    /// A count that takes `once` bytes and nothing a thread (the
    /// backtracking engines) on `threads` threads.
    fn once(once: u64, threads: usize) -> Self {
        Self {
            once,
            per_thread: 0,
            threads,
            at_once: threads,
            per_helper: 0,
            chunk_log: None,
        }
    }

    /// All of it: once, each unit's at once, and each thread's.
    #[must_use]
    pub fn total(&self) -> u64 {
        let helpers = if self.shared() {
            self.threads as u64 * self.per_helper
        } else {
            0
        };
        self.once + self.at_once as u64 * self.per_thread + helpers
    }

    /// Whether the join counts in chunks smaller than its fastest, to fit.
    #[must_use]
    pub fn chunks_reduced(&self) -> bool {
        self.chunk_log.is_some_and(|log| log < CHUNK_LOG)
    }

    /// Whether fewer units are counted at once than there are threads,
    /// to fit: each by all the threads together.
    #[must_use]
    pub fn shared(&self) -> bool {
        self.at_once < self.threads
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
            // job's candidates: the larger chunks take the same and win;
            // below, fewer units at once in larger chunks may fit.
            let chosen = plan.count_memory_in(threads, units, Some(at.total()));
            assert!(chosen.total() <= at.total(), "2^{log}");
            assert!(chosen.chunk_log >= Some(log), "2^{log}");
            assert!(chosen.shared() || chosen.total() == at.total(), "2^{log}");
            // Just short of it: smaller chunks, or fewer units at once.
            let below = plan.count_memory_in(threads, units, Some(at.total() - 1));
            assert!(below.total() < at.total(), "2^{log}");
            assert!(
                below.chunk_log < Some(log) || below.shared(),
                "2^{log}: {below:?}"
            );
        }
        let smallest = plan.count_memory_in(threads, units, Some(0));
        assert!(smallest.total() < fastest.total() && smallest.chunks_reduced());
        assert_eq!(
            (smallest.at_once, smallest.chunk_log),
            (1, Some(MIN_CHUNK_LOG))
        );
        let floor = Plan::count_memory_floor_parts(plan.shape(), threads, Some(units)).unwrap();
        assert_eq!(floor, smallest);
    }

    /// Where a unit a thread does not fit in the fastest chunks, a count
    /// on many threads holds fewer units at once, each counted by all the
    /// threads, before it takes smaller chunks; but never fewer than one
    /// for every [`SHARED_PER_UNIT`] threads, and each thread then holds
    /// what helping takes.
    #[test]
    fn a_count_short_of_room_shares_its_units_before_it_takes_smaller_chunks() {
        let plan = Plan::new(Shape::new(24, Engine::Join, None), &Config::default()).unwrap();
        let (threads, units) = (16, plan.len());
        let fastest = plan.count_memory_in(threads, units, None);
        assert_eq!((fastest.at_once, fastest.shared()), (threads, false));
        let helpers = threads as u64 * fastest.per_helper;
        assert!(fastest.per_helper > 0);
        for at_once in [2, 5, 15] {
            let limit = fastest.once + at_once as u64 * fastest.per_thread + helpers;
            let memory = plan.count_memory_in(threads, units, Some(limit));
            assert_eq!(
                (memory.at_once, memory.chunk_log, memory.total()),
                (at_once, Some(CHUNK_LOG), limit),
                "{at_once} at once"
            );
            assert!(memory.shared() && !memory.chunks_reduced());
            // One byte less: one unit less at once, or smaller chunks
            // where that would be fewer than one for 8 threads.
            let less = plan.count_memory_in(threads, units, Some(limit - 1));
            if at_once > 2 {
                assert_eq!(less.at_once, at_once - 1);
            } else {
                assert!(less.chunks_reduced(), "{less:?}");
            }
        }
        // No sharing on one thread: the smallest chunks, refused above.
        let one = plan.count_memory_in(1, units, Some(fastest.once));
        assert_eq!(
            (one.at_once, one.shared(), one.total()),
            (1, false, one.once + one.per_thread)
        );
    }
}
