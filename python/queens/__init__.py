"""Counts and shows the solutions of the n-queens puzzle, as fast as the
hardware allows: the Python face of the Rust library ``queens``.

>>> import queens
>>> queens.count(14)
365596
>>> next(queens.solutions(4, format="leetcode"))
['.Q..', '...Q', 'Q...', '..Q.']

Counting releases the GIL, runs on every core and stops on Ctrl-C. Boards
are tuples of each row's queen column, counted from 0.
"""

from queens._errors import (
    BoardFormatError,
    BoardSizeError,
    InputError,
    NoSolutionError,
    QueensError,
)
from queens._queens import (
    ENGINES,
    MAX_N,
    Conflict,
    Plan,
    Solutions,
    Unit,
    UniqueCount,
    __version__,
    check,
    count,
    count_units,
    known_total,
    known_unique,
    one,
    plan,
    solutions,
)

__all__ = [
    "ENGINES",
    "MAX_N",
    "BoardFormatError",
    "BoardSizeError",
    "Conflict",
    "InputError",
    "NoSolutionError",
    "Plan",
    "QueensError",
    "Solutions",
    "Unit",
    "UniqueCount",
    "__version__",
    "check",
    "count",
    "count_units",
    "known_total",
    "known_unique",
    "one",
    "plan",
    "solutions",
]
