"""Which kind of voice a model is, and where its files are: the one place that tells Piper voices from
Coqui models. No Qt here.

A model is named by the settings as a catalog or imported name ("piper/en_US-joe-medium",
"tts_models/en/vctk/vits", "imported/…"), or as a folder (Coqui or Piper) or a Piper .onnx used in place.
"""
from __future__ import annotations

from pathlib import Path

from desktop.core.common.errors import ModelError, UserFacingError
from desktop.core.common.i18n import N_
from desktop.core.speech.coqui_folders import fix_config_paths
from desktop.core.speech.piper_voices import is_piper_name, is_piper_voice
from desktop.core.speech.tts_models import TtsModelStore
from desktop.engines.speech.coqui import CoquiKind
from desktop.engines.speech.piper import PiperKind
from desktop.engines.speech.voice import FoundModel, VoiceKind

COQUI: VoiceKind = CoquiKind()
PIPER: VoiceKind = PiperKind()


def is_in_place(model: str) -> bool:
    """A model given as a folder (Coqui or Piper) or as a Piper voice's .onnx file, used in place."""
    if is_piper_name(model):
        return False
    path = Path(model).expanduser()
    if path.suffix == ".onnx":
        return path.exists() or path.is_symlink()
    return ("/" in model or "\\" in model) and path.is_dir()


def kind_of(model: str, store: TtsModelStore) -> VoiceKind:
    """The kind of the model settings name; never raises (a model that cannot be read is taken for a
    Coqui one, and says what is wrong when it is loaded)."""
    if is_in_place(model):
        return PIPER if is_piper_voice(Path(model).expanduser()) else COQUI
    if is_piper_name(model):
        return PIPER
    try:
        recorded = store.is_downloaded(model) and store.manifest(model).get("kind") == "piper"
    except UserFacingError:
        recorded = False
    return PIPER if recorded else COQUI


def find_model(model: str, store: TtsModelStore) -> FoundModel:
    """Where the model settings name is, with its title and the languages its catalog entry (or its
    folder) names; ModelError when it is not on this computer or not a usable model."""
    kind = kind_of(model, store)
    if is_in_place(model):
        path = Path(model).expanduser()
        title, languages = kind.describe(path)
        return FoundModel(model, path, title, languages, kind, None)
    info = store.get(model)
    if not store.is_downloaded(model):
        raise ModelError(
            N_("SpeechEngine", "The voice model “{title}” is not on this computer yet. Download it from the "
                               "model list, or import its folder.").format(title=info.title)
        )
    folder = store.folder(model)
    # The data folder may have moved since the model was added: keep config paths pointing here.
    fix_config_paths(folder)
    return FoundModel(model, folder, info.title, info.languages, kind, store)
