//! `queens check`: verdicts in words, exit codes 0/1/2, one clear line for
//! every kind of malformed input, and gigabytes of garbage rejected at the
//! first bad byte without being read.

use crate::common;

use std::io::Write;
use std::process::{Command, Stdio};
use std::thread;

use common::cli::{one_error_line, queens, queens_with_input, stdout};

fn check(input: &str) -> assert_cmd::assert::Assert {
    queens_with_input(&["check"], input)
}

const TWO_OK: &str = "board 1: ok\nboard 2: ok\n";

#[test]
fn every_format_of_n4_reads_back_ok() {
    let inputs = [
        ".Q..\n...Q\nQ...\n..Q.\n\n..Q.\nQ...\n...Q\n.Q..\n",
        ". Q . .\n. . . Q\nQ . . .\n. . Q .\n\n. . Q .\nQ . . .\n. . . Q\n. Q . .\n",
        "[[\".Q..\",\"...Q\",\"Q...\",\"..Q.\"],[\"..Q.\",\"Q...\",\"...Q\",\".Q..\"]]\n",
        "2 4 1 3\n3 1 4 2\n",
        "{\"n\":4,\"cols\":[1,3,0,2]}\n{\"n\":4,\"cols\":[2,0,3,1]}\n",
    ];
    for input in inputs {
        check(input).success().stdout(TWO_OK).stderr("");
    }
}

#[test]
fn every_format_of_a_size_without_solutions_reads_back_as_no_board() {
    // See: issue 20 (`queens list 3 --format leetcode | queens check` exited 2).
    for format in ["board", "spaced", "leetcode", "columns", "jsonl"] {
        let text = stdout(&queens(&["list", "3", "--format", format]).success());
        let err = one_error_line(check(&text).stdout(""), 0, &["0 boards checked"]);
        assert!(err.contains("holds none"), "{format}: {err}");
        queens_with_input(&["check", "--quiet"], text)
            .success()
            .stdout("")
            .stderr("");
    }
    for empty in ["", "\n  \n\n", "[]\n", " [ ] "] {
        one_error_line(check(empty).stdout(""), 0, &["0 boards checked"]);
    }
    one_error_line(check("[] x"), 2, &["unexpected 'x' after the closing ']'"]);
}

#[test]
fn every_format_of_n5_reads_back_ok() {
    for format in ["board", "spaced", "leetcode", "columns", "jsonl"] {
        let text = stdout(&queens(&["list", "5", "--format", format]).success());
        let expected: String = (1..=10).map(|i| format!("board {i}: ok\n")).collect();
        check(&text).success().stdout(expected);
    }
}

#[test]
fn conflicts_are_named_in_words_from_1() {
    // The example: the third board's rows 2 and 6 share a diagonal.
    check("2 4 1 3\n3 1 4 2\n2 5 3 6 4 1 7 8\n")
        .code(1)
        .stdout(
            "board 1: ok\nboard 2: ok\n\
             board 3: queens at (row 2, col 5) and (row 6, col 1) share a diagonal\n",
        )
        .stderr("");
    check("1 3 1 4\n")
        .code(1)
        .stdout("board 1: queens at (row 1, col 1) and (row 3, col 1) share a column\n");
    check("{\"n\":4,\"cols\":[0,1,3,2]}\n")
        .code(1)
        .stdout("board 1: queens at (row 1, col 1) and (row 2, col 2) share a diagonal\n");
    check("..Q.\nQ..Q\n....\n.Q..\n")
        .code(1)
        .stdout("board 1: queens at (row 2, col 1) and (row 2, col 4) share a row\n");
    check("[[\"Q.\",\".Q\"]]")
        .code(1)
        .stdout("board 1: queens at (row 1, col 1) and (row 2, col 2) share a diagonal\n");
}

/// See: issue 35, item 3 (`-q` printed the boards that fail; it is now
/// `grep -q`'s: the exit code alone).
#[test]
fn quiet_prints_nothing_and_the_exit_code_tells() {
    queens_with_input(&["check", "-q"], "2 4 1 3\n1 2\n3 1 4 2\n")
        .code(1)
        .stdout("")
        .stderr("");
    queens_with_input(&["check", "--quiet"], "2 4 1 3\n")
        .success()
        .stdout("");
    one_error_line(
        queens_with_input(&["check", "-q"], "2 4 1 3\n1 x\n").stdout(""),
        2,
        &["line 2"],
    );
}

#[test]
fn json_is_a_line_per_board_with_the_clash_counted_from_1() {
    let out = stdout(&queens_with_input(&["check", "--json"], "2 4 1 3\n1 2\n").code(1));
    let lines: Vec<serde_json::Value> = out
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    assert_eq!(
        lines,
        [
            serde_json::json!({
                "board": 1, "line": 1, "n": 4, "ok": true, "conflict": null, "empty_row": null,
                "unmet": null
            }),
            serde_json::json!({"board": 2, "line": 2, "n": 2, "ok": false, "conflict": {
                "first": [1, 1], "second": [2, 2], "shares": "diagonal"
            }, "empty_row": null, "unmet": null}),
        ]
    );
}

#[test]
fn files_and_dash_are_read() {
    let dir = std::env::temp_dir().join(format!("queens-check-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let good = dir.join("good.txt");
    std::fs::write(&good, "2 4 1 3\n3 1 4 2\n").unwrap();
    let bad = dir.join("bad.txt");
    std::fs::write(&bad, "2 4 1 3\n2 4 x 3\n").unwrap();
    queens(&["check", good.to_str().unwrap()])
        .success()
        .stdout(TWO_OK);
    let err = one_error_line(
        queens(&["check", bad.to_str().unwrap()]).stdout("board 1: ok\n"),
        2,
        &["bad.txt: line 2: unexpected 'x'"],
    );
    assert!(err.contains(bad.to_str().unwrap()));
    queens_with_input(&["check", "-"], "2 4 1 3\n")
        .success()
        .stdout("board 1: ok\n");
    one_error_line(
        queens(&["check", dir.join("missing.txt").to_str().unwrap()]),
        2,
        &["cannot open", "missing.txt"],
    );
    // Windows opens no folder as a file: the open fails, not the read.
    let unreadable = if cfg!(windows) {
        "cannot open"
    } else {
        "cannot read the input"
    };
    one_error_line(queens(&["check", dir.to_str().unwrap()]), 2, &[unreadable]);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn malformed_input_gets_the_line_and_exit_2() {
    let cases: &[(&[u8], &[&str])] = &[
        // Ragged rows, short boards, wrong queen counts.
        (
            b".Q..\n...Q\nQ..\n..Q.\n",
            &["line 3: row of 3 squares, but the first row of board 1 (line 1) has 4"],
        ),
        (
            b".Q..\n...Q\nQ....\n..Q.\n",
            &["line 3: row of more than 4 squares"],
        ),
        (
            b".Q..\n...Q\n\n",
            &["line 3: board 1 ends after 2 rows", "has 4 squares"],
        ),
        (
            b"2 4 1 3\n\n..Q.\nQ...\n",
            &["line 3: unexpected '.' in a line of column numbers"],
        ),
        // Unknown characters, binary garbage.
        (
            b".Q..\n...Q\nQ.x.\n..Q.\n",
            &["line 3: unexpected 'x' at column 3"],
        ),
        (
            b"Q\n\xff\xfe\x00\x01",
            &["line 2: unexpected byte 0xff at column 1"],
        ),
        (
            b"\x00\x01\x02",
            &["line 1: cannot tell the format from byte 0x00"],
        ),
        (b"hello\n", &["line 1: cannot tell the format from 'h'"]),
        // Numbers out of range or malformed.
        (
            b"2 4 1 3\n2 4 1 3 9\n",
            &["line 2: column 9 is off a board of 5 rows"],
        ),
        // Holding a 0, the line counts from 0: 4 is off the board.
        (b"2 4 0 3\n", &["line 1: column 4 is off a board of 4 rows"]),
        (b"2 4 -1 3\n", &["line 1: unexpected '-'"]),
        (b"2,,4,1,3\n", &["line 1: unexpected ','"]),
        (
            b"123456789012345678901234567890\n",
            &["line 1: column number too large"],
        ),
        // JSON lines and LeetCode arrays.
        (
            b"{\"n\":4,\"cols\":[1,3,0]}\n",
            &["line 1: \"cols\" holds 3 columns, but \"n\" is 4"],
        ),
        (
            b"{\"n\":4,\"cols\":[1,3,0,2]}\n{\"n\":4,\"cols\":[1,3,0,4]}\n",
            &["line 2: column too large: more than 3"],
        ),
        (
            b"{\"n\":4}\n",
            &["line 1: the object needs both \"n\" and \"cols\""],
        ),
        (b"{\"size\":4}\n", &["line 1: unknown key \"size\""]),
        (
            b"{\"columns\":[]}\n",
            &["line 1: unknown key starting \"colu\" then 'm'"],
        ),
        (
            b"{\"n\":4,\"cols\":[1,3,0,2]}{\"n\":4}\n",
            &["line 1: unexpected '{' after the object"],
        ),
        (
            b"[[\".Q..\",\"...Q\",\"Q...\",\"..Q.\"],[\"..Q.\",\"Q...\",\"...Q\"]]",
            &["line 1: board 2 ends after 3 rows"],
        ),
        (
            b"[[\".Q..\",\n\"...Q\",\n\"Q.x.\"",
            &["line 3: unexpected 'x' at column 4", "only 'Q' or 'q'"],
        ),
        (
            b"[[\"Q\"]] [[\"Q\"]]",
            &["unexpected '[' after the closing ']'"],
        ),
        (b"[[\"Q\"]", &["line 1: expected ',' or ']' after board 1"]),
    ];
    for (input, needles) in cases {
        one_error_line(queens_with_input(&["check"], *input), 2, needles);
    }
}

#[test]
fn boards_before_a_malformed_one_are_reported() {
    let assert = check("2 4 1 3\n1 2 3 4\n2 4 z\n");
    one_error_line(
        assert.stdout(
            "board 1: ok\nboard 2: queens at (row 1, col 1) and (row 2, col 2) share a diagonal\n",
        ),
        2,
        &["line 3: unexpected 'z'"],
    );
}

/// Feeds `head` and then up to a gigabyte of `filler` to `queens check`
/// through a pipe; returns its exit code, its stderr, and how many bytes it
/// let the writer send before it stopped reading.
fn check_a_gigabyte(head: &[u8], filler: u8) -> (Option<i32>, String, usize) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_queens"))
        .arg("check")
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let head = head.to_vec();
    let writer = thread::spawn(move || {
        let chunk = vec![filler; 1 << 20];
        let mut sent = 0;
        if stdin.write_all(&head).is_err() {
            return sent;
        }
        for _ in 0..1024 {
            // The checker exits at the first bad byte: the pipe breaks.
            if stdin.write_all(&chunk).is_err() {
                break;
            }
            sent += chunk.len();
        }
        sent
    });
    let out = child.wait_with_output().unwrap();
    let sent = writer.join().unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        sent,
    )
}

#[test]
fn a_gigabyte_line_of_garbage_is_rejected_at_its_first_bad_byte() {
    let cases: [(&[u8], u8, &str); 4] = [
        (b"2 4 1 3 ", b'x', "line 1: unexpected 'x'"),
        (b"7", b'9', "line 1: column number too large"),
        (b".Q..", b'#', "line 1: unexpected '#' at column 5"),
        (b"", 0xfe, "line 1: cannot tell the format from byte 0xfe"),
    ];
    for (head, filler, needle) in cases {
        let (code, err, sent) = check_a_gigabyte(head, filler);
        assert_eq!(code, Some(2), "{needle}: {err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(needle), "{err:?} lacks {needle:?}");
        assert!(
            sent < 32 << 20,
            "{needle}: {sent} bytes went in before the checker stopped"
        );
    }
}
