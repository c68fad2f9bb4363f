//! A thread's buffers for running jobs, grown to the largest job and then
//! reused, and the chunk sizes that bound them on the largest boards.

use super::matcher::SlicedMatcher;
use super::pairs;
use super::quarter::Slice;
use super::sieve::{Sieve, Tally};
use crate::cpu::Features;

/// The most left half-boards a job holds at once, and the most words a
/// count stores at once: past it (jobs of n >= 27 only), those made so far
/// are counted against the right ones and dropped, so that a thread's
/// buffers stay near the right side's words and these chunks' (128 M
/// words, 1 GiB, and the sieve's copies of them). Chunks of 2^27 words
/// let the sieve take 18 cut bits with buckets of 512 words on average:
/// two units of n = 28 took 0.83 of the time they took with chunks of
/// 2^26 and 16 cuts (results/amd-epyc-2c/2026-11-26-greedy-cuts.txt).
pub(super) const STORED_CHUNK: usize = 1 << 27;
/// The most asked words handed to the sieve at once, for its copies.
pub(super) const ASKED_CHUNK: usize = 1 << 27;
/// The most right half-boards a job holds at once (1 GiB of words, and
/// as much again in the sieve's bucketed copy): past it (the biggest jobs
/// of n = 26 and 27, most of 28, up to 1.9e9 right candidates), each
/// chunk of right ones is counted against all the left ones.
pub(super) const RIGHT_CHUNK: usize = 1 << 27;

/// The largest chunks, as a power of two: [`STORED_CHUNK`],
/// [`ASKED_CHUNK`] and [`RIGHT_CHUNK`] are `1 << CHUNK_LOG` words, the
/// fastest on the largest boards. A count that would not fit in memory
/// with them takes smaller ones ([`Scratch::set_chunk_log`]), down to
/// [`MIN_CHUNK_LOG`].
pub const CHUNK_LOG: u32 = 27;
/// The smallest chunks a count takes to fit in memory: 2^22 words (32
/// MiB a side). Below that a thread's scratch at n = 28 is mostly its
/// four slices (0.9 GiB), which chunks do not bound.
pub const MIN_CHUNK_LOG: u32 = 22;

/// Where both sides of a job's unweighted count have this many words,
/// the longer one is stored (see `run::store_rights`).
pub(super) const LONGER_FROM: usize = 1 << 20;

/// Per-thread buffers, grown to the largest job and then reused.
#[derive(Default)]
pub struct Scratch {
    /// The slices a job reads where it builds them
    /// ([`Pieces::PerJob`](super::plan::Pieces::PerJob)).
    pub(super) slices: [Slice; 4],
    pub(super) work: Work,
}

/// The buffers a job's half-boards and matching take.
pub(super) struct Work {
    pub(super) left: Vec<u64>,
    pub(super) queries: Vec<u64>,
    pub(super) pairing: pairs::Buffers,
    /// The right half-boards' own, made while the left ones' are in use.
    pub(super) right_pairing: pairs::Buffers,
    pub(super) matcher: SlicedMatcher,
    pub(super) sieve: Sieve,
    /// The most stored and asked words one count takes at once, and the
    /// most right half-boards a job holds: [`STORED_CHUNK`],
    /// [`ASKED_CHUNK`] and [`RIGHT_CHUNK`], smaller in tests.
    pub(super) chunks: (usize, usize, usize),
    /// [`LONGER_FROM`], smaller in tests.
    pub(super) longer_from: usize,
}

impl Default for Work {
    fn default() -> Self {
        Self {
            left: Vec::new(),
            queries: Vec::new(),
            pairing: pairs::Buffers::default(),
            right_pairing: pairs::Buffers::default(),
            matcher: SlicedMatcher::default(),
            sieve: Sieve::default(),
            chunks: (STORED_CHUNK, ASKED_CHUNK, RIGHT_CHUNK),
            longer_from: LONGER_FROM,
        }
    }
}

impl Scratch {
    /// A scratch that counts at most `stored` and `asked` words at once
    /// and holds at most `right` right half-boards, to try the chunked
    /// counting on small boards.
    #[cfg(test)]
    #[must_use]
    pub fn chunked(stored: usize, asked: usize, right: usize) -> Self {
        let mut scratch = Self::default();
        scratch.work.chunks = (stored, asked, right);
        scratch
    }

    /// The same scratch, storing the longer side of an unweighted count
    /// from `words` words a side on, to try that on small boards.
    #[cfg(test)]
    #[must_use]
    pub fn storing_longer_from(mut self, words: usize) -> Self {
        self.work.longer_from = words;
        self
    }

    /// Count in chunks of at most `1 << log` words a side from now on
    /// (stored, asked and right alike): [`CHUNK_LOG`] by default, smaller
    /// for a count that must fit in less memory
    /// ([`JoinPlan::scratch_bytes_at`](super::JoinPlan::scratch_bytes_at)).
    /// The count is the same; the sieve takes fewer cut bits on smaller
    /// chunks and a job's left half-boards are made once more for each
    /// chunk of right ones.
    pub fn set_chunk_log(&mut self, log: u32) {
        let words = 1 << log.clamp(MIN_CHUNK_LOG, CHUNK_LOG);
        self.work.chunks = (words, words, words);
    }

    /// Let the other threads of the current rayon pool count this
    /// scratch's jobs with the thread that runs them from now on
    /// (`shared`), or not: for a count that holds fewer jobs at once than
    /// it has threads, so that a job's words are held once however many
    /// threads count them. Its sieve's buckets are shared out; the rest of
    /// a job stays on its thread.
    pub fn set_shared(&mut self, shared: bool) {
        self.work.sieve.set_shared(shared);
    }

    /// Let each job's sieve take at most `cuts` cut bits from now on.
    pub fn set_max_cuts(&mut self, cuts: usize) {
        self.work.sieve.set_max_cuts(cuts);
    }

    /// Let each job's sieve order its buckets on `split` more bits from now
    /// on (0: not at all).
    pub fn set_split(&mut self, split: usize) {
        self.work.sieve.set_split(split);
    }

    /// What the jobs run on this scratch did so far (their half-boards
    /// and pairs tested; where the time went only if [`Self::set_timed`]).
    #[must_use]
    pub fn tally(&self) -> Tally {
        self.work.sieve.tally
    }

    /// Time where the jobs' time goes from now on (two clock readings a
    /// bucket of the sieve), or stop; and start the tally again.
    pub fn set_timed(&mut self, timed: bool) {
        self.work.sieve.timed = timed;
        self.work.sieve.tally = Tally::default();
    }

    /// Take the loops `features` allow from now on.
    pub fn set_features(&mut self, features: Features) {
        let work = &mut self.work;
        work.matcher.features = features;
        work.sieve.set_features(features);
        work.pairing.features = features;
        work.right_pairing.features = features;
    }

    /// The bytes its buffers hold.
    #[cfg(test)]
    #[must_use]
    pub fn bytes(&self) -> u64 {
        let work = &self.work;
        ((work.left.capacity() + work.queries.capacity()) * 8) as u64
            + work.pairing.bytes()
            + work.right_pairing.bytes()
            + work.matcher.bytes()
            + work.sieve.bytes()
            + self.slices.iter().map(Slice::bytes).sum::<u64>()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Chunks of `1 << log` words on every side, from the smallest a count
    /// takes to the fastest; the fastest by default. (The counts in chunks
    /// are tried on small boards with smaller ones: `run`'s tests.)
    #[test]
    fn a_scratch_counts_in_the_chunks_it_is_told() {
        let mut scratch = Scratch::default();
        assert_eq!(
            scratch.work.chunks,
            (1 << CHUNK_LOG, 1 << CHUNK_LOG, 1 << CHUNK_LOG)
        );
        for (log, taken) in [(0, MIN_CHUNK_LOG), (24, 24), (40, CHUNK_LOG)] {
            scratch.set_chunk_log(log);
            assert_eq!(scratch.work.chunks, (1 << taken, 1 << taken, 1 << taken));
        }
    }
}
