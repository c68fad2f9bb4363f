//! The light sieve, for jobs too small for the sieve's ranking and
//! bucketing to pay (fewer than [`super::MIN_SIDE`] words on a side: almost
//! every job of n = 18): one or two cut bits, chosen on 64 sampled words a
//! side, and each side sorted on them in the pass that squeezes it.
//!
//! A word's cut value is its lower cut bit as bit 0 and its higher as bit
//! 1 (a single cut is both), so a stored word of value `v` can only match
//! the queries whose value `g` has `g & v == 0` ([`meet`]). The stored
//! words are sorted into runs by value in an order ([`ORDER`]) that keeps
//! the values meeting each `g` together, so each group of queries is
//! counted against the blocks of one range of the stored words
//! ([`lanes`]), one set of tables for all. The cut bits stay in the words:
//! a block at the range's edge holds words of other values, and those
//! share a cut bit with the query, so they never count.
//!
//! The best two bits of each of n = 18's jobs rule out 53% of its pairs
//! (counted over all its jobs with a throwaway build); what the matcher
//! skips is the blocks a group's range leaves out.
//!
//! Only where the CPU has AVX-512, whose loop sorts eight words at a time;
//! elsewhere jobs this small are matched whole, as before.

use super::{Squeeze, TAG};
use crate::count::join::matcher::CHUNK;
use crate::cpu::Features;

/// Jobs with fewer words than this on either side are matched whole.
pub(super) const MIN_SIDE: usize = 256;
/// Words sampled a side to choose the cuts and estimate the buckets.
const SAMPLE: usize = 64;
/// What splitting a word on the cuts costs beyond squeezing it, in the
/// matcher's work unit (one chunk of one block for one query, about half
/// a cycle).
const SPLIT_COST: u64 = 2;

/// The cut bits that pay for a count of `stored` words against `queries`
/// (their window bits that decide a pair in `live`), as a mask: none,
/// one or two bits, and none where `features` lack AVX-512.
pub(super) fn choose(stored: &[u64], queries: &[u64], live: u64, features: Features) -> u64 {
    let live = live & !(!0 << TAG);
    if !features.avx512()
        || stored.len() < MIN_SIDE
        || queries.len() < MIN_SIDE
        || live.count_ones() < 2
    {
        return 0;
    }
    let sample = |words: &[u64]| -> [u64; SAMPLE] {
        let step = words.len() / SAMPLE;
        std::array::from_fn(|i| words[i * step] & live)
    };
    let (stored_sample, query_sample) = (sample(stored), sample(queries));
    // The bit shared by the most sampled pairs, then the one shared by the
    // most pairs the first does not rule out.
    let (in_stored, in_queries) = (bit_counts(&stored_sample, 0), bit_counts(&query_sample, 0));
    let best = |ruled_out: &dyn Fn(usize) -> u64| {
        (0..64)
            .filter(|&t| live >> t & 1 == 1)
            .max_by_key(|&t| (ruled_out(t), std::cmp::Reverse(t)))
            .map_or(0, |t| 1u64 << t)
    };
    let first = best(&|t| in_stored[t] * in_queries[t]);
    let (with_stored, with_queries) = (
        bit_counts(&stored_sample, first),
        bit_counts(&query_sample, first),
    );
    let chunks = u64::from(live.count_ones().div_ceil(CHUNK));
    let second = best(&|t| {
        if 1 << t == first {
            0
        } else {
            in_stored[t] * in_queries[t] - with_stored[t] * with_queries[t]
        }
    });
    // The matcher's blocks for each choice, from the sampled runs: each
    // group of queries visits the blocks its stored words span.
    let work = |cuts: u64| -> u64 {
        let by_stored = histogram(&stored_sample, cuts, stored.len());
        let by_query = histogram(&query_sample, cuts, queries.len());
        let at = starts(by_stored.map(|n| n as usize));
        let visits: u64 = (0..4)
            .map(|group| blocks(lanes(group, &at).len() as u64) * by_query[group])
            .sum();
        let split = if cuts == 0 { 0 } else { SPLIT_COST };
        visits * chunks + split * (stored.len() + queries.len()) as u64
    };
    [0, first, first | second]
        .into_iter()
        .min_by_key(|&cuts| work(cuts))
        .unwrap_or(0)
}

/// How many of `words` that have all the bits of `within` have each bit,
/// without a branch per word or bit: eight byte-wide counters to a `u64`,
/// bit `t` counted in byte `t / 8` of counter `t % 8` (at most 255 words).
fn bit_counts(words: &[u64; SAMPLE], within: u64) -> [u64; 64] {
    const BYTES: u64 = 0x0101_0101_0101_0101;
    let mut counters = [0u64; 8];
    for &w in words {
        let w = w & 0u64.wrapping_sub(u64::from(w & within == within));
        for (shift, counter) in counters.iter_mut().enumerate() {
            *counter += w >> shift & BYTES;
        }
    }
    std::array::from_fn(|t| counters[t % 8] >> (8 * (t / 8)) & 0xff)
}

/// The words of each cut value among `sample`, scaled to `len` words.
fn histogram(sample: &[u64], cuts: u64, len: usize) -> [u64; 4] {
    let mut by = [0u64; 4];
    for &w in sample {
        by[value(w, cuts)] += 1;
    }
    by.map(|n| n * len as u64 / sample.len() as u64)
}

/// The matcher's blocks for a run of `size` stored words: up to 256 take
/// one narrow block, more take blocks of 512, and a run starts anywhere
/// in its first.
fn blocks(size: u64) -> u64 {
    match size {
        0 => 0,
        1..=256 => 1,
        _ => size / 512 + 1,
    }
}

/// The lowest and highest bits of `cuts` (one or two bits), as masks.
fn ends(cuts: u64) -> (u64, u64) {
    (cuts & cuts.wrapping_neg(), 1 << (63 - cuts.leading_zeros()))
}

/// The cut value of `word`: its lower cut bit as bit 0, its higher as bit
/// 1 (a single cut as both; no cut: 0).
fn value(word: u64, cuts: u64) -> usize {
    if cuts == 0 {
        return 0;
    }
    let (low, high) = ends(cuts);
    usize::from(word & low != 0) | usize::from(word & high != 0) << 1
}

/// Whether stored words of cut value `stored` can match queries of value
/// `query`: they share no cut bit.
pub(super) fn meet(stored: usize, query: usize) -> bool {
    stored & query == 0
}

/// Replaces `out` with `words` squeezed by `squeeze`, those of each cut
/// value on `cuts` (one or two bits) together, the runs in [`ORDER`];
/// returns where each run starts, and the end ([`run`] reads it).
pub(super) fn split(
    squeeze: Squeeze,
    cuts: u64,
    words: &[u64],
    out: &mut Vec<u64>,
    features: Features,
) -> [usize; 5] {
    assert!(
        (1..=2).contains(&cuts.count_ones()),
        "one or two cuts, not {cuts:#x}"
    );
    out.clear();
    out.resize(words.len(), 0);
    #[cfg(target_arch = "x86_64")]
    if features.avx512() {
        // SAFETY: `features.avx512()` is true only where the CPU has every
        // feature `avx512::split` enables (see `crate::cpu`).
        #[allow(unsafe_code)]
        return unsafe { avx512::split(squeeze, ends(cuts), words, out) };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = features;
    let mut sizes = [0; 4];
    for &w in words {
        sizes[value(w, cuts)] += 1;
    }
    let at = starts(sizes);
    let mut next = POSITION.map(|run| at[run]);
    for &w in words {
        let at = &mut next[value(w, cuts)];
        out[*at] = squeeze.one(w);
        *at += 1;
    }
    at
}

/// The order of the cut values' runs: the stored words that meet each
/// query group are then one run of runs (see [`lanes`]).
const ORDER: [usize; 4] = [1, 0, 2, 3];
/// The run of each cut value: `ORDER`'s inverse (itself).
const POSITION: [usize; 4] = [1, 0, 2, 3];

/// Where each run starts, in [`ORDER`], for `sizes` words of each cut
/// value, and the end.
fn starts(sizes: [usize; 4]) -> [usize; 5] {
    let mut at = [0; 5];
    for run in 0..4 {
        at[run + 1] = at[run] + sizes[ORDER[run]];
    }
    at
}

/// Where `split` put the words of cut value `value`, given its `at`.
pub(super) fn run(value: usize, at: &[usize; 5]) -> std::ops::Range<usize> {
    at[POSITION[value]]..at[POSITION[value] + 1]
}

/// The split stored words a query of cut value `group` can match: those
/// of the values that [`meet`] it, which [`ORDER`] keeps together.
pub(super) fn lanes(group: usize, at: &[usize; 5]) -> std::ops::Range<usize> {
    let meets = |run: usize| meet(ORDER[run], group);
    let first = (0..4)
        .find(|&run| meets(run))
        .expect("value 0 meets every group");
    let last = (0..4)
        .rfind(|&run| meets(run))
        .expect("value 0 meets every group");
    debug_assert!(
        (first..=last).all(meets),
        "the runs that meet {group} are together"
    );
    at[first]..at[last + 1]
}

/// The squeeze as shifts: `pext(word, live)` drops the dead bits; so does
/// closing each run of dead bits below the highest live one, from the
/// highest run down, a shift and a blend a run, eight words at a time.
#[cfg(target_arch = "x86_64")]
mod avx512 {
    use super::{POSITION, Squeeze, TAG, starts};
    use std::arch::x86_64::{
        __m512i, __mmask8, _bzhi_u32, _mm512_add_epi64, _mm512_and_si512, _mm512_loadu_si512,
        _mm512_mask_storeu_epi64, _mm512_mask_test_epi64_mask, _mm512_maskz_compress_epi64,
        _mm512_maskz_loadu_epi64, _mm512_popcnt_epi64, _mm512_reduce_add_epi64, _mm512_set1_epi64,
        _mm512_setzero_si512, _mm512_srlv_epi64, _mm512_ternarylogic_epi64,
    };

    /// The runs of dead bits a squeeze closes, highest first: for each,
    /// the mask of the bits below it and its length; and the bits a word
    /// keeps before they close, the tag aside (all but the tag where the
    /// squeeze keeps words whole).
    struct Runs {
        runs: [(u64, u64); 32],
        len: usize,
        keep: u64,
    }

    impl Runs {
        fn new(squeeze: Squeeze) -> Self {
            let tagless = !(!0u64 << TAG);
            let mut runs = Self {
                runs: [(0, 0); 32],
                len: 0,
                keep: tagless,
            };
            if !squeeze.pext {
                return runs;
            }
            let live = squeeze.live & tagless;
            runs.keep = live;
            let mut dead = match live {
                0 => 0,
                _ => !live & u64::MAX >> live.leading_zeros(),
            };
            while dead != 0 {
                let high = 63 - dead.leading_zeros();
                let below = live & ((1 << high) - 1);
                let low = 64 - below.leading_zeros();
                runs.runs[runs.len] = ((1 << low) - 1, u64::from(high + 1 - low));
                runs.len += 1;
                dead &= (1 << low) - 1;
            }
            runs
        }
    }

    /// The cut masks of eight words `w` (`valid` of them): for each value
    /// 0 to 3, the lanes that have it.
    #[inline]
    #[target_feature(enable = "avx512f")]
    fn values(w: __m512i, valid: __mmask8, (low, high): (u64, u64)) -> [__mmask8; 4] {
        let lows = _mm512_mask_test_epi64_mask(valid, w, _mm512_set1_epi64(low as i64));
        let highs = _mm512_mask_test_epi64_mask(valid, w, _mm512_set1_epi64(high as i64));
        [
            valid & !lows & !highs,
            lows & !highs,
            highs & !lows,
            lows & highs,
        ]
    }

    /// [`super::split`] with AVX-512: a pass to count each value's words,
    /// then one to squeeze eight words at a time and store each value's
    /// lanes packed (`vpcompressq` to a register, then a masked store:
    /// compressing straight to memory is slow on AMD Zen 4 and 5).
    #[target_feature(enable = "avx512f,avx512vl,avx512vpopcntdq,popcnt,bmi1,bmi2")]
    pub fn split(squeeze: Squeeze, cuts: (u64, u64), words: &[u64], out: &mut [u64]) -> [usize; 5] {
        // The high cut brought down to the low one.
        let shift = _mm512_set1_epi64(i64::from(cuts.1.trailing_zeros() - cuts.0.trailing_zeros()));
        // Whole vectors of eight words, then the rest under a mask.
        let (whole, rest) = words.split_at(words.len() - words.len() % 8);
        let vectors = || {
            let rest_valid = u8::MAX >> (8 - rest.len().max(1));
            let last = (!rest.is_empty()).then(|| {
                // SAFETY: the mask reads only the `rest.len()` (1 to 7)
                // words of `rest`.
                #[allow(unsafe_code)]
                let w = unsafe { _mm512_maskz_loadu_epi64(rest_valid, rest.as_ptr().cast()) };
                (w, rest_valid)
            });
            whole
                .chunks_exact(8)
                .map(|eight| {
                    // SAFETY: `eight` is eight words: the load reads 64 bytes.
                    #[allow(unsafe_code)]
                    let w = unsafe { _mm512_loadu_si512(eight.as_ptr().cast()) };
                    (w, u8::MAX)
                })
                .chain(last)
        };
        // Each lane counts the words with the low cut, the high cut and
        // both, in vector registers.
        let (low, high) = (
            _mm512_set1_epi64(cuts.0 as i64),
            _mm512_set1_epi64(cuts.1 as i64),
        );
        let (mut lows, mut highs, mut boths) = (
            _mm512_setzero_si512(),
            _mm512_setzero_si512(),
            _mm512_setzero_si512(),
        );
        for (w, _) in vectors() {
            let (l, h) = (_mm512_and_si512(w, low), _mm512_and_si512(w, high));
            lows = _mm512_add_epi64(lows, _mm512_popcnt_epi64(l));
            highs = _mm512_add_epi64(highs, _mm512_popcnt_epi64(h));
            boths = _mm512_add_epi64(
                boths,
                _mm512_popcnt_epi64(_mm512_and_si512(l, _mm512_srlv_epi64(h, shift))),
            );
        }
        let sum = |v: __m512i| _mm512_reduce_add_epi64(v) as usize;
        let (lows, highs, both) = (sum(lows), sum(highs), sum(boths));
        let sizes = [
            words.len() + both - lows - highs,
            lows - both,
            highs - both,
            both,
        ];
        let at = starts(sizes);
        let runs = Runs::new(squeeze);
        let keep = _mm512_set1_epi64(runs.keep as i64);
        let closes: [(__m512i, __m512i); 32] = std::array::from_fn(|i| {
            let (below, length) = runs.runs[i];
            (
                _mm512_set1_epi64(below as i64),
                _mm512_set1_epi64(length as i64),
            )
        });
        let tag = _mm512_set1_epi64((!0u64 << TAG) as i64);
        let mut next = POSITION.map(|run| at[run]);
        for (w, valid) in vectors() {
            // The live bits, each run closed from the top down (below ?
            // x : shifted is 0xe2 for (x, below, shifted)), the tag back.
            let mut x = _mm512_and_si512(w, keep);
            for &(below, length) in &closes[..runs.len] {
                x = _mm512_ternarylogic_epi64::<0xe2>(x, below, _mm512_srlv_epi64(x, length));
            }
            // x | (w & tag) is 0xf8 for (x, w, tag).
            x = _mm512_ternarylogic_epi64::<0xf8>(x, w, tag);
            for (v, lanes) in values(w, valid, cuts).into_iter().enumerate() {
                let count = lanes.count_ones();
                let end = next[v] + count as usize;
                assert!(end <= at[POSITION[v] + 1], "a cut value's run overflows");
                let first = _bzhi_u32(0xff, count) as u8;
                // SAFETY: `end` is within `out` (checked just above: `at`
                // ends at `words.len() <= out.len()`), and the store writes
                // only the `count` lanes before it.
                #[allow(unsafe_code)]
                unsafe {
                    let packed = _mm512_maskz_compress_epi64(lanes, x);
                    _mm512_mask_storeu_epi64(out.as_mut_ptr().add(next[v]).cast(), first, packed);
                }
                next[v] = end;
            }
        }
        at
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::xorshift;
    use super::*;
    use crate::count::join::matcher::query;

    #[test]
    fn bit_counts_count_each_bit_of_the_words_within() {
        let mut next = xorshift(0x2026_1127);
        let words: [u64; SAMPLE] = std::array::from_fn(|_| next() >> 2);
        for within in [0, 1 << 5, 1 << 5 | 1 << 40] {
            let counts = bit_counts(&words, within);
            for (t, &count) in counts.iter().enumerate() {
                let want = words
                    .iter()
                    .filter(|&&w| w & within == within && w >> t & 1 == 1)
                    .count() as u64;
                assert_eq!(count, want, "bit {t} within {within:#x}");
            }
        }
    }

    /// The split keeps every word once, squeezed as the squeeze does it
    /// one word at a time, in its cut value's run, in the order given; the
    /// AVX-512 loop does what the plain one does, for squeezes whose dead
    /// bits start at bit 0, run together, or sit above the live ones.
    #[test]
    fn a_split_puts_every_word_squeezed_in_its_values_run() {
        let mut next = xorshift(0x2026_1127_0001);
        let lives = [
            (1 << 34) - 1,
            ((1 << 34) - 1) & !(1 << 8 | 1 << 25 | 0b11 | 1 << 33),
            ((1 << 30) - 1) & !(0b1111 << 10 | 1 << 20 | 1 << 22),
            0b1_0000_0001,
        ];
        for (round, len) in [0, 1, 7, 8, 9, 64, 100, 1001].into_iter().enumerate() {
            let words: Vec<u64> = (0..len)
                .map(|i| query(next() & ((1 << 34) - 1), 1 << (i % 4)))
                .collect();
            let live = lives[round % lives.len()];
            for cuts in [1 << 9, 1 << 9 | 1 << 26, 1 << 0 | 1 << 33] {
                for features in [Features::default(), Features::PORTABLE] {
                    let squeeze = Squeeze::new(live & !cuts, 34, features);
                    let mut out = vec![7; 3];
                    let at = split(squeeze, cuts, &words, &mut out, features);
                    assert_eq!(at[4], len, "{len} words");
                    for v in 0..4 {
                        let want: Vec<u64> = words
                            .iter()
                            .filter(|&&w| value(w, cuts) == v)
                            .map(|&w| squeeze.one(w))
                            .collect();
                        assert_eq!(out[run(v, &at)], want, "{len} words, {cuts:#x}, value {v}");
                    }
                }
            }
        }
    }

    /// Where two bits are each set in most words on both sides, on their
    /// own, those are the cuts; none below the smallest job or without
    /// AVX-512.
    #[test]
    fn the_cuts_are_the_bits_most_pairs_share() {
        let mut next = xorshift(0x2026_1127_0002);
        let mut word = || {
            let w = next() & next() & next() & ((1 << 30) - 1);
            let mut often = |bit: u64| u64::from(!next().is_multiple_of(8)) << bit;
            w | often(4) | often(17)
        };
        let stored: Vec<u64> = (0..2000).map(|_| word()).collect();
        let queries: Vec<u64> = (0..3000).map(|_| query(word(), 2)).collect();
        let live = (1 << 30) - 1;
        let features = Features::default();
        let cuts = choose(&stored, &queries, live, features);
        if features.avx512() {
            assert_eq!(cuts, 1 << 4 | 1 << 17, "{cuts:#x}");
        } else {
            assert_eq!(cuts, 0);
        }
        assert_eq!(choose(&stored, &queries, live, Features::PORTABLE), 0);
        assert_eq!(choose(&stored[..MIN_SIDE - 1], &queries, live, features), 0);
    }
}
