"""The user's glossaries and the shared, read-only ones."""
import os

import pytest

from desktop.core.common.errors import UserFacingError
from desktop.core.glossary.library import GlossaryLibrary, shared_glossary_dirs


def test_shared_folders_come_from_settings_then_the_environment_then_the_system(tmp_path):
    chosen, from_env, system = (tmp_path / n for n in ("chosen", "env", "system"))
    for folder in (chosen, from_env, system):
        folder.mkdir()
    found = shared_glossary_dirs([str(chosen)], environ={"VOXDESK_GLOSSARY_DIRS": f"{from_env}{os.pathsep}/nowhere"},
                                 system_folder=system)
    assert found == (chosen, from_env, system)


def test_a_shared_glossary_is_listed_read_and_cannot_be_removed(tmp_path):
    shared = tmp_path / "it"
    shared.mkdir()
    (shared / "products.txt").write_text("VoxDesk\tbox desk\n", encoding="utf-8")
    os.chmod(shared, 0o555)
    library = GlossaryLibrary(tmp_path / "mine", [shared])
    (entry,) = library.entries()
    assert entry.shared and entry.name == "products"
    assert [t.text for t in library.read(entry).terms] == ["VoxDesk"]
    with pytest.raises(UserFacingError):
        library.remove(entry)
    assert (shared / "products.txt").exists()


def test_add_remove_import_and_uses(tmp_path):
    library = GlossaryLibrary(tmp_path / "mine")
    library.add_term("office", "太乙真人")
    library.add_term("office", "VoxDesk", ["box desk"])
    library.remove_term("office", "太乙真人")
    (entry,) = library.entries()
    assert [(t.text, t.misheard) for t in library.read(entry).terms] == [("VoxDesk", ("box desk",))]
    outside = tmp_path / "names.txt"
    outside.write_text("城市\n", encoding="utf-8")
    library.import_file(outside)
    assert [e.name for e in library.entries()] == ["names", "office"]
    library.record_use(["office", "names"], "/recordings/a.wav")
    library.record_use(["office"], "/recordings/b.wav")
    assert library.uses() == {"office": ["/recordings/a.wav", "/recordings/b.wav"], "names": ["/recordings/a.wav"]}
    library.remove(library.entries()[0])
    assert [e.name for e in library.entries()] == ["office"]


def test_a_link_in_a_shared_folder_is_not_listed(tmp_path):
    shared = tmp_path / "it"
    shared.mkdir()
    secret = tmp_path / "secret.txt"
    secret.write_text("x\n", encoding="utf-8")
    (shared / "link.txt").symlink_to(secret)
    assert GlossaryLibrary(tmp_path / "mine", [shared]).entries() == []


def test_a_name_with_a_slash_is_refused(tmp_path):
    with pytest.raises(UserFacingError):
        GlossaryLibrary(tmp_path / "mine").add_term("../escape", "x")


def test_removing_a_term_removes_its_lines_in_other_letter_case_and_keeps_a_hash_term(tmp_path):
    library = GlossaryLibrary(tmp_path / "mine")
    library.save("office", "VoxDesk\tbox desk\nC#\nvoxdesk\tvox desk\nC++\n")
    library.remove_term("office", "VoxDesk")
    library.remove_term("office", "C++")
    (entry,) = library.entries()
    assert [(t.text, t.misheard) for t in library.read(entry).terms] == [("C#", ())]
    assert (tmp_path / "mine" / "office.txt").read_text(encoding="utf-8") == "C#\n"


def test_a_term_without_letters_is_refused_with_a_sentence(tmp_path):
    library = GlossaryLibrary(tmp_path / "mine")
    with pytest.raises(UserFacingError) as caught:
        library.add_term("office", "!!!")
    assert "“!!!”" in caught.value.message
    assert library.entries() == []
