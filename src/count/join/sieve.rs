//! The sieve: stored words bucketed on a few cut bits, so that each query
//! meets only the buckets it can match.
//!
//! A stored word `s` goes to bucket `i = !cut(s)` (its cut bits, inverted,
//! over `k` bits). A query whose cut bits are `c` can only match words with
//! none of those bits, which live in the buckets `i` that contain `c`. So
//! each bucket's matcher is built once and counted against the queries
//! whose cut bits are a subset of its index: with the most often set bits
//! as cuts, most pairs that would fail on them are never tested.
//!
//! Each job picks its own cut bits (the window bits set most often in both
//! its stored words and its queries) and their number `k` (the one whose
//! estimated work, in 64-word block visits times the matcher's chunks, is
//! least). `k = 0` is the plain matcher. The result never depends on the
//! cuts: only which pairs get tested does.
//!
//! Within a bucket, each side's words are ordered on a few more bits (the
//! next ranked, [`DEFAULT_SPLIT`] of them from n = 23), which stay in the
//! words: a query then meets only the part of a big bucket whose words
//! lack its bits of those ([`SPLITS`]). Most pairs are tested in the
//! biggest buckets (those that lack most cuts, met by the most query
//! groups), and this spares about a fifth of their 512-word blocks where
//! more cuts would make the small buckets smaller still.
//!
//! Jobs too small for that to pay (fewer than [`MIN_SIDE`] words on a side)
//! take the light sieve ([`light`]) where the CPU has AVX-512: at most two
//! cuts, each side sorted on them as it is squeezed.
//!
//! Before matching, the words are squeezed (`pext`) down to the bits that
//! can decide a pair: set in some stored word and some query, and not a
//! cut (within a bucket, no query meets a stored word on a cut bit). At
//! n = 18 that leaves at most 30 of the 34 window bits, so six chunks of
//! five instead of seven.

use std::cell::RefCell;
use std::time::{Duration, Instant};

use rayon::prelude::*;

use super::matcher::bytes::GATHERED;
use super::matcher::{BLOCK_BITS, CHUNK, PIECE, SlicedMatcher, TAG};
use crate::cpu::Features;

mod light;

/// What the jobs run on one scratch did: the half-boards made, the pairs
/// the matcher tested, and (where timed) where the time went. For
/// profiles of the join's growth (`queens::internals::join_unit_tally`,
/// `benches/join_reach.rs`); the counts are kept always (a few additions
/// per chunk), the times only when asked for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Tally {
    /// Left half-boards made, over every pass.
    pub left: u64,
    /// Right half-boards made (their queries).
    pub right: u64,
    /// Passes over the left pieces: one a right chunk.
    pub left_passes: u64,
    /// (stored word, query) pairs the matcher tested, padding left out:
    /// what the sieve did not rule out.
    pub tested: u128,
    /// Time counting chunks against each other (the sieve and the
    /// matcher); the rest of a job's time is making half-boards.
    pub counting: Duration,
    /// Of `counting`: ranking cut bits and bucketing words.
    pub sieving: Duration,
    /// Of `counting`: building the matchers' tables.
    pub building: Duration,
}

/// The most cut bits a job may use by default: 64 buckets. A job takes at
/// most `log2(stored / 512)` of them. (Measured with simultaneous pairs: a
/// flat cap of 4 against 3, 5 and 6 on a sample of n = 20 was 12 %, 5 % and
/// 19 % faster; on a sample of n = 22, a cap of 6 was 27 % faster than 4,
/// and the size rule equals the flat 4 at n = 18 and 20 and the flat 6 at
/// 22.) Larger boards take more: see [`super::JoinPlan::sieve_cuts`].
pub const DEFAULT_CUTS: usize = 6;
/// The most cut bits any job may use: 262,144 buckets, of 512 words on
/// average in a stored chunk of 2^27 words. (A cut value is a `u32`.)
pub const MAX_CUTS: usize = 18;

/// How many bits past the cuts order each side within its buckets by
/// default (see [`Buckets::count`]).
pub const DEFAULT_SPLIT: usize = 2;
/// The most such bits.
pub const MAX_SPLIT: usize = 3;
/// Stored buckets of at most this many words meet each query group whole:
/// one 512-word block, which no split can shorten.
const WHOLE: usize = 512;

/// Jobs with fewer stored words or queries than this are not sieved.
const MIN_SIDE: usize = 4096;
/// Words per side sampled to rank the bits.
const SAMPLE: usize = 256;

/// The sieve's buffers, reused from job to job.
pub struct Sieve {
    matcher: SlicedMatcher,
    stored: Vec<u64>,
    queries: Vec<u64>,
    /// Each word's value on all ranked cut bits, computed once and used
    /// for the histograms and both bucketings.
    stored_cuts: Vec<u32>,
    query_cuts: Vec<u32>,
    /// The shared bits of [`rank_greedily`]'s sampled pairs.
    shared: Vec<u64>,
    /// The most cut bits a job may take ([`DEFAULT_CUTS`] unless set).
    max_cuts: usize,
    /// How many bits past the cuts order the words within a bucket
    /// ([`DEFAULT_SPLIT`] unless set).
    split: usize,
    /// The loops it may take (the CPU's, by default).
    features: Features,
    /// The share of a job's pairs [`rank_greedily`] may sample
    /// ([`GREEDY_SHARE`], more in tests).
    greedy_share: f64,
    /// The queries of the last [`Sieve::ask`], bucketed in `queries`.
    asked: Option<Asked>,
    /// What its counts did, for profiles; timed only where `timed`.
    pub(super) tally: Tally,
    pub(super) timed: bool,
    /// Whether the pool's other threads count this job's buckets too
    /// ([`Sieve::set_shared`]).
    helped: bool,
    /// How many cuts the last count took (0: the plain matcher), for the
    /// tests to see that the sieve was used.
    #[cfg(test)]
    last_cuts: usize,
    /// How many cuts the light sieve took on the last ask (0: none).
    #[cfg(test)]
    light_cuts: usize,
    /// How many counts stored right words by weight (`run::count_by_weight`),
    /// for the tests to see that path taken.
    #[cfg(test)]
    pub(super) stored_by_weight: usize,
    /// How many asks ranked their cuts greedily, likewise.
    #[cfg(test)]
    pub(super) ranked_greedily: usize,
    /// How many counts shared their buckets out, likewise.
    #[cfg(test)]
    pub(super) helped_counts: usize,
}

impl Default for Sieve {
    fn default() -> Self {
        Self {
            matcher: SlicedMatcher::default(),
            stored: Vec::new(),
            queries: Vec::new(),
            stored_cuts: Vec::new(),
            query_cuts: Vec::new(),
            shared: Vec::new(),
            max_cuts: DEFAULT_CUTS,
            split: DEFAULT_SPLIT,
            features: Features::default(),
            greedy_share: GREEDY_SHARE,
            asked: None,
            tally: Tally::default(),
            timed: false,
            helped: false,
            #[cfg(test)]
            last_cuts: 0,
            #[cfg(test)]
            light_cuts: 0,
            #[cfg(test)]
            stored_by_weight: 0,
            #[cfg(test)]
            ranked_greedily: 0,
            #[cfg(test)]
            helped_counts: 0,
        }
    }
}

impl Sieve {
    /// How many cuts the last count took (0: the plain matcher).
    #[cfg(test)]
    pub fn last_cuts(&self) -> usize {
        self.last_cuts
    }

    /// Rank the cuts greedily on any job big enough to sieve, to try
    /// that ranking on small boards.
    #[cfg(test)]
    pub fn rank_greedily_always(&mut self) {
        self.greedy_share = 1e-3;
    }

    /// Take at most `cuts` cut bits (1 to [`MAX_CUTS`]) from now on.
    pub fn set_max_cuts(&mut self, cuts: usize) {
        self.max_cuts = cuts.clamp(1, MAX_CUTS);
    }

    /// Order each bucket on `split` more bits (0 to [`MAX_SPLIT`]) from
    /// now on (0: not at all).
    pub fn set_split(&mut self, split: usize) {
        self.split = split.min(MAX_SPLIT);
    }

    /// Let the other threads of the current rayon pool count the buckets
    /// of this sieve's jobs from now on (`shared`), each on its own
    /// matcher, or not: for a count that holds fewer jobs at once than it
    /// has threads, so that each job's stored words are held once and its
    /// threads still all count. The rest of a job (making its half-boards,
    /// bucketing them: 2 to 7% of a big unit's time) stays on one thread.
    pub fn set_shared(&mut self, shared: bool) {
        self.helped = shared;
    }

    /// Take the loops `features` allow from now on.
    pub fn set_features(&mut self, features: Features) {
        self.features = features;
        self.matcher.features = features;
    }

    /// The bytes its buffers hold.
    #[cfg(test)]
    pub fn bytes(&self) -> u64 {
        self.matcher.bytes()
            + ((self.stored.capacity() + self.queries.capacity() + self.shared.capacity()) * 8
                + (self.stored_cuts.capacity() + self.query_cuts.capacity()) * 4)
                as u64
    }

    /// Counts the weighted compatible pairs between `stored` and `queries`
    /// (words of the low `bits` bits), bucketing on the cuts this job
    /// pays for.
    pub fn count(&mut self, stored: &[u64], queries: &[u64], bits: u32) -> u64 {
        if stored.is_empty() || queries.is_empty() {
            return 0;
        }
        let low = !0u64 >> (64 - bits);
        let live = or_all(stored) & or_all(queries) & low;
        self.ask(queries, stored, live, bits);
        // `ask` took `stored`'s cut values already, as its sample.
        self.count_with_asked(stored, true)
    }

    /// Takes `queries` (words of the low `bits` bits) as the asked side of
    /// the counts [`count_asked`](Self::count_asked) makes next, against
    /// stored words that use no bit of the window outside `live` or that
    /// no query uses: bucketed once, however many chunks of stored words
    /// come. `sample`, the first of them, decides whether to sieve and on
    /// which cuts. (With chunks of left half-boards counted against the
    /// same right ones, the right ones were bucketed again for every
    /// chunk: about 10 ns a word each time, 60 times over at n = 28.)
    pub fn ask(&mut self, queries: &[u64], sample: &[u64], live: u64, bits: u32) {
        #[cfg(test)]
        {
            self.last_cuts = 0;
            self.light_cuts = 0;
        }
        self.asked = None;
        // Choosing costs a few passes over the words; it can only pay back
        // when matching (about stored * queries / 64 block visits) dwarfs
        // that. Measured at n = 18, where few jobs are this big: a sieve on
        // every job took 7.5 s of CPU against 5.1 s without.
        if sample.len() < MIN_SIDE
            || queries.len() < MIN_SIDE
            || live.count_ones() < self.max_cuts as u32
        {
            self.ask_lightly(queries, sample, live, bits);
            return;
        }
        let started = self.timed.then(Instant::now);
        // The block-visit estimate does not see that small buckets fill
        // 512-word blocks badly: cap the cuts so that buckets average at
        // least 512 words. (Measured on three units of n = 26: a cap of
        // 16 cuts with buckets of 128 words took 1.55 times as long.) So
        // only that many bits are ranked and read.
        let most = ((sample.len() / 512).ilog2() as usize).min(self.max_cuts);
        let greedy = (self.greedy_share, &mut self.shared);
        let split = self.split;
        let ranked = rank_bits((sample, queries, bits), most + split, greedy);
        #[cfg(test)]
        if greedy_sample(sample.len(), queries.len(), self.greedy_share).is_some() {
            self.ranked_greedily += 1;
        }
        cut_values(
            sample,
            &ranked[..most],
            &mut self.stored_cuts,
            self.features,
        );
        cut_values(
            queries,
            &ranked[..most],
            &mut self.query_cuts,
            self.features,
        );
        let mut stored_by = vec![0u64; 1 << most];
        self.stored_cuts
            .iter()
            .for_each(|&v| stored_by[v as usize] += 1);
        let mut queries_by = vec![0u64; 1 << most];
        self.query_cuts
            .iter()
            .for_each(|&v| queries_by[v as usize] += 1);
        let k = (0..=most)
            .min_by_key(|&k| {
                // Each cut is also a bit less for the matcher to read.
                let chunks = u64::from(
                    live.count_ones()
                        .saturating_sub(k as u32)
                        .div_ceil(CHUNK)
                        .max(1),
                );
                block_visits(&stored_by, &queries_by, k) * chunks
            })
            .unwrap_or(0);
        if k == 0 {
            self.ask_plainly(queries, Squeeze::new(live, bits, self.features));
            return;
        }
        #[cfg(test)]
        {
            self.last_cuts = k;
        }
        // Within a bucket no query shares a cut bit with a stored word, so
        // the cut bits are squeezed out with the dead ones.
        let cuts = ranked[..k].iter().fold(0u64, |m, &t| m | 1 << t);
        let squeeze = Squeeze::new(live & !cuts, bits, self.features);
        let mask = (1u32 << k) - 1;
        // The next best bits order each bucket's words (the best of them
        // the highest bit of the order): they stay in the words.
        let extras: Vec<u32> = ranked[k..ranked.len().min(k + split)]
            .iter()
            .rev()
            .copied()
            .collect();
        let m = extras.len();
        add_extras(queries, &mut self.query_cuts, (&extras, k), None);
        let at = squeeze.bucket(
            (queries, &self.query_cuts, 1 << (k + m)),
            &mut self.queries,
            |v| (v & mask) << m | v >> k,
        );
        if let Some(started) = started {
            self.tally.sieving += started.elapsed();
        }
        // Later chunks of stored words read only the cuts taken.
        self.asked = Some(Asked {
            squeeze,
            cuts: Cuts::Ranked(ranked[..k].to_vec(), extras),
            at,
        });
    }

    /// [`ask`](Self::ask) for a job too small for the sieve: the queries
    /// squeezed and split on the light sieve's cuts, where they pay.
    fn ask_lightly(&mut self, queries: &[u64], sample: &[u64], live: u64, bits: u32) {
        let cuts = light::choose(sample, queries, live, self.features);
        #[cfg(test)]
        {
            self.light_cuts = cuts.count_ones() as usize;
        }
        if cuts == 0 {
            self.ask_plainly(queries, Squeeze::new(live, bits, self.features));
            return;
        }
        // The cut bits stay in the words: where a group's stored words
        // start or end inside a block, they keep the block's other words
        // from counting.
        let squeeze = Squeeze::new(live, bits, self.features);
        let at = light::split(squeeze, cuts, queries, &mut self.queries, self.features);
        self.asked = Some(Asked {
            squeeze,
            cuts: Cuts::Light(cuts, at),
            at: Vec::new(),
        });
    }

    /// [`ask`](Self::ask) without a sieve: the queries squeezed, whole.
    fn ask_plainly(&mut self, queries: &[u64], squeeze: Squeeze) {
        squeeze.copy(queries, &mut self.queries);
        self.asked = Some(Asked {
            squeeze,
            cuts: Cuts::None,
            at: Vec::new(),
        });
    }

    /// Counts the weighted compatible pairs between `stored` and the
    /// queries of the last [`ask`](Self::ask).
    pub fn count_asked(&mut self, stored: &[u64]) -> u64 {
        self.count_with_asked(stored, false)
    }

    /// [`count_asked`](Self::count_asked), `stored`'s cut values already
    /// in `stored_cuts` where `cut` (it was the sample).
    fn count_with_asked(&mut self, stored: &[u64], cut: bool) -> u64 {
        let Some(asked) = self.asked.take() else {
            panic!("count_asked before ask");
        };
        let total = self.count_with(stored, &asked, cut);
        self.asked = Some(asked);
        total
    }

    fn count_with(&mut self, stored: &[u64], asked: &Asked, cut: bool) -> u64 {
        if stored.is_empty() || self.queries.is_empty() {
            return 0;
        }
        let squeeze = asked.squeeze;
        let (ranked, extras) = match &asked.cuts {
            Cuts::None => {
                self.tally.tested += (stored.len() * self.queries.len()) as u128;
                squeeze.copy(stored, &mut self.stored);
                return self
                    .matcher
                    .count(&self.stored, &self.queries, squeeze.bits);
            }
            Cuts::Light(cuts, queries_at) => {
                return self.count_lightly(stored, squeeze, *cuts, queries_at);
            }
            Cuts::Ranked(ranked, extras) => (ranked, extras),
        };
        let started = self.timed.then(Instant::now);
        let (k, m) = (ranked.len(), extras.len());
        let mask = (1u32 << k) - 1;
        if !cut {
            cut_values(stored, ranked, &mut self.stored_cuts, self.features);
        }
        debug_assert_eq!(self.stored_cuts.len(), stored.len());
        add_extras(
            stored,
            &mut self.stored_cuts,
            (extras, k),
            Some(SPLITS[m].place),
        );
        let stored_at = squeeze.bucket(
            (stored, &self.stored_cuts, 1 << (k + m)),
            &mut self.stored,
            |v| (!v & mask) << m | v >> k,
        );
        if let Some(started) = started {
            self.tally.sieving += started.elapsed();
        }
        let buckets = Buckets {
            stored: (&self.stored, &stored_at),
            queries: (&self.queries, &asked.at),
            bits: squeeze.bits,
            split: m,
            bytes: self.features.vbmi(),
        };
        let block = if cfg!(target_arch = "x86_64") && self.features.vbmi() && squeeze.bits <= 48 {
            BLOCK_BITS.min(k)
        } else {
            0
        };
        if self.helped && rayon::current_num_threads() > 1 {
            #[cfg(test)]
            {
                self.helped_counts += 1;
            }
            let features = self.features;
            let (total, tested) = (0..1usize << (k - block))
                .into_par_iter()
                .with_min_len((SHARED_MIN_BUCKETS >> block).max(1))
                .map(|at| {
                    HELPER.with_borrow_mut(|matcher| {
                        matcher.features = features;
                        buckets.count_from((at << block, block), matcher, None)
                    })
                })
                .reduce(|| (0, 0), |a, b| (a.0 + b.0, a.1 + b.1));
            self.tally.tested += tested;
            return total;
        }
        let (mut total, mut tested) = (0, 0);
        let mut building = self.timed.then_some(&mut self.tally.building);
        for first in (0..1usize << k).step_by(1 << block) {
            let (pairs, tests) =
                buckets.count_from((first, block), &mut self.matcher, building.as_deref_mut());
            total += pairs;
            tested += tests;
        }
        self.tally.tested += tested;
        total
    }
}

/// A stored chunk and the asked queries, both bucketed on the same cuts
/// and, within a bucket, on `split` more bits ([`SPLITS`]): each side's
/// words in order of bucket and then of split value (the queries) or of
/// its place in the split's order (the stored words), and where each
/// (bucket, value or place) starts, at `bucket << split | value`.
struct Buckets<'a> {
    stored: (&'a [u64], &'a [usize]),
    queries: (&'a [u64], &'a [usize]),
    /// The bits the matcher reads.
    bits: u32,
    /// The bits past the cuts that order each bucket.
    split: usize,
    /// Whether buckets are counted on byte tables ([`super::matcher::bytes`]).
    bytes: bool,
}

/// How a bucket's words are split on `m` more bits: where the stored
/// words of each split value go, and which places a query of each split
/// value meets.
struct Split {
    /// The place in a bucket of the stored words of each split value.
    place: &'static [u8],
    /// For a query of each split value `e`, the places it is counted
    /// against: every value with none of `e`'s bits lies there (one, two:
    /// exactly those; three: one more place for three of the eight). The
    /// others there share a split bit with the query, which stays in the
    /// words, so they never count.
    meets: &'static [(u8, u8)],
}

/// The split on each number of bits, 0 to [`MAX_SPLIT`].
const SPLITS: [Split; MAX_SPLIT + 1] = [
    Split {
        place: &[0],
        meets: &[(0, 1)],
    },
    Split {
        place: &[0, 1],
        meets: &[(0, 2), (0, 1)],
    },
    Split {
        place: &[1, 0, 2, 3],
        meets: &[(0, 4), (1, 3), (0, 2), (1, 2)],
    },
    Split {
        place: &[2, 1, 3, 0, 4, 5, 6, 7],
        meets: &[
            (0, 8),
            (2, 7),
            (1, 6),
            (2, 5),
            (0, 4),
            (2, 4),
            (1, 3),
            (2, 3),
        ],
    },
];

impl Buckets<'_> {
    /// The `1 << bits` buckets from `first` (whose low `bits` bits are 0):
    /// [`Buckets::count_block`] where the target has byte tables, else
    /// [`Buckets::count`] of the one bucket there (`bits` is 0).
    fn count_from(
        &self,
        (first, bits): (usize, usize),
        matcher: &mut SlicedMatcher,
        building: Option<&mut Duration>,
    ) -> (u64, u128) {
        #[cfg(target_arch = "x86_64")]
        return self.count_block((first, bits), matcher, building);
        #[cfg(not(target_arch = "x86_64"))]
        {
            debug_assert_eq!(bits, 0, "blocks are counted on byte tables only");
            self.count(first, matcher, building)
        }
    }

    /// The weighted pairs of stored bucket `bucket` and every query group
    /// whose cut bits are a subset of its index, on `matcher`, and how
    /// many pairs that tested; the time building tables added to
    /// `building` where given.
    ///
    /// Within a bucket big enough, a query of split value `e` meets only
    /// the stored words of the places [`SPLITS`] gives it (in whole
    /// blocks): it can only match those with none of its split bits.
    fn count(
        &self,
        bucket: usize,
        matcher: &mut SlicedMatcher,
        mut building: Option<&mut Duration>,
    ) -> (u64, u128) {
        let (stored, stored_at) = self.stored;
        let (queries, queries_at) = self.queries;
        let m = self.split;
        let values = 1usize << m;
        let places = &stored_at[bucket << m..=(bucket + 1) << m];
        let bucket_words = &stored[places[0]..places[values]];
        let whole = m == 0 || bucket_words.len() <= WHOLE;
        if self.bytes {
            return self.count_gathered((bucket, places, whole), matcher, building);
        }
        let (mut total, mut tested) = (0, 0);
        // The tables of a piece of the bucket at a time (one, but for the
        // rare bucket of more than `PIECE` words).
        for (start, words) in (0..).step_by(PIECE).zip(bucket_words.chunks(PIECE)) {
            let started = building.is_some().then(Instant::now);
            matcher.build(words, self.bits);
            if let (Some(building), Some(started)) = (building.as_deref_mut(), started) {
                *building += started.elapsed();
            }
            // Every query group whose cut bits are a subset of `bucket`,
            // gathered so the tables are built once.
            let mut group = bucket;
            loop {
                let at = &queries_at[group << m..=(group + 1) << m];
                if whole {
                    let qs = &queries[at[0]..at[values]];
                    if !qs.is_empty() {
                        tested += (words.len() * qs.len()) as u128;
                        total += matcher.count_built(qs);
                    }
                } else {
                    for (e, &(from, to)) in SPLITS[m].meets.iter().enumerate() {
                        let qs = &queries[at[e]..at[e + 1]];
                        let lanes = (places[usize::from(from)] - places[0]).max(start)
                            ..(places[usize::from(to)] - places[0]).min(start + words.len());
                        if !qs.is_empty() && !lanes.is_empty() {
                            tested += (lanes.len() * qs.len()) as u128;
                            total += matcher
                                .count_built_within(qs, lanes.start - start..lanes.end - start);
                        }
                    }
                }
                if group == 0 {
                    break;
                }
                group = (group - 1) & bucket;
            }
        }
        (total, tested)
    }
}

impl Buckets<'_> {
    /// [`Buckets::count`] of `bucket` (its places start at `places`, met
    /// by each query group `whole` or not) on byte tables
    /// ([`super::matcher::bytes`]), which count 64 queries at a time: the
    /// queries of every group that meets the bucket are gathered, for each
    /// split value, into one run against the places that value meets, so
    /// that the vectors of 64 are full and each tile of the tables, in the
    /// first cache, meets them all. (Counted group by group, most runs
    /// filled a vector in part, and the tables of a big bucket came from
    /// the second cache for each.)
    ///
    /// The groups are visited once, each run gathered into its own share
    /// of the buffer: a group's queries of every split value lie together,
    /// and at n = 27 a group holds about 30 queries of each, scattered over
    /// tens of MiB, so that gathering is bound by memory (about a fifth of
    /// a big unit's counting time, each query copied some 140 times).
    /// Gathered one run after the other, every group was fetched once a
    /// run.
    fn count_gathered(
        &self,
        (bucket, places, whole): (usize, &[usize], bool),
        matcher: &mut SlicedMatcher,
        mut building: Option<&mut Duration>,
    ) -> (u64, u128) {
        let (queries, queries_at) = self.queries;
        let m = self.split;
        let values = 1usize << m;
        let bucket_words = &self.stored.0[places[0]..places[values]];
        let runs = if whole { 1 } else { values };
        // Each run's split values and the places they meet.
        let run = |r: usize| {
            if whole {
                return (0..values, 0..bucket_words.len());
            }
            let (from, to) = SPLITS[m].meets[r];
            let lanes = places[usize::from(from)] - places[0]..places[usize::from(to)] - places[0];
            (r..r + 1, lanes)
        };
        let room = GATHERED / runs;
        let mut gathered = std::mem::take(&mut matcher.gathered);
        gathered.resize(GATHERED, 0);
        let (mut total, mut tested) = (0, 0);
        let piece = SlicedMatcher::BYTE_PIECE;
        for (start, words) in (0..).step_by(piece).zip(bucket_words.chunks(piece)) {
            let started = building.is_some().then(Instant::now);
            matcher.build_bytes(words, self.bits);
            if let (Some(building), Some(started)) = (building.as_deref_mut(), started) {
                *building += started.elapsed();
            }
            // Each run's split values, and its places within this piece
            // (none: nothing to count).
            let within: [_; 1 << MAX_SPLIT] = std::array::from_fn(|r| {
                if r >= runs {
                    return (0..0, 0..0);
                }
                let (split_values, lanes) = run(r);
                let lanes = lanes.start.max(start)..lanes.end.min(start + words.len());
                if lanes.is_empty() {
                    return (0..0, 0..0);
                }
                (split_values, lanes.start - start..lanes.end - start)
            });
            let mut count = |r: usize, qs: &[u64]| {
                let lanes = &within[r].1;
                tested += (lanes.len() * qs.len()) as u128;
                total += matcher.count_built_within(qs, lanes.clone());
            };
            let mut filled = [0usize; 1 << MAX_SPLIT];
            let mut group = bucket;
            loop {
                let at = &queries_at[group << m..=(group + 1) << m];
                for r in 0..runs {
                    let split_values = &within[r].0;
                    let qs = &queries[at[split_values.start]..at[split_values.end]];
                    if qs.is_empty() {
                        continue;
                    }
                    let share = &mut gathered[r * room..(r + 1) * room];
                    if filled[r] + qs.len() > room {
                        count(r, &share[..filled[r]]);
                        filled[r] = 0;
                    }
                    if qs.len() > room {
                        count(r, qs);
                    } else {
                        share[filled[r]..filled[r] + qs.len()].copy_from_slice(qs);
                        filled[r] += qs.len();
                    }
                }
                if group == 0 {
                    break;
                }
                group = (group - 1) & bucket;
            }
            for (r, &filled) in filled.iter().enumerate().take(runs) {
                if filled > 0 {
                    count(r, &gathered[r * room..r * room + filled]);
                }
            }
        }
        matcher.gathered = gathered;
        (total, tested)
    }
}

#[cfg(target_arch = "x86_64")]
impl Buckets<'_> {
    /// [`Buckets::count`] of the `1 << bits` buckets from `first` (whose
    /// low `bits` bits are 0), on byte tables: those of at most
    /// [`BLOCK_WORDS`](super::matcher::BLOCK_WORDS) words are built side by side, and each query group
    /// that meets any of them is gathered once for all it meets, not once
    /// for each (a group of cut bits `g` meets the buckets whose index has
    /// every bit of `g`). The others are counted alone.
    fn count_block(
        &self,
        (first, bits): (usize, usize),
        matcher: &mut SlicedMatcher,
        mut building: Option<&mut Duration>,
    ) -> (u64, u128) {
        let (mut total, mut tested) = (0, 0);
        let (stored, stored_at) = self.stored;
        let m = self.split;
        let values = 1usize << m;
        // Each bucket of the block counted here: its slot and, for each
        // split value, the places it meets.
        let mut slots = [usize::MAX; 1 << BLOCK_BITS];
        let mut lanes: [[std::ops::Range<usize>; 1 << MAX_SPLIT]; 1 << BLOCK_BITS] =
            Default::default();
        let mut built = 0;
        for low in 0..1usize << bits {
            let bucket = first | low;
            let places = &stored_at[bucket << m..=(bucket + 1) << m];
            let len = places[values] - places[0];
            if len > 0 && len <= super::matcher::BLOCK_WORDS && bits > 0 {
                let started = building.is_some().then(Instant::now);
                matcher.build_block(built, &stored[places[0]..places[values]], self.bits);
                if let (Some(building), Some(started)) = (building.as_deref_mut(), started) {
                    *building += started.elapsed();
                }
                slots[low] = built;
                built += 1;
                let whole = m == 0 || len <= WHOLE;
                for (e, lane) in lanes[low].iter_mut().enumerate().take(values) {
                    *lane = if whole {
                        0..len
                    } else {
                        let (from, to) = SPLITS[m].meets[e];
                        places[usize::from(from)] - places[0]..places[usize::from(to)] - places[0]
                    };
                }
                continue;
            }
            if len > 0 {
                let (pairs, tests) = self.count(bucket, matcher, building.as_deref_mut());
                total += pairs;
                tested += tests;
            }
        }
        if built == 0 {
            return (total, tested);
        }
        {
            let (queries, queries_at) = self.queries;
            let high = first;
            let room = GATHERED / values;
            let mut gathered = std::mem::take(&mut matcher.gathered);
            gathered.resize(GATHERED, 0);
            let mut targets: [(usize, std::ops::Range<usize>); 1 << BLOCK_BITS] =
                Default::default();
            for low_group in 0..1usize << bits {
                // The buckets of the block this group's low bits meet.
                let meets: Vec<usize> = (0..1usize << bits)
                    .filter(|&low| slots[low] != usize::MAX && low & low_group == low_group)
                    .collect();
                if meets.is_empty() {
                    continue;
                }
                let mut count = |e: usize, qs: &[u64]| {
                    let mut n = 0;
                    for &low in &meets {
                        let lane = lanes[low][e].clone();
                        if !lane.is_empty() {
                            tested += (lane.len() * qs.len()) as u128;
                            targets[n] = (slots[low], lane);
                            n += 1;
                        }
                    }
                    if n > 0 {
                        total += matcher.count_block(&targets[..n], qs, self.bits);
                    }
                };
                let mut filled = [0usize; 1 << MAX_SPLIT];
                let mut high_group = high;
                loop {
                    let group = high_group | low_group;
                    let at = &queries_at[group << m..=(group + 1) << m];
                    for e in 0..values {
                        let qs = &queries[at[e]..at[e + 1]];
                        if qs.is_empty() {
                            continue;
                        }
                        let share = &mut gathered[e * room..(e + 1) * room];
                        if filled[e] + qs.len() > room {
                            count(e, &share[..filled[e]]);
                            filled[e] = 0;
                        }
                        if qs.len() > room {
                            count(e, qs);
                        } else {
                            share[filled[e]..filled[e] + qs.len()].copy_from_slice(qs);
                            filled[e] += qs.len();
                        }
                    }
                    if high_group == 0 {
                        break;
                    }
                    high_group = (high_group - 1) & high;
                }
                for (e, &filled) in filled.iter().enumerate().take(values) {
                    if filled > 0 {
                        count(e, &gathered[e * room..e * room + filled]);
                    }
                }
            }
            matcher.gathered = gathered;
        }
        (total, tested)
    }
}

/// Puts each word's value on `extras` (the first its bit 0), or where
/// given its place in `order` by that value, above the low `k` bits of its
/// entry of `values` (its cut value), in place of what was there.
fn add_extras(
    words: &[u64],
    values: &mut [u32],
    (extras, k): (&[u32], usize),
    order: Option<&[u8]>,
) {
    let mask = (1u32 << k) - 1;
    let place = |e: u32| order.map_or(e, |order| u32::from(order[e as usize]));
    match *extras {
        [] => values.iter_mut().for_each(|v| *v &= mask),
        [a] => words.iter().zip(values).for_each(|(&w, v)| {
            *v = *v & mask | place(((w >> a) & 1) as u32) << k;
        }),
        _ => words.iter().zip(values).for_each(|(&w, v)| {
            let e = extras
                .iter()
                .enumerate()
                .fold(0, |e, (i, &t)| e | (((w >> t) & 1) as u32) << i);
            *v = *v & mask | place(e) << k;
        }),
    }
}

thread_local! {
    /// The matcher a thread counts shared jobs' buckets on
    /// ([`Sieve::set_shared`]): one a thread, whichever job the bucket
    /// is of, grown to the largest piece it built ([`PIECE`] words at most).
    static HELPER: RefCell<SlicedMatcher> = RefCell::default();
}

/// The fewest buckets of a shared job one task counts: a bucket takes
/// microseconds, and a chunk of 2^27 stored words has 2^18 of them.
const SHARED_MIN_BUCKETS: usize = 16;

impl Sieve {
    /// [`Sieve::count_with`] on the light sieve's cuts `cuts`, the asked
    /// queries split on them at `queries_at`.
    fn count_lightly(
        &mut self,
        stored: &[u64],
        squeeze: Squeeze,
        cuts: u64,
        queries_at: &[usize; 5],
    ) -> u64 {
        let stored_at = light::split(squeeze, cuts, stored, &mut self.stored, self.features);
        let mut total = 0;
        for (start, piece) in (0..)
            .step_by(PIECE)
            .zip(self.stored[..stored.len()].chunks(PIECE))
        {
            let started = self.timed.then(Instant::now);
            self.matcher.build(piece, squeeze.bits);
            if let Some(started) = started {
                self.tally.building += started.elapsed();
            }
            let end = start + piece.len();
            for group in 0..4 {
                let qs = &self.queries[light::run(group, queries_at)];
                let lanes = light::lanes(group, &stored_at);
                let lanes = lanes.start.max(start) - start..lanes.end.min(end).max(start) - start;
                if !qs.is_empty() && !lanes.is_empty() {
                    self.tally.tested += (lanes.len() * qs.len()) as u128;
                    total += self.matcher.count_built_within(qs, lanes);
                }
            }
        }
        total
    }
}

/// The asked side of the counts to come, as [`Sieve::ask`] left it: the
/// squeeze, the ranked cut bits and how many of them bucket (none: the
/// plain matcher), and where each bucket of the queries starts.
struct Asked {
    squeeze: Squeeze,
    cuts: Cuts,
    at: Vec<usize>,
}

/// How the asked queries were bucketed.
enum Cuts {
    /// Not at all: the plain matcher.
    None,
    /// By the light sieve on the bits of this mask: the queries of cut
    /// value `v` from the `v`th entry to the next.
    Light(u64, [usize; 5]),
    /// By the cut bits taken, in rank order, and within each bucket by
    /// the split bits, the first the lowest of the order value.
    Ranked(Vec<u32>, Vec<u32>),
}

/// The OR of `words`.
pub(super) fn or_all(words: &[u64]) -> u64 {
    words.iter().fold(0, |all, &w| all | w)
}

/// The window bits a job's matching looks at (`live`: those set in some
/// stored word and some query, less the cuts), and how words are squeezed
/// down to them: by `pext` where the CPU does it fast, else not at all
/// (the matcher then reads all `bits` bits). A query's weight tag stays
/// where it is.
#[derive(Clone, Copy, Debug)]
struct Squeeze {
    /// Read by `pext` only, which is x86-64's.
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    live: u64,
    /// Set only from [`Features::pext`], in [`Squeeze::new`]: the CPU has
    /// BMI2. Read by x86-64's code only.
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    pext: bool,
    /// Bits in a squeezed word, at least 1.
    bits: u32,
}

impl Squeeze {
    /// Squeezes by `pext` where `features` says the CPU does it fast.
    fn new(live: u64, bits: u32, features: Features) -> Self {
        let pext = features.pext();
        Self {
            live,
            pext,
            bits: if pext { live.count_ones().max(1) } else { bits },
        }
    }

    /// Replaces `out` with the squeezed `words`.
    fn copy(self, words: &[u64], out: &mut Vec<u64>) {
        out.clear();
        #[cfg(target_arch = "x86_64")]
        if self.pext {
            // SAFETY: `pext` is set only from `Features::pext`, which is true
            // only where detection found BMI2 (`crate::cpu`).
            #[allow(unsafe_code)]
            unsafe {
                pext::copy(words, self.live, out);
            }
            return;
        }
        out.extend_from_slice(words);
    }

    /// One word squeezed.
    fn one(self, word: u64) -> u64 {
        #[cfg(target_arch = "x86_64")]
        if self.pext {
            // SAFETY: `pext` is set only from `Features::pext`, which is true
            // only where detection found BMI2 (`crate::cpu`).
            #[allow(unsafe_code)]
            return unsafe { pext::squeeze(word, self.live) };
        }
        word
    }

    /// Counting sort of `words` into `out` by `key(values[i])` (below
    /// `buckets`), squeezed; returns the start of each bucket, and the end
    /// as the last entry.
    fn bucket(
        self,
        (words, values, buckets): (&[u64], &[u32], usize),
        out: &mut Vec<u64>,
        key: impl Fn(u32) -> u32,
    ) -> Vec<usize> {
        #[cfg(target_arch = "x86_64")]
        if self.pext {
            // SAFETY: `pext` is set only from `Features::pext`, which is true
            // only where detection found BMI2 (`crate::cpu`).
            #[allow(unsafe_code)]
            return unsafe { pext::bucket((words, values, buckets), out, key, self.live) };
        }
        bucket_by((words, values, buckets), out, key, |w| w)
    }
}

#[cfg(target_arch = "x86_64")]
mod pext {
    use super::bucket_by;
    use crate::count::join::matcher::TAG;
    use std::arch::x86_64::_pext_u64;

    /// `word` with only its `live` bits, packed low, and its tag.
    #[inline]
    #[target_feature(enable = "bmi2")]
    pub fn squeeze(word: u64, live: u64) -> u64 {
        _pext_u64(word, live) | (word & !0 << TAG)
    }

    #[target_feature(enable = "bmi2")]
    pub fn copy(words: &[u64], live: u64, out: &mut Vec<u64>) {
        out.extend(words.iter().map(|&w| squeeze(w, live)));
    }

    /// [`super::cut_values`] by `pext`: `order` puts the packed cut bits
    /// in rank order ([`super::in_rank_order`]).
    #[target_feature(enable = "bmi2")]
    pub fn cut_values(words: &[u64], mask: u64, order: &[u32], out: &mut Vec<u32>) {
        out.extend(words.iter().map(|&w| order[_pext_u64(w, mask) as usize]));
    }

    #[target_feature(enable = "bmi2")]
    pub fn bucket(
        items: (&[u64], &[u32], usize),
        out: &mut Vec<u64>,
        key: impl Fn(u32) -> u32,
        live: u64,
    ) -> Vec<usize> {
        bucket_by(items, out, key, |w| squeeze(w, live))
    }
}

/// The value of the cut bits of `word`, the first cut as bit 0: one
/// shift and mask per cut, unrolled for a fixed number of cuts.
#[inline]
fn cut_value<const N: usize>(word: u64, cuts: &[u32; N]) -> u32 {
    let mut value = 0;
    for (i, &cut) in cuts.iter().enumerate() {
        value |= (((word >> cut) & 1) as u32) << i;
    }
    value
}

/// Replaces `out` with the cut value of each word of `words`: by `pext`
/// of all the cut bits at once and a table that puts them in rank order,
/// where the CPU has a fast `pext` and the cuts are distinct; else one
/// shift and mask per cut, the loop unrolled for each number of cuts (a
/// loop over a slice of cuts instead made n = 20 7% slower).
fn cut_values(words: &[u64], cuts: &[u32], out: &mut Vec<u32>, features: Features) {
    fn fixed<const N: usize>(words: &[u64], cuts: &[u32], out: &mut Vec<u32>) {
        let cuts: &[u32; N] = cuts.try_into().expect("N cuts");
        out.extend(words.iter().map(|&w| cut_value(w, cuts)));
    }
    out.clear();
    #[cfg(target_arch = "x86_64")]
    if features.pext() {
        let mask = cuts.iter().fold(0u64, |m, &c| m | 1 << c);
        if mask.count_ones() as usize == cuts.len() {
            // SAFETY: `features.pext()` is true only where detection found
            // BMI2 (`crate::cpu`).
            #[allow(unsafe_code)]
            unsafe {
                pext::cut_values(words, mask, &in_rank_order(cuts, mask), out);
            }
            return;
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = features;
    match cuts.len() {
        1 => fixed::<1>(words, cuts, out),
        2 => fixed::<2>(words, cuts, out),
        3 => fixed::<3>(words, cuts, out),
        4 => fixed::<4>(words, cuts, out),
        5 => fixed::<5>(words, cuts, out),
        6 => fixed::<6>(words, cuts, out),
        7 => fixed::<7>(words, cuts, out),
        8 => fixed::<8>(words, cuts, out),
        9 => fixed::<9>(words, cuts, out),
        10 => fixed::<10>(words, cuts, out),
        11 => fixed::<11>(words, cuts, out),
        12 => fixed::<12>(words, cuts, out),
        13 => fixed::<13>(words, cuts, out),
        14 => fixed::<14>(words, cuts, out),
        15 => fixed::<15>(words, cuts, out),
        16 => fixed::<16>(words, cuts, out),
        17 => fixed::<17>(words, cuts, out),
        18 => fixed::<18>(words, cuts, out),
        _ => out.extend(words.iter().map(|&w| {
            cuts.iter()
                .enumerate()
                .fold(0, |v, (i, &cut)| v | (((w >> cut) & 1) as u32) << i)
        })),
    }
}

/// For each value of `pext(word, mask)` (the cut bits `cuts` packed in
/// the order of their positions), the cut value: the same bits in the
/// order of `cuts`. Distinct cuts only.
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
fn in_rank_order(cuts: &[u32], mask: u64) -> Vec<u32> {
    let mut rank_of_packed = Vec::with_capacity(cuts.len());
    let mut rest = mask;
    while rest != 0 {
        let position = rest.trailing_zeros();
        let rank = cuts.iter().position(|&c| c == position).expect("a cut");
        rank_of_packed.push(rank);
        rest &= rest - 1;
    }
    let mut order = vec![0u32; 1 << cuts.len()];
    for packed in 1..order.len() {
        let low = rank_of_packed[packed.trailing_zeros() as usize];
        order[packed] = order[packed & (packed - 1)] | 1 << low;
    }
    order
}

/// Counting sort of `items` into `out` by `key(values[i])` (below
/// `buckets`), each item mapped by `map`; returns the start of each
/// bucket, and the end as the last entry.
#[inline(always)]
fn bucket_by(
    (items, values, buckets): (&[u64], &[u32], usize),
    out: &mut Vec<u64>,
    key: impl Fn(u32) -> u32,
    map: impl Fn(u64) -> u64,
) -> Vec<usize> {
    let mut at = vec![0usize; buckets + 1];
    for &v in values {
        at[key(v) as usize + 1] += 1;
    }
    for b in 0..buckets {
        at[b + 1] += at[b];
    }
    let mut next = at.clone();
    out.clear();
    out.resize(items.len(), 0);
    for (&item, &v) in items.iter().zip(values) {
        let b = key(v) as usize;
        out[next[b]] = map(item);
        next[b] += 1;
    }
    at
}

/// The `cuts` window bits set most often on both sides (sampled), most
/// often first; or on jobs big enough for `greedy_share` of their pairs to
/// be 128 words a side or more, ranked by [`rank_greedily`] (its sampled
/// pairs' shared bits in `shared`).
fn rank_bits(
    (stored, queries, bits): (&[u64], &[u64], u32),
    cuts: usize,
    (greedy_share, shared): (f64, &mut Vec<u64>),
) -> Vec<u32> {
    let mut in_stored = [0u64; 64];
    let mut in_queries = [0u64; 64];
    for &s in stored.iter().step_by(stored.len() / SAMPLE) {
        tally(s, &mut in_stored);
    }
    for &q in queries.iter().step_by(queries.len() / SAMPLE) {
        tally(q & !(!0 << TAG), &mut in_queries);
    }
    let mut ranked: Vec<u32> = (0..bits).collect();
    ranked.sort_by_key(|&t| std::cmp::Reverse(in_stored[t as usize] * in_queries[t as usize]));
    match greedy_sample(stored.len(), queries.len(), greedy_share) {
        Some(side) => rank_greedily((stored, queries, side), cuts, ranked, shared),
        None => {
            ranked.truncate(cuts);
            ranked
        }
    }
}

/// The share of a job's pairs [`rank_greedily`] samples: each takes about
/// 80 ns to rank on, so about a hundredth of the job's time at a pass
/// rate of a tenth, 5 ps a pair tested.
const GREEDY_SHARE: f64 = 6e-8;

/// Words per side [`rank_greedily`] samples for a count of `stored` words
/// against `queries`, if any: `share` of its pairs, 128 to 1024 a side.
/// Below 128 a side (jobs of fewer than 3e11 pairs by default: every job
/// to n = 22) the cuts are ranked by frequency alone.
fn greedy_sample(stored: usize, queries: usize, share: f64) -> Option<usize> {
    let side = ((stored as f64 * queries as f64 * share).sqrt() as usize).min(1024);
    (side >= 128).then_some(side)
}

/// The `cuts` bits that rule out the most sampled pairs of a stored word
/// and a query (`side` of each), each taken given the ones before: the
/// next cut is the bit set on both sides in the most pairs that no cut so
/// far rules out. The diagonals of nearby squares go together, so
/// ranking each bit by its own frequency spends cuts on pairs an earlier
/// cut has already ruled out: on two units of n = 28 this halved the
/// pairs tested. `by_frequency`: every bit, most frequent first, for the
/// ties and for the cuts past what the sample can tell.
fn rank_greedily(
    (stored, queries, side): (&[u64], &[u64], usize),
    cuts: usize,
    by_frequency: Vec<u32>,
    shared: &mut Vec<u64>,
) -> Vec<u32> {
    let low = !(!0u64 << TAG);
    let sample = |words: &[u64]| -> Vec<u64> {
        let step = (words.len() / side).max(1);
        words.iter().step_by(step).map(|&w| w & low).collect()
    };
    let (s, q) = (sample(stored), sample(queries));
    // The shared bits of each sampled pair that no cut rules out yet,
    // less the pairs that share none (no cut can rule them out).
    shared.clear();
    shared.extend(
        s.iter()
            .flat_map(|&a| q.iter().map(move |&b| a & b))
            .filter(|&w| w != 0),
    );
    let mut ranked = Vec::with_capacity(cuts);
    while ranked.len() < cuts && !shared.is_empty() {
        let mut counts = [0u64; 64];
        for &w in shared.iter() {
            tally(w, &mut counts);
        }
        // The most pairs; of equals, the most frequent bit.
        let Some(best) = by_frequency
            .iter()
            .copied()
            .filter(|&t| counts[t as usize] > 0)
            .rev()
            .max_by_key(|&t| counts[t as usize])
        else {
            break;
        };
        ranked.push(best);
        shared.retain(|&w| w >> best & 1 == 0);
    }
    for t in by_frequency {
        if ranked.len() == cuts {
            break;
        }
        if !ranked.contains(&t) {
            ranked.push(t);
        }
    }
    ranked
}

fn tally(mut word: u64, counts: &mut [u64; 64]) {
    while word != 0 {
        counts[word.trailing_zeros() as usize] += 1;
        word &= word - 1;
    }
}

/// Estimated work of a sieve on the first `k` cuts, from histograms over
/// all the ranked cuts' values: for every query, the 64-word blocks of the
/// buckets it visits (a bucket's words are padded to whole blocks), plus
/// one block per bucket built and per (bucket, query group) call.
///
/// A bucket meets the query groups that are subsets of its index, so the
/// queries and the groups it meets are sums over subsets, taken for every
/// bucket at once (`k` passes over `2^k` sums) rather than by visiting the
/// `3^k` (bucket, group) pairs: 387 million at 18 cuts.
fn block_visits(stored_by: &[u64], queries_by: &[u64], k: usize) -> u64 {
    let mask = (1 << k) - 1;
    let mut sizes = vec![0u64; 1 << k];
    let mut queries = vec![0u64; 1 << k];
    for value in 0..stored_by.len() {
        sizes[!value & mask] += stored_by[value];
        queries[value & mask] += queries_by[value];
    }
    let mut groups: Vec<u64> = queries.iter().map(|&q| u64::from(q > 0)).collect();
    for bit in 0..k {
        for index in 0..1usize << k {
            if index >> bit & 1 == 1 {
                let below = index ^ 1 << bit;
                queries[index] += queries[below];
                groups[index] += groups[below];
            }
        }
    }
    sizes
        .iter()
        .zip(queries.iter().zip(&groups))
        .filter(|&(&size, _)| size > 0)
        .map(|(&size, (&asked, &met))| {
            let blocks = size.div_ceil(64);
            blocks * 4 + asked * blocks + met * 2
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::count::join::matcher::{count_naive, query};

    /// A xorshift generator from `seed`: the tests' random words (the
    /// light sieve's too).
    pub(super) fn xorshift(mut x: u64) -> impl FnMut() -> u64 {
        move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        }
    }

    #[test]
    fn cut_values_read_the_cut_bits_in_order() {
        assert_eq!(cut_value(0b1010, &[1, 3, 5, 6, 7, 8]), 0b11);
        assert_eq!(cut_value(0b1010, &[3, 0, 5, 6, 7, 8]), 0b01);
        assert_eq!(cut_value(1 << 40, &[3, 0, 5, 6, 7, 40]), 0b10_0000);
        assert_eq!(
            cut_value(1 << 40, &[3, 0, 5, 6, 7, 8, 9, 10, 11, 40]),
            1 << 9
        );
        let mut next = xorshift(0x2026_1126_u64);
        let random = (0..200).map(|_| next() >> 18);
        let words: Vec<u64> = [0b1010, 1 << 40, 1 << 13]
            .into_iter()
            .chain(random)
            .collect();
        for cuts in [
            &[1, 3, 5, 6, 7, 40][..],
            &[13, 1, 3, 40, 5, 6, 7, 8][..],
            &[0; 14][..],
            &[45, 0, 22, 9, 31, 2, 17, 44, 5, 38, 11, 27, 8, 40][..],
            &[45, 0, 22, 9, 31, 2, 17, 44, 5, 38, 11, 27, 8, 40, 1, 33][..],
            &[7][..],
        ] {
            let mut out = Vec::new();
            cut_values(&words, cuts, &mut out, Features::default());
            let mut portable = Vec::new();
            cut_values(&words, cuts, &mut portable, Features::PORTABLE);
            assert_eq!(out, portable, "{cuts:?}");
            let plain: Vec<u32> = words
                .iter()
                .map(|&w| {
                    let bits = cuts.iter().enumerate();
                    bits.map(|(i, &c)| (((w >> c) & 1) as u32) << i).sum()
                })
                .collect();
            assert_eq!(out, plain, "{cuts:?}");
        }
    }

    /// Queries asked once and counted against stored words in chunks
    /// count what one count of everything counts, sieved (the cuts chosen
    /// on the first chunk) or not; the squeeze keeps every bit a query
    /// uses, whatever the later chunks hold.
    #[test]
    #[ignore = "slow (about a minute): .ci/run runs it"]
    fn queries_asked_once_count_every_chunk_alike() {
        let mut next = xorshift(0x2026_1126_u64);
        let mut sieve = Sieve::default();
        sieve.set_max_cuts(MAX_CUTS);
        for (len, chunk, asked) in [(600_000, 100_000, 40_000), (9_000, 3_000, 5_000)] {
            // The first chunk never uses bit 3, later ones do.
            let stored: Vec<u64> = (0..len)
                .map(|i| {
                    let w = next() & next() & ((1 << 34) - 1);
                    if i < chunk { w & !(1 << 3) } else { w }
                })
                .collect();
            let queries: Vec<u64> = (0..asked)
                .map(|i| query(next() & next() & ((1 << 34) - 1), 1 << (i % 3)))
                .collect();
            let live = or_all(&queries) & ((1 << 34) - 1);
            sieve.ask(&queries, &stored[..chunk], live, 34);
            let cuts = sieve.last_cuts;
            let sum: u64 = stored.chunks(chunk).map(|c| sieve.count_asked(c)).sum();
            assert_eq!(sum, count_naive(&stored, &queries), "{len}: {cuts} cuts");
            assert_eq!(cuts > 0, len > 100_000, "{len}: {cuts} cuts");
        }
    }

    /// Each split's order places every value once, and each query's
    /// places hold every stored value with none of its bits (else a
    /// pair that matches would go uncounted).
    #[test]
    fn every_split_counts_each_query_against_all_it_can_match() {
        for (m, split) in SPLITS.iter().enumerate() {
            let (order, ranges) = (split.place, split.meets);
            let values = 1 << m;
            let mut places: Vec<u8> = order.to_vec();
            places.sort_unstable();
            assert_eq!(places, (0..values as u8).collect::<Vec<_>>(), "{m} bits");
            assert_eq!(ranges.len(), values, "{m} bits");
            for (e, &(from, to)) in ranges.iter().enumerate() {
                assert!(from < to && usize::from(to) <= values, "{m} bits, {e:b}");
                for v in (0..values).filter(|v| v & e == 0) {
                    let place = order[v];
                    assert!(
                        (from..to).contains(&place),
                        "{m} bits: value {v:b} at {place}, query {e:b} meets {from}..{to}"
                    );
                }
            }
        }
    }

    /// The estimate by sums over subsets is the one that visits every
    /// (bucket, query group) pair, on random histograms with empty values.
    #[test]
    fn block_visits_sum_over_subsets_as_the_pairs_do() {
        fn by_pairs(stored_by: &[u64], queries_by: &[u64], k: usize) -> u64 {
            let mask = (1 << k) - 1;
            let mut sizes = vec![0u64; 1 << k];
            let mut groups = vec![0u64; 1 << k];
            for value in 0..stored_by.len() {
                sizes[!value & mask] += stored_by[value];
                groups[value & mask] += queries_by[value];
            }
            let mut visits = 0;
            for (bucket, &size) in sizes.iter().enumerate().filter(|&(_, &s)| s > 0) {
                let blocks = size.div_ceil(64);
                visits += blocks * 4;
                let mut group = bucket;
                loop {
                    if groups[group] > 0 {
                        visits += groups[group] * blocks + 2;
                    }
                    if group == 0 {
                        break;
                    }
                    group = (group - 1) & bucket;
                }
            }
            visits
        }
        let mut next = xorshift(0x2026_1126_2000_u64);
        for most in [0, 1, 5, 9] {
            let mut histogram = || -> Vec<u64> {
                (0..1 << most)
                    .map(|_| {
                        if next().is_multiple_of(3) {
                            0
                        } else {
                            next() % 5000
                        }
                    })
                    .collect()
            };
            let (stored_by, queries_by) = (histogram(), histogram());
            for k in 0..=most {
                assert_eq!(
                    block_visits(&stored_by, &queries_by, k),
                    by_pairs(&stored_by, &queries_by, k),
                    "{k} of {most} cuts"
                );
            }
        }
    }

    /// Where two bits always go together, ranking by frequency takes
    /// both and the second rules out nothing; the greedy ranking takes
    /// the one and then the bit that rules out the most of what is left:
    /// its first `k` cuts never leave more sampled pairs than the first
    /// `k` by frequency.
    #[test]
    fn greedy_cuts_rule_out_more_pairs_than_frequent_ones() {
        let mut next = xorshift(0x2026_1126_3000_u64);
        // Bit 1 copies bit 0, the most frequent; bits 2.. are rarer.
        let mut word = || {
            let w = next() & next() & 0xfff_fffc | u64::from(!next().is_multiple_of(4));
            w | (w & 1) << 1
        };
        let stored: Vec<u64> = (0..4096).map(|_| word()).collect();
        let queries: Vec<u64> = (0..4096).map(|_| query(word(), 2)).collect();
        let survivors = |cuts: &[u32]| {
            let mask = cuts.iter().fold(0u64, |m, &c| m | 1 << c);
            let q = queries.iter().map(|&w| w & !(!0 << TAG));
            q.map(|q| stored.iter().filter(|&&s| s & q & mask == 0).count())
                .sum::<usize>()
        };
        let by_frequency = rank_bits((&stored, &queries, 28), 8, (0.0, &mut Vec::new()));
        let greedy = rank_greedily(
            (&stored, &queries, 256),
            8,
            (0..28).collect(),
            &mut Vec::new(),
        );
        assert_eq!(&by_frequency[..2], &[0, 1], "{by_frequency:?}");
        assert_eq!(greedy[0], 0, "{greedy:?}");
        assert!(!greedy.contains(&1), "{greedy:?}");
        let mut distinct = greedy.clone();
        distinct.sort_unstable();
        distinct.dedup();
        assert_eq!(distinct.len(), 8, "{greedy:?}");
        for k in 2..=8 {
            let (g, f) = (survivors(&greedy[..k]), survivors(&by_frequency[..k]));
            assert!(
                g <= f,
                "{k} cuts: {g} pairs left by greedy cuts, {f} by frequent ones"
            );
        }
        assert!(survivors(&greedy[..2]) < survivors(&by_frequency[..2]));
    }

    /// Jobs too small for the sieve count what the plain matcher counts
    /// where the light sieve cuts them (on AVX-512 machines, one or two
    /// cuts: asserted), with queries asked once for several chunks.
    #[test]
    fn the_light_sieve_never_changes_the_count() {
        let mut next = xorshift(0x2026_1127_0003);
        let mut sieve = Sieve::default();
        let mut cut = 0;
        for (len, chunk, asked) in [(300, 300, 500), (2000, 700, 3000), (3000, 3000, 300)] {
            // Dense words, each of two bits in most of them on its own: cuts
            // pay, and every cut value is there on both sides.
            let mut word = || {
                let w = next() & next() & ((1 << 34) - 1);
                w | (next() % 6).min(1) << 20 | (next() % 6).min(1) << 9
            };
            let stored: Vec<u64> = (0..len).map(|_| word()).collect();
            let queries: Vec<u64> = (0..asked).map(|i| query(word(), 1 << (i % 3))).collect();
            let low = (1 << 34) - 1;
            let live = or_all(&stored) & or_all(&queries) & low;
            sieve.ask(&queries, &stored[..chunk], live, 34);
            cut = cut.max(sieve.light_cuts);
            assert_eq!(sieve.last_cuts, 0, "{len}");
            let sum: u64 = stored.chunks(chunk).map(|c| sieve.count_asked(c)).sum();
            let want = count_naive(&stored, &queries);
            assert_eq!(sum, want, "{len}: {} light cuts", sieve.light_cuts);
            assert_eq!(sieve.count(&stored, &queries, 34), want, "{len} at once");
        }
        assert_eq!(cut > 0, Features::default().avx512(), "{cut} light cuts");
    }

    /// The byte tables and the sliced ones, with every split, count the
    /// same as the naive loop on jobs big enough for many cuts and split
    /// buckets.
    #[test]
    fn byte_tables_never_change_the_count() {
        let mut next = xorshift(0x51_7cc1_b727_220au64);
        let no_vbmi = crate::Simd {
            vbmi: false,
            ..crate::Simd::AUTO
        };
        let stored: Vec<u64> = (0..60_000)
            .map(|_| next() & next() & ((1 << 40) - 1))
            .collect();
        let queries: Vec<u64> = (0..8_000)
            .map(|i| query(next() & next() & ((1 << 40) - 1), 1 << (i % 4)))
            .collect();
        let want = count_naive(&stored, &queries);
        for features in [Features::detect(), Features::allowed(no_vbmi)] {
            for split in 0..=MAX_SPLIT {
                let mut sieve = Sieve::default();
                sieve.set_features(features);
                sieve.set_max_cuts(MAX_CUTS);
                sieve.set_split(split);
                assert_eq!(
                    sieve.count(&stored, &queries, 40),
                    want,
                    "split {split}, {features:?}"
                );
                assert!(sieve.last_cuts >= 4, "{} cuts", sieve.last_cuts);
            }
        }
    }

    #[test]
    fn the_sieve_never_changes_the_count() {
        let mut next = xorshift(0x9e37_79b9_7f4a_7c15u64);
        let mut sieve = Sieve::default();
        let mut greedy = Sieve::default();
        greedy.rank_greedily_always();
        // Too small to sieve, then big enough for 1 to 3 cuts and for 1 to
        // 4, then for up to 10 with the cap raised.
        for (len, asked, cut) in [
            (300, 500, false),
            (5000, 4100, true),
            (9000, 6000, true),
            (600_000, 5000, true),
        ] {
            if len > 100_000 {
                sieve.set_max_cuts(MAX_CUTS);
            }
            let stored: Vec<u64> = (0..len)
                .map(|_| next() & next() & ((1 << 34) - 1))
                .collect();
            let queries: Vec<u64> = (0..asked)
                .map(|i| query(next() & next() & ((1 << 34) - 1), 1 << (i % 4)))
                .collect();
            let want = count_naive(&stored, &queries);
            assert_eq!(sieve.count(&stored, &queries, 34), want, "{len}");
            assert_eq!(sieve.last_cuts > 0, cut, "{len}: {} cuts", sieve.last_cuts);
            greedy.set_max_cuts(sieve.max_cuts);
            assert_eq!(greedy.count(&stored, &queries, 34), want, "{len}, greedy");
        }
        assert!(sieve.last_cuts > DEFAULT_CUTS, "{} cuts", sieve.last_cuts);
        assert!(greedy.last_cuts > DEFAULT_CUTS, "{} cuts", greedy.last_cuts);
    }
}
