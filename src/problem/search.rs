//! A problem's search: its first rows cut into starts, each counted by the
//! kernel with the allowed masks ([`Starts`]), and the depth-first walk
//! that lists completions in lexicographic order ([`Walk`]).

use std::sync::atomic::{AtomicBool, Ordering};

use super::Problem;
use crate::cpu::Features;
use crate::kernel::{Masks, RowMasks, count_allowed_on, full_mask};

impl Problem {
    /// Cuts the search into independent starts: every placement of the
    /// first `rows` rows that the masks allow (fewer rows where the board
    /// is smaller), each with its weight, 2 for a start that stands for
    /// its mirror image too. Counting every start's completions, times its
    /// weight, counts the problem.
    pub(crate) fn starts(&self, rows: u32) -> Starts {
        let (problem, mirrored) = self.searched();
        let allowed = problem.row_masks();
        let n = problem.n;
        let mut rows = rows.min(n);
        let mut list = Vec::new();
        if problem.conflict().is_none() {
            // The first row whose queen is not given is the one the mirror
            // halves; rows with a given queen allow one column (the middle
            // one, in a mirror-symmetric problem).
            let halved = mirrored
                .then(|| (0..n).find(|&r| !has_given(&problem, r)))
                .flatten();
            // The halved row is placed in the starts, however deep it is.
            rows = halved.map_or(rows, |row| rows.max(row + 1));
            walk_starts(n, &allowed, halved, rows, &mut list);
        }
        Starts {
            n,
            allowed,
            rows,
            list,
        }
    }
}

/// How many rows [`Problem::count`] places before it hands the rest to the
/// kernel: enough starts to keep a pool busy, few enough to list cheaply.
pub(super) const START_ROWS: u32 = 3;

fn has_given(problem: &Problem, row: u32) -> bool {
    problem.given.iter().any(|q| q.row == row)
}

/// A problem's search, cut into starts (see [`Problem::starts`]).
pub(crate) struct Starts {
    n: u32,
    allowed: RowMasks,
    rows: u32,
    list: Vec<Start>,
}

/// One start: the attacks on row `rows` after a placement of the rows
/// above it, and how many completions each of its own stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Start {
    pub(crate) masks: Masks,
    pub(crate) weight: u8,
}

impl Starts {
    /// The starts, in lexicographic order of their placements.
    pub(crate) fn list(&self) -> &[Start] {
        &self.list
    }

    /// [`Starts::count_on`], in pieces with `stop()` read between two
    /// ([`crate::count::pieces`]), so that a stop is heard inside a start
    /// of many rows: `None` once it said stop.
    pub(crate) fn count_unless(
        &self,
        features: Features,
        start: &Start,
        stop: &dyn Fn() -> bool,
    ) -> Option<u128> {
        let allowed = &self.allowed;
        let n = self.n;
        let completions = crate::count::pieces::count_in_pieces(
            n,
            (self.rows, n),
            start.masks,
            &|row| allowed[row as usize],
            stop,
            &mut |row, masks| count_allowed_on(features, n, (row, n), masks, allowed),
        )?;
        Some(u128::from(start.weight) * completions)
    }

    /// The completions of one start, times its weight.
    pub(crate) fn count_on(&self, features: Features, start: &Start) -> u128 {
        u128::from(start.weight)
            * count_allowed_on(
                features,
                self.n,
                (self.rows, self.n),
                start.masks,
                &self.allowed,
            )
    }
}

/// Every placement of rows `0..rows` the masks allow, halved on row
/// `halved` (its queen in the left half, weight 2; the middle column of an
/// odd board, weight 1).
fn walk_starts(n: u32, allowed: &RowMasks, halved: Option<u32>, rows: u32, out: &mut Vec<Start>) {
    fn go(
        n: u32,
        allowed: &RowMasks,
        halved: Option<u32>,
        (row, rows): (u32, u32),
        masks: Masks,
        weight: u8,
        out: &mut Vec<Start>,
    ) {
        if row == rows {
            out.push(Start { masks, weight });
            return;
        }
        let mut open = masks.free(full_mask(n)) & allowed[row as usize];
        while open != 0 {
            let bit = open & open.wrapping_neg();
            open ^= bit;
            let col = bit.trailing_zeros();
            let weight = if halved == Some(row) {
                match (2 * col + 1).cmp(&n) {
                    std::cmp::Ordering::Less => 2 * weight,
                    std::cmp::Ordering::Equal => weight,
                    std::cmp::Ordering::Greater => continue,
                }
            } else {
                weight
            };
            go(
                n,
                allowed,
                halved,
                (row + 1, rows),
                masks.place(bit),
                weight,
                out,
            );
        }
    }
    go(n, allowed, halved, (0, rows), Masks::EMPTY, 1, out);
}

/// The depth-first search of [`Problem::for_each_completion_until`].
pub(super) struct Walk<'a> {
    pub(super) n: u32,
    pub(super) allowed: &'a RowMasks,
    pub(super) stop: &'a AtomicBool,
}

impl Walk<'_> {
    /// Visits the completions of `board` (the rows above), whose attacks
    /// on the next row are `masks`; `false` once the visitor or the flag
    /// says stop.
    pub(super) fn go(
        &mut self,
        masks: Masks,
        board: &mut Vec<u32>,
        visit: &mut impl FnMut(&[u32]) -> bool,
    ) -> bool {
        let row = board.len();
        if row == self.n as usize {
            return visit(board);
        }
        let mut open = masks.free(full_mask(self.n)) & self.allowed[row];
        while open != 0 {
            if self.stop.load(Ordering::Relaxed) {
                return false;
            }
            let bit = open & open.wrapping_neg();
            open ^= bit;
            board.push(bit.trailing_zeros());
            let go_on = self.go(masks.place(bit), board, visit);
            board.pop();
            if !go_on {
                return false;
            }
        }
        true
    }
}
