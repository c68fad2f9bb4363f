//! The bitmask kernel: counts the ways to finish a partial placement.
//!
//! Rows are filled top to bottom, one queen per row. The squares of the next
//! row that are attacked from above are three bitmasks, bit `i` = column `i`:
//!
//! ```text
//!            column:  0 1 2 3 4 5 6 7        bit i = column i
//!   row r            . . . Q . . . .        queen at column 3
//!   row r+1  cols    . . . x . . . .        same column, does not move
//!            diag    . . . . x . . . <<1    '\' diagonal: one column right per row
//!            anti    . . x . . . . . >>1    '/' diagonal: one column left per row
//! ```
//!
//! `free = !(cols | diag | anti) & full` are the squares open in the next
//! row; the kernel takes them lowest bit first. Bits shifted past column
//! `n - 1` by `diag` are cut by `full`; bits shifted below column 0 by `anti`
//! fall off the word.
//!
//! The search is an iterative depth-first walk with an explicit stack of
//! fixed size: the kernel never allocates, never prints and never fails. It
//! is exact for every `n` in `1..=32` (a `u32` holds a row) and counts in
//! `u128`, which no board this side of the heat death can overflow.

use crate::cpu::Features;

/// The largest board the library counts (every engine, and the GPU): the
/// kernel holds a row in a `u32` bitmask.
pub const MAX_N: u32 = 32;

/// The squares attacked in the next row to fill, as three column masks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Masks {
    /// Columns holding a queen.
    pub cols: u32,
    /// Squares on a `\` diagonal of a queen above (shift left each row).
    pub diag: u32,
    /// Squares on a `/` diagonal of a queen above (shift right each row).
    pub anti: u32,
}

impl Masks {
    /// The state of an empty board, before row 0.
    pub const EMPTY: Self = Self {
        cols: 0,
        diag: 0,
        anti: 0,
    };

    /// The state after placing a queen at `bit` (a single set bit) in the row
    /// these masks describe: the masks of the row below.
    #[inline]
    #[must_use]
    pub const fn place(self, bit: u32) -> Self {
        Self {
            cols: self.cols | bit,
            diag: (self.diag | bit) << 1,
            anti: (self.anti | bit) >> 1,
        }
    }

    /// The open squares of this row on an `n`-board whose row mask is `full`.
    #[inline]
    #[must_use]
    pub const fn free(self, full: u32) -> u32 {
        !(self.cols | self.diag | self.anti) & full
    }
}

/// The mask of the `n` columns of a row: bits `0..n` set.
///
/// Contract: `1 <= n <= 32` (written so that `n = 32` does not overflow a
/// shift).
#[inline]
#[must_use]
pub const fn full_mask(n: u32) -> u32 {
    debug_assert!(n >= 1 && n <= MAX_N);
    u32::MAX >> (MAX_N - n)
}

/// The lowest set bit of `x` (0 when `x` is 0): in two's complement `-x`
/// flips every bit above the lowest one, so the AND keeps that bit alone.
#[inline]
#[must_use]
pub const fn lowest_bit(x: u32) -> u32 {
    x & x.wrapping_neg()
}

/// One level of the explicit stack: a row's masks and the columns of that
/// row still to try.
#[derive(Clone, Copy, Default)]
struct Frame {
    masks: Masks,
    untried: u32,
}

/// Counts the ways to complete a placement whose first `row` rows are filled
/// and whose attacks on row `row` are `start`.
///
/// `row == n` means the placement is complete: that is one way. The count is
/// unweighted: symmetry weights are the caller's business.
///
/// The binary is built for baseline x86-64; where the CPU has BMI1 and
/// POPCNT (x86-64-v3), the same code compiled with them runs instead:
/// `blsi`/`blsr` take and clear the lowest bit in one instruction each.
/// Measured at n = 16 on one thread: 6-17% faster (median 8%).
#[must_use]
pub fn count_completions(n: u32, row: u32, start: Masks) -> u128 {
    count_completions_on(Features::detect(), n, row, start)
}

/// [`count_completions`] with the loop `features` allow.
#[must_use]
pub(crate) fn count_completions_on(features: Features, n: u32, row: u32, start: Masks) -> u128 {
    #[cfg(target_arch = "x86_64")]
    if features.bit_instructions() {
        // SAFETY: `features.bit_instructions()` is true only where the CPU has
        // every feature `count_completions_bmi` enables (see `crate::cpu`).
        #[allow(unsafe_code)]
        return unsafe { count_completions_bmi(n, row, start) };
    }
    let _ = features;
    count_completions_portable(n, row, start)
}

/// The kernel's code path under `features`, for reports.
pub(crate) fn path(features: Features) -> &'static str {
    if cfg!(target_arch = "x86_64") && features.bit_instructions() {
        return "bmi1+popcnt";
    }
    "portable"
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi1,bmi2,popcnt,lzcnt")]
fn count_completions_bmi(n: u32, row: u32, start: Masks) -> u128 {
    count_completions_portable(n, row, start)
}

/// [`count_completions`] in plain code, whatever the CPU: tests call it to
/// pin the fallback.
#[doc(hidden)]
#[inline(always)]
#[must_use]
pub fn count_completions_portable(n: u32, row: u32, start: Masks) -> u128 {
    debug_assert!((1..=MAX_N).contains(&n) && row <= n);
    let full = full_mask(n);
    let rows_left = n - row;
    if rows_left == 0 {
        return 1;
    }
    let first = start.free(full);
    if rows_left == 1 {
        return u128::from(first.count_ones());
    }

    // The last three rows are finished without a loop (see
    // `count_last_three_rows`): measured at n = 16 on one thread, 3.46 s with
    // a loop per row, 3.00 s this way; finishing four rows so costs 5.48 s.
    if rows_left == 2 {
        return u128::from(count_last_two_rows(start, first, full));
    }
    if rows_left == 3 {
        return u128::from(count_last_three_rows(start, first, full));
    }
    // `depth` counts the rows entered below `row`; at `last_parent` the row
    // below is row `n - 3`, finished directly.
    let last_parent = (rows_left - 3) as usize;
    let mut stack = [Frame::default(); MAX_N as usize];
    let mut depth = 0usize;
    let mut here = Frame {
        masks: start,
        untried: first,
    };
    // A u64 cannot wrap here: it grows by at most one per loop turn, and
    // 2^64 turns take centuries. Totals across units are summed in u128.
    let mut count: u64 = 0;
    loop {
        if here.untried == 0 {
            if depth == 0 {
                return u128::from(count);
            }
            depth -= 1;
            here = stack[depth % STACK];
            continue;
        }
        let bit = lowest_bit(here.untried);
        here.untried ^= bit;
        debug_assert_eq!(
            bit & !here.masks.free(full),
            0,
            "placed on an attacked square"
        );
        let below = here.masks.place(bit);
        let open = below.free(full);
        if depth + 1 == last_parent {
            count += count_last_three_rows(below, open, full);
        } else {
            // A child with no open square is pushed anyway and popped at
            // once: one unpredictable branch instead of two (3% at n = 16).
            // `% STACK` is free (STACK is a power of two) and lets the
            // compiler drop the bounds check; depth < n <= STACK anyway.
            stack[depth % STACK] = here;
            depth += 1;
            here = Frame {
                masks: below,
                untried: open,
            };
            debug_assert_eq!(here.masks.cols.count_ones() as usize, row as usize + depth);
        }
    }
}

const STACK: usize = MAX_N as usize;

/// Counts the boards finished from row `n - 2`, whose attacks are `masks`
/// and whose open squares are `open`.
///
/// Exactly two columns are still empty, `a` and `b`, so there are only two
/// ways to finish: `a` then `b`, or `b` then `a`. Testing both without a
/// loop spares the branch mispredictions of walking `open` bit by bit.
#[inline(always)]
fn count_last_two_rows(masks: Masks, open: u32, full: u32) -> u64 {
    last_two_allowed(masks, open, full, full)
}

/// Counts the boards finished from row `n - 3`: three columns are empty,
/// and each that is open here is tried as the row's queen, with the last
/// two rows finished by [`count_last_two_rows`]; no loop, no branch.
#[inline(always)]
fn count_last_three_rows(masks: Masks, open: u32, full: u32) -> u64 {
    last_three_allowed(masks, open, full, full, full)
}

/// The columns each row's queen may take whatever the rows above hold,
/// `allowed[r]` for row `r`: what queens fixed in advance (anywhere on the
/// board, below the rows searched as well as above) leave open. A row whose
/// queen is fixed allows that one column.
pub(crate) type RowMasks = [u32; MAX_N as usize];

/// Counts the ways to fill rows `row..end` of an `n`-board, whose attacks
/// on row `row` are `start` and whose rows take their queen only where
/// `allowed` says: the kernel of the constellations engine, whose units fix
/// queens on the bottom row and on the two side columns before the search
/// starts. The rows from `end` on must be placed already, their columns in
/// `start.cols`: exactly `end - row` columns are empty.
///
/// The same walk as [`count_completions`], with one more mask a row: the
/// squares attacked from below are known in advance, so they are looked
/// up rather than carried. Unweighted, as that one is.
///
/// The constellations engine ends at `end = n - 1`, with the bottom
/// queen's column in `start.cols`, rather than searching the bottom row as
/// a row that allows one column: the last three rows searched, finished
/// without a loop, are then three free rows rather than two and the fixed
/// one. Measured at n = 16 on one thread, the two side by side
/// (`benches/pairs.sh`, 5 rounds): the first way takes 0.88 times the
/// time of the second.
#[must_use]
pub(crate) fn count_allowed_on(
    features: Features,
    n: u32,
    (row, end): (u32, u32),
    start: Masks,
    allowed: &RowMasks,
) -> u128 {
    #[cfg(target_arch = "x86_64")]
    if features.bit_instructions() {
        // SAFETY: `features.bit_instructions()` is true only where the CPU has
        // every feature `count_allowed_bmi` enables (see `crate::cpu`).
        #[allow(unsafe_code)]
        return unsafe { count_allowed_bmi(n, (row, end), start, allowed) };
    }
    let _ = features;
    count_allowed_portable(n, (row, end), start, allowed)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi1,bmi2,popcnt,lzcnt")]
fn count_allowed_bmi(n: u32, rows: (u32, u32), start: Masks, allowed: &RowMasks) -> u128 {
    count_allowed_portable(n, rows, start, allowed)
}

/// [`count_allowed_on`] in plain code, whatever the CPU.
#[inline(always)]
pub(crate) fn count_allowed_portable(
    n: u32,
    (row, end): (u32, u32),
    start: Masks,
    allowed: &RowMasks,
) -> u128 {
    debug_assert!((1..=MAX_N).contains(&n) && row <= end && end <= n);
    debug_assert_eq!((full_mask(n) & !start.cols).count_ones(), end - row);
    let full = full_mask(n);
    let rows_left = end - row;
    if rows_left == 0 {
        return 1;
    }
    // The rows from `row` on, so that depth `d` reads `rows[d]`; `% STACK`
    // below lets the compiler drop the bounds check (d < n <= STACK).
    let mut rows = [0u32; STACK];
    rows[..rows_left as usize].copy_from_slice(&allowed[row as usize..end as usize]);
    // (A single row has no second-last; it never reads it.)
    let second_last = allowed[(end as usize).saturating_sub(2)];
    let last = allowed[end as usize - 1];
    let first = start.free(full) & rows[0];
    if rows_left == 1 {
        return u128::from(first.count_ones());
    }
    if rows_left == 2 {
        return u128::from(last_two_allowed(start, first, full, last));
    }
    if rows_left == 3 {
        return u128::from(last_three_allowed(start, first, full, second_last, last));
    }
    let last_parent = (rows_left - 3) as usize;
    let mut stack = [Frame::default(); MAX_N as usize];
    let mut depth = 0usize;
    let mut here = Frame {
        masks: start,
        untried: first,
    };
    let mut count: u64 = 0;
    loop {
        if here.untried == 0 {
            if depth == 0 {
                return u128::from(count);
            }
            depth -= 1;
            here = stack[depth % STACK];
            continue;
        }
        let bit = lowest_bit(here.untried);
        here.untried ^= bit;
        let below = here.masks.place(bit);
        let open = below.free(full) & rows[(depth + 1) % STACK];
        if depth + 1 == last_parent {
            count += last_three_allowed(below, open, full, second_last, last);
        } else {
            stack[depth % STACK] = here;
            depth += 1;
            here = Frame {
                masks: below,
                untried: open,
            };
        }
    }
}

/// [`count_last_two_rows`] where the last row allows only `last`.
#[inline(always)]
fn last_two_allowed(masks: Masks, open: u32, full: u32, last: u32) -> u64 {
    let empty = full & !masks.cols;
    debug_assert_eq!(empty.count_ones(), 2);
    let a = lowest_bit(empty);
    let b = empty ^ a;
    let a_then_b = (open & a != 0) & (masks.place(a).free(full) & last & b != 0);
    let b_then_a = (open & b != 0) & (masks.place(b).free(full) & last & a != 0);
    u64::from(a_then_b) + u64::from(b_then_a)
}

/// [`count_last_three_rows`] where the last two rows allow only
/// `second_last` and `last`.
#[inline(always)]
fn last_three_allowed(masks: Masks, open: u32, full: u32, second_last: u32, last: u32) -> u64 {
    let empty = full & !masks.cols;
    debug_assert_eq!(empty.count_ones(), 3);
    let a = lowest_bit(empty);
    let b = lowest_bit(empty ^ a);
    let c = empty ^ a ^ b;
    [a, b, c]
        .into_iter()
        .map(|x| {
            let below = masks.place(x);
            let ways = last_two_allowed(below, below.free(full) & second_last, full, last);
            ways & u64::from(open & x != 0).wrapping_neg()
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lowest_bit_isolates_the_lowest_set_bit() {
        assert_eq!(lowest_bit(0), 0);
        assert_eq!(lowest_bit(0b1011_0100), 0b100);
        assert_eq!(lowest_bit(1 << 31), 1 << 31);
    }

    #[test]
    fn full_mask_covers_exactly_n_columns() {
        assert_eq!(full_mask(1), 1);
        assert_eq!(full_mask(8), 0xff);
        assert_eq!(full_mask(32), u32::MAX);
    }

    #[test]
    fn placing_a_queen_shifts_the_diagonals_apart() {
        let below = Masks::EMPTY.place(1 << 3);
        assert_eq!(below.cols, 1 << 3);
        assert_eq!(below.diag, 1 << 4);
        assert_eq!(below.anti, 1 << 2);
        assert_eq!(below.free(0xff), 0xff & !(0b11100));
    }

    #[test]
    fn whole_board_counts_from_the_empty_state() {
        let expect = [1u128, 0, 0, 2, 10, 4, 40, 92, 352, 724];
        for (n, want) in (1..=10).zip(expect) {
            assert_eq!(count_completions(n, 0, Masks::EMPTY), want, "n = {n}");
        }
    }

    #[test]
    fn the_portable_kernel_counts_the_same() {
        for n in 1..=11 {
            assert_eq!(
                count_completions_portable(n, 0, Masks::EMPTY),
                count_completions(n, 0, Masks::EMPTY),
                "n = {n}"
            );
        }
    }

    #[test]
    fn rows_that_allow_everything_count_as_the_plain_kernel() {
        for n in 1..=11 {
            let allowed = [full_mask(n); MAX_N as usize];
            for row in 0..n.min(2) {
                let start = if row == 0 {
                    Masks::EMPTY
                } else {
                    Masks::EMPTY.place(1)
                };
                assert_eq!(
                    count_allowed_portable(n, (row, n), start, &allowed),
                    count_completions(n, row, start),
                    "n = {n}, row {row}"
                );
            }
        }
    }

    #[test]
    fn fixing_one_row_in_each_way_partitions_the_solutions() {
        // Every solution has its row-r queen in exactly one column, so
        // fixing row r to each column in turn must add up to the total.
        for n in 4..=10 {
            let total = count_completions(n, 0, Masks::EMPTY);
            for r in [1, n / 2, n - 1] {
                let split: u128 = (0..n)
                    .map(|c| {
                        let mut allowed = [full_mask(n); MAX_N as usize];
                        allowed[r as usize] = 1 << c;
                        count_allowed_portable(n, (0, n), Masks::EMPTY, &allowed)
                    })
                    .sum();
                assert_eq!(split, total, "n = {n}, row {r}");
            }
        }
    }

    #[test]
    fn a_complete_placement_counts_once() {
        // 4-queens solution .Q.. / ...Q / Q... / ..Q. placed row by row.
        let m = [1u32, 3, 0, 2]
            .iter()
            .fold(Masks::EMPTY, |m, &c| m.place(1 << c));
        assert_eq!(count_completions(4, 4, m), 1);
    }
}
