"""`voxdesk voices add` with a recording hours long: refused from the file's header with the limit
named, before any of it is decoded, in a real process whose peak memory is measured."""
from __future__ import annotations

import os
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


def voices_add(*args) -> tuple[int, str, float]:
    """Exit status, stderr and the peak resident memory (MB) of `voxdesk voices add ARGS` run as a process."""
    def capped() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (ADDRESS_SPACE_CAP, ADDRESS_SPACE_CAP))

    with open(os.devnull, "wb") as nowhere, subprocess.Popen(
            [sys.executable, "-m", "desktop", "voices", "add", *map(str, args)], stdout=nowhere,
            stderr=subprocess.PIPE, preexec_fn=capped) as process:
        stderr = process.stderr.read().decode("utf-8", "replace")
        _pid, status, usage = os.wait4(process.pid, 0)
        process.returncode = os.waitstatus_to_exitcode(status)
    return process.returncode, stderr, usage.ru_maxrss / 1024  # ru_maxrss is in kB on Linux


def test_a_two_hour_sample_is_refused_with_the_limit_named_and_little_memory(tmp_path):
    code = issued_code()
    sample = two_hour_wav(tmp_path / "meeting.wav")

    status, stderr, peak_mb = voices_add("Alex", "--sample", sample, "--consent", DATA_DIR / "jfk.flac",
                                         "--code", code)

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
                                         "--code", code, "--accept-warnings")

    assert status == 1, stderr
    assert (f"“consent.wav” is longer than {MAX_CONSENT_SECONDS / 60:g} minutes, the most a consent recording "
            "can be") in stderr
    assert "Traceback" not in stderr
    assert peak_mb < PEAK_LIMIT_MB, f"peak {peak_mb:.0f} MB"
