"""What a server's answer may hold, against a small server on 127.0.0.1 that answers the OpenAI-style
transcription request: its text made safe when it arrives, no more segments and text than speech can
hold, times placed inside the piece and in order, and a note in the transcript wherever anything was
changed or left out. Every export of the result is written."""
from __future__ import annotations

import json
import math

import numpy as np
import pytest
import srt

from desktop.core.common.audio import SAMPLE_RATE
from desktop.core.gpu.fallback import FallbackLog
from desktop.core.transcription import speech_limits
from desktop.core.transcription.server_config import ServerConfig
from desktop.core.transcription.subtitles import FORMATS, export
from desktop.core.transcription.whisper_models import ModelStore
from desktop.engines.transcription.engine import TranscribeOptions
from desktop.engines.transcription.server.client import Answer
from desktop.engines.transcription.transcriber import TranscribeSettings, Transcriber
from desktop.engines.transcription.server.answers import answer_segments
from desktop.engines.transcription.server.engine import ServerWhisperEngine
from tests.helpers.weights import DATA_DIR, recording
from tests.helpers.whisper_server import HostileServer

JFK_SECONDS = 11.0  # jfk.flac; its one piece of speech is no longer
TOO_MUCH = "The transcription server sent more text than anyone can say in that time"
TIMES_MOVED = "The transcription server sent impossible times"


def answer(*segments: tuple[float, float, str], words: list[dict] | None = None) -> dict:
    body = {"text": "".join(text for _, _, text in segments), "language": "english", "duration": JFK_SECONDS,
            "segments": [{"id": n, "start": start, "end": end, "text": text, "avg_logprob": -0.2}
                         for n, (start, end, text) in enumerate(segments)]}
    if words is not None:
        body["words"] = words
    return body


def transcribed(body: dict, tmp_path):
    """jfk.flac transcribed on a server that answers ``body`` to every piece; the transcript, with
    every format exported, and the fallbacks (there must be none: the answers are all accepted)."""
    fallbacks = FallbackLog()
    transcriber = Transcriber(ModelStore(tmp_path / "models"), fallbacks, gpu_available=lambda: False)
    with HostileServer(answers=[(200, body)]) as server:
        settings = TranscribeSettings(model="tiny-test", engine="server", language="en",
                                      server=ServerConfig(server.url, timeout=30.0, api_key=""))
        transcript = transcriber.transcribe_file(DATA_DIR / "jfk.flac", settings)
    assert fallbacks.events() == []
    files = {fmt: export(transcript, tmp_path / f"jfk.{fmt}", fmt).read_bytes().decode("utf-8") for fmt in FORMATS}
    return transcript, files


def on_engine(body: dict):
    """The server engine's own result for jfk.flac (one piece, no second look at it)."""
    with HostileServer(answers=[(200, body)]) as server:
        engine = ServerWhisperEngine(ServerConfig(server.url, timeout=30.0))
        try:
            return engine.transcribe(recording("jfk.flac"), TranscribeOptions(language="en"))
        finally:
            engine.close()


def warnings_of(transcript) -> list[str]:
    return [str(warning) for warning in transcript.warnings]


# -- item 5: text made safe ------------------------------------------------------------------------


HOSTILE_TEXT = answer(
    (0.0, 3.0, " And so my fellow\ud800 Americans,\x07\x1b[2J ask not"),
    (3.0, 5.5, " what your\u202e country\u2066 can do\ufeff for you,\x00"),
    (5.5, 8.0, " --> 00:00:01,000 ask what you can do"),
    (8.0, 11.0, " 你好，世界\u200b。 for your country."),
)


def test_surrogates_and_control_characters_from_the_server_never_reach_the_transcript_or_its_files(tmp_path):
    transcript, files = transcribed(HOSTILE_TEXT, tmp_path)
    texts = [segment.text for segment in transcript.segments]
    assert texts == [" And so my fellow\ufffd Americans, ask not", " what your country can do for you,",
                     " --> 00:00:01,000 ask what you can do", " 你好，世界。 for your country."]
    for fmt, text in files.items():
        for junk in ("\ud800", "\x07", "\x1b", "\u202e", "\u2066", "\ufeff", "\x00", "\u200b"):
            assert junk not in text, (fmt, repr(junk))
        assert "你好，世界。" in text, fmt


def test_an_arrow_in_the_servers_text_never_makes_a_timing_line(tmp_path):
    _, files = transcribed(HOSTILE_TEXT, tmp_path)
    for fmt in ("srt", "vtt"):
        timing = [line for line in files[fmt].splitlines() if "-->" in line]
        assert all(line[:2].isdigit() and line.count("-->") == 1 for line in timing), (fmt, timing)
    cues = list(srt.parse(files["srt"]))
    assert any("00:00:01,000 ask what you can do" in cue.content for cue in cues)
    assert all(cue.end.total_seconds() <= JFK_SECONDS + 0.01 for cue in cues)


def test_the_words_from_the_server_are_made_safe_too(tmp_path):
    body = answer((0.0, 3.0, " And so my fellow Americans"),
                  words=[{"word": w, "start": i * 0.6, "end": i * 0.6 + 0.5, "probability": 0.9}
                         for i, w in enumerate([" And", " so\x1b", " my\u202e", " fellow\ud800", " Americans"])])
    result = on_engine(body)
    assert [word.text for word in result.segments[0].words] == [" And", " so", " my", " fellow\ufffd", " Americans"]


# -- item 6: no more than speech can hold ---------------------------------------------------------


def test_thousands_of_segments_for_one_piece_are_cut_to_what_its_speech_can_hold():
    body = answer(*((n * 0.0005, n * 0.0005 + 0.0005, " word") for n in range(20_000)),
                  words=[{"word": " word", "start": n * 0.0005, "end": n * 0.0005 + 0.0005} for n in range(20_000)])
    result = on_engine(body)
    allowed = speech_limits.allowed(JFK_SECONDS)
    assert 0 < len(result.segments) <= allowed.segments
    assert sum(len(segment.words) for segment in result.segments) <= allowed.words
    assert [note.kind for note in result.notes] == [speech_limits.TOO_MUCH]


def test_a_megabyte_of_text_in_one_segment_is_cut_to_what_its_speech_can_hold():
    body = answer((0.0, 10.0, " blah" * 100_000))  # 500,000 characters for ten seconds
    result = on_engine(body)
    allowed = speech_limits.allowed(JFK_SECONDS)
    (segment,) = result.segments
    assert 0 < len(segment.text) <= allowed.characters
    assert set(segment.text.split()) == {"blah"}  # cut between words
    assert [note.kind for note in result.notes] == [speech_limits.TOO_MUCH]


def test_a_runaway_answer_ends_in_a_transcript_with_a_note_and_files_that_are_written(tmp_path):
    body = answer(*((n * 0.001, n * 0.001 + 0.001, " again and again") for n in range(10_000)))
    transcript, files = transcribed(body, tmp_path)
    allowed = speech_limits.allowed(JFK_SECONDS)
    assert sum(len(segment.text) for segment in transcript.segments) <= 4 * allowed.characters
    (note,) = [warning for warning in warnings_of(transcript) if warning.startswith(TOO_MUCH)]
    assert "0:00" in note  # where: the first part of the recording it concerns
    assert json.loads(files["json"])["warnings"] == warnings_of(transcript)


# -- item 12: times inside the piece, in order ----------------------------------------------------


ABSURD_TIMES = answer(
    (-5.0, 2.0, " And so my fellow Americans,"),
    (1e12, 1e308, " ask not what your country can do for you,"),
    (6.0, 3.0, " ask what you can do"),
    (2.0, 1e12, " for your country."),
    (-1e308, -1e12, " Thank you."),
)


def test_absurd_times_are_placed_inside_the_piece_in_order_with_a_note(tmp_path):
    transcript, files = transcribed(ABSURD_TIMES, tmp_path)
    spoken = [segment for segment in transcript.segments if segment.text.strip()]
    assert len(spoken) == 5
    for segment in spoken:
        assert 0.0 <= segment.start <= segment.end <= transcript.duration
    for before, after in zip(spoken, spoken[1:]):
        assert before.end <= after.start
    (note,) = [warning for warning in warnings_of(transcript) if warning.startswith(TIMES_MOVED)]
    assert "0:00" in note
    assert len(list(srt.parse(files["srt"]))) >= 5


def test_times_that_are_not_numbers_are_placed_after_the_segment_before():
    body = Answer(segments=[{"start": 0.0, "end": 2.0, "text": " And so"},
                            {"start": math.nan, "end": math.inf, "text": " my fellow"},
                            {"start": math.nan, "end": math.nan, "text": " Americans"}],
                  words=[{"word": " And", "start": math.nan, "end": 1.0}], language="en", text="")
    segments, kinds = answer_segments(body, 5.0)
    assert [segment.text for segment, _ in segments] == [" And so", " my fellow", " Americans"]
    assert all(math.isfinite(s.start) and 0.0 <= s.start <= s.end <= 5.0 for s, _ in segments)
    assert [s.start for s, _ in segments] == sorted(s.start for s, _ in segments)
    assert kinds == {speech_limits.TIMES_MOVED}


def test_nan_and_infinite_times_from_the_server_cost_only_those_times_not_the_servers_transcript(tmp_path):
    """JSON's NaN and Infinity (Python's json writes and reads them): the segments stay, placed in order."""
    body = answer((0.0, 2.5, " And so my fellow Americans,"), (math.nan, math.inf, " ask not what your country"),
                  (-math.inf, math.nan, " can do for you,"), (7.0, 10.5, " ask what you can do for your country."))
    assert b"NaN" in json.dumps(body).encode() and b"Infinity" in json.dumps(body).encode()
    transcript, files = transcribed(body, tmp_path)  # and no fallback to this computer
    spoken = [segment for segment in transcript.segments if segment.text.strip()]
    assert [segment.text.strip() for segment in spoken] == [
        "And so my fellow Americans,", "ask not what your country", "can do for you,",
        "ask what you can do for your country."]
    for segment in spoken:
        assert math.isfinite(segment.start) and 0.0 <= segment.start <= segment.end <= transcript.duration
    assert [segment.start for segment in spoken] == sorted(segment.start for segment in spoken)
    # A lost end lasts until the next time the server gave; the segments with good times keep theirs.
    assert (spoken[1].start, spoken[1].end) == (2.5, 7.0)
    assert (spoken[0].start, spoken[0].end, spoken[3].start, spoken[3].end) == (0.0, 2.5, 7.0, 10.5)
    assert [warning for warning in warnings_of(transcript) if warning.startswith(TIMES_MOVED)]
    assert len(list(srt.parse(files["srt"]))) >= 3
    assert "NaN" not in files["json"] and "Infinity" not in files["json"]


def test_a_plausible_answer_is_kept_whole_and_without_a_note():
    # Whisper's own habits: the last segment ends at its 30-second window, past the piece's speech.
    body = answer((0.0, 4.6, " And so my fellow Americans, ask not what your country can do for you,"),
                  (4.6, 30.0, " ask what you can do for your country."),
                  words=[{"word": " And", "start": 0.0, "end": 0.4}, {"word": " so", "start": 0.4, "end": 0.9}])
    result = on_engine(body)
    assert [segment.text for segment in result.segments] == [
        " And so my fellow Americans, ask not what your country can do for you,",
        " ask what you can do for your country."]
    assert result.segments[-1].end <= JFK_SECONDS and result.notes == []
    assert [word.text for word in result.segments[0].words] == [" And", " so"]


def test_the_limits_leave_room_for_the_fastest_speech_in_any_script():
    """Fast speech: about 7 syllables a second in English or Spanish (some 30 characters with the
    spaces), 8 morae in Japanese, 6 characters in Mandarin; a segment a second for short replies."""
    for seconds in (0.5, 2.0, 10.0, 30.0):
        allowed = speech_limits.allowed(seconds)
        assert allowed.characters >= 2 * 30 * seconds and allowed.characters >= 2 * 8 * seconds
        assert allowed.segments >= 2 * seconds and allowed.words >= 2 * 7 * seconds
    assert speech_limits.allowed(30.0).characters < 10_000 and speech_limits.allowed(30.0).segments < 1_000


def test_pieces_after_the_first_are_noted_at_their_own_time():
    silence = np.zeros(4 * SAMPLE_RATE, dtype=np.float32)
    audio = np.concatenate([recording("jfk.flac"), silence, recording("jfk.flac")])
    with HostileServer(answers=[(200, answer((0.0, 2.0, " And so"))), (200, ABSURD_TIMES)]) as server:
        engine = ServerWhisperEngine(ServerConfig(server.url, timeout=30.0, concurrency=1), piece_seconds=12.0)
        try:
            result = engine.transcribe(audio, TranscribeOptions(language="en"))
        finally:
            engine.close()
    (note,) = result.notes
    assert note.kind == speech_limits.TIMES_MOVED and note.start >= JFK_SECONDS


def test_a_note_stays_when_the_server_fails_later_and_the_rest_is_transcribed_here(tmp_path):
    import soundfile

    from desktop.engines.transcription.server.fallback import SERVER_STAGE
    from tests.helpers.weights import tiny_en_dir

    pause = np.zeros(3 * SAMPLE_RATE, dtype=np.float32)
    speech = recording("jfk.flac")
    path = tmp_path / "three times.wav"  # two pieces: jfk twice, then jfk once more
    soundfile.write(path, np.concatenate([speech, pause, speech, pause, speech]), SAMPLE_RATE, subtype="PCM_16")
    store = ModelStore(tmp_path / "models")
    store.import_model(tiny_en_dir(), "tiny-test")
    fallbacks = FallbackLog()
    refusal = {"error": {"message": "Invalid API key", "type": "auth"}}
    with HostileServer(answers=[(200, ABSURD_TIMES), (401, refusal)]) as server:
        settings = TranscribeSettings(model="tiny-test", engine="server", language="en",
                                      server=ServerConfig(server.url, timeout=30.0, concurrency=1, api_key=""))
        transcript = Transcriber(store, fallbacks, gpu_available=lambda: False).transcribe_file(path, settings)
    (event,) = fallbacks.events()
    assert event.stage == SERVER_STAGE
    (note,) = [warning for warning in warnings_of(transcript) if warning.startswith(TIMES_MOVED)]
    assert "the first at 0:00" in note
    assert "country" in transcript.segments[-1].text.lower() or any(
        "country" in segment.text.lower() for segment in transcript.segments if segment.start > 2 * JFK_SECONDS)
