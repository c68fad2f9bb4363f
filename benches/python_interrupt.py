"""How soon Ctrl-C stops a count from Python: for each case, a timer
interrupts the main thread (as Ctrl-C does) AFTER seconds into the count,
and the time from the interrupt to the KeyboardInterrupt is printed; the
median of ROUNDS.

Usage: python benches/python_interrupt.py ROUNDS
"""

import _thread
import statistics
import sys
import threading
import time

import queens

# (n, engine, seconds before the interrupt): after the plan is built, while
# units are counted, each far from done.
CASES = [(19, "mirror", 1.0), (21, "join", 2.0), (22, "join", 4.0), (26, "constellations", 4.0), (27, "constellations", 6.0)]


def latency(n, engine, after):
    fired = []

    def interrupt():
        fired.append(time.monotonic())
        _thread.interrupt_main()

    timer = threading.Timer(after, interrupt)
    timer.start()
    try:
        queens.count(n, engine=engine)
    except KeyboardInterrupt:
        stopped = time.monotonic()
    else:
        raise SystemExit(f"n = {n} {engine}: the count ended before the interrupt")
    timer.join()
    return stopped - fired[0]


def main():
    rounds = int(sys.argv[1])
    for n, engine, after in CASES:
        times = [latency(n, engine, after) for _ in range(rounds)]
        shown = " ".join(f"{t:.3f}" for t in times)
        print(f"n = {n} {engine}, interrupted {after} s in: {shown} s; median {statistics.median(times):.3f} s")


if __name__ == "__main__":
    main()
