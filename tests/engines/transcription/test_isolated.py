"""The engine process on its own: the same words as in this process, real signals for crashes and
hangs, cancel while a library call runs, and no engine process left behind."""
from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import textwrap
import threading
import time
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from desktop.core.common.errors import Cancelled, ModelError, UserFacingError
from desktop.core.transcription.whisper_models import LocalModel
from desktop.engines.transcription.engine import TranscribeOptions
from desktop.engines.transcription.process import started_ahead
from desktop.engines.transcription.process.isolated import ENGINE_CRASHED, ENGINE_HUNG, IsolatedEngine
from desktop.engines.transcription.decoders.loading import load_engine
from tests.helpers.weights import normalize_english, recording, reference, tiny_en_dir

ROOT = Path(__file__).resolve().parents[3]
ENGLISH = TranscribeOptions(language="en")


def tiny_model() -> LocalModel:
    return LocalModel(name="tiny-test", format="ct2", path=tiny_en_dir(), imported=True)


def is_running(pid: int) -> bool:
    """Alive and not a zombie waiting to be reaped."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def ends_within(pid: int, seconds: float) -> bool:
    """Whether the process ends (or is a zombie) within ``seconds``."""
    deadline = time.monotonic() + seconds
    while is_running(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    return not is_running(pid)


@pytest.fixture(scope="module")
def long_speech() -> np.ndarray:
    """JFK and the LJ Speech sentence, six times each (about two minutes): long enough to stop part-way."""
    pause = np.zeros(16000, dtype=np.float32)
    return np.concatenate([recording("jfk.flac"), pause, recording("lj050-0131.wav"), pause] * 6)


@pytest.fixture(scope="module")
def engine():
    engine = IsolatedEngine(tiny_model(), "ct2", "cpu").load()
    yield engine
    engine.close()


def test_the_engine_process_transcribes_the_same_words_as_this_process(engine):
    here = load_engine(tiny_model(), "ct2", "cpu")
    try:
        for name in ("jfk.flac", "lj050-0131.wav"):
            audio = recording(name)
            streamed = []
            isolated = engine.transcribe(audio, ENGLISH, on_segment=streamed.append)
            local = here.transcribe(audio, ENGLISH)
            assert [(s.text, s.start, s.end) for s in isolated.segments] == \
                   [(s.text, s.start, s.end) for s in local.segments]
            assert streamed == isolated.segments
            assert isolated.speech == local.speech and isolated.language == local.language == "en"
            assert isolated.avg_logprobs == pytest.approx(local.avg_logprobs)
            facts = (isolated.compute_type, isolated.device, isolated.batch_size, isolated.bf16_encoder)
            assert facts == (local.compute_type, local.device, local.batch_size, local.bf16_encoder)
            assert facts == ("int8", "cpu", 1, False), "how the engine decoded comes back with the result"
    finally:
        here.close()


def test_the_model_stays_loaded_between_files(engine):
    pid = engine.pid
    engine.transcribe(recording("jfk.flac"), ENGLISH)
    engine.transcribe(recording("lj050-0131.wav"), ENGLISH)
    assert engine.pid == pid


def test_where_whisper_samples_two_engine_processes_give_the_same_words():
    """Unsure, Whisper samples (its temperature fallback); each engine process starts from one seed."""
    hot = TranscribeOptions(language="en", temperature=1.0, beam_size=1)
    texts = []
    for _ in range(2):
        engine = IsolatedEngine(tiny_model(), "ct2", "cpu").load()
        try:
            texts.append([s.text for s in engine.transcribe(recording("lj050-0131.wav"), hot).segments])
        finally:
            engine.close()
    assert texts[0] == texts[1]


def test_faster_whisper_on_the_cpu_runs_without_torch_in_the_engine_process(engine):
    engine.transcribe(recording("jfk.flac"), ENGLISH)
    with open(f"/proc/{engine.pid}/maps") as maps:
        libraries = maps.read()
    assert "ctranslate2" in libraries
    assert "libtorch" not in libraries


def test_openai_whisper_on_torch_runs_in_the_engine_process_too():
    engine = IsolatedEngine(tiny_model(), "torch", "cpu").load()
    try:
        result = engine.transcribe(recording("jfk.flac"), ENGLISH)
    finally:
        engine.close()
    assert normalize_english(" ".join(s.text for s in result.segments)) == normalize_english(reference("jfk.flac"))


def engine_processes() -> set[int]:
    """The engine processes this test process started that still run."""
    found = set()
    for entry in Path("/proc").iterdir():
        try:
            stat = (entry / "stat").read_text()
            command = (entry / "cmdline").read_bytes()
        except (OSError, ValueError):
            continue
        fields = stat.rsplit(")", 1)[1].split()
        if fields[1] == str(os.getpid()) and fields[0] != "Z" and b"engine_process" in command:
            found.add(int(entry.name))
    return found


def test_a_damaged_model_is_a_plain_sentence_and_leaves_no_engine_process(tmp_path):
    before = engine_processes()
    damaged = tmp_path / "tiny-damaged"
    shutil.copytree(tiny_en_dir(), damaged)
    with open(damaged / "model.bin", "r+b") as model:
        model.truncate(4096)
    engine = IsolatedEngine(LocalModel("tiny-damaged", "ct2", damaged, True), "ct2", "cpu")
    with pytest.raises(ModelError) as error:
        engine.load()
    assert "damaged" in error.value.message and error.value.message.context == "Engine"
    assert engine.pid is None
    assert engine_processes() == before


# Windows one after another: the first segment arrives with at least four of long_speech's 30-second
# windows still to decode, so a signal sent then finds the engine at work on any processor. (In a
# batch every segment arrives at the batch's end; after the last batch the result follows at once.)
ONE_WINDOW_AT_A_TIME = replace(ENGLISH, batch_size=1)


def stop_at_first_segment(engine: IsolatedEngine, sig: signal.Signals, audio: np.ndarray):
    """Transcribe, sending ``sig`` to the engine process as soon as the first segment arrives."""
    def on_segment(_segment) -> None:
        if not sent:
            sent.append(engine.pid)
            os.kill(engine.pid, sig)

    sent: list[int] = []
    return lambda: engine.transcribe(audio, ONE_WINDOW_AT_A_TIME, on_segment=on_segment), sent


def test_a_segfault_on_the_cpu_is_a_plain_sentence_and_the_next_file_starts_a_new_process(long_speech):
    engine = IsolatedEngine(tiny_model(), "ct2", "cpu").load()
    try:
        run, sent = stop_at_first_segment(engine, signal.SIGSEGV, long_speech)
        with pytest.raises(UserFacingError) as error:
            run()
        assert error.value.message == ENGINE_CRASHED
        assert "SIGSEGV" in error.value.detail
        assert "Segmentation fault" in error.value.detail, "the engine's own last words are kept for the log"
        assert not is_running(sent[0])

        again = engine.transcribe(recording("jfk.flac"), ENGLISH)
        assert normalize_english(" ".join(s.text for s in again.segments)) == normalize_english(reference("jfk.flac"))
        assert engine.pid not in (None, sent[0])
    finally:
        engine.close()


def test_an_engine_process_that_stops_answering_is_taken_for_hung_after_the_set_time(long_speech):
    engine = IsolatedEngine(tiny_model(), "ct2", "cpu").load()
    engine.hang_seconds = 10.0  # after loading, and longer than a busy machine takes to the first segment
    try:
        run, sent = stop_at_first_segment(engine, signal.SIGSTOP, long_speech)
        began = time.monotonic()
        with pytest.raises(UserFacingError) as error:
            run()
        waited = time.monotonic() - began
        assert error.value.message == ENGINE_HUNG.format(seconds="10")
        assert "stopped responding for 10 seconds" in error.value.message
        assert sent and waited >= 10.0
        assert not is_running(sent[0]), "the stopped process is killed, not left behind"
    finally:
        engine.close()


def cancel_after_first_segment(engine: IsolatedEngine, audio: np.ndarray, *, stop_first: bool):
    """(seconds from the cancel to Cancelled, the engine's pid); stop_first: the engine is stuck."""
    cancelled = threading.Event()
    asked: list[float] = []
    pids: list[int] = []

    def on_segment(_segment) -> None:
        if not asked:
            pids.append(engine.pid)
            if stop_first:
                os.kill(engine.pid, signal.SIGSTOP)  # as if stuck inside a library call
            asked.append(time.monotonic())
            cancelled.set()

    with pytest.raises(Cancelled):
        engine.transcribe(audio, ENGLISH, on_segment=on_segment, cancelled=cancelled.is_set)
    return time.monotonic() - asked[0], pids[0]


def test_cancel_ends_a_job_at_once_even_when_the_engine_is_stuck_in_a_library_call(engine, long_speech):
    took, pid = cancel_after_first_segment(engine, long_speech, stop_first=True)
    assert took < 5.0
    assert not is_running(pid)
    # The next request starts a new engine process with the model.
    result = engine.transcribe(recording("jfk.flac"), ENGLISH)
    assert "country" in result.segments[-1].text


def test_cancel_while_the_engine_answers_stops_the_job_the_same_way(engine, long_speech):
    took, _pid = cancel_after_first_segment(engine, long_speech, stop_first=False)
    assert took < 5.0
    assert "country" in engine.transcribe(recording("jfk.flac"), ENGLISH).segments[-1].text


def test_closing_the_engine_ends_its_process(engine):
    other = IsolatedEngine(tiny_model(), "ct2", "cpu").load()
    pid = other.pid
    assert is_running(pid)
    other.close()
    assert not is_running(pid) and other.pid is None


def test_an_engine_process_started_ahead_is_the_one_the_model_loads_in():
    pid = started_ahead.start_ahead()
    engine = IsolatedEngine(tiny_model(), "ct2", "cpu").load()
    try:
        assert engine.pid == pid
        assert "country" in engine.transcribe(recording("jfk.flac"), ENGLISH).segments[-1].text
    finally:
        engine.close()
    assert not is_running(pid)


def test_an_engine_process_started_ahead_that_died_is_replaced_by_a_new_one():
    pid = started_ahead.start_ahead()
    os.kill(pid, signal.SIGKILL)
    assert ends_within(pid, 10)
    engine = IsolatedEngine(tiny_model(), "ct2", "cpu").load()
    try:
        assert engine.pid != pid
        assert "country" in engine.transcribe(recording("jfk.flac"), ENGLISH).segments[-1].text
    finally:
        engine.close()


def test_an_engine_process_started_ahead_and_never_used_ends_with_voxdesk():
    script = textwrap.dedent("""
        from desktop.engines.transcription.process.started_ahead import start_ahead
        print(start_ahead(), flush=True)
    """)
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    pid = int(done.stdout.split()[0])
    assert ends_within(pid, 30)


def test_an_engine_dropped_without_closing_takes_its_process_along():
    import gc

    other = IsolatedEngine(tiny_model(), "ct2", "cpu").load()
    pid = other.pid
    del other
    gc.collect()
    assert not is_running(pid)


def test_an_engine_process_ends_when_voxdesk_dies_without_closing_it(tmp_path):
    script = textwrap.dedent(f"""
        import os, signal
        from desktop.core.transcription.whisper_models import LocalModel
        from desktop.engines.transcription.process.isolated import IsolatedEngine
        engine = IsolatedEngine(LocalModel("tiny", "ct2", {str(tiny_en_dir())!r}, True), "ct2", "cpu").load()
        print(engine.pid, flush=True)
        os.kill(os.getpid(), signal.SIGKILL)  # no atexit, no close: only the kernel cleans up
    """)
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == -signal.SIGKILL, done.stderr[-2000:]
    pid = int(done.stdout.split()[0])
    assert ends_within(pid, 10)
