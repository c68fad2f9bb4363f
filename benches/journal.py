#!/usr/bin/env python3
"""What `--checkpoint` costs: interleaved pairs of the same count with and
without a journal, for the join and mirror engines, and the relative
overhead as the median of the per-pair ratios (the machine's load moves both
runs of a pair alike). Every run's count is checked against OEIS A000170.

Writes results/<machine>/<date>-journal.txt with its provenance.

Usage (from the repository root, after `cargo build --release`):

    python3 benches/journal.py                      # n = 16 and 18 (join), 16 (mirror)
    python3 benches/journal.py --case join:20:1     # engine:n:pairs, repeatable
"""

import argparse
import datetime
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import measure  # noqa: E402  (provenance helpers and the OEIS check)

DEFAULT_CASES = ["join:16:9", "mirror:16:5", "join:18:5"]


def timed(args):
    """The wall time of one run; stops the script if its count is wrong."""
    started = time.perf_counter()
    out = subprocess.run(args, capture_output=True, text=True, check=True).stdout
    elapsed = time.perf_counter() - started
    record = json.loads(out)
    if record["matches_known"] is not True:
        sys.exit(f"MISMATCH: {' '.join(args)} printed {out}")
    return elapsed


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--case", action="append", help="engine:n:pairs")
    parser.add_argument("--threads", type=int, default=os.cpu_count())
    options = parser.parse_args()
    cases = options.case or DEFAULT_CASES
    # Read before the runs: the tree may change while they go on.
    described = measure.sh("git", "describe", "--always", "--dirty")
    lines = []
    for case in cases:
        engine, n, pairs = case.split(":")
        n, pairs = int(n), int(pairs)
        base = [str(measure.BINARY), "count", str(n), "--json", "--engine", engine,
                "-j", str(options.threads)]
        plain, journaled, ratios = [], [], []
        for _ in range(pairs):
            with tempfile.TemporaryDirectory() as scratch:
                journal = os.path.join(scratch, "j")
                a = timed(base)
                b = timed(base + ["--checkpoint", journal])
            plain.append(a)
            journaled.append(b)
            ratios.append(b / a)
        overhead = (statistics.median(ratios) - 1) * 100
        line = (f"{engine:<6} n = {n:>2}: {pairs} pairs, median without {statistics.median(plain):.3f} s, "
                f"with --checkpoint {statistics.median(journaled):.3f} s, "
                f"overhead (median of pair ratios) {overhead:+.1f}%")
        print(line, flush=True)
        lines.append(line)
    write(options, lines, described)


def write(options, lines, described):
    cores = os.cpu_count()
    folder = measure.ROOT / "results" / measure.machine_slug(cores)
    folder.mkdir(parents=True, exist_ok=True)
    date = datetime.date.today().isoformat()
    path = folder / f"{date}-journal.txt"
    command = "python3 benches/journal.py " + " ".join(
        f"--case {c}" for c in (options.case or [])
    )
    text = [
        "What --checkpoint costs: interleaved pairs of `queens count N --json --engine E -j T`",
        "without and with a fresh journal; overhead = median of the pairs' time ratios - 1.",
        "",
        f"date: {date}",
        f"machine: {measure.cpu_model()}, {cores} cores",
        f"git describe: {described}",
        f"rustc -V: {measure.sh('rustc', '-V')}",
        f"command: {command.strip()}",
        f"threads: {options.threads}",
        "",
        *lines,
        "",
    ]
    with open(path, "a") as out:
        out.write("\n".join(text))
    print(f"appended to {path.relative_to(measure.ROOT)}")


if __name__ == "__main__":
    main()
