"""Results as Python values: every result class pickles to an equal value,
converts to a dict, and takes part in `match`. See: issue 33."""

import copy
import pickle
import sys

import pytest

import queens

RESULTS = {
    "UniqueCount": lambda: queens.count(10, unique=True),
    "Conflict": lambda: queens.check([0, 2, 4, 1, 3, 3]),
    "EmptyRow": lambda: queens.check(".Q..\n....\nQ...\n..Q.\n"),
    "Unit": lambda: queens.plan(12)[7],
    "Plan": lambda: queens.plan(12, engine="mirror"),
    "Construction": lambda: queens.one(100),
    "Construction slice": lambda: queens.one(101)[90:3:-7],
    "Construction, empty": lambda: queens.one(5)[::-1][9:],
}


@pytest.mark.parametrize("make", RESULTS.values(), ids=RESULTS.keys())
@pytest.mark.parametrize("protocol", [0, pickle.DEFAULT_PROTOCOL, pickle.HIGHEST_PROTOCOL])
def test_every_result_pickles_to_an_equal_value(make, protocol):
    value = make()
    again = pickle.loads(pickle.dumps(value, protocol))
    assert type(again) is type(value)
    assert again == value and not (again != value)
    assert hash(again) == hash(value)
    assert repr(again) == repr(value) and str(again) == str(value)
    assert copy.copy(value) == value == copy.deepcopy(value)


@pytest.mark.parametrize(
    "make, fields",
    [
        (RESULTS["UniqueCount"], ["total", "unique", "half_turn", "quarter_turn", "classes"]),
        (RESULTS["Conflict"], ["first", "second", "line"]),
        (RESULTS["EmptyRow"], ["row"]),
        (RESULTS["Unit"], ["id", "descriptor", "cost", "weight", "n", "engine", "plan"]),
        (RESULTS["Plan"], ["n", "engine", "split_depth", "hash", "total_cost"]),
    ],
    ids=["UniqueCount", "Conflict", "EmptyRow", "Unit", "Plan"],
)
def test_asdict_gives_the_fields(make, fields):
    value = make()
    as_dict = value._asdict()
    assert list(as_dict) == fields
    assert all(as_dict[f] == getattr(value, f) for f in fields)
    assert list(type(value).__match_args__) == [f for f in fields if f in type(value).__match_args__]


MATCHES = """
match queens.count(12, unique=True):
    case queens.UniqueCount(total, unique, half_turn, quarter_turn, classes):
        assert (total, unique, half_turn, quarter_turn) == (14200, 1787, 80, 8)
        assert classes == {8: 1765, 4: 18, 2: 4}
    case _:
        raise AssertionError("no match")
match queens.check([0, 1]):
    case queens.Conflict(first, second, line="diagonal"):
        assert (first, second) == ((0, 0), (1, 1))
    case _:
        raise AssertionError("no match")
match queens.check([[1, 0], [0, 0]]):
    case queens.EmptyRow(row):
        assert row == 1
    case _:
        raise AssertionError("no match")
match queens.plan(10, engine="mirror")[3]:
    case queens.Unit(id=3, weight=w):
        assert w in (1, 2, 4, 8)
    case _:
        raise AssertionError("no match")
"""


@pytest.mark.skipif(sys.version_info < (3, 10), reason="match is Python 3.10's")
def test_match_takes_results_apart():
    # Compiled here, so that the module still loads on Python 3.9.
    exec(compile(MATCHES, "matches", "exec"), {"queens": queens})


def test_results_convert_for_pandas_and_json():
    rows = [queens.count(n, unique=True)._asdict() for n in range(4, 9)]
    assert [r["unique"] for r in rows] == [1, 2, 1, 6, 12]
    units = [u._asdict() for u in queens.plan(9, engine="mirror")]
    assert {u["plan"] for u in units} == {queens.plan(9, engine="mirror").hash}


def test_a_plan_is_rebuilt_on_load_and_its_hash_checked():
    plan = queens.plan(11, engine="mirror")
    function, args = plan.__reduce__()
    assert args == (11, "mirror", plan.split_depth, plan.hash)
    assert function(*args) == plan
    forged = args[:3] + ("sha256:" + "0" * 64,)
    with pytest.raises(queens.InputError, match="pickled plan .* had hash sha256:0+, but this version"):
        function(*forged)
    assert queens.plan(11, engine="join") != plan
    assert len({plan, queens.plan(11, engine="mirror")}) == 1
