"""The machine a test describes, whatever machine runs it.

Tests of "this machine" run the real detection code, but a GPU in the machine that runs the suite
must not change what they check. `pretend_cpu_only` keeps every real probe except the ones that see a
GPU: torch and CTranslate2 report no device, /sys/class/drm and /dev hold no card, ROCm is absent.
"""
from __future__ import annotations

import functools
from pathlib import Path


def pretend_cpu_only(monkeypatch, tmp_path: Path) -> None:
    import ctranslate2
    import torch

    from desktop.core.gpu import device, doctor
    from desktop.engines.transcription import plan

    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    monkeypatch.setattr(torch.cuda, "device_count", lambda: 0)
    monkeypatch.setattr(ctranslate2, "get_cuda_device_count", lambda: 0)
    no_cards = tmp_path / "no-gpu" / "drm"
    no_devices = tmp_path / "no-gpu" / "dev"
    no_cards.mkdir(parents=True)
    no_devices.mkdir()
    monkeypatch.setenv("ROCM_PATH", str(tmp_path / "no-gpu" / "rocm"))
    for hides_every_gpu in ("CUDA_VISIBLE_DEVICES", "HIP_VISIBLE_DEVICES", "ROCR_VISIBLE_DEVICES"):
        monkeypatch.setenv(hides_every_gpu, "")  # for torch in child processes
    probes = functools.partial(device.Probes, sysfs_drm=no_cards, run_tool=lambda argv, timeout: None)
    monkeypatch.setattr(device, "Probes", probes)
    monkeypatch.setattr(doctor, "DoctorProbes",
                        functools.partial(doctor.DoctorProbes, machine=probes(), dev=no_devices))
    monkeypatch.setattr(plan, "_GPU_DRIVER_NODES", ())


def pretend_no_portaudio(monkeypatch) -> None:
    """sounddevice fails to load as it does on a machine without the PortAudio library."""
    import importlib.abc
    import sys

    class PortAudioMissing(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path=None, target=None):
            if name == "sounddevice":
                raise OSError("PortAudio library not found")
            return None

    monkeypatch.delitem(sys.modules, "sounddevice", raising=False)
    monkeypatch.setattr(sys, "meta_path", [PortAudioMissing(), *sys.meta_path])
