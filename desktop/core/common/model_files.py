"""Models are data: the one check every model folder or file passes before it is stored or loaded.

``check_model(path, kind)`` runs when a model is imported, when a download completes, and right
before it is loaded, for every kind VoxDesk loads:

- no file in the folder is a link, pipe, device or socket (safe_files.regular_files);
- no pickle in it names anything but tensors, arrays and plain containers: torch checkpoints
  (.pth, .pt: zip archives with a data.pkl, or older raw pickles) are scanned without running them,
  and numpy files holding pickled objects are read with an unpickler that can only build arrays;
- for Coqui models, every file path in config.json that Coqui would open must name a regular file
  inside the model's folder.

The scan is the early, readable refusal. What keeps code from running even if a file changes after
the check is the loading itself: torch.load runs weights-only, and Coqui's statistics file is read
through read_stats (see desktop.engines.speech.coqui.use_safe_coqui_loaders).
"""
from __future__ import annotations

import json
import os
import pickle
import pickletools
import zipfile
from pathlib import Path
from typing import IO, Any, Iterator

from desktop.core.common.errors import ModelError, UserFacingError
from desktop.core.common.i18n import N_
from desktop.core.common.safe_files import open_regular, regular_files, require_regular_file

KINDS = ("coqui", "openvoice", "ct2", "whisper-pt", "piper")

# Modules a model's pickle may name: torch's tensor rebuilding, numpy arrays, Coqui's config classes.
# torch's weights-only loader is stricter still when the model is loaded.
_DATA_MODULES = ("torch", "collections", "numpy", "_codecs", "TTS", "coqpit")
_DATA_BUILTINS = {"set", "frozenset", "slice", "complex", "bytearray", "bytes", "int", "float", "bool", "str",
                  "dict", "list", "tuple"}
# What numpy writes when it pickles an array; the only things read_stats will build.
_ARRAY_GLOBALS = {
    ("numpy._core.multiarray", "_reconstruct"), ("numpy.core.multiarray", "_reconstruct"),
    ("numpy._core.multiarray", "scalar"), ("numpy.core.multiarray", "scalar"),
    ("numpy", "ndarray"), ("numpy", "dtype"), ("_codecs", "encode"),
}
_STRING_OPCODES = {"SHORT_BINUNICODE", "BINUNICODE", "BINUNICODE8", "UNICODE", "STRING", "BINSTRING",
                   "SHORT_BINSTRING"}
_LEGACY_TORCH_PICKLES = 5  # magic number, protocol, system info, the object, storage keys

# Config keys ending in a path suffix that only Coqui's trainer uses: they are never opened when a
# model is loaded to speak, and released configs name the trainer's machine there.
_TRAINING_ONLY = {"output_path", "phoneme_cache_path", "test_sentences_file", "data_path", "feature_path",
                  "f0_cache_path", "energy_cache_path", "attn_prior_cache_path", "datasets"}
_PATH_SUFFIXES = ("_path", "_paths", "_file", "_files", "_checkpoint")
_STATS_KEYS = {"stats_path"}

CODE_REFUSED = N_("ModelFiles", "“{file}” contains program code as well as model data, so VoxDesk refused it to "
                                "keep this computer safe.")
CODE_REFUSED_IN = N_("ModelFiles", "The file “{file}” of the model “{model}” contains program code as well as model "
                                   "data, so VoxDesk refused it to keep this computer safe.")


def check_model(path: str | os.PathLike[str], kind: str, *, named_as: Path | None = None) -> None:
    """Refuse the model at path unless it is data only; ModelError with a sentence naming the file.

    kind is one of KINDS; "whisper-pt" takes a file, the others a folder. named_as is where the
    folder will be moved to, when its config.json already names files there (a staged import).
    """
    if kind not in KINDS:
        raise ValueError(f"unknown model kind {kind!r}")
    path = Path(path)
    try:
        if kind == "whisper-pt":
            require_regular_file(path, error=ModelError)
            files = [path]
        else:
            require_dir(path)
            files = regular_files(path, error=ModelError)
        for file in files:
            _check_file_is_data(file, path)
        if kind == "coqui":
            _check_config_paths(path, named_as)
    except OSError as exc:
        raise ModelError(
            N_("ModelFiles", "VoxDesk cannot read the model “{model}”. Check that it is still there and that you "
                             "may read it.").format(model=path.name),
            detail=repr(exc),
        ) from exc


def require_dir(folder: Path) -> None:
    if not folder.is_dir():
        raise ModelError(N_("ModelFiles", "The folder {folder} does not exist. Choose the folder that holds the "
                                          "model files.").format(folder=folder))


def read_stats(path: str | os.PathLike[str]) -> Any:
    """The contents of a numpy .npy file, building nothing but arrays (Coqui's scale_stats.npy).

    Coqui saves its statistics as a pickled dict of arrays, which np.load only reads with
    allow_pickle=True, able to run any code. This reads the same file with an unpickler that knows
    only numpy's array classes; anything else raises ModelError naming the file.
    """
    import numpy as np

    path = Path(path)
    with open_regular(path, error=ModelError) as f:
        try:
            version = np.lib.format.read_magic(f)
            if version == (1, 0):
                _, _, dtype = np.lib.format.read_array_header_1_0(f)
            elif version == (2, 0):
                _, _, dtype = np.lib.format.read_array_header_2_0(f)
            else:
                raise ValueError(f"unsupported .npy version {version}")
            if not dtype.hasobject:
                f.seek(0)
                return np.lib.format.read_array(f, allow_pickle=False)
            value = _ArraysOnly(f).load()
        except (pickle.UnpicklingError, ValueError, EOFError, TypeError, AttributeError, ImportError) as exc:
            raise _not_numbers(path) from exc
    if not isinstance(value, np.ndarray):
        raise _not_numbers(path)
    return value


def _not_numbers(path: Path) -> ModelError:
    return ModelError(
        N_("ModelFiles", "The statistics file “{file}” holds program code or something other than numbers, so "
                         "VoxDesk refused it to keep this computer safe.").format(file=path.name),
        detail=str(path),
    )


class _ArraysOnly(pickle.Unpickler):
    def find_class(self, module: str, name: str) -> Any:
        if (module, name) in _ARRAY_GLOBALS:
            return super().find_class(module, name)
        raise pickle.UnpicklingError(f"{module}.{name} is not an array class")

    def persistent_load(self, pid: Any) -> Any:
        raise pickle.UnpicklingError("persistent ids are not allowed")


# --- scanning files --------------------------------------------------------------------------


def _check_file_is_data(file: Path, model: Path) -> None:
    with open_regular(file, follow_links=False, error=ModelError) as f:
        head = f.read(8)
    if head.startswith(b"PK"):
        _scan_zip(file, model)
    elif head.startswith(b"\x80"):
        with open_regular(file, follow_links=False, error=ModelError) as f:
            _scan_pickles(f, file, model, _LEGACY_TORCH_PICKLES)
    elif head.startswith(b"\x93NUMPY"):
        read_stats(file)


def _scan_zip(file: Path, model: Path) -> None:
    try:
        archive = zipfile.ZipFile(file)
    except zipfile.BadZipFile:
        return  # not a checkpoint; loading it fails on its own
    with archive:
        for name in archive.namelist():
            if name.endswith(".pkl"):
                with archive.open(name) as stream:
                    _scan_pickles(stream, file, model, 1)


def _scan_pickles(stream: IO[bytes], file: Path, model: Path, count: int) -> None:
    """Read up to count pickles from stream without running them; refuse one that names code."""
    for index in range(count):
        try:
            names = list(_pickle_globals(stream))
        except (ValueError, EOFError, UnicodeDecodeError):
            if index == 0:
                return  # not a pickle at all; loading it fails on its own
            break
        for name in names:
            if not _is_data(name):
                message = (CODE_REFUSED.format(file=file.name) if file == model
                           else CODE_REFUSED_IN.format(file=file.name, model=model.name))
                raise ModelError(message, detail=f"{file}: {name}")


def _pickle_globals(stream: IO[bytes]) -> Iterator[str]:
    """The dotted names one pickle refers to; "?" for one that cannot be told without running it."""
    memo: dict[int, Any] = {}
    recent: list[Any] = []  # what the last opcodes pushed (a str, or None for anything else)
    for opcode, arg, _ in pickletools.genops(stream):
        name = opcode.name
        if name in ("GLOBAL", "INST"):
            yield str(arg).replace(" ", ".")
        elif name == "STACK_GLOBAL":
            module, attr = recent if len(recent) == 2 else (None, None)
            yield f"{module}.{attr}" if isinstance(module, str) and isinstance(attr, str) else "?"
        if name in _STRING_OPCODES:
            recent.append(arg)
        elif name in ("BINGET", "LONG_BINGET", "GET"):
            recent.append(memo.get(int(arg)))
        elif name == "MEMOIZE":
            memo[len(memo)] = recent[-1] if recent else None
        elif name in ("BINPUT", "LONG_BINPUT", "PUT"):
            memo[int(arg)] = recent[-1] if recent else None
        else:
            recent.append(None)
        del recent[:-2]


def _is_data(name: str) -> bool:
    module, _, attr = name.rpartition(".")
    if module == "builtins":
        return attr in _DATA_BUILTINS
    return module.split(".")[0] in _DATA_MODULES


# --- Coqui's config.json -----------------------------------------------------------------------


def _check_config_paths(folder: Path, named_as: Path | None) -> None:
    """Every file path Coqui would open must be a regular file inside folder; stats must be numbers."""
    config_path = folder / "config.json"
    try:
        with open_regular(config_path, follow_links=False, error=ModelError) as f:
            config = json.loads(f.read().decode("utf-8"))
    except (FileNotFoundError, UnicodeDecodeError, ValueError):
        return  # inspect_folder says in plain words what is wrong with it
    for field, value in _path_fields(config):
        for text in value if isinstance(value, list) else [value]:
            target = _inside(folder, str(text), named_as)
            if target is None:
                raise ModelError(
                    N_("ModelFiles", "The config.json of “{model}” names {file} ({field}), which is not a file in "
                                     "the model's folder. Put that file in the folder, or remove it from "
                                     "config.json.").format(model=folder.name, file=text, field=field),
                )
            if field.rsplit(".", 1)[-1] in _STATS_KEYS:
                read_stats(target)


def _path_fields(node: Any, prefix: str = "") -> Iterator[tuple[str, Any]]:
    """(dotted key, value) of each non-empty file path in a Coqui config that loading would open."""
    if not isinstance(node, dict):
        return
    for key, value in node.items():
        dotted = f"{prefix}{key}"
        if key in _TRAINING_ONLY:
            continue
        if isinstance(value, dict):
            yield from _path_fields(value, dotted + ".")
        elif str(key).endswith(_PATH_SUFFIXES) and _names_files(value):
            yield dotted, value


def _names_files(value: Any) -> bool:
    if isinstance(value, str):
        return bool(value.strip())
    return isinstance(value, list) and bool(value) and all(isinstance(v, str) and v.strip() for v in value)


def _inside(folder: Path, text: str, named_as: Path | None) -> Path | None:
    """The regular file text names inside folder (as Coqui would open it), or None."""
    path = Path(os.path.abspath(text))  # Coqui opens a relative path from the working folder
    if named_as is not None:
        try:
            path = folder / path.relative_to(os.path.abspath(named_as))
        except ValueError:
            pass
    try:
        path.parent.resolve(strict=True).relative_to(folder.resolve(strict=True))
        require_regular_file(path, follow_links=False, error=ModelError)
    except (OSError, ValueError, UserFacingError):
        return None
    return path
