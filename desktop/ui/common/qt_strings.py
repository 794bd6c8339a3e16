"""Strings of Qt's own dialogs that Qt's Simplified Chinese translation leaves out or gets wrong.

They are marked here, in Qt's own contexts, so lupdate puts them into VoxDesk's .ts. VoxDesk's
translator is installed after Qt's and is asked first, so these fill the gaps in the file picker.
Nothing reads this tuple at run time; it exists for lupdate and to document the gaps.
"""
from desktop.core.common.i18n import N_

QT_TRANSLATION_GAPS = (
    N_("QFileDialog", "&Look in:"),  # missing from qtbase_zh_CN
    N_("QFileDialog", "Files of &type:"),  # missing from qtbase_zh_CN
    N_("QFileSystemModel", "Size"),  # qtbase_zh_CN says 体积 (volume) for a file's size
    # The Type column of Qt's own file picker (where the desktop has no picker of its own): missing from
    # qtbase_zh_CN. Qt asks with the note "All other platforms"; a translation without a note answers it.
    N_("QAbstractFileIconProvider", "Folder"),
    N_("QAbstractFileIconProvider", "Drive"),
)
