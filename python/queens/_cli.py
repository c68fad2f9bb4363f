"""The ``queens`` command that the wheel installs, and ``python -m queens``:
the command line of the Rust binary, compiled into the extension."""

import os
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
    # The command writes to the descriptors, not through sys.stdout; either
    # is None when its descriptor was closed at startup (`queens ... >&-`).
    for stream in (sys.stdout, sys.stderr):
        if stream is not None:
            stream.flush()
    _reserve_standard_descriptors()
    return _main(["queens", *sys.argv[1:]])


def _reserve_standard_descriptors() -> None:
    """Opens the null device on each of descriptors 0, 1 and 2 that is
    closed, as Rust's runtime does before the binary's ``main``: otherwise
    the first file the command opens would take that number, and its
    messages (or its reads of standard input) would go to that file.

    The extension recorded whether descriptor 1 was closed when it was
    loaded (at ``import queens``, before this runs), so a command still
    refuses to write output that would be lost, as the binary does.
    """
    for fd in (0, 1, 2):
        try:
            os.fstat(fd)
        except OSError:
            null = os.open(os.devnull, os.O_RDWR)
            if null != fd:
                os.dup2(null, fd)
                os.close(null)
