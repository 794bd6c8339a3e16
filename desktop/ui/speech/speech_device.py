"""Where speech synthesis runs, as the window's status bar shows it: the CPU, the GPU, or the CPU
again after the GPU failed (said at once, with what to do about it)."""
from __future__ import annotations

from PySide6.QtCore import QObject, Signal, Slot

from desktop.core.common.i18n import N_
from desktop.core.gpu.fallback import FallbackLog
from desktop.engines.speech.tts import SpeechSynthesizer

ON_CPU = N_("SynthesizeTab", "CPU")
ON_GPU = N_("SynthesizeTab", "GPU (experimental)")


class SpeechDevice(QObject):
    changed = Signal(object)  # "CPU", "GPU" or a Message like ON_GPU
    status = Signal(object)  # a sentence for the status line (a core Message)
    # Emitted from whichever thread records a fallback; Qt queues it to this object's (GUI) thread.
    _fallback_recorded = Signal(object)

    def __init__(self, synthesizer: SpeechSynthesizer, fallback_log: FallbackLog, parent: QObject) -> None:
        super().__init__(parent)
        self._synthesizer = synthesizer
        self._fallback_recorded.connect(self._on_fallback)
        signal = self._fallback_recorded
        subscriber = lambda event: signal.emit(event)  # noqa: E731 - must not hold this object itself
        fallback_log.subscribe(subscriber)
        self.destroyed.connect(lambda *_: fallback_log.unsubscribe(subscriber))

    def chosen(self, use_gpu: bool) -> None:
        """Nothing is loaded yet: say where speech will run."""
        self.changed.emit(ON_GPU if use_gpu else ON_CPU)

    def loaded(self) -> None:
        """Say where the loaded model runs (after loading it or a run; a run may have fallen back)."""
        if self._synthesizer.loaded is not None:
            self.changed.emit(self._synthesizer.loaded.device)

    @Slot(object)
    def _on_fallback(self, event) -> None:
        from desktop.engines.speech.tts import JOB_NAME

        if event.job == JOB_NAME:
            self.changed.emit(ON_CPU)
            self.status.emit(N_("SynthesizeTab", "The GPU failed, so speech continues on the CPU. {fix}").format(
                fix=event.fix))
