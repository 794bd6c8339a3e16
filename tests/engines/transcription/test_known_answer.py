"""A GPU that proves its answers: the bundled test speech on the "GPU" and on the processor, compared.

The processor side is the real faster-whisper engine with real Whisper tiny.en weights; the GPU is the
one part that is a stand-in: one that gives the processor's words, one that gives other words. How
long each took comes from a clock the engines advance by what they stand for, so "slower" means the
same on every processor."""
from __future__ import annotations

import pytest

from desktop.core.gpu.fallback import FallbackLog
from desktop.core.gpu.known_answer import GpuVerdicts
from desktop.core.transcription.speed_records import SpeedRecords
from desktop.core.transcription.transcript import Segment
from desktop.core.transcription.whisper_models import ModelStore
from desktop.engines.transcription.engine import EngineResult
from desktop.engines.transcription.known_answer import GpuProof, check_gpu
from desktop.engines.transcription.decoders.loading import load_engine
from desktop.engines.transcription.computer_measurement import bundled_speech
from desktop.engines.transcription.transcriber import TranscribeSettings, Transcriber
from tests.engines.transcription.test_transcriber import write_wav
from tests.helpers.weights import tiny_en_dir

KEY = "this-machine-now"


class SimulatedClock:
    def __init__(self):
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


class TakesTime:
    """A real engine whose work counts ``seconds`` on the simulated clock."""

    def __init__(self, engine, clock, seconds, device=None):
        self.engine, self.clock, self.seconds = engine, clock, seconds
        self.name, self.model_name = engine.name, engine.model_name
        self.device = device or engine.device

    def transcribe(self, audio, options, **kwargs):
        self.clock.now += self.seconds
        return self.engine.transcribe(audio, options, **kwargs)

    def expect(self, seconds):
        self.engine.expect(seconds)

    def close(self):
        self.engine.close()


class OtherWordsGpu:
    """A GPU that runs without an error and answers with words that were never said."""

    name, device, model_name = "ct2", "cuda", "tiny-test"

    def __init__(self, clock):
        self.clock = clock

    def transcribe(self, audio, options, **_):
        self.clock.now += 1.0
        return EngineResult([Segment(0.0, 2.0, "Thank you. Thank you for watching, and see you next time.")], "en")

    def expect(self, seconds):
        pass

    def close(self):
        pass


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    store = ModelStore(tmp_path_factory.mktemp("models"))
    store.import_model(tiny_en_dir(), "tiny-test")
    return store


@pytest.fixture(scope="module")
def speech():
    return bundled_speech()


def loader_with(gpu_seconds: float | None, clock, other_words=False):
    """CPU: the real engine, 4 s a transcription; GPU: the real words in ``gpu_seconds``, or other words."""
    def load(model, engine, device):
        if device == "cuda" and other_words:
            return OtherWordsGpu(clock)
        real = load_engine(model, engine, "cpu")
        return TakesTime(real, clock, 4.0 if device == "cpu" else gpu_seconds, device=device)

    return load


def test_a_gpu_that_gives_the_processors_words_faster_passes(store, speech):
    clock = SimulatedClock()
    (model,) = store.local("tiny-test")
    verdict = check_gpu(model, "ct2", KEY, speech=speech, loader=loader_with(1.0, clock), clock=clock)
    assert verdict.word_error == 0.0 and verdict.usable and verdict.preferred
    assert (verdict.gpu_seconds, verdict.cpu_seconds) == (1.0, 4.0)


def test_a_gpu_that_gives_other_words_is_wrong(store, speech):
    clock = SimulatedClock()
    (model,) = store.local("tiny-test")
    verdict = check_gpu(model, "ct2", KEY, speech=speech, loader=loader_with(None, clock, other_words=True),
                        clock=clock)
    assert verdict.wrong and not verdict.usable
    assert verdict.sentence().startswith("The graphics card gave wrong results")
    assert "VoxDesk uses the processor. Fix:" in verdict.sentence()


def test_a_slower_gpu_is_usable_but_not_preferred(store, speech):
    clock = SimulatedClock()
    (model,) = store.local("tiny-test")
    verdict = check_gpu(model, "ct2", KEY, speech=speech, loader=loader_with(9.0, clock), clock=clock)
    assert verdict.usable and verdict.slower and not verdict.preferred
    assert "slower than the processor" in verdict.sentence() and "9.0 s against 4.0 s" in verdict.sentence()


class TranscriberOnStandInGpu(Transcriber):
    """The real Transcriber and the real CPU engine; the GPU engine is the stand-in of ``load``."""

    def __init__(self, store, log, proof, load):
        super().__init__(store, log, gpu_available=lambda: True, ct2_gpu_count=lambda: 1, isolate=False,
                         gpu_proof=proof)
        self.load = load

    def _load(self, model, plan):
        return self.load(model, plan.engine, plan.device)


def proof_in(tmp_path, clock):
    return GpuProof(GpuVerdicts(tmp_path / "gpu-answers.json"), SpeedRecords(tmp_path / "speeds.json"),
                    key=lambda: KEY, clock=clock)


def test_wrong_words_mark_the_gpu_unusable_with_a_sentence_and_the_file_is_done_on_the_processor(
        store, tmp_path, speech):
    clock = SimulatedClock()
    log = FallbackLog()
    proof = proof_in(tmp_path, clock)
    transcriber = TranscriberOnStandInGpu(store, log, proof, loader_with(None, clock, other_words=True))
    settings = TranscribeSettings(model="tiny-test", engine="ct2", device="auto")
    transcript = transcriber.transcribe_file(write_wav(tmp_path / "speech.wav", speech), settings)

    assert "thank you for watching" not in " ".join(s.text for s in transcript.segments).lower()
    assert log.gpu_unusable
    (event,) = log.events()
    assert event.error.startswith("The graphics card gave wrong results") and "Fix:" in event.fix
    assert transcriber.plan(settings).device == "cpu"  # not tried again this session
    assert proof.verdicts.latest("ct2", KEY).wrong  # kept: the next start knows


def test_a_slower_gpu_is_not_chosen_by_automatic_and_the_reason_is_kept_for_the_status_bar(store, tmp_path, speech):
    clock = SimulatedClock()
    proof = proof_in(tmp_path, clock)
    transcriber = TranscriberOnStandInGpu(store, FallbackLog(), proof, loader_with(9.0, clock))
    settings = TranscribeSettings(model="tiny-test", engine="ct2", device="auto")
    statuses = []
    transcriber.transcribe_file(write_wav(tmp_path / "speech.wav", speech), settings, on_status=statuses.append)
    assert transcriber.loaded.endswith("(ct2, CPU)")
    assert any("slower than the processor" in status for status in statuses)
    assert "slower than the processor" in transcriber.gpu_note

    automatic = TranscribeSettings(model="tiny-test")
    plan = transcriber.plan(automatic)  # faster-whisper is kept off the GPU; openai-whisper is not checked yet
    assert (plan.engine, plan.device) == ("torch", "cuda")
    transcriber.transcribe_file(tmp_path / "speech.wav", automatic)  # it is checked now, and slower too
    assert transcriber.loaded.endswith("CPU)")
    assert transcriber.plan(automatic).device == "cpu"  # both kept verdicts keep Automatic on the processor
    assert "slower than the processor" in transcriber.gpu_note


def test_asking_for_the_gpu_uses_a_slower_gpu_anyway(store, tmp_path, speech):
    clock = SimulatedClock()
    proof = proof_in(tmp_path, clock)
    transcriber = TranscriberOnStandInGpu(store, FallbackLog(), proof, loader_with(9.0, clock))
    settings = TranscribeSettings(model="tiny-test", engine="ct2", device="gpu")
    transcriber.transcribe_file(write_wav(tmp_path / "speech.wav", speech), settings)
    assert transcriber.loaded.endswith("(ct2, GPU)")


def test_the_check_runs_once_per_machine_state(store, tmp_path, speech):
    clock = SimulatedClock()
    proof = proof_in(tmp_path, clock)
    loads = []
    real = loader_with(1.0, clock)

    def counting(model, engine, device):
        loads.append(device)
        return real(model, engine, device)

    transcriber = TranscriberOnStandInGpu(store, FallbackLog(), proof, counting)
    settings = TranscribeSettings(model="tiny-test", engine="ct2", device="auto")
    path = write_wav(tmp_path / "speech.wav", speech)
    transcriber.transcribe_file(path, settings)
    assert loads == ["cuda", "cpu", "cuda"]  # the check on both devices, then the file on the GPU
    transcriber.release()
    transcriber.transcribe_file(path, settings)
    assert loads == ["cuda", "cpu", "cuda", "cuda"]  # the kept verdict: no second check


def test_a_gpu_slower_with_every_engine_keeps_automatic_on_the_processor_unless_the_gpu_is_asked_for(store, tmp_path):
    from desktop.core.gpu.known_answer import verdict

    proof = proof_in(tmp_path, SimulatedClock())
    for engine in ("torch", "ct2"):
        proof.verdicts.add(verdict(engine, "tiny-test", KEY, gpu_text="a b", cpu_text="a b", gpu_seconds=9,
                                   cpu_seconds=4))
    transcriber = TranscriberOnStandInGpu(store, FallbackLog(), proof, loader_with(9.0, SimulatedClock()))
    assert transcriber.plan(TranscribeSettings(model="tiny-test")).device == "cpu"
    assert "slower than the processor" in transcriber.gpu_note
    assert transcriber.plan(TranscribeSettings(model="tiny-test", device="gpu")).device == "cuda"
