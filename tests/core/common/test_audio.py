"""Decoding real recordings, and every kind of file a user can drop that is not one."""
from __future__ import annotations

import tracemalloc
from pathlib import Path

import av
import numpy as np
import pytest

from desktop.core.common import audio
from desktop.core.common.audio import (
    AudioInfo,
    decode,
    decode_stretch,
    is_media_file,
    iter_chunks,
    probe,
    slice_seconds,
)
from desktop.core.common.errors import AudioError

DATA = Path(__file__).resolve().parents[2] / "data"
JFK = DATA / "jfk.flac"
SR = audio.SAMPLE_RATE


@pytest.fixture(scope="module")
def jfk() -> np.ndarray:
    return decode(JFK)


def write_media(path: Path, channels: np.ndarray, rate: int, codec: str, layout: str,
                *, video: bool = False, options: dict[str, str] | None = None) -> Path:
    """Write float samples shaped (channels, n) with a real encoder; optionally add a video track."""
    with av.open(str(path), "w", options=options or {}) as container:
        if video:
            picture = container.add_stream("mpeg4", rate=10)
            picture.width, picture.height, picture.pix_fmt = 64, 48, "yuv420p"
        sound = container.add_stream(codec, rate=rate, layout=layout)
        frame = av.AudioFrame.from_ndarray(np.ascontiguousarray(channels, dtype=np.float32),
                                           format="fltp", layout=layout)
        frame.sample_rate = rate
        packets = sound.encode(frame) + sound.encode(None)
        if video:
            seconds = channels.shape[1] / rate
            for i in range(max(1, int(seconds * 10))):
                image = np.full((48, 64, 3), (i * 7) % 255, dtype=np.uint8)
                packets += picture.encode(av.VideoFrame.from_ndarray(image, format="rgb24"))
            packets += picture.encode(None)
        for packet in packets:
            container.mux(packet)
    return path


def resampled(samples: np.ndarray, rate: int) -> np.ndarray:
    """Samples at 16 kHz converted to another rate, with the same resampler the app uses."""
    frame = av.AudioFrame.from_ndarray(samples[None, :].astype(np.float32), format="flt", layout="mono")
    frame.sample_rate = SR
    converter = av.AudioResampler(format="flt", layout="mono", rate=rate)
    out = converter.resample(frame) + converter.resample(None)
    return np.concatenate([f.to_ndarray().reshape(-1) for f in out])


def similarity(a: np.ndarray, b: np.ndarray, max_lag: int = 4096) -> float:
    """Correlation of two signals once lined up: encoders and resamplers may delay the sound."""
    n = min(len(a), len(b))
    a, b = a[:n].astype(np.float64), b[:n].astype(np.float64)
    size = 1 << (2 * n - 1).bit_length()
    cross = np.fft.irfft(np.fft.rfft(a, size) * np.conj(np.fft.rfft(b, size)), size)
    lags = np.r_[0:max_lag + 1, -max_lag:0]
    lag = int(lags[np.argmax(cross[lags])])
    x, y = (a[lag:], b[:n - lag]) if lag >= 0 else (a[:n + lag], b[-lag:])
    return float(np.corrcoef(x, y)[0, 1])


# --- real recordings -----------------------------------------------------------------------------


def test_probe_reads_the_real_recordings_metadata():
    info = probe(JFK)
    assert isinstance(info, AudioInfo)
    assert info.duration == pytest.approx(11.0, abs=0.05)
    assert info.sample_rate == 44100
    assert info.channels == 2
    assert info.codec == "flac"


def test_decode_gives_16_khz_mono_float32_within_full_scale(jfk):
    assert jfk.dtype == np.float32
    assert jfk.ndim == 1
    assert len(jfk) / SR == pytest.approx(11.0, abs=0.05)
    assert np.abs(jfk).max() <= 1.0
    assert np.sqrt(np.mean(jfk ** 2)) > 0.01  # real speech, not silence


def test_decode_can_give_another_sample_rate():
    samples = decode(DATA / "lj050-0131.wav", sample_rate=8000)
    assert len(samples) / 8000 == pytest.approx(probe(DATA / "lj050-0131.wav").duration, abs=0.05)


@pytest.mark.parametrize("rate", [8000, 22050, 96000])
def test_a_wav_at_any_sample_rate_becomes_16_khz(tmp_path, jfk, rate):
    path = write_media(tmp_path / f"jfk-{rate}.wav", resampled(jfk, rate)[None, :], rate, "pcm_s16le", "mono")
    info = probe(path)
    assert info.sample_rate == rate
    samples = decode(path)
    assert len(samples) == pytest.approx(len(jfk), abs=SR * 0.01)
    if rate >= SR:
        assert similarity(samples, jfk) > 0.99
    else:  # 8 kHz keeps only the telephone band; the speech is still all there
        assert similarity(samples, jfk) > 0.9


def test_surround_sound_is_mixed_down_to_mono_with_the_voice_kept(tmp_path, jfk):
    silent = np.zeros_like(jfk)
    # 5.1 order: front left, front right, centre, LFE, back left, back right. Dialogue is centre.
    channels = np.stack([silent, silent, jfk, silent, silent, silent])
    path = write_media(tmp_path / "film.m4a", channels, SR, "aac", "5.1")
    assert probe(path).channels == 6
    samples = decode(path)
    assert similarity(samples, jfk) > 0.95


def test_a_loud_surround_mix_is_scaled_down_instead_of_clipped(tmp_path):
    tone = np.sin(2 * np.pi * 440 * np.arange(48000) / 48000).astype(np.float32) * 0.9
    path = write_media(tmp_path / "loud.wav", np.stack([tone] * 6), 48000, "pcm_f32le", "5.1")
    samples = decode(path)
    # Six channels at 90 % add up to far more than full scale; the mix is scaled, not clipped.
    assert np.abs(samples).max() == pytest.approx(0.9, abs=0.02)


def test_the_sound_track_of_a_video_is_decoded(tmp_path, jfk):
    path = write_media(tmp_path / "meeting.mp4", jfk[None, :], SR, "aac", "mono", video=True)
    info = probe(path)
    assert info.codec == "aac"
    assert info.duration == pytest.approx(11.0, abs=0.2)
    assert similarity(decode(path), jfk) > 0.95


def test_paths_with_chinese_characters_and_spaces_work(tmp_path, jfk):
    folder = tmp_path / "会议 录音"
    folder.mkdir()
    path = write_media(folder / "第一次 会议.mp3", jfk[None, :], SR, "libmp3lame", "mono")
    assert probe(path).codec == "mp3"
    assert len(decode(path)) == pytest.approx(len(jfk), abs=SR * 0.1)


def test_the_chinese_recordings_decode(tmp_path):
    for name in ("BAC009S0764W0121.wav", "BAC009S0764W0122.wav"):
        samples = decode(DATA / name)
        assert 3.5 < len(samples) / SR < 5.0


def test_a_clip_shorter_than_a_third_of_a_second_is_returned_as_it_is(tmp_path, jfk):
    clip = jfk[SR * 2: SR * 2 + SR // 5]  # 0.2 s
    path = write_media(tmp_path / "short.wav", clip[None, :], SR, "pcm_s16le", "mono")
    samples = decode(path)
    assert len(samples) == len(clip)
    assert probe(path).duration == pytest.approx(0.2, abs=0.01)


def test_a_browser_style_recording_without_a_stated_length_gets_its_length_measured(tmp_path, jfk):
    # WebM written as a live stream, as browsers record it: no duration in the file at all.
    path = write_media(tmp_path / "voice.webm", resampled(jfk, 48000)[None, :], 48000, "libopus", "mono",
                       options={"live": "1"})
    with av.open(str(path)) as container:
        assert container.duration is None and container.streams.audio[0].duration is None
    info = probe(path)
    assert info.duration == pytest.approx(11.0, abs=0.05)
    assert info.codec == "opus"


# --- files that cannot be used -------------------------------------------------------------------


def test_a_missing_file_says_it_cannot_be_found(tmp_path):
    with pytest.raises(AudioError) as caught:
        probe(tmp_path / "gone.mp3")
    assert "cannot find" in caught.value.message
    assert "gone.mp3" in caught.value.message


def test_a_zero_byte_file_says_it_is_empty(tmp_path):
    path = tmp_path / "empty.wav"
    path.touch()
    for read in (probe, decode):
        with pytest.raises(AudioError) as caught:
            read(path)
        assert "empty" in caught.value.message


def test_a_text_file_renamed_to_mp3_is_not_taken_for_audio(tmp_path):
    path = tmp_path / "notes.mp3"
    path.write_text("Minutes of the meeting.\nAttendees: Li Wei, Anna Smith.\n" * 20)
    for read in (probe, decode):
        with pytest.raises(AudioError) as caught:
            read(path)
        assert "cannot read “notes.mp3” as audio or video" in caught.value.message
        assert caught.value.detail


def test_a_video_without_sound_says_there_is_no_sound_track(tmp_path):
    path = tmp_path / "silent.mp4"
    with av.open(str(path), "w") as container:
        picture = container.add_stream("mpeg4", rate=10)
        picture.width, picture.height, picture.pix_fmt = 64, 48, "yuv420p"
        for i in range(10):
            image = np.full((48, 64, 3), i * 20, dtype=np.uint8)
            for packet in picture.encode(av.VideoFrame.from_ndarray(image, format="rgb24")):
                container.mux(packet)
        for packet in picture.encode(None):
            container.mux(packet)
    for read in (probe, decode):
        with pytest.raises(AudioError) as caught:
            read(path)
        assert caught.value.message == "“silent.mp4” has no sound track, so there is nothing to transcribe."


def test_sound_in_a_format_without_a_decoder_asks_for_mp3_or_wav(tmp_path):
    # A real Matroska file whose track names a codec that does not exist.
    good = write_media(tmp_path / "good.mka", np.zeros((1, SR), np.float32), SR, "pcm_s16le", "mono")
    data = good.read_bytes()
    assert data.count(b"A_PCM/INT/LIT") == 1
    path = tmp_path / "odd.mka"
    path.write_bytes(data.replace(b"A_PCM/INT/LIT", b"A_ZZZ/INT/LIT"))
    for read in (probe, decode):
        with pytest.raises(AudioError) as caught:
            read(path)
        assert "format VoxDesk cannot play" in caught.value.message


def test_a_folder_is_not_a_recording(tmp_path):
    with pytest.raises(AudioError) as caught:
        decode(tmp_path)
    assert "is a folder" in caught.value.message


def test_a_truncated_mp3_decodes_the_part_that_is_there(tmp_path, jfk):
    whole = write_media(tmp_path / "whole.mp3", jfk[None, :], SR, "libmp3lame", "mono")
    data = whole.read_bytes()
    half = tmp_path / "half.mp3"
    half.write_bytes(data[: len(data) // 2])
    samples = decode(half)
    assert len(samples) / SR == pytest.approx(5.5, abs=0.6)
    assert similarity(samples, jfk[: len(samples)]) > 0.95
    assert probe(half).codec == "mp3"


def test_a_file_cut_off_before_any_sound_says_it_cannot_be_decoded(tmp_path):
    # Keep the FLAC header, which states 11 s of sound, and a little of the first frame.
    data = JFK.read_bytes()
    path = tmp_path / "cut.flac"
    path.write_bytes(data[:9000])
    for read in (probe, decode):
        with pytest.raises(AudioError) as caught:
            read(path)
        assert "cannot be decoded" in caught.value.message
        assert "damaged or incomplete" in caught.value.message


def test_a_broken_wav_header_gives_a_plain_sentence_without_error_codes(tmp_path):
    path = tmp_path / "x.wav"
    path.write_bytes(b"RIFF\x00\x00")
    with pytest.raises(AudioError) as caught:
        decode(path)
    message = caught.value.message
    assert message.endswith(".")
    assert "Errno" not in message and "ffmpeg" not in message.lower()


# --- chunks of a long recording -----------------------------------------------------------------


@pytest.fixture(scope="module")
def long_recording(tmp_path_factory, jfk):
    """About 25 minutes: the speech again and again, with pauses of 0.8 to 2 s and a faint hiss."""
    rng = np.random.default_rng(7)
    parts, pauses, position = [], [], 0
    while position < 25 * 60 * SR:
        pause = int(rng.uniform(0.8, 2.0) * SR)
        parts += [jfk, np.zeros(pause, dtype=np.float32)]
        pauses.append((position + len(jfk), position + len(jfk) + pause))
        position += len(jfk) + pause
    samples = np.concatenate(parts) + rng.normal(0, 1e-3, position).astype(np.float32)
    path = tmp_path_factory.mktemp("long") / "long meeting.flac"
    write_media(path, samples[None, :], SR, "flac", "mono")
    return path, pauses


def test_chunks_put_together_are_exactly_the_decoded_recording(long_recording):
    path, _ = long_recording
    chunks = list(iter_chunks(path, chunk_seconds=120, overlap_search_seconds=30))
    assert len(chunks) > 10
    whole = decode(path)
    assert np.array_equal(np.concatenate([samples for _, samples in chunks]), whole)
    position = 0
    for offset, samples in chunks:
        assert offset == position / SR
        assert samples.dtype == np.float32
        position += len(samples)


def test_chunks_are_cut_in_pauses_within_the_search_window(long_recording):
    path, pauses = long_recording
    whole = decode(path)
    chunks = list(iter_chunks(path, chunk_seconds=120, overlap_search_seconds=30))
    for offset, samples in chunks[:-1]:
        assert 90 * SR <= len(samples) <= 120 * SR
        cut = round(offset * SR) + len(samples)
        assert any(start <= cut < end for start, end in pauses), f"the cut at {cut / SR:.2f} s is not in a pause"
        # The half second around the cut holds nothing but the faint hiss: no word is cut.
        around = whole[cut - SR // 4: cut + SR // 4]
        assert np.sqrt(np.mean(around ** 2)) < 2e-3


def test_a_chunk_is_never_longer_than_asked_and_memory_stays_near_one_chunk(long_recording):
    path, _ = long_recording
    chunk_seconds = 60
    chunk_bytes = chunk_seconds * SR * 4
    tracemalloc.start()
    try:
        longest = 0
        for _, samples in iter_chunks(path, chunk_seconds=chunk_seconds, overlap_search_seconds=10):
            longest = max(longest, len(samples))
            del samples
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert longest <= chunk_seconds * SR
    whole_bytes = 25 * 60 * SR * 4
    assert peak < 4 * chunk_bytes < whole_bytes / 2


def test_a_stretch_late_in_a_long_recording_is_that_part_of_the_whole(long_recording):
    path, _ = long_recording
    whole = decode(path)
    start, end = 20 * 60 + 3.25, 20 * 60 + 7.75
    stretch = decode_stretch(path, start, end)
    expected = slice_seconds(whole, start, end)
    assert stretch.dtype == np.float32
    assert len(stretch) == pytest.approx(len(expected), abs=2)
    assert similarity(stretch, expected, max_lag=64) > 0.99


def test_a_recording_shorter_than_a_chunk_is_one_chunk(jfk):
    chunks = list(iter_chunks(JFK, chunk_seconds=600))
    assert len(chunks) == 1
    offset, samples = chunks[0]
    assert offset == 0.0
    assert np.array_equal(samples, jfk)


def test_a_recording_without_pauses_is_cut_at_its_quietest_moment(tmp_path):
    rng = np.random.default_rng(3)
    loudness = np.ones(SR * 30, dtype=np.float32)
    loudness[SR * 17: SR * 18] = 0.05  # the one quieter second, inside the search window
    noise = (rng.uniform(-0.5, 0.5, SR * 30) * loudness).astype(np.float32)
    path = write_media(tmp_path / "noise.wav", noise[None, :], SR, "pcm_f32le", "mono")
    chunks = list(iter_chunks(path, chunk_seconds=20, overlap_search_seconds=5))
    first_cut = len(chunks[0][1])
    assert SR * 17 + SR // 4 <= first_cut <= SR * 18 - SR // 4


def test_chunks_of_a_file_that_cannot_be_read_raise_the_same_error(tmp_path):
    path = tmp_path / "notes.mp3"
    path.write_text("not sound at all")
    with pytest.raises(AudioError):
        list(iter_chunks(path))


# --- helpers -------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["talk.MP3", "a.wav", "clip.m4a", "film.mkv", "call.amr", "x.Opus",
                                  "movie.webm", "old.wma", "phone.3gp", "song.aiff", "v.mov"])
def test_common_audio_and_video_files_are_recognised_by_name(name):
    assert is_media_file(name)
    assert is_media_file(Path("/some where") / name)


@pytest.mark.parametrize("name", ["notes.txt", "slides.pdf", "app.ts", "readme", ".mp3", "photo.jpg"])
def test_other_files_are_not_taken_for_recordings(name):
    assert not is_media_file(name)


def test_supported_extensions_are_lower_case_without_a_dot():
    assert {"wav", "mp3", "m4a", "flac", "ogg", "opus", "mp4", "mkv", "mov", "webm"} <= audio.SUPPORTED_EXTENSIONS
    assert all(ext == ext.lower() and not ext.startswith(".") for ext in audio.SUPPORTED_EXTENSIONS)


def test_slice_seconds_cuts_by_time_and_stays_inside_the_recording():
    samples = np.arange(SR * 3, dtype=np.float32)
    assert np.array_equal(slice_seconds(samples, 1.0, 1.5), samples[SR: SR + SR // 2])
    assert len(slice_seconds(samples, -1.0, 0.25)) == SR // 4
    assert len(slice_seconds(samples, 2.5, 99.0)) == SR // 2
    assert len(slice_seconds(samples, 2.0, 1.0)) == 0
    assert len(slice_seconds(samples, 0.0, 1.0, sample_rate=8000)) == 8000


# --- stretches ----------------------------------------------------------------------------------


def test_a_stretch_comes_at_the_asked_sample_rate_with_the_asked_length():
    for rate in (16000, 48000):
        stretch = decode_stretch(JFK, 2.0, 4.5, sample_rate=rate)
        assert len(stretch) == pytest.approx(2.5 * rate, abs=2)
        assert np.abs(stretch).max() <= 1.0 and np.abs(stretch).max() > 0.05


def test_a_stretch_sounds_like_that_part_of_the_decoded_recording(jfk):
    # Lined up within 4 ms; a fresh resampler after the seek makes the samples differ a little.
    assert similarity(decode_stretch(JFK, 3.0, 6.0), slice_seconds(jfk, 3.0, 6.0), max_lag=64) > 0.95


def test_a_stretch_ends_with_the_recording_and_an_empty_one_is_empty(jfk):
    assert len(decode_stretch(JFK, 9.0, 60.0)) == pytest.approx(len(jfk) - 9 * SR, abs=SR * 0.01)
    assert len(decode_stretch(JFK, 5.0, 5.0)) == 0
    assert len(decode_stretch(JFK, 30.0, 40.0)) == 0


def test_a_stretch_of_a_missing_file_says_it_cannot_be_found(tmp_path):
    with pytest.raises(AudioError, match="cannot find"):
        decode_stretch(tmp_path / "gone.mp3", 1.0, 2.0)


@pytest.mark.parametrize("rate", [16000, 44100])
def test_samples_that_are_not_numbers_become_silence_and_are_counted(tmp_path, jfk, rate):
    damaged = resampled(jfk, rate) if rate != SR else jfk.copy()
    damaged[len(damaged) // 2] = np.nan
    damaged[len(damaged) // 3] = np.inf
    path = write_media(tmp_path / "damaged.wav", damaged[None, :], rate, "pcm_f32le", "mono")
    repaired: list[int] = []

    samples = decode(path, on_repair=repaired.append)

    assert np.isfinite(samples).all()
    assert sum(repaired) >= 2
    assert similarity(samples, jfk) > 0.95
    chunked: list[int] = []
    joined = np.concatenate([piece for _, piece in iter_chunks(path, chunk_seconds=4.0, on_repair=chunked.append)])
    assert np.isfinite(joined).all() and sum(chunked) == sum(repaired)


def test_a_sound_recording_without_damage_reports_no_repair(jfk):
    repaired: list[int] = []
    decode(JFK, on_repair=repaired.append)
    assert repaired == []
