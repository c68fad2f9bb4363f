"""The Python side of the package's overhead: queens.count(n) called
CALLS times after one warm-up call, the median wall time printed
(`n median_seconds`), as benches/call_overhead.rs does from Rust.

Usage: python benches/python_overhead.py CALLS N...
"""

import statistics
import sys
import time

import queens


def main():
    calls, *sizes = (int(a) for a in sys.argv[1:])
    for n in sizes:
        want = queens.known_total(n)
        assert queens.count(n) == want
        times = []
        for _ in range(calls):
            started = time.perf_counter()
            total = queens.count(n)
            times.append(time.perf_counter() - started)
            assert total == want
        times.sort()
        print(f"{n} {times[len(times) // 2]:.9f}")


if __name__ == "__main__":
    main()
