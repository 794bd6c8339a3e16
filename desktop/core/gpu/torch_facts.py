"""What PyTorch says about itself and the GPU, asked in a throw-away process.

Asking torch whether it sees a GPU starts the HIP or CUDA runtime, where a broken driver crashes or
hangs, and importing torch costs the window's process hundreds of megabytes it never uses (the
engines run in their own process). So detection asks here instead:

    python -m desktop.core.gpu.torch_facts [--properties]

It prints one JSON object per line, flushed at once, so the parent knows how far it got if the process
dies: {"event": "build", "torch": ..., "hip": ..., "cuda": ..., "arch_list": [...]} once torch is
imported, then {"event": "gpus", "count": N}, and with --properties {"event": "properties", ...} for
GPU 0. When torch cannot be imported it prints {"event": "error", "error": ...} and exits with 2.
"""
from __future__ import annotations

import argparse
import json
import sys
from typing import Any

EXIT_OK, EXIT_NO_TORCH = 0, 2


def _emit(event: dict[str, Any]) -> None:
    print(json.dumps(event), flush=True)


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return f"{type(exc).__name__}: {text.splitlines()[0]}" if text else type(exc).__name__


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m desktop.core.gpu.torch_facts",
                                     description="Print what PyTorch knows about itself and the GPU, as JSON lines.")
    parser.add_argument("--properties", action="store_true", help="also read GPU 0's name, memory and architecture")
    args = parser.parse_args(argv)
    try:
        import torch
    except Exception as exc:  # noqa: BLE001 - ImportError, or OSError from a broken library
        _emit({"event": "error", "error": _first_line(exc)})
        return EXIT_NO_TORCH
    cuda = torch.cuda
    try:
        arch_list = [str(arch) for arch in cuda.get_arch_list()]  # compiled in: no runtime start
    except Exception:  # noqa: BLE001 - a CPU build may raise instead of answering []
        arch_list = []
    _emit({"event": "build", "torch": str(torch.__version__), "hip": getattr(torch.version, "hip", None),
           "cuda": getattr(torch.version, "cuda", None), "arch_list": arch_list})
    try:
        count = int(cuda.device_count()) if cuda.is_available() else 0
    except Exception as exc:  # noqa: BLE001 - a broken driver may raise here instead of answering False
        _emit({"event": "gpus", "count": 0, "error": _first_line(exc)})
        return EXIT_OK
    _emit({"event": "gpus", "count": count})
    if args.properties and count:
        properties = cuda.get_device_properties(0)
        try:
            free = int(cuda.mem_get_info(0)[0])
        except Exception:  # noqa: BLE001 - a GPU that cannot even do this fails the smoke test too
            free = None
        _emit({"event": "properties", "name": str(properties.name),
               "gcnArchName": str(getattr(properties, "gcnArchName", "") or ""),
               "major": int(properties.major), "minor": int(properties.minor),
               "total_memory": int(properties.total_memory), "free_memory": free})
    return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
