"""Adding a known voice by the person reading the agreement sentence aloud (Tools → Known voices…).

The recording of the sentence is transcribed by VoxDesk's Whisper and checked as the clone consent is
(desktop.core.speakers.agreement.recorded); the voice kept is the clean speech of a sample of the
person, or of the agreement recording itself when no sample is given. With a sample, the two must
sound like one person (the recognition score, at the naming threshold): whoever agreed is whoever is
recognised. Nothing is kept unless every check passes.
"""
from __future__ import annotations

from pathlib import Path
from typing import Callable

from desktop.core.common import audio
from desktop.core.common.i18n import N_
from desktop.core.speakers import agreement as agreements
from desktop.core.speakers.agreement import LONGEST_AGREEMENT_SECONDS, AgreementError, RecognitionPrompt
from desktop.core.speakers.known_voices import KnownVoice, KnownVoiceStore, check_name
from desktop.core.speakers.recognition import NAME_SPREADS, VoicePrint, unit
from desktop.engines.speakers.enrolment import Enroller

MAX_AGREEMENT_SECONDS = LONGEST_AGREEMENT_SECONDS

NOT_THE_SAME_PERSON = N_("KnownVoices", "The agreement recording and the sample do not sound like the same person. "
                                        "The person whose voice is kept must read the sentence themselves.")


def add_by_spoken_agreement(store: KnownVoiceStore, prompt: RecognitionPrompt, agreement_recording: Path,
                            sample: Path | None, *, transcribe: Callable[[Path, str], str],
                            enroller: Enroller, on_status: Callable[[str], None] | None = None,
                            cancelled: Callable[[], bool] = lambda: False) -> KnownVoice:
    """The new known voice, or a UserFacingError saying what to do; transcribe(path, language) is Whisper."""
    name = store.free_name(check_name(prompt.name))
    audio.check_length(agreement_recording, MAX_AGREEMENT_SECONDS)  # from the header: a long file is not read
    if on_status:
        on_status(N_("KnownVoices", "Listening to the agreement…"))
    heard = transcribe(Path(agreement_recording), prompt.language)
    agreement = agreements.recorded(prompt, heard)
    if on_status:
        on_status(N_("KnownVoices", "Learning the voice…"))
    if sample is None:
        speech = enroller.from_sample(agreement_recording, cancelled=cancelled)
    else:
        speech = enroller.from_sample(sample, cancelled=cancelled)
        spoken = enroller.with_minimum(0.0).from_sample(agreement_recording, cancelled=cancelled)
        if VoicePrint.of(name, speech.embeddings).score(unit(spoken.embeddings.mean(axis=0))) < -NAME_SPREADS:
            raise AgreementError(NOT_THE_SAME_PERSON)
    return store.add(name, speech.embeddings, speech.seconds, agreement)
