"""The server engine against a real faster-whisper-server process on 127.0.0.1 (serving the tiny.en
test weights), and the fallback to this computer when that server dies mid-file."""
from __future__ import annotations

import threading

import numpy as np
import pytest

from desktop.core.common.audio import SAMPLE_RATE
from desktop.core.gpu.fallback import FallbackLog
from desktop.core.transcription.server_config import ServerConfig
from desktop.core.transcription.whisper_models import ModelStore
from desktop.engines.transcription.engine import TranscribeOptions
from desktop.engines.transcription.server.fallback import SERVER_STAGE
from desktop.engines.transcription.transcriber import TranscribeSettings, Transcriber
from desktop.engines.transcription.server.engine import ServerWhisperEngine
from desktop.engines.transcription.server.pieces import cut_into_pieces
from tests.helpers.weights import (
    MAX_WER_BETWEEN_DECODERS,
    TINY_EN_MAX_WER,
    normalize_english,
    recording,
    reference,
    tiny_en_dir,
    wer,
)
from tests.helpers.whisper_server import RealWhisperServer

ENGLISH = ("jfk.flac", "lj050-0131.wav")


@pytest.fixture(scope="module")
def server():
    with RealWhisperServer(tiny_en_dir()) as running:
        yield running


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    store = ModelStore(tmp_path_factory.mktemp("models"))
    store.import_model(tiny_en_dir(), "tiny-test")
    return store


def no_gpu() -> bool:
    return False


def long_recording(path, repeats: int = 3, pause: float = 3.0):
    """The English test recordings one after another, ``repeats`` times, with pauses between them."""
    import soundfile

    silence = np.zeros(int(pause * SAMPLE_RATE), dtype=np.float32)
    parts = []
    for _ in range(repeats):
        for name in ENGLISH:
            parts += [recording(name), silence]
    soundfile.write(path, np.concatenate(parts), SAMPLE_RATE, subtype="PCM_16")
    return path


def words(transcript) -> list[str]:
    return normalize_english(" ".join(segment.text for segment in transcript.segments)).split()


def on_server(server, concurrency: int = 4, **extra) -> TranscribeSettings:
    return TranscribeSettings(model="tiny-test", engine="server", language="en",
                              server=ServerConfig(server.url, concurrency=concurrency, api_key="", **extra))


@pytest.mark.parametrize("name", ENGLISH)
def test_a_recording_through_the_server_gives_the_words_of_the_local_engine(server, store, name):
    from tests.helpers.weights import DATA_DIR

    streamed = []
    remote = Transcriber(store, FallbackLog(), gpu_available=no_gpu).transcribe_file(
        DATA_DIR / name, on_server(server), on_segment=streamed.append)
    local = Transcriber(store, FallbackLog(), gpu_available=no_gpu).transcribe_file(
        DATA_DIR / name, TranscribeSettings(model="tiny-test", engine="ct2", device="cpu", language="en"))

    said = reference(name)
    # The server and this computer are two decoders (tests.helpers.weights): never word for word.
    assert wer(said, remote.text) <= TINY_EN_MAX_WER, remote.text
    assert wer(said, local.text) <= TINY_EN_MAX_WER, local.text
    assert wer(local.text, remote.text) <= MAX_WER_BETWEEN_DECODERS, (local.text, remote.text)
    assert [segment.text for segment in streamed] == [segment.text for segment in remote.segments]
    assert remote.language == "en" and remote.segments[-1].end <= remote.duration + 0.05


def test_pieces_in_flight_at_once_give_the_same_transcript_as_one_at_a_time(server, tmp_path):
    audio = recording("jfk.flac")
    long = np.concatenate([np.concatenate([recording(n), np.zeros(3 * SAMPLE_RATE, np.float32)]) for n in ENGLISH * 3])
    results, most_in_flight = {}, {}
    for concurrency in (1, 4):
        engine = ServerWhisperEngine(ServerConfig(server.url, concurrency=concurrency), piece_seconds=12)
        most_in_flight[concurrency] = _count_in_flight(engine)
        progress = []
        results[concurrency] = engine.transcribe(long, TranscribeOptions(language="en"), on_progress=progress.append)
        engine.close()
        assert progress == sorted(progress) and progress[-1] == 1.0 and len(progress) > 3
    one, four = results[1], results[4]
    assert [(s.start, s.end, s.text) for s in one.segments] == [(s.start, s.end, s.text) for s in four.segments]
    assert most_in_flight[1]["max"] == 1 and most_in_flight[4]["max"] == 4
    # Times are on the long recording's timeline: the third sentence starts after two recordings and two pauses.
    third = next(s for s in four.segments if s.start > (audio.size / SAMPLE_RATE) + 3 + 7)
    assert third.start == pytest.approx(audio.size / SAMPLE_RATE + 3 + recording(ENGLISH[1]).size / SAMPLE_RATE + 3,
                                        abs=1.0)


def _count_in_flight(engine) -> dict:
    """Wraps the engine's requests to note how many were in flight at once at most."""
    seen = {"now": 0, "max": 0}
    lock = threading.Lock()
    ask = engine.ask

    def counted(*args, **kwargs):
        with lock:
            seen["now"] += 1
            seen["max"] = max(seen["max"], seen["now"])
        try:
            return ask(*args, **kwargs)
        finally:
            with lock:
                seen["now"] -= 1

    engine.ask = counted
    return seen


def test_a_server_killed_mid_file_hands_the_rest_to_this_computer_without_repeating_anything(store, tmp_path):
    path = long_recording(tmp_path / "meeting.wav", repeats=4)
    fallbacks = FallbackLog()
    transcriber = Transcriber(store, fallbacks, gpu_available=no_gpu)
    streamed, statuses = [], []
    with RealWhisperServer(tiny_en_dir()) as doomed:
        def kill_after_the_first(segment):
            streamed.append(segment)
            doomed.kill()  # the first piece is in; the server dies before the next one

        transcript = transcriber.transcribe_file(path, on_server(doomed, concurrency=1), on_segment=kill_after_the_first,
                                                 on_status=statuses.append)
    local = Transcriber(store, FallbackLog(), gpu_available=no_gpu).transcribe_file(
        path, TranscribeSettings(model="tiny-test", engine="ct2", device="cpu", language="en"))

    events = fallbacks.events()
    assert len(events) == 1 and events[0].stage == SERVER_STAGE
    assert events[0].error == "The transcription server at {host} cannot be reached.".format(host=doomed.url[7:])
    assert "Settings → Transcription server" in events[0].fix
    assert "The transcription server failed; continuing on this computer…" in statuses
    # Every sentence once, in order, never overlapping: nothing from the server's pieces came again.
    starts = [segment.start for segment in transcript.segments]
    assert starts == sorted(starts) and all(a.end <= b.start for a, b in zip(transcript.segments, transcript.segments[1:]))
    assert [s.text for s in streamed] == [s.text for s in transcript.segments]
    assert abs(len(words(transcript)) - len(words(local))) <= 3
    assert words(transcript).count("country") == words(local).count("country") == 8  # twice in each JFK


def test_speech_is_cut_in_the_pauses_and_long_stretches_at_their_quietest_moment():
    rate = SAMPLE_RATE
    audio = np.random.default_rng(1).normal(0, 0.1, 80 * rate).astype(np.float32)
    audio[45 * rate:int(45.3 * rate)] = 0  # the quiet moment inside a 50-second stretch
    stretches = [(0, 10 * rate), (12 * rate, 20 * rate), (25 * rate, 75 * rate)]
    pieces = cut_into_pieces(audio, stretches, seconds=30)
    assert [piece.ranges for piece in pieces] == [
        [(0, 10 * rate), (12 * rate, 20 * rate)],
        [(25 * rate, 45 * rate)],
        [(45 * rate, 75 * rate)],
    ]
    assert all(piece.samples <= 30 * rate for piece in pieces)


MANDARIN = ["BAC009S0764W0121.wav", "BAC009S0764W0122.wav"]


@pytest.mark.slow
def test_mandarin_from_the_server_gets_the_same_script_and_punctuation_rules_as_a_local_transcript(tmp_path):
    from desktop.core.transcription import chinese
    from tests.engines.transcription.test_chinese_transcripts import (
        TRADITIONAL_PROMPT,
        character_error_rate,
        has_traditional_only_characters,
    )
    from tests.helpers.weights import DATA_DIR, base_dir, reference

    transcriber = Transcriber(ModelStore(tmp_path / "models"), FallbackLog(), gpu_available=no_gpu)
    local = TranscribeSettings(model=str(base_dir()), engine="ct2", device="cpu", language="zh",
                               initial_prompt=TRADITIONAL_PROMPT)
    recognised = []
    with RealWhisperServer(base_dir()) as server:
        remote = TranscribeSettings(model=str(base_dir()), engine="server", language=None,
                                    initial_prompt=TRADITIONAL_PROMPT, server=ServerConfig(server.url, api_key=""))
        for name in MANDARIN:
            on_server = transcriber.transcribe_file(DATA_DIR / name, remote)
            here = transcriber.transcribe_file(DATA_DIR / name, local)
            assert on_server.language == "zh"  # detected by the server, as a Whisper code
            assert on_server.segments and not any(has_traditional_only_characters(s.text) for s in on_server.segments)
            assert on_server.text == chinese.tidy_text(on_server.text, "simplified")
            assert character_error_rate(reference(name), on_server.text) <= 0.2, on_server.text
            assert character_error_rate(here.text, on_server.text) <= 0.1, (here.text, on_server.text)
            recognised += [s.text_original or s.text for s in on_server.segments]
    # The prompt steered the server to Traditional characters, and the assembly converted them.
    assert any(has_traditional_only_characters(text) for text in recognised), recognised


@pytest.mark.parametrize("use, has_gpu, engine", [
    ("always", True, "server"),
    ("always", False, "server"),
    ("no_gpu", False, "server"),
    ("no_gpu", True, "torch"),
])
def test_the_server_is_used_for_all_files_or_only_without_a_working_gpu(store, use, has_gpu, engine):
    transcriber = Transcriber(store, FallbackLog(), gpu_available=lambda: has_gpu, ct2_gpu_count=lambda: 0)
    settings = TranscribeSettings(model="tiny-test", server=ServerConfig("http://gpu-server:8000", use=use))
    assert transcriber.plan(settings).engine == engine
    assert transcriber.missing_model(settings) is None


def test_the_server_engine_without_a_server_is_refused_with_a_sentence(store):
    from desktop.core.common.errors import UserFacingError

    with pytest.raises(UserFacingError) as raised:
        Transcriber(store, FallbackLog(), gpu_available=no_gpu).plan(TranscribeSettings(engine="server"))
    assert raised.value.message.startswith("No transcription server is set")


def test_each_piece_is_asked_with_the_glossary_terms_heard_in_the_pieces_before_it(server):
    long = np.concatenate([np.concatenate([recording(n), np.zeros(3 * SAMPLE_RATE, np.float32)]) for n in ENGLISH * 2])
    # More terms than fit in a prompt (each as long as "Americans"), the one JFK says last: only it is heard.
    terms = tuple(f"Item{n:05d}" for n in range(80)) + ("Americans",)
    engine = ServerWhisperEngine(ServerConfig(server.url, concurrency=1), piece_seconds=12)
    prompts = []
    real_ask = engine.ask

    def ask(samples, options, model):
        prompts.append(options.prompt_with_glossary())
        return real_ask(samples, options, model)

    engine.ask = ask
    try:
        result = engine.transcribe(long, TranscribeOptions(language="en", glossary_terms=terms))
    finally:
        engine.close()
    assert "Americans" in result.segments[0].text
    assert len(prompts) >= 3
    assert "Americans" not in (prompts[0] or "")
    assert all(prompt.startswith("Americans.") and "Item00000" not in prompt for prompt in prompts[1:])
