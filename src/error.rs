//! Why a count, a plan or an enumeration could not start.
//!
//! Every message names the value that was refused, who refused it and the
//! range it accepts, so a caller can print it as it is. Nothing here is
//! raised after a count has started, except by the GPU: the CPU engines do
//! not fail mid-run.

/// The most threads a pool may be asked for. More is a typo, not a machine.
pub const MAX_THREADS: usize = 4096;

/// Why a count, a plan or an enumeration could not start.
#[derive(Clone, Debug, thiserror::Error, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// The board size is outside what `by` handles.
    #[error("board size {n} is out of range: {by} takes n from {min} to {max}")]
    BoardSize {
        /// The size asked for.
        n: u32,
        /// What refused it: `"the join engine"`, `"the mirror engine"`, ...
        by: &'static str,
        /// The smallest size it takes.
        min: u32,
        /// The largest size it takes.
        max: u32,
    },
    /// More rows were asked for than the board has.
    #[error("{rows} rows asked of a board of {n}: at most {n}")]
    Rows {
        /// The rows asked for.
        rows: u32,
        /// The board size.
        n: u32,
    },
    /// The split depth is outside what the mirror engine supports.
    #[error("split depth {depth} is out of range: it must be between 1 and {max}")]
    SplitDepth {
        /// The depth asked for.
        depth: u32,
        /// The deepest split.
        max: u32,
    },
    /// The thread count is absurd.
    #[error("{0} threads is out of range: use between 1 and {MAX_THREADS}")]
    Threads(usize),
    /// The operating system refused to start the pool's threads.
    #[error("could not start the thread pool: {0}")]
    Pool(String),
    /// A unit id that the plan does not have.
    #[error("unit {id} is not in the plan: it has units 0 to {last}", last = .units.saturating_sub(1))]
    Unit {
        /// The id asked for.
        id: u32,
        /// How many units the plan has.
        units: usize,
    },
    /// The same unit asked for twice in one run.
    #[error("unit {0} is asked for more than once")]
    DuplicateUnit(u32),
    /// The GPU engine cannot run here (no driver, no device, a build
    /// without the `gpu` feature) or the GPU failed: one line saying which.
    #[error("{0}")]
    Gpu(String),
}

impl Error {
    /// `n` is outside `min..=max` for `by`.
    pub(crate) fn board_size(n: u32, by: &'static str, min: u32, max: u32) -> Self {
        Self::BoardSize { n, by, min, max }
    }
}
