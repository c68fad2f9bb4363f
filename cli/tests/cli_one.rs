//! `queens one`: every format byte for byte, the boards it prints pass
//! `check` (up to n = 10^7 through a real pipe), and bad input.

use crate::common;

use std::process::{Command, Stdio};

use common::cli::{one_error_line, queens, queens_with_input, rejects, stdout};

fn one(args: &[&str]) -> String {
    let mut all = vec!["one"];
    all.extend_from_slice(args);
    stdout(&queens(&all).success().stderr(""))
}

#[test]
fn n4_and_n5_in_every_format() {
    assert_eq!(one(&["4"]), ".Q..\n...Q\nQ...\n..Q.\n");
    assert_eq!(
        one(&["4", "--format", "spaced"]),
        ". Q . .\n. . . Q\nQ . . .\n. . Q .\n"
    );
    assert_eq!(
        one(&["4", "--format", "leetcode"]),
        "[[\".Q..\",\"...Q\",\"Q...\",\"..Q.\"]]\n"
    );
    assert_eq!(one(&["4", "--format", "columns"]), "2 4 1 3\n");
    assert_eq!(
        one(&["4", "--format", "jsonl"]),
        "{\"n\":4,\"cols\":[1,3,0,2]}\n"
    );

    assert_eq!(one(&["5"]), ".Q...\n...Q.\nQ....\n..Q..\n....Q\n");
    assert_eq!(
        one(&["5", "-f", "spaced"]),
        ". Q . . .\n. . . Q .\nQ . . . .\n. . Q . .\n. . . . Q\n"
    );
    assert_eq!(
        one(&["5", "--format", "leetcode"]),
        "[[\".Q...\",\"...Q.\",\"Q....\",\"..Q..\",\"....Q\"]]\n"
    );
    assert_eq!(one(&["5", "--format", "columns"]), "2 4 1 3 5\n");
    assert_eq!(
        one(&["5", "--format", "jsonl"]),
        "{\"n\":5,\"cols\":[1,3,0,2,4]}\n"
    );
    assert_eq!(one(&["1"]), "Q\n");
}

#[test]
fn two_and_three_have_no_solution() {
    for n in ["2", "3"] {
        one_error_line(
            queens(&["one", n]).stdout(""),
            1,
            &[&format!("there is no solution for n = {n}")],
        );
    }
}

#[test]
fn every_small_board_and_the_largest_drawn_one_pass_check() {
    for n in (1..=40).filter(|n| ![2, 3].contains(n)).chain([999, 1000]) {
        for format in ["board", "columns", "jsonl", "leetcode", "spaced"] {
            let text = one(&[&n.to_string(), "--format", format]);
            queens_with_input(&["check"], text)
                .success()
                .stdout("board 1: ok\n");
        }
    }
}

#[test]
fn ten_million_queens_through_a_pipe_check_ok() {
    // `queens one 10000000 --format columns | queens check`, with a real
    // pipe: 79 MB that neither side holds as text.
    let bin = env!("CARGO_BIN_EXE_queens");
    let mut producer = Command::new(bin)
        .args(["one", "10000000", "--format", "columns"])
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let checked = Command::new(bin)
        .arg("check")
        .stdin(producer.stdout.take().unwrap())
        .output()
        .unwrap();
    assert!(producer.wait().unwrap().success());
    assert!(checked.status.success());
    assert_eq!(String::from_utf8_lossy(&checked.stdout), "board 1: ok\n");
}

#[test]
fn large_boards_in_json_lines_check_ok() {
    let text = one(&["100003", "--format", "jsonl"]);
    assert!(text.starts_with("{\"n\":100003,\"cols\":["));
    queens_with_input(&["check"], text)
        .success()
        .stdout("board 1: ok\n");
}

#[test]
fn bad_input_gets_one_line_and_exit_2() {
    rejects(
        &["one"],
        &["missing board size N, from 1 to 1000000000", "queens one 8"],
    );
    for bad in ["0", "-7", "1000000001"] {
        rejects(
            &["one", bad],
            &[
                &format!("board size {bad} is out of range"),
                "between 1 and 1000000000",
            ],
        );
    }
    rejects(&["one", "lots"], &["'lots' is not a board size"]);
    for format in ["board", "spaced", "leetcode", "unicode", "svg"] {
        rejects(
            &["one", "1001", "--format", format],
            &[
                &format!("--format {format}"),
                "limited to n <= 1000",
                "--format columns",
            ],
        );
    }
    rejects(
        &["one", "8", "--format", "png"],
        &["invalid value 'png' for '--format <FORMAT>'"],
    );
}
