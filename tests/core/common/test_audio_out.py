"""Saving speech: WAV and MP3 files that decode, loudness levelling, atomic writes, plain errors."""
import os
import subprocess
import wave

import av
import numpy as np
import pyloudnorm
import pytest

from desktop.core.common.atomic import ExportExists
from desktop.core.common.audio_out import SPOKEN_WORD_LUFS, encode, format_for, normalize_loudness, save_speech
from desktop.core.common.errors import ExportError

RATE = 22050


def tone(seconds: float, amplitude: float, rate: int = RATE) -> np.ndarray:
    t = np.arange(int(seconds * rate)) / rate
    # A tone whose loudness changes like syllables, so the loudness meter sees speech-like gating.
    envelope = 0.6 + 0.4 * np.sin(2 * np.pi * 3 * t)
    return (amplitude * envelope * np.sin(2 * np.pi * 220 * t)).astype(np.float32)


def decoded(path) -> tuple[np.ndarray, int, str]:
    with av.open(str(path)) as container:
        stream = container.streams.audio[0]
        codec = stream.codec_context.name
        frames = [frame.to_ndarray().reshape(-1) for frame in container.decode(stream)]
        return np.concatenate(frames), stream.rate, codec


def test_a_wav_file_decodes_to_the_same_sound_at_the_model_rate(tmp_path):
    samples = tone(1.5, 0.3)
    path = save_speech(tmp_path / "notice.wav", samples, RATE)
    with wave.open(str(path)) as wav:
        assert (wav.getnchannels(), wav.getsampwidth(), wav.getframerate()) == (1, 2, RATE)
    audio, rate, codec = decoded(path)
    assert (rate, codec) == (RATE, "pcm_s16le")
    assert len(audio) == len(samples)
    assert np.max(np.abs(audio / 32768.0 - samples)) < 1e-3


def test_an_mp3_file_decodes_with_the_same_length(tmp_path):
    samples = tone(2.0, 0.3)
    path = save_speech(tmp_path / "notice.mp3", samples, RATE)
    audio, rate, codec = decoded(path)
    assert codec.startswith("mp3") and rate == RATE
    assert abs(len(audio) / rate - 2.0) < 0.05
    assert os.path.getsize(path) < len(samples) * 2 / 4  # much smaller than the WAV would be


def test_an_mp3_at_a_rate_mp3_cannot_carry_is_resampled_not_refused(tmp_path):
    path = save_speech(tmp_path / "odd.mp3", tone(1.0, 0.3, rate=12345), 12345)
    audio, rate, _ = decoded(path)
    assert rate == 24000
    assert abs(len(audio) / rate - 1.0) < 0.05


def test_loudness_normalisation_reaches_the_spoken_word_target():
    quiet = tone(3.0, 0.01)
    levelled = normalize_loudness(quiet, RATE)
    loudness = pyloudnorm.Meter(RATE).integrated_loudness(levelled.astype(np.float64))
    assert abs(loudness - SPOKEN_WORD_LUFS) < 0.5


def test_loudness_normalisation_never_clips_peaks():
    spiky = tone(3.0, 0.01)
    spiky[RATE] = 0.9  # one click far above the rest
    levelled = normalize_loudness(spiky, RATE)
    assert np.max(np.abs(levelled)) <= 10 ** (-1 / 20) + 1e-6


def test_silence_and_very_short_audio_are_left_unchanged_by_normalisation():
    silence = np.zeros(RATE, dtype=np.float32)
    assert np.array_equal(normalize_loudness(silence, RATE), silence)
    blip = tone(0.1, 0.2)
    assert np.array_equal(normalize_loudness(blip, RATE), blip)


def test_saving_with_normalisation_writes_the_levelled_sound(tmp_path):
    path = save_speech(tmp_path / "level.wav", tone(3.0, 0.01), RATE, normalize=True)
    audio, _, _ = decoded(path)
    loudness = pyloudnorm.Meter(RATE).integrated_loudness(audio / 32768.0)
    assert abs(loudness - SPOKEN_WORD_LUFS) < 0.5


def test_an_existing_file_is_not_replaced_without_permission(tmp_path):
    path = tmp_path / "keep.wav"
    path.write_bytes(b"precious")
    with pytest.raises(ExportExists):
        save_speech(path, tone(1.0, 0.3), RATE)
    assert path.read_bytes() == b"precious"
    save_speech(path, tone(1.0, 0.3), RATE, overwrite=True)
    assert decoded(path)[1] == RATE


@pytest.fixture
def read_only_folder(tmp_path):
    """A folder nobody may write into: a read-only mount for root (who ignores permissions), else chmod."""
    folder = tmp_path / "locked"
    folder.mkdir()
    if os.geteuid() != 0:
        folder.chmod(0o500)
        yield folder
        folder.chmod(0o700)
        return
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "ro,size=1m", "tmpfs", str(folder)],
                             capture_output=True)
    if mounted.returncode != 0:
        pytest.skip("running as root without permission to mount a read-only folder")
    try:
        yield folder
    finally:
        subprocess.run(["umount", str(folder)], check=False)


def test_saving_into_a_read_only_folder_says_so_and_leaves_nothing(read_only_folder):
    with pytest.raises(ExportError) as error:
        save_speech(read_only_folder / "out.wav", tone(1.0, 0.3), RATE)
    assert "cannot write to the folder" in error.value.message
    assert list(read_only_folder.iterdir()) == []


def test_an_unknown_extension_is_refused_with_the_choices():
    with pytest.raises(ExportError) as error:
        format_for("speech.flac")
    assert ".wav" in error.value.message and ".mp3" in error.value.message
    assert format_for("Notice.MP3") == "mp3"


def test_there_is_nothing_to_save_before_speaking(tmp_path):
    with pytest.raises(ExportError) as error:
        save_speech(tmp_path / "empty.wav", np.zeros(0, dtype=np.float32), RATE)
    assert "Speak" in error.value.message
    assert not (tmp_path / "empty.wav").exists()


def test_encoding_clips_out_of_range_samples_instead_of_wrapping():
    loud = np.array([2.0, -2.0, 0.5], dtype=np.float32)
    data = encode(loud, 8000, "wav")
    pcm = np.frombuffer(data[-6:], dtype="<i2")
    assert list(pcm) == [32767, -32767, 16384]
