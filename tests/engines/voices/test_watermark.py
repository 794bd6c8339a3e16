"""PerTh's watermark as VoxDesk applies and reads it, on real speech."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from desktop.core.common.audio import decode
from desktop.engines.voices.watermark import apply_watermark, carries_watermark, watermark_score
from tests.helpers.weights import DATA_DIR

ROOT = Path(__file__).resolve().parents[3]


@pytest.mark.parametrize("name, rate", [("lj050-0131.wav", 24000), ("BAC009S0764W0121.wav", 22050)])
def test_speech_is_marked_inaudibly_and_the_mark_is_found(name, rate):
    speech = decode(DATA_DIR / name, sample_rate=rate)

    marked = apply_watermark(speech, rate)

    assert len(marked) == len(speech) and marked.dtype == np.float32
    assert carries_watermark(marked, rate) and not carries_watermark(speech, rate)
    change = marked - speech
    assert 10 * np.log10(np.sum(speech ** 2) / np.sum(change ** 2)) > 10  # the mark is far below the speech


def test_silence_and_blips_are_left_as_they_are():
    silence = np.zeros(24000, dtype=np.float32)
    blip = np.full(100, 0.5, dtype=np.float32)

    assert np.array_equal(apply_watermark(silence, 24000), silence)
    assert np.array_equal(apply_watermark(blip, 24000), blip)
    assert watermark_score(blip, 24000) == 0.0


def test_loading_perth_leaves_setuptools_as_it_was():
    script = (
        "import sys\n"
        "from desktop.engines.voices.watermark import _perth\n"
        "_perth()\n"
        "import setuptools\n"
        "try:\n"
        "    import pkg_resources\n"
        "except ImportError:\n"
        "    print('no pkg_resources')\n"
        "else:\n"
        "    print('real pkg_resources' if hasattr(pkg_resources, 'working_set') else 'shim left behind')\n"
    )
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=300)

    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() in ("no pkg_resources", "real pkg_resources")


def test_a_recording_several_minutes_long_is_checked_a_piece_at_a_time_and_whole(tmp_path):
    from desktop.core.common.audio_out import save_speech
    from desktop.engines.voices.watermark import CHECK_CHUNK_SECONDS, DETECTION_THRESHOLD, READ_RATE, recording_score

    speech = decode(DATA_DIR / "lj050-0131.wav", sample_rate=READ_RATE)
    marked = apply_watermark(speech, READ_RATE)
    repeats = int(2.5 * CHECK_CHUNK_SECONDS * READ_RATE / len(speech)) + 1  # read in three pieces or more
    long_marked = save_speech(tmp_path / "announcement.wav", np.tile(marked, repeats), READ_RATE)
    long_plain = save_speech(tmp_path / "meeting.wav", np.tile(speech, repeats), READ_RATE)

    assert recording_score(long_marked) >= DETECTION_THRESHOLD
    assert recording_score(long_plain) < DETECTION_THRESHOLD
