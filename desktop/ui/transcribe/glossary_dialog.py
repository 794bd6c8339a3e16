"""Tools → Glossaries…: the user's glossaries (add and remove terms, import a file) and the shared ones, read-only,
with the recordings each one was used for."""
from __future__ import annotations

from PySide6.QtCore import Qt, Slot
from PySide6.QtWidgets import (QDialog, QDialogButtonBox, QFileDialog, QHBoxLayout, QInputDialog, QLabel, QLineEdit,
                               QListWidget, QListWidgetItem, QMessageBox, QPushButton, QVBoxLayout, QWidget)

from desktop.core.common.errors import UserFacingError
from desktop.core.glossary.library import GlossaryEntry, GlossaryLibrary
from desktop.ui.common.i18n import translated


class GlossariesDialog(QDialog):
    def __init__(self, library: GlossaryLibrary, parent: QWidget | None = None):
        super().__init__(parent)
        self._library = library
        self.setWindowTitle(self.tr("Glossaries"))
        self.glossary_list = QListWidget()
        self.new_button = QPushButton(self.tr("&New…"))
        self.import_button = QPushButton(self.tr("&Import a file…"))
        self.remove_button = QPushButton(self.tr("&Remove"))
        self.term_list = QListWidget()
        self.term_edit = QLineEdit()
        self.term_edit.setPlaceholderText(self.tr("Term, spelled as it should be written"))
        self.misheard_edit = QLineEdit()
        self.misheard_edit.setPlaceholderText(self.tr("Optional: how Whisper mishears it, separated by commas"))
        self.add_term_button = QPushButton(self.tr("&Add term"))
        self.remove_term_button = QPushButton(self.tr("Remove &term"))
        self.uses_label = QLabel()
        self.uses_label.setWordWrap(True)
        self.uses_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)

        left = QVBoxLayout()
        left.addWidget(self.glossary_list, 1)
        for button in (self.new_button, self.import_button, self.remove_button):
            left.addWidget(button)
        adding = QHBoxLayout()
        adding.addWidget(self.term_edit, 2)
        adding.addWidget(self.misheard_edit, 3)
        adding.addWidget(self.add_term_button)
        right = QVBoxLayout()
        right.addWidget(self.term_list, 1)
        right.addLayout(adding)
        right.addWidget(self.remove_term_button, 0, Qt.AlignmentFlag.AlignRight)
        right.addWidget(self.uses_label)
        columns = QHBoxLayout()
        columns.addLayout(left, 1)
        columns.addLayout(right, 2)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(columns, 1)
        layout.addWidget(buttons)

        self.glossary_list.currentItemChanged.connect(self._show_selected)
        self.new_button.clicked.connect(self.new_glossary)
        self.import_button.clicked.connect(self.import_glossary)
        self.remove_button.clicked.connect(self.remove_glossary)
        self.add_term_button.clicked.connect(self.add_term)
        self.term_edit.returnPressed.connect(self.add_term)
        self.remove_term_button.clicked.connect(self.remove_term)
        self.reload()

    def selected(self) -> GlossaryEntry | None:
        item = self.glossary_list.currentItem()
        return item.data(Qt.ItemDataRole.UserRole) if item is not None else None

    def reload(self, select: str | None = None) -> None:
        current = select or (str(self.selected().path) if self.selected() else None)
        self.glossary_list.clear()
        for entry in self._library.entries():
            item = QListWidgetItem(entry.name + (" " + self.tr("(shared, read-only)") if entry.shared else ""))
            item.setData(Qt.ItemDataRole.UserRole, entry)
            self.glossary_list.addItem(item)
            if str(entry.path) == current:
                self.glossary_list.setCurrentItem(item)
        if self.glossary_list.currentItem() is None and self.glossary_list.count():
            self.glossary_list.setCurrentRow(0)
        self._show_selected()

    @Slot()
    def _show_selected(self) -> None:
        entry = self.selected()
        self.term_list.clear()
        editable = entry is not None and not entry.shared
        for widget in (self.remove_button, self.term_edit, self.misheard_edit, self.add_term_button,
                       self.remove_term_button):
            widget.setEnabled(editable)
        if entry is None:
            self.uses_label.clear()
            return
        try:
            glossary = self._library.read(entry)
        except UserFacingError as error:
            self.term_list.addItem(translated(error.message))
            self.remove_term_button.setEnabled(False)
        else:
            for term in glossary.terms:
                label = term.text + (f"  ← {', '.join(term.misheard)}" if term.misheard else "")
                item = QListWidgetItem(label)
                item.setData(Qt.ItemDataRole.UserRole, term.text)
                self.term_list.addItem(item)
            for note in glossary.notes:  # a line left out or merged: said where its terms are listed
                self.term_list.addItem(translated(note))
        sources = self._library.uses().get(entry.name, [])
        self.uses_label.setText(self.tr("Used for: {files}").replace("{files}", ", ".join(sources)) if sources
                                else self.tr("Not used for a transcript yet."))

    def _run(self, action) -> bool:
        try:
            action()
        except UserFacingError as error:
            QMessageBox.warning(self, self.tr("Glossaries"), translated(error.message))
            return False
        return True

    @Slot()
    def new_glossary(self) -> None:
        name, accepted = QInputDialog.getText(self, self.tr("New glossary"), self.tr("Name of the glossary:"))
        if accepted and name.strip() and self._run(lambda: self._library.save(name, "", overwrite=False)):
            self.reload(select=str(self._library.user_dir / (name.strip().removesuffix(".txt") + ".txt")))

    @Slot()
    def import_glossary(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, self.tr("Import a glossary"), "",
                                              self.tr("Glossaries (*.txt);;All files (*)"))
        imported = []
        if path and self._run(lambda: imported.append(self._library.import_file(path))):
            self.reload(select=str(imported[0]))

    @Slot()
    def remove_glossary(self) -> None:
        entry = self.selected()
        if entry is None:
            return
        answer = QMessageBox.question(self, self.tr("Remove glossary"),
                                      self.tr("Remove the glossary “{name}” and its terms?").replace("{name}", entry.name))
        if answer == QMessageBox.StandardButton.Yes and self._run(lambda: self._library.remove(entry)):
            self.reload()

    @Slot()
    def add_term(self) -> None:
        entry, term = self.selected(), self.term_edit.text().strip()
        if entry is None or not term:
            return
        misheard = self.misheard_edit.text().split(",")
        if self._run(lambda: self._library.add_term(entry.name, term, misheard)):
            self.term_edit.clear()
            self.misheard_edit.clear()
            self.reload()

    @Slot()
    def remove_term(self) -> None:
        entry, item = self.selected(), self.term_list.currentItem()
        term = item.data(Qt.ItemDataRole.UserRole) if item is not None else None
        if entry is not None and term and self._run(lambda: self._library.remove_term(entry.name, term)):
            self.reload()
