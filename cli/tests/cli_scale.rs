//! Issue 21: runs at scale that cannot be fooled. A journal's records are
//! bound to their plan; a full disk is left as it was found; a journal
//! truncated from outside ends the count in one line; a requeued task
//! waits for the lock its dying predecessor still holds.

use std::fs;
use std::path::Path;
use std::process::{Output, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::common::crc32;

use crate::common::cli::{command as queens, killed_after, output as run};

fn s(path: &Path) -> &str {
    path.to_str().unwrap()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn a_header_swapped_onto_another_plans_records_trusts_none_of_them() {
    // On 5515c4c a journal of n = 15 under n = 16's header was believed:
    // `count 16 --checkpoint forged` printed 14772513.
    let dir = tempfile::tempdir().unwrap();
    let (j15, j16) = (dir.path().join("j15"), dir.path().join("j16"));
    assert!(
        run(&["count", "15", "--checkpoint", s(&j15), "-q"])
            .status
            .success()
    );
    assert!(
        run(&["count", "16", "--units", "0", "--checkpoint", s(&j16), "-q"])
            .status
            .success()
    );
    let header16 = fs::read_to_string(&j16)
        .unwrap()
        .lines()
        .next()
        .unwrap()
        .to_owned();
    let records15: Vec<String> = fs::read_to_string(&j15)
        .unwrap()
        .lines()
        .skip(1)
        .map(str::to_owned)
        .collect();
    assert!(records15.len() > 100);
    let forged = dir.path().join("forged");
    fs::write(&forged, format!("{header16}\n{}\n", records15.join("\n"))).unwrap();
    let out = run(&["count", "16", "--checkpoint", s(&forged), "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let record: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(record["solutions"], 14_772_512);
    assert_eq!(record["resumed_units"], 0, "no record of n = 15 was taken");
    assert!(
        stderr(&out).contains("damaged from line 2"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn an_old_format_journal_is_refused_by_name() {
    let dir = tempfile::tempdir().unwrap();
    let journal = dir.path().join("j");
    assert!(
        run(&[
            "count",
            "12",
            "--units",
            "0-9",
            "--checkpoint",
            s(&journal),
            "-q"
        ])
        .status
        .success()
    );
    let text = fs::read_to_string(&journal)
        .unwrap()
        .replacen("QJ2", "QJ1", 1);
    fs::write(&journal, &text).unwrap();
    let out = run(&["count", "12", "--checkpoint", s(&journal)]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("older format (QJ1)"),
        "{}",
        stderr(&out)
    );
    assert_eq!(
        fs::read_to_string(&journal).unwrap(),
        text,
        "left as it was"
    );
}

#[test]
fn a_journal_sets_room_aside_only_for_the_units_it_will_count() {
    // A shard of 1/64 at n = 16 left a 388 KB journal for about 101 units.
    let dir = tempfile::tempdir().unwrap();
    let journal = dir.path().join("j");
    let args = [
        "count",
        "16",
        "--units",
        "0-99",
        "--checkpoint",
        s(&journal),
    ];
    killed_after(10, &args);
    let len = fs::metadata(&journal).unwrap().len();
    // The header, 10 records and room for 90 more, at most 60 bytes each.
    assert!(len <= 200 + 100 * 60, "{len} bytes for 100 units");
}

#[cfg(unix)]
#[test]
#[ignore = "needs root"]
fn a_full_disk_is_left_as_it_was_found() {
    let dir = crate::common::small_tmpfs();
    let _ = fs::write(dir.path().join("fill"), vec![1u8; 40 << 10]);
    let journal = dir.path().join("j");
    let out = run(&["count", "16", "--checkpoint", s(&journal)]);
    let left = journal.exists();
    let _ = std::process::Command::new("umount")
        .arg(dir.path())
        .status();
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("No space left on device"),
        "{}",
        stderr(&out)
    );
    assert!(!left, "the journal it made is removed");
}

#[cfg(unix)]
#[test]
fn a_journal_truncated_from_outside_ends_the_count_in_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let journal = dir.path().join("j");
    let child = queens(&[
        "count",
        "17",
        "--engine",
        "mirror",
        "-j",
        "1",
        "--checkpoint",
        s(&journal),
    ])
    .stdout(Stdio::piped())
    .stderr(Stdio::piped())
    .spawn()
    .unwrap();
    let started = Instant::now();
    while !fs::read_to_string(&journal).is_ok_and(|t| t.lines().count() > 3) {
        assert!(started.elapsed() < Duration::from_secs(20), "no records");
        std::thread::sleep(Duration::from_millis(20));
    }
    fs::OpenOptions::new()
        .write(true)
        .open(&journal)
        .unwrap()
        .set_len(0)
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("was cut short by another process"), "{err}");
    assert!(out.stdout.is_empty(), "no total is reported");
}

#[test]
fn a_locked_journal_is_waited_for_then_refused_or_resumed() {
    let dir = tempfile::tempdir().unwrap();
    let journal = dir.path().join("j");
    let held = fs::File::create(&journal).unwrap();
    held.try_lock().unwrap();

    let started = Instant::now();
    let out = run(&[
        "count",
        "12",
        "--checkpoint",
        s(&journal),
        "--lock-wait",
        "3",
    ]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(started.elapsed() >= Duration::from_secs(3));
    assert!(
        err.contains("waiting up to 3 s") && err.contains("(waited 3 s"),
        "{err}"
    );

    // The holder lets go while the next one waits: it goes on and counts.
    let child = queens(&[
        "count",
        "12",
        "--checkpoint",
        s(&journal),
        "--lock-wait",
        "30",
        "-q",
    ])
    .stdout(Stdio::piped())
    .stderr(Stdio::piped())
    .spawn()
    .unwrap();
    std::thread::sleep(Duration::from_millis(700));
    drop(held);
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "14200");

    // Without --lock-wait a plain --checkpoint tries again only for the
    // 2 s of grace a killed holder may need, and says nothing of a wait.
    let held = fs::File::open(&journal).unwrap();
    held.try_lock().unwrap();
    let started = Instant::now();
    let out = run(&["count", "12", "--checkpoint", s(&journal)]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1));
    let took = started.elapsed();
    assert!(took >= Duration::from_secs(2) && took < Duration::from_secs(10));
    assert!(!err.contains("waiting") && !err.contains("waited"), "{err}");
}

#[test]
fn a_forged_record_that_fools_the_checksum_is_blamed_on_the_journal() {
    // A forger who recomputes the checksum passes the journal's check; the
    // OEIS check catches the total, and its message names the journal,
    // how many units came from it, and how to recount them.
    let dir = tempfile::tempdir().unwrap();
    let journal = dir.path().join("j");
    assert!(
        run(&["count", "14", "--checkpoint", s(&journal), "-q"])
            .status
            .success()
    );
    let text = fs::read_to_string(&journal).unwrap();
    let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
    let plan = lines[0].rsplit_once("plan=").unwrap().1.to_owned();
    let fields: Vec<String> = lines[1].split(' ').map(str::to_owned).collect();
    // By 8, a multiple of any unit's weight: a count the unit could have
    // (one it could not is damage, recounted: see the test below).
    let body = format!("{} {}", fields[0], fields[1].parse::<u64>().unwrap() + 8);
    lines[1] = format!("{body} {:08x}", crc32(format!("{plan} {body}").as_bytes()));
    fs::write(&journal, lines.join("\n") + "\n").unwrap();
    let units = lines.len() - 1;

    let out = run(&["count", "14", "--checkpoint", s(&journal)]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(3), "{err}");
    let line = err.lines().find(|l| l.contains("MISMATCH")).unwrap();
    assert!(
        line.contains(&format!(
            "{units} of {units} units came from the journal {}",
            s(&journal)
        )),
        "{line}"
    );
    assert!(line.contains("queens verify --journal"), "{line}");
}

#[test]
fn verify_journal_recounts_its_records_and_catches_a_forged_one() {
    let dir = tempfile::tempdir().unwrap();
    let journal = dir.path().join("j");
    assert!(
        run(&["count", "13", "--checkpoint", s(&journal), "-q"])
            .status
            .success()
    );
    let out = run(&["verify", "--journal", s(&journal), "--sample", "100%"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("ok: "));

    // A record whose count and checksum a forger changed together.
    let text = fs::read_to_string(&journal).unwrap();
    let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
    let plan = lines[0].rsplit_once("plan=").unwrap().1.to_owned();
    let fields: Vec<String> = lines[5].split(' ').map(str::to_owned).collect();
    let body = format!("{} {}", fields[0], fields[1].parse::<u64>().unwrap() + 8);
    lines[5] = format!("{body} {:08x}", crc32(format!("{plan} {body}").as_bytes()));
    let forged = lines.join("\n") + "\n";
    fs::write(&journal, &forged).unwrap();
    let out = run(&[
        "verify",
        "--journal",
        s(&journal),
        "--sample",
        "100%",
        "--json",
    ]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(3), "{err}");
    assert!(err.contains("differ from the journal"), "{err}");
    let record: Value = serde_json::from_slice(&out.stdout).unwrap();
    let id: u64 = fields[0].parse().unwrap();
    assert_eq!(record["disagreements"][0][0], id);
    assert_eq!(fs::read_to_string(&journal).unwrap(), forged, "only read");

    for (bad, why) in [
        ("QJ9 n=13\n", "not a queens journal"),
        ("", "not a queens journal"),
    ] {
        fs::write(&journal, bad).unwrap();
        let out = run(&["verify", "--journal", s(&journal), "--sample", "1%"]);
        assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
        assert!(stderr(&out).contains(why), "{}", stderr(&out));
    }
}

#[test]
fn a_resumed_shard_lists_its_journal_units_and_verify_samples_them_first() {
    let dir = tempfile::tempdir().unwrap();
    let out_dir = dir.path().join("P");
    let args = [
        "count",
        "13",
        "--shard",
        "0/2",
        "--out-dir",
        s(&out_dir),
        "-q",
    ];
    killed_after(12, &args);
    assert!(run(&args).status.success());
    assert!(
        run(&[
            "count",
            "13",
            "--shard",
            "1/2",
            "--out-dir",
            s(&out_dir),
            "-q"
        ])
        .status
        .success()
    );
    let file: Value =
        serde_json::from_str(&fs::read_to_string(out_dir.join("shard-0000-of-0002.json")).unwrap())
            .unwrap();
    let from_journal = file["journal_units"].as_array().unwrap();
    assert_eq!(from_journal.len(), 12);

    // 12 units is under 1% of n = 13's 3,024: all of them are the journal's.
    let out = run(&["verify", s(&out_dir), "--sample", "0.4%", "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let record: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(record["sampled"], 13);
    assert_eq!(record["from_journal"], 12);
}
