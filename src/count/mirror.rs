//! The mirror engine's plan: the backtracking search split into independent
//! work units on its first rows.
//!
//! A unit is a placement of the first `split_depth` rows, with the masks it
//! leaves on the next row and a weight. Mirror symmetry halves the work: a
//! board and its left-right mirror image are both solutions, so only queens
//! in the left half of row 0 are searched, and each unit counts twice.
//!
//! Odd `n` has a middle column that is its own mirror image. With the row-0
//! queen there, a solution's mirror has the row-1 queen on the other side of
//! the middle (it can never sit in the middle column itself), so only the
//! left half of row 1 is searched, again with weight 2. Those units always
//! fix two rows, even at split depth 1, because the restriction lives in row
//! 1. The only weight-1 unit is the single queen of `n = 1`.
//!
//! Units are plain values, numbered in lexicographic order of their columns:
//! the id of a unit is stable for a given `n` and split depth, and its
//! descriptor (`rows:3,7,0`, the fixed columns row by row) is enough for
//! another program to rebuild it. Each carries a cost estimate, the size of
//! its search tree estimated by random walks ([`probe_cost`]). This module enumerates
//! and estimates; counting a unit is one call of the kernel.

use std::fmt::Write;

use super::cost::{costs, probe_cost, seed_of};
use super::pieces::count_in_pieces;
use crate::cpu::Features;
use crate::kernel::{Masks, count_completions_on, full_mask, lowest_bit};

/// The deepest split the engines accept.
pub const MAX_SPLIT_DEPTH: u32 = 6;

/// The default split: rows 0 and 1. At n = 16 that makes 105 units, plenty
/// for a few threads to balance.
pub const DEFAULT_SPLIT_DEPTH: u32 = 2;

/// One independent piece of the search.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct WorkUnit {
    /// Position in the enumeration order (0-based), stable for `(n, split)`.
    pub id: u32,
    /// How many solutions each completion stands for: 2 when the unit's
    /// mirror image is not searched, 1 otherwise.
    pub weight: u8,
    /// How many rows this unit fixes (also the first row left to search).
    pub rows: u32,
    /// The column of the queen in each fixed row; entries `rows..` are 0.
    pub columns: [u8; MAX_SPLIT_DEPTH as usize],
    /// The attacks on row `rows`.
    pub masks: Masks,
    /// Estimated work: see [`probe_cost`].
    pub cost: u64,
}

impl WorkUnit {
    /// The column of the row-0 queen.
    #[cfg(test)]
    #[must_use]
    pub fn first_column(&self) -> u32 {
        u32::from(self.columns[0])
    }

    /// The fixed columns, row by row.
    #[must_use]
    pub fn prefix(&self) -> &[u8] {
        &self.columns[..self.rows as usize]
    }

    /// The text another program rebuilds the unit from: `rows:` and the
    /// fixed columns, 0-based, row 0 first (`rows:3,7,0`).
    #[must_use]
    pub fn descriptor(&self) -> String {
        let mut text = String::from("rows:");
        for (i, c) in self.prefix().iter().enumerate() {
            let comma = if i == 0 { "" } else { "," };
            write!(text, "{comma}{c}").expect("writing to a String cannot fail");
        }
        text
    }

    /// The unit's contribution to the total of an `n`-board: its
    /// completions times its weight, with the kernel `features` allow,
    /// counted in pieces with `stop()` read between two
    /// ([`super::pieces`]); `None` when it said stop.
    pub(crate) fn count_unless(
        &self,
        n: u32,
        features: Features,
        stop: &dyn Fn() -> bool,
    ) -> Option<u128> {
        let full = full_mask(n);
        let completions = count_in_pieces(
            n,
            (self.rows, n),
            self.masks,
            &|_| full,
            stop,
            &mut |row, masks| count_completions_on(features, n, row, masks),
        )?;
        Some(completions * u128::from(self.weight))
    }
}

/// Random walks per plan, shared among its units: 1024 a unit for the
/// default split (about 10 ms at n = 17), fewer for deep splits with tens
/// of thousands of units. 1024 walks a unit gave Pearson's r = 0.84 between
/// cost and time at n = 17; 256 gave 0.77.
const WALKS_PER_PLAN: usize = 1 << 18;

/// Every work unit for an `n`-board split on its first `split_depth` rows,
/// after the mirror restriction, in lexicographic order of their columns.
///
/// Contract: `1 <= n <= 32` and `1 <= split_depth <= MAX_SPLIT_DEPTH`
/// (checked by the engines). A split deeper than the board stops at row `n`.
/// Placements that leave no open square before the split are dropped: they
/// count nothing.
#[must_use]
pub(crate) fn work_units(n: u32, split_depth: u32) -> Vec<WorkUnit> {
    debug_assert!((1..=crate::kernel::MAX_N).contains(&n));
    debug_assert!((1..=MAX_SPLIT_DEPTH).contains(&split_depth));
    let full = full_mask(n);
    let half = n / 2;
    let left_half = (1u32 << half) - 1;
    // Exactly as many as there will be: a vector that doubles as it grows
    // held up to three times the units' bytes at n = 32, split depth 6.
    let mut out = Vec::with_capacity(unit_count(n, split_depth));
    let mut prefix = Builder {
        n,
        full,
        depth: split_depth.min(n),
        columns: [0; MAX_SPLIT_DEPTH as usize],
        out: &mut out,
    };

    // Row 0, left half: each unit stands for itself and its mirror image.
    prefix.expand(0, Masks::EMPTY, left_half, 2);

    if n % 2 == 1 {
        let middle = 1u32 << half;
        prefix.columns[0] = half as u8;
        let below = Masks::EMPTY.place(middle);
        if n == 1 {
            prefix.emit(1, below, 1);
        } else {
            // Row 1 left of the middle only; the mirror covers the right.
            let depth = prefix.depth.max(2);
            prefix.depth = depth;
            prefix.expand(1, below, below.free(full) & left_half, 2);
        }
    }
    let walks = (WALKS_PER_PLAN / out.len().max(1)).clamp(32, 1024) as u32;
    let trees: Vec<f64> = out
        .iter()
        .map(|unit| probe_cost(n, unit.rows, unit.masks, walks, seed_of(unit.prefix())))
        .collect();
    for (unit, cost) in out.iter_mut().zip(costs(&trees)) {
        unit.cost = cost;
    }
    out
}

/// How many units [`work_units`] makes, counted without making them.
#[must_use]
pub(crate) fn unit_count(n: u32, split_depth: u32) -> usize {
    let full = full_mask(n);
    let half = n / 2;
    let left_half = (1u32 << half) - 1;
    let depth = split_depth.min(n);
    let mut units = prefixes(full, 0, depth, Masks::EMPTY, left_half);
    if n == 1 {
        units += 1;
    } else if n % 2 == 1 {
        let below = Masks::EMPTY.place(1 << half);
        units += prefixes(full, 1, depth.max(2), below, below.free(full) & left_half);
    }
    units
}

/// How many placements of rows `row..depth` there are below `masks`, the
/// queen of row `row` in `allowed`: the last row's are counted, not placed.
fn prefixes(full: u32, row: u32, depth: u32, masks: Masks, allowed: u32) -> usize {
    let mut untried = allowed & masks.free(full);
    if row + 1 == depth {
        return untried.count_ones() as usize;
    }
    let mut total = 0;
    while untried != 0 {
        let bit = lowest_bit(untried);
        untried ^= bit;
        total += prefixes(full, row + 1, depth, masks.place(bit), full);
    }
    total
}

/// Depth-first enumeration of prefixes, in column order.
struct Builder<'a> {
    n: u32,
    full: u32,
    depth: u32,
    columns: [u8; MAX_SPLIT_DEPTH as usize],
    out: &'a mut Vec<WorkUnit>,
}

impl Builder<'_> {
    /// Tries each column of `allowed` in row `row` (whose attacks are
    /// `masks`), recursing until `self.depth` rows are fixed.
    fn expand(&mut self, row: u32, masks: Masks, allowed: u32, weight: u8) {
        let mut untried = allowed & masks.free(self.full);
        while untried != 0 {
            let bit = lowest_bit(untried);
            untried ^= bit;
            self.columns[row as usize] = bit.trailing_zeros() as u8;
            let below = masks.place(bit);
            if row + 1 == self.depth {
                self.emit(row + 1, below, weight);
            } else {
                self.expand(row + 1, below, below.free(self.full), weight);
            }
        }
    }

    fn emit(&mut self, rows: u32, masks: Masks, weight: u8) {
        let mut columns = [0; MAX_SPLIT_DEPTH as usize];
        columns[..rows as usize].copy_from_slice(&self.columns[..rows as usize]);
        debug_assert!(rows <= self.n);
        self.out.push(WorkUnit {
            id: u32::try_from(self.out.len()).expect("fewer than 2^32 units"),
            weight,
            rows,
            columns,
            masks,
            cost: 0,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn even_board_splits_on_the_left_half_of_row_zero() {
        let units = work_units(4, 1);
        let firsts: Vec<_> = units.iter().map(WorkUnit::first_column).collect();
        assert_eq!(firsts, [0, 1]);
        assert!(units.iter().all(|u| u.weight == 2 && u.rows == 1));
    }

    #[test]
    fn odd_board_fixes_two_rows_for_the_middle_column() {
        // n = 5, depth 1: columns 0 and 1 of row 0, then the middle (2) with
        // row 1 restricted to the left half and clear of the diagonals: 0.
        let units = work_units(5, 1);
        let prefixes: Vec<_> = units.iter().map(|u| u.prefix().to_vec()).collect();
        assert_eq!(prefixes, [vec![0], vec![1], vec![2, 0]]);
        assert!(units.iter().all(|u| u.weight == 2));
    }

    #[test]
    fn ids_follow_lexicographic_order() {
        let units = work_units(9, 3);
        for (i, u) in units.iter().enumerate() {
            assert_eq!(u.id as usize, i);
        }
        for pair in units.windows(2) {
            assert!(pair[0].prefix() < pair[1].prefix());
        }
    }

    #[test]
    fn the_one_queen_board_has_one_unit_of_weight_one() {
        let units = work_units(1, 2);
        assert_eq!(units.len(), 1);
        assert_eq!((units[0].weight, units[0].rows), (1, 1));
    }

    #[test]
    fn split_deeper_than_the_board_stops_at_the_last_row() {
        // n = 3 has no placement of all its rows, so a board with
        // solutions: n = 4 split on 6 rows fixes all 4 of them.
        assert!(work_units(3, 6).is_empty());
        let units = work_units(4, 6);
        assert_eq!(units.len(), 1, "one solution with row 0 in the left half");
        assert!(units.iter().all(|u| u.rows == 4));
    }

    #[test]
    fn units_are_counted_without_making_them() {
        for n in 1..=13 {
            for depth in 1..=MAX_SPLIT_DEPTH {
                let units = work_units(n, depth);
                assert_eq!(unit_count(n, depth), units.len(), "n = {n}, depth {depth}");
                assert_eq!(units.capacity(), units.len(), "n = {n}, depth {depth}");
            }
        }
    }

    #[test]
    fn descriptors_list_the_fixed_columns() {
        let units = work_units(5, 1);
        let texts: Vec<_> = units.iter().map(WorkUnit::descriptor).collect();
        assert_eq!(texts, ["rows:0", "rows:1", "rows:2,0"]);
    }

    /// The exact size of the search tree below a unit that fixes `rows`
    /// rows and leaves `masks` on the next, its root included: what
    /// [`probe_cost`] estimates.
    fn tree_size(n: u32, rows: u32, masks: Masks) -> u64 {
        let mut size = 1;
        let mut open = if rows < n {
            masks.free(full_mask(n))
        } else {
            0
        };
        while open != 0 {
            let bit = lowest_bit(open);
            open ^= bit;
            size += tree_size(n, rows + 1, masks.place(bit));
        }
        size
    }

    #[test]
    fn costs_estimate_the_tree_below_each_unit() {
        // Each cost is near its unit's true tree size (within 5% here: the
        // walks are seeded, so this holds on every run), so a unit with the
        // bigger tree has the bigger cost.
        let n = 10;
        let units = work_units(n, 2);
        let sizes: Vec<u64> = units
            .iter()
            .map(|u| tree_size(n, u.rows, u.masks))
            .collect();
        for (unit, &size) in units.iter().zip(&sizes) {
            let ratio = unit.cost as f64 / size as f64;
            assert!(
                (0.85..=1.15).contains(&ratio),
                "unit {}: cost {} for a tree of {size}",
                unit.id,
                unit.cost
            );
        }
        let (smallest, largest) = (
            (0..units.len()).min_by_key(|&i| sizes[i]).unwrap(),
            (0..units.len()).max_by_key(|&i| sizes[i]).unwrap(),
        );
        assert!(2 * sizes[largest] > 3 * sizes[smallest], "{sizes:?}");
        assert!(units[largest].cost > units[smallest].cost);
    }

    #[test]
    fn costs_are_exact_where_there_is_one_path() {
        assert_eq!(
            probe_cost(4, 4, Masks::EMPTY, 16, 7),
            1.0,
            "nothing below a full board"
        );
        // One open square in each of rows 2 and 3: every walk follows the
        // one path of 3 nodes.
        let path = Masks::EMPTY.place(1 << 1).place(1 << 3);
        assert_eq!(tree_size(4, 2, path), 3);
        assert_eq!(probe_cost(4, 2, path, 16, 7), 3.0);
    }
}
