//! `queens bench`: the table, the JSON shape and the plot on a small
//! workload (well under a second), bad thread lists, and a wrong count
//! failing the benchmark.

use serde_json::Value;

use crate::common::cli::{one_error_line, queens, rejects, stdout};

#[test]
fn the_table_has_the_machine_a_row_per_thread_count_and_a_score() {
    let text = stdout(&queens(&["bench", "11", "--threads", "1,2", "--runs", "2"]).success());
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[0].starts_with("queens ") && lines[0].contains("workload custom: mirror n = 11"));
    assert!(lines[1].starts_with("machine: ") && lines[1].contains("logical CPUs"));
    assert!(lines[1].contains("kernel ") && lines[1].contains("join matcher "));
    let header = lines.iter().position(|l| l.contains("median (s)")).unwrap();
    let row = |i: usize| lines[header + i].split_whitespace().collect::<Vec<_>>();
    assert_eq!((row(1)[0], row(1)[3], row(1)[4]), ("1", "1.00x", "100%"));
    assert_eq!(row(2)[0], "2");
    assert!(
        text.lines().last().unwrap().starts_with("score: "),
        "{text}"
    );
}

#[test]
fn json_is_one_object_with_machine_workload_rows_and_score() {
    let out = stdout(
        &queens(&[
            "bench",
            "12",
            "--engine",
            "mirror",
            "--threads",
            "2,1",
            "--runs",
            "1",
            "--json",
        ])
        .success(),
    );
    assert_eq!(out.lines().count(), 1);
    let report: Value = serde_json::from_str(&out).unwrap();
    assert!(report["machine"]["logical_cpus"].as_u64().unwrap() >= 1);
    assert!(report["machine"]["cpu"].is_string());
    assert_eq!(report["workload"]["name"], "custom");
    assert_eq!(report["workload"]["counts"][0][0], "mirror");
    assert_eq!(report["workload"]["solutions"], 14_200);
    let rows = report["rows"].as_array().unwrap();
    assert_eq!(
        rows.iter()
            .map(|r| r["threads"].as_u64().unwrap())
            .collect::<Vec<_>>(),
        [2, 1]
    );
    for row in rows {
        for field in [
            "median_secs",
            "min_secs",
            "max_secs",
            "speedup",
            "efficiency",
            "solutions_per_sec",
        ] {
            assert!(row[field].as_f64().unwrap() > 0.0, "{field}: {row}");
        }
    }
    assert!(report["score"].as_f64().unwrap() > 0.0);
    assert!(report["commit"].is_string() && report["version"].is_string());
}

#[test]
fn the_plot_is_an_svg_of_speed_up_against_threads() {
    let dir = tempfile::tempdir().unwrap();
    let svg = dir.path().join("speedup.svg");
    queens(&[
        "bench",
        "10",
        "--threads",
        "1,2",
        "--runs",
        "1",
        "--svg",
        svg.to_str().unwrap(),
    ])
    .success();
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(text.starts_with("<svg"), "{}", &text[..40.min(text.len())]);
    for needle in ["threads", "speed-up over 1 thread", "ideal", "measured"] {
        assert!(text.contains(needle), "the plot lacks {needle:?}");
    }
}

#[test]
fn bad_thread_lists_and_runs_are_refused() {
    rejects(
        &["bench", "--threads", "0"],
        &["0 is out of range", "1,2,8"],
    );
    rejects(&["bench", "--threads", "1,,2"], &["is not a number"]);
    rejects(&["bench", "--threads", "two"], &["'two' is not a number"]);
    rejects(&["bench", "--threads", "5000"], &["between 1 and 4096"]);
    rejects(&["bench", "--runs", "0"], &["--runs"]);
    rejects(&["bench", "33"], &["board size 33 is out of range"]);
    rejects(
        &["bench", "28", "--threads", "1"],
        &[
            "board size 28 is out of range",
            "from 4 to 27",
            "no published total",
        ],
    );
    // See: issue 20 (two rows for one thread count).
    rejects(
        &["bench", "8", "--threads", "1,2,1"],
        &["thread count 1 is listed more than once", "each count once"],
    );
}

#[test]
fn boards_without_work_to_time_are_refused() {
    // See: issue 20 (`bench 2` scored 0.0: n = 2 has no unit, no solution).
    for n in ["1", "2", "3"] {
        rejects(
            &["bench", n],
            &[&format!("board size {n} is out of range"), "from 4 to 27"],
        );
    }
    let report = stdout(&queens(&["bench", "4", "--threads", "1", "--runs", "1"]).success());
    let score = report.lines().last().unwrap();
    assert!(!score.starts_with("score: 0.0 "), "{score}");
}

#[test]
fn an_engine_that_does_not_cover_n_is_refused_as_count_refuses_it() {
    // See: issue 20 (bench exited 1 where count exits 2). Every engine
    // covers bench's range (4 to 27), so past it bench refuses the size
    // and count the engine, both with exit 2. (The join's cross-check
    // stages, which stop at 24, are no engines since issue 34.)
    rejects(
        &["bench", "29", "--engine", "join"],
        &["board size 29 is out of range", "from 4 to 27"],
    );
    rejects(
        &["count", "29", "--engine", "join"],
        &[
            "the join engine counts 4 <= n <= 28 only",
            "--engine mirror for n = 29",
        ],
    );
    for stage in ["join-unequal", "join-reference", "join-sliced"] {
        let refusal = format!("invalid value '{stage}' for '--engine <ENGINE>'");
        queens(&["count", "12", "--engine", stage])
            .code(2)
            .stdout("")
            .stderr(predicates::str::contains(refusal));
    }
}

#[test]
fn a_wrong_count_fails_the_bench_with_exit_3() {
    crate::common::needs_test_hooks();
    let assert = assert_cmd::Command::new(env!("CARGO_BIN_EXE_queens"))
        .args(["bench", "10", "--threads", "1", "--runs", "1"])
        .env("QUEENS_TEST_BENCH_WRONG", "1")
        .assert();
    one_error_line(
        assert.stdout(""),
        3,
        &["MISMATCH for n = 10", "counted 725", "724"],
    );
}
