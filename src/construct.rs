//! One solution for any board size, by formula: no search.
//!
//! The classic explicit construction (after Hoffman, Loessi and Moore, 1969)
//! writes the rows as a list of 1-based columns: the even numbers
//! `2, 4, ...` followed by the odd numbers `1, 3, ...`. That list is a
//! solution unless `n mod 6` is 2 or 3, where two small repairs fix the
//! clashes near the ends:
//!
//! ```text
//! n mod 6 = 2:  evens 2 4 6 ... ;  odds 3 1 7 9 11 ... 5     (swap 1 and 3, 5 last)
//! n mod 6 = 3:  evens 4 6 ... 2 ;  odds 5 7 9 ... 1 3        (2 last, then 1 and 3 last)
//! otherwise:    evens 2 4 6 ... ;  odds 1 3 5 ...
//!
//! n = 8:  2 4 6 8 3 1 7 5        . Q . . . . . .
//!                                . . . Q . . . .
//!                                . . . . . Q . .
//!                                . . . . . . . Q
//!                                . . Q . . . . .
//!                                Q . . . . . . .
//!                                . . . . . . Q .
//!                                . . . . Q . . .
//! ```
//!
//! Each entry depends only on its position, so [`Construction`] computes
//! the column of any row in O(1): a board of a billion rows streams out in
//! O(n) time and O(1) memory. The tests check every board from 4 to 5000 and
//! a set of large ones, of every residue mod 12, with the O(n) checker of
//! [`crate::check`]. This module only constructs; it never searches or
//! verifies.

use crate::Error;

/// The columns of one solution of the `n`-queens puzzle, row by row,
/// 0-based, computed as they are asked for.
///
/// ```
/// use queens::Construction;
///
/// let eight: Vec<u32> = Construction::new(8).unwrap().collect();
/// assert_eq!(eight, [1, 3, 5, 7, 2, 0, 6, 4]);
/// assert!(Construction::new(3).is_err());
/// ```
#[derive(Clone, Debug)]
pub struct Construction {
    n: u32,
    next_row: u32,
}

impl Construction {
    /// The construction for `n`.
    ///
    /// # Errors
    /// [`Error::BoardSize`] for n = 0, [`Error::NoSolution`] for 2 and 3,
    /// the sizes that have no solution to construct.
    pub fn new(n: u32) -> Result<Self, Error> {
        match n {
            0 => Err(Error::board_size(0, "the construction", 1, u32::MAX)),
            2 | 3 => Err(Error::NoSolution(n)),
            _ => Ok(Self { n, next_row: 0 }),
        }
    }

    /// The board size.
    #[must_use]
    pub const fn n(&self) -> u32 {
        self.n
    }

    /// The 0-based column of the queen in `row` (which must be below `n`).
    #[must_use]
    pub const fn column(&self, row: u32) -> u32 {
        debug_assert!(row < self.n);
        // u64 throughout: `2 * (k + 2)` would overflow a u32 near n = 2^32.
        let n = self.n as u64;
        let k = row as u64;
        let evens = n / 2;
        let odds = n - evens;
        let one_based = if k < evens {
            if n % 6 == 3 {
                // 4, 6, ..., 2 * evens, then 2.
                if k + 1 < evens { 2 * (k + 2) } else { 2 }
            } else {
                2 * (k + 1)
            }
        } else {
            let j = k - evens;
            match n % 6 {
                // 3, 1, 7, 9, ..., then 5.
                2 => {
                    if j == 0 {
                        3
                    } else if j == 1 {
                        1
                    } else if j + 1 == odds {
                        5
                    } else {
                        2 * j + 3
                    }
                }
                // 5, 7, ..., then 1, 3.
                3 => {
                    if j + 2 < odds {
                        2 * j + 5
                    } else if j + 2 == odds {
                        1
                    } else {
                        3
                    }
                }
                _ => 2 * j + 1,
            }
        };
        (one_based - 1) as u32
    }
}

impl Iterator for Construction {
    type Item = u32;

    fn next(&mut self) -> Option<u32> {
        (self.next_row < self.n).then(|| {
            self.next_row += 1;
            self.column(self.next_row - 1)
        })
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = (self.n - self.next_row) as usize;
        (left, Some(left))
    }
}

impl ExactSizeIterator for Construction {}

#[cfg(test)]
mod tests {
    use super::*;

    fn one_based(n: u32) -> Vec<u32> {
        Construction::new(n).unwrap().map(|c| c + 1).collect()
    }

    #[test]
    fn lists_follow_the_three_cases() {
        assert_eq!(one_based(1), [1]);
        assert_eq!(one_based(4), [2, 4, 1, 3]);
        assert_eq!(one_based(8), [2, 4, 6, 8, 3, 1, 7, 5]);
        assert_eq!(one_based(9), [4, 6, 8, 2, 5, 7, 9, 1, 3]);
        assert_eq!(
            one_based(14),
            [2, 4, 6, 8, 10, 12, 14, 3, 1, 7, 9, 11, 13, 5]
        );
    }

    #[test]
    fn no_construction_where_there_is_no_solution() {
        for n in [0, 2, 3] {
            assert!(Construction::new(n).is_err(), "n = {n}");
        }
    }

    #[test]
    fn each_board_is_a_permutation() {
        for n in (4..=300).chain([u32::MAX / 2 + 5]) {
            if n > 1000 {
                // Spot-check the ends of a huge board for overflow.
                let c = Construction::new(n).unwrap();
                assert!([0, 1, n / 2, n - 2, n - 1].iter().all(|&r| c.column(r) < n));
                continue;
            }
            let mut cols: Vec<u32> = Construction::new(n).unwrap().collect();
            cols.sort_unstable();
            assert!(cols.iter().copied().eq(0..n), "n = {n}");
        }
    }
}
