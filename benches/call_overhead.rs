//! The Rust side of the Python package's overhead: `queens::count(n)`
//! called in-process `CALLS` times after one warm-up call, the median wall
//! time printed (`n median_seconds`). `benches/python-overhead.sh` runs it
//! beside `benches/python_overhead.py`, which times `queens.count(n)` the
//! same way from Python.
//!
//! Usage: cargo bench --bench call_overhead -- CALLS N...

use std::time::Instant;

fn main() {
    let args: Vec<u32> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .map(|a| a.parse().expect("usage: call_overhead CALLS N..."))
        .collect();
    let (calls, sizes) = args.split_first().expect("usage: call_overhead CALLS N...");
    for &n in sizes {
        let want = queens::known::total(n).expect("a published n");
        assert_eq!(queens::count(n).expect("n in range"), want);
        let mut times: Vec<f64> = (0..*calls)
            .map(|_| {
                let started = Instant::now();
                let total = queens::count(n).expect("n in range");
                let seconds = started.elapsed().as_secs_f64();
                assert_eq!(total, want);
                seconds
            })
            .collect();
        times.sort_by(f64::total_cmp);
        println!("{n} {:.9}", times[times.len() / 2]);
    }
}
