"""Bad input raises one clear exception: ValueError subclasses for values,
TypeError for types, never a crash."""

import pytest

import queens


@pytest.mark.parametrize("n", [0, 33, -1, 10**40])
@pytest.mark.parametrize(
    "call",
    [queens.count, queens.solutions, queens.plan, lambda n: queens.count_units(n, [0])],
    ids=["count", "solutions", "plan", "count_units"],
)
def test_board_sizes_out_of_range(call, n):
    with pytest.raises(queens.BoardSizeError, match=r"out of range: .* takes n from 1 to 32") as caught:
        call(n)
    assert isinstance(caught.value, ValueError)
    assert isinstance(caught.value, queens.InputError)
    assert isinstance(caught.value, queens.QueensError)


@pytest.mark.parametrize("n", ["x", "12", 12.0, None, True])
def test_board_sizes_that_are_no_int(n):
    with pytest.raises(TypeError, match="n must be an int"):
        queens.count(n)


def test_an_engine_that_does_not_cover_n_names_its_range():
    with pytest.raises(queens.BoardSizeError, match="the join engine takes n from 4 to 28"):
        queens.count(29, engine="join")


def test_unknown_names_list_the_accepted_ones():
    with pytest.raises(queens.InputError, match="expected mirror, join or constellations"):
        queens.count(8, engine="fast")
    with pytest.raises(queens.InputError, match="expected columns, leetcode or board"):
        queens.solutions(8, format="svg")


@pytest.mark.parametrize("threads", [0, -2, 10**6])
def test_thread_counts_out_of_range(threads):
    with pytest.raises(queens.InputError, match="threads is out of range: use between 1 and 4096"):
        queens.count(8, threads=threads)


def test_progress_must_be_callable():
    with pytest.raises(TypeError, match="progress must be callable"):
        queens.count(8, progress=42)


def test_exceptions_are_importable_from_the_package():
    assert queens.InputError.__module__ == "queens"
    assert issubclass(queens.BoardSizeError, queens.InputError)
    assert issubclass(queens.BoardFormatError, ValueError)
    assert issubclass(queens.NoSolutionError, queens.QueensError)
    assert not issubclass(queens.QueensError, ValueError)
    assert issubclass(queens.MemoryLimitError, MemoryError)
    assert issubclass(queens.MemoryLimitError, queens.QueensError)
    assert queens.MemoryLimitError.__module__ == "queens"
