"""The Python package's build backend: maturin's, with one change.

Without cargo on PATH, maturin's backend downloads a Rust toolchain (about
900 MB, into the user's cache) and builds with it. This one stops instead,
with one line that says what is missing. ``QUEENS_DOWNLOAD_RUST=1`` gives
maturin's behaviour back; ``maturin develop`` and ``maturin build`` do not
come through here.
"""

import os
import shutil
import sys

if os.environ.get("QUEENS_DOWNLOAD_RUST", "") in ("", "0"):
    # Every hook of maturin's backend looks at this before it downloads.
    os.environ["MATURIN_NO_INSTALL_RUST"] = "1"

from maturin import *  # noqa: E402,F401,F403  (the PEP 517 hooks)
from maturin import build_wheel as _build_wheel  # noqa: E402
from maturin import get_requires_for_build_wheel as _get_requires_for_build_wheel  # noqa: E402


def _need_cargo() -> None:
    if os.environ.get("MATURIN_NO_INSTALL_RUST") and shutil.which("cargo") is None:
        sys.stderr.write(
            "queens-rs: building from source needs Rust 1.89 or later, and `cargo` is not on "
            "PATH: install it (https://rustup.rs, or your system's package) and try again, or "
            "set QUEENS_DOWNLOAD_RUST=1 to let the build download a toolchain (about 900 MB)\n"
        )
        raise SystemExit(1)


def get_requires_for_build_wheel(config_settings=None):
    """maturin's, once cargo is found."""
    _need_cargo()
    return _get_requires_for_build_wheel(config_settings)


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    _need_cargo()
    return _build_wheel(wheel_directory, config_settings, metadata_directory)


get_requires_for_build_editable = get_requires_for_build_wheel
