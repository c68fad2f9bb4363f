//! Why a count, a plan or an enumeration could not start.
//!
//! Every message names the value that was refused, who refused it and the
//! range it accepts, so a caller can print it as it is. Nothing here is
//! raised after a count has started, except by the GPU and by an observer
//! (a journal whose sync failed): the CPU engines do not fail mid-run.

/// The most threads a pool may be asked for. More is a typo, not a machine.
pub const MAX_THREADS: usize = 4096;

/// The most shards a run may have (`queens::shard::MAX_SHARDS`).
pub const MAX_SHARDS: u32 = 100_000;

/// `, line N` of a message, or nothing for line 0 (no line at all).
fn at_line(line: usize) -> String {
    match line {
        0 => String::new(),
        line => format!(", line {line}"),
    }
}

/// Why a count, a plan or an enumeration could not start.
///
/// Two errors are equal when they are the same variant and say the same,
/// causes included: the causes some carry (an [`std::io::Error`], the
/// thread pool's, the GPU driver's) have no equality of their own.
#[derive(Debug, thiserror::Error)]
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
        max = MAX_SHARDS
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
    #[error("could not start the thread pool")]
    Pool(#[source] rayon::ThreadPoolBuildError),
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
        "{doing} n = {n} with {by} needs about {needed}{parts}; this machine has {available} \
         available",
        needed = crate::human::Bytes(*.needed),
        parts = memory_parts(.parts.as_ref()),
        available = crate::human::Bytes(*.available)
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
        /// What `needed` is made of, for a count: what it takes once,
        /// a unit counted at once and a thread (`None` for planning).
        parts: Option<crate::CountMemory>,
        /// The limit, in bytes.
        available: u64,
    },
    /// An engine name this build does not have (on the command line, or in
    /// a shard file or a journal written by another build).
    #[error("unknown engine '{0}': expected mirror, join or constellations")]
    UnknownEngine(String),
    /// A given queen or a blocked square outside the board (0-based in
    /// the fields, 1-based `row:column` in the message).
    #[error(
        "{what} {r}:{c} is off the board: rows and columns run from 1 to {n}",
        r = u64::from(*.row) + 1,
        c = u64::from(*.col) + 1
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
        r = u64::from(*.row) + 1,
        c = u64::from(*.col) + 1
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
        r = u64::from(*.row) + 1,
        a = u64::from(.cols.0) + 1,
        b = u64::from(.cols.1) + 1
    )]
    GivenRow {
        /// The row, 0-based.
        row: u32,
        /// The two queens' columns, 0-based.
        cols: (u32, u32),
    },
    /// A given queen on a square that is blocked too.
    #[error("given queen {r}:{c} is on a blocked square", r = u64::from(*.row) + 1, c = u64::from(*.col) + 1)]
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
    /// the GPU failed: one line saying which, and the driver's or NVRTC's
    /// error as its source where there is one.
    #[error("{what}")]
    Gpu {
        /// What could not be done, or why the GPU cannot run: `"no usable
        /// GPU"`, `"the GPU failed"`, ...
        what: String,
        /// The driver's or NVRTC's error.
        #[source]
        source: Option<Box<dyn std::error::Error + Send + Sync>>,
    },
    /// A file of a run (its journal, a shard result) could not be written
    /// or removed: the run stopped.
    #[error("{doing} {}", .path.display())]
    Io {
        /// What was being done: `"writing the journal"`, ...
        doing: &'static str,
        /// The file.
        path: std::path::PathBuf,
        /// The operating system's error.
        #[source]
        source: std::io::Error,
    },
    /// A [`crate::Counter`] given a plan ([`crate::Counter::run_plan`])
    /// other than the one it describes: a plan built apart is counted by
    /// [`crate::Runner::count`].
    #[error(
        "the plan is not the one the count describes: the plan's {what} is {plan}, the count's \
         {count} (count a plan built apart with Runner::count)"
    )]
    OtherPlan {
        /// What differs: `"board"`, `"engine"`, `"split"` or `"config"`.
        what: &'static str,
        /// The plan's.
        plan: String,
        /// The count's.
        count: String,
    },
}

impl PartialEq for Error {
    fn eq(&self, other: &Self) -> bool {
        /// The error's message, then each cause's.
        fn said(err: &Error) -> impl Iterator<Item = String> + '_ {
            std::iter::successors(Some(err as &dyn std::error::Error), |e| e.source())
                .map(ToString::to_string)
        }
        std::mem::discriminant(self) == std::mem::discriminant(other) && said(self).eq(said(other))
    }
}

impl Eq for Error {}

impl Error {
    /// `n` is outside `min..=max` for `by`.
    pub(crate) fn board_size(n: u32, by: &'static str, min: u32, max: u32) -> Self {
        Self::BoardSize { n, by, min, max }
    }

    /// The GPU cannot run, or cannot run this, for `why`: a reason of the
    /// library's, with no error of the driver's behind it.
    pub(crate) fn gpu(why: impl Into<String>) -> Self {
        Self::Gpu {
            what: why.into(),
            source: None,
        }
    }

    /// The GPU's driver or NVRTC failed `doing` something.
    #[cfg_attr(not(feature = "cuda"), allow(dead_code))]
    pub(crate) fn gpu_failed(
        doing: impl Into<String>,
        source: impl std::error::Error + Send + Sync + 'static,
    ) -> Self {
        Self::Gpu {
            what: doing.into(),
            source: Some(Box::new(source)),
        }
    }
}

/// " (1.3 GiB once and 1.9 GiB a thread on 64 threads)" for a count
/// whose threads each hold a unit, " (1.7 GiB once, 1.1 GiB for the unit
/// counted at a time and 11 MiB a thread on 2 threads)" for one whose
/// threads share fewer; nothing where no part is per thread.
fn memory_parts(parts: Option<&crate::CountMemory>) -> String {
    let Some(parts) = parts.filter(|p| p.per_thread > 0 && p.threads > 0) else {
        return String::new();
    };
    let threads = match parts.threads {
        1 => "1 thread".to_owned(),
        t => format!("{t} threads"),
    };
    let bytes = crate::human::Bytes;
    if parts.shared() {
        let units = match parts.at_once {
            1 => "the unit".to_owned(),
            k => format!("each of {k} units"),
        };
        format!(
            " ({} once, {} for {units} counted at a time and {} a thread on {threads})",
            bytes(parts.once),
            bytes(parts.per_thread),
            bytes(parts.per_helper),
        )
    } else {
        format!(
            " ({} once and {} a thread on {threads})",
            bytes(parts.once),
            bytes(parts.per_thread)
        )
    }
}

#[cfg(test)]
mod tests {
    use std::error::Error as _;
    use std::io;

    use super::*;

    fn io_error(kind: io::ErrorKind) -> Error {
        Error::Io {
            doing: "writing the journal",
            path: "runs/16.journal".into(),
            source: io::Error::from(kind),
        }
    }

    /// The message names the file, and the cause is the system's error
    /// itself, said once: by whoever prints the chain (`queens: {err:#}`).
    #[test]
    fn a_file_error_names_its_file_and_keeps_its_cause() {
        let err = io_error(io::ErrorKind::PermissionDenied);
        assert_eq!(err.to_string(), "writing the journal runs/16.journal");
        let cause = err.source().unwrap().downcast_ref::<io::Error>().unwrap();
        assert_eq!(cause.kind(), io::ErrorKind::PermissionDenied);
        assert_eq!(cause.to_string(), "permission denied");
    }

    /// A square's 1-based name is one more than a `u32` can hold at the
    /// edge: said, not overflowed (it panicked in test builds).
    #[test]
    fn squares_at_the_edge_of_u32_are_named_without_overflow() {
        let off = Error::OffBoard {
            what: "queen",
            row: u32::MAX,
            col: 0,
            n: 4,
        };
        assert_eq!(
            off.to_string(),
            "queen 4294967296:1 is off the board: rows and columns run from 1 to 4"
        );
        let row = Error::GivenRow {
            row: 0,
            cols: (u32::MAX, 1),
        };
        assert!(
            row.to_string()
                .starts_with("given queens 1:4294967296 and 1:2 ")
        );
    }

    #[test]
    fn errors_are_equal_when_they_say_the_same_causes_included() {
        let denied = io_error(io::ErrorKind::PermissionDenied);
        assert_eq!(denied, io_error(io::ErrorKind::PermissionDenied));
        assert_ne!(denied, io_error(io::ErrorKind::StorageFull));
        assert_ne!(Error::gpu("no GPU"), Error::Sample("no GPU".into()));
        assert_eq!(Error::gpu("no GPU"), Error::gpu("no GPU"));
        let failed = Error::gpu_failed("the GPU failed", io::Error::other("out of memory"));
        assert_eq!(failed.to_string(), "the GPU failed");
        assert_ne!(failed, Error::gpu("the GPU failed"));
    }
}
