"""The GPU smoke test: run the kernels speech models need, one by one, in a throw-away process.

`torch.cuda.is_available()` being True does not prove kernels run: a card without code in the wheel
fails its first real kernel, and a broken driver can crash or hang the process. So the window never
runs this itself; `desktop.core.gpu.device` starts it as a child process with a timeout:

    python -m desktop.core.gpu.smoke_test --json

With --json it prints one JSON object per line, flushed at once, so the parent knows which op was
running if the process dies: {"event": "device", ...}, then {"event": "start", "op": ...} and
{"event": "done", "op": ..., "ok": ..., "error": ...} per op, and {"event": "end"}. When no GPU is
visible it prints {"event": "unavailable", "reason": ...}. Exit status: 0 all ops passed, 1 an op
failed, 3 no GPU. `--device cpu` runs the same ops on the CPU (float32), which is how the ops
themselves are tested on machines without a GPU.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any, Callable

OPS = ("allocate", "matmul", "conv1d", "stft", "attention")
OP_DESCRIPTIONS = {
    "allocate": "allocate memory",
    "matmul": "matrix multiply",
    "conv1d": "1-D convolution",
    "stft": "short-time Fourier transform",
    "attention": "scaled dot-product attention",
}

EXIT_PASSED, EXIT_OP_FAILED, EXIT_NO_GPU = 0, 1, 3


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    line = text.splitlines()[0] if text else ""
    return f"{type(exc).__name__}: {line}" if line else type(exc).__name__


def _ops(torch: Any, device: str, dtype: Any) -> dict[str, Callable[[], None]]:
    """Each op computes on `device` and compares with the same computation in float32 on the CPU.

    A kernel that runs but computes garbage (a wrong HSA_OVERRIDE_GFX_VERSION can do that) fails too.
    """
    generator = torch.Generator().manual_seed(0)

    def rand(*shape: int):
        return torch.rand(*shape, generator=generator) - 0.5

    def same(result, expected, what: str) -> None:
        result = result.detach().to("cpu", torch.float32)
        if not bool(torch.isfinite(result).all()):
            raise ArithmeticError(f"{what} gave non-finite values")
        scale = float(expected.abs().max()) or 1.0
        error = float((result - expected).abs().max()) / scale
        if error > 0.05:
            raise ArithmeticError(f"{what} differs from the CPU result (relative error {error:.3f})")

    def sync() -> None:
        if device.startswith("cuda"):
            torch.cuda.synchronize()  # errors of asynchronous kernels surface here, at the right op

    def allocate() -> None:
        values = rand(1024, 1024)
        on_device = values.to(device, dtype)
        sync()
        same(on_device, values.to(dtype).float(), "a copy to the device and back")

    def matmul() -> None:
        a, b = rand(256, 384), rand(384, 128)
        result = a.to(device, dtype) @ b.to(device, dtype)
        sync()
        same(result, a @ b, "matmul")

    def conv1d() -> None:
        # Whisper's first layer: 80 mel bins in, kernel 3, padding 1.
        x, weight, bias = rand(1, 80, 300), rand(64, 80, 3), rand(64)
        f = torch.nn.functional.conv1d
        result = f(x.to(device, dtype), weight.to(device, dtype), bias.to(device, dtype), padding=1)
        sync()
        same(result, f(x, weight, bias, padding=1), "conv1d")

    def stft() -> None:
        # Whisper's log-mel front end works in float32: 400-sample window, hop 160.
        audio = rand(16000)
        window = torch.hann_window(400)
        result = torch.stft(audio.to(device), 400, 160, window=window.to(device), return_complex=True).abs()
        sync()
        same(result, torch.stft(audio, 400, 160, window=window, return_complex=True).abs(), "stft")

    def attention() -> None:
        q, k, v = rand(1, 4, 64, 32), rand(1, 4, 64, 32), rand(1, 4, 64, 32)
        f = torch.nn.functional.scaled_dot_product_attention
        result = f(q.to(device, dtype), k.to(device, dtype), v.to(device, dtype))
        sync()
        same(result, f(q, k, v), "scaled_dot_product_attention")

    return {"allocate": allocate, "matmul": matmul, "conv1d": conv1d, "stft": stft, "attention": attention}


def _device_facts(torch: Any, device: str) -> dict[str, Any]:
    """What the GPU is, read here rather than in the window's process: the first query initialises the
    HIP/CUDA runtime, which is where a broken driver crashes or hangs."""
    facts: dict[str, Any] = {
        "event": "device",
        "device": device,
        "torch": torch.__version__,
        "hip": getattr(torch.version, "hip", None),
        "cuda": getattr(torch.version, "cuda", None),
    }
    if device.startswith("cuda"):
        index = torch.device(device).index or 0
        properties = torch.cuda.get_device_properties(index)
        facts["name"] = properties.name
        facts["gfx_arch"] = (getattr(properties, "gcnArchName", "") or "").split(":", 1)[0] or None
        facts["sm"] = None if facts["hip"] else f"sm_{properties.major}{properties.minor}"
        facts["memory_total"] = int(properties.total_memory)
        try:
            facts["memory_free"] = int(torch.cuda.mem_get_info(index)[0])
        except RuntimeError:
            facts["memory_free"] = None
    return facts


def run(device: str, emit: Callable[[dict[str, Any]], None]) -> int:
    """Run every op on `device`, reporting through `emit`; returns the exit status."""
    import torch

    if device.startswith("cuda") and not torch.cuda.is_available():
        emit({"event": "unavailable", "reason": "PyTorch sees no GPU"})
        return EXIT_NO_GPU
    dtype = torch.float16 if device.startswith("cuda") else torch.float32
    emit({**_device_facts(torch, device), "dtype": str(dtype).removeprefix("torch.")})
    status = EXIT_PASSED
    for name, op in _ops(torch, device, dtype).items():
        emit({"event": "start", "op": name})
        began = time.perf_counter()
        try:
            op()
        except Exception as exc:  # noqa: BLE001 - every failure is part of the answer
            emit({"event": "done", "op": name, "ok": False, "error": _first_line(exc),
                  "seconds": round(time.perf_counter() - began, 3)})
            status = EXIT_OP_FAILED
            if name == "allocate":
                break  # nothing else can run without memory on the device
        else:
            emit({"event": "done", "op": name, "ok": True, "error": None,
                  "seconds": round(time.perf_counter() - began, 3)})
    emit({"event": "end"})
    return status


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m desktop.core.gpu.smoke_test",
                                     description="Run a few GPU kernels and report which ones work.")
    parser.add_argument("--json", action="store_true", help="one JSON object per line")
    parser.add_argument("--device", default="cuda", help="cuda (the GPU, also on ROCm), cuda:N or cpu")
    args = parser.parse_args(argv)

    def emit(event: dict[str, Any]) -> None:
        if args.json:
            line = json.dumps(event)
        elif event["event"] == "done":
            line = f"{OP_DESCRIPTIONS[event['op']]}: {'ok' if event['ok'] else 'FAILED ' + event['error']}"
        elif event["event"] == "device":
            line = (f"Testing {event.get('name') or event['device']} in {event['dtype']} "
                    f"with PyTorch {event['torch']}")
        elif event["event"] == "unavailable":
            line = f"No GPU to test: {event['reason']}"
        else:
            return
        print(line, flush=True)

    return run(args.device, emit)


if __name__ == "__main__":
    sys.exit(main())
