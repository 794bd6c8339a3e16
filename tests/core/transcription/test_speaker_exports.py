"""Speakers in every export: names in SRT and TXT, voice tags in WebVTT, fields in JSON; a rename
reaches them all (SRT and WebVTT parsed back with the srt and webvtt-py libraries)."""
import json

import srt
import webvtt

from desktop.core.transcription import subtitles
from desktop.core.transcription.transcript import Segment, Transcript, Word


def meeting(language: str = "en") -> Transcript:
    if language == "zh":
        lines = [(0.0, 2.0, "我们开始开会。", 1), (2.5, 4.0, "好的。", 2), (4.5, 6.0, "先说预算。", 2),
                 (6.5, 8.0, "同意。", 1)]
    else:
        lines = [(0.0, 2.0, " Shall we start?", 1), (2.5, 4.0, " Yes.", 2), (4.5, 6.0, " Budget first.", 2),
                 (6.5, 8.0, " Agreed.", 1)]
    return Transcript(segments=[Segment(start, end, text, [Word(start, end, text)], speaker=speaker)
                                for start, end, text, speaker in lines], language=language, duration=8.0)


def test_until_renamed_the_speakers_are_called_speaker_1_and_speaker_2():
    cues = list(srt.parse(subtitles.render(meeting(), "srt")))
    assert [c.content for c in cues] == ["Speaker 1: Shall we start?", "Speaker 2: Yes.",
                                         "Speaker 2: Budget first.", "Speaker 1: Agreed."]


def test_a_rename_reaches_every_line_of_every_format(tmp_path):
    transcript = meeting()
    assert transcript.rename_speaker(1, "Anna") == 1
    transcript.rename_speaker(2, "  Bob \n")

    cues = list(srt.parse(subtitles.render(transcript, "srt")))
    assert [c.content for c in cues] == ["Anna: Shall we start?", "Bob: Yes.", "Bob: Budget first.",
                                         "Anna: Agreed."]

    path = subtitles.export(transcript, tmp_path / "meeting.vtt", "vtt")
    captions = webvtt.read(str(path)).captions
    assert [(c.voice, c.text) for c in captions] == [("Anna", "Shall we start?"), ("Bob", "Yes."),
                                                      ("Bob", "Budget first."), ("Anna", "Agreed.")]

    # Consecutive lines of one speaker make one paragraph.
    assert subtitles.render(transcript, "txt") == (
        "Anna: Shall we start?\n\nBob: Yes. Budget first.\n\nAnna: Agreed.\n")

    data = json.loads(subtitles.render(transcript, "json"))
    assert [s["speaker"] for s in data["segments"]] == ["Anna", "Bob", "Bob", "Anna"]
    assert data["speakers"] == [{"id": 1, "name": "Anna"}, {"id": 2, "name": "Bob"}]
    again = Transcript.from_dict(data)
    assert [again.speaker_name(s.speaker) for s in again.segments] == ["Anna", "Bob", "Bob", "Anna"]


def test_until_renamed_the_speakers_of_a_chinese_transcript_have_chinese_names():
    transcript = meeting("zh")
    cues = list(srt.parse(subtitles.render(transcript, "srt")))
    assert [c.content for c in cues] == ["说话人1：我们开始开会。", "说话人2：好的。", "说话人2：先说预算。",
                                         "说话人1：同意。"]
    data = json.loads(subtitles.render(transcript, "json"))
    assert data["speakers"] == [{"id": 1, "name": "说话人1"}, {"id": 2, "name": "说话人2"}]
    assert Transcript.from_dict(data).speaker_names == {}  # still the default names, not the user's
    transcript.rename_speaker(1, "说话人1")
    assert transcript.speaker_names == {}


def test_chinese_transcripts_write_the_name_with_a_full_width_colon():
    transcript = meeting("zh")
    transcript.rename_speaker(1, "张伟")
    transcript.rename_speaker(2, "李娜")
    cues = list(srt.parse(subtitles.render(transcript, "srt")))
    assert [c.content for c in cues] == ["张伟：我们开始开会。", "李娜：好的。", "李娜：先说预算。", "张伟：同意。"]
    assert subtitles.render(transcript, "txt") == "张伟：我们开始开会。\n\n李娜：好的。先说预算。\n\n张伟：同意。\n"


def test_renaming_to_another_speakers_name_joins_the_two_and_an_empty_name_restores_the_default():
    transcript = meeting()
    transcript.rename_speaker(1, "Anna")
    assert transcript.rename_speaker(2, "Anna") == 1
    assert transcript.speakers == [1]
    assert [c.content for c in srt.parse(subtitles.render(transcript, "srt"))][1] == "Anna: Yes."
    transcript.rename_speaker(1, "   ")
    assert transcript.speaker_name(1) == "Speaker 1"


def test_one_line_given_to_another_speaker_changes_only_that_line():
    transcript = meeting()
    transcript.rename_speaker(2, "Bob")
    transcript.set_speaker(3, 2)
    assert [c.content for c in srt.parse(subtitles.render(transcript, "srt"))][3] == "Bob: Agreed."
    assert [c.content for c in srt.parse(subtitles.render(transcript, "srt"))][0] == "Speaker 1: Shall we start?"


def test_a_name_with_markup_characters_cannot_break_the_webvtt_file(tmp_path):
    transcript = meeting()
    transcript.rename_speaker(1, "Q&A <team>")
    path = subtitles.export(transcript, tmp_path / "meeting.vtt", "vtt")
    captions = webvtt.read(str(path)).captions
    assert len(captions) == 4
    assert captions[0].raw_text == "<v Q&amp;A team>Shall we start?"


def test_without_speakers_the_exports_are_as_before():
    transcript = meeting()
    for segment in transcript.segments:
        segment.speaker = None
    assert subtitles.render(transcript, "txt") == "Shall we start?\nYes.\nBudget first.\nAgreed.\n"
    assert [c.content for c in srt.parse(subtitles.render(transcript, "srt"))][0] == "Shall we start?"
    assert "<v" not in subtitles.render(transcript, "vtt")
    data = json.loads(subtitles.render(transcript, "json"))
    assert "speakers" not in data and "speaker" not in data["segments"][0]


def test_subtitle_lines_that_start_with_a_name_still_fit_the_line_width():
    from desktop.core.transcription.subtitles import LineLimits, display_width

    long_english = " We agreed last week that the budget for the spring campaign would be settled before Friday."
    long_chinese = "我们上周已经商定春季活动的预算要在星期五之前确定下来然后再讨论其他事项。"
    for language, text in (("en", long_english), ("zh", long_chinese)):
        transcript = Transcript(segments=[Segment(0.0, 9.0, text, [], speaker=1)], language=language, duration=9.0)
        transcript.rename_speaker(1, "Anna Lindqvist" if language == "en" else "欧阳娜娜")
        limits = LineLimits()
        cues = list(srt.parse(subtitles.render(transcript, "srt", limits)))
        lines = [line for cue in cues for line in cue.content.splitlines()]
        budget = limits.max_latin_chars if language == "en" else limits.max_cjk_chars * 2
        assert all(display_width(line) <= budget for line in lines), lines
        assert all(cue.content.startswith(transcript.speaker_name(1)) for cue in cues)


def recognised_meeting(language: str = "en") -> Transcript:
    """Speaker 1 named as the known voice "Anna" (92 % sure); speaker 2 still unnamed."""
    transcript = meeting(language)
    transcript.speaker_names[1] = "Anna"
    transcript.recognised[1] = ("Anna", 0.92)
    return transcript


def test_a_recognised_name_is_exported_exactly_as_a_typed_one_in_srt_txt_and_webvtt(tmp_path):
    recognised, typed = recognised_meeting(), meeting()
    typed.rename_speaker(1, "Anna")
    for fmt in ("srt", "txt", "vtt"):
        assert subtitles.render(recognised, fmt) == subtitles.render(typed, fmt)
    path = subtitles.export(recognised, tmp_path / "meeting.vtt", "vtt")
    assert [c.voice for c in webvtt.read(str(path)).captions] == ["Anna", "Speaker 2", "Speaker 2", "Anna"]
    assert subtitles.render(recognised_meeting("zh"), "srt").count("Anna：") == 2


def test_json_marks_recognised_lines_with_how_sure_and_reads_it_back():
    data = json.loads(subtitles.render(recognised_meeting(), "json"))
    assert [s.get("recognised") for s in data["segments"]] == [0.92, None, None, 0.92]
    assert data["speakers"] == [{"id": 1, "name": "Anna", "recognised": 0.92}, {"id": 2, "name": "Speaker 2"}]
    again = Transcript.from_dict(data)
    assert again.recognised == {1: ("Anna", 0.92)} and again.recognised_confidence(1) == 0.92


def test_a_recognised_speaker_renamed_by_the_user_is_no_longer_marked_recognised():
    transcript = recognised_meeting()
    transcript.rename_speaker(1, "Anna Li")
    data = json.loads(subtitles.render(transcript, "json"))
    assert all("recognised" not in s for s in data["segments"])
    assert transcript.recognised_confidence(1) is None
