"""The GPU -> CPU retry policy every engine uses, and the record of each time it was needed.

There is no automatic CPU fallback on ROCm: a kernel without code for the card, a failing FFT or
MIOpen call, or a full GPU surfaces as a RuntimeError (or NotImplementedError) in the middle of a job.
`run_with_gpu_fallback` turns such a failure into a retry on the CPU, and records a `FallbackEvent` in a
`FallbackLog` so the window can say so at once. Errors that have nothing to do with the GPU propagate.
"""
from __future__ import annotations

import logging
import re
import threading
import traceback
import warnings
from dataclasses import dataclass
from datetime import datetime
from typing import Callable, TypeVar

from desktop.core.common.errors import Cancelled
from desktop.core.common.i18n import N_

_logger = logging.getLogger(__name__)

T = TypeVar("T")


@dataclass(frozen=True)
class FallbackEvent:
    when: datetime
    job: str  # what the user started, e.g. the file name
    stage: str  # the step or operation that failed on the GPU, e.g. "transcribe"
    error: str  # the GPU's error, one line
    fix: str  # a sentence the user can act on
    from_server: bool = False  # the transcription server failed (not the GPU); this computer finished the job


class FallbackLog:
    """Every fallback of this session, in order; safe to use from any thread."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._events: list[FallbackEvent] = []
        self._subscribers: list[Callable[[FallbackEvent], None]] = []
        self._gpu_unusable = False

    def record(self, event: FallbackEvent) -> None:
        with self._lock:
            self._events.append(event)
            subscribers = list(self._subscribers)
        if event.from_server:
            _logger.warning("The transcription server failed on %s, so this computer finished it: %s",
                            event.job, event.error)
        else:
            _logger.warning("GPU fallback in %s (%s): %s", event.job, event.stage, event.error)
        # Outside the lock: a subscriber may read events() or record again.
        for callback in subscribers:
            try:
                callback(event)
            except Exception:  # noqa: BLE001 - one broken listener must not fail the job
                _logger.exception("A fallback listener failed")

    def events(self) -> list[FallbackEvent]:
        with self._lock:
            return list(self._events)

    def subscribe(self, callback: Callable[[FallbackEvent], None]) -> None:
        """Call `callback(event)` for each new event, on the thread that records it."""
        with self._lock:
            self._subscribers.append(callback)

    def unsubscribe(self, callback: Callable[[FallbackEvent], None]) -> None:
        with self._lock:
            if callback in self._subscribers:
                self._subscribers.remove(callback)

    def mark_gpu_unusable(self) -> None:
        """The GPU driver crashed or hung: nothing more runs on the GPU until VoxDesk restarts."""
        with self._lock:
            self._gpu_unusable = True

    @property
    def gpu_unusable(self) -> bool:
        with self._lock:
            return self._gpu_unusable


class ProcessCrash(RuntimeError):
    """The process running a model on the GPU died (a segfault or an abort in the driver) or stopped
    answering. Always a GPU failure, and one that marks the GPU unusable for the session."""


# -- recognising GPU failures -------------------------------------------------------------------

# Lower-case fragments of the messages HIP, CUDA and their libraries put in RuntimeErrors.
_GPU_MARKERS = (
    "hip error",
    "hiperror",
    "hip out of memory",
    "hipfft",
    "hipblas",
    "hipsparse",
    "rocblas",
    "miopen",
    "hsa_status",
    "/dev/kfd",
    "invalid device function",
    "no binary for gpu",
    "unable to find code object",
    "no kernel image is available",
    "cuda error",
    "cuda failed",
    "cuda out of memory",
    "cuda driver",
    "cudnn",
    "cublas",
    "cufft",
    "nvidia driver",
    "no cuda gpus are available",
    "device-side assert",
    "not implemented for",
    "from the 'cuda' backend",  # "Could not run 'aten::...' with arguments from the 'CUDA' backend"
    "out of memory",
)
_OOM_MARKERS = (
    "out of memory",
    "hiperroroutofmemory",
    "cuda_error_out_of_memory",
    "cublas_status_alloc_failed",
)


def _chain(exc: BaseException) -> list[BaseException]:
    """The exception and its causes (explicit or implicit), each once."""
    seen: list[BaseException] = []
    current: BaseException | None = exc
    while current is not None and current not in seen:
        seen.append(current)
        current = current.__cause__ or current.__context__
    return seen


def _text(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}".lower()


def is_gpu_failure(exc: BaseException) -> bool:
    """True for the RuntimeError / NotImplementedError shapes of a failing HIP or CUDA device.

    torch.OutOfMemoryError and torch.AcceleratorError are RuntimeError subclasses, so they count.
    """
    for error in _chain(exc):
        if isinstance(error, ProcessCrash):
            return True
        if isinstance(error, (RuntimeError, NotImplementedError)):
            text = _text(error)
            if type(error).__name__ in ("OutOfMemoryError", "AcceleratorError"):
                return True
            if any(marker in text for marker in _GPU_MARKERS):
                return True
    return False


def is_out_of_memory(exc: BaseException) -> bool:
    """True when the GPU ran out of memory (a smaller batch or freed cache may still fit)."""
    for error in _chain(exc):
        if type(error).__name__ == "OutOfMemoryError":
            return True
        if isinstance(error, RuntimeError) and any(marker in _text(error) for marker in _OOM_MARKERS):
            # The CPU allocator says "can't allocate memory", never "out of memory".
            return True
    return False


def suggested_fix(exc: BaseException) -> str:
    """One or two sentences a non-technical user can act on, for a GPU failure."""
    text = " ".join(_text(error) for error in _chain(exc))
    if any(isinstance(error, ProcessCrash) for error in _chain(exc)):
        return N_("Fallback", "The graphics driver stopped responding, so this ran on the CPU, and VoxDesk uses the "
                  "CPU until it is started again. Help → Doctor tests the GPU step by step and shows the fix.")
    if is_out_of_memory(exc):
        return N_("Fallback", "The graphics card ran out of memory. Close other programs that use the GPU, or "
                  "choose a smaller model in Settings.")
    if any(m in text for m in ("invalid device function", "no binary for gpu", "unable to find code object",
                               "no kernel image is available")):
        return N_("Fallback", "The installed PyTorch has no code for this graphics card. Help → Doctor tests the "
                  "GPU step by step and shows the fix.")
    if "/dev/kfd" in text or "permission denied" in text:
        return N_("Fallback", "VoxDesk may not use the graphics card yet. Run: {command} then log out and back "
                  "in.").format(command="sudo usermod -aG render,video $USER")
    if "hipfft" in text or "cufft" in text:
        return N_("Fallback", "The GPU's FFT library failed; updating ROCm usually fixes this. Until then this "
                  "step runs on the CPU.")
    if "miopen" in text or "cudnn" in text:
        return N_("Fallback", "The GPU's convolution library (MIOpen) failed; updating ROCm usually fixes this. "
                  "Until then this step runs on the CPU.")
    if "not implemented for" in text or "could not run" in text or any(
        isinstance(error, NotImplementedError) for error in _chain(exc)
    ):
        return N_("Fallback", "The installed PyTorch cannot run this step on the GPU, so it ran on the CPU. A newer "
                  "PyTorch may add it.")
    return N_("Fallback", "The GPU failed, so this ran on the CPU. Help → Doctor tests the GPU step by step and "
              "shows the fix.")


def describe(exc: BaseException) -> str:
    """The error in one line: type and the first line of its message, shortened."""
    first = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
    line = f"{type(exc).__name__}: {first}" if first else type(exc).__name__
    return line if len(line) <= 300 else line[:297] + "..."


def run_with_gpu_fallback(
    job: str,
    stage: str,
    on_gpu: Callable[[], T],
    on_cpu: Callable[[], T],
    log: FallbackLog,
    *,
    free_memory: Callable[[], None] | None = None,
    retry_smaller: Callable[[], T] | None = None,
) -> T:
    """Run `on_gpu()`; when the GPU fails, finish with `on_cpu()` and record why.

    Out of memory first calls `free_memory()` and, when given, `retry_smaller()` (a smaller batch on
    the GPU). Any other GPU failure, or a retry that fails on the GPU too, records a FallbackEvent and
    returns `on_cpu()`; a crashed or hung GPU process (ProcessCrash) also marks the GPU unusable for
    the session, before `on_cpu()` runs. Exceptions that are not GPU failures (a bad file, Cancelled)
    propagate.
    """
    outcome = _attempt(on_gpu)
    if isinstance(outcome, _Failure) and outcome.out_of_memory:
        if free_memory is not None:
            _free(free_memory)
        if retry_smaller is not None:
            _logger.info("%s: GPU out of memory in %s; retrying with a smaller batch", job, stage)
            outcome = _attempt(retry_smaller)
    if not isinstance(outcome, _Failure):
        return outcome
    if outcome.crashed:
        log.mark_gpu_unusable()
    log.record(FallbackEvent(datetime.now().astimezone(), job, stage, outcome.error, outcome.fix))
    return on_cpu()


@dataclass(frozen=True)
class _Failure:
    error: str
    fix: str
    out_of_memory: bool
    crashed: bool = False


def _attempt(work: Callable[[], T]) -> T | _Failure:
    """Run `work`; a GPU failure comes back as a _Failure holding only text.

    The exception itself is dropped before returning: its traceback keeps the failed frames, and with
    them their GPU tensors, alive, which would defeat freeing memory before a retry.
    """
    try:
        return work()
    except Cancelled:
        raise
    except Exception as exc:  # noqa: BLE001 - anything that is not a GPU failure is re-raised
        if not is_gpu_failure(exc):
            raise
        _logger.warning("GPU failure: %s\n%s", describe(exc), traceback.format_exc())
        crashed = any(isinstance(error, ProcessCrash) for error in _chain(exc))
        return _Failure(describe(exc), suggested_fix(exc), is_out_of_memory(exc), crashed)


def _free(free_memory: Callable[[], None]) -> None:
    try:
        free_memory()
    except Exception:  # noqa: BLE001 - freeing is best effort; the retry or the CPU still follows
        _logger.warning("Freeing GPU memory failed", exc_info=True)


# -- slow-path warnings -------------------------------------------------------------------------

SLOW_PATH_PATTERNS = (
    "Flash attention kernel not used",
    "Memory efficient kernel not used",
    "Flash attention support on Navi31 GPU is still experimental",
    "FP16 is not supported on CPU",
)


class SlowPathWarnings:
    """Collects PyTorch's slow-path warnings raised while a job runs, as information for the user.

        with SlowPathWarnings() as slow:
            run_the_job()
        show(slow.notes)

    Only warnings raised on the thread that entered the block are collected, so two jobs on two
    threads each get their own. Collected warnings are not printed. Other warnings are left alone.

    Limitation: Python's warning filters and `warnings.showwarning` are process-wide, so this installs
    one shared hook while any collector is active. Code that wraps a block in `warnings.catch_warnings()`
    on another thread at the same time saves and restores those globals around our hook; a warning
    raised in that window is then shown the ordinary way instead of collected. PyTorch also emits some
    of these warnings only once per process, so a later job may not see one again.
    """

    _lock = threading.Lock()
    _active: dict[int, list["SlowPathWarnings"]] = {}
    _original_showwarning: Callable | None = None

    def __init__(self, patterns: tuple[str, ...] = SLOW_PATH_PATTERNS):
        self.patterns = patterns
        self.notes: list[str] = []
        self._thread: int | None = None

    def __enter__(self) -> "SlowPathWarnings":
        self._thread = threading.get_ident()
        cls = SlowPathWarnings
        with cls._lock:
            if not any(cls._active.values()):
                cls._install()
            cls._always_show(self.patterns)
            cls._active.setdefault(self._thread, []).append(self)
        return self

    def __exit__(self, *exc_info) -> None:
        cls = SlowPathWarnings
        with cls._lock:
            stack = cls._active.get(self._thread, [])
            if self in stack:
                stack.remove(self)
            if not stack:
                cls._active.pop(self._thread, None)
            if not any(cls._active.values()):
                cls._uninstall()

    def matches(self, message: str) -> bool:
        return any(pattern.lower() in message.lower() for pattern in self.patterns)

    def _note(self, message: str) -> None:
        line = message.strip().splitlines()[0] if message.strip() else message
        if line not in self.notes:
            self.notes.append(line)

    # The shared hook. Called with _lock held.
    _filter_entries: list = []
    _filtered_patterns: set[str] = set()

    @classmethod
    def _install(cls) -> None:
        cls._original_showwarning = warnings.showwarning
        warnings.showwarning = cls._showwarning
        cls._filter_entries = []
        cls._filtered_patterns = set()

    @classmethod
    def _always_show(cls, patterns: tuple[str, ...]) -> None:
        """"always" filters for a collector's own patterns, so a warning already seen at the same place
        in an earlier job reaches the hook again; kept until the last collector leaves."""
        before = list(warnings.filters)
        for pattern in patterns:
            if pattern not in cls._filtered_patterns:
                warnings.filterwarnings("always", message=".*" + re.escape(pattern))
                cls._filtered_patterns.add(pattern)
        cls._filter_entries.extend(entry for entry in warnings.filters if entry not in before)

    @classmethod
    def _uninstall(cls) -> None:
        if warnings.showwarning is cls._showwarning and cls._original_showwarning is not None:
            warnings.showwarning = cls._original_showwarning
        for entry in cls._filter_entries:
            try:
                warnings.filters.remove(entry)
            except ValueError:
                pass
        mutated = getattr(warnings, "_filters_mutated", None)
        if mutated is not None:
            mutated()  # let the "once" caches see the filters changed, as filterwarnings() does
        cls._filter_entries = []
        cls._filtered_patterns = set()
        cls._original_showwarning = None

    @staticmethod
    def _showwarning(message, category, filename, lineno, file=None, line=None) -> None:
        cls = SlowPathWarnings
        text = str(message)
        with cls._lock:
            collectors = [c for c in cls._active.get(threading.get_ident(), []) if c.matches(text)]
            original = cls._original_showwarning
        if collectors:
            _logger.info("Slow path: %s", text.strip().splitlines()[0] if text.strip() else text)
            for collector in collectors:
                collector._note(text)
            return
        if original is not None:
            original(message, category, filename, lineno, file, line)
