//! The GPU executor without a GPU: the CUDA kernels themselves run on the
//! CPU by a small C++ harness, and the refusals of a machine or a build
//! without a GPU; with a GPU, the counts it gives. (The task cut and the
//! per-task search are pinned by the library's unit tests.)

use std::path::Path;
use std::process::Command;

use queens::{Config, Counter, Engine, Error, Executor, Plan, find_gpu, known};

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

/// Without a GPU (CI has none), or without the `gpu` feature, a count on
/// the GPU refuses with one line, before any unit; with one, it counts
/// A000170 on the mirror engine's plan.
#[test]
fn a_gpu_count_is_exact_or_refused_with_one_line() {
    let counted = Counter::new(10).executor(Executor::Gpu).run();
    if find_gpu().is_ok() {
        let count = counted.unwrap();
        assert_eq!(Some(count.solutions), known::total(10));
        assert_eq!(count.executor, Executor::Gpu);
        assert_eq!(count.engine, Engine::Mirror);
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
    let err = find_gpu().unwrap_err();
    let Error::Gpu(line) = &err else {
        panic!("not a GPU error: {err:?}");
    };
    assert!(line.contains("--features gpu"), "{line}");
}

/// The GPU is an executor of backtracking plans: the join's, and boards
/// too small to cut, are refused with one line whether or not a GPU is
/// there; the plan it runs is the mirror engine's, hash and all.
#[test]
fn the_gpu_runs_the_mirror_plan_only() {
    for (n, engine, needle) in [
        (12, Engine::Join, "only the mirror engine's plans"),
        (3, Engine::Mirror, "n >= 4"),
    ] {
        let err = Counter::new(n)
            .engine(engine)
            .executor(Executor::Gpu)
            .run()
            .unwrap_err();
        let Error::Gpu(line) = &err else {
            panic!("not a GPU error: {err:?}");
        };
        assert!(line.contains(needle) && !line.contains('\n'), "{line}");
    }
    let on_gpu = Counter::new(14).executor(Executor::Gpu).plan().unwrap();
    let config = Config::default().with_executor(Executor::Gpu);
    assert_eq!(
        on_gpu.hash(),
        Plan::new(14, Engine::Mirror, &config).unwrap().hash()
    );
    assert_eq!(
        on_gpu.hash(),
        Plan::new(14, Engine::Mirror, &Config::default())
            .unwrap()
            .hash()
    );
}

/// `gpu` is no engine any more: its name, in a plan header or on the
/// command line, says where the GPU went.
#[test]
fn the_old_gpu_engine_is_refused_with_one_line() {
    use crate::common::cli::{one_error_line, queens};
    let err = "gpu".parse::<Engine>().unwrap_err().to_string();
    assert!(
        err.contains("older queens") && err.contains("--gpu"),
        "{err}"
    );
    one_error_line(
        queens(&["count", "12", "--engine", "gpu"]),
        2,
        &["--engine gpu is now --gpu"],
    );
    one_error_line(
        queens(&["count", "12", "--gpu", "--engine", "join"]),
        2,
        &["--gpu runs the mirror engine's plans only"],
    );
    one_error_line(
        queens(&["count", "3", "--gpu"]),
        2,
        &["--gpu counts 4 <= n"],
    );
}

/// The CLI counts on a GPU where there is one, and refuses with exit 2
/// and one line where there is none; a board the engine does not cover
/// is refused either way.
#[test]
fn the_cli_counts_on_a_gpu_or_refuses_a_missing_one_with_exit_2_and_one_line() {
    use crate::common::cli::{one_error_line, queens};
    let bench = [
        "bench",
        "12",
        "--gpu",
        "--runs",
        "1",
        "--threads",
        "1",
        "--json",
    ];
    if find_gpu().is_ok() {
        let out = queens(&["count", "12", "--gpu", "-q"]).success();
        let stdout = String::from_utf8(out.get_output().stdout.clone()).unwrap();
        assert_eq!(stdout.trim(), known::total(12).unwrap().to_string());
        let out = queens(&bench).success();
        let record: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
        assert_eq!(record["workload"]["solutions"], 14_200, "{record}");
        return;
    }
    let line = one_error_line(queens(&["count", "12", "--gpu"]), 2, &[]);
    assert!(line.contains("GPU") || line.contains("NVIDIA"), "{line}");
    let line = one_error_line(queens(&bench), 2, &[]);
    assert!(line.contains("GPU") || line.contains("NVIDIA"), "{line}");
    one_error_line(
        queens(&["bench", "12", "--gpu", "--engine", "join"]),
        2,
        &["--gpu runs the mirror engine's plans only"],
    );
}
