//! `list`, `one` with `--given`, `--blocked` and `--board`: completions of
//! a board with queens placed and squares blocked, against a brute force
//! over every permutation and against the library's count.

use crate::common;

use common::cli::{queens, rejects, stdout};
use common::{next_random as next, random_given, random_squares, squares_flag as flag};
use queens::{Problem, Square};

/// Every solution of the `n`-board (one column a row, from 0) that holds
/// `given` and avoids `blocked`, by trying every permutation.
fn brute_force(n: u32, given: &[Square], blocked: &[Square]) -> Vec<Vec<u32>> {
    fn permutations(rest: &mut Vec<u32>, board: &mut Vec<u32>, out: &mut Vec<Vec<u32>>) {
        if rest.is_empty() {
            out.push(board.clone());
        }
        for i in 0..rest.len() {
            let col = rest.remove(i);
            board.push(col);
            permutations(rest, board, out);
            board.pop();
            rest.insert(i, col);
        }
    }
    let mut all = Vec::new();
    permutations(&mut (0..n).collect(), &mut Vec::new(), &mut all);
    all.retain(|b| {
        let solution =
            (0..b.len()).all(|i| (i + 1..b.len()).all(|j| b[i].abs_diff(b[j]) as usize != j - i));
        solution
            && given.iter().all(|q| b[q.row as usize] == q.col)
            && blocked.iter().all(|s| b[s.row as usize] != s.col)
    });
    all
}

#[test]
fn listed_completions_are_brute_forces_and_classes_the_librarys() {
    let mut state = 36;
    for case in 0..25 {
        let n = 4 + (next(&mut state) % 4) as u32;
        let count = next(&mut state) % 3;
        let given = random_given(&mut state, n, count);
        let count = next(&mut state) % 6;
        let blocked: Vec<Square> = random_squares(&mut state, n, count)
            .into_iter()
            .filter(|s| given.iter().all(|q| q.row != s.row))
            .collect();
        let n_text = n.to_string();
        let mut args = vec!["list", n_text.as_str(), "--format", "columns", "-q"];
        let (g, b) = (flag(&given), flag(&blocked));
        if !given.is_empty() {
            args.extend(["--given", &g]);
        }
        if !blocked.is_empty() {
            args.extend(["--blocked", &b]);
        }
        if given.is_empty() && blocked.is_empty() {
            continue;
        }
        let listed: Vec<Vec<u32>> = stdout(&queens(&args).success())
            .lines()
            .map(|l| {
                l.split(' ')
                    .map(|c| c.parse::<u32>().unwrap() - 1)
                    .collect()
            })
            .collect();
        assert_eq!(
            listed,
            brute_force(n, &given, &blocked),
            "case {case}: {args:?}"
        );
        args.push("--unique");
        let classes = stdout(&queens(&args).success()).lines().count() as u128;
        let problem = Problem::new(n, given.clone(), blocked.clone()).unwrap();
        assert_eq!(classes, problem.count_classes(), "case {case}: {args:?}");
    }
}

#[test]
fn one_finds_the_first_completion_or_says_there_is_none() {
    let first = stdout(&queens(&["one", "8", "--given", "1:1", "--format", "columns"]).success());
    assert_eq!(first, "1 5 8 6 3 7 2 4\n");
    queens(&["one", "8", "--given", "1:1", "--blocked", "2:5,2:6,2:7"])
        .code(1)
        .stdout("")
        .stderr(
            "queens: no completion: no solution of n = 8 has queens given at 1:1 and squares \
             2:5,2:6,2:7 blocked\n",
        );
    queens(&["one", "8", "--given", "1:1,3:3"])
        .code(1)
        .stderr("queens: no completion: the given queens 1:1 and 3:3 attack each other\n");
    queens(&["one", "8", "--given", "1:1,3:3", "-q"])
        .code(1)
        .stderr("");
}

#[test]
fn a_partial_board_file_is_the_same_problem_as_the_flags() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("start.txt");
    std::fs::write(&path, "# one queen, two blocked\n.Q......\nx......x\n........\n........\n........\n........\n........\n........\n").unwrap();
    let file = path.to_str().unwrap();
    let from_file = stdout(&queens(&["list", "8", "--board", file, "-q"]).success());
    let from_flags =
        stdout(&queens(&["list", "8", "--given", "1:2", "--blocked", "2:1,2:8", "-q"]).success());
    assert_eq!(from_file, from_flags);
    assert!(!from_file.is_empty());
    rejects(
        &["list", "9", "--board", file],
        &["is a board of 8, not of 9"],
    );
    rejects(
        &["list", "8", "--board", file, "--given", "1:1"],
        &["--board", "--given"],
    );
}

#[test]
fn bad_constraints_are_one_line_and_exit_2() {
    rejects(
        &["list", "8", "--given", "9:1"],
        &["given queen 9:1 is off the board", "1 to 8"],
    );
    rejects(&["one", "8", "--given", "2:1,2:5"], &["share row 2"]);
    rejects(
        &["list", "8", "--given", "2:1", "--blocked", "2:1"],
        &["2:1 is on a blocked square"],
    );
    rejects(
        &["list", "8", "--given", "0:1"],
        &["given queen 0:1 is off the board", "1 to 8"],
    );
    rejects(
        &["list", "8", "--given", "1:x"],
        &["'1:x' is not a square", "ROW:COL"],
    );
    rejects(&["one", "40", "--given", "1:1"], &["n = 40", "1 to 32"]);
    rejects(
        &["list", "4", "--board", "/nonexistent/board.txt"],
        &["/nonexistent/board.txt"],
    );
}

/// See: issue 47, item 16: a square given twice was "two queens sharing a
/// row"; `--given -1:1` got the parser's message; `list` did not name the
/// given queens that attack each other, and echoed every square instead.
#[test]
fn constraints_are_refused_as_written_and_attacking_queens_named() {
    for command in ["count", "list", "one"] {
        rejects(
            &[command, "8", "--given", "1:1,3:4,1:1"],
            &["queens: square 1:1 is given twice: name each given queen once"],
        );
        for (flag, square, what) in [
            ("--given", "-1:1", "given queen"),
            ("--blocked", "2:-3", "blocked square"),
            ("--given", "99999999999999999999:1", "given queen"),
        ] {
            rejects(
                &[command, "8", flag, square],
                &[&format!(
                    "queens: {what} {square} is off the board: rows and columns run from 1 to 8"
                )],
            );
        }
    }
    queens(&["list", "8", "--given", "1:1,2:2,3:5,7:7"])
        .success()
        .stdout("")
        .stderr("queens: no completion: the given queens 1:1 and 2:2 attack each other\n");
}

/// See: issue 47, item 16: `--board` echoed raw control bytes, named no
/// line for bad UTF-8, and said "line 0" of a file without a board.
#[test]
fn a_bad_partial_board_is_named_by_its_line_and_shown_escaped() {
    let dir = tempfile::tempdir().unwrap();
    for (name, bytes, said) in [
        (
            "control.txt",
            &b"....\n.\x1b..\n....\n....\n"[..],
            "partial board, line 2: '\\u{1b}' is not a square: expected Q, x or .",
        ),
        (
            "latin1.txt",
            &b"# caf\xe9\n....\n....\n.Q\xff.\n....\n"[..],
            "partial board, line 1: byte 0xe9 is not UTF-8: a partial board is UTF-8 text",
        ),
        (
            "late.txt",
            &b"....\n....\n.Q\xff.\n....\n"[..],
            "partial board, line 3: byte 0xff is not UTF-8: a partial board is UTF-8 text",
        ),
        (
            "comments.txt",
            &b"# nothing here\n\n"[..],
            "partial board: it holds only comments and blank lines",
        ),
        ("empty.txt", &b""[..], "partial board: it is empty"),
    ] {
        let path = dir.path().join(name);
        std::fs::write(&path, bytes).unwrap();
        let file = path.to_str().unwrap();
        rejects(&["count", "4", "--board", file], &[file, said]);
        let err = queens(&["list", "4", "--board", file])
            .code(2)
            .get_output()
            .stderr
            .clone();
        assert!(
            !err.contains(&0x1b) && !err.contains(&0xff),
            "{name}: {err:?}"
        );
        assert!(!String::from_utf8_lossy(&err).contains("line 0"), "{name}");
    }
}
