//! The symmetry group and the unique counts: D4's laws, Burnside's counts
//! against a brute force that groups every solution by canonical form, and
//! OEIS A002562.

use crate::common;

use std::collections::HashMap;

use crate::common::parallel;
use common::reference_solutions;
use proptest::prelude::*;
use queens::{Transform, canonical, is_canonical, orbit, stabiliser};
use queens::{count_half_turn_symmetric, count_quarter_turn_symmetric};
use queens::{known, unique};

fn solutions(n: usize) -> Vec<Vec<u32>> {
    reference_solutions(n)
        .into_iter()
        .map(|b| b.into_iter().map(|c| c as u32).collect())
        .collect()
}

fn is_solution(board: &[u32]) -> bool {
    let n = board.len();
    (0..n).all(|i| {
        (i + 1..n).all(|j| {
            let (a, b) = (i64::from(board[i]), i64::from(board[j]));
            a != b && (a - b).abs() != (j - i) as i64
        })
    })
}

fn transform() -> impl Strategy<Value = Transform> {
    (0..8usize).prop_map(|i| Transform::ALL[i])
}

/// A random permutation of 0..n, n in 1..=12: the transforms are defined on
/// any permutation, not only on solutions.
fn permutation() -> impl Strategy<Value = Vec<u32>> {
    (1u32..=12).prop_flat_map(|n| Just((0..n).collect::<Vec<_>>()).prop_shuffle())
}

#[test]
fn the_multiplication_table_is_the_action_and_a_latin_square() {
    let n = 7;
    for a in Transform::ALL {
        let mut row: Vec<Transform> = Vec::new();
        for b in Transform::ALL {
            let ab = a.after(b);
            for (r, c) in (0..n).flat_map(|r| (0..n).map(move |c| (r, c))) {
                let (r1, c1) = b.map_square(n, r, c);
                assert_eq!(
                    ab.map_square(n, r, c),
                    a.map_square(n, r1, c1),
                    "{a} after {b}"
                );
            }
            row.push(ab);
        }
        row.sort();
        let mut all = Transform::ALL.to_vec();
        all.sort();
        assert_eq!(row, all, "row of {a} is a permutation of the group");
    }
}

#[test]
fn d4_relations_hold() {
    let (i, r, m) = (Transform::IDENTITY, Transform::ROTATE_90, Transform::MIRROR);
    let r4 = r.after(r).after(r).after(r);
    assert_eq!(r4, i);
    assert_eq!(m.after(m), i);
    assert_eq!(m.after(r).after(m), r.inverse());
    assert_eq!(r.after(r), Transform::ROTATE_180);
    assert_eq!(r.inverse(), Transform::ROTATE_270);
    let distinct: std::collections::HashSet<_> = Transform::ALL.iter().collect();
    assert_eq!(distinct.len(), 8);
    assert_eq!(Transform::ALL.iter().filter(|t| t.is_rotation()).count(), 4);
}

proptest! {
    #[test]
    fn composition_acts_as_doing_one_then_the_other(a in transform(), b in transform(), board in permutation()) {
        prop_assert_eq!(a.after(b).apply(&board), a.apply(&b.apply(&board)));
    }

    #[test]
    fn identity_and_inverses(t in transform(), board in permutation()) {
        prop_assert_eq!(Transform::IDENTITY.apply(&board), board.clone());
        prop_assert_eq!(t.after(Transform::IDENTITY), t);
        prop_assert_eq!(Transform::IDENTITY.after(t), t);
        prop_assert_eq!(t.after(t.inverse()), Transform::IDENTITY);
        prop_assert_eq!(t.inverse().apply(&t.apply(&board)), board);
    }

    #[test]
    fn canonical_form_is_shared_by_the_whole_orbit(t in transform(), board in permutation()) {
        let image = t.apply(&board);
        prop_assert_eq!(canonical(&image), canonical(&board));
        prop_assert!(is_canonical(&canonical(&board)));
        prop_assert!(orbit(&board).contains(&image));
    }
}

#[test]
fn every_transform_of_a_solution_is_a_solution() {
    for n in 1..=9 {
        for board in solutions(n) {
            for t in Transform::ALL {
                assert!(is_solution(&t.apply(&board)), "n = {n}, {t} of {board:?}");
            }
        }
    }
}

#[test]
fn orbit_size_times_stabiliser_size_is_eight() {
    for n in 1..=10 {
        for board in solutions(n) {
            assert_eq!(
                orbit(&board).len() * stabiliser(&board).len(),
                8,
                "{board:?}"
            );
        }
    }
}

#[test]
fn no_solution_beyond_n_1_is_fixed_by_a_reflection() {
    for n in 2..=10 {
        for board in solutions(n) {
            assert!(
                stabiliser(&board).iter().all(|t| t.is_rotation()),
                "{board:?}"
            );
        }
    }
}

#[test]
fn symmetric_searches_agree_with_filtering_every_solution() {
    for n in 1..=12u32 {
        let all = solutions(n as usize);
        let fixed_by = |t: Transform| all.iter().filter(|b| t.apply(b) == **b).count() as u128;
        assert_eq!(
            count_half_turn_symmetric(n),
            fixed_by(Transform::ROTATE_180),
            "S180, n = {n}"
        );
        assert_eq!(
            count_quarter_turn_symmetric(n),
            fixed_by(Transform::ROTATE_90),
            "S90, n = {n}"
        );
    }
}

#[test]
fn classes_agree_with_grouping_by_canonical_form() {
    for n in 1..=11u32 {
        let mut classes: HashMap<Vec<u32>, usize> = HashMap::new();
        for board in solutions(n as usize) {
            *classes.entry(canonical(&board)).or_default() += 1;
        }
        let size = |s: usize| classes.values().filter(|&&v| v == s).count() as u128;
        let total = classes.values().sum::<usize>() as u128;
        let u = unique(n, total).unwrap();
        assert_eq!(u.unique, classes.len() as u128, "n = {n}");
        assert_eq!(u.classes.none, size(8), "n = {n}");
        assert_eq!(u.classes.rotation_180, size(4), "n = {n}");
        // n = 1's one board is a class of one, reported with rotation_90.
        assert_eq!(u.classes.rotation_90, size(2) + size(1), "n = {n}");
        let s180 = classes
            .iter()
            .filter(|(b, _)| Transform::ROTATE_180.apply(b) == **b);
        assert_eq!(
            u.half_turn,
            s180.map(|(_, &v)| v as u128).sum::<u128>(),
            "n = {n}"
        );
    }
}

#[test]
fn unique_counts_match_a002562_up_to_15() {
    for n in 1..=15 {
        let total = parallel(n, 2, &()).unwrap().solutions;
        let u = unique(n, total).unwrap();
        assert_eq!(Some(u.unique), known::unique(n), "n = {n}");
        assert_eq!(u.classes.total(), u.unique);
    }
}

#[test]
fn symmetric_counts_reach_past_the_tests_of_the_total() {
    // Published S180/S90-derived values: A002562 from the A000170 totals.
    for n in 16..=20 {
        let total = known::total(n).unwrap();
        assert_eq!(
            Some(unique(n, total).unwrap().unique),
            known::unique(n),
            "n = {n}"
        );
    }
}
