//! Half-boards of even boards, eight candidates at a time: the fast twin of
//! [`Geometry::for_each_half`] for `n <= 22`.
//!
//! A half-board is a top piece and a bottom piece whose diagonals do not
//! meet (see [`halves`](super::halves)). Here a piece is read as one `u64`,
//! its falling mask in the low half and its rising mask in the high half
//! (`Piece` is `repr(C)`), and each top piece is turned once into a *probe*
//! that meets a bottom piece in one AND:
//!
//! ```text
//! bottom  P = bf | br << 32                 (the piece as stored)
//! probe   T = tf << h | (tr >> h) << 32
//! clash:  tf << h & bf  (falling, bottom frame)    -- low half of T & P
//!         tr & br << h  (rising, top frame)        -- high half: br << h has
//!                                                     no bit below h, so
//!                                                     dropping tr's low h
//!                                                     bits loses nothing
//! ```
//!
//! The half-board's window word is linear in the two pieces' masks (shifts
//! and masks only), so it is the OR of a part computed once per top piece
//! and a part computed from `P` with three shifts and three masks. Both
//! halves of `T` fit in 32 bits while `3h - 1 <= 32`, i.e. `n <= 22`.
//!
//! With AVX-512 a top piece meets eight bottom pieces per instruction and
//! the survivors' words are compress-stored; elsewhere the same arithmetic
//! runs one candidate at a time. Right half-boards are sorted as they are
//! made by how many long diagonals they hold (0, 1 or 2), which is all their
//! weight depends on.

use super::halves::{Geometry, Side, for_each_subset};
use super::quarter::{Piece, QuarterTable};

/// The largest board these pairings handle.
pub const MAX_N: u32 = 22;

/// Right half-boards by how many long diagonals they hold.
#[derive(Default)]
pub struct ByLongDiagonals {
    /// `held[k]`: the words of those that hold `k` long diagonals.
    pub held: [Vec<u64>; 3],
}

/// How a side's words are made from its pieces: the constants of the
/// formulas in the module docs.
#[derive(Clone, Copy)]
struct Frame {
    h: u32,
    n: u32,
    family: u64,
    side: Side,
}

impl Frame {
    fn new(geo: &Geometry, side: Side) -> Self {
        debug_assert!(geo.n.is_multiple_of(2) && geo.n <= MAX_N);
        Self {
            h: geo.h,
            n: geo.n,
            family: (1u64 << (geo.n - 1)) - 1,
            side,
        }
    }

    /// The probe of a top piece.
    #[inline]
    fn probe(self, top: &Piece) -> u64 {
        (u64::from(top.falling) << self.h) | (u64::from(top.rising >> self.h) << 32)
    }

    /// The top piece's part of the window word.
    #[inline]
    fn top_word(self, top: &Piece) -> u64 {
        let (tf, tr) = (u64::from(top.falling), u64::from(top.rising));
        let (falling, rising) = match self.side {
            Side::Left => (tf, tr >> self.h),
            Side::Right => (tf << self.h, tr),
        };
        (falling & self.family) | ((rising & self.family) << (self.n - 1))
    }

    /// The bottom piece's part of the window word, from the piece as one
    /// `u64` (`bf | br << 32`).
    #[inline]
    fn bottom_word(self, piece: u64) -> u64 {
        let (falling, rising) = match self.side {
            // bf >> h and br; the rising half's bits shifted below bit 32
            // land above the family's n - 1 bits (n + h <= 33).
            Side::Left => (piece >> self.h, piece >> 32),
            // bf and br << h; bf has no bit at 32 - h or above.
            Side::Right => (piece, piece >> (32 - self.h)),
        };
        (falling & self.family) | ((rising & self.family) << (self.n - 1))
    }
}

/// A piece as one `u64`: falling mask low, rising mask high.
#[inline]
fn packed(piece: &Piece) -> u64 {
    u64::from(piece.falling) | (u64::from(piece.rising) << 32)
}

/// Appends to `out` the window word of every left half-board on `rows`,
/// tops from `tops` and bottoms from `bottoms`.
pub fn left_halves(
    geo: &Geometry,
    tops: &QuarterTable,
    bottoms: &QuarterTable,
    rows: u32,
    out: &mut Vec<u64>,
) {
    let frame = Frame::new(geo, Side::Left);
    let mut outs = [std::mem::take(out), Vec::new(), Vec::new()];
    for_each_pair_group(geo, tops, bottoms, rows, |top_group, bottom_group| {
        pair_group::<false>(frame, top_group, bottom_group, (0, 0), &mut outs);
    });
    let [words, _, _] = outs;
    *out = words;
}

/// Appends to `out.held[k]` the window word of every right half-board on
/// `rows` that holds `k` long diagonals.
pub fn right_halves(geo: &Geometry, table: &QuarterTable, rows: u32, out: &mut ByLongDiagonals) {
    let frame = Frame::new(geo, Side::Right);
    let long = geo.long_diagonals();
    for_each_pair_group(geo, table, table, rows, |top_group, bottom_group| {
        pair_group::<true>(frame, top_group, bottom_group, long, &mut out.held);
    });
}

/// Calls `f` with each (top group, bottom group) whose pieces make the
/// half-boards on `rows`: complementary column sets over the side's width.
#[inline]
fn for_each_pair_group(
    geo: &Geometry,
    tops: &QuarterTable,
    bottoms: &QuarterTable,
    rows: u32,
    mut f: impl FnMut(&[Piece], &[Piece]),
) {
    let h = geo.h;
    let top_rows = rows & ((1 << h) - 1);
    let bottom_rows = rows >> h;
    let all_cols = (1u32 << h) - 1;
    for_each_subset(h, top_rows.count_ones(), |cols| {
        let top_group = tops.group(top_rows, cols);
        if top_group.is_empty() {
            return;
        }
        let bottom_group = bottoms.group(bottom_rows, all_cols ^ cols);
        if !bottom_group.is_empty() {
            f(top_group, bottom_group);
        }
    });
}

/// Appends the words of each top piece of `tops` paired with each bottom
/// piece it does not meet: with `SORT`, to `outs[k]`, `k` the number of
/// the bits of `long` (one per long diagonal) the word holds; without, to
/// `outs[0]`.
#[inline]
fn pair_group<const SORT: bool>(
    frame: Frame,
    tops: &[Piece],
    bottoms: &[Piece],
    long: (u64, u64),
    outs: &mut [Vec<u64>; 3],
) {
    #[cfg(target_arch = "x86_64")]
    if simd::available() {
        // SAFETY: `available()` checked that the CPU has AVX-512F.
        #[allow(unsafe_code)]
        unsafe {
            simd::pair_group::<SORT>(frame, tops, bottoms, long, outs);
        }
        return;
    }
    for top in tops {
        pair_one_portable::<SORT>(frame, top, bottoms, long, outs);
    }
}

/// [`pair_group`] for one top piece, one candidate at a time.
fn pair_one_portable<const SORT: bool>(
    frame: Frame,
    top: &Piece,
    bottoms: &[Piece],
    long: (u64, u64),
    outs: &mut [Vec<u64>; 3],
) {
    let probe = frame.probe(top);
    let top_word = frame.top_word(top);
    for bottom in bottoms {
        let piece = packed(bottom);
        if probe & piece == 0 {
            let word = top_word | frame.bottom_word(piece);
            let held = if SORT {
                usize::from(word & long.0 != 0) + usize::from(word & long.1 != 0)
            } else {
                0
            };
            outs[held].push(word);
        }
    }
}

#[cfg(target_arch = "x86_64")]
mod simd {
    use super::{Frame, Piece, Side};

    /// Whether to take the AVX-512 loop: the CPU has AVX-512F and the
    /// environment does not say `QUEENS_NO_AVX512` (which forces the
    /// portable paths, to test and time them).
    pub fn available() -> bool {
        static USE: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
        *USE.get_or_init(|| {
            std::env::var_os("QUEENS_NO_AVX512").is_none()
                && std::arch::is_x86_feature_detected!("avx512f")
        })
    }

    /// [`super::pair_group`], eight bottom pieces at a time: one `vptestnmq`
    /// finds the bottoms the top does not meet, and their words are packed
    /// to the front of a register (`vpcompressq`) and stored whole, the
    /// lanes past the kept ones landing in spare capacity that the next
    /// store overwrites. (Compressing straight to memory is microcoded and
    /// slow on AMD Zen 4 and 5: measured 8.0 s against 6.0 s at n = 18.)
    /// With `SORT`, words go to `outs[k]` by how many of the `long` bits
    /// they hold; without, all to `outs[0]`. The last group of fewer than
    /// eight is read with a masked load.
    #[target_feature(enable = "avx512f")]
    pub fn pair_group<const SORT: bool>(
        frame: Frame,
        tops: &[Piece],
        bottoms: &[Piece],
        long: (u64, u64),
        outs: &mut [Vec<u64>; 3],
    ) {
        use std::arch::x86_64::{
            __m512i, __mmask8, _mm_cvtsi64_si128, _mm512_and_si512, _mm512_maskz_compress_epi64,
            _mm512_maskz_loadu_epi64, _mm512_or_si512, _mm512_set1_epi64, _mm512_sll_epi64,
            _mm512_srl_epi64, _mm512_storeu_si512, _mm512_test_epi64_mask, _mm512_testn_epi64_mask,
        };
        let family = _mm512_set1_epi64(frame.family as i64);
        let (falling_shift, rising_shift) = match frame.side {
            Side::Left => (frame.h, 32),
            Side::Right => (0, 32 - frame.h),
        };
        let falling_shift = _mm_cvtsi64_si128(i64::from(falling_shift));
        let rising_shift = _mm_cvtsi64_si128(i64::from(rising_shift));
        let up = _mm_cvtsi64_si128(i64::from(frame.n - 1));
        let long_falling = _mm512_set1_epi64(long.0 as i64);
        let long_rising = _mm512_set1_epi64(long.1 as i64);

        let used = if SORT { 3 } else { 1 };
        for top in tops {
            let probe = _mm512_set1_epi64(frame.probe(top) as i64);
            let top_word = _mm512_set1_epi64(frame.top_word(top) as i64);
            // Room for every bottom, plus one whole store's overhang.
            for out in &mut outs[..used] {
                out.reserve(bottoms.len() + 8);
            }
            let mut ends = [std::ptr::null_mut::<u64>(); 3];
            for (end, out) in ends.iter_mut().zip(&mut outs[..used]) {
                *end = out.spare_capacity_mut().as_mut_ptr().cast();
            }
            // Stores the `lanes` of `words` at `*end` and moves `*end` past them.
            let store = |end: &mut *mut u64, lanes: __mmask8, words: __m512i| {
                let packed = _mm512_maskz_compress_epi64(lanes, words);
                // SAFETY: `*end` has at least 8 words of reserved room after it:
                // `bottoms.len() + 8` were reserved and at most one word per
                // bottom has been kept before this store.
                #[allow(unsafe_code)]
                unsafe {
                    _mm512_storeu_si512(end.cast(), packed);
                    *end = end.add(lanes.count_ones() as usize);
                }
            };
            for eight in bottoms.chunks(8) {
                let valid: __mmask8 = u8::MAX >> (8 - eight.len());
                // SAFETY: `eight` holds `eight.len()` `Piece`s, `repr(C)` pairs
                // of u32, each lane `falling | rising << 32`; the mask reads only
                // those lanes, unaligned.
                #[allow(unsafe_code)]
                let pieces = unsafe { _mm512_maskz_loadu_epi64(valid, eight.as_ptr().cast()) };
                let free = _mm512_testn_epi64_mask(probe, pieces) & valid;
                if free == 0 {
                    continue;
                }
                let falling = _mm512_and_si512(_mm512_srl_epi64(pieces, falling_shift), family);
                let rising = _mm512_and_si512(_mm512_srl_epi64(pieces, rising_shift), family);
                let words = _mm512_or_si512(
                    top_word,
                    _mm512_or_si512(falling, _mm512_sll_epi64(rising, up)),
                );
                if SORT {
                    let on_falling = _mm512_test_epi64_mask(words, long_falling);
                    let on_rising = _mm512_test_epi64_mask(words, long_rising);
                    store(&mut ends[0], free & !(on_falling | on_rising), words);
                    store(&mut ends[1], free & (on_falling ^ on_rising), words);
                    store(&mut ends[2], free & on_falling & on_rising, words);
                } else {
                    store(&mut ends[0], free, words);
                }
            }
            for (end, out) in ends.iter().zip(&mut outs[..used]) {
                // SAFETY: the words up to `end` are initialised (the old ones and
                // those stored above) and within the capacity.
                #[allow(unsafe_code)]
                unsafe {
                    let len = end.offset_from(out.as_ptr()) as usize;
                    out.set_len(len);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::count::join::halves::right_weight;

    /// The words of `for_each_half` and of the functions here, sorted.
    fn both_ways(n: u32, rows: u32, side: Side) -> (Vec<u64>, Vec<u64>) {
        let geo = Geometry::new(n);
        let table = QuarterTable::new(geo.h);
        let mut slow = Vec::new();
        geo.for_each_half(&table, &table, side, rows, |w, _| slow.push(w));
        let mut fast = Vec::new();
        match side {
            Side::Left => left_halves(&geo, &table, &table, rows, &mut fast),
            Side::Right => {
                let mut sorted = ByLongDiagonals::default();
                right_halves(&geo, &table, rows, &mut sorted);
                let (falling, rising) = geo.long_diagonals();
                for (k, words) in sorted.held.iter().enumerate() {
                    for &w in words {
                        let held = usize::from(w & falling != 0) + usize::from(w & rising != 0);
                        assert_eq!(held, k);
                        assert_eq!(right_weight(&geo, w, false, 1), [1, 2, 4][k]);
                    }
                    fast.extend(words);
                }
            }
        }
        slow.sort_unstable();
        fast.sort_unstable();
        (slow, fast)
    }

    #[test]
    fn the_fast_pairing_makes_the_same_half_boards() {
        for n in [4, 6, 8, 10, 12, 14] {
            let geo = Geometry::new(n);
            let mut checked = 0;
            for_each_subset(n, n / 2, |rows| {
                // A spread of row sets, all of them for small n.
                if n <= 10 || rows % 7 == 0 {
                    for side in [Side::Left, Side::Right] {
                        let (slow, fast) = both_ways(n, rows, side);
                        assert_eq!(slow, fast, "n = {n}, rows {rows:#x}, {side:?}");
                        checked += slow.len();
                    }
                }
            });
            assert!(checked > 0 || geo.n < 6, "n = {n}");
        }
    }

    #[test]
    fn the_simd_pairing_equals_the_portable_one() {
        for n in [8, 12, 16, 18] {
            let geo = Geometry::new(n);
            let table = QuarterTable::new(geo.h);
            for side in [Side::Left, Side::Right] {
                let frame = Frame::new(&geo, side);
                // Groups of every size, 0 to 8 and past, against many tops.
                for (rows, cols) in [(0b1, 0b1), (0b11, 0b101), (0b1011, 0b1110), (0b111, 0b111)] {
                    let bottoms = table.group(rows, cols);
                    for top in table.group(0b101, 0b11).iter().take(40) {
                        for len in [0, 1, 7, 8, 9, 17, bottoms.len()] {
                            let some = &bottoms[..len.min(bottoms.len())];
                            let long = geo.long_diagonals();
                            let mut a = [vec![1, 2, 3], vec![4], vec![]];
                            let mut b = a.clone();
                            let one = std::slice::from_ref(top);
                            pair_group::<true>(frame, one, some, long, &mut a);
                            pair_one_portable::<true>(frame, top, some, long, &mut b);
                            assert_eq!(a, b, "n = {n}, {side:?}, {len}");
                            pair_group::<false>(frame, one, some, long, &mut a);
                            pair_one_portable::<false>(frame, top, some, long, &mut b);
                            assert_eq!(a, b, "n = {n}, {side:?}, {len}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn the_largest_board_fits_the_packing() {
        let geo = Geometry::new(MAX_N);
        // Both halves of a probe within 32 bits: 3h - 1 <= 32.
        assert!(3 * geo.h - 1 <= 32);
        assert!(geo.n + geo.h <= 33);
    }
}
