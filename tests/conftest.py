"""Every test runs with its own data folder and settings file, and Qt without a screen.

Fixtures shared by several test folders: ``no_stdin`` and the tiny voice models ``tiny_folders``.
"""
import builtins
import io
import os
import sys
import tempfile

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
# Qt fixes the settings location at the first QSettings; make that a throw-away folder.
os.environ["XDG_CONFIG_HOME"] = tempfile.mkdtemp(prefix="voxdesk-config-")


@pytest.fixture(scope="session", autouse=True)
def consent_sentences_dated_a_fixed_day():
    """See tests.core.voices.sealing.EspeakDay; for the whole session, as module fixtures issue codes."""
    from desktop.core.voices import consent
    from tests.core.voices.sealing import EspeakDay

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(consent, "date", EspeakDay)
        yield


@pytest.fixture(autouse=True)
def isolated_user_folders(tmp_path_factory, monkeypatch):
    """Models, voices and QSettings go to throw-away folders, never the real home."""
    root = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("VOXDESK_DATA_DIR", str(root / "data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(root / "config"))
    # The desktop's Documents folder (where live recordings go by default), as xdg-user-dirs names it.
    (root / "config").mkdir()
    (root / "config" / "user-dirs.dirs").write_text(f'XDG_DOCUMENTS_DIR="{root / "Documents"}"\n', encoding="utf-8")
    # Never the user's real desktop keyring: the consent key goes to the throw-away config folder.
    monkeypatch.setenv("PYTHON_KEYRING_BACKEND", "keyring.backends.null.Keyring")
    return root


@pytest.fixture
def no_stdin(monkeypatch):
    """Fail the test if anything asks on the terminal (Coqui's licence prompt uses input())."""

    def refuse(*_args, **_kwargs):
        raise AssertionError("something tried to read from stdin")

    monkeypatch.setattr(builtins, "input", refuse)
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))


@pytest.fixture(scope="module")
def tiny_folders(tmp_path_factory):
    """Two tiny Coqui voice model folders (see tests.helpers.tiny_tts): one voice, and several."""
    from tests.helpers.tiny_tts import build_multi_speaker_vits, build_single_speaker_vits

    root = tmp_path_factory.mktemp("tiny-models")
    return {
        "single": build_single_speaker_vits(root / "tiny-english"),
        "multi": build_multi_speaker_vits(root / "tiny-voices"),
    }


# -- under CI, a skip for a missing tool or service is a failure --------------------------------------
# `make test` installs every tool and service the suite uses, so on CI a test skipped for want of
# one means an install step is missing. The only skips allowed there are those no install can fix:
# their reasons say the test cannot work as root (root may write into any folder).
UNFIXABLE_SKIP_WORDS = ("as root", "root may write")
_unfixable_skips_only = os.environ.get("CI", "").lower() in ("1", "true", "yes")
_fixable_skips: list[str] = []


def _skip_reason(report) -> str:
    longrepr = report.longrepr
    if isinstance(longrepr, tuple) and len(longrepr) == 3:
        return str(longrepr[2]).removeprefix("Skipped: ")
    return str(longrepr)


def pytest_runtest_logreport(report):
    if _unfixable_skips_only and report.skipped and not hasattr(report, "wasxfail"):
        reason = _skip_reason(report)
        if not any(words in reason for words in UNFIXABLE_SKIP_WORDS):
            _fixable_skips.append(f"{report.nodeid}: {reason}")


def pytest_terminal_summary(terminalreporter):
    if _fixable_skips:
        terminalreporter.section("skipped for something `make test` should have installed (CI=true)", red=True)
        for line in _fixable_skips:
            terminalreporter.line(line)


def pytest_sessionfinish(session, exitstatus):
    if _fixable_skips and exitstatus == 0:
        session.exitstatus = 1


@pytest.fixture
def cpu_only_machine(monkeypatch, tmp_path):
    """The real probes on a machine with no GPU at all, even when the one running the tests has one."""
    from tests.helpers.machines import pretend_cpu_only

    pretend_cpu_only(monkeypatch, tmp_path)


@pytest.fixture
def no_portaudio(monkeypatch):
    """A machine without the PortAudio library: importing sounddevice fails as it does there."""
    from tests.helpers.machines import pretend_no_portaudio

    pretend_no_portaudio(monkeypatch)
