"""`voxdesk voices add` with a recording hours long: refused from the file's header with the limit
named, before any of it is decoded, in a real process whose peak memory is measured."""
from __future__ import annotations

import re
import resource
import struct
import subprocess
import sys
from pathlib import Path

from desktop.core.voices.library import VoiceLibrary
from desktop.core.voices.recordings import MAX_CONSENT_SECONDS, MAX_SAMPLE_SECONDS
from tests.helpers.weights import DATA_DIR

# Refused from the header, the command peaks at about 90 MB (Python, numpy, PyAV, VoxDesk); decoding two
# hours of 48 kHz sound as float32 alone would take 1.4 GB, and the quality checks several times that.
PEAK_LIMIT_MB = 400
# The command runs with its address space capped, so that on a regression it fails rather than
# taking the test machine's memory.
ADDRESS_SPACE_CAP = 6 * 1024**3


def two_hour_wav(path: Path, rate: int = 48000) -> Path:
    """A 16-bit mono WAV whose header says two hours: written as a sparse file, so it costs no disk."""
    data_bytes = 2 * 3600 * rate * 2
    header = b"RIFF" + struct.pack("<I", 36 + data_bytes) + b"WAVE"
    header += b"fmt " + struct.pack("<IHHIIHH", 16, 1, 1, rate, rate * 2, 2, 16)
    header += b"data" + struct.pack("<I", data_bytes)
    with open(path, "wb") as out:
        out.write(header)
        out.write(b"\x10\x00" * rate)  # one second of faint sound; the rest of the file reads as silence
        out.truncate(len(header) + data_bytes)
    return path


def issued_code() -> str:
    """A code from `voxdesk voices sentence`, run as its own process like the command that uses it."""
    result = subprocess.run([sys.executable, "-m", "desktop", "voices", "sentence", "--name", "Alex Reader"],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    return re.search(r"--code (\d{4})", result.stderr).group(1)


# `voxdesk ARGV...` that writes its own peak resident memory (VmHWM, kB) into a file as it exits. Read in
# the command's own process: a forked child's ru_maxrss would count the memory of the test process too.
_REPORTING_PEAK = """
import atexit, sys
def report():
    with open("/proc/self/status") as status, open(sys.argv[1], "w") as out:
        out.write(next(line for line in status if line.startswith("VmHWM:")).split()[1])
atexit.register(report)
from desktop.__main__ import main
sys.exit(main(sys.argv[2:]))
"""


def voices_add(*args, peak_file: Path) -> tuple[int, str, float]:
    """Exit status, stderr and the peak resident memory (MB) of `voxdesk voices add ARGS` run as a process."""
    def capped() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (ADDRESS_SPACE_CAP, ADDRESS_SPACE_CAP))

    result = subprocess.run([sys.executable, "-c", _REPORTING_PEAK, str(peak_file), "voices", "add", *map(str, args)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, preexec_fn=capped,
                            timeout=600)
    peak_kb = float(peak_file.read_text()) if peak_file.exists() else float("inf")  # killed before it could say
    return result.returncode, result.stderr, peak_kb / 1024


def test_a_two_hour_sample_is_refused_with_the_limit_named_and_little_memory(tmp_path):
    code = issued_code()
    sample = two_hour_wav(tmp_path / "meeting.wav")

    status, stderr, peak_mb = voices_add("Alex", "--sample", sample, "--consent", DATA_DIR / "jfk.flac",
                                         "--code", code, peak_file=tmp_path / "peak")

    assert status == 1, stderr
    assert (f"“meeting.wav” is longer than {MAX_SAMPLE_SECONDS / 60:g} minutes, the most a voice sample can be"
            in stderr)
    assert "Traceback" not in stderr
    assert peak_mb < PEAK_LIMIT_MB, f"peak {peak_mb:.0f} MB"
    assert VoiceLibrary().list() == []


def test_a_two_hour_consent_recording_is_refused_before_the_samples_are_checked(tmp_path):
    code = issued_code()
    consent = two_hour_wav(tmp_path / "consent.wav")

    status, stderr, peak_mb = voices_add("Alex", "--sample", DATA_DIR / "lj050-0131.wav", "--consent", consent,
                                         "--code", code, "--accept-warnings",
                                         peak_file=tmp_path / "peak")

    assert status == 1, stderr
    assert (f"“consent.wav” is longer than {MAX_CONSENT_SECONDS / 60:g} minutes, the most a consent recording "
            "can be") in stderr
    assert "Traceback" not in stderr
    assert peak_mb < PEAK_LIMIT_MB, f"peak {peak_mb:.0f} MB"
