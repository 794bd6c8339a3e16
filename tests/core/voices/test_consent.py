"""Consent: the sentence, the check of what Whisper heard (real base weights on spoken sentences), the
speaker check (Resemblyzer on real recordings) and the stored record."""
from __future__ import annotations

import json
import shutil
from datetime import date
from pathlib import Path

import pytest

from desktop.core.voices.consent import (
    SAME_SPEAKER_THRESHOLD,
    ConsentError,
    ConsentPrompt,
    ConsentRecord,
    check_transcript,
    new_prompt,
    normalise,
    number_candidates,
    verify_consent,
    with_what_was_heard,
)
from desktop.core.gpu.fallback import FallbackLog
from desktop.core.transcription.whisper_models import ModelStore
from tests.helpers.espeak import speak
from tests.helpers.weights import DATA_DIR, base_dir

EN = ConsentPrompt(name="John Smith", language="en", date="2025-03-05", code="4821")
ZH = ConsentPrompt(name="张三", language="zh", date="2025-03-05", code="4821")
PASSAGE = ("On a bright Thursday morning, Joseph walked past the quiet harbour with a cup of warm coffee. "
           "A small boat was waiting by the pier, its yellow sail flapping in the breeze.")


# --- the sentence ------------------------------------------------------------------------------


def test_the_sentence_has_the_name_the_date_and_the_code_in_english():
    assert EN.text == ("My name is John Smith. Today is March 5, 2025. "
                       "I agree that my voice may be used to generate speech. My code is 4821.")


def test_the_sentence_has_the_name_the_date_and_the_code_in_chinese():
    assert ZH.text == "我是张三，今天是2025年3月5日。我同意使用我的声音生成语音。验证码4821。"


def test_every_new_sentence_gets_a_fresh_four_digit_code_and_today_s_date():
    prompts = [new_prompt("Anna", "en", today=date(2025, 1, 2)) for _ in range(30)]

    assert all(len(p.code) == 4 and p.code.isdigit() and p.code[0] != "0" for p in prompts)
    assert len({p.code for p in prompts}) > 20
    assert {p.date for p in prompts} == {"2025-01-02"}


def test_a_sentence_needs_a_name_and_a_known_language():
    with pytest.raises(ConsentError, match="name"):
        new_prompt("   ", "en")
    with pytest.raises(ConsentError, match="English or Chinese"):
        new_prompt("Anna", "fr")


# --- what Whisper heard, as text ---------------------------------------------------------------


@pytest.mark.parametrize("code", ["4821", "4,821", "4 8 2 1", "4-8-2-1", "48 21", "four eight two one",
                                  "forty-eight twenty-one", "four thousand eight hundred and twenty-one"])
def test_the_code_counts_however_whisper_writes_it_in_english(code):
    heard = f"My name is John Smith. Today is March 5th, 2025. I agree that my voice may be used to generate speech. My code is {code}."

    assert check_transcript(EN, heard).accepted


@pytest.mark.parametrize("code", ["4821", "四八二一", "四千八百二十一", "4 8 2 1"])
def test_the_code_counts_however_whisper_writes_it_in_chinese(code):
    heard = f"我是张三,今天是2025年3月5日,我同意使用我的声音生成语音,验证码{code}"

    assert check_transcript(ZH, heard).accepted


def test_traditional_characters_are_read_as_simplified_ones():
    heard = "我是張三，今天是2025年3月5日，我同意使用我的聲音生成語音。驗證碼4821。"

    assert check_transcript(ZH, heard).accepted


def test_a_few_misheard_words_are_tolerated():
    heard = "My name is Jon Smyth. Today is March 5, 2025. I read that my voice may be used to generate speech. My code is 4821."

    check = check_transcript(EN, heard)

    assert check.accepted
    assert 0.75 < check.text_score < 1.0


def test_a_misheard_chinese_name_is_tolerated():
    heard = "我是章三，今天是2025年3月5日，我同意使用我的声音生成语音。验证码4821。"

    assert check_transcript(ZH, heard).accepted


@pytest.mark.parametrize("code", ["4822", "8421", "482", "48210", "1 4 8 2 1", "four eight two"])
def test_any_other_code_is_refused(code):
    heard = f"My name is John Smith. Today is March 5, 2025. I agree that my voice may be used to generate speech. My code is {code}."

    check = check_transcript(EN, heard)

    assert not check.accepted
    assert "code" in check.message and "4821" in check.message


def test_a_code_is_never_the_year_in_the_sentence(monkeypatch):
    import secrets

    draws = iter([1025, 1025, 3821])  # 1025 + 1000 = 2025, the year; drawn twice, then 4821
    monkeypatch.setattr(secrets, "randbelow", lambda _: next(draws))

    prompt = new_prompt("Anna", "en", today=date(2025, 3, 5))

    assert prompt.code == "4821"


def test_a_prompt_whose_code_is_the_year_cannot_exist():
    with pytest.raises(ValueError):
        ConsentPrompt(name="Anna", language="en", date="2025-03-05", code="2025")


def test_a_different_sentence_with_the_right_code_is_refused():
    heard = "Hello everyone, welcome to the meeting about the budget. My code is 4821."

    check = check_transcript(EN, heard)

    assert not check.accepted
    assert "does not match the sentence" in check.message


def test_a_refusal_quotes_what_was_heard_on_one_line_and_not_without_end():
    reason = "The consent recording does not match the sentence on screen."
    quoted = with_what_was_heard(reason, "My name is\nJohn   Smith. " + "blah " * 200)

    assert quoted.startswith(reason + " VoxDesk heard: “My name is John Smith. blah")
    assert "\n" not in quoted and quoted.endswith("…”") and len(quoted) < len(reason) + 330
    assert with_what_was_heard(reason, "   ") == reason


def test_an_empty_transcript_is_refused_with_a_hint_to_speak_up():
    check = check_transcript(EN, "  ")

    assert not check.accepted
    assert "No words could be heard" in check.message


def test_the_date_is_not_mistaken_for_a_code_made_of_its_digits():
    assert number_candidates(normalise("march 5, 2025", "en")) == {"5", "2025"}


# --- real recordings through real Whisper and Resemblyzer ---------------------------------------


@pytest.fixture(scope="module")
def transcribe(tmp_path_factory):
    """What VoxDesk's own Whisper engine (base, CTranslate2 on the CPU) hears in a recording."""
    from desktop.engines.transcription.transcriber import TranscribeSettings, Transcriber

    transcriber = Transcriber(ModelStore(tmp_path_factory.mktemp("models")), FallbackLog(),
                              gpu_available=lambda: False)

    folder = tmp_path_factory.mktemp("heard")

    def run(audio: bytes, language: str) -> str:
        settings = TranscribeSettings(model=str(base_dir()), engine="ct2", device="cpu", language=language)
        (folder / "consent.wav").write_bytes(audio)
        return transcriber.transcribe_file(folder / "consent.wav", settings).text

    yield run
    transcriber.release()


def unmarked(_audio: bytes) -> bool:
    """The watermark check for espeak-ng's recordings, which VoxDesk did not make (tests/engines/voices/
    test_synthetic_consent.py checks the real detector)."""
    return False


@pytest.fixture(scope="module")
def embed():
    from desktop.core.voices.sealed import decode_wav_bytes
    from desktop.engines.voices.speaker import SpeakerEncoder

    encoder = SpeakerEncoder()
    return lambda audio: encoder.embed(decode_wav_bytes(audio, 16000), 16000)


@pytest.fixture(scope="module")
def spoken(tmp_path_factory) -> dict[str, Path]:
    """The consent sentence and a passage read by espeak-ng's English voice."""
    folder = tmp_path_factory.mktemp("spoken")
    return {
        "consent": speak(EN.text, folder / "consent.wav"),
        "wrong code": speak(EN.text.replace("4821", "7395"), folder / "wrong-code.wav"),
        "sample": speak(PASSAGE, folder / "sample.wav"),
    }


@pytest.mark.slow
def test_a_spoken_consent_with_the_right_code_is_accepted_and_recorded(spoken, transcribe, embed):
    record = verify_consent(EN, spoken["consent"].read_bytes(), {"sample-1.wav": spoken["sample"].read_bytes()},
                            transcribe=transcribe, embed=embed, watermarked=unmarked)

    assert record.code == "4821" and record.name == "John Smith" and record.date == "2025-03-05"
    assert record.sentence == EN.text
    assert "4" in record.transcript and "John" in record.transcript
    assert record.similarity >= SAME_SPEAKER_THRESHOLD
    assert set(record.audio_sha256) == {"sample-1.wav", "consent.wav"}
    assert all(len(h) == 64 for h in record.audio_sha256.values())
    # The stored record verifies the very files it was made for.
    record.ensure_valid_for({"sample-1.wav": spoken["sample"], "consent.wav": spoken["consent"]}, "John")


@pytest.mark.slow
def test_a_spoken_consent_with_a_wrong_code_is_refused(spoken, transcribe, embed):
    with pytest.raises(ConsentError) as refused:
        verify_consent(EN, spoken["wrong code"].read_bytes(), {"sample-1.wav": spoken["sample"].read_bytes()},
                       transcribe=transcribe, embed=embed, watermarked=unmarked)

    assert "The code in the consent recording is not 4821" in refused.value.message
    assert "7395" in refused.value.detail.replace(",", "")  # what was heard goes to the log
    # ... and to the speaker, who then sees which part to read again.
    shown = refused.value.message.split("VoxDesk heard: ", 1)[1]
    assert "7395" in shown.replace(",", "") and "John Smith" in shown


@pytest.mark.slow
def test_a_consent_read_by_someone_other_than_the_sample_s_speaker_is_refused(spoken, transcribe, embed):
    with pytest.raises(ConsentError) as refused:
        verify_consent(EN, spoken["consent"].read_bytes(), {"sample-1.wav": (DATA_DIR / "jfk.flac").read_bytes()},
                       transcribe=transcribe, embed=embed, watermarked=unmarked)

    assert "do not sound like the same person" in refused.value.message


@pytest.mark.slow
def test_a_silent_consent_recording_is_refused(tmp_path, spoken, transcribe, embed):
    silence = speak(" ", tmp_path / "nothing.wav")

    with pytest.raises(ConsentError) as refused:
        verify_consent(EN, silence.read_bytes(), {"sample-1.wav": spoken["sample"].read_bytes()},
                       transcribe=transcribe, embed=embed, watermarked=unmarked)

    assert "No words could be heard" in refused.value.message
    assert "VoxDesk heard" not in refused.value.message  # no empty quote


# --- the stored record --------------------------------------------------------------------------


def _record(tmp_path: Path, **changes) -> tuple[ConsentRecord, dict[str, Path]]:
    from desktop.core.voices.consent import sha256_file

    files = {"sample-1.wav": tmp_path / "sample-1.wav", "consent.wav": tmp_path / "consent.wav"}
    files["sample-1.wav"].write_bytes(b"RIFF sample")
    files["consent.wav"].write_bytes(b"RIFF consent")
    values = dict(
        name=EN.name, language="en", date=EN.date, code=EN.code, sentence=EN.text,
        transcript=EN.text, text_score=1.0, similarity=0.93, threshold=SAME_SPEAKER_THRESHOLD,
        audio_sha256={name: sha256_file(path) for name, path in files.items()},
        verified_at="2025-03-05T10:00:00+00:00",
    )
    values.update(changes)
    return ConsentRecord(**values), files


def test_a_record_survives_a_round_trip_through_json(tmp_path):
    record, _ = _record(tmp_path)

    assert ConsentRecord.from_dict(json.loads(json.dumps(record.to_dict()))) == record


def test_a_damaged_record_is_reported_in_plain_words():
    with pytest.raises(ConsentError, match="consent record of this voice is damaged"):
        ConsentRecord.from_dict({"name": "x"})


def test_a_record_is_refused_for_a_sample_changed_after_consent(tmp_path):
    record, files = _record(tmp_path)
    files["sample-1.wav"].write_bytes(b"RIFF somebody else")

    with pytest.raises(ConsentError, match="no valid consent record"):
        record.ensure_valid_for(files, "John")


def test_a_record_is_refused_for_an_extra_sample_it_does_not_cover(tmp_path):
    record, files = _record(tmp_path)
    extra = tmp_path / "sample-2.wav"
    shutil.copyfile(files["sample-1.wav"], extra)

    with pytest.raises(ConsentError):
        record.ensure_valid_for({**files, "sample-2.wav": extra}, "John")


def test_a_record_with_a_transcript_that_does_not_verify_is_refused(tmp_path):
    record, files = _record(tmp_path, transcript="My code is 1111.")

    with pytest.raises(ConsentError):
        record.ensure_valid_for(files, "John")


def test_a_record_below_the_speaker_threshold_is_refused(tmp_path):
    record, files = _record(tmp_path, similarity=0.5)
    lowered, _ = _record(tmp_path, similarity=0.5, threshold=0.4)

    with pytest.raises(ConsentError):
        record.ensure_valid_for(files, "John")
    with pytest.raises(ConsentError):  # a threshold lowered by hand does not help
        lowered.ensure_valid_for(files, "John")


def test_a_record_with_a_missing_file_says_the_recording_is_missing(tmp_path):
    record, files = _record(tmp_path)
    files["consent.wav"].unlink()

    with pytest.raises(ConsentError, match="missing"):
        record.ensure_valid_for(files, "John")
