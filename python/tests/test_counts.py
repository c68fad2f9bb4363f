"""count, count_units and plan against OEIS and against each other."""

import pytest

import queens
from conftest import A000170, A002562


@pytest.mark.parametrize("n", range(1, 17))
def test_count_matches_a000170(n):
    assert queens.count(n) == A000170[n]


@pytest.mark.parametrize("engine", queens.ENGINES)
def test_every_engine_counts_what_it_covers(engine):
    covered = 0
    for n in range(1, 14):
        try:
            total = queens.count(n, engine=engine)
        except queens.BoardSizeError as err:
            assert engine in str(err) and "takes n from" in str(err)
            continue
        assert total == A000170[n], (engine, n)
        covered += 1
    assert covered >= 9, f"{engine} covers only {covered} of n = 1..13"


def test_threads_do_not_change_the_count():
    assert queens.count(13, threads=1) == queens.count(13, threads=2) == A000170[13]


@pytest.mark.parametrize("n", range(1, 14))
def test_unique_matches_a002562(n):
    result = queens.count(n, unique=True)
    assert isinstance(result, queens.UniqueCount)
    assert (result.total, result.unique) == (A000170[n], A002562[n])
    classes = result.classes
    assert set(classes) == {8, 4, 2}
    assert sum(classes.values()) == result.unique
    if n > 1:
        assert sum(size * number for size, number in classes.items()) == result.total


def test_totals_are_plain_python_ints():
    assert type(queens.count(12)) is int
    assert queens.known_total(27) == A000170[27]
    assert queens.known_unique(27) == A002562[27]
    assert queens.known_total(28) is None
    assert queens.known_total(0) == 1  # OEIS: the empty board, one way
    assert queens.known_unique(-1) is queens.known_total(10**30) is None
    with pytest.raises(TypeError):
        queens.known_total("8")


def test_a_plan_lists_its_units():
    plan = queens.plan(12, engine="mirror")
    assert (plan.n, plan.engine) == (12, "mirror")
    assert plan.hash.startswith("sha256:") and len(plan.hash) == len("sha256:") + 64
    units = list(plan)
    assert len(units) == len(plan) == len(plan.units) > 1
    assert [u.id for u in units] == list(range(len(plan)))
    assert plan[0] == units[0] and plan[-1] == units[-1]
    assert all(u.cost > 0 and u.weight in (1, 2, 4, 8) and u.descriptor for u in units)
    # See: issue 33 (an index out of range raised InputError).
    for index in (len(plan), -len(plan) - 1, 10**6, 10**30):
        with pytest.raises(IndexError, match=f"plan index {index} is out of range: the plan has 55 units"):
            plan[index]
    with pytest.raises(TypeError, match="plan indices must be integers, not str"):
        plan["0"]
    assert iter(plan) is not iter(plan) and next(iter(plan)) == plan[0]
    # The same board and engine make the same plan: ids and hash are stable.
    assert queens.plan(12, engine="mirror").hash == plan.hash
    assert queens.plan(12, engine="join").hash != plan.hash


@pytest.mark.parametrize("engine", queens.ENGINES)
def test_units_add_up_to_the_total(engine):
    n = 13
    plan = queens.plan(n, engine=engine)
    ids = [u.id for u in plan]
    each = queens.count_units(n, ids, engine=engine)
    assert sorted(each) == ids
    assert sum(each.values()) == A000170[n]
    # Any split of the plan, counted in pieces, adds up the same; Unit
    # objects stand for their ids.
    odd = queens.count_units(n, [u for u in plan if u.id % 2], engine=engine)
    even = queens.count_units(n, ids[::2], engine=engine, threads=1)
    assert sum(odd.values()) + sum(even.values()) == A000170[n]
    assert all(each[i] == c for i, c in {**odd, **even}.items())


def test_count_units_refuses_a_unit_of_another_plan():
    # See: issue 33 (it counted the unit of its own plan with the same id).
    foreign = queens.plan(10)[0]
    with pytest.raises(queens.InputError, match=r"unit 0 is of the plan of n = 10 with the mirror engine .*not of this count's plan of n = 16 with the join engine"):
        queens.count_units(16, [foreign])
    with pytest.raises(queens.InputError, match="with the mirror engine"):
        queens.count_units(10, [foreign], engine="constellations")
    # The same board and engine, but a plan of another version of queens
    # (its hash): refused once the plan is built.
    forged = queens._queens._unit(0, foreign.descriptor, 1, 1, 10, "mirror", "sha256:" + "0" * 64)
    with pytest.raises(queens.InputError, match="not of this count's plan .* sha256:"):
        queens.count_units(10, [forged])
    assert queens.count_units(10, [foreign]) == queens.count_units(10, [0])


def test_count_units_refuses_what_no_plan_has():
    with pytest.raises(queens.InputError, match="not in the plan"):
        queens.count_units(10, [10**6], engine="mirror")
    with pytest.raises(queens.InputError, match="more than once"):
        queens.count_units(10, [0, 0], engine="mirror")
    with pytest.raises(queens.InputError, match="not a unit id"):
        queens.count_units(10, [-1], engine="mirror")
    with pytest.raises(queens.InputError, match="'0' is not a unit id"):
        queens.count_units(10, "01", engine="mirror")
    assert queens.count_units(10, [], engine="mirror") == {}
