//! The counting engines: the work units of [`crate::units`] searched by the
//! kernel, one after another or in parallel.
//!
//! Both engines take the same arguments and return the same [`Count`]; tests
//! compare them. The parallel one runs on a thread pool of its own, so a
//! caller's global rayon pool is never touched, and reports every finished
//! unit to an [`Observer`] the caller supplies (the CLI draws its progress
//! bar from it). Nothing here prints, exits or reads the environment, except
//! that a pool of default size follows `RAYON_NUM_THREADS` as rayon does.

use std::num::NonZeroUsize;

use rayon::prelude::*;

use crate::kernel::{MAX_N, count_completions};
use crate::units::{DEFAULT_SPLIT_DEPTH, MAX_SPLIT_DEPTH, WorkUnit, work_units};

/// The most threads a pool may be asked for. More is a typo, not a machine.
pub const MAX_THREADS: usize = 4096;

/// Why a count could not start.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum Error {
    /// The board size is outside what the kernel supports.
    #[error("board size {0} is out of range: n must be between 1 and {MAX_N}")]
    BoardSize(u32),
    /// The split depth is outside what the engines support.
    #[error("split depth {0} is out of range: it must be between 1 and {MAX_SPLIT_DEPTH}")]
    SplitDepth(u32),
    /// The thread count is absurd.
    #[error("{0} threads is out of range: use between 1 and {MAX_THREADS}")]
    Threads(usize),
    /// The operating system refused to start the pool's threads.
    #[error("could not start the thread pool: {0}")]
    Pool(String),
}

/// How to run a count. `Config::default()` uses every core and splits on
/// two rows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Config {
    /// Threads for the parallel engine; `None` means rayon's default (the
    /// `RAYON_NUM_THREADS` variable, else one per logical CPU).
    pub threads: Option<NonZeroUsize>,
    /// How many rows the units fix (`1..=MAX_SPLIT_DEPTH`).
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
    /// The default configuration with exactly `threads` threads.
    #[must_use]
    pub fn with_threads(threads: usize) -> Self {
        Self {
            threads: NonZeroUsize::new(threads),
            ..Self::default()
        }
    }
}

/// The outcome of a count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Count {
    /// Board size.
    pub n: u32,
    /// Number of solutions (OEIS A000170 for this `n`).
    pub solutions: u128,
    /// Number of work units searched.
    pub units: usize,
    /// Threads that searched them (1 for the serial engine).
    pub threads: usize,
    /// Rows fixed by each unit (the middle-column units of odd `n` fix at
    /// least two); `None` for engines that do not split on rows.
    pub split_depth: Option<u32>,
}

/// Receives each finished work unit, from whichever thread finished it.
///
/// Every engine reports through it: the backtracking engine's units are
/// [`WorkUnit`]s (cost 1 each), the join engine's are row-set jobs with a
/// cost estimate in pair tests. Called once per unit, never per solution, so
/// an implementation may take a lock.
pub trait Observer: Sync {
    /// Called once before any unit runs: how many units there are and the
    /// sum of their costs.
    fn start(&self, _units: usize, _total_cost: u64) {}
    /// Called once for every unit, as it finishes: its id, its contribution
    /// to the total (completions times weight) and its estimated cost.
    fn unit_done(&self, id: u32, solutions: u128, cost: u64);
}

/// An observer that ignores everything.
impl Observer for () {
    fn unit_done(&self, _id: u32, _solutions: u128, _cost: u64) {}
}

/// Counts the solutions of the `n`-queens puzzle on the calling thread,
/// unit by unit in id order.
///
/// # Errors
/// [`Error::BoardSize`] or [`Error::SplitDepth`] for arguments out of range.
pub fn count_serial(n: u32, config: &Config, observer: &impl Observer) -> Result<Count, Error> {
    let units = prepare(n, config)?;
    observer.start(units.len(), units.len() as u64);
    let solutions = units.iter().map(|u| search(n, u, observer)).sum();
    Ok(Count {
        n,
        solutions,
        units: units.len(),
        threads: 1,
        split_depth: Some(config.split_depth),
    })
}

/// Counts the solutions of the `n`-queens puzzle on a thread pool of its
/// own, one rayon task per unit.
///
/// The total never depends on the thread count, the split depth, or the
/// order in which units finish.
///
/// # Errors
/// [`Error::BoardSize`], [`Error::SplitDepth`] or [`Error::Threads`] for
/// arguments out of range; [`Error::Pool`] if the threads cannot start.
pub fn count_parallel(n: u32, config: &Config, observer: &impl Observer) -> Result<Count, Error> {
    let units = prepare(n, config)?;
    let pool = build_pool(config.threads)?;
    observer.start(units.len(), units.len() as u64);
    let solutions = pool.install(|| {
        units
            .par_iter()
            // One unit per task: units differ in size by orders of magnitude,
            // so let every one be stolen on its own.
            .with_max_len(1)
            .map(|u| search(n, u, observer))
            .sum()
    });
    Ok(Count {
        n,
        solutions,
        units: units.len(),
        threads: pool.current_num_threads(),
        split_depth: Some(config.split_depth),
    })
}

/// The total for `n` with every core and the default split: the one-call
/// entry point for programs that embed the library.
///
/// # Errors
/// [`Error::BoardSize`] when `n` is not in `1..=32`.
pub fn count(n: u32) -> Result<u128, Error> {
    count_parallel(n, &Config::default(), &()).map(|c| c.solutions)
}

fn prepare(n: u32, config: &Config) -> Result<Vec<WorkUnit>, Error> {
    if !(1..=MAX_N).contains(&n) {
        return Err(Error::BoardSize(n));
    }
    if !(1..=MAX_SPLIT_DEPTH).contains(&config.split_depth) {
        return Err(Error::SplitDepth(config.split_depth));
    }
    if let Some(t) = config.threads
        && t.get() > MAX_THREADS
    {
        return Err(Error::Threads(t.get()));
    }
    Ok(work_units(n, config.split_depth))
}

pub(crate) fn build_pool(threads: Option<NonZeroUsize>) -> Result<rayon::ThreadPool, Error> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads.map_or(0, NonZeroUsize::get))
        .thread_name(|i| format!("queens-{i}"))
        .build()
        .map_err(|e| Error::Pool(e.to_string()))
}

fn search(n: u32, unit: &WorkUnit, observer: &impl Observer) -> u128 {
    let solutions = count_completions(n, unit.rows, unit.masks) * u128::from(unit.weight);
    observer.unit_done(unit.id, solutions, 1);
    solutions
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arguments_out_of_range_are_refused() {
        let c = Config::default();
        assert_eq!(count_serial(0, &c, &()), Err(Error::BoardSize(0)));
        assert_eq!(count_parallel(33, &c, &()), Err(Error::BoardSize(33)));
        let deep = Config {
            split_depth: 7,
            ..c
        };
        assert_eq!(count_serial(8, &deep, &()), Err(Error::SplitDepth(7)));
        let many = Config::with_threads(MAX_THREADS + 1);
        assert_eq!(
            count_parallel(8, &many, &()),
            Err(Error::Threads(MAX_THREADS + 1))
        );
    }

    #[test]
    fn small_boards_match_the_known_totals() {
        for n in 1..=10 {
            let want = crate::known::total(n);
            let got = count_serial(n, &Config::default(), &()).unwrap();
            assert_eq!(Some(got.solutions), want, "n = {n}");
        }
    }

    #[test]
    fn parallel_reports_the_pool_size() {
        let got = count_parallel(8, &Config::with_threads(3), &()).unwrap();
        assert_eq!((got.solutions, got.threads), (92, 3));
    }
}
