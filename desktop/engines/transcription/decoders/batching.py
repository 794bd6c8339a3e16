"""Batched decoding, whatever library decodes: windows of speech, batch sizes, out-of-memory halving.

The speech voice activity detection kept (``vad.prepare``) is cut into windows of at most 30 seconds,
Whisper's input size, at the joins between speech stretches where it can, else at the quietest
moment; the windows are then decoded independently, several at once. No torch here: the engines
bring the library, this module only decides what goes together.
"""
from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any, Callable, Sequence, TypeVar

import numpy as np

from desktop.core.common.audio import SAMPLE_RATE

log = logging.getLogger(__name__)

WINDOW_SECONDS = 30.0
CPU_BATCH_SIZE = 2  # on two cores 2 windows at once took 0.73 of the sequential time, 4 0.84, 8 0.93
# With torch's bfloat16 encoder a window costs the encoder a quarter of CTranslate2's int8 time, and the
# decoder, which gains from every window added to a batch, is most of the work: on an AMX Xeon (2 cores,
# base, 223 s) 4 windows at once took 0.75x the time of 2, 6 windows 0.70x (BENCHMARKS.md, "The words").
CHEAP_ENCODER_BATCH_SIZE = 4
MAX_GPU_BATCH_SIZE = 32  # beyond this a GPU gains little and a long file rarely has more windows at once
_USABLE_FREE_MEMORY = 0.7  # the rest is left for the allocator's fragments and for other programs
_MIN_CUT_FRACTION = 2 / 3  # a long stretch is cut in the last third of a window, where it is quietest
_FRAME = SAMPLE_RATE // 10  # loudness is compared over 0.1-second frames


@dataclass(frozen=True)
class Window:
    """Samples [start, end) of the joined speech, decoded as one Whisper input."""

    start: int
    end: int

    @property
    def seconds(self) -> float:
        return (self.end - self.start) / SAMPLE_RATE


def pack_windows(speech: np.ndarray, stretch_lengths: Sequence[int],
                 window_seconds: float = WINDOW_SECONDS) -> list[Window]:
    """Windows covering all of ``speech`` (the joined stretches, ``stretch_lengths`` samples each).

    Whole stretches are packed together while they fit; a stretch longer than a window is cut at the
    quietest 0.1 s within the last third of each window, so a word is rarely split.
    """
    limit = int(window_seconds * SAMPLE_RATE)
    lengths = [int(n) for n in stretch_lengths if n > 0] or [speech.size]
    if sum(lengths) != speech.size:
        raise ValueError(f"stretches cover {sum(lengths)} samples, the speech has {speech.size}")
    windows: list[Window] = []
    start = position = 0  # the open window starts at ``start``; stretches up to ``position`` are in it
    for length in lengths:
        if position + length - start > limit and position > start:
            windows.append(Window(start, position))  # close the window at the join before this stretch
            start = position
        position += length
        while position - start > limit:
            cut = _quietest_cut(speech, start + int(limit * _MIN_CUT_FRACTION), start + limit)
            windows.append(Window(start, cut))
            start = cut
    if position > start:
        windows.append(Window(start, position))
    return windows


def _quietest_cut(speech: np.ndarray, low: int, high: int) -> int:
    frames = (high - low) // _FRAME
    if frames < 1:
        return high
    energy = np.square(speech[low:low + frames * _FRAME].reshape(frames, _FRAME)).mean(axis=1)
    return low + int(np.argmin(energy)) * _FRAME + _FRAME // 2


def stretch_lengths(chunks: Sequence[tuple[int, int]], total: int) -> list[int]:
    """The length of each speech stretch on the joined timeline (one stretch when nothing was cut)."""
    lengths = [end - start for start, end in chunks]
    return lengths if sum(lengths) == total else [total]


def split_segments(tokens: list[int], tokenizer: Any, window_seconds: float) -> list[dict]:
    """Segments of one window's tokens, cut where two timestamp tokens follow each other; times in
    seconds from the window's start. ``tokenizer`` is openai-whisper's or faster-whisper's (both have
    ``timestamp_begin``, ``eot`` and ``decode``).

    As in ``whisper.transcribe``, with one difference: the text after the last pair of timestamps,
    which Whisper leaves unfinished when speech runs on past the window, is kept as a segment up to
    the window's end. Sequential decoding drops it because the next window starts there and decodes
    it again; in a batch no window does, so dropping it would lose those words.
    """
    begin = tokenizer.timestamp_begin
    precision = 0.02  # seconds per timestamp token

    def segment(part: list[int], start: float, end: float) -> dict:
        text_tokens = [t for t in part if t < tokenizer.eot]
        return {"seek": 0, "start": start, "end": max(start, min(end, window_seconds)), "tokens": part,
                "text": tokenizer.decode(text_tokens)}

    pieces: list[dict] = []
    last = 0
    for index in range(1, len(tokens)):
        if tokens[index - 1] >= begin and tokens[index] >= begin:
            part = tokens[last:index]
            pieces.append(segment(part, (part[0] - begin) * precision, (part[-1] - begin) * precision))
            last = index
    rest = tokens[last:]
    if any(t < tokenizer.eot for t in rest):
        start = (rest[0] - begin) * precision if rest[0] >= begin else 0.0
        end = (rest[-1] - begin) * precision if rest[-1] >= begin and len(rest) > 1 else window_seconds
        pieces.append(segment(rest, start, end))
    return pieces


TEXT_BEFORE_CHARACTERS = 200  # of the text before a batch, after the initial prompt (condition_on_previous_text)


def prompt_with_text_before(initial_prompt: str | None, before: str) -> str | None:
    """A batch's prompt when it is told the text decoded before it: the initial prompt (kept whole, as
    it steers the script and the punctuation), then the end of that text."""
    tail = before.strip()[-TEXT_BEFORE_CHARACTERS:]
    return " ".join(part for part in (initial_prompt, tail) if part) or None


REST_SECONDS = 2.0  # after a window's last words: a sentence or more (a shorter rest is mostly the speech pad)
REST_ROUNDS = 2  # times the rest of a window is decoded again
_START_ROUNDING = 0.1  # seconds


def pieces_by_window(windows: Sequence[Window], starts: Sequence[float]) -> list[list[int]]:
    """For each window, the indexes of the decoded pieces that start in it (``starts`` in seconds on
    the joined speech, in the windows' order)."""
    found: list[list[int]] = [[] for _ in windows]
    at = 0
    for index, start in enumerate(starts):
        # A piece's start may be rounded to Whisper's 0.02 s steps, a little before its window's.
        while at + 1 < len(windows) and start >= windows[at + 1].start / SAMPLE_RATE - _START_ROUNDING:
            at += 1
        found[at].append(index)
    return found


def rest_of(window: Window, last_end: float | None) -> Window | None:
    """The part of ``window`` after its text ends (``last_end``, seconds on the joined speech) when
    it is long enough to hold speech of its own; None where the text reaches the end, or there is no
    text at all (Whisper heard no speech there: decoding the same again would say the same).

    Decoded on its own, a window of speech sometimes ends after its first sentence or two, more often
    the more alike its sentences are. Sequential decoding goes on from the last timestamp in its next
    window; a batch has no next window, so the rest is decoded as one."""
    if last_end is None:
        return None
    start = max(window.start, min(window.end, round(last_end * SAMPLE_RATE)))
    return Window(start, window.end) if (window.end - start) / SAMPLE_RATE >= REST_SECONDS else None


def cheap_encoder_batch_size(available_bytes: int | None, dims: dict[str, int], *, beams: int) -> int:
    """Windows decoded at once on the CPU once torch's bfloat16 encoder encodes them: as many as
    CHEAP_ENCODER_BATCH_SIZE, fewer where the decoder's caches would crowd the memory available."""
    if available_bytes is None:
        return CPU_BATCH_SIZE
    fits = automatic_batch_size(available_bytes, dims, beams=beams, bytes_per_value=4)  # float32 on the CPU
    return max(1, min(CHEAP_ENCODER_BATCH_SIZE, fits))


def automatic_batch_size(free_bytes: int | None, dims: dict[str, int], *, beams: int,
                         bytes_per_value: int = 2) -> int:
    """How many windows to decode at once: from the GPU's free memory, or a fixed size on the CPU.

    The estimate for one window is what stays in memory while it decodes: the encoder's activations
    and attention scores, and per hypothesis of the beam the decoder's cached keys and values for the
    audio (1500 positions) and the text (up to 448 tokens). Out-of-memory halving catches an estimate
    that was too hopeful.
    """
    if free_bytes is None:
        return CPU_BATCH_SIZE
    audio_ctx, text_ctx = dims.get("n_audio_ctx", 1500), dims.get("n_text_ctx", 448)
    encoder = audio_ctx * dims["n_audio_state"] * 12 + dims["n_audio_head"] * audio_ctx * audio_ctx
    decoder = beams * 2 * dims["n_text_layer"] * (audio_ctx + text_ctx) * dims["n_text_state"]
    per_window = (encoder + decoder) * bytes_per_value + beams * dims["n_vocab"] * 4 * 4  # + float32 logits
    fits = int(free_bytes * _USABLE_FREE_MEMORY // per_window)
    return max(1, min(MAX_GPU_BATCH_SIZE, fits))


Item = TypeVar("Item")
Result = TypeVar("Result")


class BatchRunner:
    """Decodes items in batches, halving the batch size when the device runs out of memory.

    ``decode`` gets a list of items and returns one result per item. An out-of-memory error
    (``is_out_of_memory``) with more than one item in the batch frees memory and tries again with
    half as many; with a single item it is raised, for the fallback to the CPU to judge. The size a
    batch fitted at is kept for the batches after it.
    """

    def __init__(self, batch_size: int, *, is_out_of_memory: Callable[[BaseException], bool],
                 free_memory: Callable[[], None] = lambda: None):
        if batch_size < 1:
            raise ValueError(f"batch size must be at least 1, not {batch_size}")
        self.batch_size = batch_size
        self._is_out_of_memory = is_out_of_memory
        self._free_memory = free_memory

    def run(self, items: Sequence[Item], decode: Callable[[list[Item]], list[Result]],
            on_batch: Callable[[list[Item], list[Result]], None] | None = None) -> list[Result]:
        results: list[Result] = []
        index = 0
        while index < len(items):
            batch = list(items[index:index + self.batch_size])
            try:
                decoded = decode(batch)
            except Exception as exc:  # noqa: BLE001 - only an out-of-memory error is handled here
                if len(batch) == 1 or not self._is_out_of_memory(exc):
                    raise
                self._free_memory()
                self.batch_size = max(1, len(batch) // 2)
                log.warning("out of memory with %d windows at once; trying %d", len(batch), self.batch_size)
                continue
            if len(decoded) != len(batch):
                raise RuntimeError(f"decoded {len(decoded)} results for {len(batch)} windows")
            results.extend(decoded)
            index += len(batch)
            if on_batch is not None:
                on_batch(batch, decoded)
        return results
