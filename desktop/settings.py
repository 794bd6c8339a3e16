"""The user's choices, declared once with their defaults, stored with QSettings.

Created by the composition root (app.py) or the launcher, never at import time.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QSettings

from desktop.core.transcription import options as transcription_options

if TYPE_CHECKING:
    from desktop.core.glossary.library import GlossaryLibrary
    from desktop.core.common.shared_models import ModelSources
    from desktop.core.speech.tts_models import TtsModelStore
    from desktop.core.transcription.whisper_models import ModelStore
    from desktop.core.transcription.subtitles import LineLimits
    from desktop.core.transcription.cue_checks import ReadingLimits


@dataclass(frozen=True)
class Option:
    key: str
    default: Any
    choices: tuple | None = None  # allowed values, when the option is a closed list


def _transcription_option(option: transcription_options.TranscriptionOption) -> Option:
    """A transcription option as it is stored here, from its one declaration (None as its automatic word or 0)."""
    choices = (transcription_options.LOCAL_ENGINES if option is transcription_options.ENGINE
               else option.stored_choices())
    return Option(option.settings_key, option.stored_default(), choices)


_OPTIONS = (
    # The model, language, task, prompt, Chinese script, speakers, engine, device, batch size and the
    # decoding options (beam size, VAD, word timings, temperature, conditioning on the text before).
    *(_transcription_option(option) for option in transcription_options.ALL if option.settings_key),
    Option("transcribe/export_formats", "srt"),  # comma-separated subset of srt,vtt,txt,json
    Option("transcribe/export_folder", ""),  # empty: next to each source file
    Option("transcribe/editor_room", False),  # the editor has the tab to itself (the list folded away)
    Option("live/recordings_folder", ""),  # empty: a Recordings folder under Documents
    # Subtitle lines: at most max_lines lines per cue, each as wide as max_latin_chars Latin
    # characters, or max_cjk_chars Chinese ones in a line with Chinese in it.
    Option("subtitles/max_lines", 2),
    Option("subtitles/max_latin_chars", 42),
    Option("subtitles/max_cjk_chars", 18),
    # Reading speed: the table warns, and `voxdesk subtitles check` reports, a subtitle with more
    # characters a second than these, or on screen for less or longer than these seconds.
    Option("subtitles/latin_cps", 17.0),
    Option("subtitles/chinese_cps", 9.0),
    Option("subtitles/min_seconds", 0.8),
    Option("subtitles/max_seconds", 7.0),
    # The office's transcription server (its API key is in the keyring or a private file, never here).
    Option("server/enabled", False),
    Option("server/url", ""),
    Option("server/model", ""),
    Option("server/use", "always", ("always", "no_gpu")),  # every file, or only without a working GPU
    Option("server/concurrency", 4),
    # Applied by the launcher before the HIP runtime loads, so it takes effect at the next start.
    Option("gpu/hsa_override_gfx_version", ""),
    Option("ui/language", ""),  # empty: follow the system locale
    # Synthesize
    Option("synthesize/model", ""),  # empty: the default voice of the interface's language
    Option("synthesize/speaker", ""),
    Option("synthesize/language", "auto"),
    Option("synthesize/speed", 100),  # percent of the model's natural pace
    Option("synthesize/use_gpu", False),  # experimental: speech runs on the CPU by design
    Option("synthesize/normalize", True),  # loudness normalised to about -16 LUFS on saving
    Option("synthesize/save_folder", ""),  # where "Save…" last wrote speech; empty: Documents
    # PerTh's inaudible watermark on speech of the Coqui voices; cloned voices always carry it.
    Option("synthesize/watermark", True),
    # Clone
    Option("clone/engine", "xtts", ("xtts", "openvoice")),
    Option("clone/language", "en"),
    Option("clone/xtts_model", ""),  # empty: the XTTS v2 downloaded in the Synthesize tab
    Option("clone/openvoice_converter", ""),
    Option("clone/base_model", ""),  # empty: the default Coqui voice of the language
    Option("clone/input_device", ""),
    Option("clone/save_folder", ""),
    # Where models come from: the download source (custom: downloads/custom_url, a company mirror of
    # Hugging Face) and shared, read-only model folders searched first (one per line).
    Option("downloads/source", "auto", ("auto", "huggingface", "hf-mirror", "custom")),
    Option("downloads/custom_url", ""),
    Option("models/shared_folders", ""),
    # Glossaries: shared, read-only folders IT fills (one per line), and those chosen for the next
    # files and for live captions (their paths, one per line).
    Option("glossaries/shared_folders", ""),
    Option("transcribe/glossaries", ""),
    Option("live/glossaries", ""),
)
OPTIONS = {option.key: option for option in _OPTIONS}


class Settings:
    """Typed access to the options above; unknown keys are a programming error."""

    def __init__(self, store: QSettings | None = None):
        self._store = store if store is not None else QSettings()

    def get(self, key: str) -> Any:
        option = OPTIONS[key]
        value = self._store.value(key, option.default)
        if isinstance(option.default, bool):
            value = value in (True, "true", "1", 1)
        elif isinstance(option.default, int):
            try:
                value = int(value)
            except (TypeError, ValueError):
                value = option.default
        elif isinstance(option.default, float):
            try:
                value = float(value)
            except (TypeError, ValueError):
                value = option.default
            if not math.isfinite(value):
                value = option.default
        elif value is None:
            value = option.default
        else:
            value = str(value)
        if option.choices and value not in option.choices:
            return option.default
        return value

    def is_set(self, key: str) -> bool:
        """The user (or VoxDesk on the user's behalf) has stored a value: the default is not in effect."""
        return bool(self._store.contains(key))

    def set(self, key: str, value: Any) -> None:
        option = OPTIONS[key]
        if option.choices and value not in option.choices:
            raise ValueError(f"{value!r} is not one of {option.choices} for {key}")
        self._store.setValue(key, value)

    def decoding_choices(self) -> dict[str, Any]:
        """How a file is to be decoded, as chosen in Settings → Transcription: each of
        ``options.DECODING`` by its field name, as a job takes it (None where Whisper decides)."""
        return {option.name: option.from_stored(self.get(option.settings_key))
                for option in transcription_options.DECODING}

    def line_limits(self) -> "LineLimits":
        """The subtitle line limits chosen in Settings; a value below 1 counts as its default."""
        from desktop.core.transcription.subtitles import LineLimits

        values = {}
        for name in ("max_lines", "max_latin_chars", "max_cjk_chars"):
            key = f"subtitles/{name}"
            value = self.get(key)
            values[name] = value if value >= 1 else OPTIONS[key].default
        return LineLimits(**values)

    def reading_limits(self) -> "ReadingLimits":
        """The reading-speed limits chosen in Settings; a value that is not above 0 counts as its default,
        and a longest duration below the shortest as the shortest."""
        from desktop.core.transcription.cue_checks import ReadingLimits

        values = {}
        for name in ("latin_cps", "chinese_cps", "min_seconds", "max_seconds"):
            key = f"subtitles/{name}"
            value = self.get(key)
            values[name] = value if value > 0 else OPTIONS[key].default
        values["max_seconds"] = max(values["max_seconds"], values["min_seconds"])
        return ReadingLimits(**values)

    def model_sources(self) -> "ModelSources":
        """Shared model folders and the download source as chosen here, plus the environment's."""
        from desktop.core.common.shared_models import ModelSources, split_folder_list

        return ModelSources.from_choices(
            source=self.get("downloads/source"), custom_url=self.get("downloads/custom_url"),
            shared_folders=split_folder_list(self.get("models/shared_folders")),
        )

    def glossary_library(self) -> "GlossaryLibrary":
        """The user's glossaries and the shared ones from Settings, VOXDESK_GLOSSARY_DIRS and the system folder."""
        from desktop.core.common.shared_models import split_folder_list
        from desktop.core.glossary.library import GlossaryLibrary, shared_glossary_dirs, user_glossary_dir

        return GlossaryLibrary(user_glossary_dir(),
                               shared_glossary_dirs(split_folder_list(self.get("glossaries/shared_folders"))))

    def remembered_place(self, key: str) -> Any:
        """A window's saved geometry (QWidget.saveGeometry) under ``key``, or None. Not a choice of the
        user's, so not an Option: kept beside them, under windows/."""
        return self._store.value(f"windows/{key}")

    def remember_place(self, key: str, geometry: Any) -> None:
        self._store.setValue(f"windows/{key}", geometry)

    def sync(self) -> None:
        self._store.sync()


def open_settings() -> Settings:
    """The user's settings store, usable before (or without) a QApplication."""
    from desktop import APP_NAME, ORG_NAME

    return Settings(QSettings(ORG_NAME, APP_NAME))


def chosen_model_sources(settings: Settings | None = None) -> "ModelSources":
    """Shared model folders and the download source as chosen in Settings, plus the environment's
    (VOXDESK_MODEL_DIRS, HF_ENDPOINT). A settings file that cannot be read gives the environment's alone:
    it must not stop a command-line job."""
    from desktop.core.common.shared_models import ModelSources

    try:
        return (settings or open_settings()).model_sources()
    except Exception:  # noqa: BLE001 - an unreadable or damaged settings file
        return ModelSources.from_choices()


@dataclass(frozen=True)
class ModelStores:
    """The Whisper and voice model stores, following the same sources."""

    whisper: "ModelStore"
    voices: "TtsModelStore"


def open_model_stores(settings: Settings | None = None) -> ModelStores:
    """The model stores every entry uses: the window, each command, live captions and the doctor.

    This is the one place a store is built, so that each of them searches the shared model folders
    first and downloads only from the source IT chose (tests/test_model_stores.py keeps it so). Both
    stores share one LiveSources, which the window replaces when the user changes them in Settings.
    """
    from desktop.core.common.paths import models_dir
    from desktop.core.common.shared_models import LiveSources
    from desktop.core.speech.tts_models import TtsModelStore, store_root
    from desktop.core.transcription.whisper_models import ModelStore

    sources = LiveSources(chosen_model_sources(settings))
    return ModelStores(whisper=ModelStore(models_dir(), sources=sources),
                       voices=TtsModelStore(store_root(), sources=sources))
