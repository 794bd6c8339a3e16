"""Subtitles burned into the picture, read back with PyAV: frames changed inside the cue's region and
on the cue's frames only, sound copied, duration and frame times unchanged; odd pictures handled."""
import os
from fractions import Fraction

import av
import numpy as np
import pytest

from desktop.core.common.atomic import ExportExists
from desktop.core.common.errors import Cancelled
from desktop.core.video.burn import Overlay, burn
from desktop.core.video.soft_subtitles import read_track
from desktop.core.video.video_file import VideoError, read_facts
from tests.helpers.videos import make_video, write_srt

CUES = [(0.52, 1.48, "大家好"), (2.0, 2.6, "Welcome")]
BOX = (40, 180, 160, 40)  # x, y, width, height of the painted block


def solid_painter(cue, width, height):
    """A white block (premultiplied RGBA), the same for every cue: burn()'s blending on its own."""
    x, y, w, h = BOX
    return Overlay(x, y, np.full((h, w, 4), 255, np.uint8))


def _frames(path):
    with av.open(str(path)) as f:
        stream = f.streams.video[0]
        return [(frame.time, frame.to_ndarray(format="gray").astype(int)) for frame in f.decode(stream)]


def _audio_packets(path):
    with av.open(str(path)) as f:
        return [bytes(p) for p in f.demux(f.streams.audio[0]) if p.dts is not None]


@pytest.fixture
def track(tmp_path):
    return read_track(write_srt(tmp_path / "talk.srt", CUES), "zh")


def test_frames_change_inside_the_cue_region_and_on_the_cue_frames_only(tmp_path, h264_video, track):
    out = tmp_path / "burned.mp4"
    report = burn(h264_video, track, out, solid_painter, crf=0)  # lossless: only the text may differ
    source, burned = _frames(h264_video), _frames(out)
    assert [t for t, _ in burned] == [t for t, _ in source]
    x, y, w, h = BOX
    inside = np.zeros_like(source[0][1], bool)
    inside[y:y + h, x:x + w] = True
    on = 0
    for (at, before), (_, after) in zip(source, burned):
        showing = any(a <= at < b for a, b, _ in CUES)
        diff = np.abs(after - before)
        assert diff[~inside].max() <= 1, at  # the colour round trip may move a level
        if showing:
            on += 1
            assert (after[inside] >= 250).all(), at
        else:
            assert diff[inside].max() <= 1, at
    assert on == report.frames_with_text == 24 + 15  # 0.52–1.48 s and 2.0–2.6 s at 25 fps, to the frame
    assert report.frames == len(source)


@pytest.mark.parametrize("suffix", [".mp4", ".mkv"])
def test_sound_is_copied_and_the_duration_kept(tmp_path, h264_video, track, suffix):
    out = tmp_path / f"burned{suffix}"
    burn(h264_video, track, out, solid_painter)
    assert _audio_packets(out) == _audio_packets(h264_video)
    # MKV has no edit list, so the AAC encoder's 64 ms of priming count in its length: one frame and a half.
    assert read_facts(out).duration == pytest.approx(read_facts(h264_video).duration, abs=0.07)
    with av.open(str(out)) as f:
        assert f.streams.video[0].codec_context.name == "h264"


def test_a_variable_frame_rate_keeps_each_frames_time(tmp_path, track):
    times = [0.0, 0.04, 0.1, 0.3, 0.5, 0.52, 0.9, 1.0, 1.47, 1.5, 2.0, 2.7, 2.9]
    video = make_video(tmp_path / "phone.mp4", frame_times=times)
    assert read_facts(video).variable_rate
    out = tmp_path / "burned.mp4"
    report = burn(video, track, out, solid_painter)
    assert [round(t, 3) for t, _ in _frames(out)] == times
    assert report.frames_with_text == sum(any(a <= t < b for a, b, _ in CUES) for t in times)


def test_a_rotated_video_is_saved_upright_with_a_sentence(tmp_path, track):
    video = make_video(tmp_path / "upright.mp4", width=320, height=240, rotation=90)
    report = burn(video, track, tmp_path / "burned.mp4", solid_painter)
    assert any("upright" in note for note in report.notes)
    with av.open(str(tmp_path / "burned.mp4")) as f:
        frame = next(f.decode(video=0))
        assert (frame.width, frame.height) == (240, 320)
        assert not getattr(frame, "rotation", 0)


def test_an_odd_sized_picture_loses_one_pixel_and_says_so(tmp_path, track):
    video = make_video(tmp_path / "odd.mp4", width=321, height=241, pix_fmt="yuv444p")
    report = burn(video, track, tmp_path / "burned.mp4", solid_painter)
    assert any("321×241" in note and "320×240" in note for note in report.notes)
    facts = read_facts(tmp_path / "burned.mp4")
    assert (facts.width, facts.height, facts.pixel_format) == (320, 240, "yuv420p")


def test_a_10_bit_picture_is_saved_as_8_bit_with_a_sentence(tmp_path, track):
    video = make_video(tmp_path / "hdr.mp4", pix_fmt="yuv420p10le")
    report = burn(video, track, tmp_path / "burned.mp4", solid_painter)
    assert any("10-bit" in note for note in report.notes)
    assert read_facts(tmp_path / "burned.mp4").bit_depth == 8


def test_cancelling_leaves_no_file(tmp_path, h264_video, track):
    out_dir = tmp_path / "out"
    out_dir.mkdir()
    calls = []

    def cancel_later():
        calls.append(1)
        return len(calls) > 20

    with pytest.raises(Cancelled):
        burn(h264_video, track, out_dir / "burned.mp4", solid_painter, cancelled=cancel_later)
    assert os.listdir(out_dir) == []


def test_an_existing_file_is_not_replaced_without_asking(tmp_path, h264_video, track):
    out = tmp_path / "burned.mp4"
    out.write_bytes(b"keep")
    with pytest.raises(ExportExists):
        burn(h264_video, track, out, solid_painter)
    assert out.read_bytes() == b"keep"


def test_webm_and_quality_out_of_range_get_sentences(tmp_path, h264_video, track):
    with pytest.raises(VideoError, match=r"\.mp4 or \.mkv"):
        burn(h264_video, track, tmp_path / "x.webm", solid_painter)
    with pytest.raises(VideoError, match="between 0"):
        burn(h264_video, track, tmp_path / "x.mp4", solid_painter, crf=70)
    assert sorted(os.listdir(tmp_path)) == ["talk.srt"]


def test_progress_reaches_the_end_with_time_left(tmp_path, h264_video, track):
    seen = []
    burn(h264_video, track, tmp_path / "b.mp4", solid_painter, progress=lambda f, left: seen.append((f, left)))
    fractions = [f for f, _ in seen]
    assert fractions == sorted(fractions) and fractions[-1] == 1.0
    assert any(left is not None and left >= 0 for _, left in seen[:-1])


def test_a_long_cue_still_shows_after_a_short_one_inside_it_has_ended():
    from desktop.core.transcription.subtitles import Cue
    from desktop.core.video.burn import _CueTimes

    times = _CueTimes([Cue(0.0, 10.0, ["long"]), Cue(1.0, 2.0, ["short"]), Cue(12.0, 13.0, ["later"])])
    shown = {at: times.cue(i).text if (i := times.at(at)) is not None else None for at in (0.5, 1.5, 5.0, 11.0, 12.5)}
    assert shown == {0.5: "long", 1.5: "short", 5.0: "long", 11.0: None, 12.5: "later"}


def test_the_picture_comes_first_and_the_sound_after_it(tmp_path, h264_video, track):
    burn(h264_video, track, tmp_path / "b.mp4", solid_painter)
    with av.open(str(tmp_path / "b.mp4")) as f:
        assert [s.type for s in f.streams] == ["video", "audio"]
