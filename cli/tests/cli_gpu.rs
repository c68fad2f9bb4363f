//! `count --gpu` and `bench --gpu` on the command line: a GPU's counts
//! where there is one, one-line refusals where there is none, and the
//! plans the GPU does not run. (The kernels themselves are the library's
//! tests: tests/gpu.rs at the top of the workspace.)

use queens::{Engine, find_gpu, known};

use crate::common::cli::{one_error_line, queens};

/// `gpu` is no engine: the library knows no such name, and the command
/// line's `--engine gpu` says where the GPU is.
#[test]
fn the_gpu_is_no_engine_and_is_refused_with_one_line() {
    let err = "gpu".parse::<Engine>().unwrap_err().to_string();
    assert_eq!(
        err,
        "unknown engine 'gpu': expected mirror, join or constellations"
    );
    one_error_line(
        queens(&["count", "12", "--engine", "gpu"]),
        2,
        &["--engine gpu is now --gpu"],
    );
    one_error_line(
        queens(&["count", "12", "--gpu", "--engine", "join"]),
        2,
        &["--gpu runs the constellations and mirror engines' plans only"],
    );
    one_error_line(
        queens(&["count", "3", "--gpu"]),
        2,
        &["--gpu counts 4 <= n"],
    );
}

/// `--split-depth` shapes the mirror engine's units only, and `--gpu`
/// counts with the constellations engine unless told: the refusal says so,
/// GPU or none.
#[test]
fn a_split_depth_with_gpu_names_the_engine_it_would_miss() {
    one_error_line(
        queens(&["count", "12", "--gpu", "--split-depth", "3"]),
        2,
        &[
            "--gpu counts with the constellations engine",
            "--engine mirror",
        ],
    );
}

/// The CLI counts on a GPU where there is one, and refuses with exit 2
/// and one line where there is none; a board the engine does not cover
/// is refused either way.
#[test]
fn the_cli_counts_on_a_gpu_or_refuses_a_missing_one_with_exit_2_and_one_line() {
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
    if find_gpu(queens::GpuBackend::Auto).is_ok() {
        for engine in [&[][..], &["--engine", "mirror"]] {
            let args = [&["count", "12", "--gpu", "-q"][..], engine].concat();
            let out = queens(&args).success();
            let stdout = String::from_utf8(out.get_output().stdout.clone()).unwrap();
            assert_eq!(stdout.trim(), known::total(12).unwrap().to_string());
        }
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
        &["--gpu runs the constellations and mirror engines' plans only"],
    );
}
