"""Problem: completions with given queens and blocked squares, against
brute force and against the empty board's counts."""

import itertools
import random

import pytest

import queens
from conftest import A000170, A002562


def brute_force(n, given, blocked):
    """Every solution of the n-board that holds `given` and avoids
    `blocked`, by trying every permutation."""
    found = []
    for cols in itertools.permutations(range(n)):
        if len({r + c for r, c in enumerate(cols)}) < n:
            continue
        if len({r - c for r, c in enumerate(cols)}) < n:
            continue
        if any(cols[r] != c for r, c in given.items()):
            continue
        if any(cols[r] == c for r, c in blocked):
            continue
        found.append(cols)
    return found


def random_problem(rng, n):
    given = {}
    for _ in range(rng.randrange(n // 2 + 1)):
        given[rng.randrange(n)] = rng.randrange(n)
    blocked = {(rng.randrange(n), rng.randrange(n)) for _ in range(rng.randrange(2 * n))}
    blocked = sorted(s for s in blocked if s[0] not in given)
    if rng.randrange(2):
        # Mirror-symmetric blocked squares, so that the mirror halves some.
        blocked = sorted(set(blocked) | {(r, n - 1 - c) for r, c in blocked})
        given = {r: c for r, c in given.items() if 2 * c + 1 == n}
    return given, blocked


def test_random_problems_count_and_list_what_brute_force_finds():
    rng = random.Random(36)
    for _ in range(60):
        n = rng.randrange(1, 8)
        given, blocked = random_problem(rng, n)
        problem = queens.Problem(n, given=given, blocked=blocked)
        want = brute_force(n, given, blocked)
        assert problem.count() == len(want), problem
        assert problem.solutions() == want, problem
        assert problem.one() == (want[0] if want else None), problem


@pytest.mark.parametrize("n", range(1, 11))
def test_one_row_of_single_queens_adds_up_to_a000170(n):
    row = n // 2
    assert sum(queens.Problem(n, given={row: c}).count() for c in range(n)) == A000170[n]


@pytest.mark.parametrize("n", range(1, 10))
def test_the_empty_board_is_the_puzzle(n):
    problem = queens.Problem(n)
    assert problem.count() == A000170[n]
    assert problem.count_classes() == A002562[n]
    assert len(problem.symmetries) == 8


def test_given_as_dict_or_pairs_is_one_problem():
    a = queens.Problem(8, given={0: 0, 3: 5})
    b = queens.Problem(8, given=[(3, 5), (0, 0)])
    assert a == b and hash(a) == hash(b)
    assert a.given == {0: 0, 3: 5}


def test_symmetries_follow_the_constraints():
    assert queens.Problem(8, given={0: 0}).symmetries == ("identity", "transpose")
    assert queens.Problem(8, blocked=[(0, 0), (0, 7)]).symmetries == ("identity", "mirror")
    assert queens.Problem(7, given={3: 3}).symmetries == queens.Problem(7).symmetries


def test_attacking_given_queens_have_no_completion():
    problem = queens.Problem(8, given={0: 0, 2: 2})
    assert problem.conflict == ((0, 0), (2, 2))
    assert problem.count() == 0 and problem.one() is None and problem.solutions() == []


@pytest.mark.parametrize(
    "given, blocked, message",
    [
        ({8: 1}, [], "given queen (8, 1) is off the board: rows and columns run from 0 to 7"),
        ({}, [(0, -1)], "blocked square (0, -1) is off the board"),
        ([(1, 1), (1, 3)], [], "given queens (1, 1) and (1, 3) share row 1"),
        # See: issue 47, item 16 (a square given twice was "share row 1").
        ([(1, 1), (1, 1)], [], "given queen (1, 1) is given twice"),
        ({1: 1}, [(1, 1)], "given queen (1, 1) is on a blocked square"),
    ],
)
def test_bad_constraints_raise_input_error(given, blocked, message):
    with pytest.raises(queens.InputError, match=message.replace("(", r"\(").replace(")", r"\)")):
        queens.Problem(8, given=given, blocked=blocked)


@pytest.mark.parametrize(
    "given, blocked, named",
    [
        ({10**30: 0}, None, "given queen (1000000000000000000000000000000, 0)"),
        ({0: -(10**30)}, None, "given queen (0, -1000000000000000000000000000000)"),
        ([(0, 2**64)], None, "given queen (0, 18446744073709551616)"),
        (None, [(2**63, 0)], "blocked square (9223372036854775808, 0)"),
    ],
)
def test_a_huge_square_is_off_the_board_not_an_overflow(given, blocked, named):
    # See: issue 47, item 8 (`count(8, given={10**30: 0})` raised
    # OverflowError, which is no InputError).
    for call in (queens.Problem, queens.count, queens.one, queens.solutions):
        with pytest.raises(queens.InputError) as caught:
            call(8, given=given, blocked=blocked)
        assert str(caught.value) == f"{named} is off the board: rows and columns run from 0 to 7"


@pytest.mark.parametrize("written", ["1:1", "1:1,2:3", b"1:1", ""])
def test_a_string_of_squares_is_refused_as_the_caller_wrote_it(written):
    # See: issue 47, item 8 (`given="1:1"` was refused as "given: 1 is not
    # a (row, column) pair", naming its first character).
    with pytest.raises(TypeError) as caught:
        queens.count(8, given=written)
    assert str(caught.value) == (
        f"given must be a dict {{row: column}} or (row, column) pairs, counted from 0, not the string {written!r}"
    )
    with pytest.raises(TypeError, match="^blocked must be "):
        queens.Problem(8, blocked=written)


def test_other_shapes_are_refused_by_what_they_are():
    with pytest.raises(TypeError, match=r"^given: '1' is not a \(row, column\) pair$"):
        queens.count(8, given=["1"])
    with pytest.raises(TypeError, match=r"^given queen: 'a' is not an int \(a row or a column\)$"):
        queens.count(8, given={0: "a"})
    with pytest.raises(TypeError, match=r"^given must be a dict \{row: column\} or \(row, column\) pairs, not 5$"):
        queens.count(8, given=5)


def test_a_problem_pickles():
    # See: issue 47, item 8 (Problem did not pickle, so it could not reach a
    # multiprocessing worker as the package's results do).
    import pickle

    for problem in (
        queens.Problem(8),
        queens.Problem(8, given={0: 2, 5: 1}, blocked=[(1, 1), (7, 7)]),
        queens.Problem(32, given={31: 0}),
    ):
        for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
            back = pickle.loads(pickle.dumps(problem, protocol))
            assert type(back) is queens.Problem
            assert back == problem and repr(back) == repr(problem) and hash(back) == hash(problem)
    assert pickle.loads(pickle.dumps(queens.Problem(8, given={0: 0}))).count() == 4


def test_a_partial_board_reads_back_as_it_prints():
    problem = queens.Problem.from_board("# a start\n.Q..\nx...\n....\n....\n")
    assert (problem.n, problem.given, problem.blocked) == (4, {0: 1}, [(1, 0)])
    assert queens.Problem.from_board(str(problem)) == problem
    assert problem.one() == (1, 3, 0, 2)
    with pytest.raises(queens.BoardFormatError, match="line 1: '\\*' is not a square"):
        queens.Problem.from_board("Q*\n..\n")


def test_limit_stops_the_listing():
    assert len(queens.Problem(10).solutions(limit=5)) == 5
    assert queens.Problem(10).solutions(limit=0) == []


# The module's count, solutions and one with given= and blocked=: the
# Problem's machinery, against Problem and the brute force.


def test_the_module_functions_take_given_and_blocked_as_problem_does():
    rng = random.Random(3636)
    for _ in range(60):
        n = rng.randrange(1, 8)
        given, blocked = random_problem(rng, n)
        # Pairs or a dict; blocked alone; given alone.
        as_pairs = list(given.items()) if rng.randrange(2) else given
        kwargs = {"given": as_pairs, "blocked": blocked}
        if not given and rng.randrange(2):
            del kwargs["given"]
        if not blocked and rng.randrange(2) and "given" in kwargs:
            del kwargs["blocked"]
        problem = queens.Problem(n, given=given, blocked=blocked)
        want = brute_force(n, given, blocked)
        assert queens.count(n, **kwargs) == problem.count() == len(want), kwargs
        assert list(queens.solutions(n, **kwargs)) == problem.solutions() == want, kwargs
        assert queens.one(n, **kwargs) == problem.one() == (want[0] if want else None), kwargs
        classes = list(queens.solutions(n, unique=True, **kwargs))
        assert len(classes) == problem.count_classes(), kwargs
        assert set(classes) <= set(want)


def draw(cols):
    return ["".join("Q" if c == col else "." for c in range(len(cols))) for col in cols]


def test_completions_come_in_every_format():
    given, blocked = {0: 1}, [(2, 0)]
    want = brute_force(6, given, blocked)
    assert want
    leetcode = list(queens.solutions(6, given=given, blocked=blocked, format="leetcode"))
    assert leetcode == [draw(cols) for cols in want]
    board = list(queens.solutions(6, given=given, blocked=blocked, format="board"))
    assert board == ["".join(row + "\n" for row in draw(cols)) for cols in want]
    assert queens.one(6, given=given, blocked=blocked, format="leetcode") == draw(want[0])
    assert queens.one(6, given=given, blocked=blocked, format="board") == board[0]
    assert queens.one(6, given={0: 0}, format="board") is None


def test_an_empty_given_is_a_problem_still():
    assert queens.count(8, given={}) == queens.count(8, blocked=[]) == 92
    assert sum(1 for _ in queens.solutions(6, given=[])) == 4
    # A problem's one is a search: the first solution, not the formula's.
    assert queens.one(8, given={}) == next(queens.solutions(8)) == (0, 4, 7, 5, 2, 6, 1, 3)
    assert queens.one(3, given={}) is None
    with pytest.raises(queens.InputError, match="engine= does not go with given="):
        queens.count(8, given={}, engine="join")


def test_the_completions_are_found_as_they_are_asked_for():
    # Listing every completion of a 32-board would take ages: the first
    # comes at once.
    walk = queens.solutions(32, given={0: 0}, blocked=[(1, 2)])
    first = next(walk)
    assert first[0] == 0 and first[1] != 2 and queens.check(first) is None
    assert next(walk) > first
    assert repr(walk) == "<queens.Solutions: the completions of Problem(32, given={0: 0}, blocked=[(1, 2)])>"
    assert repr(queens.solutions(8)) == "<queens.Solutions of the 8-board>"


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: queens.count(8, given={0: 0}, engine="join"), "engine= does not go with given=: "),
        (lambda: queens.count(8, blocked=[(0, 0)], unique=True), "unique=True does not go with blocked=: "),
        (
            lambda: queens.count(8, given={0: 0}, checkpoint="j", shard=(0, 2)),
            "checkpoint= and shard= do not go together",
        ),
        (lambda: queens.count(8, given={0: 0}, out_dir="shards"), "out_dir= is where shard= writes"),
    ],
)
def test_what_does_not_go_with_a_problem_is_refused_in_one_line(call, message, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(queens.InputError) as raised:
        call()
    text = str(raised.value)
    assert text.startswith(message) and "\n" not in text, text
    assert isinstance(raised.value, ValueError)
    assert list(tmp_path.iterdir()) == []


def test_bad_constraints_and_sizes_raise_as_problem_does():
    for call in (queens.count, queens.solutions, queens.one):
        with pytest.raises(queens.InputError, match=r"given queen \(8, 1\) is off the board"):
            call(8, given={8: 1})
        with pytest.raises(queens.InputError, match=r"given queen \(1, 1\) is on a blocked square"):
            call(8, given={1: 1}, blocked=[(1, 1)])
        with pytest.raises(TypeError, match="blocked must be a dict"):
            call(8, blocked=3)
    with pytest.raises(queens.BoardSizeError, match="one with given= or blocked= takes n from 1 to 32"):
        queens.one(40, given={0: 0})
    with pytest.raises(queens.BoardSizeError, match="count takes n from 1 to 32"):
        queens.count(33, given={0: 0})
    for threads in (0, -1):
        with pytest.raises(queens.InputError, match=f"{threads} threads is out of range"):
            queens.count(8, given={0: 0}, threads=threads)
        with pytest.raises(queens.InputError, match=f"{threads} threads is out of range"):
            queens.Problem(8).count(threads=threads)
    assert queens.count(10, given={0: 0}, threads=1) == queens.Problem(10, given={0: 0}).count(threads=2)
