"""Editing a line's speaker: a list of the transcript's speakers, and "New speaker"."""
from __future__ import annotations

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtWidgets import QComboBox, QStyledItemDelegate, QStyleOptionViewItem, QWidget

from desktop.ui.transcribe.editor.segments_model import SegmentsModel
from desktop.ui.transcribe.editor.speaker_colours import speaker_colour


class SpeakerDelegate(QStyledItemDelegate):
    """For the Speaker column of a view on SegmentsModel (directly or through a proxy)."""

    def __init__(self, segments: SegmentsModel, parent=None):
        super().__init__(parent)
        self._segments = segments

    def createEditor(self, parent: QWidget, option: QStyleOptionViewItem,
                     index: QModelIndex | QPersistentModelIndex) -> QWidget:
        combo = QComboBox(parent)
        for number, name in self._segments.speaker_choices():
            combo.addItem(name, number)
            combo.setItemData(combo.count() - 1, speaker_colour(number), Qt.ItemDataRole.BackgroundRole)
        combo.addItem(self.tr("New speaker"), SegmentsModel.NEW_SPEAKER)
        # A choice is taken at once, without waiting for the editor to lose focus.
        combo.activated.connect(lambda _index: self.commitData.emit(combo))
        return combo

    def setEditorData(self, editor: QWidget, index: QModelIndex | QPersistentModelIndex) -> None:
        position = editor.findData(index.data(Qt.ItemDataRole.EditRole))
        editor.setCurrentIndex(max(position, 0))

    def setModelData(self, editor: QWidget, model, index: QModelIndex | QPersistentModelIndex) -> None:
        model.setData(index, editor.currentData(), Qt.ItemDataRole.EditRole)
