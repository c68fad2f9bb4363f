//! The memory checks of issues 20 and 32: a plan or a count too big for
//! the memory available is refused in one line, exit 2, before anything big
//! is allocated (and, since issue 32, before the plan is built); every
//! command that builds something that grows with n does the same, and none
//! aborts. `QUEENS_MEMORY_LIMIT` or `ulimit -v` plays a small machine.

use assert_cmd::assert::Assert;
use assert_cmd::cargo::cargo_bin_cmd;

use crate::common::cli::one_error_line;

/// Runs `queens` with `args` as if the machine had `bytes` available.
fn with_memory(bytes: &str, args: &[&str]) -> Assert {
    cargo_bin_cmd!("queens")
        .env("QUEENS_MEMORY_LIMIT", bytes)
        .args(args)
        .assert()
}

#[test]
fn a_join_count_too_big_is_refused_before_the_header() {
    // n = 16 counts with tables of about 4 MiB: refused with 1 MiB.
    let assert = with_memory("1000000", &["count", "16"]).stdout("");
    let line = one_error_line(
        assert,
        2,
        &[
            "counting n = 16 with the join engine needs about",
            "977 KiB available",
        ],
    );
    assert!(
        !line.contains("counting n = 16 with the join engine:"),
        "{line}"
    );
}

#[test]
fn the_same_count_runs_with_room() {
    with_memory("100000000", &["count", "16", "--quiet"]).success();
    with_memory("none", &["count", "12"]).success();
}

// See: issue 50, item 2: a count whose fastest chunks do not fit takes
// smaller ones, says so, and counts the same. Three units of n = 24 on
// one thread take 0.64 GB in chunks of 2^27 words and 0.25 GB in 2^22.
#[test]
fn a_count_short_of_room_takes_smaller_chunks_and_counts_the_same() {
    let args = ["count", "24", "--units", "0,1000,5000", "-j", "1", "--json"];
    let roomy = with_memory("none", &args).success();
    let tight = with_memory("400000000", &args).success();
    let (roomy, tight) = (roomy.get_output(), tight.get_output());
    let count = |out: &[u8]| {
        let record: serde_json::Value = serde_json::from_slice(out).unwrap();
        record["solutions"].to_string()
    };
    assert_eq!(count(&tight.stdout), count(&roomy.stdout));
    let said = String::from_utf8(tight.stderr.clone()).unwrap();
    assert!(
        said.contains("queens: n = 24 on 1 thread counts in chunks of 2^22 words to fit in memory")
            && said.contains("a thread; its fastest chunks need"),
        "{said}"
    );
    let said = String::from_utf8(roomy.stderr.clone()).unwrap();
    assert!(!said.contains("chunks"), "{said}");
}

// See: issue 50, item 2: before it takes smaller chunks, a count whose
// threads cannot each hold a unit holds fewer at once, each counted by all
// the threads, says so, and counts the same. Three units of n = 24 on two
// threads take 1.2 GB one a thread and 0.64 GB one at a time.
#[test]
fn a_count_short_of_room_shares_its_units_and_counts_the_same() {
    let args = ["count", "24", "--units", "0,1000,5000", "-j", "2", "--json"];
    let roomy = with_memory("none", &args).success();
    let tight = with_memory("800000000", &args).success();
    let (roomy, tight) = (roomy.get_output(), tight.get_output());
    let record = |out: &[u8]| -> serde_json::Value { serde_json::from_slice(out).unwrap() };
    let (roomy_record, tight_record) = (record(&roomy.stdout), record(&tight.stdout));
    assert_eq!(tight_record["solutions"], roomy_record["solutions"]);
    assert_eq!(tight_record["units"], roomy_record["units"]);
    let said = String::from_utf8(tight.stderr.clone()).unwrap();
    assert!(
        said.contains(
            "queens: n = 24 on 2 threads counts 1 unit at a time, each by all the threads, in \
             chunks of 2^27 words to fit in memory"
        ) && said.contains("one unit a thread in its fastest chunks needs"),
        "{said}"
    );
    let said = String::from_utf8(roomy.stderr.clone()).unwrap();
    assert!(!said.contains("at a time"), "{said}");
}

#[test]
fn a_plan_too_big_is_refused_and_plans_need_no_tables() {
    let assert = with_memory("1000", &["plan", "24", "--json"]).stdout("");
    one_error_line(
        assert,
        2,
        &["planning n = 24 with the join engine needs about"],
    );
    // The plan of n = 20 without its quarter tables (128 MiB): described
    // within 16 MB, which its count is refused.
    let assert = with_memory("16000000", &["plan", "20", "--json"]).success();
    let out = String::from_utf8(assert.get_output().stdout.clone()).unwrap();
    assert!(out.contains("\"units\":92504"), "{out}");
    let assert = with_memory("16000000", &["count", "20"]).stdout("");
    one_error_line(
        assert,
        2,
        &["counting n = 20 with the join engine needs about"],
    );
}

#[test]
fn a_mirror_plan_with_too_many_units_is_refused_before_making_them() {
    let assert = with_memory(
        "1000000000",
        &[
            "plan",
            "32",
            "--engine",
            "mirror",
            "--split-depth",
            "6",
            "--json",
        ],
    )
    .stdout("");
    one_error_line(
        assert,
        2,
        &["planning n = 32 with the mirror engine needs about 4.6 GiB"],
    );
}

#[test]
fn merge_and_verify_rebuild_their_plan_within_the_limit() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().to_str().unwrap();
    with_memory(
        "none",
        &["count", "14", "--shard", "0/1", "--out-dir", out, "--quiet"],
    )
    .success();
    with_memory("none", &["merge", out]).success();
    let assert = with_memory("1000", &["merge", out]).stdout("");
    one_error_line(
        assert,
        2,
        &["planning n = 14 with the join engine needs about"],
    );
    let assert = with_memory("1000", &["verify", out, "--sample", "1"]).stdout("");
    one_error_line(assert, 2, &["planning n = 14"]);
}

#[test]
fn a_bad_limit_is_a_usage_error() {
    let assert = with_memory("lots", &["plan", "12"]).stdout("");
    one_error_line(
        assert,
        2,
        &["QUEENS_MEMORY_LIMIT must be a number of bytes or 'none'"],
    );
}

/// Runs `queens` with `args` under `ulimit -v kib` (`RLIMIT_AS`), with
/// `input` on stdin and `env` set.
#[cfg(unix)]
fn under_ulimit(kib: u64, args: &[&str], env: &[(&str, &str)], input: &[u8]) -> Assert {
    let mut command = std::process::Command::new("bash");
    command
        .arg("-c")
        .arg(format!("ulimit -v {kib} && exec \"$0\" \"$@\""))
        .arg(env!("CARGO_BIN_EXE_queens"))
        .args(args)
        .env_remove("QUEENS_MEMORY_LIMIT");
    for (name, value) in env {
        command.env(name, value);
    }
    assert_cmd::Command::from_std(command)
        .write_stdin(input.to_vec())
        .assert()
}

// See: issue 32, item 3: `count 28 -j 2` on a 24 GiB machine planned for
// minutes (207 s) before its memory was checked. Refused before the plan,
// the refusal is the only line: the plan of n = 27 (36 s on 2 threads)
// would have been announced first. (Since issue 50 `count 28 -j 2` takes
// 2.9 GiB at least, one unit at a time in its smallest chunks, so the
// machine here has 2.5 GB.)
#[cfg(unix)]
#[test]
fn a_count_too_big_is_refused_before_its_plan_is_built() {
    let assert = with_memory("1000000000", &["count", "27", "-j", "2"]).stdout("");
    one_error_line(
        assert,
        2,
        &["counting n = 27 with the join engine needs about", "GiB"],
    );
    // Without -q too: the warning that nothing checks n = 28 comes only
    // once the count fits.
    for quiet in [&["-q"][..], &[]] {
        let args = [&["count", "28", "-j", "2"][..], quiet].concat();
        // The least it takes, one unit at a time in the smallest chunks:
        // 1.7 GiB once, 1.1 GiB for the unit and 19 MiB a thread.
        let assert = with_memory("2500000000", &args).stdout("");
        one_error_line(
            assert,
            2,
            &[
                "counting n = 28 with the join engine needs about 2.9 GiB",
                "(1.7 GiB once, 1.1 GiB for the unit counted at a time and 19 MiB a thread \
                 on 2 threads)",
            ],
        );
    }
    let assert = under_ulimit(400_000, &["count", "26", "-j", "2"], &[], b"").stdout("");
    one_error_line(
        assert,
        2,
        &[
            "counting n = 26 with the join engine needs about",
            "for the unit counted at a time and 19 MiB a thread on 2 threads",
        ],
    );
}

// See: issue 32, item 1: `estimate` aborted (exit 134) under `ulimit -v`
// when the join's tables were built, and ignored QUEENS_MEMORY_LIMIT.
#[cfg(unix)]
#[test]
fn estimate_is_refused_in_one_line_past_the_limit() {
    // The figure grows with the threads: 2.0 GiB on the 16-core device
    // machine, where this test once ran without `-j`.
    let assert = under_ulimit(
        300_000,
        &["estimate", "22", "--seconds", "1", "-j", "2"],
        &[],
        b"",
    );
    one_error_line(
        assert.stdout(""),
        2,
        &["counting n = 22 with the join engine needs about 1.1 GiB"],
    );
    let assert = with_memory("100000000", &["estimate", "23"]).stdout("");
    one_error_line(
        assert,
        2,
        &["counting n = 23 with the join engine needs about"],
    );
}

// See: issue 32, item 1: `bench` counts what it builds against the limit.
#[test]
fn bench_is_refused_in_one_line_past_the_limit() {
    let assert = with_memory("100000000", &["bench", "22", "--threads", "2"]).stdout("");
    one_error_line(
        assert,
        2,
        &["counting n = 22 with the join engine needs about"],
    );
}

// See: issue 32, item 6: `estimate 26 --seconds 1` took 65 s. When even
// the smallest sample (two units of each stratum) is projected past the
// seconds asked for, it says so first and counts no more than that.
#[test]
fn estimate_warns_when_its_smallest_sample_overruns_the_seconds() {
    let assert = with_memory(
        "none",
        &[
            "estimate",
            "18",
            "--seconds",
            "0.000001",
            "--json",
            "-j",
            "2",
        ],
    )
    .success();
    let out = assert.get_output();
    let err = String::from_utf8(out.stderr.clone()).unwrap();
    assert!(
        err.contains("queens: warning: the smallest sample that projects a spread (20 units")
            && err.contains("more than --seconds 0.000001"),
        "{err}"
    );
    let record: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(record["sampled"], 20, "{record}");
}

// See: issue 32, item 2: `queens one 1000000000 --format columns | (ulimit
// -v 2000000; queens check)` aborted; `check` took 48 bits a queen. A
// board of 10^7 rows now needs its attack sets, 5 bits a row (6 MB), and
// next to nothing for its columns, which step evenly: within 50 MB of
// address space, where the columns kept whole (40 MB and more) aborted.
#[cfg(unix)]
#[test]
#[cfg_attr(
    any(feature = "cuda", feature = "wgpu"),
    ignore = "its address-space limits are set for the default build's binary (8 MB); the GPU \
              executors' build is 27 MB"
)]
fn check_needs_about_the_boards_own_bits() {
    let board = queens_output(&["one", "10000000", "--format", "columns"]);
    let none = [("QUEENS_MEMORY_LIMIT", "none")];
    let assert = under_ulimit(50_000, &["check"], &none, &board).success();
    assert_eq!(assert.get_output().stdout, b"board 1: ok\n");
    // Short of room, refused in one line, never aborted. (20 MB was short
    // until issue 47: mimalloc's arenas took what the system's allocator,
    // its fallback now, leaves.)
    let assert = under_ulimit(16_000, &["check"], &none, &board).stdout("");
    one_error_line(
        assert,
        2,
        &[
            "line 1: checking this board needs at least",
            "more than this machine could give",
        ],
    );
    let assert = cargo_bin_cmd!("queens")
        .env("QUEENS_MEMORY_LIMIT", "4000000")
        .arg("check")
        .write_stdin(board)
        .assert()
        .stdout("");
    one_error_line(
        assert,
        2,
        &[
            "line 1: checking this board needs at least",
            "3.8 MiB available",
        ],
    );
}

// See: issue 32, item 2: `one` streams its board under a limit.
#[cfg(unix)]
#[test]
fn one_streams_under_a_limit() {
    let assert =
        under_ulimit(50_000, &["one", "10000000", "--format", "jsonl"], &[], b"").success();
    assert!(assert.get_output().stdout.len() > 10_000_000);
}

/// The stdout of `queens args`, which must succeed.
#[cfg(unix)]
fn queens_output(args: &[&str]) -> Vec<u8> {
    cargo_bin_cmd!("queens")
        .args(args)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone()
}

// See: issue 47, item 16: under a tight `ulimit -v` the refusal said "this
// machine has 0 bytes available", naming neither the limit nor the reserve.
#[cfg(unix)]
#[test]
fn a_refusal_under_ulimit_names_the_limit_and_the_reserve() {
    // 50 MB: the process maps about 15 MiB to start, so less than the
    // 64 MiB reserve is left.
    let assert = under_ulimit(50_000, &["count", "14"], &[], b"").stdout("");
    one_error_line(
        assert,
        2,
        &[
            "counting n = 14 with the join engine needs about",
            "ulimit -v (RLIMIT_AS) allows 49 MiB of address space",
            "64 MiB is kept for the process itself",
            "raise ulimit -v, or set QUEENS_MEMORY_LIMIT",
        ],
    );
    // The variable's own figure is named as its.
    let assert = with_memory("1000", &["count", "14"]).stdout("");
    one_error_line(
        assert,
        2,
        &["1000 bytes available (as QUEENS_MEMORY_LIMIT says"],
    );
}

// See: issue 47, item 16: at 10 MB even `--version` aborted (exit 134):
// mimalloc could not reserve its 64 MiB arena, and nothing else was asked.
// Where mimalloc cannot, the system's allocator serves. (The test binary
// was 8 MB, the release one 3 MB, and the old binary aborted at 14 MB and
// ran at 15: 6 MiB more than the binary. The binary grows with the code
// (9 MB with the AVX2 loops, which then needed 14.5 MB), so the limit is
// its size and those 6 MiB.)
#[cfg(unix)]
#[test]
#[cfg_attr(
    any(feature = "cuda", feature = "wgpu"),
    ignore = "its address-space limits are set for the default build's binary (8 MB); the GPU \
              executors' build is 27 MB"
)]
fn version_and_help_run_under_a_tight_ulimit() {
    let binary = std::fs::metadata(env!("CARGO_BIN_EXE_queens"))
        .unwrap()
        .len();
    let kib = binary.div_ceil(1024) + 6 * 1024;
    for args in [&["--version"][..], &["--help"], &["count", "--help"]] {
        let assert = under_ulimit(kib, args, &[], b"").success().stderr("");
        let out = String::from_utf8_lossy(&assert.get_output().stdout).into_owned();
        assert!(
            out.starts_with("queens") || out.contains("Usage:"),
            "{args:?}: {out}"
        );
    }
}
