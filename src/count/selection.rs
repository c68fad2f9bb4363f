//! What a run of a plan must count, and how its parts make one total.
//!
//! A run asks for some units of a [`Plan`](crate::Plan) (all of them, a `--units` list,
//! a shard's share); a journal may already hold some of those from an
//! earlier, interrupted run. A [`Selection`] is that request resolved once:
//! the units asked for, checked once when it is made
//! ([`Plan::select`](crate::Plan::select),
//! [`Plan::select_all`](crate::Plan::select_all): the only ways to make one),
//! those resumed with their counts, and those [`left`](Selection::left) to
//! count. When the counting is done, the resumed and the new counts are
//! put together, and no total is given as finished unless every unit asked
//! for is there exactly once.
//!
//! [`sample_units`] picks the units a verification recounts. Nothing here reads
//! a file or the clock: the caller brings the journal's records and the
//! seed.

use sha2::{Digest, Sha256};

use crate::Error;

/// The units of one plan that a run must count: asked for, resumed from a
/// journal, and left. Made by [`Plan::select`](crate::Plan::select) or
/// [`Plan::select_all`](crate::Plan::select_all); counted by a
/// [`crate::Runner`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Selection {
    /// The plan's number of units.
    plan_units: usize,
    /// Every unit asked for, in the order given.
    target: Vec<u32>,
    /// Whether `target` is the whole plan.
    whole: bool,
    /// `(id, count)` of the units asked for that a journal holds, in id
    /// order.
    resumed: Vec<(u32, u128)>,
    /// The units asked for and not resumed, in the order given.
    left: Vec<u32>,
}

impl Selection {
    /// Every unit of a plan of `plan_units` units.
    #[must_use]
    pub(crate) fn whole(plan_units: usize) -> Self {
        let target: Vec<u32> = (0..plan_units as u32).collect();
        Self {
            plan_units,
            left: target.clone(),
            target,
            whole: true,
            resumed: Vec::new(),
        }
    }

    /// The units `ids` of a plan of `plan_units` units, checked by the
    /// plan ([`Plan::select`](crate::Plan::select)): each in it, none twice.
    pub(crate) fn units(plan_units: usize, ids: &[u32]) -> Self {
        Self {
            plan_units,
            target: ids.to_vec(),
            whole: false,
            resumed: Vec::new(),
            left: ids.to_vec(),
        }
    }

    /// Takes from `done` (a journal's `(id, count)` records, each unit at
    /// most once and in the plan, as a journal's replay guarantees) the
    /// units this job asks for: they are not counted again. Records of
    /// other units are ignored; they stay in the journal.
    #[must_use]
    pub fn resume(self, done: impl IntoIterator<Item = (u32, u128)>) -> Self {
        let mut wanted = vec![false; self.plan_units];
        self.target
            .iter()
            .for_each(|&id| wanted[id as usize] = true);
        let mut resumed: Vec<(u32, u128)> = done
            .into_iter()
            .filter(|&(id, _)| wanted.get(id as usize).copied().unwrap_or(false))
            .collect();
        resumed.sort_unstable();
        resumed.dedup_by_key(|&mut (id, _)| id);
        let mut left = vec![true; self.plan_units];
        resumed
            .iter()
            .for_each(|&(id, _)| left[id as usize] = false);
        let left = self
            .target
            .iter()
            .copied()
            .filter(|&id| left[id as usize])
            .collect();
        Self {
            resumed,
            left,
            ..self
        }
    }

    /// The units still to count, in the order asked for.
    #[must_use]
    pub fn left(&self) -> &[u32] {
        &self.left
    }

    /// The units resumed, with their counts, in id order.
    #[must_use]
    pub fn resumed(&self) -> &[(u32, u128)] {
        &self.resumed
    }

    /// How many units were asked for.
    #[must_use]
    pub fn len(&self) -> usize {
        self.target.len()
    }

    /// Whether no unit was asked for (a plan without units).
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.target.is_empty()
    }

    /// Whether the job is the whole plan, so that its total is the board's.
    #[must_use]
    pub fn is_whole(&self) -> bool {
        self.whole
    }

    /// The resumed counts and `counted` (the counts of [`left`](Self::left),
    /// in any order) as one list in id order.
    ///
    /// # Errors
    /// [`Error::Incomplete`] unless every unit asked for is there exactly
    /// once: a total is only ever reported whole.
    pub fn combine(&self, counted: &[(u32, u128)]) -> Result<Vec<(u32, u128)>, Error> {
        let mut all = self.resumed.clone();
        all.extend_from_slice(counted);
        all.sort_unstable();
        let mut asked = self.target.clone();
        asked.sort_unstable();
        if !all.iter().map(|&(id, _)| id).eq(asked.iter().copied()) {
            return Err(Error::Incomplete {
                counted: all.len(),
                asked: asked.len(),
            });
        }
        Ok(all)
    }
}

impl Selection {
    /// The resumed counts and `counted` (of [`left`](Self::left), in id
    /// order) as one list in id order: checked by
    /// [`combine`](Self::combine) when every unit asked for is there, as
    /// is when nothing stopped the count; a stopped count's part as it is.
    pub(crate) fn gather(&self, counted: Vec<(u32, u128)>) -> Result<Vec<(u32, u128)>, Error> {
        if counted.len() + self.resumed.len() >= self.target.len() {
            return self.combine(&counted);
        }
        if self.resumed.is_empty() {
            return Ok(counted);
        }
        let mut all = self.resumed.clone();
        all.extend(counted);
        all.sort_unstable();
        Ok(all)
    }
}

/// The `percent`% of `ids` (at least one, if there are any) that a
/// verification recounts: those in `first` (sorted; e.g. the units a shard
/// took from a journal, the likeliest to be damaged) before the rest, and
/// within each group those whose SHA-256 of `seed:id` is smallest. The same
/// seed picks the same sample on every machine. In id order.
#[must_use]
pub fn sample_units(ids: &[u32], percent: f64, seed: u64, first: &[u32]) -> Vec<u32> {
    let want =
        ((ids.len() as f64 * percent / 100.0).ceil() as usize).clamp(ids.len().min(1), ids.len());
    let mut keyed: Vec<(bool, [u8; 32], u32)> = ids
        .iter()
        .map(|&id| {
            let later = first.binary_search(&id).is_err();
            (later, Sha256::digest(format!("{seed}:{id}")).into(), id)
        })
        .collect();
    keyed.sort_unstable();
    let mut picked: Vec<u32> = keyed.into_iter().take(want).map(|(_, _, id)| id).collect();
    picked.sort_unstable();
    picked
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Config, Engine, Plan, Shape};

    fn plan() -> Plan {
        Plan::new(Shape::new(10, Engine::Mirror, None), &Config::default()).unwrap()
    }

    #[test]
    fn a_resumed_job_counts_only_what_is_left() {
        let plan = plan();
        let job = plan.select(&[5, 1, 3]).unwrap();
        // Unit 7 is in the journal but not asked for: ignored.
        let job = job.resume([(3, 30), (7, 70)]);
        assert_eq!(job.left(), [5, 1]);
        assert_eq!(job.resumed(), [(3, 30)]);
        assert!(!job.is_whole());
        let all = job.combine(&[(1, 10), (5, 50)]).unwrap();
        assert_eq!(all, [(1, 10), (3, 30), (5, 50)]);
    }

    #[test]
    fn a_total_is_only_given_whole() {
        let plan = plan();
        let job = plan.select_all().resume([(0, 4)]);
        assert_eq!(job.left().len(), plan.len() - 1);
        let missing_one: Vec<(u32, u128)> = job.left()[1..].iter().map(|&id| (id, 1)).collect();
        assert!(matches!(
            job.combine(&missing_one),
            Err(Error::Incomplete { .. })
        ));
        // A unit counted although the journal had it: twice is refused too.
        let twice: Vec<(u32, u128)> = (0..plan.len() as u32).map(|id| (id, 1)).collect();
        assert!(job.combine(&twice).is_err());
        let right: Vec<(u32, u128)> = job.left().iter().map(|&id| (id, 1)).collect();
        assert_eq!(job.combine(&right).unwrap().len(), plan.len());
    }

    #[test]
    fn units_outside_the_plan_or_repeated_are_refused() {
        let plan = plan();
        let past = plan.len() as u32;
        assert!(matches!(
            plan.select(&[0, past]),
            Err(Error::Unit { id, .. }) if id == past
        ));
        assert!(matches!(
            plan.select(&[2, 4, 2]),
            Err(Error::DuplicateUnit(2))
        ));
    }

    #[test]
    fn samples_are_reproducible_sized_and_seed_dependent() {
        let ids: Vec<u32> = (0..1000).collect();
        let a = sample_units(&ids, 1.0, 7, &[]);
        assert_eq!(a.len(), 10);
        assert_eq!(a, sample_units(&ids, 1.0, 7, &[]));
        assert_ne!(a, sample_units(&ids, 1.0, 8, &[]));
        assert!(a.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(sample_units(&ids, 0.01, 1, &[]).len(), 1);
        assert_eq!(sample_units(&ids, 100.0, 1, &[]), ids);
        assert!(sample_units(&[], 50.0, 1, &[]).is_empty());
    }

    #[test]
    fn units_from_journals_are_sampled_first() {
        // Issue 21: a shard's journal units are the ones a forger could
        // have written, so a small sample takes them before the rest.
        let ids: Vec<u32> = (0..1000).collect();
        let first: Vec<u32> = (0..1000).step_by(100).collect();
        assert_eq!(sample_units(&ids, 1.0, 7, &first), first);
        let some = sample_units(&ids, 0.5, 7, &first);
        assert_eq!(some.len(), 5);
        assert!(some.iter().all(|id| first.contains(id)));
        let more = sample_units(&ids, 2.0, 7, &first);
        assert!(first.iter().all(|id| more.contains(id)) && more.len() == 20);
    }
}
