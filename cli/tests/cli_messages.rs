//! Issue 32's messages: every number an option takes is refused in one
//! line that names the option once and says what it accepts, a negative
//! number included; empty variables are unset; `--gpu` without a GPU is a
//! usage error for every command; every help ends with the exit codes.
//! (A full stdout naming "standard output" is in `cli_stdout.rs`.)

use std::process::Command;

use crate::common::cli::{one_error_line, queens, run};

/// Every option that takes a number (or a list or share of numbers), as
/// `(command line before it, the option as typed, its name in the line,
/// what the line must also say)`: the range, or the syntax where there is
/// no range to give.
const NUMERIC_OPTIONS: &[(&[&str], &str, &str, &[&str])] = &[
    (&["count", "8"], "--threads", "--threads", &["1", "4096"]),
    (&["count", "8"], "-j", "--threads", &["1", "4096"]),
    (
        &["count", "8"],
        "--split-depth",
        "--split-depth",
        &["1", "6"],
    ),
    (
        &["count", "8"],
        "--lock-wait",
        "--lock-wait",
        &["0", "86400"],
    ),
    (&["count", "8"], "--units", "--units", &["unit id", "0-99"]),
    (&["count", "8"], "--shard", "--shard", &["I/K"]),
    (
        &["plan", "8"],
        "--split-depth",
        "--split-depth",
        &["1", "6"],
    ),
    (
        &["list", "8"],
        "--limit",
        "--limit",
        &["0", "18446744073709551615"],
    ),
    (&["list", "8"], "-j", "--threads", &["1", "4096"]),
    (&["ladder", "8"], "--threads", "--threads", &["1", "4096"]),
    (&["bench", "10"], "--runs", "--runs", &["1", "100"]),
    (&["bench", "10"], "--threads", "--threads", &["1", "4096"]),
    (
        &["verify", "."],
        "--sample",
        "--sample",
        &["above 0", "100"],
    ),
    (
        &["verify", ".", "--sample", "1%"],
        "--seed",
        "--seed",
        &["0", "18446744073709551615"],
    ),
    (
        &["verify", ".", "--sample", "1%"],
        "--threads",
        "--threads",
        &["1", "4096"],
    ),
    (&["estimate", "8"], "--threads", "--threads", &["1", "4096"]),
    (
        &["estimate", "8"],
        "--split-depth",
        "--split-depth",
        &["1", "6"],
    ),
    (
        &["estimate", "8"],
        "--sample",
        "--sample",
        &["above 0", "100"],
    ),
    (
        &["estimate", "8"],
        "--seconds",
        "--seconds",
        &["above 0", "86400"],
    ),
    (
        &["estimate", "8"],
        "--seed",
        "--seed",
        &["0", "18446744073709551615"],
    ),
    (&["estimate", "8"], "--shards", "--shards", &["1", "100000"]),
    (
        &["estimate", "8", "--shards", "4"],
        "--machines",
        "--machines",
        &["1", "1000000"],
    ),
    (
        &["estimate", "8", "--shards", "4"],
        "--machine-threads",
        "--machine-threads",
        &["1", "4096"],
    ),
];

/// The value names of options that take no number.
/// (Squares, `ROW:COL,...`, are numbers in pairs: cli/tests/cli_given.rs holds
/// their refusals.)
const NOT_NUMBERS: &[&str] = &[
    "FILE",
    "DIR",
    "NAME",
    "ENGINE",
    "FORMAT",
    "ROW:COL,...",
    "BACKEND",
];

/// `queens COMMAND --help`.
fn help(command: &[&str]) -> String {
    let args = [command, &["--help"]].concat();
    let out = queens(&args).success();
    String::from_utf8(out.get_output().stdout.clone()).unwrap()
}

/// The subcommands `queens --help` lists.
fn subcommands() -> Vec<String> {
    let (listed, top) = crate::common::cli::subcommands();
    assert!(listed.len() >= 10, "{top}");
    listed
}

#[test]
fn a_near_miss_gets_one_line_and_clap_s_tip() {
    // See: issue 35, item 2 (clap's tips were stripped, so `queens cout 8`
    // got one bare line).
    let near_misses: [(&[&str], &str, &str); 3] = [
        (
            &["cout", "8"],
            "queens: unrecognized subcommand 'cout'",
            "tip: a similar subcommand exists: 'count'",
        ),
        (
            &["count", "8", "--thread", "2"],
            "queens: unexpected argument '--thread' found",
            "tip: a similar argument exists: '--threads'",
        ),
        (
            &["count", "8", "--engine", "jion"],
            "queens: invalid value 'jion' for '--engine <ENGINE>' [possible values: mirror, \
             join, constellations]",
            "tip: a similar value exists: 'join'",
        ),
    ];
    for (args, line, tip) in near_misses {
        queens(args)
            .code(2)
            .stdout("")
            .stderr(format!("{line}\n{tip}\n"));
    }
    // Nothing similar, no tip: still the one line.
    one_error_line(queens(&["xyz"]).stdout(""), 2, &["subcommand 'xyz'"]);
    one_error_line(
        queens(&["count", "8", "--frobnicate"]).stdout(""),
        2,
        &["'--frobnicate'"],
    );
}

#[test]
fn every_numeric_option_names_itself_and_its_range() {
    // See: issue 32, item 9 ("invalid digit found in string", "cannot
    // parse integer from empty string", "unexpected argument '-1' found").
    for &(before, option, name, says) in NUMERIC_OPTIONS {
        // `0.5` is a share or a time for some: the lock wait checks it.
        let percent = ["-1%"];
        let extra: &[&str] = if option == "--sample" { &percent } else { &[] };
        for &bad in ["abc", "", "-1", "-5", "inf", "1e9"].iter().chain(extra) {
            let args = [before, &[option, bad]].concat();
            let line = one_error_line(queens(&args).stdout(""), 2, says);
            assert_eq!(line.matches(name).count(), 1, "{args:?}: {line}");
            assert!(
                line.starts_with(&format!("queens: {name}")),
                "{args:?}: {line}"
            );
            for clap in [
                "invalid digit",
                "empty string",
                "unexpected argument",
                "error:",
            ] {
                assert!(!line.contains(clap), "{args:?}: {line}");
            }
        }
    }
}

/// A new option that takes a number must join [`NUMERIC_OPTIONS`].
#[test]
fn the_table_holds_every_option_that_takes_a_number() {
    for command in subcommands() {
        let text = help(&[&command]);
        for line in text.lines().filter(|l| l.trim_start().starts_with('-')) {
            let Some(long) = line.split_whitespace().find(|w| w.starts_with("--")) else {
                continue;
            };
            let Some(value) = line.split_once('<').and_then(|(_, v)| v.split_once('>')) else {
                continue;
            };
            if NOT_NUMBERS.contains(&value.0) {
                continue;
            }
            let covered = NUMERIC_OPTIONS
                .iter()
                .any(|(before, _, name, _)| before[0] == command && *name == long);
            assert!(
                covered,
                "queens {command} {long} <{}> is not tested",
                value.0
            );
        }
    }
}

#[test]
fn the_lock_wait_of_the_issue_is_refused_in_one_line() {
    for bad in ["abc", "0.5", "inf", "1e9", "", "-1", "86401"] {
        one_error_line(
            queens(&["count", "8", "--lock-wait", bad]).stdout(""),
            2,
            &[&format!(
                "queens: --lock-wait: '{bad}' is not a number of seconds: expected a whole \
                 number from 0 to 86400"
            )],
        );
    }
}

#[test]
fn numbers_in_range_still_pass() {
    let out = run(
        &[
            "count",
            "8",
            "-q",
            "--lock-wait",
            "0",
            "--split-depth",
            "3",
            "-j",
            "1",
        ],
        &[],
    );
    assert!(out.status.success(), "{out:?}");
    assert_eq!(String::from_utf8_lossy(&out.stdout), "92\n");
    let out = run(&["list", "8", "--limit", "2", "--format", "columns"], &[]);
    assert!(out.status.success(), "{out:?}");
    assert_eq!(String::from_utf8_lossy(&out.stdout).lines().count(), 2);
}

#[test]
fn empty_variables_are_unset() {
    // See: issue 32, item 12 (an empty QUEENS_MEMORY_LIMIT was an error,
    // an empty RAYON_NUM_THREADS was not, and " " was reported as '').
    for variable in ["QUEENS_MEMORY_LIMIT", "RAYON_NUM_THREADS"] {
        for empty in ["", " ", "\t"] {
            let out = run(&["count", "8", "-q"], &[(variable, empty)]);
            assert!(out.status.success(), "{variable}={empty:?}: {out:?}");
            assert_eq!(String::from_utf8_lossy(&out.stdout), "92\n");
            assert_eq!(String::from_utf8_lossy(&out.stderr), "");
        }
    }
    let out = run(&["count", "8"], &[("QUEENS_MEMORY_LIMIT", " lots ")]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("not 'lots'"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
}

#[test]
fn without_a_gpu_every_gpu_option_is_the_same_usage_error() {
    // See: issue 32, item 12 (estimate --gpu exited 1, count --gpu 2).
    if queens::find_gpu(queens::GpuBackend::Auto).is_ok() {
        return;
    }
    let lines: Vec<String> = [
        &["count", "10", "--gpu"][..],
        &["bench", "10", "--gpu", "--runs", "1", "--threads", "1"],
        &["estimate", "10", "--gpu", "--seconds", "1"],
    ]
    .iter()
    .map(|args| one_error_line(queens(args).stdout(""), 2, &["GPU"]))
    .collect();
    assert!(lines.iter().all(|l| *l == lines[0]), "{lines:#?}");
}

#[test]
fn every_help_ends_with_the_exit_codes() {
    let top = help(&[]);
    let table = top
        .split_once("Exit codes (every command):\n")
        .unwrap_or_else(|| panic!("no table in queens --help:\n{top}"))
        .1;
    for code in ["0", "1", "2", "3", "128+S"] {
        assert!(
            table
                .lines()
                .any(|l| l.trim_start().starts_with(&format!("{code} "))),
            "no code {code} in:\n{table}"
        );
    }
    for command in subcommands() {
        for flag in ["--help", "-h"] {
            let text = help(&[&command, flag]);
            let last: Vec<&str> = text.trim_end().lines().rev().take(2).collect();
            assert!(
                last[1].starts_with("Exit codes: 0 success, 1 failure, 2 bad usage or input, 3 ")
                    && last[0].contains("man queens"),
                "queens {command} {flag}:\n{text}"
            );
        }
    }
    let page =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/README.md")).unwrap();
    assert_eq!(page.matches("\n## Exit codes\n").count(), 1);
}

/// `queens help COMMAND` is the same help.
#[test]
fn the_help_subcommand_shows_the_exit_codes_too() {
    let out = Command::new(env!("CARGO_BIN_EXE_queens"))
        .args(["help", "merge"])
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("EXIT STATUS in man queens"));
}
