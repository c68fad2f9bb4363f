//! Serial and parallel counts for a few board sizes. Every timed run checks
//! its total against OEIS A000170, so a fast wrong answer fails the bench.
//!
//! `cargo bench --bench count`; the CLI-level table lives in `results/`.

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use queens::{Config, count_parallel, count_serial, known};

fn counts(c: &mut Criterion) {
    let mut group = c.benchmark_group("count");
    group.sample_size(10);
    for n in [10u32, 12, 14] {
        let want = known::total(n).expect("a known value");
        group.bench_with_input(BenchmarkId::new("serial", n), &n, |b, &n| {
            b.iter(|| {
                let got = count_serial(black_box(n), &Config::default(), &()).unwrap();
                assert_eq!(got.solutions, want);
            });
        });
        group.bench_with_input(BenchmarkId::new("parallel", n), &n, |b, &n| {
            b.iter(|| {
                let got = count_parallel(black_box(n), &Config::default(), &()).unwrap();
                assert_eq!(got.solutions, want);
            });
        });
    }
    group.finish();
}

criterion_group!(benches, counts);
criterion_main!(benches);
