"""Where VoxDesk keeps secrets: the desktop keyring when it has a real backend, else files in its
config folder ($XDG_CONFIG_HOME/VoxDesk) readable only by the user. Used by the consent seal's key and
the transcription server's API keys."""
from __future__ import annotations

import os
from pathlib import Path
from typing import Any


def config_folder() -> Path:
    """VoxDesk's config folder: $XDG_CONFIG_HOME/VoxDesk (~/.config/VoxDesk), where its settings live."""
    from desktop import ORG_NAME

    xdg = os.environ.get("XDG_CONFIG_HOME", "")
    base = Path(xdg) if xdg and os.path.isabs(xdg) else Path.home() / ".config"
    return base / ORG_NAME


def usable_keyring() -> Any:
    """The keyring module when it has a real backend (not the fail or null one), else None."""
    try:
        import keyring
        from keyring.backends import chainer, fail, null
    except Exception:  # noqa: BLE001 - not installed, or broken: the key file is used
        return None
    try:
        backend = keyring.get_keyring()
    except Exception:  # noqa: BLE001
        return None
    if isinstance(backend, (fail.Keyring, null.Keyring)):
        return None
    if isinstance(backend, chainer.ChainerBackend) and not backend.backends:
        return None
    return keyring
