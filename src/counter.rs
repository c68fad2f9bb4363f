//! [`Counter`]: the one-line count, a plan's description and a
//! [`Runner`] in one builder, for the common case.
//!
//! It holds what [`Plan::new`] takes (n, the engine, the split, the
//! config) and a runner, nothing of its own: [`run`](Counter::run) builds
//! the plan and hands it to the runner. A plan built apart is counted by
//! [`Runner::count`]; [`run_plan`](Counter::run_plan) takes one only where
//! it is the plan the counter describes.

use std::sync::atomic::AtomicBool;

use rayon::ThreadPool;

use crate::{Config, Count, Engine, Error, Executor, Observer, Options, Plan, Runner, Shape};

/// A count with everything but `n` optional: the builder behind
/// [`crate::count()`].
///
/// Without [`threads`](Self::threads) or [`pool`](Self::pool) the units
/// run on rayon's current pool: no count builds a pool unasked. What the
/// plan is ([`engine`](Self::engine), [`split_depth`](Self::split_depth),
/// [`config`](Self::config)) and where it runs (the rest: its
/// [`Runner`]) are each said once; the last of `threads` and `pool` is
/// where the units run.
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
    /// The engine named, else the executor's choice for `n`.
    engine: Option<Engine>,
    /// The mirror engine's split, if given.
    split_depth: Option<u32>,
    /// The plan's config, if given (else the default).
    config: Option<Config>,
    runner: Runner<'a>,
    units: Option<&'a [u32]>,
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
            config: None,
            runner: Runner::new(),
            units: None,
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

    /// Count on `threads` threads (1 to [`crate::MAX_THREADS`], checked
    /// when it counts); one counts on the calling thread. Replaces a
    /// [`pool`](Self::pool) given before.
    #[must_use]
    pub fn threads(self, threads: usize) -> Self {
        Self {
            runner: self.runner.thread_count(threads),
            ..self
        }
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
    pub fn executor(self, executor: Executor) -> Self {
        Self {
            runner: self.runner.executor(executor),
            ..self
        }
    }

    /// How the count may use the hardware: the plan's config with
    /// `options`.
    #[must_use]
    pub fn options(self, options: Options) -> Self {
        let config = self.config.unwrap_or_default().with_options(options);
        Self {
            config: Some(config),
            ..self
        }
    }

    /// The plan's config: its memory limit and options.
    #[must_use]
    pub fn config(self, config: &Config) -> Self {
        Self {
            config: Some(*config),
            ..self
        }
    }

    /// Report each finished unit to `observer`.
    #[must_use]
    pub fn observer(self, observer: &'a dyn Observer) -> Self {
        Self {
            runner: self.runner.observer(observer),
            ..self
        }
    }

    /// Count on `pool` (see [`crate::thread_pool`]) rather than a pool of
    /// its own: replaces the [`threads`](Self::threads) given before.
    #[must_use]
    pub fn pool(self, pool: &'a ThreadPool) -> Self {
        Self {
            runner: self.runner.pool(pool),
            ..self
        }
    }

    /// Count only the units `ids` of the plan.
    #[must_use]
    pub fn units(self, ids: &'a [u32]) -> Self {
        Self {
            units: Some(ids),
            ..self
        }
    }

    /// Stop handing out units once `flag` is set ([`Runner::stop`]): the
    /// count holds the units that finished, each exact.
    #[must_use]
    pub fn cancel(self, flag: &'a AtomicBool) -> Self {
        Self {
            runner: self.runner.stop(flag),
            ..self
        }
    }

    /// The engine this count uses: the one named, else the executor's
    /// [choice](Executor::engine_for) for `n`.
    #[must_use]
    pub fn chosen_engine(&self) -> Engine {
        self.engine
            .unwrap_or_else(|| self.runner.executor_of().engine_for(self.n))
    }

    /// The shape of the plan this count runs: its `n`, the
    /// [chosen engine](Self::chosen_engine) and the
    /// [split](Self::split_depth) given, if any.
    #[must_use]
    pub fn shape(&self) -> Shape {
        Shape::new(self.n, self.chosen_engine(), self.split_depth)
    }

    /// Where this count runs.
    pub fn runner(&self) -> Runner<'a> {
        self.runner
    }

    /// The plan this count runs.
    ///
    /// # Errors
    /// As [`Plan::new`].
    pub fn plan(&self) -> Result<Plan, Error> {
        Plan::new(self.shape(), &self.config.unwrap_or_default())
    }

    /// Builds the plan and counts, refused before the plan is built where
    /// even the least the count can take is more memory than the config
    /// allows ([`Runner::fits_unplanned`]).
    ///
    /// # Errors
    /// As [`Plan::new`] and [`Runner::count`]; [`Error::Unit`] or
    /// [`Error::DuplicateUnit`] for a bad unit list.
    pub fn run(&self) -> Result<Count, Error> {
        let config = self.config.unwrap_or_default();
        let units = self.units.map(<[u32]>::len);
        self.runner.fits_unplanned(self.shape(), &config, units)?;
        self.count(&self.plan()?)
    }

    /// Counts `plan`, which must be the plan this counter describes (built
    /// by [`plan`](Self::plan), or by [`Plan::new`] of the same shape and
    /// config): its board, the engine and split if named, the config if
    /// given. A plan built apart is counted by [`Runner::count`].
    ///
    /// # Errors
    /// As [`run`](Self::run), without the plan's; [`Error::OtherPlan`]
    /// naming what differs; [`Error::NoSplit`] when this counter was given
    /// a split and the plan's engine has none.
    pub fn run_plan(&self, plan: &Plan) -> Result<Count, Error> {
        self.describes(plan)?;
        self.count(plan)
    }

    /// The counter's units of `plan`, on its runner.
    fn count(&self, plan: &Plan) -> Result<Count, Error> {
        let selection = match self.units {
            Some(ids) => plan.select(ids)?,
            None => plan.select_all(),
        };
        self.runner.count(plan, &selection)
    }

    /// `Ok` when `plan` is one this counter describes.
    fn describes(&self, plan: &Plan) -> Result<(), Error> {
        let other = |what, plan: String, count: String| Error::OtherPlan { what, plan, count };
        if plan.n() != self.n {
            return Err(other("board", plan.n().to_string(), self.n.to_string()));
        }
        if let Some(engine) = self.engine.filter(|&e| e != plan.engine()) {
            return Err(other(
                "engine",
                plan.engine().to_string(),
                engine.to_string(),
            ));
        }
        if let Some(split) = self.split_depth {
            match plan.split_depth() {
                None => {
                    return Err(Error::NoSplit {
                        engine: plan.engine().name(),
                    });
                }
                Some(rows) if rows != split => {
                    return Err(other("split", rows.to_string(), split.to_string()));
                }
                Some(_) => {}
            }
        }
        if let Some(config) = self.config.filter(|c| c != plan.config()) {
            return Err(other(
                "config",
                format!("{:?}", plan.config()),
                format!("{config:?}"),
            ));
        }
        Ok(())
    }
}

/// The number of solutions of the `n`-queens puzzle, with the best engine
/// for `n` on every core (rayon's global pool): the one call for programs
/// that embed the library, as fast as `queens count`. It is
/// `Counter::new(n).run()`; [`Counter`] chooses the rest.
///
/// ```
/// assert_eq!(queens::count(8)?, 92);
/// assert_eq!(queens::count(14)?, 365_596);
/// # Ok::<(), queens::Error>(())
/// ```
///
/// # Errors
/// [`Error::BoardSize`] when `n` is not in `1..=32`; [`Error::Pool`] if
/// the threads cannot start.
pub fn count(n: u32) -> Result<u128, Error> {
    Counter::new(n).run().map(|c| c.solutions)
}
