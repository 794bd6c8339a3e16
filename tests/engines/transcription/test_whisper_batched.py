"""Batched decoding on real speech: the same words as decoding one window after another, on both engines."""
from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from desktop.core.common.errors import Cancelled
from desktop.engines.transcription.decoders import whisper_batched
from desktop.engines.transcription.engine import TranscribeOptions
from desktop.engines.transcription.decoders.loading import load_engine
from desktop.engines.transcription.decoders.whisper_batched import BatchedTorchEngine
from tests.helpers.weights import ModelRef, base_dir, recording, reference, tiny_en_dir, wer

# Batched and one-after-another decoding may choose another word at a place or two of the 80-word meeting:
# the matrix kernels differ between processors (AMX on a Xeon, AVX-512 on an EPYC), and so do their
# roundings (seen: "there under" against "they are under" on an EPYC). A window lost or decoded twice
# costs ten times more.
MAX_WER_BETWEEN = 0.05


def meeting(pauses: tuple[float, float, float] = (1.0, 2.0, 1.0)) -> tuple[np.ndarray, str]:
    """About 40 s of two English speakers with ``pauses`` seconds between them: more than one 30-second
    window."""
    jfk, lj = recording("jfk.flac"), recording("lj050-0131.wav")
    silence = [np.zeros(int(seconds * 16000), np.float32) for seconds in pauses]
    audio = np.concatenate([jfk, silence[0], lj, silence[1], jfk, silence[2], lj])
    text = " ".join([reference("jfk.flac"), reference("lj050-0131.wav")] * 2)
    return audio, text


def words(result) -> str:
    return " ".join(segment.text for segment in result.segments)


@pytest.fixture(scope="module")
def torch_engine():
    engine = load_engine(ModelRef("tiny.en", "ct2", tiny_en_dir()), "torch", "cpu")
    yield engine
    engine.close()


@pytest.fixture(scope="module")
def torch_runs(torch_engine):
    audio, _ = meeting()
    # One window at a time against two at once: the same windows, so the same words. (Told the previous
    # window's text as its prompt, greedy tiny.en loses the last sentence of this recording.)
    greedy = TranscribeOptions(language="en", beam_size=1)
    sequential = torch_engine.transcribe(audio, replace(greedy, batch_size=1))
    batched = torch_engine.transcribe(audio, greedy)
    return sequential, batched


def test_the_torch_engine_decodes_in_batches_by_default(torch_engine, torch_runs):
    assert isinstance(torch_engine, BatchedTorchEngine)
    sequential, batched = torch_runs
    assert sequential.batch_size == 1
    assert batched.batch_size == 2  # the CPU's size (batching.CPU_BATCH_SIZE); two windows, decoded in one batch


def test_batched_torch_words_equal_the_words_of_one_window_at_a_time(torch_runs):
    sequential, batched = torch_runs
    _, text = meeting()
    assert wer(words(sequential), words(batched)) <= MAX_WER_BETWEEN
    assert wer(text, words(batched)) <= 0.1
    assert batched.speech == sequential.speech and batched.language == "en"


def test_batched_word_times_are_on_the_recordings_timeline(torch_runs):
    sequential, batched = torch_runs
    times = [(w.start, w.end) for s in batched.segments for w in s.words]
    assert all(start <= end for start, end in times)
    assert all(a[0] <= b[0] for a, b in zip(times, times[1:]))  # in order across windows
    assert batched.segments[-1].end == pytest.approx(sequential.segments[-1].end, abs=1.0)
    # "country" of the second JFK sentence, the same moment in both decodings
    second = [w.start for s in batched.segments for w in s.words if "country" in w.text]
    first = [w.start for s in sequential.segments for w in s.words if "country" in w.text]
    assert len(second) == len(first) == 4
    assert np.allclose(second, first, atol=0.5)


def test_out_of_memory_halves_the_batch_and_gives_the_same_words(torch_engine, torch_runs, monkeypatch):
    import torch

    real_task = whisper_batched._batch_task
    sizes: list[int] = []

    class Task:
        def __init__(self, model, options):
            self._task = real_task(model, options)

        def run(self, mel):
            sizes.append(mel.shape[0])
            if mel.shape[0] > 1:
                raise torch.OutOfMemoryError("CUDA out of memory. Tried to allocate 1.00 GiB")
            return self._task.run(mel)

    monkeypatch.setattr(whisper_batched, "_batch_task", Task)
    audio, text = meeting()
    result = torch_engine.transcribe(audio, TranscribeOptions(language="en", beam_size=1, batch_size=4))
    assert sizes[0] == 2 and set(sizes[1:]) == {1}
    assert result.batch_size == 1
    # A batch of one and a batch of two are different matrix shapes, so within a word error rate.
    assert wer(words(torch_runs[1]), words(result)) <= MAX_WER_BETWEEN
    assert wer(text, words(result)) <= 0.1


def test_a_beam_search_over_several_windows_at_once_decodes_each_window(torch_engine):
    audio, text = meeting()
    segments = []
    progress = []
    result = torch_engine.transcribe(audio, TranscribeOptions(language="en", beam_size=5), on_segment=segments.append,
                                     on_progress=progress.append)
    assert wer(text, words(result)) <= 0.1
    assert segments == result.segments
    assert progress == sorted(progress) and progress[-1] == 1.0


def test_a_cancel_stops_before_the_next_batch(torch_engine):
    audio, _ = meeting()
    with pytest.raises(Cancelled):
        torch_engine.transcribe(audio, TranscribeOptions(language="en", beam_size=1, batch_size=1 + 1),
                                cancelled=lambda: True)


def test_a_cancel_stops_before_a_retry_at_a_higher_temperature(torch_engine, monkeypatch):
    temperatures = []
    real_task = whisper_batched._batch_task

    def task(model, decoding):
        temperatures.append(decoding.temperature)
        return real_task(model, decoding)

    monkeypatch.setattr(whisper_batched, "_batch_task", task)
    monkeypatch.setattr(whisper_batched, "_needs_fallback", lambda result: True)  # every window looks wrong
    with pytest.raises(Cancelled):
        torch_engine.transcribe(recording("jfk.flac"), TranscribeOptions(language="en", beam_size=1),
                                cancelled=lambda: bool(temperatures))  # cancelled once the first decoding ran
    assert temperatures == [0.0]


def test_the_automatic_gpu_batch_comes_from_free_memory(torch_engine):
    engine = BatchedTorchEngine(torch_engine._model, device="cuda", model_name="tiny.en",
                                free_gpu_memory=lambda: 4 * 1024 ** 3)  # only the size is asked for: nothing runs
    options = TranscribeOptions(beam_size=5)
    four = engine.automatic_batch_size(options)
    engine._free_gpu_memory = lambda: 512 * 1024 ** 2
    assert 1 <= engine.automatic_batch_size(options) < four


def test_batched_ctranslate2_words_equal_the_words_of_one_window_at_a_time_with_base():
    engine = load_engine(ModelRef("base", "ct2", base_dir()), "ct2", "cpu")
    try:
        audio, text = meeting()
        options = TranscribeOptions(language="en")
        sequential = engine.transcribe(audio, replace(options, batch_size=1))
        batched = engine.transcribe(audio, options)
        short = engine.transcribe(recording("jfk.flac"), options)
    finally:
        engine.close()
    assert sequential.batch_size == 1 and batched.batch_size == 2  # two windows, decoded together
    assert short.batch_size == 1  # a single window is decoded as it always was
    assert wer(words(sequential), words(batched)) <= MAX_WER_BETWEEN
    assert wer(text, words(batched)) <= 0.1
    times = [w.start for s in batched.segments for w in s.words]
    assert times == sorted(times) and batched.segments[-1].end <= audio.size / 16000


@pytest.mark.parametrize("engine_name", ["ct2", "torch"])
def test_every_window_is_transcribed_to_its_last_word(engine_name):
    # Each window ends with the end of a recording. Followed by anything but the sound of silence
    # (both libraries padded windows with zeros in the spectrogram), base stopped before the last
    # words of a window, or left its last sentence out altogether.
    audio, _ = meeting(pauses=(1.0, 1.0, 1.0))
    engine = load_engine(ModelRef("base", "ct2", base_dir()), engine_name, "cpu")
    try:
        result = engine.transcribe(audio, TranscribeOptions(language="en", beam_size=1, batch_size=2))
    finally:
        engine.close()
    text = " ".join(words(result).lower().split())
    assert result.batch_size == 2
    assert text.count("your country") == 4 and text.count("in this regard") == 2, text


def test_silence_gives_no_segments_and_no_window_is_decoded(torch_engine, monkeypatch):
    decoded = []
    monkeypatch.setattr(whisper_batched, "_batch_task", lambda *a: decoded.append(a))
    result = torch_engine.transcribe(np.zeros(16000 * 40, np.float32), TranscribeOptions(language="en"))
    assert result.segments == [] and decoded == []


def test_an_english_only_model_refuses_other_languages_in_batches_too(torch_engine):
    from desktop.core.common.errors import ModelError

    with pytest.raises(ModelError, match="only understands English"):
        torch_engine.transcribe(recording("jfk.flac"), TranscribeOptions(language="zh"))


def test_without_voice_detection_long_speech_is_cut_into_windows_and_transcribed(torch_engine):
    audio, text = meeting()
    result = torch_engine.transcribe(audio, TranscribeOptions(language="en", beam_size=1, vad=False))
    assert result.batch_size == 2  # 43 s of audio in two windows, cut at a quiet moment
    assert wer(text, words(result)) <= 0.1


# More terms than fit in a prompt (each as long as "Americans"), the one JFK says last: only it is heard.
GLOSSARY = tuple(f"Item{n:05d}" for n in range(80)) + ("Americans",)


def test_each_batch_of_windows_is_prompted_with_the_glossary_terms_heard_in_the_batches_before(torch_engine,
                                                                                                monkeypatch):
    audio = np.concatenate([meeting()[0]] * 2)  # about 80 s: three windows, two batches of two
    prompts = []
    real_task = whisper_batched._batch_task

    def task(model, decoding):
        prompts.append(decoding.prompt)
        return real_task(model, decoding)

    monkeypatch.setattr(whisper_batched, "_batch_task", task)
    result = torch_engine.transcribe(audio, TranscribeOptions(language="en", beam_size=1, batch_size=2,
                                                              glossary_terms=GLOSSARY))
    assert "Americans" in result.segments[0].text
    assert len(prompts) >= 2 and "Americans" not in (prompts[0] or "")
    assert prompts[-1].startswith("Americans.") and "Item00000" not in prompts[-1]


def test_each_batch_on_the_cpu_gets_the_glossary_terms_heard_before_in_its_hotwords(monkeypatch):
    from desktop.engines.transcription.decoders.whisper_ct2 import Ct2WhisperEngine

    audio = np.concatenate([meeting()[0]] * 2)
    engine = load_engine(ModelRef("tiny.en", "ct2", tiny_en_dir()), "ct2", "cpu")
    orders = []
    real_batched = Ct2WhisperEngine._batched

    def batched(self, model, speech, windows, options, language, batch_size):
        orders.append(tuple(options.glossary_terms))
        return real_batched(self, model, speech, windows, options, language, batch_size)

    monkeypatch.setattr(Ct2WhisperEngine, "_batched", batched)
    try:
        result = engine.transcribe(audio, TranscribeOptions(language="en", batch_size=2, glossary_terms=GLOSSARY))
    finally:
        engine.close()
    assert "Americans" in result.segments[0].text
    assert orders[0] == ()
    assert orders[-1] == ("Americans",)


def test_each_window_decoded_one_after_another_is_prompted_with_the_glossary_terms_heard_before(torch_engine,
                                                                                                 monkeypatch):
    prompts = []
    real_task = whisper_batched._batch_task

    def task(model, decoding):
        prompts.append((decoding.prompt, decoding.temperature))
        return real_task(model, decoding)

    monkeypatch.setattr(whisper_batched, "_batch_task", task)
    audio, _ = meeting()  # two windows, decoded one after the other
    result = torch_engine.transcribe(audio, TranscribeOptions(language="en", beam_size=1, batch_size=1,
                                                              glossary_terms=GLOSSARY))
    first_tries = [prompt for prompt, temperature in prompts if temperature == 0]  # one for each window
    assert result.batch_size == 1 and len(first_tries) == 2
    assert "Americans" in result.segments[0].text
    assert "Americans" not in (first_tries[0] or "")
    assert first_tries[-1].startswith("Americans.") and "Item00000" not in first_tries[-1]


def test_on_the_cpu_a_mandarin_recording_is_told_of_glossary_terms_only_once_heard(monkeypatch):
    """Told of a term that sounds like a common word (城实 for 城市), Whisper writes it where the word was
    said; the first batch gets none of the glossary's terms in its hotwords."""
    from desktop.engines.transcription.decoders.whisper_ct2 import Ct2WhisperEngine

    clips = [recording("BAC009S0764W0121.wav"), recording("BAC009S0764W0122.wav")]
    audio = np.concatenate([piece for _ in range(8) for clip in clips for piece in (clip, np.zeros(16000, np.float32))])
    engine = load_engine(ModelRef("base", "ct2", base_dir()), "ct2", "cpu")
    orders = []
    real_batched = Ct2WhisperEngine._batched

    def batched(self, model, speech, windows, options, language, batch_size):
        orders.append(tuple(options.glossary_terms))
        return real_batched(self, model, speech, windows, options, language, batch_size)

    monkeypatch.setattr(Ct2WhisperEngine, "_batched", batched)
    try:
        result = engine.transcribe(audio, TranscribeOptions(language="zh", batch_size=2,
                                                            glossary_terms=("城实", "调正", "Salesforce")))
    finally:
        engine.close()
    assert len(orders) >= 2 and orders[0] == ()
    assert not any("Salesforce" in order for order in orders)
    assert "调整" in "".join(segment.text for segment in result.segments)
