//! `check --given`, `--blocked` and `--board`: every board read is held
//! against the problem too. A solution without a given queen, or with one
//! on a blocked square, is not a solution of the problem (exit 1, a line
//! naming the square); a board of a size the problem cannot be of is
//! refused for itself; constraints no board can meet as written are a
//! usage error (exit 2). The verdicts are checked against the brute force
//! below, in every format `list` writes.

use crate::common;

use common::cli::{queens, queens_with_input, rejects, stdout};
use common::{next_random as next, random_given, random_squares, squares_flag as flag};
use queens::Square;
use serde_json::Value;

/// What `check` should say of the solution `board` against `given` and
/// `blocked`, by reading the rows top to bottom: the first row that holds
/// no given queen it should, or a queen on a blocked square.
fn verdict(board: &[u32], given: &[Square], blocked: &[Square]) -> String {
    for (row, &col) in (0..).zip(board) {
        if let Some(q) = given.iter().find(|q| q.row == row && q.col != col) {
            return format!("no queen on given square {q}");
        }
        if blocked.contains(&Square::new(row, col)) {
            return format!("a queen on blocked square {}", Square::new(row, col));
        }
    }
    "ok".to_owned()
}

/// The columns of a line of the columns format, from 0.
fn columns(line: &str) -> Vec<u32> {
    line.split(' ')
        .map(|c| c.parse::<u32>().unwrap() - 1)
        .collect()
}

#[test]
fn every_solution_is_judged_as_a_brute_force_reads_the_rows() {
    let mut state = 36;
    for case in 0..12 {
        let n = 5 + (next(&mut state) % 3) as u32;
        let count = 1 + next(&mut state) % 2;
        let given = random_given(&mut state, n, count);
        let count = next(&mut state) % 6;
        let blocked: Vec<Square> = random_squares(&mut state, n, count)
            .into_iter()
            .filter(|s| !given.contains(s))
            .collect();
        let n_text = n.to_string();
        let listed = stdout(&queens(&["list", &n_text, "--format", "columns"]).success());
        let want: String = (listed.lines().enumerate())
            .map(|(i, line)| {
                let said = verdict(&columns(line), &given, &blocked);
                format!("board {}: {said}\n", i + 1)
            })
            .collect();
        let (g, b) = (flag(&given), flag(&blocked));
        let mut args = vec!["check", "--given", g.as_str()];
        if !blocked.is_empty() {
            args.extend(["--blocked", &b]);
        }
        let code = i32::from(want.lines().any(|l| !l.ends_with(": ok")));
        for format in ["columns", "board", "spaced", "leetcode", "jsonl"] {
            let text = stdout(&queens(&["list", &n_text, "--format", format]).success());
            queens_with_input(&args, text)
                .code(code)
                .stdout(want.clone())
                .stderr("");
        }
        // The completions `list` finds are the boards `check` passes.
        let mut list = vec!["list", n_text.as_str(), "--format", "columns", "-q"];
        list.extend(&args[1..]);
        let completions = stdout(&queens(&list).success());
        let passed: Vec<&str> = (listed.lines().zip(want.lines()))
            .filter(|(_, said)| said.ends_with(": ok"))
            .map(|(board, _)| board)
            .collect();
        assert_eq!(
            completions.lines().collect::<Vec<_>>(),
            passed,
            "case {case}: {args:?}"
        );
    }
}

#[test]
fn a_board_that_is_no_solution_is_said_so_first() {
    // Row 1's queen is off the given square too: the conflict is named.
    queens_with_input(&["check", "--given", "1:2"], "1 2 3 4\n")
        .code(1)
        .stdout("board 1: queens at (row 1, col 1) and (row 2, col 2) share a diagonal\n");
}

#[test]
fn a_partial_board_is_the_same_problem_as_the_flags() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("start.txt");
    std::fs::write(
        &path,
        "# a queen, a blocked square\n.Q....\n......\n...x..\n......\n......\n......\n",
    )
    .unwrap();
    let file = path.to_str().unwrap();
    let boards = stdout(&queens(&["list", "6"]).success());
    let from_file = queens_with_input(&["check", "--board", file], boards.clone()).code(1);
    let from_flags =
        queens_with_input(&["check", "--given", "1:2", "--blocked", "3:4"], boards).code(1);
    let said = stdout(&from_file);
    assert_eq!(said, stdout(&from_flags));
    assert_eq!(
        said,
        "board 1: ok\nboard 2: no queen on given square 1:2\n\
         board 3: no queen on given square 1:2\nboard 4: no queen on given square 1:2\n"
    );
}

#[test]
fn a_board_of_another_size_is_refused_for_itself() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("start.txt");
    std::fs::write(&path, ".Q..\n....\n....\n....\n").unwrap();
    let file = path.to_str().unwrap();
    // The 4-board passes, the 5-board is refused, and the next 4-board is
    // checked as the first was.
    let input = "2 4 1 3\n1 3 5 2 4\n3 1 4 2\n";
    queens_with_input(&["check", "--board", file], input)
        .code(1)
        .stdout(format!(
            "board 1: ok\nboard 2: a board of 5, but {file} is a board of 4\n\
             board 3: no queen on given square 1:2\n"
        ))
        .stderr("");
    // The squares of the flags fit any board they are on.
    queens_with_input(&["check", "--given", "5:4"], input)
        .code(1)
        .stdout(
            "board 1: given queen 5:4 is off the board: rows and columns run from 1 to 4\n\
             board 2: ok\n\
             board 3: given queen 5:4 is off the board: rows and columns run from 1 to 4\n",
        );
    // No problem is larger than 32.
    let big = stdout(&queens(&["one", "33", "--format", "columns"]).success());
    queens_with_input(&["check", "--blocked", "1:1"], big)
        .code(1)
        .stdout("board 1: board size 33 is out of range: a problem takes n from 1 to 32\n");
}

#[test]
fn json_names_the_constraint_a_board_fails() {
    // A solution, one without the given queen, one that is no solution,
    // and a board of 1, which the given square is off.
    let input = "2 4 1 3\n3 1 4 2\n1 2 3 4\n1\n";
    let out = queens_with_input(&["check", "--given", "1:2", "--json"], input).code(1);
    let records: Vec<Value> = stdout(&out)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let unmet: Vec<String> = records.iter().map(|r| r["unmet"].to_string()).collect();
    assert_eq!(
        unmet,
        [
            "null",
            r#"{"reason":"given","square":[1,2]}"#,
            "null",
            r#"{"reason":"size","square":[1,2]}"#,
        ]
    );
    let ok: Vec<bool> = records.iter().map(|r| r["ok"].as_bool().unwrap()).collect();
    assert_eq!(ok, [true, false, false, false]);
    // Without constraints, null.
    let plain = stdout(&queens_with_input(&["check", "--json"], "2 4 1 3\n").success());
    assert_eq!(
        plain,
        "{\"board\":1,\"line\":1,\"n\":4,\"ok\":true,\"conflict\":null,\"empty_row\":null,\"unmet\":null}\n"
    );
    // A queen on a blocked square.
    let blocked =
        stdout(&queens_with_input(&["check", "--blocked", "3:1", "--json"], "2 4 1 3\n").code(1));
    assert!(
        blocked.contains(r#""unmet":{"reason":"blocked","square":[3,1]}"#),
        "{blocked}"
    );
}

#[test]
fn quiet_says_it_by_the_exit_code_alone() {
    queens_with_input(&["check", "--given", "1:2", "-q"], "2 4 1 3\n")
        .success()
        .stdout("")
        .stderr("");
    queens_with_input(&["check", "--given", "1:3", "-q"], "2 4 1 3\n")
        .code(1)
        .stdout("")
        .stderr("");
}

#[test]
fn constraints_no_board_meets_as_written_are_one_line_and_exit_2() {
    rejects(
        &["check", "--given", "2:1,2:5"],
        &["given queens 2:1 and 2:5 share row 2"],
    );
    rejects(
        &["check", "--given", "2:1", "--blocked", "2:1"],
        &["given queen 2:1 is on a blocked square"],
    );
    rejects(
        &["check", "--given", "33:1"],
        &["33:1 is off the board", "1 to 32"],
    );
    // See: issue 47, item 16 (a row or column below 1 was a parse error).
    rejects(
        &["check", "--blocked", "0:1"],
        &["blocked square 0:1 is off the board", "1 to 32"],
    );
    rejects(
        &["check", "--given", "-1:1"],
        &["given queen -1:1 is off the board", "1 to 32"],
    );
    rejects(
        &["check", "--board", "/nonexistent/board.txt"],
        &["/nonexistent/board.txt"],
    );
    rejects(
        &[
            "check",
            "--board",
            "/nonexistent/board.txt",
            "--given",
            "1:1",
        ],
        &["--board", "--given"],
    );
}
