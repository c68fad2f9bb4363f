//! `queens check [FILE]`: reads boards and says, for each, `ok` or what
//! makes it no solution: the first two queens that attack each other, or a
//! row without a queen, whichever comes first from the top.
//!
//! `--json` writes one object per board instead (JSON lines); `-q` writes
//! nothing, the exit code being the verdict.
//!
//! `--svg FILE` draws the boards checked, each with what makes it no
//! solution marked, on one sheet ([`queens::write_svg`]): the first
//! [`SHEET_MAX`] boards of at most [`MAX_DRAWN`] rows, written when the
//! checking ends (malformed input too, with the boards before it).
//!
//! With `--given`, `--blocked` or `--board`, a solution must also be a
//! completion of that problem: a board that lacks a given queen or has one
//! on a blocked square is not, nor is a board of a size the problem cannot
//! be of ([`queens::first_unmet`], [`super::problem::Against`]).
//!
//! Exit codes: 0 when every board is a solution (of the problem, with
//! constraints), 1 when any is not, 2 when
//! the input cannot be read or is not boards (the message names the line;
//! the boards before it have been reported). An input without boards, as
//! `list` writes for n = 2 or 3 (nothing, or `[]`), is 0 boards checked:
//! exit 0, with a line on stderr. The reading and checking are
//! [`queens::Boards`]' and [`queens::first_fault`]'s; this file only opens
//! the input and talks.

use crate::exit::ExitCode;
use std::fs::File;
use std::io::{self, BufRead, BufReader, Write};
use std::path::PathBuf;

use queens::{Boards, Checked, Conflict, Line, ReadError, Square, SvgBoard, Unmet};
use serde::Serialize;

use super::files::{Input, Output};
use super::one::MAX_DRAWN;
use super::picture::SHEET_MAX;
use super::problem::{Against, ProblemArgs, Refusal};

/// Bytes read from the input at a time.
const INPUT_BUFFER: usize = 1 << 16;

#[derive(Debug, clap::Args)]
#[command(
    after_help = "Rows and columns in messages count from 1, top left, as in the columns \
                        format: 'board 3: queens at (row 2, col 5) and (row 6, col 1) share a \
                        diagonal'.\n\nThe format is detected from the first character: board \
                        rows ('Q' or 'q' a queen, '.', '_' or '-' an empty square, spaced or \
                        not), a digit for a line of columns (spaces or commas between them) or \
                        a 0/1 matrix, '{' for JSON lines, '[' or '(' for LeetCode's or \
                        Python's lists, '┌' for a box-drawn board (--format unicode). Lines \
                        that start with '#' are comments."
)]
pub struct CheckArgs {
    /// File of boards, in any format `queens list` writes or a learner
    /// would (see below) [default: standard
    /// input; '-' also means standard input].
    #[arg(value_name = "FILE")]
    file: Option<PathBuf>,

    /// Print one JSON object per board (JSON lines): board, line, n, ok,
    /// conflict, empty_row, unmet.
    #[arg(long)]
    json: bool,

    /// Count every board's column numbers from 0 (without it, a board of
    /// column numbers counts from 1 unless it holds a 0).
    #[arg(long)]
    zero_based: bool,

    /// Draw the boards checked into FILE, an SVG picture: each board's
    /// queens, and what makes it no solution marked (the first 100 boards,
    /// of up to 1000 rows).
    #[arg(long, value_name = "FILE")]
    svg: Option<PathBuf>,

    /// Print nothing: the exit code says whether every board is a
    /// solution (input that is not boards is still said on stderr).
    #[arg(short, long)]
    quiet: bool,

    #[command(flatten)]
    problem: ProblemArgs,
}

/// A board checked, as `--json` prints it.
#[derive(Debug, Serialize)]
struct BoardRecord {
    /// Its position in the input, from 1.
    board: u64,
    /// The line of the input it starts on, from 1.
    line: u64,
    /// Its size.
    n: u32,
    /// Whether it is a solution (of the problem, with constraints).
    ok: bool,
    /// The first two queens that attack each other; null for a solution,
    /// and where a row without a queen comes first.
    conflict: Option<ConflictRecord>,
    /// The first row without a queen, from 1, where it comes before any
    /// conflict; null otherwise.
    empty_row: Option<u64>,
    /// The first constraint it fails; null where it meets them all, where
    /// it is no solution, or without constraints.
    unmet: Option<UnmetRecord>,
}

/// Two queens that attack each other, counted from 1 as in the text.
#[derive(Debug, Serialize)]
struct ConflictRecord {
    /// The earlier queen, `[row, col]`.
    first: [u64; 2],
    /// The queen it attacks, `[row, col]`.
    second: [u64; 2],
    /// What they share: `row`, `column`, `diagonal` (`\`, row - col
    /// equal) or `anti-diagonal` (`/`, row + col equal).
    shares: &'static str,
}

/// A constraint a board fails, counted from 1 as in the text.
#[derive(Debug, Serialize)]
struct UnmetRecord {
    /// `given` (no queen on a given square), `blocked` (a queen on a
    /// blocked square) or `size` (no problem of the board's size).
    reason: &'static str,
    /// The square, `[row, col]`; for `size`, a square off the board, or
    /// null.
    square: Option<[u64; 2]>,
}

/// What is wrong with a board against the problem: its size, or a
/// constraint a solution fails.
enum Failed {
    Size(Refusal),
    Unmet(Unmet),
}

impl Failed {
    fn record(&self) -> UnmetRecord {
        let at = |s: Square| [u64::from(s.row) + 1, u64::from(s.col) + 1];
        let (reason, square) = match self {
            Self::Size(refusal) => ("size", refusal.square.map(at)),
            Self::Unmet(Unmet::Given(square)) => ("given", Some(at(*square))),
            Self::Unmet(Unmet::Blocked(square)) => ("blocked", Some(at(*square))),
            // A size the problem cannot be of, or a kind of failure added
            // to the library and not here.
            Self::Unmet(_) => ("size", None),
        };
        UnmetRecord { reason, square }
    }
}

/// What the problem says of `checked`: a size it is refused for, or, for a
/// solution, the first constraint it fails.
fn judge(against: &mut Against, checked: &Checked) -> Option<Failed> {
    match against.problem(checked.n) {
        Err(refusal) => Some(Failed::Size(refusal)),
        Ok(problem) => checked
            .columns()
            .and_then(|board| queens::first_unmet(problem, board))
            .map(Failed::Unmet),
    }
}

impl BoardRecord {
    fn new(checked: &Checked, failed: Option<&Failed>) -> Self {
        let at = |q: queens::Queen| [u64::from(q.row) + 1, u64::from(q.col) + 1];
        Self {
            board: checked.index,
            line: checked.line,
            n: checked.n,
            ok: checked.is_solution() && failed.is_none(),
            conflict: checked.conflict.map(|c: Conflict| ConflictRecord {
                first: at(c.first),
                second: at(c.second),
                shares: match c.line {
                    Line::Row => "row",
                    Line::Column => "column",
                    Line::Diagonal => "diagonal",
                    Line::AntiDiagonal => "anti-diagonal",
                    // A kind of line added to the library and not here.
                    _ => "line",
                },
            }),
            empty_row: checked.empty_row.map(|row| u64::from(row) + 1),
            unmet: failed.map(Failed::record),
        }
    }
}

pub fn run(args: &CheckArgs) -> anyhow::Result<ExitCode> {
    let (input, name): (Box<dyn BufRead>, Option<String>) = match &args.file {
        Some(path) if path.as_os_str() != "-" => {
            let shown = path.display().to_string();
            match File::open(path) {
                Ok(file) => (
                    Box::new(BufReader::with_capacity(INPUT_BUFFER, file)),
                    Some(shown),
                ),
                Err(err) => {
                    eprintln!("queens: cannot open {shown}: {err}");
                    return Ok(ExitCode::from(super::EXIT_USAGE));
                }
            }
        }
        _ => (
            Box::new(BufReader::with_capacity(INPUT_BUFFER, io::stdin().lock())),
            None,
        ),
    };
    let mut against = args.problem.against()?;
    let mut drawing = match &args.svg {
        Some(path) => {
            let boards = match &args.file {
                Some(path) if path.as_os_str() != "-" => Input::File {
                    role: "the file of boards",
                    path,
                },
                _ => Input::Stdin,
            };
            let inputs: Vec<Input<'_>> = std::iter::once(boards)
                .chain(args.problem.input())
                .collect();
            Some(Drawing::new(Output::new(path, "--svg", &inputs)?))
        }
        None => None,
    };
    let mut out = super::stdout();
    let mut invalid = 0u64;
    // See: issue 32 (a board of 10^9 rows aborted under `ulimit -v 2000000`).
    let mut boards = Boards::new(input)
        .with_memory_limit(super::memory::available()?)
        .zero_based(args.zero_based)
        .keeping_queens(if drawing.is_some() { MAX_DRAWN } else { 0 });
    while let Some(board) = boards.next() {
        match board {
            Ok(checked) => {
                let failed = against.as_mut().and_then(|a| judge(a, &checked));
                invalid += u64::from(!checked.is_solution() || failed.is_some());
                if let Some(drawing) = &mut drawing {
                    drawing.add(&checked, boards.queens(), failed.as_ref())?;
                }
                match (checked.fault(), &failed) {
                    _ if args.json => {
                        let record = BoardRecord::new(&checked, failed.as_ref());
                        serde_json::to_writer(&mut out, &record)?;
                        writeln!(out)?;
                    }
                    _ if args.quiet => {}
                    (_, Some(Failed::Size(refusal))) => {
                        writeln!(out, "board {}: {}", checked.index, refusal.message)?;
                    }
                    (Some(fault), _) => writeln!(out, "board {}: {fault}", checked.index)?,
                    (None, Some(Failed::Unmet(unmet))) => {
                        writeln!(out, "board {}: {unmet}", checked.index)?;
                    }
                    (None, None) => writeln!(out, "board {}: ok", checked.index)?,
                }
            }
            // See: issue 20 (`queens list 3 --format leetcode | queens check`).
            Err(ReadError::Empty) => {
                if !args.quiet {
                    let unwritten = (args.svg.as_ref())
                        .map(|path| format!("; {} is not written", path.display()))
                        .unwrap_or_default();
                    eprintln!(
                        "queens: 0 boards checked: the input holds none (as `queens list` writes \
                         for a board size without solutions){unwritten}"
                    );
                }
            }
            Err(err) => {
                out.flush()?;
                let place = name
                    .as_deref()
                    .map(|n| format!("{n}: "))
                    .unwrap_or_default();
                eprintln!("queens: {place}{err}");
                if let Some(drawing) = drawing {
                    drawing.finish(args.quiet)?;
                }
                return Ok(ExitCode::from(super::EXIT_USAGE));
            }
        }
    }
    out.flush()?;
    if let Some(drawing) = drawing {
        drawing.finish(args.quiet)?;
    }
    Ok(if invalid > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

/// The boards `--svg` draws, as they are checked.
struct Drawing {
    output: Output,
    boards: Vec<SvgBoard>,
    /// Boards checked and not drawn: past the sheet's boards, or too large.
    left_out: u64,
}

impl Drawing {
    fn new(output: Output) -> Self {
        Self {
            output,
            boards: Vec::new(),
            left_out: 0,
        }
    }

    /// `checked`, whose `queens` the reader kept, captioned with its
    /// verdict, where the sheet has room.
    fn add(
        &mut self,
        checked: &Checked,
        queens: Option<&[queens::Queen]>,
        failed: Option<&Failed>,
    ) -> anyhow::Result<()> {
        let Some(queens) = queens.filter(|_| (self.boards.len() as u64) < SHEET_MAX) else {
            self.left_out += 1;
            return Ok(());
        };
        let verdict = match (checked.fault(), failed) {
            (_, Some(Failed::Size(refusal))) => refusal.message.clone(),
            (Some(fault), _) => fault.to_string(),
            (None, Some(Failed::Unmet(unmet))) => unmet.to_string(),
            (None, None) => "ok".to_owned(),
        };
        let board = SvgBoard::new(checked.n, queens.to_vec())?
            .with_fault(checked.fault())
            .with_caption([format!("board {}", checked.index), verdict]);
        self.boards.push(board);
        Ok(())
    }

    /// Writes the picture, and says on stderr what it leaves out.
    fn finish(self, quiet: bool) -> anyhow::Result<()> {
        let shown = self.output.path().display();
        if self.boards.is_empty() {
            // Without boards at all, the line that says so says this too.
            if self.left_out > 0 && !quiet {
                eprintln!(
                    "queens: {shown} is not written: no board of at most {MAX_DRAWN} rows to draw"
                );
            }
            return Ok(());
        }
        let mut svg = Vec::new();
        queens::write_svg(&mut svg, &self.boards)?;
        self.output.write(&svg)?;
        if self.left_out > 0 && !quiet {
            eprintln!(
                "queens: {shown} shows {} boards; {} more checked are not drawn (a sheet holds \
                 the first {SHEET_MAX}, each of at most {MAX_DRAWN} rows)",
                self.boards.len(),
                self.left_out
            );
        }
        Ok(())
    }
}
