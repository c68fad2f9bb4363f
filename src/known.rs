//! The known answers, from the OEIS, in one place.
//!
//! Tests, benchmarks and the command line all verify their counts against
//! these tables, so a wrong count is caught wherever it is produced. This
//! module holds data only: it never computes a count.

/// OEIS [A000170](https://oeis.org/A000170): the number of ways to place `n`
/// non-attacking queens on an `n` x `n` board, for `n = 0..=27`.
///
/// Index `n` holds the value for `n`. `a(0) = 1` counts the empty board.
/// The values for `n >= 24` come from the distributed computations cited on
/// the OEIS page (n = 27 was completed by the TU Dresden Q27 project in 2016).
pub const A000170: [u128; 28] = [
    1,
    1,
    0,
    0,
    2,
    10,
    4,
    40,
    92,
    352,
    724,
    2_680,
    14_200,
    73_712,
    365_596,
    2_279_184,
    14_772_512,
    95_815_104,
    666_090_624,
    4_968_057_848,
    39_029_188_884,
    314_666_222_712,
    2_691_008_701_644,
    24_233_937_684_440,
    227_514_171_973_736,
    2_207_893_435_808_352,
    22_317_699_616_364_044,
    234_907_967_154_122_528,
];

/// OEIS [A002562](https://oeis.org/A002562): the number of essentially
/// different solutions (classes under rotation and reflection), for
/// `n = 1..=27`. Index `n - 1` holds the value for `n` (the sequence starts
/// at n = 1).
pub const A002562: [u128; 27] = [
    1,
    0,
    0,
    1,
    2,
    1,
    6,
    12,
    46,
    92,
    341,
    1_787,
    9_233,
    45_752,
    285_053,
    1_846_955,
    11_977_939,
    83_263_591,
    621_012_754,
    4_878_666_808,
    39_333_324_973,
    336_376_244_042,
    3_029_242_658_210,
    28_439_272_956_934,
    275_986_683_743_434,
    2_789_712_466_510_289,
    29_363_495_934_315_694,
];

/// OEIS [A319283](https://oeis.org/A319283): the number of nodes of the
/// backtrack tree of the `n`-queens problem (Knuth, TAOCP 7.2.2), for
/// `n = 0..=12`: the placements of `k` non-attacking queens on the first `k`
/// rows, for every `k` from 0 (the empty board) to `n`.
///
/// Index `n` holds the value for `n`: the sum of row `n` of
/// [A319284](https://oeis.org/A319284), the tree's profile, whose rows 0 to
/// 12 the OEIS page prints (2057 at n = 8 is also the count Knuth gives,
/// quoted in [A319235](https://oeis.org/A319235)).
pub const A319283: [u128; 13] = [
    1, 2, 3, 6, 17, 54, 153, 552, 2_057, 8_394, 35_539, 166_926, 856_189,
];

/// The known number of backtrack-tree nodes for `n` (A319283), or `None`
/// beyond the table (n > 12).
#[must_use]
pub fn backtrack_nodes(n: u32) -> Option<u128> {
    A319283.get(n as usize).copied()
}

/// The known total for an `n` x `n` board, or `None` where nobody has
/// published one (n > 27).
#[must_use]
pub fn total(n: u32) -> Option<u128> {
    A000170.get(n as usize).copied()
}

/// Whether a computed total agrees with the known value: `None` when there
/// is no known value to compare with.
#[must_use]
pub fn matches_total(n: u32, solutions: u128) -> Option<bool> {
    total(n).map(|known| known == solutions)
}

/// The known number of essentially different solutions, or `None` where
/// none is published (n = 0 or n > 27).
#[must_use]
pub fn unique(n: u32) -> Option<u128> {
    A002562.get((n as usize).checked_sub(1)?).copied()
}

/// Whether a computed unique count agrees with the known value: `None` when
/// there is nothing to compare with.
#[must_use]
pub fn matches_unique(n: u32, unique: u128) -> Option<bool> {
    self::unique(n).map(|known| known == unique)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_has_the_published_landmarks() {
        assert_eq!(total(8), Some(92));
        assert_eq!(total(27), Some(234_907_967_154_122_528));
        assert_eq!(total(28), None);
        assert_eq!(unique(0), None);
        assert_eq!(unique(1), Some(1));
        assert_eq!(unique(8), Some(12));
        assert_eq!(unique(27), Some(29_363_495_934_315_694));
        assert_eq!(unique(28), None);
        assert_eq!(backtrack_nodes(8), Some(2057));
        assert_eq!(backtrack_nodes(13), None);
    }

    #[test]
    fn matches_total_reports_all_three_outcomes() {
        assert_eq!(matches_total(8, 92), Some(true));
        assert_eq!(matches_total(8, 93), Some(false));
        assert_eq!(matches_total(30, 1), None);
    }
}
