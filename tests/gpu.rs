//! The GPU engine, mostly without a GPU: its plan and task decomposition
//! through the CPU reference, the CUDA kernels themselves run on the CPU by
//! a small C++ harness, a count on the GPU where there is one, and the
//! refusals of a machine or a build without one.

use std::path::Path;
use std::process::Command;

use queens::count::Scratch;
use queens::count::gpu::{self, count_task};
use queens::internals::Masks;
use queens::{Config, Counter, Engine, Error, Plan, known};
use rayon::prelude::*;

#[test]
fn the_reference_decomposition_sums_to_a000170() {
    for n in 4..=16 {
        let plan = Plan::new(n, Engine::Gpu, &Config::default()).unwrap();
        let total: u128 = (0..plan.len() as u32)
            .into_par_iter()
            .map_init(Scratch::default, |s, id| plan.count_unit(id, s).unwrap())
            .sum();
        assert_eq!(Some(total), known::total(n), "n = {n}");
    }
}

/// The GPU's units are the mirror engine's: same descriptors, same counts,
/// another plan hash.
#[test]
fn each_unit_counts_what_the_mirror_engine_counts() {
    for (n, split) in [(11, 3), (12, 2), (13, 4)] {
        let config = Config::default().with_split_depth(split);
        let gpu = Plan::new(n, Engine::Gpu, &config).unwrap();
        let mirror = Plan::new(n, Engine::Mirror, &config).unwrap();
        assert_ne!(gpu.hash(), mirror.hash());
        assert_eq!(gpu.len(), mirror.len());
        let mut scratch = Scratch::default();
        for id in 0..gpu.len() as u32 {
            assert_eq!(
                gpu.unit(id).unwrap().descriptor,
                mirror.unit(id).unwrap().descriptor
            );
            assert_eq!(
                gpu.count_unit(id, &mut scratch).unwrap(),
                mirror.count_unit(id, &mut scratch).unwrap(),
                "n = {n}, unit {id}"
            );
        }
    }
}

/// `count_task` from the empty board (a task of depth 0 stands for the
/// whole board) counts every solution: the two-row finish included.
#[test]
fn one_task_from_the_empty_board_counts_every_solution() {
    for n in 4..=12 {
        assert_eq!(
            Some(u128::from(count_task(n, 0, Masks::EMPTY))),
            known::total(n),
            "n = {n}"
        );
    }
}

/// Builds `tests/gpu/harness.cpp` around `src/count/gpu/kernel.cu` with the
/// host C++ compiler, so the CUDA source itself is checked.
fn harness(dir: &Path) -> std::path::PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let source = std::fs::read_to_string(root.join("src/count/gpu/kernel.cu")).unwrap();
    let from = "extern __shared__ uint4 frames[];";
    assert_eq!(
        source.matches(from).count(),
        1,
        "the kernel's shared array is not where the harness expects it"
    );
    let source = source.replace(from, "uint4 *frames = shared_frames;");
    std::fs::write(dir.join("kernel.cu"), source).unwrap();
    let binary = dir.join("harness");
    let status = Command::new(std::env::var("CXX").unwrap_or_else(|_| "c++".into()))
        .args(["-O2", "-std=c++17", "-I"])
        .arg(dir)
        .arg(root.join("tests/gpu/harness.cpp"))
        .arg("-o")
        .arg(&binary)
        .status()
        .expect("a C++ compiler (c++, or $CXX) builds the kernel harness");
    assert!(status.success(), "the kernel harness does not compile");
    binary
}

#[test]
fn the_cuda_kernel_run_on_the_cpu_counts_a000170() {
    let dir = tempfile::tempdir().unwrap();
    let harness = harness(dir.path());
    for n in 4..=13 {
        for depth in [1, (n - 2) / 2, n - 2] {
            let out = Command::new(&harness)
                .args(["count_tasks", &n.to_string(), &depth.to_string()])
                .output()
                .unwrap();
            assert!(out.status.success(), "n = {n}, depth {depth}");
            let total: u128 = String::from_utf8(out.stdout)
                .unwrap()
                .trim()
                .parse()
                .unwrap();
            assert_eq!(Some(total), known::total(n), "n = {n}, depth {depth}");
        }
    }
}

/// Whether this test build can count on a GPU: it has the `gpu` feature
/// and the machine a usable NVIDIA GPU.
fn gpu_here() -> bool {
    gpu::probe().is_ok()
}

/// Where a GPU can count (a build with the `gpu` feature on an NVIDIA
/// machine), the engine counts exactly; anywhere else (CI has no GPU), a
/// count refuses with one line, before any unit.
#[test]
fn the_engine_counts_on_a_gpu_and_refuses_without_one() {
    let counted = Counter::new(10).engine(Engine::Gpu).run();
    if gpu_here() {
        let count = counted.unwrap();
        assert_eq!(Some(count.solutions), known::total(10));
        return;
    }
    let err = counted.unwrap_err();
    let Error::Gpu(line) = &err else {
        panic!("not a GPU error: {err:?}");
    };
    assert!(!line.contains('\n'));
    assert!(line.contains("GPU") || line.contains("NVIDIA"), "{line}");
}

/// A build without the `gpu` feature refuses whatever the machine has,
/// and says how to build one that counts.
#[cfg(not(feature = "gpu"))]
#[test]
fn a_build_without_the_gpu_feature_refuses_and_says_how_to_build_one() {
    assert!(!gpu_here());
    let err = gpu::probe().unwrap_err();
    let Error::Gpu(line) = &err else {
        panic!("not a GPU error: {err:?}");
    };
    assert!(line.contains("--features gpu"), "{line}");
}

#[test]
fn the_engine_covers_4_to_32() {
    assert_eq!(Engine::Gpu.range(), 4..=32);
    assert!(matches!(
        Plan::new(3, Engine::Gpu, &Config::default()),
        Err(Error::BoardSize { n: 3, .. })
    ));
    assert_eq!("gpu".parse::<Engine>().unwrap(), Engine::Gpu);
    assert_eq!(Engine::Gpu.second_opinion(18), Some(Engine::Join));
    assert_eq!(Engine::Gpu.second_opinion(26), Some(Engine::Mirror));
}

/// The CLI counts on a GPU where there is one, and refuses with exit 2
/// and one line where there is none; a board the engine does not cover
/// is refused either way.
#[test]
fn the_cli_counts_on_a_gpu_or_refuses_a_missing_one_with_exit_2_and_one_line() {
    use crate::common::cli::{one_error_line, queens, stdout};
    let run = queens(&["count", "12", "--engine", "gpu", "--json"]);
    if gpu_here() {
        let out = stdout(&run.success());
        let record: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
        assert_eq!(record["solutions"], 14_200, "{out}");
        assert_eq!(record["engine"], "gpu", "{out}");
    } else {
        let line = one_error_line(run, 2, &[]);
        assert!(line.contains("GPU") || line.contains("NVIDIA"), "{line}");
    }
    one_error_line(
        queens(&["count", "3", "--engine", "gpu"]),
        2,
        &["gpu engine counts 4 <= n <= 32"],
    );
}
