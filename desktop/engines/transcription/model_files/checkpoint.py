"""Reading an openai-whisper checkpoint (``.pt``) safely: tensors and plain containers only."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from desktop.core.common.errors import ModelError, UserFacingError
from desktop.core.common.i18n import N_
from desktop.engines.transcription.engine import CPU_OUT_OF_MEMORY, DAMAGED_MODEL


def read_checkpoint(path: Path) -> tuple[dict[str, int], dict[str, Any]]:
    """The dimensions and state dict (torch tensors) of an openai-whisper checkpoint (``.pt``).

    It is read with ``weights_only=True``: tensors and plain containers, never arbitrary pickled objects.
    """
    import torch

    from desktop.core.common.safe_files import open_regular

    if not path.exists():
        raise ModelError(N_("Engine", "The model file is missing; download or import the model again."),
                         detail=f"{path} not found")
    try:
        with open_regular(path, error=ModelError) as f:
            checkpoint = torch.load(f, map_location="cpu", weights_only=True)
        return dict(checkpoint["dims"]), checkpoint["model_state_dict"]
    except UserFacingError:
        raise  # a pipe or device where the model file should be, named as such
    except MemoryError as exc:
        raise UserFacingError(CPU_OUT_OF_MEMORY, detail=str(exc)) from exc
    except Exception as exc:  # noqa: BLE001 - whatever torch.load or the lookups raise, the file is unusable
        raise ModelError(DAMAGED_MODEL, detail=f"{type(exc).__name__}: {exc}") from exc
