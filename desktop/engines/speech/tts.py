"""Speech synthesis: one code path for the window and the command line, for every kind of voice. No Qt here.

The text is split into sentences (desktop.core.speech.sentences) and spoken one sentence at a time, so the
caller can play the first sentence while the rest are being made, show progress per sentence, and
cancel between sentences (a cancel takes effect within one sentence and keeps what was made). Each
sentence carries VoxDesk's inaudible watermark (desktop.engines.voices.watermark) unless the settings
say otherwise, so what is played and what is saved are both marked.

The loaded model stays in memory between runs and is released when another model is chosen.
Synthesis runs on the CPU by design. The experimental GPU mode runs on torch's GPU; on ROCm builds it
turns cuDNN/MIOpen off while speaking (MIOpen re-tunes its kernels for every new sentence length,
which costs far more than it saves), and any GPU failure falls back to the CPU through
desktop.core.gpu.fallback, so the window shows it like any other fallback.

Coqui models (desktop.engines.speech.coqui) and Piper voices (desktop.engines.speech.piper) are two
kinds of voice behind one interface (desktop.engines.speech.voice); desktop.engines.speech.voice_kinds
is the one place that tells which kind a model is. Everything around the sentence itself — planning,
streaming, cancel, the watermark, the pause — is this module's, the same for both. Piper voices
always run on the CPU.
"""
from __future__ import annotations

import contextlib
import gc
import logging
import threading
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator

import numpy as np

from desktop.core.common.errors import UserFacingError
from desktop.core.gpu.fallback import FallbackLog, run_with_gpu_fallback
from desktop.core.speech.sentences import Sentence, guess_language, has_han, has_latin, is_speakable, split_sentences
from desktop.core.speech.tts_catalog import CURATED, MULTILINGUAL_DEFAULT, default_voice_title
from desktop.core.speech.tts_models import TtsModelStore
from desktop.core.common.i18n import N_
from desktop.engines.speech.voice import FoundModel, Voice, VoiceInfo
from desktop.engines.speech.voice_kinds import find_model, is_in_place, kind_of
from desktop.engines.voices.watermark import apply_watermark

log = logging.getLogger(__name__)

JOB_NAME = N_("SpeechEngine", "Speech synthesis")  # how fallbacks name this work
SENTENCE_PAUSE_SECONDS = 0.35  # silence after each sentence
MAX_SENTENCE_CHARS = 240  # a voice may take fewer at once (Voice.longest_sentence)

LANGUAGE_NAMES = {
    "en": N_("Languages", "English"), "zh": N_("Languages", "Chinese"), "de": N_("Languages", "German"),
    "fr": N_("Languages", "French"), "es": N_("Languages", "Spanish"), "it": N_("Languages", "Italian"),
    "pt": N_("Languages", "Portuguese"), "nl": N_("Languages", "Dutch"), "pl": N_("Languages", "Polish"),
    "ru": N_("Languages", "Russian"), "tr": N_("Languages", "Turkish"), "ja": N_("Languages", "Japanese"),
    "ko": N_("Languages", "Korean"), "ar": N_("Languages", "Arabic"), "cs": N_("Languages", "Czech"),
    "hu": N_("Languages", "Hungarian"), "hi": N_("Languages", "Hindi"), "uk": N_("Languages", "Ukrainian"),
    "be": N_("Languages", "Belarusian"), "bg": N_("Languages", "Bulgarian"), "bn": N_("Languages", "Bengali"),
    "ca": N_("Languages", "Catalan"), "da": N_("Languages", "Danish"), "el": N_("Languages", "Greek"),
    "et": N_("Languages", "Estonian"), "ewe": N_("Languages", "Ewe"), "fa": N_("Languages", "Persian"),
    "fi": N_("Languages", "Finnish"), "ga": N_("Languages", "Irish"), "hau": N_("Languages", "Hausa"),
    "hr": N_("Languages", "Croatian"), "is": N_("Languages", "Icelandic"), "ka": N_("Languages", "Georgian"),
    "kk": N_("Languages", "Kazakh"), "lb": N_("Languages", "Luxembourgish"), "lin": N_("Languages", "Lingala"),
    "lt": N_("Languages", "Lithuanian"), "lv": N_("Languages", "Latvian"), "mt": N_("Languages", "Maltese"),
    "ne": N_("Languages", "Nepali"), "no": N_("Languages", "Norwegian"), "ro": N_("Languages", "Romanian"),
    "sk": N_("Languages", "Slovak"), "sl": N_("Languages", "Slovenian"), "sr": N_("Languages", "Serbian"),
    "sv": N_("Languages", "Swedish"), "sw": N_("Languages", "Swahili"), "tw": N_("Languages", "Twi"),
    "vi": N_("Languages", "Vietnamese"), "yor": N_("Languages", "Yoruba"),
}

PREVIEW_TEXT = {
    "en": "Hello! This is how I sound when I read your text aloud.",
    "zh": "你好！这是我朗读文字时的声音。",
}

NO_TEXT = N_("SpeechEngine", "There is no text to read. Type or paste some text first.")
NOTHING_TO_SAY = (
    N_("SpeechEngine", "The text has only punctuation, symbols or emoji, so there is nothing to read aloud. Type "
                       "some words.")
)


@dataclass
class SynthesisSettings:
    model: str = "tts_models/en/ljspeech/vits"  # a catalog or imported name, or a model folder
    speaker: str | None = None  # one of the model's voices; None: its first voice
    language: str | None = None  # "en", "zh", …; None: the model's own, or per sentence for XTTS
    speed: float = 1.0  # 0.5 … 2.0; 1.0 is the model's natural pace
    use_gpu: bool = False  # experimental: run on torch's GPU, falling back to the CPU
    watermark: bool = True  # mark each sentence with VoxDesk's inaudible watermark (Settings can turn it off)


@dataclass
class SpokenSentence:
    index: int  # 0-based position among the sentences of this run
    total: int  # how many sentences the run will speak
    sentence: Sentence  # its text and where it sits in the original text
    samples: np.ndarray  # float32 mono, including the pause after it
    sample_rate: int

    @property
    def duration(self) -> float:
        return len(self.samples) / self.sample_rate


@dataclass
class Speech:
    sample_rate: int
    total: int  # sentences planned
    sentences: list[SpokenSentence] = field(default_factory=list)

    @property
    def complete(self) -> bool:
        return len(self.sentences) == self.total

    @property
    def samples(self) -> np.ndarray:
        if not self.sentences:
            return np.zeros(0, dtype=np.float32)
        return np.concatenate([s.samples for s in self.sentences])

    @property
    def duration(self) -> float:
        return sum(s.duration for s in self.sentences)

    def add(self, sentence: Sentence, samples: np.ndarray, rate: int, *, watermark: bool,
            on_sentence: Callable[[SpokenSentence], None] | None = None,
            on_progress: Callable[[float], None] | None = None) -> SpokenSentence:
        """Keep the next sentence spoken (watermarked first when asked, before anyone hears or saves
        it), hand it to on_sentence and tell on_progress the share of the run done."""
        if watermark:
            samples = apply_watermark(samples, rate)
        spoken = SpokenSentence(len(self.sentences), self.total, sentence, samples, rate)
        self.sentences.append(spoken)
        if on_sentence:
            on_sentence(spoken)
        if on_progress:
            on_progress(len(self.sentences) / self.total)
        return spoken


# --- the GPU seam ----------------------------------------------------------------------------


class TorchGpu:
    """torch's GPU (ROCm/HIP or CUDA, both under the "cuda" device name)."""

    def available(self) -> bool:
        import torch

        return bool(torch.cuda.is_available())

    def is_rocm(self) -> bool:
        import torch

        return getattr(torch.version, "hip", None) is not None

    def move(self, synthesizer: Any) -> None:
        synthesizer.to("cuda")
        synthesizer.use_cuda = True  # Coqui runs its vocoder on "cuda" when this is set

    @contextlib.contextmanager
    def session(self) -> Iterator[None]:
        """While speaking on a ROCm GPU, keep MIOpen out of the way (see the module notes).

        The flag is process-wide; a transcription running at the same time also goes without MIOpen
        for those seconds, which costs it little.
        """
        if not self.is_rocm():
            yield
            return
        import torch

        with torch.backends.cudnn.flags(enabled=False):
            yield

    def free_memory(self) -> None:
        import torch

        torch.cuda.empty_cache()


# --- the engine ------------------------------------------------------------------------------


@dataclass
class _Loaded:
    key: tuple[str, str]  # (model, device)
    voice: Voice

    @property
    def info(self) -> VoiceInfo:
        return self.voice.info


class SpeechSynthesizer:
    """Owns the loaded voice (of any kind); one run at a time."""

    def __init__(
        self,
        store: TtsModelStore,
        fallback_log: FallbackLog,
        *,
        gpu: TorchGpu | None = None,
    ) -> None:
        self._store = store
        self._fallbacks = fallback_log
        self._gpu = gpu or TorchGpu()
        self._loaded: _Loaded | None = None
        self._gpu_broken = False  # after a fallback, stay on the CPU until the model is switched
        self._lock = threading.RLock()

    # -- models -------------------------------------------------------------------------------

    @property
    def store(self) -> TtsModelStore:
        return self._store

    @property
    def loaded(self) -> VoiceInfo | None:
        return self._loaded.info if self._loaded else None

    def device_label(self, settings: SynthesisSettings) -> str:
        """"GPU" when this run would use the GPU, else "CPU" (the status bar's "Speech synthesis: …")."""
        return "GPU" if self._device_for(settings) == "cuda" else "CPU"

    def missing_model(self, settings: SynthesisSettings) -> str | None:
        """The catalog model to download before settings can run, or None when it is on disk."""
        if is_in_place(settings.model):
            return None
        model = self._store.get(settings.model)
        missing = [n for n in (model.name, model.vocoder) if n and not self._store.is_downloaded(n)]
        return model.name if missing else None

    def voice_info(self, settings: SynthesisSettings, *, on_status: Callable[[str], None] | None = None) -> VoiceInfo:
        """Load the model of settings (or keep it) and say what it offers."""
        with self._lock:
            return self._ensure_loaded(settings, on_status).info

    def release(self) -> None:
        """Free the loaded model; the next run loads it again."""
        with self._lock:
            loaded, self._loaded = self._loaded, None
            self._gpu_broken = False
            if loaded is not None:
                on_gpu = loaded.key[1] == "cuda"
                del loaded
                if on_gpu:
                    gc.collect()  # torch modules can sit in reference cycles; their tensors go with them
                    with contextlib.suppress(Exception):
                        self._gpu.free_memory()

    # -- speaking -----------------------------------------------------------------------------

    def plan(self, text: str, settings: SynthesisSettings) -> list[Sentence]:
        """The sentences a run will speak; UserFacingError for text there is nothing to say in."""
        if not text or not text.strip():
            raise UserFacingError(NO_TEXT)
        if not is_speakable(text):
            raise UserFacingError(NOTHING_TO_SAY)
        max_chars = MAX_SENTENCE_CHARS
        if self._loaded is not None:
            language = settings.language or guess_language(text) or "en"
            max_chars = self._loaded.voice.longest_sentence(language) or MAX_SENTENCE_CHARS
        sentences = split_sentences(text, max_chars=max_chars)
        if not sentences:
            raise UserFacingError(NOTHING_TO_SAY)
        return sentences

    def synthesize(
        self,
        text: str,
        settings: SynthesisSettings,
        *,
        on_sentence: Callable[[SpokenSentence], None] | None = None,
        on_progress: Callable[[float], None] | None = None,
        on_status: Callable[[str], None] | None = None,
        on_note: Callable[[str], None] | None = None,
        cancelled: Callable[[], bool] | None = None,
    ) -> Speech:
        """Speak text sentence by sentence.

        Each finished sentence goes to on_sentence at once. A cancel is honoured between sentences:
        the Speech returned then holds the sentences made so far (speech.complete is False).
        Raises UserFacingError (ModelError for model problems) with a sentence the user can act on.
        """
        is_cancelled = cancelled or (lambda: False)
        with self._lock:
            if not text or not text.strip():
                raise UserFacingError(NO_TEXT)
            loaded = self._ensure_loaded(settings, on_status)
            sentences = self.plan(text, settings)
            self._check_text(text, loaded, settings, on_note)
            speaker = self._speaker(loaded, settings.speaker)
            speech = Speech(sample_rate=loaded.info.sample_rate, total=len(sentences))
            device = loaded.info.device
            # Hold the model only through self._loaded: a GPU fallback in the middle of the run drops
            # it there, and GPU memory can only be freed once nothing else refers to it.
            del loaded
            if on_status:
                on_status(N_("SpeechEngine", "Speaking on the {device}…").format(device=device))
            if on_progress:
                on_progress(0.0)
            for sentence in sentences:
                if is_cancelled():
                    break
                samples = self._speak(sentence.text, settings, speaker)
                speech.add(sentence, samples, self._loaded.info.sample_rate, watermark=settings.watermark,
                           on_sentence=on_sentence, on_progress=on_progress)
            # A GPU fallback may have reloaded the model on the CPU with the same rate; keep it exact.
            speech.sample_rate = self._loaded.info.sample_rate
            return speech

    def preview(
        self,
        settings: SynthesisSettings,
        *,
        cancelled: Callable[[], bool] | None = None,
        on_status: Callable[[str], None] | None = None,
    ) -> Speech:
        """A short sample of the voice in settings.speaker, in the chosen (or the model's) language."""
        with self._lock:
            # No local reference to the model (see synthesize).
            language = settings.language or self._ensure_loaded(settings, on_status).info.languages[0]
            text = PREVIEW_TEXT.get(language, PREVIEW_TEXT["en"])
            return self.synthesize(text, settings, cancelled=cancelled)

    # -- internals ----------------------------------------------------------------------------

    def _device_for(self, settings: SynthesisSettings) -> str:
        if kind_of(settings.model, self._store).cpu_only:
            return "cpu"
        if settings.use_gpu and not self._gpu_broken and self._gpu.available():
            return "cuda"
        return "cpu"

    def _ensure_loaded(self, settings: SynthesisSettings, on_status) -> _Loaded:
        device = self._device_for(settings)
        if self._loaded is not None and self._loaded.key == (settings.model, device):
            return self._loaded
        if self._loaded is not None:
            if self._loaded.key[0] == settings.model:
                self._drop()  # the same model on another device
            else:
                self.release()  # another model: a new chance on the GPU too
        found = find_model(settings.model, self._store)
        if on_status:
            on_status(N_("SpeechEngine", "Loading the voice model “{title}”…").format(title=found.title))
        if device == "cpu":
            self._loaded = self._load(found, "cpu")
            return self._loaded

        def on_gpu() -> _Loaded:
            return self._load(found, "cuda")

        def on_cpu() -> _Loaded:
            self._gpu_broken = True
            return self._load(found, "cpu")

        self._loaded = run_with_gpu_fallback(
            JOB_NAME, N_("SpeechEngine", "load voice model"), on_gpu, on_cpu, self._fallbacks,
            free_memory=self._gpu.free_memory,
        )
        return self._loaded

    def _drop(self) -> None:
        """Unload the current model without forgetting that the GPU failed (used for a device switch)."""
        broken = self._gpu_broken
        self.release()
        self._gpu_broken = broken

    def _load(self, found: FoundModel, device: str) -> _Loaded:
        return _Loaded((found.model, device), found.kind.load(found, device, self._gpu))

    def _speaker(self, loaded: _Loaded, wanted: str | None) -> str | None:
        speakers = loaded.info.speakers
        if not speakers:
            return None
        if not wanted:
            return speakers[0]
        if wanted not in speakers:
            shown = ", ".join(speakers[:8]) + (" …" if len(speakers) > 8 else "")
            raise UserFacingError(
                N_("SpeechEngine", "“{wanted}” is not one of the voices of “{title}”. Choose one of: {shown}.").format(
                    wanted=wanted, title=loaded.info.title, shown=shown)
            )
        return wanted

    def _check_text(self, text: str, loaded: _Loaded, settings: SynthesisSettings, on_note) -> None:
        """Refuse text in a script the model cannot say, and name a model that can."""
        speaks = set(loaded.info.languages)
        if settings.language and settings.language not in speaks:
            raise UserFacingError(
                N_("SpeechEngine", "“{title}” does not speak {language}. Choose {suggestion}, or set the language to "
                   "one it speaks ({languages}).").format(
                    title=loaded.info.title, language=language_name(settings.language),
                    suggestion=_suggestion(settings.language, self._store), languages=_name_list(loaded.info.languages))
            )
        if has_han(text) and "zh" not in speaks and "ja" not in speaks:
            raise UserFacingError(
                N_("SpeechEngine", "“{title}” speaks {languages} only, so it cannot read the Chinese in this text. "
                   "Choose {suggestion}.").format(
                    title=loaded.info.title, languages=_spoken(loaded), suggestion=_suggestion("zh", self._store))
            )
        latin_languages = speaks - {"zh", "ja", "ko", "ar", "hi", "ru", "uk", "bg", "el"}
        if has_latin(text) and not latin_languages:
            if not has_han(text):
                raise UserFacingError(
                    N_("SpeechEngine", "“{title}” speaks {languages} only, so it cannot read this English text. "
                       "Choose {suggestion}.").format(
                        title=loaded.info.title, languages=_spoken(loaded), suggestion=_suggestion("en", self._store))
                )
            if on_note:
                on_note(N_("SpeechEngine", "“{title}” skips the Latin letters in this text. XTTS v2 reads Chinese "
                                           "and English together.").format(title=loaded.info.title))
        unknown = loaded.voice.unknown_characters(text)
        if unknown and on_note:
            on_note(N_("SpeechEngine", "“{title}” cannot say these characters and skips them: {characters}").format(
                title=loaded.info.title, characters=" ".join(unknown[:12])))

    def _speak(self, text: str, settings: SynthesisSettings, speaker: str | None) -> np.ndarray:
        """One sentence, on the GPU with CPU fallback, or on the CPU.

        The GPU model is read from self._loaded, never kept in a local: on_cpu drops it there and
        frees GPU memory, which a reference left in this frame would keep alive.
        """
        if self._loaded.key[1] == "cpu":
            return self._run(self._loaded, text, settings, speaker)

        def on_gpu() -> np.ndarray:
            with self._gpu.session():
                return self._run(self._loaded, text, settings, speaker)

        def on_cpu() -> np.ndarray:
            self._drop()
            self._gpu_broken = True
            cpu = self._ensure_loaded(SynthesisSettings(**{**settings.__dict__, "use_gpu": False}), None)
            return self._run(cpu, text, settings, speaker)

        return run_with_gpu_fallback(
            JOB_NAME, N_("SpeechEngine", "speak a sentence"), on_gpu, on_cpu, self._fallbacks,
            free_memory=self._gpu.free_memory,
        )

    def _run(self, loaded: _Loaded, text: str, settings: SynthesisSettings, speaker: str | None) -> np.ndarray:
        speed = min(2.0, max(0.5, float(settings.speed or 1.0)))
        pause = np.zeros(int(SENTENCE_PAUSE_SECONDS * loaded.info.sample_rate), dtype=np.float32)
        samples = loaded.voice.synthesize(text, speaker=speaker, language=settings.language, speed=speed)
        return np.concatenate([samples, pause])


def language_name(code: str) -> str:
    """The language's name for a sentence (a Message), or the code when it has none."""
    return LANGUAGE_NAMES.get(code, code)


def _name_list(codes) -> str:
    """"English", "English and Chinese", "English, Chinese and German": each name translated."""
    names = [language_name(code) for code in codes]
    if not names:
        return N_("SpeechEngine", "one language")
    listed = names[0]
    for name in names[1:-1]:
        listed = N_("SpeechEngine", "{first}, {second}").format(first=listed, second=name)
    if len(names) > 1:
        listed = N_("SpeechEngine", "{first} and {last}").format(first=listed, last=names[-1])
    return listed


def _spoken(loaded: _Loaded) -> str:
    return _name_list(loaded.info.languages[:3])


def _suggestion(language: str, store: TtsModelStore | None = None) -> str:
    """A model that speaks language: the default voice of the model list for it, and XTTS v2."""
    if language in ("en", "zh"):
        title = default_voice_title(language, store)
        if title != CURATED[MULTILINGUAL_DEFAULT].title:
            return N_("SpeechEngine", "a model that speaks {language}, such as “{title}” or “{other}”").format(
                language=language_name(language), title=title, other=CURATED[MULTILINGUAL_DEFAULT].title)
    return N_("SpeechEngine", "a model that speaks {language}, such as “{title}”").format(
        language=language_name(language), title=CURATED[MULTILINGUAL_DEFAULT].title)
