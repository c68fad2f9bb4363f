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
        ({1: 1}, [(1, 1)], "given queen (1, 1) is on a blocked square"),
    ],
)
def test_bad_constraints_raise_input_error(given, blocked, message):
    with pytest.raises(queens.InputError, match=message.replace("(", r"\(").replace(")", r"\)")):
        queens.Problem(8, given=given, blocked=blocked)


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
