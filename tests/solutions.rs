//! The ordered solution iterator and the board formats, against the slow
//! reference solver and the published counts.

use crate::common;

use std::collections::HashSet;

use common::reference_solutions;
use proptest::prelude::*;
use queens::{BoardWriter, Format, Solutions, known, solve_n_queens};
use queens::{canonical, is_canonical};

fn reference(n: u32) -> Vec<Vec<u32>> {
    reference_solutions(n as usize)
        .into_iter()
        .map(|b| b.into_iter().map(|c| c as u32).collect())
        .collect()
}

#[test]
fn every_solution_in_the_reference_order_up_to_10() {
    // The reference solver tries columns left to right, row by row: its
    // order is the lexicographic order `list` promises.
    for n in 1..=10 {
        let listed: Vec<Vec<u32>> = Solutions::new(n).unwrap().collect();
        assert_eq!(listed, reference(n), "n = {n}");
    }
}

#[test]
fn unique_lists_one_canonical_board_per_class_as_many_as_a002562() {
    // See: the symmetry issue, `queens list N --unique`.
    for n in 1..=10 {
        let unique: Vec<Vec<u32>> = Solutions::new(n).unwrap().unique().collect();
        assert_eq!(
            Some(unique.len() as u128),
            known::unique(n),
            "n = {n}: A002562"
        );
        let classes: HashSet<Vec<u32>> = reference(n).iter().map(|b| canonical(b)).collect();
        let listed: HashSet<Vec<u32>> = unique.iter().cloned().collect();
        assert_eq!(listed, classes, "n = {n}: the canonical boards");
        assert!(unique.iter().all(|b| is_canonical(b)));
        assert!(unique.windows(2).all(|w| w[0] < w[1]), "n = {n}: in order");
    }
}

#[test]
fn leetcode_helpers_match_the_judges_answers() {
    assert_eq!(
        solve_n_queens(4).unwrap(),
        [
            [".Q..", "...Q", "Q...", "..Q."],
            ["..Q.", "Q...", "...Q", ".Q.."]
        ]
    );
    assert_eq!(solve_n_queens(1).unwrap(), [["Q"]]);
    for n in 1..=9 {
        let boards = solve_n_queens(n).unwrap();
        assert_eq!(Some(boards.len() as u128), known::total(n));
    }
}

fn format() -> impl Strategy<Value = Format> {
    (0..Format::ALL.len()).prop_map(|i| Format::ALL[i])
}

proptest! {
    #[test]
    fn every_prefix_lists_exactly_its_share(n in 1u32..=9, prefix in proptest::collection::vec(0u32..9, 0..3)) {
        let prefix: Vec<u32> = prefix.into_iter().take(n as usize).collect();
        let want: Vec<Vec<u32>> = reference(n).into_iter().filter(|b| b.starts_with(&prefix)).collect();
        let got: Vec<Vec<u32>> = Solutions::with_prefix(n, &prefix).unwrap().collect();
        prop_assert_eq!(got, want);
    }

    #[test]
    fn rendering_then_checking_gives_back_every_board(n in 1u32..=8, format in format()) {
        let boards = reference(n);
        let mut out = BoardWriter::new(Vec::new(), format);
        for b in &boards {
            out.write(n, b.iter().copied()).unwrap();
        }
        let text = out.finish().unwrap();
        let checked: Vec<_> = queens::Boards::new(text.as_slice()).collect();
        if boards.is_empty() {
            prop_assert!(matches!(checked[..], [Err(queens::ReadError::Empty)]));
        } else {
            prop_assert_eq!(checked.len(), boards.len());
            for c in checked {
                let c = c.unwrap();
                prop_assert_eq!((c.n, c.conflict), (n, None));
            }
        }
    }
}
