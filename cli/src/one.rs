//! `queens one N`: one solution for any n, by formula, streamed; with
//! queens given or squares blocked, the first completion, by a search.
//!
//! The board's columns are computed row by row as they are written
//! ([`queens::Construction`]), so `queens one 100000000 --format columns`
//! needs no memory beyond the output buffer. Formats that draw every
//! square (SVG too) are refused above [`MAX_DRAWN`], where a board would be
//! megabytes of dots.

use crate::exit::ExitCode;
use std::io::IsTerminal;

use anyhow::Context;
use queens::{BoardWriter, Construction, Format, MAX_N, MAX_READ_N, Problem};

use super::picture::{Look, write_sheet};

use super::problem::ProblemArgs;
use super::signals;

/// The largest board drawn square by square (a million characters).
pub const MAX_DRAWN: u32 = 1000;

#[derive(Debug, clap::Args)]
pub struct OneArgs {
    /// Board size N (1 to 1,000,000,000; 2 and 3 have no solution).
    #[arg(value_name = "N", allow_negative_numbers = true,
          value_parser = |s: &str| super::args::parse_board_size(s, MAX_READ_N))]
    n: u32,

    /// How to write the board (board, spaced, leetcode, unicode and svg up
    /// to n = 1000).
    #[arg(short, long, value_enum, default_value_t = Look::Text(Format::Board))]
    format: Look,

    /// Write the board as one JSON object, `{"n":N,"cols":[...]}`: the
    /// same as --format jsonl.
    #[arg(long, conflicts_with = "format")]
    json: bool,

    /// No line on stderr for a size without a solution (2 and 3): the exit
    /// code, 1, says it.
    #[arg(short, long)]
    quiet: bool,

    #[command(flatten)]
    problem: ProblemArgs,
}

pub fn run(args: &OneArgs) -> anyhow::Result<ExitCode> {
    let n = args.n;
    let format = if args.json {
        Look::Text(Format::Jsonl)
    } else {
        args.format
    };
    if args.problem.any() {
        return complete(args, format);
    }
    if format.draws_squares() && n > MAX_DRAWN {
        eprintln!(
            "queens: --format {format} draws all n x n squares and is limited to n <= \
             {MAX_DRAWN}; for n = {n} use --format columns (or jsonl)"
        );
        return Ok(ExitCode::from(super::EXIT_USAGE));
    }
    let Ok(board) = Construction::new(n) else {
        if args.quiet {
            return Ok(ExitCode::FAILURE);
        }
        eprintln!(
            "queens: there is no solution for n = {n}: {n} queens cannot be placed on a {n} x {n} \
             board without two attacking each other"
        );
        return Ok(ExitCode::FAILURE);
    };
    write(n, board, format)
}

/// Writes the `n`-board `cols` as `look` says.
fn write(n: u32, cols: impl IntoIterator<Item = u32>, look: Look) -> anyhow::Result<ExitCode> {
    match look {
        Look::Text(format) => {
            let mut out = BoardWriter::new(super::stdout(), format);
            out.write(n, cols)?;
            out.finish()?;
        }
        Look::Svg => write_sheet(&[cols.into_iter().collect()])?,
    }
    Ok(ExitCode::SUCCESS)
}

/// `one N --given ...`: the first completion in lexicographic order, by a
/// search that Ctrl-C stops; exit 1 when there is none.
fn complete(args: &OneArgs, format: Look) -> anyhow::Result<ExitCode> {
    let n = args.n;
    if n > MAX_N {
        return Err(super::UsageError(format!(
            "n = {n} is out of range with --given, --blocked or --board: a board with \
             constraints takes n from 1 to {MAX_N}"
        ))
        .into());
    }
    let problem: Problem = args.problem.problem(n)?.expect("constraints were given");
    let said = problem.describe();
    if let Some((a, b)) = problem.conflict() {
        if !args.quiet {
            eprintln!("queens: no completion: the given queens {a} and {b} attack each other");
        }
        return Ok(ExitCode::FAILURE);
    }
    signals::install().context("catching Ctrl-C and SIGTERM")?;
    if !args.quiet && std::io::stderr().is_terminal() {
        eprintln!("queens: searching n = {n} with {said}, row by row (Ctrl-C stops)");
    }
    let mut found = None;
    problem.for_each_completion_until(signals::stop_flag(), |board| {
        found = Some(board.to_vec());
        false
    });
    if signals::stopped() {
        eprintln!("interrupted: no completion of n = {n} found yet");
        return Ok(ExitCode::from(signals::exit_code()));
    }
    let Some(board) = found else {
        if !args.quiet {
            eprintln!("queens: no completion: no solution of n = {n} has {said}");
        }
        return Ok(ExitCode::FAILURE);
    };
    write(n, board, format)
}
