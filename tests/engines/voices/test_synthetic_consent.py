"""Synthetic speech cannot consent: a consent recording or a voice sample spoken by one of VoxDesk's own
voices (the real Piper voice en_US-joe-medium, watermarked as the Synthesize tab does by default) is
refused with a sentence and nothing is saved; real speech passes the same detector."""
from __future__ import annotations

import numpy as np
import pytest

from desktop.core.common.audio import decode
from desktop.core.common.audio_out import encode
from desktop.core.gpu.fallback import FallbackLog
from desktop.core.speech.tts_models import TtsModelStore
from desktop.core.transcription.whisper_models import ModelStore
from desktop.core.voices.consent import (
    SYNTHETIC_CONSENT,
    SYNTHETIC_SAMPLE,
    ConsentError,
    ConsentPrompt,
    verify_consent,
)
from desktop.core.voices.library import VoiceLibrary
from desktop.engines.speech.tts import SpeechSynthesizer, SynthesisSettings
from desktop.engines.voices.cloning import VoiceEnrollment, made_by_voxdesk
from desktop.engines.voices.speaker import SpeakerEncoder
from desktop.resources import resource_path
from tests.core.voices.sealing import ESPEAK_CODE, EspeakDay, issue_clear_code
from tests.helpers.espeak import speak
from tests.helpers.piper_voice import JOE_KEY, joe_folder
from tests.helpers.tools import require_tool
from tests.helpers.weights import DATA_DIR, base_dir

pytestmark = pytest.mark.slow

PROMPT = ConsentPrompt("Alex Reader", "en", EspeakDay.today().isoformat(), ESPEAK_CODE)
RATE = 22050


@pytest.fixture(scope="module")
def piper():
    """What VoxDesk's Piper voice says, as the Synthesize tab makes it (watermarked): {text: samples}."""
    require_tool("espeak-ng")
    engine = SpeechSynthesizer(TtsModelStore(joe_folder().parent / "unused-store"), FallbackLog())
    settings = SynthesisSettings(model=str(joe_folder() / f"{JOE_KEY}.onnx"), watermark=True)
    passage = resource_path("reading", "en.txt").read_text(encoding="utf-8")
    spoken = {}
    for text in (PROMPT.text, passage):
        speech = engine.synthesize(text, settings)
        assert speech.sample_rate == RATE and speech.complete
        spoken[text] = speech.samples
    engine.release()
    return {"consent": spoken[PROMPT.text], "passage": spoken[passage]}


@pytest.fixture(scope="module")
def enrollment(tmp_path_factory):
    from desktop.engines.transcription.transcriber import Transcriber

    root = tmp_path_factory.mktemp("enrollment")
    transcriber = Transcriber(ModelStore(root / "models"), FallbackLog(), gpu_available=lambda: False)
    yield VoiceEnrollment(VoiceLibrary(root / "voices"), transcriber, SpeakerEncoder(),
                          whisper_model=str(base_dir()))
    transcriber.release()


def person_speaking() -> np.ndarray:
    """Real speech recorded from a person (tests/data/jfk.flac) at the rate of the other recordings."""
    return decode(DATA_DIR / "jfk.flac", sample_rate=RATE)


def test_a_consent_recording_spoken_by_a_voxdesk_voice_is_refused_with_why_and_no_voice_is_saved(
        enrollment, piper):
    sample = enrollment.prepare_recording(person_speaking(), RATE)
    assert issue_clear_code(enrollment.library) == PROMPT

    with pytest.raises(ConsentError) as refused:
        enrollment.enroll("Alex", PROMPT, [sample], piper["consent"], RATE)

    assert refused.value.message == SYNTHETIC_CONSENT
    assert "VoxDesk's own watermark" in refused.value.message and "not spoken by a person" in refused.value.message
    assert enrollment.library.list() == []


def test_a_voice_sample_spoken_by_a_voxdesk_voice_is_refused_with_why_and_no_voice_is_saved(enrollment, piper):
    sample = enrollment.prepare_recording(piper["passage"], RATE)
    consent = decode(speak(PROMPT.text, enrollment.library.root.parent / "consent.wav"), sample_rate=RATE)
    assert issue_clear_code(enrollment.library) == PROMPT

    with pytest.raises(ConsentError) as refused:
        enrollment.enroll("Alex", PROMPT, [sample], consent, RATE)

    assert refused.value.message == SYNTHETIC_SAMPLE
    assert enrollment.library.list() == []


def test_the_watermark_check_finds_the_mark_in_voxdesk_speech_saved_as_a_wav_file(piper):
    assert made_by_voxdesk(encode(piper["consent"], RATE, "wav"))
    assert made_by_voxdesk(encode(piper["passage"], RATE, "wav"))


def test_a_genuine_recording_of_a_person_passes_the_watermark_check_and_consent_is_given():
    """Real speech from two people (tests/data) through the real detector. Nobody recorded our consent
    sentence, so what Whisper hears and whose voice it is are stood in for; the detector is not."""
    consent = encode(person_speaking(), RATE, "wav")
    sample = (DATA_DIR / "lj050-0131.wav").read_bytes()
    assert not made_by_voxdesk(consent) and not made_by_voxdesk(sample)

    record = verify_consent(PROMPT, consent, {"sample-1.wav": sample}, transcribe=lambda _audio, _language: PROMPT.text,
                            embed=lambda _audio: np.ones(4), watermarked=made_by_voxdesk)

    assert record.code == ESPEAK_CODE and set(record.audio_sha256) == {"sample-1.wav", "consent.wav"}
