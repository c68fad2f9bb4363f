//! `count --checkpoint`, `--output` and signals, as a user meets them: a
//! count killed with SIGKILL at a known record resumes to the OEIS total
//! and recounts only what was missing; damaged, foreign or busy journals
//! are recounted or refused, never trusted; Ctrl-C and SIGTERM save and
//! say how to resume.
// What only the Unix tests (signals, a closed stdout) use.
#![cfg_attr(not(unix), allow(unused_imports))]

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::common::cli::{
    command, count_killed_on_every_core, killed_after, one_error_line, output, queens,
};
use crate::common::crc32;

/// The JSON record of a count that succeeded.
fn record(args: &[&str]) -> (Value, String) {
    let out = output(args);
    assert!(out.status.success(), "{args:?}: {out:?}");
    let record = serde_json::from_slice(&out.stdout).unwrap();
    (record, String::from_utf8(out.stderr).unwrap())
}

/// The header and records of a journal: its complete lines (a killed
/// count leaves zeros after them, the room it set aside).
fn lines(path: &Path) -> usize {
    fs::read(path)
        .unwrap()
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
}

struct Case {
    n: &'static str,
    engine: &'static str,
    total: u64,
    units: u64,
}

const JOIN: Case = Case {
    n: "15",
    engine: "join",
    total: 2_279_184,
    units: 12_902,
};
const MIRROR: Case = Case {
    n: "14",
    engine: "mirror",
    total: 365_596,
    units: 78,
};
const CONSTELLATIONS: Case = Case {
    n: "13",
    engine: "constellations",
    total: 73_712,
    units: 1_105,
};

fn journal_in(dir: &tempfile::TempDir) -> (PathBuf, String) {
    let path = dir.path().join("count.journal");
    let text = path.to_str().unwrap().to_owned();
    (path, text)
}

/// The kill hook is an observer of the binary's test builds: the journal
/// underneath appends and group-commits as in every count.
#[test]
fn a_kill_9_loses_no_finished_unit_and_resume_counts_only_the_rest() {
    for (case, kill_at) in [(JOIN, 40), (MIRROR, 10), (CONSTELLATIONS, 20)] {
        let dir = tempfile::tempdir().unwrap();
        let (path, journal) = journal_in(&dir);
        let args = [
            "count",
            case.n,
            "--engine",
            case.engine,
            "--checkpoint",
            &journal,
            "--json",
        ];
        killed_after(kill_at, &args);
        assert_eq!(
            lines(&path),
            1 + kill_at,
            "{}: header and records",
            case.engine
        );
        let (resumed, _) = record(&args);
        assert_eq!(resumed["solutions"], case.total, "{}", case.engine);
        assert_eq!(resumed["resumed_units"], kill_at);
        assert_eq!(resumed["units"], case.units);
        assert_eq!(resumed["journal"], journal);
        assert_eq!(lines(&path) as u64, 1 + case.units, "every unit once");

        // Run again: the journal holds everything and nothing is counted.
        let (again, stderr) = record(&args);
        assert_eq!(again["solutions"], case.total);
        assert_eq!(again["resumed_units"], case.units);
        assert!(
            stderr.contains("the run finished; nothing to count"),
            "{stderr}"
        );
    }
}

/// Killed while every core appends: the units finished before the kill
/// are all there, with any that other threads wrote meanwhile.
#[test]
fn a_kill_9_on_every_core_loses_no_finished_unit() {
    let dir = tempfile::tempdir().unwrap();
    let (path, journal) = journal_in(&dir);
    let args = ["count", JOIN.n, "--checkpoint", &journal, "--json"];
    count_killed_on_every_core(40, &args);
    let records = lines(&path) - 1;
    assert!(records >= 40, "{records} records");
    let (resumed, _) = record(&args);
    assert_eq!(resumed["solutions"], JOIN.total);
    assert_eq!(resumed["resumed_units"], records);
    assert_eq!(resumed["units"], JOIN.units);
}

#[test]
fn the_table_says_how_many_units_came_from_the_journal() {
    // See: issue 35 (only `--json` said it, as `resumed_units`).
    let dir = tempfile::tempdir().unwrap();
    let (_, journal) = journal_in(&dir);
    let args = ["count", JOIN.n, "--checkpoint", &journal];
    killed_after(40, &args);
    let out = output(&args);
    assert!(out.status.success(), "{out:?}");
    let table = String::from_utf8(out.stdout).unwrap();
    let said = format!("  ok, 40 of {} units from journal {journal}\n", JOIN.units);
    assert!(table.ends_with(&said), "{table}");
    // Counted without a journal, the row says only the verdict.
    let out = output(&["count", JOIN.n]);
    let table = String::from_utf8(out.stdout).unwrap();
    assert!(
        table.ends_with("  ok\n") && !table.contains("journal"),
        "{table}"
    );
}

#[test]
fn a_torn_tail_is_cut_and_recounted() {
    let dir = tempfile::tempdir().unwrap();
    let (path, journal) = journal_in(&dir);
    let args = ["count", "15", "--checkpoint", &journal, "--json"];
    killed_after(25, &args);
    // Half a record, as a kill in the middle of a write would leave it.
    fs::OpenOptions::new()
        .append(true)
        .open(&path)
        .unwrap()
        .write_all(b"1234 56")
        .unwrap();
    let (resumed, stderr) = record(&args);
    assert_eq!(resumed["solutions"], JOIN.total);
    assert_eq!(resumed["resumed_units"], 25);
    assert!(stderr.contains("damaged from line 27"), "{stderr}");
}

#[test]
fn a_flipped_digit_in_a_middle_record_cuts_the_journal_there() {
    let dir = tempfile::tempdir().unwrap();
    let (path, journal) = journal_in(&dir);
    let args = [
        "count",
        "14",
        "--engine",
        "mirror",
        "--checkpoint",
        &journal,
        "--json",
    ];
    record(&args);
    let text = fs::read_to_string(&path).unwrap();
    let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
    // Line 4 is the third record: change one digit of its count.
    let fields: Vec<&str> = lines[3].split(' ').collect();
    let count: u64 = fields[1].parse().unwrap();
    lines[3] = format!("{} {} {}", fields[0], count + 1, fields[2]);
    fs::write(&path, lines.join("\n") + "\n").unwrap();
    let (resumed, stderr) = record(&args);
    assert_eq!(
        resumed["solutions"], MIRROR.total,
        "the flipped count is not trusted"
    );
    assert_eq!(resumed["resumed_units"], 2);
    assert!(stderr.contains("damaged from line 4"), "{stderr}");
}

#[test]
fn journals_of_other_plans_and_foreign_files_are_refused_untouched() {
    let dir = tempfile::tempdir().unwrap();
    let (path, journal) = journal_in(&dir);
    record(&["count", "14", "--checkpoint", &journal, "--json"]);
    let before = fs::read(&path).unwrap();
    let refused = |args: &[&str], needles: &[&str]| {
        let assert = queens(args);
        one_error_line(assert.stdout(""), 2, needles);
    };
    refused(
        &["count", "15", "--checkpoint", &journal],
        &[
            "cannot resume from",
            "another plan: n is 14 there, 15 here",
            "remove it",
        ],
    );
    refused(
        &[
            "count",
            "14",
            "--engine",
            "mirror",
            "--checkpoint",
            &journal,
        ],
        &["another plan: engine is join there, mirror here"],
    );
    assert_eq!(
        fs::read(&path).unwrap(),
        before,
        "a refused journal is left as it was"
    );

    let foreign = dir.path().join("notes.txt");
    fs::write(&foreign, "my notes\n").unwrap();
    refused(
        &["count", "14", "--checkpoint", foreign.to_str().unwrap()],
        &["not a queens journal"],
    );
    assert_eq!(fs::read_to_string(&foreign).unwrap(), "my notes\n");

    refused(
        &["count", "14", "--checkpoint", dir.path().to_str().unwrap()],
        &["cannot use", "it is a directory"],
    );
    let below_a_file = foreign.join("journal");
    refused(
        &[
            "count",
            "14",
            "--checkpoint",
            below_a_file.to_str().unwrap(),
        ],
        &["cannot use", "as a journal"],
    );

    let mut conflict = before.clone();
    let first_record = String::from_utf8(before.clone())
        .unwrap()
        .lines()
        .nth(1)
        .unwrap()
        .to_owned();
    let (id, count) = {
        let f: Vec<&str> = first_record.split(' ').collect();
        // By 8, a multiple of any unit's weight: a count it could have.
        (f[0].to_owned(), f[1].parse::<u64>().unwrap() + 8)
    };
    let header = String::from_utf8(before.clone()).unwrap();
    let plan = header
        .lines()
        .next()
        .unwrap()
        .rsplit_once("plan=")
        .unwrap()
        .1
        .to_owned();
    conflict.extend(queens_record(&plan, &id, count).as_bytes());
    let conflicting = dir.path().join("conflict.journal");
    fs::write(&conflicting, conflict).unwrap();
    refused(
        &["count", "14", "--checkpoint", conflicting.to_str().unwrap()],
        &["recorded twice with different counts"],
    );
}

/// A record with a valid checksum for `plan` (its hash), as another
/// (faulty) run would write it: the CRC-32 of `PLAN id count`.
fn queens_record(plan: &str, id: &str, count: u64) -> String {
    let body = format!("{id} {count}");
    let crc = crc32(format!("{plan} {body}").as_bytes());
    format!("{body} {crc:08x}\n")
}

#[test]
fn an_empty_file_is_a_new_journal() {
    let dir = tempfile::tempdir().unwrap();
    let (path, journal) = journal_in(&dir);
    fs::write(&path, "").unwrap();
    let (count, _) = record(&["count", "14", "--checkpoint", &journal, "--json"]);
    assert_eq!(count["solutions"], 365_596);
    assert_eq!(count["resumed_units"], 0);
    assert!(
        fs::read_to_string(&path)
            .unwrap()
            .starts_with("QJ2 n=14 engine=join format=1 ")
    );
}

#[test]
fn a_second_process_on_the_same_journal_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let (path, journal) = journal_in(&dir);
    let held = fs::File::create(&path).unwrap();
    held.try_lock().unwrap();
    let assert = queens(&["count", "14", "--checkpoint", &journal]);
    one_error_line(assert.stdout(""), 1, &["in use by another queens process"]);
    drop(held);
}

/// Starts a count of about three seconds, waits until its journal holds a
/// few records, and sends it `signal`.
#[cfg(unix)]
fn interrupt(signal: &str, journal: Option<&str>) -> Output {
    let mut args = vec!["count", "16", "--engine", "mirror", "-j", "1"];
    if let Some(journal) = journal {
        args.extend(["--checkpoint", journal]);
    }
    let child = command(&args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let started = Instant::now();
    let ready = || match journal {
        Some(j) => fs::read_to_string(j).is_ok_and(|t| t.lines().count() > 3),
        None => started.elapsed() > Duration::from_millis(500),
    };
    while !ready() {
        assert!(started.elapsed() < Duration::from_secs(20), "no records");
        std::thread::sleep(Duration::from_millis(20));
    }
    let status = Command::new("kill")
        .args([signal, &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    child.wait_with_output().unwrap()
}

#[cfg(unix)]
#[test]
fn sigint_and_sigterm_save_the_journal_and_say_how_to_resume() {
    for (signal, code) in [("-INT", 130), ("-TERM", 143)] {
        let dir = tempfile::tempdir().unwrap();
        let (path, journal) = journal_in(&dir);
        let out = interrupt(signal, Some(&journal));
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert_eq!(out.status.code(), Some(code), "{signal}: {stderr}");
        let saved = lines(&path) - 1;
        assert_eq!(
            stderr.trim_end(),
            format!(
                "interrupted: {saved} of 105 units saved in {journal}; rerun the same command to \
                 resume"
            ),
            "{signal}"
        );
        let (resumed, _) = record(&[
            "count",
            "16",
            "--engine",
            "mirror",
            "--checkpoint",
            &journal,
            "--json",
        ]);
        assert_eq!(resumed["solutions"], 14_772_512, "{signal}");
        assert_eq!(resumed["resumed_units"], saved, "{signal}");
    }
    let out = interrupt("-INT", None);
    assert_eq!(out.status.code(), Some(130));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(stderr.starts_with("interrupted: "), "{stderr}");
    assert!(
        stderr.contains("--checkpoint FILE would have kept them"),
        "{stderr}"
    );
}

#[test]
fn output_is_never_left_half_written() {
    let dir = tempfile::tempdir().unwrap();
    let (_, journal) = journal_in(&dir);
    let result = dir.path().join("result.json");
    let out_text = result.to_str().unwrap();
    fs::write(&result, "old\n").unwrap();
    let args = [
        "count",
        "15",
        "--checkpoint",
        &journal,
        "--output",
        out_text,
        "-q",
    ];
    killed_after(30, &args);
    assert_eq!(
        fs::read_to_string(&result).unwrap(),
        "old\n",
        "killed: the old file"
    );
    let done = output(&args);
    assert!(done.status.success());
    let written: Value = serde_json::from_str(&fs::read_to_string(&result).unwrap()).unwrap();
    assert_eq!(written["solutions"], JOIN.total);
    assert_eq!(written["resumed_units"], 30);
    let names: Vec<_> = fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names.len(), 2, "no temporary file is left: {names:?}");

    let fresh = dir.path().join("fresh.json");
    let out = output(&["count", "12", "--output", fresh.to_str().unwrap(), "-q"]);
    assert!(out.status.success());
    let written: Value = serde_json::from_str(&fs::read_to_string(&fresh).unwrap()).unwrap();
    assert_eq!(written["solutions"], 14_200);
    assert!(written["journal"].is_null());
}

#[test]
fn checkpoint_takes_one_board_size() {
    let assert = queens(&["count", "12..13", "--checkpoint", "x.journal"]);
    one_error_line(
        assert.stdout(""),
        2,
        &["--checkpoint keeps the units of one plan"],
    );
}

#[test]
fn output_may_not_overwrite_the_journal() {
    let dir = tempfile::tempdir().unwrap();
    let (_, journal) = journal_in(&dir);
    let assert = queens(&[
        "count",
        "12",
        "--checkpoint",
        &journal,
        "--output",
        &journal,
    ]);
    one_error_line(
        assert.stdout(""),
        2,
        &["--output", "is the journal this command reads"],
    );
}

/// Windows matches names without regard to case or trailing dots: a
/// journal and an output spelt apart but one file there are refused at
/// the start, before the count, as one spelling is.
#[cfg(windows)]
#[test]
fn output_may_not_overwrite_the_journal_spelt_otherwise() {
    let dir = tempfile::tempdir().unwrap();
    let journal = dir.path().join("run.journal");
    let output = dir.path().join("RUN.Journal.");
    let assert = queens(&[
        "count",
        "12",
        "--checkpoint",
        journal.to_str().unwrap(),
        "--output",
        output.to_str().unwrap(),
    ]);
    one_error_line(
        assert.stdout(""),
        2,
        &["--output", "is the journal this command reads"],
    );
}

/// The journal of `count 14 --engine mirror` (78 units, each of weight
/// 2), as its lines; its header's plan hash.
fn mirror_journal(path: &Path) -> (Vec<String>, String) {
    mirror_journal_of("14", path)
}

fn verify_journal(path: &Path) -> Output {
    output(&[
        "verify",
        "--journal",
        path.to_str().unwrap(),
        "--sample",
        "100%",
    ])
}

/// The one line of a run that exited with `code` and printed nothing.
fn refusal(out: &Output, code: i32) -> String {
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(code), "{err}");
    assert!(out.stdout.is_empty(), "{out:?}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.starts_with("queens: "), "{err}");
    err
}

/// See: issue 32, item 7 ("ok: 0 of 0 units recounted", exit 0, for a
/// journal in which nothing checked out).
#[test]
fn verify_refuses_a_journal_in_which_nothing_checks_out() {
    let dir = tempfile::tempdir().unwrap();
    let (path, _) = journal_in(&dir);
    let (lines, _) = mirror_journal(&path);
    let records = lines.len() - 1;

    // Another plan's records under this plan's header.
    let other = dir.path().join("other.journal");
    let (theirs, _) = mirror_journal_of("13", &other);
    let swapped = [&lines[..1], &theirs[1..]].concat().join("\n") + "\n";
    fs::write(&path, swapped).unwrap();
    let err = refusal(&verify_journal(&path), 2);
    assert!(
        err.contains(&format!(
            "nothing to verify in {}: none of its {} record(s) can be trusted: line 2",
            path.display(),
            theirs.len() - 1
        )) && err.contains("checksum fails"),
        "{err}"
    );

    // The first record's count changed without its checksum.
    let mut changed = lines.clone();
    let fields: Vec<&str> = lines[1].split(' ').collect();
    let count: u64 = fields[1].parse().unwrap();
    changed[1] = format!("{} {} {}", fields[0], count + 2, fields[2]);
    fs::write(&path, changed.join("\n") + "\n").unwrap();
    let err = refusal(&verify_journal(&path), 2);
    assert!(
        err.contains(&format!("none of its {records} record(s) can be trusted")),
        "{err}"
    );

    // A header and no record.
    fs::write(&path, lines[0].clone() + "\n").unwrap();
    let err = refusal(&verify_journal(&path), 2);
    assert!(
        err.contains("nothing to verify") && err.contains("no records yet"),
        "{err}"
    );
}

/// The journal of `count N --engine mirror`, as its lines; its plan hash.
fn mirror_journal_of(n: &str, path: &Path) -> (Vec<String>, String) {
    let out = output(&[
        "count",
        n,
        "--engine",
        "mirror",
        "--checkpoint",
        path.to_str().unwrap(),
        "-q",
    ]);
    assert!(out.status.success(), "{out:?}");
    let lines: Vec<String> = fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect();
    let plan = lines[0].rsplit_once("plan=").unwrap().1.to_owned();
    (lines, plan)
}

/// See: issue 32, item 8: a count that no unit can have, with a checksum
/// a forger recomputed, is damage: `count` cuts the journal there and
/// recounts, `verify` names the record and why.
#[test]
fn a_count_no_unit_can_have_is_damage_whatever_its_checksum() {
    let dir = tempfile::tempdir().unwrap();
    let (path, journal) = journal_in(&dir);
    let (lines, plan) = mirror_journal(&path);
    let id = lines[1].split(' ').next().unwrap().to_owned();
    for (count, why) in [
        (
            "203".to_owned(),
            format!("unit {id}: count 203 is not a multiple of its weight 2"),
        ),
        (
            u64::MAX.to_string(),
            format!(
                "unit {id}: count {} is not a multiple of its weight 2",
                u64::MAX
            ),
        ),
        (
            format!("1{}", "0".repeat(30)),
            format!(
                "unit {id}: count 1{} is more than any unit of n = 14 can have (365596",
                "0".repeat(30)
            ),
        ),
    ] {
        let body = format!("{id} {count}");
        let mut forged = lines.clone();
        forged[1] = format!("{body} {:08x}", crc32(format!("{plan} {body}").as_bytes()));
        fs::write(&path, forged.join("\n") + "\n").unwrap();

        let err = refusal(&verify_journal(&path), 2);
        assert!(
            err.contains("line 2, the first, is damaged") && err.contains(&why),
            "{err}"
        );

        // Only the third record forged: the others are verified, and the
        // warning names the damage.
        let mut third = lines.clone();
        third.swap(1, 3);
        third[3] = forged[1].clone();
        fs::write(&path, third.join("\n") + "\n").unwrap();
        let out = verify_journal(&path);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{err}");
        assert!(
            err.contains("damaged from line 4 on (line 4: ") && err.contains(&why),
            "{err}"
        );
        assert!(String::from_utf8_lossy(&out.stdout).starts_with("ok: 2 of 2 units"));

        let (resumed, stderr) = record(&[
            "count",
            "14",
            "--engine",
            "mirror",
            "--checkpoint",
            &journal,
            "--json",
        ]);
        assert_eq!(resumed["solutions"], MIRROR.total, "{stderr}");
        assert_eq!(resumed["resumed_units"], 2);
        assert!(
            stderr.contains("damaged from line 4") && stderr.contains(&why),
            "{stderr}"
        );
    }
}

/// See: issue 32, items 11 and 12: a torn header is said to be one, and
/// every bad header exits 2 (n = 99 exited 1).
#[test]
fn verify_says_what_is_wrong_with_a_header_and_exits_2() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bad.journal");
    let cases = [
        ("QJ2 ", "its header is incomplete"),
        (
            "QJ2 n=14 engine=mirror split=2 uni",
            "its header is incomplete",
        ),
        (
            "QJ2 n=99 engine=mirror split=2 units=1 plan=x\n",
            "names a plan this build cannot make",
        ),
        ("QJ2 n=14 engine=warp split=2\n", "engine 'warp'"),
        (
            "QJ2 n=14 split=2\n",
            "does not name a plan: it lacks engine",
        ),
        (
            "QJ2 n=14 engine=mirror split=9\n",
            "names a plan this build cannot make",
        ),
        ("hello\n", "not a queens journal"),
    ];
    for (text, why) in cases {
        fs::write(&path, text).unwrap();
        let err = refusal(&verify_journal(&path), 2);
        assert!(err.contains(why), "{text:?}: {err}");
        assert!(
            !err.contains("does not start with 'QJ2 '") || text.starts_with("hello"),
            "{err}"
        );
    }
}

/// See: issue 32, item 5: with stdout closed, verify refused only after
/// recounting its whole sample.
#[cfg(unix)]
#[test]
fn verify_with_stdout_closed_refuses_before_recounting() {
    let dir = tempfile::tempdir().unwrap();
    let (path, _) = journal_in(&dir);
    mirror_journal(&path);
    let out = Command::new("sh")
        .args([
            "-c",
            r#"exec "$0" "$@" >&-"#,
            env!("CARGO_BIN_EXE_queens"),
            "verify",
            "--journal",
            path.to_str().unwrap(),
            "--sample",
            "100%",
        ])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert_eq!(err.lines().count(), 1, "nothing recounted first: {err}");
    assert!(err.contains("standard output is closed"), "{err}");
}
