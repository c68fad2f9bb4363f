//! Boards as text: the six formats of `queens list` and `queens one`,
//! written by [`write`](mod@write) and read back by [`read`] (as `queens
//! check` does, along with what learners write: Python's lists, 0/1
//! matrices, columns from 0, ...).
//!
//! A board is given as the column of the queen in each row (0-based), the
//! same permutation [`crate::symmetry`] works on. Each format writes it as:
//!
//! ```text
//! board      .Q..          spaced     . Q . .       columns   2 4 1 3
//!            ...Q                     . . . Q       (1-based, one board a line)
//!            Q...                     Q . . .
//!            ..Q.                     . . Q .       jsonl     {"n":4,"cols":[1,3,0,2]}
//!                                                   (0-based, one object a line)
//! leetcode   [[".Q..","...Q","Q...","..Q."],["..Q.","Q...","...Q",".Q.."]]
//!
//! unicode    ┌───┬───┬───┬───┐
//!            │   │ ♛ │   │   │
//!            ├───┼───┼───┼───┤
//!            ...
//!            └───┴───┴───┴───┘
//! ```
//!
//! `board`, `spaced` and `unicode` put a blank line between two boards;
//! `leetcode` is one JSON array of boards, LeetCode 51's answer byte for
//! byte, on one line. Pictures are not text formats: SVG is
//! [`crate::svg`]'s.
//!
//! This module only names the formats and what goes around and between
//! boards. It never decides which boards to write, and never checks whether
//! a board is a solution: that is [`crate::check`]'s job.

mod read;
mod write;

use std::fmt;
use std::str::FromStr;

pub use read::{Boards, Checked, MAX_READ_N, ReadError};
pub use write::{BoardWriter, Renderer};

/// A text format for boards.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Format {
    /// One row per line, `Q` for a queen and `.` for an empty square; a
    /// blank line between boards.
    #[default]
    Board,
    /// As `board`, with a space between two cells (`. Q . .`), as textbook
    /// programs print them.
    Spaced,
    /// LeetCode 51's answer: one JSON array holding, for each board, the
    /// array of its rows as strings.
    Leetcode,
    /// One board per line: the 1-based column of each row, separated by
    /// spaces.
    Columns,
    /// One JSON object per line: `{"n":N,"cols":[...]}` with the 0-based
    /// column of each row.
    Jsonl,
    /// A board drawn with box-drawing lines, `♛` for a queen; a blank line
    /// between boards.
    Unicode,
}

impl Format {
    /// Every format, in the order the help lists them; each is read back
    /// by [`Boards`].
    pub const ALL: [Self; 6] = [
        Self::Board,
        Self::Spaced,
        Self::Leetcode,
        Self::Columns,
        Self::Jsonl,
        Self::Unicode,
    ];

    /// The name the command line uses.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::Board => "board",
            Self::Spaced => "spaced",
            Self::Leetcode => "leetcode",
            Self::Columns => "columns",
            Self::Jsonl => "jsonl",
            Self::Unicode => "unicode",
        }
    }

    /// Whether the format draws every square, so that a board takes `n * n`
    /// characters rather than about `n` numbers.
    #[must_use]
    pub const fn draws_squares(self) -> bool {
        matches!(
            self,
            Self::Board | Self::Spaced | Self::Leetcode | Self::Unicode
        )
    }

    /// What comes before the first board (and is written even when there is
    /// no board).
    #[must_use]
    pub const fn opening(self) -> &'static [u8] {
        match self {
            Self::Leetcode => b"[",
            _ => b"",
        }
    }

    /// What comes between two boards.
    #[must_use]
    pub const fn separator(self) -> &'static [u8] {
        match self {
            Self::Board | Self::Spaced | Self::Unicode => b"\n",
            Self::Leetcode => b",",
            Self::Columns | Self::Jsonl => b"",
        }
    }

    /// What comes after the last board (and is written even when there is
    /// no board).
    #[must_use]
    pub const fn closing(self) -> &'static [u8] {
        match self {
            Self::Leetcode => b"]\n",
            _ => b"",
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Format {
    type Err = crate::Error;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::ALL
            .into_iter()
            .find(|f| f.name() == s)
            .ok_or_else(|| crate::Error::UnknownFormat(s.to_owned()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for f in Format::ALL {
            assert_eq!(f.name().parse::<Format>(), Ok(f));
        }
        assert!("Board".parse::<Format>().is_err());
    }
}
