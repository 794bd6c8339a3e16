"""A cue's text drawn as it is burned into a video, with Qt: QPainter on a QImage, so Chinese, mixed
Chinese and English and speakers' names come out in the system's fonts (Qt falls back to a CJK font
for characters the first font lacks), never as boxes.

QtGui only (QImage, QPainter, QFont: no widgets), so it runs off the window's thread: in the export
job's thread, in `voxdesk subtitles burn` (which starts a QGuiApplication without a screen), and for
the dialog's preview. The same painter draws the preview and the burned video.
"""
from __future__ import annotations

import os

import numpy as np
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QGuiApplication, QImage, QPainter, QPainterPath, QPen, QTextLayout

from desktop.core.transcription.subtitles import Cue
from desktop.core.video.burn import Overlay
from desktop.core.video.burn_style import BurnStyle

# The first that is installed draws Latin text; Qt finds a CJK font for Chinese itself, and these are asked
# first so that both scripts look alike.
_FAMILIES = ["Noto Sans CJK SC", "Source Han Sans SC", "WenQuanYi Micro Hei", "Microsoft YaHei", "PingFang SC",
             "Noto Sans", "DejaVu Sans", "Sans Serif"]
_BOX_ALPHA = 170  # the box behind the text: dark, letting a little of the picture through


def ensure_gui_application() -> None:
    """Fonts need a QGuiApplication; the command line has none, so one is started without a screen."""
    if QGuiApplication.instance() is None:
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
        global _APP
        _APP = QGuiApplication([])


class SubtitlePainter:
    """Turns a cue into the Overlay burn() blends: its lines wrapped to the safe area, outlined or boxed."""

    def __init__(self, style: BurnStyle):
        self.style = style

    def __call__(self, cue: Cue, width: int, height: int) -> Overlay | None:
        text = self.text_of(cue)
        if not text.strip():
            return None
        image, x, y = self.draw(text, width, height)
        rgba = np.frombuffer(image.constBits(), np.uint8).reshape(image.height(), image.bytesPerLine())
        rgba = rgba[:, :image.width() * 4].reshape(image.height(), image.width(), 4).copy()
        return Overlay(x, y, rgba)

    def text_of(self, cue: Cue) -> str:
        text = cue.text
        return f"{cue.speaker}: {text}" if self.style.speaker_names and cue.speaker else text

    def font(self, height: int) -> QFont:
        font = QFont()
        font.setFamilies(_FAMILIES)
        font.setPixelSize(self.style.text_height(height))
        font.setWeight(QFont.Weight.DemiBold)
        return font

    def lines(self, text: str, font: QFont, max_width: float) -> list[str]:
        """The text's lines as shown: its own line breaks kept, longer lines wrapped where Unicode allows
        (between words, and between Chinese characters)."""
        shown = []
        for paragraph in text.split("\n"):
            layout = QTextLayout(paragraph, font)
            layout.beginLayout()
            while True:
                line = layout.createLine()
                if not line.isValid():
                    break
                line.setLineWidth(max_width)
                shown.append(paragraph[line.textStart():line.textStart() + line.textLength()].strip())
            layout.endLayout()
        return [line for line in shown if line] or [text]

    def draw(self, text: str, width: int, height: int) -> tuple[QImage, int, int]:
        """The text on a transparent premultiplied RGBA image just large enough, and where it goes."""
        style = self.style
        font = self.font(height)
        metrics = QFontMetricsF(font)
        margin_x, margin_y = style.margin_pixels(width), style.margin_pixels(height)
        lines = self.lines(text, font, max(1.0, width - 2 * margin_x))
        outline = max(1.0, font.pixelSize() / 12)
        pad = outline * 2 if style.background == "outline" else font.pixelSize() * 0.3
        line_height = metrics.height()
        widths = [metrics.horizontalAdvance(line) for line in lines]
        box_width = min(width, int(max(widths) + 2 * pad + 2))
        box_height = min(height, int(line_height * len(lines) + 2 * pad + 2))
        x = max(0, (width - box_width) // 2)
        y = margin_y if style.position == "top" else max(0, height - margin_y - box_height)
        image = QImage(box_width, box_height, QImage.Format.Format_RGBA8888_Premultiplied)
        image.fill(Qt.GlobalColor.transparent)
        painter = QPainter(image)
        try:
            painter.setRenderHint(QPainter.RenderHint.Antialiasing)
            painter.setRenderHint(QPainter.RenderHint.TextAntialiasing)
            colour = QColor(*style.rgb())
            for number, (line, line_width) in enumerate(zip(lines, widths)):
                left = (box_width - line_width) / 2
                top = pad + number * line_height
                if style.background == "box":
                    painter.fillRect(QRectF(left - pad, top - (pad if number == 0 else 0), line_width + 2 * pad,
                                            line_height + (pad if number == 0 else 0)
                                            + (pad if number == len(lines) - 1 else 0)),
                                     QColor(0, 0, 0, _BOX_ALPHA))
                path = QPainterPath()
                path.addText(QPointF(left, top + metrics.ascent()), font, line)
                if style.background == "outline":
                    pen = QPen(QColor(0, 0, 0), outline * 2)
                    pen.setJoinStyle(Qt.PenJoinStyle.RoundJoin)
                    painter.strokePath(path, pen)
                painter.fillPath(path, colour)
        finally:
            painter.end()
        return image, x, y
