//! The `queens` binary as a user meets it: output, JSON, exit codes, and one
//! clear line for every kind of bad input.

use assert_cmd::cargo::cargo_bin_cmd;

use crate::common::cli::{one_error_line, queens, rejects};
use predicates::prelude::*;
use queens::known;
use serde_json::Value;

#[test]
fn bad_board_sizes_name_the_problem_and_the_range() {
    rejects(&["count"], &["missing board size", "1 <= A <= B <= 32"]);
    rejects(
        &["count", "0"],
        &["board size 0 is out of range", "between 1 and 32"],
    );
    rejects(
        &["count", "-3"],
        &["board size -3 is out of range", "between 1 and 32"],
    );
    rejects(
        &["count", "33"],
        &["board size 33 is out of range", "between 1 and 32"],
    );
    rejects(
        &["count", "99999999999999999999"],
        &["not a board size", "1 <= A <= B <= 32"],
    );
    rejects(
        &["count", "twelve"],
        &["'twelve' is not a board size", "N or A..B"],
    );
    rejects(&["count", "12.5"], &["not a board size"]);
}

#[test]
fn bad_ranges_show_the_syntax() {
    rejects(&["count", "16..8"], &["range 16..8 is empty", "N or A..B"]);
    rejects(&["count", "8.."], &["not a board size", "N or A..B"]);
    rejects(&["count", "..8"], &["not a board size", "N or A..B"]);
    rejects(&["count", "8-16"], &["not a board size", "N or A..B"]);
    rejects(&["count", "0..5"], &["board size 0 is out of range"]);
    rejects(&["count", "5..40"], &["board size 40 is out of range"]);
}

#[test]
fn bad_flags_are_refused() {
    rejects(
        &["count", "8", "--threads", "0"],
        &["--threads", "0 is out of range", "between 1 and 4096"],
    );
    rejects(
        &["count", "8", "-j", "100000"],
        &["100000 is out of range", "between 1 and 4096"],
    );
    rejects(&["count", "8", "-j", "many"], &["'many' is not a number"]);
    rejects(
        &["count", "8", "--split-depth", "0"],
        &["--split-depth: ", "from 1 to 6"],
    );
    rejects(
        &["count", "8", "--split-depth", "7"],
        &["--split-depth: ", "from 1 to 6"],
    );
    rejects(
        &["count", "8", "--frobnicate"],
        &["unexpected argument '--frobnicate'"],
    );
    rejects(&["frobnicate"], &["unrecognized subcommand"]);
}

#[test]
fn human_output_is_a_table_with_a_verdict() {
    queens(&["count", "8", "-j", "2"])
        .success()
        .stdout(predicate::str::contains("solutions"))
        .stdout(predicate::str::is_match(r"(?m)^\s+8\s+92\s+.*\s2\s+ok$").unwrap())
        .stderr("");
}

#[test]
fn quiet_prints_only_the_counts() {
    queens(&["count", "4..=7", "-q"])
        .success()
        .stdout("2\n10\n4\n40\n");
    queens(&["count", "4..7", "-q"])
        .success()
        .stdout("2\n10\n4\n40\n");
}

#[test]
fn ranges_count_every_size_in_order() {
    let out = queens(&["count", "1..12"])
        .success()
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(out).unwrap();
    let rows: Vec<&str> = text.lines().skip(1).collect();
    assert_eq!(rows.len(), 12);
    for (row, n) in rows.iter().zip(1..) {
        let fields: Vec<&str> = row.split_whitespace().collect();
        assert_eq!(fields[0], n.to_string());
        assert_eq!(fields[1], known::total(n).unwrap().to_string());
        assert_eq!(fields.last(), Some(&"ok"));
    }
}

#[test]
fn json_lines_carry_every_documented_field() {
    let out = queens(&["count", "9..10", "--json", "-j", "3", "--split-depth", "3"])
        .success()
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(out).unwrap();
    let records: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(records.len(), 2);
    for (record, (n, total)) in records.iter().zip([(9, 352), (10, 724)]) {
        assert_eq!(record["n"], n);
        assert_eq!(record["solutions"], total);
        assert_eq!(record["known"], total);
        assert_eq!(record["matches_known"], true);
        assert_eq!(record["threads"], 3);
        assert_eq!(record["split_depth"], 3);
        assert!(record["units"].as_u64().unwrap() > 0);
        assert!(record["elapsed_secs"].as_f64().unwrap() >= 0.0);
        assert_eq!(record["version"], env!("CARGO_PKG_VERSION"));
        assert_eq!(record["engine"], "mirror");
    }
}

#[test]
fn rayon_num_threads_sets_the_default_pool() {
    let out = cargo_bin_cmd!("queens")
        .args(["count", "6", "--json"])
        .env("RAYON_NUM_THREADS", "5")
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let record: Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(record["threads"], 5);
}

#[test]
fn rayon_num_threads_obeys_the_rules_of_threads_in_every_command_with_a_pool() {
    // See: issue 20 (5000 got past the cap of 4096; garbage was ignored).
    let commands: [&[&str]; 5] = [
        &["count", "12"],
        &["list", "6"],
        &["ladder", "6"],
        &["bench", "8", "--runs", "1"],
        &["verify", "nowhere", "--sample", "1%"],
    ];
    for args in commands {
        for (value, needle) in [
            ("5000", "5000 is out of range"),
            ("0", "0 is out of range"),
            ("many", "'many' is not a number"),
        ] {
            let assert = cargo_bin_cmd!("queens")
                .args(args)
                .env("RAYON_NUM_THREADS", value)
                .assert()
                .stdout("");
            one_error_line(
                assert,
                2,
                &["RAYON_NUM_THREADS: ", needle, "between 1 and 4096"],
            );
        }
    }
    // --threads wins over the variable, which is then not read.
    cargo_bin_cmd!("queens")
        .args(["count", "6", "-j", "2", "-q"])
        .env("RAYON_NUM_THREADS", "5000")
        .assert()
        .success()
        .stdout("4\n");
}

#[test]
fn help_and_version_succeed() {
    queens(&["--help"])
        .success()
        .stdout(predicate::str::contains("count"));
    queens(&["count", "--help"])
        .success()
        .stdout(predicate::str::contains("--split-depth"));
    queens(&["--version"])
        .success()
        .stdout(predicate::str::contains(env!("CARGO_PKG_VERSION")));
}

#[test]
fn version_says_the_commit_the_gpu_executor_and_the_code_paths() {
    // See: issue 35, item 4 (`--version` showed neither the commit nor
    // whether the GPU executor was built in).
    // Mesa's Vulkan driver, asked for the GPU, complains on stderr where
    // XDG_RUNTIME_DIR is unset; queens itself says nothing there.
    let runtime = tempfile::TempDir::new().unwrap();
    let out = assert_cmd::cargo::cargo_bin_cmd!("queens")
        .arg("--version")
        .env("XDG_RUNTIME_DIR", runtime.path())
        .assert()
        .success()
        .stderr("");
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let gpu = if queens::GPU_EXECUTOR {
        format!(
            "GPU executor: built in: {} (count --gpu)",
            queens::GPU_EXECUTORS.join(", ")
        )
    } else {
        "GPU executor: not built in (cargo install --features gpu builds it)".to_owned()
    };
    assert_eq!(
        lines[..3],
        [
            format!("queens {}", env!("CARGO_PKG_VERSION")).as_str(),
            format!("commit: {}", env!("QUEENS_COMMIT")).as_str(),
            gpu.as_str()
        ],
        "{text}"
    );
    // With an executor built in, the next line names the GPU it would
    // count on, or says why there is none.
    let rest = if queens::GPU_EXECUTOR {
        let found = queens::find_gpu(queens::GpuBackend::Auto);
        let line = lines[3]
            .strip_prefix("GPU: ")
            .unwrap_or_else(|| panic!("{text}"));
        match found {
            Ok(name) => assert_eq!(line, name, "{text}"),
            Err(_) => assert!(line.starts_with("none ("), "{text}"),
        }
        &lines[4..]
    } else {
        &lines[3..]
    };
    let paths = rest[0]
        .strip_prefix("code paths on this CPU: kernel ")
        .unwrap_or_else(|| panic!("{text}"));
    let (kernel, matcher) = paths.split_once(", join matcher ").unwrap();
    assert!(["bmi1+popcnt", "portable"].contains(&kernel), "{text}");
    assert!(
        ["avx512+vbmi", "avx512", "avx2", "portable"].contains(&matcher),
        "{text}"
    );
    assert_eq!(rest.len(), 1, "{text}");
    // `-V` is the first line alone.
    queens(&["-V"])
        .success()
        .stdout(format!("queens {}\n", env!("CARGO_PKG_VERSION")));
}

#[test]
fn unique_adds_the_classes_to_json() {
    let out = queens(&["count", "8..=9", "--unique", "--json"])
        .success()
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(out).unwrap();
    let records: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(records[0]["unique"], 12);
    assert_eq!(records[0]["classes"]["none"], 11);
    assert_eq!(records[0]["classes"]["rotation_180"], 1);
    assert_eq!(records[0]["classes"]["rotation_90"], 0);
    assert_eq!(records[0]["half_turn_symmetric"], 4);
    assert_eq!(records[0]["quarter_turn_symmetric"], 0);
    assert_eq!(records[0]["known_unique"], 12);
    assert_eq!(records[0]["matches_known_unique"], true);
    assert_eq!(records[1]["unique"], 46);
    assert_eq!(records[1]["matches_known_unique"], true);
}

#[test]
fn json_without_unique_has_no_unique_fields() {
    let out = queens(&["count", "8", "--json"])
        .success()
        .get_output()
        .stdout
        .clone();
    let record: Value = serde_json::from_slice(&out).unwrap();
    assert!(record.get("unique").is_none());
    assert!(record.get("classes").is_none());
}

#[test]
fn unique_reproduces_both_oeis_columns() {
    let out = queens(&["count", "1..12", "--unique", "-q"])
        .success()
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(out).unwrap();
    for (line, n) in text.lines().zip(1..) {
        let want = format!("{} {}", known::total(n).unwrap(), known::unique(n).unwrap());
        assert_eq!(line, want, "n = {n}");
    }
    queens(&["count", "4", "--unique"])
        .success()
        .stdout(predicate::str::contains("ok, unique ok"));
}

#[test]
fn engines_can_be_chosen_and_cross_checked() {
    let out = queens(&["count", "6..=13", "--cross-check", "--json"])
        .success()
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(out).unwrap();
    for (line, n) in text.lines().zip(6..) {
        let record: Value = serde_json::from_str(line).unwrap();
        assert_eq!(record["n"], n);
        assert_eq!(record["cross_check"]["agrees"], true, "{line}");
        assert_ne!(record["cross_check"]["engine"], record["engine"], "{line}");
    }
    let out = queens(&["count", "12", "--engine", "mirror", "--json"])
        .success()
        .get_output()
        .stdout
        .clone();
    let record: Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(
        (record["engine"].as_str(), record["split_depth"].as_u64()),
        (Some("mirror"), Some(2))
    );
    let out = queens(&["count", "12", "--engine", "join", "--json"])
        .success()
        .get_output()
        .stdout
        .clone();
    let record: Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(record["engine"], "join");
    assert!(record["split_depth"].is_null());
    assert_eq!(record["solutions"], 14200);
}

#[test]
fn the_join_refuses_sizes_it_does_not_cover() {
    rejects(
        &["count", "3", "--engine", "join"],
        &["join engine counts 4 <= n <= 28", "--engine mirror"],
    );
    rejects(
        &["count", "20..29", "--engine", "join"],
        &["4 <= n <= 28", "n = 29"],
    );
    rejects(
        &["count", "8", "--engine", "fast"],
        &["invalid value 'fast'", "--engine"],
    );
}

#[test]
fn split_depth_is_refused_where_nothing_splits() {
    // See: issue 20 (the join ignored --split-depth in silence).
    rejects(
        &["count", "14", "--engine", "join", "--split-depth", "3"],
        &["--split-depth applies to the mirror engine only, not join"],
    );
    rejects(
        &["count", "14", "--split-depth", "3"],
        &[
            "n = 14 is counted by the join engine",
            "12 <= n <= 28",
            "--engine mirror",
        ],
    );
    rejects(
        &["count", "8..12", "--split-depth", "3"],
        &["n = 12 is counted by the join engine"],
    );
    rejects(
        &["count", "12", "--shard", "0/2", "--split-depth", "3"],
        &["n = 12 is counted by the join engine"],
    );
    rejects(
        &["count", "8", "--algorithm", "flags", "--split-depth", "3"],
        &["--algorithm bitmask and parallel only, not flags"],
    );
    for counted in [
        &["count", "8..11", "--split-depth", "3", "-q"][..],
        &[
            "count",
            "14",
            "--engine",
            "mirror",
            "--split-depth",
            "3",
            "-q",
        ],
        &[
            "count",
            "9",
            "--algorithm",
            "bitmask",
            "--split-depth",
            "3",
            "-q",
        ],
    ] {
        queens(counted).success();
    }
}

#[test]
fn units_of_an_empty_plan_are_refused_as_such() {
    // See: issue 20 (n = 2 "has units 0 to 0").
    rejects(
        &["count", "2", "--units", "0"],
        &[
            "unit 0 is not in the plan",
            "has no units",
            "n = 2 has no solution",
        ],
    );
    rejects(
        &["count", "4", "--units", "3"],
        &["unit 3 is not in the plan", "has units 0 to 2"],
    );
}

#[test]
fn a_missing_argument_is_named_for_what_is_missing() {
    // See: issue 20 (everything missing was "missing board size N").
    rejects(
        &["merge"],
        &["missing the shard results", "'queens merge results/'"],
    );
    // --sample has a default (see: issue 35), so only the files can be
    // missing.
    for args in [&["verify"][..], &["verify", "--sample", "1%"]] {
        rejects(
            args,
            &["missing the shard results", "'queens verify results/'"],
        );
    }
    rejects(
        &["count", "12", "--out-dir", "x"],
        &["--out-dir needs --shard I/K", "--shard 0/64 --out-dir"],
    );
    rejects(
        &["bench", "--engine", "join"],
        &[
            "--engine needs a board size N, from 4 to 27",
            "'queens bench 16 --engine mirror'",
        ],
    );
    for args in [
        &["merge"][..],
        &["verify", "x"],
        &["count", "12", "--out-dir", "x"],
    ] {
        let err = one_error_line(queens(args), 2, &[]);
        assert!(!err.contains("board size"), "{args:?}: {err}");
    }
}

#[test]
fn cross_check_without_a_second_engine_warns_and_counts() {
    queens(&["count", "3", "--cross-check"])
        .success()
        .stderr(predicate::str::contains("not cross-checked"));
}

#[test]
fn algorithm_and_engine_are_one_choice() {
    rejects(
        &["count", "8", "--algorithm", "flags", "--engine", "join"],
        &["--algorithm", "--engine"],
    );
    let out = queens(&[
        "count",
        "9",
        "--algorithm",
        "flags",
        "--cross-check",
        "--json",
    ])
    .success()
    .get_output()
    .stdout
    .clone();
    let record: Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(record["engine"], "flags");
    assert_eq!(record["cross_check"]["engine"], "constellations");
    assert_eq!(record["cross_check"]["agrees"], true);
    let out = queens(&["count", "14", "--algorithm", "parallel", "--json"])
        .success()
        .get_output()
        .stdout
        .clone();
    let record: Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(
        record["engine"], "mirror",
        "the last step of the ladder is the mirror engine"
    );
}
