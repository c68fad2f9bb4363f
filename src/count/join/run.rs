//! Running one job: make its left and right half-boards from its pieces
//! and count the pairs whose diagonals do not meet, with the matcher the
//! stage calls for, times the job's weight.

use super::halves::{Side, mirror_weight, right_weight};
use super::matcher::{count_naive, query};
use super::odd::{Middle, OddGeometry};
use super::plan::Pieces;
use super::quarter::Groups;
use super::scratch::Work;
use super::sieve::Sieve;
use super::tables::Quarters;
use super::{Job, JoinPlan, Kind, Scratch, Stage, pairs};

impl JoinPlan {
    /// Counts the solutions of one job (its weight included).
    pub fn run_job(&self, job: &Job, scratch: &mut Scratch) -> u128 {
        let Scratch { slices, work } = scratch;
        match &self.pieces {
            Pieces::Whole(tables) => {
                let tables = self.tables(tables);
                let table = &tables.table;
                let left = tables
                    .lefts
                    .as_ref()
                    .map_or((table, table), |(t, b)| (t, b));
                let quarters = Quarters {
                    left,
                    right: (table, table),
                };
                self.run_with(job, &quarters, work)
            }
            Pieces::PerJob => {
                self.build_slices(job, slices);
                let [lt, lb, rt, rb] = &*slices;
                let quarters = Quarters {
                    left: (lt, lb),
                    right: (rt, rb),
                };
                self.run_with(job, &quarters, work)
            }
        }
    }

    /// Counts one job with its pieces from `quarters`.
    fn run_with<G: Groups>(&self, job: &Job, quarters: &Quarters<'_, G>, work: &mut Work) -> u128 {
        if let (Kind::Odd(middle), Some(odd)) = (job.kind, &self.odd) {
            return Self::run_odd_job(job, middle, odd, quarters, work);
        }
        let geo = &self.geo;
        if self.stage == Stage::FixedMiddle && geo.n.is_multiple_of(2) {
            return self.run_even_job(job, quarters, work);
        }
        let symmetric = matches!(self.stage, Stage::Symmetric | Stage::FixedMiddle);
        let (long_falling, long_rising) = geo.long_diagonals();
        let long = long_falling | long_rising;

        let (top_left, bottom_left) = quarters.left;
        let left = &mut work.left;
        left.clear();
        geo.for_each_half(top_left, bottom_left, Side::Left, job.rows, |word, _| {
            debug_assert!(!symmetric || word & long == 0);
            left.push(word);
        });
        if left.is_empty() {
            return 0;
        }
        let mirror = if symmetric {
            mirror_weight(geo, job.rows)
        } else {
            1
        };
        let queries = &mut work.queries;
        queries.clear();
        let right_rows = !job.rows & geo.all_rows();
        let (tops, bottoms) = quarters.right;
        geo.for_each_half(tops, bottoms, Side::Right, right_rows, |word, centre| {
            let weight = if symmetric {
                right_weight(geo, word, centre, mirror)
            } else {
                1
            };
            if weight > 0 {
                queries.push(query(word, weight));
            }
        });
        let pairs = match self.stage {
            Stage::Reference => count_naive(left, queries),
            Stage::Sliced | Stage::Symmetric => {
                work.matcher.count(left, queries, geo.window_bits())
            }
            Stage::FixedMiddle => work.sieve.count(left, queries, geo.window_bits()),
        };
        u128::from(pairs) * u128::from(job.weight)
    }

    /// [`Stage::FixedMiddle`]'s even jobs: the symmetric stage's half-boards
    /// and weights, made by [`pairs`] with the weights in the queries.
    fn run_even_job<G: Groups>(
        &self,
        job: &Job,
        quarters: &Quarters<'_, G>,
        work: &mut Work,
    ) -> u128 {
        let geo = &self.geo;
        // Rules 2 and 3: see `right_weight`.
        let mirror = pairs::OffDiagonal::new(mirror_weight(geo, job.rows));
        let right_rows = !job.rows & geo.all_rows();
        let pairs = work.count_pairs(
            (geo.window_bits(), false),
            |chunks, buffers| pairs::left_halves(geo, quarters.left, job.rows, chunks, buffers),
            |out, buffers| {
                pairs::right_halves(geo, quarters.right, right_rows, mirror, out, buffers);
            },
        );
        u128::from(pairs) * u128::from(job.weight)
    }

    fn run_odd_job<G: Groups>(
        job: &Job,
        middle: Middle,
        odd: &OddGeometry,
        quarters: &Quarters<'_, G>,
        work: &mut Work,
    ) -> u128 {
        let right_rows = odd.free_rows(middle) & !job.rows;
        let pairs = work.count_pairs(
            (odd.window_bits(), true),
            |chunks, buffers| odd.left_halves(quarters.left, middle, job.rows, chunks, buffers),
            |out, buffers| odd.right_halves(quarters.right, middle, right_rows, out, buffers),
        );
        u128::from(pairs) * u128::from(job.weight)
    }
}

impl Work {
    /// The compatible pairs of a job's left half-boards (made by `left`,
    /// which hands them over in chunks) and right ones (made by `right`
    /// when the first chunk is full or the left ones end: not at all for a
    /// job without left half-boards), on words of `bits` bits. With
    /// `either` (unweighted words on both sides) the shorter side of each
    /// count is the stored one, whose tables are cheaper to build (on
    /// average 2.2 times fewer right half-boards than left ones at n =
    /// 19); else the right words are the queries.
    fn count_pairs(
        &mut self,
        (bits, either): (u32, bool),
        left: impl FnOnce(pairs::Chunks<'_>, &mut pairs::Buffers),
        right: impl FnOnce(&mut Vec<u64>, &mut pairs::Buffers),
    ) -> u64 {
        let Self {
            left: words,
            queries,
            pairing,
            right_pairing,
            sieve,
            chunks: (stored_chunk, asked_chunk),
            ..
        } = self;
        let sizes = (bits, *stored_chunk, *asked_chunk);
        let mut pairs = 0;
        let mut right = Some(right);
        let mut count = |chunk: &mut Vec<u64>| {
            if let Some(right) = right.take() {
                queries.clear();
                right(queries, right_pairing);
            }
            pairs += if either && chunk.len() > queries.len() {
                count_in_chunks(sieve, queries, chunk, sizes)
            } else {
                count_in_chunks(sieve, chunk, queries, sizes)
            };
            chunk.clear();
        };
        words.clear();
        left((&mut *words, *stored_chunk, &mut count), pairing);
        if !words.is_empty() {
            count(words);
        }
        pairs
    }
}

/// The pairs of `stored` and `asked` (words of `bits` bits) that share
/// no bit, handed to the sieve at most `stored_chunk` and `asked_chunk`
/// words at a time (in one call, below that).
fn count_in_chunks(
    sieve: &mut Sieve,
    stored: &[u64],
    asked: &[u64],
    (bits, stored_chunk, asked_chunk): (u32, usize, usize),
) -> u64 {
    if stored.is_empty() {
        return 0;
    }
    let mut pairs = 0;
    for part in stored.chunks(stored_chunk) {
        for questions in asked.chunks(asked_chunk) {
            pairs += sieve.count(part, questions, bits);
        }
    }
    pairs
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::count::join::sieve;

    /// Jobs that build their own slices count what jobs reading the whole
    /// tables count, one by one, and so do jobs that count their half-boards
    /// in chunks: every job of the small boards, a random sample of the
    /// larger ones (n = 22's jobs take 0.15 s each).
    #[test]
    fn jobs_on_slices_count_what_jobs_on_whole_tables_count() {
        let mut seed = 0x2026_1124_u64;
        let mut draw = |len: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % len as u64) as u32
        };
        for (n, sample) in (4..=15).map(|n| (n, None)).chain([
            (16, Some(40)),
            (17, Some(40)),
            (18, Some(20)),
            (19, Some(20)),
            (20, Some(6)),
            (21, Some(6)),
            (22, Some(3)),
        ]) {
            let whole = JoinPlan::new(n, Stage::FixedMiddle).unwrap();
            let sliced = JoinPlan::new(n, Stage::FixedMiddle).unwrap().per_job();
            let ids: Vec<u32> = match sample {
                None => (0..whole.len() as u32).collect(),
                Some(k) => (0..k).map(|_| draw(whole.len())).collect(),
            };
            // Chunks of a few hundred words: the path of n >= 26's
            // biggest jobs, taken here by every job that has that many.
            let (mut a, mut b, mut c) = (
                Scratch::default(),
                Scratch::default(),
                Scratch::chunked(300, 500),
            );
            for id in ids {
                let job = whole.job(id);
                assert_eq!(sliced.job(id), job);
                let want = whole.run_job(&job, &mut a);
                assert_eq!(sliced.run_job(&job, &mut b), want, "n = {n}, job {id}");
                assert_eq!(
                    sliced.run_job(&job, &mut c),
                    want,
                    "n = {n}, job {id}, chunked"
                );
            }
        }
    }

    /// The deepest sieve (up to 14 cut bits, the default from n = 23)
    /// counts what the shallow one of n <= 22 counts, on the costliest jobs
    /// of n = 21 and 22, where the deep one takes more than 6 cuts.
    #[test]
    fn a_deeper_sieve_counts_the_same_jobs_alike() {
        let mut deepest = 0;
        for n in [21, 22] {
            let plan = JoinPlan::new(n, Stage::FixedMiddle).unwrap();
            let mut ids: Vec<u32> = (0..plan.len() as u32).collect();
            ids.sort_by_key(|&id| std::cmp::Reverse(plan.cost(id)));
            let (mut shallow, mut deep) = (Scratch::default(), Scratch::default());
            deep.set_max_cuts(sieve::MAX_CUTS);
            for &id in &ids[..2] {
                let job = plan.job(id);
                let want = plan.run_job(&job, &mut shallow);
                assert_eq!(plan.run_job(&job, &mut deep), want, "n = {n}, job {id}");
                deepest = deepest.max(deep.work.sieve.last_cuts());
            }
        }
        assert!(
            deepest > sieve::DEFAULT_CUTS,
            "the deep sieve took {deepest} cuts"
        );
    }
}
