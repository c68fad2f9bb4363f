"""The exceptions queens raises: one base class, ``ValueError`` for bad input,
``MemoryError`` for a count that would not fit in memory.

Defined in Python, not in the extension, so that an input error can be both
a ``QueensError`` and a ``ValueError`` (the extension raises these very
classes).
"""


class QueensError(Exception):
    """Base class of every error queens raises on purpose.

    Raised as itself when a count cannot run for a reason that is not the
    caller's input: the operating system refuses threads, or an internal
    check fails.
    """


class InputError(QueensError, ValueError):
    """A value queens does not take: an engine name, a thread count, a unit
    id that the plan does not have. The message names the value and the
    accepted range."""


class BoardSizeError(InputError):
    """A board size outside what the function or engine takes (n = 0, n = 33,
    an engine asked for an n beyond its range)."""


class BoardFormatError(InputError):
    """A board that ``check`` cannot read: not a board in any format that
    ``queens list`` writes, a column off the board, or more than one board.

    Its message counts rows (and a matrix's columns) from 1, as the
    messages of ``Conflict`` and ``EmptyRow`` and the command line's do,
    and quotes a column number as it was given."""


class NoSolutionError(InputError):
    """A board size without a solution (2 and 3) where one was asked for, as
    by ``one(3)``."""


class MemoryLimitError(QueensError, MemoryError):
    """A plan or a count that would need more memory than the limit: what
    the machine has available (its free memory, the process's cgroup and
    ``ulimit -v``, less 64 MiB), or ``QUEENS_MEMORY_LIMIT`` (bytes, or
    ``none`` for no limit), as for the command line. The message gives the
    estimate and the limit. Raised before anything large is built."""


# Shown as `queens.InputError`, where users import them from.
for _cls in (QueensError, InputError, BoardSizeError, BoardFormatError, NoSolutionError, MemoryLimitError):
    _cls.__module__ = "queens"
del _cls
