#!/usr/bin/env python3
"""Times `queens count` for the mirror and join engines over a range of n, on
one thread and on all of them.

Each (engine, n, threads) triple runs several times; the median wall time of
the whole process is what counts, and its peak memory (max RSS) is kept.
Writes, under results/<machine>/:

    <date>.csv          one row per (engine, n, threads): median, min, max,
                        speed-up over 1 thread, peak memory, count
    <date>-unique.csv   the cost of --unique against the plain count
    <date>.txt          provenance: date, git describe, rustc -V, CPU, command
    <date>.svg          time against n, log scale, one line per engine and
                        thread count

and rewrites results/README.md with the newest tables and plot, and the block
between the results markers in the top-level README.md. Every run's count is
checked against OEIS; a mismatch stops the script.

Usage (from the repository root, after `cargo build --release`):

    python3 benches/measure.py                        # the default table
    python3 benches/measure.py --join-max 19 --big 20 # and n = 20, once
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
ENGINES = ("mirror", "join")


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


def run_measured(n, threads, engine, extra=()):
    """Wall time, peak memory (KiB, from wait4) and JSON record of one count."""
    cmd = [str(BINARY), "count", str(n), "-j", str(threads), "--engine", engine, "--json", *extra]
    start = time.perf_counter()
    child = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out = child.stdout.read()
    err = child.stderr.read()
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    code = os.waitstatus_to_exitcode(status)
    child.returncode = code  # reaped here, so Popen must not wait again
    if code != 0:
        sys.exit(f"measure: {' '.join(cmd)} exited {code}: {err.decode().strip()}")
    record = json.loads(out)
    if record["matches_known"] is False or record.get("matches_known_unique") is False:
        sys.exit(f"measure: n = {n}: a count disagrees with OEIS: {out.decode().strip()}")
    return wall, usage.ru_maxrss, record


def measure(engine, n, threads, runs):
    if n <= 14:
        run_measured(n, threads, engine)  # warm-up for the millisecond runs; not counted
    walls, peaks, record = [], [], None
    for _ in range(runs):
        wall, peak, record = run_measured(n, threads, engine)
        walls.append(wall)
        peaks.append(peak)
    row = {
        "engine": engine,
        "n": n,
        "threads": threads,
        "runs": runs,
        "median_secs": statistics.median(walls),
        "min_secs": min(walls),
        "max_secs": max(walls),
        "peak_mib": max(peaks) / 1024,
        "solutions": record["solutions"],
        "units": record["units"],
    }
    print(f"{engine:6}  n = {n:2}  threads = {threads:2}  median {row['median_secs']:9.4f} s  "
          f"(min {row['min_secs']:.4f}, max {row['max_secs']:.4f}), peak {row['peak_mib']:.0f} MiB",
          flush=True)
    return row


def unique_cost(sizes, threads, runs):
    """Median wall time with and without --unique (default engine), runs
    interleaved so that both see the same machine."""
    rows = []
    for n in sizes:
        plain, unique = [], []
        for _ in range(runs):
            plain.append(run_measured(n, threads, "join")[0])
            unique.append(run_measured(n, threads, "join", ["--unique"])[0])
        row = {"n": n, "threads": threads, "runs": runs,
               "plain_secs": statistics.median(plain), "unique_secs": statistics.median(unique)}
        row["extra_pct"] = 100.0 * (row["unique_secs"] / row["plain_secs"] - 1.0)
        print(f"n = {n:2}  --unique costs {row['extra_pct']:+.1f} % "
              f"({row['plain_secs']:.3f} s -> {row['unique_secs']:.3f} s)", flush=True)
        rows.append(row)
    return rows


def speedups(pairs, threads, runs):
    """The 2-thread speed-up as the median of per-pair ratios: each pair is
    a 1-thread run followed at once by a `threads` run, so a slow spell of
    the machine hits both sides of a ratio rather than one median."""
    rows = []
    for engine, n in pairs:
        ratios, one, many = [], [], []
        for _ in range(runs):
            t1 = run_measured(n, 1, engine)[0]
            tn = run_measured(n, threads, engine)[0]
            one.append(t1)
            many.append(tn)
            ratios.append(t1 / tn)
        row = {"engine": engine, "n": n, "threads": threads, "runs": runs,
               "one_secs": statistics.median(one), "many_secs": statistics.median(many),
               "ratio_median": statistics.median(ratios), "ratio_min": min(ratios), "ratio_max": max(ratios)}
        print(f"{engine:6}  n = {n:2}  speed-up at {threads} threads: median {row['ratio_median']:.2f}x "
              f"(min {row['ratio_min']:.2f}, max {row['ratio_max']:.2f}) over {runs} pairs", flush=True)
        rows.append(row)
    return rows


def plot_svg(rows, title):
    """A small log-scale line plot, as SVG text, with no dependencies."""
    width, height, left, right, top, bottom = 680, 420, 70, 190, 40, 50
    ns = sorted({r["n"] for r in rows})
    times = [r["median_secs"] for r in rows]
    lo = math.floor(math.log10(min(times)))
    hi = max(math.ceil(math.log10(max(times))), lo + 1)

    def x(n):
        return left + (n - ns[0]) / max(ns[-1] - ns[0], 1) * (width - left - right)

    def y(t):
        return top + (hi - math.log10(t)) / (hi - lo) * (height - top - bottom)

    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'font-family="sans-serif" font-size="12">',
        f'<rect width="{width}" height="{height}" fill="white"/>',
        f'<text x="{left}" y="22" font-size="14">{title}</text>',
    ]
    for e in range(lo, hi + 1):
        yy = y(10.0**e)
        out.append(f'<line x1="{left}" y1="{yy:.1f}" x2="{width - right}" y2="{yy:.1f}" stroke="#ddd"/>')
        out.append(f'<text x="{left - 8}" y="{yy + 4:.1f}" text-anchor="end">{10.0**e:g} s</text>')
    for n in ns:
        out.append(f'<text x="{x(n):.1f}" y="{height - bottom + 18}" text-anchor="middle">{n}</text>')
    out.append(f'<text x="{(left + width - right) / 2}" y="{height - 12}" text-anchor="middle">n</text>')
    series = sorted({(r["engine"], r["threads"]) for r in rows})
    colours = {"mirror": ["#d62728", "#ff9896"], "join": ["#1f77b4", "#2ca02c"]}
    for i, (engine, threads) in enumerate(series):
        pts = sorted((r["n"], r["median_secs"]) for r in rows if (r["engine"], r["threads"]) == (engine, threads))
        colour = colours[engine][0 if threads == 1 else 1]
        dash = ' stroke-dasharray="6,3"' if threads > 1 else ""
        path = " ".join(f"{x(n):.1f},{y(t):.1f}" for n, t in pts)
        out.append(f'<polyline points="{path}" fill="none" stroke="{colour}" stroke-width="2"{dash}/>')
        for n, t in pts:
            out.append(f'<circle cx="{x(n):.1f}" cy="{y(t):.1f}" r="3" fill="{colour}"/>')
        ly = top + 20 * i + 10
        out.append(f'<line x1="{width - right + 15}" y1="{ly}" x2="{width - right + 40}" y2="{ly}" '
                   f'stroke="{colour}" stroke-width="2"{dash}/>')
        label = "thread" if threads == 1 else "threads"
        out.append(f'<text x="{width - right + 46}" y="{ly + 4}">{engine}, {threads} {label}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--min-n", type=int, default=10)
    parser.add_argument("--mirror-max", type=int, default=17, help="largest n for the mirror engine")
    parser.add_argument("--join-max", type=int, default=19, help="largest n for the join engine")
    parser.add_argument("--big", type=int, nargs="*", default=[],
                        help="sizes counted once by the join on all threads only (e.g. 20)")
    parser.add_argument("--runs", type=int, default=3, help="runs per (engine, n, threads); the median counts")
    parser.add_argument("--unique-n", default="16,17",
                        help="sizes at which to time --unique against the plain count ('' for none)")
    parser.add_argument("--speedup", default="mirror:16,mirror:17,join:18",
                        help="engine:n pairs whose speed-up is measured from interleaved runs ('' for none)")
    parser.add_argument("--speedup-runs", type=int, default=5)
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
    # Before anything is written: rewriting tracked results dirties the tree.
    describe = sh("git", "-C", str(ROOT), "describe", "--always", "--dirty", "--tags")

    rows = []
    for engine, top in (("mirror", args.mirror_max), ("join", args.join_max)):
        for n in range(args.min_n, top + 1):
            for threads in thread_counts:
                rows.append(measure(engine, n, threads, args.runs))
    for n in args.big:
        rows.append(measure("join", n, thread_counts[-1], 1))

    unique_sizes = [int(v) for v in args.unique_n.split(",") if v.strip()]
    unique_rows = unique_cost(unique_sizes, thread_counts[-1], args.runs)
    pairs = [(e, int(n)) for e, n in (p.split(":") for p in args.speedup.split(",") if p.strip())]
    speedup_rows = speedups(pairs, thread_counts[-1], args.speedup_runs) if len(thread_counts) > 1 else []

    single = {(r["engine"], r["n"]): r["median_secs"] for r in rows if r["threads"] == 1}
    for r in rows:
        one = single.get((r["engine"], r["n"]))
        r["speedup"] = one / r["median_secs"] if one else float("nan")

    with (folder / f"{today}.csv").open("w") as f:
        f.write("engine,n,threads,runs,median_secs,min_secs,max_secs,speedup,peak_mib,solutions,units\n")
        for r in rows:
            f.write(f"{r['engine']},{r['n']},{r['threads']},{r['runs']},{r['median_secs']:.6f},"
                    f"{r['min_secs']:.6f},{r['max_secs']:.6f},{r['speedup']:.3f},{r['peak_mib']:.1f},"
                    f"{r['solutions']},{r['units']}\n")
    if unique_rows:
        with (folder / f"{today}-unique.csv").open("w") as f:
            f.write("n,threads,runs,plain_median_secs,unique_median_secs,extra_pct\n")
            for r in unique_rows:
                f.write(f"{r['n']},{r['threads']},{r['runs']},{r['plain_secs']:.6f},"
                        f"{r['unique_secs']:.6f},{r['extra_pct']:.2f}\n")

    if speedup_rows:
        with (folder / f"{today}-speedup.csv").open("w") as f:
            f.write("engine,n,threads,pairs,one_thread_median_secs,threads_median_secs,"
                    "speedup_median,speedup_min,speedup_max\n")
            for r in speedup_rows:
                f.write(f"{r['engine']},{r['n']},{r['threads']},{r['runs']},{r['one_secs']:.6f},"
                        f"{r['many_secs']:.6f},{r['ratio_median']:.3f},{r['ratio_min']:.3f},"
                        f"{r['ratio_max']:.3f}\n")

    command = "python3 " + " ".join(shlex.quote(a) for a in [str(Path(sys.argv[0]))] + sys.argv[1:])
    provenance = {
        "date": today,
        "machine": machine,
        "cpu": cpu_model(),
        "cores": cores,
        "git describe": describe,
        "rustc -V": sh("rustc", "-V"),
        "command": command,
        "each run": f"{BINARY.relative_to(ROOT)} count N -j T --engine E --json "
                    "(wall time and max RSS of the process)",
    }
    (folder / f"{today}.txt").write_text("".join(f"{k}: {v}\n" for k, v in provenance.items()))
    svg = folder / f"{today}.svg"
    svg.write_text(plot_svg(rows, f"queens count, {machine}"))
    if not args.no_readme:
        write_readme(rows, unique_rows, speedup_rows, thread_counts, provenance,
                     svg.relative_to(ROOT / "results"))
    print(f"wrote results/{machine}/{today}.csv, its .txt and .svg, and the READMEs")


def cell(by, key, field, fmt):
    r = by.get(key)
    return format(r[field], fmt) if r and not math.isnan(r[field]) else "-"


def write_readme(rows, unique_rows, speedup_rows, thread_counts, provenance, svg):
    many = thread_counts[-1]
    by = {(r["engine"], r["n"], r["threads"]): r for r in rows}
    ns = sorted({r["n"] for r in rows})
    solutions = {r["n"]: r["solutions"] for r in rows}
    table = [
        f"| n | solutions | mirror, 1 thread (s) | mirror, {many} (s) | join, 1 thread (s) | "
        f"join, {many} (s) | join speed-up, {many} threads | join peak memory (MiB) |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for n in ns:
        table.append(
            f"| {n} | {solutions[n]} | {cell(by, ('mirror', n, 1), 'median_secs', '.4f')} | "
            f"{cell(by, ('mirror', n, many), 'median_secs', '.4f')} | "
            f"{cell(by, ('join', n, 1), 'median_secs', '.4f')} | "
            f"{cell(by, ('join', n, many), 'median_secs', '.4f')} | "
            f"{cell(by, ('join', n, many), 'speedup', '.2f')} | "
            f"{cell(by, ('join', n, many), 'peak_mib', '.0f')} |")
    lines = [
        "# Results",
        "",
        "Measured by `benches/measure.py`, which rewrites this page. Each figure is the median",
        "wall time of the whole `queens count N -j T --engine E` process over several runs (one",
        "run where the table shows no 1-thread figure); every run's count was checked against",
        "OEIS A000170. Peak memory is the process's maximum resident set.",
        "",
        f"Latest: {provenance['date']} on {provenance['cpu']} ({provenance['cores']} cores), "
        f"commit `{provenance['git describe']}`, {provenance['rustc -V']}.",
        f"Command: `{provenance['command']}`.",
        "",
        *table,
        "",
        f"![time against n, log scale]({svg})",
        "",
    ]
    if speedup_rows:
        lines += [
            f"Speed-up on {many} threads, as the median of the ratios of interleaved 1-thread and",
            f"{many}-thread runs (the table's medians come from separate runs and move with the",
            "machine's load):",
            "",
            "| engine | n | pairs | speed-up (median) | min | max |",
            "|---|---:|---:|---:|---:|---:|",
        ]
        lines += [f"| {r['engine']} | {r['n']} | {r['runs']} | {r['ratio_median']:.2f}x | "
                  f"{r['ratio_min']:.2f}x | {r['ratio_max']:.2f}x |" for r in speedup_rows]
        lines.append("")
    if unique_rows:
        lines += [
            "The cost of `--unique` (the symmetric searches on top of the total, default engine),",
            "median wall time of runs interleaved with the plain count:",
            "",
            "| n | threads | plain (s) | --unique (s) | extra |",
            "|---:|---:|---:|---:|---:|",
        ]
        lines += [f"| {r['n']} | {r['threads']} | {r['plain_secs']:.3f} | {r['unique_secs']:.3f} | "
                  f"{r['extra_pct']:+.1f} % |" for r in unique_rows]
        lines.append("")
    lines += [
        "Every run is kept in `results/<machine>/<date>.{csv,txt,svg}`: the CSV has the median,",
        "minimum and maximum of each (engine, n, threads), the `.txt` its provenance.",
        "",
        "To reproduce: `cargo build --release && python3 benches/measure.py` (about ten minutes",
        "on 2 cores; `--big 20` adds one n = 20 count with the join, a few minutes more).",
        "",
    ]
    (ROOT / "results" / "README.md").write_text("\n".join(lines))

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
