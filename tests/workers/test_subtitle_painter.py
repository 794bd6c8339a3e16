"""The subtitle painter: Chinese drawn with real glyphs, the style's words honoured, and no widgets."""
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from desktop.core.transcription.subtitles import Cue  # noqa: E402
from desktop.core.video.burn_style import BurnStyle  # noqa: E402
from desktop.core.video.video_file import VideoError  # noqa: E402
from desktop.workers.subtitle_painter import SubtitlePainter, ensure_gui_application  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def gui(qapp):
    """pytest-qt's QApplication: one made here by the painter would be a QGuiApplication, on which the
    widget tests run later in this process could not build a widget."""
    ensure_gui_application()  # finds it and leaves it


def _alpha(overlay):
    return overlay.rgba[..., 3]


def test_chinese_characters_are_drawn_as_glyphs_not_boxes():
    """A missing glyph is the same empty box for every character; real glyphs differ from each other."""
    painter = SubtitlePainter(BurnStyle(background="outline"))
    shapes = [_alpha(painter(Cue(0, 1, [ch]), 1280, 720)) for ch in "大家好培训"]
    assert all(shape.max() == 255 for shape in shapes)
    flat = [shape.astype(int) for shape in shapes]
    for i in range(len(flat)):
        for j in range(i + 1, len(flat)):
            if flat[i].shape == flat[j].shape:
                assert np.abs(flat[i] - flat[j]).sum() > flat[i].size * 5


def test_mixed_chinese_and_english_with_a_speaker_fits_inside_the_safe_margin():
    style = BurnStyle(margin="wide")
    overlay = SubtitlePainter(style)(Cue(0, 1, ["王经理：大家好，欢迎参加今天的 VoxDesk 培训，我们从安装开始讲起"],
                                         speaker="王经理"), 640, 360)
    height, width = overlay.rgba.shape[:2]
    margin = style.margin_pixels(640)
    assert width <= 640 - 2 * margin + 2 * (style.text_height(360) * 0.3) + 2
    assert overlay.y + height <= 360 - style.margin_pixels(360)
    assert height > style.text_height(360) * 2  # wrapped onto more than one line


def test_top_and_bottom_and_box_place_and_fill_as_chosen():
    cue = Cue(0, 1, ["Hello"])
    bottom = SubtitlePainter(BurnStyle(position="bottom"))(cue, 640, 360)
    top = SubtitlePainter(BurnStyle(position="top"))(cue, 640, 360)
    assert top.y < 360 // 4 < 360 // 2 < bottom.y
    boxed = SubtitlePainter(BurnStyle(background="box"))(cue, 640, 360)
    outlined = SubtitlePainter(BurnStyle(background="outline"))(cue, 640, 360)
    assert (_alpha(boxed) > 0).mean() > 0.9 > (_alpha(outlined) > 0).mean()


def test_larger_size_draws_larger_text():
    cue = Cue(0, 1, ["大家好"])
    small = SubtitlePainter(BurnStyle(size="small"))(cue, 1280, 720)
    large = SubtitlePainter(BurnStyle(size="large"))(cue, 1280, 720)
    assert large.rgba.shape[0] > small.rgba.shape[0] * 1.4


def test_an_empty_cue_draws_nothing():
    assert SubtitlePainter(BurnStyle())(Cue(0, 1, [" "]), 640, 360) is None


def test_a_style_word_that_is_not_offered_gets_a_sentence():
    with pytest.raises(VideoError, match="“purple” is not a subtitle colour"):
        BurnStyle(colour="purple")


def test_importing_the_painter_loads_no_widgets():
    """The contract import-linter cannot state (PySide6.QtWidgets is a part of an outside package)."""
    done = subprocess.run([sys.executable, "-c", "import sys, desktop.workers.subtitle_painter;"
                           "print('PySide6.QtWidgets' in sys.modules)"], cwd=ROOT, capture_output=True, text=True,
                          timeout=120, env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "False"
