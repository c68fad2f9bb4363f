//! Boards as pictures: an SVG document of one board or a sheet of many,
//! each a checkered board with its queens; a board that is no solution with
//! its [`Fault`] marked: the two queens of a conflict and the line they
//! share, or the row without a queen.
//!
//! ```text
//!  sheet   ┌──────────┬──────────┐   each board: a frame, the squares as
//!          │ ▚▚▚▚ ♛   │  ▚▚♛▚▚   │   one checkered pattern (not n² rects),
//!          │ caption  │ caption  │   a queen drawn once and placed by <use>,
//!          ├──────────┼──────────┤   a caption of a line or two below
//!          │   ...    │          │
//! ```
//!
//! A picture is written whole once its boards are known, as an SVG
//! document's size comes before what it draws; nothing here streams, so
//! callers cap what they draw. This module draws what it is given: it never
//! decides which boards to draw and never checks them (a [`Fault`] is the
//! caller's, as [`crate::check`] found it).

use std::io::{self, Write};

use crate::check::{Fault, Line, Queen};
use crate::error::Error;

/// The squares' colours and the queens', as the web page draws them.
const LIGHT: &str = "#f0e6d2";
const DARK: &str = "#c7a97f";
const INK: &str = "#1d1b19";
const FRAME: &str = "#5a4632";
const PAPER: &str = "#fffdf8";
/// What marks a fault.
const ALARM: &str = "#d92d20";

/// Room around a board's squares (its frame), and between two boards.
const PAD: u32 = 8;
const GAP: u32 = 24;
/// A caption line's height and its letters' size, and about how wide a
/// letter is (sans-serif at 13 px averages under 7.2 px).
const LINE: u32 = 18;
const FONT: u32 = 13;
const LETTER: f64 = 7.2;

/// One board to draw: its size, its queens as they stand (several in a
/// row, none in another, as read), what is wrong with it, and a caption.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SvgBoard {
    n: u32,
    queens: Vec<Queen>,
    fault: Option<Fault>,
    caption: Vec<String>,
}

impl SvgBoard {
    /// The `n`-board holding `queens`.
    ///
    /// # Errors
    /// [`Error::BoardSize`] for `n = 0`, [`Error::OffBoard`] for a queen
    /// off the board.
    pub fn new(n: u32, queens: Vec<Queen>) -> Result<Self, Error> {
        if n == 0 {
            return Err(Error::BoardSize {
                n,
                by: "a picture",
                min: 1,
                max: u32::MAX,
            });
        }
        if let Some(q) = queens.iter().find(|q| q.row >= n || q.col >= n) {
            return Err(Error::OffBoard {
                what: "queen",
                row: q.row,
                col: q.col,
                n,
            });
        }
        Ok(Self {
            n,
            queens,
            fault: None,
            caption: Vec::new(),
        })
    }

    /// The board whose row `r` holds a queen in column `cols[r]`.
    ///
    /// # Errors
    /// As [`SvgBoard::new`].
    pub fn from_columns(cols: &[u32]) -> Result<Self, Error> {
        let n = u32::try_from(cols.len()).unwrap_or(u32::MAX);
        Self::new(
            n,
            (0..)
                .zip(cols)
                .map(|(row, &col)| Queen { row, col })
                .collect(),
        )
    }

    /// The same board with `fault` marked.
    #[must_use]
    pub fn with_fault(self, fault: Option<Fault>) -> Self {
        Self { fault, ..self }
    }

    /// The same board with a caption below it, a line an item.
    #[must_use]
    pub fn with_caption<S: Into<String>>(self, lines: impl IntoIterator<Item = S>) -> Self {
        Self {
            caption: lines.into_iter().map(Into::into).collect(),
            ..self
        }
    }

    /// Its side in pixels, squares only: each square `square` wide.
    fn side(&self) -> u32 {
        self.n * square(self.n)
    }
}

/// A square's side for an `n`-board: the board about 320 pixels wide,
/// squares between 6 and 48 pixels, always even (so that centres fall on
/// whole pixels).
fn square(n: u32) -> u32 {
    (320 / n).clamp(6, 48) & !1
}

/// Writes `boards` as one SVG document: one board alone, several as a
/// sheet in rows, the first at the top left.
///
/// # Errors
/// Whatever `out` returns.
///
/// ```
/// use queens::{SvgBoard, write_svg};
///
/// let mut svg = Vec::new();
/// write_svg(&mut svg, &[SvgBoard::from_columns(&[1, 3, 0, 2])?])?;
/// let svg = String::from_utf8(svg).unwrap();
/// assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
/// assert_eq!(svg.matches("<use href=\"#queen\"").count(), 4);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn write_svg(out: &mut impl Write, boards: &[SvgBoard]) -> io::Result<()> {
    let sheet = Sheet::of(boards);
    let (width, height) = (sheet.width(), sheet.height());
    writeln!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" \
         viewBox=\"0 0 {width} {height}\" font-family=\"sans-serif\" font-size=\"{FONT}\">"
    )?;
    writeln!(out, "<title>{}</title>", escape(&title(boards)))?;
    writeln!(out, "<defs>")?;
    let mut sizes: Vec<u32> = boards.iter().map(|b| square(b.n)).collect();
    sizes.sort_unstable();
    sizes.dedup();
    for s in sizes {
        // Two squares a side, light at the top left as on a chess board.
        writeln!(
            out,
            "<pattern id=\"squares{s}\" width=\"{d}\" height=\"{d}\" patternUnits=\"userSpaceOnUse\">\
             <rect width=\"{d}\" height=\"{d}\" fill=\"{LIGHT}\"/>\
             <rect x=\"{s}\" width=\"{s}\" height=\"{s}\" fill=\"{DARK}\"/>\
             <rect y=\"{s}\" width=\"{s}\" height=\"{s}\" fill=\"{DARK}\"/></pattern>",
            d = 2 * s
        )?;
    }
    writeln!(out, "{QUEEN}")?;
    writeln!(out, "</defs>")?;
    writeln!(
        out,
        "<rect width=\"{width}\" height=\"{height}\" fill=\"{PAPER}\"/>"
    )?;
    for (i, board) in boards.iter().enumerate() {
        let (x, y) = sheet.origin(i, board);
        writeln!(out, "<g transform=\"translate({x} {y})\">")?;
        draw(out, board)?;
        let middle = board.side() / 2;
        for (k, line) in (1..).zip(&board.caption) {
            let weight = if k == 1 && board.caption.len() > 1 {
                " font-weight=\"bold\""
            } else {
                ""
            };
            writeln!(
                out,
                "<text x=\"{middle}\" y=\"{}\" text-anchor=\"middle\" fill=\"{INK}\"{weight}>{}</text>",
                board.side() + PAD + k * LINE,
                escape(line)
            )?;
        }
        writeln!(out, "</g>")?;
    }
    writeln!(out, "</svg>")
}

/// The queen, drawn once in a 100 x 100 box: a crown of five points on a
/// base, filled by each `<use>` (ink, or the alarm colour), outlined in
/// the paper's colour so that it stands out on a dark square.
const QUEEN: &str = "<symbol id=\"queen\" viewBox=\"0 0 100 100\">\
<path d=\"M22 76 L12 38 L31 58 L34 28 L44 54 L50 22 L56 54 L66 28 L69 58 L88 38 L78 76 Z\"/>\
<circle cx=\"12\" cy=\"34\" r=\"6\"/><circle cx=\"34\" cy=\"24\" r=\"6\"/>\
<circle cx=\"50\" cy=\"17\" r=\"6\"/><circle cx=\"66\" cy=\"24\" r=\"6\"/>\
<circle cx=\"88\" cy=\"34\" r=\"6\"/>\
<rect x=\"20\" y=\"79\" width=\"60\" height=\"11\" rx=\"4\"/></symbol>";

/// One board at the origin: frame, squares, the fault's marks, queens.
fn draw(out: &mut impl Write, board: &SvgBoard) -> io::Result<()> {
    let (n, s, side) = (board.n, square(board.n), board.side());
    writeln!(
        out,
        "<rect x=\"-{f}\" y=\"-{f}\" width=\"{w}\" height=\"{w}\" rx=\"3\" fill=\"{FRAME}\"/>",
        f = PAD / 2,
        w = side + PAD
    )?;
    writeln!(
        out,
        "<rect width=\"{side}\" height=\"{side}\" fill=\"url(#squares{s})\"/>"
    )?;
    let marked: Vec<Queen> = match board.fault {
        Some(Fault::Conflict(conflict)) => {
            for q in [conflict.first, conflict.second] {
                writeln!(
                    out,
                    "<rect x=\"{}\" y=\"{}\" width=\"{s}\" height=\"{s}\" fill=\"{ALARM}\" \
                     fill-opacity=\"0.45\"/>",
                    q.col * s,
                    q.row * s
                )?;
            }
            let ((x0, y0), (x1, y1)) = across(n, s, conflict.line, conflict.first);
            let centre = |q: Queen| (q.col * s + s / 2, q.row * s + s / 2);
            let ((a, b), (c, d)) = (centre(conflict.first), centre(conflict.second));
            writeln!(
                out,
                "<line x1=\"{x0}\" y1=\"{y0}\" x2=\"{x1}\" y2=\"{y1}\" stroke=\"{ALARM}\" \
                 stroke-width=\"{}\" stroke-dasharray=\"{} {}\" stroke-opacity=\"0.8\"/>",
                half(s.div_ceil(6)),
                half(s / 2),
                half(s / 3),
            )?;
            writeln!(
                out,
                "<line x1=\"{a}\" y1=\"{b}\" x2=\"{c}\" y2=\"{d}\" stroke=\"{ALARM}\" \
                 stroke-width=\"{}\" stroke-linecap=\"round\"/>",
                half(s.div_ceil(4))
            )?;
            vec![conflict.first, conflict.second]
        }
        Some(Fault::EmptyRow(row)) => {
            writeln!(
                out,
                "<rect x=\"1\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{ALARM}\" \
                 fill-opacity=\"0.3\" stroke=\"{ALARM}\" stroke-width=\"2\" \
                 stroke-dasharray=\"6 4\"/>",
                row * s + 1,
                side - 2,
                s - 2
            )?;
            Vec::new()
        }
        None => Vec::new(),
    };
    for q in &board.queens {
        let fill = if marked.contains(q) { ALARM } else { INK };
        writeln!(
            out,
            "<use href=\"#queen\" x=\"{}\" y=\"{}\" width=\"{s}\" height=\"{s}\" fill=\"{fill}\" \
             stroke=\"{PAPER}\" stroke-width=\"4\"/>",
            q.col * s,
            q.row * s
        )?;
    }
    Ok(())
}

/// The ends of the `line` through `q`'s square across the whole board, at
/// the edges of the squares it crosses.
fn across(n: u32, s: u32, line: Line, q: Queen) -> ((u32, u32), (u32, u32)) {
    let (r, c, last) = (q.row, q.col, n - 1);
    match line {
        Line::Row => ((0, r * s + s / 2), (n * s, r * s + s / 2)),
        Line::Column => ((c * s + s / 2, 0), (c * s + s / 2, n * s)),
        // `\`: back to the top or left edge, on to the bottom or right.
        Line::Diagonal => {
            let back = r.min(c);
            let on = (last - r).min(last - c);
            (
                ((c - back) * s, (r - back) * s),
                ((c + on + 1) * s, (r + on + 1) * s),
            )
        }
        // `/`: up to the top or right edge, down to the bottom or left.
        _ => {
            let up = r.min(last - c);
            let down = (last - r).min(c);
            (
                ((c + up + 1) * s, (r - up) * s),
                ((c - down) * s, (r + down + 1) * s),
            )
        }
    }
}

/// Half of `x`, as a number for an attribute (`3`, `2.5`).
fn half(x: u32) -> String {
    if x.is_multiple_of(2) {
        (x / 2).to_string()
    } else {
        format!("{}.5", x / 2)
    }
}

/// Where the boards go: a grid of equal cells, as square as it comes.
struct Sheet {
    columns: u32,
    rows: u32,
    cell_width: u32,
    cell_height: u32,
}

impl Sheet {
    fn of(boards: &[SvgBoard]) -> Self {
        let count = u32::try_from(boards.len()).unwrap_or(u32::MAX).max(1);
        let columns = (1..=count).find(|c| c * c >= count).unwrap_or(count);
        let words = |b: &SvgBoard| {
            b.caption
                .iter()
                .map(|line| (line.chars().count() as f64 * LETTER).ceil() as u32)
                .max()
                .unwrap_or(0)
        };
        let cell_width = boards
            .iter()
            .map(|b| (b.side() + PAD).max(words(b)))
            .max()
            .unwrap_or(0);
        let captions = boards.iter().map(|b| b.caption.len()).max().unwrap_or(0) as u32;
        let side = boards.iter().map(SvgBoard::side).max().unwrap_or(0);
        Self {
            columns,
            rows: count.div_ceil(columns),
            cell_width,
            cell_height: side + PAD + captions * LINE + if captions > 0 { PAD } else { 0 },
        }
    }

    fn width(&self) -> u32 {
        self.columns * self.cell_width + (self.columns + 1) * GAP
    }

    fn height(&self) -> u32 {
        self.rows * self.cell_height + (self.rows + 1) * GAP
    }

    /// The top left of board `i`'s squares: its cell's, the board centred
    /// across it.
    fn origin(&self, i: usize, board: &SvgBoard) -> (u32, u32) {
        let i = u32::try_from(i).unwrap_or(u32::MAX);
        let (column, row) = (i % self.columns, i / self.columns);
        let x = GAP + column * (self.cell_width + GAP) + (self.cell_width - board.side()) / 2;
        let y = GAP + row * (self.cell_height + GAP) + PAD / 2;
        (x, y)
    }
}

/// What the picture shows, for its `<title>`.
fn title(boards: &[SvgBoard]) -> String {
    match boards {
        [one] => format!("queens: a board of {} x {}", one.n, one.n),
        _ => format!("queens: {} boards", boards.len()),
    }
}

/// `text` as XML character data.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::{first_conflict_in_columns, first_fault};

    fn svg(boards: &[SvgBoard]) -> String {
        let mut out = Vec::new();
        write_svg(&mut out, boards).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn a_board_is_its_squares_and_its_queens() {
        let text = svg(&[SvgBoard::from_columns(&[1, 3, 0, 2]).unwrap()]);
        assert_eq!(text.matches("<use href=\"#queen\"").count(), 4);
        assert_eq!(text.matches("<pattern ").count(), 1);
        // Squares of 48: 192 wide, the frame 4 more each side, 24 around.
        assert!(text.contains("<rect width=\"192\" height=\"192\" fill=\"url(#squares48)\"/>"));
        assert!(text.contains("width=\"248\" height=\"248\""), "{text}");
        assert!(text.contains("<title>queens: a board of 4 x 4</title>"));
        assert!(!text.contains(ALARM));
    }

    #[test]
    fn a_conflict_marks_its_two_queens_and_their_line() {
        let cols = [0, 2, 4, 1, 3, 3];
        let fault = first_conflict_in_columns(&cols)
            .unwrap()
            .map(Fault::Conflict);
        let board = SvgBoard::from_columns(&cols).unwrap().with_fault(fault);
        let text = svg(&[board.with_caption(["board 1", "a column"])]);
        assert_eq!(text.matches(&format!("fill=\"{ALARM}\" stroke")).count(), 2);
        assert_eq!(text.matches("<line ").count(), 2);
        assert!(text.contains(">board 1</text>") && text.contains(">a column</text>"));
    }

    #[test]
    fn an_empty_row_is_marked() {
        let queens = vec![Queen { row: 0, col: 1 }, Queen { row: 2, col: 0 }];
        let fault = first_fault(3, queens.iter().copied()).unwrap();
        let text = svg(&[SvgBoard::new(3, queens).unwrap().with_fault(fault)]);
        assert_eq!(text.matches("stroke-dasharray=\"6 4\"").count(), 1);
    }

    #[test]
    fn lines_run_across_the_board_from_edge_to_edge() {
        let q = |row, col| Queen { row, col };
        // 8 x 8, squares of 40: the `\` through (2, 5) runs from (0, 3) to
        // (4, 7); the `/` through (2, 5) from (0, 7) to (7, 0).
        assert_eq!(
            across(8, 40, Line::Diagonal, q(2, 5)),
            ((120, 0), (320, 200))
        );
        assert_eq!(
            across(8, 40, Line::AntiDiagonal, q(2, 5)),
            ((320, 0), (0, 320))
        );
        assert_eq!(across(8, 40, Line::Row, q(2, 5)), ((0, 100), (320, 100)));
    }

    #[test]
    fn a_sheet_is_as_square_as_it_comes_and_captions_are_escaped() {
        let boards: Vec<SvgBoard> = (0..5)
            .map(|i| {
                SvgBoard::from_columns(&[0])
                    .unwrap()
                    .with_caption([format!("<{i}> & more")])
            })
            .collect();
        let sheet = Sheet::of(&boards);
        assert_eq!((sheet.columns, sheet.rows), (3, 2));
        assert!(svg(&boards).contains("&lt;4&gt; &amp; more"));
    }

    #[test]
    fn queens_off_the_board_are_refused() {
        let err = SvgBoard::new(4, vec![Queen { row: 1, col: 4 }]).unwrap_err();
        assert_eq!(
            err.to_string(),
            "queen 2:5 is off the board: rows and columns run from 1 to 4"
        );
        assert!(SvgBoard::from_columns(&[]).is_err());
    }
}
