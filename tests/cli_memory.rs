//! The memory check of issue 20: a plan or a count too big for the memory
//! available is refused in one line, exit 2, before anything big is
//! allocated; `QUEENS_MEMORY_LIMIT` plays a small machine. See: issue 20.

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
