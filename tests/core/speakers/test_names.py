from desktop.core.speakers import names


def test_chinese_transcripts_get_a_full_width_colon_and_others_a_colon_and_space():
    assert names.prefix("张伟", chinese=True) == "张伟："
    assert names.prefix("Anna", chinese=False) == "Anna: "


def test_a_transcript_is_chinese_by_its_language_or_else_by_its_letters():
    assert names.is_chinese("zh") and names.is_chinese("yue")
    assert not names.is_chinese("en", "全是中文")
    assert names.is_chinese(None, "我们今天开会 ok")
    assert not names.is_chinese(None, "We meet today 好")
    assert not names.is_chinese(None, "")


def test_a_typed_name_becomes_one_clean_line_without_markup():
    assert names.clean_name("  Anna\n Smith ") == "Anna Smith"
    assert names.clean_name("<b>Bob</b>") == "bBob/b"
    assert names.clean_name("   ") == ""


def test_a_name_pasted_from_a_whole_document_is_cut_to_a_name():
    assert len(names.clean_name("Anna " * 1000)) <= names.MAX_NAME_CHARS
    assert names.clean_name("Anna " * 1000).startswith("Anna Anna")
