"""`voxdesk doctor [--json]`: every environment check, with the fix; exit 0 when nothing is ✗."""
from __future__ import annotations

import argparse
import functools
import sys
from typing import Callable


def add_parser(commands) -> None:
    parser = commands.add_parser(
        "doctor",
        help="check the GPU, PyTorch, ROCm and audio setup and say how to fix problems",
        description="Check this computer: PyTorch build, ROCm, GPU access and a GPU test, audio libraries, "
        "disk space. Exits 0 when nothing is broken (warnings allowed), 1 otherwise.",
    )
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    parser.add_argument("--model", default=None,
                        help="the model to check disk space and GPU memory for (default: the one in Settings)")
    parser.set_defaults(run=run)


def _chosen_model() -> str:
    try:
        from desktop.settings import open_settings

        return str(open_settings().get("transcribe/model"))
    except Exception:  # noqa: BLE001 - the settings store is a nicety here, never a reason to fail
        return "base"


def _gpu_answers(model: str) -> Callable[[], list]:
    """The known-answer check of the GPU engines, with the model chosen for the doctor."""
    def check() -> list:
        from desktop.cli.common import whisper_store
        from desktop.engines.transcription.known_answer import doctor_check

        return doctor_check(whisper_store(), model)

    return check


def run(args: argparse.Namespace, *, doctor: Callable[..., object] | None = None) -> int:
    """Print the checks; `doctor` replaces run_doctor in tests."""
    from desktop.core.gpu.doctor import format_table, run_doctor

    model = args.model or _chosen_model()
    progress = None
    if not args.json and sys.stderr.isatty():
        def progress(title: str) -> None:
            print(f"\rChecking: {title}…\033[K", end="", file=sys.stderr, flush=True)

    if doctor is None:
        from desktop.cli.common import model_sources

        sources = model_sources()  # the "Model downloads" check tries the source chosen in Settings
        doctor = functools.partial(run_doctor, downloads=sources.downloads, shared_folders=len(sources.shared_dirs),
                                   gpu_answers=_gpu_answers(model))
    result = doctor(model=model, progress=progress)
    if progress is not None:
        print("\r\033[K", end="", file=sys.stderr, flush=True)
    if args.json:
        print(result.to_json())
    else:
        from desktop.core.gpu.verdict import plain_verdict

        print(plain_verdict(result), end="\n\n")  # the sentence for the person, above the rows for IT
        print(format_table(result))
    return 0 if result.ok else 1
