//! The portable GPU executor on the command line, on whatever adapter
//! answers (lavapipe, Vulkan on the CPU, in CI): a count killed and
//! resumed from its journal, on the GPU and across GPU and CPU, and GPU
//! shards merged and verified with CPU shards of the same plan. In CI (`CI`
//! set) a machine without an adapter fails these tests rather than passing
//! them unchecked.

use std::path::Path;

use queens::{GpuBackend, find_gpu, known};
use serde_json::Value;
use tempfile::TempDir;

use crate::common::cli::{killed_after, run};

/// Whether an adapter answers the portable executor; in CI, one must.
fn portable() -> bool {
    match (find_gpu(GpuBackend::Portable), std::env::var_os("CI")) {
        (Ok(name), _) => {
            eprintln!("adapter: {name}");
            true
        }
        (Err(why), None) => {
            eprintln!("no portable GPU here, nothing checked: {why}");
            false
        }
        (Err(why), Some(_)) => {
            panic!("CI runs the portable executor on lavapipe (mesa-vulkan-drivers): {why}")
        }
    }
}

fn json(out: &std::process::Output) -> Value {
    assert!(out.status.success(), "{out:?}");
    serde_json::from_slice(&out.stdout).unwrap()
}

/// Killed after 30 units on the GPU, resumed on the GPU; killed after 30
/// on the CPU, resumed on the GPU; killed on the GPU, resumed on the CPU:
/// each resume takes the journal's units and ends at A000170, on both
/// plans. The GPU reports its units a launch at a time, so its journal
/// holds at least the 30.
#[test]
fn a_killed_gpu_count_resumes_on_the_gpu_or_the_cpu() {
    if !portable() {
        return;
    }
    let dir = TempDir::new().unwrap();
    let gpu = ["--gpu-backend", "portable"];
    for engine in ["constellations", "mirror"] {
        for (first, then) in [
            (&gpu[..], &gpu[..]),
            (&[][..], &gpu[..]),
            (&gpu[..], &[][..]),
        ] {
            let journal =
                dir.path()
                    .join(format!("{engine}-{}-{}.journal", first.len(), then.len()));
            let journal = journal.to_str().unwrap();
            let base = ["count", "14", "--engine", engine, "--checkpoint", journal];
            killed_after(30, &[&base[..], first].concat());
            let resumed = json(&run(&[&base[..], then, &["--json"]].concat(), &[]));
            assert_eq!(resumed["solutions"], 365_596, "{engine}: {resumed}");
            let from_journal = resumed["resumed_units"].as_u64().unwrap();
            assert!(
                from_journal >= 30,
                "{engine}, {first:?} then {then:?}: {resumed}"
            );
        }
    }
}

/// Counts shard `index` of `of` of an `n`-board into `dir`.
fn shard(dir: &Path, n: u32, index: u32, of: u32, extra: &[&str]) {
    let shard = format!("{index}/{of}");
    let n = n.to_string();
    let args = [
        &[
            "count",
            &n,
            "--shard",
            &shard,
            "--out-dir",
            dir.to_str().unwrap(),
            "-q",
        ][..],
        extra,
    ]
    .concat();
    let out = run(&args, &[]);
    assert!(out.status.success(), "{args:?}: {out:?}");
}

/// Three shards of n = 15, the first and last on the GPU, the middle one
/// on the CPU: they merge to A000170 and `verify` (which recounts on the
/// CPU) agrees with every unit it draws, on both plans.
#[test]
fn gpu_shards_merge_and_verify_with_cpu_shards() {
    if !portable() {
        return;
    }
    for engine in ["constellations", "mirror"] {
        let dir = TempDir::new().unwrap();
        let on_gpu = ["--engine", engine, "--gpu-backend", "portable"];
        shard(dir.path(), 15, 0, 3, &on_gpu);
        shard(dir.path(), 15, 1, 3, &["--engine", engine]);
        shard(dir.path(), 15, 2, 3, &on_gpu);
        let path = dir.path().to_str().unwrap();
        let merged = json(&run(&["merge", "--json", path], &[]));
        assert_eq!(
            merged["total"].as_u64().map(u128::from),
            known::total(15),
            "{merged}"
        );
        let verified = run(&["verify", path, "--sample", "60", "--seed", "3"], &[]);
        assert!(verified.status.success(), "{engine}: {verified:?}");
        let said = String::from_utf8(verified.stdout).unwrap();
        assert!(said.contains("agree"), "{engine}: {said}");
    }
}
