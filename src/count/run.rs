//! The one runner: counts a subset of a plan's units, largest first, on an
//! executor (a rayon pool, the calling thread, or a GPU), tells an
//! [`Observer`] about each finished unit, and stops handing out units
//! once the caller's stop flag is set.
//!
//! Every engine (mirror, join, constellations), both executors (the CPU,
//! the GPU), every CLI command and every library entry point count
//! through here. It never prints and never decides what to do with a
//! finished unit: the observer does (draws a bar, appends to a journal).

use std::num::NonZeroUsize;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

use rayon::ThreadPool;
use rayon::prelude::*;

use super::gpu::{self, Gpu};
use super::plan::{Plan, Scratch};
use crate::Error;
use crate::error::MAX_THREADS;

/// Hears of a count's progress, from whichever thread finished a unit.
///
/// Called once per unit, never per solution, so an implementation may take
/// a lock. `()` is the observer that ignores everything. An observer only
/// watches: one that wants the count to stop sets the runner's
/// [stop flag](crate::Runner::stop), and what must not be lost (a journal)
/// is the runner's to keep, before the observer hears of the unit.
pub trait Observer: Sync {
    /// Called once before any unit runs: how many units will run and the
    /// sum of their costs (past 2^64 from n = 25 on with the join).
    fn start(&self, _units: usize, _total_cost: u128) {}
    /// Called once for every unit, as it finishes.
    fn unit_done(&self, _done: &UnitDone) {}
}

/// An observer that ignores everything.
impl Observer for () {}

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
/// [`crate::Runner::pool`] so that many counts share one set of threads.
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
        .map_err(Error::Pool)
}

/// Where the units of one run go: the resolved form of a
/// [`crate::Runner`]'s threads and [`super::Executor`].
pub(crate) enum Target<'a> {
    /// A rayon pool: the caller's, else one of `threads` threads (inline on
    /// the calling thread for one, rayon's global pool for `None`).
    /// The join's threads count in chunks of `1 << chunk_log` words
    /// (`None`: its fastest), `at_once` units at a time, each counted by
    /// all the threads together (`None`: one unit a thread; see
    /// [`crate::CountMemory::shared`]).
    Cpu {
        pool: Option<&'a ThreadPool>,
        threads: Option<NonZeroUsize>,
        chunk_log: Option<u32>,
        at_once: Option<usize>,
    },
    /// An opened GPU, a batch of units a launch.
    Gpu(&'a Gpu),
}

/// What the runner does with each finished unit before the observer hears
/// of it: keep it (a journal's append), which may fail and then stops the
/// count with that error.
pub(crate) type Keep<'a> = &'a (dyn Fn(&UnitDone) -> Result<(), Error> + Sync);

/// Counts the units `ids` of `plan` (each in the plan, none twice: the
/// caller checked), largest cost first, on `target`.
///
/// The one loop every count goes through: it tells the observer how much
/// will run, hands the units out (one at a time to the CPU's threads, a
/// batch at a time to the GPU), checks `stop` before each, and has each
/// finished unit kept, then reported. Once `stop` is set, or keeping a
/// unit failed, nothing new starts, and the backtracking engines' units
/// under way stop at their next piece ([`super::pieces`]) and count
/// nothing; the join's finish.
pub(crate) fn run(
    plan: &Plan,
    ids: &[u32],
    target: &Target<'_>,
    keep: Keep<'_>,
    observer: &dyn Observer,
    stop: Option<&AtomicBool>,
) -> Result<Finished, Error> {
    // Set when keeping a unit fails; `failed` keeps the first error,
    // which the count returns.
    let halt = AtomicBool::new(false);
    let failed: Mutex<Option<Error>> = Mutex::new(None);
    let cancelled =
        || halt.load(Ordering::Relaxed) || stop.is_some_and(|c| c.load(Ordering::Relaxed));
    // A stop heard while the plan was built: the join's tables (seconds
    // at n = 23) are not built for nothing.
    if cancelled() {
        let threads = match *target {
            Target::Cpu {
                pool: Some(pool), ..
            } => pool.current_num_threads(),
            Target::Cpu {
                threads: Some(threads),
                ..
            } => threads.get(),
            _ => rayon::current_num_threads(),
        };
        return Ok(Finished {
            counts: Vec::new(),
            threads,
        });
    }
    // Largest first, so that no thread is left with a big unit at the end.
    // The 16 bytes a unit this holds for a moment are fewer than the
    // records that come after it (RECORD_BYTES in the memory check).
    let keyed = plan.costliest_first(ids.iter().copied());
    let total_cost: u128 = keyed.iter().map(|&(cost, _)| u128::from(cost)).sum();
    let order: Vec<u32> = keyed.into_iter().map(|(_, id)| id).collect();
    // The join's tables are built before the first unit, not in it: its
    // time would pace the observer's estimates (n = 20: "14 h" for 25 min).
    plan.prepare();
    observer.start(order.len(), total_cost);

    let done = |id: u32, solutions: u128, elapsed: Duration| -> (u32, u128) {
        let done = UnitDone {
            id,
            solutions,
            cost: plan.cost_of(id),
            elapsed,
        };
        match keep(&done) {
            Ok(()) => observer.unit_done(&done),
            Err(e) => {
                halt.store(true, Ordering::Relaxed);
                failed
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .get_or_insert(e);
            }
        }
        (id, solutions)
    };
    let (mut counts, threads) = match *target {
        Target::Cpu {
            pool,
            threads,
            chunk_log,
            at_once,
        } => on_cpu(
            plan,
            &order,
            (pool, threads, chunk_log, at_once),
            &cancelled,
            &done,
        )?,
        Target::Gpu(gpu) => (
            on_gpu(plan, &order, gpu, &cancelled, &done)?,
            rayon::current_num_threads(),
        ),
    };
    if let Some(e) = failed.into_inner().unwrap_or_else(PoisonError::into_inner) {
        return Err(e);
    }
    counts.sort_unstable_by_key(|&(id, _)| id);
    Ok(Finished { counts, threads })
}

/// Units `order` one at a time, each its own task on the pool (they
/// differ in size by orders of magnitude, so let every one be stolen on
/// its own): `(id, count)` of those that ran, and the threads.
fn on_cpu(
    plan: &Plan,
    order: &[u32],
    (pool, threads, chunk_log, at_once): (
        Option<&ThreadPool>,
        Option<NonZeroUsize>,
        Option<u32>,
        Option<usize>,
    ),
    cancelled: &(dyn Fn() -> bool + Sync),
    done: &(dyn Fn(u32, u128, Duration) -> (u32, u128) + Sync),
) -> Result<(Vec<(u32, u128)>, usize), Error> {
    let count_one = |scratch: &mut Scratch, id: u32| -> Option<(u32, u128)> {
        if cancelled() {
            return None;
        }
        let started = Instant::now();
        // A unit stopped inside counts nothing: it is dropped as if it had
        // never started, and a journal never hears of it.
        let solutions = plan.count_unit_unless(id, scratch, cancelled)?;
        Some(done(id, solutions, started.elapsed()))
    };
    // One scratch per thread of the pool, kept from unit to unit (its
    // buffers grow to the largest job and stay): `map_init` would make one
    // per split, which `with_max_len(1)` makes one per unit, and n = 18's
    // 24,310 units then spent an eighth of their time growing fresh
    // buffers and clearing their pages.
    let in_parallel = || -> Vec<(u32, u128)> {
        if let Some(at_once) = at_once.filter(|&k| k < rayon::current_num_threads()) {
            return shared(order, at_once, chunk_log, &count_one);
        }
        let scratches: Vec<Mutex<Scratch>> = (0..rayon::current_num_threads())
            .map(|_| Mutex::new(Scratch::in_chunks(chunk_log)))
            .collect();
        order
            .par_iter()
            .with_max_len(1)
            .map(|&id| {
                let slot = rayon::current_thread_index().unwrap_or(0) % scratches.len();
                let mut scratch = scratches[slot]
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner);
                count_one(&mut scratch, id)
            })
            .flatten()
            .collect()
    };
    Ok(match (pool, threads) {
        (Some(pool), _) => (pool.install(in_parallel), pool.current_num_threads()),
        (None, Some(one)) if one.get() == 1 => {
            let mut scratch = Scratch::in_chunks(chunk_log);
            let counts = order
                .iter()
                .map_while(|&id| count_one(&mut scratch, id))
                .collect();
            (counts, 1)
        }
        // Rayon's global pool: a count that names no threads builds none.
        (None, None) => (in_parallel(), rayon::current_num_threads()),
        (None, threads) => {
            let pool = thread_pool(threads)?;
            (pool.install(in_parallel), pool.current_num_threads())
        }
    })
}

/// Counts one unit on a scratch: `(id, count)`, or `None` where the count
/// was stopped first.
type CountOne<'a> = dyn Fn(&mut Scratch, u32) -> Option<(u32, u128)> + Sync + 'a;

/// Units `order` counted `at_once` at a time, on as many scratches, by
/// all the current pool's threads: `at_once` tasks take the units in
/// order, one after another, and each unit's buckets are counted by
/// whichever threads are free ([`Scratch::shared`]). `(id, count)` of
/// those that ran.
fn shared(
    order: &[u32],
    at_once: usize,
    chunk_log: Option<u32>,
    count_one: &CountOne<'_>,
) -> Vec<(u32, u128)> {
    let next = AtomicUsize::new(0);
    let counts = Mutex::new(Vec::with_capacity(order.len()));
    rayon::scope(|scope| {
        for _ in 0..at_once {
            scope.spawn(|_| {
                let mut scratch = Scratch::in_chunks(chunk_log).shared();
                while let Some(&id) = order.get(next.fetch_add(1, Ordering::Relaxed)) {
                    let Some(done) = count_one(&mut scratch, id) else {
                        break;
                    };
                    counts
                        .lock()
                        .unwrap_or_else(PoisonError::into_inner)
                        .push(done);
                }
            });
        }
    });
    counts.into_inner().unwrap_or_else(PoisonError::into_inner)
}

/// Units `order` of a backtracking plan (the constellations or the mirror
/// engine's) a batch at a time, one launch a batch; the next batch is cut
/// into tasks on the CPU while the GPU counts the current one. Each unit of
/// a batch is reported when its batch ends, with the batch's time shared by
/// cost.
fn on_gpu(
    plan: &Plan,
    order: &[u32],
    gpu: &Gpu,
    cancelled: &(dyn Fn() -> bool + Sync),
    done: &(dyn Fn(u32, u128, Duration) -> (u32, u128) + Sync),
) -> Result<Vec<(u32, u128)>, Error> {
    gpu::refuse(plan)?;
    let n = plan.n();
    let batches = batches(plan, order);
    let cut = |batch: &[u32]| {
        let roots = gpu::roots(plan, batch);
        let tasks = gpu.cut(n, &roots);
        (roots, tasks)
    };
    let mut counts = Vec::with_capacity(order.len());
    std::thread::scope(|scope| -> Result<(), Error> {
        let mut next = batches.first().map(|b| scope.spawn(|| cut(b)));
        for (k, batch) in batches.iter().enumerate() {
            let (roots, tasks) = next
                .take()
                .expect("every batch is cut")
                .join()
                .expect("cutting does not panic");
            if cancelled() {
                break;
            }
            next = batches.get(k + 1).map(|b| scope.spawn(|| cut(b)));
            let started = Instant::now();
            let solutions = gpu.count(n, &tasks, &roots, plan.features())?;
            let elapsed = started.elapsed();
            let batch_cost = batch
                .iter()
                .map(|&id| u128::from(plan.cost_of(id)))
                .sum::<u128>()
                .max(1);
            for (&id, solutions) in batch.iter().zip(solutions) {
                let share = plan.cost_of(id) as f64 / batch_cost as f64;
                counts.push(done(id, solutions, elapsed.mul_f64(share)));
            }
        }
        Ok(())
    })?;
    Ok(counts)
}

/// Cuts `order` into consecutive batches of about equal estimated cost,
/// as many as the plan's GPU options say (default 8): a finished launch is
/// what a journal records and what a cancel waits for.
fn batches(plan: &Plan, order: &[u32]) -> Vec<Vec<u32>> {
    const BATCHES: u64 = 8;
    let wanted = plan
        .options()
        .gpu
        .batches
        .map_or(BATCHES, |b| u64::from(b.get()));
    let total_cost: u128 = order.iter().map(|&id| u128::from(plan.cost_of(id))).sum();
    let share = total_cost.div_ceil(u128::from(wanted)).max(1);
    let mut out = vec![Vec::new()];
    let mut cost = 0;
    for &id in order {
        let last = out.last_mut().expect("never empty");
        last.push(id);
        cost += u128::from(plan.cost_of(id));
        if cost >= share {
            out.push(Vec::new());
            cost = 0;
        }
    }
    out.retain(|b| !b.is_empty());
    out
}
