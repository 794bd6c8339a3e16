"""What a transcription asks for and where it runs: the user's choices for one job, the engine and
device they come to on this computer, and the model file that engine loads.

The Transcriber (a file) and live captions (``live_engine``) both plan with this module, so the same
settings always lead to the same engine, device and model file. No Qt here.
"""
from __future__ import annotations

import functools
import logging
import os
from dataclasses import dataclass
from pathlib import Path

from desktop.core.common.errors import UserFacingError
from desktop.core.common.i18n import N_
from desktop.core.transcription import options as declared
from desktop.core.transcription.options import RecognitionChoices
from desktop.core.transcription.server_config import ServerConfig
from desktop.core.transcription.whisper_models import LocalModel, ModelStore
from desktop.engines.transcription.engine import TranscribeOptions

log = logging.getLogger(__name__)


# Which on-disk formats each engine can load, best first; the first is what a download fetches.
FORMATS_FOR_ENGINE = {"torch": ("pt", "ct2"), "ct2": ("ct2", "pt")}

NO_GPU_FOR_FORCED_CHOICE = (
    N_("Engine", 'Settings ask for the GPU, but VoxDesk found no working GPU on this computer. Choose "Automatic" '
                 'or "CPU" in Settings, or open Help → Doctor to see how to fix the GPU.')
)


@dataclass
class TranscribeSettings(RecognitionChoices):
    """One job's choices: those live captions share (language, task, prompt, beam size, Chinese script)
    and a file's own; every default is its declaration's (``core.transcription.options``)."""

    model: str = declared.MODEL.default  # a catalog or imported name, or a path to a .pt file / CTranslate2 folder
    engine: str = declared.ENGINE.default  # auto | torch | ct2 | server
    device: str = declared.DEVICE.default  # auto | gpu | cpu
    server: ServerConfig | None = None  # the office's transcription server, when one is set up
    speakers: str = declared.SPEAKERS.default  # off | auto | 2…8: label who speaks (desktop.core.speakers.choice)
    batch_size: int | None = declared.BATCH_SIZE.default  # windows decoded at once: None automatic, 1 one by one
    glossary_files: tuple[str, ...] = ()  # glossaries Whisper is told of and the transcript is corrected with
    # How each window is decoded, as chosen in Settings → Transcription (folded there):
    vad: bool = declared.VAD.default
    word_timestamps: bool = declared.WORD_TIMESTAMPS.default
    temperature: float | None = declared.TEMPERATURE.default  # None: Whisper's fallback from 0.0 up to 1.0
    condition_on_previous_text: bool = declared.CONDITION_ON_PREVIOUS_TEXT.default

    def options(self) -> TranscribeOptions:
        """The options of one decoding for this job (the chunk's language and prompt are set per chunk)."""
        return TranscribeOptions(
            language=self.language,
            task=self.task,
            initial_prompt=self.initial_prompt or None,
            beam_size=self.beam_size,
            batch_size=self.batch_size,
            vad=self.vad,
            word_timestamps=self.word_timestamps,
            temperature=self.temperature,
            condition_on_previous_text=self.condition_on_previous_text,
        )


@dataclass(frozen=True)
class Plan:
    engine: str  # torch | ct2 | server
    device: str  # cuda | cpu | server


def local_plan(settings: TranscribeSettings, *, wants_gpu: bool, ct2_gpu_count) -> Plan:
    """The engine on this computer for ``settings``, on the GPU when ``wants_gpu``."""
    engine = settings.engine
    if engine == "auto":
        # openai-whisper in fp16 on torch's GPU (HIP on ROCm); CTranslate2 int8 is fastest on a CPU.
        engine = "torch" if wants_gpu else "ct2"
    if engine == "ct2" and wants_gpu and ct2_gpu_count() == 0:
        # CTranslate2's wheels have no ROCm code: never hand it "cuda" because torch has a GPU.
        return Plan("ct2", "cpu")
    return Plan(engine, "cuda" if wants_gpu else "cpu")


def automatic_gpu_plan(settings: TranscribeSettings, gpu_proof, ct2_gpu_count) -> tuple[Plan | None, str | None]:
    """Automatic's engine on a GPU this machine measured and checked (``known_answer.GpuProof``), and
    why: faster-whisper, openai-whisper, or the processor when every engine is slower there. None
    when the GPU was asked for in Settings: it gets it, and the check before loading still catches
    wrong words."""
    choice = gpu_proof.automatic_engine(settings.model, ct2_gpu_count())
    if choice.engine is not None:
        return Plan(choice.engine, "cuda"), choice.reason
    if settings.device == "auto":
        return Plan("ct2", "cpu"), choice.reason  # slower than the processor with every engine
    return None, choice.reason


def cpu_plan(settings: TranscribeSettings, plan: Plan) -> Plan:
    """Where a job goes on after the GPU failed: "Automatic" means the fastest CPU engine; a forced
    engine stays the same engine."""
    return Plan("ct2" if settings.engine == "auto" else plan.engine, "cpu")


def check_choices(settings: TranscribeSettings) -> None:
    if not declared.ENGINE.allows(settings.engine) or not declared.DEVICE.allows(settings.device):
        raise ValueError(f"unknown engine/device choice: {settings.engine}/{settings.device}")


def wants_gpu(settings: TranscribeSettings, *, gpu_available, gpu_unusable: bool, gpu_broken: bool) -> bool:
    """Whether the job is to run on the GPU; a GPU forced in Settings that does not work is an error."""
    if settings.device == "cpu" or gpu_unusable:
        return False  # a driver that crashed or hung is not tried again this session
    if settings.device == "gpu":
        if not gpu_available():
            raise UserFacingError(NO_GPU_FOR_FORCED_CHOICE)
        return True
    return not gpu_broken and gpu_available()


def local_model(store: ModelStore, name: str, engine: str) -> LocalModel | None:
    """The model file ``engine`` loads for ``name`` (a model's name, or a path to a .pt file or a
    CTranslate2 folder), or None when it is not on this computer."""
    path = Path(name).expanduser()
    # Only something written as a path is one: a folder called "base" in the current directory
    # must not shadow the model called base.
    if _looks_like_path(name) and path.exists():
        fmt = "ct2" if path.is_dir() else "pt"
        return LocalModel(name=path.stem if fmt == "pt" else path.name, format=fmt, path=path, imported=True)
    available = {model.format: model for model in store.local(name)}
    for fmt in FORMATS_FOR_ENGINE[engine]:
        if fmt in available:
            return available[fmt]
    return None


def language_checker(store: ModelStore, name: str) -> LocalModel | None:
    """The multilingual model that tells the language of speech the model ``name`` is given when that
    model understands only English (``decoders.language_check``): the same family's (tiny for
    tiny.en) when it is on this computer, else the smallest official multilingual model that is: its
    CTranslate2 folder (faster-whisper runs it), else its openai-whisper checkpoint (converted into one
    when first needed). None for a multilingual model, or when none is here."""
    info = store.info(name)
    if info is not None and not info.english_only:
        return None  # it tells the language itself
    family = name.removesuffix(".en")
    multilingual = [official for official in map(store.info, store.names())
                    if official is not None and not official.english_only]
    for official in sorted(multilingual, key=lambda official: (official.name != family, official.size_mb)):
        here = {model.format: model for model in store.local(official.name)}
        found = here.get("ct2") or here.get("pt")
        if found is not None:
            return found
    return None


def _looks_like_path(name: str) -> bool:
    return os.sep in name or name.startswith(("~", ".")) or name.endswith(".pt")


# Without one of these driver nodes no GPU can work for torch: ROCm needs /dev/kfd, CUDA
# /dev/nvidiactl, WSL /dev/dxg.
_GPU_DRIVER_NODES = ("/dev/kfd", "/dev/nvidiactl", "/dev/dxg")


@functools.cache
def torch_gpu_works() -> bool:
    """Whether PyTorch sees a GPU, asked once per session in a child process (``device.torch_in_child``):
    the question starts the HIP/CUDA runtime, which must not crash this process, and this process has
    no other use for torch. Without a driver node no child is started at all."""
    if not any(os.path.exists(node) for node in _GPU_DRIVER_NODES):
        return False
    from desktop.core.gpu.device import torch_in_child

    try:
        return bool(torch_in_child().cuda.is_available())
    except (ImportError, RuntimeError) as error:
        log.warning("PyTorch's GPU could not be asked for: %s", error)
        return False


def ct2_gpu_count() -> int:
    try:
        import ctranslate2

        return int(ctranslate2.get_cuda_device_count())
    except Exception:  # noqa: BLE001 - not installed, or a build that raises instead of answering 0
        return 0
