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
//! Right half-boards come out as queries (see [`matcher`](super::matcher)),
//! their weight in the tag: 2 for each long diagonal they hold (rule 2),
//! the job's mirror weight when they hold neither (rule 3). A long diagonal
//! is held by the top piece or by the bottom one, never both (they would
//! meet), so the tag is the sum of the pieces' tags, fixed up afterwards
//! for the words that hold neither.
//!
//! The bottom pieces' parts are computed once per group, not once per top
//! piece: groups are small (about 10 bottoms for 11 tops at n = 18). With
//! AVX-512 a top piece meets eight bottom pieces per instruction and the
//! survivors' words are compress-stored; elsewhere the same arithmetic runs
//! one candidate at a time.

use super::halves::{Geometry, Side, for_each_subset};
use super::matcher::TAG;
use super::quarter::{Piece, QuarterTable};

/// The largest board these pairings handle.
pub const MAX_N: u32 = 22;

/// Symmetry rule 3 for right half-boards on neither long diagonal: the
/// job's mirror weight, 0, 1 or 2 (see [`mirror_weight`](super::halves::mirror_weight)).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OffDiagonal {
    /// Weight 0: such half-boards are left out.
    Skip,
    /// Weight 1: tag 0, as they come.
    Once,
    /// Weight 2: tag 1.
    Twice,
}

impl OffDiagonal {
    /// The rule for a job whose mirror weight is `weight`.
    #[must_use]
    pub fn new(weight: u32) -> Self {
        match weight {
            0 => Self::Skip,
            1 => Self::Once,
            2 => Self::Twice,
            _ => unreachable!("mirror weights are 0, 1 or 2, not {weight}"),
        }
    }

    /// `word` with its tag fixed up, or `None` if it is left out.
    #[inline]
    fn apply(self, word: u64) -> Option<u64> {
        match self {
            _ if word >> TAG != 0 => Some(word),
            Self::Skip => None,
            Self::Once => Some(word),
            Self::Twice => Some(word | 1 << TAG),
        }
    }
}

/// Buffers for one group's bottom parts, reused from group to group.
#[derive(Default)]
pub struct Buffers {
    /// The bottom pieces' tagged words, eight to an entry.
    words: Vec<Lanes>,
}

/// Eight words, aligned for one vector load.
#[derive(Clone, Copy, Default)]
#[repr(C, align(64))]
struct Lanes([u64; 8]);

/// How a side's words are made from its pieces: the constants of the
/// formulas in the module docs.
#[derive(Clone, Copy)]
struct Frame {
    h: u32,
    n: u32,
    family: u64,
    side: Side,
    /// The window bits of the long diagonals on the right, none on the
    /// left: the bits a tag counts.
    long: u64,
}

impl Frame {
    fn new(geo: &Geometry, side: Side) -> Self {
        debug_assert!(geo.n.is_multiple_of(2) && geo.n <= MAX_N);
        let (falling, rising) = geo.long_diagonals();
        Self {
            h: geo.h,
            n: geo.n,
            family: (1u64 << (geo.n - 1)) - 1,
            side,
            long: if side == Side::Right {
                falling | rising
            } else {
                0
            },
        }
    }

    /// The probe of a top piece.
    #[inline]
    fn probe(self, top: &Piece) -> u64 {
        (u64::from(top.falling) << self.h) | (u64::from(top.rising >> self.h) << 32)
    }

    /// The top piece's part of the window word, tagged.
    #[inline]
    fn top_word(self, top: &Piece) -> u64 {
        let (tf, tr) = (u64::from(top.falling), u64::from(top.rising));
        let (falling, rising) = match self.side {
            Side::Left => (tf, tr >> self.h),
            Side::Right => (tf << self.h, tr),
        };
        self.tagged((falling & self.family) | ((rising & self.family) << (self.n - 1)))
    }

    /// The bottom piece's part of the window word, tagged, from the piece
    /// as one `u64` (`bf | br << 32`).
    #[inline]
    fn bottom_word(self, piece: u64) -> u64 {
        let (falling, rising) = match self.side {
            // bf >> h and br; the rising half's bits shifted below bit 32
            // land above the family's n - 1 bits (n + h <= 33).
            Side::Left => (piece >> self.h, piece >> 32),
            // bf and br << h; bf has no bit at 32 - h or above.
            Side::Right => (piece, piece >> (32 - self.h)),
        };
        self.tagged((falling & self.family) | ((rising & self.family) << (self.n - 1)))
    }

    /// `word` with a tag counting the long diagonals it holds.
    #[inline]
    fn tagged(self, word: u64) -> u64 {
        word | u64::from((word & self.long).count_ones()) << TAG
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
    (tops, bottoms): (&QuarterTable, &QuarterTable),
    rows: u32,
    out: &mut Vec<u64>,
    buffers: &mut Buffers,
) {
    let frame = Frame::new(geo, Side::Left);
    for_each_pair_group(geo, tops, bottoms, rows, |top_group, bottom_group| {
        pair_group(
            frame,
            top_group,
            bottom_group,
            OffDiagonal::Once,
            out,
            buffers,
        );
    });
}

/// Appends to `out` the query of every right half-board on `rows` (pieces
/// from `table`) whose weight is not 0, in a job whose mirror weight is
/// `mirror`.
pub fn right_halves(
    geo: &Geometry,
    table: &QuarterTable,
    rows: u32,
    mirror: OffDiagonal,
    out: &mut Vec<u64>,
    buffers: &mut Buffers,
) {
    let frame = Frame::new(geo, Side::Right);
    for_each_pair_group(geo, table, table, rows, |top_group, bottom_group| {
        pair_group(frame, top_group, bottom_group, mirror, out, buffers);
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

/// Appends to `out` the word of each top piece of `tops` paired with each
/// bottom piece it does not meet, tagged and fixed up by `mirror`.
#[inline]
fn pair_group(
    frame: Frame,
    tops: &[Piece],
    bottoms: &[Piece],
    mirror: OffDiagonal,
    out: &mut Vec<u64>,
    buffers: &mut Buffers,
) {
    #[cfg(target_arch = "x86_64")]
    if simd::available() {
        // SAFETY: `available()` checked that the CPU has AVX-512F.
        #[allow(unsafe_code)]
        unsafe {
            simd::pair_group(frame, tops, bottoms, mirror, out, buffers);
        }
        return;
    }
    let _ = buffers;
    pair_portable(frame, tops, bottoms, mirror, out);
}

/// [`pair_group`] one candidate at a time.
fn pair_portable(
    frame: Frame,
    tops: &[Piece],
    bottoms: &[Piece],
    mirror: OffDiagonal,
    out: &mut Vec<u64>,
) {
    for top in tops {
        let probe = frame.probe(top);
        let top_word = frame.top_word(top);
        for bottom in bottoms {
            let piece = packed(bottom);
            if probe & piece == 0 {
                // The parts share no window bit, so adding them adds the tags.
                let word = top_word + frame.bottom_word(piece);
                out.extend(mirror.apply(word));
            }
        }
    }
}

#[cfg(target_arch = "x86_64")]
mod simd {
    use super::{Buffers, Frame, Lanes, OffDiagonal, Piece, Side, TAG};
    use std::arch::x86_64::{
        __m512i, __mmask8, _mm_cvtsi64_si128, _mm512_add_epi64, _mm512_and_si512,
        _mm512_load_si512, _mm512_mask_or_epi64, _mm512_mask_testn_epi64_mask,
        _mm512_maskz_compress_epi64, _mm512_maskz_loadu_epi64, _mm512_or_si512,
        _mm512_popcnt_epi64, _mm512_set1_epi64, _mm512_sll_epi64, _mm512_slli_epi64,
        _mm512_srl_epi64, _mm512_store_si512, _mm512_storeu_si512, _mm512_testn_epi64_mask,
    };

    /// Whether to take the AVX-512 loop: the CPU has AVX-512F and the
    /// environment does not say `QUEENS_NO_AVX512` (which forces the
    /// portable paths, to test and time them).
    pub fn available() -> bool {
        static USE: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
        *USE.get_or_init(|| {
            std::env::var_os("QUEENS_NO_AVX512").is_none()
                && std::arch::is_x86_feature_detected!("avx512f")
                && std::arch::is_x86_feature_detected!("avx512vpopcntdq")
                && std::arch::is_x86_feature_detected!("popcnt")
        })
    }

    /// The lanes of the first `len` of eight.
    #[inline]
    fn first(len: usize) -> __mmask8 {
        u8::MAX >> (8 - len.min(8))
    }

    /// [`super::pair_group`], eight bottom pieces at a time.
    ///
    /// First the group's bottom parts, tagged, into `buffers`. Then for
    /// each top, one `vptestnmq` per eight bottoms finds those the top does
    /// not meet, and their words are packed to the front of a register
    /// (`vpcompressq`) and stored whole, the lanes past the kept ones
    /// landing in spare capacity that the next store overwrites.
    /// (Compressing straight to memory is microcoded and slow on AMD Zen 4
    /// and 5: measured 8.0 s against 6.0 s at n = 18.)
    #[target_feature(enable = "avx512f,avx512vpopcntdq,popcnt")]
    pub fn pair_group(
        frame: Frame,
        tops: &[Piece],
        bottoms: &[Piece],
        mirror: OffDiagonal,
        out: &mut Vec<u64>,
        buffers: &mut Buffers,
    ) {
        let words = &mut buffers.words;
        words.clear();
        words.extend(bottoms.chunks(8).map(|eight| {
            let mut lanes = Lanes::default();
            // SAFETY: `lanes` is 64-byte aligned and 64 bytes long.
            #[allow(unsafe_code)]
            unsafe {
                _mm512_store_si512(lanes.0.as_mut_ptr().cast(), bottom_words(frame, eight));
            }
            lanes
        }));
        let tag_bit = _mm512_set1_epi64(1 << TAG);
        let tag_bits = _mm512_set1_epi64((!0u64 << TAG) as i64);
        // Room for every candidate, plus one whole store's overhang.
        out.reserve(tops.len() * bottoms.len() + 8);
        let mut end: *mut u64 = out.spare_capacity_mut().as_mut_ptr().cast();
        for top in tops {
            let probe = _mm512_set1_epi64(frame.probe(top) as i64);
            let top_word = _mm512_set1_epi64(frame.top_word(top) as i64);
            for (i, lanes) in words.iter().enumerate() {
                let valid = first(bottoms.len() - 8 * i);
                // SAFETY: the `valid` lanes are `Piece`s of `bottoms`,
                // `repr(C)` pairs of u32, each read as `falling | rising << 32`;
                // `lanes` is 64-byte aligned.
                #[allow(unsafe_code)]
                let (pieces, bottom) = unsafe {
                    (
                        _mm512_maskz_loadu_epi64(valid, bottoms.as_ptr().add(8 * i).cast()),
                        _mm512_load_si512(lanes.0.as_ptr().cast()),
                    )
                };
                let mut keep = _mm512_mask_testn_epi64_mask(valid, probe, pieces);
                // The parts share no window bit, so adding them adds the tags.
                let mut word = _mm512_add_epi64(top_word, bottom);
                // One branch for the whole job. (Testing the top's tag
                // first, to skip the fix for tops on a long diagonal, was a
                // branch per top that the CPU could not predict.)
                match mirror {
                    OffDiagonal::Once => {}
                    OffDiagonal::Skip => keep &= !_mm512_testn_epi64_mask(word, tag_bits),
                    OffDiagonal::Twice => {
                        let neither = _mm512_testn_epi64_mask(word, tag_bits);
                        word = _mm512_mask_or_epi64(word, neither, word, tag_bit);
                    }
                }
                // SAFETY: `end` has at least 8 words of reserved room after it:
                // `tops.len() * bottoms.len() + 8` were reserved and at most one
                // word per candidate has been kept before this store.
                #[allow(unsafe_code)]
                unsafe {
                    _mm512_storeu_si512(end.cast(), _mm512_maskz_compress_epi64(keep, word));
                    end = end.add(keep.count_ones() as usize);
                }
            }
        }
        // SAFETY: the words up to `end` are initialised (the old ones and
        // those stored above) and within the capacity.
        #[allow(unsafe_code)]
        unsafe {
            let len = end.offset_from(out.as_ptr()) as usize;
            out.set_len(len);
        }
    }

    /// The tagged bottom parts of up to eight pieces, as
    /// [`Frame::bottom_word`] makes them one at a time.
    #[target_feature(enable = "avx512f,avx512vpopcntdq")]
    fn bottom_words(frame: Frame, eight: &[Piece]) -> __m512i {
        let (falling_shift, rising_shift) = match frame.side {
            Side::Left => (frame.h, 32),
            Side::Right => (0, 32 - frame.h),
        };
        // SAFETY: `eight` holds `eight.len()` (at most 8) `Piece`s, read as
        // `falling | rising << 32`; the mask reads only those lanes.
        #[allow(unsafe_code)]
        let pieces = unsafe { _mm512_maskz_loadu_epi64(first(eight.len()), eight.as_ptr().cast()) };
        let family = _mm512_set1_epi64(frame.family as i64);
        let falling = _mm512_srl_epi64(pieces, _mm_cvtsi64_si128(i64::from(falling_shift)));
        let rising = _mm512_srl_epi64(pieces, _mm_cvtsi64_si128(i64::from(rising_shift)));
        let word = _mm512_or_si512(
            _mm512_and_si512(falling, family),
            _mm512_sll_epi64(
                _mm512_and_si512(rising, family),
                _mm_cvtsi64_si128(i64::from(frame.n - 1)),
            ),
        );
        let held =
            _mm512_popcnt_epi64(_mm512_and_si512(word, _mm512_set1_epi64(frame.long as i64)));
        _mm512_or_si512(word, _mm512_slli_epi64::<{ TAG }>(held))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::count::join::halves::right_weight;
    use crate::count::join::matcher::query;

    /// The words of `for_each_half` (as queries weighed by `right_weight`
    /// on the right) and of the functions here, sorted.
    fn both_ways(n: u32, rows: u32, side: Side, mirror: u32) -> (Vec<u64>, Vec<u64>) {
        let geo = Geometry::new(n);
        let table = QuarterTable::new(geo.h);
        let mut slow = Vec::new();
        geo.for_each_half(&table, &table, side, rows, |w, _| match side {
            Side::Left => slow.push(w),
            Side::Right => match right_weight(&geo, w, false, mirror) {
                0 => {}
                weight => slow.push(query(w, weight)),
            },
        });
        let mut fast = Vec::new();
        let buffers = &mut Buffers::default();
        match side {
            Side::Left => left_halves(&geo, (&table, &table), rows, &mut fast, buffers),
            Side::Right => {
                let fix = OffDiagonal::new(mirror);
                right_halves(&geo, &table, rows, fix, &mut fast, buffers);
            }
        }
        slow.sort_unstable();
        fast.sort_unstable();
        (slow, fast)
    }

    #[test]
    fn the_fast_pairing_makes_the_same_half_boards() {
        for n in [4, 6, 8, 10, 12, 14] {
            let mut checked = 0;
            for_each_subset(n, n / 2, |rows| {
                // A spread of row sets, all of them for small n.
                if n <= 10 || rows % 7 == 0 {
                    for (side, mirror) in [
                        (Side::Left, 1),
                        (Side::Right, 0),
                        (Side::Right, 1),
                        (Side::Right, 2),
                    ] {
                        let (slow, fast) = both_ways(n, rows, side, mirror);
                        assert_eq!(
                            slow, fast,
                            "n = {n}, rows {rows:#x}, {side:?}, mirror {mirror}"
                        );
                        checked += slow.len();
                    }
                }
            });
            assert!(checked > 0 || n < 6, "n = {n}");
        }
    }

    #[test]
    fn the_simd_pairing_equals_the_portable_one() {
        for n in [8, 12, 16, 18] {
            let geo = Geometry::new(n);
            let table = QuarterTable::new(geo.h);
            let buffers = &mut Buffers::default();
            for side in [Side::Left, Side::Right] {
                let frame = Frame::new(&geo, side);
                // Groups of every size, 0 to 8 and past, against many tops.
                for (rows, cols) in [(0b1, 0b1), (0b11, 0b101), (0b1011, 0b1110), (0b111, 0b111)] {
                    let bottoms = table.group(rows, cols);
                    let tops = table.group(0b101, 0b11);
                    for len in [0, 1, 7, 8, 9, 17, bottoms.len()] {
                        let some = &bottoms[..len.min(bottoms.len())];
                        for fix in [OffDiagonal::Skip, OffDiagonal::Once, OffDiagonal::Twice] {
                            let mut a = vec![1, 2, 3];
                            let mut b = a.clone();
                            pair_group(
                                frame,
                                &tops[..tops.len().min(40)],
                                some,
                                fix,
                                &mut a,
                                buffers,
                            );
                            pair_portable(frame, &tops[..tops.len().min(40)], some, fix, &mut b);
                            assert_eq!(a, b, "n = {n}, {side:?}, {len}, {fix:?}");
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
