"""Whisper through faster-whisper / CTranslate2: the fast engine on the CPU (int8).

CTranslate2 from the package index has no ROCm support, so this engine only runs on a GPU when
CTranslate2 itself reports one; torch seeing a GPU means nothing here.

It loads CTranslate2 folders directly and openai-whisper checkpoints (``.pt``) by converting them once
into a CTranslate2 folder (``ct2_folders``).
"""
from __future__ import annotations

import functools
import logging
import os
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterator

import numpy as np

from desktop.core.common.audio import SAMPLE_RATE
from desktop.core.common.errors import ModelError
from desktop.core.common.i18n import N_
from desktop.core.glossary.prompting import HeardTerms
from desktop.core.glossary.prompting import hotwords as glossary_hotwords
from desktop.core.transcription.transcript import Segment, Word
from desktop.engines.transcription.decoders import batching, bf16_encoder, ct2_model
from desktop.engines.transcription.decoders.local_engine import (Decoded, FoundSegment, LocalEngine,
                                                              guessing_under_english_only)
from desktop.engines.transcription.decoders.vad import TimeMap
from desktop.engines.transcription.engine import ProgressReporter, TranscribeOptions, device_failure
from desktop.engines.transcription.model_files.ct2_folders import ct2_folder

if TYPE_CHECKING:
    from desktop.core.transcription.whisper_models import LocalModel

log = logging.getLogger(__name__)

AUTOMATIC = "automatic"  # load_ct2_engine's bf16_from_windows: as this computer's measurement says


class Ct2WhisperEngine(LocalEngine):
    """A loaded faster-whisper model; see ``local_engine.LocalEngine``."""

    name = "ct2"

    def __init__(self, model: Any, *, device: str, model_name: str, compute_type: str,
                 bf16: bf16_encoder.Bf16Switch | None = None):
        """bf16: when torch's bfloat16 encoder takes over from CTranslate2's, where it may (None: never)."""
        super().__init__(model, device=device, model_name=model_name, compute_type=compute_type)
        self._encoding: ct2_model.EncoderChoice = model.encoding  # how the model encodes: the engine's to change
        self._bf16 = bf16

    def expect(self, seconds: float) -> None:
        """A recording of about ``seconds`` comes next (``WhisperEngine.expect``)."""
        if self._bf16 is not None:
            self._bf16.expect(seconds)

    def languages(self, model: Any) -> tuple[bool, list[str]]:
        # faster-whisper lists all 100 codes; models before large-v3 lack the 100th, Cantonese.
        known = [c for c in model.supported_languages if c != "yue" or model.model.num_languages >= 100]
        return model.model.is_multilingual, known

    def decode(self, model: Any, speech: np.ndarray, time_map: TimeMap, options: TranscribeOptions,
               language: str | None, progress: ProgressReporter, found: FoundSegment) -> Decoded:
        """VoxDesk's windows through faster-whisper's batched pipeline, ``options.batch_size`` of them at
        a time (1: one after another); speech that fits one window, and English asked for one window
        after another, through its sequential decoding."""
        windows = batching.pack_windows(speech, batching.stretch_lengths(time_map.chunks, speech.size))
        self._switch_to_bf16_encoder_if_worth_it(model, len(windows))
        batch_size = min(options.batch_size or self._automatic_batch_size(options), len(windows))
        duration = speech.size / SAMPLE_RATE
        one_window = len(windows) == 1
        if not one_window and not _whispers_own_windows(options, language):
            # Whisper's own sequential decoding of a long recording, told what it wrote before, skipped
            # most of a repeated Mandarin agenda after its first sentence and copied its mistakes from
            # window to window (BENCHMARKS.md, "The words").
            pieces, info = self._batched_with_rests(model, speech, windows, options, language, batch_size)
        else:
            # One window (or English one window after another): faster-whisper's sequential decoding,
            # which goes on from its last timestamp where it stops early.
            # An English-only model left to tell the language keeps Whisper's guard even in one window:
            # over Mandarin it wrote a sure loop without it ("I said," 36 times, words at 0.68), and the
            # signs that speech is not English (core.transcription.english_only) were measured on the
            # unsure samples the guard's fallback gives.
            guessing = guessing_under_english_only(options, multilingual=self.languages(model)[0])
            pieces, info = self._sequential(model, speech, options, language, loop_guard=not one_window or guessing)
        # The generator decodes as it is consumed: one window, or one batch of windows, at a time.
        model.new_tokens = ct2_model.token_limit(duration) if one_window else None
        try:
            for piece in pieces:
                progress.check()
                words = [Word(start=w.start, end=w.end, text=w.word, probability=w.probability)
                         for w in piece.words or []]
                found(Segment(start=piece.start, end=piece.end, text=piece.text, words=words), float(piece.avg_logprob))
                progress.report(piece.end / duration)
        finally:
            model.new_tokens = None
        return Decoded(language=info.language, batch_size=batch_size, bf16_encoder=self._encoding.bf16 is not None)

    @contextmanager
    def encoding_frames(self, frames: int) -> Iterator[None]:
        """While the block runs, the encoder sees only the first ``frames`` mel frames of each window
        (live captions' short window, ``live.short_window``). For one thread at a time."""
        self._encoding.frames = frames
        try:
            yield
        finally:
            self._encoding.frames = None

    def _automatic_batch_size(self, options: TranscribeOptions) -> int:
        encoder = self._encoding.bf16
        if encoder is None:
            return batching.CPU_BATCH_SIZE
        return batching.cheap_encoder_batch_size(bf16_encoder.available_memory(), encoder.dims,
                                                 beams=max(1, options.beam_size))

    def _switch_to_bf16_encoder_if_worth_it(self, model: Any, windows: int) -> None:
        encoder = self._bf16.encoder_for(windows) if self._bf16 is not None else None
        if encoder is not None:
            self._encoding.bf16 = encoder

    @staticmethod
    def _decoding(options: TranscribeOptions, language: str | None) -> dict[str, Any]:
        """What both ways of decoding are told alike."""
        return dict(
            language=language,
            task=options.task,
            beam_size=max(1, options.beam_size),
            initial_prompt=options.initial_prompt or None,
            hotwords=glossary_hotwords(options.glossary_terms),  # faster-whisper puts them before every window
            word_timestamps=options.word_timestamps,
            vad_filter=False,  # vad.prepare already did it, the same way for both engines
        )

    def _sequential(self, model: Any, speech: np.ndarray, options: TranscribeOptions, language: str | None,
                    loop_guard: bool) -> Any:
        extra = {} if options.temperature is None else {"temperature": options.temperature}
        # The same hotwords for every window, so none of the terms: they go in once heard (prompting.py).
        options = replace(options, glossary_terms=HeardTerms(options.glossary_terms, options.glossary_heard).ordered())
        # Within its one window, where Whisper stops early it goes on from its last timestamp told
        # what it wrote (and the initial prompt): without it, it invented a word over the trailing pause
        # of a single Mandarin sentence (好, 约定). Between windows, the option decides (_batched_with_rests).
        # One window goes without the compression-ratio fallback (``loop_guard`` False): speech said
        # again (an agenda, a chorus) compresses as well as a loop, and Whisper sampled such a window
        # again at random up to temperature 1.0 (the same recording 3.6 % to 40.5 % from run to run).
        # The second look finds loops from the text, as it does for a longer recording's windows; a low
        # log-probability still falls back. Many windows, each told the text before it, keep Whisper's
        # guard against a loop carried from window to window.
        if not loop_guard:
            extra["compression_ratio_threshold"] = None
        return model.transcribe(speech, **self._decoding(options, language), condition_on_previous_text=True,
                                **extra)

    def _batched(self, model: Any, speech: np.ndarray, windows: list[batching.Window], options: TranscribeOptions,
                 language: str | None, batch_size: int) -> Any:
        """faster-whisper's batched pipeline over VoxDesk's own windows of speech (no second VAD)."""
        from faster_whisper import BatchedInferencePipeline

        clips = [{"start": w.start / SAMPLE_RATE, "end": w.end / SAMPLE_RATE} for w in windows]
        return BatchedInferencePipeline(_AsBatchesNeedIt(model)).transcribe(
            speech,
            **self._decoding(options, language),
            without_timestamps=False,  # segments cut where Whisper says, as in sequential decoding
            temperature=options.temperature or 0.0,  # the pipeline has no temperature fallback
            clip_timestamps=clips,
            batch_size=batch_size,
        )

    def _batched_with_rests(self, model: Any, speech: np.ndarray, windows: list[batching.Window],
                            options: TranscribeOptions, language: str | None, size: int) -> Any:
        """The batched pipeline a batch of windows at a time, the rest of each window whose text ends
        early decoded again (``batching.rest_of``); the pieces in time order. The glossary's terms
        heard in the batches before come first in the next one's hotwords; with
        ``condition_on_previous_text`` the text before a batch follows the initial prompt."""
        heard = HeardTerms(options.glossary_terms, options.glossary_heard)
        first, info = self._batched(model, speech, windows[:size], replace(options, glossary_terms=heard.ordered()),
                                    language, size)
        language = language or info.language  # as the first batch heard it, for the later ones

        def pieces() -> Any:
            before = ""
            for at in range(0, len(windows), size):
                batch = windows[at:at + size]
                prompt = batching.prompt_with_text_before(options.initial_prompt, before) \
                    if options.condition_on_previous_text else options.initial_prompt
                now = replace(options, glossary_terms=heard.ordered(), initial_prompt=prompt)
                decoded = list(first if at == 0 else self._batched(model, speech, batch, now, language, size)[0])
                heard.hear("".join(piece.text for piece in decoded))
                ordered = self._and_rests(model, speech, batch, decoded, replace(now, glossary_terms=heard.ordered()),
                                          language, batching.REST_ROUNDS)
                text = "".join(piece.text for piece in ordered)
                heard.hear(text)  # the rests' text too
                before = (before + text)[-batching.TEXT_BEFORE_CHARACTERS:]
                yield from ordered

        return pieces(), info

    def _and_rests(self, model: Any, speech: np.ndarray, batch: list[batching.Window], decoded: list[Any],
                   options: TranscribeOptions, language: str | None, rounds: int) -> list[Any]:
        """The pieces ``decoded`` from a batch's windows, each window's followed by those of its rest
        (decoded again, ``rounds`` times at most)."""
        groups = batching.pieces_by_window(batch, [piece.start for piece in decoded])
        size = len(batch)
        rests = [batching.rest_of(window, max((_text_end(decoded[i]) for i in group if decoded[i].text.strip()),
                                              default=None)) if rounds else None
                 for window, group in zip(batch, groups)]
        todo = [rest for rest in rests if rest is not None]
        again = self._and_rests(model, speech, todo, list(self._batched(model, speech, todo, options, language, size)[0]),
                                options, language, rounds - 1) if todo else []
        again_groups = iter(batching.pieces_by_window(todo, [piece.start for piece in again]))
        ordered = []
        for group, rest in zip(groups, rests):
            ordered += [decoded[i] for i in group]
            if rest is not None:
                ordered += [again[i] for i in next(again_groups)]
        return ordered

    def close(self) -> None:
        if self._model is not None:
            self._model.model.unload_model()
            self._model = None


def _text_end(piece: Any) -> float:
    """Where a piece's text ends: its last word's end, as the timestamp Whisper closed it with may lie
    far after it (one sentence "said" over a whole window)."""
    return piece.words[-1].end if piece.words else piece.end


class _AsBatchesNeedIt:
    """The faster-whisper model as its batched pipeline sees it, with two changes that keep every word
    of a window; sequential decoding needs neither, as the next window starts where one stopped.

    - A window shorter than 30 s is followed by the spectrogram of silence, as in Whisper's training.
      faster-whisper 1.2 pads the spectrogram with zeros instead, a steady sound Whisper never heard
      after speech, and Whisper often ends such a window before its last words.
    - A window's tokens are cut into segments by ``batching.split_segments``, as in the torch engine:
      faster-whisper drops the text Whisper leaves unfinished at the end of a window.
    """

    def __init__(self, model: Any):
        self._model = model
        self.feature_extractor = _FollowedBySilence(model.feature_extractor)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._model, name)

    def _split_segments_by_timestamps(self, tokenizer: Any, tokens: list[int], time_offset: float,
                                      segment_size: int, segment_duration: float,
                                      seek: int) -> tuple[list[dict], int, bool]:
        pieces = batching.split_segments(tokens, tokenizer, segment_duration)
        segments = [dict(seek=seek, start=time_offset + piece["start"], end=time_offset + piece["end"],
                         tokens=piece["tokens"]) for piece in pieces]
        return segments, seek + segment_size, True


class _FollowedBySilence:
    """faster-whisper's feature extractor, computing a window's spectrogram with silence after it up to
    30 s (the pipeline then finds nothing left to pad)."""

    def __init__(self, extractor: Any):
        self._extractor = extractor

    def __getattr__(self, name: str) -> Any:
        return getattr(self._extractor, name)

    def __call__(self, waveform: np.ndarray, *args: Any, **kwargs: Any) -> np.ndarray:
        missing = self._extractor.n_samples - waveform.size
        if missing > 0:
            waveform = np.concatenate([waveform, np.zeros(missing, dtype=waveform.dtype)])
        return self._extractor(waveform, *args, **kwargs)


def load_ct2_engine(
    model: "LocalModel", device: str, compute_type: str | None = None, *, cache_dir: Path | None = None,
    bf16_from_windows: int | None | str = AUTOMATIC, expect_seconds: float | None = None,
) -> Ct2WhisperEngine:
    """Load ``model`` ("ct2" folder or "pt" checkpoint) with faster-whisper on "cpu" or "cuda".

    ``compute_type`` defaults to int8 on the CPU and float16 on the GPU. A "pt" checkpoint is converted
    once into ``cache_dir`` (default: the checkpoint's folder) and the conversion is reused afterwards.
    On the CPU, recordings of ``bf16_from_windows`` windows or more are encoded with torch's encoder in
    bfloat16 (``bf16_encoder``); None never, and AUTOMATIC where this computer's processor and its
    measurement say it is faster (``bf16_encoder.automatic_from_windows``). ``expect_seconds``: the
    length of the first recording, when known (``Ct2WhisperEngine.expect``).
    """
    import ctranslate2

    if device not in ("cpu", "cuda"):
        raise ValueError(f"unknown device {device!r}")
    if device == "cuda" and ctranslate2.get_cuda_device_count() == 0:
        raise ModelError(
            N_("Engine", "The fast engine cannot use the graphics card on this computer; choose the processor (CPU) "
                         "for it, or the standard engine for the graphics card."),
            detail="ctranslate2.get_cuda_device_count() is 0 (this CTranslate2 build has no GPU support)",
        )
    folder = ct2_folder(model, cache_dir)
    compute_type = _pick_compute_type(ctranslate2, device, compute_type)
    switch = _bf16_switch(model, folder, bf16_from_windows) if device == "cpu" else None
    if switch is not None and expect_seconds:
        switch.expect(expect_seconds)  # while CTranslate2 loads the model

    try:
        whisper_model = ct2_model.model_class()(
            str(folder),
            device=device,
            compute_type=compute_type,
            cpu_threads=os.cpu_count() or 0,
            local_files_only=True,
        )
    except (RuntimeError, ValueError, OSError) as exc:
        failure = device_failure(exc, device)
        if failure is not None:
            raise failure from exc
        raise ModelError(
            N_("Engine", "The model could not be loaded; it may be damaged. Remove it and download or import it "
                         "again."),
            detail=f"{type(exc).__name__}: {exc}",
        ) from exc
    return Ct2WhisperEngine(whisper_model, device=device, model_name=model.name, compute_type=compute_type,
                            bf16=switch)


def _bf16_switch(model: "LocalModel", folder: Path, from_windows: int | None | str) -> bf16_encoder.Bf16Switch | None:
    if from_windows is None:
        return None
    if from_windows == AUTOMATIC:
        decide = functools.partial(bf16_encoder.automatic_from_windows, model.name)
    else:
        decide = functools.partial(int, from_windows)
    return bf16_encoder.Bf16Switch(functools.partial(bf16_encoder.load_encoder, folder), decide)


def _pick_compute_type(ctranslate2: Any, device: str, requested: str | None) -> str:
    supported = set(ctranslate2.get_supported_compute_types(device))
    if requested:
        if requested not in supported and requested not in ("default", "auto"):
            raise ModelError(
                N_("Engine", "This computer cannot run the fast engine with “{requested}” precision; choose "
                             "automatic precision in Settings.").format(requested=requested),
                detail=f"supported on {device}: {sorted(supported)}",
            )
        return requested
    preferred = ["int8", "int8_float32", "float32"] if device == "cpu" else ["float16", "int8_float16", "float32"]
    return next((t for t in preferred if t in supported), "default")


def _whispers_own_windows(options: TranscribeOptions, language: str | None) -> bool:
    """Whether a recording longer than one window is decoded as faster-whisper itself decodes it: asked
    for one window after another on speech known to be English. There Whisper's windows, each told the
    text before it, wrote a sentence said again the same way every time (LJ six times: 12.5 % against
    15.6 % in VoxDesk's windows) and lost nothing; in Mandarin and in detected speech VoxDesk's windows
    gained up to 13 points (BENCHMARKS.md, "The words, round 3")."""
    return options.batch_size == 1 and language == "en"
