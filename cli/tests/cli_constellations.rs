//! `--engine constellations` end to end, as a user meets it: its plan
//! lists one start per orbit with the orbit's weight; its counts, its
//! subsets of units, its journals and its shards give the OEIS totals;
//! `verify` recounts its units by plain recursion and catches a forged
//! one; boards it does not take are refused with the range it does.

use std::fs;
use std::path::Path;

use serde_json::Value;
use tempfile::TempDir;

use crate::common::cli::{killed_after, one_error_line, queens, rejects, run, stdout};

const ENGINE: [&str; 2] = ["--engine", "constellations"];

/// `queens` with `args` then `--engine constellations`.
fn with_engine<'a>(args: &[&'a str]) -> Vec<&'a str> {
    args.iter().copied().chain(ENGINE).collect()
}

fn json_lines(args: &[&str]) -> Vec<Value> {
    stdout(&queens(args).success())
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// The one JSON record of a run that succeeded.
fn record(args: &[&str]) -> Value {
    let lines = json_lines(args);
    assert_eq!(lines.len(), 1, "{args:?}: {lines:?}");
    lines.into_iter().next().unwrap()
}

fn known(n: u32) -> u64 {
    u64::try_from(queens::known::total(n).unwrap()).unwrap()
}

/// The four numbers of a `start:top,bottom,left,right` descriptor.
fn start(descriptor: &str) -> Vec<u32> {
    let numbers = descriptor
        .strip_prefix("start:")
        .unwrap_or_else(|| panic!("{descriptor:?} is not a start"));
    let numbers: Vec<u32> = numbers
        .split(',')
        .map(|s| s.parse().unwrap_or_else(|_| panic!("{descriptor:?}")))
        .collect();
    assert_eq!(numbers.len(), 4, "{descriptor:?}");
    numbers
}

#[test]
fn the_plan_lists_weighted_starts_under_a_hash_of_its_own() {
    let summary = record(&with_engine(&["plan", "12", "--json"]));
    assert_eq!(summary["engine"], "constellations");
    let units = json_lines(&with_engine(&["plan", "12", "--units"]));
    assert_eq!(summary["units"], units.len());
    for (i, unit) in units.iter().enumerate() {
        assert_eq!(unit["id"], i);
        let descriptor = unit["descriptor"].as_str().unwrap();
        assert!(start(descriptor).iter().all(|&k| k < 12), "{descriptor:?}");
        let weight = unit["weight"].as_u64().unwrap();
        assert!([2, 4, 8].contains(&weight), "{unit}");
        assert!(unit["cost"].as_u64().is_some(), "{unit}");
    }

    let again = record(&with_engine(&["plan", "12", "--json"]));
    assert_eq!(again["plan"], summary["plan"], "the same plan every run");
    let mirror = record(&["plan", "12", "--engine", "mirror", "--json"]);
    assert_ne!(mirror["plan"], summary["plan"]);
}

#[test]
fn counts_and_halves_of_the_units_give_a000170() {
    for n in 4..=12 {
        let text = n.to_string();
        let out = stdout(&queens(&with_engine(&["count", &text, "-q"])).success());
        assert_eq!(out.trim(), known(n).to_string(), "n = {n}");
    }

    let units = json_lines(&with_engine(&["plan", "12", "--units"])).len();
    let halves = [
        format!("0-{}", units / 2 - 1),
        format!("{}-{}", units / 2, units - 1),
    ];
    let mut total = 0;
    for half in &halves {
        let piece = record(&with_engine(&["count", "12", "--units", half, "--json"]));
        assert!(piece["matches_known"].is_null(), "a subset is not a total");
        total += piece["solutions"].as_u64().unwrap();
    }
    assert_eq!(total, known(12));

    let checked = record(&with_engine(&["count", "12", "--cross-check", "--json"]));
    assert_eq!(checked["solutions"], known(12));
    assert_eq!(checked["cross_check"]["engine"], "join");
    assert_eq!(checked["cross_check"]["solutions"], known(12));
    assert_eq!(checked["cross_check"]["agrees"], true);
}

#[test]
fn an_interrupted_count_resumes_and_a_mirror_journal_is_refused() {
    let dir = TempDir::new().unwrap();
    let journal = dir.path().join("count.journal");
    let journal = journal.to_str().unwrap();
    let args = with_engine(&["count", "13", "--checkpoint", journal, "--json"]);
    killed_after(20, &args);
    let resumed = record(&args);
    assert_eq!(resumed["solutions"], known(13));
    assert_eq!(resumed["resumed_units"], 20);

    let mirror = dir.path().join("mirror.journal");
    let mirror = mirror.to_str().unwrap();
    record(&[
        "count",
        "13",
        "--engine",
        "mirror",
        "--checkpoint",
        mirror,
        "--json",
    ]);
    let before = fs::read(mirror).unwrap();
    one_error_line(
        queens(&with_engine(&["count", "13", "--checkpoint", mirror])).stdout(""),
        2,
        &[
            "cannot resume from",
            "engine is mirror there, constellations here",
        ],
    );
    assert_eq!(fs::read(mirror).unwrap(), before, "left as it was");
}

fn shard_file(dir: &Path, index: u32) -> std::path::PathBuf {
    dir.join(format!("shard-{index:04}-of-0003.json"))
}

#[test]
fn shards_merge_and_verify_by_plain_recursion_which_catches_a_forgery() {
    let dir = TempDir::new().unwrap();
    let out_dir = dir.path().to_str().unwrap();
    for index in 0..3 {
        let shard = format!("{index}/3");
        let args = with_engine(&["count", "12", "--shard", &shard, "--out-dir", out_dir, "-q"]);
        let out = run(&args, &[]);
        assert!(out.status.success(), "{args:?}: {out:?}");
    }
    let merged = run(&["merge", out_dir, "--json"], &[]);
    assert!(merged.status.success(), "{merged:?}");
    let merged: Value = serde_json::from_slice(&merged.stdout).unwrap();
    assert_eq!(merged["total"], 14200);

    let ok = run(&["verify", out_dir, "--sample", "100%"], &[]);
    assert!(ok.status.success(), "{ok:?}");
    assert!(String::from_utf8(ok.stdout).unwrap().starts_with("ok: "));
    let said = String::from_utf8(ok.stderr).unwrap();
    assert!(said.contains("by plain recursion"), "{said}");

    // Eight solutions moved from one unit to another of the same file (8,
    // so that every weight still divides both): the file's total and the
    // grand total still hold, so merge passes it; verify does not.
    let path = shard_file(dir.path(), 1);
    let mut value: Value = serde_json::from_slice(&fs::read(&path).unwrap()).unwrap();
    let units = value["units"].as_array_mut().unwrap();
    let count = |u: &Value| u[1].as_u64().unwrap();
    let from = units.iter().position(|u| count(u) >= 8).unwrap();
    let to = usize::from(from == 0);
    let (a, b) = (count(&units[from]), count(&units[to]));
    let ids = (units[from][0].clone(), units[to][0].clone());
    units[from][1] = (a - 8).into();
    units[to][1] = (b + 8).into();
    fs::write(&path, serde_json::to_vec(&value).unwrap()).unwrap();
    assert!(run(&["merge", out_dir], &[]).status.success());

    let caught = run(&["verify", out_dir, "--sample", "100%"], &[]);
    assert_eq!(caught.status.code(), Some(3), "{caught:?}");
    let err = String::from_utf8(caught.stderr).unwrap();
    let mismatch = err.lines().find(|l| l.contains("MISMATCH")).unwrap();
    assert!(
        mismatch.contains(&format!("unit {} says {}", ids.0, a - 8))
            || mismatch.contains(&format!("unit {} says {}", ids.1, b + 8)),
        "{err}"
    );
}

#[test]
fn boards_below_four_are_refused_with_the_range() {
    rejects(
        &with_engine(&["count", "3"]),
        &["the constellations engine counts 4 <= n <= 32"],
    );
}
