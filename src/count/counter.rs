//! [`Counter`], the builder that runs a count, and [`Count`], what it
//! returns: the one public way to count, where a plan, a subset of its
//! units, an executor (a pool, threads or the GPU), an observer and a
//! cancel flag meet the runner.

use std::num::NonZeroUsize;
use std::sync::atomic::{AtomicBool, Ordering};

use rayon::ThreadPool;

use super::gpu::Gpu;
use super::options::Options;
use super::plan::threads_of;
use super::run::{self, Observer, Runner};
use super::{Config, Engine, Executor, Plan, PlanHash, Shape};
use crate::error::MAX_THREADS;
use crate::{Error, Selection};

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
    /// held ([`crate::Run`]) and those counted now.
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
    /// was cancelled, or stopped by its observer, part-way.
    #[must_use]
    pub fn is_finished(&self) -> bool {
        self.units == self.units_asked
    }
}

/// A count with everything but `n` optional: the builder behind
/// [`crate::count()`], and the one way to count.
///
/// Without [`threads`](Self::threads) or [`pool`](Self::pool) the units
/// run on rayon's global pool: no count builds a pool unasked. `pool`
/// takes a `rayon::ThreadPool`, which ties this API to rayon 1.x; a program
/// that shares its own pool with the count gets one set of threads.
///
/// No setting is ignored. Where the units run is said once: the last of
/// [`threads`](Self::threads), [`pool`](Self::pool) and
/// [`config`](Self::config) (its [`Config::threads`]) replaces what the
/// others said. The hardware [`Options`] of a count are its plan's
/// ([`Plan::options`]): [`run_plan`](Self::run_plan) refuses a plan built
/// with other options than this builder was given
/// ([`Error::OtherOptions`]).
///
/// ```
/// use std::sync::atomic::AtomicBool;
/// use queens::{Counter, Engine};
///
/// let all = Counter::new(12).engine(Engine::Mirror).threads(2).run()?;
/// assert_eq!(all.solutions, 14_200);
///
/// // Any subset of the plan's units counts exactly its share.
/// let stop = AtomicBool::new(false);
/// let first = Counter::new(12).engine(Engine::Mirror).units(&[0, 1]).cancel(&stop).run()?;
/// assert_eq!(first.solutions, all.unit_counts[0].1 + all.unit_counts[1].1);
/// # Ok::<(), queens::Error>(())
/// ```
#[derive(Clone, Copy)]
pub struct Counter<'a> {
    n: u32,
    engine: Option<Engine>,
    /// The mirror engine's split, if given: part of the plan's shape.
    split_depth: Option<u32>,
    config: Config,
    /// Whether `config.options` were given ([`Self::options`],
    /// [`Self::config`]), rather than the defaults: a plan built with
    /// others is refused.
    options_given: bool,
    observer: &'a dyn Observer,
    /// The caller's pool: when set, `config.threads` is `None`.
    pool: Option<&'a ThreadPool>,
    units: Option<&'a [u32]>,
    cancel: Option<&'a AtomicBool>,
}

impl<'a> Counter<'a> {
    /// A count of the `n`-board with the best engine for it, every core,
    /// every unit.
    #[must_use]
    pub fn new(n: u32) -> Self {
        Self {
            n,
            engine: None,
            split_depth: None,
            config: Config::default(),
            options_given: false,
            observer: &(),
            pool: None,
            units: None,
            cancel: None,
        }
    }

    /// Count with `engine` rather than [`Engine::best_for`] `n`.
    #[must_use]
    pub fn engine(self, engine: Engine) -> Self {
        Self {
            engine: Some(engine),
            ..self
        }
    }

    /// Count on `threads` threads (0: the default); one counts on the
    /// calling thread. Replaces a [`pool`](Self::pool) given before.
    #[must_use]
    pub fn threads(mut self, threads: usize) -> Self {
        self.config.threads = NonZeroUsize::new(threads);
        self.pool = None;
        self
    }

    /// The mirror engine's split: units fix `rows` rows (part of the
    /// plan's [`Shape`]; an engine without a split refuses it,
    /// [`Error::NoSplit`]).
    #[must_use]
    pub fn split_depth(self, rows: u32) -> Self {
        Self {
            split_depth: Some(rows),
            ..self
        }
    }

    /// Where the units run: the CPU (default) or, for the backtracking
    /// engines' plans (the constellations and the mirror engine's), the
    /// GPU.
    #[must_use]
    pub fn executor(mut self, executor: Executor) -> Self {
        self.config.executor = executor;
        self
    }

    /// How the count may use the hardware: the options [`run`](Self::run)
    /// builds its plan with, and those [`run_plan`](Self::run_plan)
    /// requires of the plan it is given.
    #[must_use]
    pub fn options(mut self, options: Options) -> Self {
        self.config.options = options;
        self.options_given = true;
        self
    }

    /// Threads, memory limit, executor and options from `config`,
    /// all of them: its threads replace a [`pool`](Self::pool) given
    /// before, and its options are [given](Self::options).
    #[must_use]
    pub fn config(self, config: &Config) -> Self {
        Self {
            config: *config,
            options_given: true,
            pool: None,
            ..self
        }
    }

    /// Report each finished unit to `observer`.
    #[must_use]
    pub fn observer(self, observer: &'a dyn Observer) -> Self {
        Self { observer, ..self }
    }

    /// Count on `pool` (see [`crate::thread_pool`]) rather than a pool of
    /// its own: replaces the [`threads`](Self::threads) given before (by
    /// that or by [`config`](Self::config)).
    #[must_use]
    pub fn pool(mut self, pool: &'a ThreadPool) -> Self {
        self.config.threads = None;
        self.pool = Some(pool);
        self
    }

    /// Count only the units `ids` of the plan.
    #[must_use]
    pub fn units(self, ids: &'a [u32]) -> Self {
        Self {
            units: Some(ids),
            ..self
        }
    }

    /// Stop handing out units once `flag` is set; the count then holds the
    /// units that finished, each exact. Units under way of the mirror and
    /// constellations engines stop inside (they are counted in pieces) and
    /// are left out. [`run`](Self::run) set while the join lists its jobs
    /// gives up the plan: [`Error::Cancelled`].
    #[must_use]
    pub fn cancel(self, flag: &'a AtomicBool) -> Self {
        Self {
            cancel: Some(flag),
            ..self
        }
    }

    /// The engine this count uses: the one named, else the executor's
    /// [choice](Executor::engine_for) for `n`.
    #[must_use]
    pub fn chosen_engine(&self) -> Engine {
        self.engine
            .unwrap_or_else(|| self.config.executor.engine_for(self.n))
    }

    /// The shape of the plan this count runs: its `n`, the
    /// [chosen engine](Self::chosen_engine) and the
    /// [split](Self::split_depth) given, if any.
    #[must_use]
    pub fn shape(&self) -> Shape {
        Shape::new(self.n, self.chosen_engine(), self.split_depth)
    }

    /// The plan this count runs.
    ///
    /// # Errors
    /// As [`Plan::new`].
    pub fn plan(&self) -> Result<Plan, Error> {
        Plan::new(self.shape(), &self.config)
    }

    /// Builds the plan and counts.
    ///
    /// # Errors
    /// As [`Plan::new`]; [`Error::Unit`] or [`Error::DuplicateUnit`] for a
    /// bad unit list; [`Error::Threads`] or [`Error::Pool`];
    /// [`Error::Cancelled`] when the [cancel](Self::cancel) flag was set
    /// before the plan was built.
    pub fn run(&self) -> Result<Count, Error> {
        let stop = || self.cancel.is_some_and(|c| c.load(Ordering::Relaxed));
        self.fits_unplanned()?;
        let (n, engine) = (self.n, self.chosen_engine());
        let plan = Plan::new_unless(n, engine, self.split_depth, &self.config, &stop)?
            .ok_or(Error::Cancelled)?;
        self.run_plan(&plan)
    }

    /// Counts the units of `plan` (built by [`plan`](Self::plan) or
    /// [`Plan::new`] for this builder's `n` and engine), with the options
    /// the plan was built with ([`Plan::options`]).
    ///
    /// # Errors
    /// As [`run`](Self::run), without the plan's; [`Error::OtherPlan`] when
    /// the plan is not for this builder's `n` or named engine;
    /// [`Error::OtherSplit`] or [`Error::NoSplit`] when this builder was
    /// given a [split](Self::split_depth) other than the plan's;
    /// [`Error::OtherOptions`] when this builder was given
    /// [options](Self::options) (or a [config](Self::config)) other than
    /// the plan's;
    /// [`Error::Memory`] when the config's memory limit is below the
    /// count's [estimate](Plan::count_memory); [`Error::Gpu`] when the GPU
    /// is asked for and cannot count this plan or is not there.
    pub fn run_plan(&self, plan: &Plan) -> Result<Count, Error> {
        let job = match self.units {
            Some(ids) => plan.select(ids)?,
            None => plan.select_all(),
        };
        self.run_job(plan, &job)
    }

    /// Whether [`units`](Self::units) were given.
    pub(crate) fn has_units(&self) -> bool {
        self.units.is_some()
    }

    /// The observer each finished unit goes to.
    pub(crate) fn watcher(&self) -> &'a dyn Observer {
        self.observer
    }

    /// Counts what `job` (a selection of `plan`'s units, checked when it
    /// was made, less the units resumed from a journal) has left, and adds
    /// the resumed units: the count's one path to the runner, for
    /// [`run_plan`](Self::run_plan) and [`crate::Run`].
    pub(crate) fn run_job(&self, plan: &Plan, job: &Selection) -> Result<Count, Error> {
        if plan.n() != self.n || self.engine.is_some_and(|e| e != plan.engine()) {
            return Err(Error::OtherPlan {
                n: self.n,
                engine: self.chosen_engine().name(),
                plan_n: plan.n(),
                plan_engine: plan.engine().name(),
            });
        }
        if let Some(split) = self.split_depth {
            match plan.split_depth() {
                None => {
                    return Err(Error::NoSplit {
                        engine: plan.engine().name(),
                    });
                }
                Some(plan_split) if plan_split != split => {
                    return Err(Error::OtherSplit { split, plan_split });
                }
                Some(_) => {}
            }
        }
        if self.options_given && self.config.options != *plan.options() {
            return Err(Error::OtherOptions);
        }
        if let Some(t) = self.config.threads.filter(|t| t.get() > MAX_THREADS) {
            return Err(Error::Threads(t.get()));
        }
        self.fits(plan)?;
        let ids = job.left();
        let gpu;
        let runner = match self.config.executor {
            Executor::Cpu => Runner::Cpu {
                pool: self.pool,
                threads: self.config.threads,
            },
            Executor::Gpu => {
                super::gpu::refuse(plan)?;
                gpu = Gpu::open(plan.options().gpu)?;
                Runner::Gpu(&gpu)
            }
        };
        let finished = match self.pool {
            // The GPU's tasks are cut on the caller's pool, if given.
            Some(pool) if matches!(runner, Runner::Gpu(_)) => {
                pool.install(|| run::run(plan, ids, &runner, self.observer, self.cancel))?
            }
            _ => run::run(plan, ids, &runner, self.observer, self.cancel)?,
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
            executor: self.config.executor,
            split_depth: plan.split_depth(),
            unit_counts,
            units_asked: job.len(),
            resumed: job.resumed().iter().map(|&(id, _)| id).collect(),
        })
    }
}

impl Counter<'_> {
    /// `Ok` when counting `plan` fits in the config's memory limit (always,
    /// without one): what [`run_plan`](Self::run_plan) checks first, for a
    /// caller that wants to know before it starts anything else.
    ///
    /// # Errors
    /// [`Error::Memory`] when the count's [estimate](Plan::count_memory),
    /// on this count's threads, is above the limit.
    pub fn fits(&self, plan: &Plan) -> Result<(), Error> {
        let Some(available) = self.config.memory_limit else {
            return Ok(());
        };
        let threads = self.counting_threads();
        let units = self.units.map_or(plan.len(), <[u32]>::len);
        let needed = plan.count_memory(threads, units);
        if needed > available {
            return Err(Error::Memory {
                doing: "counting",
                n: plan.n(),
                by: plan.engine().described(),
                needed,
                available,
            });
        }
        Ok(())
    }
}

impl Counter<'_> {
    /// `Ok` unless even a lower bound on the count's memory, found from
    /// the plan's sizes without building it
    /// ([`Plan::count_memory_floor`]: milliseconds), is above the config's
    /// memory limit: what [`run`](Self::run) checks before it builds the
    /// plan (the join's takes minutes at n = 28), for a caller that builds
    /// the plan itself. [`fits`](Self::fits) checks again once it is built.
    ///
    /// # Errors
    /// As [`Plan::new`], but never a plan's [`Error::Memory`];
    /// [`Error::Memory`] when the floor, on this count's threads, is above
    /// the limit.
    pub fn fits_unplanned(&self) -> Result<(), Error> {
        let Some(available) = self.config.memory_limit else {
            return Ok(());
        };
        let engine = self.chosen_engine();
        let needed = Plan::count_memory_floor(
            self.shape(),
            self.counting_threads(),
            self.units.map(<[u32]>::len),
        )?;
        if needed > available {
            return Err(Error::Memory {
                doing: "counting",
                n: self.n,
                by: engine.described(),
                needed,
                available,
            });
        }
        Ok(())
    }

    /// The threads this count runs on: its pool's, else its config's.
    fn counting_threads(&self) -> usize {
        self.pool.map_or_else(
            || threads_of(self.config.threads),
            ThreadPool::current_num_threads,
        )
    }
}
