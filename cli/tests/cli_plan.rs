//! `queens plan` and `queens count --units`: the plan a count runs, and
//! recounting any of its units, as a user reproducing a published run
//! would.

use serde_json::Value;

use crate::common::cli::{one_error_line, queens, rejects, stdout};

fn json_lines(args: &[&str]) -> Vec<Value> {
    stdout(&queens(args).success())
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn plan_summary_and_units_agree() {
    let summary = &json_lines(&["plan", "13", "--json"])[0];
    assert_eq!(summary["n"], 13);
    assert_eq!(summary["engine"], "join", "the engine count would use");
    assert!(summary["split_depth"].is_null());
    let hash = summary["plan"].as_str().unwrap();
    assert!(
        hash.starts_with("sha256:") && hash.len() == 7 + 64,
        "{hash}"
    );

    let units = json_lines(&["plan", "13", "--units"]);
    assert_eq!(summary["units"], units.len());
    let cost: u64 = units.iter().map(|u| u["cost"].as_u64().unwrap()).sum();
    assert_eq!(summary["cost"], cost);
    for (i, unit) in units.iter().enumerate() {
        assert_eq!(unit["id"], i);
        let d = unit["descriptor"].as_str().unwrap();
        assert!(d.contains("rowset:0x"), "{d}");
    }

    let human = stdout(&queens(&["plan", "13"]).success());
    assert!(human.contains(hash), "{human}");
    assert!(
        human.contains(&format!("units    {}", units.len())),
        "{human}"
    );
}

#[test]
fn plan_shows_the_mirror_split() {
    let human =
        stdout(&queens(&["plan", "12", "--engine", "mirror", "--split-depth", "3"]).success());
    assert!(
        human.contains("engine   mirror (units fix 3 rows)"),
        "{human}"
    );
    let units = json_lines(&["plan", "9", "--engine", "mirror", "--units"]);
    assert_eq!(units[0]["descriptor"], "rows:0,2");
}

#[test]
fn count_reports_the_plan_it_ran() {
    let plan = &json_lines(&["plan", "12", "--engine", "mirror", "--json"])[0];
    let count = &json_lines(&["count", "12", "--engine", "mirror", "--json"])[0];
    assert_eq!(count["plan"], plan["plan"]);
    assert_eq!(count["units"], plan["units"]);
}

/// Every unit of a plan, recounted in three separate runs, adds up to the
/// total: how anyone re-counts a published run.
#[test]
fn recounting_every_unit_in_pieces_gives_the_total() {
    let units = json_lines(&["plan", "14", "--units"]).len();
    let pieces = [
        format!("0-{}", units / 3),
        format!("{}-{}", units / 3 + 1, units - 2),
        format!("{}", units - 1),
    ];
    let mut total = 0;
    let mut seen = Vec::new();
    for piece in &pieces {
        let record = &json_lines(&["count", "14", "--units", piece, "--json"])[0];
        assert!(record["matches_known"].is_null(), "a subset is not a total");
        let mut sum = 0;
        for pair in record["units"].as_array().unwrap() {
            seen.push(pair[0].as_u64().unwrap());
            sum += pair[1].as_u64().unwrap();
        }
        assert_eq!(record["solutions"], sum);
        total += sum;
    }
    assert_eq!(total, 365_596);
    assert_eq!(seen, (0..units as u64).collect::<Vec<_>>());
    let human = stdout(&queens(&["count", "14", "--units", "0-9"]).success());
    assert!(human.contains("10 units: not a total"), "{human}");
}

#[test]
fn bad_unit_lists_are_refused_with_the_reason() {
    rejects(
        &["count", "12", "--units", "5-3"],
        &["unit range 5-3 is empty"],
    );
    rejects(
        &["count", "12", "--units", "0-4,2"],
        &["unit 2 is listed more than once"],
    );
    rejects(
        &["count", "12", "--units", "x"],
        &["'x' is not a unit id", "0-99,150"],
    );
    rejects(&["count", "12", "--units", ""], &["is not a unit id"]);
    rejects(
        &["count", "12..13", "--units", "1"],
        &["one board size", "12..13"],
    );
    rejects(&["count", "12", "--units", "1", "--unique"], &["--unique"]);
    rejects(
        &["count", "12", "--units", "1", "--cross-check"],
        &["--cross-check"],
    );
    let line = one_error_line(
        queens(&["count", "12", "--units", "3,99999"]).stdout(""),
        2,
        &[
            "unit 99999 is not in the plan",
            "join engine has units 0 to 471",
            "queens plan 12 --units",
        ],
    );
    assert!(!line.contains("panicked"));
}

#[test]
fn bad_plans_are_refused_with_the_engine_s_range() {
    rejects(
        &["plan", "30", "--engine", "join"],
        &["the join engine takes n from 4 to 28"],
    );
    rejects(
        &["plan", "0"],
        &["board size 0 is out of range", "between 1 and 32"],
    );
    rejects(&["plan"], &["missing board size", "queens plan 8"]);
    rejects(&["plan", "12", "--json", "--units"], &["--json", "--units"]);
    rejects(&["plan", "12", "--split-depth", "9"], &["--split-depth"]);
}

/// `queens plan 17 --units | head -1`: the JSON lines writer meets a closed
/// pipe and ends quietly (it used to print "Broken pipe": serde_json hides
/// the I/O error from the error chain).
#[test]
fn a_closed_pipe_ends_the_unit_list_quietly() {
    use std::io::{BufRead, BufReader};
    use std::process::{Command, Stdio};

    let mut child = Command::new(env!("CARGO_BIN_EXE_queens"))
        .args(["plan", "17", "--units"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    assert!(lines.next().unwrap().unwrap().starts_with("{\"id\":0,"));
    drop(lines);
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{:?}", out.status);
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
}

/// `--split-depth` shapes only the mirror engine's units: a plan of
/// another engine refuses it rather than printing a plan that ignored it.
/// See: issue 23's note (`plan 16 --split-depth 3` printed the join's plan).
#[test]
fn plan_refuses_a_split_depth_its_engine_ignores() {
    rejects(
        &["plan", "16", "--split-depth", "3"],
        &[
            "--split-depth",
            "mirror engine only",
            "join",
            "--engine mirror",
        ],
    );
    rejects(
        &[
            "plan",
            "16",
            "--engine",
            "constellations",
            "--split-depth",
            "3",
        ],
        &["--split-depth", "not constellations"],
    );
    let mirror = &json_lines(&[
        "plan",
        "12",
        "--engine",
        "mirror",
        "--split-depth",
        "3",
        "--json",
    ])[0];
    assert_eq!(mirror["split_depth"], 3);
    let small = &json_lines(&["plan", "8", "--split-depth", "3", "--json"])[0];
    assert_eq!(
        (&small["engine"], &small["split_depth"]),
        (&"mirror".into(), &3.into())
    );
}
