"""Speakers in subtitles made elsewhere: WebVTT voice tags and names in front of the text become the
lines' speakers, with the name taken out of the text; ordinary text that happens to start with a
word and a colon ("Note: …", a time) stays text; subtitles exported with speakers come back with them."""
import pytest

from desktop.core.transcription.subtitle_files import read_srt, read_subtitles, read_vtt, transcript_from_cues
from desktop.core.transcription.subtitle_speakers import prefixed_name, with_prefix_speakers
from desktop.core.transcription.subtitles import Cue, export
from desktop.core.transcription.transcript import Segment, Transcript, Word


def srt_of(*texts: str) -> str:
    return "\n".join(f"{n}\n00:00:{n:02d},000 --> 00:00:{n:02d},900\n{text}\n" for n, text in enumerate(texts, 1))


def opened(tmp_path, name: str, text: str) -> Transcript:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return transcript_from_cues(read_subtitles(path), tmp_path / "talk.wav")


def lines(transcript: Transcript) -> list[tuple[str | None, str]]:
    return [(transcript.speaker_name(s.speaker) if s.speaker is not None else None, s.text)
            for s in transcript.segments]


def test_webvtt_voice_tags_name_the_speakers_of_their_cues(tmp_path):
    transcript = opened(tmp_path, "talk.vtt", (
        "WEBVTT\n\n"
        "00:01.000 --> 00:02.000\n<v Anna>Hello &amp; welcome</v>\n\n"
        "00:02.500 --> 00:03.500\n<v.loud Bob Smith>Thank <b>you</b>!</v>\n\n"
        "00:04.000 --> 00:05.000\n<v Anna>Shall we start?\n\n"
        "00:05.500 --> 00:06.000\nApplause\n"))
    assert lines(transcript) == [("Anna", "Hello & welcome"), ("Bob Smith", "Thank you!"),
                                 ("Anna", "Shall we start?"), (None, "Applause")]
    assert transcript.speakers == [1, 2]


def test_a_voice_tag_with_markup_in_its_name_gives_a_clean_name(tmp_path):
    (cue,) = read_vtt(_written(tmp_path, "odd.vtt", "WEBVTT\n\n00:01.000 --> 00:02.000\n"
                                                    "<v Anna &lt;b&gt;\x07 Lee>hi</v>\n"))
    assert cue.speaker == "Anna b Lee" and cue.lines == ["hi"]


def _written(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize("texts, expected", [
    # Names on every cue, in the usual spellings.
    (("Alice: Hello there.", "BOB: Hi, Alice.", "Alice: How are you?"),
     [("Alice", "Hello there."), ("BOB", "Hi, Alice."), ("Alice", "How are you?")]),
    # Dialogue dashes, and names only where the speaker changes.
    (("- Alice: hi", "nice weather", "- Bob: it is", "- Alice: let's go", "- Bob: yes"),
     [("Alice", "hi"), (None, "nice weather"), ("Bob", "it is"), ("Alice", "let's go"), ("Bob", "yes")]),
    # Chinese, with the full-width colon VoxDesk writes.
    (("张伟：大家好", "李娜：你好", "张伟：开始吧"), [("张伟", "大家好"), ("李娜", "你好"), ("张伟", "开始吧")]),
    # A name alone on the first line, the text on the next.
    (("Anna:\nwe start", "Bob:\nfine"), [("Anna", "we start"), ("Bob", "fine")]),
])
def test_names_in_front_of_the_text_become_the_speakers(tmp_path, texts, expected):
    assert lines(opened(tmp_path, "talk.srt", srt_of(*texts))) == expected


@pytest.mark.parametrize("texts", [
    # One note in ordinary text.
    ("Note: the meeting moved.", "We start at ten.", "Everyone is here.", "Let's begin."),
    # Two notes among many lines: not how this file names speakers.
    ("Note: one.", *(f"Plain line {n}." for n in range(10)), "Note: two."),
    # Times and addresses have a colon too.
    ("10:30 is when we start.", "At 11:45 we stop.", "See https://example.org for more."),
    # Lowercase words before a colon are text, not names.
    ("so: we agreed", "so: we are done"),
    # A sentence is not a name.
    ("What I mean to say is this: no.", "And what I mean to say is this: yes."),
])
def test_ordinary_text_that_starts_like_a_name_stays_text(tmp_path, texts):
    transcript = opened(tmp_path, "talk.srt", srt_of(*texts))
    assert [s.text for s in transcript.segments] == [text.replace("\n", " ") for text in texts]
    assert transcript.speakers == []


def test_a_name_said_once_in_a_file_that_names_others_often_stays_text():
    cues = [Cue(n, n + 0.5, [text]) for n, text in enumerate(
        ["Anna: hi", "Bob: hello", "nice weather", "Anna: so", "Bob: yes", "Remember: bring the keys"])]
    named = with_prefix_speakers(cues)
    assert [cue.speaker for cue in named] == ["Anna", "Bob", None, "Anna", "Bob", None]
    assert named[5].lines == ["Remember: bring the keys"]
    assert [cue.lines for cue in cues][0] == ["Anna: hi"], "the cues given are not changed"


@pytest.mark.parametrize("line, expected", [
    ("Alice: Hello", ("Alice", "Hello")),
    ("- Alice: hi", ("Alice", "hi")),
    ("NAME: text", ("NAME", "text")),
    ("Speaker 2: yes", ("Speaker 2", "yes")),
    ("Dr. Smith: ok", ("Dr. Smith", "ok")),
    ("说话人1：好的", ("说话人1", "好的")),
    ("10:30", None),
    ("At 10:30 we meet", None),
    ("https://example.org", None),
    ("Anna:x", None),
    ("the chair: yes", None),
    ("我觉得今天天气很好而且明天也不错：对", None),
    ("A Very Long Name Of Four: words", None),
])
def test_what_looks_like_a_name_in_front_of_a_line(line, expected):
    assert prefixed_name(line) == expected


def transcript_with_speakers(language: str | None = None) -> Transcript:
    texts = ([" Good morning, everyone.", " Morning! Shall we begin?", " Yes, the budget first.",
              " Fine by me."] if language != "zh" else ["大家早上好。", "早上好，开始吧。", "先谈预算。", "好的。"])
    segments = [Segment(2.0 * n, 2.0 * n + 1.5, text, [Word(2.0 * n, 2.0 * n + 1.5, text)], speaker=speaker)
                for n, (text, speaker) in enumerate(zip(texts, [1, 2, 1, 3]))]
    return Transcript(segments=segments, language=language, duration=8.0)


@pytest.mark.parametrize("fmt", ["srt", "vtt"])
@pytest.mark.parametrize("language, names", [(None, {1: "Anna"}), ("zh", {2: "李娜"}), (None, {})])
def test_subtitles_exported_with_speakers_come_back_with_the_same_speakers(tmp_path, fmt, language, names):
    transcript = transcript_with_speakers(language)
    transcript.speaker_names = dict(names)
    path = export(transcript, tmp_path / f"talk.{fmt}", fmt)
    again = transcript_from_cues(read_subtitles(path), tmp_path / "talk.wav")
    assert lines(again) == [(transcript.speaker_name(s.speaker), s.text.strip()) for s in transcript.segments]
    assert again.speaker_names == names, "default names stay default names, the user's come back"
    assert again.speakers == [1, 2, 3]
    export(again, tmp_path / f"again.{fmt}", fmt)
    assert (tmp_path / f"again.{fmt}").read_text(encoding="utf-8") == path.read_text(encoding="utf-8")


def test_subtitles_without_speakers_read_as_before(tmp_path):
    transcript = transcript_with_speakers()
    for segment in transcript.segments:
        segment.speaker = None
    path = export(transcript, tmp_path / "plain.srt", "srt")
    cues = read_srt(path)
    again = transcript_from_cues(cues, tmp_path / "talk.wav")
    assert [s.text for s in again.segments] == [s.text.strip() for s in transcript.segments]
    assert again.speakers == [] and again.speaker_names == {}
