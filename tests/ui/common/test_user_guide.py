"""Help → User guide: shipped with VoxDesk, shown offline in the interface's language, naming the
controls the window really has."""
from __future__ import annotations

import html
import re

import pytest
from PySide6.QtCore import QLocale
from PySide6.QtWidgets import QApplication

from desktop.resources import resource_path
from desktop.ui.common.user_guide import UserGuideDialog, guide_text

ENGLISH = QLocale(QLocale.Language.English, QLocale.Country.UnitedStates)
CHINESE = QLocale(QLocale.Language.Chinese, QLocale.Country.China)


def interface_words() -> tuple[set[str], set[str]]:
    """Every English text of the interface and its Chinese translation, without the & of shortcuts."""
    ts = resource_path("translations", "voxdesk_zh_CN.ts").read_text(encoding="utf-8")
    pairs = re.findall(r"<source>(.*?)</source>\s*<translation>(.*?)</translation>", ts, re.S)

    def plain(text: str) -> str:
        """Without shortcut marks, a label's colon or a value put in at the end ("… ({device})")."""
        text = re.sub(r"\(&\w\)|&(?=\w)", "", html.unescape(text))
        return re.sub(r"\s*[(（]\{\w+\}[)）]$|[:：]$", "", text)

    return {plain(source) for source, _ in pairs}, {plain(target) for _, target in pairs}


def named_controls(guide: str) -> list[str]:
    """The controls the guide names in bold, each step of a menu path on its own."""
    return [step.strip().rstrip(":：") for bold in re.findall(r"\*\*(.+?)\*\*", guide) for step in bold.split("→")]


@pytest.mark.parametrize("locale, heads", [
    (ENGLISH, ["Transcribe", "Live captions", "Synthesize", "Clone", "Without internet"]),
    (CHINESE, ["转写", "实时字幕", "语音合成", "声音克隆", "没有网络时"]),
])
def test_the_guide_covers_the_three_tabs_offline_models_and_live_captions(locale, heads):
    guide = guide_text(locale)
    titles = re.findall(r"^## (.+)$", guide, re.M)
    for head in heads:
        assert any(title.startswith(head) for title in titles), (head, titles)


@pytest.mark.parametrize("locale, which", [(ENGLISH, 0), (CHINESE, 1)])
def test_every_control_the_guide_names_is_one_the_window_shows(locale, which):
    words = interface_words()[which]
    missing = [name for name in named_controls(guide_text(locale)) if name not in words]
    assert missing == []


def test_help_opens_the_guide_in_the_interfaces_language(qtbot, window):
    assert window.guide_action in window.help_menu.actions()
    assert window.help_menu.actions()[0] is window.guide_action  # first, above Doctor and About
    window.guide_action.trigger()
    dialog = next(w for w in QApplication.topLevelWidgets() if isinstance(w, UserGuideDialog) and w.isVisible())
    assert dialog.windowTitle() == "VoxDesk user guide"
    text = dialog.browser.toPlainText()
    assert "Live captions" in text and "File → Import model…" in text
    assert "**" not in text  # shown as formatted text, not as Markdown source
    dialog.close()

    saved = QLocale()
    QLocale.setDefault(CHINESE)
    try:
        chinese = UserGuideDialog()
        qtbot.addWidget(chinese)
        assert "实时字幕" in chinese.browser.toPlainText()
    finally:
        QLocale.setDefault(saved)
