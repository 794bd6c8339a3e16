"""The Transcriber decoding a stretch of a recording alone (Transcribe again… on some lines), through the
same path as a whole file, and a job that waits for another one running being cancelled while it waits."""
from __future__ import annotations

import threading

import numpy as np
import pytest

from desktop.core.common.audio import decode
from desktop.core.common.errors import Cancelled
from desktop.core.gpu.fallback import FallbackLog
from desktop.core.transcription.whisper_models import ModelStore
from desktop.engines.transcription.transcriber import TranscribeSettings, Transcriber
from tests.helpers.weights import DATA_DIR, TINY_EN_MAX_WER, reference, tiny_en_dir, wer
from tests.engines.transcription.test_transcriber import write_wav

pytestmark = pytest.mark.slow

SETTINGS = TranscribeSettings(model="tiny-test", device="cpu", language="en")


@pytest.fixture(scope="module")
def transcriber(tmp_path_factory):
    store = ModelStore(tmp_path_factory.mktemp("models"))
    store.import_model(tiny_en_dir(), "tiny-test")
    transcriber = Transcriber(store, FallbackLog(), gpu_available=lambda: False)
    yield transcriber
    transcriber.release()


@pytest.fixture(scope="module")
def two_sentences(tmp_path_factory):
    """The LJ sentence, two seconds of silence, then JFK; and where JFK starts and ends."""
    lj, jfk = decode(DATA_DIR / "lj050-0131.wav"), decode(DATA_DIR / "jfk.flac")
    pause = np.zeros(2 * 16000, dtype=np.float32)
    path = write_wav(tmp_path_factory.mktemp("recordings") / "two.wav", np.concatenate([lj, pause, jfk]))
    start = (len(lj) + len(pause)) / 16000
    return path, start, start + len(jfk) / 16000


def test_a_stretch_is_transcribed_alone_on_its_own_timeline(transcriber, two_sentences):
    path, jfk_start, jfk_end = two_sentences
    progress = []
    heard = transcriber.transcribe_file(path, SETTINGS, stretch=(jfk_start - 0.5, jfk_end),
                                        on_progress=progress.append)
    said = "".join(segment.text for segment in heard.segments)
    assert wer(reference("jfk.flac"), said) <= TINY_EN_MAX_WER, said
    assert "system" not in said.lower(), "nothing of the sentence before the stretch"
    assert heard.duration == pytest.approx(jfk_end - jfk_start + 0.5, abs=0.01)
    assert all(0.0 <= s.start < s.end <= heard.duration + 0.01 for s in heard.segments), "times from 0"
    assert progress and progress[-1] == 1.0


def test_a_stretch_past_the_end_of_the_recording_hears_nothing(transcriber, two_sentences):
    path, _start, jfk_end = two_sentences
    assert transcriber.transcribe_file(path, SETTINGS, stretch=(jfk_end + 5.0, jfk_end + 8.0)).segments == []


def test_a_job_waiting_for_the_file_being_transcribed_can_be_cancelled_while_it_waits(transcriber, two_sentences):
    path, jfk_start, jfk_end = two_sentences
    running, stop_running = threading.Event(), threading.Event()
    first = threading.Thread(target=lambda: _until_cancelled(transcriber, path, running, stop_running))
    first.start()
    try:
        assert running.wait(60), "the first file started"
        statuses = []
        with pytest.raises(Cancelled):
            transcriber.transcribe_file(path, SETTINGS, stretch=(jfk_start, jfk_end), on_status=statuses.append,
                                        cancelled=lambda: bool(statuses))
        assert statuses == ["Waiting for the transcription under way to finish…"]
    finally:
        stop_running.set()
        first.join(120)
    assert not first.is_alive()
    assert transcriber.transcribe_file(path, SETTINGS, stretch=(jfk_start, jfk_end)).segments, "usable after"


def _until_cancelled(transcriber, path, running: threading.Event, stop: threading.Event) -> None:
    """A whole file being transcribed, holding the model until stop is set, then cancelled."""
    def cancelled() -> bool:
        running.set()  # asked from inside the job: it holds the model now, and keeps it until told
        stop.wait(120)
        return True

    try:
        transcriber.transcribe_file(path, SETTINGS, cancelled=cancelled)
    except Cancelled:
        pass
    finally:
        running.set()
