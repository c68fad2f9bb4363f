//! `queens one`'s construction: every board it builds is a solution, checked
//! by the O(n) checker, for every n from 4 to 5000 and for large boards of
//! every residue mod 12.

use queens::Construction;
use queens::first_conflict_in_columns;

fn assert_solution(n: u32) {
    let cols: Vec<u32> = Construction::new(n).unwrap().collect();
    assert_eq!(cols.len(), n as usize);
    assert!(
        cols.iter().all(|&c| c < n),
        "n = {n}: a column off the board"
    );
    assert_eq!(first_conflict_in_columns(&cols), Ok(None), "n = {n}");
}

#[test]
fn every_board_from_1_to_5000_is_a_solution() {
    assert_solution(1);
    for n in 4..=5000 {
        assert_solution(n);
    }
}

#[test]
fn large_boards_of_every_residue_mod_12_are_solutions() {
    // The construction has a case for n mod 6 in {2, 3} and one for the
    // rest; mod 12 also covers both parities of each half. Twelve
    // consecutive sizes from each power of ten cover every residue, odd
    // and even.
    for base in [100_000, 1_000_000, 10_000_000] {
        for n in base..base + 12 {
            assert_solution(n);
        }
    }
}

#[test]
fn the_sizes_without_a_solution_have_no_construction() {
    for n in [0, 2, 3] {
        assert!(Construction::new(n).is_err());
    }
}
