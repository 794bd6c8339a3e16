"""Every test runs with its own data folder and settings file, and Qt without a screen."""
import os
import tempfile

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
# Qt fixes the settings location at the first QSettings; make that a throw-away folder.
os.environ["XDG_CONFIG_HOME"] = tempfile.mkdtemp(prefix="voxdesk-config-")


@pytest.fixture(autouse=True)
def isolated_user_folders(tmp_path_factory, monkeypatch):
    """Models, voices and QSettings go to throw-away folders, never the real home."""
    root = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("VOXDESK_DATA_DIR", str(root / "data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(root / "config"))
    return root
