"""Known voices: the naming thresholds measured, then correct and false names on meetings of other voices.

Calibration (desktop/core/speakers/recognition.py's NAME_SPREADS and SUGGEST_SPREADS): voices A and B
(three clips each, tests/data/speakers) are enrolled on all clips but one, in turn; the clip left out
is the voice speaking (a genuine trial), and every clip of every other calibration voice (the other of
A/B, and the LibriSpeech clips of --extra-voices) is an unknown voice speaking (an impostor trial).
Each trial's score is recognition.VoicePrint.score of the clip's window centroid. The naming threshold
is the most lenient one keeping the impostors' speech named at or below 1 % of their speaking time;
the suggestion threshold the most lenient keeping suggestions to unknown voices at or below 10 %.
These enrolments are shorter (4-5 s) than the 6 s the app asks for: the spread is then estimated
from fewer windows, which makes the measured thresholds conservative, not lenient.

Evaluation, on voices the calibration did not use: JFK, LJ and the AISHELL speaker are enrolled on
one part of their recordings; meetings are composed (tests/helpers/meetings.py) of their other parts
and an unknown LibriSpeech reader (libri_d), in several orders; the real speaker stage labels each
(auto count) and names the known voices. Reported as shares of speaking time: correct names (a known
voice's speech under its own name), false names (speech under a name that is not its speaker's:
an unknown named, or a known voice named as another), and suggestions. The time added to Label
speakers is naming (reading the store, scoring) against labelling, measured in the same run.
"""
from __future__ import annotations

import argparse
import datetime as dt
import itertools
import platform
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

FALSE_NAME_SHARE = 0.01
FALSE_SUGGESTION_SHARE = 0.10


def clean_windows(enroller, samples: np.ndarray, work: Path, name: str):
    from tests.helpers.meetings import Meeting

    path = Meeting(samples, [], []).write(work / f"{name}.wav")
    return enroller.from_sample(path)


@dataclass
class Scored:
    """One labelled meeting: its speakers' centroids, the known voices, and who really spoke when."""

    speakers: dict
    voices: list
    speech: list  # (seconds, true voice, speaker number)
    label_s: float
    name_s: float


def scored_meeting(labeller, store, turns, number: int, work: Path) -> Scored:
    """Compose, label (auto) and score one meeting; naming time is reading the store and scoring."""
    from desktop.core.speakers.recognition import VoicePrint, recognise
    from desktop.core.transcription.transcript import Segment, Transcript
    from desktop.engines.speakers.naming import speaker_centroids
    from tests.helpers.meetings import compose

    meeting = compose(turns, seed=number)
    path = meeting.write(work / f"meeting-{number}.wav")
    transcript = Transcript(segments=[Segment(start=s, end=e, text=f" turn {i}.") for i, (s, e, _) in
                                      enumerate(meeting.turns)], duration=len(meeting.samples) / 16000)
    started = time.perf_counter()
    labelled, windows = labeller.label_with_windows(transcript, path, None)
    labelled_at = time.perf_counter()
    voices = [VoicePrint.of(voice.name, voice.embeddings) for voice in store.list()]
    speakers = speaker_centroids(labelled, windows)
    recognise(speakers, voices)
    named_at = time.perf_counter()
    speech = []
    for start, end, truth in meeting.speech:
        middle = (start + end) / 2
        line = min(labelled.segments, key=lambda s: 0 if s.start <= middle <= s.end else
                   min(abs(s.start - middle), abs(s.end - middle)))
        speech.append((end - start, truth, line.speaker))
    return Scored(speakers, voices, speech, labelled_at - started, named_at - labelled_at)


def shares(meetings: list[Scored], name_spreads: float, suggest_spreads: float) -> dict[str, float]:
    """Shares of speaking time: named right / wrong (of all speech and of known voices' speech), suggested."""
    from desktop.core.speakers.recognition import recognise

    t = dict.fromkeys(("speech", "known", "correct", "false", "suggested_right", "suggested_wrong"), 0.0)
    for meeting in meetings:
        found = recognise(meeting.speakers, meeting.voices, name_spreads=name_spreads, suggest_spreads=suggest_spreads)
        known = {voice.name for voice in meeting.voices}
        for seconds, truth, speaker in meeting.speech:
            t["speech"] += seconds
            t["known"] += seconds if truth in known else 0.0
            hit = found.get(speaker)
            if hit is None:
                continue
            right = hit.name == truth
            if hit.clear:
                t["correct" if right else "false"] += seconds
            else:
                t["suggested_right" if right else "suggested_wrong"] += seconds
    return {"correct": t["correct"] / t["known"] if t["known"] else 0.0, "false": t["false"] / t["speech"],
            "suggested_right": t["suggested_right"] / t["speech"], "suggested_wrong": t["suggested_wrong"] / t["speech"]}


def most_lenient(meetings: list[Scored], key: str, share: float, floor: float = 0.0) -> float:
    """The most lenient threshold (spreads below typical) whose share of `key` stays within share."""
    best = floor
    for k in np.arange(max(0.1, floor), 12.01, 0.1):
        k = round(float(k), 1)
        got = shares(meetings, k, k)["false" if key == "false" else "suggested_wrong"] if key == "false" else \
            shares(meetings, floor, k)["suggested_wrong"]
        if got <= share:
            best = k
        else:
            break
    return best


def calibration_meetings(labeller, enroller, work: Path, extra: dict) -> list[Scored]:
    """A and B enrolled on two clips each, the third in the meeting with the unknown LibriSpeech readers."""
    from desktop.core.speakers import agreement
    from desktop.core.speakers.known_voices import KnownVoiceStore
    from tests.helpers.meetings import clip

    meetings = []
    for left_out in range(3):
        store = KnownVoiceStore(work / f"cal-{left_out}", key=bytes(32))
        for voice in ("A", "B"):
            samples = np.concatenate([clip(voice, i) for i in range(3) if i != left_out])
            speech = clean_windows(enroller, samples, work, f"cal-{voice}-{left_out}")
            store.add(voice, speech.embeddings, speech.seconds, agreement.confirmed("benchmark"))
        turns = [("A", [clip("A", left_out)]), ("B", [clip("B", left_out)])] + \
            [(name, [samples]) for name, samples in extra.items()]
        for order in range(2):
            shuffled = turns if order == 0 else turns[::-1]
            meetings.append(scored_meeting(labeller, store, shuffled, 10 * left_out + order, work))
    return meetings


def evaluation_meetings(labeller, enroller, work: Path) -> list[Scored]:
    """JFK, LJ and the AISHELL speaker enrolled on one part of their recordings, the other part in
    meetings with an unknown LibriSpeech reader, in six orders."""
    from desktop.core.common.audio import decode
    from desktop.core.speakers import agreement
    from desktop.core.speakers.known_voices import KnownVoiceStore
    from tests.helpers.meetings import clip, trimmed

    store = KnownVoiceStore(work / "eval", key=bytes(32))
    for voice, samples in {"JFK": clip("JFK", 1), "LJ": clip("LJ", 0), "ZH": clip("ZH", 0)}.items():
        speech = clean_windows(enroller, samples, work, f"enrol-{voice}")
        store.add(voice, speech.embeddings, speech.seconds, agreement.confirmed("benchmark"))
    libri_d = trimmed(decode(ROOT / "tests/data/speakers/libri_d.wav"))
    turns = [("JFK", [clip("JFK", 0)]), ("LJ", [clip("LJ", 1)]), ("ZH", [clip("ZH", 1)]), ("UNKNOWN", [libri_d])]
    orders = list(itertools.permutations(range(4)))[::4]
    return [scored_meeting(labeller, store, [turns[i] for i in order], 100 + n, work) for n, order in enumerate(orders)]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--extra-voices", type=Path, default=None,
                        help="a folder with libri_a.wav, libri_b.flac, libri_c.wav (more unknown voices)")
    parser.add_argument("--out", type=Path, default=None, help="write the markdown section here")
    args = parser.parse_args()

    from desktop.engines.speakers.enrolment import Enroller
    from desktop.engines.speakers.labeller import SpeakerLabeller
    from desktop.engines.speakers.stage import SpeakersStage
    from desktop.core.common.audio import decode
    from tests.helpers.meetings import clip, trimmed

    enroller = Enroller(min_seconds=0.0)
    labeller = SpeakerLabeller()
    extra = {}
    if args.extra_voices:
        for name in ("libri_a.wav", "libri_b.flac", "libri_c.wav"):
            if (args.extra_voices / name).exists():
                extra[name.split(".")[0]] = trimmed(decode(args.extra_voices / name))
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        calibration = calibration_meetings(labeller, enroller, work, extra)
        name_k = most_lenient(calibration, "false", FALSE_NAME_SHARE)
        suggest_k = most_lenient(calibration, "suggested", FALSE_SUGGESTION_SHARE, floor=name_k)
        evaluation = evaluation_meetings(labeller, enroller, work)
    cal = shares(calibration, name_k, suggest_k)
    ev = shares(evaluation, name_k, suggest_k)
    label_s = sum(m.label_s for m in calibration + evaluation)
    name_s = sum(m.name_s for m in calibration + evaluation)

    cpu = subprocess.run("lscpu | grep 'Model name'", shell=True, capture_output=True, text=True).stdout.strip()
    cpu = " ".join(cpu.split(":", 1)[-1].split()) or platform.processor()
    lines = [
        "## Known voices: naming thresholds, and names on meetings of other voices",
        "",
        f"{cpu}; {dt.date.today().isoformat()}; "
        f"`python benchmarks/known_voices_calibration.py{' --extra-voices <LibriSpeech clips>' if extra else ''}`",
        "",
        f"Calibration: {len(calibration)} meetings of A and B (tests/data/speakers, enrolled on two clips, the "
        f"third in the meeting) with {len(extra)} unknown LibriSpeech readers ({', '.join(sorted(extra)) or 'none'}), "
        "labelled by the real speaker stage (auto).",
        f"Chosen: name at score ≥ −{name_k} spreads (the most lenient with false names ≤ {FALSE_NAME_SHARE:.0%} of "
        f"speaking time), suggest at ≥ −{suggest_k} (wrong suggestions ≤ {FALSE_SUGGESTION_SHARE:.0%}).",
        "",
        "| shares of speaking time | calibration meetings | evaluation meetings (voices not in the calibration) |",
        "|---|---|---|",
        f"| known voices' speech named correctly | {cal['correct']:.0%} | {ev['correct']:.0%} |",
        f"| speech under a wrong name (false names) | {cal['false']:.1%} | {ev['false']:.1%} |",
        f"| speech with a right suggestion | {cal['suggested_right']:.1%} | {ev['suggested_right']:.1%} |",
        f"| speech with a wrong suggestion | {cal['suggested_wrong']:.1%} | {ev['suggested_wrong']:.1%} |",
        "",
        f"Evaluation: {len(evaluation)} meetings (six orders) of JFK, LJ and the AISHELL speaker, enrolled on "
        "another part of their recordings, with an unknown LibriSpeech reader (libri_d).",
        f"Time added to Label speakers (reading the store and scoring, against labelling, same runs): "
        f"{name_s / label_s:.1%} ({name_s * 1000 / len(calibration + evaluation):.0f} ms a meeting).",
        "",
    ]
    text = "\n".join(lines)
    print(text)
    if args.out:
        args.out.write_text(text + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
