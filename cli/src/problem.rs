//! `--given`, `--blocked` and `--board`: a problem with queens placed in
//! advance and squares blocked ([`queens::Problem`]), as `list`, `one` and
//! `check` take it (`check` has no N: [`Against`] makes the problem of
//! each board's size). Squares are `ROW:COL` counted from 1, as `check`
//! prints positions; a partial board is a line a row of `Q` (given), `x`
//! (blocked) and `.` (free).

use std::path::PathBuf;

use queens::{Problem, Square};

use super::UsageError;
use super::files::Input;

/// The largest partial board file read (a 32 x 32 board with comments is
/// a few kilobytes).
const MAX_BOARD_BYTES: u64 = 1 << 20;

/// Squares as `--given` and `--blocked` take them, as written: held
/// against the board's size only once it is known.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Squares(Vec<Written>);

/// A square as written: `ROW:COL`, whole numbers that may lie off every
/// board (`0:1`, `-1:1`), so that those are refused with the board's range,
/// as `9:1` on a board of 8 is. See: issue 47, item 16 (`--given -1:1` got
/// the parser's message).
#[derive(Clone, Debug, PartialEq, Eq)]
struct Written {
    /// The item, trimmed, for messages.
    text: String,
    /// Its row and column, 1-based, saturated past `i64`.
    row: i64,
    col: i64,
}

/// `1:2,4:3`: squares as `ROW:COL` pairs of whole numbers.
pub fn parse_squares(text: &str) -> Result<Squares, String> {
    let bad = |item: &str| {
        format!("'{item}' is not a square: expected ROW:COL counted from 1, as in 1:2,4:3")
    };
    text.split(',')
        .map(str::trim)
        .map(|item| {
            let (row, col) = item.split_once(':').ok_or_else(|| bad(item))?;
            match (whole(row), whole(col)) {
                (Some(row), Some(col)) => Ok(Written {
                    text: item.to_owned(),
                    row,
                    col,
                }),
                _ => Err(bad(item)),
            }
        })
        .collect::<Result<_, _>>()
        .map(Squares)
}

/// A whole number, with an optional sign, saturated past `i64`.
fn whole(text: &str) -> Option<i64> {
    let text = text.trim();
    let negative = text.starts_with('-');
    let digits = text.strip_prefix(['-', '+']).unwrap_or(text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let saturated = if negative { i64::MIN } else { i64::MAX };
    Some(text.parse().unwrap_or(saturated))
}

impl Squares {
    /// The squares, 0-based, on a board of `n`: one (`what`) off it is
    /// refused in the words the library refuses `9:1` on a board of 8.
    fn on_board(&self, what: &str, n: u32) -> Result<Vec<Square>, UsageError> {
        let on = |x: i64| u32::try_from(x).ok().filter(|x| (1..=n).contains(x));
        (self.0.iter())
            .map(|w| match (on(w.row), on(w.col)) {
                (Some(row), Some(col)) => Ok(Square::new(row - 1, col - 1)),
                _ => Err(UsageError(format!(
                    "{what} {} is off the board: rows and columns run from 1 to {n}",
                    w.text
                ))),
            })
            .collect()
    }
}

/// The constraints of a board: queens given, squares blocked, or a
/// partial board holding both.
#[derive(Debug, Default, clap::Args)]
pub struct ProblemArgs {
    /// Queens placed in advance, ROW:COL counted from 1 (e.g. 1:2,4:3):
    /// only the boards that hold them.
    #[arg(long, value_name = "ROW:COL,...", value_parser = parse_squares,
          allow_hyphen_values = true)]
    given: Option<Squares>,

    /// Squares that may not hold a queen, ROW:COL counted from 1.
    #[arg(long, value_name = "ROW:COL,...", value_parser = parse_squares,
          allow_hyphen_values = true)]
    blocked: Option<Squares>,

    /// A partial board: a line a row, Q for a given queen, x for a blocked
    /// square, . for a free one (# starts a comment).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["given", "blocked"])]
    board: Option<PathBuf>,
}

impl ProblemArgs {
    /// Whether any constraint is given.
    pub fn any(&self) -> bool {
        self.given.is_some() || self.blocked.is_some() || self.board.is_some()
    }

    /// The partial board's file (`--board`), which the command reads: no
    /// output of the command may be it.
    pub fn input(&self) -> Option<Input<'_>> {
        (self.board.as_deref()).map(|path| Input::File {
            role: "the partial board",
            path,
        })
    }

    /// The problem of the `n`-board these flags describe, or `None` when
    /// they give no constraint. A partial board's size must be `n`.
    ///
    /// # Errors
    /// A `UsageError` naming the square, the line or the size that is
    /// wrong; an unreadable file.
    pub fn problem(&self, n: u32) -> anyhow::Result<Option<Problem>> {
        if let Some(path) = &self.board {
            let problem = read_board(path)?;
            if problem.n() != n {
                return Err(UsageError(format!(
                    "{} is a board of {}, not of {n}: give N = {}",
                    path.display(),
                    problem.n(),
                    problem.n()
                ))
                .into());
            }
            return Ok(Some(problem));
        }
        self.problem_of(n).transpose()
    }

    /// The problem of the `n`-board the squares of `--given` and
    /// `--blocked` describe, if any.
    fn problem_of(&self, n: u32) -> Option<anyhow::Result<Problem>> {
        if self.given.is_none() && self.blocked.is_none() {
            return None;
        }
        Some(self.squares(n).and_then(|(given, blocked)| {
            Problem::new(n, given, blocked).map_err(|err| UsageError(err.to_string()).into())
        }))
    }

    /// The squares of `--given` and `--blocked`, 0-based, on a board of `n`.
    fn squares(&self, n: u32) -> anyhow::Result<(Vec<Square>, Vec<Square>)> {
        let on_board = |squares: &Option<Squares>, what| {
            squares
                .as_ref()
                .map_or(Ok(Vec::new()), |squares| squares.on_board(what, n))
        };
        Ok((
            on_board(&self.given, "given queen")?,
            on_board(&self.blocked, "blocked square")?,
        ))
    }
}

/// The problem each board `check` reads is held against: the partial
/// board's, or the squares of `--given` and `--blocked` on a board of the
/// board's own size.
#[derive(Debug)]
pub enum Against {
    /// `--board FILE`: one problem, one size.
    Board { problem: Problem, path: PathBuf },
    /// `--given` and `--blocked`, and the problem of the last size asked.
    Squares {
        given: Vec<Square>,
        blocked: Vec<Square>,
        last: Option<(u32, Result<Problem, Refusal>)>,
    },
}

/// Why a board is not held against the problem: its size.
#[derive(Clone, Debug)]
pub struct Refusal {
    /// In words, for `board I: ...`.
    pub message: String,
    /// A given or blocked square off the board, if that is why.
    pub square: Option<Square>,
}

impl ProblemArgs {
    /// What `check` holds boards against, or `None` without constraints.
    ///
    /// # Errors
    /// A `UsageError` for constraints no board can meet the way they are
    /// written (two given queens in a row, a given queen on a blocked
    /// square, a square past every problem's board), or a partial board
    /// that cannot be read.
    pub fn against(&self) -> anyhow::Result<Option<Against>> {
        if let Some(path) = &self.board {
            return Ok(Some(Against::Board {
                problem: read_board(path)?,
                path: path.clone(),
            }));
        }
        if self.given.is_none() && self.blocked.is_none() {
            return Ok(None);
        }
        // What no board size changes is refused once, up front: the
        // squares are then on the largest board, which holds every other.
        if let Some(Err(err)) = self.problem_of(queens::MAX_N) {
            return Err(err);
        }
        let (given, blocked) = self.squares(queens::MAX_N)?;
        Ok(Some(Against::Squares {
            given,
            blocked,
            last: None,
        }))
    }
}

impl Against {
    /// The problem of an `n`-board, or why there is none.
    pub fn problem(&mut self, n: u32) -> Result<&Problem, Refusal> {
        match self {
            Self::Board { problem, path } => {
                if problem.n() == n {
                    Ok(problem)
                } else {
                    Err(Refusal {
                        message: format!(
                            "a board of {n}, but {} is a board of {}",
                            path.display(),
                            problem.n()
                        ),
                        square: None,
                    })
                }
            }
            Self::Squares {
                given,
                blocked,
                last,
            } => {
                if last.as_ref().is_some_and(|(size, _)| *size != n) {
                    *last = None;
                }
                let (_, problem) = last.get_or_insert_with(|| {
                    let problem = Problem::new(n, given.clone(), blocked.clone());
                    (n, problem.map_err(|err| refusal(&err)))
                });
                problem.as_ref().map_err(Clone::clone)
            }
        }
    }
}

/// Why the squares of `--given` and `--blocked` make no problem of a
/// board's size.
fn refusal(err: &queens::Error) -> Refusal {
    let square = match *err {
        queens::Error::OffBoard { row, col, .. } => Some(Square::new(row, col)),
        _ => None,
    };
    Refusal {
        message: err.to_string(),
        square,
    }
}

/// Reads the partial board at `path`.
fn read_board(path: &std::path::Path) -> anyhow::Result<Problem> {
    let shown = path.display();
    let file = std::fs::File::open(path)
        .map_err(|err| UsageError(format!("cannot open {shown}: {err}")))?;
    let mut bytes = Vec::new();
    std::io::Read::read_to_end(
        &mut std::io::Read::take(file, MAX_BOARD_BYTES + 1),
        &mut bytes,
    )
    .map_err(|err| UsageError(format!("{shown}: {err}")))?;
    if bytes.len() as u64 > MAX_BOARD_BYTES {
        return Err(UsageError(format!(
            "{shown} is over {MAX_BOARD_BYTES} bytes: a partial board of at most 32 x 32 squares \
             is a few kilobytes"
        ))
        .into());
    }
    let text = String::from_utf8(bytes).map_err(|err| {
        UsageError(format!(
            "{shown}: {}",
            not_utf8(err.as_bytes(), &err.utf8_error())
        ))
    })?;
    Problem::from_board(&text).map_err(|err| UsageError(format!("{shown}: {err}")).into())
}

/// Why `bytes` are not a partial board's text, naming the line (from 1)
/// and the first byte that is not UTF-8. See: issue 47, item 16 (the
/// message named neither).
fn not_utf8(bytes: &[u8], err: &std::str::Utf8Error) -> queens::Error {
    let at = err.valid_up_to();
    let line = 1 + bytes[..at].iter().filter(|&&b| b == b'\n').count();
    queens::Error::PartialBoard {
        line,
        why: format!(
            "byte 0x{:02x} is not UTF-8: a partial board is UTF-8 text",
            bytes[at]
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_are_read_from_one() {
        let args = |given: &str| ProblemArgs {
            given: Some(parse_squares(given).unwrap()),
            ..ProblemArgs::default()
        };
        assert_eq!(
            args("1:2, 4:3").squares(8).unwrap().0,
            [Square::new(0, 1), Square::new(3, 2)]
        );
        // See: issue 47, item 16: off the board, whatever the sign or size.
        for off in [
            "0:1",
            "-1:2",
            "1:-0",
            "9:1",
            "+9:1",
            "99999999999999999999:1",
            "-99999999999999999999:1",
        ] {
            let err = args(off).squares(8).unwrap_err().to_string();
            assert_eq!(
                err,
                format!("given queen {off} is off the board: rows and columns run from 1 to 8")
            );
        }
        for bad in [
            "1", "1:2:3", "a:b", "1:2,,3:4", "--1:2", "+-1:2", "-:1", "1.0:2",
        ] {
            let err = parse_squares(bad).unwrap_err();
            assert!(
                err.contains("is not a square: expected ROW:COL"),
                "{bad}: {err}"
            );
        }
    }
}
