//! `count --checkpoint`, `--output` and signals, as a user meets them: a
//! count killed with SIGKILL at a known record resumes to the OEIS total
//! and recounts only what was missing; damaged, foreign or busy journals
//! are recounted or refused, never trusted; Ctrl-C and SIGTERM save and
//! say how to resume.

use std::fs;
use std::io::Write;
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::common::cli::{one_error_line, queens as run_queens};
use crate::common::crc32;

fn queens(args: &[&str]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_queens"));
    command.args(args);
    command
}

fn run(args: &[&str]) -> Output {
    queens(args).output().unwrap()
}

/// Runs a count that kills itself with SIGKILL after `records` records.
fn killed_after(records: usize, args: &[&str]) {
    crate::common::needs_test_hooks();
    let out = queens(args)
        .env("QUEENS_TEST_KILL_AFTER", records.to_string())
        .output()
        .unwrap();
    assert_eq!(out.status.signal(), Some(9), "{out:?}");
}

/// The JSON record of a count that succeeded.
fn record(args: &[&str]) -> (Value, String) {
    let out = run(args);
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
        let assert = run_queens(args);
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
        (f[0].to_owned(), f[1].parse::<u64>().unwrap() + 1)
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
    let assert = run_queens(&["count", "14", "--checkpoint", &journal]);
    one_error_line(assert.stdout(""), 1, &["in use by another queens process"]);
    drop(held);
}

/// Starts a count of about three seconds, waits until its journal holds a
/// few records, and sends it `signal`.
fn interrupt(signal: &str, journal: Option<&str>) -> Output {
    let mut args = vec!["count", "16", "--engine", "mirror", "-j", "1"];
    if let Some(journal) = journal {
        args.extend(["--checkpoint", journal]);
    }
    let child = queens(&args)
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
    let output = dir.path().join("result.json");
    let out_text = output.to_str().unwrap();
    fs::write(&output, "old\n").unwrap();
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
        fs::read_to_string(&output).unwrap(),
        "old\n",
        "killed: the old file"
    );
    let done = run(&args);
    assert!(done.status.success());
    let written: Value = serde_json::from_str(&fs::read_to_string(&output).unwrap()).unwrap();
    assert_eq!(written["solutions"], JOIN.total);
    assert_eq!(written["resumed_units"], 30);
    let names: Vec<_> = fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names.len(), 2, "no temporary file is left: {names:?}");

    let fresh = dir.path().join("fresh.json");
    let out = run(&["count", "12", "--output", fresh.to_str().unwrap(), "-q"]);
    assert!(out.status.success());
    let written: Value = serde_json::from_str(&fs::read_to_string(&fresh).unwrap()).unwrap();
    assert_eq!(written["solutions"], 14_200);
    assert!(written["journal"].is_null());
}

#[test]
fn checkpoint_takes_one_board_size() {
    let assert = run_queens(&["count", "12..13", "--checkpoint", "x.journal"]);
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
    let assert = run_queens(&[
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
