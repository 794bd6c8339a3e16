"""Error rates on long recordings made from the test data, with and without a glossary, and against
faster-whisper run directly on the same weights.

    .venv/bin/python benchmarks/glossary_accuracy.py [--repeats 12] [--no-write]

The Mandarin recording is the two AISHELL clips of tests/data one after the other, --repeats times
with a second of silence between them; the English one likewise from jfk.flac and the LJ Speech
sentence. Each is transcribed with Whisper base (CTranslate2, CPU) by ``voxdesk transcribe`` as a
user runs it: without a glossary, with a glossary of the names and terms in it, and with 200
unrelated terms (names, products, and Chinese terms chosen to sound like common words) to count
false corrections, and once more without a glossary decoding the windows one after another (the
batched CPU path decodes each window without the text before it); then by faster-whisper's ``WhisperModel.transcribe``
and by openai-whisper's ``transcribe`` (the same weights, converted to its checkpoint), each with its
defaults and the same language. ``--runs`` and ``--languages`` measure only some rows (then nothing is
written: the rows are printed). The
character error rate (Mandarin, punctuation and spaces left out, Simplified script) and the word
error rate (English, Whisper's normaliser) are written to BENCHMARKS.md as the "glossary-accuracy"
section, with the number of replacements the correction pass made.
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
import unicodedata
from datetime import date
from pathlib import Path

import numpy as np
import soundfile

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.report import machine, write_section  # noqa: E402
from tests.helpers.weights import base_dir, error_rate, recording, reference, wer  # noqa: E402

MANDARIN = ("BAC009S0764W0121.wav", "BAC009S0764W0122.wav")
ENGLISH = ("jfk.flac", "lj050-0131.wav")
GLOSSARIES = {
    "zh": "# the terms in the Mandarin recording\n一二线城市\n交易\n停滞\n调整\n",
    "en": "# the terms in the English recording\nAmericans\nthereunder\n",
}
UNRELATED_LATIN = ("Kubernetes", "VoxDesk", "Salesforce", "Jira", "Confluence", "Zhang Wei", "Li Na", "Okta",
                   "Tableau", "SharePoint", "Marion", "Hendricks", "Oracle", "Workday", "Figma", "Slack")
# Chinese terms that sound like common words (室长/市长, 事实/是时, 公事/公式…)
UNRELATED_CHINESE = ("室长", "是时", "公事", "期中", "城实", "交意", "停止期", "调正", "出线", "情况表", "几户",
                     "虽燃", "处理中", "而且", "整理", "仪式", "事宜", "时事", "实施", "市值")


NOTE = ("The recordings repeat two sentences each, and their glossaries name most of the words in them, so the runs with a glossary show the best case, not an office's; the 200 unrelated terms include Chinese sound-alikes of words in the recording (城实, 调正…), for the correction pass and for the decoding, which is told of a term once the text has it or its near-miss.")


def long_recording(names: tuple[str, ...], repeats: int, folder: Path, stem: str) -> tuple[Path, str]:
    silence = np.zeros(16000, dtype=np.float32)
    pieces, texts = [], []
    for _ in range(repeats):
        for name in names:
            pieces += [recording(name), silence]
            texts.append(reference(name))
    path = folder / f"{stem}.wav"
    soundfile.write(path, np.concatenate(pieces), 16000)
    return path, ("" if stem == "zh" else " ").join(texts)


def unrelated_glossary(folder: Path) -> Path:
    terms = list(UNRELATED_LATIN) + list(UNRELATED_CHINESE)
    n = 0
    while len(terms) < 200:
        terms.append(f"Product{n:03d}")
        n += 1
    path = folder / "unrelated.txt"
    path.write_text("\n".join(terms) + "\n", encoding="utf-8")
    return path


def cer(ref: str, hyp: str) -> float:
    from desktop.core.transcription.chinese import convert_script

    def chars(text: str) -> list[str]:
        text = convert_script(text, "simplified")
        return [ch for ch in text if not unicodedata.category(ch).startswith(("P", "Z", "S")) and not ch.isspace()]

    return error_rate(chars(ref), chars(hyp))


def voxdesk(audio: Path, language: str, out: Path, glossary: Path | None, *extra: str) -> tuple[str, int, float]:
    command = [sys.executable, "-m", "desktop", "transcribe", str(audio), "--model", str(base_dir()),
               "--engine", "ct2", "--device", "cpu", "--language", language, "--format", "json",
               "--output-dir", str(out), "--overwrite", *extra]
    if glossary is not None:
        command += ["--glossary", str(glossary)]
    began = time.perf_counter()
    subprocess.run(command, check=True, capture_output=True, timeout=3600, cwd=ROOT)
    seconds = time.perf_counter() - began
    data = json.loads((out / f"{audio.stem}.json").read_text(encoding="utf-8"))
    replacements = sum(len(s.get("corrections", [])) for s in data["segments"])
    return "".join(s["text"] for s in data["segments"]), replacements, seconds


def faster_whisper(audio: Path, language: str) -> tuple[str, float]:
    from faster_whisper import WhisperModel

    began = time.perf_counter()
    model = WhisperModel(str(base_dir()), device="cpu", compute_type="int8")
    segments, _ = model.transcribe(str(audio), language=language)
    text = "".join(segment.text for segment in segments)
    return text, time.perf_counter() - began


def openai_whisper(audio: Path, language: str, folder: Path) -> tuple[str, float]:
    import torch
    import whisper

    from desktop.engines.transcription.model_files.ct2_format import read_model_bin, to_whisper_state_dict

    checkpoint = folder / "base.pt"
    if not checkpoint.exists():
        dims, state = to_whisper_state_dict(read_model_bin(base_dir() / "model.bin"))
        torch.save({"dims": dims, "model_state_dict": {k: torch.from_numpy(v) for k, v in state.items()}}, checkpoint)
    samples, _ = soundfile.read(str(audio), dtype="float32")
    began = time.perf_counter()
    model = whisper.load_model(str(checkpoint), device="cpu")
    result = model.transcribe(samples, language=language, fp16=False)
    return result["text"], time.perf_counter() - began


VOXDESK_RUNS = {
    "voxdesk": ("VoxDesk, no glossary", False, ()),
    "glossary": ("VoxDesk, glossary of its terms", True, ()),
    "unrelated": ("VoxDesk, 200 unrelated terms", "unrelated", ()),
    "sequential": ("VoxDesk, no glossary, windows one after another (--batch-size 1)", False, ("--batch-size", "1")),
}
RUNS = (*VOXDESK_RUNS, "faster-whisper", "openai-whisper")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=12)
    parser.add_argument("--no-write", action="store_true")
    parser.add_argument("--runs", nargs="+", choices=RUNS, default=list(RUNS))
    parser.add_argument("--languages", nargs="+", choices=("zh", "en"), default=["zh", "en"])
    args = parser.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        unrelated = unrelated_glossary(folder)
        for language, names in (("zh", MANDARIN), ("en", ENGLISH)):
            if language not in args.languages:
                continue
            audio, ref = long_recording(names, args.repeats, folder, language)
            glossary = folder / f"{language}-terms.txt"
            glossary.write_text(GLOSSARIES[language], encoding="utf-8")
            score = cer if language == "zh" else wer
            minutes = soundfile.info(str(audio)).duration / 60
            for run in args.runs:
                if run in VOXDESK_RUNS:
                    label, which, extra = VOXDESK_RUNS[run]
                    chosen = unrelated if which == "unrelated" else glossary if which else None
                    text, replaced, seconds = voxdesk(audio, language, folder, chosen, *extra)
                elif run == "faster-whisper":
                    label, replaced = "faster-whisper directly", None
                    text, seconds = faster_whisper(audio, language)
                else:
                    label, replaced = "openai-whisper directly (its own fp32 decoding of the same weights)", None
                    text, seconds = openai_whisper(audio, language, folder)
                rows.append((language, minutes, label, score(ref, text), replaced, seconds))
                print(rows[-1], text, flush=True)
    lines = [f"## Glossary accuracy ({date.today().isoformat()})", "", machine(), "",
             f"Whisper base (CTranslate2 int8, CPU); recordings of the test data repeated {args.repeats} times. "
             "CER for Mandarin, WER for English.", "",
             NOTE, "",
             "| recording | length | run | error rate | replacements | seconds |", "|---|---|---|---|---|---|"]
    for language, minutes, label, rate, replaced, seconds in rows:
        lines.append(f"| {'Mandarin' if language == 'zh' else 'English'} | {minutes:.1f} min | {label} | "
                     f"{100 * rate:.1f} % | {'' if replaced is None else replaced} | {seconds:.0f} |")
    markdown = "\n".join(lines)
    print(markdown)
    if not args.no_write and set(args.runs) == set(RUNS) and len(args.languages) == 2:
        write_section("glossary-accuracy", markdown)


if __name__ == "__main__":
    main()
