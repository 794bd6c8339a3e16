"""Coqui TTS models as a kind of voice (desktop.engines.speech.voice). No Qt here.

Coqui is imported lazily, inside the functions that need it: importing it pulls in torch. Every
model is loaded data-only (use_safe_coqui_loaders), whatever its files ask for. A model runs on the
CPU, or on torch's GPU when the engine asks for it (the engine owns the fallback to the CPU).
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import numpy as np

from desktop.core.common.errors import ModelError
from desktop.core.common.i18n import N_
from desktop.core.common.model_files import check_model, read_stats
from desktop.core.speech.coqui_folders import find_model_file, inspect_folder, normalise_language
from desktop.core.speech.sentences import guess_language
from desktop.engines.speech.voice import FoundModel, VoiceInfo

# XTTS refuses longer inputs per language (its tokenizer's char_limits); Chinese is the tightest.
XTTS_MAX_CHARS = {"zh": 80, "ja": 70, "ko": 90}


class CoquiVoice:
    """A loaded Coqui model (TTS.utils.synthesizer.Synthesizer) behind the Voice interface."""

    def __init__(self, synthesizer: Any, info: VoiceInfo, *, xtts: bool, model_languages: dict[str, str],
                 base_length_scale: float | None, vocabulary: set[str] | None) -> None:
        self.synthesizer = synthesizer
        self.info = info
        self._xtts = xtts  # XTTS takes the speed itself, and fewer characters at once
        self._model_languages = model_languages  # our code -> the model's own language name ("zh" -> "zh-cn")
        self._base_length_scale = base_length_scale
        self._vocabulary = vocabulary  # characters a grapheme model knows; None for phoneme models

    def longest_sentence(self, language: str) -> int | None:
        return XTTS_MAX_CHARS.get(language) if self._xtts else None

    def unknown_characters(self, text: str) -> list[str]:
        if self._vocabulary is None:
            return []
        cleaner = self.synthesizer.tts_model.tokenizer.text_cleaner
        cleaned = cleaner(text, lang=None) if cleaner else text
        return sorted({ch for ch in cleaned if ch.isalnum() and ch not in self._vocabulary})

    def synthesize(self, text: str, *, speaker: str | None, language: str | None, speed: float) -> np.ndarray:
        from TTS.utils.synthesizer import PAD_SILENCE_SAMPLES

        kwargs: dict[str, Any] = {}
        if self._xtts:
            kwargs["speed"] = speed
        elif self._base_length_scale is not None:
            self.synthesizer.tts_model.length_scale = self._base_length_scale / speed
        model_language = None
        if len(self._model_languages) > 1:
            code = language or guess_language(text) or self.info.languages[0]
            model_language = self._model_languages.get(code) or next(iter(self._model_languages.values()))
        try:
            wav = self.synthesizer.tts(text=text, speaker_name=speaker, language_name=model_language,
                                       split_sentences=False, **kwargs)
        except ImportError as exc:  # e.g. XTTS reading Chinese without pypinyin
            raise _missing_tools_error(self.info.title, exc) from exc
        samples = np.asarray(wav, dtype=np.float32).reshape(-1)
        # Coqui pads every sentence with its own fixed silence; the engine adds a pause of its length instead.
        if len(samples) >= PAD_SILENCE_SAMPLES and not np.any(samples[-PAD_SILENCE_SAMPLES:]):
            samples = samples[:-PAD_SILENCE_SAMPLES]
        return np.clip(samples, -1.0, 1.0)


class CoquiKind:
    """Coqui model folders: config.json and a model file, checked before they are loaded."""

    cpu_only = False

    def describe(self, path: Path) -> tuple[str, tuple[str, ...]]:
        return path.name, inspect_folder(path).languages

    def load(self, found: FoundModel, device: str, gpu: Any) -> CoquiVoice:
        folder, title = found.path, found.title
        check = inspect_folder(folder)
        check_model(folder, "coqui")
        vocoder_folder = None
        if found.store is not None:
            vocoder = found.store.manifest(found.model).get("vocoder")
            if vocoder:
                vocoder_folder = found.store.folder(vocoder)
                check_model(vocoder_folder, "coqui")
        synthesizer = _load_coqui(folder, check.kind, check.model_file, vocoder_folder, title)
        if device == "cuda":
            gpu.move(synthesizer)
        tts_model = synthesizer.tts_model
        xtts = check.kind == "xtts"
        languages = {normalise_language(name): name for name in tts_model.language_manager.language_names}
        if xtts:
            languages = {normalise_language(name): name for name in tts_model.config.languages}
        codes = tuple(dict.fromkeys([*languages, *found.catalog_languages]))
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
            model=found.model,
            title=title,
            speakers=speakers,
            languages=codes,
            sample_rate=int(synthesizer.output_sample_rate),
            can_change_speed=xtts or isinstance(base_length_scale, (int, float)),
            device="GPU" if device == "cuda" else "CPU",
        )
        return CoquiVoice(synthesizer, info, xtts=xtts, model_languages=languages,
                          base_length_scale=float(base_length_scale) if isinstance(base_length_scale, (int, float))
                          else None, vocabulary=vocabulary)


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
