//! A problem's plan: the completions of a board with queens given and
//! squares blocked ([`crate::Problem`]), split into units as the mirror
//! engine splits the empty board, so that a long count of a problem
//! resumes, shards and merges as any other.
//!
//! The search is the mirror engine's, with one mask of allowed columns a
//! row (the kernel's `count_allowed_on`): a row with a given queen allows
//! that column only, and every row loses the given queens' attacks and its
//! blocked squares. A unit is a placement of the first `split` rows that
//! have no given queen (with the given rows among and above them, whose
//! queens are forced), so that a problem whose top rows are given still
//! cuts into many units.
//!
//! Symmetry: where the problem keeps the mirror, the first free row takes
//! its queen in the left half only, with weight 2; its middle column (odd
//! n) has weight 1, and then the next free row is halved in turn (the
//! middle queen is its own mirror image, so the board above stays
//! symmetric and the next row cannot take the middle). Where the problem
//! keeps the flip (top to bottom) but not the mirror, the plan searches
//! its transpose, whose mirror that is; its descriptors then say `cols:`
//! (the row of the queen in each of the first columns) instead of `rows:`
//! (the column of the queen in each of the first rows). The rotations and
//! diagonal reflections are not used: they map rows onto columns and cut
//! no row-by-row search in half.
//!
//! Never here: anything that reads or writes a file; the plan's header
//! names the problem ([`crate::Problem::to_line`]) and that is all.

use std::fmt::Write as _;

use super::cost::{costs, probe_tree, seed_of};
use super::mirror::MAX_SPLIT_DEPTH;
use super::pieces::count_in_pieces;
use crate::Problem;
use crate::cpu::Features;
use crate::kernel::{Masks, RowMasks, count_allowed_on, full_mask, lowest_bit};

/// Random walks per plan, shared among its units, as the mirror engine's.
const WALKS_PER_PLAN: usize = 1 << 18;

/// The plan of a problem's completions.
pub(crate) struct CompletionPlan {
    /// The problem as given: what the plan's header names.
    problem: Problem,
    /// [`Problem::to_line`] of it, kept for the header.
    line: String,
    /// Whether the search runs on the transposed problem.
    transposed: bool,
    /// Free rows each unit places.
    split: u32,
    /// The searched problem's allowed columns, a row.
    allowed: RowMasks,
    /// Rows of the searched problem that hold a given queen (bit r).
    given_rows: u32,
    units: Vec<CompletionUnit>,
}

/// One unit: a placement of the first free rows and the given rows among
/// them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct CompletionUnit {
    /// Rows placed (given ones included): the first row left to search.
    rows: u8,
    /// The column of each placed free row's queen, in row order.
    free: [u8; MAX_SPLIT_DEPTH as usize],
    /// The attacks on row `rows`.
    masks: Masks,
    /// 2 for a unit that stands for its mirror image too, else 1.
    weight: u8,
    /// The estimated size of its search tree.
    pub(crate) cost: u64,
}

impl CompletionPlan {
    /// The plan of `problem`'s completions, each unit placing `split` free
    /// rows (fewer where the board has fewer). A problem whose given
    /// queens attack each other has no unit.
    ///
    /// Contract: `1 <= split <= MAX_SPLIT_DEPTH` (checked by the plan).
    pub(crate) fn new(problem: &Problem, split: u32) -> Self {
        let mut plan = Self::shell(problem, split);
        plan.line = problem.to_line();
        let units = plan.builder().walk();
        let n = problem.n();
        let walks = (WALKS_PER_PLAN / units.len().max(1)).clamp(32, 1024) as u32;
        let trees: Vec<f64> = units
            .iter()
            .map(|u| {
                let seed = seed_of(&u.free[..plan.free_rows(u)]);
                probe_tree(n, u32::from(u.rows), u.masks, &plan.allowed, walks, seed)
            })
            .collect();
        plan.units = units;
        for (unit, cost) in plan.units.iter_mut().zip(costs(&trees)) {
            unit.cost = cost;
        }
        plan
    }

    /// The problem, as given.
    pub(crate) fn problem(&self) -> &Problem {
        &self.problem
    }

    /// [`Problem::to_line`] of the problem.
    pub(crate) fn line(&self) -> &str {
        &self.line
    }

    /// Free rows each unit places.
    pub(crate) fn split(&self) -> u32 {
        self.split
    }

    /// The units, in id order.
    pub(crate) fn units(&self) -> &[CompletionUnit] {
        &self.units
    }

    /// The first row from `row` on without a given queen.
    fn next_free(&self, row: u32) -> Option<u32> {
        (row..self.problem.n()).find(|&r| self.given_rows & 1 << r == 0)
    }

    /// How many free rows `unit` places.
    fn free_rows(&self, unit: &CompletionUnit) -> usize {
        let placed = ((1u64 << unit.rows) - 1) as u32;
        (placed & !self.given_rows).count_ones() as usize
    }

    /// The text another program rebuilds `unit` from: `rows:` and the
    /// column of each placed row's queen (given ones included), 0-based,
    /// or `cols:` and the row of the queen in each of the first columns
    /// where the plan searches the transposed problem.
    pub(crate) fn descriptor(&self, unit: &CompletionUnit) -> String {
        let mut text = String::from(if self.transposed { "cols:" } else { "rows:" });
        let mut free = unit.free.iter();
        for row in 0..u32::from(unit.rows) {
            let col = if self.given_rows & 1 << row == 0 {
                u32::from(*free.next().expect("a free row placed by the unit"))
            } else {
                self.allowed[row as usize].trailing_zeros()
            };
            let comma = if row == 0 { "" } else { "," };
            write!(text, "{comma}{col}").expect("writing to a String cannot fail");
        }
        text
    }

    /// How many solutions each completion `unit` finds stands for.
    pub(crate) fn weight(&self, unit: &CompletionUnit) -> u32 {
        u32::from(unit.weight)
    }

    /// `unit`'s contribution to the count: its completions times its
    /// weight, counted in pieces with `stop()` read between two; `None`
    /// when it said stop.
    pub(crate) fn count_unless(
        &self,
        unit: &CompletionUnit,
        features: Features,
        stop: &dyn Fn() -> bool,
    ) -> Option<u128> {
        let n = self.problem.n();
        let allowed = &self.allowed;
        let completions = count_in_pieces(
            n,
            (u32::from(unit.rows), n),
            unit.masks,
            &|row| allowed[row as usize],
            stop,
            &mut |row, masks| count_allowed_on(features, n, (row, n), masks, allowed),
        )?;
        Some(completions * u128::from(unit.weight))
    }

    /// `unit`'s contribution counted a second way: a plain depth-first
    /// search over the allowed masks, sharing nothing with the kernel.
    pub(crate) fn count_plainly(&self, unit: &CompletionUnit) -> u128 {
        fn go(n: u32, row: u32, masks: Masks, allowed: &RowMasks) -> u128 {
            if row == n {
                return 1;
            }
            let mut open = masks.free(full_mask(n)) & allowed[row as usize];
            let mut total = 0;
            while open != 0 {
                let bit = lowest_bit(open);
                open ^= bit;
                total += go(n, row + 1, masks.place(bit), allowed);
            }
            total
        }
        let n = self.problem.n();
        go(n, u32::from(unit.rows), unit.masks, &self.allowed) * u128::from(unit.weight)
    }

    /// How many units [`CompletionPlan::new`] makes for `problem`,
    /// counted without making them (or estimating their costs).
    pub(crate) fn unit_count(problem: &Problem, split: u32) -> usize {
        Self::shell(problem, split).builder().tally()
    }

    /// The plan without its units.
    fn shell(problem: &Problem, split: u32) -> Self {
        let (searched, _) = problem.searched();
        Self {
            problem: problem.clone(),
            line: String::new(),
            transposed: searched != *problem,
            split,
            allowed: searched.row_masks(),
            given_rows: searched.given().iter().fold(0, |rows, q| rows | 1 << q.row),
            units: Vec::new(),
        }
    }

    /// The walk over the units' placements, halved on the first free row
    /// where the problem keeps a symmetry that halves it.
    fn builder(&self) -> Builder<'_> {
        let halved = self.problem.halving_symmetry().and(self.next_free(0));
        Builder {
            plan: self,
            full: full_mask(self.problem.n()),
            halved,
            free: [0; MAX_SPLIT_DEPTH as usize],
            out: Vec::new(),
        }
    }
}

/// Depth-first enumeration of the units, in lexicographic order of their
/// placements.
struct Builder<'a> {
    plan: &'a CompletionPlan,
    full: u32,
    /// The first row halved by the mirror, if any.
    halved: Option<u32>,
    free: [u8; MAX_SPLIT_DEPTH as usize],
    out: Vec<CompletionUnit>,
}

impl Builder<'_> {
    /// Every unit, none where the given queens attack each other.
    fn walk(mut self) -> Vec<CompletionUnit> {
        if self.plan.problem.conflict().is_none() {
            self.expand(0, 0, Masks::EMPTY, self.halved, 1);
        }
        self.out
    }

    /// How many units [`Self::walk`] makes.
    fn tally(mut self) -> usize {
        if self.plan.problem.conflict().is_some() {
            return 0;
        }
        self.count_from(0, 0, Masks::EMPTY, self.halved)
    }

    /// The columns row `row` may take below `masks`, and the weight and
    /// halved row that each brings: `(bit, factor, next halved row)`.
    fn choices(&self, row: u32, masks: Masks, halved: Option<u32>) -> Vec<(u32, u8, Option<u32>)> {
        let n = self.plan.problem.n();
        let mut open = masks.free(self.full) & self.plan.allowed[row as usize];
        let mut out = Vec::new();
        while open != 0 {
            let bit = lowest_bit(open);
            open ^= bit;
            if halved != Some(row) {
                out.push((bit, 1, halved));
                continue;
            }
            let col = bit.trailing_zeros();
            match (2 * col + 1).cmp(&n) {
                std::cmp::Ordering::Less => out.push((bit, 2, None)),
                // The middle queen is its own image: halve the next free row.
                std::cmp::Ordering::Equal => out.push((bit, 1, self.plan.next_free(row + 1))),
                std::cmp::Ordering::Greater => {}
            }
        }
        out
    }

    /// Whether the unit ends after row `row`, with `placed` free rows
    /// placed by then: once `split` free rows are, and no halved row is
    /// left unplaced below.
    fn ends(&self, row: u32, placed: u32, halved: Option<u32>) -> bool {
        row + 1 == self.plan.problem.n()
            || (placed >= self.plan.split && halved.is_none_or(|h| h <= row))
    }

    /// Places row `row` and those below it until the unit ends.
    fn expand(&mut self, row: u32, placed: u32, masks: Masks, halved: Option<u32>, weight: u8) {
        let given = self.plan.given_rows & 1 << row != 0;
        for (bit, factor, halved) in self.choices(row, masks, halved) {
            let placed = placed + u32::from(!given);
            if !given {
                self.free[placed as usize - 1] = bit.trailing_zeros() as u8;
            }
            let below = masks.place(bit);
            if self.ends(row, placed, halved) {
                let mut free = [0; MAX_SPLIT_DEPTH as usize];
                free[..placed as usize].copy_from_slice(&self.free[..placed as usize]);
                self.out.push(CompletionUnit {
                    rows: (row + 1) as u8,
                    free,
                    masks: below,
                    weight: weight * factor,
                    cost: 0,
                });
            } else {
                self.expand(row + 1, placed, below, halved, weight * factor);
            }
        }
    }

    /// How many units [`Self::expand`] would make.
    fn count_from(&mut self, row: u32, placed: u32, masks: Masks, halved: Option<u32>) -> usize {
        let given = self.plan.given_rows & 1 << row != 0;
        let mut total = 0;
        for (bit, _, halved) in self.choices(row, masks, halved) {
            let placed = placed + u32::from(!given);
            total += if self.ends(row, placed, halved) {
                1
            } else {
                self.count_from(row + 1, placed, masks.place(bit), halved)
            };
        }
        total
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problem::tests::{Rng, brute_force, random_problem};
    use crate::{Config, Engine, Plan, Shape, Square, known};

    /// A problem with the mirror: blocked squares in mirror pairs and,
    /// one time in two, a given queen in the middle column of an odd board.
    fn mirrored_problem(rng: &mut Rng, n: u32) -> Problem {
        let mut blocked = Vec::new();
        for _ in 0..rng.below(n + 1) {
            let (row, col) = (rng.below(n), rng.below(n));
            blocked.extend([Square::new(row, col), Square::new(row, n - 1 - col)]);
        }
        let given: Vec<Square> = (n % 2 == 1 && rng.below(2) == 0)
            .then(|| Square::new(rng.below(n), n / 2))
            .into_iter()
            .collect();
        blocked.retain(|b| !given.contains(b));
        Problem::new(n, given, blocked).expect("a valid problem")
    }

    /// Every unit counted alone, by the kernel in pieces and by the plain
    /// search.
    fn unit_counts(plan: &CompletionPlan) -> Vec<(u128, u128)> {
        let features = Features::detect();
        plan.units()
            .iter()
            .map(|unit| {
                let fast = plan.count_unless(unit, features, &|| false).unwrap();
                (fast, plan.count_plainly(unit))
            })
            .collect()
    }

    #[test]
    fn units_of_random_problems_sum_to_what_brute_force_finds() {
        let mut rng = Rng(0xc0de);
        let mut halved = 0;
        for case in 0..400 {
            let n = 1 + rng.below(9);
            let problem = if case % 3 == 0 {
                mirrored_problem(&mut rng, n)
            } else {
                random_problem(&mut rng, n)
            };
            let want = brute_force(&problem).len() as u128;
            for split in [1, 2, 4] {
                let plan = CompletionPlan::new(&problem, split);
                let counts = unit_counts(&plan);
                let fast: u128 = counts.iter().map(|c| c.0).sum();
                assert_eq!(fast, want, "case {case}, split {split}: {problem:?}");
                for (id, (fast, plain)) in counts.iter().enumerate() {
                    assert_eq!(fast, plain, "case {case}, unit {id}: {problem:?}");
                }
                assert_eq!(
                    CompletionPlan::unit_count(&problem, split),
                    plan.units().len(),
                    "case {case}, split {split}"
                );
            }
            halved += usize::from(problem.halving_symmetry().is_some());
        }
        assert!(halved > 100, "{halved} of 400 problems were halved");
    }

    #[test]
    fn one_queen_in_the_first_row_sums_to_a000170() {
        for n in 1..=14 {
            let total: u128 = (0..n)
                .map(|col| {
                    let problem = Problem::new(n, [Square::new(0, col)], []).unwrap();
                    let plan = Plan::for_problem(&problem, None, &Config::default()).unwrap();
                    crate::Counter::new(n)
                        .engine(Engine::Mirror)
                        .run_plan(&plan)
                        .unwrap()
                        .solutions
                })
                .sum();
            assert_eq!(Some(total), known::total(n), "n = {n}");
        }
    }

    #[test]
    fn units_place_free_rows_and_name_given_ones() {
        // Row 1 given (column 3 of 6): two free rows a unit are rows 0 and
        // 2, and the descriptor lists row 1's given column between them.
        let problem = Problem::new(6, [Square::new(1, 3)], []).unwrap();
        let plan = CompletionPlan::new(&problem, 2);
        let texts: Vec<String> = plan.units().iter().map(|u| plan.descriptor(u)).collect();
        assert!(!texts.is_empty());
        for text in &texts {
            let cols: Vec<&str> = text.strip_prefix("rows:").unwrap().split(',').collect();
            assert_eq!((cols.len(), cols[1]), (3, "3"), "{text}");
        }
        // The flip without the mirror: the transposed problem is searched.
        let flipped = Problem::new(5, [], [Square::new(0, 0), Square::new(4, 0)]).unwrap();
        let plan = CompletionPlan::new(&flipped, 1);
        assert!(plan.descriptor(&plan.units()[0]).starts_with("cols:"));
    }

    #[test]
    fn a_plan_is_named_by_its_problem() {
        let config = Config::default();
        let a = Problem::new(10, [Square::new(0, 1)], []).unwrap();
        let b = Problem::new(10, [Square::new(0, 2)], []).unwrap();
        let plan_a = Plan::for_problem(&a, None, &config).unwrap();
        let plan_b = Plan::for_problem(&b, None, &config).unwrap();
        assert_ne!(plan_a.hash(), plan_b.hash());
        assert_eq!(
            plan_a.hash(),
            Plan::for_problem(&a, None, &config).unwrap().hash()
        );
        assert_eq!(plan_a.problem(), Some(&a));
        // The empty board's problem is the mirror engine's own plan.
        let empty = Plan::for_problem(&Problem::empty(10).unwrap(), Some(3), &config).unwrap();
        let mirror = Plan::new(Shape::new(10, Engine::Mirror, Some(3)), &config).unwrap();
        assert_eq!((empty.hash(), empty.problem()), (mirror.hash(), None));
        assert_eq!(Problem::from_line(&a.to_line()), Ok(a));
        assert!(Problem::from_line("Q./..").is_ok());
        for bad in ["Q./...", "Q.//..", "Q.\n..", "", "Q./x./"] {
            assert!(Problem::from_line(bad).is_err(), "{bad:?}");
        }
    }
}
