"""The catalogue of voice models VoxDesk knows: Coqui's model list, the official Piper voices, and the
curated defaults shown first. No Qt here.

Coqui's list is the ``.models.json`` file inside the coqui-tts package, read as data so nothing
heavy is imported; the Piper voices come from desktop.core.speech.piper_voices. Which of them are on
this computer is the store's business (desktop.core.speech.tts_models).
"""
from __future__ import annotations

import importlib.util
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from desktop.core.common.errors import ModelError
from desktop.core.common.i18n import N_
from desktop.core.speech import piper_voices
from desktop.core.speech.coqui_folders import XTTS_LANGUAGES, normalise_language
from desktop.core.speech.piper_voices import PIPER_PREFIX, PiperCatalogVoice
from desktop.core.speech.tts_licences import LICENCE_URLS, licence_shown

IMPORTED_PREFIX = "imported/"


@dataclass(frozen=True)


class Curated:
    title: str
    languages: tuple[str, ...]
    size_mb: int | None  # approximate download size
    multi_speaker: bool
    description: str


# The models offered first, one default per need. Sizes are approximate download sizes.
CURATED: dict[str, Curated] = {
    "tts_models/en/ljspeech/vits": Curated(
        N_("SpeechModels", "English, fast (VITS, LJSpeech)"), ("en",), 146, False,
        N_("SpeechModels", "A clear female English voice that is quick enough for the CPU."),
    ),
    "tts_models/en/vctk/vits": Curated(
        N_("SpeechModels", "English, many voices (VITS, VCTK)"), ("en",), 148, True,
        N_("SpeechModels", "109 English voices with British and other accents; pick one in the voice list."),
    ),
    "tts_models/zh-CN/baker/tacotron2-DDC-GST": Curated(
        N_("SpeechModels", "Chinese (Tacotron 2, Baker)"), ("zh",), None, False,
        N_("SpeechModels", "A female Mandarin voice. English words in the text are read by an English voice on "
                           "this computer; without one, they are skipped."),
    ),
    "tts_models/multilingual/multi-dataset/xtts_v2": Curated(
        N_("SpeechModels", "XTTS v2, 17 languages"), XTTS_LANGUAGES, 1900, True,
        N_("SpeechModels", "Natural voices in 17 languages, including Chinese and English, with built-in speakers. "
                           "Large and slow on the CPU; free for non-commercial use only."),
    ),
    "piper/en_US-joe-medium": Curated(
        N_("SpeechModels", "English, natural and fast (Piper, Joe)"), ("en",), 63, False,
        N_("SpeechModels", "A clear male American English voice, made for the CPU. Fine-tuned from a voice recorded "
                           "for non-commercial research."),
    ),
    "piper/zh_CN-huayan-medium": Curated(
        N_("SpeechModels", "Chinese, natural and fast (Piper, Huayan)"), ("zh",), 63, False,
        N_("SpeechModels", "A female Mandarin voice, made for the CPU. English words in the text are read by an "
                           "English voice on this computer; without one, they are skipped."),
    ),
}

# The voices the list shows first; every other one is under "More voices…".
RECOMMENDED = (
    "piper/en_US-joe-medium",
    "piper/zh_CN-huayan-medium",
    "tts_models/en/vctk/vits",
    "tts_models/multilingual/multi-dataset/xtts_v2",
)

# The default model for each language the window offers; the first entry is used for anything else.
DEFAULT_FOR_LANGUAGE: dict[str, str] = {
    "en": "tts_models/en/ljspeech/vits",
    "zh": "tts_models/zh-CN/baker/tacotron2-DDC-GST",
}
MULTILINGUAL_DEFAULT = "tts_models/multilingual/multi-dataset/xtts_v2"

# Catalog entries the Synthesize tab cannot use: they need a reference recording (cloning),
# or load in a way of their own.
_NOT_FOR_SYNTHESIS = {"bark", "tortoise-v2", "your_tts", "xtts_v1.1"}


@dataclass(frozen=True)


class TtsModel:
    name: str  # Coqui's name ("tts_models/en/vctk/vits") or "imported/<folder name>"
    title: str
    languages: tuple[str, ...]  # codes such as "en", "zh"
    licence: str
    size_mb: int | None = None
    multi_speaker: bool = False
    licence_required: bool = False  # terms must be accepted before the download
    description: str = ""
    imported: bool = False
    downloaded: bool = False
    vocoder: str | None = None  # a separate vocoder model Coqui pairs with this one
    # The mirror its download (or its vocoder's) came from when VoxDesk could not check it (model_origin).
    unverified_source: str | None = None
    source: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    @property
    def licence_url(self) -> str | None:
        return LICENCE_URLS.get(self.licence.strip().lower())

    @property
    def folder_name(self) -> str:
        return folder_name(self.name)

    def speaks(self, language: str) -> bool:
        return language in self.languages


def folder_name(name: str) -> str:
    """Coqui's folder naming: "tts_models/en/vctk/vits" -> "tts_models--en--vctk--vits"."""
    return name.replace("/", "--")


def coqui_catalog_file() -> Path:
    """Coqui's model list inside the installed coqui-tts package, found without importing it."""
    spec = importlib.util.find_spec("TTS")
    if spec is None or not spec.submodule_search_locations:
        raise ModelError(
            N_("SpeechModels", "The speech synthesis part of VoxDesk is not installed. Run the installer again (make "
                               "setup)."),
            detail="coqui-tts (import name TTS) not found",
        )
    return Path(next(iter(spec.submodule_search_locations))) / ".models.json"


def read_catalog(catalog_file: Path | None = None, piper_catalog_file: Path | None = None) -> dict[str, TtsModel]:
    """Every model on offer by name: Coqui's list (the installed package's, or catalog_file) and the
    official Piper voices; ModelError when Coqui's list cannot be read."""
    path = catalog_file or coqui_catalog_file()
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ModelError(
            N_("SpeechModels", "The list of voice models could not be read. Run the installer again (make "
                               "setup)."),
            detail=f"{path}: {exc}",
        ) from exc
    models = _parse_catalog(data)
    models.update(_piper_models(piper_voices.official_voices(piper_catalog_file)))
    return models


def _parse_catalog(data: dict) -> dict[str, TtsModel]:
    models: dict[str, TtsModel] = {}
    for model_type in ("tts_models", "vocoder_models"):
        for language, datasets in (data.get(model_type) or {}).items():
            for dataset, entries in datasets.items():
                for model_id, item in entries.items():
                    if model_id in _NOT_FOR_SYNTHESIS:
                        continue
                    name = f"{model_type}/{language}/{dataset}/{model_id}"
                    curated = CURATED.get(name)
                    models[name] = TtsModel(
                        name=name,
                        title=curated.title if curated else f"{language} · {dataset} · {model_id}",
                        languages=curated.languages if curated else (normalise_language(language),),
                        licence=licence_shown(item.get("license")),
                        size_mb=curated.size_mb if curated else None,
                        multi_speaker=curated.multi_speaker if curated else dataset == "vctk",
                        licence_required=bool(item.get("tos_required")),
                        description=curated.description if curated else str(item.get("description") or ""),
                        vocoder=item.get("default_vocoder") or None,
                        source=dict(item),
                    )
    return models


def _piper_models(voices: tuple[PiperCatalogVoice, ...]) -> dict[str, TtsModel]:
    """The official Piper voices as catalog entries named "piper/<key>"."""
    models = {}
    for voice in voices:
        name = PIPER_PREFIX + voice.key
        curated = CURATED.get(name)
        licence, terms = piper_voices.dataset_terms(voice.name)
        region = voice.language.split("_")[-1]
        models[name] = TtsModel(
            name=name,
            title=curated.title if curated else f"Piper · {voice.name} · {region} · {voice.quality}",
            languages=(piper_voices.language_code(voice.language),),
            licence=licence,
            size_mb=round(voice.size_bytes / 1e6),
            multi_speaker=voice.speakers > 1,
            description=curated.description if curated else terms,
            source={"piper": voice},
        )
    return models


class _ListsModels(Protocol):
    """What default_voice_title reads the catalog from (the store)."""

    def catalog(self) -> list[TtsModel]: ...


def default_voice(language: str | None, catalog: list[TtsModel], scores: dict[str, float] | None = None) -> str:
    """The Synthesize tab's default voice for a language: the best measured among those on this
    computer or recommended (desktop.core.speech.voice_scores), else the curated default."""
    from desktop.core.speech.voice_scores import best_voice, read_scores

    code = language or "en"
    chosen = best_voice(code, catalog, RECOMMENDED, read_scores() if scores is None else scores)
    return chosen or default_model(code)


def default_voice_title(language: str, store: _ListsModels | None = None) -> str:
    """The title of the voice the model list chooses by default for language, for a sentence that
    suggests one (the curated default when the store's catalog cannot be read)."""
    catalog: list[TtsModel] = []
    if store is not None:
        try:
            catalog = store.catalog()
        except ModelError:
            catalog = []
    name = default_voice(language, catalog)
    if name in CURATED:
        return CURATED[name].title
    return next((model.title for model in catalog if model.name == name), name)


def default_model(language: str | None) -> str:
    """The curated default model for a language code such as "en" or "zh"."""
    return DEFAULT_FOR_LANGUAGE.get(language or "", DEFAULT_FOR_LANGUAGE["en"])
