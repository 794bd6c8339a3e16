"""The voice library on a real disk: save, list, rename, delete, and what crashes and outside
deletions leave behind."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
import time
import wave
from pathlib import Path

import numpy as np
import pytest

from desktop.core.common.audio import decode
from desktop.core.voices.consent import SAME_SPEAKER_THRESHOLD, ConsentError, ConsentPrompt, ConsentRecord, sha256_file
from desktop.core.voices.library import CONSENT_FILE, VoiceError, VoiceLibrary, VoiceNotFound, save_wav
from tests.helpers.weights import DATA_DIR

ROOT = Path(__file__).resolve().parents[3]


def recorded(tmp_path: Path, name: str = "jfk.flac", rate: int = 48000) -> dict[str, Path]:
    """A sample and a consent recording as the recorder saves them (real speech, 16-bit WAV)."""
    samples = decode(DATA_DIR / name, sample_rate=rate)
    folder = tmp_path / f"take-{name}"
    folder.mkdir(exist_ok=True)
    return {
        "sample-1.wav": save_wav(folder / "sample.wav", samples, rate),
        CONSENT_FILE: save_wav(folder / "consent.wav", samples[: 6 * rate], rate),
    }


def consent_for(files: dict[str, Path], name: str = "John Smith") -> ConsentRecord:
    """The record verify_consent makes for these files once Whisper heard the sentence."""
    prompt = ConsentPrompt(name=name, language="en", date="2025-03-05", code="4821")
    return ConsentRecord(
        name=name, language="en", date=prompt.date, code=prompt.code, sentence=prompt.text,
        transcript=prompt.text, text_score=1.0, similarity=0.91, threshold=SAME_SPEAKER_THRESHOLD,
        audio_sha256={file_name: sha256_file(path) for file_name, path in files.items()},
        verified_at="2025-03-05T10:00:00+00:00",
    )


def add(library: VoiceLibrary, tmp_path: Path, name: str, recording: str = "jfk.flac"):
    files = recorded(tmp_path, recording)
    samples = {k: v for k, v in files.items() if k != CONSENT_FILE}
    return library.add(name, "en", samples, files[CONSENT_FILE], consent_for(files))


@pytest.fixture
def library(tmp_path) -> VoiceLibrary:
    return VoiceLibrary(tmp_path / "voices")


def test_a_saved_voice_has_its_name_language_samples_consent_and_date(library, tmp_path):
    voice = add(library, tmp_path, "Announcer John")

    assert voice.name == "Announcer John" and voice.language == "en"
    assert voice.created.startswith(str(time.gmtime().tm_year))
    assert [p.name for p in voice.sample_paths] == ["sample-1.wav"]
    assert voice.consent.name == "John Smith"
    assert library.list() == [voice]
    voice.require_consent()  # the stored files verify against the stored record


def test_samples_are_stored_as_mono_16_bit_wav_at_the_recording_rate(library, tmp_path):
    voice = add(library, tmp_path, "John")

    with wave.open(str(voice.sample_paths[0])) as wav:
        assert (wav.getnchannels(), wav.getsampwidth(), wav.getframerate()) == (1, 2, 48000)
        assert wav.getnframes() / 48000 == pytest.approx(11.0, abs=0.1)


def test_the_library_lists_voices_by_name_and_finds_them_by_name_or_id(library, tmp_path):
    second = add(library, tmp_path, "zoe")
    first = add(library, tmp_path, "Anna", "lj050-0131.wav")

    assert [v.name for v in library.list()] == ["Anna", "zoe"]
    assert library.get("ANNA") == first
    assert library.get(second.id) == second


def test_two_voices_cannot_share_a_name(library, tmp_path):
    add(library, tmp_path, "John")

    with pytest.raises(VoiceError, match="already exists"):
        add(library, tmp_path, "  john ")


@pytest.mark.parametrize("name, message", [("", "Give the voice a name"), ("x" * 61, "too long"),
                                           ("bad\x07name", "cannot be shown")])
def test_unusable_names_are_refused_with_a_reason(library, tmp_path, name, message):
    with pytest.raises(VoiceError, match=message):
        add(library, tmp_path, name)


def test_a_chinese_name_is_kept_as_typed(library, tmp_path):
    voice = add(library, tmp_path, "张三 的声音")

    assert library.get("张三 的声音").id == voice.id


def test_a_consent_record_made_for_other_recordings_is_refused(library, tmp_path):
    files = recorded(tmp_path)
    other = recorded(tmp_path, "lj050-0131.wav")

    with pytest.raises(ConsentError, match="other recordings"):
        library.add("John", "en", {"sample-1.wav": other["sample-1.wav"]}, files[CONSENT_FILE], consent_for(files))
    assert library.list() == []


def test_renaming_keeps_everything_else(library, tmp_path):
    voice = add(library, tmp_path, "John")

    renamed = library.rename(voice, "Announcer")

    assert renamed.name == "Announcer"
    assert (renamed.id, renamed.consent, renamed.samples) == (voice.id, voice.consent, voice.samples)
    assert library.names() == ["Announcer"]
    renamed.require_consent()


def test_renaming_to_a_taken_name_is_refused_and_changes_nothing(library, tmp_path):
    john = add(library, tmp_path, "John")
    add(library, tmp_path, "Anna", "lj050-0131.wav")

    with pytest.raises(VoiceError, match="already exists"):
        library.rename(john, "anna")
    assert library.names() == ["Anna", "John"]


def test_deleting_removes_the_folder_and_leaves_the_other_voices(library, tmp_path):
    john = add(library, tmp_path, "John")
    anna = add(library, tmp_path, "Anna", "lj050-0131.wav")

    library.delete(john)

    assert library.list() == [anna]
    assert not john.folder.exists()
    assert sorted(p.name for p in library.root.iterdir()) == [anna.id]


def test_a_voice_folder_deleted_behind_the_app_s_back_is_reported_in_plain_words(library, tmp_path):
    voice = add(library, tmp_path, "John")
    shutil.rmtree(voice.folder)

    assert library.list() == []
    with pytest.raises(VoiceNotFound, match="deleted outside VoxDesk"):
        library.get("John")
    with pytest.raises(VoiceNotFound, match="deleted outside VoxDesk"):
        library.rename(voice, "Other")
    with pytest.raises(VoiceNotFound, match="deleted outside VoxDesk"):
        voice.require_consent()


def test_deleting_a_voice_that_is_already_gone_by_name_says_so(library, tmp_path):
    voice = add(library, tmp_path, "John")
    shutil.rmtree(voice.folder)

    with pytest.raises(VoiceNotFound):
        library.delete("John")


def test_a_sample_deleted_behind_the_app_s_back_makes_the_voice_unusable_not_a_crash(library, tmp_path):
    voice = add(library, tmp_path, "John")
    voice.sample_paths[0].unlink()

    assert library.get("John").problem() is not None
    with pytest.raises(ConsentError, match="missing"):
        voice.require_consent()


def test_a_sample_replaced_behind_the_app_s_back_loses_its_consent(library, tmp_path):
    voice = add(library, tmp_path, "John")
    shutil.copyfile(DATA_DIR / "lj050-0131.wav", voice.sample_paths[0])

    with pytest.raises(ConsentError, match="no valid consent record"):
        voice.require_consent()


def test_a_damaged_voice_file_drops_out_of_the_list_without_hiding_the_others(library, tmp_path):
    john = add(library, tmp_path, "John")
    anna = add(library, tmp_path, "Anna", "lj050-0131.wav")
    (john.folder / "voice.json").write_text("{ not json", encoding="utf-8")

    assert library.list() == [anna]


def test_a_crash_in_the_middle_of_a_save_leaves_no_broken_voice_and_keeps_the_old_ones(library, tmp_path):
    existing = add(library, tmp_path, "John")
    files = recorded(tmp_path, "lj050-0131.wav")
    record = tmp_path / "record.json"
    record.write_text(json.dumps(consent_for(files).to_dict()), encoding="utf-8")
    # A separate VoxDesk process that dies (no clean-up of any kind) right before the final rename.
    script = textwrap.dedent(f"""
        import json, os
        from pathlib import Path
        from desktop.core.voices.consent import ConsentRecord
        from desktop.core.voices import library as voices
        real_rename = os.rename
        def die(source, target):
            if Path(source).name.startswith(".new-"):
                os._exit(9)
            real_rename(source, target)
        voices.os.rename = die
        record = ConsentRecord.from_dict(json.loads(Path({str(record)!r}).read_text()))
        voices.VoiceLibrary(Path({str(library.root)!r})).add(
            "Anna", "en", {{"sample-1.wav": Path({str(files['sample-1.wav'])!r})}},
            Path({str(files[CONSENT_FILE])!r}), record)
    """)
    crashed = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True)
    assert crashed.returncode == 9, crashed.stderr

    assert library.list() == [existing]
    existing.require_consent()
    leftovers = [p for p in library.root.iterdir() if p.name.startswith(".new-")]
    assert len(leftovers) == 1  # a fresh one may belong to a save still running: kept for now

    an_hour_ago = time.time() - 3700
    os.utime(leftovers[0], (an_hour_ago, an_hour_ago))
    library.list()
    assert not leftovers[0].exists()


def test_a_crash_in_the_middle_of_a_delete_does_not_leave_a_broken_voice(library, tmp_path):
    voice = add(library, tmp_path, "John")
    # What the first step of a delete leaves when the process dies before the files are removed.
    os.rename(voice.folder, library.root / f".trash-{voice.id}-abc123")

    assert library.list() == []
    assert list(library.root.iterdir()) == []


def test_save_wav_writes_what_it_is_given(tmp_path):
    samples = (np.sin(np.arange(48000) / 48000 * 2 * np.pi * 440) * 0.5).astype(np.float32)

    path = save_wav(tmp_path / "tone.wav", samples, 48000)

    assert np.allclose(decode(path, sample_rate=48000), samples, atol=1e-3)


def test_a_consent_code_counts_only_if_voxdesk_issued_it(library):
    prompt = library.issue_prompt("John Smith", "en")

    assert library.pending_prompt(prompt.code) == prompt
    with pytest.raises(ConsentError, match="did not give out the code"):
        library.pending_prompt("0000")


def test_a_used_consent_code_cannot_be_used_again(library):
    prompt = library.issue_prompt("John Smith", "en")

    library.forget_prompt(prompt.code)

    with pytest.raises(ConsentError, match="did not give out the code"):
        library.pending_prompt(prompt.code)


def test_issued_codes_expire_after_a_week(library):
    prompt = library.issue_prompt("John Smith", "en")
    pending = json.loads((library.root / ".consent-prompts.json").read_text(encoding="utf-8"))
    pending[prompt.code]["issued"] -= 8 * 86400
    (library.root / ".consent-prompts.json").write_text(json.dumps(pending), encoding="utf-8")

    with pytest.raises(ConsentError):
        library.pending_prompt(prompt.code)
