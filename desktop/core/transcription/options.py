"""Every transcription option, declared once: its name, default, allowed values and what it does.

Each reader builds its part from these declarations instead of repeating them: Settings (the values
stored and the widgets' choices), the command line (argparse's ``choices``, ``default`` and ``help``),
the window's options bar, live captions (``live.captioner.LiveOptions``) and the options of one
decoding (``engines.transcription.engine.TranscribeOptions``, also the JSON sent to the engine
process). A default changed here is changed for all of them. No Qt here.
"""
from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from desktop.core.common.i18n import N_
from desktop.core.speakers import choice as speakers_choice
from desktop.core.transcription import chinese


@dataclass(frozen=True)
class TranscriptionOption:
    """One option: ``default`` is the value a job gets when nobody chose one (None: ``automatic``)."""

    name: str  # the field of TranscribeSettings / TranscribeOptions that holds it
    default: Any
    help: str  # one sentence, translatable where the window shows it
    choices: tuple | None = None  # the allowed values of a closed list
    low: int | None = None  # the allowed range of a whole number, both ends included
    high: int | None = None
    automatic: str | None = None  # the word that stands for None (decided by VoxDesk) in text
    settings_key: str | None = None  # where Settings stores the user's choice, when the window offers it
    label: str | None = None  # its name in Settings → Transcription, for the options laid out from here
    advanced: bool = False  # folded under "More decoding options" in Settings: right as it is nearly always

    def allows(self, value: Any) -> bool:
        """Whether ``value`` is one this option takes (None only where VoxDesk may decide)."""
        if value is None:
            return self.automatic is not None or self.default is None
        if self.choices is not None:
            return value in self.choices
        if self.low is not None and self.high is not None:
            return isinstance(value, int) and self.low <= value <= self.high
        return True

    def stored_default(self) -> Any:
        """The default as Settings stores it: the automatic word for None, text or 0 as its type wants."""
        if self.default is not None:
            return self.default
        if self.automatic is None:
            return ""
        return 0 if self.low is not None else self.automatic

    def stored_choices(self) -> tuple | None:
        """The values Settings may store: the declared choices, and for a number picked from a list
        with an automatic word (the temperature), that word and the numbers as text."""
        if self.choices is None or self.automatic is None:
            return self.choices
        return (self.automatic, *(str(choice) for choice in self.choices))

    def to_stored(self, value: Any) -> Any:
        """A job's value as Settings stores it (the reverse of ``from_stored``)."""
        if value is None:
            return self.stored_default()
        if self.automatic is not None and self.choices is not None:
            return str(value)
        return value

    def from_stored(self, value: Any) -> Any:
        """A value as Settings stores it, as a job takes it: the automatic word, 0 and "" are None."""
        if value in (self.automatic, 0, "") and self.default is None:
            return None
        if isinstance(value, str) and self.choices is not None and self.automatic is not None:
            return next((choice for choice in self.choices if str(choice) == value), None)
        return value


MODEL = TranscriptionOption(
    "model", "base", settings_key="transcribe/model",
    help=N_("TranscriptionOptions", "The Whisper model: tiny … large-v3, turbo or an imported one; larger models "
                                    "are more accurate and slower."))
ENGINE = TranscriptionOption(
    "engine", "auto", choices=("auto", "torch", "ct2", "server"), settings_key="engine/choice",
    help=N_("TranscriptionOptions", "The engine that decodes: Automatic (openai-whisper on a graphics card, "
                                    "faster-whisper on the processor) or one of the two."))
DEVICE = TranscriptionOption(
    "device", "auto", choices=("auto", "gpu", "cpu"), settings_key="device/choice",
    help=N_("TranscriptionOptions", "Where the model runs: Automatic (the graphics card when it works, else the "
                                    "processor), the graphics card or the processor."))
LANGUAGE = TranscriptionOption(
    "language", None, automatic="auto", settings_key="transcribe/language",
    help=N_("TranscriptionOptions", "The language spoken, as a code such as zh or en; auto: detected from the "
                                    "speech."))
TASK = TranscriptionOption(
    "task", "transcribe", choices=("transcribe", "translate"), settings_key="transcribe/task",
    help=N_("TranscriptionOptions", "Transcribe the words as spoken, or translate them to English."))
INITIAL_PROMPT = TranscriptionOption(
    "initial_prompt", None, settings_key="transcribe/initial_prompt",
    help=N_("TranscriptionOptions", "Text that steers spelling and style, such as names and terms; for Mandarin "
                                    "VoxDesk's own sentence in Simplified Chinese when empty."))
BEAM_SIZE = TranscriptionOption(
    "beam_size", 5, low=1, high=10,
    settings_key="transcribe/beam_size", label=N_("TranscriptionOptions", "Hypotheses kept (beam size):"),
    help=N_("TranscriptionOptions", "How many hypotheses Whisper keeps while decoding."))
CHINESE_SCRIPT = TranscriptionOption(
    "chinese_script", "simplified", choices=chinese.SCRIPTS, settings_key="transcribe/chinese_script",
    help=N_("TranscriptionOptions", "How Chinese transcripts are written: in simplified or traditional characters, "
                                    "or as Whisper recognised them."))
SPEAKERS = TranscriptionOption(
    "speakers", speakers_choice.OFF, choices=speakers_choice.CHOICES, settings_key="transcribe/speakers",
    help=N_("TranscriptionOptions", "Label who speaks: off, auto (VoxDesk finds how many) or the number of "
                                    "speakers."))
BATCH_SIZE = TranscriptionOption(
    "batch_size", None, low=1, high=64, automatic="auto", settings_key="engine/batch_size",
    help=N_("TranscriptionOptions", "How many 30-second pieces of speech Whisper decodes together. Automatic fits "
                                    "the graphics card's free memory; 1 decodes one piece after another, as older "
                                    "versions did."))
# How every decoding of a file goes: offered folded in Settings, as the defaults are right nearly always.
VAD = TranscriptionOption(
    "vad", True, choices=(True, False),
    settings_key="transcribe/vad", advanced=True, label=N_("TranscriptionOptions", "Decode only where speech is heard"),
    help=N_("TranscriptionOptions", "Decode only the speech voice activity detection hears."))
WORD_TIMESTAMPS = TranscriptionOption(
    "word_timestamps", True, choices=(True, False),
    settings_key="transcribe/word_timestamps", advanced=True, label=N_("TranscriptionOptions", "Time every word"),
    help=N_("TranscriptionOptions", "Time every word, not only every segment."))
TEMPERATURE = TranscriptionOption(
    "temperature", None,
    choices=(0.0, 0.2, 0.4, 0.6, 0.8, 1.0), automatic="auto",
    settings_key="transcribe/temperature", advanced=True, label=N_("TranscriptionOptions", "Sampling temperature:"),
    help=N_("TranscriptionOptions", "Sampling temperature; by default Whisper's fallback from 0.0 up to 1.0 in "
                                    "steps of 0.2."))
# Off: told what it wrote before, Whisper copied its mistakes from window to window and skipped sentences
# said again (BENCHMARKS.md, "The words": every recording, both paths).
CONDITION_ON_PREVIOUS_TEXT = TranscriptionOption(
    "condition_on_previous_text", False, choices=(True, False),
    settings_key="transcribe/condition_on_previous_text", advanced=True,
    label=N_("TranscriptionOptions", "Give each window the text before it"),
    help=N_("TranscriptionOptions", "Give each 30-second window the text decoded before it as its prompt; off by "
                                    "default, as Whisper then repeats its own mistakes."))

ALL = (MODEL, ENGINE, DEVICE, LANGUAGE, TASK, INITIAL_PROMPT, BEAM_SIZE, CHINESE_SCRIPT, SPEAKERS, BATCH_SIZE,
       VAD, WORD_TIMESTAMPS, TEMPERATURE, CONDITION_ON_PREVIOUS_TEXT)
BY_NAME = {option.name: option for option in ALL}
# How a file is decoded, as Settings → Transcription lays them out (in this order) and a window's job reads them.
DECODING = (BEAM_SIZE, VAD, WORD_TIMESTAMPS, TEMPERATURE, CONDITION_ON_PREVIOUS_TEXT)
# The engines of this computer, as Settings offers them (the server is set up on a page of its own).
LOCAL_ENGINES = tuple(engine for engine in ENGINE.choices if engine != "server")


@dataclass
class RecognitionChoices:
    """How speech becomes text, chosen alike for a file and for live captions: the fields both share."""

    language: str | None = LANGUAGE.default  # None: detect
    task: str = TASK.default
    initial_prompt: str | None = INITIAL_PROMPT.default  # None: VoxDesk's own for Mandarin
    beam_size: int = BEAM_SIZE.default
    chinese_script: str = CHINESE_SCRIPT.default

    def recognition_choices(self) -> dict[str, Any]:
        """These choices by field name, for an object of another level that shares them."""
        return {field.name: getattr(self, field.name) for field in fields(RecognitionChoices)}
