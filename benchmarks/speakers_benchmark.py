"""Speaker labelling: diarization error rate, speakers found, and the time it adds to a transcription.

Meetings are composed of real recordings of different people (tests/helpers/meetings.py: turns of
2–10 s with 0.3–1 s pauses): 2, 3 and 5 speakers in English, Mandarin and both. The only Mandarin
recordings here are of one AISHELL-1 speaker, so the Mandarin meeting's second voice is espeak-ng's
Mandarin voice (synthetic, said so in the table). Whisper base (CTranslate2, CPU) transcribes each
meeting; the speaker stage then labels it, once deciding the number of speakers ("auto") and once
told it. The DER is pyannote.metrics' (confusion + missed speech + false alarm, over the reference
speech), with a collar of 0.25 s on each side of every reference boundary (pyannote's collar=0.5,
its total width) and overlap scored. The reference is where each clip sounds (pauses of 0.3 s or more
inside a turn are not speech); the hypothesis is the transcript's words with their speakers, a
speaker's words joined across gaps under 0.3 s.
Times are from one run on a shared machine, both stages of a meeting measured in the same run, with
the models already loaded: compare the ratio, not the seconds.
"""
from __future__ import annotations

import argparse
import copy
import datetime as dt
import platform
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

COLLAR = 0.5  # pyannote's collar is the total width: 0.25 s on each side of a boundary
MANDARIN_SYNTHETIC = ("我们下周一开会讨论明年的预算问题。", "请大家提前把材料准备好，谢谢。")


def compositions(work: Path) -> dict[str, tuple[str | None, list]]:
    """Meeting name -> (Whisper language, turns of (speaker, clips))."""
    from desktop.core.common.audio import decode
    from tests.helpers.espeak import speak
    from tests.helpers.meetings import clip, trimmed

    def c(voice, *numbers):
        return voice, [clip(voice, n) for n in numbers]

    espeak = [trimmed(decode(speak(text, work / f"espeak-{i}.wav", voice="cmn"))) for i, text in
              enumerate(MANDARIN_SYNTHETIC)]
    return {
        "English, 2 speakers": ("en", [c("A", 0, 1), c("B", 0), c("A", 2), c("B", 1, 2)]),
        "English, 3 speakers": ("en", [c("A", 0, 1), c("B", 0), c("JFK", 0), c("A", 2), c("B", 1, 2), c("JFK", 1)]),
        "English, 5 speakers": ("en", [c("A", 0), c("B", 0), c("JFK", 0), c("LJ", 0), c("LIBRI", 0), c("A", 1, 2),
                                       c("B", 1, 2), c("JFK", 1), c("LJ", 1)]),
        "Mandarin, 2 speakers (one synthetic)": ("zh", [c("ZH", 0), ("ESPEAK", [espeak[0]]), c("ZH", 1),
                                                        ("ESPEAK", [espeak[1]])]),
        "Mixed, 3 speakers": (None, [c("A", 0), c("ZH", 0), c("B", 0), c("ZH", 1), c("A", 1, 2), c("B", 1, 2)]),
        "Mixed, 5 speakers": (None, [c("A", 0), c("ZH", 0), c("JFK", 0), c("B", 0), c("LJ", 0), c("ZH", 1),
                                     c("A", 1, 2), c("JFK", 1), c("B", 1, 2), c("LJ", 1)]),
    }


def reference(speech) -> "Annotation":
    from pyannote.core import Annotation, Segment

    annotation = Annotation()
    for index, (start, end, speaker) in enumerate(speech):
        annotation[Segment(start, end), index] = speaker
    return annotation.support()


def hypothesis(transcript) -> "Annotation":
    """Each word's span with its line's speaker (a line's own span where it has no word timings, such as
    the empty row of speech Whisper could not transcribe), a speaker's spans joined across gaps under 0.3 s."""
    from pyannote.core import Annotation, Segment

    annotation = Annotation()
    for index, segment in enumerate(transcript.segments):
        if segment.speaker is None:
            continue
        spans = [(w.start, w.end) for w in segment.words if w.end > w.start] or [(segment.start, segment.end)]
        for number, (start, end) in enumerate(spans):
            annotation[Segment(start, end), f"{index}-{number}"] = f"speaker {segment.speaker}"
    return annotation.support(collar=0.3)


def der(speech, transcript, collar: float = COLLAR) -> dict:
    from pyannote.core import Segment, Timeline
    from pyannote.metrics.diarization import DiarizationErrorRate

    metric = DiarizationErrorRate(collar=collar, skip_overlap=False)
    truth = reference(speech)
    whole = Timeline([Segment(0.0, max(transcript.duration, truth.get_timeline().extent().end))])
    parts = metric(truth, hypothesis(transcript), uem=whole, detailed=True)
    total = parts["total"] or 1.0
    return {"der": parts["diarization error rate"], "confusion": parts["confusion"] / total,
            "missed": parts["missed detection"] / total, "false_alarm": parts["false alarm"] / total}


def run(work: Path) -> list[dict]:
    from desktop.core.gpu.fallback import FallbackLog
    from desktop.core.transcription.whisper_models import ModelStore
    from desktop.engines.speakers.labeller import SpeakerLabeller
    from desktop.engines.transcription.transcriber import TranscribeSettings, Transcriber
    from tests.helpers.meetings import compose
    from tests.helpers.weights import DATA_DIR, base_dir

    transcriber = Transcriber(ModelStore(work / "models"), FallbackLog(), gpu_available=lambda: False)
    labeller = SpeakerLabeller()
    warm_up = transcriber.transcribe_file(DATA_DIR / "jfk.flac", TranscribeSettings(model=str(base_dir()), device="cpu"))
    started = time.perf_counter()
    labeller.label(copy.deepcopy(warm_up), DATA_DIR / "jfk.flac", None)
    first_use = time.perf_counter() - started
    rows = []
    for number, (name, (language, turns)) in enumerate(compositions(work).items()):
        meeting = compose(turns, seed=number)
        path = meeting.write(work / f"meeting-{number}.wav")
        settings = TranscribeSettings(model=str(base_dir()), device="cpu", language=language)
        started = time.perf_counter()
        transcript = transcriber.transcribe_file(path, settings)
        transcribing = time.perf_counter() - started
        started = time.perf_counter()
        auto = labeller.label(copy.deepcopy(transcript), path, None)
        labelling = time.perf_counter() - started
        told = labeller.label(copy.deepcopy(transcript), path, len(meeting.speakers))
        rows.append({"name": name, "speakers": len(meeting.speakers), "seconds": len(meeting.samples) / 16000,
                     "found": len(auto.speakers), "auto": der(meeting.speech, auto),
                     "auto_strict": der(meeting.speech, auto, collar=0.0), "told": der(meeting.speech, told),
                     "transcribing": transcribing, "labelling": labelling})
        print(f"{name}: found {len(auto.speakers)} of {len(meeting.speakers)}, DER auto {rows[-1]['auto']['der']:.1%}, "
              f"told {rows[-1]['told']['der']:.1%}, time {labelling:.2f} s / {transcribing:.2f} s", flush=True)
    transcriber.release()
    rows.append({"first_use": first_use})
    return rows


def section(rows: list[dict]) -> str:
    first_use = rows[-1]["first_use"]
    rows = rows[:-1]
    lines = [
        "## Speaker labels (diarization)",
        "",
        f"{dt.date.today().isoformat()}, {platform.machine()} CPU, {platform.python_version()}; "
        "`python benchmarks/speakers_benchmark.py`. Meetings composed of real recordings "
        "(tests/helpers/meetings.py: turns of 2–10 s, pauses of 0.3–1 s), transcribed by Whisper base "
        "(CTranslate2, CPU), then labelled by VoxDesk's speaker stage (Resemblyzer embeddings of 1.6 s "
        "windows, agglomerative clustering). DER by pyannote.metrics, collar 0.25 s each side, overlap "
        "scored; reference = where each clip sounds, hypothesis = the words with their speakers (and the rows of speech Whisper left untranscribed). \"strict\": no collar. Time: the speaker stage "
        "against the transcription of the same meeting in the same run, models loaded (one shared machine: "
        "read the ratio).",
        "",
        "| meeting | length | speakers | found (auto) | DER auto | of which confusion | DER strict | "
        "DER told N | speakers time / transcription time |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for row in rows:
        lines.append(
            f"| {row['name']} | {row['seconds']:.0f} s | {row['speakers']} | {row['found']} | "
            f"{row['auto']['der']:.1%} | {row['auto']['confusion']:.1%} | {row['auto_strict']['der']:.1%} | "
            f"{row['told']['der']:.1%} | {row['labelling']:.2f} s / {row['transcribing']:.2f} s = "
            f"{row['labelling'] / row['transcribing']:.1%} |")
    worst = max(row["auto"]["der"] for row in rows)
    right = sum(row["found"] == row["speakers"] for row in rows)
    ratio = max(row["labelling"] / row["transcribing"] for row in rows)
    lines += [
        "",
        f"Targets: DER ≤ 15% on each meeting — {'met' if worst <= 0.15 else 'NOT met'} (worst {worst:.1%}); "
        f"right number of speakers with auto — {right} of {len(rows)}; extra time ≤ 10% of the transcription — "
        f"{'met' if ratio <= 0.10 else 'NOT met'} (worst {ratio:.1%}).",
        f"The first file of a session also pays for loading the speaker model and its libraries once: "
        f"{first_use:.1f} s here (torch and scikit-learn imports, weights).",
        "Limits: the meetings are short (15–45 s) and made of studio-quality clips, some voices reused "
        "across turns; the Mandarin meeting's second voice is synthetic (Whisper struggles with it, which "
        "makes that row's transcription slow, its time ratio look better than real, and its DER vary from run to "
        "run with what Whisper writes). Most of the DER "
        "is missed speech where Whisper's word timings end early, not wrong speakers (see the confusion "
        "column). Real meetings (far microphones, overlap, many short replies) will score worse.",
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--no-report", action="store_true", help="print only; leave BENCHMARKS.md alone")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as work:
        rows = run(Path(work))
    text = section(rows)
    print(text)
    if not args.no_report:
        from report import write_section  # beside this script, as run_benchmarks.py imports it

        write_section("speakers", text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
