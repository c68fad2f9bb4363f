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

/// Squares as `--given` and `--blocked` take them: 0-based once parsed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Squares(pub Vec<Square>);

/// `1:2,4:3`: squares as `ROW:COL` pairs counted from 1.
pub fn parse_squares(text: &str) -> Result<Squares, String> {
    let bad = |item: &str| {
        format!("'{item}' is not a square: expected ROW:COL counted from 1, as in 1:2,4:3")
    };
    text.split(',')
        .map(str::trim)
        .map(|item| {
            let (row, col) = item.split_once(':').ok_or_else(|| bad(item))?;
            let from_one = |x: &str| x.trim().parse::<u32>().ok().filter(|&x| x >= 1);
            match (from_one(row), from_one(col)) {
                (Some(r), Some(c)) => Ok(Square::new(r - 1, c - 1)),
                _ => Err(bad(item)),
            }
        })
        .collect::<Result<_, _>>()
        .map(Squares)
}

/// The constraints of a board: queens given, squares blocked, or a
/// partial board holding both.
#[derive(Debug, Default, clap::Args)]
pub struct ProblemArgs {
    /// Queens placed in advance, ROW:COL counted from 1 (e.g. 1:2,4:3):
    /// only the boards that hold them.
    #[arg(long, value_name = "ROW:COL,...", value_parser = parse_squares)]
    given: Option<Squares>,

    /// Squares that may not hold a queen, ROW:COL counted from 1.
    #[arg(long, value_name = "ROW:COL,...", value_parser = parse_squares)]
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
        let squares = |s: &Option<Squares>| s.as_ref().map_or(Vec::new(), |s| s.0.clone());
        let problem = Problem::new(n, squares(&self.given), squares(&self.blocked));
        Some(problem.map_err(|err| UsageError(err.to_string()).into()))
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
        // What no board size changes is refused once, up front.
        if let Some(Err(err)) = self.problem_of(queens::MAX_N) {
            return Err(err);
        }
        let squares = |s: &Option<Squares>| s.as_ref().map_or(Vec::new(), |s| s.0.clone());
        Ok(Some(Against::Squares {
            given: squares(&self.given),
            blocked: squares(&self.blocked),
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
    let mut text = String::new();
    std::io::Read::read_to_string(
        &mut std::io::Read::take(file, MAX_BOARD_BYTES + 1),
        &mut text,
    )
    .map_err(|err| UsageError(format!("{shown}: {err}")))?;
    if text.len() as u64 > MAX_BOARD_BYTES {
        return Err(UsageError(format!(
            "{shown} is over {MAX_BOARD_BYTES} bytes: a partial board of at most 32 x 32 squares \
             is a few kilobytes"
        ))
        .into());
    }
    Problem::from_board(&text).map_err(|err| UsageError(format!("{shown}: {err}")).into())
}

/// What a message says a problem is, for people: its given queens and
/// blocked squares, 1-based.
pub fn describe(problem: &Problem) -> String {
    let list = |squares: &[Square]| {
        squares
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(",")
    };
    match (problem.given(), problem.blocked()) {
        ([], []) => "no constraint".to_owned(),
        (given, []) => format!("queens given at {}", list(given)),
        ([], blocked) => format!("squares {} blocked", list(blocked)),
        (given, blocked) => format!(
            "queens given at {} and squares {} blocked",
            list(given),
            list(blocked)
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_are_read_from_one() {
        assert_eq!(
            parse_squares("1:2, 4:3").unwrap(),
            Squares(vec![Square::new(0, 1), Square::new(3, 2)])
        );
        for bad in ["0:1", "1", "1:2:3", "a:b", "1:2,,3:4", "-1:2"] {
            let err = parse_squares(bad).unwrap_err();
            assert!(
                err.contains("is not a square: expected ROW:COL"),
                "{bad}: {err}"
            );
        }
    }
}
