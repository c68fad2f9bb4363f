//! The quarter table: every non-attacking partial placement on a `q` x `q`
//! square, grouped by the rows and columns it uses.
//!
//! All four quarters of the board are translates of (parts of) one square,
//! and translating a placement only shifts its diagonal masks, so one table
//! serves them all. A placement puts at most one queen in each row and
//! column; rows and columns may stay empty. Its diagonals are kept in local
//! coordinates:
//!
//! ```text
//! falling '\' diagonal of (r, c):  bit c - r + q - 1   (0 ..= 2q - 2)
//! rising  '/' diagonal of (r, c):  bit c + r           (0 ..= 2q - 2)
//! ```
//!
//! The table is built once per board size and only read afterwards.

/// A placement's diagonals, local to its square. `repr(C)`: the pairing
/// loop of [`pairs`](super::pairs) reads one as a `u64`, falling mask low.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[repr(C)]
pub struct Piece {
    /// Falling diagonals used, bit `c - r + q - 1`.
    pub falling: u32,
    /// Rising diagonals used, bit `c + r`.
    pub rising: u32,
}

/// Every placement of the square, grouped by (rows used, columns used).
pub struct QuarterTable {
    side: u32,
    /// `offsets[key]..offsets[key + 1]` indexes the group `key = rows << side | cols`.
    offsets: Vec<u32>,
    pieces: Vec<Piece>,
}

impl QuarterTable {
    /// Builds the table for a `side` x `side` square (`1 <= side <= 12`).
    #[must_use]
    pub fn new(side: u32) -> Self {
        assert!(
            (1..=12).contains(&side),
            "quarter side {side} is out of range"
        );
        // Two walks, one to count each group and one to fill it: cheaper
        // than keeping (key, piece) pairs to sort, whose growing vector
        // made the plan of n = 18 spend half its time faulting in pages.
        let keys = 1usize << (2 * side);
        let mut offsets = vec![0u32; keys + 1];
        walk(side, 0, 0, 0, Piece::default(), &mut |key, _| {
            offsets[key as usize + 1] += 1;
        });
        for k in 0..keys {
            offsets[k + 1] += offsets[k];
        }
        let mut next = offsets.clone();
        let mut pieces = vec![Piece::default(); offsets[keys] as usize];
        walk(side, 0, 0, 0, Piece::default(), &mut |key, piece| {
            pieces[next[key as usize] as usize] = piece;
            next[key as usize] += 1;
        });
        Self {
            side,
            offsets,
            pieces,
        }
    }

    /// The same table without the pieces that use any diagonal in
    /// `falling` or `rising` (local masks).
    #[must_use]
    pub fn without(&self, falling: u32, rising: u32) -> Self {
        let mut offsets = Vec::with_capacity(self.offsets.len());
        let mut pieces = Vec::with_capacity(self.pieces.len());
        offsets.push(0);
        for group in self.offsets.windows(2) {
            let kept = self.pieces[group[0] as usize..group[1] as usize]
                .iter()
                .filter(|p| p.falling & falling == 0 && p.rising & rising == 0);
            pieces.extend(kept);
            offsets.push(u32::try_from(pieces.len()).expect("fewer than 2^32 pieces"));
        }
        Self {
            side: self.side,
            offsets,
            pieces,
        }
    }

    /// The placements that use exactly the rows `rows` and the columns `cols`.
    #[inline]
    #[must_use]
    pub fn group(&self, rows: u32, cols: u32) -> &[Piece] {
        let key = ((rows << self.side) | cols) as usize;
        &self.pieces[self.offsets[key] as usize..self.offsets[key + 1] as usize]
    }
}

/// Depth-first over the rows: each row stays empty or takes a queen on a
/// free column whose diagonals are free. Calls `visit(key, piece)` for
/// every placement, `key = rows << side | cols`.
fn walk(
    side: u32,
    row: u32,
    rows: u32,
    cols: u32,
    piece: Piece,
    visit: &mut impl FnMut(u32, Piece),
) {
    if row == side {
        visit((rows << side) | cols, piece);
        return;
    }
    walk(side, row + 1, rows, cols, piece, visit);
    // Columns whose diagonals at this row are free: falling bit
    // c + side - 1 - row, rising bit c + row.
    let all = (1 << side) - 1;
    let mut free = all & !cols & !(piece.falling >> (side - 1 - row)) & !(piece.rising >> row);
    while free != 0 {
        let c = free.trailing_zeros();
        free &= free - 1;
        let next = Piece {
            falling: piece.falling | 1 << (c + side - 1 - row),
            rising: piece.rising | 1 << (c + row),
        };
        walk(side, row + 1, rows | 1 << row, cols | 1 << c, next, visit);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_match_the_design_note() {
        // Measured in shared/design/quadrant-join.md, section 1.4.
        assert_eq!(QuarterTable::new(8).pieces.len(), 118_969);
    }

    #[test]
    fn without_drops_exactly_the_pieces_on_the_given_diagonals() {
        let t = QuarterTable::new(5);
        let main_diagonal = 1 << 4; // falling c - r + q - 1 = q - 1: c = r
        let filtered = t.without(main_diagonal, 0);
        let on_it = t
            .pieces
            .iter()
            .filter(|p| p.falling & main_diagonal != 0)
            .count();
        assert_eq!(filtered.pieces.len() + on_it, t.pieces.len());
        assert_eq!(
            filtered.group(0b11111, 0b11111).len(),
            t.group(0b11111, 0b11111).len() - on_it_full(&t)
        );
    }

    fn on_it_full(t: &QuarterTable) -> usize {
        t.group(0b11111, 0b11111)
            .iter()
            .filter(|p| p.falling & (1 << 4) != 0)
            .count()
    }

    #[test]
    fn full_groups_are_the_small_board_solutions() {
        let t = QuarterTable::new(6);
        assert_eq!(t.group(0b11_1111, 0b11_1111).len(), 4);
        assert_eq!(t.group(0, 0).len(), 1);
        assert!(t.group(0b1, 0b11).is_empty());
    }
}
