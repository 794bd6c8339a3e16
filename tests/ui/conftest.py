"""The window with its real services: real Whisper tiny.en weights, real recordings, a settings file of its own."""
import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import shutil
from pathlib import Path

import av
import numpy as np
import pytest
from PySide6.QtCore import QSettings

from desktop.settings import Settings
from tests.helpers.closing import close_answering, close_window
from tests.helpers.weights import DATA_DIR, tiny_en_dir

# Long enough for a whole tiny.en run on two shared cores, with room to spare.
JOB_TIMEOUT_MS = 180_000
TEST_MODEL = "tiny-en-test"  # official names are reserved, so the import gets a name of its own


@pytest.fixture(autouse=True)
def no_keys_held_from_the_test_before(qtbot):
    """Qt remembers the modifiers of the last key event, across tests: after a test that ends on
    Ctrl+Z, selecting a row would be taken as Ctrl-clicking it (and unselect it). A plain key first."""
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QWidget

    keys = QWidget()
    qtbot.keyClick(keys, Qt.Key.Key_Escape)
    keys.deleteLater()


@pytest.fixture
def settings_path(tmp_path) -> Path:
    return tmp_path / "settings" / "voxdesk.ini"


@pytest.fixture
def settings(settings_path) -> Settings:
    """The user's choices in an INI file of this test; the CPU, so no test waits on a GPU probe."""
    settings = Settings(QSettings(str(settings_path), QSettings.Format.IniFormat))
    settings.set("device/choice", "cpu")
    settings.set("transcribe/language", "en")
    return settings


@pytest.fixture
def tiny_model(settings) -> str:
    """tiny.en imported into this test's model store (VOXDESK_DATA_DIR) and chosen in the settings."""
    from desktop.core.transcription.whisper_models import ModelStore
    from desktop.core.common.paths import models_dir

    name = ModelStore(models_dir()).import_model(tiny_en_dir(), name=TEST_MODEL).name
    settings.set("transcribe/model", name)
    return name


@pytest.fixture
def window(qtbot, settings, tiny_model):
    """The main window as the app builds it; closing it at the end stops whatever still runs."""
    from desktop.app import create_app

    _app, window = create_app([], settings=settings)
    qtbot.addWidget(window, before_close_func=close_answering)
    window.show()
    qtbot.waitExposed(window)
    yield window
    close_window(qtbot, window, timeout=JOB_TIMEOUT_MS)


@pytest.fixture
def tab(window):
    return window.transcribe_tab


@pytest.fixture
def jfk(tmp_path) -> Path:
    """A copy of the 11-second JFK recording in a folder of its own (exports land next to it)."""
    folder = tmp_path / "recordings"
    folder.mkdir(exist_ok=True)
    return Path(shutil.copy(DATA_DIR / "jfk.flac", folder / "jfk.flac"))


def write_wav(path: Path, samples: np.ndarray, rate: int = 16000) -> Path:
    """Write mono float samples as 16-bit PCM WAV with PyAV."""
    pcm = (np.clip(samples, -1, 1) * 32767).astype(np.int16).reshape(1, -1)
    with av.open(str(path), "w") as container:
        stream = container.add_stream("pcm_s16le", rate=rate, layout="mono")
        frame = av.AudioFrame.from_ndarray(pcm, format="s16", layout="mono")
        frame.sample_rate = rate
        for packet in stream.encode(frame):
            container.mux(packet)
        for packet in stream.encode(None):
            container.mux(packet)
    return path


@pytest.fixture
def long_recording(tmp_path) -> Path:
    """JFK fourteen times over (154 s): when its first lines show, at least four of its 30-second windows
    are still to decode, so a cancel, a crash or a close sent then finds the file being worked on
    however fast this processor decodes. Stopped part-way, a longer file costs no time."""
    from desktop.core.common.audio import decode

    speech = decode(DATA_DIR / "jfk.flac")
    return write_wav(tmp_path / "jfk fourteen times.wav", np.concatenate([speech] * 14))


@pytest.fixture
def silence(tmp_path) -> Path:
    return write_wav(tmp_path / "silence.wav", np.zeros(16000 * 3, dtype=np.float32))
