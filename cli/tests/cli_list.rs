//! `queens list`: every format byte for byte, ordering, --limit, --unique,
//! the pipe to `check`, a closed pipe, and bad input.

use crate::common;

use std::collections::HashSet;
use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

use common::cli::{queens, queens_with_input, rejects, stdout};
use proptest::prelude::*;
use queens::known;

const FORMATS: [&str; 5] = ["board", "spaced", "leetcode", "columns", "jsonl"];

/// The stdout of `queens list ARGS -q`, which must write nothing on stderr
/// (`-q`: not even the note for n = 2 and 3, which
/// `a_size_without_solutions_says_so_on_stderr` checks).
fn list(args: &[&str]) -> String {
    let mut all = vec!["list"];
    all.extend_from_slice(args);
    all.push("-q");
    stdout(&queens(&all).success().stderr(""))
}

#[test]
fn n4_in_every_format() {
    assert_eq!(
        list(&["4"]),
        ".Q..\n...Q\nQ...\n..Q.\n\n..Q.\nQ...\n...Q\n.Q..\n"
    );
    assert_eq!(
        list(&["4", "--format", "spaced"]),
        ". Q . .\n. . . Q\nQ . . .\n. . Q .\n\n. . Q .\nQ . . .\n. . . Q\n. Q . .\n"
    );
    // LeetCode 51's expected answer for n = 4, byte for byte.
    assert_eq!(
        list(&["4", "--format", "leetcode"]),
        "[[\".Q..\",\"...Q\",\"Q...\",\"..Q.\"],[\"..Q.\",\"Q...\",\"...Q\",\".Q..\"]]\n"
    );
    assert_eq!(list(&["4", "--format", "columns"]), "2 4 1 3\n3 1 4 2\n");
    assert_eq!(
        list(&["4", "-f", "jsonl"]),
        "{\"n\":4,\"cols\":[1,3,0,2]}\n{\"n\":4,\"cols\":[2,0,3,1]}\n"
    );
}

const FIVE_COLUMNS: &str = "\
1 3 5 2 4
1 4 2 5 3
2 4 1 3 5
2 5 3 1 4
3 1 4 2 5
3 5 2 4 1
4 1 3 5 2
4 2 5 3 1
5 2 4 1 3
5 3 1 4 2
";

const FIVE_BOARDS: &str = "\
Q....
..Q..
....Q
.Q...
...Q.

Q....
...Q.
.Q...
....Q
..Q..

.Q...
...Q.
Q....
..Q..
....Q

.Q...
....Q
..Q..
Q....
...Q.

..Q..
Q....
...Q.
.Q...
....Q

..Q..
....Q
.Q...
...Q.
Q....

...Q.
Q....
..Q..
....Q
.Q...

...Q.
.Q...
....Q
..Q..
Q....

....Q
.Q...
...Q.
Q....
..Q..

....Q
..Q..
Q....
...Q.
.Q...
";

#[test]
fn n5_in_every_format() {
    assert_eq!(list(&["5", "--format", "columns"]), FIVE_COLUMNS);
    assert_eq!(list(&["5"]), FIVE_BOARDS);
    assert_eq!(
        list(&["5", "--format", "spaced"]),
        FIVE_BOARDS
            .lines()
            .map(|row| {
                let cells: Vec<String> = row.chars().map(String::from).collect();
                cells.join(" ") + "\n"
            })
            .collect::<String>()
    );
    assert_eq!(
        list(&["5", "--format", "leetcode"]),
        "[[\"Q....\",\"..Q..\",\"....Q\",\".Q...\",\"...Q.\"],[\"Q....\",\"...Q.\",\".Q...\",\"....Q\",\"..Q..\"],\
         [\".Q...\",\"...Q.\",\"Q....\",\"..Q..\",\"....Q\"],[\".Q...\",\"....Q\",\"..Q..\",\"Q....\",\"...Q.\"],\
         [\"..Q..\",\"Q....\",\"...Q.\",\".Q...\",\"....Q\"],[\"..Q..\",\"....Q\",\".Q...\",\"...Q.\",\"Q....\"],\
         [\"...Q.\",\"Q....\",\"..Q..\",\"....Q\",\".Q...\"],[\"...Q.\",\".Q...\",\"....Q\",\"..Q..\",\"Q....\"],\
         [\"....Q\",\".Q...\",\"...Q.\",\"Q....\",\"..Q..\"],[\"....Q\",\"..Q..\",\"Q....\",\"...Q.\",\".Q...\"]]\n"
    );
    assert_eq!(
        list(&["5", "--format", "jsonl"]),
        "{\"n\":5,\"cols\":[0,2,4,1,3]}\n{\"n\":5,\"cols\":[0,3,1,4,2]}\n\
         {\"n\":5,\"cols\":[1,3,0,2,4]}\n{\"n\":5,\"cols\":[1,4,2,0,3]}\n\
         {\"n\":5,\"cols\":[2,0,3,1,4]}\n{\"n\":5,\"cols\":[2,4,1,3,0]}\n\
         {\"n\":5,\"cols\":[3,0,2,4,1]}\n{\"n\":5,\"cols\":[3,1,4,2,0]}\n\
         {\"n\":5,\"cols\":[4,1,3,0,2]}\n{\"n\":5,\"cols\":[4,2,0,3,1]}\n"
    );
}

#[test]
fn boards_without_solutions_print_nothing_but_leetcodes_empty_array() {
    for n in ["2", "3"] {
        assert_eq!(list(&[n]), "");
        assert_eq!(list(&[n, "--format", "leetcode"]), "[]\n");
    }
    assert_eq!(list(&["1"]), "Q\n");
    assert_eq!(list(&["1", "--format", "leetcode"]), "[[\"Q\"]]\n");
}

#[test]
fn limit_stops_after_k_boards() {
    let all = list(&["8", "--format", "columns"]);
    let first3: String = all.lines().take(3).map(|l| format!("{l}\n")).collect();
    assert_eq!(list(&["8", "--format", "columns", "--limit", "3"]), first3);
    assert_eq!(list(&["8", "--limit", "0", "--format", "leetcode"]), "[]\n");
    assert_eq!(list(&["8", "--limit", "0"]), "");
    assert_eq!(list(&["8", "--format", "columns", "--limit", "1000"]), all);
    // A board format keeps its separators right at the cut.
    assert_eq!(
        list(&["4", "--limit", "1", "--format", "leetcode"]),
        "[[\".Q..\",\"...Q\",\"Q...\",\"..Q.\"]]\n"
    );
    assert_eq!(list(&["4", "--limit", "1"]), ".Q..\n...Q\nQ...\n..Q.\n");
}

#[test]
fn the_order_and_the_bytes_do_not_depend_on_the_thread_count() {
    for format in ["columns", "board"] {
        let one = list(&["11", "--format", format, "-j", "1"]);
        assert_eq!(list(&["11", "--format", format, "-j", "3"]), one);
        assert_eq!(list(&["11", "--format", format, "-j", "7"]), one);
    }
    let lines: Vec<&str> = FIVE_COLUMNS.lines().collect();
    assert!(lines.windows(2).all(|w| w[0] < w[1]));
}

#[test]
fn unique_lists_a002562_boards() {
    // See: the symmetry issue's `queens list N --unique`.
    for n in 1..=10u32 {
        let text = list(&[&n.to_string(), "--unique", "--format", "columns"]);
        assert_eq!(
            Some(text.lines().count() as u128),
            known::unique(n),
            "n = {n}"
        );
    }
    assert_eq!(
        list(&["6", "--unique", "--format", "columns"]),
        "2 4 6 1 3 5\n"
    );
}

#[test]
fn a_closed_pipe_ends_the_listing_quietly() {
    // `queens list 14 | head -3`: the reader goes away after three lines.
    let mut child = Command::new(env!("CARGO_BIN_EXE_queens"))
        .args(["list", "14"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    for _ in 0..3 {
        assert_eq!(lines.next().unwrap().unwrap().len(), 14);
    }
    drop(lines);
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{:?}", out.status);
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
}

/// The boards of a listing, one string each, whatever the format.
fn boards_of(text: &str, format: &str) -> Vec<String> {
    match format {
        "board" | "spaced" => text
            .split("\n\n")
            .filter(|b| !b.is_empty())
            .map(str::to_owned)
            .collect(),
        "leetcode" => {
            let boards: Vec<Vec<String>> = serde_json::from_str(text).unwrap();
            boards.into_iter().map(|b| b.join("/")).collect()
        }
        _ => text.lines().map(str::to_owned).collect(),
    }
}

#[test]
fn every_listed_board_passes_check_once_and_all_are_there() {
    for n in 1..=10u32 {
        let want = known::total(n).unwrap() as usize;
        for format in FORMATS {
            let text = list(&[&n.to_string(), "--format", format]);
            let boards = boards_of(&text, format);
            assert_eq!(boards.len(), want, "n = {n}, {format}");
            let distinct: HashSet<&String> = boards.iter().collect();
            assert_eq!(distinct.len(), want, "n = {n}, {format}: repeated boards");
            // No board (n = 2, 3) is 0 boards checked (issue 20).
            let verdicts = stdout(&queens_with_input(&["check"], text).success());
            let expected: String = (1..=want).map(|i| format!("board {i}: ok\n")).collect();
            assert_eq!(verdicts, expected, "n = {n}, {format}");
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn any_limited_or_unique_listing_checks(
        n in 4u32..=10,
        format in 0..FORMATS.len(),
        limit in proptest::option::of(0u64..50),
        unique in any::<bool>(),
    ) {
        let mut args = vec![n.to_string(), "--format".into(), FORMATS[format].into()];
        if let Some(k) = limit {
            args.extend(["--limit".into(), k.to_string()]);
        }
        if unique {
            args.push("--unique".into());
        }
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let text = list(&args);
        let all = if unique { known::unique(n) } else { known::total(n) }.unwrap() as u64;
        let want = limit.map_or(all, |k| k.min(all)) as usize;
        prop_assert_eq!(boards_of(&text, FORMATS[format]).len(), want);
        let verdicts = stdout(&queens_with_input(&["check", "-q"], text).success());
        prop_assert_eq!(verdicts, "");
    }
}

#[test]
fn bad_input_gets_one_line_and_exit_2() {
    rejects(
        &["list"],
        &["missing board size N, from 1 to 32", "queens list 8"],
    );
    rejects(
        &["list", "0"],
        &["board size 0 is out of range", "between 1 and 32"],
    );
    rejects(&["list", "33"], &["board size 33 is out of range"]);
    rejects(&["list", "-4"], &["board size -4 is out of range"]);
    rejects(
        &["list", "eight"],
        &["'eight' is not a board size", "from 1 to 32"],
    );
    rejects(
        &["list", "8", "--format", "ascii"],
        &["invalid value 'ascii' for '--format <FORMAT>'", "leetcode"],
    );
    rejects(
        &["list", "8", "--limit", "many"],
        &["--limit: 'many' is not a number of boards"],
    );
    rejects(&["list", "8", "-j", "0"], &["0 is out of range"]);
}

#[test]
fn a_size_without_solutions_says_so_on_stderr() {
    // See: issue 35, item 6 (`list 2` printed nothing, exited 0 and said
    // nothing).
    for n in ["2", "3"] {
        queens(&["list", n]).success().stdout("").stderr(format!(
            "queens: there is no solution for n = {n}: nothing to list\n"
        ));
        queens(&["list", n, "--unique"])
            .success()
            .stdout("")
            .stderr(predicates::str::contains("no solution"));
        queens(&["list", n, "-q"]).success().stdout("").stderr("");
    }
    queens(&["list", "3", "--format", "leetcode"])
        .success()
        .stdout("[]\n")
        .stderr(predicates::str::contains("no solution"));
    // Nothing listed by request is no note.
    queens(&["list", "8", "--limit", "0"])
        .success()
        .stdout("")
        .stderr("");
}
