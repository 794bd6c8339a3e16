"""`voxdesk transcribe --batch-size N`: windows decoded at once, automatic unless given."""
from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

from desktop.engines.transcription.process.isolated import IsolatedEngine
from tests.helpers.cli import voxdesk
from tests.helpers.weights import DATA_DIR, base_dir, recording, reference, wer


@pytest.fixture(scope="module")
def meeting(tmp_path_factory):
    """About 40 s of English speech with pauses: two 30-second windows."""
    import soundfile

    jfk, lj = recording("jfk.flac"), recording("lj050-0131.wav")
    pause = np.zeros(16000, np.float32)
    path = tmp_path_factory.mktemp("meeting") / "meeting.wav"
    soundfile.write(path, np.concatenate([jfk, pause, lj, pause * 2, jfk, pause, lj]), 16000)
    return path


@pytest.fixture
def batch_sizes(monkeypatch):
    """The batch size each decoding was asked for and the one it used (the real engine runs, in its
    own process; the answer comes back through the engine's messages)."""
    seen: list[tuple] = []
    real_transcribe = IsolatedEngine.transcribe

    def transcribe(self, audio, options, **more):
        result = real_transcribe(self, audio, options, **more)
        seen.append((options.batch_size, result.batch_size))
        return result

    monkeypatch.setattr(IsolatedEngine, "transcribe", transcribe)
    return seen


def transcript(folder, name="meeting") -> str:
    data = json.loads((folder / f"{name}.json").read_text(encoding="utf-8"))
    return " ".join(segment["text"] for segment in data["segments"])


def test_batch_size_one_decodes_one_window_after_another_and_automatic_batches_the_same_words(
        tmp_path, meeting, batch_sizes):
    common = ("transcribe", str(meeting), "--model", str(base_dir()), "--engine", "ct2", "--device", "cpu",
              "--language", "en", "--format", "json")
    (tmp_path / "one").mkdir()
    (tmp_path / "auto").mkdir()
    assert voxdesk(*common, "--batch-size", "1", "--output-dir", str(tmp_path / "one")) == 0
    assert batch_sizes[0] == (1, 1)
    batch_sizes.clear()
    assert voxdesk(*common, "--output-dir", str(tmp_path / "auto")) == 0
    assert batch_sizes[0] == (None, 2)  # automatic: both windows in one batch
    # Sequential decoding prompts each window with the text before it, batched windows are decoded
    # on their own, so an unclear word may be heard differently ("there under" / "they are under");
    # batching must cost no accuracy.
    spoken = " ".join([reference("jfk.flac"), reference("lj050-0131.wav")] * 2)
    sequential, batched = wer(spoken, transcript(tmp_path / "one")), wer(spoken, transcript(tmp_path / "auto"))
    assert batched <= sequential + 0.02 and batched <= 0.1


@pytest.mark.parametrize("value", ["0", "65", "-2", "many"])
def test_a_batch_size_out_of_range_is_refused_in_one_line_before_any_work(tmp_path, value):
    result = subprocess.run([sys.executable, "-m", "desktop", "transcribe", str(DATA_DIR / "jfk.flac"),
                             "--batch-size", value, "--output-dir", str(tmp_path)],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 2
    (error,) = [line for line in result.stderr.splitlines() if "error:" in line]
    assert "--batch-size" in error and "at most 64" in error
    assert list(tmp_path.iterdir()) == []


def test_automatic_is_accepted_by_name():
    from desktop.__main__ import build_parser

    args = build_parser().parse_args(["transcribe", "a.wav", "--batch-size", "auto"])
    assert args.batch_size is None
    assert build_parser().parse_args(["transcribe", "a.wav", "--batch-size", "4"]).batch_size == 4
