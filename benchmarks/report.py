"""BENCHMARKS.md is made of sections, each written by the benchmark that measured it.

A section sits between ``<!-- begin NAME -->`` and ``<!-- end NAME -->``; writing one replaces it
where it is (or adds it at the end), so running one benchmark never erases another's results.
"""
from __future__ import annotations

import os
import platform
import re
from pathlib import Path

REPORT = Path(__file__).resolve().parents[1] / "BENCHMARKS.md"


def write_section(name: str, markdown: str, report: Path = REPORT) -> None:
    block = f"<!-- begin {name} -->\n{markdown.strip()}\n<!-- end {name} -->\n"
    text = report.read_text(encoding="utf-8") if report.exists() else "# Benchmarks\n\n"
    pattern = re.compile(rf"<!-- begin {re.escape(name)} -->\n.*?<!-- end {re.escape(name)} -->\n", re.DOTALL)
    if pattern.search(text):
        text = pattern.sub(lambda _: block, text, count=1)
    else:
        text = text.rstrip("\n") + "\n\n" + block
    report.write_text(text, encoding="utf-8")


def machine() -> str:
    """The processor, cores, memory and Python a benchmark ran on, for its section's first line."""
    cpu = platform.processor() or platform.machine() or "unknown CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    memory = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
    return f"{cpu}, {os.cpu_count()} cores, {memory:.0f} GiB RAM, no GPU used, Python {platform.python_version()}"
