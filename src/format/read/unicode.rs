//! The `unicode` format read back: a board drawn with box-drawing lines,
//! a queen glyph in its squares.
//!
//! ```text
//! ┌───┬───┐      border lines: box-drawing characters only (U+2500 to U+257F)
//! │ ♛ │   │      a row: squares between '│', each blank, or one queen
//! ├───┼───┤      ('♛', '♕', 'Q' or 'q'; '.', '·', '_' or '-' also say empty)
//! ```
//!
//! A board ends at its bottom line (`└...`), which it must have, so that a
//! board cut short is never taken for a smaller one; it must then have as
//! many rows as squares in a row. Each
//! square is handed to a [`Grid`], which checks the board as it does rows
//! of `Q` and `.`.

use std::io::BufRead;

use super::grid::{Alphabet, Grid};
use super::input::Input;
use super::{Checked, Keep, ReadError};

/// The bar between two squares.
const BAR: char = '│';

/// Whether `c` draws a board's lines.
const fn is_box(c: char) -> bool {
    matches!(c, '\u{2500}'..='\u{257f}')
}

/// A board drawn with box-drawing characters.
pub(super) fn read_unicode<R: BufRead>(
    input: &mut Input<R>,
    index: u64,
    keep: &mut Keep,
) -> Result<Option<Checked>, ReadError> {
    if input.skip_between_boards()?.is_none() {
        return Ok(None);
    }
    let mut grid = Grid::new(index, input.line, Alphabet::Letters, keep);
    loop {
        let line = input.line;
        if input.at_blank_line()? {
            // A board cut short must never pass for a smaller one.
            return Err(ReadError::Malformed {
                line,
                message: format!(
                    "board {index} (line {}) ends without its bottom line, which starts with '└'",
                    grid.first_line
                ),
            });
        }
        if input.peek()? == Some(b'#') {
            input.skip_to_line_end()?;
            input.next()?;
            continue;
        }
        match input.next_char()? {
            Some(BAR) => {
                if grid.complete() {
                    return Err(input.malformed(format!(
                        "board {index} has more rows than its first row (line {}) has squares",
                        grid.first_line
                    )));
                }
                read_row(input, &mut grid, line, keep)?;
            }
            Some(c) if is_box(c) => {
                read_border(input)?;
                if matches!(c, '└' | '┗' | '╚') && grid.rows > 0 {
                    break;
                }
            }
            other => {
                return Err(ReadError::Malformed {
                    line,
                    message: format!(
                        "expected a line of a box-drawn board (one that starts with '┌', '│', \
                         '├' or '└'), found {}",
                        shown(other)
                    ),
                });
            }
        }
    }
    if !grid.complete() {
        return Err(grid.too_few_rows(input.line));
    }
    grid.check(keep)
}

/// The rest of a border line: box-drawing characters and spaces.
fn read_border<R: BufRead>(input: &mut Input<R>) -> Result<(), ReadError> {
    loop {
        match input.peek()? {
            None => return Ok(()),
            Some(b'\n') => {
                input.next()?;
                return Ok(());
            }
            Some(b' ' | b'\t' | b'\r') => {
                input.next()?;
            }
            Some(_) => {
                let column = input.column;
                match input.next_char()? {
                    Some(c) if is_box(c) => {}
                    other => {
                        return Err(input.malformed(format!(
                            "unexpected {} at column {column} of a border line (box-drawing \
                             characters only)",
                            shown(other)
                        )));
                    }
                }
            }
        }
    }
}

/// The rest of a row line, its first bar read: squares up to the last bar.
fn read_row<R: BufRead>(
    input: &mut Input<R>,
    grid: &mut Grid,
    line: u64,
    keep: &mut Keep,
) -> Result<(), ReadError> {
    loop {
        // After a bar: the end of the row, or a square up to the next bar.
        while let Some(b' ' | b'\t' | b'\r') = input.peek()? {
            input.next()?;
        }
        match input.peek()? {
            None => break,
            Some(b'\n') => {
                input.next()?;
                break;
            }
            Some(_) => {}
        }
        let mut queen = false;
        loop {
            let column = input.column;
            match input.next_char()? {
                Some(BAR) => break,
                Some(' ' | '\t' | '\r' | '.' | '·' | '_' | '-') => {}
                Some('♛' | '♕' | 'Q' | 'q') if !queen => queen = true,
                Some('♛' | '♕' | 'Q' | 'q') => {
                    return Err(input.malformed(format!(
                        "a second queen at column {column}, in the same square"
                    )));
                }
                None | Some('\n') => {
                    return Err(ReadError::Malformed {
                        line,
                        message: "the row ends inside a square: expected '│' after it".to_owned(),
                    });
                }
                other => {
                    return Err(input.malformed(format!(
                        "unexpected {} at column {column} (a square holds a queen, '♛', or \
                         nothing)",
                        shown(other)
                    )));
                }
            }
        }
        grid.square(input, queen, keep)?;
    }
    grid.end_row(line)
}

/// A character for a message.
fn shown(c: Option<char>) -> String {
    match c {
        None => "the end of the input".to_owned(),
        Some('\n') => "the end of the line".to_owned(),
        Some(c) if c.is_control() => format!("U+{:04X}", u32::from(c)),
        Some(c) => format!("'{c}'"),
    }
}
