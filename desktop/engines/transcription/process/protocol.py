"""The messages between VoxDesk and its engine process (``process.main``), and their encoding.

Each message is one line of JSON; a request that carries audio is followed by that many float32
samples as raw bytes, so a ten-minute chunk crosses the pipe as 38 MB of samples, not as a pickle.
Errors travel as their class names, messages and causes, and come back as exceptions the parent's
GPU fallback recognises as it would recognise the original (``decode_error``).
"""
from __future__ import annotations

import builtins
import json
import traceback
from dataclasses import asdict
from pathlib import Path
from typing import Any, BinaryIO

import numpy as np

from desktop.core.common.errors import AudioError, Cancelled, ModelError, UserFacingError
from desktop.core.common.i18n import Message
from desktop.core.transcription.english_only import HeardLanguage
from desktop.core.transcription.transcript import Segment, Word
from desktop.core.transcription.whisper_models import LocalModel
from desktop.engines.transcription.engine import EngineResult, GpuError, TranscribeOptions

MAX_HEADER_BYTES = 16 * 1024 * 1024  # a result with every segment of a ten-minute chunk fits many times


# -- framing ------------------------------------------------------------------------------------

def write_message(stream: BinaryIO, message: dict, samples: np.ndarray | None = None) -> None:
    """One JSON line, then the samples' bytes when there are any (their count is in the line)."""
    if samples is not None:
        samples = np.ascontiguousarray(samples, dtype=np.float32)
        message = {**message, "samples": int(samples.size)}
    stream.write(json.dumps(message, ensure_ascii=True).encode("ascii") + b"\n")
    if samples is not None:
        stream.write(memoryview(samples).cast("B"))
    stream.flush()


def read_message(stream: BinaryIO) -> dict | None:
    """The next message (with its samples as a writable float32 array under "audio"); None at the end."""
    line = stream.readline(MAX_HEADER_BYTES)
    if not line:
        return None
    message = json.loads(line)
    count = message.pop("samples", None)
    if count is not None:
        buffer = bytearray(int(count) * 4)
        view, done = memoryview(buffer), 0
        while done < len(buffer):
            read = stream.readinto(view[done:])
            if not read:
                return None  # the other side went away half-way through
            done += read
        message["audio"] = np.frombuffer(buffer, dtype=np.float32)
    return message


# -- values -------------------------------------------------------------------------------------

def encode_text(text: Any) -> Any:
    """A Message keeps its context, template and values, so the window can still translate it."""
    if isinstance(text, Message):
        values = None if text.values is None else {k: encode_text(v) for k, v in text.values.items()}
        return {"message": [text.context, text.template, values]}
    return text if text is None or isinstance(text, (int, float, bool)) else str(text)


def decode_text(data: Any) -> Any:
    if isinstance(data, dict) and "message" in data:
        context, template, values = data["message"]
        decoded = None if values is None else {k: decode_text(v) for k, v in values.items()}
        return Message(context, template, decoded)
    return data


def encode_segment(segment: Segment) -> dict:
    return asdict(segment)


def decode_segment(data: dict) -> Segment:
    words = [Word(**word) for word in data.get("words", [])]
    return Segment(**{**data, "words": words})


def encode_result(result: EngineResult) -> dict:
    """The segments and what the engine tells of how it decoded them (a server's notes never come here)."""
    return {"segments": [encode_segment(s) for s in result.segments], "language": result.language,
            "speech": [list(stretch) for stretch in result.speech], "avg_logprobs": list(result.avg_logprobs),
            "batch_size": int(result.batch_size), "bf16_encoder": bool(result.bf16_encoder),
            "compute_type": result.compute_type, "device": result.device, "multilingual": bool(result.multilingual),
            "checked": [asdict(heard) for heard in result.checked]}


def decode_result(data: dict) -> EngineResult:
    return EngineResult(segments=[decode_segment(s) for s in data["segments"]], language=data["language"],
                        speech=[(float(a), float(b)) for a, b in data["speech"]],
                        avg_logprobs=[float(p) for p in data["avg_logprobs"]],
                        batch_size=int(data.get("batch_size", 1)), bf16_encoder=data.get("bf16_encoder") is True,
                        compute_type=_text_or_none(data.get("compute_type")), device=_text_or_none(data.get("device")),
                        multilingual=data.get("multilingual") is not False,
                        checked=tuple(_heard_language(heard) for heard in data.get("checked", ())))


def _heard_language(data: dict) -> HeardLanguage:
    return HeardLanguage(language=str(data["language"]), probability=float(data["probability"]),
                         seconds=float(data["seconds"]))


def _text_or_none(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def encode_options(options: TranscribeOptions) -> dict:
    return asdict(options)


def decode_options(data: dict) -> TranscribeOptions:
    return TranscribeOptions(**{**data, "glossary_terms": tuple(data.get("glossary_terms", ())),
                                "glossary_heard": tuple(data.get("glossary_heard", ()))})


def encode_model(model: LocalModel) -> dict:
    return {"name": model.name, "format": model.format, "path": str(model.path), "imported": model.imported}


def decode_model(data: dict) -> LocalModel:
    return LocalModel(name=data["name"], format=data["format"], path=Path(data["path"]), imported=data["imported"])


# -- errors -------------------------------------------------------------------------------------

_USER_FACING = {cls.__name__: cls for cls in (UserFacingError, ModelError, AudioError, GpuError)}


def encode_error(exc: BaseException) -> dict:
    """The exception and its causes, outermost first, with the traceback for the log."""
    chain: list[BaseException] = []
    current: BaseException | None = exc
    while current is not None and len(chain) < 8 and not any(current is seen for seen in chain):
        chain.append(current)
        current = current.__cause__ or current.__context__
    return {
        "chain": [_encode_one(error) for error in chain],
        "traceback": "".join(traceback.format_exception(exc)),
    }


def _encode_one(error: BaseException) -> dict:
    data: dict[str, Any] = {"type": type(error).__name__,
                            "bases": [cls.__name__ for cls in type(error).__mro__[1:]]}
    if isinstance(error, UserFacingError):
        data.update(message=encode_text(error.message), detail=error.detail,
                    out_of_memory=bool(getattr(error, "out_of_memory", False)))
    else:
        data["message"] = str(error)
    return data


def decode_error(data: dict) -> BaseException:
    """An exception standing for the child's: the same class for VoxDesk's own and Python's built-in
    ones, a subclass of the nearest built-in base under the same name for a library's (torch's
    OutOfMemoryError stays an OutOfMemoryError and a RuntimeError), with the same causes."""
    errors = [_decode_one(one) for one in data["chain"]]
    for outer, inner in zip(errors, errors[1:]):
        outer.__cause__ = inner
    if errors and data.get("traceback"):
        errors[0].add_note("In the engine process:\n" + data["traceback"])
    return errors[0] if errors else RuntimeError("the engine process failed")


_remote_classes: dict[tuple[str, type], type] = {}


def _decode_one(data: dict) -> BaseException:
    name = data["type"]
    if name == "Cancelled":
        return Cancelled()
    if name in _USER_FACING or any(base in _USER_FACING for base in data["bases"]):
        cls = _USER_FACING.get(name) or next(_USER_FACING[b] for b in data["bases"] if b in _USER_FACING)
        message = decode_text(data["message"])
        if cls is GpuError:
            return GpuError(message, detail=data.get("detail"), out_of_memory=data.get("out_of_memory", False))
        return cls(message, detail=data.get("detail"))
    base = next((_builtin(b) for b in [name, *data["bases"]] if _builtin(b) is not None), Exception)
    if base.__name__ != name:
        base = _remote_classes.setdefault((name, base), type(name, (base,), {"__module__": "engine_process"}))
    try:
        return base(data["message"])
    except Exception:  # noqa: BLE001 - a built-in with a different signature (e.g. UnicodeDecodeError)
        return RuntimeError(f"{name}: {data['message']}")


def _builtin(name: str) -> type | None:
    cls = getattr(builtins, name, None)
    return cls if isinstance(cls, type) and issubclass(cls, Exception) else None
