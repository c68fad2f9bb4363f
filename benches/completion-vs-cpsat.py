#!/usr/bin/env python3
"""Counts n-queens completions two ways, side by side, in one run:
`queens count N --given ... -j 1` (the problem's plan, on one thread; its
own `elapsed_secs`, the count without the process start) and OR-Tools
CP-SAT (one worker) enumerating every solution of the usual model (one
integer a row, three all-different constraints).

    cargo build --release
    python3 -m venv /tmp/cpsat && /tmp/cpsat/bin/pip install ortools
    /tmp/cpsat/bin/python benches/completion-vs-cpsat.py [--seed S] [--limit SECS] [--queens PATH]

Instances: for n = 12, 14, 16, and n/4 and n/2 given queens, the given
queens are the first rows of a random solution (so every instance has a
completion) placed in random rows; plus the empty board of each n for
scale. Both counts must agree; CP-SAT is stopped after --limit seconds and
its time then printed as "> limit". Prints a Markdown table.
"""

import argparse
import json
import random
import subprocess
import sys
import time

from ortools.sat.python import cp_model


def random_solution(n, rng):
    """A random solution, by randomised backtracking."""
    cols, board = set(), []
    diag, anti = set(), set()

    def go(row):
        if row == n:
            return True
        order = list(range(n))
        rng.shuffle(order)
        for c in order:
            if c in cols or row + c in diag or row - c in anti:
                continue
            cols.add(c), diag.add(row + c), anti.add(row - c), board.append(c)
            if go(row + 1):
                return True
            cols.remove(c), diag.remove(row + c), anti.remove(row - c), board.pop()
        return False

    go(0)
    return board


class Counter(cp_model.CpSolverSolutionCallback):
    def __init__(self):
        super().__init__()
        self.solutions = 0

    def on_solution_callback(self):
        self.solutions += 1


def cpsat(n, given, limit):
    model = cp_model.CpModel()
    x = [model.new_int_var(0, n - 1, f"x{r}") for r in range(n)]
    model.add_all_different(x)
    model.add_all_different([x[r] + r for r in range(n)])
    model.add_all_different([x[r] - r for r in range(n)])
    for r, c in given:
        model.add(x[r] == c)
    solver = cp_model.CpSolver()
    solver.parameters.enumerate_all_solutions = True
    solver.parameters.num_workers = 1
    solver.parameters.max_time_in_seconds = limit
    counter = Counter()
    start = time.perf_counter()
    status = solver.solve(model, counter)
    elapsed = time.perf_counter() - start
    done = status in (cp_model.OPTIMAL, cp_model.INFEASIBLE)
    return counter.solutions, elapsed, done


def queens(binary, n, given):
    """The count and its seconds, as `queens count --json` reports them:
    the given queens' problem, or the empty board with the default engine
    (the join from n = 12) where none is given."""
    args = [binary, "count", str(n), "-j", "1", "--json"]
    if given:
        args += ["--given", ",".join(f"{r + 1}:{c + 1}" for r, c in given)]
    record = json.loads(subprocess.run(args, check=True, capture_output=True).stdout)
    return record["solutions"], record["elapsed_secs"]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--limit", type=float, default=120.0)
    parser.add_argument("--queens", default="target/release/queens")
    opts = parser.parse_args()
    rng = random.Random(opts.seed)
    print("| n | given (row:col, from 0) | completions | queens, 1 thread (ms) | CP-SAT, 1 worker (ms) | CP-SAT / queens | queens: empty board / this |")
    print("|---:|---:|---:|---:|---:|---:|---:|")
    for n in (12, 14, 16):
        empty = None
        for k in (0, n // 4, n // 2):
            solution = random_solution(n, rng)
            rows = sorted(rng.sample(range(n), k))
            given = [(r, solution[r]) for r in rows]
            count, ours = queens(opts.queens, n, given)
            theirs_count, theirs, done = cpsat(n, given, opts.limit)
            if done and theirs_count != count:
                sys.exit(f"n={n} given={given}: queens {count}, CP-SAT {theirs_count}")
            empty = empty or ours
            shown = f"{1e3 * theirs:,.3g}" if done else f"> {1e3 * opts.limit:,.0f}"
            ratio = f"{theirs / ours:,.3g}x" if done else f"> {opts.limit / ours:,.3g}x"
            label = " ".join(f"{r}:{c}" for r, c in given) or "(empty)"
            print(
                f"| {n} | {label} | {count:,} | {1e3 * ours:,.3g} | {shown} | {ratio} "
                f"| {empty / ours:,.3g}x |",
                flush=True,
            )


if __name__ == "__main__":
    main()
