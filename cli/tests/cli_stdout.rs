//! Issue 20: a stdout that cannot be written (a full device, a descriptor
//! closed by `>&-`) makes every command fail with one line, never exit 0
//! with the output lost; a long listing stops at the first failed write;
//! a stdout the user chose to discard (`/dev/null`) is still a success.

use std::fs::{File, OpenOptions};
use std::path::Path;
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use tempfile::TempDir;

const QUEENS: &str = env!("CARGO_BIN_EXE_queens");

/// Where the command's stdout goes.
#[derive(Clone, Copy, Debug)]
enum Stdout {
    /// `>/dev/full`: every write fails with ENOSPC.
    Full,
    /// `>&-`: descriptor 1 is closed when the command starts.
    Closed,
}

impl Stdout {
    /// `queens args`, with stdout here and stderr piped, not yet waited on.
    fn spawn(self, args: &[&str]) -> Child {
        let mut command = match self {
            Self::Full => {
                let full = OpenOptions::new().write(true).open("/dev/full").unwrap();
                let mut command = Command::new(QUEENS);
                command.args(args).stdout(Stdio::from(full));
                command
            }
            Self::Closed => {
                let mut command = Command::new("sh");
                command
                    .args(["-c", r#"exec "$0" "$@" >&-"#, QUEENS])
                    .args(args);
                command
            }
        };
        command
            .envs(crate::common::cli::quiet_mesa())
            .stdin(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap()
    }

    /// The words the one error line must hold.
    fn reason(self) -> &'static str {
        match self {
            // See: issue 32 (the line did not say which file was full).
            Self::Full => "cannot write to standard output: No space left on device",
            Self::Closed => "standard output is closed",
        }
    }
}

/// Asserts that `queens args` with `stdout` exits 1 with one line on
/// stderr, `queens: ...`, naming the reason.
fn fails(stdout: Stdout, args: &[&str]) {
    let out = stdout.spawn(args).wait_with_output().unwrap();
    assert_fails(stdout, args, &out);
}

fn assert_fails(stdout: Stdout, args: &[&str], out: &Output) {
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        out.status.code(),
        Some(1),
        "{stdout:?} {args:?} exited {:?}; stderr: {err}",
        out.status
    );
    assert_eq!(err.lines().count(), 1, "{stdout:?} {args:?}: {err}");
    assert!(err.starts_with("queens: "), "{stdout:?} {args:?}: {err}");
    assert!(
        err.contains(stdout.reason()),
        "{stdout:?} {args:?}: {err:?} lacks {:?}",
        stdout.reason()
    );
}

/// A directory holding both shards of `queens count 8 --shard I/2`.
fn shards_of_8() -> TempDir {
    let dir = TempDir::new().unwrap();
    for shard in ["0/2", "1/2"] {
        let out = Command::new(QUEENS)
            .args(["count", "8", "--shard", shard, "-q", "--out-dir"])
            .arg(dir.path())
            .output()
            .unwrap();
        assert!(out.status.success(), "{out:?}");
    }
    dir
}

/// A file of the 92 boards of n = 8, as `queens list 8` writes them.
fn boards_of_8(dir: &Path) -> String {
    let path = dir.join("boards.txt");
    let out = Command::new(QUEENS)
        .args(["list", "8"])
        .stdout(File::create(&path).unwrap())
        .status()
        .unwrap();
    assert!(out.success());
    path.to_str().unwrap().to_owned()
}

/// Every command that writes to stdout, in each of its output styles.
fn every_command(shards: &Path, boards: &str) -> Vec<Vec<String>> {
    let shards = shards.to_str().unwrap();
    let commands: &[&[&str]] = &[
        &["count", "10"],
        &["count", "10", "--json"],
        &["count", "10", "-q"],
        &["count", "8..10", "--unique"],
        &["plan", "12"],
        &["plan", "12", "--json"],
        &["plan", "8", "--units"],
        &["list", "8"],
        &["list", "8", "--format", "leetcode"],
        &["one", "8"],
        &["one", "100000", "--format", "columns"],
        &["check", boards],
        &["ladder", "8"],
        &["bench", "10", "--threads", "1", "--runs", "1"],
        &["merge", shards],
        &["merge", shards, "--json"],
        &["verify", shards, "--sample", "100%", "--json"],
        &["estimate", "10", "--sample", "100%", "--seed", "1"],
        &[
            "estimate", "10", "--sample", "100%", "--seed", "1", "--json",
        ],
        &["--help"],
        &["count", "--help"],
        &["--version"],
    ];
    commands
        .iter()
        .map(|args| args.iter().map(|&a| a.to_owned()).collect())
        .collect()
}

#[test]
fn a_full_device_fails_every_command() {
    let shards = shards_of_8();
    let boards = boards_of_8(shards.path());
    for args in every_command(shards.path(), &boards) {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        fails(Stdout::Full, &args);
    }
}

#[test]
fn a_closed_stdout_fails_every_command() {
    let shards = shards_of_8();
    let boards = boards_of_8(shards.path());
    for args in every_command(shards.path(), &boards) {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        fails(Stdout::Closed, &args);
    }
}

/// `queens list 18` writes 666,090,624 boards, minutes of work: with
/// nowhere to write them it must stop at the first failed write.
#[test]
fn a_long_listing_stops_at_the_first_failed_write() {
    let args = ["list", "18", "--format", "jsonl"];
    for stdout in [Stdout::Full, Stdout::Closed] {
        let mut child = stdout.spawn(&args);
        let started = Instant::now();
        while child.try_wait().unwrap().is_none() {
            if started.elapsed() > Duration::from_secs(60) {
                child.kill().unwrap();
                child.wait().unwrap();
                panic!("{stdout:?}: queens {args:?} still running after 60 s");
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        assert_fails(stdout, &args, &child.wait_with_output().unwrap());
    }
}

/// `>/dev/null`, and `/dev/null` opened for reading and writing as a
/// parent process (Python's `subprocess.DEVNULL`, a daemon) gives it:
/// the output is discarded on purpose, and that is a success.
#[test]
fn dev_null_is_still_a_success() {
    let write_only = OpenOptions::new().write(true).open("/dev/null").unwrap();
    let read_write = OpenOptions::new()
        .read(true)
        .write(true)
        .open("/dev/null")
        .unwrap();
    for null in [write_only, read_write] {
        let out = Command::new(QUEENS)
            .args(["count", "10"])
            .stdout(null)
            .stderr(Stdio::piped())
            .output()
            .unwrap();
        assert!(out.status.success(), "{out:?}");
        assert_eq!(String::from_utf8_lossy(&out.stderr), "");
    }
    let out = Command::new("sh")
        .args([
            "-c",
            r#"exec "$0" "$@" 1<>/dev/null"#,
            QUEENS,
            "count",
            "10",
        ])
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
}

/// `queens check -q` with only solutions writes nothing: a closed stdout
/// loses nothing, so it is not an error.
#[test]
fn a_closed_stdout_that_is_never_written_is_no_error() {
    let dir = TempDir::new().unwrap();
    let boards = boards_of_8(dir.path());
    let out = Stdout::Closed
        .spawn(&["check", "-q", &boards])
        .wait_with_output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
}
