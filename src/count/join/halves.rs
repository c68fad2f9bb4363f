//! Half-boards: the queens of one half of the columns, built from a top and
//! a bottom quarter piece, summarised by the diagonals the other half could
//! collide with.
//!
//! ```text
//!      c: 0 .. h-1 | h .. n-1         h = floor(n/2), q = n - h
//!  r  +-----------+-----------+
//!  0  |    TL     |    TR     |       left half:  columns 0..h   (h queens)
//!  .. |   h x h   |   h x q   |       right half: columns h..n   (q queens)
//! h-1 +-----------+-----------+
//!  h  |    BL     |    BR     |       top pieces: rows 0..h
//!  .. |   q x h   |   q x q   |       bottom pieces: rows h..n
//! n-1 +-----------+-----------+
//! ```
//!
//! A solution is a left half-board on some row set X with h rows and a
//! right half-board on the other rows, whose diagonals do not meet. Rows and
//! columns cannot clash across the halves, so only diagonals are compared,
//! and only those both halves can reach: falling `c - r + n - 1` and rising
//! `c + r` in `h ..= h + n - 2` each, `2(n - 1)` bits in all, packed into a
//! window word (falling in the low `n - 1` bits, rising above). On odd
//! boards the right half is one column wider and holds the centre square.
//!
//! This module generates and weighs half-boards; it never counts pairs.

use super::quarter::{Groups, Piece};
use super::subsets::for_each_subset;

/// Which half of the columns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    /// Columns `0..h`.
    Left,
    /// Columns `h..n`.
    Right,
}

/// The shape of the split for one board size.
#[derive(Clone, Copy, Debug)]
pub struct Geometry {
    /// Board size.
    pub n: u32,
    /// Left width and top height, `floor(n / 2)`.
    pub h: u32,
    /// Right width and bottom height, `n - h`.
    pub q: u32,
    /// The `n - 1` low bits: one family of diagonals in a window word.
    family: u64,
}

impl Geometry {
    /// The split of an `n`-board, `4 <= n <= 28`.
    #[must_use]
    pub fn new(n: u32) -> Self {
        assert!(
            (4..=28).contains(&n),
            "the join handles 4 <= n <= 28, not {n}"
        );
        let h = n / 2;
        Self {
            n,
            h,
            q: n - h,
            family: (1u64 << (n - 1)) - 1,
        }
    }

    /// Bits in a window word.
    #[must_use]
    pub const fn window_bits(&self) -> u32 {
        2 * (self.n - 1)
    }

    /// The window bits of the two long diagonals, `c = r` and
    /// `c + r = n - 1`.
    #[must_use]
    pub const fn long_diagonals(&self) -> (u64, u64) {
        let falling = 1u64 << (self.n - 1 - self.h);
        (falling, falling << (self.n - 1))
    }

    /// All `n` rows.
    #[must_use]
    pub const fn all_rows(&self) -> u32 {
        if self.n == 32 {
            u32::MAX
        } else {
            (1 << self.n) - 1
        }
    }

    /// The window word of a half-board whose global diagonal masks are
    /// `falling` and `rising`.
    #[inline]
    fn window(&self, falling: u64, rising: u64) -> u64 {
        ((falling >> self.h) & self.family) | (((rising >> self.h) & self.family) << (self.n - 1))
    }

    /// Calls `emit(word, centre)` for every half-board of `side` whose queens
    /// sit in exactly the rows `rows`; `centre` says whether it holds the
    /// centre square of an odd board.
    ///
    /// Each half-board is a top piece on `rows & top` and a bottom piece on
    /// the remaining rows, over complementary column sets; the pair is kept
    /// when their diagonals do not meet.
    ///
    /// `tops` and `bottoms` are the tables the top and bottom pieces come
    /// from: the full quarter table, or one without the pieces that no
    /// wanted half-board can use.
    pub fn for_each_half(
        &self,
        tops: &impl Groups,
        bottoms: &impl Groups,
        side: Side,
        rows: u32,
        mut emit: impl FnMut(u64, bool),
    ) {
        let (c0, width) = match side {
            Side::Left => (0, self.h),
            Side::Right => (self.h, self.q),
        };
        debug_assert_eq!(rows.count_ones(), width);
        let h = self.h;
        let top_rows = rows & ((1 << h) - 1);
        let bottom_rows = rows >> h;
        let all_cols = (1u32 << width) - 1;
        let centre_possible = side == Side::Right && self.n % 2 == 1;
        for_each_subset(width, top_rows.count_ones(), |cols| {
            let top_group = tops.group(top_rows, cols);
            if top_group.is_empty() {
                return;
            }
            let bottom_group = bottoms.group(bottom_rows, all_cols ^ cols);
            // Top pieces sit h rows above bottom pieces.
            pair_pieces(top_group, bottom_group, h, |falling, rising, bottom| {
                let word = self.window(falling << c0, rising << c0);
                emit(word, centre_possible && bottom.rising & 1 == 1);
            });
        });
    }
}

/// Pairs every top piece with every bottom piece whose diagonals it does
/// not meet. `drop` is how many rows the bottom piece's square sits below
/// the top one's (their columns are the same). `emit` gets the pair's masks
/// in one frame, falling diagonals as the bottom piece sees them and rising
/// ones as the top piece does, and the bottom piece.
#[inline]
pub fn pair_pieces(
    tops: &[Piece],
    bottoms: &[Piece],
    drop: u32,
    mut emit: impl FnMut(u64, u64, &Piece),
) {
    for top in tops {
        // Relative to the bottom square, the top square's falling diagonals
        // are `drop` further up; the bottom square's rising ones likewise.
        let tf = u64::from(top.falling) << drop;
        let tr = u64::from(top.rising);
        for bottom in bottoms {
            let bf = u64::from(bottom.falling);
            let br = u64::from(bottom.rising) << drop;
            if tf & bf == 0 && tr & br == 0 {
                emit(tf | bf, tr | br, bottom);
            }
        }
    }
}

/// Every row set for the left half: the `h`-element subsets of the rows.
#[cfg(test)]
#[must_use]
pub fn row_sets(geo: &Geometry) -> Vec<u32> {
    let mut sets = Vec::new();
    for_each_subset(geo.n, geo.h, |x| sets.push(x));
    sets
}

/// The row set flipped upside down (row `r` to row `n - 1 - r`).
#[must_use]
pub fn flip_rows(geo: &Geometry, rows: u32) -> u32 {
    rows.reverse_bits() >> (32 - geo.n)
}

/// Symmetry rule 1: a row set and its flip give equally many solutions, so
/// only the smaller of the two is counted, twice; a row set equal to its
/// flip once; the larger not at all.
#[must_use]
pub fn flip_weight(geo: &Geometry, rows: u32) -> u32 {
    match rows.cmp(&flip_rows(geo, rows)) {
        std::cmp::Ordering::Less => 2,
        std::cmp::Ordering::Equal => 1,
        std::cmp::Ordering::Greater => 0,
    }
}

/// Symmetry rule 3 (even n, solutions off both long diagonals): the mirror
/// maps left rows X to X's complement, and exactly one of each such pair of
/// row sets takes the weight 2. The choice depends only on the first row
/// where X and its flip agree; if there is none, the flip already paired
/// X with its complement.
#[must_use]
pub fn mirror_weight(geo: &Geometry, rows: u32) -> u32 {
    if geo.n % 2 == 1 {
        return 1;
    }
    let agree = !(rows ^ flip_rows(geo, rows)) & geo.all_rows();
    if agree == 0 {
        1
    } else if rows & agree & agree.wrapping_neg() != 0 {
        2
    } else {
        0
    }
}

/// Symmetry rule 2: the weight of a right half-board in a join whose left
/// half-boards avoid both long diagonals: 2 for each long diagonal it holds
/// (the anti-transpose and the transpose move those queens to the left half
/// in the solutions not counted), except that the centre queen of an odd
/// board holds both and is fixed by both (weight 1); `mirror` when it holds
/// neither.
#[must_use]
pub fn right_weight(geo: &Geometry, word: u64, centre: bool, mirror: u32) -> u32 {
    let (falling, rising) = geo.long_diagonals();
    let held = u32::from(word & falling != 0) + u32::from(word & rising != 0);
    match (held, centre) {
        (_, true) => 1,
        (0, false) => mirror,
        (k, false) => 1 << k,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flipping_rows_reverses_them() {
        let geo = Geometry::new(6);
        assert_eq!(flip_rows(&geo, 0b000_011), 0b110_000);
        assert_eq!(flip_weight(&geo, 0b000_011), 2);
        assert_eq!(flip_weight(&geo, 0b110_000), 0);
        assert_eq!(flip_weight(&geo, 0b100_001), 1);
    }

    #[test]
    fn mirror_weights_of_a_set_and_its_complement_sum_to_two() {
        let geo = Geometry::new(8);
        for x in row_sets(&geo) {
            let y = !x & geo.all_rows();
            assert_eq!(
                mirror_weight(&geo, x) + mirror_weight(&geo, y),
                2,
                "{x:08b}"
            );
        }
    }
}
