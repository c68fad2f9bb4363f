//! Running one job: make its left and right half-boards from its pieces
//! and count the pairs whose diagonals do not meet, with the matcher the
//! stage calls for, times the job's weight.

use super::halves::{Side, mirror_weight, right_weight};
use super::matcher::{TAG, count_naive, query};
use super::odd::{Middle, OddGeometry};
use super::plan::{Pieces, candidates};
use super::quarter::Groups;
use super::scratch::Work;
use super::sieve::{Sieve, or_all};
use super::tables::Quarters;
use super::{Job, JoinPlan, Kind, Scratch, Stage, pairs};
use std::time::Instant;

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
            return self.run_odd_job(job, (middle, odd), quarters, work);
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
        let right_fits = self.right_fits(job, work);
        let pairs = work.count_pairs(
            (geo.window_bits(), false, right_fits),
            |chunks, buffers| pairs::left_halves(geo, quarters.left, job.rows, chunks, buffers),
            |chunks, buffers| {
                pairs::right_halves(geo, quarters.right, right_rows, mirror, chunks, buffers);
            },
        );
        u128::from(pairs) * u128::from(job.weight)
    }

    fn run_odd_job<G: Groups>(
        &self,
        job: &Job,
        (middle, odd): (Middle, &OddGeometry),
        quarters: &Quarters<'_, G>,
        work: &mut Work,
    ) -> u128 {
        let right_rows = odd.free_rows(middle) & !job.rows;
        let right_fits = self.right_fits(job, work);
        let pairs = work.count_pairs(
            (odd.window_bits(), true, right_fits),
            |chunks, buffers| odd.left_halves(quarters.left, middle, job.rows, chunks, buffers),
            |chunks, buffers| odd.right_halves(quarters.right, middle, right_rows, chunks, buffers),
        );
        u128::from(pairs) * u128::from(job.weight)
    }

    /// Whether `job`'s right half-boards fit in one of `work`'s right
    /// chunks: surely where the plan's largest job's candidates do (every
    /// job to n = 25), else by the job's own candidates (one dot product,
    /// or a few thousand lookups around a fixed middle: microseconds, on
    /// jobs of minutes).
    fn right_fits(&self, job: &Job, work: &Work) -> bool {
        let chunk = work.chunks.2 as u64;
        if self.largest_right <= chunk {
            return true;
        }
        let candidates = match (job.kind, &self.odd) {
            (Kind::Odd(middle), Some(odd)) => {
                let rows = odd.free_rows(middle) & !job.rows;
                odd.right_candidates_plainly(&self.sizes, middle, rows)
            }
            _ => candidates(
                &self.geo,
                &self.sizes,
                Side::Right,
                !job.rows & self.geo.all_rows(),
            ),
        };
        candidates <= chunk
    }
}

impl Work {
    /// The compatible pairs of a job's left half-boards (made by `left`,
    /// which hands them over in chunks) and right ones (made by `right`,
    /// likewise), on words of `bits` bits. With `either` (unweighted words
    /// on both sides) the shorter side of each count is the stored one,
    /// whose tables are cheaper to build (on average 2.2 times fewer right
    /// half-boards than left ones at n = 19), or the longer where both are
    /// big ([`store_rights`]); else the right words are the queries.
    ///
    /// Where the right half-boards fit in one chunk (`right_fits`: every
    /// job to n = 25, most of 26), they are made once, when the first left
    /// chunk is full or the left ones end (not at all for a job without left
    /// half-boards), and every left chunk is counted against them. Where
    /// they do not, each chunk of right ones is counted against all the
    /// left ones, made again for each: one more pass over the left pieces
    /// per right chunk (a few at n = 28), so that a thread holds a chunk of
    /// each side and never a whole side.
    fn count_pairs(
        &mut self,
        (bits, either, right_fits): (u32, bool, bool),
        mut left: impl FnMut(pairs::Chunks<'_>, &mut pairs::Buffers),
        mut right: impl FnMut(pairs::Chunks<'_>, &mut pairs::Buffers),
    ) -> u64 {
        let Self {
            left: words,
            queries,
            pairing,
            right_pairing,
            sieve,
            chunks: (stored_chunk, asked_chunk, right_chunk),
            longer_from,
            ..
        } = self;
        let longer_from = *longer_from;
        let (stored_chunk, right_chunk) = (*stored_chunk, *right_chunk);
        let sizes = (bits, stored_chunk, *asked_chunk);
        let low = !0u64 >> (64 - bits);
        // One chunk of left words against the right words `rights`.
        // `asked`: whether the sieve holds `rights` as its asked side
        // already (from an earlier chunk); `last`: whether no chunk came
        // before and none will, so that there is nothing to share.
        let count =
            |sieve: &mut Sieve, lefts: &[u64], rights: &mut [u64], asked: &mut bool, last| {
                sieve.tally.left += lefts.len() as u64;
                let started = sieve.timed.then(Instant::now);
                let pairs = if either && store_rights(lefts.len(), rights.len(), longer_from) {
                    *asked = false;
                    count_in_chunks(sieve, rights, lefts, sizes)
                } else if !either && stores_by_weight(lefts.len(), rights, longer_from) {
                    *asked = false;
                    count_by_weight(sieve, rights, lefts, sizes)
                } else if !*asked && last {
                    count_in_chunks(sieve, lefts, rights, sizes)
                } else {
                    if !*asked {
                        sieve.ask(rights, lefts, or_all(rights) & low, bits);
                        *asked = true;
                    }
                    sieve.count_asked(lefts)
                };
                if let Some(started) = started {
                    sieve.tally.counting += started.elapsed();
                }
                pairs
            };
        let mut pairs = 0;
        if right_fits {
            let (mut made, mut asked) = (false, false);
            let mut per_left = |chunk: &mut Vec<u64>, last: bool| {
                if !made {
                    made = true;
                    queries.clear();
                    let mut keep = |_: &mut Vec<u64>| {};
                    right((&mut *queries, usize::MAX, &mut keep), right_pairing);
                    sieve.tally.right += queries.len() as u64;
                    sieve.tally.left_passes += 1;
                }
                pairs += count(sieve, chunk, &mut queries[..], &mut asked, last);
                chunk.clear();
            };
            left_pass((words, stored_chunk), &mut left, pairing, &mut per_left);
        } else {
            let mut per_right = |rights: &mut Vec<u64>| {
                sieve.tally.right += rights.len() as u64;
                sieve.tally.left_passes += 1;
                let mut asked = false;
                let mut per_left = |chunk: &mut Vec<u64>, last: bool| {
                    pairs += count(sieve, chunk, rights, &mut asked, last);
                    chunk.clear();
                };
                left_pass((words, stored_chunk), &mut left, pairing, &mut per_left);
                rights.clear();
            };
            queries.clear();
            right((&mut *queries, right_chunk, &mut per_right), right_pairing);
            if !queries.is_empty() {
                per_right(queries);
            }
        }
        pairs
    }
}

/// One pass over a job's left half-boards: `left` makes them into `words`,
/// handing each full chunk (`stored_chunk` words) to `per_left` with
/// `last` false, and what remains at the end with `last` true (where no
/// chunk came before, it is the only one).
fn left_pass(
    (words, stored_chunk): (&mut Vec<u64>, usize),
    left: &mut impl FnMut(pairs::Chunks<'_>, &mut pairs::Buffers),
    pairing: &mut pairs::Buffers,
    per_left: &mut impl FnMut(&mut Vec<u64>, bool),
) {
    words.clear();
    let full = &mut |chunk: &mut Vec<u64>| per_left(chunk, false);
    left((&mut *words, stored_chunk, full), pairing);
    if !words.is_empty() {
        per_left(words, true);
    }
}

/// Whether a count of unweighted words (`either`) stores the right ones:
/// the shorter side, whose tables are cheaper to build, unless both sides
/// have `longer_from` words or more: then the longer side, on which the
/// sieve may take more cut bits (at most `log2(stored / 512)`) while its
/// buckets stay full. Measured on four units of n = 27 whose sides have
/// millions of words (56071793, 34101560, 57496730, 63149848), both builds
/// at once, one core each, two rounds: 29.2 and 28.7 s with the shorter
/// side stored, 14.8 and 14.1 s with the longer; n = 25's sample of 16
/// units, few of whose jobs are that big: 2.47 and 2.45 s against 2.48 and
/// 2.49 (results/amd-epyc-2c/2026-11-26-join-reach.txt).
fn store_rights(lefts: usize, rights: usize, longer_from: usize) -> bool {
    if lefts.min(rights) >= longer_from {
        rights > lefts
    } else {
        lefts > rights
    }
}

/// Whether a weighted count stores its right words (by weight, in
/// [`count_by_weight`]) rather than its `lefts` left ones: where the left
/// ones number `longer_from` or more and the right words of one weight
/// twice as many. Measured on the 12 sampled units of n = 26, both builds
/// at once, one core each: units whose largest weight class had 2.3 to
/// 5.1 times the left words took 0.45 to 0.79 of the time with the right
/// words stored, those with 0.8 to 1.9 times 0.92 to 2.1
/// (results/amd-epyc-2c/2026-11-26-store-by-weight.txt).
fn stores_by_weight(lefts: usize, rights: &[u64], longer_from: usize) -> bool {
    if lefts < longer_from || rights.len() < 2 * lefts {
        return false;
    }
    let mut by_tag = [0usize; 4];
    for &word in rights {
        by_tag[(word >> TAG) as usize] += 1;
    }
    by_tag.iter().any(|&words| words >= 2 * lefts)
}

/// The weighted pairs of right words `rights` (queries: the weight in the
/// tag) and unweighted left ones `lefts` that share no bit, the right
/// words stored: they are put in order of weight (in place) and each
/// weight's words are stored and counted against `lefts` as queries of
/// weight 1, times the weight. The stored words keep their tags, which lie
/// above every bit the sieve and the matcher read. For even jobs whose
/// right side is the longer and both sides big: the sieve may take more
/// cut bits on the longer side, as for odd jobs ([`store_rights`]).
fn count_by_weight(
    sieve: &mut Sieve,
    rights: &mut [u64],
    lefts: &[u64],
    sizes: (u32, usize, usize),
) -> u64 {
    #[cfg(test)]
    {
        sieve.stored_by_weight += 1;
    }
    let mut total = 0;
    let mut rest = rights;
    for tag in 0..4 {
        if rest.is_empty() {
            break;
        }
        let mut front = 0;
        for i in 0..rest.len() {
            if rest[i] >> TAG == tag {
                rest.swap(front, i);
                front += 1;
            }
        }
        let (class, others) = std::mem::take(&mut rest).split_at_mut(front);
        total += count_in_chunks(sieve, class, lefts, sizes) << tag;
        rest = others;
    }
    total
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
    #[ignore = "slow (about a minute): .ci/run runs it"]
    fn jobs_on_slices_count_what_jobs_on_whole_tables_count() {
        let mut seed = 0x2026_1124_u64;
        let mut draw = |len: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % len as u64) as u32
        };
        let (mut sieved_in_chunks, mut by_weight, mut greedily) = (0, 0, 0);
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
            // Chunks of a few hundred words: the paths of the biggest
            // jobs of n >= 26 (left chunks, and right chunks too), taken
            // here by every job that has that many.
            // And left chunks big enough to sieve against right words
            // bucketed once (n >= 27's path), from n = 20 on; and the same
            // with the longer side stored from 3000 words a side on (odd
            // jobs' either side, even jobs' right words by weight).
            let (mut a, mut b, mut c, mut d, mut e, mut f) = (
                Scratch::default(),
                Scratch::default(),
                Scratch::chunked(300, 500, usize::MAX),
                Scratch::chunked(300, 500, 700),
                Scratch::chunked(5000, 1 << 20, 40_000),
                Scratch::chunked(5000, 1 << 20, 40_000).storing_longer_from(3000),
            );
            // The longer side stored and the cuts ranked greedily.
            f.work.sieve.rank_greedily_always();
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
                assert_eq!(
                    whole.run_job(&job, &mut d),
                    want,
                    "n = {n}, job {id}, chunked on both sides"
                );
                e.set_timed(false);
                assert_eq!(
                    whole.run_job(&job, &mut e),
                    want,
                    "n = {n}, job {id}, in sieved chunks"
                );
                if e.tally().left > 5000 && e.work.sieve.last_cuts() > 0 {
                    sieved_in_chunks += 1;
                }
                assert_eq!(
                    whole.run_job(&job, &mut f),
                    want,
                    "n = {n}, job {id}, the longer side stored"
                );
            }
            by_weight += f.work.sieve.stored_by_weight;
            greedily += f.work.sieve.ranked_greedily;
        }
        assert!(greedily > 3, "{greedily} asks ranked their cuts greedily");
        assert!(
            sieved_in_chunks > 3,
            "{sieved_in_chunks} jobs sieved in chunks"
        );
        // Even jobs whose right side is the longer stored it by weight.
        assert!(
            by_weight > 3,
            "{by_weight} counts stored right words by weight"
        );
    }

    /// A job whose buckets the pool's threads share counts what it counts
    /// on one thread: the costliest jobs of n = 20 and 21 (whose sieves
    /// take 4 to 7 cuts), the deepest sieve, on pools of 2 and 3 threads,
    /// and in small chunks, where the buckets are shared chunk by chunk.
    #[test]
    fn a_job_shared_by_threads_counts_what_one_thread_counts() {
        for n in [20, 21] {
            let plan = JoinPlan::new(n, Stage::FixedMiddle).unwrap();
            let mut ids: Vec<u32> = (0..plan.len() as u32).collect();
            ids.sort_by_key(|&id| std::cmp::Reverse(plan.cost(id)));
            let mut alone = Scratch::default();
            alone.set_max_cuts(sieve::MAX_CUTS);
            for &id in &ids[..3] {
                let job = plan.job(id);
                let want = plan.run_job(&job, &mut alone);
                for (threads, chunks) in [(2, None), (3, None), (3, Some(5000))] {
                    let pool = rayon::ThreadPoolBuilder::new()
                        .num_threads(threads)
                        .build()
                        .unwrap();
                    let mut shared = match chunks {
                        Some(words) => Scratch::chunked(words, 1 << 20, 40_000),
                        None => Scratch::default(),
                    };
                    shared.set_max_cuts(sieve::MAX_CUTS);
                    shared.set_shared(true);
                    let got = pool.install(|| plan.run_job(&job, &mut shared));
                    assert_eq!(got, want, "n = {n}, job {id}, {threads} threads");
                    assert!(shared.work.sieve.helped_counts > 0, "n = {n}, job {id}");
                }
            }
        }
    }

    /// The deepest sieve (up to 18 cut bits and its buckets split on 2
    /// more, the default from n = 23) counts what the shallow one of
    /// n <= 22 (6 cuts, no split) counts, on the costliest jobs of n = 21
    /// and 22, where the deep one takes more than 6 cuts.
    #[test]
    #[ignore = "slow (about 20 s): .ci/run runs it"]
    fn a_deeper_sieve_counts_the_same_jobs_alike() {
        let mut deepest = 0;
        for n in [21, 22] {
            let plan = JoinPlan::new(n, Stage::FixedMiddle).unwrap();
            let mut ids: Vec<u32> = (0..plan.len() as u32).collect();
            ids.sort_by_key(|&id| std::cmp::Reverse(plan.cost(id)));
            let (mut shallow, mut deep) = (Scratch::default(), Scratch::default());
            shallow.set_split(0);
            deep.set_max_cuts(sieve::MAX_CUTS);
            deep.set_split(sieve::DEFAULT_SPLIT);
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
