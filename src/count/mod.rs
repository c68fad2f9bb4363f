//! Counting: the engines, their plans of work units, the one runner, and
//! the choice of engine for a board size.
//!
//! Two independent engines count, each through a [`Plan`] of units:
//!
//! - [`Engine::Mirror`] backtracks row by row on bitmasks, split into units
//!   on its first rows, with mirror symmetry halving the work (n = 1..=32);
//! - [`Engine::Join`] pairs left and right half-boards (Kluev's quadrant
//!   join), one unit per row set, with the board's symmetries (n = 4..=24).
//!
//! [`Engine::best_for`] picks the faster for `n`; each is the other's
//! [`second_opinion`](Engine::second_opinion). [`count`] is the one call;
//! [`Counter`] is the builder for the rest (engine, threads, a pool to
//! share, an observer, a subset of units, a cancel flag).

pub(crate) mod join;
pub(crate) mod mirror;
pub mod plan;
mod run;

use std::fmt;
use std::num::NonZeroUsize;
use std::ops::RangeInclusive;
use std::str::FromStr;
use std::sync::atomic::AtomicBool;

use rayon::ThreadPool;

pub use self::mirror::{DEFAULT_SPLIT_DEPTH, MAX_SPLIT_DEPTH};
pub use self::plan::{Plan, PlanHash, Scratch, Unit};
pub use self::run::{Observer, UnitDone, thread_pool};
use crate::Error;
use crate::error::MAX_THREADS;

/// A counting engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Engine {
    /// Bitmask backtracking with mirror symmetry, split on its first rows.
    Mirror,
    /// The half-board join with the board's symmetries; odd boards fix the
    /// middle-column queen.
    Join,
    /// The join with odd boards split into unequal halves (cross-checks).
    #[doc(hidden)]
    JoinUnequal,
    /// The join's unoptimised reference stage (cross-checks).
    #[doc(hidden)]
    JoinReference,
    /// The join without symmetry (cross-checks).
    #[doc(hidden)]
    JoinSliced,
}

impl Engine {
    /// Every engine, the hidden join stages last.
    pub const ALL: [Self; 5] = [
        Self::Mirror,
        Self::Join,
        Self::JoinUnequal,
        Self::JoinReference,
        Self::JoinSliced,
    ];

    /// The engine for `n` when none is named: the join from n = 12 to 24
    /// (faster there: 10 ms against 51 ms at n = 14, see results/), the
    /// backtracker below and beyond.
    #[must_use]
    pub fn best_for(n: u32) -> Self {
        if (12..=join::MAX_N).contains(&n) {
            Self::Join
        } else {
            Self::Mirror
        }
    }

    /// The board sizes this engine counts.
    #[must_use]
    pub fn range(self) -> RangeInclusive<u32> {
        match self {
            Self::Mirror => 1..=crate::kernel::MAX_N,
            _ => join::MIN_N..=join::MAX_N,
        }
    }

    /// Whether this engine counts an `n`-board.
    #[must_use]
    pub fn covers(self, n: u32) -> bool {
        self.range().contains(&n)
    }

    /// The independent engine to check this one against for `n`, if one
    /// covers it.
    #[must_use]
    pub fn second_opinion(self, n: u32) -> Option<Self> {
        let other = match self {
            Self::Mirror => Self::Join,
            _ => Self::Mirror,
        };
        other.covers(n).then_some(other)
    }

    /// The engine's name, as the CLI and plan texts spell it.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Self::Mirror => "mirror",
            Self::Join => "join",
            Self::JoinUnequal => "join-unequal",
            Self::JoinReference => "join-reference",
            Self::JoinSliced => "join-sliced",
        }
    }

    /// "the join engine", for messages.
    pub(crate) fn described(self) -> &'static str {
        match self {
            Self::Mirror => "the mirror engine",
            Self::Join => "the join engine",
            Self::JoinUnequal => "the join-unequal engine",
            Self::JoinReference => "the join-reference engine",
            Self::JoinSliced => "the join-sliced engine",
        }
    }
}

impl fmt::Display for Engine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is not an engine's.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown engine '{0}': expected mirror or join")]
pub struct UnknownEngine(pub String);

impl FromStr for Engine {
    type Err = UnknownEngine;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::ALL
            .into_iter()
            .find(|e| e.name() == s)
            .ok_or_else(|| UnknownEngine(s.to_owned()))
    }
}

/// How to run a count: threads, and the mirror engine's split.
/// `Config::default()` uses every core and splits on two rows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Config {
    /// Threads; `None` means rayon's default (the `RAYON_NUM_THREADS`
    /// variable, else one per logical CPU).
    pub threads: Option<NonZeroUsize>,
    /// How many rows the mirror engine's units fix (`1..=MAX_SPLIT_DEPTH`).
    pub split_depth: u32,
}

impl Default for Config {
    fn default() -> Self {
        Self {
            threads: None,
            split_depth: DEFAULT_SPLIT_DEPTH,
        }
    }
}

impl Config {
    /// The default configuration with exactly `threads` threads (0: the
    /// default).
    #[must_use]
    pub fn with_threads(threads: usize) -> Self {
        Self {
            threads: NonZeroUsize::new(threads),
            ..Self::default()
        }
    }

    /// This configuration with the mirror engine's units fixing `rows` rows.
    #[must_use]
    pub fn with_split_depth(self, rows: u32) -> Self {
        Self {
            split_depth: rows,
            ..self
        }
    }
}

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
    /// Threads that counted (1 for a serial count).
    pub threads: usize,
    /// Rows fixed by each unit (the mirror engine; the middle-column units
    /// of odd `n` fix at least two); `None` for the join.
    pub split_depth: Option<u32>,
    /// `(id, count)` of every unit counted, in id order.
    pub unit_counts: Vec<(u32, u128)>,
}

impl Count {
    /// Whether every unit of the plan was counted, so that `solutions` is
    /// the board's total.
    #[must_use]
    pub fn is_complete(&self) -> bool {
        self.units == self.plan_units
    }
}

/// A count with everything but `n` optional: the builder behind [`count`].
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
    config: Config,
    observer: &'a dyn Observer,
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
            config: Config::default(),
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
    /// calling thread. Ignored when a [`pool`](Self::pool) is given.
    #[must_use]
    pub fn threads(mut self, threads: usize) -> Self {
        self.config.threads = NonZeroUsize::new(threads);
        self
    }

    /// The mirror engine's split: units fix `rows` rows.
    #[must_use]
    pub fn split_depth(mut self, rows: u32) -> Self {
        self.config.split_depth = rows;
        self
    }

    /// Threads and split from `config`.
    #[must_use]
    pub fn config(self, config: &Config) -> Self {
        Self {
            config: *config,
            ..self
        }
    }

    /// Report each finished unit to `observer`.
    #[must_use]
    pub fn observer(self, observer: &'a dyn Observer) -> Self {
        Self { observer, ..self }
    }

    /// Count on `pool` (see [`thread_pool`]) rather than a pool of its own.
    #[must_use]
    pub fn pool(self, pool: &'a ThreadPool) -> Self {
        Self {
            pool: Some(pool),
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

    /// Stop handing out units once `flag` is set; the count then holds the
    /// units that finished, each exact.
    #[must_use]
    pub fn cancel(self, flag: &'a AtomicBool) -> Self {
        Self {
            cancel: Some(flag),
            ..self
        }
    }

    /// The engine this count uses.
    #[must_use]
    pub fn chosen_engine(&self) -> Engine {
        self.engine.unwrap_or_else(|| Engine::best_for(self.n))
    }

    /// The plan this count runs.
    ///
    /// # Errors
    /// As [`Plan::new`].
    pub fn plan(&self) -> Result<Plan, Error> {
        Plan::new(self.n, self.chosen_engine(), &self.config)
    }

    /// Builds the plan and counts.
    ///
    /// # Errors
    /// As [`Plan::new`]; [`Error::Unit`] or [`Error::DuplicateUnit`] for a
    /// bad unit list; [`Error::Threads`] or [`Error::Pool`].
    pub fn run(&self) -> Result<Count, Error> {
        self.run_plan(&self.plan()?)
    }

    /// Counts the units of `plan` (built by [`plan`](Self::plan) or
    /// [`Plan::new`]; its `n` and engine win over this builder's).
    ///
    /// # Errors
    /// As [`run`](Self::run), without the plan's.
    pub fn run_plan(&self, plan: &Plan) -> Result<Count, Error> {
        if let Some(t) = self.config.threads.filter(|t| t.get() > MAX_THREADS) {
            return Err(Error::Threads(t.get()));
        }
        let all: Vec<u32>;
        let ids = match self.units {
            Some(ids) => {
                check_ids(plan, ids)?;
                ids
            }
            None => {
                all = (0..plan.len() as u32).collect();
                &all
            }
        };
        let finished = run::run(
            plan,
            ids,
            self.pool,
            self.config.threads,
            self.observer,
            self.cancel,
        )?;
        Ok(Count {
            n: plan.n(),
            engine: plan.engine(),
            solutions: finished.counts.iter().map(|&(_, c)| c).sum(),
            units: finished.counts.len(),
            plan_units: plan.len(),
            plan: plan.hash(),
            threads: finished.threads,
            split_depth: plan.split_depth(),
            unit_counts: finished.counts,
        })
    }
}

/// Every id in the plan, none twice.
fn check_ids(plan: &Plan, ids: &[u32]) -> Result<(), Error> {
    let mut seen = vec![false; plan.len()];
    for &id in ids {
        let slot = seen.get_mut(id as usize).ok_or(Error::Unit {
            id,
            units: plan.len(),
        })?;
        if std::mem::replace(slot, true) {
            return Err(Error::DuplicateUnit(id));
        }
    }
    Ok(())
}

/// The number of solutions of the `n`-queens puzzle, with the best engine
/// for `n` on every core: the one call for programs that embed the library,
/// as fast as `queens count`.
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

/// Counts with the mirror engine on the calling thread, the units in
/// order of cost.
///
/// # Errors
/// [`Error::BoardSize`] or [`Error::SplitDepth`] for arguments out of range.
pub fn count_serial(n: u32, config: &Config, observer: &impl Observer) -> Result<Count, Error> {
    Counter::new(n)
        .engine(Engine::Mirror)
        .config(config)
        .threads(1)
        .observer(observer)
        .run()
}

/// Counts with the mirror engine on a pool of `config.threads` threads.
/// The total never depends on the thread count, the split depth, or the
/// order in which units finish.
///
/// # Errors
/// As [`count_serial`]; [`Error::Threads`] or [`Error::Pool`].
pub fn count_parallel(n: u32, config: &Config, observer: &impl Observer) -> Result<Count, Error> {
    Counter::new(n)
        .engine(Engine::Mirror)
        .config(config)
        .observer(observer)
        .run()
}
