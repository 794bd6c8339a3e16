"""Text that mixes Chinese and English, read by two voices: the chosen one for its own language, a
voice of the other language for the rest. No Qt here.

The chosen voice's SpeechSynthesizer is used as it is; a second SpeechSynthesizer holds the voice of
the other language (the curated default for it when that is on this computer, else any voice on this
computer that speaks it). Each sentence is split into runs by language
(desktop.core.speech.language_runs); every run is spoken by the voice of its language, the runs of a
sentence are joined at the chosen voice's sample rate, and the sentence is watermarked and handed on
as one SpokenSentence, so playing, highlighting, cancelling and saving work as for one voice.

Text in one language, or a voice that speaks both (XTTS v2), goes to the chosen voice unchanged.
"""
from __future__ import annotations

import threading
from dataclasses import replace
from typing import Callable

import numpy as np

from desktop.core.common.errors import UserFacingError
from desktop.core.common.i18n import N_
from desktop.core.speech.language_runs import is_mixed, split_by_language
from desktop.core.speech.tts_catalog import TtsModel, default_model, default_voice_title
from desktop.core.speech.tts_models import TtsModelStore
from desktop.engines.speech.tts import (
    SENTENCE_PAUSE_SECONDS,
    SpeechSynthesizer,
    Speech,
    SpokenSentence,
    SynthesisSettings,
    language_name,
)

# The scripts two voices share out; a voice "speaks" one when it speaks one of these languages.
_CHINESE = {"zh", "ja"}
_NOT_LATIN = {"zh", "ja", "ko", "ar", "hi", "ru", "uk", "bg", "el"}


def voice_for_language(store: TtsModelStore, language: str) -> TtsModel | None:
    """The voice on this computer that reads language when the chosen one cannot: the curated default
    for it if it is here, else the first voice here that speaks it; None when there is none."""
    try:
        default = store.get(default_model(language))
    except UserFacingError:
        default = None
    if default is not None and default.downloaded and default.speaks(language):
        return default
    here = [model for model in store.catalog() if model.downloaded and model.speaks(language)]
    return here[0] if here else None


class TwoVoiceSpeech:
    """synthesize() as SpeechSynthesizer has it, reading each language of a mixed text with a voice of
    its own."""

    def __init__(self, chosen: SpeechSynthesizer, other: SpeechSynthesizer) -> None:
        self._chosen = chosen
        self._other = other  # holds the voice of the other language, loaded when first needed
        self._lock = threading.Lock()
        self.last_note: str | None = None  # which voice read what in the last run; None: one voice read it all

    def release(self) -> None:
        """Free the other language's voice (the chosen one is its owner's to release)."""
        self._other.release()

    def synthesize(
        self,
        text: str,
        settings: SynthesisSettings,
        *,
        on_sentence: Callable[[SpokenSentence], None] | None = None,
        on_progress: Callable[[float], None] | None = None,
        on_status: Callable[[str], None] | None = None,
        on_note: Callable[[str], None] | None = None,
        cancelled: Callable[[], bool] | None = None,
    ) -> Speech:
        with self._lock:
            self.last_note = None
            plan = self._plan(text, settings, on_status) if is_mixed(text) else None
            if plan is None:
                return self._chosen.synthesize(text, settings, on_sentence=on_sentence, on_progress=on_progress,
                                               on_status=on_status, on_note=on_note, cancelled=cancelled)
            other_language, other_settings, note = plan
            self.last_note = note
            if on_status:
                on_status(note)
            return self._speak_both(text, settings, other_language, other_settings, on_sentence=on_sentence,
                                    on_progress=on_progress, on_note=on_note, cancelled=cancelled or (lambda: False))

    # -- deciding --------------------------------------------------------------------------------

    def _plan(self, text: str, settings: SynthesisSettings, on_status) -> tuple[str, SynthesisSettings, str] | None:
        """(the language the other voice reads, its settings, the sentence saying so), or None when the
        chosen voice reads the whole text. UserFacingError when no voice here reads the other language."""
        info = self._chosen.voice_info(settings, on_status=on_status)
        speaks = set(info.languages)
        reads_chinese = bool(speaks & _CHINESE)
        reads_latin = bool(speaks - _NOT_LATIN)
        if reads_chinese and reads_latin:
            return None  # a voice such as XTTS v2 reads both
        other_language = "en" if reads_chinese else "zh"
        model = voice_for_language(self._chosen.store, other_language)
        if model is None:
            if other_language == "en":
                return None  # as before: the chosen Chinese voice skips the Latin letters, and says so
            suggested = default_voice_title(other_language, self._chosen.store)
            raise UserFacingError(
                N_("SpeechEngine", "“{title}” speaks {languages} only, so it cannot read the Chinese in this text, "
                   "and no Chinese voice is on this computer. Download “{suggested}” from the model list (or add "
                   "a Chinese voice with “Import model folder…”), then speak again.").format(
                    title=info.title, languages=language_name(info.languages[0]) if info.languages else "",
                    suggested=suggested))
        other_settings = replace(settings, model=model.name, speaker=None, language=other_language,
                                 watermark=False)
        note = N_("SpeechEngine", "“{title}” reads the {own} and “{other}” the {language} in this text.").format(
            title=info.title, own=language_name("zh" if reads_chinese else "en"), other=model.title,
            language=language_name(other_language))
        return other_language, other_settings, note

    # -- speaking --------------------------------------------------------------------------------

    def _speak_both(self, text: str, settings: SynthesisSettings, other_language: str,
                    other_settings: SynthesisSettings, *, on_sentence, on_progress, on_note,
                    cancelled: Callable[[], bool]) -> Speech:
        own_settings = replace(settings, watermark=False)  # the joined sentence is marked once, below
        sentences = self._chosen.plan(text, settings)
        rate = self._chosen.voice_info(settings).sample_rate
        speech = Speech(sample_rate=rate, total=len(sentences))
        notes: set[str] = set()

        def note_once(message: str) -> None:
            if on_note and message not in notes:
                notes.add(message)
                on_note(message)

        if on_progress:
            on_progress(0.0)
        for sentence in sentences:
            if cancelled():
                break
            pieces = []
            runs = split_by_language(sentence.text) or [None]
            for number, run in enumerate(runs):
                if cancelled():
                    return speech  # mid-sentence: keep the whole sentences made so far
                words = sentence.text if run is None else run.text.strip()
                if run is not None and run.language == other_language:
                    voice, voice_settings = self._other, other_settings
                else:
                    voice, voice_settings = self._chosen, own_settings
                made = voice.synthesize(words, voice_settings, on_note=note_once)
                samples, made_rate = made.samples, made.sample_rate
                if number < len(runs) - 1:  # the pause belongs at the end of the sentence only
                    samples = samples[: max(0, len(samples) - int(SENTENCE_PAUSE_SECONDS * made_rate))]
                pieces.append(_resampled(samples, made_rate, rate))
            samples = np.concatenate(pieces) if pieces else np.zeros(0, np.float32)
            speech.add(sentence, samples, rate, watermark=settings.watermark, on_sentence=on_sentence,
                       on_progress=on_progress)
        return speech


def _resampled(samples: np.ndarray, rate: int, target: int) -> np.ndarray:
    """samples at the target rate (the two voices may speak at different rates)."""
    if rate == target or not len(samples):
        return np.asarray(samples, dtype=np.float32)
    from math import gcd

    from scipy.signal import resample_poly

    factor = gcd(int(rate), int(target))
    return np.clip(resample_poly(samples, target // factor, rate // factor), -1.0, 1.0).astype(np.float32)
