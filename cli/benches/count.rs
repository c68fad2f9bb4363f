//! Counts for a few board sizes: the mirror engine serial and parallel, and
//! the library's one call `queens::count(n)` against the `queens count`
//! binary on the same n. Every timed run checks its total against OEIS
//! A000170, so a fast wrong answer fails the bench.
//!
//! `cargo bench --bench count`; the CLI-level table lives in `results/`.

use std::hint::black_box;
use std::process::Command;

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};

// The binary's allocator, so that the library and the CLI are compared on
// equal terms (an embedder picks its own).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;
use queens::{Counter, Engine, known};

fn mirror(c: &mut Criterion) {
    let mut group = c.benchmark_group("mirror");
    group.sample_size(10);
    for n in [10u32, 12, 14] {
        let want = known::total(n).expect("a known value");
        group.bench_with_input(BenchmarkId::new("serial", n), &n, |b, &n| {
            b.iter(|| {
                let got = Counter::new(black_box(n))
                    .engine(Engine::Mirror)
                    .threads(1)
                    .run()
                    .unwrap();
                assert_eq!(got.solutions, want);
            });
        });
        group.bench_with_input(BenchmarkId::new("parallel", n), &n, |b, &n| {
            b.iter(|| {
                let got = Counter::new(black_box(n))
                    .engine(Engine::Mirror)
                    .run()
                    .unwrap();
                assert_eq!(got.solutions, want);
            });
        });
    }
    group.finish();
}

/// `queens::count(n)` and `queens count n -q` side by side: the one call
/// must be as fast as the CLI (the binary's time includes starting a
/// process, about a millisecond).
fn one_call(c: &mut Criterion) {
    let mut group = c.benchmark_group("one_call");
    group.sample_size(10);
    for n in [15u32, 17] {
        let want = known::total(n).expect("a known value");
        group.bench_with_input(BenchmarkId::new("library", n), &n, |b, &n| {
            b.iter(|| assert_eq!(queens::count(black_box(n)), Ok(want)));
        });
        group.bench_with_input(BenchmarkId::new("cli", n), &n, |b, &n| {
            b.iter(|| {
                let out = Command::new(env!("CARGO_BIN_EXE_queens"))
                    .args(["count", &n.to_string(), "-q"])
                    .output()
                    .expect("the queens binary runs");
                assert!(out.status.success());
                assert_eq!(
                    String::from_utf8_lossy(&out.stdout).trim(),
                    want.to_string()
                );
            });
        });
    }
    group.finish();
}

criterion_group!(benches, mirror, one_call);
criterion_main!(benches);
