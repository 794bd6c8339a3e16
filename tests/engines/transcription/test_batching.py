"""Windows of speech, batch sizes from free memory, and halving the batch when the GPU runs out of memory."""
from __future__ import annotations

import numpy as np
import pytest

from desktop.core.common.audio import SAMPLE_RATE
from desktop.engines.transcription.decoders.batching import (
    CHEAP_ENCODER_BATCH_SIZE,
    CPU_BATCH_SIZE,
    MAX_GPU_BATCH_SIZE,
    BatchRunner,
    Window,
    automatic_batch_size,
    cheap_encoder_batch_size,
    pack_windows,
    split_segments,
    stretch_lengths,
)
from desktop.core.gpu.fallback import is_out_of_memory
from tests.helpers.weights import tiny_en_dir

TINY = {"n_mels": 80, "n_audio_ctx": 1500, "n_audio_state": 384, "n_audio_head": 6, "n_audio_layer": 4,
        "n_vocab": 51864, "n_text_ctx": 448, "n_text_state": 384, "n_text_head": 6, "n_text_layer": 4}
LARGE = {"n_mels": 128, "n_audio_ctx": 1500, "n_audio_state": 1280, "n_audio_head": 20, "n_audio_layer": 32,
         "n_vocab": 51866, "n_text_ctx": 448, "n_text_state": 1280, "n_text_head": 20, "n_text_layer": 32}
GIB = 1024 ** 3


def seconds(value: float) -> int:
    return int(value * SAMPLE_RATE)


def test_short_stretches_are_packed_together_up_to_thirty_seconds():
    lengths = [seconds(s) for s in (10, 12, 7, 5, 20)]
    speech = np.ones(sum(lengths), np.float32)
    windows = pack_windows(speech, lengths)
    # 10+12+7 = 29 s fit; 5 more would not; then 5+20 = 25 s.
    assert windows == [Window(0, seconds(29)), Window(seconds(29), seconds(54))]


def test_a_long_stretch_is_cut_at_its_quietest_moment_within_the_last_third_of_each_window():
    rng = np.random.default_rng(1)
    speech = rng.uniform(-0.5, 0.5, seconds(70)).astype(np.float32)
    speech[seconds(25):seconds(25.3)] = 0.0  # a breath, inside the last third of the first window
    windows = pack_windows(speech, [speech.size])
    assert abs(windows[0].end - seconds(25.15)) <= SAMPLE_RATE // 10
    assert all(w.end - w.start <= seconds(30) for w in windows)
    assert windows[-1].end == speech.size and all(a.end == b.start for a, b in zip(windows, windows[1:]))


def test_stretches_that_do_not_cover_the_speech_are_refused():
    with pytest.raises(ValueError):
        pack_windows(np.ones(100, np.float32), [40, 40])
    assert stretch_lengths([(0, 10), (50, 70)], 30) == [10, 20]
    assert stretch_lengths([(0, 100)], 30) == [30]  # audio passed through without detection


def test_the_batch_grows_with_free_gpu_memory_and_shrinks_with_the_model_and_the_beam():
    assert automatic_batch_size(None, TINY, beams=5) == CPU_BATCH_SIZE
    small, large = automatic_batch_size(2 * GIB, TINY, beams=5), automatic_batch_size(16 * GIB, TINY, beams=5)
    assert 1 <= small < large <= MAX_GPU_BATCH_SIZE
    assert automatic_batch_size(16 * GIB, LARGE, beams=5) < large
    assert automatic_batch_size(16 * GIB, LARGE, beams=1) > automatic_batch_size(16 * GIB, LARGE, beams=5)
    assert automatic_batch_size(256 * 1024 ** 2, LARGE, beams=5) == 1  # never zero: halving takes over
    assert automatic_batch_size(8 * GIB, LARGE, beams=5, bytes_per_value=4) < automatic_batch_size(8 * GIB, LARGE,
                                                                                                   beams=5)


def test_with_torchs_bfloat16_encoder_the_cpu_decodes_more_windows_at_once_as_far_as_memory_allows():
    assert cheap_encoder_batch_size(16 * GIB, TINY, beams=5) == CHEAP_ENCODER_BATCH_SIZE > CPU_BATCH_SIZE
    assert cheap_encoder_batch_size(16 * GIB, LARGE, beams=5) < CHEAP_ENCODER_BATCH_SIZE  # large-v3's caches
    assert cheap_encoder_batch_size(1 * GIB, LARGE, beams=5) == 1
    assert cheap_encoder_batch_size(None, TINY, beams=5) == CPU_BATCH_SIZE  # memory not known: as before


class FakeGpu:
    """Decodes any batch of at most ``fits`` items; a bigger one raises torch's out-of-memory error."""

    def __init__(self, fits: int):
        self.fits = fits
        self.tried: list[int] = []
        self.freed = 0

    def decode(self, batch: list[int]) -> list[str]:
        import torch

        self.tried.append(len(batch))
        if len(batch) > self.fits:
            raise torch.OutOfMemoryError("CUDA out of memory. Tried to allocate 2.00 GiB")
        return [f"text {item}" for item in batch]

    def free(self) -> None:
        self.freed += 1


@pytest.mark.parametrize("fits", [1, 3, 8])
def test_out_of_memory_halves_the_batch_and_keeps_the_size_that_fitted(fits):
    gpu = FakeGpu(fits)
    runner = BatchRunner(8, is_out_of_memory=is_out_of_memory, free_memory=gpu.free)
    seen: list[list[int]] = []
    results = runner.run(list(range(20)), gpu.decode, on_batch=lambda batch, _: seen.append(batch))
    assert results == [f"text {i}" for i in range(20)]  # every item once, in order
    expected = {1: 1, 3: 2, 8: 8}[fits]
    assert runner.batch_size == expected
    assert all(len(batch) <= expected for batch in seen)
    assert gpu.freed == {1: 3, 3: 2, 8: 0}[fits]  # 8 -> 4 -> 2 -> 1, 8 -> 4 -> 2, no halving


def test_out_of_memory_with_a_single_item_and_other_errors_are_raised_for_the_fallback_to_judge():
    import torch

    with pytest.raises(torch.OutOfMemoryError):
        BatchRunner(4, is_out_of_memory=is_out_of_memory).run([1, 2, 3], FakeGpu(0).decode)

    def broken(batch):
        raise RuntimeError("HIP error: an illegal memory access was encountered")

    runner = BatchRunner(4, is_out_of_memory=is_out_of_memory)
    with pytest.raises(RuntimeError, match="illegal memory"):
        runner.run([1, 2, 3], broken)
    assert runner.batch_size == 4
    with pytest.raises(ValueError):
        BatchRunner(0, is_out_of_memory=is_out_of_memory)


def _faster_whisper_tokenizer():
    import tokenizers
    from faster_whisper.tokenizer import Tokenizer

    return Tokenizer(tokenizers.Tokenizer.from_file(str(tiny_en_dir() / "tokenizer.json")), multilingual=False)


def _window_tokens(tokenizer) -> list[int]:
    """A window's decoding whose second sentence runs on past the window: no closing timestamp."""
    def at(seconds: float) -> int:
        return tokenizer.timestamp_begin + round(seconds / 0.02)

    return [at(0.0), *tokenizer.encode(" Ask not what your country can do for you,"), at(4.0), at(4.5),
            *tokenizer.encode(" ask what you can do")]


def test_words_left_unfinished_at_a_window_end_are_kept_up_to_the_end_of_the_window():
    tokenizer = _faster_whisper_tokenizer()
    pieces = split_segments(_window_tokens(tokenizer), tokenizer, window_seconds=6.0)
    assert [piece["text"].strip() for piece in pieces] == ["Ask not what your country can do for you,",
                                                           "ask what you can do"]
    assert [(piece["start"], piece["end"]) for piece in pieces] == [(0.0, 4.0), (4.5, 6.0)]


def test_the_batched_ctranslate2_path_keeps_the_words_faster_whisper_would_drop():
    from faster_whisper import WhisperModel

    from desktop.engines.transcription.decoders.whisper_ct2 import _AsBatchesNeedIt

    tokenizer = _faster_whisper_tokenizer()
    model = WhisperModel(str(tiny_en_dir()), device="cpu", compute_type="int8")
    arguments = dict(tokenizer=tokenizer, tokens=_window_tokens(tokenizer), time_offset=30.0, segment_size=600,
                     segment_duration=6.0, seek=0)
    dropped, _seek, _ending = model._split_segments_by_timestamps(**arguments)
    kept, _seek, _ending = _AsBatchesNeedIt(model)._split_segments_by_timestamps(**arguments)
    assert len(dropped) == 1  # faster-whisper leaves the rest to a next window, which a batch never has
    assert [(segment["start"], segment["end"]) for segment in kept] == [(30.0, 34.0), (34.5, 36.0)]
    assert tokenizer.decode(kept[1]["tokens"]).strip() == "ask what you can do"


def test_the_rest_of_a_window_after_its_text_is_decoded_again_only_when_it_can_hold_a_sentence():
    from desktop.engines.transcription.decoders.batching import REST_SECONDS, Window, pieces_by_window, rest_of

    window = Window(16000 * 10, 16000 * 40)  # 10 s to 40 s of the joined speech
    assert rest_of(window, 14.0) == Window(16000 * 14, 16000 * 40)
    assert rest_of(window, 40.0 - REST_SECONDS / 2) is None, "the speech pad after the last words"
    assert rest_of(window, 55.0) is None, "a timestamp past the window"
    assert rest_of(window, None) is None, "no text: Whisper heard no speech, and would hear none again"
    windows = [Window(0, 16000 * 10), window]
    assert pieces_by_window(windows, [0.0, 4.0, 9.98, 12.0]) == [[0, 1], [2, 3]], \
        "a start rounded to Whisper's 0.02 s steps is its window's"
