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
        ([0, 4, 1, 2], "row 2 has its queen in column 4, off the board"),
        ([0, -1], "column -1"),
        ([0, 10**30], "column 1000000000000000000000000000000, off the board"),
        ([0, "x"], "row 2 holds 'x', not a column number"),
        ([True, False], "row 1 holds True, not a column number"),
        (["Q.", 3], "row 2 is not a string"),
        (["1 2"], 'row 1 is "1 2"'),
        ("Q?\n.Q\n", "line 1"),
        ("hello", "cannot tell the format"),
        (".Q..\n...Q\nQ...\n..Q.\n\n..Q.\nQ...\n...Q\n.Q..\n", "more than one board"),
    ],
)
def test_check_refuses_what_is_not_one_board(board, words):
    with pytest.raises(queens.BoardFormatError, match=words) as caught:
        queens.check(board)
    assert isinstance(caught.value, ValueError)


def test_board_format_errors_count_rows_from_1_as_results_do():
    # See: issue 47, item 8 (`check([0, 1, 3])` said "row 2" of the row
    # that a Conflict or an EmptyRow calls row 3). Rows and a matrix's
    # columns count from 1 in every message, the command line's too; a
    # column number is quoted as the caller wrote it, with its range.
    with pytest.raises(queens.BoardFormatError) as caught:
        queens.check([0, 1, 3])
    assert str(caught.value) == "row 3 has its queen in column 3, off the board: a board of 3 rows has columns 0 to 2"
    with pytest.raises(queens.BoardFormatError, match=r"^row 3, column 1 holds 7: "):
        queens.check([[0, 1, 0], [0, 0, 1], [7, 0, 0]])
    assert str(queens.check([0, 1, 2])) == "queens at (row 1, col 1) and (row 2, col 2) share a diagonal"


def test_check_reads_what_learners_write():
    # See: issue 37. Each as the command line reads it.
    for text in [
        "[['.Q..', '...Q', 'Q...', '..Q.']]",
        "['.Q..', '...Q', 'Q...', '..Q.']",
        "2,4,1,3",
        "[1, 3, 0, 2]",
        "1 3 0 2",
        "0 1 0 0\n0 0 0 1\n1 0 0 0\n0 0 1 0\n",
        "[[0, 1, 0, 0], [0, 0, 0, 1], [1, 0, 0, 0], [0, 0, 1, 0]]",
        "# a comment\n_Q__\n---q\nQ...\n..Q.\n",
    ]:
        assert queens.check(text) is None, text
    assert queens.check(["_Q__", "---q", "Q...", "..Q."]) is None


MATRIX = [[0, 1, 0, 0], [0, 0, 0, 1], [1, 0, 0, 0], [0, 0, 1, 0]]


class ToList:
    """What numpy's arrays have that check reads: tolist()."""

    def __init__(self, value):
        self.value = value

    def tolist(self):
        return self.value

    def __len__(self):
        return len(self.value)

    def __getitem__(self, i):
        return ToList(self.value[i]) if isinstance(self.value[i], list) else self.value[i]


def test_check_reads_a_0_1_matrix():
    assert queens.check(MATRIX) is None
    assert queens.check(tuple(tuple(row) for row in MATRIX)) is None
    assert queens.check([[bool(s) for s in row] for row in MATRIX]) is None
    assert queens.check(ToList(MATRIX)) is None
    assert queens.check([ToList(row) for row in MATRIX]) is None
    assert queens.check(ToList([1, 3, 0, 2])) is None
    clash = queens.check([[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 0, 1], [0, 0, 1, 0]])
    assert clash == queens.check([0, 1, 3, 2])


def test_a_row_without_a_queen_is_no_solution():
    empty = queens.check([[0, 1, 0, 0], [0, 0, 0, 0], [1, 0, 0, 0], [0, 0, 1, 0]])
    assert isinstance(empty, queens.EmptyRow)
    assert empty.row == 1 and str(empty) == "row 2 has no queen" and repr(empty) == "EmptyRow(row=1)"
    assert queens.check(".Q..\n....\nQ...\n..Q.\n") == empty
    assert queens.check([".Q..", "....", "Q...", "..Q."]) == empty
    # Two queens in a row: a conflict, in that row.
    two = queens.check(["QQ..", "...Q", "....", "..Q."])
    assert isinstance(two, queens.Conflict) and two.line == "row"


def test_a_numpy_matrix_is_checked_as_a_matrix():
    numpy = pytest.importorskip("numpy")
    assert queens.check(numpy.array(MATRIX)) is None
    assert queens.check(numpy.array(MATRIX, dtype=bool)) is None
    assert queens.check(numpy.array([1, 3, 0, 2])) is None
    assert queens.check(list(numpy.array([1, 3, 0, 2]))) is None
    assert queens.check(numpy.eye(4, dtype=int)).line == "diagonal"
    empty = queens.check(numpy.zeros((4, 4), dtype=int))
    assert isinstance(empty, queens.EmptyRow) and empty.row == 0
    with pytest.raises(queens.BoardFormatError, match=r"row 1, column 2 holds 2") as caught:
        queens.check(numpy.array([[0, 2], [1, 0]]))
    assert "[" not in str(caught.value)


@pytest.mark.parametrize(
    "board, words",
    [
        ([[0, 1], [1, 0, 0]], "row 2 has 3 squares, but the matrix has 2 rows"),
        ([[0, 1], [1, 5]], "row 2, column 2 holds 5: a 0/1 matrix holds 0"),
        ([[0, 1], 3], "row 2 is of type int, not a row of squares like row 1"),
        ([0, [1, 0]], "row 2 is of type list, not a column number like row 1"),
    ],
)
def test_a_board_of_mixed_rows_is_refused_without_printing_a_row_as_a_column(board, words):
    with pytest.raises(queens.BoardFormatError, match=words) as caught:
        queens.check(board)
    assert "[1" not in str(caught.value)


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
