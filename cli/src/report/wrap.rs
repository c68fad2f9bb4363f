//! Human text folded to the width of the terminal it goes to, between
//! words, never inside one: a terminal left to itself breaks a line that is
//! too long at its last column, mid-word or mid-number.
//!
//! The text is the tables and labelled lines of [`super::Report`], so a
//! line is cells parted by two spaces or more. A line that does not fit
//! goes on below, indented: a cell's text under the cell's start, where
//! that leaves room; otherwise by [`HANG`] columns, each cell keeping its
//! padding, so that the columns that move down stay aligned with each
//! other from row to row. A word longer than a line is broken after a
//! `/` where it has one (a problem's rows, `.Q../..Q.`, a path), and
//! otherwise stays whole.
//!
//! Text written to anything but a terminal is left as it is: one record a
//! line, for `grep`, `cut` and scripts, as ripgrep and fd leave theirs.

/// The indent of a line that goes on below another when the cell it goes
/// on from starts too far to the right.
const HANG: usize = 4;

/// The least room a cell's text must keep at its own column to go on
/// there; with less, it goes on at [`HANG`].
const ROOM: usize = 24;

/// `text`, each of its lines folded to `width` columns.
pub fn wrap(text: &str, width: usize) -> String {
    let mut out = String::with_capacity(text.len());
    for line in text.split_inclusive('\n') {
        let (body, end) = match line.strip_suffix('\n') {
            Some(body) => (body, "\n"),
            None => (line, ""),
        };
        fold(&mut out, body, width);
        out.push_str(end);
    }
    out
}

/// Columns a string takes: a character each, as every character the
/// reports write (`µ`, `♛`, box lines) takes one.
fn columns(text: &str) -> usize {
    text.chars().count()
}

/// Appends `line` to `out`, folded to `width`.
fn fold(out: &mut String, line: &str, width: usize) {
    if columns(line) <= width {
        out.push_str(line);
        return;
    }
    // The column the line has reached, and where the cell being written
    // started on it.
    let (mut column, mut cell) = (0, 0);
    for (index, (gap, word)) in words_of(line, width.saturating_sub(HANG)).enumerate() {
        let new_cell = gap >= 2 || index == 0;
        if index > 0 && column + gap + columns(word) > width {
            out.push('\n');
            column = if new_cell {
                // The padding a right-aligned cell has beyond the two
                // spaces that part it from the one before.
                HANG + gap - 2
            } else if cell + ROOM <= width {
                cell
            } else {
                HANG
            };
            out.extend(std::iter::repeat_n(' ', column));
            cell = if new_cell { HANG } else { column };
        } else {
            out.extend(std::iter::repeat_n(' ', gap));
            column += gap;
            if new_cell {
                cell = column;
            }
        }
        out.push_str(word);
        column += columns(word);
    }
}

/// The words of `line`, each with the spaces before it; a word longer
/// than `longest` comes in pieces that end at a `/`, with no space before
/// the second and those after.
fn words_of(line: &str, longest: usize) -> impl Iterator<Item = (usize, &str)> {
    line.split(' ')
        .scan(0, |gap, word| {
            if word.is_empty() {
                *gap += 1;
                return Some(None);
            }
            let spaces = std::mem::replace(gap, 1);
            Some(Some((spaces, word)))
        })
        .flatten()
        .flat_map(move |(gap, word)| {
            let pieces: Vec<&str> = if columns(word) > longest {
                word.split_inclusive('/').collect()
            } else {
                vec![word]
            };
            (pieces.into_iter().enumerate())
                .map(move |(i, piece)| (if i == 0 { gap } else { 0 }, piece))
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_that_fits_is_left_alone() {
        let text = "n = 8   solutions\n  8          92  ok\n";
        assert_eq!(wrap(text, 20), text);
        assert_eq!(wrap("no newline", 10), "no newline");
    }

    #[test]
    fn a_cells_text_goes_on_under_its_start() {
        let row = "  8         92  ok, 472 of 472 units from journal j.bin";
        assert_eq!(
            wrap(row, 40),
            "  8         92  ok, 472 of 472 units\n                from journal j.bin"
        );
    }

    #[test]
    fn cells_that_move_down_keep_their_padding_and_stay_aligned() {
        let header = "n    solutions    unique  time";
        let row = "8           92        12  3 ms";
        let (header, row) = (wrap(header, 22), wrap(row, 22));
        assert_eq!(header, "n    solutions\n      unique  time");
        assert_eq!(row, "8           92\n          12  3 ms");
        let ends = |text: &str| columns(text.lines().nth(1).unwrap().split("  ").next().unwrap());
        assert_eq!(ends(&header), ends(&row), "{header}\n{row}");
    }

    #[test]
    fn no_word_is_broken_and_a_word_longer_than_the_line_stays_whole() {
        let prose = "n = 14, join engine on 2 threads, seed 17 (repeat with --seed 17)";
        let folded = wrap(prose, 24);
        for line in folded.lines() {
            assert!(columns(line) <= 24, "{folded}");
        }
        assert_eq!(folded.split_whitespace().collect::<Vec<_>>(), {
            prose.split_whitespace().collect::<Vec<_>>()
        });
        let long = "plan     sha256:0123456789abcdef0123456789abcdef";
        assert_eq!(
            wrap(long, 20),
            "plan\n       sha256:0123456789abcdef0123456789abcdef"
        );
    }

    #[test]
    fn a_word_longer_than_a_line_is_broken_after_a_slash() {
        let problem = "problem  .Q../..../Q.../..Q./...Q";
        assert_eq!(wrap(problem, 20), "problem  .Q../..../\n    Q.../..Q./...Q");
        assert_eq!(wrap(problem, 40), problem);
    }
}
