"""Speaker labels on real recordings, through the Transcriber as the window and the CLI run it
(Whisper base on the CPU for the words, Resemblyzer's encoder for the voices)."""
from __future__ import annotations

import copy

import pytest

from desktop.core.common.errors import Cancelled, ModelError
from desktop.core.gpu.fallback import FallbackLog
from desktop.core.transcription.whisper_models import ModelStore
from desktop.engines.speakers import embeddings
from desktop.engines.speakers.labeller import SpeakerLabeller
from desktop.engines.speakers.stage import LABELLING
from desktop.engines.transcription.transcriber import TranscribeSettings, Transcriber
from tests.helpers.meetings import two_speakers
from tests.helpers.weights import DATA_DIR, base_dir

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def transcriber(tmp_path_factory):
    return Transcriber(ModelStore(tmp_path_factory.mktemp("models")), FallbackLog(), gpu_available=lambda: False)


def settings(speakers: str, language: str | None = "en") -> TranscribeSettings:
    return TranscribeSettings(model=str(base_dir()), device="cpu", language=language, speakers=speakers)


@pytest.fixture(scope="module")
def meeting(tmp_path_factory):
    meeting = two_speakers()
    return meeting, meeting.write(tmp_path_factory.mktemp("meeting") / "meeting.wav")


@pytest.fixture(scope="module")
def unlabelled(transcriber, meeting):
    """The meeting's transcript without speakers, to label again in several ways."""
    return transcriber.transcribe_file(meeting[1], settings("off"))


def truth_at(meeting, time: float) -> str:
    return min(meeting.turns, key=lambda turn: max(turn[0] - time, time - turn[1], 0.0))[2]


def assert_right_turns(meeting, transcript) -> None:
    """Every line has the speaker of the turn it falls in, the same number for the same person."""
    said_by = {}
    for segment in transcript.segments:
        person = truth_at(meeting, (segment.start + segment.end) / 2)
        assert said_by.setdefault(segment.speaker, person) == person, (segment, meeting.turns)
    assert len(said_by) == len(meeting.speakers)


def test_a_two_person_meeting_gives_two_speakers_with_the_right_turns(transcriber, meeting):
    recording_meeting, path = meeting
    statuses, progress = [], []
    transcript = transcriber.transcribe_file(path, settings("auto"), on_status=statuses.append,
                                             on_progress=progress.append)
    assert transcript.speakers == [1, 2]
    assert [transcript.speaker_name(n) for n in transcript.speakers] == ["Speaker 1", "Speaker 2"]
    assert_right_turns(recording_meeting, transcript)
    # Its own stage: its status line, and the last share of the progress bar.
    assert LABELLING in statuses and statuses.index(LABELLING) > statuses.index("Transcribing…")
    assert progress == sorted(progress) and progress[-1] == 1.0
    assert any(0.9 < fraction < 1.0 for fraction in progress) or 0.9 in progress


def test_with_the_number_of_speakers_given_the_turns_are_the_same(unlabelled, meeting):
    for count in (2, None):
        transcript = SpeakerLabeller().label(copy.deepcopy(unlabelled), meeting[1], count)
        assert transcript.speakers == [1, 2]
        assert_right_turns(meeting[0], transcript)


def test_a_long_recording_read_in_short_chunks_gets_the_same_turns(unlabelled, meeting):
    progress = []
    transcript = SpeakerLabeller(chunk_seconds=4.0).label(copy.deepcopy(unlabelled), meeting[1], None,
                                                          on_progress=progress.append)
    assert transcript.speakers == [1, 2]
    assert_right_turns(meeting[0], transcript)
    assert len(progress) >= 3 and progress == sorted(progress) and progress[-1] == pytest.approx(1.0, abs=0.02)


@pytest.mark.parametrize("name, language", [("jfk.flac", "en"), ("lj050-0131.wav", "en"),
                                            ("BAC009S0764W0121.wav", "zh")])
def test_one_person_speaking_gives_one_speaker(transcriber, name, language):
    transcript = transcriber.transcribe_file(DATA_DIR / name, settings("auto", language))
    assert transcript.speakers == [1]
    assert all(segment.speaker == 1 for segment in transcript.segments)


def test_english_and_mandarin_from_three_people_give_three_speakers(transcriber):
    # mixed_en_zh.wav: speaker A, then speaker B (English), then an AISHELL speaker (Mandarin).
    transcript = transcriber.transcribe_file(DATA_DIR / "mixed_en_zh.wav", settings("auto", None))
    assert transcript.speakers == [1, 2, 3]
    assert [s.speaker for s in transcript.segments] == sorted(s.speaker for s in transcript.segments)


def test_off_leaves_the_transcript_without_speakers(unlabelled):
    assert unlabelled.speakers == [] and all(s.speaker is None for s in unlabelled.segments)


def test_a_cancel_during_the_speakers_stage_stops_the_job(transcriber, meeting):
    labelling = []

    def on_status(text):
        labelling.append(text == LABELLING)

    with pytest.raises(Cancelled):
        transcriber.transcribe_file(meeting[1], settings("auto"), on_status=on_status,
                                    cancelled=lambda: bool(labelling and labelling[-1]))


def test_the_encoder_weights_are_read_as_tensors_only_and_damaged_ones_say_what_to_do(tmp_path, monkeypatch):
    encode = embeddings.load_encoder()
    import torch

    mels = torch.rand(2, embeddings.WINDOW_FRAMES, 40)
    out = encode(mels)
    assert tuple(out.shape) == (2, 256)
    assert torch.allclose(out.norm(dim=1), torch.ones(2), atol=1e-4)

    damaged = tmp_path / "pretrained.pt"
    damaged.write_bytes(b"not a checkpoint")
    monkeypatch.setattr(embeddings, "weights_path", lambda: damaged)
    with pytest.raises(ModelError, match="reinstall VoxDesk"):
        embeddings.load_encoder()


def test_a_short_reply_between_one_persons_turns_makes_no_phantom_speaker(transcriber, tmp_path):
    from tests.helpers.meetings import clip, compose

    reply = clip("B", 0)[: int(0.7 * 16000)]  # under a second of B: "Mend the…"
    meeting = compose([("A", [clip("A", 0), clip("A", 1)]), ("B", [reply]), ("A", [clip("A", 2)])])
    path = meeting.write(tmp_path / "reply.wav")
    transcript = transcriber.transcribe_file(path, settings("auto"))
    assert transcript.speakers == [1]
