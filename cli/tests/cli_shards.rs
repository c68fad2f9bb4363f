//! `count --shard`, `merge` and `verify`, as a user meets them: shards
//! merge to the OEIS total; a killed shard resumes from its journal; a
//! finished one is not counted again; every kind of bad set makes merge
//! exit 1 with one line for it; a forged file that merge cannot see is
//! caught by verify.

use std::fs;
use std::path::Path;
use std::process::Output;

use serde_json::Value;
use sha2::{Digest, Sha256};
use tempfile::TempDir;

use crate::common::cli::{killed_after, one_error_line, queens, rejects, run};

/// Counts every shard of `n` among `shards` into `dir`, with `extra` flags.
fn shards(dir: &Path, n: u32, shards: u32, extra: &[&str]) {
    let dir = dir.to_str().unwrap();
    for index in 0..shards {
        let shard = format!("{index}/{shards}");
        let mut args = vec![
            "count",
            &*n.to_string(),
            "--shard",
            &shard,
            "--out-dir",
            dir,
            "-q",
        ]
        .into_iter()
        .map(str::to_owned)
        .collect::<Vec<_>>();
        args.extend(extra.iter().map(|&s| s.to_owned()));
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = run(&args, &[]);
        assert!(out.status.success(), "{args:?}: {out:?}");
    }
}

/// `merge --json` of `paths`: its exit code and record.
fn merge_json(paths: &[&Path]) -> (i32, Value) {
    let mut args = vec!["merge", "--json"];
    args.extend(paths.iter().map(|p| p.to_str().unwrap()));
    let out = run(&args, &[]);
    (
        out.status.code().unwrap(),
        serde_json::from_slice(&out.stdout).unwrap(),
    )
}

fn file(dir: &Path, index: u32, of: u32) -> std::path::PathBuf {
    dir.join(format!("shard-{index:04}-of-{of:04}.json"))
}

#[test]
fn four_shards_of_n16_merge_to_a000170() {
    let dir = TempDir::new().unwrap();
    shards(dir.path(), 16, 4, &[]);
    let assert = queens(&["merge", dir.path().to_str().unwrap()]).success();
    let out = String::from_utf8(assert.get_output().stdout.clone()).unwrap();
    assert!(
        out.contains("total   14772512 (matches OEIS A000170)"),
        "{out}"
    );
    assert!(out.contains("shards  4 of 4"), "{out}");
    // No journal is left beside a finished shard.
    let names: Vec<String> = fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    assert!(names.iter().all(|n| n.ends_with(".json")), "{names:?}");
}

#[test]
fn mirror_shards_merge_with_json_csv_and_digest() {
    let dir = TempDir::new().unwrap();
    shards(
        dir.path(),
        12,
        3,
        &["--engine", "mirror", "--split-depth", "3"],
    );
    let csv = dir.path().join("units.csv");
    let (code, record) = merge_json(&[dir.path()]);
    assert_eq!(code, 0, "{record}");
    assert_eq!(record["total"], 14200);
    assert_eq!(record["engine"], "mirror");
    assert_eq!(record["matches_known"], true);
    queens(&[
        "merge",
        dir.path().to_str().unwrap(),
        "--units-csv",
        csv.to_str().unwrap(),
    ])
    .success();
    let bytes = fs::read(&csv).unwrap();
    let hex: String = Sha256::digest(&bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    let digest = format!("sha256:{hex}");
    assert_eq!(record["digest"], digest.as_str());
    let text = String::from_utf8(bytes).unwrap();
    assert!(text.starts_with("id,descriptor,count\n0,rows:"), "{text}");
    let sum: u64 = text
        .lines()
        .skip(1)
        .map(|l| l.rsplit(',').next().unwrap().parse::<u64>().unwrap())
        .sum();
    assert_eq!(sum, 14_200);
}

#[test]
fn shard_indices_come_from_the_scheduler_and_are_checked() {
    let dir = TempDir::new().unwrap();
    let out_dir = dir.path().to_str().unwrap();
    for (variable, index) in [
        ("SLURM_ARRAY_TASK_ID", "0"),
        ("JOB_COMPLETION_INDEX", "1"),
        ("AWS_BATCH_JOB_ARRAY_INDEX", "2"),
    ] {
        let out = run(
            &[
                "count",
                "12",
                "--shard",
                "env/3",
                "--out-dir",
                out_dir,
                "-q",
            ],
            &[(variable, index)],
        );
        assert!(out.status.success(), "{out:?}");
    }
    let (code, record) = merge_json(&[dir.path()]);
    assert_eq!((code, record["total"].as_u64()), (0, Some(14200)));

    let out = run(
        &["count", "12", "--shard", "env/3", "--out-dir", out_dir],
        &[],
    );
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("SLURM_ARRAY_TASK_ID") && err.contains("none is set"),
        "{err}"
    );
    let out = run(
        &["count", "12", "--shard", "env/3", "--out-dir", out_dir],
        &[("SLURM_ARRAY_TASK_ID", "3")],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8(out.stderr)
            .unwrap()
            .contains("from 0 to 2")
    );
    rejects(&["count", "12", "--shard", "3/3"], &["from 0 to 2"]);
    rejects(
        &["count", "12", "--shard", "-1/3"],
        &["'-1' is not a shard index", "from 0 to 2"],
    );
    rejects(&["count", "12", "--shard", "1"], &["not a shard", "env/K"]);
    rejects(&["count", "12..13", "--shard", "0/2"], &["one board size"]);
    rejects(
        &["count", "12", "--shard", "0/2", "--units", "1"],
        &["--units"],
    );
}

#[test]
fn a_killed_shard_resumes_and_a_finished_one_is_not_counted_again() {
    let dir = TempDir::new().unwrap();
    let out_dir = dir.path().to_str().unwrap();
    let args = [
        "count",
        "15",
        "--shard",
        "1/2",
        "--out-dir",
        out_dir,
        "--json",
        "-j",
        "2",
    ];
    // Killed on one thread, resumed on two: the plan is the same.
    killed_after(200, &args[..args.len() - 2]);
    assert!(dir.path().join("shard-0001-of-0002.journal").exists());
    assert!(!file(dir.path(), 1, 2).exists());

    let resumed = run(&args, &[]);
    assert!(resumed.status.success(), "{resumed:?}");
    let record: Value = serde_json::from_slice(&resumed.stdout).unwrap();
    assert_eq!(record["resumed_units"], 200);
    assert!(!dir.path().join("shard-0001-of-0002.journal").exists());

    let again = run(&args, &[]);
    assert!(again.status.success());
    let err = String::from_utf8(again.stderr).unwrap();
    assert!(err.contains("already holds shard 1/2"), "{err}");
    let record: Value = serde_json::from_slice(&again.stdout).unwrap();
    assert_eq!(
        record["solutions"],
        serde_json::json!(resumed_total(&resumed))
    );

    shards(dir.path(), 15, 2, &[]);
    let (code, merged) = merge_json(&[dir.path()]);
    assert_eq!((code, merged["total"].as_u64()), (0, Some(2_279_184)));

    // A file of someone else's where the result would go is not replaced.
    fs::write(file(dir.path(), 0, 2), b"{\"mine\": 1}").unwrap();
    let out = run(
        &["count", "15", "--shard", "0/2", "--out-dir", out_dir],
        &[],
    );
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(
        String::from_utf8(out.stderr)
            .unwrap()
            .contains("not a queens shard result")
    );
}

fn resumed_total(out: &Output) -> u64 {
    let record: Value = serde_json::from_slice(&out.stdout).unwrap();
    record["solutions"].as_u64().unwrap()
}

/// A fresh set of the 4 shards of n = 12, and the directory holding it.
fn set_of_four() -> TempDir {
    let dir = TempDir::new().unwrap();
    shards(dir.path(), 12, 4, &[]);
    dir
}

/// Rewrites shard file `path` through `change`.
fn edit(path: &Path, change: impl FnOnce(&mut Value)) {
    let mut value: Value = serde_json::from_slice(&fs::read(path).unwrap()).unwrap();
    change(&mut value);
    fs::write(path, serde_json::to_vec(&value).unwrap()).unwrap();
}

/// `merge DIR` fails with exit 1 and a line for each of `kinds` (each a
/// list of needles), and nothing else.
fn merge_refuses(dir: &Path, kinds: &[&[&str]]) {
    let out = run(&["merge", dir.to_str().unwrap()], &[]);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    assert!(out.stdout.is_empty());
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(err.lines().count(), kinds.len(), "{err}");
    for (line, needles) in err.lines().zip(kinds) {
        assert!(
            line.starts_with("queens: ") && !line.contains("panicked"),
            "{line}"
        );
        for needle in *needles {
            assert!(line.contains(needle), "{line:?} lacks {needle:?}");
        }
    }
}

#[test]
fn merge_refuses_every_kind_of_bad_set_with_one_line_each() {
    let missing = set_of_four();
    fs::remove_file(file(missing.path(), 2, 4)).unwrap();
    merge_refuses(missing.path(), &[&["1 of 4 shard(s) missing", "--array=2"]]);

    let changed = set_of_four();
    let copy = changed.path().join("shard-0001-of-0004.retry.json");
    fs::copy(file(changed.path(), 1, 4), &copy).unwrap();
    edit(&copy, |v| {
        let count = v["units"][0][1].as_u64().unwrap();
        v["units"][0][1] = (count + 2).into();
        let total: u64 = v["total"].as_str().unwrap().parse().unwrap();
        v["total"] = (total + 2).to_string().into();
    });
    merge_refuses(
        changed.path(),
        &[&["1 unit(s) have different counts", "retry"]],
    );

    let other_plan = set_of_four();
    let n13 = TempDir::new().unwrap();
    shards(n13.path(), 13, 4, &[]);
    fs::copy(file(n13.path(), 3, 4), file(other_plan.path(), 3, 4)).unwrap();
    merge_refuses(
        other_plan.path(),
        &[
            &["1 file(s) are from another run", "n is 13"],
            &["--array=3"],
        ],
    );

    let other_version = set_of_four();
    edit(&file(other_version.path(), 0, 4), |v| {
        v["version"] = "0.0.1".into();
    });
    merge_refuses(
        other_version.path(),
        &[&["another run", "version is 0.0.1"], &["--array=0"]],
    );

    let forged_plan = set_of_four();
    for index in 0..4 {
        edit(&file(forged_plan.path(), index, 4), |v| {
            v["plan"] = format!("sha256:{}", "1".repeat(64)).into();
        });
    }
    merge_refuses(
        forged_plan.path(),
        &[&["this build's plan", "another plan or version"]],
    );

    let bad_total = set_of_four();
    edit(&file(bad_total.path(), 2, 4), |v| v["total"] = "1".into());
    merge_refuses(
        bad_total.path(),
        &[&["not the sum of their units", "says 1"], &["--array=2"]],
    );

    let truncated = set_of_four();
    let path = file(truncated.path(), 1, 4);
    let bytes = fs::read(&path).unwrap();
    fs::write(&path, &bytes[..bytes.len() / 2]).unwrap();
    merge_refuses(
        truncated.path(),
        &[&["not shard results", "cut short"], &["--array=1"]],
    );

    let garbage = set_of_four();
    fs::write(file(garbage.path(), 0, 4), [0xff, 0x00, 0x13, 0x37]).unwrap();
    merge_refuses(
        garbage.path(),
        &[&["not shard results", "not JSON"], &["--array=0"]],
    );

    let empty = TempDir::new().unwrap();
    one_error_line(
        queens(&["merge", empty.path().to_str().unwrap()]),
        2,
        &["holds no shard results"],
    );
}

#[test]
fn partial_merges_report_progress() {
    let dir = set_of_four();
    fs::remove_file(file(dir.path(), 0, 4)).unwrap();
    let out = run(&["merge", "--partial", dir.path().to_str().unwrap()], &[]);
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("shards  3 of 4") && text.contains("missing shards 0"),
        "{text}"
    );
    let (code, record) = merge_json(&[dir.path()]);
    assert_eq!(code, 1);
    assert_eq!(record["complete"], false);
    assert_eq!(record["missing_shards"], serde_json::json!([0]));
}

/// See: issue 35, item 6 (`verify` had no default sample).
#[test]
fn verify_without_a_sample_recounts_one_percent_and_at_least_a_hundred_units() {
    let dir = set_of_four();
    let out_dir = dir.path().to_str().unwrap();
    let out = run(&["verify", out_dir, "--seed", "7", "--json"], &[]);
    assert!(out.status.success(), "{out:?}");
    let record: Value = serde_json::from_slice(&out.stdout).unwrap();
    let present = record["units_present"].as_u64().unwrap();
    assert!(present > 200, "enough units that 100 is not all of them");
    let want = present.div_ceil(100).max(100);
    assert_eq!(record["sampled"].as_u64(), Some(want));
    let out = run(&["verify", out_dir, "--seed", "7"], &[]);
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains(&format!("recounting {want} of {present} units"))
            && err.contains("the default sample: 1%, at least 100 units"),
        "{err}"
    );
}

#[test]
fn verify_catches_a_forgery_that_merge_cannot() {
    let dir = set_of_four();
    let out_dir = dir.path().to_str().unwrap();
    let ok = run(&["verify", out_dir, "--sample", "20%", "--seed", "7"], &[]);
    assert!(ok.status.success(), "{ok:?}");
    assert!(String::from_utf8(ok.stdout).unwrap().starts_with("ok: "));

    // Four solutions moved from one unit to another of the same file: the
    // file's total and the grand total still hold, so merge passes it.
    edit(&file(dir.path(), 2, 4), |v| {
        let units = v["units"].as_array_mut().unwrap();
        let count = |u: &Value| u[1].as_u64().unwrap();
        let from = units.iter().position(|u| count(u) >= 4).unwrap();
        let to = usize::from(from == 0);
        let (a, b) = (count(&units[from]), count(&units[to]));
        units[from][1] = (a - 4).into();
        units[to][1] = (b + 4).into();
    });
    let (code, record) = merge_json(&[dir.path()]);
    assert_eq!((code, record["total"].as_u64()), (0, Some(14200)));
    let caught = run(&["verify", out_dir, "--sample", "100%", "--json"], &[]);
    assert_eq!(caught.status.code(), Some(3), "{caught:?}");
    let record: Value = serde_json::from_slice(&caught.stdout).unwrap();
    assert_eq!(record["disagreements"].as_array().unwrap().len(), 2);
    assert!(
        String::from_utf8(caught.stderr)
            .unwrap()
            .contains("MISMATCH")
    );
    rejects(
        &["verify", out_dir, "--sample", "0%"],
        &["percentage above 0"],
    );
    // See: issue 20 (`100%%` was taken for 100%).
    for bad in ["100%%", "1e1%", "inf"] {
        rejects(
            &["verify", out_dir, "--sample", bad],
            &[
                &format!("'{bad}' is not a sample size"),
                "above 0 and at most 100",
            ],
        );
    }
}

/// See: issue 32, items 8, 11 and 12: a shard whose count no unit can
/// have is refused even with its total fixed; a forged set that passes
/// merge's checks but not the OEIS is blamed on the files, in one
/// sentence; no set at all (a missing folder, an empty one) exits 2.
#[test]
fn merge_refuses_impossible_counts_and_blames_forged_files() {
    let impossible = set_of_four();
    edit(&file(impossible.path(), 1, 4), |v| {
        let count = v["units"][0][1].as_u64().unwrap();
        // A multiple of 16, so of every weight: only the bound catches it.
        let forged = u64::MAX - 15;
        v["units"][0][1] = forged.into();
        let total: u128 = v["total"].as_str().unwrap().parse().unwrap();
        v["total"] = (total - u128::from(count) + u128::from(forged))
            .to_string()
            .into();
    });
    merge_refuses(
        impossible.path(),
        &[
            &[
                "1 file(s) are damaged or forged",
                "shard-0001-of-0004.json",
                "is more than any unit of n = 12 can have (14200",
            ],
            &["--array=1"],
        ],
    );
    let out = run(
        &[
            "verify",
            impossible.path().to_str().unwrap(),
            "--sample",
            "1%",
        ],
        &[],
    );
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("damaged or forged"));

    // 8 more in one unit and in its file's total: merge's checks hold,
    // the OEIS does not.
    let forged = set_of_four();
    edit(&file(forged.path(), 2, 4), |v| {
        let count = v["units"][0][1].as_u64().unwrap();
        v["units"][0][1] = (count + 8).into();
        let total: u64 = v["total"].as_str().unwrap().parse().unwrap();
        v["total"] = (total + 8).to_string().into();
    });
    let dir = forged.path().to_str().unwrap();
    let out = run(&["merge", dir], &[]);
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(3), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("says 14200. A shard result is damaged or forged")
            && err.contains(&format!("'queens verify {dir} --sample 100%'")),
        "{err}"
    );
    assert!(
        !err.contains("is this is") && !err.contains("bug in queens"),
        "{err}"
    );

    let gone = TempDir::new().unwrap();
    let missing = gone.path().join("results");
    let err = one_error_line(
        queens(&["merge", missing.to_str().unwrap()]).stdout(""),
        2,
        &["not shard results", "results"],
    );
    assert!(err.contains("1 file(s)"), "{err}");
    let empty = TempDir::new().unwrap();
    one_error_line(
        queens(&["merge", empty.path().to_str().unwrap()]).stdout(""),
        2,
        &["holds no shard results"],
    );
    for dir in [&missing, empty.path()] {
        let out = run(&["verify", dir.to_str().unwrap(), "--sample", "1%"], &[]);
        assert_eq!(out.status.code(), Some(2), "{out:?}");
    }
}

/// See: issue 32, item 7: shards that hold no unit leave nothing to
/// recount, which is not a success.
#[test]
fn verify_refuses_shards_that_hold_no_unit() {
    // n = 6 has fewer than 100 units to deal among 100 shards: the last
    // holds none.
    let dir = TempDir::new().unwrap();
    let out = run(
        &[
            "count",
            "6",
            "--shard",
            "99/100",
            "--out-dir",
            dir.path().to_str().unwrap(),
            "-q",
        ],
        &[],
    );
    assert!(out.status.success(), "{out:?}");
    let record: Value =
        serde_json::from_slice(&fs::read(file(dir.path(), 99, 100)).unwrap()).unwrap();
    assert_eq!(record["units"].as_array().unwrap().len(), 0);
    let out = run(
        &["verify", dir.path().to_str().unwrap(), "--sample", "100%"],
        &[],
    );
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(out.stdout.is_empty());
    assert!(
        err.contains("nothing to verify: the files hold no unit's count"),
        "{err}"
    );
}
