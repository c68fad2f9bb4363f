"""Memory that stays bounded as n grows: one(n) is computed on demand,
and a count that would not fit is refused as the command line refuses it.
See: issue 33 (one(10**9) grew to 24 GB; count(24) built the join's tables
unchecked)."""

import os
import subprocess
import sys

import pytest

import queens


def test_one_of_a_billion_is_instant_to_index():
    board = queens.one(10**9)
    assert len(board) == 10**9
    assert board[0] == 1 and board[-1] == 999_999_998
    assert board[10**8] == 2 * 10**8 + 1  # row k of the first half: column 2k + 1
    assert board[500_000_000] == 0  # the odds start at row n/2, from column 0
    part = board[10:10**9:10**8]
    assert len(part) == 10 and list(part) == [board[10 + k * 10**8] for k in range(10)]
    assert board[::-1][0] == board[-1] and len(board[::2]) == 5 * 10**8
    with pytest.raises(IndexError):
        board[10**9]
    with pytest.raises(IndexError):
        board[-(10**9) - 1]
    with pytest.raises(IndexError):
        board[10**30]
    with pytest.raises(TypeError, match="integers or slices"):
        board["0"]


@pytest.mark.parametrize("n", [1, 4, 8, 9, 14, 15, 20, 21, 1000])
def test_one_is_the_tuple_it_stands_for(n):
    board = queens.one(n)
    as_tuple = tuple(board)
    assert board == as_tuple and as_tuple == board and hash(board) == hash(as_tuple)
    assert board != as_tuple[:-1] and board != list(as_tuple)
    assert tuple(reversed(board)) == as_tuple[::-1]
    assert board[1::3] == as_tuple[1::3] and board[::-2] == as_tuple[::-2]
    assert board[5:2] == () and len(board[n:]) == 0
    assert all(board.index(c) == as_tuple.index(c) for c in range(n))
    assert (n in board) is False and (0 in board) and board.count(0) == 1
    assert queens.check(board) is None
    import collections.abc

    assert isinstance(board, collections.abc.Sequence)


def test_check_reads_a_construction_as_its_columns():
    assert queens.check(queens.one(10**6)) is None
    with pytest.raises(queens.BoardFormatError, match="row 2 has its queen in column 5, off the board: a board of 4 rows"):
        queens.check(queens.one(8)[::2])
    assert queens.check(queens.one(4)[::-1]) is None


def test_one_exports_its_columns_as_bytes():
    import array

    columns = array.array("I")
    assert columns.itemsize == 4
    columns.frombytes(bytes(queens.one(1000)))
    assert tuple(columns) == tuple(queens.one(1000))


def test_a_walk_of_ten_million_columns_runs_in_constant_memory():
    # In a process of its own, so that the peak is this walk's alone. A
    # tuple of 10^7 Python ints took 429 MB.
    program = (
        "import resource, queens\n"
        "before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
        "total = sum(1 for _ in queens.one(10**7))\n"
        "biggest = max(queens.one(10**7)[::1000])\n"
        "after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
        "print(total, biggest, (after - before) // 1024)\n"
    )
    out = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    total, biggest, grown_mib = map(int, out.stdout.split())
    assert total == 10**7 and biggest < 10**7
    assert grown_mib < 20, f"the walk grew the peak by {grown_mib} MiB"


def test_drawn_formats_stop_at_ten_thousand_rows():
    assert len(queens.one(10_000, format="leetcode")) == 10_000
    with pytest.raises(queens.BoardSizeError, match="draws all n x n squares and takes n up to 10000"):
        queens.one(10_001, format="board")


def test_count_24_is_refused_as_the_command_line_refuses_it(monkeypatch):
    monkeypatch.setenv("QUEENS_MEMORY_LIMIT", str(2 * 10**8))
    with pytest.raises(queens.MemoryLimitError) as caught:
        queens.count(24)
    assert isinstance(caught.value, MemoryError) and isinstance(caught.value, queens.QueensError)
    message = str(caught.value)
    assert message.startswith("counting n = 24 with the join engine needs about ")
    cli = subprocess.run(
        [sys.executable, "-m", "queens", "count", "24"],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "QUEENS_MEMORY_LIMIT": str(2 * 10**8)},
    )
    assert (cli.returncode, cli.stderr) == (2, f"queens: {message}\n")


def test_the_memory_limit_variable_is_read_as_the_command_line_reads_it(monkeypatch):
    monkeypatch.setenv("QUEENS_MEMORY_LIMIT", "12 GB")
    with pytest.raises(queens.InputError, match="QUEENS_MEMORY_LIMIT must be a number of bytes or 'none'"):
        queens.count(8)
    monkeypatch.setenv("QUEENS_MEMORY_LIMIT", "1000")
    with pytest.raises(queens.MemoryLimitError, match="n = 16"):
        queens.count(16, engine="mirror")
    with pytest.raises(queens.MemoryLimitError):
        queens.count_units(16, [0], engine="mirror")
    monkeypatch.setenv("QUEENS_MEMORY_LIMIT", "none")
    assert queens.count(8) == 92
