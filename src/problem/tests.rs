//! The problem's tests: random problems against a brute force over
//! permutations, the symmetry group against a square-by-square
//! stabiliser, classes against orbits, and the text round trips.

use super::*;
use crate::known::A000170 as SOLUTIONS;

/// A small deterministic generator (SplitMix64), so that a failure
/// names its seed.
pub(crate) struct Rng(pub(crate) u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    pub(crate) fn below(&mut self, bound: u32) -> u32 {
        (self.next() % u64::from(bound)) as u32
    }
}

/// Every permutation of `0..n` that is a solution and that `problem`
/// admits, by brute force.
pub(crate) fn brute_force(problem: &Problem) -> Vec<Vec<u32>> {
    fn go(n: u32, board: &mut Vec<u32>, problem: &Problem, out: &mut Vec<Vec<u32>>) {
        if board.len() == n as usize {
            if problem.admits(board) {
                out.push(board.clone());
            }
            return;
        }
        for col in 0..n {
            let here = Square::new(board.len() as u32, col);
            if (0..board.len() as u32).all(|r| !Square::new(r, board[r as usize]).attacks(here)) {
                board.push(col);
                go(n, board, problem, out);
                board.pop();
            }
        }
    }
    let mut out = Vec::new();
    go(problem.n, &mut Vec::new(), problem, &mut out);
    out
}

/// A random problem: a few given queens (from a random solution, or
/// anywhere, so that some contradict each other), a few blocked squares,
/// and, for one in three, its mirror image added so that it keeps the
/// mirror (or the flip).
pub(crate) fn random_problem(rng: &mut Rng, n: u32) -> Problem {
    let mut given = Vec::new();
    let mut rows_used = 0u32;
    for _ in 0..rng.below(n / 2 + 1) {
        let row = rng.below(n);
        if rows_used & (1 << row) == 0 {
            rows_used |= 1 << row;
            given.push(Square::new(row, rng.below(n)));
        }
    }
    let mut blocked: Vec<_> = (0..rng.below(2 * n))
        .map(|_| Square::new(rng.below(n), rng.below(n)))
        .filter(|s| !given.iter().any(|g| g.row == s.row))
        .collect();
    match rng.below(3) {
        0 => blocked.extend(
            blocked
                .clone()
                .iter()
                .map(|s| Square::new(s.row, n - 1 - s.col)),
        ),
        1 => {
            given.retain(|g| 2 * g.row + 1 == n);
            blocked.extend(
                blocked
                    .clone()
                    .iter()
                    .map(|s| Square::new(n - 1 - s.row, s.col)),
            );
        }
        _ => {}
    }
    Problem::new(n, given, blocked).expect("a valid problem")
}

#[test]
fn random_problems_count_what_brute_force_finds() {
    let mut rng = Rng(0x5eed);
    let mut halved = 0;
    for case in 0..300 {
        let n = 1 + rng.below(8);
        let problem = random_problem(&mut rng, n);
        let want = brute_force(&problem);
        assert_eq!(
            problem.count(),
            want.len() as u128,
            "case {case}: {problem:?}"
        );
        let mut listed = Vec::new();
        problem.for_each_completion(|b| {
            listed.push(b.to_vec());
            true
        });
        assert_eq!(listed, want, "case {case}: {problem:?}");
        assert_eq!(problem.first_completion(), want.first().cloned());
        halved += usize::from(problem.halving_symmetry().is_some());
    }
    // The generator makes symmetric problems often enough to test the
    // halving.
    assert!(halved > 50, "{halved} of 300 problems were halved");
}

#[test]
fn the_serial_count_counts_what_the_parallel_one_counts() {
    let mut rng = Rng(0x5e71a1);
    for case in 0..300 {
        let n = 1 + rng.below(12);
        let problem = random_problem(&mut rng, n);
        assert_eq!(
            problem.count_serially(),
            problem.count(),
            "case {case}: {problem:?}"
        );
    }
    for n in 1..=12 {
        let problem = Problem::empty(n).unwrap();
        assert_eq!(problem.count_serially(), SOLUTIONS[n as usize], "n = {n}");
    }
}

#[test]
fn the_empty_board_counts_a000170() {
    for n in 1..=12 {
        let problem = Problem::empty(n).unwrap();
        assert_eq!(problem.count(), SOLUTIONS[n as usize], "n = {n}");
        assert_eq!(problem.symmetries().len(), 8);
    }
}

/// Every solution has its queen of row `r` somewhere: the completions
/// of the `n` single-queen problems of one row add up to A000170(n).
#[test]
fn the_completions_of_one_row_add_up_to_the_whole() {
    for n in 1..=13 {
        let row = n / 3;
        let total: u128 = (0..n)
            .map(|col| {
                Problem::new(n, [Square::new(row, col)], [])
                    .unwrap()
                    .count()
            })
            .sum();
        assert_eq!(total, SOLUTIONS[n as usize], "n = {n}");
    }
}

#[test]
fn the_symmetries_are_the_stabiliser_of_the_constraints() {
    let mut rng = Rng(7);
    for _ in 0..200 {
        let n = 1 + rng.below(9);
        let problem = random_problem(&mut rng, n);
        for t in Transform::ALL {
            // A transform keeps the problem exactly when it maps every
            // completion-candidate square set onto itself: checked square
            // by square, independently of `transformed`.
            let keeps = |set: &[Square]| {
                set.iter().all(|s| {
                    let (r, c) = t.map_square(n, s.row, s.col);
                    set.contains(&Square::new(r, c))
                })
            };
            let want = keeps(&problem.given) && keeps(&problem.blocked);
            assert_eq!(problem.symmetries().contains(&t), want, "{t} {problem:?}");
        }
        // A group: closed under composition.
        let group = problem.symmetries();
        for a in &group {
            for b in &group {
                assert!(group.contains(&a.after(*b)));
            }
        }
    }
}

#[test]
fn classes_under_the_whole_group_are_a002562() {
    for n in 1..=10 {
        let problem = Problem::empty(n).unwrap();
        assert_eq!(
            problem.count_classes(),
            crate::known::A002562[n as usize - 1],
            "n = {n}"
        );
    }
}

/// Classes counted by canonical forms against classes counted as
/// orbits, by brute force: the set of completions closed under the
/// group, cut into orbits.
#[test]
fn classes_are_the_orbits_of_the_problems_own_group() {
    let mut rng = Rng(99);
    for case in 0..150 {
        let n = 1 + rng.below(8);
        let problem = random_problem(&mut rng, n);
        let group = problem.symmetries();
        let mut left: std::collections::BTreeSet<_> = brute_force(&problem).into_iter().collect();
        let mut orbits = 0u128;
        while let Some(board) = left.pop_first() {
            for t in &group {
                let image = t.apply(&board);
                assert!(image == board || left.remove(&image) || !left.contains(&image));
            }
            orbits += 1;
        }
        assert_eq!(problem.count_classes(), orbits, "case {case}: {problem:?}");
    }
}

#[test]
fn a_partial_board_reads_back_as_it_prints() {
    let text = "# a corner queen\n.Q..\nx...\n...x\n....\n";
    let problem = Problem::from_board(text).unwrap();
    assert_eq!(problem.n(), 4);
    assert_eq!(problem.given(), [Square::new(0, 1)]);
    assert_eq!(problem.blocked(), [Square::new(1, 0), Square::new(2, 3)]);
    assert_eq!(Problem::from_board(&problem.to_string()).unwrap(), problem);
    // .Q.. / ...Q / Q... / ..Q. is the one completion, and it puts no
    // queen on a blocked square.
    assert_eq!(problem.first_completion(), Some(vec![1, 3, 0, 2]));
    for (text, why) in [
        ("..\n...\n", "line 2: 3 squares where the first row has 2"),
        ("Q.\n..\n..\n", "line 3: row 3 of a board of 2"),
        ("Q.\n", "line 1: 1 rows for a board of 2: it needs 2"),
        (
            "Q*\n..\n",
            "line 1: '*' is not a square: expected Q, x or .",
        ),
        (
            "QQ\n..\n",
            "given queens 1:1 and 1:2 share row 1: one queen a row",
        ),
        // See: issue 47, item 16 (a control character was echoed as it
        // is, and a text without rows was "line 0").
        (
            "..\n.\u{7}\n",
            "line 2: '\\u{7}' is not a square: expected Q, x or .",
        ),
        (
            "# a comment\n\n",
            "partial board: it holds only comments and blank lines: expected rows of Q, x and .",
        ),
        (
            "",
            "partial board: it is empty: expected rows of Q, x and .",
        ),
    ] {
        let err = Problem::from_board(text).unwrap_err().to_string();
        assert!(err.ends_with(why), "{text:?}: {err}");
    }
}

/// Notepad begins a UTF-8 file with a byte order mark: not a square.
/// See: issue 47, item 16.
#[test]
fn a_partial_board_after_a_byte_order_mark_is_read() {
    let plain = Problem::from_board(".Q..\nx...\n...x\n....\n").unwrap();
    let marked = Problem::from_board("\u{feff}.Q..\r\nx...\r\n...x\r\n....\r\n").unwrap();
    assert_eq!(marked, plain);
    // Only at the start: inside, it is a character like any other.
    let err = Problem::from_board(".Q..\n\u{feff}x...\n").unwrap_err();
    assert!(err.to_string().contains("line 2"), "{err}");
}

#[test]
fn a_stopped_search_visits_nothing() {
    let mut seen = 0;
    let went_on =
        Problem::empty(8)
            .unwrap()
            .for_each_completion_until(&AtomicBool::new(true), |_| {
                seen += 1;
                true
            });
    assert!(!went_on);
    assert_eq!(seen, 0);
}

#[test]
fn a_stopped_count_gives_no_total() {
    let problem = Problem::empty(12).unwrap();
    assert_eq!(problem.count_until(&AtomicBool::new(true)), None);
    assert_eq!(problem.count_until(&AtomicBool::new(false)), Some(14_200));
}

#[test]
fn contradictions_count_zero_and_name_the_queens() {
    let p = Problem::new(8, [Square::new(0, 0), Square::new(3, 3)], []).unwrap();
    assert_eq!(p.conflict(), Some((Square::new(0, 0), Square::new(3, 3))));
    assert_eq!(p.count(), 0);
    assert_eq!(p.first_completion(), None);
}

#[test]
fn bad_constraints_are_refused_with_the_square() {
    let err = Problem::new(8, [Square::new(8, 1)], []).unwrap_err();
    assert_eq!(
        err.to_string(),
        "given queen 9:2 is off the board: rows and columns run from 1 to 8"
    );
    let err = Problem::new(8, [Square::new(2, 1), Square::new(2, 5)], []).unwrap_err();
    assert_eq!(
        err.to_string(),
        "given queens 3:2 and 3:6 share row 3: one queen a row"
    );
    // See: issue 47, item 16 (it was "given queens 1:1 and 1:1 share row 1").
    let twice = [Square::new(0, 0), Square::new(2, 3), Square::new(0, 0)];
    let err = Problem::new(8, twice, []).unwrap_err();
    assert_eq!(
        err.to_string(),
        "square 1:1 is given twice: name each given queen once"
    );
    let err = Problem::new(8, [Square::new(2, 1)], [Square::new(2, 1)]).unwrap_err();
    assert_eq!(err.to_string(), "given queen 3:2 is on a blocked square");
    assert!(Problem::empty(0).is_err());
    assert!(Problem::empty(33).is_err());
}
