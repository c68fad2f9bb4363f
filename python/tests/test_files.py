"""Long counts from Python: a journal that survives Ctrl-C and kill -9, and
shards and merges whose files are the command line's, byte for byte. The
command line runs as `python -m queens` (compiled into the extension), so
the two exchange files in both directions here.
"""

import _thread
import json
import os
import signal
import subprocess
import sys
import threading
import time

import pytest

import queens
from conftest import A000170

# The mirror engine on one thread: 105 units of about 30 ms each, so an
# interrupt lands while it runs and a resume has work left.
LONG = dict(n=16, engine="mirror", threads=1)


# Python's own Ctrl-C handler for each test (conftest.py says why).
pytestmark = pytest.mark.usefixtures("ctrl_c_raises")


def cli(*args):
    return subprocess.run(
        [sys.executable, "-m", "queens", *map(str, args)],
        capture_output=True,
        text=True,
        check=False,
    )


def records(journal):
    with open(journal, "rb") as f:
        return [line for line in f.read().split(b"\n")[1:] if line.strip(b"\0")]


def test_a_checkpoint_resumes_after_ctrl_c(tmp_path):
    journal = tmp_path / "n16.journal"
    timer = threading.Timer(1.0, _thread.interrupt_main)
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        queens.count(checkpoint=journal, **LONG)
    timer.join()
    saved = records(journal)
    assert 0 < len(saved) < 105, "some units, not all, were saved"
    assert journal.read_bytes().startswith(b"QJ2 n=16 engine=mirror ")
    # The same call resumes, and counts only what the journal lacks.
    assert queens.count(checkpoint=journal, **LONG) == A000170[16]
    after = records(journal)
    assert after[: len(saved)] == saved
    assert len(after) == 105, "each unit once: the resumed ones are not counted again"


def test_a_checkpoint_resumes_after_kill_9_and_the_command_line_reads_it(tmp_path):
    journal = tmp_path / "n16.journal"
    child = subprocess.Popen(
        [
            sys.executable,
            "-c",
            f"import queens; queens.count(16, engine='mirror', threads=1, checkpoint={str(journal)!r})",
        ]
    )
    started = time.monotonic()
    while not (journal.exists() and len(records(journal)) >= 5):
        assert time.monotonic() - started < 60, "no records"
        assert child.poll() is None, "the count ended before it was killed"
        time.sleep(0.02)
    child.send_signal(signal.SIGKILL)
    child.wait()
    kept = len(records(journal))
    assert kept >= 5
    # The command line resumes the journal Python wrote.
    out = cli("count", 16, "--engine", "mirror", "--checkpoint", journal, "--json")
    assert out.returncode == 0, out.stderr
    record = json.loads(out.stdout)
    assert record["solutions"] == A000170[16]
    assert record["resumed_units"] >= kept
    # And Python finds it complete: nothing to count, the same total.
    assert queens.count(checkpoint=journal, **LONG) == A000170[16]


def test_another_plans_journal_is_refused(tmp_path):
    journal = tmp_path / "j"
    queens.count(10, engine="mirror", checkpoint=journal)
    with pytest.raises(queens.InputError, match="for another plan: n is 10 there, 11 here"):
        queens.count(11, engine="mirror", checkpoint=journal)


def test_shards_are_the_command_lines_files_and_merge_both_ways(tmp_path):
    by_python, by_cli = tmp_path / "py", tmp_path / "cli"
    subtotals = [queens.count(14, shard=(i, 3), out_dir=by_python) for i in range(3)]
    assert sum(subtotals) == A000170[14]
    for i in range(3):
        out = cli("count", 14, "--shard", f"{i}/3", "--out-dir", by_cli, "-q")
        assert out.returncode == 0, out.stderr
    names = sorted(os.listdir(by_python))
    assert names == ["shard-0000-of-0003.json", "shard-0001-of-0003.json", "shard-0002-of-0003.json"]
    assert names == sorted(os.listdir(by_cli)), "no journal is left behind"
    for name in names:
        assert (by_python / name).read_bytes() == (by_cli / name).read_bytes(), name
    merged = queens.merge(by_cli)
    assert merged["complete"] and merged["total"] == A000170[14]
    assert merged["matches_known"] is True
    out = cli("merge", by_python, "--json")
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["digest"] == merged["digest"]
    # A shard already written is not counted again.
    assert queens.count(14, shard=(1, 3), out_dir=by_cli) == subtotals[1]


def test_a_mirror_shard_uses_the_command_lines_split(tmp_path):
    queens.count(12, engine="mirror", shard=(1, 2), out_dir=tmp_path / "py")
    out = cli("count", 12, "--engine", "mirror", "--shard", "1/2", "--out-dir", tmp_path / "cli", "-q")
    assert out.returncode == 0, out.stderr
    name = "shard-0001-of-0002.json"
    assert (tmp_path / "py" / name).read_bytes() == (tmp_path / "cli" / name).read_bytes()


def test_a_missing_shard_is_named_and_partial_merges_report_it(tmp_path):
    queens.count(13, shard=(0, 3), out_dir=tmp_path)
    queens.count(13, shard=(2, 3), out_dir=tmp_path)
    with pytest.raises(queens.QueensError, match=r"1 of 3 shard\(s\) missing .*shards 1"):
        queens.merge(tmp_path)
    partial = queens.merge([tmp_path], partial=True)
    assert not partial["complete"] and partial["missing_shards"] == [1]
    assert partial["total"] < A000170[13]


@pytest.mark.parametrize(
    "kwargs, match",
    [
        (dict(shard=(3, 3)), r"shard \(3, 3\) is out of range"),
        (dict(shard=(-1, 3)), "out of range"),
        (dict(out_dir="x"), "give shard="),
        (dict(shard=(0, 2), checkpoint="j"), "do not go together"),
        (dict(checkpoint="j", unique=True), "drop checkpoint="),
    ],
)
def test_files_arguments_are_checked(tmp_path, kwargs, match):
    os.chdir(tmp_path)
    with pytest.raises(queens.InputError, match=match):
        queens.count(8, **kwargs)
    assert os.listdir(tmp_path) == []


# A problem of the 14-board (0-based): queens given in rows 1 and 6, two
# corners blocked.
GIVEN, BLOCKED = {1: 4, 6: 0}, [(0, 0), (13, 13)]
FLAGS = ("--given", "2:5,7:1", "--blocked", "1:1,14:14")


def test_a_problems_shards_are_the_command_lines_files(tmp_path):
    by_python, by_cli = tmp_path / "py", tmp_path / "cli"
    want = queens.count(14, given=GIVEN, blocked=BLOCKED)
    subtotals = [
        queens.count(14, given=GIVEN, blocked=BLOCKED, shard=(i, 3), out_dir=by_python) for i in range(3)
    ]
    assert sum(subtotals) == want
    for i in range(3):
        out = cli("count", 14, *FLAGS, "--shard", f"{i}/3", "--out-dir", by_cli, "-q")
        assert out.returncode == 0, out.stderr
    for name in sorted(os.listdir(by_cli)):
        assert (by_python / name).read_bytes() == (by_cli / name).read_bytes(), name
    merged = queens.merge(by_python)
    assert merged["complete"] and merged["total"] == want
    assert merged["matches_known"] is None, "nothing publishes a problem's completions"
    # The problem the shards counted, as `queens merge --json` names it.
    # See: issue 47, item 8 (merge's dict had no "problem").
    assert merged["problem"] == queens.Problem(14, given=GIVEN, blocked=BLOCKED)
    out = cli("merge", by_cli, "--json")
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["problem"] == "/".join(str(merged["problem"]).splitlines())


def test_the_empty_boards_merge_names_no_problem(tmp_path):
    queens.count(8, shard=(0, 1), out_dir=tmp_path)
    assert queens.merge(tmp_path)["problem"] is None


def test_a_problems_checkpoint_is_the_command_lines_journal(tmp_path):
    journal = tmp_path / "p.journal"
    seen = []
    total = queens.count(14, given=GIVEN, blocked=BLOCKED, checkpoint=journal, progress=lambda *a: seen.append(a))
    assert total == queens.count(14, given=GIVEN, blocked=BLOCKED)
    assert seen and seen[-1][0] == seen[-1][1] and seen[-1][2] == total
    header = journal.read_bytes().split(b"\n")[0]
    assert b" problem=x......" in header, header
    # The command line resumes it whole, and refuses it for another problem.
    out = cli("count", 14, *FLAGS, "--checkpoint", journal, "--json")
    assert out.returncode == 0, out.stderr
    record = json.loads(out.stdout)
    assert record["solutions"] == total and record["resumed_units"] == record["units"]
    with pytest.raises(queens.InputError, match="problem"):
        queens.count(14, given={1: 4}, checkpoint=journal)
