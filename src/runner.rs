//! [`Runner`]: where and how a plan's units run (threads or a pool, the
//! executor, an observer, a stop flag, and with the `files` feature on
//! Unix and Windows a journal and a shard), and [`Count`], what a run returns.
//!
//! What is counted is the [`Plan`]'s (its board, engine, split, config);
//! which of its units, a [`Selection`]. A runner holds nothing that says
//! either, so nothing it is told can contradict the plan. Every front end
//! counts through [`Runner::count`]: the `queens` binary and the Python
//! package write the same journals and shard files.
//!
//! A stopped count is never an error: it returns the units that finished,
//! each exact (and in the journal), and [`Count::is_finished`] says that
//! some asked for are missing.

use std::num::NonZeroUsize;
use std::sync::atomic::AtomicBool;

use rayon::ThreadPool;

use crate::Error;
use crate::count::gpu::{self, Gpu};
use crate::count::plan::threads_of;
use crate::count::run::{self, Target};
use crate::error::MAX_THREADS;
#[cfg(all(feature = "files", any(unix, windows)))]
use crate::journal::Journal;
#[cfg(all(feature = "files", any(unix, windows)))]
use crate::shard::Prepared;
use crate::{
    Config, CountMemory, Engine, Executor, Observer, Plan, PlanHash, Selection, Shape, UnitDone,
};

/// The outcome of a count: of the whole plan, or of the units asked for.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Count {
    /// Board size.
    pub n: u32,
    /// The engine that counted.
    pub engine: Engine,
    /// Solutions in the units counted (OEIS A000170 when they are all).
    pub solutions: u128,
    /// Units counted.
    pub units: usize,
    /// Units in the plan.
    pub plan_units: usize,
    /// The plan's hash.
    pub plan: PlanHash,
    /// Threads that counted (1 for a serial count; for the GPU, those that
    /// cut its tasks).
    pub threads: usize,
    /// Where the units ran.
    pub executor: Executor,
    /// Rows fixed by each unit (the mirror engine; the middle-column units
    /// of odd `n` fix at least two); `None` for the join.
    pub split_depth: Option<u32>,
    /// `(id, count)` of every unit counted, in id order: those a journal
    /// held and those counted now.
    pub unit_counts: Vec<(u32, u128)>,
    /// Units asked for: the plan's, or a selection's ([`Plan::select`]).
    pub units_asked: usize,
    /// Of the units counted, the ids of those taken from a journal
    /// rather than counted now, in id order.
    pub resumed: Vec<u32>,
}

impl Count {
    /// Whether every unit of the plan was counted, so that `solutions` is
    /// the board's total.
    #[must_use]
    pub fn is_complete(&self) -> bool {
        self.units == self.plan_units
    }

    /// Whether every unit asked for was counted: false for a count that
    /// was stopped part-way (its [stop flag](Runner::stop) set).
    #[must_use]
    pub fn is_finished(&self) -> bool {
        self.units == self.units_asked
    }
}

/// The threads a runner counts on: one setting, so that a count cannot be
/// told both a thread count and a pool.
#[derive(Clone, Copy)]
enum Workers<'a> {
    /// Rayon's current pool: the global one, or the one the caller
    /// installed.
    Current,
    /// A pool of its own of this many threads (one: the calling thread);
    /// checked against [`MAX_THREADS`] when the count starts.
    Threads(usize),
    /// The caller's pool.
    Pool(&'a ThreadPool),
}

/// Where and how a plan's units run. `Runner::new()` counts on rayon's
/// current pool (the global one, one thread per logical CPU, unless the
/// caller installed another), on the CPU, tells no one and never stops.
///
/// ```
/// use std::num::NonZeroUsize;
/// use queens::{Config, Engine, Plan, Runner, Shape};
///
/// let plan = Plan::new(Shape::new(10, Engine::Mirror, None), &Config::default())?;
/// let half: Vec<u32> = (0..plan.len() as u32).step_by(2).collect();
/// let count = Runner::new()
///     .threads(NonZeroUsize::MIN)
///     .count(&plan, &plan.select(&half)?)?;
/// assert!(count.is_finished() && !count.is_complete());
/// assert!(count.resumed.is_empty());
/// # Ok::<(), queens::Error>(())
/// ```
#[derive(Clone, Copy)]
#[must_use]
pub struct Runner<'a> {
    workers: Workers<'a>,
    executor: Executor,
    observer: &'a dyn Observer,
    stop: Option<&'a AtomicBool>,
    #[cfg(all(feature = "files", any(unix, windows)))]
    journal: Option<&'a Journal>,
    #[cfg(all(feature = "files", any(unix, windows)))]
    shard: Option<&'a Prepared>,
}

impl Default for Runner<'_> {
    fn default() -> Self {
        Self::new()
    }
}

impl<'a> Runner<'a> {
    /// On rayon's current pool, on the CPU, telling no one.
    pub fn new() -> Self {
        Self {
            workers: Workers::Current,
            executor: Executor::Cpu,
            observer: &(),
            stop: None,
            #[cfg(all(feature = "files", any(unix, windows)))]
            journal: None,
            #[cfg(all(feature = "files", any(unix, windows)))]
            shard: None,
        }
    }

    /// Count on a pool of `threads` threads of its own (one: on the
    /// calling thread), in place of a [`pool`](Self::pool).
    pub fn threads(self, threads: NonZeroUsize) -> Self {
        self.thread_count(threads.get())
    }

    /// [`threads`](Self::threads) for a count a caller gave as a number:
    /// 0, like more than [`MAX_THREADS`], is refused when the count starts.
    pub(crate) fn thread_count(self, threads: usize) -> Self {
        Self {
            workers: Workers::Threads(threads),
            ..self
        }
    }

    /// Count on `pool` (see [`crate::thread_pool`]), in place of
    /// [`threads`](Self::threads) of its own: many counts share one set of
    /// threads. It ties this API to rayon 1.x.
    pub fn pool(self, pool: &'a ThreadPool) -> Self {
        Self {
            workers: Workers::Pool(pool),
            ..self
        }
    }

    /// Where the units run: the CPU (default) or, for the backtracking
    /// engines' plans (the constellations and the mirror engine's), the
    /// GPU, whose tasks are cut on the runner's threads.
    pub fn executor(self, executor: Executor) -> Self {
        Self { executor, ..self }
    }

    /// Tell `observer` of each finished unit.
    pub fn observer(self, observer: &'a dyn Observer) -> Self {
        Self { observer, ..self }
    }

    /// Stop handing out units once `flag` is set; the count then holds the
    /// units that finished, each exact. Units under way of the mirror and
    /// constellations engines stop inside (they are counted in pieces) and
    /// are left out; the join's finish.
    pub fn stop(self, flag: &'a AtomicBool) -> Self {
        Self {
            stop: Some(flag),
            ..self
        }
    }

    /// The executor the units run on.
    #[must_use]
    pub fn executor_of(&self) -> Executor {
        self.executor
    }

    /// The threads this runner counts on: its pool's, else its own
    /// count, else rayon's current pool's.
    #[must_use]
    pub fn thread_total(&self) -> usize {
        match self.workers {
            Workers::Pool(pool) => pool.current_num_threads(),
            Workers::Threads(threads) => threads_of(NonZeroUsize::new(threads)),
            Workers::Current => rayon::current_num_threads(),
        }
    }
}

#[cfg(all(feature = "files", any(unix, windows)))]
impl<'a> Runner<'a> {
    /// Resume from `journal` (opened for the plan it will count:
    /// [`Journal::open`]) and keep every unit that finishes in it, before
    /// the observer hears of it. The journal is shared, so that a front
    /// end can [`stop`](Journal::stop) it from another thread when it
    /// gives up on the units still running.
    pub fn journal(self, journal: &'a Journal) -> Self {
        Self {
            journal: Some(journal),
            ..self
        }
    }

    /// Write `shard`'s result ([`crate::shard::Task::prepare`]) when every
    /// unit is counted, and then remove its journal. The selection
    /// counted should be the shard's units.
    pub fn shard(self, shard: &'a Prepared) -> Self {
        Self {
            shard: Some(shard),
            ..self
        }
    }
}

impl Runner<'_> {
    /// `selection` less the units this runner's journal holds (all of it
    /// without a journal): what [`count`](Self::count) counts now.
    #[must_use]
    pub fn resumed(&self, selection: &Selection) -> Selection {
        #[cfg(all(feature = "files", any(unix, windows)))]
        if let Some(journal) = self.journal {
            return selection.clone().resume(journal.done().iter().copied());
        }
        selection.clone()
    }

    /// `Ok` when counting `units` of `plan` on this runner's threads fits
    /// in the plan's memory limit ([`Config::memory_limit`]; always,
    /// without one): what [`count`](Self::count) checks first, for a
    /// caller that wants to know before it starts anything else.
    ///
    /// # Errors
    /// [`Error::Memory`] when the count's [estimate](Plan::count_memory)
    /// is above the limit.
    pub fn fits(&self, plan: &Plan, units: usize) -> Result<(), Error> {
        self.memory(plan, units).map(|_| ())
    }

    /// What counting `units` of `plan` on this runner's threads takes in
    /// memory, as it fits in the plan's memory limit
    /// ([`Plan::count_memory_in`]): where one unit a thread in the join's
    /// fastest chunks would not fit, its threads share fewer units at once
    /// ([`CountMemory::shared`]), and where not even that fits, it counts
    /// the biggest units of n = 26 to 28 in smaller chunks, more slowly
    /// ([`CountMemory::chunks_reduced`]); [`count`](Self::count) takes
    /// these.
    ///
    /// # Errors
    /// [`Error::Memory`] when even one unit at a time in the smallest
    /// chunks is above the limit.
    pub fn memory(&self, plan: &Plan, units: usize) -> Result<CountMemory, Error> {
        let limit = plan.config().memory_limit;
        let memory = plan.count_memory_in(self.thread_total(), units, limit);
        match limit {
            Some(available) => refuse_above(memory, available, plan.n(), plan.engine()),
            None => Ok(memory),
        }
    }

    /// `Ok` unless even a lower bound on the memory of counting `units`
    /// (`None`: all) of the plan of `shape` on this runner's threads,
    /// found without building the plan ([`Plan::count_memory_floor`]:
    /// milliseconds), is above `config`'s memory limit: for a caller to
    /// check before it builds a plan (the join's takes minutes at
    /// n = 28). [`fits`](Self::fits) checks again once it is built.
    ///
    /// # Errors
    /// As [`Plan::new`], but never a plan's [`Error::Memory`];
    /// [`Error::Memory`] when the floor is above the limit.
    pub fn fits_unplanned(
        &self,
        shape: Shape,
        config: &Config,
        units: Option<usize>,
    ) -> Result<(), Error> {
        let Some(available) = config.memory_limit else {
            return Ok(());
        };
        let needed = Plan::count_memory_floor_parts(shape, self.thread_total(), units)?;
        refuse_above(needed, available, shape.n, shape.engine).map(|_| ())
    }

    /// Counts the units of `selection` (of `plan`: [`Plan::select`]) that
    /// the journal does not hold, keeps each in the journal as it
    /// finishes, writes the shard's result when all are there, and
    /// returns the count of every unit asked for that is done: resumed or
    /// counted now. A stopped count returns what finished.
    ///
    /// # Errors
    /// [`Error::Threads`] or [`Error::Pool`]; [`Error::Memory`] when the
    /// plan's memory limit is below the count's
    /// [estimate](Plan::count_memory); [`Error::Gpu`] when the GPU is asked
    /// for and cannot count this plan or is not there; [`Error::Io`] when
    /// the journal cannot be synced or the shard's result written (what
    /// finished is in the journal, and the next run resumes from it).
    pub fn count(&self, plan: &Plan, selection: &Selection) -> Result<Count, Error> {
        let job = self.resumed(selection);
        let counted = self.count_left(plan, &job);
        #[cfg(all(feature = "files", any(unix, windows)))]
        if let Some(journal) = self.journal {
            return self.close_journal(journal, plan, counted);
        }
        counted
    }

    /// What `job` (a selection of `plan`'s units less those resumed) has
    /// left, counted, with the resumed units added.
    fn count_left(&self, plan: &Plan, job: &Selection) -> Result<Count, Error> {
        if let Workers::Threads(t) = self.workers
            && !(1..=MAX_THREADS).contains(&t)
        {
            return Err(Error::Threads(t));
        }
        let memory = self.memory(plan, job.len())?;
        let ids = job.left();
        let keep = |done: &UnitDone| self.keep(done);
        let gpu;
        let target = match self.executor {
            Executor::Cpu => match self.workers {
                Workers::Current => Target::Cpu {
                    pool: None,
                    threads: None,
                    chunk_log: memory.chunk_log,
                    at_once: memory.shared().then_some(memory.at_once),
                },
                Workers::Threads(t) => Target::Cpu {
                    pool: None,
                    threads: NonZeroUsize::new(t),
                    chunk_log: memory.chunk_log,
                    at_once: memory.shared().then_some(memory.at_once),
                },
                Workers::Pool(pool) => Target::Cpu {
                    pool: Some(pool),
                    threads: None,
                    chunk_log: memory.chunk_log,
                    at_once: memory.shared().then_some(memory.at_once),
                },
            },
            Executor::Gpu => {
                gpu::refuse(plan)?;
                gpu = Gpu::open(plan.options().gpu)?;
                Target::Gpu(&gpu)
            }
        };
        let count = || run::run(plan, ids, &target, &keep, self.observer, self.stop);
        let finished = match (self.workers, &target) {
            // The GPU's tasks are cut on the runner's threads.
            (Workers::Pool(pool), Target::Gpu(_)) => pool.install(count)?,
            (Workers::Threads(t), Target::Gpu(_)) => {
                crate::thread_pool(NonZeroUsize::new(t))?.install(count)?
            }
            _ => count()?,
        };
        let unit_counts = job.gather(finished.counts)?;
        Ok(Count {
            n: plan.n(),
            engine: plan.engine(),
            solutions: unit_counts.iter().map(|&(_, c)| c).sum(),
            units: unit_counts.len(),
            plan_units: plan.len(),
            plan: plan.hash(),
            threads: finished.threads,
            executor: self.executor,
            split_depth: plan.split_depth(),
            unit_counts,
            units_asked: job.len(),
            resumed: job.resumed().iter().map(|&(id, _)| id).collect(),
        })
    }

    /// Keeps a finished unit before anyone hears of it: in the journal,
    /// where there is one.
    #[allow(clippy::unused_self, clippy::unnecessary_wraps)]
    fn keep(&self, done: &UnitDone) -> Result<(), Error> {
        #[cfg(all(feature = "files", any(unix, windows)))]
        if let Some(journal) = self.journal {
            return journal.keep(done);
        }
        let _ = done;
        Ok(())
    }

    /// Ends the journal's part in a count: stopped where the count failed
    /// or stopped, else synced, and the shard's result written.
    #[cfg(all(feature = "files", any(unix, windows)))]
    fn close_journal(
        &self,
        journal: &Journal,
        plan: &Plan,
        counted: Result<Count, Error>,
    ) -> Result<Count, Error> {
        let count = match counted {
            Ok(count) if count.is_finished() => count,
            other => {
                journal.stop();
                return other;
            }
        };
        journal.finish()?;
        if let Some(shard) = self.shard {
            shard.finish(plan, &count)?;
        }
        Ok(count)
    }
}

/// [`Error::Memory`] for counting `n` with `engine` when `needed` bytes
/// are above `available`.
fn refuse_above(
    needed: CountMemory,
    available: u64,
    n: u32,
    engine: Engine,
) -> Result<CountMemory, Error> {
    if needed.total() > available {
        return Err(Error::Memory {
            doing: "counting",
            n,
            by: engine.described(),
            needed: needed.total(),
            parts: Some(needed),
            available,
        });
    }
    Ok(needed)
}
