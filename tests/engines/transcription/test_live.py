"""Live captions through the real stack: a virtual microphone on the private PulseAudio server speaks
real recordings in real time, PortAudio captures them, the real Whisper base model captions them.

Timings are never asserted here (the machine is shared); benchmarks/live_benchmark.py measures them.
"""
from __future__ import annotations

import time
from collections.abc import Iterator

import numpy as np
import opencc
import pytest

from desktop.core.common.audio import decode
from desktop.core.gpu.fallback import FallbackLog
from desktop.core.transcription.whisper_models import ModelStore
from desktop.engines.transcription.live.captioner import LiveOptions
from desktop.engines.transcription.live.session import DEVICE_LOST, LiveSession
from desktop.engines.transcription.decoders.loading import load_engine
from desktop.engines.transcription.transcriber import TranscribeSettings, Transcriber
from tests.helpers.pulseaudio import pulseaudio, pulseaudio_server  # noqa: F401 - fixtures
from tests.helpers.speaking_microphone import RATE, SpeakingMicrophone
from tests.helpers.weights import DATA_DIR, ModelRef, base_dir, error_rate, normalize_english, reference, wer

pytestmark = [pytest.mark.slow, pytest.mark.timeout(600)]

AISHELL = ["BAC009S0764W0121.wav", "BAC009S0764W0122.wav"]


@pytest.fixture(scope="module")
def engine():
    engine = load_engine(ModelRef("base", "ct2", base_dir()), "ct2", "cpu")
    yield engine
    engine.close()


@pytest.fixture(scope="module")
def file_transcriber(tmp_path_factory) -> Iterator[Transcriber]:
    transcriber = Transcriber(ModelStore(tmp_path_factory.mktemp("models")), FallbackLog(),
                              gpu_available=lambda: False)
    yield transcriber
    transcriber.release()


def file_text(transcriber: Transcriber, name: str, language: str | None) -> str:
    settings = TranscribeSettings(model=str(base_dir()), engine="ct2", device="cpu", language=language)
    return transcriber.transcribe_file(DATA_DIR / name, settings).text


def speech(name: str) -> np.ndarray:
    return decode(DATA_DIR / name, sample_rate=RATE)


def silence(seconds: float) -> np.ndarray:
    return np.zeros(int(seconds * RATE), np.float32)


def wait_for(condition, timeout: float = 120.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "the session never got there"
        time.sleep(0.05)


def character_error_rate(ref: str, hyp: str) -> float:
    return error_rate([ch for ch in ref if ch.isalnum()], [ch for ch in hyp if ch.isalnum()])


def test_english_from_the_microphone_matches_the_file_transcription(pulseaudio, engine, file_transcriber, tmp_path):
    committed, guesses = [], []
    with SpeakingMicrophone(pulseaudio, tmp_path) as microphone:
        session = LiveSession(engine, LiveOptions(language="en"), folder=tmp_path / "live",
                              on_commit=committed.append, on_tentative=guesses.append)
        session.start()
        microphone.say(np.concatenate([silence(1.0), speech("jfk.flac")]), then_silence=2.0)
        wait_for(lambda: session.seconds >= 13.5)
        result = session.stop()

    live = "".join(line.segment.text for line in committed)
    assert wer(file_text(file_transcriber, "jfk.flac", "en"), live) <= 0.10, live
    starts = [line.segment.start for line in committed]
    assert starts == sorted(starts) and len(committed) >= 2  # utterance by utterance, in order
    # Each line is timed on the recording: the speech starts after the second of silence.
    assert 0.5 <= committed[0].segment.start < 2.5
    assert all(line.segment.end <= result.seconds for line in committed)
    assert any(text for text in guesses)  # a changing line was shown while he spoke
    # The recording holds all of it, and it is what the microphone heard.
    assert result.seconds == pytest.approx(result.captured) and result.seconds >= 13.0
    recorded = decode(result.recording)
    assert normalize_english("ask not what your country can do for you") in normalize_english(
        file_transcriber_text_of(file_transcriber, result.recording))
    assert len(recorded) / 16000 == pytest.approx(result.seconds, abs=0.05)


def file_transcriber_text_of(transcriber: Transcriber, path) -> str:
    settings = TranscribeSettings(model=str(base_dir()), engine="ct2", device="cpu", language="en")
    return transcriber.transcribe_file(path, settings).text


def test_mandarin_from_the_microphone_matches_the_file_transcription(pulseaudio, engine, file_transcriber,
                                                                      tmp_path):
    committed = []
    spoken = [silence(0.8)]
    for name in AISHELL:
        spoken += [speech(name), silence(1.5)]
    with SpeakingMicrophone(pulseaudio, tmp_path) as microphone:
        session = LiveSession(engine, LiveOptions(language=None), folder=tmp_path / "live",
                              on_commit=committed.append)
        session.start()
        microphone.say(np.concatenate(spoken), then_silence=1.0)
        wait_for(lambda: session.seconds >= sum(len(s) for s in spoken) / RATE + 0.8)
        result = session.stop()

    # Both measured against what was said: the file transcription and the captions may each make a mistake
    # the other does not (which one, and where, differs between processors), and the captions may be no
    # more than 10 points worse than the file's.
    said = "".join(reference(name) for name in AISHELL)
    from_file = "".join(file_text(file_transcriber, name, None) for name in AISHELL)
    live = "".join(line.segment.text for line in committed)
    assert character_error_rate(said, live) <= character_error_rate(said, from_file) + 0.10, (said, from_file, live)
    assert result.lines.language == "zh"
    # Simplified characters, as in file transcription (no character OpenCC would still simplify).
    assert opencc.OpenCC("t2s").convert(live) == live
    first_clip_end = 0.8 + len(speech(AISHELL[0])) / RATE
    assert committed[0].segment.start < first_clip_end <= committed[-1].segment.end


class SlowEngine:
    """The real engine, a second slower per decode: captions fall behind what is captured."""

    def __init__(self, engine):
        self._engine = engine
        self.name, self.device, self.model_name = engine.name, engine.device, engine.model_name

    def transcribe(self, audio, options, **kwargs):
        time.sleep(1.0)
        return self._engine.transcribe(audio, options, **kwargs)

    def close(self) -> None:
        pass


def test_stopping_mid_sentence_keeps_the_whole_recording_and_captions_all_of_it(pulseaudio, engine, tmp_path):
    committed = []
    with SpeakingMicrophone(pulseaudio, tmp_path) as microphone:
        session = LiveSession(SlowEngine(engine), LiveOptions(language="en", tentative=False),
                              folder=tmp_path / "live", on_commit=committed.append)
        session.start()
        # Stopped while he says "…ask not what your country can do for you": mid-sentence.
        microphone.say(speech("jfk.flac")[: int(7.0 * RATE)])
        captured_before_stop = session.seconds
        result = session.stop()

    assert result.note is None
    assert result.seconds == pytest.approx(result.captured)
    assert result.seconds >= max(6.5, captured_before_stop)
    assert len(decode(result.recording)) / 16000 == pytest.approx(result.seconds, abs=0.05)
    live = normalize_english("".join(line.segment.text for line in committed))
    assert "fellow americans" in live
    assert "your country" in live  # the words still being spoken at Stop were captioned too


def test_unplugging_the_microphone_mid_session_keeps_what_was_captured(pulseaudio, engine, tmp_path):
    problems, committed = [], []
    microphone = SpeakingMicrophone(pulseaudio, tmp_path).plug_in()
    try:
        session = LiveSession(engine, LiveOptions(language="en", tentative=False), folder=tmp_path / "live",
                              on_commit=committed.append, on_problem=problems.append)
        session.start()
        microphone.say(speech("jfk.flac")[: int(3.5 * RATE)], then_silence=1.0)
    finally:
        microphone.unplug()  # the source module is unloaded, as when a USB headset is pulled out
    wait_for(lambda: session.ended, timeout=60)
    result = session.stop()

    assert problems == [DEVICE_LOST] and result.note == DEVICE_LOST
    assert "disconnected" in DEVICE_LOST and "kept" in DEVICE_LOST
    assert result.seconds >= 4.0 and result.seconds == pytest.approx(result.captured)
    assert len(decode(result.recording)) / 16000 == pytest.approx(result.seconds, abs=0.05)
    assert "fellow americans" in normalize_english("".join(line.segment.text for line in committed))
