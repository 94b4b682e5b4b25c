"""A test module that drives a program from Debian's packages (Chromium, redis-server): skipped
when the program is missing outside CI, failed in CI, where `.ci/run` installs it."""

from __future__ import annotations

import os
from pathlib import Path

import pytest


def require(path: str, what: str, package: str, runs: str) -> None:
    """Called at a test module's top: skip the module (or fail it in CI) without `path`."""
    if Path(path).exists():
        return
    if os.environ.get("CI"):
        pytest.fail(f"no {what} at {path}: .ci/run installs Debian's {package}", pytrace=False)
    pytest.skip(
        f"no {what} (apt-get install {package}): the {runs} tests run in CI",
        allow_module_level=True,
    )
