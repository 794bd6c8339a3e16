"""Reading glossary files: the format, and files that are not what they claim to be."""
import os
from pathlib import Path

import pytest

from desktop.core.glossary.glossary_file import GlossaryError, all_terms, load_glossaries, read_glossary


def write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def test_terms_misheard_spellings_and_comments(tmp_path):
    path = write(tmp_path / "office.txt",
                 "# the office's words\n太乙真人\nVoxDesk\tbox desk, vox desk\n\n  城市  # cities\n")
    glossary = read_glossary(path)
    assert glossary.name == "office"
    assert [term.text for term in glossary.terms] == ["太乙真人", "VoxDesk", "城市"]
    assert glossary.terms[1].misheard == ("box desk", "vox desk")
    assert glossary.terms[0].misheard == ()


def test_a_term_listed_twice_is_kept_once_with_all_its_spellings(tmp_path):
    path = write(tmp_path / "g.txt", "VoxDesk\tbox desk\nVoxDesk\tvox desk\n")
    (term,) = read_glossary(path).terms
    assert term.misheard == ("box desk", "vox desk")


def test_a_file_that_is_not_utf8_names_the_file_and_line(tmp_path):
    path = tmp_path / "legacy.txt"
    path.write_bytes("城市\n".encode("utf-8") + "太乙真人\n".encode("gb18030"))
    with pytest.raises(GlossaryError) as caught:
        read_glossary(path)
    assert "legacy.txt" in caught.value.message and "2" in caught.value.message


def test_a_million_lines_is_refused_without_reading_it_all(tmp_path):
    path = tmp_path / "huge.txt"
    path.write_text("term\n" * 1_000_000, encoding="utf-8")
    with pytest.raises(GlossaryError) as caught:
        read_glossary(path)
    assert "huge.txt" in caught.value.message


def test_a_term_of_ten_thousand_characters_names_its_line(tmp_path):
    path = write(tmp_path / "long.txt", "城市\n太乙真人\n" + "长" * 10_000 + "\n")
    with pytest.raises(GlossaryError) as caught:
        read_glossary(path)
    assert "long.txt" in caught.value.message and "3" in caught.value.message


def test_a_named_pipe_is_refused_without_blocking(tmp_path):
    path = tmp_path / "pipe.txt"
    os.mkfifo(path)
    with pytest.raises(GlossaryError) as caught:
        read_glossary(path)
    assert "pipe.txt" in caught.value.message


def test_a_folder_is_refused(tmp_path):
    path = tmp_path / "folder.txt"
    path.mkdir()
    with pytest.raises(GlossaryError) as caught:
        read_glossary(path)
    assert "folder.txt" in caught.value.message


def test_a_link_is_refused(tmp_path):
    target = write(tmp_path / "private.txt", "secret\n")
    link = tmp_path / "link.txt"
    link.symlink_to(target)
    with pytest.raises(GlossaryError) as caught:
        read_glossary(link)
    assert "link.txt" in caught.value.message


def test_a_missing_file_names_it(tmp_path):
    with pytest.raises(GlossaryError) as caught:
        read_glossary(tmp_path / "gone.txt")
    assert "gone.txt" in caught.value.message


def test_a_bad_glossary_is_left_out_and_the_good_ones_are_kept(tmp_path):
    good = write(tmp_path / "good.txt", "城市\n")
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"\xff\xfe\x00broken\n")
    glossaries, problems = load_glossaries([bad, good])
    assert [g.name for g in glossaries] == ["good"]
    assert len(problems) == 1 and "bad.txt" in problems[0]


def test_a_hash_inside_a_term_is_part_of_it_and_only_one_after_a_space_starts_a_comment(tmp_path):
    path = write(tmp_path / "languages.txt",
                 "# programming languages\nC#\tsee sharp, c sharp  # Microsoft's\nF#\teff sharp\nC++\t#not a spelling\n"
                 "Objective-C # the old one\n")
    glossary = read_glossary(path)
    assert [(t.text, t.misheard) for t in glossary.terms] == [
        ("C#", ("see sharp", "c sharp")), ("F#", ("eff sharp",)), ("C++", ()), ("Objective-C", ())]
    assert glossary.notes == ()


def test_a_term_without_letters_is_left_out_with_a_sentence_naming_its_line_and_the_rest_is_used(tmp_path):
    path = write(tmp_path / "office.txt", "城市\n...\n2024\nVoxDesk\t--, vox desk\n")
    glossaries, problems = load_glossaries([path])
    (glossary,) = glossaries
    assert [(t.text, t.misheard) for t in glossary.terms] == [("城市", ()), ("VoxDesk", ("vox desk",))]
    assert len(problems) == 3
    assert all("office.txt" in problem for problem in problems)
    assert "line 2" in problems[0] and "“...”" in problems[0]
    assert "line 3" in problems[1] and "“2024”" in problems[1]
    assert "line 4" in problems[2] and "“--”" in problems[2]


def test_a_term_in_other_letter_case_is_merged_into_the_first_with_a_sentence(tmp_path):
    path = write(tmp_path / "products.txt", "VoxDesk\tbox desk\nvoxdesk\tvox desk\nVOXDESK\tBox Desk\n城市\n")
    glossaries, problems = load_glossaries([path])
    assert [(t.text, t.misheard) for t in glossaries[0].terms] == [("VoxDesk", ("box desk", "vox desk", "Box Desk")),
                                                                   ("城市", ())]
    assert len(problems) == 2
    assert "line 2" in problems[0] and "“voxdesk”" in problems[0] and "“VoxDesk”" in problems[0]
    assert "line 3" in problems[1] and "“VOXDESK”" in problems[1]


def test_a_term_two_glossaries_write_in_other_letter_case_is_one_term_written_as_the_first(tmp_path):
    first = write(tmp_path / "it.txt", "VoxDesk\tbox desk\n")
    second = write(tmp_path / "sales.txt", "Voxdesk\tvox desk\n城市\n")
    glossaries, problems = load_glossaries([first, second])
    assert [(t.text, t.misheard) for t in all_terms(glossaries)] == [("VoxDesk", ("box desk", "vox desk")),
                                                                     ("城市", ())]
    (problem,) = problems
    assert "“Voxdesk”" in problem and "“sales”" in problem and "“it”" in problem
