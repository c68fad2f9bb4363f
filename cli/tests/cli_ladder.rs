//! `queens ladder` and `queens count --algorithm`: every step agrees with
//! OEIS A000170, the slow steps are refused beyond a minute with the limit
//! named, and JSON names the algorithm.

use crate::common;

use common::cli::{queens, rejects, stdout};
use queens::known;
use serde_json::Value;

const ALGORITHMS: [&str; 6] = [
    "cells",
    "attack-counts",
    "scan",
    "flags",
    "bitmask",
    "parallel",
];

/// The rows of a ladder table, header dropped, as (algorithm, rest).
fn ladder_rows(n: &str) -> Vec<(String, String)> {
    let text = stdout(&queens(&["ladder", n]).success().stderr(""));
    let mut lines = text.lines();
    let header = lines.next().unwrap();
    assert!(header.starts_with(&format!("n = {n} ")));
    let columns: Vec<&str> = header.split_whitespace().skip(3).collect();
    assert_eq!(
        columns,
        ["solutions", "nodes", "time", "speed-up", "OEIS", "A000170"]
    );
    lines
        .map(|l| {
            let (name, rest) = l.split_once(' ').unwrap();
            (name.to_owned(), rest.trim().to_owned())
        })
        .collect()
}

#[test]
fn ladder_5_runs_every_step_and_all_agree() {
    let rows = ladder_rows("5");
    let names: Vec<&str> = rows.iter().map(|(name, _)| name.as_str()).collect();
    assert_eq!(names, ALGORITHMS);
    // The nodes of each tree: every subset of 25 squares for cells, OEIS
    // A319283's 54 for the row-by-row steps, the mirror half for the rest.
    let nodes = ["67108863", "54", "54", "54", "28", "28"];
    for ((name, rest), nodes) in rows.iter().zip(nodes) {
        let fields: Vec<&str> = rest.split_whitespace().collect();
        assert_eq!(fields[..2], ["10", nodes], "{name}");
        assert_eq!(fields.last(), Some(&"ok"), "{name}");
    }
    // The first step has nothing to be faster than.
    assert!(rows[0].1.contains(" - "));
    assert!(rows[1].1.contains('x'));
}

#[test]
fn ladder_9_skips_cells_and_the_rest_agree() {
    let rows = ladder_rows("9");
    assert_eq!(rows[0].0, "cells");
    assert_eq!(rows[0].1, "skipped: it cannot count boards beyond n = 8");
    for (name, rest) in &rows[1..] {
        let fields: Vec<&str> = rest.split_whitespace().collect();
        let nodes = if name.starts_with('b') || name.starts_with('p') {
            "4198"
        } else {
            "8394"
        };
        assert_eq!(fields[..2], ["352", nodes], "{name}");
        assert_eq!(fields.last(), Some(&"ok"), "{name}");
    }
    let rows = ladder_rows("7");
    assert!(
        rows[0]
            .1
            .contains("beyond n = 5 it takes longer than a minute")
    );
}

#[test]
fn count_with_every_algorithm_matches_a000170() {
    for algorithm in ALGORITHMS {
        let top = if algorithm == "cells" { 5 } else { 9 };
        let text = stdout(
            &queens(&[
                "count",
                &format!("1..{top}"),
                "--algorithm",
                algorithm,
                "-q",
            ])
            .success(),
        );
        let want: String = (1..=top)
            .map(|n| format!("{}\n", known::total(n).unwrap()))
            .collect();
        assert_eq!(text, want, "{algorithm}");
    }
    // --unique takes the total from any algorithm.
    queens(&["count", "6", "--algorithm", "scan", "--unique", "-q"])
        .success()
        .stdout("4 1\n");
}

#[test]
fn json_names_the_algorithm() {
    for (algorithm, engine) in [
        ("flags", "flags"),
        ("bitmask", "bitmask"),
        ("parallel", "mirror"),
    ] {
        let out = stdout(&queens(&["count", "8", "--algorithm", algorithm, "--json"]).success());
        let record: Value = serde_json::from_str(&out).unwrap();
        assert_eq!(record["engine"], engine);
        assert_eq!(record["solutions"], 92);
        assert_eq!(record["matches_known"], true);
        if algorithm == "flags" {
            assert_eq!(record["threads"], 1);
            assert!(record["units"].is_null() && record["split_depth"].is_null());
        } else {
            assert!(record["units"].as_u64().unwrap() > 0);
        }
    }
}

#[test]
fn slow_algorithms_are_refused_with_their_limit() {
    rejects(
        &["count", "6", "--algorithm", "cells"],
        &[
            "--algorithm cells is limited to n <= 5",
            "n = 6 would take longer than a minute",
            "--force",
        ],
    );
    rejects(
        &["count", "4..16", "--algorithm", "flags"],
        &["--algorithm flags is limited to n <= 15", "n = 16"],
    );
    rejects(
        &["count", "9", "--algorithm", "cells", "--force"],
        &["--algorithm cells handles boards up to n = 8", "64 bits"],
    );
    rejects(
        &["count", "8", "--algorithm", "quantum"],
        &[
            "invalid value 'quantum' for '--algorithm <NAME>'",
            "attack-counts",
        ],
    );
    rejects(
        &["ladder"],
        &["missing board size N, from 1 to 32", "queens ladder 8"],
    );
    rejects(&["ladder", "0"], &["board size 0 is out of range"]);
    rejects(&["ladder", "33"], &["board size 33 is out of range"]);
}
