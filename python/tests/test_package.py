"""The package as a user meets it: docs, types, examples that run."""

import doctest
import inspect
import pathlib
import sys
import textwrap

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


# docs/python.md, beside the package's sources in a checkout.
GUIDE = pathlib.Path(__file__).resolve().parents[2] / "docs" / "python.md"


def test_the_guide_examples_run():
    if not GUIDE.is_file():
        pytest.skip("not run from a checkout")
    # A code fence ends an example's expected output, as a blank line does.
    text = "\n".join("" if line.lstrip().startswith("```") else line for line in GUIDE.read_text().splitlines())
    test = doctest.DocTestParser().get_doctest(text, {"queens": queens}, "python.md", str(GUIDE), 0)
    if sys.version_info < (3, 10):
        # `match` is Python 3.10's, as the guide says where it uses it.
        test.examples = [e for e in test.examples if not e.source.startswith("match ")]
    runner = doctest.DocTestRunner()
    runner.run(test)
    failed, tried = runner.summarize(verbose=False)
    assert failed == 0 and tried > 10


def guide_programs():
    """The guide's ```python blocks that are programs, not `>>>` sessions,
    as (line, source) pairs."""
    if not GUIDE.is_file():
        return []
    programs, block = [], None
    for number, line in enumerate(GUIDE.read_text().splitlines(), 1):
        fence = line.strip()
        if block is None and fence == "```python":
            block = (number, [])
        elif block is not None and fence == "```":
            source = textwrap.dedent("\n".join(block[1]))
            if not source.lstrip().startswith(">>>"):
                programs.append((block[0], source + "\n"))
            block = None
        elif block is not None:
            block[1].append(line)
    return programs


# The programs that cannot run here, by what they hold, and why.
NOT_RUN = {
    "queens.count(22, checkpoint=": "n = 22 counts for minutes; test_files.py runs checkpoints at n = 14",
}


@pytest.mark.parametrize(
    "line, source", [pytest.param(line, source, id=f"python.md:{line}") for line, source in guide_programs()]
)
def test_the_guide_programs_run(line, source, tmp_path, monkeypatch):
    # See: issue 47, item 7 (the guide's `match` example raised
    # BoardFormatError, and nothing ran it).
    for words, why in NOT_RUN.items():
        if words in source:
            pytest.skip(why)
    if "ProcessPoolExecutor" in source:
        # The pool's workers import the program as a module: CI runs the
        # file itself (.ci/run), so the guide must show that very file.
        assert source == (GUIDE.parent / "python-split.py").read_text()
        return
    if "from tqdm import" in source:
        pytest.importorskip("tqdm")
    monkeypatch.chdir(tmp_path)
    exec(compile(source, f"python.md:{line}", "exec"), {"queens": queens, "__name__": "guide"})


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
