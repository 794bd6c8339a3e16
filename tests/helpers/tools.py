"""The system tools the suite uses. `make test` installs them (resources/system-packages.txt), so a
missing one is a failure that names the fix, never a skip that hides a missing install step."""
from __future__ import annotations

import shutil

import pytest


def require_tool(program: str, package: str | None = None) -> str:
    """The path of `program`; the test fails with the install command when it is missing."""
    path = shutil.which(program)
    if path is None:
        pytest.fail(f"{program} is not installed; `make test` installs it (sudo apt-get install "
                    f"{package or program})", pytrace=False)
    return path
