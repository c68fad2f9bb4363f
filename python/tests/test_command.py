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
    # What applies to a wheel, which never has the GPU executor, not the
    # binary's "cargo install --features gpu". See: issue 47, item 16.
    assert rest[1] == (
        "GPU executor: not in the Python package (the queens binary built with --features gpu has it)"
    )
    assert queens._queens.DISTRIBUTION == "queens-rs"


def test_usage_errors_are_one_line_and_exit_2():
    out = run(sys.executable, "-m", "queens", "count", "0")
    assert out.returncode == 2 and out.stdout == ""
    assert out.stderr.startswith("queens: ") and out.stderr.count("\n") == 1
    helped = run(sys.executable, "-m", "queens", "--help")
    assert helped.returncode == 0 and "Usage: queens <COMMAND>" in helped.stdout


def the_binary():
    """target/debug/queens of the checkout these tests are in, built by `cargo build`."""
    binary = pathlib.Path(__file__).resolve().parents[2] / "target" / "debug" / "queens"
    if not binary.is_file():
        pytest.skip(f"no binary to compare with: {binary} is not built (cargo build)")
    return str(binary)


@pytest.mark.skipif(os.name != "posix", reason="closes descriptors with sh's >&-")
@pytest.mark.parametrize(
    "args, closed",
    [
        (["count", "12", "-q"], ">&-"),
        (["count", "12", "-q"], "2>&-"),
        (["count", "12", "-q"], ">&- 2>&-"),
        (["count", "12", "-q"], "0<&-"),
        (["count", "8", "--given", "1:99"], ">&-"),
        (["count", "8", "--given", "1:99"], "2>&-"),
        (["one", "8", "--format", "columns"], ">&-"),
        (["--version"], ">&-"),
    ],
)
def test_closed_standard_descriptors_are_met_as_the_binary_meets_them(args, closed):
    # See: issue 47, item 6 (`queens count 12 -q >&-` died with an
    # AttributeError traceback; with 2>&- it printed nothing and ended
    # with 1, and a usage error ended with 1, not 2).
    def run_closed(command):
        return run("sh", "-c", f'exec "$@" {closed}', "sh", command, *args)

    wheel, binary = run_closed(installed_command()), run_closed(the_binary())
    assert "Traceback" not in wheel.stderr
    assert (wheel.returncode, wheel.stdout, wheel.stderr) == (binary.returncode, binary.stdout, binary.stderr)
    assert binary.returncode in (0, 1, 2)


def test_a_closed_stdout_or_stderr_gives_the_binarys_exit_codes():
    # See: issue 47, item 6, the codes the issue names.
    closed = [
        ([installed_command(), "count", "12", "-q"], ">&-", 1, "", "queens: standard output is closed"),
        ([installed_command(), "count", "12", "-q"], "2>&-", 0, "14200\n", ""),
        ([installed_command(), "count", "8", "--given", "1:99"], "2>&-", 2, "", ""),
    ]
    for command, redirection, code, stdout, stderr in closed:
        out = run("sh", "-c", f'exec "$@" {redirection}', "sh", *command)
        assert (out.returncode, out.stdout) == (code, stdout), (redirection, out)
        assert out.stderr.startswith(stderr), out.stderr


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
