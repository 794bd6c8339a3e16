import pytest

from tests.helpers.videos import make_video


@pytest.fixture(scope="session")
def h264_video(tmp_path_factory):
    """3 s, 320×240, 25 fps H.264 with AAC speech, in MP4."""
    return make_video(tmp_path_factory.mktemp("videos") / "talk.mp4")


@pytest.fixture(scope="session")
def vp9_video(tmp_path_factory):
    """2 s, 160×120 VP9 with Opus speech, in WebM."""
    return make_video(tmp_path_factory.mktemp("videos") / "clip.webm", seconds=2, width=160, height=120,
                      video_codec="libvpx-vp9", audio_codec="libopus")
