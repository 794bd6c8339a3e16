"""The one "replace this file?" question every tab asks before writing over a file."""
from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QMessageBox, QWidget

_SHOWN_NAMES = 8
translate = QCoreApplication.translate


def ask_replace(parent: QWidget | None, paths: list[Path]) -> bool:
    """Ask before replacing existing files; True to replace them, False to keep them."""
    if not paths:
        return True
    if len(paths) == 1:
        text = translate("ReplacePrompt", "“{name}” already exists in {folder}. Replace it?").format(
            name=paths[0].name, folder=paths[0].parent)
    else:
        names = "\n".join(f"• {p.name}" for p in paths[:_SHOWN_NAMES])
        if len(paths) > _SHOWN_NAMES:
            names += "\n" + translate("ReplacePrompt", "…and {count} more").format(count=len(paths) - _SHOWN_NAMES)
        text = translate("ReplacePrompt", "These files already exist:\n{names}\n\nReplace them?").format(names=names)
    box = QMessageBox(QMessageBox.Icon.Question, translate("ReplacePrompt", "Replace existing files?"), text,
                      QMessageBox.StandardButton.NoButton, parent)
    replace = box.addButton(translate("ReplacePrompt", "Replace"), QMessageBox.ButtonRole.DestructiveRole)
    box.addButton(translate("ReplacePrompt", "Keep the existing files"), QMessageBox.ButtonRole.RejectRole)
    box.setDefaultButton(replace)
    box.exec()
    return box.clickedButton() is replace
