//! `queens bench`: the table, the JSON shape, the warnings, the exports
//! and the plot on a small workload (well under a second), bad thread
//! lists, and a wrong count failing the benchmark.

use std::path::Path;

use serde_json::Value;

use crate::common::cli::{one_error_line, queens, rejects, stdout};

/// What the command wrote on stderr.
fn stderr(assert: &assert_cmd::assert::Assert) -> String {
    String::from_utf8(assert.get_output().stderr.clone()).unwrap()
}

/// The logical CPUs this process may use, as `bench` counts them.
fn logical_cpus() -> usize {
    std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
}

#[test]
fn the_table_has_the_machine_a_row_per_thread_count_and_no_score_for_a_custom_n() {
    let text = stdout(&queens(&["bench", "11", "--threads", "1,2", "--runs", "2"]).success());
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[0].starts_with("queens ") && lines[0].contains("workload custom: mirror n = 11"));
    assert!(lines[1].starts_with("machine: ") && lines[1].contains("logical CPUs"));
    assert!(lines[1].contains("kernel ") && lines[1].contains("join matcher "));
    let header = lines.iter().position(|l| l.contains("median (s)")).unwrap();
    let row = |i: usize| lines[header + i].split_whitespace().collect::<Vec<_>>();
    assert_eq!((row(1)[0], row(1)[3], row(1)[4]), ("1", "1.00x", "100%"));
    assert_eq!(row(2)[0], "2");
    // See: issue 35 (a score in units/s printed for a custom workload,
    // which compares with nothing).
    assert_eq!(
        lines.last(),
        Some(&lines[header + 2]),
        "the table ends it: {text}"
    );
    assert!(!text.contains("score"), "{text}");
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
    assert_eq!(report["runs"], 1);
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
            "mean_secs",
        ] {
            assert!(row[field].as_f64().unwrap() > 0.0, "{field}: {row}");
        }
        let times = row["times_secs"].as_array().unwrap();
        assert_eq!(times.len(), 1, "{row}");
        assert_eq!(times[0], row["median_secs"]);
        assert!(
            row["stddev_secs"].is_null(),
            "one run has no deviation: {row}"
        );
    }
    assert!(report["score"].is_null(), "a custom workload has no score");
    assert!(report["warnings"].is_array());
    assert!(report["commit"].is_string() && report["version"].is_string());
}

#[test]
fn json_rows_have_every_runs_time_and_their_statistics() {
    let out =
        stdout(&queens(&["bench", "10", "--threads", "1", "--runs", "4", "--json"]).success());
    let report: Value = serde_json::from_str(&out).unwrap();
    let row = &report["rows"][0];
    let times: Vec<f64> = (row["times_secs"].as_array().unwrap().iter())
        .map(|t| t.as_f64().unwrap())
        .collect();
    assert_eq!(times.len(), 4);
    let secs = |field: &str| row[field].as_f64().unwrap();
    let mean = times.iter().sum::<f64>() / 4.0;
    assert!((secs("mean_secs") - mean).abs() < 1e-12, "{row}");
    let variance = times.iter().map(|t| (t - mean).powi(2)).sum::<f64>() / 3.0;
    assert!(
        (secs("stddev_secs") - variance.sqrt()).abs() < 1e-12,
        "{row}"
    );
    let mut sorted = times.clone();
    sorted.sort_by(f64::total_cmp);
    assert!((secs("median_secs") - (sorted[1] + sorted[2]) / 2.0).abs() < 1e-12);
    assert_eq!((secs("min_secs"), secs("max_secs")), (sorted[0], sorted[3]));
}

#[test]
fn warnings_go_to_stderr_one_line_each_and_into_the_json() {
    // See: issue 35 (`bench 14 --threads 1,2,4,8,16` on 2 CPUs: 9 ms
    // runs, more threads than CPUs, and not one warning).
    let cpus = logical_cpus();
    let over = (cpus + 1).to_string();
    let list = format!("1,{over}");
    let args = ["bench", "8", "--threads", &list, "--runs", "1"];
    let human = queens(&args).success();
    let err = stderr(&human);
    let lines: Vec<&str> = err.lines().collect();
    assert!(
        lines.iter().all(|l| l.starts_with("queens: warning: ")),
        "{err}"
    );
    assert!(
        lines.iter().any(|l| l.starts_with(
            "queens: warning: runs at 1 and {over} threads took less than 20 ms (median)"
                .replace("{over}", &over)
                .as_str()
        )),
        "{err}"
    );
    let more = format!("queens: warning: {over} threads is more than the {cpus} logical CPUs");
    assert!(lines.iter().any(|l| l.starts_with(&more)), "{err}");
    assert!(!stdout(&human).contains("warning"));

    let json = queens(&[&args[..], &["--json"]].concat()).success();
    let report: Value = serde_json::from_str(&stdout(&json)).unwrap();
    let warnings: Vec<&str> = (report["warnings"].as_array().unwrap().iter())
        .map(|w| w.as_str().unwrap())
        .collect();
    assert!(
        warnings.iter().any(|w| w.starts_with("runs at 1 and")),
        "{warnings:?}"
    );
    assert!(
        warnings
            .iter()
            .any(|w| more.ends_with(w.split(':').next().unwrap())),
        "{warnings:?}"
    );
    // The same lines on stderr, prefixed.
    let prefixed: Vec<String> = warnings
        .iter()
        .map(|w| format!("queens: warning: {w}"))
        .collect();
    assert_eq!(stderr(&json).lines().collect::<Vec<_>>(), prefixed);
}

#[test]
fn exports_are_csv_and_markdown_tables_of_the_rows() {
    let dir = tempfile::tempdir().unwrap();
    let (csv, md) = (dir.path().join("rows.csv"), dir.path().join("rows.md"));
    queens(&[
        "bench",
        "9",
        "--threads",
        "2,1",
        "--runs",
        "2",
        "--export-csv",
        csv.to_str().unwrap(),
        "--export-markdown",
        md.to_str().unwrap(),
    ])
    .success();
    let text = std::fs::read_to_string(&csv).unwrap();
    let mut lines = text.lines();
    assert_eq!(
        lines.next(),
        Some("threads,mean_secs,stddev_secs,median_secs,min_secs,max_secs,speedup,efficiency")
    );
    let rows: Vec<Vec<f64>> = lines
        .map(|l| l.split(',').map(|f| f.parse().unwrap()).collect())
        .collect();
    assert_eq!(rows.iter().map(|r| r[0]).collect::<Vec<_>>(), [2.0, 1.0]);
    for row in &rows {
        assert_eq!(row.len(), 8);
        let (mean, median, min, max) = (row[1], row[3], row[4], row[5]);
        assert!(
            min <= median && median <= max && min <= mean && mean <= max,
            "{row:?}"
        );
    }
    assert!((rows[1][6] - 1.0).abs() < 1e-12, "1 thread is the base");

    let table = std::fs::read_to_string(&md).unwrap();
    let lines: Vec<&str> = table.lines().collect();
    assert_eq!(lines.len(), 4, "{table}");
    assert!(lines[0].starts_with("| Threads | Mean ["), "{table}");
    assert!(lines[1].starts_with("|---:|"), "{table}");
    let cells = |line: &str| line.trim_matches('|').split('|').map(str::trim).count();
    assert!(lines.iter().all(|l| cells(l) == 7), "{table}");
    assert!(
        lines[2].starts_with("| 2 | ") && lines[2].contains(" ± "),
        "{table}"
    );
    assert!(lines[3].starts_with("| 1 | ") && lines[3].contains("| 1.00x | 100% |"));
}

#[test]
fn exports_are_written_as_other_outputs_are_and_never_onto_each_other() {
    let dir = tempfile::tempdir().unwrap();
    let same = dir.path().join("same");
    let same = same.to_str().unwrap();
    rejects(
        &[
            "bench",
            "8",
            "--threads",
            "1",
            "--export-csv",
            same,
            "--export-markdown",
            same,
        ],
        &["--export-markdown", "names the same file as --export-csv"],
    );
    rejects(
        &[
            "bench",
            "8",
            "--threads",
            "1",
            "--svg",
            same,
            "--export-csv",
            same,
        ],
        &["--export-csv", "names the same file as --svg"],
    );
    assert!(!Path::new(same).exists(), "nothing is written when refused");
    rejects(
        &["bench", "8", "--export-csv", dir.path().to_str().unwrap()],
        &["--export-csv", "is a directory"],
    );
    // A device is written as `>` would.
    #[cfg(unix)]
    let out = queens(&[
        "bench",
        "8",
        "--threads",
        "1",
        "--runs",
        "1",
        "--export-markdown",
        "/dev/stdout",
    ])
    .success();
    #[cfg(unix)]
    assert!(stdout(&out).contains("| Threads | Mean ["));
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

/// The SVG's text elements: their attributes and their text.
fn svg_texts(svg: &str) -> Vec<(String, String)> {
    svg.split("<text")
        .skip(1)
        .map(|element| {
            let (attributes, rest) = element.split_once('>').unwrap();
            let content = rest.split("</text>").next().unwrap().trim();
            (attributes.to_string(), content.to_string())
        })
        .collect()
}

/// The value of attribute `name` in `attributes`.
fn attribute<'a>(attributes: &'a str, name: &str) -> &'a str {
    let start = attributes.find(&format!(" {name}=\"")).unwrap() + name.len() + 3;
    attributes[start..].split('"').next().unwrap()
}

#[test]
fn the_plot_has_whole_thread_ticks_from_1_the_ideal_up_to_the_cpus_and_n_in_its_title() {
    // See: issue 35 (ticks 0.0, 2.0, ..., 16.0; an ideal line to 16 on 2
    // CPUs; a title that said "custom").
    let dir = tempfile::tempdir().unwrap();
    let svg = dir.path().join("plot.svg");
    queens(&[
        "bench",
        "9",
        "--threads",
        "1,3,2",
        "--runs",
        "1",
        "--svg",
        svg.to_str().unwrap(),
    ])
    .success();
    let text = std::fs::read_to_string(&svg).unwrap();
    let texts = svg_texts(&text);
    // The x axis's labels: centred, on one line, under the plot; the
    // y axis's stand in a column, right-aligned.
    let mut rows: std::collections::BTreeMap<String, Vec<String>> = Default::default();
    for (attributes, content) in &texts {
        if attribute(attributes, "text-anchor") == "middle" && content.parse::<f64>().is_ok() {
            rows.entry(attribute(attributes, "y").to_string())
                .or_default()
                .push(content.clone());
        }
    }
    let ticks = rows.values().max_by_key(|labels| labels.len()).unwrap();
    assert_eq!(ticks, &["1", "2", "3"], "{rows:?}");
    let title = &texts[0].1;
    assert!(title.contains("mirror n = 9"), "{title}");
    let cpus = logical_cpus();
    assert!(
        (texts.iter()).any(|(_, t)| *t == format!("ideal, up to the {cpus} logical CPUs")),
        "{texts:?}"
    );
    // A min-max bar per thread count: a blue stem and two whiskers.
    let blue_lines = (text.split('<'))
        .filter(|e| e.starts_with("line ") && e.contains("stroke=\"#0000FF\""))
        .count();
    assert_eq!(blue_lines, 3 * 3, "{text}");
    // The ideal line runs from the tick of 1 to that of the logical CPUs
    // (or of 3, the most measured, on a bigger machine).
    let tick_x = |label: &str| {
        let (attributes, _) = (texts.iter())
            .find(|(a, t)| t == label && attribute(a, "text-anchor") == "middle")
            .unwrap();
        attribute(attributes, "x").parse::<i64>().unwrap()
    };
    if cpus == 1 {
        return; // The ideal line is the point (1, 1).
    }
    let ideal_to = cpus.min(3).to_string();
    let ideal = (text.split("<polyline").skip(1))
        .filter(|e| e.contains("stroke=\"#000000\""))
        .map(|e| {
            let xs: Vec<i64> = (attribute(e, "points").split_whitespace())
                .map(|p| p.split(',').next().unwrap().parse().unwrap())
                .collect();
            (xs[0], *xs.last().unwrap())
        })
        .find(|&(from, to)| (from - tick_x("1")).abs() <= 1 && to > from)
        .unwrap_or_else(|| panic!("no ideal line: {text}"));
    assert!(
        (ideal.1 - tick_x(&ideal_to)).abs() <= 1,
        "{ideal:?}, to {ideal_to}"
    );
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
    let row = report.lines().last().unwrap();
    let rate: f64 = row.split_whitespace().last().unwrap().parse().unwrap();
    assert!(row.starts_with("      1 ") && rate > 0.0, "{row}");
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
            "--engine constellations for n = 29, the default for it",
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
