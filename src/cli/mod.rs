//! The handlers of the subcommands that show boards (`list`, `one`,
//! `check`) and of `ladder`, one file each, and what they share: the
//! command-line names of formats and algorithms, board-size parsing and the
//! buffered stdout.
//!
//! Everything here talks (stdout, stderr, exit codes) and nothing computes:
//! boards, checks and counts come from the library.

pub mod check;
pub mod ladder;
pub mod list;
pub mod one;

use std::io::{self, BufWriter, StdoutLock};
use std::num::NonZeroUsize;

use queens::{Algorithm, Format};

/// How many bytes of output are gathered before a write to stdout.
const OUTPUT_BUFFER: usize = 1 << 16;

/// Stdout, locked and buffered: boards go out in 64 KiB writes, not a
/// syscall per line.
pub fn stdout() -> BufWriter<StdoutLock<'static>> {
    BufWriter::with_capacity(OUTPUT_BUFFER, io::stdout().lock())
}

/// The `--format` values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum FormatArg {
    /// Rows of `Q` and `.`, a blank line between boards.
    Board,
    /// Rows like `. Q . .` (one space between cells), a blank line between
    /// boards.
    Spaced,
    /// LeetCode 51's answer: `[[".Q..","...Q",...],...]` on one line.
    Leetcode,
    /// One board a line: the 1-based column of each row, e.g. `2 4 1 3`.
    Columns,
    /// One JSON object a line: `{"n":4,"cols":[1,3,0,2]}`, 0-based.
    Jsonl,
}

impl From<FormatArg> for Format {
    fn from(arg: FormatArg) -> Self {
        match arg {
            FormatArg::Board => Self::Board,
            FormatArg::Spaced => Self::Spaced,
            FormatArg::Leetcode => Self::Leetcode,
            FormatArg::Columns => Self::Columns,
            FormatArg::Jsonl => Self::Jsonl,
        }
    }
}

/// The `--algorithm` values: the steps of the ladder.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum AlgorithmArg {
    /// Place or skip a queen on every square, test at the end (2^(n*n)).
    Cells,
    /// Row by row, with a grid counting the attacks on every square.
    AttackCounts,
    /// Row by row, scanning the rows above for attacks.
    Scan,
    /// Row by row, with a flag per column and diagonal.
    Flags,
    /// The bitmask engine on one thread.
    Bitmask,
    /// The bitmask engine on every core.
    Parallel,
}

impl From<AlgorithmArg> for Algorithm {
    fn from(arg: AlgorithmArg) -> Self {
        match arg {
            AlgorithmArg::Cells => Self::Cells,
            AlgorithmArg::AttackCounts => Self::AttackCounts,
            AlgorithmArg::Scan => Self::Scan,
            AlgorithmArg::Flags => Self::Flags,
            AlgorithmArg::Bitmask => Self::Bitmask,
            AlgorithmArg::Parallel => Self::Parallel,
        }
    }
}

/// Why an algorithm will not count a board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// It would take longer than about a minute (`--force` overrides).
    TooSlow {
        /// The largest n it counts within a minute.
        limit: u32,
        /// The largest n it can count at all.
        max: u32,
    },
    /// It cannot represent the board at all.
    TooLarge {
        /// The largest n it can count.
        max: u32,
    },
}

/// Whether `algorithm` refuses an `n`-board, given `--force`.
pub fn refusal(algorithm: Algorithm, n: u32, force: bool) -> Option<Refusal> {
    let (limit, max) = (algorithm.comfortable_max_n(), algorithm.max_n());
    if n > limit && !force {
        Some(Refusal::TooSlow { limit, max })
    } else if n > max {
        Some(Refusal::TooLarge { max })
    } else {
        None
    }
}

/// Why `count --algorithm` will not count an `n`-board, in one line.
pub fn refuse_size(algorithm: Algorithm, n: u32, force: bool) -> Option<String> {
    let why_max = if algorithm == Algorithm::Cells {
        " (its board must fit in 64 bits)"
    } else {
        ""
    };
    Some(match refusal(algorithm, n, force)? {
        Refusal::TooSlow { limit, max } if n <= max => format!(
            "--algorithm {algorithm} is limited to n <= {limit}: n = {n} would take longer than a \
             minute (add --force to run it anyway)"
        ),
        Refusal::TooSlow { limit, max } => format!(
            "--algorithm {algorithm} is limited to n <= {limit}: n = {n} would take longer than a \
             minute, and even --force stops at n = {max}{why_max}"
        ),
        Refusal::TooLarge { max } => format!(
            "--algorithm {algorithm} handles boards up to n = {max}{why_max}; n = {n} is out of \
             range"
        ),
    })
}

/// A board size between 1 and `max`, with the range in the message.
pub fn parse_board_size(text: &str, max: u32) -> Result<u32, String> {
    let n: i64 = text.trim().parse().map_err(|_| {
        format!("'{text}' is not a board size: expected a whole number from 1 to {max}")
    })?;
    u32::try_from(n)
        .ok()
        .filter(|n| (1..=max).contains(n))
        .ok_or_else(|| format!("board size {n} is out of range: n must be between 1 and {max}"))
}

/// The line for a subcommand whose board size is missing.
pub fn missing_size(subcommand: &str) -> String {
    let max = match subcommand {
        "one" => queens::format::read::MAX_N,
        _ => queens::kernel::MAX_N,
    };
    format!("missing board size N, from 1 to {max} (for example 'queens {subcommand} 8')")
}

/// The thread count for a worker pool: `--threads`, else
/// `RAYON_NUM_THREADS` as the counting engines read it, else one per core.
pub fn threads_or_default(threads: Option<NonZeroUsize>) -> usize {
    threads
        .or_else(|| {
            std::env::var("RAYON_NUM_THREADS")
                .ok()
                .and_then(|t| t.parse().ok())
        })
        .or_else(|| std::thread::available_parallelism().ok())
        .map_or(1, NonZeroUsize::get)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn board_sizes_name_the_range() {
        assert_eq!(parse_board_size("8", 32), Ok(8));
        assert!(
            parse_board_size("0", 32)
                .unwrap_err()
                .contains("between 1 and 32")
        );
        assert!(
            parse_board_size("x", 5)
                .unwrap_err()
                .contains("from 1 to 5")
        );
        assert!(parse_board_size("99999999999999999999", 5).is_err());
    }

    #[test]
    fn slow_algorithms_are_refused_beyond_a_minute_unless_forced() {
        assert!(refuse_size(Algorithm::Cells, 5, false).is_none());
        let refusal = refuse_size(Algorithm::Cells, 6, false).unwrap();
        assert!(refusal.contains("n <= 5") && refusal.contains("--force"));
        assert!(refuse_size(Algorithm::Cells, 6, true).is_none());
        assert!(
            refuse_size(Algorithm::Cells, 9, true)
                .unwrap()
                .contains("up to n = 8")
        );
        assert!(refuse_size(Algorithm::Parallel, 17, false).is_none());
    }
}
