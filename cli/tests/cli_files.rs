//! Issue 20: every file the tool writes or reads, tried as an attacker
//! would. Outputs never replace a device, a FIFO, a file the user may not
//! write, a queens file or one of the command's own inputs; inputs that
//! are not regular files, or far larger than they could be, are refused
//! at once, in constant memory, without hanging.
//!
//! Everything special is made under a temporary folder (FIFOs with
//! `mkfifo`; device nodes with `mknod`, as root only): never the
//! machine's own /dev. Tests that need root say so when they skip.

use std::fs;
#[cfg(unix)]
use std::os::unix::fs::{FileTypeExt, MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use crate::common::cli::{command as queens, one_error_line};

/// Runs `queens`, killing it if it has not finished in 20 s (a hang is a
/// failure, not a stuck test run).
fn run(args: &[&str]) -> Output {
    finish(queens(args))
}

/// Runs `queens` with standard input read from the file `input`, as
/// `< input` does.
fn run_reading(args: &[&str], input: &Path) -> Output {
    let mut command = queens(args);
    command.stdin(fs::File::open(input).unwrap());
    finish(command)
}

/// Runs `command`, killing it if it has not finished in 20 s.
fn finish(mut command: Command) -> Output {
    let args: Vec<_> = command.get_args().map(|a| a.to_owned()).collect();
    let mut child = command
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > Duration::from_secs(20) {
            let _ = child.kill();
            panic!("queens {args:?} hung for 20 s");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().unwrap()
}

/// Asserts a run refused in one line holding every needle, with `code`.
fn refused(out: &Output, code: i32, needles: &[&str]) {
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(code), "{err}");
    assert_eq!(err.lines().count(), 1, "not one line:\n{err}");
    assert!(
        err.starts_with("queens: ") && !err.contains("panicked"),
        "{err}"
    );
    for needle in needles {
        assert!(err.contains(needle), "{err:?} lacks {needle:?}");
    }
}

#[cfg(unix)]
fn is_root() -> bool {
    fs::metadata("/proc/self").is_ok_and(|m| m.uid() == 0)
}

fn path(dir: &tempfile::TempDir, name: &str) -> PathBuf {
    dir.path().join(name)
}

fn s(path: &Path) -> &str {
    path.to_str().unwrap()
}

#[cfg(unix)]
fn mkfifo(path: &Path) {
    let status = Command::new("mkfifo").arg(path).status().unwrap();
    assert!(status.success());
}

#[cfg(unix)]
/// A character device node under `dir` with `major, minor` (root only:
/// its tests are `#[ignore = "needs root"]`).
fn mknod(path: &Path, major: u32, minor: u32) {
    crate::common::needs_root("making a device node");
    let made = Command::new("mknod")
        .args([
            "-m",
            "666",
            s(path),
            "c",
            &major.to_string(),
            &minor.to_string(),
        ])
        .status()
        .is_ok_and(|status| status.success());
    assert!(made, "mknod could not make {path:?}");
}

/// A journal of six units of n = 12 at `path`.
fn small_journal(path: &Path) {
    let out = run(&[
        "count",
        "12",
        "--units",
        "0-5",
        "--checkpoint",
        s(path),
        "-q",
    ]);
    assert!(out.status.success(), "{out:?}");
}

/// A finished set of shard results of n = 12 in `dir`/P.
fn shards(dir: &tempfile::TempDir) -> PathBuf {
    let out_dir = path(dir, "P");
    for i in 0..4 {
        let shard = format!("{i}/4");
        let out = run(&[
            "count",
            "12",
            "--shard",
            &shard,
            "--out-dir",
            s(&out_dir),
            "-q",
        ]);
        assert!(out.status.success(), "{out:?}");
    }
    out_dir
}

#[cfg(unix)]
#[test]
fn an_output_fifo_is_written_when_read_and_refused_at_once_when_not() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = path(&dir, "fifo");
    mkfifo(&fifo);
    let out = run(&["count", "10", "--output", s(&fifo), "-q"]);
    refused(&out, 1, &["FIFO that no process is reading"]);
    assert!(fs::metadata(&fifo).unwrap().file_type().is_fifo());

    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || {
            use std::io::Read;
            let mut text = String::new();
            fs::File::open(fifo)
                .unwrap()
                .read_to_string(&mut text)
                .unwrap();
            text
        })
    };
    // The reader must have opened the FIFO before queens writes to it.
    let started = Instant::now();
    let out = loop {
        let out = run(&["count", "10", "--output", s(&fifo), "-q"]);
        if out.status.success() || started.elapsed() > Duration::from_secs(10) {
            break out;
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    assert!(out.status.success(), "{out:?}");
    let text = reader.join().unwrap();
    assert!(text.starts_with(r#"{"n":10,"solutions":724,"#), "{text}");
    assert!(fs::metadata(&fifo).unwrap().file_type().is_fifo());
}

#[cfg(unix)]
#[test]
#[ignore = "needs root"]
fn an_output_device_is_written_in_place_never_replaced() {
    let dir = tempfile::tempdir().unwrap();
    let null = path(&dir, "null");
    mknod(&null, 1, 3);
    let out = run(&["count", "10", "--output", s(&null), "-q"]);
    assert!(out.status.success(), "{out:?}");
    let meta = fs::symlink_metadata(&null).unwrap();
    assert!(meta.file_type().is_char_device(), "{meta:?}");
    assert_eq!(meta.mode() & 0o777, 0o666);
}

#[cfg(unix)]
#[test]
fn a_regular_output_keeps_its_mode_and_no_temporary_is_left() {
    let dir = tempfile::tempdir().unwrap();
    let file = path(&dir, "result.json");
    fs::write(&file, "old").unwrap();
    fs::set_permissions(&file, fs::Permissions::from_mode(0o640)).unwrap();
    let out = run(&["count", "10", "--output", s(&file), "-q"]);
    assert!(out.status.success(), "{out:?}");
    assert_eq!(fs::metadata(&file).unwrap().mode() & 0o7777, 0o640);
    assert!(
        fs::read_to_string(&file)
            .unwrap()
            .contains(r#""solutions":724"#)
    );
    let names: Vec<_> = fs::read_dir(dir.path()).unwrap().collect();
    assert_eq!(names.len(), 1, "a temporary file was left: {names:?}");
}

#[cfg(unix)]
#[test]
fn an_output_the_user_may_not_write_is_refused_and_left_as_it_is() {
    let dir = tempfile::tempdir().unwrap();
    let file = path(&dir, "secret.txt");
    fs::write(&file, "secret").unwrap();
    fs::set_permissions(&file, fs::Permissions::from_mode(0o444)).unwrap();
    let out = if is_root() {
        // Root may write anything, as `>` may: try as nobody instead.
        fs::set_permissions(dir.path(), fs::Permissions::from_mode(0o777)).unwrap();
        let binary = path(&dir, "queens");
        fs::copy(env!("CARGO_BIN_EXE_queens"), &binary).unwrap();
        let status = Command::new("chown")
            .args(["nobody", s(&file)])
            .status()
            .unwrap();
        assert!(status.success());
        match Command::new("runuser")
            .args(["-u", "nobody", "--", s(&binary), "count", "10", "-q"])
            .args(["--output", s(&file)])
            .output()
        {
            Ok(out) => out,
            Err(e) => panic!("runuser (util-linux) is needed to drop root for this test: {e}"),
        }
    } else {
        run(&["count", "10", "--output", s(&file), "-q"])
    };
    refused(&out, 2, &["--output", "cannot be written", "left as it is"]);
    assert!(out.stdout.is_empty(), "refused before counting");
    assert_eq!(fs::read_to_string(&file).unwrap(), "secret");
    assert_eq!(fs::metadata(&file).unwrap().mode() & 0o777, 0o444);
}

#[cfg(unix)]
#[test]
fn a_symlink_output_writes_its_target_and_a_dangling_one_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let target = path(&dir, "target.json");
    let link = path(&dir, "link.json");
    fs::write(&target, "old").unwrap();
    std::os::unix::fs::symlink(&target, &link).unwrap();
    let out = run(&["count", "10", "--output", s(&link), "-q"]);
    assert!(out.status.success(), "{out:?}");
    assert!(
        fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert!(
        fs::read_to_string(&target)
            .unwrap()
            .contains(r#""solutions":724"#)
    );

    let dangling = path(&dir, "dangling");
    std::os::unix::fs::symlink(path(&dir, "nowhere"), &dangling).unwrap();
    let out = run(&["count", "10", "--output", s(&dangling), "-q"]);
    refused(&out, 2, &["symlink to nothing"]);
}

/// See: issue 32 (the journal, a symlink to the output's name, was
/// written through; the output was refused only after the whole count).
#[cfg(unix)]
#[test]
fn a_journal_linked_to_the_output_is_refused_before_counting() {
    let dir = tempfile::tempdir().unwrap();
    let output = path(&dir, "out.json");
    let journal = path(&dir, "j.journal");
    std::os::unix::fs::symlink("out.json", &journal).unwrap();
    let out = run(&[
        "count",
        "10",
        "--checkpoint",
        s(&journal),
        "--output",
        s(&output),
    ]);
    refused(&out, 2, &["--output", "the journal"]);
    assert!(out.stdout.is_empty(), "refused before counting");
    assert!(!output.exists(), "nothing written through the link");

    // Two links deep, and the link's target spelt through its folder.
    let hop = path(&dir, "hop");
    std::os::unix::fs::symlink(&journal, &hop).unwrap();
    let other = dir.path().join(".").join("out.json");
    let out = run(&[
        "count",
        "10",
        "--checkpoint",
        s(&hop),
        "--output",
        s(&other),
    ]);
    refused(&out, 2, &["--output", "the journal"]);
    assert!(!output.exists());
}

#[test]
fn an_output_is_never_one_of_the_command_inputs() {
    let dir = tempfile::tempdir().unwrap();
    // A journal that does not exist yet, spelt two ways.
    let journal = path(&dir, "j");
    let other_spelling = format!("{}/./j", dir.path().display());
    let out = run(&[
        "count",
        "10",
        "--checkpoint",
        s(&journal),
        "--output",
        &other_spelling,
    ]);
    refused(&out, 2, &["is the journal this command reads"]);
    assert!(!journal.exists());
    // An existing one, through a hard link.
    let out = run(&["count", "10", "--checkpoint", s(&journal), "-q"]);
    assert!(out.status.success(), "{out:?}");
    let linked = path(&dir, "linked");
    fs::hard_link(&journal, &linked).unwrap();
    let before = fs::read(&journal).unwrap();
    let out = run(&[
        "count",
        "10",
        "--checkpoint",
        s(&journal),
        "--output",
        s(&linked),
    ]);
    refused(&out, 2, &["is the journal this command reads"]);
    assert_eq!(fs::read(&journal).unwrap(), before);

    // merge's CSV over one of its shard results.
    let shards = shards(&dir);
    let first = shards.join("shard-0000-of-0004.json");
    let before = fs::read(&first).unwrap();
    let out = run(&["merge", s(&shards), "--units-csv", s(&first)]);
    refused(
        &out,
        2,
        &["--units-csv", "a shard result this command reads"],
    );
    assert_eq!(fs::read(&first).unwrap(), before);

    // A shard's --output over its own result.
    let out = run(&["count", "12", "--shard", "0/4", "--out-dir", s(&shards)])
        .status
        .success();
    assert!(out);
    let out = run(&[
        "count",
        "12",
        "--shard",
        "1/4",
        "--out-dir",
        s(&shards),
        "--output",
        s(&shards.join("shard-0001-of-0004.json")),
    ]);
    refused(&out, 2, &["is the shard result this command reads"]);
}

#[test]
fn an_output_never_replaces_a_queens_file() {
    let dir = tempfile::tempdir().unwrap();
    let shards = shards(&dir);
    let second = shards.join("shard-0001-of-0004.json");
    let before = fs::read(&second).unwrap();
    let out = run(&["count", "12", "--output", s(&second), "-q"]);
    refused(&out, 2, &["is a queens shard result"]);
    assert_eq!(fs::read(&second).unwrap(), before);

    let journal = path(&dir, "j");
    small_journal(&journal);
    let out = run(&["count", "11", "--output", s(&journal), "-q"]);
    refused(&out, 2, &["is a queens journal"]);
}

/// The names of the files in `dir`, sorted: a refusal leaves no
/// temporary behind.
fn listing(dir: &Path) -> Vec<std::ffi::OsString> {
    let mut names: Vec<_> = (fs::read_dir(dir).unwrap())
        .map(|e| e.unwrap().file_name())
        .collect();
    names.sort();
    names
}

/// `file` in `dir` spelt five ways: its path, a hard link and a symlink
/// to it (made in `dir`), through `.` and through the folder's parent.
/// (Four on Windows, where making a symlink takes a privilege.)
fn spellings(dir: &Path, file: &str) -> Vec<String> {
    let hard = dir.join(format!("{file}.hard"));
    fs::hard_link(dir.join(file), &hard).unwrap();
    #[cfg_attr(not(unix), allow(unused_mut))]
    let mut spelt = vec![
        s(&dir.join(file)).to_owned(),
        s(&hard).to_owned(),
        format!("{}/./{file}", dir.display()),
        format!(
            "{}/../{}/{file}",
            dir.display(),
            dir.file_name().unwrap().to_str().unwrap()
        ),
    ];
    #[cfg(unix)]
    {
        let soft = dir.join(format!("{file}.soft"));
        std::os::unix::fs::symlink(file, &soft).unwrap();
        spelt.push(s(&soft).to_owned());
    }
    spelt
}

/// `check --svg FILE < FILE` replaced the boards it read by their picture;
/// standard input is an input like any other where it is a regular file,
/// by device and inode, whatever the output's spelling. See: issue 47,
/// item 1.
#[cfg(unix)]
#[test]
fn check_never_draws_over_the_boards_on_its_standard_input() {
    let dir = tempfile::tempdir().unwrap();
    let boards = path(&dir, "b.txt");
    let before = b"2 4 1 3\n3 1 4 2\n";
    fs::write(&boards, before).unwrap();
    let spelt = spellings(dir.path(), "b.txt");
    let names = listing(dir.path());
    let stdin_names = ["/dev/stdin", "/proc/self/fd/0"].map(str::to_owned);
    for svg in spelt.iter().chain(&stdin_names) {
        for args in [&["check", "--svg", svg][..], &["check", "-", "--svg", svg]] {
            let out = run_reading(args, &boards);
            refused(&out, 2, &["--svg", "the file on standard input"]);
            assert!(out.stdout.is_empty(), "{args:?}: refused before reading");
            assert_eq!(fs::read(&boards).unwrap(), before, "{args:?}");
            assert_eq!(listing(dir.path()), names, "{args:?}");
        }
    }
    // Named as the file to check, it is refused as that.
    for svg in &spelt {
        let out = run(&["check", s(&boards), "--svg", svg]);
        refused(&out, 2, &["--svg", "the file of boards this command reads"]);
        assert_eq!(fs::read(&boards).unwrap(), before);
    }
    // Another file is drawn.
    let svg = path(&dir, "b.svg");
    let out = run_reading(&["check", "--svg", s(&svg)], &boards);
    assert!(out.status.success(), "{out:?}");
    assert!(fs::read_to_string(&svg).unwrap().starts_with("<svg"));
    assert_eq!(fs::read(&boards).unwrap(), before);
}

/// `count --board FILE --output FILE` replaced the partial board by the
/// count's record. See: issue 47, item 2.
#[cfg(unix)]
#[test]
fn count_never_writes_its_record_over_its_partial_board() {
    let dir = tempfile::tempdir().unwrap();
    let board = path(&dir, "s.txt");
    let before =
        b".Q......\n........\n........\n........\n........\n........\n........\n........\n";
    fs::write(&board, before).unwrap();
    let outputs = spellings(dir.path(), "s.txt");
    let names = listing(dir.path());
    for output in &outputs {
        let out = run(&["count", "8", "--board", s(&board), "--output", output, "-q"]);
        refused(
            &out,
            2,
            &["--output", "the partial board this command reads"],
        );
        assert!(out.stdout.is_empty(), "{output}: refused before counting");
        assert_eq!(fs::read(&board).unwrap(), before, "{output}");
        assert_eq!(listing(dir.path()), names, "{output}");
    }
    // The board read through standard input's name.
    let out = run_reading(
        &[
            "count",
            "8",
            "--board",
            "/dev/stdin",
            "--output",
            s(&board),
            "-q",
        ],
        &board,
    );
    refused(
        &out,
        2,
        &["--output", "the partial board this command reads"],
    );
    assert_eq!(fs::read(&board).unwrap(), before);
}

/// `check --board FILE --svg FILE` replaced the problem's board by the
/// picture. See: issue 47, item 3.
#[test]
fn check_never_draws_over_its_partial_board() {
    let dir = tempfile::tempdir().unwrap();
    let board = path(&dir, "p.txt");
    let before = b".Q..\n....\n....\n....\n";
    fs::write(&board, before).unwrap();
    let boards = path(&dir, "in.txt");
    fs::write(&boards, "2 4 1 3\n").unwrap();
    let svgs = spellings(dir.path(), "p.txt");
    let names = listing(dir.path());
    for svg in &svgs {
        let out = run_reading(&["check", "--board", s(&board), "--svg", svg], &boards);
        refused(&out, 2, &["--svg", "the partial board this command reads"]);
        assert!(out.stdout.is_empty(), "{svg}: refused before reading");
        assert_eq!(fs::read(&board).unwrap(), before, "{svg}");
        assert_eq!(listing(dir.path()), names, "{svg}");
    }
    // Boards from a character device rather than a file.
    let out = run(&["check", "--board", s(&board), "--svg", &svgs[1]]);
    refused(&out, 2, &["--svg", "the partial board this command reads"]);
    assert_eq!(fs::read(&board).unwrap(), before);
}

#[test]
fn a_finished_shard_still_writes_its_output() {
    let dir = tempfile::tempdir().unwrap();
    let shards = shards(&dir);
    let output = path(&dir, "f.json");
    let out = run(&[
        "count",
        "12",
        "--shard",
        "0/4",
        "--out-dir",
        s(&shards),
        "--output",
        s(&output),
        "-q",
    ]);
    assert!(out.status.success(), "{out:?}");
    let written = fs::read_to_string(&output).unwrap();
    let record: serde_json::Value = serde_json::from_str(&written).unwrap();
    assert_eq!(record["n"], 12);
    assert_eq!(
        record["solutions"].to_string(),
        String::from_utf8(out.stdout).unwrap().trim()
    );
}

#[test]
fn stale_temporary_files_of_any_name_are_left_alone() {
    // The old temporary name was FILE.PID.tmp; in a container queens is
    // often PID 1, so a stale one made every later write fail.
    let dir = tempfile::tempdir().unwrap();
    let out_dir = path(&dir, "S");
    fs::create_dir(&out_dir).unwrap();
    for pid in 1..=4 {
        fs::write(
            out_dir.join(format!("shard-0000-of-0002.json.{pid}.tmp")),
            "stale",
        )
        .unwrap();
        fs::write(path(&dir, &format!("r.json.{pid}.tmp")), "stale").unwrap();
    }
    let out = run(&[
        "count",
        "12",
        "--shard",
        "0/2",
        "--out-dir",
        s(&out_dir),
        "-q",
    ]);
    assert!(out.status.success(), "{out:?}");
    assert!(out_dir.join("shard-0000-of-0002.json").exists());
    let out = run(&["count", "12", "--output", s(&path(&dir, "r.json")), "-q"]);
    assert!(out.status.success(), "{out:?}");
}

#[test]
fn a_file_of_zeros_is_no_journal_and_is_left_as_it_is() {
    let dir = tempfile::tempdir().unwrap();
    for size in [100 << 20, 7000] {
        let image = path(&dir, "img");
        let file = fs::File::create(&image).unwrap();
        file.set_len(size).unwrap();
        drop(file);
        let out = run(&["count", "12", "--checkpoint", s(&image)]);
        refused(&out, 2, &["only zero bytes"]);
        assert_eq!(fs::metadata(&image).unwrap().len(), size);
    }
}

#[cfg(unix)]
#[test]
fn special_files_are_refused_as_journals_and_shard_results_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = path(&dir, "fifo");
    mkfifo(&fifo);
    let out = run(&["count", "12", "--checkpoint", s(&fifo)]);
    refused(&out, 2, &["it is a FIFO; a journal must be a regular file"]);
    // Nothing to merge is bad input, as verify says of it (issue 32).
    let out = run(&["merge", s(&fifo)]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("it is a FIFO"));
    let out = run(&["verify", s(&fifo), "--sample", "10%"]);
    refused(
        &out,
        2,
        &["it is a FIFO; a shard result must be a regular file"],
    );
    assert!(fs::metadata(&fifo).unwrap().file_type().is_fifo());
}

#[cfg(unix)]
#[test]
#[ignore = "needs root"]
fn a_device_is_refused_as_a_journal_and_a_shard_result_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let zero = path(&dir, "zero");
    mknod(&zero, 1, 5);
    let out = run(&["count", "12", "--checkpoint", s(&zero)]);
    refused(
        &out,
        2,
        &["character device; a journal must be a regular file"],
    );
    let out = run(&["merge", s(&zero)]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("character device"));
}

#[test]
fn oversized_inputs_are_refused_before_they_are_read() {
    let dir = tempfile::tempdir().unwrap();
    // Sparse: a gigabyte of nothing costs no disk.
    let big = path(&dir, "shard-0000-of-0001.json");
    let file = fs::File::create(&big).unwrap();
    file.set_len(1 << 30).unwrap();
    drop(file);
    let out = run(&["merge", s(&big)]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("more than any shard result"), "{err}");

    let journal = path(&dir, "j");
    let mut bytes = b"QJ1 n=12 engine=join".to_vec();
    bytes.resize(1 << 30, b'x');
    fs::write(&journal, &bytes).unwrap();
    drop(bytes);
    let out = run(&["count", "12", "--checkpoint", s(&journal)]);
    refused(&out, 2, &["not a queens journal"]);
    assert_eq!(fs::metadata(&journal).unwrap().len(), 1 << 30);
}

#[test]
fn merge_takes_a_file_given_twice_once() {
    let dir = tempfile::tempdir().unwrap();
    let shards = shards(&dir);
    let out = run(&["merge", s(&shards), s(&shards), "--json"]);
    assert!(out.status.success(), "{out:?}");
    let record: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        record["confirmed_units"], 0,
        "the same file is no second opinion"
    );
    assert_eq!(record["total"], 14200);
}

#[test]
fn absurd_fields_of_a_shard_file_are_refused_in_a_short_line() {
    let dir = tempfile::tempdir().unwrap();
    let shards = shards(&dir);
    let first = shards.join("shard-0000-of-0004.json");
    let text = fs::read_to_string(&first).unwrap();
    let value: serde_json::Value = serde_json::from_str(&text).unwrap();
    let total = value["total"].as_str().unwrap().to_owned();

    let huge_total = text.replace(
        &format!(r#""total":"{total}""#),
        &format!(r#""total":"{}""#, "9".repeat(100_000)),
    );
    fs::write(&first, huge_total).unwrap();
    let out = run(&["merge", s(&shards)]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.lines().all(|l| l.len() < 400), "{err}");
    assert!(err.contains("its total is 100000 characters long"), "{err}");

    let too_big = text.replacen("[", "[[0,99999999999999999999999],", 1);
    fs::write(&first, too_big).unwrap();
    let out = run(&["merge", s(&shards)]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("not a queens shard result") || err.contains("too large"),
        "{err}"
    );
    assert!(!err.contains("not JSON"), "{err}");
}

#[test]
fn a_cr_lf_journal_is_named_as_such() {
    let dir = tempfile::tempdir().unwrap();
    let journal = path(&dir, "j");
    small_journal(&journal);
    let text = fs::read_to_string(&journal).unwrap().replace('\n', "\r\n");
    fs::write(&journal, &text).unwrap();
    let out = run(&["count", "12", "--checkpoint", s(&journal)]);
    let err = one_error_line(assert_cmd::assert::Assert::new(out), 2, &["CR LF"]);
    assert!(!err.contains(" there, "), "{err}");
}

#[cfg(unix)]
#[test]
#[ignore = "needs root"]
fn a_full_disk_leaves_the_old_output_whole() {
    let dir = crate::common::small_tmpfs();
    let output = path(&dir, "out.json");
    fs::write(&output, "old").unwrap();
    // Fill what is left: the write fails, whatever the block size.
    let _ = fs::write(path(&dir, "fill"), vec![1u8; 64 << 10]);
    let out = run(&["count", "12", "--output", s(&output), "-q"]);
    let listed: Vec<_> = fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    let old = fs::read_to_string(&output).unwrap();
    let _ = Command::new("umount").arg(dir.path()).status();
    refused(&out, 1, &["No space left on device"]);
    assert_eq!(old, "old");
    assert_eq!(listed.len(), 2, "a temporary was left: {listed:?}");
}
