"""`voxdesk subtitles embed` and `burn` on a video made here, read back with PyAV."""
import os

import av
import numpy as np
import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from desktop.__main__ import main  # noqa: E402
from tests.helpers.videos import make_video, write_srt  # noqa: E402

ZH = [(0.5, 1.5, "大家好，欢迎参加培训")]
EN = [(0.4, 1.2, "Hello everyone")]


@pytest.fixture(scope="module")
def video(tmp_path_factory):
    return make_video(tmp_path_factory.mktemp("video") / "talk.mp4")


def test_embed_puts_each_file_in_as_a_track_with_its_language(tmp_path, video, capsys):
    zh, en = write_srt(tmp_path / "zh.srt", ZH), write_srt(tmp_path / "en.srt", EN)
    out = tmp_path / "talk.mkv"
    assert main(["subtitles", "embed", str(video), str(zh), str(en), "-o", str(out), "--language", "zh,en"]) == 0
    assert "2 subtitle track(s)" in capsys.readouterr().err
    with av.open(str(out)) as f:
        assert [s.metadata.get("language") for s in f.streams.subtitles] == ["chi", "eng"]
        texts = [bytes(p).decode() for p in f.demux(f.streams.subtitles[0]) if p.size]
    assert texts == ["大家好，欢迎参加培训"]


def test_embed_refuses_to_replace_a_file_and_exits_2_with_a_sentence(tmp_path, video, capsys):
    out = tmp_path / "talk.mkv"
    out.write_bytes(b"mine")
    assert main(["subtitles", "embed", str(video), str(write_srt(tmp_path / "zh.srt", ZH)), "-o", str(out)]) == 2
    assert "already exists" in capsys.readouterr().err and out.read_bytes() == b"mine"


def test_embed_with_more_languages_than_files_exits_2(tmp_path, video, capsys):
    zh = write_srt(tmp_path / "zh.srt", ZH)
    assert main(["subtitles", "embed", str(video), str(zh), "-o", str(tmp_path / "o.mkv"), "--language", "zh,en"]) == 2
    assert "give one for each file" in capsys.readouterr().err
    assert not (tmp_path / "o.mkv").exists()


def test_burn_draws_the_chinese_cue_into_its_frames_only(tmp_path, video, capsys, qapp):
    # qapp: pytest-qt's QApplication, so that the command's own (a QGuiApplication) is not made in the
    # test process, where the widget tests after it need a QApplication.
    out = tmp_path / "burned.mp4"
    srt = write_srt(tmp_path / "zh.srt", ZH)
    assert main(["subtitles", "burn", str(video), str(srt), "-o", str(out), "--box", "--position", "top",
                 "--quality", "0"]) == 0
    assert "burned into 25 of 75 frames" in capsys.readouterr().err
    with av.open(str(video)) as a, av.open(str(out)) as b:
        pairs = list(zip(a.decode(video=0), b.decode(video=0)))
    changed = [(fa.time, np.abs(fa.to_ndarray(format="gray").astype(int) - fb.to_ndarray(format="gray")))
               for fa, fb in pairs]
    for at, diff in changed:
        rows = np.nonzero(diff.max(axis=1) > 8)[0]
        if 0.5 <= at < 1.5:
            assert rows.size and rows.max() < 240 // 2, at  # drawn, at the top
        else:
            assert not rows.size, at


def test_burn_of_a_file_that_is_no_video_exits_2_with_a_sentence(tmp_path, capsys, qapp):
    fake = tmp_path / "fake.mp4"
    fake.write_text("hello " * 100)
    srt = write_srt(tmp_path / "zh.srt", ZH)
    assert main(["subtitles", "burn", str(fake), str(srt), "-o", str(tmp_path / "o.mp4")]) == 2
    assert "cannot read “fake.mp4” as a video" in capsys.readouterr().err
    assert sorted(os.listdir(tmp_path)) == ["fake.mp4", "zh.srt"]
