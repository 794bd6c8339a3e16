"""The torch engine: Whisper through openai-whisper's model on torch, VoxDesk's 30-second windows a batch
at a time. It is the engine for the GPU (ROCm/HIP or CUDA, fp16 weights and compute), and runs on the
CPU too (fp32); ``whisper_torch`` loads the model it decodes with.

The speech voice activity detection kept is packed into windows of at most 30 s
(``batching.pack_windows``); the audio goes to the model's device as a tensor, so the log-mel
spectrograms are computed there (openai-whisper's file loader needs an ffmpeg binary, which VoxDesk
never uses); the spectrograms of a batch of windows go through openai-whisper's ``DecodingTask``
together (its greedy and beam search decode a batch; attention is PyTorch's scaled-dot-product
attention), windows whose text looks wrong are decoded again at higher temperatures as openai-whisper
does, and word times come from ``whisper.timing`` per window. The initial prompt is given to every
window, and the text decoded before a batch only where ``condition_on_previous_text`` asks for it (off
by default: told what it wrote before, Whisper copies its mistakes and skips repeated sentences;
BENCHMARKS.md, "The words"). Batch size 1 decodes the same windows one after another, so the batch
size changes the speed and the memory, not how the words are found; ``whisper.transcribe``, openai-whisper's own
decoding of one window after another, is not used (the GPU check runs it for comparison).
"""
from __future__ import annotations

import gc
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Callable

import numpy as np

from desktop.core.common.audio import SAMPLE_RATE
from desktop.core.glossary.prompting import HeardTerms
from desktop.core.transcription.transcript import Segment, Word
from desktop.engines.transcription.decoders import batching
from desktop.engines.transcription.decoders.local_engine import Decoded, FoundSegment, LocalEngine
from desktop.engines.transcription.decoders.vad import TimeMap
from desktop.engines.transcription.engine import (
    COMPRESSION_RATIO_THRESHOLD,
    LOG_PROB_THRESHOLD,
    NO_SPEECH_THRESHOLD,
    ProgressReporter,
    TranscribeOptions,
)

if TYPE_CHECKING:
    from desktop.core.transcription.whisper_models import LocalModel

TEMPERATURES = (0.0, 0.2, 0.4, 0.6, 0.8, 1.0)  # openai-whisper's fallback, as whisper.transcribe uses


class BatchedTorchEngine(LocalEngine):
    """A loaded openai-whisper model (``whisper_torch.load_torch_model``) decoding VoxDesk's windows in
    batches; see ``local_engine.LocalEngine``."""

    name = "torch"

    def __init__(self, model: Any, *, device: str, model_name: str,
                 free_gpu_memory: Callable[[], int | None] | None = None):
        # fp16 weights and compute on the GPU, fp32 on the CPU (load_torch_model, WindowDecoder's fp16).
        super().__init__(model, device=device, model_name=model_name,
                         compute_type="float16" if device == "cuda" else "float32")
        self._free_gpu_memory = free_gpu_memory or _free_gpu_memory

    def automatic_batch_size(self, options: TranscribeOptions) -> int:
        """From the GPU's free memory now (the model is already in it), or the CPU's fixed size."""
        model = self._loaded()
        free = self._free_gpu_memory() if self.device == "cuda" else None
        return batching.automatic_batch_size(free, vars(model.dims), beams=max(1, options.beam_size),
                                             bytes_per_value=_bytes_per_value(model))

    def languages(self, model: Any) -> tuple[bool, list[str]]:
        from whisper.tokenizer import LANGUAGES

        return model.is_multilingual, list(LANGUAGES)[: model.num_languages]

    def decode(self, model: Any, speech: np.ndarray, time_map: TimeMap, options: TranscribeOptions,
               language: str | None, progress: ProgressReporter, found: FoundSegment) -> Decoded:
        """The speech packed into windows of at most 30 s, decoded a batch of windows at a time."""
        windows = batching.pack_windows(speech, batching.stretch_lengths(time_map.chunks, speech.size))
        decoder = WindowDecoder(model, speech, options, language, fp16=self.device == "cuda", check=progress.check)
        runner = batching.BatchRunner(options.batch_size or self.automatic_batch_size(options),
                                      is_out_of_memory=_is_out_of_memory, free_memory=self._release_cache)
        done = 0

        def emit(batch: list[batching.Window], decoded: list[list[tuple[Segment, float]]]) -> None:
            nonlocal done
            for pieces in decoded:
                for piece, avg_logprob in pieces:
                    found(piece, avg_logprob)
            done += sum(window.end - window.start for window in batch)
            progress.report(done / speech.size)

        def decode(batch: list[batching.Window]) -> list[list[tuple[Segment, float]]]:
            progress.check()
            return decoder.decode(batch)

        runner.run(windows, decode, on_batch=emit)
        # As many windows at once as there were, at most.
        return Decoded(language=decoder.language, batch_size=min(runner.batch_size, len(windows)))

    def _release_cache(self) -> None:
        gc.collect()
        if self.device == "cuda":
            import torch

            torch.cuda.empty_cache()

    def close(self) -> None:
        if self._model is None:
            return
        self._model = None
        self._release_cache()


@dataclass
class _DecodedWindow:
    result: Any  # whisper.decoding.DecodingResult
    mel: Any  # the window's log-mel spectrogram, padded to 30 s
    frames: int  # of it that hold the window's audio


class WindowDecoder:
    """Decodes windows of one recording's speech with openai-whisper, a batch at a time."""

    def __init__(self, model: Any, speech: np.ndarray, options: TranscribeOptions, language: str | None,
                 *, fp16: bool, check: Callable[[], None] | None = None):
        self._model = model
        self._speech = speech
        self._options = options
        self._fp16 = fp16
        self._check = check or (lambda: None)  # raises Cancelled when asked to stop
        self.language = language if language or model.is_multilingual else "en"
        self._tokenizer = None
        self._heard = HeardTerms(options.glossary_terms, options.glossary_heard)  # the windows of a batch share one prompt
        self._before = ""  # the text decoded so far, for condition_on_previous_text

    def decode(self, windows: list[batching.Window]) -> list[list[tuple[Segment, float]]]:
        """For each window, its segments (times on the joined speech) and their average log-probability."""
        import torch

        with torch.no_grad():
            mels, frames = self._mels(windows)
            if self.language is None:
                _, probabilities = self._model.detect_language(mels[:1])
                self.language = max(probabilities[0], key=probabilities[0].get)
            results = self._decode_with_fallback(mels)
            decoded = [self._segments(window, _DecodedWindow(result, mel, count))
                       for window, result, mel, count in zip(windows, results, mels, frames)]
            text = "".join(segment.text for pieces in decoded for segment, _ in pieces)
            self._heard.hear(text)
            self._before = (self._before + text)[-batching.TEXT_BEFORE_CHARACTERS:]
            return decoded

    def _mels(self, windows: list[batching.Window]) -> tuple[Any, list[int]]:
        import torch
        from whisper.audio import HOP_LENGTH, N_FRAMES, N_SAMPLES, log_mel_spectrogram

        mels, frames = [], []
        for window in windows:
            samples = torch.from_numpy(self._speech[window.start:window.end]).to(self._model.device)
            count = min(N_FRAMES, (window.end - window.start) // HOP_LENGTH)
            # The window followed by the spectrogram of silence up to 30 s, as in Whisper's training.
            # whisper.transcribe pads its last window with zeros instead, a steady sound Whisper never
            # heard after speech; it often ends such a window before its last words, and in a batch
            # every window is a last window.
            mels.append(log_mel_spectrogram(samples, self._model.dims.n_mels, padding=N_SAMPLES)[:, :N_FRAMES])
            frames.append(count)
        return torch.stack(mels).to(torch.float16 if self._fp16 else torch.float32), frames

    def _decode_with_fallback(self, mels: Any) -> list[Any]:
        """openai-whisper's temperature fallback, for the windows of a batch that need it, together."""
        from whisper.decoding import DecodingOptions

        options = self._options
        temperatures = TEMPERATURES if options.temperature is None else (options.temperature,)
        results: list[Any] = [None] * mels.shape[0]
        pending = list(range(mels.shape[0]))
        for attempt, temperature in enumerate(temperatures):
            if attempt:
                self._check()  # no retry at a higher temperature is started once cancelled
            decoding = DecodingOptions(
                task=options.task, language=self.language, temperature=temperature,
                beam_size=options.beam_size if temperature == 0 and options.beam_size > 1 else None,
                best_of=5 if temperature > 0 else None,  # as openai-whisper's command line and faster-whisper
                prompt=self._prompt(), fp16=self._fp16,
            )
            decoded = _batch_task(self._model, decoding).run(mels[pending])
            retry = []
            for index, result in zip(pending, decoded):
                results[index] = result
                if _needs_fallback(result):
                    retry.append(index)
            pending = retry
            if not pending:
                break
        return results

    def _prompt(self) -> str | None:
        """The prompt of the next batch: the glossary's terms heard in the windows before it first, then
        the initial prompt, and where asked for the text decoded before the batch."""
        prompt = replace(self._options, glossary_terms=self._heard.ordered()).prompt_with_glossary()
        if not self._options.condition_on_previous_text:
            return prompt
        return batching.prompt_with_text_before(prompt, self._before)

    def _segments(self, window: batching.Window, decoded: _DecodedWindow) -> list[tuple[Segment, float]]:
        result = decoded.result
        if result.no_speech_prob > NO_SPEECH_THRESHOLD and result.avg_logprob < LOG_PROB_THRESHOLD:
            return []  # silence, as openai-whisper judges it
        tokenizer = self._get_tokenizer()
        pieces = batching.split_segments(result.tokens, tokenizer, window.seconds)
        if self._options.word_timestamps and pieces:
            from whisper.timing import add_word_timestamps

            add_word_timestamps(segments=pieces, model=self._model, tokenizer=tokenizer, mel=decoded.mel,
                                num_frames=decoded.frames, last_speech_timestamp=0.0)
        offset = window.start / SAMPLE_RATE
        segments = []
        for piece in pieces:
            if not piece["text"].strip():
                continue
            words = [Word(start=offset + w["start"], end=offset + w["end"], text=w["word"],
                          probability=float(w["probability"])) for w in piece.get("words", [])]
            segment = Segment(start=offset + piece["start"], end=offset + piece["end"], text=piece["text"], words=words)
            segments.append((segment, float(result.avg_logprob)))
        return segments

    def _get_tokenizer(self) -> Any:
        if self._tokenizer is None:
            from whisper.tokenizer import get_tokenizer

            self._tokenizer = get_tokenizer(self._model.is_multilingual, num_languages=self._model.num_languages,
                                            language=self.language, task=self._options.task)
        return self._tokenizer


def _batch_task(model: Any, options: Any) -> Any:
    """openai-whisper's DecodingTask, fixed for more than one window with a beam or best-of-n.

    It repeats the text of each window for every hypothesis but no longer the encoder's output, which
    only broadcasts for a single window; here each window's output is repeated alongside its text.
    """
    from whisper.decoding import DecodingTask

    class BatchDecodingTask(DecodingTask):
        repeated = False

        def _get_audio_features(self, mel: Any) -> Any:
            features = super()._get_audio_features(mel)
            if mel.shape[0] > 1 and self.n_group > 1:
                self.repeated = True
                features = features.repeat_interleave(self.n_group, dim=0)
            return features

        def _detect_language(self, audio_features: Any, tokens: Any) -> Any:
            # Once per window, before the text is repeated for each hypothesis.
            return super()._detect_language(audio_features[:: self.n_group] if self.repeated else audio_features,
                                            tokens)

    return BatchDecodingTask(model, options)


def _needs_fallback(result: Any) -> bool:
    if result.no_speech_prob > NO_SPEECH_THRESHOLD and result.avg_logprob < LOG_PROB_THRESHOLD:
        return False  # silence: a higher temperature would only invent text
    return result.compression_ratio > COMPRESSION_RATIO_THRESHOLD or result.avg_logprob < LOG_PROB_THRESHOLD


def _bytes_per_value(model: Any) -> int:
    return 2 if next(model.parameters()).dtype.itemsize == 2 else 4


def _free_gpu_memory() -> int | None:
    import torch

    return int(torch.cuda.mem_get_info()[0])


def _is_out_of_memory(exc: BaseException) -> bool:
    from desktop.core.gpu.fallback import is_out_of_memory

    return is_out_of_memory(exc)


def load_batched_torch_engine(model: "LocalModel", device: str) -> BatchedTorchEngine:
    """Load ``model`` with openai-whisper on "cuda" (fp16 weights) or "cpu" (fp32), decoding in batches."""
    from desktop.engines.transcription.decoders.whisper_torch import load_torch_model

    return BatchedTorchEngine(load_torch_model(model, device), device=device, model_name=model.name)
