"""Quality checks of a voice sample, on real recordings and on real files changed the way rooms and
microphones change them (quieter, louder, noisier, with long pauses) or made with sox (music)."""
from __future__ import annotations

import subprocess
from pathlib import Path

import numpy as np
import pytest

from desktop.core.common.audio import decode, probe
from desktop.core.voices.quality import (
    GOOD_SECONDS,
    MIN_SECONDS,
    music_score,
    prepare_sample,
)
from tests.helpers.weights import DATA_DIR
from tests.helpers.tools import require_tool

RATE = 48000  # what a USB microphone delivers


def native(name: str) -> tuple[np.ndarray, int]:
    """A recording from tests/data at its own sample rate."""
    path = DATA_DIR / name
    rate = probe(path).sample_rate
    return decode(path, sample_rate=rate), rate


@pytest.fixture(scope="module")
def jfk_48k() -> np.ndarray:
    """jfk.flac (11 s of speech with audience noise) as a 48 kHz microphone would give it."""
    return decode(DATA_DIR / "jfk.flac", sample_rate=RATE)


def with_silence(samples: np.ndarray, before: float, after: float, rate: int = RATE) -> np.ndarray:
    return np.concatenate([np.zeros(round(before * rate), np.float32), samples,
                           np.zeros(round(after * rate), np.float32)])


def sox_music(path: Path) -> Path:
    """Twelve seconds of chords and a plucked melody, made with sox."""
    require_tool("sox")
    chords = ("C3 E4 G4 C5", "A2 C4 E4 A4", "F2 A3 C4 F4", "G2 B3 D4 G4")
    args: list[str] = []
    for _ in range(3):
        for chord in chords:
            a, b, c, d = chord.split()
            args += ["synth", "0.6", "pluck", a, "pluck", b, "pluck", c, "pluck", d, "remix", "-", ":",
                     "synth", "0.4", "pluck", d, "sine", b, "remix", "-", ":"]
    subprocess.run(["sox", "-n", "-r", "44100", "-c", "1", str(path), *args[:-1], "vol", "0.8"],
                   check=True, capture_output=True)
    return path


def test_a_clear_eleven_second_speech_recording_passes_every_check(jfk_48k):
    report = prepare_sample(jfk_48k, RATE).report

    assert report.accepted
    assert report.issues == ()
    assert report.duration > GOOD_SECONDS
    assert report.snr_db > 15


def test_leading_and_trailing_silence_are_trimmed_but_a_little_is_kept(jfk_48k):
    padded = with_silence(jfk_48k, before=3.0, after=4.0)

    trimmed = prepare_sample(padded, RATE).samples

    # jfk.flac itself starts and ends within a few tenths of a second of the speech.
    assert len(jfk_48k) / RATE - 1.0 < len(trimmed) / RATE < len(jfk_48k) / RATE + 0.5
    # The three seconds of silence before are gone, apart from at most the 0.2 s margin.
    assert np.count_nonzero(trimmed[: RATE] == 0) <= 0.2 * RATE


def test_digital_silence_around_a_file_does_not_make_its_background_noise_count_as_speech(jfk_48k):
    padded = prepare_sample(with_silence(jfk_48k, before=2.0, after=2.0), RATE).report
    plain = prepare_sample(jfk_48k, RATE).report

    assert padded.speech_fraction == pytest.approx(plain.speech_fraction, abs=0.05)
    assert padded.snr_db == pytest.approx(plain.snr_db, abs=1.0)
    assert padded.duration == pytest.approx(plain.duration, abs=0.3)


def test_a_mouse_click_after_the_speech_is_not_kept_as_speech(jfk_48k):
    padded = with_silence(jfk_48k, before=1.0, after=3.0)
    click_at = len(padded) - RATE  # one second before the end, like the click on "Stop"
    padded[click_at : click_at + 96] = 0.8  # 2 ms

    trimmed = prepare_sample(padded, RATE).samples

    assert len(trimmed) < len(jfk_48k) + round(0.5 * RATE)


def test_a_short_real_recording_is_accepted_with_a_warning_about_its_length():
    samples, rate = native("lj050-0131.wav")  # 7.7 s

    report = prepare_sample(samples, rate).report

    assert report.accepted
    assert report.codes() == {"short"}
    assert "15 to 30 seconds" in report.warnings[0].message


def test_a_recording_shorter_than_six_seconds_is_refused():
    samples, rate = native("BAC009S0764W0121.wav")  # 4.2 s of Mandarin

    report = prepare_sample(samples, rate).report

    assert not report.accepted
    assert "too_short" in {issue.code for issue in report.refusals}
    assert report.duration < MIN_SECONDS
    assert "at least 6 seconds" in report.refusals[0].message


def test_a_recording_of_silence_is_refused_with_a_hint_about_the_microphone():
    rng = np.random.default_rng(0)
    hiss = (rng.standard_normal(15 * RATE) * 10 ** (-75 / 20)).astype(np.float32)  # a quiet preamp

    report = prepare_sample(hiss, RATE).report

    assert not report.accepted
    assert report.codes() == {"silent"}
    assert "microphone" in report.issues[0].message


def test_digital_silence_is_refused_too():
    report = prepare_sample(np.zeros(20 * RATE, np.float32), RATE).report

    assert report.codes() == {"silent"}
    assert report.duration == 0


def test_a_voice_far_below_minus_forty_dbfs_is_refused_as_too_quiet(jfk_48k):
    quiet = jfk_48k * 10 ** (-32 / 20)  # jfk's speech sits near -14 dBFS; this puts it near -46

    report = prepare_sample(quiet, RATE).report

    assert not report.accepted
    assert "too_quiet" in report.codes()
    assert report.speech_rms_dbfs < -40


def test_an_overdriven_recording_is_flagged_as_distorted(jfk_48k):
    overdriven = np.clip(jfk_48k * 6.0, -1.0, 1.0)

    report = prepare_sample(overdriven, RATE).report

    assert "clipping" in report.codes()
    assert report.clipped_fraction > 0.001
    assert "distorted" in next(i for i in report.issues if i.code == "clipping").message


def test_the_original_recording_has_no_clipping(jfk_48k):
    assert prepare_sample(jfk_48k, RATE).report.clipped_fraction < 0.001


def test_loud_background_noise_is_flagged(jfk_48k):
    rng = np.random.default_rng(1)
    speech_rms = 10 ** (-14 / 20)
    noisy = jfk_48k + rng.standard_normal(len(jfk_48k)).astype(np.float32) * speech_rms * 10 ** (-8 / 20)

    report = prepare_sample(noisy, RATE).report

    assert "noisy" in report.codes()
    assert report.snr_db < 15
    assert "quieter room" in next(i for i in report.issues if i.code == "noisy").message


def test_a_recording_with_long_pauses_between_phrases_is_flagged(jfk_48k):
    pause = np.zeros(4 * RATE, np.float32)
    second = RATE
    phrases = [jfk_48k[i * 2 * second : (i + 1) * 2 * second] for i in range(5)]
    halting = np.concatenate([part for phrase in phrases for part in (phrase, pause)][:-1])

    report = prepare_sample(halting, RATE).report

    assert "mostly_silence" in report.codes()
    assert report.speech_fraction < 0.5


def test_int16_samples_are_understood_as_well_as_floats(jfk_48k):
    as_int16 = np.round(jfk_48k * 32767).astype(np.int16)

    report = prepare_sample(as_int16, RATE).report

    assert report.issues == ()
    assert abs(report.speech_rms_dbfs - prepare_sample(jfk_48k, RATE).report.speech_rms_dbfs) < 0.1


def test_an_imported_music_file_is_refused_as_music(tmp_path):
    path = sox_music(tmp_path / "song.wav")
    samples = decode(path, sample_rate=44100)

    report = prepare_sample(samples, 44100, imported=True).report

    assert not report.accepted
    assert report.codes() == {"music"}
    assert report.music_score > 0.35
    assert "music" in report.issues[0].message


@pytest.mark.parametrize("name", ["jfk.flac", "lj050-0131.wav", "BAC009S0764W0121.wav", "BAC009S0764W0122.wav"])
def test_real_speech_in_english_and_chinese_is_not_taken_for_music(name):
    samples, rate = native(name)

    assert music_score(samples, rate) < 0.15
    assert "music" not in prepare_sample(samples, rate, imported=True).report.codes()


def test_the_music_check_is_only_for_imported_files(jfk_48k):
    report = prepare_sample(jfk_48k, RATE).report

    assert report.music_score is None


def test_messages_for_an_imported_file_ask_for_another_file_not_a_new_recording():
    samples, rate = native("BAC009S0764W0122.wav")

    report = prepare_sample(samples, rate, imported=True).report

    message = report.refusals[0].message
    assert "Choose a longer recording" in message
    assert "record again" not in message
