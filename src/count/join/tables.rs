//! Building what a job's quarter pieces come from ([`Pieces`], held by the
//! plan): the whole quarter tables, built once by the first job and
//! shared, or, from side 12 on, the four slices each job builds for itself.

use std::sync::OnceLock;

use super::plan::{Pieces, Tables, has_lefts};
use super::quarter::{Piece, QuarterTable, Slice};
use super::{Job, JoinPlan, Kind};

/// Where one job reads its pieces: the top and bottom quarters of its
/// left half, then of its right half.
pub(super) struct Quarters<'a, G> {
    pub(super) left: (&'a G, &'a G),
    pub(super) right: (&'a G, &'a G),
}

impl JoinPlan {
    /// Builds the tables now rather than in the first job (nothing where
    /// the jobs build slices).
    pub fn prepare(&self) {
        if let Pieces::Whole(tables) = &self.pieces {
            self.tables(tables);
        }
    }

    /// The tables, built on first use.
    pub(super) fn tables<'a>(&self, tables: &'a OnceLock<Tables>) -> &'a Tables {
        tables.get_or_init(|| {
            let table = QuarterTable::fill(&self.sizes);
            let lefts = has_lefts(self.stage, self.odd.as_ref()).then(|| {
                // Both long diagonals are local bit q - 1 of their family
                // in the quarter that holds them on the left.
                let long = 1 << (self.geo.q - 1);
                (table.without(long, 0), table.without(0, long))
            });
            Tables { table, lefts }
        })
    }

    /// Makes `slices` the four a job of
    /// [`Stage::FixedMiddle`](super::Stage::FixedMiddle) reads: the left
    /// half's top and bottom rows, then the right half's. A slot that
    /// holds its slice already keeps it.
    pub(super) fn build_slices(&self, job: &Job, slices: &mut [Slice; 4]) {
        let side = self.sizes.side();
        let none = Piece::default();
        let (left, right, left_off) = match (job.kind, &self.odd) {
            (Kind::Odd(middle), Some(odd)) => {
                let right_rows = odd.free_rows(middle) & !job.rows;
                (
                    odd.quarter_rows(job.rows),
                    odd.quarter_rows(right_rows),
                    (none, none),
                )
            }
            _ => {
                let geo = &self.geo;
                let split = |rows: u32| (rows & ((1 << geo.h) - 1), rows >> geo.h);
                // As the whole tables' `lefts`: the left half-boards keep
                // off both long diagonals, local bit q - 1 of each family.
                let long = 1 << (geo.q - 1);
                let off = (
                    Piece {
                        falling: long,
                        rising: 0,
                    },
                    Piece {
                        falling: 0,
                        rising: long,
                    },
                );
                (split(job.rows), split(!job.rows & geo.all_rows()), off)
            }
        };
        let wanted = [
            (left.0, left_off.0),
            (left.1, left_off.1),
            (right.0, none),
            (right.1, none),
        ];
        for (slice, (rows, off)) in slices.iter_mut().zip(wanted) {
            slice.build(side, rows, off);
        }
    }
}
