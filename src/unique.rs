//! Essentially different solutions (OEIS A002562) by Burnside's lemma.
//!
//! The number of classes of solutions under the eight symmetries is the
//! average number of solutions each symmetry fixes. For `n > 1` no solution
//! is fixed by a reflection (a reflection maps some queen to a square that
//! shares its row, column or diagonal), the two quarter turns fix the same
//! solutions, and the identity fixes all of them, so
//!
//! ```text
//! unique = (total + S180 + 2 * S90) / 8
//! ```
//!
//! where `S180` and `S90` count the solutions fixed by the half turn and the
//! quarter turn. Those are found by dedicated searches that place queens in
//! the symmetric pairs or fours the rotation forces, a tiny fraction of the
//! full search. A class has 8 members (no symmetry), 4 (the half turn only)
//! or 2 (the quarter turn, hence also the half turn):
//!
//! ```text
//! classes of 2 = S90 / 2,  of 4 = (S180 - S90) / 4,  of 8 = (total - S180) / 8
//! ```
//!
//! This module takes the total from any engine; it never searches the whole
//! board itself.

use crate::Error;
use crate::kernel::{MAX_N, full_mask, lowest_bit};

/// How many symmetry classes there are of each size.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct Classes {
    /// Classes of 8 boards: no symmetry but the identity.
    pub none: u128,
    /// Classes of 4 boards: symmetric under the half turn only.
    pub rotation_180: u128,
    /// Classes of 2 boards: symmetric under the quarter turn (n = 1's single
    /// board, symmetric under all eight transforms, is counted here too).
    pub rotation_90: u128,
}

impl Classes {
    /// Their number: the count of essentially different solutions.
    #[must_use]
    pub const fn total(&self) -> u128 {
        self.none + self.rotation_180 + self.rotation_90
    }
}

/// The symmetric counts for one board size, and what follows from them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Unique {
    /// Solutions in all (the input).
    pub total: u128,
    /// Solutions unchanged by the half turn (S180).
    pub half_turn: u128,
    /// Solutions unchanged by the quarter turn (S90).
    pub quarter_turn: u128,
    /// Essentially different solutions (OEIS A002562).
    pub unique: u128,
    /// The classes by size.
    pub classes: Classes,
}

/// The unique count and class sizes for an `n`-board with `total`
/// solutions, counting `S180` and `S90` here.
///
/// # Errors
/// [`Error::Inconsistent`] when the counts do not divide into whole
/// classes, which means `total` (or a symmetric search) is wrong;
/// [`Error::BoardSize`] when `n` is not in `1..=32`.
pub fn unique(n: u32, total: u128) -> Result<Unique, Error> {
    if !(1..=MAX_N).contains(&n) {
        return Err(Error::board_size(n, "the symmetric searches", 1, MAX_N));
    }
    let half_turn = count_half_turn_symmetric(n);
    let quarter_turn = count_quarter_turn_symmetric(n);
    let wrong = Error::Inconsistent {
        n,
        total,
        half_turn,
        quarter_turn,
    };
    if n == 1 {
        // One board, fixed by all eight transforms: one class of one.
        return if total == 1 {
            Ok(Unique {
                total,
                half_turn,
                quarter_turn,
                unique: 1,
                classes: Classes {
                    rotation_90: 1,
                    ..Classes::default()
                },
            })
        } else {
            Err(wrong)
        };
    }
    let whole = |num: u128, den: u128| num.is_multiple_of(den).then_some(num / den);
    let classes = (|| {
        Some(Classes {
            none: whole(total.checked_sub(half_turn)?, 8)?,
            rotation_180: whole(half_turn.checked_sub(quarter_turn)?, 4)?,
            rotation_90: whole(quarter_turn, 2)?,
        })
    })()
    .ok_or(wrong)?;
    Ok(Unique {
        total,
        half_turn,
        quarter_turn,
        unique: classes.total(),
        classes,
    })
}

/// Attacks on the whole board in absolute coordinates, for searches that do
/// not fill rows in order. Diagonal `r + c` is bit `r + c` of `sums`;
/// diagonal `c - r` is bit `c - r + n - 1` of `diffs` (both `< 2n - 1 <= 63`).
#[derive(Clone, Copy)]
struct Board {
    n: u32,
    full: u32,
    rows: u32,
    cols: u32,
    sums: u64,
    diffs: u64,
}

impl Board {
    fn new(n: u32) -> Self {
        Self {
            n,
            full: full_mask(n),
            rows: 0,
            cols: 0,
            sums: 0,
            diffs: 0,
        }
    }

    /// The squares of row `r` that no queen attacks (empty if the row is
    /// taken). The shifts line each diagonal mask up with the row's columns.
    fn free(&self, r: u32) -> u32 {
        if self.rows >> r & 1 == 1 {
            return 0;
        }
        let by_sum = (self.sums >> r) as u32;
        let by_diff = (self.diffs >> (self.n - 1 - r)) as u32;
        self.full & !(self.cols | by_sum | by_diff)
    }

    /// Places a queen at `(r, c)` if no queen attacks it.
    fn place(&mut self, r: u32, c: u32) -> bool {
        if self.free(r) >> c & 1 == 0 {
            return false;
        }
        self.rows |= 1 << r;
        self.cols |= 1 << c;
        self.sums |= 1 << (r + c);
        self.diffs |= 1 << (c + self.n - 1 - r);
        true
    }
}

/// S180: the solutions unchanged by a half turn.
///
/// A queen at `(r, c)` forces one at `(n - 1 - r, n - 1 - c)`, so the top
/// half of the rows is searched and each queen placed with its partner; on
/// an odd board the middle square is its own partner and must hold a queen.
#[must_use]
pub fn count_half_turn_symmetric(n: u32) -> u128 {
    let mut board = Board::new(n);
    if n % 2 == 1 && !board.place(n / 2, n / 2) {
        return 0;
    }
    half_turn_rows(board, 0)
}

fn half_turn_rows(board: Board, r: u32) -> u128 {
    let n = board.n;
    if r == n / 2 {
        return 1;
    }
    let mut count = 0;
    let mut open = board.free(r);
    while open != 0 {
        let bit = lowest_bit(open);
        open ^= bit;
        let c = bit.trailing_zeros();
        let mut next = board;
        if next.place(r, c) && next.place(n - 1 - r, n - 1 - c) {
            count += half_turn_rows(next, r + 1);
        }
    }
    count
}

/// S90: the solutions unchanged by a quarter turn.
///
/// A queen at `(r, c)` forces the three others of its orbit, `(c, n-1-r)`,
/// `(n-1-r, n-1-c)` and `(n-1-c, r)`: queens come in fours, plus the centre
/// on an odd board, so only `n = 4k` and `n = 4k + 1` have any. The search
/// fills the first empty row of the top half with each possible four.
#[must_use]
pub fn count_quarter_turn_symmetric(n: u32) -> u128 {
    if n % 4 > 1 {
        return 0;
    }
    let mut board = Board::new(n);
    if n % 2 == 1 && !board.place(n / 2, n / 2) {
        return 0;
    }
    quarter_turn_rows(board)
}

fn quarter_turn_rows(board: Board) -> u128 {
    let n = board.n;
    let top = (1u32 << (n / 2)) - 1;
    let empty_top = top & !board.rows;
    if empty_top == 0 {
        return 1;
    }
    let r = empty_top.trailing_zeros();
    let mut count = 0;
    let mut open = board.free(r);
    while open != 0 {
        let bit = lowest_bit(open);
        open ^= bit;
        let c = bit.trailing_zeros();
        let mut next = board;
        if next.place(r, c)
            && next.place(c, n - 1 - r)
            && next.place(n - 1 - r, n - 1 - c)
            && next.place(n - 1 - c, r)
        {
            count += quarter_turn_rows(next);
        }
    }
    count
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn eight_queens_has_twelve_classes() {
        let u = unique(8, 92).unwrap();
        assert_eq!((u.unique, u.half_turn, u.quarter_turn), (12, 4, 0));
        assert_eq!(
            u.classes,
            Classes {
                none: 11,
                rotation_180: 1,
                rotation_90: 0
            }
        );
    }

    #[test]
    fn four_queens_is_one_class_of_two() {
        let u = unique(4, 2).unwrap();
        assert_eq!(u.unique, 1);
        assert_eq!(u.classes.rotation_90, 1);
    }

    #[test]
    fn a_wrong_total_is_caught() {
        // n = 8 has S180 = 4 and S90 = 0: 92 + 4 divides by 8, 93 + 4 and
        // 2 + 4 do not.
        for (n, total) in [(8, 93), (8, 2), (1, 0)] {
            let wrong = unique(n, total).unwrap_err();
            assert!(
                matches!(wrong, Error::Inconsistent { n: m, total: t, .. } if (m, t) == (n, total)),
                "{wrong:?}"
            );
        }
        let wrong = unique(8, 93).unwrap_err();
        assert!(matches!(
            wrong,
            Error::Inconsistent {
                half_turn: 4,
                quarter_turn: 0,
                ..
            }
        ));
        assert!(wrong.to_string().contains("93"), "{wrong}");
        assert!(matches!(unique(33, 1), Err(Error::BoardSize { n: 33, .. })));
    }

    #[test]
    fn boards_without_solutions_have_no_classes() {
        for n in [2, 3] {
            assert_eq!(unique(n, 0).unwrap().unique, 0);
        }
    }
}
