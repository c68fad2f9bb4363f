//! The byte-permute matcher: the sieve's buckets counted eight stored words
//! by 64 queries at a time, with AVX-512 VBMI's `vpermb`.
//!
//! The stored words are cut into groups of 8, and the window into chunks
//! of 6 bits. For each group and chunk a 64-byte table holds, at entry
//! `U`, the byte whose bit `j` says that word `j` has none of the chunk's
//! bits in `U`. A query's chunk bits index that table; 64 queries' indices
//! for one chunk fill a vector, and one `vpermb` looks up all 64 entries at
//! once. The AND over chunks and a byte popcount then count 512 pairs
//! (64 queries by 8 words), where the bit-sliced matcher
//! ([`super`]) spends one table load a chunk and a popcount on
//! 512 stored words for one query, with scalar work to find each entry.
//!
//! Groups of 8 words waste at most 7 lanes at a run's edges, where the
//! sliced matcher's blocks of 512 wasted a quarter of the lanes it visited
//! at n = 27. As there, words outside a run that share a group with it
//! are the sieve's to rule out (they share a split bit with the query).
//! Lanes past the stored words are in no entry, and queries past the end
//! of a vector weigh 0, so padding never counts.
//!
//! Each query's weight (1, 2, 4 or 8, its tag) multiplies its byte counts
//! by `vpmaddubsw`; the counts stay below 256 because a tile holds at most
//! [`TILE`] groups.

// The loops and what only they read are x86-64's; the sizes are counted
// on every target.
#![cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]

/// Bits per chunk: 64 entries, one `vpermb` table.
pub(super) const CHUNK: u32 = 6;
/// The most stored words whose tables are built at once: at 8 chunks (48
/// bits), 64 bytes a word, 8 MiB, within what the sliced matcher's
/// [`super::PIECE`] words take (11 MiB), whose buffer these
/// tables use.
pub(super) const PIECE: usize = 1 << 17;
/// Groups counted against each vector of queries before the byte counts
/// are widened: 31 groups of 8 words, at most 248 a byte.
const TILE: usize = 31;
/// Vectors of 64 queries counted together against each group, so that
/// each table entry is loaded once for all of them. In a micro-benchmark
/// the loop was bound by those loads; with two, by `vpermb` (0.78 against
/// 0.99 ns a group and vector at 5 chunks, 0.95 against 1.15 at 6; three or
/// four, no faster). Within a unit of n = 27 it gains about 3%.
const VECTORS: usize = 2;
/// Vectors of 64 queries transposed at once (37 KiB at 8 chunks).
const BATCH: usize = 64;
/// The most queries the sieve gathers for one count on byte tables
/// (`sieve::Buckets::count_gathered`).
pub(crate) const GATHERED: usize = 1 << 14;
/// The bytes of a matcher's buffers for byte-table counts besides the
/// tables: the gathered queries and a batch of them transposed.
pub(crate) const BUFFER_BYTES: u64 = (GATHERED * 8 + BATCH * 9 * 64) as u64;

/// The number of 6-bit chunks of a window of `bits` bits, 1 to 8.
pub(in crate::count::join) fn chunks(bits: u32) -> usize {
    bits.div_ceil(CHUNK).max(1) as usize
}

/// Fills `tables` with the tables of `stored` (words of at most 48 bits):
/// `chunks` entries for each group of 8 words, group by group.
///
/// # Safety
///
/// The CPU must have every feature it enables (`Features::vbmi` proves
/// it).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512vl,avx512bw,avx512vbmi,avx512bitalg,avx512vpopcntdq")]
pub(super) fn build(tables: &mut super::Tables<8>, stored: &[u64], chunks: usize) {
    use std::arch::x86_64::{
        _mm512_and_si512, _mm512_mask_set1_epi8, _mm512_mask_testn_epi64_mask,
        _mm512_maskz_loadu_epi64, _mm512_set1_epi8, _mm512_set1_epi64, _mm512_storeu_si512,
    };
    // The entries whose index has bit `t`: bit `u` of `HAS[t]` is bit `t`
    // of `u`.
    const HAS: [u64; 6] = [
        0xaaaa_aaaa_aaaa_aaaa,
        0xcccc_cccc_cccc_cccc,
        0xf0f0_f0f0_f0f0_f0f0,
        0xff00_ff00_ff00_ff00,
        0xffff_0000_ffff_0000,
        0xffff_ffff_0000_0000,
    ];
    let groups = stored.len().div_ceil(8);
    let table = tables.resize(groups * chunks);
    let all = _mm512_set1_epi8(-1);
    for (group, entries) in stored.chunks(8).zip(table.chunks_exact_mut(chunks)) {
        let valid = (0xffu16 >> (8 - group.len())) as u8;
        // SAFETY: the masked load reads only the `group.len()` words there.
        #[allow(unsafe_code)]
        let words = unsafe { _mm512_maskz_loadu_epi64(valid, group.as_ptr().cast()) };
        for (chunk, entry) in entries.iter_mut().enumerate() {
            let mut bytes = _mm512_set1_epi8(valid as i8);
            for (t, &has) in HAS.iter().enumerate() {
                let bit = CHUNK as usize * chunk + t;
                if bit >= 64 {
                    break;
                }
                // The words of the group that lack the bit.
                let lack = _mm512_mask_testn_epi64_mask(valid, words, _mm512_set1_epi64(1 << bit));
                bytes = _mm512_and_si512(bytes, _mm512_mask_set1_epi8(all, has, lack as i8));
            }
            // SAFETY: `entry` is 64 writable bytes; the store is unaligned.
            #[allow(unsafe_code)]
            unsafe {
                _mm512_storeu_si512(entry.as_mut_ptr().cast(), bytes);
            }
        }
    }
}

/// The weighted compatible pairs of `queries` and the stored words of the
/// groups `groups` of `table` (built by [`build`] with `chunks` chunks);
/// `index` is a buffer for the queries' transposed indices.
///
/// # Safety
///
/// The CPU must have AVX-512F, BW, VBMI, BITALG and VPOPCNTDQ
/// (`Features::vbmi` proves it).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512vl,avx512bw,avx512vbmi,avx512bitalg,avx512vpopcntdq")]
pub(super) fn count(
    table: &[[u64; 8]],
    chunks: usize,
    groups: std::ops::Range<usize>,
    queries: &[u64],
    index: &mut super::Tables<8>,
) -> u64 {
    let table = &table[groups.start * chunks..groups.end * chunks];
    match chunks {
        1 => count_fixed::<1>(table, queries, index),
        2 => count_fixed::<2>(table, queries, index),
        3 => count_fixed::<3>(table, queries, index),
        4 => count_fixed::<4>(table, queries, index),
        5 => count_fixed::<5>(table, queries, index),
        6 => count_fixed::<6>(table, queries, index),
        7 => count_fixed::<7>(table, queries, index),
        8 => count_fixed::<8>(table, queries, index),
        _ => unreachable!("a window of at most 48 bits has at most 8 chunks of 6"),
    }
}

/// [`count`] for `C` chunks.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512vl,avx512bw,avx512vbmi,avx512bitalg,avx512vpopcntdq")]
fn count_fixed<const C: usize>(
    table: &[[u64; 8]],
    queries: &[u64],
    index: &mut super::Tables<8>,
) -> u64 {
    let mut total = 0u64;
    for batch in queries.chunks(64 * BATCH) {
        let index = transpose::<C>(batch, index);
        total += count_index::<C>(table, index);
    }
    total
}

/// [`count`] of the queries of `queries` against each of `tables` (the
/// entries of each table's groups, built by [`build`] with `chunks`
/// chunks), transposed once for all of them.
///
/// # Safety
///
/// As [`count`].
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512vl,avx512bw,avx512vbmi,avx512bitalg,avx512vpopcntdq")]
pub(super) fn count_many(
    tables: &[&[[u64; 8]]],
    chunks: usize,
    queries: &[u64],
    index: &mut super::Tables<8>,
) -> u64 {
    match chunks {
        1 => count_many_fixed::<1>(tables, queries, index),
        2 => count_many_fixed::<2>(tables, queries, index),
        3 => count_many_fixed::<3>(tables, queries, index),
        4 => count_many_fixed::<4>(tables, queries, index),
        5 => count_many_fixed::<5>(tables, queries, index),
        6 => count_many_fixed::<6>(tables, queries, index),
        7 => count_many_fixed::<7>(tables, queries, index),
        8 => count_many_fixed::<8>(tables, queries, index),
        _ => unreachable!("a window of at most 48 bits has at most 8 chunks of 6"),
    }
}

/// [`count_many`] for `C` chunks.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512vl,avx512bw,avx512vbmi,avx512bitalg,avx512vpopcntdq")]
fn count_many_fixed<const C: usize>(
    tables: &[&[[u64; 8]]],
    queries: &[u64],
    index: &mut super::Tables<8>,
) -> u64 {
    let mut total = 0;
    for batch in queries.chunks(64 * BATCH) {
        let index = transpose::<C>(batch, index);
        for table in tables {
            total += count_index::<C>(table, index);
        }
    }
    total
}

/// The weighted counts of the transposed queries `index` (at most
/// [`BATCH`] vectors) against the groups of `table`.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512vl,avx512bw,avx512vbmi,avx512bitalg,avx512vpopcntdq")]
fn count_index<const C: usize>(table: &[[u64; 8]], index: &[[u64; 8]]) -> u64 {
    use std::arch::x86_64::{_mm512_add_epi32, _mm512_reduce_add_epi32, _mm512_setzero_si512};
    let mut total = 0u64;
    for tile in table.chunks(TILE * C) {
        let mut sums = _mm512_setzero_si512();
        let blocks = index.chunks_exact(VECTORS * (C + 1));
        let rest = blocks.remainder();
        for block in blocks {
            sums = _mm512_add_epi32(sums, count_tile::<C, VECTORS>(tile, block));
        }
        for vector in rest.chunks_exact(C + 1) {
            sums = _mm512_add_epi32(sums, count_tile::<C, 1>(tile, vector));
        }
        // At most 64 vectors of 64 queries, 248 * 8 each: below 2^31.
        total += u64::from(_mm512_reduce_add_epi32(sums) as u32);
    }
    total
}

/// The weighted counts of `V` vectors of 64 queries (`vectors`: `C` lines
/// of chunk indices and one of weights each) against the groups of `tile`
/// (`C` entries each, at most [`TILE`] groups), as sums of 32 bits.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512vl,avx512bw,avx512vbmi,avx512bitalg,avx512vpopcntdq")]
#[inline]
fn count_tile<const C: usize, const V: usize>(
    tile: &[[u64; 8]],
    vectors: &[[u64; 8]],
) -> std::arch::x86_64::__m512i {
    use std::arch::x86_64::{
        __m512i, _mm512_add_epi8, _mm512_add_epi32, _mm512_and_si512, _mm512_loadu_si512,
        _mm512_madd_epi16, _mm512_maddubs_epi16, _mm512_permutexvar_epi8, _mm512_popcnt_epi8,
        _mm512_set1_epi16, _mm512_setzero_si512,
    };
    let load = |entry: &[u64; 8]| -> __m512i {
        // SAFETY: `entry` is 64 readable bytes; the load is unaligned.
        #[allow(unsafe_code)]
        unsafe {
            _mm512_loadu_si512(entry.as_ptr().cast())
        }
    };
    let at: [[__m512i; C]; V] =
        std::array::from_fn(|v| std::array::from_fn(|c| load(&vectors[v * (C + 1) + c])));
    let mut bytes = [_mm512_setzero_si512(); V];
    for group in tile.chunks_exact(C) {
        // Each entry once for the `V` vectors.
        let entry = load(&group[0]);
        let mut free: [__m512i; V] =
            std::array::from_fn(|v| _mm512_permutexvar_epi8(at[v][0], entry));
        for c in 1..C {
            let entry = load(&group[c]);
            for v in 0..V {
                free[v] = _mm512_and_si512(free[v], _mm512_permutexvar_epi8(at[v][c], entry));
            }
        }
        for v in 0..V {
            bytes[v] = _mm512_add_epi8(bytes[v], _mm512_popcnt_epi8(free[v]));
        }
    }
    // Each query's count times its weight (at most 248 * 8), two queries a
    // 16-bit lane, then four a 32-bit one.
    let ones = _mm512_set1_epi16(1);
    let mut sums = _mm512_setzero_si512();
    for v in 0..V {
        let weighted = _mm512_maddubs_epi16(bytes[v], load(&vectors[v * (C + 1) + C]));
        sums = _mm512_add_epi32(sums, _mm512_madd_epi16(weighted, ones));
    }
    sums
}

/// Fills `index` with `queries` (at most `64 * BATCH`) as vectors of
/// 64: for each, `C` vectors of their chunk indices (byte `j` of vector
/// `c`: query `j`'s bits `6c..6c + 6`) and one of their weights (0 past
/// the queries).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512vl,avx512bw,avx512vbmi,avx512bitalg,avx512vpopcntdq")]
fn transpose<'a, const C: usize>(
    queries: &[u64],
    index: &'a mut super::Tables<8>,
) -> &'a [[u64; 8]] {
    use super::TAG;
    use std::arch::x86_64::{
        __m512i, _mm_storel_epi64, _mm512_and_si512, _mm512_cvtepi64_epi8,
        _mm512_maskz_loadu_epi64, _mm512_maskz_sllv_epi64, _mm512_multishift_epi64_epi8,
        _mm512_permutex2var_epi64, _mm512_permutexvar_epi8, _mm512_set1_epi8, _mm512_set1_epi64,
        _mm512_setr_epi64, _mm512_srli_epi64, _mm512_store_si512,
    };
    // Byte `c` of each word: its bits from 6c on.
    let shifts = _mm512_set1_epi64(0x2a24_1e18_120c_0600);
    let low = _mm512_set1_epi8(0x3f);
    // Byte 8c + j from byte 8j + c: each word's chunk bytes by chunk.
    let by_chunk: [u8; 64] = std::array::from_fn(|i| ((i % 8) * 8 + i / 8) as u8);
    // SAFETY: `by_chunk` is 64 readable bytes.
    #[allow(unsafe_code)]
    let by_chunk = unsafe { std::arch::x86_64::_mm512_loadu_si512(by_chunk.as_ptr().cast()) };
    let one = _mm512_set1_epi64(1);
    // The qword transpose's three steps: pairs of rows swap single
    // qwords, then pairs of qwords, then halves.
    let even = _mm512_setr_epi64(0, 8, 2, 10, 4, 12, 6, 14);
    let odd = _mm512_setr_epi64(1, 9, 3, 11, 5, 13, 7, 15);
    let lower_pairs = _mm512_setr_epi64(0, 1, 8, 9, 4, 5, 12, 13);
    let upper_pairs = _mm512_setr_epi64(2, 3, 10, 11, 6, 7, 14, 15);
    let lower_halves = _mm512_setr_epi64(0, 1, 2, 3, 8, 9, 10, 11);
    let upper_halves = _mm512_setr_epi64(4, 5, 6, 7, 12, 13, 14, 15);
    let index = index.resize(queries.len().div_ceil(64) * (C + 1));
    for (vector, out) in queries.chunks(64).zip(index.chunks_exact_mut(C + 1)) {
        // Row r: chunk c of queries 8r to 8r + 7 in its qword c.
        let rows: [__m512i; 8] = std::array::from_fn(|r| {
            let eight = vector.get(8 * r..).unwrap_or_default();
            let valid = (0xffu16 >> (8 - eight.len().min(8))) as u8;
            // SAFETY: the masked load reads only the words `eight` holds.
            #[allow(unsafe_code)]
            let words = unsafe { _mm512_maskz_loadu_epi64(valid, eight.as_ptr().cast()) };
            let weight = _mm512_maskz_sllv_epi64(valid, one, _mm512_srli_epi64::<TAG>(words));
            // SAFETY: `out[C]` is 64 writable bytes, qword `r` of them 8.
            #[allow(unsafe_code)]
            unsafe {
                _mm_storel_epi64(
                    out[C].as_mut_ptr().add(r).cast(),
                    _mm512_cvtepi64_epi8(weight),
                );
            }
            let bytes = _mm512_and_si512(_mm512_multishift_epi64_epi8(shifts, words), low);
            _mm512_permutexvar_epi8(by_chunk, bytes)
        });
        // Qword c of rows 0 to 7 into vector c.
        let swap = |a: __m512i, how: __m512i, b: __m512i| _mm512_permutex2var_epi64(a, how, b);
        let ones: [__m512i; 8] = std::array::from_fn(|i| {
            let (pair, second) = (i & !1, i & 1);
            swap(
                rows[pair],
                if second == 0 { even } else { odd },
                rows[pair + 1],
            )
        });
        let twos: [__m512i; 8] = std::array::from_fn(|i| {
            let (base, which) = (i & 4 | i & 1, i & 2);
            swap(
                ones[base],
                if which == 0 { lower_pairs } else { upper_pairs },
                ones[base + 2],
            )
        });
        for (c, entry) in out[..C].iter_mut().enumerate() {
            let (base, which) = (c & 3, c & 4);
            let column = swap(
                twos[base],
                if which == 0 {
                    lower_halves
                } else {
                    upper_halves
                },
                twos[base + 4],
            );
            // SAFETY: `entry` is a line of `Tables`, 64 bytes aligned to 64.
            #[allow(unsafe_code)]
            unsafe {
                _mm512_store_si512(entry.as_mut_ptr().cast(), column);
            }
        }
    }
    index
}
