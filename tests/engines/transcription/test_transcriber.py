"""The one transcription path behind the window and the CLI: engine and device choice, long files in
chunks, and the GPU failing mid-job (the AMD GPU is the one part faked here)."""
from __future__ import annotations

import numpy as np
import pytest

from desktop.core.common.errors import ModelError, UserFacingError
from desktop.core.gpu.fallback import FallbackLog
from desktop.core.transcription.whisper_models import ModelStore
from desktop.engines.transcription.transcriber import TranscribeSettings, Transcriber
from tests.helpers.weights import DATA_DIR, normalize_english, recording, reference, tiny_en_dir

JFK_WORDS = normalize_english(reference("jfk.flac"))
HIP_INVALID_DEVICE_FUNCTION = "HIP error: invalid device function"


def write_wav(path, samples, rate=16000):
    import av

    with av.open(str(path), "w") as container:
        stream = container.add_stream("pcm_s16le", rate=rate, layout="mono")
        frame = av.AudioFrame.from_ndarray((np.clip(samples, -1, 1) * 32767).astype(np.int16)[None, :],
                                           format="s16", layout="mono")
        frame.rate = rate
        for packet in stream.encode(frame):
            container.mux(packet)
        for packet in stream.encode(None):
            container.mux(packet)
    return path


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    store = ModelStore(tmp_path_factory.mktemp("models"))
    store.import_model(tiny_en_dir(), "tiny-test")
    return store


class FailingGpuEngine:
    """Stands in for openai-whisper on a Radeon whose kernels are missing from the installed wheel."""

    name, device, model_name = "torch", "cuda", "tiny-test"

    def __init__(self, error: str = HIP_INVALID_DEVICE_FUNCTION):
        self.error = error
        self.closed = False
        self.calls = 0

    def transcribe(self, audio, options, **_):
        self.calls += 1
        raise RuntimeError(self.error)

    def expect(self, seconds):
        pass

    def close(self):
        self.closed = True


class TranscriberWithBrokenGpu(Transcriber):
    """The real Transcriber and real CPU engines; only the GPU engine is the fake above."""

    def __init__(self, store, log, gpu_engine):
        super().__init__(store, log, gpu_available=lambda: True, ct2_gpu_count=lambda: 0)
        self.gpu_engine = gpu_engine

    def _load(self, model, plan):
        if plan.device == "cuda":
            return self.gpu_engine
        return super()._load(model, plan)


def tiny(**overrides) -> TranscribeSettings:
    return TranscribeSettings(model="tiny-test", **overrides)


def test_without_a_gpu_automatic_means_faster_whisper_on_the_cpu(store):
    transcriber = Transcriber(store, FallbackLog(), gpu_available=lambda: False)
    plan = transcriber.plan(tiny())
    assert (plan.engine, plan.device) == ("ct2", "cpu")


def test_with_a_working_gpu_automatic_means_openai_whisper_on_the_gpu(store):
    transcriber = Transcriber(store, FallbackLog(), gpu_available=lambda: True, ct2_gpu_count=lambda: 0)
    plan = transcriber.plan(tiny())
    assert (plan.engine, plan.device) == ("torch", "cuda")


def test_faster_whisper_never_gets_the_gpu_just_because_torch_has_one(store):
    transcriber = Transcriber(store, FallbackLog(), gpu_available=lambda: True, ct2_gpu_count=lambda: 0)
    plan = transcriber.plan(tiny(engine="ct2"))
    assert (plan.engine, plan.device) == ("ct2", "cpu")


def test_forcing_the_gpu_on_a_machine_without_one_is_a_clear_error(store):
    transcriber = Transcriber(store, FallbackLog(), gpu_available=lambda: False)
    with pytest.raises(UserFacingError, match="no working GPU"):
        transcriber.plan(tiny(device="gpu"))


def test_a_model_that_is_not_on_disk_is_named_for_download_in_the_engines_format(store):
    cpu = Transcriber(store, FallbackLog(), gpu_available=lambda: False)
    gpu = Transcriber(store, FallbackLog(), gpu_available=lambda: True, ct2_gpu_count=lambda: 0)
    assert cpu.missing_model(TranscribeSettings(model="small")) == ("small", "ct2")
    assert gpu.missing_model(TranscribeSettings(model="small")) == ("small", "pt")
    assert cpu.missing_model(tiny()) is None


def test_an_unknown_model_name_is_a_plain_error(store):
    transcriber = Transcriber(store, FallbackLog(), gpu_available=lambda: False)
    with pytest.raises(ModelError, match="no model called"):
        transcriber.missing_model(TranscribeSettings(model="enormous-v9"))


def test_a_hip_failure_on_the_gpu_finishes_the_file_on_the_cpu_and_records_the_fallback(store):
    log = FallbackLog()
    gpu = FailingGpuEngine()
    transcriber = TranscriberWithBrokenGpu(store, log, gpu)

    transcript = transcriber.transcribe_file(DATA_DIR / "jfk.flac", tiny(language="en"))

    assert normalize_english(transcript.text) == JFK_WORDS
    [event] = log.events()
    assert (event.job, event.stage) == ("jfk.flac", "transcribe")
    assert "invalid device function" in event.error
    assert event.fix
    assert gpu.closed, "the failed GPU model is released"
    assert transcriber.loaded == "tiny-test (ct2, CPU)"
    assert transcript.engine.device == "cpu", "the transcript says the computer that finished it"


def test_after_a_gpu_failure_the_next_file_goes_straight_to_the_cpu(store):
    log = FallbackLog()
    gpu = FailingGpuEngine()
    transcriber = TranscriberWithBrokenGpu(store, log, gpu)
    transcriber.transcribe_file(DATA_DIR / "jfk.flac", tiny(language="en"))

    transcript = transcriber.transcribe_file(DATA_DIR / "jfk.flac", tiny(language="en"))

    assert normalize_english(transcript.text) == JFK_WORDS
    assert gpu.calls == 1 and len(log.events()) == 1


def test_out_of_memory_retries_on_the_gpu_with_a_smaller_search_before_falling_back(store):
    log = FallbackLog()
    gpu = FailingGpuEngine("HIP out of memory. Tried to allocate 2.00 GiB.")
    transcriber = TranscriberWithBrokenGpu(store, log, gpu)

    transcript = transcriber.transcribe_file(DATA_DIR / "jfk.flac", tiny(language="en"))

    assert normalize_english(transcript.text) == JFK_WORDS
    assert gpu.calls == 2, "one try with the beam, one greedy retry"
    assert "out of memory" in log.events()[0].error.lower()


def test_a_long_recording_read_in_chunks_keeps_every_word_on_the_original_timeline(store, tmp_path):
    jfk = recording("jfk.flac")
    pause = np.zeros(16000 * 3, dtype=np.float32)
    path = write_wav(tmp_path / "three times.wav", np.concatenate([jfk, pause, jfk, pause, jfk]))
    second_start = (len(jfk) + len(pause)) / 16000
    transcriber = Transcriber(store, FallbackLog(), gpu_available=lambda: False, chunk_seconds=12.0)
    progress = []

    transcript = transcriber.transcribe_file(path, tiny(language="en"), on_progress=progress.append)

    assert normalize_english(transcript.text).count("ask what you can do for your country") == 3
    starts = [s.start for s in transcript.segments]
    assert starts == sorted(starts)
    assert all(a.end <= b.start for a, b in zip(transcript.segments, transcript.segments[1:]))
    assert any(abs(s.start - second_start) < 1.5 for s in transcript.segments), starts
    assert transcript.duration == pytest.approx(len(jfk) * 3 / 16000 + 6, abs=0.1)
    assert progress == sorted(progress) and progress[-1] == 1.0


def test_the_transcript_tells_how_the_engine_ran_and_the_json_does_not(store, tmp_path):
    path = write_wav(tmp_path / "jfk.wav", recording("jfk.flac"))
    transcriber = Transcriber(store, FallbackLog(), gpu_available=lambda: False)

    one_at_a_time = transcriber.transcribe_file(path, tiny(language="en", batch_size=1))

    assert one_at_a_time.engine is not None
    assert (one_at_a_time.engine.batch_size, one_at_a_time.engine.device) == (1, "cpu")
    assert "engine" not in one_at_a_time.to_dict()
    assert not hasattr(transcriber, "batch_size"), "the window reads the facts from the transcript, not here"


def test_silence_gives_an_empty_transcript(store, tmp_path):
    path = write_wav(tmp_path / "quiet.wav", np.zeros(16000 * 5, dtype=np.float32))
    transcript = Transcriber(store, FallbackLog(), gpu_available=lambda: False).transcribe_file(path, tiny())
    assert transcript.is_empty and transcript.segments == []


def test_a_file_that_is_not_audio_fails_with_a_sentence_and_the_model_stays_usable(store, tmp_path):
    bad = tmp_path / "notes.mp3"
    bad.write_text("minutes of the meeting")
    transcriber = Transcriber(store, FallbackLog(), gpu_available=lambda: False)
    with pytest.raises(UserFacingError) as error:
        transcriber.transcribe_file(bad, tiny())
    assert error.value.message.endswith(".")
    assert normalize_english(transcriber.transcribe_file(DATA_DIR / "jfk.flac", tiny(language="en")).text) == JFK_WORDS


def test_on_a_machine_without_gpu_drivers_a_cpu_transcription_never_loads_torch(tmp_path):
    """torch costs seconds and hundreds of MB to import; the CPU engine does not need it."""
    import subprocess
    import sys

    from tests.helpers.weights import base_dir

    # The child describes a machine without GPU drivers, whatever machine runs it.
    script = (
        "import sys\n"
        "import desktop.engines.transcription.plan as plan_module\n"
        "plan_module._GPU_DRIVER_NODES = ()\n"
        "from desktop.core.gpu.fallback import FallbackLog\n"
        "from desktop.core.transcription.whisper_models import ModelStore\n"
        "from desktop.engines.transcription.transcriber import TranscribeSettings, Transcriber\n"
        f"transcriber = Transcriber(ModelStore({str(tmp_path)!r}), FallbackLog())\n"
        f"text = transcriber.transcribe_file({str(DATA_DIR / 'jfk.flac')!r}, "
        f"TranscribeSettings(model={str(base_dir())!r}, language='en')).text\n"
        "print(transcriber.loaded.endswith('(ct2, CPU)'), 'country' in text, 'torch' in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300)
    assert done.stdout.split() == ["True", "True", "False"], done.stderr


def test_a_glossary_term_heard_in_one_chunk_steers_the_next_chunk_from_its_first_window(store, tmp_path):
    told = []

    class ListeningTranscriber(Transcriber):
        """The real Transcriber and CPU engine, noting which glossary terms each decoding was told of."""

        def _load(self, model, plan):
            engine = super()._load(model, plan)
            real = engine.transcribe

            def transcribe(audio, options, **kwargs):
                told.append(tuple(options.glossary_heard))
                return real(audio, options, **kwargs)

            engine.transcribe = transcribe
            return engine

    glossary = tmp_path / "office.txt"
    glossary.write_text("Americans\nKubernetes\n", encoding="utf-8")
    jfk = recording("jfk.flac")
    path = write_wav(tmp_path / "twice.wav", np.concatenate([jfk, np.zeros(16000, np.float32), jfk]))
    transcriber = ListeningTranscriber(store, FallbackLog(), gpu_available=lambda: False,
                                       chunk_seconds=jfk.size / 16000 + 0.5)
    try:
        transcriber.transcribe_file(path, tiny(language="en", glossary_files=(str(glossary),)))
    finally:
        transcriber.release()
    assert told[0] == ()  # nothing heard before the first chunk
    assert ("Americans",) in told[1:], "the second chunk starts knowing the term said in the first"
    assert all("Kubernetes" not in terms for terms in told)
