"""The correction pass: glossary terms heard as near-misses become the term, correct text stays."""
import json
import random

from desktop.core.glossary import correction
from desktop.core.glossary.correction import Corrector, correct
from desktop.core.glossary.glossary_file import Term
from desktop.core.transcription.transcript import Segment, Transcript, Word


def chinese_segment(*pieces: tuple[str, float]) -> Segment:
    """A segment whose words are the pieces, with Whisper's probability for each."""
    words = [Word(start=i * 0.3, end=(i + 1) * 0.3, text=text, probability=p) for i, (text, p) in enumerate(pieces)]
    return Segment(start=0.0, end=len(pieces) * 0.3, text="".join(t for t, _ in pieces), words=words)


def test_a_term_misheard_as_a_homophone_is_corrected_and_the_original_kept():
    segment = chinese_segment(("一二", 0.9), ("线", 0.9), ("尝试", 0.31), ("。", 0.9))
    transcript = Transcript(segments=[segment], language="zh")
    report = correct(transcript, [Term("城市")])
    assert segment.text == "一二线城市。"
    assert report.replacements == 1
    (correction,) = segment.corrections
    assert (correction.original, correction.term) == ("尝试", "城市")
    assert segment.text[correction.start:correction.end] == "城市"
    assert "".join(w.text for w in segment.words) == segment.text


def test_same_syllables_other_characters_are_corrected():
    transcript = Transcript(segments=[Segment(0, 2, "我最喜欢太以真人。")], language="zh")
    correct(transcript, [Term("太乙真人")])
    assert transcript.segments[0].text == "我最喜欢太乙真人。"


def test_a_confused_initial_is_corrected_at_a_cost():
    transcript = Transcript(segments=[Segment(0, 2, "万人情仰的英雄")], language="zh")
    correct(transcript, [Term("万人敬仰")])
    assert transcript.segments[0].text == "万人敬仰的英雄"


def test_a_correct_word_that_sounds_like_a_term_is_left_alone():
    sure = chinese_segment(("我们", 0.95), ("尝试", 0.93), ("一下", 0.96))
    long_time = Segment(0, 2, "我们等了很长时间")  # 长时 sounds like 城市 but is part of 长时间
    transcript = Transcript(segments=[sure, long_time], language="zh")
    report = correct(transcript, [Term("城市")])
    assert (sure.text, long_time.text) == ("我们尝试一下", "我们等了很长时间")
    assert report.replacements == 0 and not sure.corrections


def test_latin_terms_by_case_spacing_and_listed_spellings():
    segment = Segment(0, 3, " We installed vox desk and then Box Desk on the voxdesk server.")
    transcript = Transcript(segments=[segment], language="en")
    correct(transcript, [Term("VoxDesk", ("box desk",))])
    assert segment.text == " We installed VoxDesk and then VoxDesk on the VoxDesk server."
    assert [c.original for c in segment.corrections] == ["vox desk", "Box Desk", "voxdesk"]


def test_a_confident_english_word_near_a_term_stays():
    words = [Word(0, 1, " Call", 0.9), Word(1, 2, " Marian", 0.95), Word(2, 3, " now.", 0.9)]
    segment = Segment(0, 3, " Call Marian now.", words=words)
    correct(Transcript(segments=[segment]), [Term("Marion")])
    assert segment.text == " Call Marian now."


def test_an_unsure_english_word_near_a_term_is_corrected():
    words = [Word(0, 1, " Ask", 0.9), Word(1, 2, " Kubernetis", 0.2), Word(2, 3, " first.", 0.9)]
    segment = Segment(0, 3, " Ask Kubernetis first.", words=words)
    correct(Transcript(segments=[segment]), [Term("Kubernetes")])
    assert segment.text == " Ask Kubernetes first."


def test_corrections_are_undone_one_by_one_or_all_at_once():
    first = Segment(0, 2, "太以真人去了一二线尝试，太以真人")
    second = Segment(2, 4, "vox desk")
    transcript = Transcript(segments=[first, second])
    correct(transcript, [Term("太乙真人"), Term("VoxDesk", ("vox desk",))])
    assert first.text == "太乙真人去了一二线尝试，太乙真人"
    assert len(first.corrections) == 2
    transcript.undo_correction(0, 0)
    assert first.text == "太以真人去了一二线尝试，太乙真人"
    (left,) = first.corrections
    assert first.text[left.start:left.end] == "太乙真人"
    assert transcript.undo_all_corrections() == 2
    assert (first.text, second.text) == ("太以真人去了一二线尝试，太以真人", "vox desk")


def test_the_json_export_lists_the_replacements_and_reads_them_back():
    transcript = Transcript(segments=[Segment(0, 2, "太以真人"), Segment(2, 3, "没有")], glossaries=["office"])
    correct(transcript, [Term("太乙真人")])
    data = json.loads(json.dumps(transcript.to_dict(), ensure_ascii=False))
    assert data["segments"][0]["corrections"] == [{"start": 0, "end": 4, "original": "太以真人", "term": "太乙真人"}]
    assert "corrections" not in data["segments"][1]
    assert data["glossaries"] == ["office"]
    again = Transcript.from_dict(data)
    again.undo_correction(0, 0)
    assert again.segments[0].text == "太以真人"


def test_a_saved_correction_that_does_not_match_its_text_is_dropped():
    data = {"segments": [{"start": 0, "end": 1, "text": "你好",
                          "corrections": [{"start": 0, "end": 9, "original": "x", "term": "太乙真人"}]}]}
    assert Transcript.from_dict(data).segments[0].corrections == []


def test_editing_a_segment_drops_its_corrections():
    transcript = Transcript(segments=[Segment(0, 2, "太以真人")])
    correct(transcript, [Term("太乙真人")])
    transcript.edit_text(0, "别的")
    assert transcript.segments[0].corrections == []


def test_an_unsure_common_word_is_not_replaced_by_a_rarer_term_that_sounds_alike():
    segment = chinese_segment(("甚至", 0.9), ("出现", 0.2), ("交易", 0.3), ("几乎", 0.25), ("停滞", 0.9))
    report = correct(Transcript(segments=[segment]), [Term("出线"), Term("交意"), Term("几户")])
    assert segment.text == "甚至出现交易几乎停滞" and report.replacements == 0


def test_a_syllable_that_sounds_wholly_different_is_not_matched():
    segment = chinese_segment(("交易", 0.9), ("几乎", 0.9), ("停制", 0.3), ("的", 0.3), ("情况", 0.9))
    report = correct(Transcript(segments=[segment]), [Term("停止期")])  # de for qi: another initial and final
    assert segment.text == "交易几乎停制的情况" and report.replacements == 0


def test_an_unsure_common_word_stays_when_the_term_is_an_ordinary_word_that_sounds_alike():
    # 事实 and 实施 (shìshí, shíshī) are both ordinary words: Whisper's doubt does not make 事实 a mishearing.
    fact = chinese_segment(("这是", 0.9), ("事实", 0.3), ("。", 0.9))
    report = correct(Transcript(segments=[fact]), [Term("实施")])
    assert fact.text == "这是事实。" and report.replacements == 0
    # while 尝试 for the far commoner 城市 still is (test_a_term_misheard_as_a_homophone_is_corrected…)
    city = chinese_segment(("一二", 0.9), ("线", 0.9), ("尝试", 0.31))
    assert correct(Transcript(segments=[city]), [Term("城市")]).replacements == 1 and city.text == "一二线城市"


# -- what a segment costs: the comparisons the pass makes, however large the glossary ------------------

ENGLISH_WORDS = " The quarterly budget review has moved to Thursday, and vox desk runs on the new server.".split()
CHARACTERS = "的一是在不了有和人这中大为上个国我以要他时来用们生到作地于出就分对成会可主发年动同工也能下过子说产种面而方后多定行学"
# The comparisons reach no further than what sounds, or is spelled within two edits, like what was heard,
# however many terms there are; a scan of the terms would compare each of 10,000 for every doubted word.
MOST_COMPARISONS_PER_SEGMENT = 3_000


def unsure_segment(pieces: list[str]) -> Segment:
    """A segment Whisper doubted throughout, so every near spelling and sound-alike is considered."""
    words = [Word(start=i * 0.1, end=(i + 1) * 0.1, text=p, probability=0.3) for i, p in enumerate(pieces)]
    return Segment(start=0.0, end=3.0, text="".join(pieces), words=words)


def comparisons(terms: list[Term]) -> tuple[int, int]:
    """The comparisons the pass makes for an English and a Mandarin segment, each on its own."""
    corrector = Corrector(terms)
    counts = []
    for segment in (unsure_segment([" " + w for w in ENGLISH_WORDS]),
                    unsure_segment(["一二", "线", "尝试", "虽然", "也处", "于调", "整中", "，", "城市", "的", "长时", "间"])):
        before = corrector.examined
        corrector.correct_segment(segment)
        counts.append(corrector.examined - before)
    return counts[0], counts[1]


def names(count: int, prefix: str, letters: str, seed: int) -> list[str]:
    rng, found = random.Random(seed), {}
    while len(found) < count:
        name = prefix + "".join(rng.choice(letters) for _ in range(rng.randint(3, 5)))
        found.setdefault(name.lower(), name)
    return list(found.values())


def test_ten_thousand_latin_names_sharing_a_prefix_cost_a_segment_as_few_comparisons_as_a_hundred_names_may():
    # "Thurs…": every name begins like "Thursday", which Whisper doubted, and is as long as it
    for count in (100, 10_000):
        english, mandarin = comparisons([Term(name) for name in names(count, "Thurs", "abcdefghijklmnopqrstuvwxyz", 3)])
        assert 0 < english <= MOST_COMPARISONS_PER_SEGMENT and mandarin <= MOST_COMPARISONS_PER_SEGMENT, count


def test_ten_thousand_chinese_terms_sharing_a_prefix_cost_a_segment_as_few_comparisons_as_a_hundred_names_may():
    # "城市…": every term begins with what the segment says twice (尝试, 城市) and once nearly (长时)
    for count in (100, 10_000):
        english, mandarin = comparisons([Term(name) for name in names(count, "城市", CHARACTERS, 5)])
        assert english <= MOST_COMPARISONS_PER_SEGMENT and 0 < mandarin <= MOST_COMPARISONS_PER_SEGMENT, count


def test_the_sounds_of_only_the_terms_that_begin_like_what_was_heard_are_compared(monkeypatch):
    compared = []
    syllable_cost = correction._syllable_cost
    monkeypatch.setattr(correction, "_syllable_cost",
                        lambda heard, wanted: compared.append(1) or syllable_cost(heard, wanted))
    # 城市 and three to five characters: the segment says 城市 and 尝试 (chéngshì, chángshì), then other words
    terms = [Term(name) for name in names(3_000, "城市", CHARACTERS, 5)]
    correct(Transcript(segments=[unsure_segment(["一二", "线", "尝试", "虽然", "也处", "于调", "整中", "，", "城市", "的"])]),
            terms)
    assert len(compared) < 100  # while each term compared once where 城市 and 尝试 stand would be 6,000


def test_190000_misheard_spellings_cost_a_segment_as_few_comparisons_as_ten_may():
    rng = random.Random(7)
    han = [chr(0x4E00 + n) for n in range(3000)]
    spellings = iter(dict.fromkeys("".join(rng.choice("bcdfghjklmnpqrstvwxz") for _ in range(5))
                                   if i % 2 else "".join(rng.choice(han) for _ in range(2))
                                   for i in range(400_000)))
    terms = [Term(f"Office{n:05d}", tuple(next(spellings) for _ in range(19))) for n in range(10_000)]
    few = [Term(term.text, term.misheard[:1]) for term in terms[:10]]
    for glossary in (few, terms):
        english, mandarin = comparisons(glossary)
        assert english <= MOST_COMPARISONS_PER_SEGMENT and mandarin <= MOST_COMPARISONS_PER_SEGMENT
    assert english > 0 and mandarin > 0  # the spellings were looked up


def test_a_large_glossary_still_corrects_what_it_did():
    segment = unsure_segment([" We", " run", " Kubernetis", " and", " box", " desk", " on", " Thursdy."])
    terms = [Term(name) for name in names(5_000, "Thurs", "abcdefghijklmnopqrstuvwxyz", 3)]
    correct(Transcript(segments=[segment]), [*terms, Term("Kubernetes"), Term("VoxDesk", ("box desk",)),
                                             Term("Thursday")])
    assert segment.text == " We run Kubernetes and VoxDesk on Thursday."
