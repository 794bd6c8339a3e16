"""Build the folder that ``benchmarks/gpu_check.sh`` runs on a GPU machine: ``make gpu-bundle``.

The machine is assumed to have Python with PyTorch and transformers, and no internet or package
index. The folder (at most 60 MiB) holds:

- ``code/``: the ``desktop`` package, the benchmark and check scripts, the test helpers they use;
- ``wheels/``: what such a machine may lack: openai-whisper and more-itertools (pure Python) and
  tiktoken (compiled: manylinux wheels for CPython 3.10 to 3.14, ~1.2 MB each);
- ``weights/tiny.en.npz``: Whisper tiny.en from the test package, every matrix quantised to int8 with
  one scale per row (~40 MB instead of 75 MB in fp16), expanded to fp16 on the machine; every contender
  there runs these same weights;
- ``data/speech.npz``: the English test recordings (16 kHz float32) with their reference text, and
  ``data/vad.json``: the voice activity VoxDesk's detector (Silero, on onnxruntime, which the machine
  may lack) found in each input the check uses, computed here and replayed there when faster-whisper
  is missing. It is the same for every contender and not part of what is timed.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import shutil
import subprocess
import sys
from importlib import metadata
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

DEFAULT_BUNDLE = ROOT / "build" / "gpu-bundle"
LIMIT_BYTES = 60 * 2 ** 20
PYTHONS = ("3.10", "3.11", "3.12", "3.13", "3.14")
CODE = ("desktop", "benchmarks/__init__.py", "benchmarks/batched_benchmark.py", "benchmarks/gpu_checks.py", "benchmarks/gpu_bundle.py",
        "benchmarks/gpu_crash_check.py", "benchmarks/report.py", "tests/__init__.py", "tests/helpers/__init__.py",
        "tests/helpers/weights.py")
QUANTISED_MIN_SIZE = 4096  # smaller tensors (biases, norms) stay fp16


# --- weights: int8 with a scale per row, here; fp16 again, there --------------------------------


def pack_weights(dims: dict[str, int], state: dict[str, Any], path: Path) -> None:
    """Save an openai-whisper state dict (numpy arrays), matrices as int8 with one fp32 scale per row."""
    import numpy as np

    arrays: dict[str, Any] = {"dims": np.frombuffer(json.dumps(dims).encode(), dtype=np.uint8)}
    for key, value in state.items():
        value = np.asarray(value, dtype=np.float32)
        if value.ndim >= 2 and value.size >= QUANTISED_MIN_SIZE:
            rows = value.reshape(value.shape[0], -1)
            scale = np.abs(rows).max(axis=1) / 127.0
            scale[scale == 0] = 1.0
            arrays[f"q:{key}"] = np.round(rows / scale[:, None]).astype(np.int8).reshape(value.shape)
            arrays[f"s:{key}"] = scale.astype(np.float32)
        else:
            arrays[f"f:{key}"] = value.astype(np.float16)
    np.savez_compressed(path, **arrays)


def unpack_weights(path: Path) -> tuple[dict[str, int], dict[str, Any]]:
    """The dims and fp16 state dict (torch tensors) of ``pack_weights``'s file."""
    import numpy as np
    import torch

    state: dict[str, Any] = {}
    with np.load(path) as data:
        dims = json.loads(data["dims"].tobytes().decode())
        for name in data.files:
            kind, _, key = name.partition(":")
            if kind == "q":
                rows = data[name].reshape(data[name].shape[0], -1).astype(np.float32) * data[f"s:{key}"][:, None]
                state[key] = torch.from_numpy(rows.reshape(data[name].shape).astype(np.float16))
            elif kind == "f":
                state[key] = torch.from_numpy(data[name])
    return dims, state


def write_checkpoint(weights: Path, destination: Path) -> Path:
    """An openai-whisper checkpoint (.pt, fp16) of the packed weights, for the engines to load."""
    import torch

    dims, state = unpack_weights(weights)
    torch.save({"dims": dims, "model_state_dict": state}, destination)
    return destination


# --- the folder -----------------------------------------------------------------------------------


def build(bundle: Path, wheel_cache: Path) -> int:
    """Write the bundle; returns its size in bytes."""
    import numpy as np

    from benchmarks import gpu_checks
    from desktop.engines.transcription.model_files import ct2_format, weight_mapping
    from tests.helpers.weights import recording, reference, tiny_en_dir

    if bundle.exists():
        shutil.rmtree(bundle)
    for folder in ("code", "wheels", "weights", "data"):
        (bundle / folder).mkdir(parents=True)
    for item in CODE:
        source = ROOT / item
        if source.is_dir():
            shutil.copytree(source, bundle / "code" / item, ignore=shutil.ignore_patterns("__pycache__"))
        elif source.is_file():  # gpu_crash_check.py exists once the crash child does
            (bundle / "code" / item).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, bundle / "code" / item)
    shutil.copy2(ROOT / "benchmarks" / "gpu_check.sh", bundle / "gpu_check.sh")

    for wheel in wheels(wheel_cache):
        shutil.copy2(wheel, bundle / "wheels" / wheel.name)

    dims, state = weight_mapping.to_whisper_state_dict(ct2_format.read_model_bin(tiny_en_dir() / "model.bin"))
    pack_weights(dims, state, bundle / "weights" / "tiny.en.npz")

    names = gpu_checks.RECORDINGS
    pieces = {name: recording(name) for name in names}
    np.savez_compressed(bundle / "data" / "speech.npz", **pieces)
    (bundle / "data" / "references.json").write_text(
        json.dumps({name: reference(name) for name in names}, ensure_ascii=False, indent=1), encoding="utf-8")
    (bundle / "data" / "vad.json").write_text(json.dumps(recorded_vad(gpu_checks.all_inputs(pieces, {
        name: reference(name) for name in names}))), encoding="utf-8")

    size = sum(f.stat().st_size for f in bundle.rglob("*") if f.is_file())
    manifest = {"size_bytes": size, "versions": {name: metadata.version(name) for name in (
        "openai-whisper", "tiktoken", "more-itertools")},
        "files": {str(f.relative_to(bundle)): sha256(f) for f in sorted(bundle.rglob("*")) if f.is_file()}}
    (bundle / "manifest.json").write_text(json.dumps(manifest, indent=1), encoding="utf-8")
    return size


def recorded_vad(inputs: dict[str, Any]) -> dict[str, list[dict[str, int]]]:
    """Silero's speech timestamps (faster-whisper's defaults, as ``vad.prepare`` asks) per input, by hash."""
    from faster_whisper.vad import VadOptions, get_speech_timestamps

    return {audio_key(audio): get_speech_timestamps(audio, VadOptions(), sampling_rate=16000)
            for audio in inputs.values()}


def audio_key(audio: Any) -> str:
    return hashlib.sha256(audio.tobytes()).hexdigest()


def wheels(cache: Path) -> list[Path]:
    """The wheels the GPU machine may lack, downloaded (or built) once into ``cache``."""
    cache.mkdir(parents=True, exist_ok=True)
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check", "-q"]
    whisper, tiktoken, itertools = (metadata.version(n) for n in ("openai-whisper", "tiktoken", "more-itertools"))
    if not list(cache.glob(f"openai_whisper-{whisper}-*.whl")):
        subprocess.run([*pip, "wheel", "--no-deps", "-w", str(cache), f"openai-whisper=={whisper}"], check=True)
    if not list(cache.glob(f"more_itertools-{itertools}-*.whl")):
        subprocess.run([*pip, "download", "--no-deps", "-d", str(cache), f"more-itertools=={itertools}"], check=True)
    for python in PYTHONS:
        tag = "cp" + python.replace(".", "")
        if not list(cache.glob(f"tiktoken-{tiktoken}-{tag}-*.whl")):
            subprocess.run([*pip, "download", "--no-deps", "--only-binary=:all:", "-d", str(cache),
                            "--python-version", python, "--platform", "manylinux_2_28_x86_64",
                            "--platform", "manylinux_2_17_x86_64", f"tiktoken=={tiktoken}"], check=True)
    found = [*cache.glob(f"openai_whisper-{whisper}-*.whl"), *cache.glob(f"more_itertools-{itertools}-*.whl"),
             *cache.glob(f"tiktoken-{tiktoken}-cp3*-manylinux*x86_64.whl")]
    return sorted(found)


def sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as stream:
        for block in iter(lambda: stream.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("bundle", nargs="?", type=Path, default=DEFAULT_BUNDLE)
    parser.add_argument("--wheel-cache", type=Path, default=ROOT / "build" / "wheel-cache")
    args = parser.parse_args(argv)
    size = build(args.bundle, args.wheel_cache)
    print(f"{args.bundle}: {size / 2 ** 20:.1f} MiB (limit {LIMIT_BYTES / 2 ** 20:.0f} MiB)")
    if size > LIMIT_BYTES:
        print("too large for the GPU machine", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
