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
//! [`Engine::Gpu`] counts the mirror engine's units on an NVIDIA GPU (the
//! `gpu` feature; see [`gpu`]); it is never picked unasked.
//!
//! [`Engine::best_for`] picks the faster CPU engine for `n`; each is the
//! other's [`second_opinion`](Engine::second_opinion). [`count`] is the one call;
//! [`Counter`] is the builder for the rest (engine, threads, a pool to
//! share, an observer, a subset of units, a cancel flag).

mod counter;
pub mod gpu;
pub(crate) mod join;
pub(crate) mod mirror;
pub mod plan;
mod run;

use std::fmt;
use std::num::NonZeroUsize;
use std::ops::RangeInclusive;
use std::str::FromStr;

pub use self::counter::{Count, Counter};
pub use self::mirror::{DEFAULT_SPLIT_DEPTH, MAX_SPLIT_DEPTH};
pub use self::plan::{Plan, PlanHash, Scratch, Unit};
pub use self::run::{Observer, UnitDone, thread_pool};
use crate::Error;

/// A counting engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[non_exhaustive]
pub enum Engine {
    /// Bitmask backtracking with mirror symmetry, split on its first rows.
    Mirror,
    /// The half-board join with the board's symmetries; odd boards fix the
    /// middle-column queen.
    Join,
    /// The join with odd boards split into unequal halves (cross-checks).
    #[doc(hidden)]
    #[cfg_attr(feature = "cli", value(hide = true))]
    JoinUnequal,
    /// The join's unoptimised reference stage (cross-checks).
    #[doc(hidden)]
    #[cfg_attr(feature = "cli", value(hide = true))]
    JoinReference,
    /// The join without symmetry (cross-checks).
    #[doc(hidden)]
    #[cfg_attr(feature = "cli", value(hide = true))]
    JoinSliced,
    /// The mirror engine's units cut into millions of tasks, counted on an
    /// NVIDIA GPU (the `gpu` feature; n = 4..=32).
    Gpu,
}

impl Engine {
    /// Every engine, the hidden join stages last.
    pub const ALL: [Self; 6] = [
        Self::Mirror,
        Self::Join,
        Self::Gpu,
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
            Self::Gpu => gpu::MIN_N..=gpu::MAX_N,
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
            // The GPU counts the mirror engine's units: the join shares
            // nothing with it.
            Self::Gpu if Self::Join.covers(n) => Self::Join,
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
            Self::Gpu => "gpu",
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
            Self::Gpu => "the GPU engine",
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
#[error("unknown engine '{0}': expected mirror, join or gpu")]
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

/// How to run a count: threads, the mirror engine's split, and the memory
/// it may take. `Config::default()` uses every core, splits on two rows and
/// sets no limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Config {
    /// Threads; `None` means rayon's default (the `RAYON_NUM_THREADS`
    /// variable, else one per logical CPU).
    pub threads: Option<NonZeroUsize>,
    /// How many rows the mirror engine's units fix (`1..=MAX_SPLIT_DEPTH`).
    pub split_depth: u32,
    /// The memory this machine has available, in bytes: a plan or a count
    /// estimated to need more is refused with [`Error::Memory`] before it
    /// allocates (see [`Plan::memory_estimate`]). `None`: no check. The
    /// library never looks at the machine; the CLI reads what it has.
    pub memory_limit: Option<u64>,
}

impl Default for Config {
    fn default() -> Self {
        Self {
            threads: None,
            split_depth: DEFAULT_SPLIT_DEPTH,
            memory_limit: None,
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

    /// This configuration refusing plans and counts that need more than
    /// `bytes` (`None`: no limit).
    #[must_use]
    pub fn with_memory_limit(self, bytes: Option<u64>) -> Self {
        Self {
            memory_limit: bytes,
            ..self
        }
    }
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
