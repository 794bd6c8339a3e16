"""Language tags of subtitle tracks: containers store ISO 639-2 codes ("chi", "eng"); people and Whisper
say "zh", "en". A three-letter code is taken as written."""
from __future__ import annotations

import re

from desktop.core.common.i18n import N_
from desktop.core.video.video_file import VideoError

# ISO 639-1 -> ISO 639-2/B (the form Matroska asks for; FFmpeg's MP4 writer takes it too)
_THREE_LETTERS = {
    "zh": "chi", "en": "eng", "yue": "chi", "ja": "jpn", "ko": "kor", "fr": "fre", "de": "ger", "es": "spa",
    "pt": "por", "it": "ita", "ru": "rus", "ar": "ara", "hi": "hin", "th": "tha", "vi": "vie", "id": "ind",
    "ms": "may", "tr": "tur", "nl": "dut", "pl": "pol", "sv": "swe", "uk": "ukr", "el": "gre", "he": "heb",
    "fa": "per", "cs": "cze", "da": "dan", "fi": "fin", "no": "nor", "hu": "hun", "ro": "rum", "tl": "tgl",
}
# What a track is called in players' menus when no title is given
_NAMES = {"chi": "中文", "eng": "English", "jpn": "日本語", "kor": "한국어", "fre": "Français", "ger": "Deutsch",
          "spa": "Español", "por": "Português", "ita": "Italiano", "rus": "Русский"}


def track_language(code: str) -> str:
    """The ISO 639-2 code for a language written as "zh", "en", "zh-CN" or already "chi"."""
    text = code.strip().lower().replace("_", "-")
    base = text.split("-")[0]
    if base in _THREE_LETTERS:
        return _THREE_LETTERS[base]
    if re.fullmatch(r"[a-z]{3}", base):
        return base
    raise VideoError(N_("Video", "“{code}” is not a language code. Write it as two letters, like zh for Chinese or "
                                 "en for English.").format(code=code))


def track_title(language: str | None) -> str:
    """A track's name in players' menus, from its ISO 639-2 code."""
    return _NAMES.get(language or "", language or "Subtitles")
