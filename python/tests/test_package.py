"""The package as a user meets it: docs, types, examples that run."""

import doctest
import inspect
import pathlib

import pytest

import queens


PUBLIC = [
    "count", "count_units", "solutions", "one", "check", "plan", "known_total", "known_unique", "merge"
]


@pytest.mark.parametrize("name", PUBLIC)
def test_every_function_has_a_docstring_and_a_signature(name):
    function = getattr(queens, name)
    assert function.__doc__ and len(function.__doc__) > 80
    assert "n" in inspect.signature(function).parameters or name in ("check", "merge")


def test_the_signatures_are_keyword_only_where_the_docs_say():
    parameters = inspect.signature(queens.count).parameters
    assert list(parameters) == [
        "n", "given", "blocked", "engine", "threads", "unique", "progress", "checkpoint", "shard", "out_dir"
    ]
    assert all(parameters[p].kind is inspect.Parameter.KEYWORD_ONLY for p in list(parameters)[1:])
    for function in (queens.solutions, queens.one):
        parameters = inspect.signature(function).parameters
        assert list(parameters)[:3] == ["n", "given", "blocked"]
        assert all(parameters[p].kind is inspect.Parameter.KEYWORD_ONLY for p in list(parameters)[1:])


def test_the_docstring_examples_run():
    for module in (queens, queens._queens):
        failed, tried = doctest.testmod(module, extraglobs={"queens": queens}, verbose=False)
        assert failed == 0
    assert tried > 0


def test_the_guide_examples_run():
    # docs/python.md, beside the package's sources in a checkout.
    guide = pathlib.Path(__file__).resolve().parents[2] / "docs" / "python.md"
    if not guide.is_file():
        pytest.skip("not run from a checkout")
    # A code fence ends an example's expected output, as a blank line does.
    text = "\n".join("" if line.lstrip().startswith("```") else line for line in guide.read_text().splitlines())
    test = doctest.DocTestParser().get_doctest(text, {"queens": queens}, "python.md", str(guide), 0)
    runner = doctest.DocTestRunner()
    runner.run(test)
    failed, tried = runner.summarize(verbose=False)
    assert failed == 0 and tried > 10


def test_it_is_typed():
    package = pathlib.Path(queens.__file__).parent
    assert (package / "py.typed").is_file()
    stubs = (package / "_queens.pyi").read_text()
    for name in PUBLIC:
        assert f"def {name}(" in stubs
    assert set(queens.__all__) >= set(PUBLIC)


def test_version_and_constants():
    assert queens.__version__.count(".") == 2
    assert queens.MAX_N == 32
    assert set(queens.ENGINES) == {"join", "mirror", "constellations"}
