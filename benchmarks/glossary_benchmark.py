"""The glossary correction pass on a two-hour transcript with a 2,000-term glossary.

    .venv/bin/python benchmarks/glossary_benchmark.py [--segments 2400] [--terms 2000] [--repeat 3]

The transcript is --segments segments (about three seconds each: 2,400 make two hours), seeded
random Mandarin sentences with word probabilities, one in ten in English, with some glossary terms
written as homophones or as their listed misheard spellings. The glossary is --terms seeded random
Chinese terms of two to four characters and Latin product names. Timed: preparing the glossary
(``Corrector``) and the pass over every segment; the first run also loads jieba's dictionary, which
the later runs (best of --repeat) find in memory. Written to BENCHMARKS.md as the "glossary" section.
"""
from __future__ import annotations

import argparse
import copy
import random
import sys
import time
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.report import machine, write_section  # noqa: E402
from desktop.core.glossary.correction import Corrector  # noqa: E402
from desktop.core.glossary.glossary_file import Term  # noqa: E402
from desktop.core.transcription.transcript import Segment, Transcript, Word  # noqa: E402

SENTENCES = ("甚至出现交易几乎停滞的情况", "一二线城市虽然也处于调整中", "大家对后市的看法出现了分歧",
             "我们尝试一下新的办法", "会议推迟到星期四下午三点", "财务部的同事请带上预算表",
             "太乙真人是这部电影的主角", "这个项目的进度比计划快了一点")
ENGLISH = " The quarterly budget review has moved to Thursday, and vox desk runs on the new server."
CHARACTERS = "的一是在不了有和人这中大为上个国我以要他时来用们生到作地于出就分对成会可主发年动同工也能下过子说产种面而方后多定行学法所民得经十三之进着等部度家电力里如水化高自二理起小物现实加量都两体制机当使点从业本去把性好应开它合还因由其些然前外天政四日那社义事平形相全表间样与关各重新线内数正心反你明看原又么利比或但质气第向道命此变条只没结解问意建月公无系军很情者最立代想已通并提直题党程展五果料象员革位入常文总次品式活设及管特件长求老头基资边流路级少图山统接知较将组见计别她手角期根论运农指几九区强放决西被干做必战先回则任取据处队南给色光门即保治北造百规热领七海口东导器压志世金增争济阶油思术极交受联什认六共权收证改清己美再采转更单风切打白教速花带安场身车例真务具万每目至达走积示议声报斗完类八离华名确才科张信马节话米整空元况今集温传土许步群广石记需段研界拉林律叫且究观越织装影算低持音众书布复容儿须际商非验连断深难近矿千周委素技备半办青省列习响约支般史感劳便团往酸历市克何除消构府称太准精值号率族维划选标写存候毛亲快效斯院查江型眼王按格养易置派层片始却专状育厂京识适属圆包火住调满县局照参红细引听该铁价严"


def build(segments: int, terms: int, seed: int = 29) -> tuple[Transcript, list[Term]]:
    rng = random.Random(seed)
    glossary = [Term("城市"), Term("太乙真人"), Term("VoxDesk", ("vox desk",))]
    while len(glossary) < terms:
        if rng.random() < 0.8:
            glossary.append(Term("".join(rng.choice(CHARACTERS) for _ in range(rng.randint(2, 4)))))
        else:
            glossary.append(Term(rng.choice(("Pro", "Net", "Data", "Cloud", "Flex")) + rng.choice(
                ("Hub", "Desk", "Sync", "Base", "Line")) + str(rng.randint(1, 999))))
    transcript = Transcript(language="zh")
    for index in range(segments):
        start = index * 3.0
        if index % 10 == 9:
            text = ENGLISH
            pieces = [" " + w for w in text.split()]
        else:
            text = "，".join(rng.choice(SENTENCES).replace("城市", rng.choice(("城市", "尝试")))
                            .replace("太乙", rng.choice(("太乙", "太以"))) for _ in range(2)) + "。"
            pieces = [text[i:i + 2] for i in range(0, len(text), 2)]
        words = [Word(start=start + i * 0.1, end=start + (i + 1) * 0.1, text=p, probability=rng.uniform(0.2, 1.0))
                 for i, p in enumerate(pieces)]
        transcript.segments.append(Segment(start=start, end=start + 3.0, text="".join(pieces), words=words))
    return transcript, glossary


def run_once(transcript: Transcript, glossary: list[Term]) -> tuple[float, float, float, int]:
    """Seconds to prepare the glossary, seconds of the pass, processor seconds of both, replacements."""
    work = copy.deepcopy(transcript)
    began, began_cpu = time.perf_counter(), time.process_time()
    corrector = Corrector(glossary)
    prepared = time.perf_counter()
    report = corrector.correct_transcript(work)
    return (prepared - began, time.perf_counter() - prepared, time.process_time() - began_cpu,
            report.replacements)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--segments", type=int, default=2400)
    parser.add_argument("--terms", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--no-write", action="store_true", help="print only; leave BENCHMARKS.md as it is")
    args = parser.parse_args()
    transcript, glossary = build(args.segments, args.terms)
    cold = run_once(transcript, glossary)
    warm = min((run_once(transcript, glossary) for _ in range(max(1, args.repeat))), key=lambda r: r[2])
    hours = args.segments * 3.0 / 3600
    rows = [("first run (loads jieba's dictionary)", cold), (f"best of {args.repeat} later runs", warm)]
    lines = [f"## Glossary correction pass ({date.today().isoformat()})", "", machine(), "",
             f"{args.segments} segments ({hours:.1f} h of speech), {len(glossary)} glossary terms; goal: under 2 s.", "",
             "The processor time is the one to compare on a busy machine: the wall-clock time also counts "
             "the time other programs had the processor.", "",
             "| run | prepare glossary | pass | total | processor time | replacements |", "|---|---|---|---|---|---|"]
    for label, (prepare, correction, cpu, replaced) in rows:
        lines.append(f"| {label} | {prepare:.2f} s | {correction:.2f} s | {prepare + correction:.2f} s | {cpu:.2f} s "
                     f"| {replaced} |")
    markdown = "\n".join(lines)
    print(markdown)
    if not args.no_write:
        write_section("glossary", markdown)


if __name__ == "__main__":
    main()
