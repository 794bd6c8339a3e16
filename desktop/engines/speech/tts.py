"""Speech synthesis with Coqui TTS: one code path for the window and the command line. No Qt here.

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

Coqui is imported lazily, inside the functions that need it: importing it pulls in torch.

Piper voices (desktop.engines.speech.piper) run behind the same interface: a Piper voice is loaded
instead of a Coqui model, and everything around the sentence itself — planning, streaming, cancel,
the watermark, the pause — is the same code for both. Piper voices always run on the CPU.
"""
from __future__ import annotations

import contextlib
import gc
import logging
import os
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator

import numpy as np

from desktop.core.common.errors import ModelError, UserFacingError
from desktop.core.common.model_files import check_model, read_stats
from desktop.core.gpu.fallback import FallbackLog, run_with_gpu_fallback
from desktop.core.speech.piper_voices import inspect_piper, is_piper_name, is_piper_voice
from desktop.core.speech.sentences import Sentence, guess_language, has_han, has_latin, is_speakable, split_sentences
from desktop.core.speech.coqui_folders import find_model_file, fix_config_paths, inspect_folder, normalise_language
from desktop.core.speech.tts_catalog import CURATED, MULTILINGUAL_DEFAULT, default_voice_title
from desktop.core.speech.tts_models import TtsModelStore
from desktop.core.common.i18n import N_
from desktop.engines.voices.watermark import apply_watermark

log = logging.getLogger(__name__)

JOB_NAME = N_("SpeechEngine", "Speech synthesis")  # how fallbacks name this work
SENTENCE_PAUSE_SECONDS = 0.35  # silence after each sentence
MAX_SENTENCE_CHARS = 240
# XTTS refuses longer inputs per language (its tokenizer's char_limits); Chinese is the tightest.
XTTS_MAX_CHARS = {"zh": 80, "ja": 70, "ko": 90}

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


@dataclass(frozen=True)
class VoiceInfo:
    """What the loaded model offers the window."""

    model: str
    title: str
    speakers: tuple[str, ...]  # named voices; empty for a one-voice model
    languages: tuple[str, ...]  # language codes it speaks
    sample_rate: int
    can_change_speed: bool
    device: str  # "CPU" or "GPU"

    @property
    def multi_speaker(self) -> bool:
        return len(self.speakers) > 1


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
    synthesizer: Any  # TTS.utils.synthesizer.Synthesizer
    info: VoiceInfo
    kind: str  # Coqui model type: "vits", "xtts", …
    model_languages: dict[str, str]  # our code -> the model's own language name ("zh" -> "zh-cn")
    base_length_scale: float | None
    vocabulary: set[str] | None  # characters a grapheme model knows; None for phoneme models


class SpeechSynthesizer:
    """Owns the loaded Coqui model; one run at a time."""

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
        if _is_path(settings.model):
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
        if self._loaded is not None and self._loaded.kind == "xtts":
            language = settings.language or guess_language(text) or "en"
            max_chars = XTTS_MAX_CHARS.get(language, MAX_SENTENCE_CHARS)
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
        if self._is_piper(settings.model):
            return "cpu"  # Piper voices are made for the CPU, and fast there
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
        folder, title, catalog_languages = self._resolve(settings.model)
        if on_status:
            on_status(N_("SpeechEngine", "Loading the voice model “{title}”…").format(title=title))
        if device == "cpu":
            self._loaded = self._load(folder, title, catalog_languages, settings.model, "cpu")
            return self._loaded

        def on_gpu() -> _Loaded:
            return self._load(folder, title, catalog_languages, settings.model, "cuda")

        def on_cpu() -> _Loaded:
            self._gpu_broken = True
            return self._load(folder, title, catalog_languages, settings.model, "cpu")

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

    def _is_piper(self, model: str) -> bool:
        if _is_path(model):
            return is_piper_voice(Path(model).expanduser())
        if is_piper_name(model):
            return True
        try:
            return self._store.is_downloaded(model) and self._store.manifest(model).get("kind") == "piper"
        except UserFacingError:
            return False

    def _resolve(self, model: str) -> tuple[Path, str, tuple[str, ...]]:
        """The folder (or Piper .onnx file), display title and catalog languages of a model name or path."""
        if _is_path(model):
            path = Path(model).expanduser()
            if is_piper_voice(path):
                return path, path.stem if path.suffix == ".onnx" else path.name, inspect_piper(path).languages
            check = inspect_folder(path)
            return path, path.name, check.languages
        info = self._store.get(model)
        if not self._store.is_downloaded(model):
            raise ModelError(
                N_("SpeechEngine", "The voice model “{title}” is not on this computer yet. Download it from the "
                                   "model list, or import its folder.").format(title=info.title)
            )
        folder = self._store.folder(model)
        # The data folder may have moved since the model was added: keep config paths pointing here.
        fix_config_paths(folder)
        return folder, info.title, info.languages

    def _load(self, folder: Path, title: str, catalog_languages: tuple[str, ...], model: str, device: str) -> _Loaded:
        if self._is_piper(model):
            return _load_piper(folder, title, model)
        check = inspect_folder(folder)
        check_model(folder, "coqui")
        vocoder_folder = None
        if not _is_path(model):
            vocoder = self._store.manifest(model).get("vocoder")
            if vocoder:
                vocoder_folder = self._store.folder(vocoder)
                check_model(vocoder_folder, "coqui")
        synthesizer = _load_coqui(folder, check.kind, check.model_file, vocoder_folder, title)
        if device == "cuda":
            self._gpu.move(synthesizer)
        tts_model = synthesizer.tts_model
        languages = {normalise_language(name): name for name in tts_model.language_manager.language_names}
        if check.kind == "xtts":
            languages = {normalise_language(name): name for name in tts_model.config.languages}
        codes = tuple(dict.fromkeys([*languages, *catalog_languages]))
        speakers: tuple[str, ...] = ()
        manager = getattr(tts_model, "speaker_manager", None)
        if manager is not None and manager.num_speakers > 1:
            speakers = tuple(manager.speaker_names)
        base_length_scale = getattr(tts_model, "length_scale", None)
        vocabulary = None
        tokenizer = getattr(tts_model, "tokenizer", None)
        if tokenizer is not None and not getattr(tokenizer, "use_phonemes", True):
            vocabulary = set(tokenizer.characters.vocab)
        info = VoiceInfo(
            model=model,
            title=title,
            speakers=speakers,
            languages=codes,
            sample_rate=int(synthesizer.output_sample_rate),
            can_change_speed=check.kind == "xtts" or isinstance(base_length_scale, (int, float)),
            device="GPU" if device == "cuda" else "CPU",
        )
        return _Loaded((model, device), synthesizer, info, check.kind, languages,
                       float(base_length_scale) if isinstance(base_length_scale, (int, float)) else None,
                       vocabulary)

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
        if loaded.vocabulary is not None:
            cleaner = loaded.synthesizer.tts_model.tokenizer.text_cleaner
            cleaned = cleaner(text, lang=None) if cleaner else text
            unknown = sorted({ch for ch in cleaned if ch.isalnum() and ch not in loaded.vocabulary})
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
        if loaded.kind == "piper":
            voice = loaded.synthesizer
            speaker_id = voice.check.speakers.get(speaker) if speaker else None
            return np.concatenate([voice.speak(text, speaker_id=speaker_id, speed=speed), pause])
        from TTS.utils.synthesizer import PAD_SILENCE_SAMPLES

        kwargs: dict[str, Any] = {}
        if loaded.kind == "xtts":
            kwargs["speed"] = speed
        elif loaded.base_length_scale is not None:
            loaded.synthesizer.tts_model.length_scale = loaded.base_length_scale / speed
        language = None
        if len(loaded.model_languages) > 1:
            code = settings.language or guess_language(text) or loaded.info.languages[0]
            language = loaded.model_languages.get(code) or next(iter(loaded.model_languages.values()))
        try:
            wav = loaded.synthesizer.tts(text=text, speaker_name=speaker, language_name=language,
                                         split_sentences=False, **kwargs)
        except ImportError as exc:  # e.g. XTTS reading Chinese without pypinyin
            raise _missing_tools_error(loaded.info.title, exc) from exc
        samples = np.asarray(wav, dtype=np.float32).reshape(-1)
        # Coqui pads every sentence with its own fixed silence; use a pause of our length instead.
        if len(samples) >= PAD_SILENCE_SAMPLES and not np.any(samples[-PAD_SILENCE_SAMPLES:]):
            samples = samples[:-PAD_SILENCE_SAMPLES]
        return np.concatenate([np.clip(samples, -1.0, 1.0), pause])


# --- loading ---------------------------------------------------------------------------------


def _load_piper(path: Path, title: str, model: str) -> _Loaded:
    """A Piper voice (its folder or its .onnx) as the engine's loaded model, on the CPU."""
    from desktop.engines.speech.piper import load_voice

    voice = load_voice(path, title)
    check = voice.check
    info = VoiceInfo(
        model=model,
        title=title,
        speakers=tuple(sorted(check.speakers, key=check.speakers.get)) if len(check.speakers) > 1 else (),
        languages=check.languages,
        sample_rate=check.sample_rate,
        can_change_speed=True,
        device="CPU",
    )
    return _Loaded((model, "cpu"), voice, info, "piper", {code: code for code in check.languages}, None, None)


def use_safe_coqui_loaders() -> None:
    """Make every model load in this process data-only, whatever Coqui passes; call before loading.

    torch.load is forced to weights_only (torch reads TORCH_FORCE_WEIGHTS_ONLY_LOAD on every call,
    and it wins over an explicit weights_only=False). Coqui reads a statistics file with
    np.load(allow_pickle=True), which would run a pickle: its AudioProcessor.load_stats reads through
    read_stats instead, which builds nothing but arrays. Both hold for every Coqui model kind and
    every caller, even for a file changed after check_model looked at it.
    """
    os.environ.pop("TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD", None)
    os.environ["TORCH_FORCE_WEIGHTS_ONLY_LOAD"] = "1"
    from TTS.utils.audio.processor import AudioProcessor

    AudioProcessor.load_stats = _load_stats_safely


def _load_stats_safely(processor: Any, stats_path: str) -> tuple[Any, Any, Any, Any, dict]:
    """Coqui's AudioProcessor.load_stats (coqui-tts 0.28), reading the file with read_stats."""
    stats = read_stats(stats_path).item()
    stats_config = stats["audio_config"]
    skip = ("griffin_lim_iters", "stats_path", "do_trim_silence", "ref_level_db", "power", "sample_rate", "trim_db")
    for key, value in stats_config.items():
        if key not in skip and value != processor.__dict__[key]:
            raise ValueError(f"audio setting {key} differs from the one the statistics were computed with: "
                             f"{value} vs {processor.__dict__[key]}")
    return stats["mel_mean"], stats["mel_std"], stats["linear_mean"], stats["linear_std"], stats_config


def _load_coqui(folder: Path, kind: str, model_file: Path | None, vocoder_folder: Path | None, title: str) -> Any:
    """Coqui's Synthesizer for a checked model folder; ModelError with a plain sentence on failure."""
    try:
        from TTS.utils.synthesizer import Synthesizer
    except Exception as exc:  # noqa: BLE001 - a broken install shows up here as any kind of error
        raise ModelError(
            N_("SpeechEngine", "The speech synthesis part of VoxDesk is not installed correctly. Run the installer "
                               "again (make setup)."),
            detail=repr(exc),
        ) from exc

    use_safe_coqui_loaders()
    vocoder_kwargs: dict[str, Any] = {}
    if vocoder_folder is not None:
        vocoder_check = _vocoder_files(vocoder_folder)
        vocoder_kwargs = {"vocoder_checkpoint": vocoder_check[0], "vocoder_config": vocoder_check[1]}
    try:
        return Synthesizer(
            tts_checkpoint=folder if kind == "xtts" else model_file,
            tts_config_path=folder / "config.json",
            **vocoder_kwargs,
        )
    except ModelError:
        raise  # read_stats refused a file, with a sentence naming it
    except (ImportError, FileNotFoundError) as exc:
        if isinstance(exc, FileNotFoundError) and "espeak" not in str(exc).lower():
            raise ModelError(
                N_("SpeechEngine", "The voice model “{title}” is missing one of its files. Download or import it "
                                   "again.").format(title=title),
                detail=repr(exc),
            ) from exc
        raise _missing_tools_error(title, exc) from exc
    except Exception as exc:  # noqa: BLE001 - damaged weights fail in many ways (pickle, zip, shapes)
        raise ModelError(
            N_("SpeechEngine", "The voice model “{title}” could not be loaded: its model file is damaged or does not "
                               "match its config.json. Download or import it again.").format(title=title),
            detail=f"{type(exc).__name__}: {exc}",
        ) from exc


def _vocoder_files(folder: Path) -> tuple[Path, Path]:
    return find_model_file(folder), folder / "config.json"


def _missing_tools_error(title: str, exc: BaseException) -> ModelError:
    text = str(exc).lower()
    if "espeak" in text:
        message = (N_("SpeechEngine", "The voice model “{title}” needs the espeak-ng program to read text. Install "
                                      "it (sudo apt install espeak-ng), then try again.").format(title=title))
    elif "pypinyin" in text or "pkuseg" in text or "zh" in text:
        message = (N_("SpeechEngine", "The voice model “{title}” needs the Chinese text tools (pypinyin, "
                                      "spacy-pkuseg), which are not installed. Run the installer again (make setup), "
                                      "then try again.").format(title=title))
    else:
        message = (N_("SpeechEngine", "The voice model “{title}” needs a text tool that is not installed. Run the "
                                      "installer again (make setup), then try again.").format(title=title))
    return ModelError(message, detail=f"{type(exc).__name__}: {exc}")


def _is_path(model: str) -> bool:
    """A model given as a folder (Coqui or Piper) or as a Piper voice's .onnx file, used in place."""
    if is_piper_name(model):
        return False
    path = Path(model).expanduser()
    if path.suffix == ".onnx":
        return path.exists() or path.is_symlink()
    return ("/" in model or "\\" in model) and path.is_dir()


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
