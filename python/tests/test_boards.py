"""solutions, one and check: boards in every form, lazily, checked."""

import itertools
import json

import pytest

import queens
from conftest import A000170, A002562


@pytest.mark.parametrize("n", range(1, 11))
def test_solutions_are_every_solution_once_in_order(n):
    boards = list(queens.solutions(n))
    assert len(boards) == A000170[n]
    assert boards == sorted(set(boards))
    assert all(type(b) is tuple and len(b) == n for b in boards)
    assert all(queens.check(b) is None for b in boards)


@pytest.mark.parametrize("n", range(1, 10))
def test_unique_solutions_are_one_per_class(n):
    assert sum(1 for _ in queens.solutions(n, unique=True)) == A002562[n]


def test_solutions_are_found_as_they_are_asked_for():
    # Q(32) boards could never be listed ahead: the iterator is lazy, and
    # it yields boards of 32 rows at once.
    first = list(itertools.islice(queens.solutions(32), 3))
    assert len(first) == 3 and all(queens.check(b) is None for b in first)
    walk = queens.solutions(8)
    assert iter(walk) is walk
    assert next(walk) == (0, 4, 7, 5, 2, 6, 1, 3)
    assert sum(1 for _ in walk) == 91
    with pytest.raises(StopIteration):
        next(walk)
    assert list(queens.solutions(3)) == []


def test_leetcode_51_format():
    # LeetCode 51's expected output for n = 4, as its examples print it.
    assert list(queens.solutions(4, format="leetcode")) == [
        [".Q..", "...Q", "Q...", "..Q."],
        ["..Q.", "Q...", "...Q", ".Q.."],
    ]
    assert list(queens.solutions(1, format="leetcode")) == [["Q"]]
    assert next(queens.solutions(4, format="board")) == ".Q..\n...Q\nQ...\n..Q.\n"


def test_every_form_of_a_board_checks_alike():
    for cols in itertools.islice(queens.solutions(6), 4):
        rows = ["".join("Q" if c == col else "." for c in range(6)) for col in cols]
        forms = [
            cols,
            list(cols),
            rows,
            "\n".join(rows),
            "\n".join(" ".join(row) for row in rows),
            " ".join(str(c + 1) for c in cols),
            json.dumps({"n": 6, "cols": list(cols)}),
            json.dumps([rows]),
            "\n".join(rows).encode(),
        ]
        assert all(queens.check(form) is None for form in forms), forms


def test_check_names_the_first_conflict():
    conflict = queens.check([0, 1, 2, 3])
    assert isinstance(conflict, queens.Conflict)
    assert (conflict.first, conflict.second, conflict.line) == ((0, 0), (1, 1), "diagonal")
    assert str(conflict) == "queens at (row 1, col 1) and (row 2, col 2) share a diagonal"
    assert queens.check((1, 3, 1, 2)).line == "column"
    assert queens.check((3, 1, 0, 2)).line == "anti-diagonal"
    assert queens.check("Q.\n.Q\n").line == "diagonal"
    assert queens.check(queens.one(1000)) is None


@pytest.mark.parametrize(
    "board, words",
    [
        ([], "empty"),
        ("", "no board"),
        ([0, 4, 1, 2], "column 4"),
        ([0, -1], "column -1"),
        ([0, "x"], "column x"),
        ([True, False], "column True"),
        (["Q.", 3], "row 1"),
        (["1 2"], "row 0"),
        ("Q?\n.Q\n", "line 1"),
        ("hello", "cannot tell the format"),
        (".Q..\n...Q\nQ...\n..Q.\n\n..Q.\nQ...\n...Q\n.Q..\n", "more than one board"),
    ],
)
def test_check_refuses_what_is_not_one_board(board, words):
    with pytest.raises(queens.BoardFormatError, match=words) as caught:
        queens.check(board)
    assert isinstance(caught.value, ValueError)


def test_check_refuses_what_is_no_board_at_all():
    with pytest.raises(TypeError, match="not int"):
        queens.check(5)


@pytest.mark.parametrize("n", [1, 4, 5, 6, 7, 8, 9, 10, 11, 20, 99, 1001])
def test_one_is_a_solution(n):
    board = queens.one(n)
    assert len(board) == n and queens.check(board) is None
    assert queens.check(queens.one(n, format="leetcode")) is None
    assert queens.check(queens.one(n, format="board")) is None


@pytest.mark.parametrize("n", [2, 3])
def test_one_refuses_a_board_without_solutions(n):
    with pytest.raises(queens.NoSolutionError, match="no solution"):
        queens.one(n)
