"""Loading a Whisper model into openai-whisper on torch, safely, for the torch engine
(``whisper_batched.BatchedTorchEngine``), which decodes VoxDesk's windows with it.

It reads openai-whisper checkpoints (``.pt``, with ``weights_only=True``: a pickled object is refused
without being run) and CTranslate2 folders, whose weights ``weight_mapping`` maps onto openai-whisper's
layout, sets the alignment heads word times need (the checkpoint's known heads, the folder's
config.json, or the last half of the decoder), and on the GPU halves the weights to fp16 (layer norms
stay fp32).
"""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from desktop.core.common.errors import ModelError
from desktop.core.common.i18n import N_
from desktop.engines.transcription.engine import DAMAGED_MODEL, device_failure
from desktop.engines.transcription.model_files import ct2_format, weight_mapping
from desktop.engines.transcription.model_files.checkpoint import read_checkpoint

if TYPE_CHECKING:
    from desktop.core.transcription.whisper_models import LocalModel


def load_torch_model(model: "LocalModel", device: str) -> Any:
    """``model`` ("pt" checkpoint or "ct2" folder) as openai-whisper's ``Whisper`` module on "cuda" (fp16
    weights) or "cpu" (fp32), in eval mode, with its alignment heads for word times."""
    import torch
    from whisper.model import ModelDimensions, Whisper

    from desktop.core.common.model_files import check_model
    from desktop.engines.transcription.model_files.ct2_folders import alignment_heads

    if device not in ("cpu", "cuda"):
        raise ValueError(f"unknown device {device!r}")
    if device == "cuda" and not torch.cuda.is_available():
        raise ModelError(
            N_("Engine", "No usable graphics card was found for transcription; choose the processor (CPU) in "
                         "Settings."),
            detail="torch.cuda.is_available() is False",
        )
    path = Path(model.path)
    if model.format == "pt":
        dims, state = read_checkpoint(path)
        heads = alignment_heads(dims, model.name)
    elif model.format == "ct2":
        check_model(path, "ct2")
        dims, arrays = weight_mapping.to_whisper_state_dict(ct2_format.read_model_bin(path / "model.bin"))
        state = {key: torch.from_numpy(value) for key, value in arrays.items()}
        heads = ct2_format.read_config(path).get("alignment_heads") or alignment_heads(dims, None)
    else:
        raise ValueError(f"unknown model format {model.format!r}")

    try:
        whisper_model = Whisper(ModelDimensions(**dims))
        whisper_model.load_state_dict(state, strict=True)
    except (RuntimeError, TypeError, ValueError) as exc:
        raise ModelError(DAMAGED_MODEL, detail=f"{type(exc).__name__}: {exc}") from exc
    del state

    mask = torch.zeros(dims["n_text_layer"], dims["n_text_head"], dtype=torch.bool)
    for layer, head in heads:
        mask[layer, head] = True
    whisper_model.register_buffer("alignment_heads", mask.to_sparse(), persistent=False)

    if device == "cuda":
        half_weights(whisper_model)
    try:
        whisper_model = whisper_model.to(device).eval()
    except RuntimeError as exc:
        failure = device_failure(exc, device)
        raise (failure or ModelError(DAMAGED_MODEL, detail=str(exc))) from exc
    return whisper_model


def half_weights(model: Any, dtype: Any = None) -> None:
    """16-bit weights (fp16 unless ``dtype`` says otherwise, as torch.bfloat16), half the memory; layer
    norms stay fp32, since openai-whisper computes them in fp32."""
    import torch
    from whisper.model import LayerNorm

    model.to(dtype or torch.float16)
    for module in model.modules():
        if isinstance(module, LayerNorm):
            module.float()
