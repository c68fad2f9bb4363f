"""Ctrl-C stops a problem's count and search, from the module's functions
and from Problem, with nothing left running. The deadlines are the docs'
promise (heard within a second or two), with room for a busy 2-core
machine."""

import _thread
import threading
import time

import pytest

import queens

# A row with every square blocked: no completion, and a search that walks
# every placement of the rows above it first, for ever on a board this
# large.
HOPELESS = dict(n=28, blocked=[(27, c) for c in range(28)])


# Python's own Ctrl-C handler for each test (conftest.py says why).
pytestmark = pytest.mark.usefixtures("ctrl_c_raises")


@pytest.mark.parametrize(
    "call",
    [
        lambda: queens.one(HOPELESS["n"], blocked=HOPELESS["blocked"]),
        lambda: queens.Problem(HOPELESS["n"], blocked=HOPELESS["blocked"]).one(),
        # A count of many minutes on 2 cores, cut into a few thousand
        # starts of well under a second each: the flag is read between
        # starts (a given queen in row 0 makes a few hundred, of tens of
        # seconds each at this size).
        lambda: queens.count(19, blocked=[(0, 0)]),
    ],
    ids=["one", "Problem.one", "count"],
)
def test_ctrl_c_stops_a_problems_search_and_count(call):
    timer = threading.Timer(0.5, _thread.interrupt_main)
    timer.start()
    started = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        call()
    stopped = time.monotonic() - started
    timer.join()
    assert stopped < 5, f"KeyboardInterrupt came {stopped:.2f} s into the call"
    cpu = time.process_time()
    time.sleep(0.5)
    assert time.process_time() - cpu < 0.25
    assert threading.active_count() == 1
    assert queens.one(8, given={0: 0}) == (0, 4, 7, 5, 2, 6, 1, 3)
