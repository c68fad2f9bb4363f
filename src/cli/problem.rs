//! `--given`, `--blocked` and `--board`: a problem with queens placed in
//! advance and squares blocked ([`queens::Problem`]), as `list`, `one` and
//! `check` take it. Squares are `ROW:COL` counted from 1, as `check`
//! prints positions; a partial board is a line a row of `Q` (given), `x`
//! (blocked) and `.` (free).

use std::path::PathBuf;

use queens::{Problem, Square};

use super::UsageError;

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
