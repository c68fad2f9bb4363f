//! The one runner: counts a subset of a plan's units, largest first, on a
//! rayon pool (or inline on the calling thread for a serial count), tells
//! an [`Observer`] about each finished unit, and stops handing out units
//! once the caller's cancel flag is set.
//!
//! Both engines, every CLI command and every library entry point count
//! through here. It never prints and never decides what to do with a
//! finished unit: the observer does (draws a bar, appends to a journal).

use std::num::NonZeroUsize;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use rayon::ThreadPool;
use rayon::prelude::*;

use super::plan::{Plan, Scratch};
use crate::Error;
use crate::error::MAX_THREADS;

/// Receives each finished work unit, from whichever thread finished it.
///
/// Called once per unit, never per solution, so an implementation may take
/// a lock. `()` is the observer that ignores everything.
pub trait Observer: Sync {
    /// Called once before any unit runs: how many units will run and the
    /// sum of their costs.
    fn start(&self, _units: usize, _total_cost: u64) {}
    /// Called once for every unit, as it finishes.
    fn unit_done(&self, done: &UnitDone);
}

/// An observer that ignores everything.
impl Observer for () {
    fn unit_done(&self, _done: &UnitDone) {}
}

/// One finished unit, as an [`Observer`] hears of it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct UnitDone {
    /// The unit's id in its plan.
    pub id: u32,
    /// Its contribution to the total (completions times weight).
    pub solutions: u128,
    /// Its cost estimate, as the plan lists it.
    pub cost: u64,
    /// How long counting it took.
    pub elapsed: Duration,
}

/// What a run of some units produced.
pub(crate) struct Finished {
    /// `(id, count)` of every unit that finished, in id order.
    pub counts: Vec<(u32, u128)>,
    /// Threads that counted.
    pub threads: usize,
}

/// A pool of `threads` threads (`None`: rayon's default, the
/// `RAYON_NUM_THREADS` variable, else one per logical CPU), to pass to
/// [`crate::Counter::pool`] so that many counts share one set of threads.
///
/// # Errors
/// [`Error::Threads`] above 4096 threads, [`Error::Pool`] if the operating
/// system refuses to start them.
pub fn thread_pool(threads: Option<NonZeroUsize>) -> Result<ThreadPool, Error> {
    if let Some(t) = threads.filter(|t| t.get() > MAX_THREADS) {
        return Err(Error::Threads(t.get()));
    }
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads.map_or(0, NonZeroUsize::get))
        .thread_name(|i| format!("queens-{i}"))
        .build()
        .map_err(|e| Error::Pool(e.to_string()))
}

/// Counts the units `ids` of `plan` (each in the plan, none twice: the
/// caller checked), largest cost first.
///
/// On `pool` if given; else inline when `threads` is one; else on a pool
/// of its own. Once `cancel` is set no unit starts; those running finish.
pub(crate) fn run(
    plan: &Plan,
    ids: &[u32],
    pool: Option<&ThreadPool>,
    threads: Option<NonZeroUsize>,
    observer: &dyn Observer,
    cancel: Option<&AtomicBool>,
) -> Result<Finished, Error> {
    let mut order = ids.to_vec();
    // Largest first, so that no thread is left with a big unit at the end.
    order.sort_by_key(|&id| (std::cmp::Reverse(plan.cost(id)), id));
    if plan.engine() == super::Engine::Gpu {
        return super::gpu::run(plan, &order, observer, cancel);
    }
    // The join's tables are built before the first unit, not in it: its
    // time would pace the observer's estimates (n = 20: "14 h" for 25 min).
    plan.prepare();
    observer.start(order.len(), order.iter().map(|&id| plan.cost(id)).sum());

    let count_one = |scratch: &mut Scratch, id: u32| -> Option<(u32, u128)> {
        if cancel.is_some_and(|c| c.load(Ordering::Relaxed)) {
            return None;
        }
        let started = Instant::now();
        let solutions = plan.count_unit_unchecked(id, scratch);
        observer.unit_done(&UnitDone {
            id,
            solutions,
            cost: plan.cost(id),
            elapsed: started.elapsed(),
        });
        Some((id, solutions))
    };
    let on_pool = |pool: &ThreadPool| -> Vec<(u32, u128)> {
        pool.install(|| {
            order
                .par_iter()
                // One unit per task: units differ in size by orders of
                // magnitude, so let every one be stolen on its own.
                .with_max_len(1)
                .map_init(Scratch::default, |scratch, &id| count_one(scratch, id))
                .flatten()
                .collect()
        })
    };

    let (mut counts, threads) = match (pool, threads) {
        (Some(pool), _) => (on_pool(pool), pool.current_num_threads()),
        (None, Some(one)) if one.get() == 1 => {
            let mut scratch = Scratch::default();
            let counts = order
                .iter()
                .map_while(|&id| count_one(&mut scratch, id))
                .collect();
            (counts, 1)
        }
        (None, threads) => {
            let pool = thread_pool(threads)?;
            (on_pool(&pool), pool.current_num_threads())
        }
    };
    counts.sort_unstable_by_key(|&(id, _)| id);
    Ok(Finished { counts, threads })
}
