"""``python -m queens``: the ``queens`` command, as the wheel installs it."""

import sys

from queens._cli import main

if __name__ == "__main__":
    sys.exit(main())
