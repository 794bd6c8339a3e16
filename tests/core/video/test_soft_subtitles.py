"""Subtitle tracks put into a copy of a video, read back with PyAV: tracks, languages, titles, the
default track, cue texts and times as in the SRT, and the picture and sound packets as in the source."""
import errno
import os
import subprocess
import sys
import textwrap
from fractions import Fraction
from pathlib import Path

import av
import pytest

from desktop.core.common.atomic import ExportExists
from desktop.core.common.errors import Cancelled, ExportError
from desktop.core.transcription.subtitle_files import SubtitleFileError
from desktop.core.video.soft_subtitles import embed, read_track
from desktop.core.video.video_file import VideoError
from tests.helpers.videos import write_srt

CHINESE = [(0.5, 1.5, "大家好"), (1.8, 2.6, "欢迎参加培训\n第二行")]
ENGLISH = [(0.4, 1.2, "Hello & <welcome>"), (1.3, 2.9, "Second line")]


def _read_back(path: Path):
    """(streams as (type, codec, language, title, default)), {subtitle index: [(start, end, text)]},
    the first picture packet's time."""
    with av.open(str(path)) as f:
        streams = [(s.type, s.codec_context.name if s.codec_context else None, s.metadata.get("language"),
                    s.metadata.get("title") or s.metadata.get("name"),
                    bool(s.disposition & av.stream.Disposition.default)) for s in f.streams]
        cues = {s.index: [] for s in f.streams.subtitles}
        first_picture = None
        for packet in f.demux():
            if packet.dts is None:
                continue
            if packet.stream.type == "video" and first_picture is None:
                first_picture = float(packet.pts * packet.time_base)
            if packet.stream.type == "subtitle":
                data = bytes(packet)
                if packet.stream.codec_context.name == "mov_text":
                    data = data[2:]  # the text's length in two bytes
                if data:
                    start = float(packet.pts * packet.time_base)
                    cues[packet.stream.index].append((start, start + float(packet.duration * packet.time_base),
                                                      data.decode()))
    return streams, cues, first_picture


def _media_packets(path: Path):
    """Each picture and sound packet: its type, bytes, and time from the stream's first packet."""
    with av.open(str(path)) as f:
        firsts, packets = {}, []
        for packet in f.demux():
            if packet.dts is None or packet.stream.type not in ("video", "audio"):
                continue
            first = firsts.setdefault(packet.stream.type, packet.pts * packet.time_base)
            packets.append((packet.stream.type, bytes(packet), packet.pts * packet.time_base - first,
                            packet.is_keyframe))
    return packets


def _tracks(tmp_path):
    zh = read_track(write_srt(tmp_path / "talk.zh.srt", CHINESE), "zh")
    en = read_track(write_srt(tmp_path / "talk.en.srt", ENGLISH), "en")
    return zh, en


@pytest.mark.parametrize("suffix,codec", [(".mkv", "subrip"), (".mp4", "mov_text")])
def test_each_transcript_becomes_a_track_with_its_language_title_and_the_first_as_default(
        tmp_path, h264_video, suffix, codec):
    out = tmp_path / f"talk{suffix}"
    report = embed(h264_video, list(_tracks(tmp_path)), out)
    streams, cues, first_picture = _read_back(out)
    assert [s[0] for s in streams] == ["video", "audio", "subtitle", "subtitle"]
    subtitles = [s for s in streams if s[0] == "subtitle"]
    assert {s[1] for s in subtitles} == {"srt" if codec == "subrip" else codec}
    assert [(s[2], s[3], s[4]) for s in subtitles] == [("chi", "中文", True), ("eng", "English", False)]
    assert report.cues_written == [2, 2] and report.notes == []
    # Times as in the SRT, counted from the picture's start (a muxer may shift the whole file alike).
    shift = first_picture
    zh, en = (cues[i] for i in sorted(cues))
    assert [(round(a - shift, 3), round(b - shift, 3), t) for a, b, t in zh] == [
        (a, b, t) for a, b, t in CHINESE]
    assert [(round(a - shift, 3), round(b - shift, 3), t) for a, b, t in en] == ENGLISH


def test_webm_holds_webvtt_tracks_with_the_text_escaped_as_webvtt_asks(tmp_path, vp9_video):
    out = tmp_path / "clip.webm"
    embed(vp9_video, [_tracks(tmp_path)[1]], out)
    streams, cues, first_picture = _read_back(out)
    assert [s[:3] for s in streams if s[0] == "subtitle"] == [("subtitle", "webvtt", "eng")]
    texts = [t for t in next(iter(cues.values()))]
    assert [t[2] for t in texts] == ["Hello &amp; &lt;welcome&gt;", "Second line"]
    assert round(texts[0][0] - first_picture, 3) == 0.4


@pytest.mark.parametrize("suffix", [".mkv", ".mp4"])
def test_picture_and_sound_are_copied_packet_for_packet(tmp_path, h264_video, suffix):
    out = tmp_path / f"copy{suffix}"
    embed(h264_video, list(_tracks(tmp_path)), out)
    source, copy = _media_packets(h264_video), _media_packets(out)
    assert len(copy) == len(source)
    for kind in ("video", "audio"):
        assert [p for p in copy if p[0] == kind] == [p for p in source if p[0] == kind]


def test_cues_after_the_end_of_the_video_are_counted_and_the_rest_kept(tmp_path, h264_video):
    srt = write_srt(tmp_path / "long.srt", [*CHINESE, (3.5, 4.0, "之后"), (10.0, 11.0, "更晚")])
    report = embed(h264_video, [read_track(srt, "zh")], tmp_path / "out.mkv")
    assert report.cues_written == [2]
    assert len(report.notes) == 1 and report.notes[0].startswith("2 subtitle(s) of “long.srt” start after")
    _, cues, _ = _read_back(tmp_path / "out.mkv")
    assert [t for _, _, t in next(iter(cues.values()))] == ["大家好", "欢迎参加培训\n第二行"]


def test_a_transcript_of_another_recording_is_refused_and_nothing_is_written(tmp_path, h264_video):
    srt = write_srt(tmp_path / "other.srt", [(60.0, 61.0, "别的录音")])
    with pytest.raises(VideoError, match="probably belongs to another recording"):
        embed(h264_video, [read_track(srt)], tmp_path / "out.mkv")
    assert os.listdir(tmp_path) == ["other.srt"]


def test_a_container_that_cannot_hold_the_picture_says_so_and_offers_mkv(tmp_path, h264_video):
    with pytest.raises(VideoError, match=r"WebM cannot hold this video's picture \(H264\).*MKV"):
        embed(h264_video, [_tracks(tmp_path)[0]], tmp_path / "out.webm")
    assert not (tmp_path / "out.webm").exists()


def test_an_unknown_ending_names_the_endings_that_work(tmp_path, h264_video):
    with pytest.raises(VideoError, match=r"\.mkv, \.mp4, \.webm"):
        embed(h264_video, [_tracks(tmp_path)[0]], tmp_path / "out.avi")


def test_an_existing_file_is_never_replaced_without_asking(tmp_path, h264_video):
    out = tmp_path / "out.mkv"
    out.write_bytes(b"keep me")
    with pytest.raises(ExportExists):
        embed(h264_video, [_tracks(tmp_path)[0]], out)
    assert out.read_bytes() == b"keep me"
    embed(h264_video, [_tracks(tmp_path)[0]], out, overwrite=True)
    assert _read_back(out)[0][2][0] == "subtitle"


def test_the_video_cannot_be_saved_over_itself(tmp_path, h264_video):
    with pytest.raises(VideoError, match="over itself"):
        embed(h264_video, [_tracks(tmp_path)[0]], h264_video, overwrite=True)


def test_cancelling_leaves_no_file_and_no_temporary_file(tmp_path, h264_video):
    out_dir = tmp_path / "out"
    out_dir.mkdir()
    with pytest.raises(Cancelled):
        embed(h264_video, [_tracks(tmp_path)[0]], out_dir / "out.mkv", cancelled=lambda: True)
    assert os.listdir(out_dir) == []


def test_a_file_that_is_not_a_video_gets_a_sentence(tmp_path):
    fake = tmp_path / "notes.mp4"
    fake.write_text("not a video at all " * 50)
    with pytest.raises(VideoError, match="cannot read “notes.mp4” as a video"):
        embed(fake, [_tracks(tmp_path)[0]], tmp_path / "out.mkv")
    assert not (tmp_path / "out.mkv").exists()


def test_a_sound_only_file_has_no_picture_to_put_subtitles_on(tmp_path):
    from tests.helpers.videos import SPEECH

    with pytest.raises(VideoError, match="has no picture"):
        embed(SPEECH, [_tracks(tmp_path)[0]], tmp_path / "out.mkv")


def test_a_picture_that_cannot_be_decoded_gets_a_sentence(tmp_path):
    broken = tmp_path / "broken.mkv"
    with av.open(str(broken), "w") as out:
        stream = out.add_mux_stream("mjpeg", width=320, height=240)
        stream.time_base = Fraction(1, 25)
        for i in range(30):
            packet = av.Packet(bytes((i * 37 + k) % 251 for k in range(400)))
            packet.pts = packet.dts = i
            packet.time_base = stream.time_base
            packet.stream = stream
            out.mux(packet)
    with pytest.raises(VideoError, match="cannot decode"):
        embed(broken, [_tracks(tmp_path)[0]], tmp_path / "out.mkv")


def test_a_fifo_is_refused_without_waiting_on_it(tmp_path):
    fifo = tmp_path / "video.mp4"
    os.mkfifo(fifo)
    with pytest.raises(VideoError):
        embed(fifo, [_tracks(tmp_path)[0]], tmp_path / "out.mkv")


def test_a_broken_subtitle_file_names_its_line(tmp_path):
    bad = tmp_path / "bad.srt"
    bad.write_text("1\n00:00:01,000 --> 00:00:02,000\nfine\n\n2\n00:00:05,000 --> 00:00:03,000\nends before it starts\n", encoding="utf-8")
    with pytest.raises(SubtitleFileError, match="line 6 of “bad.srt”"):
        read_track(bad)


def test_a_language_that_is_no_code_gets_a_sentence(tmp_path):
    with pytest.raises(VideoError, match="not a language code"):
        read_track(write_srt(tmp_path / "a.srt", CHINESE), "Chinese!")


@pytest.mark.parametrize("code", [errno.EROFS, errno.EACCES])
def test_a_read_only_folder_asks_for_another_folder(tmp_path, h264_video, monkeypatch, code):
    import desktop.core.common.atomic as atomic

    real_open = os.open

    def refusing(path, flags, *args):
        if str(path).startswith(str(tmp_path / "out")) and flags & os.O_CREAT:
            raise OSError(code, os.strerror(code), str(path))
        return real_open(path, flags, *args)

    (tmp_path / "out").mkdir()
    monkeypatch.setattr(atomic.os, "open", refusing)
    with pytest.raises(ExportError, match="cannot write to the folder"):
        embed(h264_video, [_tracks(tmp_path)[0]], tmp_path / "out" / "talk.mkv")
    assert os.listdir(tmp_path / "out") == []


def test_a_disk_that_fills_up_while_writing_leaves_nothing(tmp_path, h264_video):
    """The file-size limit makes the write fail half-way, as a full disk would (EFBIG, not ENOSPC: a
    test cannot fill a real disk)."""
    srt = write_srt(tmp_path / "a.srt", CHINESE)
    out_dir = tmp_path / "out"
    out_dir.mkdir()
    script = textwrap.dedent(f"""
        import resource, signal
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (8000, 8000))
        from desktop.core.common.errors import ExportError
        from desktop.core.video.soft_subtitles import embed, read_track
        try:
            embed({str(h264_video)!r}, [read_track({str(srt)!r}, "zh")], {str(out_dir / "talk.mkv")!r})
        except ExportError as error:
            print(error.message)
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120,
                          env=dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parents[3])))
    assert done.returncode == 0, done.stderr
    assert "cannot hold a file as large as “talk.mkv”" in done.stdout
    assert os.listdir(out_dir) == []
