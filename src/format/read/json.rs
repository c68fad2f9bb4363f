//! JSON lines (`{"n":N,"cols":[...]}`, one object a line); LeetCode's
//! arrays are read with Python's lists, in `lists.rs`.
//!
//! Only this one shape is read, a byte at a time: this is not a JSON
//! parser and must never become one (no string escapes, no other keys, no
//! values kept beyond the columns), so a line of garbage is refused at its
//! first bad byte and memory stays the size of a board.

use std::io::BufRead;

use super::columns::{Base, Columns};
use super::input::{Input, describe, describe_opt};
use super::{Checked, Keep, MAX_READ_N, ReadError};

/// One line holding `{"n":N,"cols":[...]}` (0-based columns).
pub(super) fn read_jsonl<R: BufRead>(
    input: &mut Input<R>,
    index: u64,
    limit: Option<u64>,
    keep: &mut Keep,
) -> Result<Option<Checked>, ReadError> {
    if input.skip_between_boards()?.is_none() {
        return Ok(None);
    }
    let line = input.line;
    input.expect(b'{', "to open a JSON object")?;
    let mut n: Option<u32> = None;
    let mut cols: Option<Columns> = None;
    loop {
        input.skip_whitespace(false)?;
        input.expect(b'"', "to open a key (\"n\" or \"cols\")")?;
        let key = read_key(input)?;
        input.skip_whitespace(false)?;
        input.expect(b':', "after a key")?;
        input.skip_whitespace(false)?;
        match key {
            Key::N if n.is_none() => {
                let value = input.number(u64::from(MAX_READ_N), "n")?;
                if value == 0 {
                    return Err(input.malformed("n is 0: a board has at least one row".into()));
                }
                n = Some(value as u32);
            }
            Key::Cols if cols.is_none() => {
                cols = Some(read_json_columns(input, n, limit, keep.up_to())?);
            }
            Key::N | Key::Cols => {
                return Err(input.malformed(format!("the key \"{}\" appears twice", key.name())));
            }
        }
        input.skip_whitespace(false)?;
        match input.next()? {
            Some(b',') => {}
            Some(b'}') => break,
            other => {
                return Err(input.malformed(format!(
                    "expected ',' or '}}' in the object, found {}",
                    describe_opt(other)
                )));
            }
        }
    }
    input.skip_whitespace(false)?;
    input.expect_separator("the object", |b| b == b'\n')?;
    let (Some(n), Some(cols)) = (n, cols) else {
        return Err(ReadError::Malformed {
            line,
            message: "the object needs both \"n\" and \"cols\"".into(),
        });
    };
    if cols.count != n {
        return Err(ReadError::Malformed {
            line,
            message: format!("\"cols\" holds {} columns, but \"n\" is {n}", cols.count),
        });
    }
    if let Some(max) = cols.max.filter(|&max| max >= n) {
        return Err(ReadError::Malformed {
            line,
            message: format!(
                "column {max} is off a board of n = {n} (\"cols\" counts from 0 to n - 1)"
            ),
        });
    }
    cols.finish(index, line, Base::Zero, keep).map(Some)
}

/// The `[...]` of a JSON line's `"cols"`, each column checked against `n`
/// as soon as it is read when `n` came first.
fn read_json_columns<R: BufRead>(
    input: &mut Input<R>,
    n: Option<u32>,
    memory: Option<u64>,
    up_to: u32,
) -> Result<Columns, ReadError> {
    input.expect(b'[', "to open \"cols\"")?;
    let mut cols = Columns::new(memory, up_to);
    input.skip_whitespace(false)?;
    if input.peek()? == Some(b']') {
        input.next()?;
        return Ok(cols);
    }
    let limit = n.map_or(MAX_READ_N, |n| n - 1);
    loop {
        input.skip_whitespace(false)?;
        let col = input.number(u64::from(limit), "column")?;
        cols.push(input, col as u32)?;
        if n.is_some_and(|n| cols.count > n) {
            return Err(input.malformed(format!(
                "\"cols\" holds more than n = {} columns",
                limit + 1
            )));
        }
        input.skip_whitespace(false)?;
        match input.next()? {
            Some(b',') => {}
            Some(b']') => return Ok(cols),
            other => {
                return Err(input.malformed(format!(
                    "expected ',' or ']' in \"cols\", found {}",
                    describe_opt(other)
                )));
            }
        }
    }
}

/// The two keys of a JSON line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Key {
    N,
    Cols,
}

impl Key {
    const fn name(self) -> &'static str {
        match self {
            Self::N => "n",
            Self::Cols => "cols",
        }
    }
}

/// The rest of a JSON key whose opening quote is read: `n` or `cols`,
/// refused at the first byte that cannot belong to either.
fn read_key<R: BufRead>(input: &mut Input<R>) -> Result<Key, ReadError> {
    let mut read = Vec::with_capacity(4);
    loop {
        match input.next()? {
            Some(b'"') => break,
            Some(b) if read.len() < 4 && b.is_ascii_graphic() => read.push(b),
            other => {
                let shown = String::from_utf8_lossy(&read).into_owned();
                let found = other.map_or("the end of the input".into(), describe);
                return Err(input.malformed(format!(
                    "unknown key starting \"{shown}\" then {found} (expected \"n\" or \"cols\")"
                )));
            }
        }
    }
    match read.as_slice() {
        b"n" => Ok(Key::N),
        b"cols" => Ok(Key::Cols),
        other => Err(input.malformed(format!(
            "unknown key \"{}\" (expected \"n\" or \"cols\")",
            String::from_utf8_lossy(other)
        ))),
    }
}
