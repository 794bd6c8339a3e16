"""Under CI=true a test skipped for a missing tool fails the run; a skip no install can fix does not."""
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def run_pytest_on(tmp_path: Path, test_source: str, *, ci: bool) -> subprocess.CompletedProcess:
    (tmp_path / "test_sample.py").write_text(test_source)
    env = {**os.environ, "CI": "true" if ci else ""}
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "tests.conftest", "-q", "-p", "no:cacheprovider",
         "--rootdir", str(tmp_path), str(tmp_path / "test_sample.py")],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)


def only_skipping(reason: str) -> str:
    """The source of a sample test that does nothing but skip, giving ``reason``."""
    return f"import pytest\n\n\ndef test_sample():\n    pytest.skip({reason!r})\n"


MISSING_TOOL = only_skipping("sox is not installed")
ROOT_ONLY = only_skipping("running as root without permission to mount a read-only folder")


def test_a_skip_for_a_missing_tool_fails_the_run_under_ci(tmp_path):
    result = run_pytest_on(tmp_path, MISSING_TOOL, ci=True)
    assert result.returncode == 1, result.stdout
    assert "sox is not installed" in result.stdout


def test_the_same_skip_is_only_a_skip_outside_ci(tmp_path):
    result = run_pytest_on(tmp_path, MISSING_TOOL, ci=False)
    assert result.returncode == 0, result.stdout


@pytest.mark.parametrize("ci", [True, False])
def test_a_skip_that_no_install_can_fix_is_allowed_under_ci(tmp_path, ci):
    result = run_pytest_on(tmp_path, ROOT_ONLY, ci=ci)
    assert result.returncode == 0, result.stdout
