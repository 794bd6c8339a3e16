"""`voxdesk synthesize` marks what it saves as the window's Settings say, and --no-watermark leaves it out."""
import shutil

import pytest
import torch
from PySide6.QtCore import QSettings

from desktop import APP_NAME, ORG_NAME
from desktop.settings import open_model_stores
from desktop.engines.voices.watermark import DETECTION_THRESHOLD, recording_score
from tests.helpers.cli import voxdesk

pytestmark = pytest.mark.usefixtures("no_stdin")

TEXT = "Hello everyone. The office opens at nine."


@pytest.fixture(scope="module")
def loud_folder(tiny_folders, tmp_path_factory):
    """The tiny model made to speak at speech level. As built it whispers (peaks near -50 dBFS), where
    the 16-bit samples of a WAV file round any mark away; a real voice is a hundred times louder."""
    folder = tmp_path_factory.mktemp("loud") / "tiny-loud"
    shutil.copytree(tiny_folders["single"], folder)
    checkpoint = torch.load(folder / "model.pth", weights_only=True)
    checkpoint["model"]["waveform_decoder.conv_post.weight"] *= 100  # the layer before the output's tanh
    torch.save(checkpoint, folder / "model.pth")
    return folder


@pytest.fixture
def model(loud_folder):
    return open_model_stores().voices.import_folder(loud_folder).name


@pytest.fixture
def watermark_turned_off():
    """The user turned the watermark off in Settings (the settings store the command line reads too)."""
    store = QSettings(ORG_NAME, APP_NAME)
    store.setValue("synthesize/watermark", False)
    store.sync()
    yield
    store.remove("synthesize/watermark")
    store.sync()


def synthesize(model: str, out, *flags: str) -> float:
    assert voxdesk("synthesize", "--text", TEXT, "--model", model, "--output", str(out), *flags) == 0
    return recording_score(out)


def test_the_saved_speech_carries_the_watermark(tmp_path, model):
    assert synthesize(model, tmp_path / "marked.wav") >= DETECTION_THRESHOLD


def test_no_watermark_leaves_the_mark_out(tmp_path, model):
    assert synthesize(model, tmp_path / "plain.wav", "--no-watermark") < DETECTION_THRESHOLD


def test_the_watermark_turned_off_in_settings_is_left_out(tmp_path, model, watermark_turned_off):
    assert synthesize(model, tmp_path / "plain.wav") < DETECTION_THRESHOLD
