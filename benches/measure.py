#!/usr/bin/env python3
"""Times `queens count` for a range of n, on one thread and on all of them.

Each (n, threads) pair runs several times; the median wall time of the whole
process is what counts. Writes, under results/<machine>/:

    <date>.csv   one row per (n, threads): median, min, max, speed-up, count
    <date>.txt   provenance: date, git describe, rustc -V, CPU, exact command
    <date>.svg   time against n, log scale, one line per thread count

and rewrites results/README.md with the newest table and plot, and the
block between the results markers in the top-level README.md. Every run's
count is checked against the OEIS value the binary reports; a mismatch stops
the script.

Usage (from the repository root, after `cargo build --release`):

    python3 benches/measure.py                  # n = 10..17, 5 runs each
    python3 benches/measure.py --max-n 18 --runs 3
"""

import argparse
import datetime
import json
import math
import os
import platform
import re
import shlex
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BINARY = ROOT / "target" / "release" / "queens"


def sh(*args):
    try:
        return subprocess.run(args, capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def cpu_model():
    for line in sh("lscpu").splitlines():
        if line.startswith("Model name:"):
            return line.split(":", 1)[1].strip()
    return platform.processor() or "unknown"


def machine_slug(cores):
    slug = re.sub(r"[^a-z0-9]+", "-", cpu_model().lower()).strip("-")
    return f"{slug}-{cores}c"


def time_once(n, threads, extra=()):
    """Wall time of one `queens count n -j threads`, and its JSON record."""
    cmd = [str(BINARY), "count", str(n), "-j", str(threads), "--json", *extra]
    start = time.perf_counter()
    done = subprocess.run(cmd, capture_output=True, text=True)
    wall = time.perf_counter() - start
    if done.returncode != 0:
        sys.exit(f"measure: {' '.join(cmd)} exited {done.returncode}: {done.stderr.strip()}")
    record = json.loads(done.stdout)
    if record["matches_known"] is False or record.get("matches_known_unique") is False:
        sys.exit(f"measure: n = {n}: a count disagrees with OEIS: {done.stdout.strip()}")
    return wall, record


def unique_cost(sizes, threads, runs):
    """Median wall time with and without --unique, runs interleaved so that
    both see the same machine."""
    rows = []
    for n in sizes:
        plain, unique = [], []
        for _ in range(runs):
            plain.append(time_once(n, threads)[0])
            unique.append(time_once(n, threads, ["--unique"])[0])
        row = {"n": n, "threads": threads, "runs": runs,
               "plain_secs": statistics.median(plain), "unique_secs": statistics.median(unique)}
        row["extra_pct"] = 100.0 * (row["unique_secs"] / row["plain_secs"] - 1.0)
        print(f"n = {n:2}  --unique costs {row['extra_pct']:+.1f} % "
              f"({row['plain_secs']:.3f} s -> {row['unique_secs']:.3f} s)", flush=True)
        rows.append(row)
    return rows


def plot_svg(rows, thread_counts, title):
    """A small log-scale line plot, as SVG text, with no dependencies."""
    width, height, left, right, top, bottom = 640, 400, 70, 150, 40, 50
    ns = sorted({r["n"] for r in rows})
    times = [r["median_secs"] for r in rows]
    lo = math.floor(math.log10(min(times)))
    hi = math.ceil(math.log10(max(times)))
    hi = max(hi, lo + 1)

    def x(n):
        span = max(ns[-1] - ns[0], 1)
        return left + (n - ns[0]) / span * (width - left - right)

    def y(t):
        return top + (hi - math.log10(t)) / (hi - lo) * (height - top - bottom)

    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'font-family="sans-serif" font-size="12">',
        f'<rect width="{width}" height="{height}" fill="white"/>',
        f'<text x="{width / 2 - 60}" y="22" font-size="14">{title}</text>',
    ]
    for e in range(lo, hi + 1):
        yy = y(10.0**e)
        label = f"{10.0**e:g} s"
        out.append(f'<line x1="{left}" y1="{yy:.1f}" x2="{width - right}" y2="{yy:.1f}" stroke="#ddd"/>')
        out.append(f'<text x="{left - 8}" y="{yy + 4:.1f}" text-anchor="end">{label}</text>')
    for n in ns:
        out.append(f'<text x="{x(n):.1f}" y="{height - bottom + 18}" text-anchor="middle">{n}</text>')
    out.append(f'<text x="{(left + width - right) / 2}" y="{height - 12}" text-anchor="middle">n</text>')
    colours = ["#d62728", "#1f77b4", "#2ca02c", "#9467bd"]
    for i, threads in enumerate(thread_counts):
        pts = [(x(r["n"]), y(r["median_secs"])) for r in rows if r["threads"] == threads]
        colour = colours[i % len(colours)]
        path = " ".join(f"{px:.1f},{py:.1f}" for px, py in pts)
        out.append(f'<polyline points="{path}" fill="none" stroke="{colour}" stroke-width="2"/>')
        for px, py in pts:
            out.append(f'<circle cx="{px:.1f}" cy="{py:.1f}" r="3" fill="{colour}"/>')
        ly = top + 20 * i + 10
        out.append(f'<line x1="{width - right + 15}" y1="{ly}" x2="{width - right + 35}" y2="{ly}" '
                   f'stroke="{colour}" stroke-width="2"/>')
        label = "thread" if threads == 1 else "threads"
        out.append(f'<text x="{width - right + 40}" y="{ly + 4}">{threads} {label}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--min-n", type=int, default=10)
    parser.add_argument("--max-n", type=int, default=17)
    parser.add_argument("--runs", type=int, default=5, help="runs per (n, threads); the median counts")
    parser.add_argument("--unique-n", default="16,17",
                        help="sizes at which to time --unique against the plain count ('' for none)")
    parser.add_argument("--no-readme", action="store_true", help="leave both READMEs alone")
    parser.add_argument("--machine", help="results folder name [default: from the CPU model]")
    args = parser.parse_args()

    if not BINARY.exists():
        sys.exit("measure: build first: cargo build --release")
    cores = os.cpu_count() or 1
    thread_counts = [1] if cores == 1 else [1, cores]
    machine = args.machine or machine_slug(cores)
    today = datetime.date.today().isoformat()
    folder = ROOT / "results" / machine
    folder.mkdir(parents=True, exist_ok=True)

    rows = []
    for n in range(args.min_n, args.max_n + 1):
        for threads in thread_counts:
            if n <= 14:
                time_once(n, threads)  # warm-up for the millisecond runs; not counted
            walls, record = [], None
            for _ in range(args.runs):
                wall, record = time_once(n, threads)
                walls.append(wall)
            rows.append({
                "n": n,
                "threads": threads,
                "runs": args.runs,
                "median_secs": statistics.median(walls),
                "min_secs": min(walls),
                "max_secs": max(walls),
                "solutions": record["solutions"],
                "units": record["units"],
            })
            print(f"n = {n:2}  threads = {threads:2}  median {statistics.median(walls):9.4f} s  "
                  f"(min {min(walls):.4f}, max {max(walls):.4f})", flush=True)

    unique_sizes = [int(v) for v in args.unique_n.split(",") if v.strip()]
    unique_rows = unique_cost(unique_sizes, thread_counts[-1], args.runs)

    single = {r["n"]: r["median_secs"] for r in rows if r["threads"] == 1}
    for r in rows:
        r["speedup"] = single[r["n"]] / r["median_secs"]

    csv = folder / f"{today}.csv"
    with csv.open("w") as f:
        f.write("n,threads,runs,median_secs,min_secs,max_secs,speedup,solutions,units\n")
        for r in rows:
            f.write(f"{r['n']},{r['threads']},{r['runs']},{r['median_secs']:.6f},{r['min_secs']:.6f},"
                    f"{r['max_secs']:.6f},{r['speedup']:.3f},{r['solutions']},{r['units']}\n")

    if unique_rows:
        with (folder / f"{today}-unique.csv").open("w") as f:
            f.write("n,threads,runs,plain_median_secs,unique_median_secs,extra_pct\n")
            for r in unique_rows:
                f.write(f"{r['n']},{r['threads']},{r['runs']},{r['plain_secs']:.6f},"
                        f"{r['unique_secs']:.6f},{r['extra_pct']:.2f}\n")

    command = "python3 " + " ".join(shlex.quote(a) for a in [str(Path(sys.argv[0]))] + sys.argv[1:])
    provenance = {
        "date": today,
        "machine": machine,
        "cpu": cpu_model(),
        "cores": cores,
        "git describe": sh("git", "-C", str(ROOT), "describe", "--always", "--dirty", "--tags"),
        "rustc -V": sh("rustc", "-V"),
        "command": command,
        "each run": f"{BINARY.relative_to(ROOT)} count N -j T --json (wall time of the process)",
    }
    (folder / f"{today}.txt").write_text("".join(f"{k}: {v}\n" for k, v in provenance.items()))
    svg = folder / f"{today}.svg"
    svg.write_text(plot_svg(rows, thread_counts, f"queens count, {machine}"))

    if not args.no_readme:
        write_readme(rows, unique_rows, thread_counts, provenance, svg.relative_to(ROOT / "results"))
    print(f"wrote {csv.relative_to(ROOT)}, its .txt and .svg, and results/README.md")


def write_readme(rows, unique_rows, thread_counts, provenance, svg):
    by_n = {}
    for r in rows:
        by_n.setdefault(r["n"], {})[r["threads"]] = r
    many = thread_counts[-1]
    lines = [
        "# Results",
        "",
        "Measured by `benches/measure.py`, which rewrites this page. Each figure is the median",
        "wall time of the whole `queens count N -j T` process over several runs; every run's",
        "count was checked against OEIS A000170.",
        "",
        f"Latest: {provenance['date']} on {provenance['cpu']} ({provenance['cores']} cores), "
        f"commit `{provenance['git describe']}`, {provenance['rustc -V']}.",
        f"Command: `{provenance['command']}`.",
        "",
    ]
    table = [
        f"| n | solutions | 1 thread (s) | {many} threads (s) | speed-up |",
        "|---:|---:|---:|---:|---:|",
    ]
    for n, by_t in sorted(by_n.items()):
        one, all_ = by_t[1], by_t[many]
        table.append(f"| {n} | {one['solutions']} | {one['median_secs']:.4f} | "
                     f"{all_['median_secs']:.4f} | {all_['speedup']:.2f}x |")
    lines += table
    lines += [
        "",
        f"![time against n, log scale]({svg})",
        "",
    ]
    if unique_rows:
        lines += [
            "The cost of `--unique` (the symmetric searches on top of the total), median",
            "wall time of runs interleaved with the plain count:",
            "",
            "| n | threads | plain (s) | --unique (s) | extra |",
            "|---:|---:|---:|---:|---:|",
        ]
        lines += [f"| {r['n']} | {r['threads']} | {r['plain_secs']:.3f} | {r['unique_secs']:.3f} | "
                  f"{r['extra_pct']:+.1f} % |" for r in unique_rows]
        lines.append("")
    lines += [
        "Every run is kept in `results/<machine>/<date>.{csv,txt,svg}`: the CSV has the median,",
        "minimum and maximum of each (n, threads) pair, the `.txt` its provenance.",
        "",
        "To reproduce: `cargo build --release && python3 benches/measure.py` (about four",
        "minutes on 2 cores; `--max-n 18` adds n = 18, about ten more).",
        "",
    ]
    (ROOT / "results" / "README.md").write_text("\n".join(lines))

    # The top-level README shows the same table, between two markers.
    readme = ROOT / "README.md"
    text = readme.read_text()
    start, end = "<!-- results:start -->", "<!-- results:end -->"
    if start in text and end in text:
        head, rest = text.split(start, 1)
        _, tail = rest.split(end, 1)
        block = "\n".join([start, *table, "", f"![time against n, log scale](results/{svg})", end])
        readme.write_text(head + block + tail)


if __name__ == "__main__":
    main()
