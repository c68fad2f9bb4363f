//! Odd boards with a fixed middle column (scheme F of the design note).
//!
//! On a board of `n = 2h + 1` the middle row and the middle column each hold
//! one queen. Either one queen is at the centre `(h, h)` and holds both, or
//! the middle-row queen is at `(h, h + i)` and the middle-column queen at
//! `(h + j, h)` with `i, j != 0` and `|i| != |j|`. The eight symmetries map
//! `(i, j)` to `(±i, ±j)` and `(±j, ±i)`, eight different pairs, exactly one
//! of which has `0 < i < j`: so the solutions with `0 < i < j`, counted 8
//! times, are all the non-centre ones.
//!
//! Without the middle row and column the board is four `h` x `h` quarters:
//!
//! ```text
//!        c: 0 .. h-1   h   h+1 .. 2h
//!   r     +-----------+---+-----------+
//!   0..h-1|    TL     |   |    TR     |   left half: TL + BL, h queens
//!   h     |- - - - - -| + |- - Q - - -|   middle row: its queen (h, h+i)
//!   ..    |    BL     | Q |    BR     |   belongs to the right half
//!   2h    +-----------+---+-----------+   middle column: (h+j, h) is fixed
//! ```
//!
//! A job fixes `j` and the left rows X (h of the 2h - 1 rows that are not
//! `h` or `h + j`). Left half-boards avoid the fixed queen's diagonals; right
//! half-boards are a TR and a BR piece using `h - 1` of the right columns,
//! the free column taking the middle-row queen, `i < j`. The centre family
//! is one more join per row set, with the flip and mirror rules of even
//! boards. Both halves are compared on the diagonals `c - r` in
//! `1-h ..= h-1` and `c + r` in `h+1 ..= 3h-1`: `4h - 2 = 2n - 4` bits.
//!
//! This module generates the half-boards of these jobs; it never counts.

use super::halves::Side;
use super::pairs::{
    Buffers, Chunks, Frame, OffDiagonal, for_each_quarter_pair, pair_group, prefetch,
};
use super::quarter::{GroupSizes, Groups, Piece, binomial};
use super::subsets::for_each_subset;

/// The split of an odd board around its middle row and column.
#[derive(Clone, Copy, Debug)]
pub struct OddGeometry {
    /// Board size, odd.
    pub n: u32,
    /// Quarter side, `(n - 1) / 2`.
    pub h: u32,
    family: u64,
}

/// What a job pre-places on the middle row and column.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Middle {
    /// A queen at the centre.
    Centre,
    /// The middle-column queen at `(h + j, h)`, the middle-row queen in the
    /// right half at `(h, h + i)` with `0 < i < j`.
    Column(u32),
}

impl OddGeometry {
    /// The split of an odd `n`-board, `5 <= n <= 27`.
    #[must_use]
    pub fn new(n: u32) -> Self {
        assert!(
            n % 2 == 1 && (5..=27).contains(&n),
            "scheme F needs an odd 5 <= n <= 27, not {n}"
        );
        let h = n / 2;
        Self {
            n,
            h,
            family: (1u64 << (2 * h - 1)) - 1,
        }
    }

    /// Bits in a window word.
    #[must_use]
    pub const fn window_bits(&self) -> u32 {
        4 * self.h - 2
    }

    /// Every row but the middle one.
    #[must_use]
    pub const fn rows_off_middle(&self) -> u32 {
        ((1 << self.n) - 1) & !(1 << self.h)
    }

    /// The rows a job's half-boards may use: all but the middle row and the
    /// fixed middle-column queen's row.
    #[must_use]
    pub const fn free_rows(&self, middle: Middle) -> u32 {
        match middle {
            Middle::Centre => self.rows_off_middle(),
            Middle::Column(j) => self.rows_off_middle() & !(1 << (self.h + j)),
        }
    }

    /// The quarter offsets, `(row, column)`: TL, BL, TR, BR.
    const fn offsets(&self) -> [(u32, u32); 4] {
        let o = self.h + 1;
        [(0, 0), (o, 0), (0, o), (o, o)]
    }

    /// The global diagonals `falling` (`c - r + n - 1`) and `rising`
    /// (`c + r`) as local masks of each quarter they cross (TL, BL, TR, BR);
    /// a diagonal that misses a quarter sets no bit there. A quarter at
    /// `(r0, c0)` numbers falling diagonals from `c0 - r0 + h + 1` and
    /// rising ones from `c0 + r0`.
    fn off_limits(&self, falling: &[u32], rising: &[u32]) -> [Piece; 4] {
        let width = 2 * self.h - 1;
        let local = |global: u32, base: u32| match global.checked_sub(base) {
            Some(bit) if bit < width => 1 << bit,
            _ => 0,
        };
        self.offsets().map(|(r0, c0)| Piece {
            falling: falling
                .iter()
                .map(|&a| local(a + r0, c0 + self.h + 1))
                .fold(0, |m, b| m | b),
            rising: rising
                .iter()
                .map(|&b| local(b, c0 + r0))
                .fold(0, |m, b| m | b),
        })
    }

    /// The pre-placed middle-column queen's diagonals, local to each
    /// quarter: at `(h + j, h)`, or the centre for `j = 0`.
    fn forbidden(&self, middle: Middle) -> [Piece; 4] {
        let j = match middle {
            Middle::Centre => 0,
            Middle::Column(j) => j,
        };
        self.off_limits(&[2 * self.h - j], &[2 * self.h + j])
    }

    /// A row set as local rows of the top quarters, local rows of the
    /// bottom quarters (global rows h+1..2h), and the mask of a quarter's
    /// h columns.
    const fn split(&self, rows: u32) -> (u32, u32, u32) {
        let h = self.h;
        (rows & ((1 << h) - 1), rows >> (h + 1), (1 << h) - 1)
    }

    /// A row set as local rows of the top quarters and of the bottom ones.
    #[must_use]
    pub const fn quarter_rows(&self, rows: u32) -> (u32, u32) {
        let (top, bottom, _) = self.split(rows);
        (top, bottom)
    }

    #[inline]
    fn window(&self, falling: u64, rising: u64) -> u64 {
        let lo = self.h + 1;
        ((falling >> lo) & self.family) | (((rising >> lo) & self.family) << (2 * self.h - 1))
    }

    /// Appends to `out` the word of every left half-board on the rows
    /// `rows` that avoids the pre-placed queen's diagonals, handing `out`
    /// to `full` whenever it holds `cap` words or more (as
    /// [`pairs::left_halves`](super::pairs::left_halves) does).
    pub fn left_halves(
        &self,
        (tops, bottoms): (&impl Groups, &impl Groups),
        middle: Middle,
        rows: u32,
        (out, cap, full): Chunks<'_>,
        buffers: &mut Buffers,
    ) {
        let h = self.h;
        let (top, bottom, _) = self.split(rows);
        let [tl, bl, _, _] = self.forbidden(middle);
        let frame = Frame::odd(h, Side::Left, 0, (tl, bl));
        for_each_quarter_pair(h, tops, bottoms, (top, bottom), |tops, bottoms| {
            pair_group(frame, tops, bottoms, OffDiagonal::Once, out, buffers);
            if out.len() >= cap {
                full(out);
            }
        });
    }

    /// Appends to `out` the word of every right half-board on the rows
    /// `rows` (and, for [`Middle::Column`], the middle row) that avoids the
    /// pre-placed queen's diagonals, handing `out` to `full` whenever it
    /// holds `cap` words or more.
    pub fn right_halves(
        &self,
        (tops, bottoms): (&impl Groups, &impl Groups),
        middle: Middle,
        rows: u32,
        (out, cap, full): Chunks<'_>,
        buffers: &mut Buffers,
    ) {
        let h = self.h;
        let (top, bottom, all) = self.split(rows);
        let [_, _, tr, br] = self.forbidden(middle);
        for_each_subset(h, top.count_ones(), |cols| {
            prefetch(tops.group(top, cols));
            let rest = all ^ cols;
            match middle {
                Middle::Centre => prefetch(bottoms.group(bottom, rest)),
                Middle::Column(j) => {
                    let mut free = rest & ((1 << (j - 1)) - 1);
                    while free != 0 {
                        prefetch(bottoms.group(bottom, rest & !(free & free.wrapping_neg())));
                        free &= free - 1;
                    }
                }
            }
        });
        for_each_subset(h, top.count_ones(), |cols| {
            let top_group = tops.group(top, cols);
            if top_group.is_empty() {
                return;
            }
            let rest = all ^ cols;
            match middle {
                Middle::Centre => {
                    let frame = Frame::odd(h, Side::Right, 0, (tr, br));
                    let bottom_group = bottoms.group(bottom, rest);
                    pair_group(
                        frame,
                        top_group,
                        bottom_group,
                        OffDiagonal::Once,
                        out,
                        buffers,
                    );
                }
                Middle::Column(j) => {
                    // The one right column the pieces leave free takes the
                    // middle-row queen (h, h + 1 + c): i = c + 1 < j; the
                    // pieces keep off its diagonals, and every word holds them.
                    let mut free = rest & ((1 << (j - 1)) - 1);
                    while free != 0 {
                        let c = free.trailing_zeros();
                        free &= free - 1;
                        let queen = 2 * h + 1 + c; // its diagonal in both families
                        let [_, _, q_tr, q_br] = self.off_limits(&[queen], &[queen]);
                        let top_off = Piece {
                            falling: tr.falling | q_tr.falling,
                            rising: tr.rising | q_tr.rising,
                        };
                        let bottom_off = Piece {
                            falling: br.falling | q_br.falling,
                            rising: br.rising | q_br.rising,
                        };
                        // TR and BR sit h + 1 columns right: their window
                        // bits are the global ones less h + 1, as the queen's.
                        let held = self.window(1 << queen, 1 << queen);
                        let frame = Frame::odd(h, Side::Right, held, (top_off, bottom_off));
                        let bottom_group = bottoms.group(bottom, rest ^ (1 << c));
                        pair_group(
                            frame,
                            top_group,
                            bottom_group,
                            OffDiagonal::Once,
                            out,
                            buffers,
                        );
                    }
                }
            }
            if out.len() >= cap {
                full(out);
            }
        });
    }
}

/// For the right half-boards of [`Middle::Column`] jobs: a TR piece on
/// columns `S` and a BR piece on columns `U` pair when `S`, `U` and one
/// free column `c < j - 1` split the quarter's columns. So the pairs a job
/// tests are the dot product of the TR counts by column set with, for
/// each bottom row set `B` and each complement `R` of `S`, the sum over
/// `c` in `R` below `m = j - 1` of the BR counts of `R` less `c`: those
/// sums, for every `B`, `R` and `m`, are what this keeps (`h - 1` sums per
/// `(B, R)`: 500 MB at n = 27, while the plan is made).
pub struct FreeColumns {
    h: u32,
    /// `start[bottom]`: where the sums of `bottom` begin in `sums`, laid
    /// out by `m` (1 to `h - 1`), then by `R` in increasing order.
    start: Vec<usize>,
    sums: Vec<u32>,
}

impl FreeColumns {
    /// The sums for a quarter of side `sizes.side()`, on the current rayon
    /// pool.
    #[must_use]
    pub fn new(sizes: &GroupSizes) -> Self {
        use rayon::prelude::*;
        let h = sizes.side();
        let per_m = |bottom: u32| binomial(h, bottom.count_ones() + 1);
        let mut start = Vec::with_capacity((1 << h) + 1);
        let mut len = 0;
        for bottom in 0..1u32 << h {
            start.push(len);
            len += per_m(bottom) * (h as usize - 1);
        }
        start.push(len);
        let mut sums = vec![0u32; len];
        let mut blocks: Vec<&mut [u32]> = Vec::with_capacity(1 << h);
        let mut rest = &mut sums[..];
        for bottom in 0..1usize << h {
            let (block, tail) = rest.split_at_mut(start[bottom + 1] - start[bottom]);
            blocks.push(block);
            rest = tail;
        }
        blocks
            .into_par_iter()
            .enumerate()
            .for_each(|(bottom, block)| {
                let bottom = bottom as u32;
                let width = per_m(bottom);
                let mut i = 0;
                for_each_subset(h, bottom.count_ones() + 1, |r| {
                    let mut running = 0;
                    for m in 1..h {
                        let c = m - 1;
                        if r >> c & 1 == 1 {
                            running += sizes.len(bottom, r ^ (1 << c)) as u32;
                        }
                        block[(m as usize - 1) * width + i] = running;
                    }
                    i += 1;
                });
            });
        Self { h, start, sums }
    }

    /// The right candidates of tops on `top` and bottoms on `bottom` with
    /// the free column below `m`.
    fn pairs(&self, sizes: &GroupSizes, top: u32, bottom: u32, m: u32) -> u64 {
        if m == 0 || top.count_ones() + bottom.count_ones() + 1 != self.h {
            return 0;
        }
        let tops = sizes.of(top);
        let width = tops.len();
        let at = self.start[bottom as usize] + (m as usize - 1) * width;
        let sums = &self.sums[at..at + width];
        tops.iter()
            .zip(sums.iter().rev())
            .map(|(&t, &s)| u64::from(t) * u64::from(s))
            .sum()
    }
}

impl OddGeometry {
    /// Top-times-bottom piece pairs a left generation on `rows` tests.
    #[must_use]
    pub fn left_candidates(&self, sizes: &GroupSizes, rows: u32) -> u64 {
        let (top, bottom, _) = self.split(rows);
        sizes.complementary_pairs(top, bottom)
    }

    /// Top-times-bottom piece pairs a right generation on `rows` tests, by
    /// the sums of `free` (see [`FreeColumns`]): one dot product.
    #[must_use]
    pub fn right_candidates(
        &self,
        sizes: &GroupSizes,
        free: &FreeColumns,
        middle: Middle,
        rows: u32,
    ) -> u64 {
        let (top, bottom, _) = self.split(rows);
        match middle {
            Middle::Centre => sizes.complementary_pairs(top, bottom),
            Middle::Column(j) => free.pairs(sizes, top, bottom, j - 1),
        }
    }

    /// [`right_candidates`](Self::right_candidates) the plain way, column
    /// set by column set, without the plan's [`FreeColumns`]: for a job
    /// to see whether its right half-boards fit in a chunk.
    #[must_use]
    pub fn right_candidates_plainly(&self, sizes: &GroupSizes, middle: Middle, rows: u32) -> u64 {
        let h = self.h;
        let (top, bottom, all) = self.split(rows);
        if middle == Middle::Centre {
            return sizes.complementary_pairs(top, bottom);
        }
        let mut pairs = 0;
        for_each_subset(h, top.count_ones(), |cols| {
            let tops = sizes.len(top, cols) as u64;
            if tops == 0 {
                return;
            }
            let rest = all ^ cols;
            pairs += match middle {
                Middle::Centre => unreachable!("counted above"),
                Middle::Column(j) => {
                    let mut free = rest & ((1 << (j - 1)) - 1);
                    let mut sum = 0;
                    while free != 0 {
                        let c = free.trailing_zeros();
                        free &= free - 1;
                        sum += tops * sizes.len(bottom, rest ^ (1 << c)) as u64;
                    }
                    sum
                }
            };
        });
        pairs
    }

    /// The mirror rule for the centre family: the mirror swaps the halves
    /// (both h wide) and maps the left rows X to their complement among
    /// the rows off the middle; one of the two takes weight 2, chosen by the
    /// first row where X and its flip agree (as for even boards).
    #[must_use]
    pub fn centre_mirror_weight(&self, rows: u32) -> u32 {
        let flipped = rows.reverse_bits() >> (32 - self.n);
        let agree = !(rows ^ flipped) & self.rows_off_middle();
        if agree == 0 {
            1
        } else if rows & agree & agree.wrapping_neg() != 0 {
            2
        } else {
            0
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_window_is_2n_minus_4_bits() {
        assert_eq!(OddGeometry::new(19).window_bits(), 34);
    }

    #[test]
    fn right_candidates_by_free_column_sums_are_the_plain_ones() {
        for n in [5, 7, 9, 11, 13, 15] {
            let geo = OddGeometry::new(n);
            let sizes = GroupSizes::new(geo.h);
            let free = FreeColumns::new(&sizes);
            for middle in (1..=geo.h).map(Middle::Column).chain([Middle::Centre]) {
                let rows = geo.free_rows(middle);
                for_each_subset(n, geo.h - 1, |right| {
                    if right & !rows == 0 {
                        assert_eq!(
                            geo.right_candidates(&sizes, &free, middle, right),
                            geo.right_candidates_plainly(&sizes, middle, right),
                            "n = {n}, {middle:?}, {right:#b}"
                        );
                    }
                });
            }
        }
    }

    #[test]
    fn free_rows_leave_out_the_middle_and_the_fixed_queen() {
        let geo = OddGeometry::new(7);
        assert_eq!(geo.free_rows(Middle::Centre), 0b111_0111);
        assert_eq!(geo.free_rows(Middle::Column(2)), 0b101_0111);
    }
}
