"""A string moved to another class keeps its Chinese translation; a new string stays unfinished."""
from desktop.ui.common.translation_memory import carry_over, finished_translations

BEFORE = """<context>
    <name>CloneTab</name>
    <message>
        <source>Read aloud:</source>
        <translation>请朗读：</translation>
    </message>
    <message>
        <source>Half done</source>
        <translation type="unfinished">半</translation>
    </message>
</context>"""

AFTER_LUPDATE = """<context>
    <name>SampleStep</name>
    <message>
        <source>Read aloud:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A new sentence</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Half done</source>
        <translation type="unfinished"></translation>
    </message>
</context>"""


def test_a_moved_string_gets_its_finished_translation_back_and_nothing_else_changes():
    known = finished_translations(BEFORE)
    assert known == {"Read aloud:": "请朗读："}  # an unfinished translation is not a translation

    text, filled = carry_over(AFTER_LUPDATE, known)

    assert filled == 1
    assert "<source>Read aloud:</source>\n        <translation>请朗读：</translation>" in text
    assert text.count('<translation type="unfinished"></translation>') == 2
