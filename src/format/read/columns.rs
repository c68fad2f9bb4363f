//! The columns format: one board a line, the 1-based column of each row
//! separated by spaces; and [`Columns`], where the columns of a board are
//! kept as they are read (also for JSON lines' `"cols"`).
//!
//! A line is read as a stream of numbers, never as a line of text, and
//! columns are kept only up to the first repeat: a line of a billion
//! numbers must never cost more memory than the board it describes.

use std::io::BufRead;

use super::input::{Input, describe};
use super::{Checked, MAX_READ_N, ReadError};
use crate::check::{Bits, Conflict, Queen, first_conflict};

/// One line of 1-based column numbers.
pub(super) fn read_columns<R: BufRead>(
    input: &mut Input<R>,
    index: u64,
) -> Result<Option<Checked>, ReadError> {
    input.skip_whitespace(true)?;
    if input.peek()?.is_none() {
        return Ok(None);
    }
    let line = input.line;
    let mut cols = Columns::default();
    loop {
        input.skip_whitespace(false)?;
        match input.peek()? {
            None => break,
            Some(b'\n') => {
                input.next()?;
                break;
            }
            Some(b'0'..=b'9') => {
                let col = input.number(u64::from(MAX_READ_N), "column number")?;
                input.expect_separator("a column number", |b| {
                    matches!(b, b' ' | b'\t' | b'\r' | b'\n')
                })?;
                if col == 0 {
                    return Err(input.malformed(
                        "column 0: the columns format counts columns from 1".to_owned(),
                    ));
                }
                cols.push(&*input, col as u32 - 1)?;
            }
            Some(other) => {
                return Err(input.malformed(format!(
                    "unexpected {} in a line of column numbers",
                    describe(other)
                )));
            }
        }
    }
    let n = cols.count;
    if let Some(max) = cols.max.filter(|&max| max >= n) {
        return Err(ReadError::Malformed {
            line,
            message: format!(
                "column {} is off a board of {n} rows: a line of n numbers is an n x n board, \
                 with columns from 1 to n",
                u64::from(max) + 1
            ),
        });
    }
    Ok(Some(Checked {
        index,
        line,
        n,
        conflict: cols.first_conflict(),
    }))
}

/// The columns of a board as they are read, one per row.
///
/// Columns are kept only up to the first repeated one: the check needs no
/// more to find the first conflict, and a line of a billion `1`s costs no
/// memory. They are kept in chunks of fixed size, so that a growing board
/// is never copied: at n = 10^7 `queens check` peaks at 75 MB of memory
/// instead of 124 MB with one doubling vector (the time is the same,
/// 0.33 s).
#[derive(Debug, Default)]
pub(super) struct Columns {
    chunks: Vec<Vec<u32>>,
    seen: Bits,
    repeated: bool,
    /// Columns read (the board's n, once the line is done).
    pub(super) count: u32,
    pub(super) max: Option<u32>,
}

impl Columns {
    pub(super) fn push<R>(&mut self, input: &Input<R>, col: u32) -> Result<(), ReadError> {
        if self.count == MAX_READ_N {
            return Err(input.malformed(format!("more than {MAX_READ_N} columns in one board")));
        }
        self.count += 1;
        self.max = self.max.max(Some(col));
        if !self.repeated {
            // A column is on the board only if as many numbers follow it:
            // one far past those read so far is not marked, so that a few
            // bytes (`999999999`) cannot claim 125 MB of bits. Missing a
            // repeat of it only keeps more columns, 4 bytes a number.
            if (col as usize) < SEEN_AHEAD.max(2 * self.count as usize) {
                self.repeated = self.seen.test_and_set(col as usize);
            }
            match self.chunks.last_mut() {
                Some(chunk) if chunk.len() < COLUMNS_CHUNK => chunk.push(col),
                _ => {
                    let mut chunk = Vec::with_capacity(COLUMNS_CHUNK);
                    chunk.push(col);
                    self.chunks.push(chunk);
                }
            }
        }
        Ok(())
    }

    /// The first conflict among the columns kept: when one repeats, the
    /// first conflict of the board is among the rows up to the repeat.
    pub(super) fn first_conflict(self) -> Option<Conflict> {
        debug_assert!(self.max.is_none_or(|m| m < self.count));
        let n = self.count;
        let queens = (0..)
            .zip(self.chunks.iter().flatten())
            .map(|(row, &col)| Queen { row, col });
        let conflict = first_conflict(n, queens);
        debug_assert!(conflict.is_some() || !self.repeated);
        conflict
    }
}

/// Columns per chunk of [`Columns`]: 256 KiB.
const COLUMNS_CHUNK: usize = 1 << 16;

/// Columns below this are marked as seen whatever has been read (8 KiB of
/// bits); above it, only those below twice the columns read.
const SEEN_AHEAD: usize = 1 << 16;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::Line;
    use crate::format::Boards;

    #[test]
    fn a_line_of_repeats_keeps_no_columns() {
        let line = "1 ".repeat(100_000) + "\n";
        let mut cols = Columns::default();
        let input = Input::new(&b""[..]);
        for _ in 0..100_000 {
            cols.push(&input, 0).unwrap();
        }
        assert_eq!(cols.chunks.concat(), [0, 0]);
        let got: Vec<_> = Boards::new(line.as_bytes()).collect();
        assert!(got[0].as_ref().unwrap().conflict.unwrap().line == Line::Column);
    }

    // Issue 20: `echo 999999999 | queens check` took 130 MB to say that
    // column 999999999 is off a board of one row: the column was marked in
    // a bitmap as long as the largest column.
    #[test]
    fn a_large_column_costs_no_memory_until_as_many_numbers_are_read() {
        let input = Input::new(&b""[..]);
        let mut cols = Columns::default();
        cols.push(&input, 999_999_998).unwrap();
        cols.push(&input, 5).unwrap();
        assert!(
            cols.seen.words() <= SEEN_AHEAD / 64,
            "{}",
            cols.seen.words()
        );
        let got: Vec<_> = Boards::new(&b"2 999999999 1\n"[..]).collect();
        assert!(
            got[0]
                .as_ref()
                .unwrap_err()
                .to_string()
                .contains("off a board of 3 rows")
        );
        // A repeat of a column too large to mark is still the conflict.
        let mut line = vec!["200000".to_owned(); 2];
        line.extend((1..=199_998).map(|c| c.to_string()));
        let got: Vec<_> = Boards::new(format!("{}\n", line.join(" ")).as_bytes()).collect();
        let conflict = got[0].as_ref().unwrap().conflict.unwrap();
        assert_eq!(
            (conflict.line, conflict.first.row, conflict.second.row),
            (Line::Column, 0, 1)
        );
    }
}
