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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_has_the_published_landmarks() {
        assert_eq!(total(8), Some(92));
        assert_eq!(total(27), Some(234_907_967_154_122_528));
        assert_eq!(total(28), None);
    }

    #[test]
    fn matches_total_reports_all_three_outcomes() {
        assert_eq!(matches_total(8, 92), Some(true));
        assert_eq!(matches_total(8, 93), Some(false));
        assert_eq!(matches_total(30, 1), None);
    }
}
