//! The GPU executor without a GPU: the CUDA kernels themselves run on the
//! CPU by a small C++ harness, and the refusals of a machine or a build
//! without a GPU; with a GPU, the counts it gives. (The task cut and the
//! Rust reference of the per-task search are pinned by the library's unit
//! tests.)

use std::path::Path;
use std::process::Command;

use queens::internals::count_with_kernel;
use queens::{Config, Counter, Engine, Error, Executor, Plan, Shape, find_gpu, known};

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

/// `count_tasks_allowed` run on the CPU over exactly what a launch
/// uploads (the tasks of every start, four words each, and the starts'
/// tables), cut at one row, about half the board and the deepest cut:
/// every start of every constellations plan from n = 4 to 13 counts what
/// the plain recursion counts for it.
#[test]
fn the_cuda_kernel_with_tables_counts_every_start_as_the_cpu() {
    let dir = tempfile::tempdir().unwrap();
    let harness = harness(dir.path());
    let file = dir.path().join("tasks.txt");
    for n in 4..=13 {
        let plan = Plan::new(
            Shape::new(n, Engine::Constellations, None),
            &Config::default(),
        )
        .unwrap();
        let ids: Vec<u32> = (0..plan.len() as u32).collect();
        let plain: Vec<u128> = ids
            .iter()
            .map(|&id| plan.count_plainly(id).unwrap().unwrap())
            .collect();
        assert_eq!(Some(plain.iter().sum()), known::total(n), "n = {n}");
        for depth in [1, n / 2, n - 2] {
            let counted = count_with_kernel(&plan, &ids, depth, |words, tables| {
                let mut text = format!("{n} {} {}\n", words.len() / 4, tables.len());
                for word in words.iter().chain(tables) {
                    text.push_str(&word.to_string());
                    text.push('\n');
                }
                std::fs::write(&file, text).unwrap();
                let out = Command::new(&harness)
                    .arg("count_tasks_allowed")
                    .arg(&file)
                    .output()
                    .unwrap();
                assert!(out.status.success(), "n = {n}, depth {depth}");
                String::from_utf8(out.stdout)
                    .unwrap()
                    .lines()
                    .map(|line| line.parse().unwrap())
                    .collect()
            })
            .unwrap();
            assert_eq!(counted, plain, "n = {n}, depth {depth}");
        }
    }
}

/// Without a GPU (CI has none), or without the `gpu` feature, a count on
/// the GPU refuses with one line, before any unit; with one, it counts
/// A000170 on the constellations engine's plan, and on the mirror
/// engine's when asked.
#[test]
fn a_gpu_count_is_exact_or_refused_with_one_line() {
    let counted = Counter::new(10).executor(Executor::Gpu).run();
    if find_gpu(queens::GpuBackend::Auto).is_ok() {
        let count = counted.unwrap();
        assert_eq!(Some(count.solutions), known::total(10));
        assert_eq!(count.executor, Executor::Gpu);
        assert_eq!(count.engine, Engine::Constellations);
        let mirror = Counter::new(10)
            .engine(Engine::Mirror)
            .executor(Executor::Gpu)
            .run()
            .unwrap();
        assert_eq!(Some(mirror.solutions), known::total(10));
        return;
    }
    let err = counted.unwrap_err();
    let Error::Gpu { what: line, .. } = &err else {
        panic!("not a GPU error: {err:?}");
    };
    assert!(!line.contains('\n'));
    assert!(line.contains("GPU") || line.contains("NVIDIA"), "{line}");
}

/// A build without the `gpu` feature refuses whatever the machine has,
/// and says how to build one that counts.
#[cfg(not(any(feature = "cuda", feature = "wgpu")))]
#[test]
fn a_build_without_the_gpu_feature_refuses_and_says_how_to_build_one() {
    let err = find_gpu(queens::GpuBackend::Auto).unwrap_err();
    let Error::Gpu { what: line, .. } = &err else {
        panic!("not a GPU error: {err:?}");
    };
    assert!(line.contains("--features gpu"), "{line}");
}

/// The GPU is an executor of backtracking plans: the join's, and boards
/// too small to cut, are refused with one line whether or not a GPU is
/// there; the plan it runs unasked is the constellations engine's, hash and
/// all, and the mirror engine's when named.
#[test]
fn the_gpu_runs_the_backtracking_plans_only() {
    for (n, engine, needle) in [
        (
            12,
            Engine::Join,
            "the GPU runs the constellations and mirror engines' plans only",
        ),
        (3, Engine::Mirror, "the GPU counts 4 <= n <= 32: n = 3"),
    ] {
        let err = Counter::new(n)
            .engine(engine)
            .executor(Executor::Gpu)
            .run()
            .unwrap_err();
        let Error::Gpu { what: line, .. } = &err else {
            panic!("not a GPU error: {err:?}");
        };
        assert!(line.contains(needle) && !line.contains('\n'), "{line}");
    }
    // The executor is no part of a plan: the GPU's is the CPU's.
    for (asked, engine) in [
        (None, Engine::Constellations),
        (Some(Engine::Mirror), Engine::Mirror),
    ] {
        let counter = Counter::new(14).executor(Executor::Gpu);
        let on_gpu = asked.map_or(counter, |e| counter.engine(e)).plan().unwrap();
        assert_eq!(on_gpu.engine(), engine);
        assert_eq!(
            on_gpu.hash(),
            Plan::new(Shape::new(14, engine, None), &Config::default())
                .unwrap()
                .hash()
        );
    }
}
