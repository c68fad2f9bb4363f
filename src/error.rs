//! Why a count, a plan or an enumeration could not start.
//!
//! Every message names the value that was refused, who refused it and the
//! range it accepts, so a caller can print it as it is. Nothing here is
//! raised after a count has started, except by the GPU and by an observer
//! (a journal whose sync failed): the CPU engines do not fail mid-run.

/// The most threads a pool may be asked for. More is a typo, not a machine.
pub const MAX_THREADS: usize = 4096;

/// `, line N` of a message, or nothing for line 0 (no line at all).
fn at_line(line: usize) -> String {
    match line {
        0 => String::new(),
        line => format!(", line {line}"),
    }
}

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
    /// A board of more rows than a [`crate::Queen`]'s row can name.
    #[error("a board of {0} rows is too long: at most {max} rows", max = u32::MAX)]
    LongBoard(u64),
    /// A shard that is not one of a run's: `0 <= index < of <= MAX_SHARDS`.
    #[error(
        "shard {index}/{of} is out of range: give I/K with 0 <= I < K <= {max}",
        max = crate::shard::MAX_SHARDS
    )]
    Shard {
        /// The index asked for.
        index: u32,
        /// The shard count asked for.
        of: u32,
    },
    /// The split depth is outside what the mirror engine supports.
    #[error("split depth {depth} is out of range: it must be between 1 and {max}")]
    SplitDepth {
        /// The depth asked for.
        depth: u32,
        /// The deepest split.
        max: u32,
    },
    /// A split depth given to an engine whose units are fixed by `n` (see
    /// [`crate::Shape`]): it would be ignored.
    #[error(
        "the {engine} engine has no split depth (its units are fixed by n): give none, or use \
         the mirror engine"
    )]
    NoSplit {
        /// The engine's name.
        engine: &'static str,
    },
    /// The thread count is absurd.
    #[error("{0} threads is out of range: use between 1 and {MAX_THREADS}")]
    Threads(usize),
    /// The operating system refused to start the pool's threads.
    #[error("could not start the thread pool: {0}")]
    Pool(String),
    /// An estimate's sample out of range: a percentage outside `(0, 100]`
    /// or seconds that are not positive.
    #[error(
        "sample {0} is out of range: give a percentage in (0, 100] or a positive number of seconds"
    )]
    Sample(String),
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
    /// Counting ended without every unit asked for exactly once: no total
    /// is given. A bug, never the caller's doing.
    #[error(
        "internal error: {counted} unit counts for {asked} units asked; no total is given \
         (please report it)"
    )]
    Incomplete {
        /// Unit counts at hand, resumed and new.
        counted: usize,
        /// Units asked for.
        asked: usize,
    },
    /// A plan, or a count, would need more memory than the caller has
    /// (see [`crate::Config::memory_limit`]): refused before anything big
    /// is allocated.
    #[error(
        "{doing} n = {n} with {by} needs about {needed}; this machine has {available} available",
        needed = Bytes(*.needed),
        available = Bytes(*.available)
    )]
    Memory {
        /// `"planning"` or `"counting"`.
        doing: &'static str,
        /// The board size.
        n: u32,
        /// The engine: `"the join engine"`, ...
        by: &'static str,
        /// The estimated need, in bytes.
        needed: u64,
        /// The limit, in bytes.
        available: u64,
    },
    /// An engine name this build does not have (on the command line, or in
    /// a shard file or a journal written by another build).
    #[error("unknown engine '{0}': expected mirror, join or constellations")]
    UnknownEngine(String),
    /// `gpu`, the GPU engine of an older queens: the GPU now runs the
    /// constellations and mirror engines' plans (see
    /// [`crate::Executor::Gpu`]), so its plans, journals and shards are
    /// theirs.
    #[error(
        "engine 'gpu' was the GPU engine of an older queens, whose plans this queens does not \
         have: count again (the GPU now runs the constellations engine's plan, with --gpu)"
    )]
    OldGpuEngine,
    /// A given queen or a blocked square outside the board (0-based in
    /// the fields, 1-based `row:column` in the message).
    #[error(
        "{what} {r}:{c} is off the board: rows and columns run from 1 to {n}",
        r = .row + 1,
        c = .col + 1
    )]
    OffBoard {
        /// `"given queen"`, `"blocked square"` or (a board checked) `"queen"`.
        what: &'static str,
        /// The square's row, 0-based.
        row: u32,
        /// The square's column, 0-based.
        col: u32,
        /// The board size.
        n: u32,
    },
    /// One square given twice (the same queen named again), which is not
    /// two queens sharing a row.
    #[error(
        "square {r}:{c} is given twice: name each given queen once",
        r = .row + 1,
        c = .col + 1
    )]
    GivenTwice {
        /// The square's row, 0-based.
        row: u32,
        /// The square's column, 0-based.
        col: u32,
    },
    /// Two given queens in one row.
    #[error(
        "given queens {r}:{a} and {r}:{b} share row {r}: one queen a row",
        r = .row + 1,
        a = .cols.0 + 1,
        b = .cols.1 + 1
    )]
    GivenRow {
        /// The row, 0-based.
        row: u32,
        /// The two queens' columns, 0-based.
        cols: (u32, u32),
    },
    /// A given queen on a square that is blocked too.
    #[error("given queen {r}:{c} is on a blocked square", r = .row + 1, c = .col + 1)]
    GivenBlocked {
        /// The square's row, 0-based.
        row: u32,
        /// The square's column, 0-based.
        col: u32,
    },
    /// A partial board (`Q`, `x`, `.`) that cannot be read.
    #[error("partial board{}: {why}", at_line(*.line))]
    PartialBoard {
        /// The line, 1-based (0: the text has no board at all, and the
        /// message names no line: lines count from 1 wherever people
        /// read them).
        line: usize,
        /// What is wrong with it.
        why: String,
    },
    /// A plan's problem (in a journal's header or a shard file) of
    /// another board size than the plan's.
    #[error("the problem is a board of {problem}, and the plan's is of {n}")]
    ProblemSize {
        /// The plan's board size.
        n: u32,
        /// The problem's.
        problem: u32,
    },
    /// A problem named for an engine that does not count problems.
    #[error(
        "the {engine} engine does not count a problem's completions: only the mirror engine \
         takes given queens and blocked squares"
    )]
    NoProblem {
        /// The engine's name.
        engine: &'static str,
    },
    /// A board size without a solution (2 and 3), where one was asked for.
    #[error("n = {0} has no solution: every board size but 2 and 3 has one")]
    NoSolution(u32),
    /// An algorithm name that is not a step of the ladder.
    #[error(
        "unknown algorithm '{0}': expected cells, attack-counts, scan, flags, bitmask or parallel"
    )]
    UnknownAlgorithm(String),
    /// A name that is not one of the board formats.
    #[error("unknown format '{0}': expected board, spaced, leetcode, columns, jsonl or unicode")]
    UnknownFormat(String),
    /// Not `sha256:` and 64 hex digits.
    #[error("'{0}' is not a plan hash: a plan hash is 'sha256:' and 64 hex digits")]
    PlanHash(String),
    /// A count disagrees with OEIS A000170 ([`crate::bench`] checks every
    /// count it times): a bug or a hardware fault.
    #[error("{by} counted {got} for n = {n} but OEIS A000170 says {want}")]
    Mismatch {
        /// What counted: `"the join engine"`, ...
        by: &'static str,
        /// The board size.
        n: u32,
        /// What it counted.
        got: u128,
        /// What OEIS says.
        want: u128,
    },
    /// A board size past the published values, where a count must be
    /// checked ([`crate::bench`]).
    #[error("n = {0} has no published total to check the count against (n <= 27)")]
    Unpublished(u32),
    /// The symmetric counts of [`crate::unique()`] do not fit the total: one
    /// of them is wrong.
    #[error(
        "inconsistent symmetry counts for n = {n}: total {total}, half-turn symmetric \
         {half_turn}, quarter-turn symmetric {quarter_turn} do not form whole classes"
    )]
    Inconsistent {
        /// Board size.
        n: u32,
        /// The total that was given.
        total: u128,
        /// S180 as counted.
        half_turn: u128,
        /// S90 as counted.
        quarter_turn: u128,
    },
    /// The GPU executor cannot run here (no driver, no device, a build
    /// without the `gpu` feature), cannot run this plan (the join's), or
    /// the GPU failed: one line saying which.
    #[error("{0}")]
    Gpu(String),
    /// A file of a run (its journal, a shard result) could not be read or
    /// written, or an [`crate::Observer`] failed: the run stopped. One line
    /// that names the file.
    #[error("{0}")]
    Io(String),
    /// A count cancelled (see [`crate::Counter::cancel`]) before its plan
    /// was built: nothing was counted.
    #[error("the count was cancelled before its plan was built: nothing was counted")]
    Cancelled,
    /// A [`crate::Counter`] given a plan for another board or engine than
    /// its own.
    #[error(
        "the plan is for n = {plan_n} with the {plan_engine} engine, but the count is for \
         n = {n} with the {engine} engine"
    )]
    OtherPlan {
        /// The count's board size.
        n: u32,
        /// The count's engine.
        engine: &'static str,
        /// The plan's board size.
        plan_n: u32,
        /// The plan's engine.
        plan_engine: &'static str,
    },
    /// A [`crate::Counter`] given hardware options (its own or its
    /// config's) other than those of the plan it is to count: the plan's
    /// are what its units count with, so the count's would be ignored.
    #[error(
        "the plan was built with other options than the count was given: build the plan with \
         the count's options, or give the count none"
    )]
    OtherOptions,
    /// A [`crate::Counter`] given a [split depth](crate::Counter::split_depth)
    /// other than that of the plan it is to count.
    #[error(
        "the plan splits on {plan_split} rows, but the count was given {split}: build the plan \
         with the count's split, or give the count none"
    )]
    OtherSplit {
        /// The count's split depth.
        split: u32,
        /// The plan's split depth.
        plan_split: u32,
    },
    /// A [`crate::Run`] given a counter with units of its own: a run
    /// counts its selection's units, so those would be ignored.
    #[error(
        "a run counts the units of its selection (Plan::select), not its counter's: drop \
         Counter::units"
    )]
    RunUnits,
}

impl Error {
    /// `n` is outside `min..=max` for `by`.
    pub(crate) fn board_size(n: u32, by: &'static str, min: u32, max: u32) -> Self {
        Self::BoardSize { n, by, min, max }
    }
}

/// A byte count as people read it: `5.1 GiB`, `233 MiB`, `512 bytes`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bytes(pub u64);

impl std::fmt::Display for Bytes {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        const UNITS: [&str; 4] = ["KiB", "MiB", "GiB", "TiB"];
        if self.0 < 1024 {
            return write!(f, "{} bytes", self.0);
        }
        let mut value = self.0 as f64 / 1024.0;
        let mut unit = 0;
        while value >= 1024.0 && unit + 1 < UNITS.len() {
            value /= 1024.0;
            unit += 1;
        }
        if value < 10.0 {
            write!(f, "{value:.1} {}", UNITS[unit])
        } else {
            write!(f, "{value:.0} {}", UNITS[unit])
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_read_as_people_write_them() {
        assert_eq!(Bytes(512).to_string(), "512 bytes");
        assert_eq!(Bytes(5_067_547_256).to_string(), "4.7 GiB");
        assert_eq!(Bytes(233 << 20).to_string(), "233 MiB");
        assert_eq!(Bytes(3 << 29).to_string(), "1.5 GiB");
    }
}
