"""What the tests check against: OEIS, typed in here, not read from the
package (https://oeis.org/A000170 and https://oeis.org/A002562), and the
fixtures that several test files use."""

import signal

import pytest

# A000170(n) for n = 0..27: solutions of the n-queens puzzle.
A000170 = [
    1, 1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712, 365596,
    2279184, 14772512, 95815104, 666090624, 4968057848, 39029188884,
    314666222712, 2691008701644, 24233937684440, 227514171973736,
    2207893435808352, 22317699616364044, 234907967154122528,
]

# A002562(n) for n = 1..27 (index 0 unused): essentially different ones.
A002562 = [
    None, 1, 0, 0, 1, 2, 1, 6, 12, 46, 92, 341, 1787, 9233, 45752, 285053,
    1846955, 11977939, 83263591, 621012754, 4878666808, 39333324973,
    336376244042, 3029242658210, 28439272956934, 275986683743434,
    2789712466510289, 29363495934315694,
]


@pytest.fixture
def ctrl_c_raises():
    """Python's own Ctrl-C handler for a test that interrupts itself: a
    shell starts a background job (`pytest ... &`) with SIGINT ignored, and
    then `_thread.interrupt_main` would do nothing and the long counts would
    run on. A test file that needs it names it in `pytestmark`."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, previous)
