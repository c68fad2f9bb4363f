//! The columns format: one board a line, the column of each row
//! separated by spaces or commas, counted from 1 (or from 0: a line that
//! holds a 0, or every line where the reader is told so); the same numbers
//! in a list (`[1, 3, 0, 2]`, for `lists.rs`); and [`Columns`], where the
//! columns of a board are kept as they are read (also for JSON lines'
//! `"cols"`).
//!
//! The first line of an input that starts with a digit may instead be the
//! first row of a 0/1 matrix (`0 1 0 0`, `0100`): [`read_first`] reads it
//! both ways until a number other than 0 or 1 settles it, and at its end
//! takes it for a matrix row where it has two squares or more and a 0. No
//! line of columns is both: counted from 1 no column is 0, and counted
//! from 0, numbers that are all 0 or 1 clash as soon as there are two.
//!
//! A line is read as a stream of numbers, never as a line of text, and
//! columns are kept only up to the first repeat: a line of a billion
//! numbers must never cost more memory than the board it describes.

use std::io::BufRead;

use super::grid::{Alphabet, Grid};
use super::input::{Input, describe};
use super::{Checked, Keep, MAX_READ_N, ReadError, SmallBoard, small_board};
use std::collections::TryReserveError;

use crate::check::{Bits, Conflict, Queen, by_rows_bytes, first_conflict_by_rows};

/// Where a run of column numbers ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum End {
    /// At the end of the line.
    Line,
    /// At this closing bracket, line breaks being spaces until then.
    Close(u8),
}

/// How a board's column numbers count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Base {
    /// From 1, unless the board holds a 0, which only counting from 0 has.
    Detect,
    /// From 0, whatever the board holds.
    Zero,
}

/// One line of column numbers.
pub(super) fn read_columns<R: BufRead>(
    input: &mut Input<R>,
    index: u64,
    limit: Option<u64>,
    base: Base,
    keep: &mut Keep,
) -> Result<Option<Checked>, ReadError> {
    if input.skip_between_boards()?.is_none() {
        return Ok(None);
    }
    let line = input.line;
    let mut cols = Columns::new(limit, keep.up_to());
    read_numbers(input, End::Line, &mut cols)?;
    cols.finish(index, line, base, keep).map(Some)
}

/// What the first line (or first list) of numbers of an input is.
pub(super) enum First {
    /// A board of columns, read and checked.
    Columns(Checked),
    /// The first row of a 0/1 matrix, its grid's first row read.
    Matrix(Grid),
}

/// The first board's numbers, up to `end`: the first row of a 0/1 matrix
/// or a board of columns (see the module's documentation).
pub(super) fn read_first<R: BufRead>(
    input: &mut Input<R>,
    index: u64,
    end: End,
    limit: Option<u64>,
    base: Base,
    keep: &mut Keep,
) -> Result<First, ReadError> {
    let line = input.line;
    let mut cols = Columns::new(limit, keep.up_to());
    let mut grid = Grid::new(index, line, Alphabet::Digits, keep);
    // Still possibly a matrix row: every digit so far is a 0 or a 1.
    let mut binary = true;
    let (mut squares, mut zero) = (0u64, false);
    // A number too large for a column, said only if it is not a matrix.
    let mut too_large: Option<ReadError> = None;
    loop {
        if !separate(input, end, cols.count > 0)? {
            break;
        }
        if !binary {
            return read_numbers(input, end, &mut cols)
                .and_then(|()| cols.finish(index, line, base, keep))
                .map(First::Columns);
        }
        let mut value: u64 = 0;
        while let Some(digit @ b'0'..=b'9') = input.peek()? {
            if binary && digit <= b'1' {
                grid.square(input, digit == b'1', keep)?;
                squares += 1;
                zero |= digit == b'0';
            } else {
                binary = false;
            }
            value = value
                .saturating_mul(10)
                .saturating_add(u64::from(digit - b'0'));
            if value > u64::from(MAX_READ_N) && too_large.is_none() {
                too_large = Some(
                    input.malformed(format!("column number too large: more than {MAX_READ_N}")),
                );
            }
            // A gigabyte of digits is refused after a dozen, as a column.
            if let (false, Some(err)) = (binary, too_large.take()) {
                return Err(err);
            }
            input.next()?;
        }
        after_number(input, end)?;
        cols.push(input, value.min(u64::from(MAX_READ_N)) as u32)?;
    }
    if binary && zero && squares >= 2 {
        grid.end_row(line)?;
        return Ok(First::Matrix(grid));
    }
    if let Some(err) = too_large {
        return Err(err);
    }
    cols.finish(index, line, base, keep).map(First::Columns)
}

/// Column numbers up to `end`, into `cols` (which may hold some already).
pub(super) fn read_numbers<R: BufRead>(
    input: &mut Input<R>,
    end: End,
    cols: &mut Columns,
) -> Result<(), ReadError> {
    while separate(input, end, cols.count > 0)? {
        let col = input.number(u64::from(MAX_READ_N), "column number")?;
        after_number(input, end)?;
        cols.push(&*input, col as u32)?;
    }
    Ok(())
}

/// Skips what separates two numbers (spaces, and one comma where a number
/// came before) and says whether a number follows; at `end`, consumes it
/// and says no.
fn separate<R: BufRead>(input: &mut Input<R>, end: End, after: bool) -> Result<bool, ReadError> {
    let lines = matches!(end, End::Close(_));
    input.skip_whitespace(lines)?;
    // One look a number: this is most of the cost of a line of columns.
    let mut next = input.peek()?;
    let comma = after && next == Some(b',');
    if comma {
        input.next()?;
        input.skip_whitespace(lines)?;
        next = input.peek()?;
    }
    match (next, end) {
        (Some(b'0'..=b'9'), _) => Ok(true),
        (None | Some(b'\n'), End::Line) if comma => Err(input.malformed(
            "a line of column numbers ends with ',': expected a number after it".to_owned(),
        )),
        (None, End::Line) => Ok(false),
        (Some(b'\n'), End::Line) => {
            input.next()?;
            Ok(false)
        }
        (Some(close), End::Close(want)) if close == want => {
            input.next()?;
            Ok(false)
        }
        (other, End::Close(want)) => Err(input.malformed(format!(
            "expected a column number or '{}' in a list of columns, found {}",
            want as char,
            super::input::describe_opt(other)
        ))),
        (Some(other), End::Line) => Err(input.malformed(format!(
            "unexpected {} in a line of column numbers",
            describe(other)
        ))),
    }
}

/// The byte after a number must end it.
fn after_number<R: BufRead>(input: &mut Input<R>, end: End) -> Result<(), ReadError> {
    input.expect_separator("a column number", |b| match end {
        End::Line => matches!(b, b' ' | b'\t' | b'\r' | b'\n' | b','),
        End::Close(close) => b.is_ascii_whitespace() || b == b',' || b == close,
    })
}

/// The columns of a board as they are read, one per row, kept for the
/// check at the end of the board (see: issue 32).
///
/// Memory: what a board needs is its attack sets, a bit per column and two
/// per kind of diagonal, 5n bits (625 MB at n = 10^9), allocated once `n`
/// is known; the columns themselves are kept as runs of equal steps, so
/// that the boards of formulas (`queens one`, a few runs whatever n)
/// cost next to nothing, and a board without a pattern at most 4 bytes a
/// row more. Columns are kept only up to the first repeated one: the check
/// needs no more to find the first conflict, and a line of a billion `1`s
/// costs no memory. Every allocation is fallible, and the bytes held and
/// to come are held against `limit`: past it, or where the allocator has
/// nothing left (`ulimit -v`), the board is refused in one line
/// ([`ReadError::Memory`]), never aborted.
#[derive(Debug, Default)]
pub(super) struct Columns {
    kept: Vec<Segment>,
    /// Trailing columns of the last raw segment that step evenly.
    even: usize,
    /// Columns kept, and the largest of them.
    kept_rows: u32,
    kept_max: u32,
    seen: Bits,
    repeated: bool,
    /// Columns read (the board's n, once the line is done).
    pub(super) count: u32,
    pub(super) max: Option<u32>,
    /// The bytes the board may take, `None` for no limit.
    limit: Option<u64>,
    /// A column was 0: the board counts from 0.
    zero: bool,
    /// What is subtracted from a number read to give its column, from 0:
    /// 1 until the board is known to count from 0.
    offset: u32,
    /// Every number read, for a picture, while there are at most `up_to`.
    all: Vec<u32>,
    up_to: u32,
}

/// Kept columns: a run of equal steps, or columns as they came.
#[derive(Debug)]
enum Segment {
    Run { first: u32, step: i64, len: u32 },
    Raw(Vec<u32>),
}

impl Columns {
    /// No columns yet; the board may take `limit` bytes, and every
    /// number is kept for a picture while there are at most `up_to` (0:
    /// none kept).
    pub(super) fn new(limit: Option<u64>, up_to: u32) -> Self {
        Self {
            limit,
            up_to,
            ..Self::default()
        }
    }

    /// One more number, as read (counted from 1 or 0: see [`Base`]).
    pub(super) fn push<R>(&mut self, input: &Input<R>, col: u32) -> Result<(), ReadError> {
        if self.count == MAX_READ_N {
            return Err(input.malformed(format!("more than {MAX_READ_N} columns in one board")));
        }
        self.count += 1;
        self.max = self.max.max(Some(col));
        self.zero |= col == 0;
        if self.count <= self.up_to {
            self.all.push(col);
        }
        if !self.repeated {
            // A column is on the board only if as many numbers follow it:
            // one far past those read so far is not marked, so that a few
            // bytes (`999999999`) cannot claim 125 MB of bits. Missing a
            // repeat of it only keeps more columns.
            if (col as usize) < SEEN_AHEAD.max(2 * self.count as usize) {
                self.repeated = (self.seen.try_test_and_set(col as usize))
                    .map_err(|_| self.refusal(input.line, None))?;
            }
            self.keep(col).map_err(|_| self.refusal(input.line, None))?;
            self.kept_rows += 1;
            self.kept_max = self.kept_max.max(col);
            if self.count.is_multiple_of(CHECK_EVERY)
                && let Some(limit) = self.limit
                && self.needed() > limit
            {
                return Err(self.refusal(input.line, Some(limit)));
            }
        }
        Ok(())
    }

    /// Keeps `col`: in the last run if it steps as the run does, else in
    /// a raw segment, whose tail turns into a run once [`RUN`] columns of
    /// it step evenly.
    fn keep(&mut self, col: u32) -> Result<(), TryReserveError> {
        if let Some(Segment::Run { first, step, len }) = self.kept.last_mut()
            && i64::from(*first) + *step * i64::from(*len) == i64::from(col)
        {
            *len += 1;
            return Ok(());
        }
        let raw = match self.kept.last_mut() {
            Some(Segment::Raw(raw)) if raw.len() < COLUMNS_CHUNK => raw,
            _ => {
                self.kept.try_reserve(1)?;
                self.kept.push(Segment::Raw(Vec::new()));
                self.even = 0;
                match self.kept.last_mut() {
                    Some(Segment::Raw(raw)) => raw,
                    _ => unreachable!("a raw segment was just pushed"),
                }
            }
        };
        let steps_on = match raw.as_slice() {
            [.., a, b] => i64::from(*b) - i64::from(*a) == i64::from(col) - i64::from(*b),
            _ => false,
        };
        self.even = if steps_on {
            self.even + 1
        } else {
            raw.len().min(1) + 1
        };
        raw.try_reserve(1)?;
        raw.push(col);
        if self.even == RUN {
            let first = raw[raw.len() - RUN];
            let step = i64::from(raw[raw.len() - RUN + 1]) - i64::from(first);
            raw.truncate(raw.len() - RUN);
            if raw.is_empty() {
                self.kept.pop();
            }
            self.kept.try_reserve(1)?;
            self.kept.push(Segment::Run {
                first,
                step,
                len: RUN as u32,
            });
            self.even = 0;
        }
        Ok(())
    }

    /// The bytes the columns kept take.
    fn kept_bytes(&self) -> u64 {
        let raw: usize = (self.kept.iter())
            .map(|s| match s {
                Segment::Raw(raw) => raw.capacity() * size_of::<u32>(),
                Segment::Run { .. } => 0,
            })
            .sum();
        (self.kept.capacity() * size_of::<Segment>() + raw) as u64
    }

    /// What the board needs so far: the columns kept and the attack sets
    /// of their rows, which only grow as more are kept.
    fn needed(&self) -> u64 {
        self.kept_bytes() + by_rows_bytes(self.kept_rows, self.kept_max)
    }

    /// The refusal of the board that starts on `line`, past `available`
    /// bytes (`None`: where the allocator had no more).
    fn refusal(&self, line: u64, available: Option<u64>) -> ReadError {
        ReadError::Memory {
            line,
            rows: self.count,
            needed: self.needed(),
            available,
        }
    }

    /// The board of a line or list of numbers, read whole, checked: its
    /// numbers count from 0 where `base` or a 0 among them says so, else
    /// from 1. Its columns go to `keep`, for a picture.
    pub(super) fn finish(
        mut self,
        index: u64,
        line: u64,
        base: Base,
        keep: &mut Keep,
    ) -> Result<Checked, ReadError> {
        let n = self.count;
        let zero = base == Base::Zero || self.zero;
        self.offset = u32::from(!zero);
        if let Some(max) = self.max.filter(|&max| max - self.offset >= n) {
            let counts = match base {
                Base::Zero => "counted from 0 (columns 0 to n - 1)".to_owned(),
                Base::Detect if zero => {
                    "a board that holds a 0 counts its columns from 0, to n - 1".to_owned()
                }
                Base::Detect => "a line of n numbers is an n x n board, with columns from 1 \
                                 to n"
                    .to_owned(),
            };
            return Err(ReadError::Malformed {
                line,
                message: format!("column {max} is off a board of {n} rows: {counts}"),
            });
        }
        keep.begin();
        for (row, &col) in (0..).zip(&self.all) {
            keep.push(Queen {
                row,
                col: col - self.offset,
            });
        }
        keep.finish(n);
        let small = self.small();
        let conflict = self.first_conflict(line)?;
        Ok(Checked::new(index, line, n, conflict, small))
    }

    /// The board's columns, where it has at most `MAX_N` rows and they
    /// are all kept (no column repeats): what a problem's check needs.
    pub(super) fn small(&self) -> Option<SmallBoard> {
        if self.kept_rows != self.count {
            return None;
        }
        small_board(self.count, kept(&self.kept).map(|c| c - self.offset))
    }

    /// The first conflict among the columns kept: when one repeats, the
    /// first conflict of the board is among the rows up to the repeat.
    pub(super) fn first_conflict(mut self, line: u64) -> Result<Option<Conflict>, ReadError> {
        debug_assert!(self.max.is_none_or(|m| m - self.offset < self.count));
        if let Some(limit) = self.limit.filter(|&limit| self.needed() > limit) {
            return Err(self.refusal(line, Some(limit)));
        }
        // The bits of the columns seen go before the attack sets come.
        self.seen = Bits::default();
        let offset = self.offset;
        let cols = kept(&self.kept).map(move |c| c - offset);
        let conflict =
            first_conflict_by_rows(self.kept_rows, self.kept_max.saturating_sub(offset), cols)
                .map_err(|_| self.refusal(line, None))?;
        debug_assert!(conflict.is_some() || !self.repeated);
        Ok(conflict)
    }
}

/// The columns of `segments`, in row order.
fn kept(segments: &[Segment]) -> impl Iterator<Item = u32> + Clone + '_ {
    segments.iter().flat_map(|segment| {
        let (run, raw) = match segment {
            Segment::Run { first, step, len } => (Some((*first, *step, *len)), &[][..]),
            Segment::Raw(raw) => (None, raw.as_slice()),
        };
        let run = run.into_iter().flat_map(|(first, step, len)| {
            (0..i64::from(len)).map(move |k| (i64::from(first) + step * k) as u32)
        });
        run.chain(raw.iter().copied())
    })
}

/// Columns per raw segment of [`Columns`] (256 KiB), so that a growing
/// board is never copied more than a segment at a time: at n = 10^7 `queens
/// check` peaked at 75 MB of memory with segments instead of 124 MB with
/// one doubling vector (the time is the same, 0.33 s).
const COLUMNS_CHUNK: usize = 1 << 16;

/// Columns that step evenly that a raw segment turns into a run.
const RUN: usize = 8;

/// Columns read between two looks at the memory limit.
const CHECK_EVERY: u32 = 1 << 16;

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
        let mut cols = Columns::new(None, 0);
        let input = Input::new(&b""[..]);
        for _ in 0..100_000 {
            cols.push(&input, 0).unwrap();
        }
        assert_eq!(kept(&cols.kept).collect::<Vec<_>>(), [0, 0]);
        let got: Vec<_> = Boards::new(line.as_bytes()).collect();
        assert!(got[0].as_ref().unwrap().conflict.unwrap().line == Line::Column);
    }

    fn keep_all(cols: &[u32]) -> Columns {
        let input = Input::new(&b""[..]);
        let mut kept = Columns::new(None, 0);
        for &col in cols {
            kept.push(&input, col).unwrap();
        }
        kept
    }

    // Issue 32: a board of 10^9 rows took 48 bits a row to check.
    #[test]
    fn columns_are_kept_as_runs_and_given_back_as_read() {
        let n = 1_000_000u32;
        let stepping: Vec<u32> = (0..n / 2)
            .map(|i| 2 * i + 1)
            .chain((0..n / 2).map(|i| 2 * i))
            .collect();
        let cols = keep_all(&stepping);
        assert_eq!(kept(&cols.kept).collect::<Vec<_>>(), stepping);
        assert!(cols.kept.len() <= 4, "{} segments", cols.kept.len());
        assert!(cols.kept_bytes() < 1024, "{}", cols.kept_bytes());
        // Without a pattern, runs and raw columns mixed, any step.
        let mut state = 7u64;
        let mut mixed: Vec<u32> = Vec::new();
        for block in 0..2000u32 {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1);
            let len = (state >> 60) as u32 + 1;
            let step = (state >> 40) as u32 % 5;
            let start = (state >> 20) as u32 % 1_000_000 + 10 * block;
            mixed.extend((0..len).map(|k| {
                if block % 3 == 0 {
                    start + step * k
                } else {
                    start.wrapping_sub(step * k) % 3_000_000
                }
            }));
        }
        let cols = keep_all(&mixed);
        assert_eq!(
            kept(&cols.kept).collect::<Vec<_>>(),
            mixed[..cols.kept_rows as usize]
        );
    }

    #[test]
    fn a_board_past_the_limit_is_refused() {
        let input = Input::new(&b""[..]);
        let mut cols = Columns::new(Some(1000), 0);
        let refused = (0..1_000_000).try_for_each(|c| cols.push(&input, c));
        let err = refused.unwrap_err().to_string();
        assert!(
            err.contains("needs at least") && err.contains("1000 bytes available"),
            "{err}"
        );
    }

    // Issue 20: `echo 999999999 | queens check` took 130 MB to say that
    // column 999999999 is off a board of one row: the column was marked in
    // a bitmap as long as the largest column.
    #[test]
    fn a_large_column_costs_no_memory_until_as_many_numbers_are_read() {
        let input = Input::new(&b""[..]);
        let mut cols = Columns::new(None, 0);
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
