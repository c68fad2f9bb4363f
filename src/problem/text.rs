//! A problem as text: the partial board people write (`Q` given, `x`
//! blocked, `.` free, a line a row) and the one line a plan's header
//! names it by (those rows joined by `/`).

use std::fmt;

use super::{Problem, Square};
use crate::Error;

impl Problem {
    /// Reads a partial board: one line a row, one character a square,
    /// `Q` (or `q`) for a given queen, `x` (or `X`) for a blocked square
    /// and `.` for a free one. Blank lines and lines starting with `#` are
    /// skipped; trailing spaces are ignored. The board is square: as many
    /// rows as the first row has squares. A UTF-8 byte order mark at the
    /// start (U+FEFF, as Notepad writes) is skipped.
    ///
    /// # Errors
    ///
    /// [`Error::PartialBoard`] naming the line and what is wrong with it,
    /// and the errors of [`Problem::new`].
    pub fn from_board(text: &str) -> Result<Self, Error> {
        let bad = |line: usize, why: String| Error::PartialBoard { line, why };
        // See: issue 47, item 16.
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let mut given = Vec::new();
        let mut blocked = Vec::new();
        let mut n = None;
        let mut row = 0u32;
        for (index, line) in text.lines().enumerate() {
            let line_no = index + 1;
            let line = line.trim_end();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let width = line.chars().count();
            let size = *n.get_or_insert(width);
            if width != size {
                return Err(bad(
                    line_no,
                    format!("{width} squares where the first row has {size}"),
                ));
            }
            if row as usize == size {
                return Err(bad(
                    line_no,
                    format!("row {} of a board of {size}", row + 1),
                ));
            }
            for (col, square) in (0u32..).zip(line.chars()) {
                match square {
                    'Q' | 'q' => given.push(Square::new(row, col)),
                    'x' | 'X' => blocked.push(Square::new(row, col)),
                    '.' => {}
                    // Escaped, so that a control character is shown, not
                    // obeyed (see: issue 47, item 16).
                    other => {
                        return Err(bad(
                            line_no,
                            format!(
                                "'{}' is not a square: expected Q, x or .",
                                other.escape_debug()
                            ),
                        ));
                    }
                }
            }
            row += 1;
        }
        let Some(size) = n else {
            let why = match text.trim() {
                "" => "it is empty: expected rows of Q, x and .",
                _ => "it holds only comments and blank lines: expected rows of Q, x and .",
            };
            return Err(bad(0, why.to_owned()));
        };
        if (row as usize) < size {
            return Err(bad(
                text.lines().count(),
                format!("{row} rows for a board of {size}: it needs {size}"),
            ));
        }
        let size = u32::try_from(size).unwrap_or(u32::MAX);
        Self::new(size, given, blocked)
    }
}

impl Problem {
    /// The problem on one line, as a plan's header, its journals and its
    /// shard files name it: the board of [`Display`](fmt::Display) with
    /// its rows joined by `/` (`.Q../..../x.../....`), at most 1,055
    /// characters (n = 32).
    #[must_use]
    pub fn to_line(&self) -> String {
        self.to_string().trim_end().replace('\n', "/")
    }

    /// Reads back what [`Problem::to_line`] wrote, and nothing else.
    ///
    /// # Errors
    /// [`Error::PartialBoard`] for a line that is not one problem's line,
    /// and the errors of [`Problem::new`].
    pub fn from_line(line: &str) -> Result<Self, Error> {
        let problem = Self::from_board(&line.replace('/', "\n"))?;
        if problem.to_line() != line {
            return Err(Error::PartialBoard {
                line: 1,
                why: "not a problem's line: rows of Q, x and . joined by /".to_owned(),
            });
        }
        Ok(problem)
    }
}

impl Problem {
    /// The constraints in words, squares 1-based as people write them:
    /// `queens given at 2:5,7:1 and squares 1:1 blocked`, or `no
    /// constraint` for the empty board.
    ///
    /// ```
    /// use queens::{Problem, Square};
    ///
    /// let problem = Problem::new(8, [Square::new(1, 4)], [Square::new(0, 0)])?;
    /// assert_eq!(problem.describe(), "queens given at 2:5 and squares 1:1 blocked");
    /// # Ok::<(), queens::Error>(())
    /// ```
    #[must_use]
    pub fn describe(&self) -> String {
        let list = |squares: &[Square]| {
            let squares: Vec<String> = squares.iter().map(ToString::to_string).collect();
            squares.join(",")
        };
        match (self.given(), self.blocked()) {
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
}

/// The problem as [`Problem::from_board`] reads it back: `Q`, `x`, `.`.
impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for row in 0..self.n {
            for col in 0..self.n {
                let here = Square::new(row, col);
                let c = if self.given.binary_search(&here).is_ok() {
                    'Q'
                } else if self.blocked.binary_search(&here).is_ok() {
                    'x'
                } else {
                    '.'
                };
                f.write_fmt(format_args!("{c}"))?;
            }
            f.write_str("\n")?;
        }
        Ok(())
    }
}
