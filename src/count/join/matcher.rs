//! Counting compatible pairs: for stored words `S` and weighted queries `Q`,
//! `sum over (q, w) in Q of w * #{s in S : s & q == 0}`.
//!
//! A query is one `u64`: its window word, and in the top two bits ([`TAG`])
//! the base-2 logarithm of its weight (every weight of the symmetry rules is
//! 1, 2 or 4). Window words have at most 46 bits, so the tag never meets a
//! stored word; [`query`] makes one.
//!
//! [`count_naive`] is the obviously correct reference. [`SlicedMatcher`] is
//! the fast one: the stored words are cut into blocks of `64 * L` and
//! transposed, so that bit `k` of column `t` says whether word `k` is free
//! of window bit `t`; a query is then the AND of the columns of its bits.
//! To spare most of those ANDs, the window is cut into chunks of 5 bits and,
//! for every chunk, the AND of the columns of each of its 32 subsets is
//! precomputed: a query costs one AND per chunk per block, and a popcount.
//!
//! Lanes past the end of the stored words are set in no table entry, so
//! padding never counts, even for the all-zero query. Small sets
//! use narrow blocks (`L` = 1, 2 or 4) rather than being padded to 512.
//!
//! Nothing here allocates once its buffers have grown to a job's size.

use crate::cpu::Features;
use std::ops::Range;

pub(super) mod bytes;

/// Cut bits a block of the sieve's buckets shares
/// (`sieve::Buckets::count_block`): 16 buckets' tables side by side, each
/// query group gathered once for those it meets. On 30 units of n = 27,
/// blocks of 4, 8, 16 and 32 buckets took 0.93, 0.88, 0.87 and 0.86 of
/// the time of one bucket at a time.
pub(super) const BLOCK_BITS: usize = 4;
/// The most stored words of a bucket counted in a block: its tables, at
/// most 512 KiB (8 chunks), are held beside the block's others.
pub(super) const BLOCK_WORDS: usize = 1 << 13;
/// The bytes of a block's tables at most: 16 of 512 KiB.
pub(crate) const BLOCK_BYTES: u64 = (1 << BLOCK_BITS) * (BLOCK_WORDS as u64 / 8) * 8 * 64;

/// Bits per chunk: 32 table entries per chunk.
pub(super) const CHUNK: u32 = 5;
const ENTRIES: usize = 1 << CHUNK;

/// Below this many stored words the plain loop wins over building tables.
const SMALL: usize = 24;
/// With AVX-512, up to this many: eight queries a register, each tested
/// against a stored word by one `vptestnmq` (see [`count_small_avx512`]).
/// Up to 64 words took a unit of n = 28 0.97 of the time of up to 32, and
/// n = 20 1.02 (see results/): 32 keeps n = 20 as it was.
const SMALL_AVX512: usize = 32;

/// The most stored words whose tables are built at once (11 MiB of tables
/// at 11 chunks): larger sets are counted a piece at a time, each query
/// meeting the same blocks, so that the tables never grow with a job.
pub(super) const PIECE: usize = 1 << 18;

/// The first bit of a query's weight tag.
pub const TAG: u32 = 62;

/// The query for `word` counted `weight` times (1, 2, 4 or 8).
#[must_use]
pub fn query(word: u64, weight: u32) -> u64 {
    assert!(
        weight.is_power_of_two() && weight <= 8 && word >> TAG == 0,
        "a query is a word below bit {TAG} and a weight 1, 2, 4 or 8, not {word:#x} x {weight}"
    );
    word | u64::from(weight.trailing_zeros()) << TAG
}

/// How many times `query` counts.
#[must_use]
pub const fn weight(query: u64) -> u64 {
    1 << (query >> TAG)
}

/// The reference: one AND per pair.
#[must_use]
pub fn count_naive(stored: &[u64], queries: &[u64]) -> u64 {
    queries
        .iter()
        .map(|&q| weight(q) * stored.iter().filter(|&&s| s & q == 0).count() as u64)
        .sum()
}

/// The bit-sliced matcher, with buffers reused from job to job.
#[derive(Default)]
pub struct SlicedMatcher {
    /// Tables for blocks of `64 * L` words, `L = 8`, `4`, `2`, `1`.
    wide: Tables<8>,
    mid: Tables<4>,
    narrow: Tables<2>,
    single: Tables<1>,
    /// The stored words of a set too small for tables.
    small: Vec<u64>,
    built: Built,
    /// How many stored words the last [`Self::build`] took.
    built_len: usize,
    /// The queries a byte-table count of the sieve gathers
    /// (`sieve::Buckets`), at most 16,384.
    pub(super) gathered: Vec<u64>,
    /// The byte tables of a block's buckets (`sieve::Buckets::count_block`).
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    block: Vec<Tables<8>>,
    /// The queries of a byte-table count, transposed ([`bytes`]).
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    byte_index: std::cell::RefCell<Tables<8>>,
    /// The loops it may take (the CPU's, by default).
    pub(crate) features: Features,
}

/// The chunk tables of a stored set, `blocks * chunks * 32` entries, in
/// cache lines: each entry of 64 bytes (512 lanes) is one line. Entries
/// that straddled two lines (a vector of entries only 8 or 16 bytes
/// aligned, as allocators give) took 1.6 times as long to count against:
/// every load was split in two (see results/).
pub(super) struct Tables<const L: usize> {
    lines: Vec<Line>,
    /// How many entries of `L` words the lines hold.
    len: usize,
}

/// One cache line of table entries.
#[derive(Clone, Copy, Default)]
#[repr(C, align(64))]
struct Line([u64; 8]);

impl<const L: usize> Tables<L> {
    #[cfg(test)]
    fn bytes(&self) -> usize {
        self.lines.capacity() * size_of::<Line>()
    }

    /// The entries, `len` of them.
    fn entries(&self) -> &[[u64; L]] {
        // SAFETY: a `Line` is 8 words, aligned to 64 bytes, so its start
        // is aligned for `[u64; L]` (`L` is 1, 2, 4 or 8) and the lines'
        // `8 * lines.len()` words hold the `L * len` that `resize` sized
        // them for; any bits are a valid `u64`.
        #[allow(unsafe_code)]
        unsafe {
            std::slice::from_raw_parts(self.lines.as_ptr().cast(), self.len)
        }
    }

    /// Replaces the entries with `len` of zero words.
    pub(super) fn resize(&mut self, len: usize) -> &mut [[u64; L]] {
        const { assert!(L > 0 && 8 % L == 0) };
        self.lines.clear();
        self.lines.resize((len * L).div_ceil(8), Line::default());
        self.len = len;
        // SAFETY: as in `entries`, and the slice borrows `self` mutably.
        #[allow(unsafe_code)]
        unsafe {
            std::slice::from_raw_parts_mut(self.lines.as_mut_ptr().cast(), len)
        }
    }
}

impl<const L: usize> Default for Tables<L> {
    fn default() -> Self {
        Self {
            lines: Vec::new(),
            len: 0,
        }
    }
}

impl SlicedMatcher {
    /// The bytes its buffers hold.
    #[cfg(test)]
    pub fn bytes(&self) -> u64 {
        (self.wide.bytes() + self.mid.bytes() + self.narrow.bytes() + self.single.bytes()) as u64
            + (self.small.capacity() * 8) as u64
            + self.block.iter().map(|t| t.bytes() as u64).sum::<u64>()
    }

    /// Counts the weighted compatible pairs between `stored` and `queries`,
    /// whose words use only the low `bits` bits: the tables of at most
    /// `PIECE` stored words at a time.
    pub fn count(&mut self, stored: &[u64], queries: &[u64], bits: u32) -> u64 {
        if queries.is_empty() {
            return 0;
        }
        let mut total = 0;
        for piece in stored.chunks(PIECE) {
            self.build(piece, bits);
            total += self.count_built(queries);
        }
        total
    }

    /// Builds the tables of `stored` (words of the low `bits` bits), to
    /// count queries against with [`Self::count_built`].
    pub fn build(&mut self, stored: &[u64], bits: u32) {
        let chunks = bits.div_ceil(CHUNK) as usize;
        self.built_len = stored.len();
        let small = small_below(self.features);
        self.built = match stored.len() {
            len if len < small => {
                self.small.clear();
                self.small.extend_from_slice(stored);
                Built::Small
            }
            SMALL..=64 => Built::Single(build(&mut self.single, stored, chunks, self.features)),
            65..=128 => Built::Narrow(build(&mut self.narrow, stored, chunks, self.features)),
            129..=256 => Built::Mid(build(&mut self.mid, stored, chunks, self.features)),
            _ => Built::Wide(build(&mut self.wide, stored, chunks, self.features)),
        };
    }

    /// The most stored words [`Self::build_bytes`] takes at once.
    pub(super) const BYTE_PIECE: usize = bytes::PIECE;

    /// [`Self::build`] on byte tables ([`bytes`]), where the CPU
    /// has AVX-512 VBMI and BITALG and `bits` is at most 48; else the
    /// bit-sliced tables. At most [`Self::BYTE_PIECE`] words.
    pub(super) fn build_bytes(&mut self, stored: &[u64], bits: u32) {
        #[cfg(target_arch = "x86_64")]
        if self.features.vbmi() && bits <= 48 && stored.len() <= Self::BYTE_PIECE {
            let chunks = bytes::chunks(bits);
            self.built_len = stored.len();
            // SAFETY: `features.vbmi()` is true only where the CPU has
            // every feature `bytes::build` enables (see `crate::cpu`).
            #[allow(unsafe_code)]
            unsafe {
                bytes::build(&mut self.wide, stored, chunks);
            }
            self.built = Built::Bytes(chunks);
            return;
        }
        self.build(stored, bits);
    }

    /// Builds the byte tables of `stored` (at most [`Self::BYTE_PIECE`]
    /// words of at most 48 bits) as the `slot`th of a block, for
    /// [`Self::count_block`]. Only where the CPU has AVX-512 VBMI
    /// (`features.vbmi()`).
    #[cfg(target_arch = "x86_64")]
    pub(super) fn build_block(&mut self, slot: usize, stored: &[u64], bits: u32) {
        assert!(self.features.vbmi() && bits <= 48 && stored.len() <= Self::BYTE_PIECE);
        if self.block.len() <= slot {
            self.block.resize_with(slot + 1, Tables::default);
        }
        // SAFETY: `features.vbmi()` is true only where the CPU has every
        // feature `bytes::build` enables (see `crate::cpu`).
        #[allow(unsafe_code)]
        unsafe {
            bytes::build(&mut self.block[slot], stored, bytes::chunks(bits));
        }
    }

    /// The weighted pairs of `queries` and, for each `(slot, lanes)` of
    /// `targets`, the stored words `lanes` of the block's `slot`th tables
    /// ([`Self::build_block`] with `bits`); the queries transposed once.
    #[cfg(target_arch = "x86_64")]
    pub(super) fn count_block(
        &self,
        targets: &[(usize, Range<usize>)],
        queries: &[u64],
        bits: u32,
    ) -> u64 {
        assert!(self.features.vbmi());
        let chunks = bytes::chunks(bits);
        let mut tables: [&[[u64; 8]]; 1 << BLOCK_BITS] = [&[]; 1 << BLOCK_BITS];
        for (table, (slot, lanes)) in tables.iter_mut().zip(targets) {
            let groups = lanes.start / 8..lanes.end.div_ceil(8);
            *table = &self.block[*slot].entries()[groups.start * chunks..groups.end * chunks];
        }
        let index = &mut *self.byte_index.borrow_mut();
        // SAFETY: `features.vbmi()` proved the CPU has what
        // `bytes::count_many` enables (see `crate::cpu`).
        #[allow(unsafe_code)]
        unsafe {
            bytes::count_many(&tables[..targets.len()], chunks, queries, index)
        }
    }

    /// Counts `queries` against the stored words of the last
    /// [`Self::build`].
    #[must_use]
    pub fn count_built(&self, queries: &[u64]) -> u64 {
        self.count_built_within(queries, 0..self.built_len)
    }

    /// [`Self::count_built`] on the blocks that hold the stored words
    /// `lanes` (of the last [`Self::build`]): what the other words of those
    /// blocks count is the caller's to rule out (the light sieve's cut
    /// bits, kept in the words, do).
    #[must_use]
    pub fn count_built_within(&self, queries: &[u64], lanes: Range<usize>) -> u64 {
        fn blocks<const L: usize>(
            entries: &[[u64; L]],
            chunks: usize,
            lanes: Range<usize>,
        ) -> &[[u64; L]] {
            let (per_block, width) = (chunks * ENTRIES, 64 * L);
            &entries[lanes.start / width * per_block..lanes.end.div_ceil(width) * per_block]
        }
        let features = self.features;
        match self.built {
            #[cfg(target_arch = "x86_64")]
            Built::Bytes(chunks) => {
                let groups = lanes.start / 8..lanes.end.div_ceil(8);
                let index = &mut *self.byte_index.borrow_mut();
                // SAFETY: `Built::Bytes` is set only by `build_bytes`, where
                // `features.vbmi()` proved the CPU has what `bytes::count`
                // enables.
                #[allow(unsafe_code)]
                unsafe {
                    bytes::count(self.wide.entries(), chunks, groups, queries, index)
                }
            }
            #[cfg(not(target_arch = "x86_64"))]
            Built::Bytes(_) => unreachable!("byte tables are x86-64's"),
            Built::Small => simd::count_small(features, &self.small[lanes], queries),
            Built::Single(chunks) => simd::count(
                features,
                blocks(self.single.entries(), chunks, lanes),
                queries,
                chunks,
            ),
            Built::Narrow(chunks) => simd::count(
                features,
                blocks(self.narrow.entries(), chunks, lanes),
                queries,
                chunks,
            ),
            Built::Mid(chunks) => simd::count(
                features,
                blocks(self.mid.entries(), chunks, lanes),
                queries,
                chunks,
            ),
            Built::Wide(chunks) => simd::count(
                features,
                blocks(self.wide.entries(), chunks, lanes),
                queries,
                chunks,
            ),
        }
    }
}

/// The fewest stored words that get tables on a CPU with `features`.
fn small_below(features: Features) -> usize {
    if cfg!(target_arch = "x86_64") && features.avx512() {
        SMALL_AVX512 + 1
    } else {
        SMALL
    }
}

/// Which tables hold the last stored set, and its chunk count.
#[derive(Clone, Copy, Debug, Default)]
enum Built {
    /// Too few words for tables: kept as they are.
    #[default]
    Small,
    Single(usize),
    Narrow(usize),
    Mid(usize),
    Wide(usize),
    /// Byte tables ([`bytes`]) of this many chunks of 6 bits, in
    /// the wide tables' buffer.
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    Bytes(usize),
}

/// The counting loop for the CPU at hand, picked at run time: the binary
/// is built for baseline x86-64 and stays portable.
///
/// Measured at n = 18 on one thread (AMD EPYC, Zen 5): the safe loop
/// compiled with AVX-512 enabled gains nothing over SSE2 (LLVM keeps a
/// scalar popcount per lane), while the explicit loops (`sliced_kernel!`), one 512-bit AND
/// per chunk and one `vpopcntq` per block, does (see results/).
mod simd {
    use super::count_sliced;
    #[cfg(target_arch = "x86_64")]
    use super::{count_avx2, count_avx128, count_avx256, count_avx512, count_popcnt};
    use crate::cpu::Features;

    pub fn count<const L: usize>(
        features: Features,
        table: &[[u64; L]],
        queries: &[u64],
        chunks: usize,
    ) -> u64 {
        #[cfg(not(target_arch = "x86_64"))]
        let _ = features;
        #[cfg(target_arch = "x86_64")]
        if features.avx512() {
            #[allow(unsafe_code)]
            // SAFETY: `features.avx512()` is true only where the CPU has every
            // feature each kernel enables (see `crate::cpu`),
            // and `cast` only reinterprets `[u64; L]` as the same type.
            return unsafe {
                match L {
                    8 => count_avx512(cast::<L, 8>(table), queries, chunks),
                    4 => count_avx256(cast::<L, 4>(table), queries, chunks),
                    2 => count_avx128(cast::<L, 2>(table), queries, chunks),
                    _ => count_popcnt(cast::<L, 1>(table), queries, chunks),
                }
            };
        }
        #[cfg(target_arch = "x86_64")]
        if features.avx2() {
            #[allow(unsafe_code)]
            // SAFETY: `features.avx2()` is true only where the CPU has AVX2
            // and POPCNT, all that `count_avx2` enables (see `crate::cpu`).
            return unsafe { count_avx2::<L>(table, queries, chunks) };
        }
        count_sliced::<L>(table, queries, chunks)
    }

    /// [`count_naive`](super::count_naive), with AVX-512 or AVX2 where
    /// the CPU has them, for sets too small for tables.
    pub fn count_small(features: Features, stored: &[u64], queries: &[u64]) -> u64 {
        #[cfg(not(target_arch = "x86_64"))]
        let _ = features;
        #[cfg(target_arch = "x86_64")]
        if features.avx512() && stored.len() <= super::SMALL_AVX512 {
            #[allow(unsafe_code)]
            // SAFETY: `features.avx512()` is true only where the CPU has
            // AVX-512F, all that `count_small_avx512` enables.
            return unsafe { super::count_small_avx512(stored, queries) };
        }
        #[cfg(target_arch = "x86_64")]
        if features.avx2() {
            #[allow(unsafe_code)]
            // SAFETY: `features.avx2()` is true only where the CPU has
            // AVX2, all that `count_small_avx2` enables.
            return unsafe { super::count_small_avx2(stored, queries) };
        }
        super::count_naive(stored, queries)
    }

    /// `&[[u64; L]]` as `&[[u64; M]]`, for `L == M` only.
    #[cfg(target_arch = "x86_64")]
    fn cast<const L: usize, const M: usize>(table: &[[u64; L]]) -> &[[u64; M]] {
        assert_eq!(L, M);
        // SAFETY: L == M, so both element types are [u64; L]: same size,
        // alignment and validity; the length is unchanged.
        #[allow(unsafe_code)]
        unsafe {
            std::slice::from_raw_parts(table.as_ptr().cast(), table.len())
        }
    }
}

/// The AVX-512 loops, one per block width: 512 lanes (`zmm`), and 256 and
/// 128 (`ymm`, `xmm`, AVX-512VL) for the sieve's buckets of a few hundred
/// words, which on the portable loop, its popcount done in software on
/// baseline x86-64, made n = 20 slower than no sieve at all.
///
/// `$name` picks a copy per chunk count, so that the chunk loop is
/// unrolled; `$fixed` does one AND per chunk and one popcount per block and
/// query. The popcounts are shifted by the query's weight tag, summed as a
/// vector and reduced once per block: a horizontal sum and a multiply per
/// query made the loop wait on their latency (see results/).
#[cfg(target_arch = "x86_64")]
macro_rules! sliced_kernel {
    ($name:ident, $fixed:ident, $lanes:literal, $vec:ty, $load:ident, $and:ident,
     $popcnt:ident, $add:ident, $sll:ident, $zero:ident, $store:ident) => {
        #[target_feature(enable = "avx512f,avx512vl,avx512vpopcntdq")]
        fn $name(table: &[[u64; $lanes]], queries: &[u64], chunks: usize) -> u64 {
            match chunks {
                1 => $fixed::<1>(table, queries),
                2 => $fixed::<2>(table, queries),
                3 => $fixed::<3>(table, queries),
                4 => $fixed::<4>(table, queries),
                5 => $fixed::<5>(table, queries),
                6 => $fixed::<6>(table, queries),
                7 => $fixed::<7>(table, queries),
                8 => $fixed::<8>(table, queries),
                9 => $fixed::<9>(table, queries),
                10 => $fixed::<10>(table, queries),
                11 => $fixed::<11>(table, queries),
                _ => unreachable!("a window of at most 2 * (28 - 1) bits has at most 11 chunks"),
            }
        }

        #[target_feature(enable = "avx512f,avx512vl,avx512vpopcntdq")]
        fn $fixed<const C: usize>(table: &[[u64; $lanes]], queries: &[u64]) -> u64 {
            use std::arch::x86_64::{
                _mm_cvtsi32_si128, $add, $and, $load, $popcnt, $sll, $store, $zero,
            };
            let entry = |entries: &[[u64; $lanes]], index: u64| -> $vec {
                let entry: &[u64; $lanes] = &entries[index as usize];
                // SAFETY: `entry` is readable for the vector's width; the
                // load is unaligned.
                #[allow(unsafe_code)]
                unsafe {
                    $load(entry.as_ptr().cast())
                }
            };
            let reduce = |sum: $vec| -> u64 {
                let mut lanes = [0u64; $lanes];
                // SAFETY: `lanes` is writable for the vector's width.
                #[allow(unsafe_code)]
                unsafe {
                    $store(lanes.as_mut_ptr().cast(), sum);
                }
                lanes.iter().sum::<u64>()
            };
            let mut total = 0u64;
            // Two blocks per pass over the queries: each query's chunk
            // indices are worked out once for both.
            let mut twos = table.chunks_exact(2 * C * ENTRIES);
            for two in &mut twos {
                let (first, second) = two.split_at(C * ENTRIES);
                let mut sum = $zero();
                for &q in queries {
                    let index = q & (ENTRIES as u64 - 1);
                    let mut a = entry(first, index);
                    let mut b = entry(second, index);
                    for chunk in 1..C {
                        let index = (q >> (CHUNK as usize * chunk)) & (ENTRIES as u64 - 1);
                        a = $and(a, entry(&first[chunk * ENTRIES..], index));
                        b = $and(b, entry(&second[chunk * ENTRIES..], index));
                    }
                    let shift = _mm_cvtsi32_si128((q >> TAG) as i32);
                    sum = $add(sum, $sll($add($popcnt(a), $popcnt(b)), shift));
                }
                total += reduce(sum);
            }
            for block in twos.remainder().chunks_exact(C * ENTRIES) {
                let mut sum = $zero();
                for &q in queries {
                    let mut acc = entry(block, q & (ENTRIES as u64 - 1));
                    for chunk in 1..C {
                        let index = (q >> (CHUNK as usize * chunk)) & (ENTRIES as u64 - 1);
                        acc = $and(acc, entry(&block[chunk * ENTRIES..], index));
                    }
                    let shift = _mm_cvtsi32_si128((q >> TAG) as i32);
                    sum = $add(sum, $sll($popcnt(acc), shift));
                }
                total += reduce(sum);
            }
            total
        }
    };
}

#[cfg(target_arch = "x86_64")]
use std::arch::x86_64::{__m128i, __m256i, __m512i};

#[cfg(target_arch = "x86_64")]
sliced_kernel!(
    count_avx512,
    count_avx512_fixed,
    8,
    __m512i,
    _mm512_loadu_si512,
    _mm512_and_si512,
    _mm512_popcnt_epi64,
    _mm512_add_epi64,
    _mm512_sll_epi64,
    _mm512_setzero_si512,
    _mm512_storeu_si512
);

#[cfg(target_arch = "x86_64")]
sliced_kernel!(
    count_avx256,
    count_avx256_fixed,
    4,
    __m256i,
    _mm256_loadu_si256,
    _mm256_and_si256,
    _mm256_popcnt_epi64,
    _mm256_add_epi64,
    _mm256_sll_epi64,
    _mm256_setzero_si256,
    _mm256_storeu_si256
);
#[cfg(target_arch = "x86_64")]
sliced_kernel!(
    count_avx128,
    count_avx128_fixed,
    2,
    __m128i,
    _mm_loadu_si128,
    _mm_and_si128,
    _mm_popcnt_epi64,
    _mm_add_epi64,
    _mm_sll_epi64,
    _mm_setzero_si128,
    _mm_storeu_si128
);

/// [`count_naive`] for at most [`SMALL_AVX512`] stored words: eight
/// queries at a time in a register, each stored word broadcast from memory
/// and tested against all eight by one `vptestnmq` (the lanes of the
/// queries it misses), and the queries' weights added to those lanes by one
/// masked add. Tables would cost a load and an AND per chunk for every
/// query, however few the stored words.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
fn count_small_avx512(stored: &[u64], queries: &[u64]) -> u64 {
    use std::arch::x86_64::{
        _mm512_maskz_loadu_epi64, _mm512_maskz_sllv_epi64, _mm512_reduce_add_epi64,
        _mm512_set1_epi64, _mm512_setzero_si512, _mm512_srli_epi64,
    };
    let one = _mm512_set1_epi64(1);
    // Four sums, taken in turn, so that the masked adds do not wait on
    // each other.
    let mut sums = [_mm512_setzero_si512(); 4];
    for eight in queries.chunks(8) {
        // The lanes that hold a query: all eight but in the last group,
        // whose empty lanes weigh 0 and so never count.
        let lanes = (0xffu16 >> (8 - eight.len())) as u8;
        // SAFETY: the masked load reads only the lanes of `lanes`, the
        // words `eight` holds.
        #[allow(unsafe_code)]
        let asked = unsafe { _mm512_maskz_loadu_epi64(lanes, eight.as_ptr().cast()) };
        let weights = _mm512_maskz_sllv_epi64(lanes, one, _mm512_srli_epi64::<TAG>(asked));
        count_eight(stored, asked, weights, &mut sums);
    }
    sums.iter()
        .map(|&sum| _mm512_reduce_add_epi64(sum) as u64)
        .sum()
}

/// [`count_small_avx512`] with AVX2, which has neither masks nor a test
/// that makes one: four queries a register, and for each stored word,
/// broadcast, an AND, a compare with zero (all ones where it misses the
/// query), an AND with the weights and an add: four operations for four
/// pairs, where the scalar loop takes about three a pair.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn count_small_avx2(stored: &[u64], queries: &[u64]) -> u64 {
    use std::arch::x86_64::{
        _mm256_add_epi64, _mm256_and_si256, _mm256_cmpeq_epi64, _mm256_loadu_si256,
        _mm256_set1_epi64x, _mm256_setzero_si256, _mm256_sllv_epi64, _mm256_srli_epi64,
        _mm256_storeu_si256,
    };
    let (one, zero) = (_mm256_set1_epi64x(1), _mm256_setzero_si256());
    let mut sums = [zero; 4];
    for four in queries.chunks(4) {
        // The last group's empty lanes: queries of weight 0, never counted.
        let mut asked = [0u64; 4];
        asked[..four.len()].copy_from_slice(four);
        // SAFETY: `asked` is 4 words, 32 readable bytes; the load is
        // unaligned.
        #[allow(unsafe_code)]
        let asked = unsafe { _mm256_loadu_si256(asked.as_ptr().cast()) };
        let lanes: [i64; 4] = std::array::from_fn(|i| if i < four.len() { -1 } else { 0 });
        // SAFETY: as above.
        #[allow(unsafe_code)]
        let lanes = unsafe { _mm256_loadu_si256(lanes.as_ptr().cast()) };
        let weights = _mm256_and_si256(
            lanes,
            _mm256_sllv_epi64(one, _mm256_srli_epi64::<{ TAG as i32 }>(asked)),
        );
        let mut words = stored.chunks_exact(4);
        for group in &mut words {
            for (sum, &word) in sums.iter_mut().zip(group) {
                let both = _mm256_and_si256(asked, _mm256_set1_epi64x(word as i64));
                let free = _mm256_cmpeq_epi64(both, zero);
                *sum = _mm256_add_epi64(*sum, _mm256_and_si256(free, weights));
            }
        }
        for (sum, &word) in sums.iter_mut().zip(words.remainder()) {
            let both = _mm256_and_si256(asked, _mm256_set1_epi64x(word as i64));
            let free = _mm256_cmpeq_epi64(both, zero);
            *sum = _mm256_add_epi64(*sum, _mm256_and_si256(free, weights));
        }
    }
    let mut total = 0u64;
    for sum in sums {
        let mut lanes = [0u64; 4];
        // SAFETY: `lanes` is 32 writable bytes.
        #[allow(unsafe_code)]
        unsafe {
            _mm256_storeu_si256(lanes.as_mut_ptr().cast(), sum);
        }
        total += lanes.iter().sum::<u64>();
    }
    total
}

/// Adds to `sums`, for each stored word, `weights` in the lanes of the
/// queries `asked` that it misses.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
#[inline]
fn count_eight(
    stored: &[u64],
    asked: std::arch::x86_64::__m512i,
    weights: std::arch::x86_64::__m512i,
    sums: &mut [std::arch::x86_64::__m512i; 4],
) {
    use std::arch::x86_64::{_mm512_mask_add_epi64, _mm512_set1_epi64, _mm512_testn_epi64_mask};
    let mut fours = stored.chunks_exact(4);
    for four in &mut fours {
        for (sum, &word) in sums.iter_mut().zip(four) {
            let free = _mm512_testn_epi64_mask(asked, _mm512_set1_epi64(word as i64));
            *sum = _mm512_mask_add_epi64(*sum, free, *sum, weights);
        }
    }
    for (sum, &word) in sums.iter_mut().zip(fours.remainder()) {
        let free = _mm512_testn_epi64_mask(asked, _mm512_set1_epi64(word as i64));
        *sum = _mm512_mask_add_epi64(*sum, free, *sum, weights);
    }
}

/// Blocks of 64 lanes: one word per entry, the hardware `popcnt`.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt")]
fn count_popcnt(table: &[[u64; 1]], queries: &[u64], chunks: usize) -> u64 {
    count_sliced::<1>(table, queries, chunks)
}

/// The loop for CPUs with AVX2 but not AVX-512, for blocks of 256 and 512
/// lanes (one or two 256-bit ANDs per chunk); narrower blocks take the
/// portable loop compiled with the hardware `popcnt`.
///
/// AVX2 has no vector popcount, and the portable loop's one `popcnt` per
/// 64 lanes costs a move out of the vector for each. So the lanes are
/// counted by nibbles in the vector (`vpshufb` looks up each nibble's
/// bits, at most 8 a byte), both blocks' counts added byte by byte, and
/// the bytes summed into the four 64-bit lanes by `vpsadbw`, shifted by
/// the query's weight tag and added, as the AVX-512 loop does.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,popcnt")]
fn count_avx2<const L: usize>(table: &[[u64; L]], queries: &[u64], chunks: usize) -> u64 {
    if !L.is_multiple_of(4) {
        return count_sliced::<L>(table, queries, chunks);
    }
    match chunks {
        1 => count_avx2_fixed::<L, 1>(table, queries),
        2 => count_avx2_fixed::<L, 2>(table, queries),
        3 => count_avx2_fixed::<L, 3>(table, queries),
        4 => count_avx2_fixed::<L, 4>(table, queries),
        5 => count_avx2_fixed::<L, 5>(table, queries),
        6 => count_avx2_fixed::<L, 6>(table, queries),
        7 => count_avx2_fixed::<L, 7>(table, queries),
        8 => count_avx2_fixed::<L, 8>(table, queries),
        9 => count_avx2_fixed::<L, 9>(table, queries),
        10 => count_avx2_fixed::<L, 10>(table, queries),
        11 => count_avx2_fixed::<L, 11>(table, queries),
        _ => unreachable!("a window of at most 2 * (28 - 1) bits has at most 11 chunks"),
    }
}

/// [`count_avx2`] for `C` chunks and blocks of `64 * L` lanes, `L` 4 or 8.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,popcnt")]
fn count_avx2_fixed<const L: usize, const C: usize>(table: &[[u64; L]], queries: &[u64]) -> u64 {
    use std::arch::x86_64::{
        __m256i, _mm_cvtsi32_si128, _mm256_add_epi8, _mm256_add_epi64, _mm256_and_si256,
        _mm256_loadu_si256, _mm256_sad_epu8, _mm256_set1_epi8, _mm256_setr_epi8,
        _mm256_setzero_si256, _mm256_shuffle_epi8, _mm256_sll_epi64, _mm256_srli_epi16,
        _mm256_storeu_si256,
    };
    // The 256-bit part `part` of an entry.
    let load = |entry: &[u64; L], part: usize| -> __m256i {
        let quarter: &[u64] = &entry[4 * part..4 * part + 4];
        // SAFETY: `quarter` is 4 words, 32 readable bytes; the load is
        // unaligned.
        #[allow(unsafe_code)]
        unsafe {
            _mm256_loadu_si256(quarter.as_ptr().cast())
        }
    };
    let bits = _mm256_setr_epi8(
        0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4, 0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3,
        3, 4,
    );
    let nibble = _mm256_set1_epi8(0x0f);
    // Each byte's set bits, 0 to 8.
    let count = |v: __m256i| -> __m256i {
        let low = _mm256_shuffle_epi8(bits, _mm256_and_si256(v, nibble));
        let high = _mm256_shuffle_epi8(bits, _mm256_and_si256(_mm256_srli_epi16::<4>(v), nibble));
        _mm256_add_epi8(low, high)
    };
    let reduce = |sum: __m256i| -> u64 {
        let mut lanes = [0u64; 4];
        // SAFETY: `lanes` is 32 writable bytes.
        #[allow(unsafe_code)]
        unsafe {
            _mm256_storeu_si256(lanes.as_mut_ptr().cast(), sum);
        }
        lanes.iter().sum::<u64>()
    };
    let zero = _mm256_setzero_si256();
    let indices = |q: u64| -> [usize; C] {
        std::array::from_fn(|chunk| {
            chunk * ENTRIES + ((q >> (CHUNK as usize * chunk)) & (ENTRIES as u64 - 1)) as usize
        })
    };
    let mut total = 0u64;
    // Two blocks per pass over the queries: each query's chunk indices are
    // worked out once for both. A byte's count is at most 8 per part and
    // block: 32 for both blocks of two parts, well below 256.
    let mut twos = table.chunks_exact(2 * C * ENTRIES);
    for two in &mut twos {
        let (first, second) = two.split_at(C * ENTRIES);
        let mut sum = zero;
        for &q in queries {
            let at = indices(q);
            let mut bytes = zero;
            for part in 0..L / 4 {
                let mut a = load(&first[at[0]], part);
                let mut b = load(&second[at[0]], part);
                for &index in &at[1..] {
                    a = _mm256_and_si256(a, load(&first[index], part));
                    b = _mm256_and_si256(b, load(&second[index], part));
                }
                bytes = _mm256_add_epi8(bytes, _mm256_add_epi8(count(a), count(b)));
            }
            let shift = _mm_cvtsi32_si128((q >> TAG) as i32);
            sum = _mm256_add_epi64(sum, _mm256_sll_epi64(_mm256_sad_epu8(bytes, zero), shift));
        }
        total += reduce(sum);
    }
    for block in twos.remainder().chunks_exact(C * ENTRIES) {
        let mut sum = zero;
        for &q in queries {
            let at = indices(q);
            let mut bytes = zero;
            for part in 0..L / 4 {
                let mut a = load(&block[at[0]], part);
                for &index in &at[1..] {
                    a = _mm256_and_si256(a, load(&block[index], part));
                }
                bytes = _mm256_add_epi8(bytes, count(a));
            }
            let shift = _mm_cvtsi32_si128((q >> TAG) as i32);
            sum = _mm256_add_epi64(sum, _mm256_sll_epi64(_mm256_sad_epu8(bytes, zero), shift));
        }
        total += reduce(sum);
    }
    total
}

/// Fills `table` with the chunk tables of every block of `stored`.
///
/// Entry `U` of a chunk has lane `k` set iff word `k` has none of the
/// chunk's bits in `U`, i.e. `U` is a subset of the bits word `k` lacks.
/// So each word sets its lane in one entry, the one of exactly the bits it
/// lacks, and an OR over supersets (five passes of sixteen ORs) spreads it
/// to every subset. Lanes past the stored words are never set, so padding
/// never counts. This replaced building one column per window bit, lane by
/// set bit, and then each entry as the AND of its columns (see the step
/// table in results/). With AVX-512 the tables are made another way, with
/// the same entries: [`build_avx512`].
fn build<const L: usize>(
    tables: &mut Tables<L>,
    stored: &[u64],
    chunks: usize,
    features: Features,
) -> usize {
    let lanes = 64 * L;
    let blocks = stored.len().div_ceil(lanes);
    let table = tables.resize(blocks * chunks * ENTRIES);
    #[cfg(target_arch = "x86_64")]
    if features.avx512() {
        // SAFETY: `features.avx512()` is true only where the CPU has
        // AVX-512F and BW (see `crate::cpu`).
        #[allow(unsafe_code)]
        unsafe {
            build_avx512(table, stored, chunks);
        }
        return chunks;
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = features;
    for (block, words) in stored.chunks(lanes).enumerate() {
        let entries = &mut table[block * chunks * ENTRIES..][..chunks * ENTRIES];
        for (k, &word) in words.iter().enumerate() {
            let lane = 1u64 << (k % 64);
            let mut rest = word;
            for chunk in entries.chunks_exact_mut(ENTRIES) {
                let lacks = !rest as usize & (ENTRIES - 1);
                chunk[lacks][k / 64] |= lane;
                rest >>= CHUNK;
            }
        }
        for chunk in entries.chunks_exact_mut(ENTRIES) {
            for bit in 0..CHUNK as usize {
                let bit = 1 << bit;
                for subset in (0..ENTRIES).filter(|u| u & bit == 0) {
                    let superset = chunk[subset | bit];
                    let entry = &mut chunk[subset];
                    for i in 0..L {
                        entry[i] |= superset[i];
                    }
                }
            }
        }
    }
    chunks
}

/// [`build`]'s entries from the columns of each chunk bit: for 64 stored
/// words at a time, the chunk's bits of each word as a byte (a shift and a
/// `vpmovqb` per 8 words), the lanes whose word lacks each bit by one
/// `vptestnmb`, and each of the 32 entries as the AND of its bits'
/// columns, in registers. Lanes past the stored words are masked off. The
/// scalar build costs a read-modify-write per word and chunk and five OR
/// passes over every chunk's entries.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw")]
fn build_avx512<const L: usize>(table: &mut [[u64; L]], stored: &[u64], chunks: usize) {
    use std::arch::x86_64::{
        _mm_cvtsi32_si128, _mm_storel_epi64, _mm512_cvtepi64_epi8, _mm512_loadu_si512,
        _mm512_set1_epi8, _mm512_srl_epi64, _mm512_testn_epi8_mask,
    };
    for (block, words) in stored.chunks(64 * L).enumerate() {
        let entries = &mut table[block * chunks * ENTRIES..][..chunks * ENTRIES];
        for (lane_word, group) in words.chunks(64).enumerate() {
            let mut padded = [0u64; 64];
            padded[..group.len()].copy_from_slice(group);
            let valid = !0u64 >> (64 - group.len());
            for (chunk, chunk_entries) in entries.chunks_exact_mut(ENTRIES).enumerate() {
                let shift = _mm_cvtsi32_si128((CHUNK as usize * chunk) as i32);
                let mut bytes = [0u8; 64];
                for (eight, out) in padded.chunks_exact(8).zip(bytes.chunks_exact_mut(8)) {
                    // SAFETY: `eight` is 8 words and `out` 8 bytes: the
                    // load reads 64 bytes, the store writes 8, unaligned.
                    #[allow(unsafe_code)]
                    unsafe {
                        let words = _mm512_loadu_si512(eight.as_ptr().cast());
                        let low = _mm512_cvtepi64_epi8(_mm512_srl_epi64(words, shift));
                        _mm_storel_epi64(out.as_mut_ptr().cast(), low);
                    }
                }
                // SAFETY: `bytes` is 64 bytes.
                #[allow(unsafe_code)]
                let bytes = unsafe { _mm512_loadu_si512(bytes.as_ptr().cast()) };
                let mut lacks = [0u64; CHUNK as usize];
                for (bit, column) in lacks.iter_mut().enumerate() {
                    *column = _mm512_testn_epi8_mask(bytes, _mm512_set1_epi8(1 << bit)) & valid;
                }
                let mut row = [0u64; ENTRIES];
                row[0] = valid;
                for subset in 1..ENTRIES {
                    row[subset] =
                        row[subset & (subset - 1)] & lacks[subset.trailing_zeros() as usize];
                }
                for (entry, &lanes) in chunk_entries.iter_mut().zip(&row) {
                    entry[lane_word] = lanes;
                }
            }
        }
    }
}

/// Sums, over queries and blocks, the weighted popcount of the AND of the
/// query's chunk entries.
#[inline]
fn count_sliced<const L: usize>(table: &[[u64; L]], queries: &[u64], chunks: usize) -> u64 {
    let per_block = chunks * ENTRIES;
    let mut total = 0u64;
    // Block-major: one block's tables stay in L1 while every query visits.
    for block in table.chunks_exact(per_block) {
        for &q in queries {
            let mut acc = [!0u64; L];
            for (chunk, entries) in block.chunks_exact(ENTRIES).enumerate() {
                let e = &entries[((q >> (CHUNK as usize * chunk)) & (ENTRIES as u64 - 1)) as usize];
                for i in 0..L {
                    acc[i] &= e[i];
                }
            }
            let matches: u32 = acc.iter().map(|a| a.count_ones()).sum();
            total += weight(q) * u64::from(matches);
        }
    }
    total
}

/// The matcher loop this machine runs, for reports.
pub(crate) fn path(features: Features) -> &'static str {
    if cfg!(target_arch = "x86_64") && features.vbmi() {
        return "avx512+vbmi";
    }
    if cfg!(target_arch = "x86_64") && features.avx512() {
        return "avx512";
    }
    if cfg!(target_arch = "x86_64") && features.avx2() {
        return "avx2";
    }
    "portable"
}

/// The portable counting loop on its own, whatever the CPU: lets tests pin
/// the fallback that machines without AVX-512 run.
#[doc(hidden)]
pub fn count_portable(stored: &[u64], queries: &[u64], bits: u32) -> u64 {
    let chunks = bits.div_ceil(CHUNK) as usize;
    let mut tables = Tables::<8>::default();
    let chunks = build::<8>(&mut tables, stored, chunks, Features::PORTABLE);
    count_sliced::<8>(tables.entries(), queries, chunks)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(len: usize, seed: u64, bits: u32) -> Vec<u64> {
        let mut x = seed | 1;
        (0..len)
            .map(|_| {
                // xorshift64*; AND of two draws gives density ~1/4.
                let mut next = || {
                    x ^= x >> 12;
                    x ^= x << 25;
                    x ^= x >> 27;
                    x.wrapping_mul(0x2545_f491_4f6c_dd1d)
                };
                next() & next() & ((1 << bits) - 1)
            })
            .collect()
    }

    /// The CPU's loops, its AVX2 ones where it has AVX-512 too, and the
    /// portable ones.
    fn every_loop() -> [Features; 3] {
        let no_avx512 = crate::Simd {
            avx512: false,
            ..crate::Simd::AUTO
        };
        [
            Features::detect(),
            Features::allowed(no_avx512),
            Features::PORTABLE,
        ]
    }

    #[test]
    fn sliced_equals_naive_at_block_edges() {
        for features in every_loop() {
            matches_naive_at_block_edges(features);
        }
    }

    #[test]
    fn any_run_of_a_small_set_counts_as_the_naive_loop_does() {
        // The light sieve counts runs of the stored words it built; those
        // of a set with tables count their whole blocks.
        for features in every_loop() {
            let mut m = SlicedMatcher {
                features,
                ..SlicedMatcher::default()
            };
            let small = small_below(features);
            for len in [1, 9, 23, 40, 64].into_iter().filter(|&len| len < small) {
                let stored = words(len, 3 + len as u64, 34);
                let queries: Vec<u64> = (words(30, 5, 34).into_iter().enumerate())
                    .map(|(i, q)| query(q, 1 << (i % 4)))
                    .chain([0])
                    .collect();
                m.build(&stored, 34);
                for start in 0..len {
                    for end in start..=len {
                        assert_eq!(
                            m.count_built_within(&queries, start..end),
                            count_naive(&stored[start..end], &queries),
                            "words {start}..{end} of {len}, {features:?}"
                        );
                    }
                }
            }
        }
    }

    /// The byte tables ([`bytes`]) count as the naive loop
    /// does: every size around a group of 8 and a tile of 31 groups, every
    /// chunk count, vectors of 64 queries full and in part, more than one
    /// batch of them, and any run of whole groups. Where the CPU lacks
    /// VBMI, `build_bytes` takes the sliced tables, which count the whole
    /// set the same.
    #[test]
    fn byte_tables_equal_naive() {
        let features = Features::detect();
        let mut m = SlicedMatcher {
            features,
            ..SlicedMatcher::default()
        };
        for len in [1, 7, 8, 9, 63, 64, 65, 247, 248, 249, 1000] {
            for bits in [1, 6, 7, 30, 42, 48] {
                let seed = 11 + len as u64 + u64::from(bits);
                let stored = words(len, seed, bits);
                for asked in [1, 63, 64, 65, 300] {
                    let mut queries: Vec<u64> = (words(asked, seed + 5, bits).into_iter())
                        .enumerate()
                        .map(|(i, q)| query(q, 1 << (i % 4)))
                        .collect();
                    queries[asked / 2] = 0;
                    m.build_bytes(&stored, bits);
                    assert_eq!(
                        m.count_built(&queries),
                        count_naive(&stored, &queries),
                        "{len} words of {bits} bits, {asked} queries"
                    );
                    if !features.vbmi() {
                        continue;
                    }
                    // Runs of whole groups: lanes `start..end` count the
                    // groups that hold them.
                    for (start, end) in [(0, 1), (8, len), (len / 2, len), (3, len / 3 + 1)] {
                        if start >= end {
                            continue;
                        }
                        let whole = start / 8 * 8..end.div_ceil(8).saturating_mul(8).min(len);
                        assert_eq!(
                            m.count_built_within(&queries, start..end),
                            count_naive(&stored[whole.clone()], &queries),
                            "{len} words of {bits} bits, {asked} queries, groups of {whole:?}"
                        );
                    }
                }
            }
        }
        // More queries than one batch of 64 vectors holds.
        let stored = words(500, 3, 40);
        let queries: Vec<u64> = (words(64 * 64 * 2 + 7, 4, 40).into_iter().enumerate())
            .map(|(i, q)| query(q, 1 << (i % 4)))
            .collect();
        m.build_bytes(&stored, 40);
        assert_eq!(m.count_built(&queries), count_naive(&stored, &queries));
    }

    fn matches_naive_at_block_edges(features: Features) {
        let mut m = SlicedMatcher {
            features,
            ..SlicedMatcher::default()
        };
        let edges = [
            0, 1, 7, 8, 9, 17, 23, 24, 40, 63, 64, 65, 128, 129, 255, 256, 257, 511, 512, 513, 1100,
        ];
        // And past a piece of tables: the rest counted on its own tables.
        for len in edges.into_iter().chain([PIECE + 70]) {
            // One chunk, seven, and the most a board has (11).
            for bits in [4, 34, 54] {
                let seed = 7 + len as u64 + u64::from(bits);
                let stored = words(len, seed, bits);
                // Every weight, so that each tag's shift counts.
                let mut queries: Vec<u64> = (words(50, 99, bits).into_iter().enumerate())
                    .map(|(i, q)| query(q, 1 << (i % 4)))
                    .collect();
                queries.push(0); // the all-zero query matches every stored word, no padding
                if len > PIECE {
                    queries.truncate(5);
                }
                let want = count_naive(&stored, &queries);
                assert_eq!(
                    m.count(&stored, &queries, bits),
                    want,
                    "{len} stored words of {bits} bits, {features:?}"
                );
            }
        }
    }
}
