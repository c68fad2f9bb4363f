"""A count in a Python program: the GIL released, Ctrl-C honoured, progress
reported, nothing left running afterwards.

The deadlines below are the promises the docs make (Ctrl-C is heard within
a second or two), with room for a busy 2-core CI machine; they time no
speed claim.
"""

import _thread
import os
import threading
import time

import pytest

import queens
from conftest import A000170

# Mirror-engine counts that take far longer than any deadline here (about a
# minute and several minutes on 2 cores), so an interrupt always lands
# while they run.
LONG = dict(n=19, engine="mirror")


def os_threads():
    return len(os.listdir("/proc/self/task")) if os.path.isdir("/proc/self/task") else None


# Python's own Ctrl-C handler for each test (conftest.py says why).
pytestmark = pytest.mark.usefixtures("ctrl_c_raises")


def interrupt_after(seconds):
    timer = threading.Timer(seconds, _thread.interrupt_main)
    timer.start()
    return timer


def test_ctrl_c_stops_a_count_and_leaves_nothing_running():
    queens.count(12)  # the library's pool is up before the threads are counted
    threads_before = os_threads()
    timer = interrupt_after(0.5)
    started = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        queens.count(LONG["n"], engine=LONG["engine"])
    stopped = time.monotonic() - started
    timer.join()
    assert stopped < 5, f"KeyboardInterrupt came {stopped:.2f} s into the count"
    # Nothing counts on after the exception: the process's threads are idle.
    cpu = time.process_time()
    time.sleep(0.5)
    assert time.process_time() - cpu < 0.25
    assert os_threads() == threads_before
    assert threading.active_count() == 1
    # And the next count runs as usual.
    assert queens.count(10) == A000170[10]


def test_ctrl_c_stops_the_join_while_it_lists_its_jobs():
    # The join's plan at n = 23 takes 11 to 15 s to build on 2 cores; the
    # interrupt comes long before it is built.
    timer = interrupt_after(0.3)
    started = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        queens.count(23, engine="join")
    timer.join()
    assert time.monotonic() - started < 5


def test_ctrl_c_stops_count_units_too():
    plan = queens.plan(LONG["n"], engine=LONG["engine"])
    timer = interrupt_after(0.3)
    with pytest.raises(KeyboardInterrupt):
        queens.count_units(LONG["n"], list(plan), engine=LONG["engine"])
    timer.join()


def test_other_python_threads_run_during_a_count():
    ticks = 0
    running = True

    def tick():
        nonlocal ticks
        while running:
            ticks += 1

    thread = threading.Thread(target=tick)
    thread.start()
    try:
        time.sleep(0.05)
        before = ticks
        started = time.monotonic()
        total = queens.count(16, engine="mirror")
        seconds = time.monotonic() - started
        during = ticks - before
    finally:
        running = False
        thread.join()
    assert total == A000170[16]
    # A count holding the GIL would leave the thread a few ticks at most;
    # released, it runs freely (millions of ticks a second).
    assert during > 1000 * seconds, (during, seconds)


def test_progress_is_reported_a_few_times_a_second_and_at_the_end():
    calls = []
    started = time.monotonic()
    total = queens.count(16, engine="mirror", threads=1, progress=lambda *a: calls.append(a))
    seconds = time.monotonic() - started
    assert total == A000170[16]
    assert calls, "progress was never called"
    units = calls[-1][1]
    assert calls[-1] == (units, units, total)
    assert all(len(c) == 3 and all(type(x) is int for x in c) for c in calls)
    assert all(c[1] == units for c in calls)
    for earlier, later in zip(calls, calls[1:]):
        assert earlier[0] <= later[0] and earlier[2] <= later[2]
    assert len(calls) <= seconds * 4 + 2, (len(calls), seconds)
    if seconds > 1:
        assert len(calls) >= 2


def test_progress_runs_on_the_calling_thread():
    threads = set()
    queens.count(15, engine="mirror", threads=1, progress=lambda *a: threads.add(threading.get_ident()))
    assert threads == {threading.get_ident()}


def test_an_exception_in_progress_stops_the_count_and_is_raised():
    class Enough(Exception):
        pass

    def stop(done, total, solutions):
        raise Enough(done)

    started = time.monotonic()
    with pytest.raises(Enough):
        queens.count(LONG["n"], engine=LONG["engine"], progress=stop)
    assert time.monotonic() - started < 5


def test_counts_from_several_python_threads_at_once():
    results = {}

    def run(n):
        results[n] = queens.count(n)

    threads = [threading.Thread(target=run, args=(n,)) for n in (11, 12, 13, 14)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == {n: A000170[n] for n in (11, 12, 13, 14)}
