"""Known voices on real recordings: enrolled people named in a meeting made here, an unknown one never;
and every bad sample refused with a sentence, nothing kept."""
from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import wave

import numpy as np
import pytest

from desktop.core.common.errors import AudioError
from desktop.core.speakers import agreement
from desktop.core.speakers.known_voices import KnownVoiceStore
from desktop.core.transcription.transcript import Segment, Transcript
from desktop.engines.speakers.enrolment import MAX_SAMPLE_SECONDS, Enroller, EnrolmentError
from desktop.engines.speakers.stage import SpeakersStage
from tests.helpers.meetings import RATE, Meeting, clip, compose, trimmed
from tests.helpers.weights import DATA_DIR

pytestmark = pytest.mark.slow

UNKNOWN = "LIBRI"


def write(samples: np.ndarray, path) -> os.PathLike:
    return Meeting(samples.astype(np.float32), [], []).write(path)


def joined(*clips: np.ndarray) -> np.ndarray:
    gap = np.zeros(int(0.4 * RATE), np.float32)
    return np.concatenate([piece for c in clips for piece in (c, gap)])


@pytest.fixture(scope="module")
def enroller():
    return Enroller()


@pytest.fixture(scope="module")
def store(tmp_path_factory, enroller):
    """Anna (voice A, all three of her clips: 7 s of speech) and John (JFK, 7.5 s), with agreement."""
    folder = tmp_path_factory.mktemp("voices")
    store = KnownVoiceStore(folder / "known", key=bytes(range(32)))
    for name, samples in (("Anna", joined(*(clip("A", i) for i in range(3)))),
                          ("John", joined(clip("JFK", 0), clip("JFK", 1)))):
        speech = enroller.from_sample(write(samples, folder / f"{name}.wav"))
        store.add(name, speech.embeddings, speech.seconds, agreement.confirmed("office manager"))
    return store


def meeting(order: int) -> Meeting:
    from desktop.core.common.audio import decode

    unknown = trimmed(decode(DATA_DIR / "speakers" / "libri_d.wav"))
    turns = [("Anna", [clip("A", 0), clip("A", 1)]), (UNKNOWN, [unknown]), ("John", [clip("JFK", 1)]),
             ("Anna", [clip("A", 2)]), ("John", [clip("JFK", 0)])]
    return compose(turns if order == 0 else turns[::-1], seed=order)


def transcript_of(meeting: Meeting) -> Transcript:
    return Transcript(segments=[Segment(start=s, end=e, text=f" turn {i}.") for i, (s, e, _) in
                                enumerate(meeting.turns)], duration=len(meeting.samples) / RATE, language="en")


@pytest.mark.parametrize("order", [0, 1])
def test_two_enrolled_people_are_named_in_a_meeting_and_the_unknown_voice_never_is(store, tmp_path, order):
    made = meeting(order)
    labelled = SpeakersStage(store).run(transcript_of(made), made.write(tmp_path / "meeting.wav"), "auto")
    names = {}
    for segment, (_, _, truth) in zip(labelled.segments, made.turns):
        names.setdefault(truth, set()).add(labelled.speaker_name(segment.speaker))
    assert names["Anna"] == {"Anna"} and names["John"] == {"John"}
    unknown_names = names[UNKNOWN]
    assert unknown_names.isdisjoint({"Anna", "John"}) and all(n.startswith("Speaker ") for n in unknown_names)
    named = [labelled.speaker_names[n] for n in labelled.recognised]
    assert sorted(named) == ["Anna", "John"]  # each name once
    for number in labelled.recognised:
        assert 0.5 <= labelled.recognised_confidence(number) <= 1.0
    data = labelled.to_dict()
    assert {s["speaker"] for s in data["segments"] if "recognised" in s} == {"Anna", "John"}
    assert all("recognised" not in s for s in data["segments"] if s["speaker"] not in ("Anna", "John"))


def test_naming_counts_the_recordings_a_voice_was_heard_in(store, tmp_path):
    before = {v.name: v.recordings for v in store.list()}
    made = meeting(0)
    SpeakersStage(store).run(transcript_of(made), made.write(tmp_path / "meeting.wav"), "auto")
    after = {v.name: v.recordings for v in store.list()}
    assert after == {name: count + 1 for name, count in before.items()}


def test_a_labelled_speaker_is_remembered_from_their_own_lines_only(enroller, tmp_path):
    # A long turn of voice A and one of B: A's lines give A's clean speech and nothing of B's.
    made = compose([("A", [clip("A", 0), clip("A", 1), clip("A", 2)]), ("B", [clip("B", i) for i in range(3)])])
    transcript = Transcript(segments=[Segment(start=s, end=e, text=" x.", speaker=1 if who == "A" else 2)
                                      for s, e, who in made.turns], duration=len(made.samples) / RATE)
    path = made.write(tmp_path / "meeting.wav")
    speech = enroller.from_speaker(transcript, path, 1)
    alone = enroller.from_sample(write(joined(*(clip("A", i) for i in range(3))), tmp_path / "a.wav"))
    centre = alone.embeddings.mean(axis=0)
    assert speech.seconds >= 6.0
    assert float(np.min(speech.embeddings @ centre / np.linalg.norm(centre))) > 0.7
    with pytest.raises(EnrolmentError, match="needs at least 6"):
        enroller.from_speaker(transcript, path, 2)  # B has under 6 s


# --- bad samples: a sentence each, and nothing kept ------------------------------------------


def refused(enroller, path) -> str:
    with pytest.raises((EnrolmentError, AudioError)) as caught:
        enroller.from_sample(path)
    assert "Traceback" not in caught.value.message
    return caught.value.message


def test_a_sample_of_silence_is_refused_as_holding_no_speech(enroller, tmp_path):
    assert "No clear speech" in refused(enroller, write(np.zeros(8 * RATE), tmp_path / "silence.wav"))


def test_a_sample_of_music_is_refused_as_holding_no_speech(enroller, tmp_path):
    t = np.arange(8 * RATE) / RATE
    chord = sum(0.2 * np.sin(2 * np.pi * f * t) for f in (261.6, 329.6, 392.0))
    beat = 0.5 + 0.5 * np.sign(np.sin(2 * np.pi * 2 * t))
    assert "No clear speech" in refused(enroller, write(chord * beat, tmp_path / "music.wav"))


def test_a_sample_with_two_voices_is_refused(enroller, tmp_path):
    samples = joined(clip("A", 0), clip("A", 1), clip("B", 0), clip("B", 1))
    assert "More than one voice" in refused(enroller, write(samples, tmp_path / "two.wav"))


def test_a_sample_far_too_short_says_how_much_more_is_needed(enroller, tmp_path):
    message = refused(enroller, write(clip("A", 0), tmp_path / "short.wav"))
    assert "needs at least 6" in message and "Add about" in message


def test_a_fifo_given_as_sample_is_refused_without_blocking(enroller, tmp_path):
    fifo = tmp_path / "sample.wav"
    os.mkfifo(fifo)
    assert "not a regular file" in refused(enroller, fifo)


def test_a_two_hour_sample_is_read_only_as_far_as_needed(tmp_path):
    """Decoding all of it would take 460 MB as float32; the read stays far below (a limit in a child)."""
    path = tmp_path / "two-hours.wav"
    speech = joined(*(clip("A", i) for i in range(3)))
    pcm = (np.clip(speech, -1, 1) * 32767).astype("<i2").tobytes()
    with wave.open(str(path), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(RATE)
        out.writeframes(pcm)
        out.writeframes(b"\0" * (2 * 3600 * RATE * 2 - len(pcm)))
    script = textwrap.dedent(f"""
        import resource
        from desktop.engines.speakers.enrolment import Enroller
        from desktop.engines.speakers.labeller import voice_activity
        import numpy as np
        enroller = Enroller()
        noise = np.random.default_rng(0).normal(size=32000).astype(np.float32) * 0.1
        enroller._encoder.embed([(0.0, noise)])  # the models and their libraries loaded first:
        voice_activity(noise)                     # the limit is on what the sample takes
        def vm():
            return int(next(l for l in open('/proc/self/status') if l.startswith('VmSize')).split()[1]) * 1024
        resource.setrlimit(resource.RLIMIT_AS, (vm() + 300 * 2**20, resource.RLIM_INFINITY))
        print(enroller.from_sample({str(path)!r}).seconds)
    """)
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300,
                            env={**os.environ, "PYTHONPATH": os.getcwd()})
    assert result.returncode == 0, result.stderr[-2000:]
    assert 6.0 <= float(result.stdout.split()[-1]) <= MAX_SAMPLE_SECONDS


def test_label_speakers_again_in_the_window_names_the_known_voices_and_keeps_the_users_names(store, tmp_path):
    from desktop.engines.speakers.stage import label_again

    made = meeting(0)
    path = made.write(tmp_path / "meeting.wav")
    transcript = transcript_of(made)
    lines, names = label_again(SpeakersStage(store), transcript, path, "auto")
    by_turn = {}
    for segment, (_, _, truth) in zip(lines, made.turns):
        by_turn.setdefault(truth, set()).add(names.get(segment.speaker, f"Speaker {segment.speaker}"))
    assert by_turn["Anna"] == {"Anna"} and by_turn["John"] == {"John"}
    assert by_turn[UNKNOWN].isdisjoint({"Anna", "John"})
    assert transcript.speaker_names == {}  # the transcript itself is not changed; the window applies the change
