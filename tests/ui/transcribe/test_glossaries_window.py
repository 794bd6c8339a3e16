"""Tools → Glossaries… and the choice of glossaries for the next files."""
from PySide6.QtCore import Qt

from desktop.ui.transcribe.glossary_dialog import GlossariesDialog
from desktop.ui.transcribe.glossary_picker import GlossaryPicker


def test_terms_are_added_and_removed_and_a_shared_glossary_is_read_only(qtbot, settings, tmp_path, monkeypatch):
    shared = tmp_path / "it"
    shared.mkdir()
    (shared / "products.txt").write_text("VoxDesk\tbox desk\n", encoding="utf-8")
    settings.set("glossaries/shared_folders", str(shared))
    library = settings.glossary_library()
    library.save("office", "城市\n")
    dialog = GlossariesDialog(library)
    qtbot.addWidget(dialog)
    names = [dialog.glossary_list.item(i).data(Qt.ItemDataRole.UserRole).name for i in range(dialog.glossary_list.count())]
    assert names == ["office", "products"]

    dialog.glossary_list.setCurrentRow(0)
    dialog.term_edit.setText("太乙真人")
    dialog.misheard_edit.setText("太以真人, 泰一真人")
    dialog.add_term()
    entry = dialog.selected()
    assert [(t.text, t.misheard) for t in library.read(entry).terms] == [("城市", ()), ("太乙真人", ("太以真人", "泰一真人"))]
    dialog.term_list.setCurrentRow(0)
    dialog.remove_term()
    assert [t.text for t in library.read(dialog.selected()).terms] == ["太乙真人"]

    dialog.glossary_list.setCurrentRow(1)
    assert dialog.selected().shared
    assert not dialog.add_term_button.isEnabled() and not dialog.remove_button.isEnabled()
    assert dialog.term_list.item(0).text().startswith("VoxDesk")


def test_the_chosen_glossaries_are_remembered_for_the_next_files(qtbot, settings):
    library = settings.glossary_library()
    office = library.save("office", "城市\n")
    library.save("other", "太乙真人\n")
    picker = GlossaryPicker(settings, "transcribe/glossaries")
    qtbot.addWidget(picker)
    picker.refresh()
    next(a for a in picker.menu().actions() if a.text() == "office").setChecked(True)
    again = GlossaryPicker(settings, "transcribe/glossaries")
    qtbot.addWidget(again)
    assert again.chosen_paths() == (str(office),)
    assert "office" in again.text()
    office.unlink()  # a glossary removed since is left out of the choice
    assert again.chosen_paths() == ()


def test_a_shared_glossary_folder_chosen_in_settings_is_listed(qtbot, settings, tmp_path):
    from desktop.ui.common.settings_dialog import SettingsDialog

    shared = tmp_path / "it-glossaries"
    shared.mkdir()
    (shared / "departments.txt").write_text("财务部\n", encoding="utf-8")
    dialog = SettingsDialog(settings)
    qtbot.addWidget(dialog)
    dialog.glossary_folders_box.add_folder(str(shared))
    dialog.accept()
    assert "glossaries/shared_folders" in dialog.changed()
    entries = settings.glossary_library().entries()
    assert [(e.name, e.shared) for e in entries] == [("departments", True)]


def test_a_term_added_in_other_letter_case_is_shown_merged_with_a_sentence(qtbot, settings):
    library = settings.glossary_library()
    library.save("office", "VoxDesk\n")
    dialog = GlossariesDialog(library)
    qtbot.addWidget(dialog)
    dialog.term_edit.setText("voxdesk")
    dialog.misheard_edit.setText("vox desk")
    dialog.add_term()
    shown = [dialog.term_list.item(i).text() for i in range(dialog.term_list.count())]
    assert shown[0] == "VoxDesk  ← vox desk"
    assert len(shown) == 2 and "“voxdesk”" in shown[1] and "line 2" in shown[1]
