"""How burned-in subtitles look, chosen in words (size, colour, outline or box, top or bottom, margin)
and turned into numbers relative to the picture, so that a preview and the full video agree at any size."""
from __future__ import annotations

from dataclasses import dataclass

from desktop.core.common.i18n import N_
from desktop.core.video.video_file import VideoError

SIZES = {"small": 0.045, "medium": 0.06, "large": 0.08}  # text height, share of the picture's height
COLOURS = {"white": (255, 255, 255), "yellow": (255, 220, 0), "cyan": (0, 230, 255)}
BACKGROUNDS = ("outline", "box")
POSITIONS = ("bottom", "top")
MARGINS = {"narrow": 0.03, "normal": 0.06, "wide": 0.1}  # the safe margin, share of the picture's size


@dataclass(frozen=True)
class BurnStyle:
    size: str = "medium"
    colour: str = "white"
    background: str = "outline"
    position: str = "bottom"
    margin: str = "normal"
    speaker_names: bool = True  # "Anna: …" in front of a cue with a speaker

    def __post_init__(self) -> None:
        for value, allowed, what in ((self.size, SIZES, "size"), (self.colour, COLOURS, "colour"),
                                     (self.background, BACKGROUNDS, "background"),
                                     (self.position, POSITIONS, "position"), (self.margin, MARGINS, "margin")):
            if value not in allowed:
                raise VideoError(N_("Video", "“{value}” is not a subtitle {what}; choose one of {choices}.").format(
                    value=value, what=what, choices=", ".join(allowed)))

    def text_height(self, picture_height: int) -> int:
        return max(8, round(SIZES[self.size] * picture_height))

    def margin_pixels(self, picture_size: int) -> int:
        return round(MARGINS[self.margin] * picture_size)

    def rgb(self) -> tuple[int, int, int]:
        return COLOURS[self.colour]
