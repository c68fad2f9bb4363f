//! A unit counted in pieces, so that a cancel is heard inside it.
//!
//! The backtracking engines' units differ in size by orders of magnitude:
//! at n = 19 the mirror engine's largest unit takes about 11 s, and a
//! constellations start at n = 25 longer. A cancel (Ctrl-C, a Python
//! `KeyboardInterrupt`) that waited for such a unit would not be heard for
//! that long. So a unit with many rows left is cut on its next rows into
//! pieces of at most [`PIECE_ROWS_LEFT`] rows, each counted by the kernel,
//! and the cancel flag is read between two pieces: a cancelled unit stops
//! after its current piece and counts nothing (`None`); the runner drops it
//! as if it had never started.
//!
//! The pieces are the kernel's own subtrees, so their sum is the unit's
//! count exactly; the cut costs one kernel call a piece.
//! Never here: anything the kernel does per square.

use crate::kernel::{Masks, full_mask, lowest_bit};

/// The most rows a piece leaves to the kernel. A unit with more rows left
/// is cut on as many rows as it takes to get there. Pieces of 15 rows take
/// about a tenth of a second or less: at n = 19 the mirror engine's
/// largest units (17 rows left, 11 s) become pieces of at most 0.1 s, and
/// Ctrl-C was heard 0.05 s after it came (median of 3). A constellations
/// start at n = 27, 25 rows left, is cut on 10 rows.
pub(crate) const PIECE_ROWS_LEFT: u32 = 15;

/// Counts rows `row..end` of an `n`-board whose attacks on row `row` are
/// `masks`, each row's queen also kept to `allowed(row)`, as calls of
/// `piece(row, masks)`: one when no more than [`PIECE_ROWS_LEFT`] rows are
/// left, else one a placement of the rows above the last
/// [`PIECE_ROWS_LEFT`], with `stop()` read before each. `None` when
/// `stop()` said so.
pub(crate) fn count_in_pieces(
    n: u32,
    (row, end): (u32, u32),
    masks: Masks,
    allowed: &dyn Fn(u32) -> u32,
    stop: &dyn Fn() -> bool,
    piece: &mut dyn FnMut(u32, Masks) -> u128,
) -> Option<u128> {
    // Units with no more rows than a piece take a tenth of a second or
    // less: they run whole.
    let cut = (end - row).saturating_sub(PIECE_ROWS_LEFT);
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
    use crate::kernel::{MAX_N, RowMasks, count_allowed_portable, count_completions};

    /// Cut or whole, a search counts the same, and a stop is heard before
    /// the first piece.
    #[test]
    fn the_pieces_add_up_to_the_whole() {
        // (n, the first rows' columns): 14 and 16 rows left, the 16 below
        // three queens (a few hundred thousand completions, not the
        // millions below one queen of a 17-board).
        for (n, prefix) in [(14, &[][..]), (19, &[0, 2, 4][..])] {
            let row = prefix.len() as u32;
            let masks = prefix.iter().fold(Masks::EMPTY, |m, &c| m.place(1 << c));
            let full = full_mask(n);
            let whole = count_completions(n, row, masks);
            let mut pieces = 0;
            let cut = count_in_pieces(n, (row, n), masks, &|_| full, &|| false, &mut |r, m| {
                pieces += 1;
                count_completions(n, r, m)
            });
            assert_eq!(cut, Some(whole), "n = {n}");
            assert_eq!(
                pieces > 1,
                n - row > PIECE_ROWS_LEFT,
                "n = {n}: {pieces} pieces"
            );
            let stopped = count_in_pieces(n, (row, n), masks, &|_| full, &|| true, &mut |r, m| {
                count_completions(n, r, m)
            });
            assert_eq!(stopped, None);
        }
    }

    /// With allowed masks, as the constellations engine cuts its starts,
    /// and a cut of several rows: rows 0 to 11 of a 20-board take their
    /// queen in 5 columns, from a known solution's on.
    #[test]
    fn the_pieces_keep_to_the_allowed_columns() {
        let n = 20;
        let full = full_mask(n);
        let mut allowed: RowMasks = [full; MAX_N as usize];
        let solution: Vec<u32> = crate::Construction::new(n).expect("n = 20").collect();
        for (mask, col) in allowed.iter_mut().zip(solution).take(12) {
            *mask = (0..5).fold(0, |m, k| m | 1 << ((col + k) % n));
        }
        let whole = count_allowed_portable(n, (0, n), Masks::EMPTY, &allowed);
        let mut pieces = 0;
        let cut = count_in_pieces(
            n,
            (0, n),
            Masks::EMPTY,
            &|r| allowed[r as usize],
            &|| false,
            &mut |r, m| {
                assert_eq!(r, n - PIECE_ROWS_LEFT);
                pieces += 1;
                count_allowed_portable(n, (r, n), m, &allowed)
            },
        );
        assert!(
            whole > 0 && pieces > 100,
            "{whole} solutions, {pieces} pieces"
        );
        assert_eq!(cut, Some(whole));
    }
}
