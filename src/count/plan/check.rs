//! What a claimed count must keep to: a unit list's ids are the plan's,
//! each once, and a unit's count as a journal or a shard file claims it
//! is a multiple of its weight and within what any unit can have
//! ([`Impossible`] says why not).

use super::{Body, Plan};
use crate::Error;

/// Why a unit's count, as a journal or a shard file claims it, cannot be
/// right ([`Plan::check_count`]): the record is damaged or forged.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Impossible {
    /// The plan has no such unit.
    #[error("unit {id}: the plan has no such unit (it has {units})")]
    NoUnit {
        /// The unit claimed.
        id: u32,
        /// How many the plan has.
        units: usize,
    },
    /// The count is not a multiple of the unit's weight.
    #[error("unit {id}: count {count} is not a multiple of its weight {weight}")]
    NotAMultiple {
        /// The unit.
        id: u32,
        /// Its count as claimed.
        count: u128,
        /// Its weight.
        weight: u32,
    },
    /// The count is more than any unit of the board can have.
    #[error("unit {id}: count {count} is more than any unit of n = {n} can have ({most}, {why})")]
    TooLarge {
        /// The unit.
        id: u32,
        /// Its count as claimed.
        count: u128,
        /// The most it can be.
        most: u128,
        /// Board size.
        n: u32,
        /// What the bound is.
        why: &'static str,
    },
}

impl Plan {
    /// Checks that every id of `ids` is one of this plan's units, none
    /// twice.
    pub(crate) fn check_ids(&self, ids: &[u32]) -> Result<(), Error> {
        let mut seen = vec![false; self.len()];
        for &id in ids {
            let slot = seen.get_mut(id as usize).ok_or(Error::Unit {
                id,
                units: self.len(),
            })?;
            if std::mem::replace(slot, true) {
                return Err(Error::DuplicateUnit(id));
            }
        }
        Ok(())
    }

    /// Unit `id`'s weight, known to be in the plan, without building its
    /// descriptor.
    fn weight_of(&self, id: u32) -> u32 {
        match &self.body {
            Body::Mirror { units, .. } => u32::from(units[id as usize].weight),
            Body::Join(plan) => plan.job(id).weight(),
            Body::Constellations(starts) => u32::from(starts[id as usize].weight),
            Body::Completion(plan) => plan.weight(&plan.units()[id as usize]),
        }
    }

    /// The most solutions one unit can count: a bound that a count read
    /// from a journal or a shard file must keep to.
    ///
    /// Every unit's count, its weight included, is a part of the board's
    /// total (the counts are never negative and sum to it), so for
    /// `n <= 27` the bound is the total itself, OEIS A000170. Past that
    /// nothing is published, and the bound is `n!` (saturating at
    /// `u128::MAX`), since every solution is a permutation: a column for
    /// each row. It is loose (Q(27) is about 2 x 10^-11 of 27!), but it
    /// is sound; the weight check of [`check_count`](Self::check_count) is the
    /// sharper one there.
    #[must_use]
    pub fn max_unit_count(&self) -> u128 {
        // A problem's completions are some of the board's solutions.
        crate::known::total(self.n)
            .unwrap_or_else(|| (2..=u128::from(self.n)).fold(1u128, |f, k| f.saturating_mul(k)))
    }

    /// Checks that `count` is a count unit `id` can have: a multiple of its
    /// weight (each solution it finds stands for `weight` of them), and at
    /// most [`max_unit_count`](Self::max_unit_count). A journal's checksum
    /// or a shard's total is recomputed by anyone who forges a count; this
    /// is what a forged or damaged count cannot hide from without a
    /// recount.
    ///
    /// # Errors
    /// [`Impossible`] naming the unit and why; [`Impossible::NoUnit`] when
    /// the plan has no unit `id`.
    pub fn check_count(&self, id: u32, count: u128) -> Result<(), Impossible> {
        if id as usize >= self.len() {
            return Err(Impossible::NoUnit {
                id,
                units: self.len(),
            });
        }
        let weight = self.weight_of(id);
        let multiple = match weight {
            // A unit no solution falls into (its symmetry class is counted
            // by another unit) counts nothing.
            0 => count == 0,
            w => count.is_multiple_of(u128::from(w)),
        };
        if !multiple {
            return Err(Impossible::NotAMultiple { id, count, weight });
        }
        let most = self.max_unit_count();
        if count > most {
            let why = if crate::known::total(self.n).is_some() {
                "the board's whole total, OEIS A000170"
            } else {
                "n!, the number of ways to give each row its own column"
            };
            return Err(Impossible::TooLarge {
                id,
                count,
                most,
                n: self.n,
                why,
            });
        }
        Ok(())
    }
}
