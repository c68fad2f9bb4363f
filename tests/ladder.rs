//! Every algorithm of the ladder against OEIS A000170, for every n it
//! reaches in test time, and the nodes of the tree each walks against
//! OEIS A319283 and a slow reference that counts them by the definition.

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
    let config = Config::default();
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

/// The nodes of the n-queens backtrack tree, by the definition: every
/// placement of queens on rows `0..k`, no two attacking, `k` from 0 to `n`,
/// found by trying each column of the next row and checking every queen
/// above. `keep(queens)` cuts a node and everything below it.
fn reference_nodes(n: usize, queens: &mut Vec<usize>, keep: &dyn Fn(&[usize]) -> bool) -> u128 {
    let row = queens.len();
    let mut nodes = 1;
    if row == n {
        return nodes;
    }
    for col in 0..n {
        let safe = queens
            .iter()
            .enumerate()
            .all(|(r, &c)| c != col && c.abs_diff(col) != row - r);
        queens.push(col);
        if safe && keep(queens) {
            nodes += reference_nodes(n, queens, keep);
        }
        queens.pop();
    }
    nodes
}

/// The mirror engine's cut: row 0's queen in the left half, or in the
/// middle of an odd board with row 1's queen in the left half.
fn mirror_cut(n: usize) -> impl Fn(&[usize]) -> bool {
    move |queens: &[usize]| match queens {
        // The left half, or the middle column of an odd board.
        [first] => 2 * first < n,
        [first, second, ..] if 2 * first + 1 == n => 2 * second + 1 < n,
        _ => true,
    }
}

#[test]
fn the_row_by_row_steps_walk_a319283_nodes() {
    for n in 1..=12 {
        let tree = reference_nodes(n as usize, &mut Vec::new(), &|_| true);
        assert_eq!(
            Some(tree),
            known::backtrack_nodes(n),
            "reference at n = {n}"
        );
        for algorithm in [Algorithm::AttackCounts, Algorithm::Scan, Algorithm::Flags] {
            assert_eq!(algorithm.nodes(n), Ok(tree), "{algorithm} at n = {n}");
        }
    }
}

#[test]
fn the_bitmask_steps_walk_the_mirror_cut_and_cells_every_subset() {
    for n in 1..=12u32 {
        let size = n as usize;
        let cut = reference_nodes(size, &mut Vec::new(), &mirror_cut(size));
        assert_eq!(Algorithm::Bitmask.nodes(n), Ok(cut), "bitmask at n = {n}");
        assert_eq!(Algorithm::Parallel.nodes(n), Ok(cut), "parallel at n = {n}");
    }
    // Place or skip on each of n * n squares: a full binary tree.
    for n in 1..=5 {
        assert_eq!(Algorithm::Cells.nodes(n), Ok((1 << (n * n + 1)) - 1));
    }
}
