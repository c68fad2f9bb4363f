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

/// The pieces of one group: the placements on exactly some rows and some
/// columns of the square. A whole [`QuarterTable`] has every group; a
/// [`Slice`] those of one row set, all that a job reads on one side of
/// one quarter.
pub trait Groups {
    /// The placements that use exactly the rows `rows` and the columns
    /// `cols` (a [`Slice`] answers for its own rows only).
    fn group(&self, rows: u32, cols: u32) -> &[Piece];
}

/// The largest square side a table, a slice or a count of groups takes:
/// a board of 28 splits into quarters of 14.
pub const MAX_SIDE: u32 = 14;

/// `BINOMIAL[n][k]` = n choose k, for `n, k <= MAX_SIDE`.
const BINOMIAL: [[u32; MAX_SIDE as usize + 1]; MAX_SIDE as usize + 1] = {
    let mut table = [[0; MAX_SIDE as usize + 1]; MAX_SIDE as usize + 1];
    let mut n = 0;
    while n <= MAX_SIDE as usize {
        table[n][0] = 1;
        let mut k = 1;
        while k <= n {
            table[n][k] = table[n - 1][k - 1] + if k < n { table[n - 1][k] } else { 0 };
            k += 1;
        }
        n += 1;
    }
    table
};

/// n choose k, for `n <= MAX_SIDE` (0 for `k > n`).
#[must_use]
pub fn binomial(n: u32, k: u32) -> usize {
    if k > n {
        0
    } else {
        BINOMIAL[n as usize][k as usize] as usize
    }
}

/// The position of `set` among the sets of as many elements, in increasing
/// order (the combinatorial number system).
#[inline]
fn rank(mut set: u32) -> usize {
    let mut rank = 0;
    let mut i = 1;
    while set != 0 {
        rank += BINOMIAL[set.trailing_zeros() as usize][i] as usize;
        set &= set - 1;
        i += 1;
    }
    rank
}

/// How many placements each (rows used, columns used) group of a square
/// holds: all that a plan needs to weigh its jobs. Only groups with as
/// many rows as columns can hold a placement, so each row set keeps one
/// count per column set of its size, in increasing order: `C(2 side,
/// side)` counts in all, 160 MB at side 14 (a sparse `4^side` table would
/// take 1 GiB there).
#[derive(Clone)]
pub struct GroupSizes {
    side: u32,
    /// `start[rows]`: where the counts of `rows` begin in `sizes`.
    start: Vec<u32>,
    sizes: Vec<u32>,
}

impl GroupSizes {
    /// Counts the groups of a `side` x `side` square (`1 <= side <=
    /// MAX_SIDE`), one row set at a time, on the current rayon pool. A row
    /// set and its flip (row `r` to `side - 1 - r`) have the same counts,
    /// column by column, so only the smaller of the two is walked.
    #[must_use]
    pub fn new(side: u32) -> Self {
        use rayon::prelude::*;
        assert!(
            (1..=MAX_SIDE).contains(&side),
            "quarter side {side} is out of range"
        );
        let row_sets = 1u32 << side;
        let mut start = Vec::with_capacity(row_sets as usize + 1);
        let mut len = 0u32;
        for rows in 0..row_sets {
            start.push(len);
            len += BINOMIAL[side as usize][rows.count_ones() as usize];
        }
        start.push(len);
        let flip = |rows: u32| rows.reverse_bits() >> (32 - side);
        let walked: Vec<(u32, Vec<u32>)> = (0..row_sets)
            .into_par_iter()
            .filter(|&rows| rows <= flip(rows))
            .map_init(
                || (vec![0u32; row_sets as usize], vec![0u32; row_sets as usize]),
                |(half, by_cols), rows| {
                    count_by_cols(side, rows, half, by_cols);
                    let mut counts = Vec::with_capacity(
                        BINOMIAL[side as usize][rows.count_ones() as usize] as usize,
                    );
                    super::subsets::for_each_subset(side, rows.count_ones(), |cols| {
                        counts.push(by_cols[cols as usize]);
                    });
                    (rows, counts)
                },
            )
            .collect();
        let mut sizes = vec![0u32; len as usize];
        for (rows, counts) in walked {
            for twin in [rows, flip(rows)] {
                let at = start[twin as usize] as usize;
                sizes[at..at + counts.len()].copy_from_slice(&counts);
            }
        }
        Self { side, start, sizes }
    }

    /// The side of the square.
    #[must_use]
    pub fn side(&self) -> u32 {
        self.side
    }

    /// How many placements use exactly the rows `rows` and the columns `cols`.
    #[inline]
    #[must_use]
    pub fn len(&self, rows: u32, cols: u32) -> usize {
        if rows.count_ones() == cols.count_ones() {
            self.sizes[self.start[rows as usize] as usize + rank(cols)] as usize
        } else {
            0
        }
    }

    /// The counts of `rows`, one per column set of its size, in increasing
    /// order.
    #[inline]
    pub(super) fn of(&self, rows: u32) -> &[u32] {
        &self.sizes[self.start[rows as usize] as usize..self.start[rows as usize + 1] as usize]
    }

    /// How many (piece on `top_rows`, piece on `bottom_rows`) pairs use
    /// complementary column sets of the whole square: the candidates a
    /// half-board generation tests. Complementing reverses the order of
    /// column sets, so this is the dot product of one row set's counts
    /// with the other's reversed.
    #[must_use]
    pub fn complementary_pairs(&self, top_rows: u32, bottom_rows: u32) -> u64 {
        if top_rows.count_ones() + bottom_rows.count_ones() != self.side {
            return 0;
        }
        let (tops, bottoms) = (self.of(top_rows), self.of(bottom_rows));
        debug_assert_eq!(tops.len(), bottoms.len());
        tops.iter()
            .zip(bottoms.iter().rev())
            .map(|(&t, &b)| u64::from(t) * u64::from(b))
            .sum()
    }

    /// The bytes the sizes of a `side` square take.
    #[must_use]
    pub fn bytes(side: u32) -> u64 {
        4 * ((1u64 << side) + 1 + u64::from(central_binomial(side)))
    }

    /// The bytes these sizes hold.
    #[must_use]
    pub fn bytes_held(&self) -> u64 {
        ((self.start.capacity() + self.sizes.capacity()) * size_of::<u32>()) as u64
    }
}

/// `C(2 side, side)`: how many (row set, column set) groups of equal
/// sizes a square has (the sum of `C(side, k)^2`).
fn central_binomial(side: u32) -> u32 {
    BINOMIAL[side as usize].iter().map(|&c| c * c).sum()
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
    #[cfg(test)]
    #[must_use]
    pub fn new(side: u32) -> Self {
        Self::fill(&GroupSizes::new(side))
    }

    /// Fills the groups that `sizes` counted (`side <= 12`: the table of
    /// 13 would hold 6.4e9 pieces, past a `u32` offset).
    #[must_use]
    pub fn fill(sizes: &GroupSizes) -> Self {
        // Two walks' worth, one to count each group (`sizes`) and one to
        // fill it: cheaper than keeping (key, piece) pairs to sort, whose
        // growing vector made the plan of n = 18 spend half its time
        // faulting in pages.
        let side = sizes.side;
        assert!(
            side <= 12,
            "a whole quarter table of side {side} is too big"
        );
        let keys = 1usize << (2 * side);
        let mut offsets = Vec::with_capacity(keys + 1);
        let mut len = 0u32;
        for key in 0..keys as u32 {
            offsets.push(len);
            len += sizes.len(key >> side, key & ((1 << side) - 1)) as u32;
        }
        offsets.push(len);
        let mut next = offsets[..keys].to_vec();
        let mut pieces = vec![Piece::default(); len as usize];
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

    /// How many placements the table of a `side` x `side` square holds,
    /// all of them and those off one long diagonal (either: the two are
    /// mirror images), for `side` in `1..=12` (the largest whole table):
    /// counted by [`walk`] once (and again by the tests up to side 9), so
    /// that a plan can weigh its tables without building them.
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

    /// The bytes the whole table of a `side` square takes: its offsets
    /// and its pieces, all of them or (`off_long`) those off one long
    /// diagonal.
    #[must_use]
    pub fn bytes_of(side: u32, off_long: bool) -> u64 {
        let (all, off) = Self::pieces(side);
        let pieces = if off_long { off } else { all };
        4 * ((1u64 << (2 * side)) + 1) + pieces * size_of::<Piece>() as u64
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
        let mut offsets = Vec::with_capacity(self.offsets.len());
        let mut pieces = Vec::with_capacity(kept);
        offsets.push(0);
        for group in self.offsets.windows(2) {
            let kept = self.pieces[group[0] as usize..group[1] as usize]
                .iter()
                .filter(keep);
            pieces.extend(kept);
            offsets.push(u32::try_from(pieces.len()).expect("fewer than 2^32 pieces"));
        }
        Self {
            side: self.side,
            offsets,
            pieces,
        }
    }

    /// The bytes the table holds: its groups' offsets and its pieces.
    #[cfg(test)]
    #[must_use]
    pub fn bytes(&self) -> u64 {
        (self.offsets.capacity() * size_of::<u32>() + self.pieces.capacity() * size_of::<Piece>())
            as u64
    }
}

impl Groups for QuarterTable {
    #[inline]
    fn group(&self, rows: u32, cols: u32) -> &[Piece] {
        let key = ((rows << self.side) | cols) as usize;
        &self.pieces[self.offsets[key] as usize..self.offsets[key + 1] as usize]
    }
}

/// The placements of a square on exactly one row set, grouped by the
/// columns they use, off some diagonals: what one job reads of one
/// quarter, built when the job runs. A slice is a few megabytes where the
/// whole table is gigabytes (side 13: 4.7 million pieces at most, 37 MB,
/// against 6.4e9 in the table), and building it costs about as much as
/// walking its pieces twice: a thousandth of a job's time from n = 24 on.
#[derive(Default)]
pub struct Slice {
    side: u32,
    rows: u32,
    off: Piece,
    /// `offsets[cols]..offsets[cols + 1]` indexes the group of `cols`.
    offsets: Vec<u32>,
    pieces: Vec<Piece>,
    /// Whether the slice holds what its fields say (a new one is empty).
    built: bool,
}

impl Slice {
    /// Makes this the slice of `rows` of a `side` square, without the
    /// pieces on the diagonals of `off` (local masks), reusing its
    /// vectors; does nothing if it is that slice already.
    pub fn build(&mut self, side: u32, rows: u32, off: Piece) {
        if self.built && (self.side, self.rows, self.off) == (side, rows, off) {
            return;
        }
        let cols = 1usize << side;
        self.offsets.clear();
        self.offsets.resize(cols + 1, 0);
        walk_rows(side, rows, off, &mut |c, _| {
            self.offsets[c as usize + 1] += 1;
        });
        for c in 0..cols {
            self.offsets[c + 1] += self.offsets[c];
        }
        self.pieces.clear();
        self.pieces
            .resize(self.offsets[cols] as usize, Piece::default());
        let next = &mut self.offsets[..cols];
        walk_rows(side, rows, off, &mut |c, piece| {
            self.pieces[next[c as usize] as usize] = piece;
            next[c as usize] += 1;
        });
        // The fill moved each group's start to the next one's: shift back.
        self.offsets.copy_within(0..cols, 1);
        self.offsets[0] = 0;
        (self.side, self.rows, self.off, self.built) = (side, rows, off, true);
    }

    /// The bytes its vectors hold.
    #[cfg(test)]
    #[must_use]
    pub fn bytes(&self) -> u64 {
        (self.offsets.capacity() * size_of::<u32>() + self.pieces.capacity() * size_of::<Piece>())
            as u64
    }
}

impl Groups for Slice {
    #[inline]
    fn group(&self, rows: u32, cols: u32) -> &[Piece] {
        debug_assert!(
            self.built && rows == self.rows,
            "slice of {:#x} asked for {rows:#x}",
            self.rows
        );
        let _ = rows;
        &self.pieces[self.offsets[cols as usize] as usize..self.offsets[cols as usize + 1] as usize]
    }
}

/// Sets `by_cols[cols]` to how many placements on exactly the rows `rows`
/// of a `side` square use the columns `cols`, for every `cols`; `half` is
/// a buffer of the same length.
///
/// What [`walk_rows`] would count, in well under half its time (`queens
/// plan 26` on 2 threads: 13.8 s before, 5.8 s with this; plan 28: 135 s,
/// then 51 s): the mirror of the square (column `c` to `side - 1 - c`) maps
/// the placements on `rows` one to one, so only those whose first queen
/// stands left of the middle are walked (into `half`), each counting for
/// itself and its mirror; on an odd side, those whose first queen stands
/// on the middle column are walked as well, once. And the last row adds
/// its queens to the counts in a loop of its own, with no call per
/// placement.
fn count_by_cols(side: u32, rows: u32, half: &mut [u32], by_cols: &mut [u32]) {
    /// Below `rows[0]`, with the columns `cols` taken and those attacked
    /// along falling and rising diagonals on row `rows[0]` in `fall` and
    /// `rise`, adds one to `counts[cols']` for every completion.
    fn down(gaps: &[u32], all: u32, (cols, fall, rise): (u32, u32, u32), counts: &mut [u32]) {
        /// The last row: one count per free column.
        #[inline(always)]
        fn last(all: u32, (cols, fall, rise): (u32, u32, u32), counts: &mut [u32]) {
            let mut free = all & !(cols | fall | rise);
            while free != 0 {
                let bit = free & free.wrapping_neg();
                free ^= bit;
                counts[(cols | bit) as usize] += 1;
            }
        }
        let mut free = all & !(cols | fall | rise);
        match *gaps {
            [] => last(all, (cols, fall, rise), counts),
            // The last two rows in one loop: no call per queen of the
            // one before last.
            [gap] => {
                while free != 0 {
                    let bit = free & free.wrapping_neg();
                    free ^= bit;
                    let next = (cols | bit, (fall | bit) << gap, (rise | bit) >> gap);
                    last(all, next, counts);
                }
            }
            [gap, ref rest @ ..] => {
                while free != 0 {
                    let bit = free & free.wrapping_neg();
                    free ^= bit;
                    let next = (cols | bit, (fall | bit) << gap, (rise | bit) >> gap);
                    down(rest, all, next, counts);
                }
            }
        }
    }
    let all = (1u32 << side) - 1;
    half.fill(0);
    by_cols.fill(0);
    if rows == 0 {
        by_cols[0] = 1;
        return;
    }
    // The gaps between consecutive rows of `rows`: how far the diagonals
    // move from one to the next.
    let mut gaps = [0u32; MAX_SIDE as usize];
    let mut count = 0;
    let mut last = rows.trailing_zeros();
    let mut rest = rows & (rows - 1);
    while rest != 0 {
        let row = rest.trailing_zeros();
        gaps[count] = row - last;
        count += 1;
        last = row;
        rest &= rest - 1;
    }
    let gaps = &gaps[..count];
    let start = |bit: u32| {
        (
            bit,
            bit << gaps.first().unwrap_or(&0),
            bit >> gaps.first().unwrap_or(&0),
        )
    };
    // First queens left of the middle, each with its mirror.
    let mut left = (1u32 << (side / 2)) - 1;
    while left != 0 {
        let bit = left & left.wrapping_neg();
        left ^= bit;
        match gaps.split_first() {
            None => half[bit as usize] += 1,
            Some((_, rest)) => down(rest, all, start(bit), half),
        }
    }
    let flip = |cols: u32| cols.reverse_bits() >> (32 - side);
    for (cols, count) in by_cols.iter_mut().enumerate() {
        *count = half[cols] + half[flip(cols as u32) as usize];
    }
    // On an odd side, first queens on the middle column, once.
    if side % 2 == 1 {
        let bit = 1 << (side / 2);
        match gaps.split_first() {
            None => by_cols[bit as usize] += 1,
            Some((_, rest)) => down(rest, all, start(bit), by_cols),
        }
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

/// Calls `visit(cols, piece)` for every placement on exactly the rows
/// `rows` that keeps off the diagonals of `off`, in the order [`walk`]
/// visits them (so a group's pieces come in the same order from a slice
/// as from the whole table). The piece's masks leave `off` out.
fn walk_rows(side: u32, rows: u32, off: Piece, visit: &mut impl FnMut(u32, Piece)) {
    fn down(
        side: u32,
        rows: u32,
        row: u32,
        cols: u32,
        (falling, rising): (u32, u32),
        off: Piece,
        visit: &mut impl FnMut(u32, Piece),
    ) {
        let mut row = row;
        while row < side && rows >> row & 1 == 0 {
            row += 1;
        }
        if row == side {
            let piece = Piece {
                falling: falling & !off.falling,
                rising: rising & !off.rising,
            };
            visit(cols, piece);
            return;
        }
        let all = (1 << side) - 1;
        let mut free = all & !cols & !(falling >> (side - 1 - row)) & !(rising >> row);
        while free != 0 {
            let c = free.trailing_zeros();
            free &= free - 1;
            let masks = (falling | 1 << (c + side - 1 - row), rising | 1 << (c + row));
            down(side, rows, row + 1, cols | 1 << c, masks, off, visit);
        }
    }
    down(side, rows, 0, 0, (off.falling, off.rising), off, visit);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::count::join::subsets::for_each_subset;

    #[test]
    fn sizes_match_the_design_note() {
        // Side 8 (n = 16): the size measured when the method was designed,
        // before this code (docs/how-it-counts.md tells the method).
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
            assert_eq!(t.bytes(), QuarterTable::bytes_of(side, false));
            let sizes = GroupSizes::new(side);
            assert_eq!(sizes.bytes_held(), GroupSizes::bytes(side));
        }
    }

    /// The halved count of a row set's groups is the plain walk's, on
    /// every row set of the small squares, odd and even sides.
    #[test]
    fn the_mirrored_count_is_the_walks() {
        for side in 1..=10 {
            let sets = 1usize << side;
            let (mut half, mut counted) = (vec![0; sets], vec![0; sets]);
            for rows in 0..1u32 << side {
                let mut walked = vec![0u32; sets];
                walk_rows(side, rows, Piece::default(), &mut |cols, _| {
                    walked[cols as usize] += 1;
                });
                count_by_cols(side, rows, &mut half, &mut counted);
                assert_eq!(counted, walked, "side {side}, rows {rows:#x}");
            }
        }
    }

    /// Every group of a slice, filtered or not, is the whole table's, in
    /// the same order; the counted sizes are the groups' lengths; the
    /// complementary pairs are the products a plain loop sums.
    #[test]
    fn slices_and_sizes_are_the_tables_groups() {
        for side in 1..=7 {
            let t = QuarterTable::new(side);
            let sizes = GroupSizes::new(side);
            let long = 1 << (side - 1);
            let filtered = [
                (Piece::default(), &t),
                (
                    Piece {
                        falling: long,
                        rising: 0,
                    },
                    &t.without(long, 0),
                ),
                (
                    Piece {
                        falling: 0b101,
                        rising: long,
                    },
                    &t.without(0b101, long),
                ),
            ];
            let mut slice = Slice::default();
            let all = (1 << side) - 1;
            for (off, table) in filtered {
                for rows in 0..1 << side {
                    slice.build(side, rows, off);
                    for cols in 0..1 << side {
                        assert_eq!(
                            slice.group(rows, cols),
                            table.group(rows, cols),
                            "side {side}, {rows:b} x {cols:b}"
                        );
                        if off == Piece::default() {
                            assert_eq!(sizes.len(rows, cols), t.group(rows, cols).len());
                        }
                    }
                }
            }
            for top in 0..1u32 << side {
                for bottom in 0..1u32 << side {
                    let mut want = 0;
                    for_each_subset(side, top.count_ones(), |c| {
                        want += (sizes.len(top, c) * sizes.len(bottom, all ^ c)) as u64;
                    });
                    assert_eq!(sizes.complementary_pairs(top, bottom), want);
                }
            }
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
