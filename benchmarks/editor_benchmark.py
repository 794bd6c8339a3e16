"""The transcript editor on a two-hour transcript (2,400 lines): undo/redo, replace all, cue warnings.

    QT_QPA_PLATFORM=offscreen .venv/bin/python benchmarks/editor_benchmark.py [--lines 2400] [--repeat 5]

Lines of seeded random English words with word timings (or Chinese sentences), 3 s each. Timed, best
of --repeat, through the table's model and undo stack (without painting): undo and redo of a split,
replace all of a common word and its undo/redo, the cue warnings of every line the first time (what
"only lines with warnings" asks for once) and again after an edit (only changed lines are cut again),
those of a screenful after an edit, "only lines with warnings" before and after the idle work that
opening a transcript starts, and what autosave does after an edit on the saving thread (and the
longest the window's thread waits meanwhile).
Prints a Markdown table for BENCHMARKS.md. --clock cpu times the work by the CPU this process spent
(time.process_time), for a machine shared with other work; the longest waits stay wall-clock times.
"""
from __future__ import annotations

import argparse
import dataclasses
import json
import os
import platform
import random
import sys
import time
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

VOCABULARY = ("the quarterly budget review has moved to thursday afternoon at three and everyone in the "
              "finance team should bring their numbers").split()
clock = time.perf_counter  # what best() and the timed steps read; --clock cpu: time.process_time
ZH = "甚至出现交易几乎停滞的情况一二线城市虽然也处于调整中大家对后市的看法出现了分歧有人认为会继续下跌"


def transcript(lines: int, chinese: bool):
    from desktop.core.transcription.transcript import Segment, Transcript, Word

    rng = random.Random(lines)
    segments = []
    for row in range(lines):
        start = row * 3.0
        if chinese:
            offset = rng.randrange(len(ZH) - 14)
            pieces = [ZH[offset + i:offset + i + 2] for i in range(0, 14, 2)]
        else:
            pieces = [" " + rng.choice(VOCABULARY) for _ in range(9)]
        step = 2.8 / len(pieces)
        words = [Word(start + i * step, start + (i + 1) * step, piece) for i, piece in enumerate(pieces)]
        segments.append(Segment(start, start + 2.8, "".join(pieces), words=words))
    return Transcript(segments=segments, language="zh" if chinese else "en", duration=lines * 3.0)


def best(repeat: int, work) -> float:
    """The shortest of repeat runs of work; where work times itself (sets work.took), that time."""
    times = []
    for _ in range(repeat):
        began = clock()
        work()
        times.append(getattr(work, "took", None) or clock() - began)
    return min(times)


def measure(lines: int, repeat: int, chinese: bool) -> dict[str, float]:
    from PySide6.QtWidgets import QApplication

    from desktop.core.transcription import edits
    from desktop.core.transcription.autosave import _TranscriptEncoder
    from desktop.core.transcription.cue_checks import line_warnings
    from desktop.core.transcription.edits import Search
    from desktop.ui.transcribe.editor.document import TranscriptDocuments
    from desktop.ui.transcribe.editor.segments_model import SegmentSearchModel, SegmentsModel
    from desktop.workers.transcription_queue import ItemState, QueueItem

    QApplication.instance() or QApplication([])
    text = transcript(lines, chinese)
    item = QueueItem(path=Path("talk.wav"), state=ItemState.DONE, transcript=text)
    documents = TranscriptDocuments()
    document = documents.for_item(item)
    model = SegmentsModel()
    proxy = SegmentSearchModel()
    proxy.setSourceModel(model)
    model.show_transcript(text, document)
    documents.show(document)
    stack = document.undo_stack
    while model.filling:  # the table takes a long transcript in a slice per turn of the event loop
        QApplication.processEvents()
    middle = lines // 2
    found = {}
    model.commit(edits.split(text, middle, 6))
    assert model.rowCount() == lines + 1 and stack.canUndo()
    found["undo and redo of a split"] = best(repeat, lambda: (stack.undo(), stack.redo()))
    word = "出现" if chinese else "budget"
    change, count = edits.replace_all(text, Search(word), "X")
    found[f"replace all ({count} matches)"] = best(repeat, lambda: edits.replace_all(text, Search(word), "X"))
    model.commit(change)
    found["undo and redo of replace all"] = best(repeat, lambda: (stack.undo(), stack.redo()))
    found["cue warnings of every line, first time (the export's cutting of each)"] = best(1, lambda: line_warnings(text))
    model.show_transcript(text, document)  # as when the file is selected: the warnings are worked out while idle
    found["\"only lines with warnings\" at once after opening"] = best(1, filter_on(model, proxy))
    found["idle work after opening, the rest of the lines listed meanwhile (slices of 15 ms)"] = best(
        1, lambda: warm_while_idle(model))
    assert all_warnings_listed(model, proxy)
    found["\"only lines with warnings\" after the idle work"] = best(repeat, filter_on(model, proxy))
    assert all_warnings_listed(model, proxy)
    all_rows = range(model.rowCount())
    [model.warnings(row) for row in all_rows]

    def edit_then_warnings():
        stack.undo()
        stack.redo()
        [model.warnings(row) for row in all_rows]
    found["cue warnings of every line after a split and its undo"] = best(repeat, edit_then_warnings)
    found["warnings of a screenful (30 lines) after an edit"] = best(repeat, lambda: (
        model.commit(edits.edit_text(text, middle, text.segments[middle].text + " x")),
        [model.warnings(row) for row in range(middle - 15, middle + 15)]))
    found["autosave: copy on the window's thread"] = best(repeat, lambda: dataclasses.replace(
        text, segments=list(text.segments), speaker_names=dict(text.speaker_names)))
    found["autosave before: the whole JSON on every edit"] = best(repeat, lambda: json.dumps(text.to_dict(), ensure_ascii=False))
    encoder = _TranscriptEncoder()
    found["autosave: the first save's JSON (saving thread)"] = best(1, lambda: encoder.json(text))
    def edit_and_save() -> None:
        model.commit(edits.edit_text(text, middle, text.segments[middle].text + " y"))
        began = clock()
        encoder.json(text)
        edit_and_save.took = clock() - began
    found["autosave: a save after an edit (saving thread)"] = best(repeat, edit_and_save)
    model.commit(edits.edit_text(text, middle, text.segments[middle].text + " z"))
    found["autosave: longest wait of the window's thread during that save"] = longest_hold(lambda: encoder.json(text))
    found["autosave before: longest wait of the window's thread during its save"] = longest_hold(
        lambda: json.dumps(text.to_dict(), ensure_ascii=False))
    return found


def filter_on(model, proxy):
    """toggle_filter as work for best(), telling it the time of turning the filter on."""
    def work() -> None:
        toggle_filter(model, proxy)
        work.took = toggle_filter.took
    return work


def toggle_filter(model, proxy) -> None:
    """Turn the filter on (what is timed); it is turned off again before the next time."""
    proxy.show_only_warnings(False)
    began = clock()
    proxy.show_only_warnings(True)
    toggle_filter.took = clock() - began


def all_warnings_listed(model, proxy) -> bool:
    return proxy.rowCount() == sum(1 for row in range(model.rowCount()) if model.warnings(row))


def warm_while_idle(model) -> None:
    from PySide6.QtWidgets import QApplication

    while model._warming.isActive():
        QApplication.processEvents()


def longest_hold(work) -> float:
    """The longest the window's thread waits for the GIL while work runs on another thread: a thread
    here asks for it every millisecond and records the longest gap."""
    import threading

    gaps, done = [0.0], threading.Event()
    runner = threading.Thread(target=lambda: (work(), done.set()))

    def watch() -> None:
        last = time.perf_counter()
        while not done.is_set():
            time.sleep(0.001)
            now = time.perf_counter()
            gaps[0] = max(gaps[0], now - last)
            last = now
    watcher = threading.Thread(target=watch)
    watcher.start()
    runner.start()
    runner.join()
    watcher.join()
    return gaps[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=2400)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--clock", choices=("wall", "cpu"), default="wall")
    args = parser.parse_args()
    global clock
    clock = time.process_time if args.clock == "cpu" else time.perf_counter
    english, chinese = measure(args.lines, args.repeat, False), measure(args.lines, args.repeat, True)
    print(f"{date.today()}, {platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
          f"Python {platform.python_version()}; {args.lines} lines, best of {args.repeat}, {args.clock} clock\n")
    print("| operation | English | Chinese |\n|---|---|---|")
    for (name, seconds), zh_seconds in zip(english.items(), chinese.values()):
        print(f"| {name} | {seconds * 1000:.2f} ms | {zh_seconds * 1000:.2f} ms |")
    sys.stdout.flush()
    # PySide may crash collecting the models after the QApplication at interpreter exit; all is printed.
    os._exit(0)


if __name__ == "__main__":
    main()
