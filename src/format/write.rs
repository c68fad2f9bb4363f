//! Writing boards: each format of [`crate::format`], streamed to any
//! [`Write`].
//!
//! Boards are written as they come: nothing here collects boards or builds
//! a board's text in a `String`, so a board of a hundred million columns
//! streams through a buffered writer. This module only formats; reading
//! boards back is [`super::read`]'s job, and it never decides which boards
//! to write.

use std::io::{self, Write};

use super::Format;
use crate::Error;

/// The queen of the `unicode` format: U+265B, BLACK CHESS QUEEN.
pub const QUEEN: &str = "♛";

/// Writes single boards in one format, with no separator around them.
///
/// Keeps a row of scratch space between calls, so drawing squares costs one
/// `write_all` per row and no allocation after the first board.
#[derive(Clone, Debug, Default)]
pub struct Renderer {
    format: Format,
    row: Vec<u8>,
}

impl Renderer {
    /// A renderer for `format`.
    #[must_use]
    pub fn new(format: Format) -> Self {
        Self {
            format,
            row: Vec::new(),
        }
    }

    /// The format it writes.
    #[must_use]
    pub const fn format(&self) -> Format {
        self.format
    }

    /// Writes the `n`-board whose row `r` holds a queen in column
    /// `cols[r]` (0-based), without separators.
    ///
    /// `cols` should yield `n` columns, each below `n`; the columns are read
    /// once, in row order, so they may be computed on the fly.
    ///
    /// # Errors
    /// Whatever `out` returns; [`io::ErrorKind::InvalidInput`] (an
    /// [`Error::OffBoard`] inside) at the first column not below `n`, after
    /// the rows before it (issue 47: it panicked); and
    /// [`io::ErrorKind::OutOfMemory`] where a row of `n` squares does not fit
    /// in memory.
    pub fn write(
        &mut self,
        out: &mut impl Write,
        n: u32,
        cols: impl IntoIterator<Item = u32>,
    ) -> io::Result<()> {
        let mut digits = itoa::Buffer::new();
        match self.format {
            Format::Board | Format::Spaced | Format::Leetcode => {
                let (stride, before, after): (usize, &[u8], &[u8]) = match self.format {
                    Format::Board => (1, b"", b"\n"),
                    Format::Spaced => (2, b"", b"\n"),
                    _ => (1, b"\"", b"\""),
                };
                self.blank_row(n as usize, stride, before, after)?;
                if self.format == Format::Leetcode {
                    out.write_all(b"[")?;
                }
                for (r, c) in (0..).zip(cols) {
                    on_board(r, c, n)?;
                    if self.format == Format::Leetcode && r > 0 {
                        out.write_all(b",")?;
                    }
                    let at = before.len() + c as usize * stride;
                    self.row[at] = b'Q';
                    out.write_all(&self.row)?;
                    self.row[at] = b'.';
                }
                if self.format == Format::Leetcode {
                    out.write_all(b"]")?;
                }
            }
            Format::Columns => {
                for (r, c) in (0..).zip(cols) {
                    on_board(r, c, n)?;
                    if r > 0 {
                        out.write_all(b" ")?;
                    }
                    out.write_all(digits.format(u64::from(c) + 1).as_bytes())?;
                }
                out.write_all(b"\n")?;
            }
            Format::Unicode => self.write_unicode(out, n, cols)?,
            Format::Jsonl => {
                out.write_all(b"{\"n\":")?;
                out.write_all(digits.format(n).as_bytes())?;
                out.write_all(b",\"cols\":[")?;
                for (r, c) in (0..).zip(cols) {
                    on_board(r, c, n)?;
                    if r > 0 {
                        out.write_all(b",")?;
                    }
                    out.write_all(digits.format(c).as_bytes())?;
                }
                out.write_all(b"]}\n")?;
            }
        }
        Ok(())
    }

    /// The `unicode` format: box-drawing lines around every square, `♛` in
    /// a queen's; a row of squares costs one `write_all`, as for `board`.
    fn write_unicode(
        &mut self,
        out: &mut impl Write,
        n: u32,
        cols: impl IntoIterator<Item = u32>,
    ) -> io::Result<()> {
        let size = n as usize;
        let border = |left: &str, middle: &str, right: &str| -> io::Result<String> {
            let mut line = String::new();
            line.try_reserve_exact(12 * size + 4).map_err(too_large)?;
            line.push_str(left);
            for c in 0..size {
                if c > 0 {
                    line.push_str(middle);
                }
                line.push_str("───");
            }
            line.push_str(right);
            line.push('\n');
            Ok(line)
        };
        let between = border("├", "┼", "┤")?;
        // The row's squares, each "│   " (6 bytes): a queen's blank is
        // swapped for the glyph and back.
        self.row.clear();
        self.row
            .try_reserve_exact(6 * size + 4)
            .map_err(too_large)?;
        for _ in 0..size {
            self.row.extend_from_slice("│   ".as_bytes());
        }
        self.row.extend_from_slice("│\n".as_bytes());
        const SQUARE: usize = "│   ".len();
        out.write_all(border("┌", "┬", "┐")?.as_bytes())?;
        for (r, c) in (0..).zip(cols) {
            on_board(r, c, n)?;
            if r > 0 {
                out.write_all(between.as_bytes())?;
            }
            let at = c as usize * SQUARE + "│ ".len();
            let mut line = Vec::with_capacity(self.row.len() + 2);
            line.extend_from_slice(&self.row[..at]);
            line.extend_from_slice(QUEEN.as_bytes());
            line.extend_from_slice(&self.row[at + 1..]);
            out.write_all(&line)?;
        }
        out.write_all(border("└", "┴", "┘")?.as_bytes())
    }

    /// Fills the scratch row with an empty row of `n` squares, `stride`
    /// bytes apart, between `before` and `after`.
    fn blank_row(
        &mut self,
        n: usize,
        stride: usize,
        before: &[u8],
        after: &[u8],
    ) -> io::Result<()> {
        self.row.clear();
        self.row
            .try_reserve_exact(n * stride + before.len() + after.len())
            .map_err(too_large)?;
        self.row.extend_from_slice(before);
        for c in 0..n {
            if c > 0 && stride == 2 {
                self.row.push(b' ');
            }
            self.row.push(b'.');
        }
        self.row.extend_from_slice(after);
        Ok(())
    }
}

/// `Ok` where row `row`'s queen, in column `col`, lies on the `n`-board.
fn on_board(row: u32, col: u32, n: u32) -> io::Result<()> {
    if row < n && col < n {
        Ok(())
    } else {
        Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            Error::OffBoard {
                what: "queen",
                row,
                col,
                n,
            },
        ))
    }
}

/// The error for a row of squares that does not fit in memory.
fn too_large(e: std::collections::TryReserveError) -> io::Error {
    io::Error::new(io::ErrorKind::OutOfMemory, e)
}

/// Writes a stream of boards in one format, separators and all.
///
/// ```
/// use queens::{BoardWriter, Format};
///
/// let mut out = BoardWriter::new(Vec::new(), Format::Leetcode);
/// out.write(4, [1, 3, 0, 2])?;
/// out.write(4, [2, 0, 3, 1])?;
/// let text = String::from_utf8(out.finish()?).unwrap();
/// assert_eq!(text, "[[\".Q..\",\"...Q\",\"Q...\",\"..Q.\"],[\"..Q.\",\"Q...\",\"...Q\",\".Q..\"]]\n");
/// # Ok::<(), std::io::Error>(())
/// ```
#[derive(Debug)]
pub struct BoardWriter<W: Write> {
    out: W,
    renderer: Renderer,
    boards: u64,
}

impl<W: Write> BoardWriter<W> {
    /// A writer of `format` boards into `out`.
    pub fn new(out: W, format: Format) -> Self {
        Self {
            out,
            renderer: Renderer::new(format),
            boards: 0,
        }
    }

    /// Writes one board (see [`Renderer::write`]).
    ///
    /// # Errors
    /// Whatever the underlying writer returns.
    pub fn write(&mut self, n: u32, cols: impl IntoIterator<Item = u32>) -> io::Result<()> {
        let format = self.renderer.format();
        let before = if self.boards == 0 {
            format.opening()
        } else {
            format.separator()
        };
        self.out.write_all(before)?;
        self.renderer.write(&mut self.out, n, cols)?;
        self.boards += 1;
        Ok(())
    }

    /// How many boards were written.
    #[must_use]
    pub const fn boards(&self) -> u64 {
        self.boards
    }

    /// Ends the stream (closing LeetCode's array, which an empty stream
    /// also has), flushes, and returns the writer.
    ///
    /// # Errors
    /// Whatever the underlying writer returns.
    pub fn finish(mut self) -> io::Result<W> {
        let format = self.renderer.format();
        if self.boards == 0 {
            self.out.write_all(format.opening())?;
        }
        self.out.write_all(format.closing())?;
        self.out.flush()?;
        Ok(self.out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn render(format: Format, boards: &[&[u32]]) -> String {
        let mut out = BoardWriter::new(Vec::new(), format);
        for b in boards {
            out.write(b.len() as u32, b.iter().copied()).unwrap();
        }
        String::from_utf8(out.finish().unwrap()).unwrap()
    }

    const FOUR: [&[u32]; 2] = [&[1, 3, 0, 2], &[2, 0, 3, 1]];

    #[test]
    fn board_format_puts_a_blank_line_between_boards() {
        assert_eq!(
            render(Format::Board, &FOUR),
            ".Q..\n...Q\nQ...\n..Q.\n\n..Q.\nQ...\n...Q\n.Q..\n"
        );
    }

    #[test]
    fn spaced_format_separates_cells_by_one_space() {
        assert_eq!(
            render(Format::Spaced, &FOUR[..1]),
            ". Q . .\n. . . Q\nQ . . .\n. . Q .\n"
        );
    }

    #[test]
    fn columns_are_one_based_and_jsonl_zero_based() {
        assert_eq!(render(Format::Columns, &FOUR), "2 4 1 3\n3 1 4 2\n");
        assert_eq!(
            render(Format::Jsonl, &FOUR[..1]),
            "{\"n\":4,\"cols\":[1,3,0,2]}\n"
        );
    }

    #[test]
    fn unicode_draws_every_square_and_a_blank_line_between_boards() {
        let text = render(Format::Unicode, &[&[1, 0], &[0]]);
        assert_eq!(
            text,
            "┌───┬───┐\n│   │ ♛ │\n├───┼───┤\n│ ♛ │   │\n└───┴───┘\n\n┌───┐\n│ ♛ │\n└───┘\n"
        );
    }

    #[test]
    fn no_board_still_opens_and_closes_the_leetcode_array() {
        assert_eq!(render(Format::Leetcode, &[]), "[]\n");
        assert_eq!(render(Format::Board, &[]), "");
        assert_eq!(render(Format::Leetcode, &[&[0]]), "[[\"Q\"]]\n");
    }
}
