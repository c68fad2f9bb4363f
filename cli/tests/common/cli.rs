//! Running the `queens` binary from the CLI tests.

use assert_cmd::assert::Assert;
use assert_cmd::cargo::cargo_bin_cmd;

/// Runs `queens` with `args` and no input.
pub fn queens(args: &[&str]) -> Assert {
    cargo_bin_cmd!("queens")
        .args(args)
        .envs(quiet_mesa())
        .assert()
}

/// Where XDG_RUNTIME_DIR is unset (CI, a container), Mesa's Vulkan driver,
/// asked for the GPU by a build with the portable executor (`--version`
/// names the GPU), writes two lines of its own on stderr: the tests give it
/// the system's temporary folder, so that stderr holds what queens says.
pub fn quiet_mesa() -> Option<(&'static str, std::path::PathBuf)> {
    std::env::var_os("XDG_RUNTIME_DIR")
        .is_none()
        .then(|| ("XDG_RUNTIME_DIR", std::env::temp_dir()))
}

/// Runs `queens` with `args`, `input` on stdin.
pub fn queens_with_input(args: &[&str], input: impl Into<Vec<u8>>) -> Assert {
    cargo_bin_cmd!("queens")
        .args(args)
        .write_stdin(input)
        .assert()
}

/// The stdout of a finished run, as text.
pub fn stdout(assert: &Assert) -> String {
    String::from_utf8(assert.get_output().stdout.clone()).unwrap()
}

/// The subcommands `queens --help` lists, less `help`, and that help text.
pub fn subcommands() -> (Vec<String>, String) {
    let top = stdout(&queens(&["--help"]).success());
    let listed = top
        .lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        // A description folded onto a second line is indented further.
        .filter(|l| !l.starts_with("   "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|name| *name != "help")
        .map(str::to_owned)
        .collect();
    (listed, top)
}

/// Asserts that the run exited with `code`, printed a single stderr line
/// `queens: ...` (no panic) containing every `needle`, and returns that line.
pub fn one_error_line(assert: Assert, code: i32, needles: &[&str]) -> String {
    let out = assert.code(code).get_output().clone();
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(err.lines().count(), 1, "more than one line:\n{err}");
    assert!(err.starts_with("queens: "), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    for needle in needles {
        assert!(err.contains(needle), "{err:?} lacks {needle:?}");
    }
    err
}

/// Asserts a usage error: exit 2, nothing on stdout, one line naming the
/// problem (every `needle`, at least one) in queens' words: clap's
/// `error:` prefix, usage and tips are not passed through.
pub fn rejects(args: &[&str], needles: &[&str]) {
    assert!(
        !needles.is_empty(),
        "{args:?}: say what the refusal must name"
    );
    let err = one_error_line(queens(args).stdout(""), 2, needles);
    let message = err.trim_start_matches("queens: ");
    for clap in ["error:", "Usage:", "For more information"] {
        assert!(
            !message.contains(clap),
            "{args:?}: clap's {clap:?} in {err:?}"
        );
    }
}

/// `queens` with `args`, nothing on stdin, and without the shard index a
/// scheduler may have set in the tests' own environment: to spawn, or to
/// set more on.
pub fn command(args: &[&str]) -> std::process::Command {
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_queens"));
    command
        .args(args)
        .stdin(std::process::Stdio::null())
        .env_remove("SLURM_ARRAY_TASK_ID")
        .env_remove("JOB_COMPLETION_INDEX")
        .env_remove("AWS_BATCH_JOB_ARRAY_INDEX")
        .envs(quiet_mesa());
    command
}

/// Runs [`command`] to its end.
pub fn output(args: &[&str]) -> std::process::Output {
    command(args).output().unwrap()
}

/// Runs [`command`] with `env` set, to its end.
pub fn run(args: &[&str], env: &[(&str, &str)]) -> std::process::Output {
    command(args).envs(env.iter().copied()).output().unwrap()
}

/// Runs a count with the test builds' kill hook (`QUEENS_TEST_KILL_AFTER`):
/// the process kills itself with SIGKILL once `units` units have finished.
/// On one thread (`-j 1` is added to `args`), so that its journal then
/// holds exactly those units; see `count_killed_on_every_core` for the
/// hook on many threads.
pub fn killed_after(units: usize, args: &[&str]) -> std::process::Output {
    killed(units, &[args, &["-j", "1"]].concat())
}

/// [`killed_after`] on every core: the journal holds `units` units or more
/// (those whose threads wrote them before the kill).
pub fn count_killed_on_every_core(units: usize, args: &[&str]) -> std::process::Output {
    killed(units, args)
}

fn killed(units: usize, args: &[&str]) -> std::process::Output {
    crate::common::needs_test_hooks();
    let out = run(args, &[("QUEENS_TEST_KILL_AFTER", &units.to_string())]);
    assert!(was_killed(&out.status), "{args:?}: {out:?}");
    out
}

/// Whether the hook killed the process: SIGKILL on Unix; on Windows, which
/// has no signals, the hook's exit code 137 (128 + SIGKILL's number).
fn was_killed(status: &std::process::ExitStatus) -> bool {
    #[cfg(unix)]
    return std::os::unix::process::ExitStatusExt::signal(status) == Some(9);
    #[cfg(windows)]
    return status.code() == Some(137);
}
