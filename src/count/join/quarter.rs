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

/// How many placements each (rows used, columns used) group of a square
/// holds: all that a plan needs to weigh its jobs, at 4 bytes a group
/// (64 MiB at side 12) against the table's 8 a piece (5.1 GB).
#[derive(Clone)]
pub struct GroupSizes {
    side: u32,
    /// `offsets[key]..offsets[key + 1]` indexes the group `key = rows << side | cols`.
    offsets: Vec<u32>,
}

impl GroupSizes {
    /// Counts the groups of a `side` x `side` square (`1 <= side <= 12`).
    #[must_use]
    pub fn new(side: u32) -> Self {
        assert!(
            (1..=12).contains(&side),
            "quarter side {side} is out of range"
        );
        let keys = 1usize << (2 * side);
        let mut offsets = vec![0u32; keys + 1];
        walk(side, 0, 0, 0, Piece::default(), &mut |key, _| {
            offsets[key as usize + 1] += 1;
        });
        for k in 0..keys {
            offsets[k + 1] += offsets[k];
        }
        Self { side, offsets }
    }

    /// How many placements use exactly the rows `rows` and the columns `cols`.
    #[inline]
    #[must_use]
    pub fn len(&self, rows: u32, cols: u32) -> usize {
        let key = ((rows << self.side) | cols) as usize;
        (self.offsets[key + 1] - self.offsets[key]) as usize
    }

    /// The bytes the sizes of a `side` square take: one `u32` a group
    /// and one more.
    #[must_use]
    pub fn bytes(side: u32) -> u64 {
        4 * ((1u64 << (2 * side)) + 1)
    }

    /// The bytes these sizes hold.
    #[must_use]
    pub fn bytes_held(&self) -> u64 {
        (self.offsets.capacity() * size_of::<u32>()) as u64
    }
}

/// Every placement of the square, grouped by (rows used, columns used).
pub struct QuarterTable {
    sizes: GroupSizes,
    pieces: Vec<Piece>,
}

impl QuarterTable {
    /// Builds the table for a `side` x `side` square (`1 <= side <= 12`).
    #[cfg(test)]
    #[must_use]
    pub fn new(side: u32) -> Self {
        Self::fill(GroupSizes::new(side))
    }

    /// Fills the groups that `sizes` counted.
    #[must_use]
    pub fn fill(sizes: GroupSizes) -> Self {
        // Two walks, one to count each group and one to fill it: cheaper
        // than keeping (key, piece) pairs to sort, whose growing vector
        // made the plan of n = 18 spend half its time faulting in pages.
        let side = sizes.side;
        let offsets = &sizes.offsets;
        let mut next = offsets[..offsets.len() - 1].to_vec();
        let mut pieces = vec![Piece::default(); offsets[offsets.len() - 1] as usize];
        walk(side, 0, 0, 0, Piece::default(), &mut |key, piece| {
            pieces[next[key as usize] as usize] = piece;
            next[key as usize] += 1;
        });
        Self { sizes, pieces }
    }

    /// How many placements the table of a `side` x `side` square holds,
    /// all of them and those off one long diagonal (either: the two are
    /// mirror images), for `side` in `1..=12`: counted by [`walk`] once
    /// (and again by the tests up to side 9), so that a plan can weigh its
    /// tables without building them.
    #[must_use]
    pub fn pieces(side: u32) -> (u64, u64) {
        const ALL: [u64; 12] = [
            2,
            5,
            18,
            87,
            462,
            2_635,
            16_870,
            118_969,
            915_442,
            7_535_369,
            66_807_234,
            633_443_407,
        ];
        const OFF_LONG: [u64; 12] = [
            1,
            3,
            11,
            51,
            235,
            1_325,
            8_237,
            57_117,
            429_233,
            3_474_295,
            30_400_583,
            283_432_199,
        ];
        let i = side as usize - 1;
        (ALL[i], OFF_LONG[i])
    }

    /// The same table without the pieces that use any diagonal in
    /// `falling` or `rising` (local masks).
    #[must_use]
    pub fn without(&self, falling: u32, rising: u32) -> Self {
        let keep = |p: &&Piece| p.falling & falling == 0 && p.rising & rising == 0;
        // Counted first, so that the vector holds what it keeps and no
        // more: reserving the whole table's length instead took 5 GB of
        // address space at n = 24 for 2.3 GB of pieces.
        let kept = self.pieces.iter().filter(keep).count();
        let mut offsets = Vec::with_capacity(self.sizes.offsets.len());
        let mut pieces = Vec::with_capacity(kept);
        offsets.push(0);
        for group in self.sizes.offsets.windows(2) {
            let kept = self.pieces[group[0] as usize..group[1] as usize]
                .iter()
                .filter(keep);
            pieces.extend(kept);
            offsets.push(u32::try_from(pieces.len()).expect("fewer than 2^32 pieces"));
        }
        Self {
            sizes: GroupSizes {
                side: self.sizes.side,
                offsets,
            },
            pieces,
        }
    }

    /// The bytes the table holds: its groups' offsets and its pieces.
    #[cfg(test)]
    #[must_use]
    pub fn bytes(&self) -> u64 {
        (self.sizes.offsets.capacity() * size_of::<u32>()
            + self.pieces.capacity() * size_of::<Piece>()) as u64
    }

    /// The placements that use exactly the rows `rows` and the columns `cols`.
    #[inline]
    #[must_use]
    pub fn group(&self, rows: u32, cols: u32) -> &[Piece] {
        let key = ((rows << self.sizes.side) | cols) as usize;
        let offsets = &self.sizes.offsets;
        &self.pieces[offsets[key] as usize..offsets[key + 1] as usize]
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
    fn the_counted_sizes_are_the_tables() {
        for side in 1..=9 {
            let t = QuarterTable::new(side);
            let long = 1 << (side - 1);
            let (all, off_long) = QuarterTable::pieces(side);
            assert_eq!(t.pieces.len() as u64, all, "side {side}");
            assert_eq!(t.without(long, 0).pieces.len() as u64, off_long);
            assert_eq!(t.without(0, long).pieces.len() as u64, off_long);
            assert_eq!(
                t.bytes(),
                GroupSizes::bytes(side) + all * size_of::<Piece>() as u64
            );
        }
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
