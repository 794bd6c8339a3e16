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
machine; its RTF shows the engine's overhead, not a real voice's cost), plus every voice model already
downloaded or imported into VoxDesk, plus any given with --model. Nothing is downloaded.
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
    note: str = ""


def _models(store, extra: list[str], work: Path) -> list[tuple[str, str]]:
    """(label, model name or folder) for the tiny model, the models on disk, and extra ones."""
    from tests.helpers.tiny_tts import build_single_speaker_vits

    tiny = build_single_speaker_vits(work / "tiny-vits")
    models = [("tiny random VITS", str(tiny))]
    for model in store.catalog():
        if model.downloaded:
            models.append((model.title, model.name))
    models += [(name, name) for name in extra]
    return models


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

    rtfs, firsts, durations = [], [], []
    for _ in range(repeat):
        first: list[float] = []
        begin = time.perf_counter()
        speech = synthesizer.synthesize(text, settings,
                                        on_sentence=lambda s: first.append(time.perf_counter()) if not first else None)
        spent = time.perf_counter() - begin
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
        note="" if sound else "no sound device (install pulseaudio for the first-sound column)",
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--model", action="append", default=[], help="a model name or folder to add")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--json", type=Path, default=None, help="also write the results here")
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
    header = f"{'model':<34} {'lang':<10} {'load s':>7} {'RTF':>7} {'speech s':>9} {'1st sentence s':>15} {'1st sound s':>12}"
    print(header)
    print("-" * len(header))
    for r in results:
        sound = f"{r.first_sound_s:.3f}" if r.first_sound_s is not None else "n/a"
        print(f"{r.model[:34]:<34} {r.languages:<10} {r.load_s:>7.2f} {r.rtf:>7.3f} {r.speech_s:>9.1f} "
              f"{r.first_sentence_s:>15.3f} {sound:>12}")
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps([asdict(r) for r in results], indent=2), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
