//! A unit counted in pieces, so that a cancel is heard inside it.
//!
//! The backtracking engines' units differ in size by orders of magnitude:
//! at n = 19 the mirror engine's largest unit takes about 11 s, and a
//! constellations start at n = 25 longer. A cancel (Ctrl-C, a Python
//! `KeyboardInterrupt`) that waited for such a unit would not be heard for
//! that long. So a unit with many rows left is cut on its next
//! [`PIECE_ROWS`] rows into pieces, each counted by the kernel on its own,
//! and the cancel flag is read between two pieces: a cancelled unit stops
//! after its current piece and counts nothing (`None`); the runner drops it
//! as if it had never started.
//!
//! The pieces are the kernel's own subtrees, so their sum is the unit's
//! count exactly; the cut costs a few hundred kernel calls a unit.
//! Never here: anything the kernel does per square.

use crate::kernel::{Masks, full_mask, lowest_bit};

/// Rows a unit is cut on: about n^2 / 4 pieces a unit, each a few
/// hundredths of the unit (n = 19, mirror engine: 11 s units become pieces
/// of a tenth of a second or less).
pub(crate) const PIECE_ROWS: u32 = 2;

/// Units with fewer rows left than this are counted whole: they take
/// milliseconds, and cutting them would only add calls.
const FEWEST_ROWS_TO_CUT: u32 = 12;

/// Counts rows `row..end` of an `n`-board whose attacks on row `row` are
/// `masks`, each row's queen also kept to `allowed(row)`: as one call of
/// `piece(row, masks)` when few rows are left, else as one call a
/// placement of the next [`PIECE_ROWS`] rows, `stop()` read before each.
/// `None` when `stop()` said so.
pub(crate) fn count_in_pieces(
    n: u32,
    (row, end): (u32, u32),
    masks: Masks,
    allowed: &dyn Fn(u32) -> u32,
    stop: &dyn Fn() -> bool,
    piece: &mut dyn FnMut(u32, Masks) -> u128,
) -> Option<u128> {
    let cut = if end - row >= FEWEST_ROWS_TO_CUT {
        PIECE_ROWS
    } else {
        0
    };
    let walk = Walk {
        full: full_mask(n),
        allowed,
        stop,
    };
    walk.count(row, row + cut, masks, piece)
}

/// What stays the same down the rows that are cut.
struct Walk<'a> {
    full: u32,
    allowed: &'a dyn Fn(u32) -> u32,
    stop: &'a dyn Fn() -> bool,
}

impl Walk<'_> {
    /// The pieces below the placement that reached `row` with `masks`,
    /// cut down to row `cut`.
    fn count(
        &self,
        row: u32,
        cut: u32,
        masks: Masks,
        piece: &mut dyn FnMut(u32, Masks) -> u128,
    ) -> Option<u128> {
        if row == cut {
            return if (self.stop)() {
                None
            } else {
                Some(piece(row, masks))
            };
        }
        let mut open = masks.free(self.full) & (self.allowed)(row);
        let mut total = 0;
        while open != 0 {
            let bit = lowest_bit(open);
            open ^= bit;
            total += self.count(row + 1, cut, masks.place(bit), piece)?;
        }
        Some(total)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel::count_completions;

    /// Cut or whole, a search counts the same, and a stop is heard before
    /// the first piece.
    #[test]
    fn the_pieces_add_up_to_the_whole() {
        for n in [8, 12, 13, 14] {
            let whole = count_completions(n, 0, Masks::EMPTY);
            let full = full_mask(n);
            let mut pieces = 0;
            let cut = count_in_pieces(
                n,
                (0, n),
                Masks::EMPTY,
                &|_| full,
                &|| false,
                &mut |row, m| {
                    pieces += 1;
                    count_completions(n, row, m)
                },
            );
            assert_eq!(cut, Some(whole), "n = {n}");
            assert_eq!(
                pieces > 1,
                n >= FEWEST_ROWS_TO_CUT,
                "n = {n}: {pieces} pieces"
            );
            let stopped = count_in_pieces(
                n,
                (0, n),
                Masks::EMPTY,
                &|_| full,
                &|| true,
                &mut |row, m| count_completions(n, row, m),
            );
            assert_eq!(stopped, None);
        }
    }
}
