"""The `queens` command the wheel installs, and `python -m queens`: the
command line of the binary, run from the extension. See: issue 33."""

import os
import pathlib
import signal
import subprocess
import sys
import sysconfig
import time

import pytest

import queens


def installed_command():
    scripts = pathlib.Path(sysconfig.get_path("scripts"))
    for name in ("queens", "queens.exe"):
        if (scripts / name).is_file():
            return str(scripts / name)
    pytest.fail(f"no queens command in {scripts}")


def run(*args, **kwargs):
    return subprocess.run(args, capture_output=True, text=True, timeout=120, **kwargs)


def test_python_dash_m_queens_counts():
    out = run(sys.executable, "-m", "queens", "count", "12", "-q")
    assert (out.returncode, out.stdout, out.stderr) == (0, "14200\n", "")


def test_the_installed_command_counts():
    out = run(installed_command(), "count", "12", "-q")
    assert (out.returncode, out.stdout, out.stderr) == (0, "14200\n", "")
    listed = run(installed_command(), "one", "8", "--format", "columns")
    assert listed.stdout == "2 4 6 8 3 1 7 5\n"


def test_version_says_it_is_the_python_package():
    out = run(installed_command(), "--version")
    assert out.returncode == 0
    first, *rest = out.stdout.splitlines()
    assert first == (
        f"queens {queens.__version__} (the Python package {queens._queens.DISTRIBUTION} "
        f"{queens.__version__}, on Python {sys.version.split()[0]})"
    )
    # Then what the binary's says: the commit, the GPU executor, the code paths.
    assert [line.split(":")[0] for line in rest] == [
        "commit",
        "GPU executor",
        "code paths on this CPU",
    ]
    assert queens._queens.DISTRIBUTION == "queens-rs"


def test_usage_errors_are_one_line_and_exit_2():
    out = run(sys.executable, "-m", "queens", "count", "0")
    assert out.returncode == 2 and out.stdout == ""
    assert out.stderr.startswith("queens: ") and out.stderr.count("\n") == 1
    helped = run(sys.executable, "-m", "queens", "--help")
    assert helped.returncode == 0 and "Usage: queens <COMMAND>" in helped.stdout


def test_a_closed_pipe_ends_the_command_quietly():
    # `queens list 12 | head -1`: the reader goes away after one line.
    process = subprocess.Popen(
        [sys.executable, "-m", "queens", "list", "12"], stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    first = process.stdout.readline()
    process.stdout.close()
    assert process.wait(timeout=60) == 0
    assert first and process.stderr.read() == b""
    process.stderr.close()


@pytest.mark.skipif(not hasattr(signal, "SIGINT") or os.name != "posix", reason="POSIX signals")
def test_ctrl_c_stops_a_count_as_it_stops_the_binary():
    process = subprocess.Popen(
        [sys.executable, "-m", "queens", "count", "19", "--engine", "mirror"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    time.sleep(1.5)
    process.send_signal(signal.SIGINT)
    try:
        _, stderr = process.communicate(timeout=30)
    finally:
        process.kill()
    assert process.returncode == 130, stderr
    assert "interrupted" in stderr and "Traceback" not in stderr


@pytest.mark.skipif(not hasattr(signal, "SIGINT") or os.name != "posix", reason="POSIX signals")
def test_ctrl_c_stops_other_commands_at_once():
    process = subprocess.Popen([sys.executable, "-m", "queens", "list", "16"], stdout=subprocess.DEVNULL)
    time.sleep(1.5)
    process.send_signal(signal.SIGINT)
    assert process.wait(timeout=10) == -signal.SIGINT
