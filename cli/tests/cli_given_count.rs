//! `count`, `plan`, `estimate`, `merge` and `verify` of a problem with
//! queens given and squares blocked: completions counted through a plan
//! whose hash names the problem, so that a killed count resumes from its
//! journal, shards merge to the library's count, and the journals and
//! shards of one problem are refused for another.

use std::fs;
use std::path::Path;
use std::process::Output;

use queens::{Problem, Square};
use serde_json::Value;
use tempfile::TempDir;

use crate::common::cli::{killed_after, one_error_line, queens, rejects, run};

/// The problem of these tests: n = 14, queens given on 2:5 and 7:1, the
/// two squares 1:1 and 14:14 blocked (1-based, as the flags take them).
const N: &str = "14";
const GIVEN: &str = "2:5,7:1";
const BLOCKED: &str = "1:1,14:14";

fn problem() -> Problem {
    let given = [Square::new(1, 4), Square::new(6, 0)];
    let blocked = [Square::new(0, 0), Square::new(13, 13)];
    Problem::new(14, given, blocked).unwrap()
}

/// The JSON record of a command that succeeded.
fn json(args: &[&str]) -> Value {
    let out = run(args, &[]);
    assert!(out.status.success(), "{args:?}: {out:?}");
    serde_json::from_slice(&out.stdout).unwrap()
}

fn count_args<'a>(extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec!["count", N, "--given", GIVEN, "--blocked", BLOCKED, "--json"];
    args.extend_from_slice(extra);
    args
}

#[test]
fn a_count_of_completions_is_the_librarys_and_names_its_problem() {
    let record = json(&count_args(&[]));
    let want = problem().count();
    assert!(want > 0);
    assert_eq!(record["solutions"].as_u64(), Some(want as u64));
    assert_eq!(
        record["problem"].as_str(),
        Some(problem().to_line().as_str())
    );
    assert_eq!(
        (record["known"].clone(), record["matches_known"].clone()),
        (Value::Null, Value::Null)
    );
    assert_eq!(record["engine"], "mirror");
    // The plan and its units, as `plan` shows them, sum to the same.
    let plan = json(&["plan", N, "--given", GIVEN, "--blocked", BLOCKED, "--json"]);
    assert_eq!(plan["plan"], record["plan"]);
    assert_eq!(plan["units"], record["units"]);
    // A board file of the same problem is the same plan.
    let dir = TempDir::new().unwrap();
    let board = dir.path().join("problem.txt");
    fs::write(&board, problem().to_string()).unwrap();
    let from_board = json(&["count", N, "--board", board.to_str().unwrap(), "--json"]);
    assert_eq!(from_board["plan"], record["plan"]);
    assert_eq!(from_board["solutions"], record["solutions"]);
    // Another problem is another plan.
    let other = json(&["count", N, "--given", "2:5", "--json"]);
    assert_ne!(other["plan"], record["plan"]);
}

#[test]
fn the_units_of_a_problem_sum_to_its_count() {
    let units = run(
        &["plan", N, "--given", GIVEN, "--blocked", BLOCKED, "--units"],
        &[],
    );
    let ids = String::from_utf8(units.stdout).unwrap().lines().count();
    assert!(ids > 10, "{ids} units");
    let half = ids / 2;
    let (first, second) = (format!("0-{}", half - 1), format!("{half}-{}", ids - 1));
    let total: u64 = [first, second]
        .iter()
        .map(|list| {
            let record = json(&count_args(&["--units", list]));
            record["units"]
                .as_array()
                .unwrap()
                .iter()
                .map(|pair| pair[1].as_u64().unwrap())
                .sum::<u64>()
        })
        .sum();
    assert_eq!(u128::from(total), problem().count());
}

#[test]
fn a_killed_count_of_a_problem_resumes_and_its_journal_is_refused_for_another() {
    let dir = TempDir::new().unwrap();
    let journal = dir.path().join("p.journal");
    let journal = journal.to_str().unwrap();
    let args = count_args(&["--checkpoint", journal]);
    killed_after(5, &args);
    let header = fs::read_to_string(journal).unwrap();
    let header = header.lines().next().unwrap();
    assert!(
        header.contains(&format!("problem={}", problem().to_line())),
        "{header}"
    );
    let resumed = json(&args);
    assert_eq!(resumed["resumed_units"], 5);
    assert_eq!(
        resumed["solutions"].as_u64(),
        Some(problem().count() as u64)
    );
    // verify recounts the journal's units by the plain search.
    let verified = run(
        &["verify", "--journal", journal, "--sample", "100%", "-q"],
        &[],
    );
    assert!(verified.status.success(), "{verified:?}");
    // The same journal for another problem of the same board: refused,
    // naming both problems (see: issue 47, item 16: the empty board's
    // count blamed the unit count).
    let ours = "queens given at 2:5,7:1 and squares 1:1,14:14 blocked on a board of 14 there";
    let line = one_error_line(
        queens(&["count", N, "--given", "2:5", "--checkpoint", journal]),
        2,
        &[
            "cannot resume",
            "it is the journal of another problem",
            ours,
            "queens given at 2:5 on a board of 14 here",
        ],
    );
    assert!(line.contains(journal), "{line}");
    // And for the empty board, whichever engine counts it.
    for engine in ["mirror", "join"] {
        let line = one_error_line(
            queens(&["count", N, "--engine", engine, "--checkpoint", journal]),
            2,
            &[
                "it is the journal of another problem",
                ours,
                "the empty board of 14 here",
                "count that problem to resume it; remove it or name another file",
            ],
        );
        assert!(!line.contains("units is"), "{line}");
    }
    // And the empty board's journal for a problem.
    let empty = dir.path().join("empty.journal");
    let empty = empty.to_str().unwrap();
    let out = run(
        &[
            "count",
            N,
            "--engine",
            "mirror",
            "--checkpoint",
            empty,
            "-q",
        ],
        &[],
    );
    assert!(out.status.success(), "{out:?}");
    one_error_line(
        queens(&count_args(&["--checkpoint", empty])),
        2,
        &[
            "it is the journal of another problem (the empty board of 14 there",
            "queens given at 2:5,7:1",
        ],
    );
}

/// Counts the problem's shards `indices` of `of` into `dir`.
fn shards(dir: &Path, indices: &[u32], of: u32, problem: &[&str]) {
    for index in indices {
        let shard = format!("{index}/{of}");
        let mut args = vec!["count", N, "--shard", &shard, "--out-dir"];
        args.push(dir.to_str().unwrap());
        args.extend_from_slice(problem);
        args.push("-q");
        let out = run(&args, &[]);
        assert!(out.status.success(), "{args:?}: {out:?}");
    }
}

#[test]
fn shards_of_a_problem_merge_to_its_count_and_never_with_anothers() {
    let dir = TempDir::new().unwrap();
    let ours = ["--given", GIVEN, "--blocked", BLOCKED];
    shards(dir.path(), &[0, 1, 2], 3, &ours);
    let merged = json(&["merge", "--json", dir.path().to_str().unwrap()]);
    assert_eq!(merged["total"].as_u64(), Some(problem().count() as u64));
    assert_eq!(merged["complete"], true);
    let text = fs::read_to_string(dir.path().join("shard-0000-of-0003.json")).unwrap();
    let file: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(file["problem"].as_str(), Some(problem().to_line().as_str()));
    // A shard of another problem in the set: merge refuses the set.
    let other = TempDir::new().unwrap();
    shards(other.path(), &[1], 3, &["--given", "2:5"]);
    fs::copy(
        other.path().join("shard-0001-of-0003.json"),
        dir.path().join("shard-0001-of-0003.json"),
    )
    .unwrap();
    let out = run(&["merge", dir.path().to_str().unwrap()], &[]);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(said.contains("problem") || said.contains("plan"), "{said}");
    // Every file's problem line forged to another problem, their plan
    // hash left alone: the plan this build makes of it has another hash.
    let forged = TempDir::new().unwrap();
    shards(forged.path(), &[0, 1, 2], 3, &ours);
    for index in 0..3 {
        let path = forged.path().join(format!("shard-000{index}-of-0003.json"));
        let text = fs::read_to_string(&path).unwrap();
        let forged_text = text.replace("\"problem\":\"x", "\"problem\":\".");
        assert_ne!(forged_text, text);
        fs::write(&path, forged_text).unwrap();
    }
    let out = run(&["merge", forged.path().to_str().unwrap()], &[]);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(said.contains("another plan"), "{said}");
}

#[test]
fn options_that_cannot_count_a_problem_are_refused_in_one_line() {
    for (extra, needle) in [
        (&["--engine", "join"][..], "--engine"),
        (&["--unique"][..], "--unique"),
        (&["--cross-check"][..], "--cross-check"),
        (&["--algorithm", "scan"][..], "--algorithm"),
    ] {
        let mut args = vec!["count", "10", "--given", "1:2"];
        args.extend_from_slice(extra);
        rejects(&args, &[needle, "--given"]);
    }
    rejects(&["count", "8..10", "--given", "1:2"], &["one board size"]);
    rejects(&["count", "8", "--given", "9:1"], &["9:1"]);
    rejects(&["count", "8", "--given", "1:1,1:3"], &["share row 1"]);
    rejects(
        &["count", "8", "--given", "1:1", "--blocked", "1:1"],
        &["blocked"],
    );
    rejects(
        &["plan", "10", "--given", "1:2", "--engine", "join"],
        &["--engine join"],
    );
    rejects(&["estimate", "10", "--given", "1:2", "--gpu"], &["--gpu"]);
}

#[test]
fn contradictory_given_queens_count_zero() {
    // 1:1 and 2:2 share a diagonal: no completion, and no unit.
    let record = json(&["count", "8", "--given", "1:1,2:2", "--json"]);
    assert_eq!(record["solutions"], 0);
    assert_eq!(record["units"], 0);
}

#[test]
fn a_journal_whose_problem_is_of_another_board_is_refused_by_verify() {
    let dir = TempDir::new().unwrap();
    let journal = dir.path().join("forged.journal");
    let header = "QJ2 n=8 engine=mirror format=1 split=2 problem=Q./.. units=3 plan=sha256:00\n";
    fs::write(&journal, header).unwrap();
    one_error_line(
        queens(&["verify", "--journal", journal.to_str().unwrap()]),
        2,
        &["the problem is a board of 2, and the plan's is of 8"],
    );
}

/// See: issue 47, item 4 (`count 12 --given 2:5 --split-depth 3`, and its
/// shards, were refused as if the join counted a problem of n = 12;
/// `estimate` had no `--split-depth`): one split, one plan, in every
/// command, and a shard's merge agrees with them.
#[test]
fn a_problems_split_depth_is_one_plan_for_count_plan_shards_and_estimate() {
    let given = ["12", "--given", "2:5", "--split-depth", "3"];
    let with = |command: &str, extra: &[&str]| {
        let mut args = vec![command];
        args.extend_from_slice(&given);
        args.extend_from_slice(extra);
        args.push("--json");
        json(&args)
    };
    let plan = with("plan", &[]);
    assert_eq!(plan["split_depth"], 3);
    let want = Problem::new(12, [Square::new(1, 4)], []).unwrap().count();
    let count = with("count", &[]);
    assert_eq!(
        (&count["plan"], &count["split_depth"], &count["units"]),
        (&plan["plan"], &plan["split_depth"], &plan["units"])
    );
    assert_eq!(count["solutions"].as_u64(), Some(want as u64));
    // The default split is another plan: the flag was heard.
    let default = json(&["plan", "12", "--given", "2:5", "--json"]);
    assert_ne!(default["plan"], plan["plan"]);
    let dir = TempDir::new().unwrap();
    let out_dir = dir.path().to_str().unwrap();
    for index in 0..3 {
        let shard = format!("{index}/3");
        let mut args = vec!["count"];
        args.extend_from_slice(&given);
        args.extend_from_slice(&["--shard", &shard, "--out-dir", out_dir, "-q"]);
        let out = run(&args, &[]);
        assert!(out.status.success(), "{args:?}: {out:?}");
    }
    let merged = json(&["merge", "--json", out_dir]);
    assert_eq!(merged["plan"], plan["plan"]);
    assert_eq!(merged["total"].as_u64(), Some(want as u64));
    let estimate = with("estimate", &["--sample", "100%", "--seed", "1"]);
    assert_eq!(
        (&estimate["units"], &estimate["split_depth"]),
        (&plan["units"], &plan["split_depth"])
    );
    assert_eq!(estimate["projected_solutions"].as_f64(), Some(want as f64));
    // The empty board of n = 12 is the join's: the refusal is true there.
    for command in ["count", "plan", "estimate"] {
        rejects(
            &[command, "12", "--split-depth", "3"],
            &["--split-depth", "join", "--engine mirror"],
        );
    }
}

/// The command a `verify` that found a disagreement suggests (between
/// "e.g. '" and "'"), after checking that it says how it recounted.
fn suggested(verify: &Output) -> Vec<String> {
    assert_eq!(verify.status.code(), Some(3), "{verify:?}");
    let err = String::from_utf8_lossy(&verify.stderr);
    assert!(
        err.contains("by a plain depth-first search") && !err.contains("with the mirror engine"),
        "{err}"
    );
    let (_, after) = err.split_once("(e.g. '").expect("a command is suggested");
    let (command, _) = after.split_once('\'').unwrap();
    command.split(' ').map(str::to_owned).collect()
}

/// Runs the command `verify` suggested (`queens count ... --units ID`)
/// and returns the one unit's `[id, count]` it counts.
fn recount(command: &[String]) -> (u64, u64) {
    assert_eq!(command[..2], ["queens", "count"], "{command:?}");
    let mut args: Vec<&str> = command[1..].iter().map(String::as_str).collect();
    args.push("--json");
    let record = json(&args);
    let units = record["units"].as_array().unwrap();
    assert_eq!(units.len(), 1, "{record}");
    (units[0][0].as_u64().unwrap(), units[0][1].as_u64().unwrap())
}

/// See: issue 47, item 5: `verify` of a problem's shards or journal
/// suggested `queens count N --units ID`, the empty board's unit of that
/// id (and its plain search was said to be the mirror engine). The command
/// it suggests now is run, and must count the problem's unit.
#[test]
fn verify_of_a_problem_suggests_the_command_that_recounts_its_unit() {
    // No symmetry (1:1 blocked, 2:5 given): every unit's weight is 1.
    let ours = ["--given", "2:5", "--blocked", "1:1"];
    let dir = TempDir::new().unwrap();
    let out_dir = dir.path().to_str().unwrap();
    for index in 0..3 {
        let shard = format!("{index}/3");
        let mut args = vec!["count", "12", "--shard", &shard, "--out-dir", out_dir, "-q"];
        args.extend_from_slice(&ours);
        let out = run(&args, &[]);
        assert!(out.status.success(), "{args:?}: {out:?}");
    }
    // Two solutions moved from one unit to another: totals still hold.
    let path = dir.path().join("shard-0001-of-0003.json");
    let mut file: Value = serde_json::from_slice(&fs::read(&path).unwrap()).unwrap();
    let units = file["units"].as_array_mut().unwrap();
    let pair = |u: &Value| (u[0].as_u64().unwrap(), u[1].as_u64().unwrap());
    let from = units.iter().position(|u| pair(u).1 >= 2).unwrap();
    let to = usize::from(from == 0);
    let truth = [pair(&units[from]), pair(&units[to])];
    units[from][1] = (truth[0].1 - 2).into();
    units[to][1] = (truth[1].1 + 2).into();
    fs::write(&path, serde_json::to_vec(&file).unwrap()).unwrap();
    let verify = run(&["verify", out_dir, "--sample", "100%", "--seed", "1"], &[]);
    let command = suggested(&verify);
    // A shard's split is 4, not count's 2: the command says so.
    assert!(
        command[2..]
            .join(" ")
            .starts_with("12 --given 2:5 --blocked 1:1 --split-depth 4 --units "),
        "{command:?}"
    );
    let (id, count) = recount(&command);
    assert!(truth.contains(&(id, count)), "{truth:?}: {id} {count}");
    let err = String::from_utf8_lossy(&verify.stderr);
    assert!(err.contains(&format!("unit {id} says ")), "{err}");

    // A journal: the first record's count forged, its checksum recomputed.
    let journal = dir.path().join("p.journal");
    let journal = journal.to_str().unwrap();
    let mut args = vec!["count", "12", "--checkpoint", journal, "-q"];
    args.extend_from_slice(&ours);
    assert!(run(&args, &[]).status.success());
    let text = fs::read_to_string(journal).unwrap();
    let text = text.trim_end_matches('\0');
    let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
    let plan = lines[0].rsplit_once("plan=").unwrap().1.to_owned();
    let record: Vec<u64> = lines[1]
        .split(' ')
        .take(2)
        .map(|f| f.parse().unwrap())
        .collect();
    let (id, count) = (record[0], record[1]);
    let body = format!("{id} {}", count + 1);
    let crc = crate::common::crc32(format!("{plan} {body}").as_bytes());
    lines[1] = format!("{body} {crc:08x}");
    fs::write(journal, lines.join("\n") + "\n").unwrap();
    let verify = run(&["verify", "--journal", journal, "--sample", "100%"], &[]);
    let command = suggested(&verify);
    assert_eq!(
        command[2..].join(" "),
        format!("12 --given 2:5 --blocked 1:1 --units {id}")
    );
    assert_eq!(recount(&command), (id, count));
}
