//! Every algorithm of the ladder against OEIS A000170, for every n it
//! reaches in test time.

use queens::{Algorithm, Config, count_with, known};

/// The largest n each algorithm is tested to: well under a second each in
/// release on 2 cores (cells takes 0.12 s at n = 5, 4 minutes at n = 6).
fn tested_up_to(algorithm: Algorithm) -> u32 {
    match algorithm {
        Algorithm::Cells => 5,
        Algorithm::AttackCounts | Algorithm::Scan => 11,
        Algorithm::Flags => 12,
        Algorithm::Bitmask | Algorithm::Parallel => 13,
        other => panic!("a new algorithm, {other}: say how far it is tested"),
    }
}

#[test]
fn every_algorithm_gives_a000170() {
    let config = Config::with_threads(2);
    for algorithm in Algorithm::ALL {
        for n in 1..=tested_up_to(algorithm) {
            assert_eq!(
                Some(count_with(algorithm, n, &config).unwrap()),
                known::total(n),
                "{algorithm} at n = {n}"
            );
        }
    }
}

#[test]
fn the_comfortable_limits_are_within_what_each_can_do() {
    for algorithm in Algorithm::ALL {
        assert!(algorithm.comfortable_max_n() <= algorithm.max_n());
        assert!(tested_up_to(algorithm) <= algorithm.comfortable_max_n());
    }
}
