//! Half-boards, eight candidates at a time: the fast twin of
//! [`Geometry::for_each_half`] for even boards, and the generator of
//! [`odd`](super::odd)'s half-boards.
//!
//! A half-board is a top piece and a bottom piece whose diagonals do not
//! meet (see [`halves`](super::halves)); the bottom piece's square lies
//! `d` rows below the top one's (`d = h` on even boards, `h + 1` on odd
//! ones, past the middle row). Here a piece is read as one `u64`, its
//! falling mask in the low half and its rising mask in the high half
//! (`Piece` is `repr(C)`), and each top piece is turned once into a *probe*
//! that meets a bottom piece in one AND:
//!
//! ```text
//! bottom  P = bf | br << 32                       (the piece as stored)
//! probe   T = (tf << d) mod 2^32 | (tr >> d) << 32
//! clash:  tf << d & bf  (falling, bottom frame)   -- low half of T & P: bf
//!                                                    has no bit at 32 or up
//!         tr & br << d  (rising, top frame)       -- high half: br << d has
//!                                                    no bit below d, so
//!                                                    dropping tr's low d
//!                                                    bits loses nothing
//! ```
//!
//! The half-board's window word is linear in the two pieces' masks (shifts
//! and masks only), so it is the OR of a part computed once per top piece
//! and a part computed once per bottom piece ([`Frame`]).
//!
//! Right half-boards of even boards come out as queries (see
//! [`matcher`](super::matcher)), their weight in the tag: 2 for each long
//! diagonal they hold (rule 2), the job's mirror weight when they hold
//! neither (rule 3). A long diagonal is held by the top piece or by the
//! bottom one, never both (they would meet), so the tag is the sum of the
//! pieces' tags, fixed up afterwards for the words that hold neither.
//!
//! The bottom pieces' parts are computed once per group, not once per top
//! piece: groups are small (about 10 bottoms for 11 tops at n = 18). With
//! AVX-512 a top piece meets eight bottom pieces per instruction and the
//! survivors' words are compress-stored; elsewhere the same arithmetic runs
//! one candidate at a time.

use super::halves::{Geometry, Side};
use super::matcher::TAG;
#[cfg(test)]
use super::quarter::QuarterTable;
use super::quarter::{Groups, Piece};
use super::subsets::for_each_subset;
use crate::cpu::Features;

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

    /// `word` with its tag fixed up, and whether it is kept, without a
    /// branch on the word.
    #[inline]
    fn fix(self, word: u64) -> (u64, bool) {
        let neither = word >> TAG == 0;
        match self {
            Self::Skip => (word, !neither),
            Self::Once => (word, true),
            Self::Twice => (word | u64::from(neither) << TAG, true),
        }
    }
}

/// Buffers for one group's bottom parts, reused from group to group.
#[derive(Default)]
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
pub struct Buffers {
    /// The bottom pieces' tagged words, eight to an entry.
    words: Vec<Lanes>,
    /// Which of each entry's eight bottoms exist and keep off the frame's
    /// forbidden diagonals.
    allowed: Vec<u8>,
    /// The tops that keep off them.
    tops: Vec<Piece>,
    /// The bottom pieces that keep off them and their parts of the word,
    /// for the AVX2 and portable loops.
    parts: Parts,
    /// The loops it may take (the CPU's, by default).
    pub(crate) features: Features,
}

impl Buffers {
    /// The bytes they hold.
    #[cfg(test)]
    pub fn bytes(&self) -> u64 {
        (self.words.capacity() * size_of::<Lanes>()
            + self.allowed.capacity()
            + self.tops.capacity() * size_of::<Piece>()
            + (self.parts.pieces.capacity() + self.parts.words.capacity()) * 8) as u64
    }
}

/// A group's bottom pieces, each as one `u64`, and their parts of the
/// word ([`bottom_parts`]).
#[derive(Default)]
struct Parts {
    pieces: Vec<u64>,
    words: Vec<u64>,
}

/// Eight words, aligned for one vector load.
#[derive(Clone, Copy, Default)]
#[repr(C, align(64))]
struct Lanes([u64; 8]);

/// How a side's words are made from its pieces: the constants of the
/// formulas in the module docs. In the pair's frame (the bottom square's
/// falling diagonals, the top square's rising ones) the half-board's masks
/// are `tf << d | bf` and `tr | br << d`; shifted right by `shift` and cut
/// to `family`, they are the word's two families, the rising one `width`
/// bits up.
#[derive(Clone, Copy, Debug)]
pub struct Frame {
    drop: u32,
    shift: u32,
    family: u64,
    width: u32,
    /// The window bits of the long diagonals on the right of an even
    /// board, else none: the bits a tag counts.
    long: u64,
    /// Bits set in every word (a pre-placed queen's diagonals).
    extra: u64,
    /// Packed diagonals that top and bottom pieces must keep off.
    top_off: u64,
    bottom_off: u64,
}

impl Frame {
    /// The frame of `side` on an even board.
    #[must_use]
    pub fn even(geo: &Geometry, side: Side) -> Self {
        debug_assert!(geo.n.is_multiple_of(2));
        let (falling, rising) = geo.long_diagonals();
        Self {
            drop: geo.h,
            shift: if side == Side::Left { geo.h } else { 0 },
            family: (1u64 << (geo.n - 1)) - 1,
            width: geo.n - 1,
            long: if side == Side::Right {
                falling | rising
            } else {
                0
            },
            extra: 0,
            top_off: 0,
            bottom_off: 0,
        }
    }

    /// The frame of `side` on an odd board of quarter side `h`, around the
    /// middle row: every word has `extra` set, and the pieces keep off
    /// `top_off` and `bottom_off` (local masks).
    #[must_use]
    pub fn odd(h: u32, side: Side, extra: u64, (top_off, bottom_off): (Piece, Piece)) -> Self {
        Self {
            drop: h + 1,
            shift: if side == Side::Left { h + 1 } else { 0 },
            family: (1u64 << (2 * h - 1)) - 1,
            width: 2 * h - 1,
            long: 0,
            extra,
            top_off: packed(&top_off),
            bottom_off: packed(&bottom_off),
        }
    }

    /// Whether a top piece keeps off the forbidden diagonals.
    #[inline]
    fn allows(self, top: &Piece) -> bool {
        packed(top) & self.top_off == 0
    }

    /// The probe of a top piece.
    #[inline]
    fn probe(self, top: &Piece) -> u64 {
        let falling = (u64::from(top.falling) << self.drop) & 0xffff_ffff;
        falling | (u64::from(top.rising >> self.drop) << 32)
    }

    /// The top piece's part of the window word, tagged.
    #[inline]
    fn top_word(self, top: &Piece) -> u64 {
        let falling = (u64::from(top.falling) << self.drop) >> self.shift;
        let rising = u64::from(top.rising) >> self.shift;
        self.extra | self.word(falling, rising)
    }

    /// The bottom piece's part of the window word, tagged, from the piece
    /// as one `u64` (`bf | br << 32`).
    #[inline]
    fn bottom_word(self, piece: u64) -> u64 {
        let falling = (piece & 0xffff_ffff) >> self.shift;
        let rising = ((piece >> 32) << self.drop) >> self.shift;
        self.word(falling, rising)
    }

    /// The word of the two families (in the window's frame), tagged with
    /// the long diagonals it holds.
    #[inline]
    fn word(self, falling: u64, rising: u64) -> u64 {
        let word = (falling & self.family) | ((rising & self.family) << self.width);
        word | u64::from((word & self.long).count_ones()) << TAG
    }
}

/// A piece as one `u64`: falling mask low, rising mask high.
#[inline]
fn packed(piece: &Piece) -> u64 {
    u64::from(piece.falling) | (u64::from(piece.rising) << 32)
}

/// Where a generation of half-boards puts its words: the vector, the
/// most it may hold, and what takes them (leaving it empty) when it holds
/// that many. The vector may pass the most by one group pair's words.
pub type Chunks<'a> = (&'a mut Vec<u64>, usize, &'a mut dyn FnMut(&mut Vec<u64>));

/// Appends to `out` the window word of every left half-board on `rows` of
/// an even board, tops from `tops` and bottoms from `bottoms`, handing
/// `out` to `full` whenever it holds `cap` words or more (`full` takes
/// them, leaving it empty).
pub fn left_halves(
    geo: &Geometry,
    (tops, bottoms): (&impl Groups, &impl Groups),
    rows: u32,
    (out, cap, full): Chunks<'_>,
    buffers: &mut Buffers,
) {
    let frame = Frame::even(geo, Side::Left);
    for_each_pair_group(geo, tops, bottoms, rows, |top_group, bottom_group| {
        pair_group(
            frame,
            top_group,
            bottom_group,
            OffDiagonal::Once,
            out,
            buffers,
        );
        if out.len() >= cap {
            full(out);
        }
    });
}

/// Appends to `out` the query of every right half-board on `rows` of an
/// even board (tops from `tops`, bottoms from `bottoms`) whose weight is
/// not 0, in a job whose mirror weight is `mirror`, handing `out` to
/// `full` whenever it holds `cap` words or more.
pub fn right_halves(
    geo: &Geometry,
    (tops, bottoms): (&impl Groups, &impl Groups),
    rows: u32,
    mirror: OffDiagonal,
    (out, cap, full): Chunks<'_>,
    buffers: &mut Buffers,
) {
    let frame = Frame::even(geo, Side::Right);
    for_each_pair_group(geo, tops, bottoms, rows, |top_group, bottom_group| {
        pair_group(frame, top_group, bottom_group, mirror, out, buffers);
        if out.len() >= cap {
            full(out);
        }
    });
}

/// Calls `f` with each (top group, bottom group) whose pieces make the
/// half-boards of an even board on `rows`.
#[inline]
fn for_each_pair_group(
    geo: &Geometry,
    tops: &impl Groups,
    bottoms: &impl Groups,
    rows: u32,
    f: impl FnMut(&[Piece], &[Piece]),
) {
    let h = geo.h;
    for_each_quarter_pair(h, tops, bottoms, (rows & ((1 << h) - 1), rows >> h), f);
}

/// Calls `f` with each (top group, bottom group), neither empty, whose
/// pieces make the half-boards with the top quarter's queens on its local
/// rows `top_rows` and the bottom quarter's on `bottom_rows`:
/// complementary column sets over a quarter's `h` columns. Every group is
/// prefetched first.
#[inline]
pub fn for_each_quarter_pair(
    h: u32,
    tops: &impl Groups,
    bottoms: &impl Groups,
    (top_rows, bottom_rows): (u32, u32),
    mut f: impl FnMut(&[Piece], &[Piece]),
) {
    let all_cols = (1u32 << h) - 1;
    let k = top_rows.count_ones();
    for_each_subset(h, k, |cols| {
        prefetch(tops.group(top_rows, cols));
        prefetch(bottoms.group(bottom_rows, all_cols ^ cols));
    });
    for_each_subset(h, k, |cols| {
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

/// Asks the CPU to start loading the first two cache lines of `pieces`.
/// A job's groups lie scattered over a quarter table of megabytes (7 MB at
/// n = 18 and 19, 60 MB at n = 20 and 21), most of them in L3 or memory:
/// the generation loops first prefetch every group they will read.
#[inline]
pub fn prefetch(pieces: &[Piece]) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        let start = pieces.as_ptr().cast::<i8>();
        // SAFETY: SSE is part of x86-64; a prefetch reads nothing and
        // cannot fault, whatever the address.
        #[allow(unsafe_code)]
        unsafe {
            _mm_prefetch::<_MM_HINT_T0>(start);
            if pieces.len() > 8 {
                _mm_prefetch::<_MM_HINT_T0>(start.wrapping_add(64));
            }
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = pieces;
}

/// Appends to `out` the word of each top piece of `tops` paired with each
/// bottom piece it does not meet, in `frame`, tagged and fixed up by
/// `mirror`.
#[inline]
pub fn pair_group(
    frame: Frame,
    tops: &[Piece],
    bottoms: &[Piece],
    mirror: OffDiagonal,
    out: &mut Vec<u64>,
    buffers: &mut Buffers,
) {
    #[cfg(target_arch = "x86_64")]
    if buffers.features.avx512() {
        // SAFETY: `features.avx512()` is true only where the CPU has every
        // feature `pair_group` enables (see `crate::cpu`).
        #[allow(unsafe_code)]
        unsafe {
            simd::pair_group(frame, tops, bottoms, mirror, out, buffers);
        }
        return;
    }
    #[cfg(target_arch = "x86_64")]
    if buffers.features.avx2() {
        // SAFETY: `features.avx2()` is true only where the CPU has every
        // feature `avx2::pair_group` enables (see `crate::cpu`).
        #[allow(unsafe_code)]
        unsafe {
            avx2::pair_group(frame, tops, bottoms, mirror, out, &mut buffers.parts);
        }
        return;
    }
    pair_portable(frame, tops, bottoms, mirror, out, &mut buffers.parts);
}

/// The group's bottom pieces that keep off the frame's forbidden
/// diagonals, as `u64`s, and their parts of the word: what the portable
/// and AVX2 loops work out once per group, not once per top.
fn bottom_parts(frame: Frame, bottoms: &[Piece], parts: &mut Parts) {
    parts.pieces.clear();
    parts.words.clear();
    for piece in bottoms.iter().map(packed) {
        if piece & frame.bottom_off == 0 {
            parts.pieces.push(piece);
            parts.words.push(frame.bottom_word(piece));
        }
    }
}

/// [`pair_group`] one candidate at a time, without a branch on the
/// candidates: every candidate's word is written to the spare room past
/// `out`'s end, which moves on by one only for a word that is kept. (With
/// a branch per candidate, which the CPU cannot predict, and each bottom's
/// part worked out for every top, the pairing took 0.39 of n = 18's time
/// on a core without AVX-512.)
fn pair_portable(
    frame: Frame,
    tops: &[Piece],
    bottoms: &[Piece],
    mirror: OffDiagonal,
    out: &mut Vec<u64>,
    parts: &mut Parts,
) {
    bottom_parts(frame, bottoms, parts);
    let candidates = tops.len() * parts.pieces.len();
    out.reserve(candidates);
    let start = out.len();
    let room = &mut out.spare_capacity_mut()[..candidates];
    let mut len = 0;
    for top in tops.iter().filter(|&top| frame.allows(top)) {
        let probe = frame.probe(top);
        let top_word = frame.top_word(top);
        for (&piece, &bottom_word) in parts.pieces.iter().zip(&parts.words) {
            // The parts share no window bit, so adding them adds the tags.
            let (word, keep) = mirror.fix(top_word + bottom_word);
            room[len].write(word);
            len += usize::from(keep & (probe & piece == 0));
        }
    }
    // SAFETY: the first `len` words of the spare room were written above.
    #[allow(unsafe_code)]
    unsafe {
        out.set_len(start + len);
    }
}

/// The pairing loop for CPUs with AVX2 but not AVX-512: four candidates
/// per compare, the kept words packed to the front of a register by a
/// permute looked up from which lanes are kept (AVX2 has no compress), and
/// stored whole, as the AVX-512 loop does with eight.
#[cfg(target_arch = "x86_64")]
mod avx2 {
    use super::{Frame, OffDiagonal, Parts, Piece, TAG, bottom_parts};
    use std::arch::x86_64::{
        __m256i, _mm256_add_epi64, _mm256_and_si256, _mm256_andnot_si256, _mm256_castsi256_pd,
        _mm256_cmpeq_epi64, _mm256_loadu_si256, _mm256_movemask_pd, _mm256_or_si256,
        _mm256_permutevar8x32_epi32, _mm256_set1_epi64x, _mm256_setzero_si256, _mm256_srli_epi64,
        _mm256_storeu_si256,
    };

    /// For each set of kept lanes (bit `l` for 64-bit lane `l`), the
    /// 32-bit lanes that move the kept ones to the front, in order.
    const PACK: [[i32; 8]; 16] = {
        let mut table = [[0; 8]; 16];
        let mut kept = 0;
        while kept < 16 {
            let (mut lane, mut to) = (0, 0);
            while lane < 4 {
                if kept >> lane & 1 == 1 {
                    table[kept][2 * to] = 2 * lane;
                    table[kept][2 * to + 1] = 2 * lane + 1;
                    to += 1;
                }
                lane += 1;
            }
            kept += 1;
        }
        table
    };

    /// [`super::pair_group`], four bottom pieces at a time.
    #[target_feature(enable = "avx2,popcnt")]
    pub fn pair_group(
        frame: Frame,
        tops: &[Piece],
        bottoms: &[Piece],
        mirror: OffDiagonal,
        out: &mut Vec<u64>,
        parts: &mut Parts,
    ) {
        bottom_parts(frame, bottoms, parts);
        let len = parts.pieces.len();
        // Whole vectors: the lanes past `len` are read but never kept.
        let whole = len.next_multiple_of(4);
        parts.pieces.resize(whole, 0);
        parts.words.resize(whole, 0);
        // Room for every candidate, plus one whole store's overhang.
        out.reserve(tops.len() * len + 4);
        match mirror {
            OffDiagonal::Once => pair_tops::<ONCE>(frame, tops, parts, len, out),
            OffDiagonal::Skip => pair_tops::<SKIP>(frame, tops, parts, len, out),
            OffDiagonal::Twice => pair_tops::<TWICE>(frame, tops, parts, len, out),
        }
    }

    const ONCE: u8 = 0;
    const SKIP: u8 = 1;
    const TWICE: u8 = 2;

    /// The loop over the tops for the rule `FIX`, with `parts` holding
    /// `len` bottoms padded to whole vectors and `out` room for every
    /// candidate and 4 words more.
    #[inline]
    #[target_feature(enable = "avx2,popcnt")]
    fn pair_tops<const FIX: u8>(
        frame: Frame,
        tops: &[Piece],
        parts: &Parts,
        len: usize,
        out: &mut Vec<u64>,
    ) {
        let load = |words: &[u64]| -> __m256i {
            // SAFETY: `words` is 4 words, 32 readable bytes; unaligned.
            #[allow(unsafe_code)]
            unsafe {
                _mm256_loadu_si256(words.as_ptr().cast())
            }
        };
        let zero = _mm256_setzero_si256();
        let tag_bit = _mm256_set1_epi64x(1 << TAG);
        let start = out.len();
        let room = out.spare_capacity_mut();
        assert!(room.len() >= tops.len() * len + 4);
        let mut kept = 0;
        for top in tops.iter().filter(|&top| frame.allows(top)) {
            let probe = _mm256_set1_epi64x(frame.probe(top) as i64);
            let top_word = _mm256_set1_epi64x(frame.top_word(top) as i64);
            for (at, (pieces, words)) in parts
                .pieces
                .chunks_exact(4)
                .zip(parts.words.chunks_exact(4))
                .enumerate()
            {
                let mut keep = _mm256_cmpeq_epi64(_mm256_and_si256(load(pieces), probe), zero);
                // The parts share no window bit, so adding them adds the tags.
                let mut word = _mm256_add_epi64(top_word, load(words));
                if FIX != ONCE {
                    let neither =
                        _mm256_cmpeq_epi64(_mm256_srli_epi64::<{ TAG as i32 }>(word), zero);
                    if FIX == SKIP {
                        keep = _mm256_andnot_si256(neither, keep);
                    } else {
                        word = _mm256_or_si256(word, _mm256_and_si256(neither, tag_bit));
                    }
                }
                let lanes = len - 4 * at;
                let valid = if lanes >= 4 { 15 } else { (1 << lanes) - 1 };
                let mask = _mm256_movemask_pd(_mm256_castsi256_pd(keep)) as usize & valid;
                let packed = _mm256_permutevar8x32_epi32(word, load_i32(&PACK[mask]));
                // At most one word per candidate is kept before this store,
                // so its 4 words fall within the room asserted above.
                let to = &mut room[kept..kept + 4];
                // SAFETY: `to` is 4 writable words, 32 bytes; unaligned.
                #[allow(unsafe_code)]
                unsafe {
                    _mm256_storeu_si256(to.as_mut_ptr().cast(), packed);
                }
                kept += mask.count_ones() as usize;
            }
        }
        // SAFETY: the first `kept` words of the spare room were stored
        // above (the packed kept words of each store).
        #[allow(unsafe_code)]
        unsafe {
            out.set_len(start + kept);
        }
    }

    /// Eight `i32`s as a vector.
    #[inline]
    #[target_feature(enable = "avx2,popcnt")]
    fn load_i32(lanes: &[i32; 8]) -> __m256i {
        // SAFETY: `lanes` is 32 readable bytes; unaligned.
        #[allow(unsafe_code)]
        unsafe {
            _mm256_loadu_si256(lanes.as_ptr().cast())
        }
    }
}

#[cfg(target_arch = "x86_64")]
mod simd {
    use super::{Buffers, Frame, Lanes, OffDiagonal, Piece, TAG};
    use std::arch::x86_64::{
        __m512i, __mmask8, _mm_cvtsi64_si128, _mm512_add_epi64, _mm512_and_si512,
        _mm512_load_si512, _mm512_mask_or_epi64, _mm512_mask_testn_epi64_mask,
        _mm512_maskz_compress_epi64, _mm512_maskz_loadu_epi64, _mm512_or_si512,
        _mm512_popcnt_epi64, _mm512_set1_epi64, _mm512_sll_epi64, _mm512_slli_epi64,
        _mm512_srl_epi64, _mm512_srli_epi64, _mm512_store_si512, _mm512_storeu_si512,
        _mm512_testn_epi64_mask,
    };

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
    /// landing in spare capacity that the next store overwrites. There is
    /// no branch on the candidates: a store of no lanes costs less than a
    /// mispredicted test for one (measured at n = 18: 2.6 s against 3.1 s
    /// on one thread). (Compressing straight to memory is microcoded and
    /// slow on AMD Zen 4 and 5: measured 8.0 s against 6.0 s at n = 18.)
    #[target_feature(enable = "avx512f,avx512vpopcntdq,popcnt")]
    pub fn pair_group(
        frame: Frame,
        tops: &[Piece],
        bottoms: &[Piece],
        mirror: OffDiagonal,
        out: &mut Vec<u64>,
        buffers: &mut Buffers,
    ) {
        let Buffers {
            words,
            allowed,
            tops: kept,
            parts: _,
            features: _,
        } = buffers;
        words.clear();
        allowed.clear();
        for eight in bottoms.chunks(8) {
            let (bottom, ok) = bottom_words(frame, eight);
            let mut lanes = Lanes::default();
            // SAFETY: `lanes` is 64-byte aligned and 64 bytes long.
            #[allow(unsafe_code)]
            unsafe {
                _mm512_store_si512(lanes.0.as_mut_ptr().cast(), bottom);
            }
            words.push(lanes);
            allowed.push(ok);
        }
        // The tops that keep off the forbidden diagonals, without a branch
        // per top (which the CPU would mispredict).
        let tops = if frame.top_off == 0 {
            tops
        } else {
            kept.resize(tops.len(), Piece::default());
            let mut len = 0;
            for top in tops {
                kept[len] = *top;
                len += usize::from(frame.allows(top));
            }
            &kept[..len]
        };
        // Room for every candidate, plus one whole store's overhang.
        out.reserve(tops.len() * bottoms.len() + 8);
        // SAFETY: `out` has room for every candidate and 8 words more
        // (reserved just above), and `words` and `allowed` were made above
        // from `bottoms.chunks(8)`, so every allowed lane is a piece of
        // `bottoms`.
        #[allow(unsafe_code)]
        unsafe {
            // One loop per rule, so that the loop holds no test of it.
            match mirror {
                OffDiagonal::Once => pair_tops::<ONCE>(frame, tops, bottoms, words, allowed, out),
                OffDiagonal::Skip => pair_tops::<SKIP>(frame, tops, bottoms, words, allowed, out),
                OffDiagonal::Twice => {
                    pair_tops::<TWICE>(frame, tops, bottoms, words, allowed, out);
                }
            }
        }
    }

    const ONCE: u8 = 0;
    const SKIP: u8 = 1;
    const TWICE: u8 = 2;

    /// The loop of [`pair_group`] over the tops, with the bottoms' words
    /// and allowed lanes computed, for the rule `FIX` (`ONCE`, `SKIP` or
    /// `TWICE`).
    ///
    /// # Safety
    ///
    /// Each compressed store writes 8 words past the kept candidates, and
    /// each load reads the bottoms its lanes allow, unchecked, so:
    /// - `out` has spare capacity for `tops.len() * bottoms.len() + 8`
    ///   words (one per candidate, and one whole store's overhang);
    /// - `words[i]` and `allowed[i]` are [`bottom_words`] of
    ///   `bottoms[8 * i..]` (at most eight), as `bottoms.chunks(8)` gives
    ///   them: every lane set in `allowed[i]` is a piece of `bottoms`.
    #[inline]
    #[allow(unsafe_code)]
    #[target_feature(enable = "avx512f,avx512vpopcntdq,popcnt")]
    unsafe fn pair_tops<const FIX: u8>(
        frame: Frame,
        tops: &[Piece],
        bottoms: &[Piece],
        words: &[Lanes],
        allowed: &[u8],
        out: &mut Vec<u64>,
    ) {
        let tag_bit = _mm512_set1_epi64(1 << TAG);
        let tag_bits = _mm512_set1_epi64((!0u64 << TAG) as i64);
        let mut end: *mut u64 = out.spare_capacity_mut().as_mut_ptr().cast();
        for top in tops {
            let probe = _mm512_set1_epi64(frame.probe(top) as i64);
            let top_word = _mm512_set1_epi64(frame.top_word(top) as i64);
            for (i, (lanes, &ok)) in words.iter().zip(allowed).enumerate() {
                // SAFETY: the `ok` lanes are `Piece`s of `bottoms` (the
                // caller's promise), `repr(C)` pairs of u32, each read as
                // `falling | rising << 32`; `lanes` is 64-byte aligned.
                #[allow(unsafe_code)]
                let (pieces, bottom) = unsafe {
                    (
                        _mm512_maskz_loadu_epi64(ok, bottoms.as_ptr().add(8 * i).cast()),
                        _mm512_load_si512(lanes.0.as_ptr().cast()),
                    )
                };
                let mut keep = _mm512_mask_testn_epi64_mask(ok, probe, pieces);
                // The parts share no window bit, so adding them adds the tags.
                let mut word = _mm512_add_epi64(top_word, bottom);
                // (Testing the top's tag first, to skip the fix for tops on a
                // long diagonal, was a branch per top that the CPU could not
                // predict.)
                if FIX == SKIP {
                    keep &= !_mm512_testn_epi64_mask(word, tag_bits);
                } else if FIX == TWICE {
                    let neither = _mm512_testn_epi64_mask(word, tag_bits);
                    word = _mm512_mask_or_epi64(word, neither, word, tag_bit);
                }
                // SAFETY: `end` has at least 8 words of room after it: the
                // caller gave room for one per candidate and 8 more, and at
                // most one word per candidate has been kept before this store.
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
    /// [`Frame::bottom_word`] makes them one at a time, and which of the
    /// eight exist and keep off `frame.bottom_off`.
    #[target_feature(enable = "avx512f,avx512vpopcntdq")]
    fn bottom_words(frame: Frame, eight: &[Piece]) -> (__m512i, __mmask8) {
        let valid = first(eight.len());
        // SAFETY: `eight` holds `eight.len()` (at most 8) `Piece`s, read as
        // `falling | rising << 32`; the mask reads only those lanes.
        #[allow(unsafe_code)]
        let pieces = unsafe { _mm512_maskz_loadu_epi64(valid, eight.as_ptr().cast()) };
        let ok =
            _mm512_mask_testn_epi64_mask(valid, pieces, _mm512_set1_epi64(frame.bottom_off as i64));
        let shift = _mm_cvtsi64_si128(i64::from(frame.shift));
        let falling = _mm512_and_si512(pieces, _mm512_set1_epi64(0xffff_ffff));
        let rising = _mm512_sll_epi64(
            _mm512_srli_epi64::<32>(pieces),
            _mm_cvtsi64_si128(i64::from(frame.drop)),
        );
        let family = _mm512_set1_epi64(frame.family as i64);
        let word = _mm512_or_si512(
            _mm512_and_si512(_mm512_srl_epi64(falling, shift), family),
            _mm512_sll_epi64(
                _mm512_and_si512(_mm512_srl_epi64(rising, shift), family),
                _mm_cvtsi64_si128(i64::from(frame.width)),
            ),
        );
        let held =
            _mm512_popcnt_epi64(_mm512_and_si512(word, _mm512_set1_epi64(frame.long as i64)));
        (
            _mm512_or_si512(word, _mm512_slli_epi64::<{ TAG }>(held)),
            ok,
        )
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
        let mut keep = |_: &mut Vec<u64>| {};
        let whole: Chunks<'_> = (&mut fast, usize::MAX, &mut keep);
        match side {
            Side::Left => left_halves(&geo, (&table, &table), rows, whole, buffers),
            Side::Right => {
                let fix = OffDiagonal::new(mirror);
                right_halves(&geo, (&table, &table), rows, fix, whole, buffers);
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
        // The CPU's best loop, and its AVX2 one where it has AVX-512 too.
        let no_avx512 = crate::Simd {
            avx512: false,
            ..crate::Simd::AUTO
        };
        for features in [Features::detect(), Features::allowed(no_avx512)] {
            pairings_equal_the_portable_one(features);
        }
    }

    fn pairings_equal_the_portable_one(features: Features) {
        let buffers = &mut Buffers {
            features,
            ..Buffers::default()
        };
        let parts = &mut Parts::default();
        for n in [8, 9, 12, 16, 17, 18] {
            let h = n / 2;
            let table = QuarterTable::new(h);
            let mut frames = Vec::new();
            if n % 2 == 0 {
                let geo = Geometry::new(n);
                frames.push(Frame::even(&geo, Side::Left));
                frames.push(Frame::even(&geo, Side::Right));
            } else {
                // Forbidden diagonals as a pre-placed queen makes them.
                let off = |f: u32, r: u32| Piece {
                    falling: 1 << f,
                    rising: 1 << r,
                };
                let offs = (off(h - 1, h + 1), off(2, h));
                frames.push(Frame::odd(h, Side::Left, 0, offs));
                frames.push(Frame::odd(h, Side::Right, 1 << h | 1 << (3 * h - 1), offs));
            }
            for frame in frames {
                // Groups of every size, 0 to 8 and past, the empty piece
                // among them, against many tops.
                for (rows, cols) in [
                    (0, 0),
                    (0b1, 0b1),
                    (0b11, 0b101),
                    (0b1011, 0b1110),
                    (0b111, 0b111),
                ] {
                    let bottoms = table.group(rows, cols);
                    let tops = table.group(0b101, 0b11);
                    let tops = &tops[..tops.len().min(40)];
                    for len in [0, 1, 7, 8, 9, 17, bottoms.len()] {
                        let some = &bottoms[..len.min(bottoms.len())];
                        for fix in [OffDiagonal::Skip, OffDiagonal::Once, OffDiagonal::Twice] {
                            let mut a = vec![1, 2, 3];
                            let mut b = a.clone();
                            pair_group(frame, tops, some, fix, &mut a, buffers);
                            pair_portable(frame, tops, some, fix, &mut b, parts);
                            assert_eq!(a, b, "n = {n}, {frame:?}, {len}, {fix:?}, {features:?}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn the_largest_board_fits_below_the_tag() {
        let geo = Geometry::new(crate::count::join::MAX_JOIN_N);
        let frame = Frame::even(&geo, Side::Right);
        let widest = frame.word(!0, !0) & !(!0 << TAG);
        assert_eq!(widest.count_ones(), 2 * (geo.n - 1));
        assert!(widest < 1 << TAG);
    }
}
