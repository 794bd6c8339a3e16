"""The question asked before files with a saved transcript are taken off the list."""
from __future__ import annotations

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QMessageBox, QWidget

translate = QCoreApplication.translate


def ask_keep_transcripts(parent: QWidget | None, names: list[str], changed: list[str] = ()) -> bool | None:
    """True: keep the saved transcripts (for File → Recent transcripts); False: delete them;
    None: the user cancelled, remove nothing. changed: those of names changed since their last export."""
    if len(names) == 1:
        text = translate("RemovePrompt", "“{name}” is taken off the list. Keep its saved transcript, so that "
                                         "File → Recent transcripts can open it again, or delete it?").format(
            name=names[0])
    else:
        text = translate("RemovePrompt", "{count} files are taken off the list. Keep their saved transcripts, "
                                         "so that File → Recent transcripts can open them again, or delete them?")
        text = text.format(count=len(names))
    if changed:
        text += "\n\n" + translate("RemovePrompt", "Changed since the last export: {names}.").format(
            names=", ".join(f"“{name}”" for name in changed))
    box = QMessageBox(QMessageBox.Icon.Question, translate("RemovePrompt", "Keep the saved transcripts?"), text,
                      QMessageBox.StandardButton.NoButton, parent)
    keep = box.addButton(translate("RemovePrompt", "Keep"), QMessageBox.ButtonRole.AcceptRole)
    delete = box.addButton(translate("RemovePrompt", "Delete"), QMessageBox.ButtonRole.DestructiveRole)
    box.addButton(QMessageBox.StandardButton.Cancel)
    box.setDefaultButton(keep)
    box.exec()
    clicked = box.clickedButton()
    if clicked is keep:
        return True
    if clicked is delete:
        return False
    return None
