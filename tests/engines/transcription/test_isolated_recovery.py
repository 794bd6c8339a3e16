"""The Transcriber when its engine process crashes or hangs: in plain words, the GPU marked unusable
with an entry for the status bar, and the file finished on the CPU after the segments already shown.

Everything is real (engine processes, weights, recordings, signals) except the AMD GPU: the first
engine runs on the CPU but is labelled "cuda", as a GPU engine would be.
"""
from __future__ import annotations

import os
import signal
import time
from dataclasses import replace

import numpy as np
import pytest

from desktop.core.common.errors import UserFacingError
from desktop.core.gpu.fallback import FallbackLog
from desktop.core.transcription.whisper_models import ModelStore
from desktop.engines.transcription.process.isolated import ENGINE_CRASHED, IsolatedEngine
from desktop.engines.transcription.transcriber import TranscribeSettings, Transcriber
from tests.engines.transcription.test_isolated import is_running
from tests.engines.transcription.test_transcriber import write_wav
from tests.helpers.weights import DATA_DIR, normalize_english, recording, reference, tiny_en_dir, wer

JFK = normalize_english(reference("jfk.flac"))
LJ = normalize_english(reference("lj050-0131.wav"))
HANG_SECONDS = 10.0  # longer than a busy test machine may take to show the first segment
MEETING_TIMES = 6  # about two minutes: at least four 30-second windows still to decode when the first is shown


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    store = ModelStore(tmp_path_factory.mktemp("models"))
    store.import_model(tiny_en_dir(), "tiny-test")
    return store


def write_meeting(path, times: int):
    """JFK, then the LJ Speech sentence, ``times`` times over (about 20 s each time), with pauses between."""
    pause = np.zeros(16000, dtype=np.float32)
    parts = [recording("jfk.flac"), pause, recording("lj050-0131.wav"), pause] * times
    return write_wav(path, np.concatenate(parts))


@pytest.fixture(scope="module")
def meeting(tmp_path_factory):
    """The meeting said MEETING_TIMES times over."""
    return write_meeting(tmp_path_factory.mktemp("audio") / "meeting.wav", MEETING_TIMES)


class TranscriberOnAFakeGpu(Transcriber):
    """The real Transcriber with real engine processes; the "GPU" one is a CPU engine labelled "cuda"."""

    def __init__(self, store, log, *, gpu_hang_seconds: float = 300.0):
        super().__init__(store, log, gpu_available=lambda: True, ct2_gpu_count=lambda: 0)
        self.gpu_engines: list[IsolatedEngine] = []
        self._gpu_hang_seconds = gpu_hang_seconds

    def _load(self, model, plan):
        if plan.device != "cuda":
            return super()._load(model, plan)
        engine = super()._load(model, replace(plan, engine="ct2", device="cpu"))
        engine.device = "cuda"
        engine.hang_seconds = self._gpu_hang_seconds  # once loaded: a busy machine may load slowly
        self.gpu_engines.append(engine)
        return engine


# Windows one after another: the first window's segments are shown while every later window is still
# to be decoded, so a signal sent then finds the engine at work. (A batch of windows sends every segment
# at its end, a moment before the result, which may then be in the pipe already.)
ONE_WINDOW_AT_A_TIME = TranscribeSettings(model="tiny-test", language="en", batch_size=1)


def signal_at_first_segment(transcriber: TranscriberOnAFakeGpu, sig: signal.Signals):
    """An on_segment that sends ``sig`` to the GPU engine process when the first segment is shown."""
    shown = []

    def on_segment(segment) -> None:
        shown.append(segment)
        if len(shown) == 1:
            os.kill(transcriber.gpu_engines[0].pid, sig)

    return on_segment, shown


def assert_nothing_twice_nothing_lost(text: str, shown_text: str, times: int = MEETING_TIMES) -> None:
    """The meeting says each sentence ``times`` times: more is a duplicate. (tiny.en itself sometimes
    skips an LJ sentence, and hears "ask" as "as" now and then, so the words lost are bounded by the error
    rate instead.)"""
    words = normalize_english(text)
    assert words.count("what you can do for your country") == times, words
    assert words.count("unless a system is established") <= times, words
    assert wer(" ".join([JFK, LJ] * times), words) <= 0.25, words
    # What streamed to the screen has nothing twice either.
    assert normalize_english(shown_text).count("what you can do for your country") <= times


def assert_in_order_without_overlap(segments) -> None:
    spoken = [s for s in segments if s.text.strip()]
    assert all(a.end <= b.start + 1e-6 for a, b in zip(spoken, spoken[1:]))


@pytest.mark.parametrize("sig", [signal.SIGSEGV, signal.SIGABRT])
def test_a_gpu_engine_crash_finishes_the_file_on_the_cpu_keeping_what_was_shown(store, meeting, sig):
    log = FallbackLog()
    transcriber = TranscriberOnAFakeGpu(store, log)
    on_segment, shown = signal_at_first_segment(transcriber, sig)
    statuses = []
    try:
        transcript = transcriber.transcribe_file(meeting, ONE_WINDOW_AT_A_TIME, on_segment=on_segment,
                                                 on_status=statuses.append)

        first_shown = shown[0]
        assert first_shown in transcript.segments, "a segment shown before the crash is kept as it was"
        assert_nothing_twice_nothing_lost(transcript.text, " ".join(s.text for s in shown))
        assert_in_order_without_overlap(transcript.segments)

        [event] = log.events()
        assert (event.job, event.stage) == ("meeting.wav", "transcribe")
        assert "graphics driver stopped responding" in event.error
        assert "Doctor" in event.fix
        assert "The graphics driver stopped responding; continuing on the CPU…" in statuses
        assert log.gpu_unusable
        assert transcriber.loaded == "tiny-test (ct2, CPU)"
        assert transcriber.plan(TranscribeSettings(model="tiny-test")).device == "cpu"
        # The GPU stays unusable for the session, even after the model is released.
        transcriber.release()
        assert transcriber.plan(TranscribeSettings(model="tiny-test")).device == "cpu"
    finally:
        transcriber.release()


def test_a_hung_gpu_engine_is_stopped_after_the_set_time_and_the_file_finished_on_the_cpu(store, meeting):
    log = FallbackLog()
    transcriber = TranscriberOnAFakeGpu(store, log, gpu_hang_seconds=HANG_SECONDS)
    on_segment, shown = signal_at_first_segment(transcriber, signal.SIGSTOP)
    try:
        began = time.monotonic()
        transcript = transcriber.transcribe_file(meeting, ONE_WINDOW_AT_A_TIME, on_segment=on_segment)
        assert time.monotonic() - began >= HANG_SECONDS
        assert shown[0] in transcript.segments
        assert_nothing_twice_nothing_lost(transcript.text, " ".join(s.text for s in shown))
        [event] = log.events()
        assert "graphics driver stopped responding" in event.error
        assert log.gpu_unusable
        assert transcriber.gpu_engines[0].pid is None, "the stopped process is killed, not left behind"
    finally:
        transcriber.release()


@pytest.fixture(scope="module")
def five_minute_meeting(tmp_path_factory):
    """The meeting said fourteen times over: about 290 s, so at least ten 30-second windows, in one chunk."""
    return write_meeting(tmp_path_factory.mktemp("audio") / "five minutes.wav", 14)


def test_a_crash_on_the_cpu_fails_the_file_in_plain_words_and_the_next_file_works(store, five_minute_meeting):
    transcriber = Transcriber(store, FallbackLog(), gpu_available=lambda: False)

    # The engine shows the first window's segments with at least nine windows of the chunk still to decode,
    # and its result comes only after them. The segment, not a guess at how fast this processor
    # decodes, says when to crash it: the signal, sent as that segment arrives, finds the engine at
    # work unless this process stalls for as long as nine windows take to decode (seconds on any
    # processor). A longer file costs no time: the crash ends it.
    def crash_at_first_segment(segment) -> None:
        if not crashed:
            crashed.append(segment)
            os.kill(transcriber._engine.pid, signal.SIGSEGV)

    crashed: list = []
    try:
        with pytest.raises(UserFacingError) as error:
            transcriber.transcribe_file(five_minute_meeting, ONE_WINDOW_AT_A_TIME, on_segment=crash_at_first_segment)
        assert error.value.message == ENGINE_CRASHED
        assert crashed[0].end <= 30.0, "the crash came in the first of the file's ten windows"

        transcript = transcriber.transcribe_file(DATA_DIR / "jfk.flac", TranscribeSettings(model="tiny-test", language="en"))
        assert wer(JFK, transcript.text) <= 0.1, transcript.text  # two words of 22: the next file is heard
    finally:
        transcriber.release()


def test_releasing_the_model_ends_the_engine_process(store):
    transcriber = Transcriber(store, FallbackLog(), gpu_available=lambda: False)
    transcriber.transcribe_file(DATA_DIR / "jfk.flac", TranscribeSettings(model="tiny-test", language="en"))
    pid = transcriber._engine.pid
    assert is_running(pid)
    transcriber.release()
    assert not is_running(pid)
