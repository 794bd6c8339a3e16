"""Making speech and hearing it: Speak runs the engine on a worker thread one sentence at a time, and
each finished sentence goes straight to the StreamPlayer, so the first one plays while the rest are
still being made. What a run made (the take) can be played again and saved."""
from __future__ import annotations

import numpy as np
from PySide6.QtCore import QObject, Signal

from desktop.core.common.i18n import N_
from desktop.engines.speech.tts import SpeechSynthesizer, SpokenSentence, SynthesisSettings
from desktop.engines.speech.two_voices import TwoVoiceSpeech
from desktop.ui.common.stream_player import PAUSED, PLAYING, StreamPlayer
from desktop.ui.common.tab_jobs import TabJobs
from desktop.workers.job import JobReport


class Take:
    """The sentences one Speak run made, in order, with the text they were made from."""

    def __init__(self, text: str = "", sample_rate: int = 0) -> None:
        self.text = text
        self.sample_rate = sample_rate
        self.sentences: list[SpokenSentence] = []

    def __len__(self) -> int:
        return len(self.sentences)

    def samples(self) -> np.ndarray:
        if not self.sentences:
            return np.zeros(0, dtype=np.float32)
        return np.concatenate([s.samples for s in self.sentences])


class Speaker(QObject):
    """Speaks text into the player and keeps the take; Cancel stops within one sentence and keeps what was made."""

    sentence_made = Signal(object)  # a SpokenSentence of the run in progress, already queued for playing
    done = Signal(object)  # the Speech of a run that made every sentence
    failed = Signal(object)  # the sentence saying why a run (or a preview) failed
    cancelled = Signal()  # the run stopped early; run_made says how far it came
    status = Signal(object)  # a sentence for the status line

    def __init__(self, synthesizer: SpeechSynthesizer, jobs: TabJobs, player: StreamPlayer,
                 parent: QObject | None = None, *, two_voices: TwoVoiceSpeech | None = None) -> None:
        super().__init__(parent)
        self._synthesizer = synthesizer
        # Text mixing Chinese and English: each language read by a voice of its own.
        self._two_voices = two_voices
        self._jobs = jobs
        self.player = player
        self.take = Take()  # what the last run made (or as much as was made before a cancel or failure)
        self._run_text = ""  # the text of the run in progress
        self.run_made = 0  # sentences the run in progress (or the last run) made
        self.run_total = 0  # sentences it was to make
        self.playing_preview = False
        player.finished.connect(self._on_playback_finished)

    @property
    def speaking(self) -> bool:
        return self._jobs.running("speak")

    @property
    def previewing(self) -> bool:
        return self._jobs.running("preview")

    def speak(self, text: str, settings: SynthesisSettings) -> None:
        """Start making speech of text; the last take stays until the first new sentence replaces it,
        so a run that fails at once (say, text the model cannot read) loses nothing."""
        self.player.stop()
        self._run_text = text
        self.run_made = 0
        self.playing_preview = False
        synthesizer = self._two_voices or self._synthesizer

        def work(report: JobReport):
            return synthesizer.synthesize(
                text, settings,
                on_sentence=report.partial,
                on_progress=report.progress,
                on_status=report.message,
                on_note=report.message,
                cancelled=report.cancelled,
            )

        self._jobs.start("speak", work, on_partial=self._on_sentence_made, on_message=self.status.emit,
                         on_result=self._on_done, on_failed=self._on_failed, on_cancelled=self._on_cancelled)

    def cancel(self) -> None:
        """Stop making speech after the current sentence; what was made is kept."""
        if self.speaking:
            self._jobs.cancel("speak")
            self.status.emit(N_("SynthesizeTab", "Stopping after this sentence…"))

    def _on_sentence_made(self, spoken: SpokenSentence) -> None:
        if self.run_made == 0:
            self.take = Take(self._run_text, spoken.sample_rate)
            self.player.begin(spoken.sample_rate)
        self.run_made += 1
        self.run_total = spoken.total
        self.take.sentences.append(spoken)
        self.player.add(spoken.index, spoken.samples)
        self.sentence_made.emit(spoken)

    def _on_done(self, speech) -> None:
        self.player.end_of_input()
        voices = self._two_voices.last_note if self._two_voices is not None else None
        if voices:
            self.status.emit(N_("SynthesizeTab", "Done. {voices} Play it again or save it as a file.").format(
                voices=voices))
        else:
            self.status.emit(N_("SynthesizeTab", "Done. Play it again or save it as a file."))
        self.done.emit(speech)

    def _on_failed(self, message: str) -> None:
        self.player.end_of_input()
        self.failed.emit(message)

    def _on_cancelled(self) -> None:
        self.player.end_of_input()
        made = self.run_made
        if made:
            self.status.emit(N_("SynthesizeTab", "Cancelled. The first {made} of {total} sentences were made; you "
                                "can play and save them.").format(made=made, total=self.run_total))
        else:
            self.status.emit(N_("SynthesizeTab", "Cancelled before the first sentence was ready."))
        self.cancelled.emit()

    # -- hearing it -----------------------------------------------------------------------------

    def play_or_pause(self) -> None:
        state = self.player.state
        if state == PLAYING:
            self.player.pause()
        elif state == PAUSED:
            self.player.play()
        elif self.take.sentences:
            self.playing_preview = False
            self.player.begin(self.take.sample_rate)
            for spoken in list(self.take.sentences):
                self.player.add(spoken.index, spoken.samples)
            if not self.speaking:
                self.player.end_of_input()

    def stop(self) -> None:
        self.player.stop()

    def preview(self, settings: SynthesisSettings) -> None:
        """Make and play a short sample of the voice settings.speaker."""
        synthesizer = self._synthesizer

        def work(report: JobReport):
            return synthesizer.preview(settings, cancelled=report.cancelled, on_status=report.message)

        self._jobs.start("preview", work, on_message=self.status.emit, on_result=self._on_preview_ready,
                         on_failed=self.failed.emit)
        self.status.emit(N_("SynthesizeTab", "Preparing a sample of “{voice}”…").format(voice=settings.speaker))

    def _on_preview_ready(self, speech) -> None:
        if not speech.sentences:
            return
        self.playing_preview = True
        self.player.begin(speech.sample_rate)
        self.player.add(0, speech.samples)
        self.player.end_of_input()
        self.status.emit("")

    def _on_playback_finished(self) -> None:
        self.playing_preview = False

    def take_sentence(self, index: int) -> SpokenSentence | None:
        """The sentence of the take the player calls index, or None (none, or a voice sample plays)."""
        if index < 0 or self.playing_preview or index >= len(self.take):
            return None
        return self.take.sentences[index]
