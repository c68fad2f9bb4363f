"""The ``queens`` command that the wheel installs, and ``python -m queens``:
the command line of the Rust binary, compiled into the extension."""

import signal
import sys


def main() -> int:
    """Runs ``queens`` with this process's arguments; returns its exit code.

    The command owns the process, as the binary does: Ctrl-C goes back to
    the operating system's default first, so that it stops a command at
    once, and ``count`` catches it itself (it stops, saves what it counted
    and ends with 130), instead of Python raising ``KeyboardInterrupt``
    only when the command is over.
    """
    from queens._queens import _main

    if hasattr(signal, "SIGINT"):
        signal.signal(signal.SIGINT, signal.SIG_DFL)
    # The command writes to the descriptors, not through sys.stdout.
    sys.stdout.flush()
    sys.stderr.flush()
    return _main(["queens", *sys.argv[1:]])
