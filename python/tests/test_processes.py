"""Counts in other processes: fork, spawn and forkserver pools, a
ProcessPoolExecutor, a fork while another thread counts, and results that
cross the process boundary. See: issue 33 (a forked child's count hung
for ever once the parent had counted).

Every wait has a deadline, so that a hang fails the test instead of
stalling CI.
"""

import _thread
import concurrent.futures
import contextlib
import multiprocessing
import os
import threading
import time

import pytest

import queens
from conftest import A000170

# Far longer than any count here, on 2 busy cores.
DEADLINE = 60

METHODS = [m for m in ("fork", "spawn", "forkserver") if m in multiprocessing.get_all_start_methods()]


@contextlib.contextmanager
def executor(method, workers=2):
    """A ProcessPoolExecutor whose hung workers are killed on the way out
    (its own exit would wait for them for ever)."""
    pool = concurrent.futures.ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context(method))
    try:
        yield pool
    finally:
        processes = list((pool._processes or {}).values())
        pool.shutdown(wait=False, cancel_futures=True)
        for process in processes:
            process.join(10)
            if process.is_alive():
                process.kill()


def count_in_child(n):
    return os.getpid(), queens.count(n)


def unique_in_child(n):
    return queens.count(n, unique=True)


def units_in_child(job):
    n, ids = job
    return queens.count_units(n, ids)


@pytest.mark.parametrize("method", METHODS)
def test_a_pool_counts_after_the_parent_counted(method):
    assert queens.count(10) == A000170[10]  # the parent's pool is up
    with multiprocessing.get_context(method).Pool(2) as pool:
        results = pool.map_async(count_in_child, [10, 11, 12]).get(timeout=DEADLINE)
    assert [total for _, total in results] == [A000170[n] for n in (10, 11, 12)]
    assert all(pid != os.getpid() for pid, _ in results)


@pytest.mark.parametrize("method", METHODS)
def test_a_process_pool_executor_counts_and_returns_results(method):
    queens.count(10)
    with executor(method) as pool:
        totals = list(pool.map(count_in_child, [11, 12], timeout=DEADLINE))
        classes = pool.submit(unique_in_child, 10).result(timeout=DEADLINE)
    assert [t for _, t in totals] == [A000170[11], A000170[12]]
    # A UniqueCount pickles back to the parent.
    assert classes == queens.count(10, unique=True)


@pytest.mark.usefixtures("ctrl_c_raises")
def test_a_fork_while_another_thread_counts():
    # (Python's own Ctrl-C handler: where the suite runs as a background
    # job, SIGINT is ignored, `interrupt_main` does nothing, and the count
    # of n = 19 ran to its end, 13 minutes, and "DID NOT RAISE".)
    if "fork" not in METHODS:
        pytest.skip("no fork here")
    # The main thread counts, and is stopped by a Ctrl-C as soon as the
    # pool, forked by another thread in the middle of that count, is done:
    # a unit of n = 19 can take a minute on a busy machine, so a stop
    # from the progress callback could come too late.
    results = []

    def fork_a_pool():
        try:
            time.sleep(1)
            with multiprocessing.get_context("fork").Pool(2) as pool:
                results.extend(pool.map_async(count_in_child, [10, 12]).get(timeout=DEADLINE))
        finally:
            _thread.interrupt_main()

    forker = threading.Thread(target=fork_a_pool)
    forker.start()
    with pytest.raises(KeyboardInterrupt):
        queens.count(19, engine="mirror")
    forker.join(DEADLINE)
    assert [t for _, t in results] == [A000170[10], A000170[12]]


def test_a_bare_fork_counts_in_the_child():
    if not hasattr(os, "fork"):
        pytest.skip("no os.fork here")
    queens.count(12)
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: count, report, leave without pytest's cleanup
        try:
            os.write(write, str(queens.count(12) + queens.count(11, threads=2)).encode())
        finally:
            os._exit(0)
    os.close(write)
    waited = threading.Thread(target=os.waitpid, args=(pid, 0))
    waited.start()
    waited.join(DEADLINE)
    if waited.is_alive():
        os.kill(pid, 9)
        pytest.fail("the forked child's count hung")
    assert int(os.read(read, 100)) == A000170[12] + A000170[11]
    os.close(read)


@pytest.mark.parametrize("method", METHODS)
def test_a_plan_split_over_processes_adds_up(method):
    # The guide's recipe ("Across processes and machines"), on a small n.
    n = 14
    plan = queens.plan(n)
    ids = [u.id for u in plan]
    chunks = [(n, ids[i::3]) for i in range(3)]
    with executor(method) as pool:
        parts = list(pool.map(units_in_child, chunks, timeout=DEADLINE))
    merged = {}
    for part in parts:
        merged.update(part)
    assert sorted(merged) == ids
    assert sum(merged.values()) == queens.count(n) == A000170[n]


def test_units_and_plans_travel_to_a_child():
    plan = queens.plan(13, engine="mirror")
    with executor("spawn", 1) as pool:
        counted = pool.submit(queens.count_units, 13, list(plan)[:5], engine="mirror")
        again = pool.submit(queens.plan, 13, "mirror")
        assert counted.result(timeout=DEADLINE) == queens.count_units(13, range(5), engine="mirror")
        assert again.result(timeout=DEADLINE) == plan

