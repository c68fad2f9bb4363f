"""Counts and shows the solutions of the n-queens puzzle, as fast as the
hardware allows: the Python face of the Rust library ``queens``.

>>> import queens
>>> queens.count(14)
365596
>>> next(queens.solutions(4, format="leetcode"))
['.Q..', '...Q', 'Q...', '..Q.']

Counting releases the GIL, runs on every core and stops on Ctrl-C; it
works in a forked child as in the parent. Boards are tuples of each row's
queen column, counted from 0.

The distribution is ``queens-rs`` (``pip install queens-rs`` once
published; ``pip install ./python`` from a checkout); it installs the
``queens`` command too, also run as ``python -m queens``.
"""

from collections.abc import Sequence as _Sequence

from queens._errors import (
    BoardFormatError,
    BoardSizeError,
    InputError,
    MemoryLimitError,
    NoSolutionError,
    QueensError,
)
from queens._queens import (
    ENGINES,
    MAX_N,
    Conflict,
    Construction,
    EmptyRow,
    Plan,
    Problem,
    Solutions,
    Unit,
    UniqueCount,
    __version__,
    check,
    count,
    count_units,
    known_total,
    known_unique,
    merge,
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
    "Construction",
    "EmptyRow",
    "InputError",
    "MemoryLimitError",
    "NoSolutionError",
    "Plan",
    "Problem",
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
    "merge",
    "one",
    "plan",
    "solutions",
]

# A Construction has every method of a Sequence (len, indexing, slices,
# iteration, reversed, in, index, count).
_Sequence.register(Construction)
