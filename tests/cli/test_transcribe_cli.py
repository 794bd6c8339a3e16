"""`voxdesk transcribe` as a person runs it from a terminal: real weights, real files, real process."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

import pytest
import srt
import webvtt

from tests.helpers.weights import DATA_DIR, normalize_english, reference, tiny_en_dir


def voxdesk(*args, cwd=None):
    env = {**os.environ}
    return subprocess.run(
        [sys.executable, "-m", "desktop", *map(str, args)],
        capture_output=True, text=True, env=env, cwd=cwd, timeout=600,
    )


def test_every_good_file_is_written_a_bad_one_is_explained_and_the_exit_status_says_so(tmp_path):
    folder = tmp_path / "会议 录音"
    folder.mkdir()
    good = shutil.copy(DATA_DIR / "jfk.flac", folder / "总结 jfk.flac")
    bad = folder / "agenda.mp3"
    bad.write_text("this is not a recording")
    out = tmp_path / "subtitles"
    out.mkdir()

    result = voxdesk("transcribe", bad, good, "--model", tiny_en_dir(), "--language", "en",
                     "--format", "srt,vtt,txt,json", "--output-dir", out)

    assert result.returncode == 1
    assert "agenda.mp3" in result.stderr and "1 of 2 files failed" in result.stderr
    assert "[2/2] 总结 jfk.flac" in result.stderr
    assert sorted(p.name for p in out.iterdir()) == ["总结 jfk.json", "总结 jfk.srt", "总结 jfk.txt", "总结 jfk.vtt"]
    cues = list(srt.parse((out / "总结 jfk.srt").read_text(encoding="utf-8")))
    spoken = " ".join(c.content.replace("\n", " ") for c in cues)
    assert normalize_english(spoken) == normalize_english(reference("jfk.flac"))
    assert [c.start for c in cues] == sorted(c.start for c in cues)
    assert len(webvtt.read(str(out / "总结 jfk.vtt"))) == len(cues)
    data = json.loads((out / "总结 jfk.json").read_text(encoding="utf-8"))
    assert data["language"] == "en" and data["segments"][0]["words"]


def test_an_existing_subtitle_is_kept_unless_overwrite_is_given(tmp_path):
    recording = shutil.copy(DATA_DIR / "jfk.flac", tmp_path / "jfk.flac")
    existing = tmp_path / "jfk.srt"
    existing.write_text("my own careful edits\n", encoding="utf-8")

    refused = voxdesk("transcribe", recording, "--model", tiny_en_dir(), "--language", "en")
    assert refused.returncode == 1
    assert "--overwrite" in refused.stderr
    assert existing.read_text(encoding="utf-8") == "my own careful edits\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["jfk.flac", "jfk.srt"], "no temporary file is left"

    replaced = voxdesk("transcribe", recording, "--model", tiny_en_dir(), "--language", "en", "--overwrite")
    assert replaced.returncode == 0, replaced.stderr
    assert "country" in existing.read_text(encoding="utf-8")


def test_an_unknown_model_is_refused_before_any_work_with_a_plain_sentence(tmp_path):
    result = voxdesk("transcribe", DATA_DIR / "jfk.flac", "--model", "enormous-v9", "--output-dir", tmp_path)
    assert result.returncode == 1
    assert 'no model called "enormous-v9"' in result.stderr
    assert "Traceback" not in result.stderr
    assert list(tmp_path.iterdir()) == []


def test_chinese_subtitles_follow_the_chosen_script_and_line_limits(tmp_path):
    import opencc

    from desktop.core.transcription.subtitles import CLOSING_PUNCTUATION, display_width
    from tests.helpers.weights import base_dir

    result = voxdesk("transcribe", DATA_DIR / "BAC009S0764W0121.wav", "--model", base_dir(), "--engine", "ct2",
                     "--language", "zh", "--chinese-script", "traditional", "--max-lines", "1",
                     "--max-cjk-chars", "5", "--format", "srt,json", "--output-dir", tmp_path)

    assert result.returncode == 0, result.stderr
    lines = [line for cue in srt.parse((tmp_path / "BAC009S0764W0121.srt").read_text(encoding="utf-8"))
             for line in cue.content.split("\n")]
    assert len(lines) >= 3
    assert all(display_width(line) <= 10 and line[0] not in CLOSING_PUNCTUATION for line in lines), lines
    to_simplified = opencc.OpenCC("t2s")
    spoken = "".join(lines)
    assert to_simplified.convert(spoken) != spoken, "Traditional characters, as chosen"
    data = json.loads((tmp_path / "BAC009S0764W0121.json").read_text(encoding="utf-8"))
    changed = [s for s in data["segments"] if "text_original" in s]
    assert changed, "what Whisper wrote is kept next to the converted text"
    for segment in changed:
        assert to_simplified.convert(segment["text"]) == to_simplified.convert(segment["text_original"])


def test_a_line_limit_below_one_is_refused_with_a_plain_sentence(tmp_path):
    result = voxdesk("transcribe", DATA_DIR / "jfk.flac", "--max-cjk-chars", "0", "--output-dir", tmp_path)
    assert result.returncode == 2
    assert "at least 1" in result.stderr and "Traceback" not in result.stderr
    assert list(tmp_path.iterdir()) == []


def test_two_recordings_with_one_name_get_two_subtitle_files_and_the_line_says_where(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    first = shutil.copy(DATA_DIR / "jfk.flac", tmp_path / "a" / "talk.flac")
    second = shutil.copy(DATA_DIR / "lj050-0131.wav", tmp_path / "b" / "talk.wav")
    out = tmp_path / "out"
    out.mkdir()

    result = voxdesk("transcribe", first, second, "--model", tiny_en_dir(), "--language", "en",
                     "--output-dir", out, "--overwrite")

    assert result.returncode == 0, result.stderr
    assert sorted(p.name for p in out.iterdir()) == ["talk (2).srt", "talk.srt"]
    assert f"written {out / 'talk.srt'}" in result.stderr
    assert f"written {out / 'talk (2).srt'}" in result.stderr
    def spoken(name):
        cues = srt.parse((out / name).read_text(encoding="utf-8"))
        return normalize_english(" ".join(c.content.replace("\n", " ") for c in cues))

    assert spoken("talk.srt") == normalize_english(reference("jfk.flac"))
    assert "formal review of activities" in spoken("talk (2).srt")


def test_a_recording_named_like_a_subtitle_file_is_never_replaced_by_its_subtitles(tmp_path):
    recording = shutil.copy(DATA_DIR / "jfk.flac", tmp_path / "speech.srt")

    result = voxdesk("transcribe", recording, "--model", tiny_en_dir(), "--language", "en", "--overwrite")

    assert result.returncode == 0, result.stderr
    assert (tmp_path / "speech.srt").read_bytes() == (DATA_DIR / "jfk.flac").read_bytes()
    subtitles = tmp_path / "speech (2).srt"
    assert f"written {subtitles}" in result.stderr
    assert "country" in subtitles.read_text(encoding="utf-8")


def test_a_format_given_twice_is_written_once_and_the_formats_after_it_too(tmp_path):
    result = voxdesk("transcribe", DATA_DIR / "jfk.flac", "--model", tiny_en_dir(), "--language", "en",
                     "--format", "srt,srt,txt", "--output-dir", tmp_path)

    assert result.returncode == 0, result.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["jfk.srt", "jfk.txt"]
    assert "country" in (tmp_path / "jfk.txt").read_text(encoding="utf-8")


def test_a_recording_that_switches_to_mandarin_keeps_the_mandarin_sentence(tmp_path):
    from tests.helpers.weights import base_dir

    result = voxdesk("transcribe", DATA_DIR / "mixed_en_zh.wav", "--model", base_dir(), "--format", "srt",
                     "--output-dir", tmp_path)

    assert result.returncode == 0, result.stderr
    cues = [cue.content for cue in srt.parse((tmp_path / "mixed_en_zh.srt").read_text(encoding="utf-8"))]
    assert "a thin stripe runs down the middle" in normalize_english(" ".join(cues))
    mandarin = "".join(c for cue in cues for c in cue if "\u4e00" <= c <= "\u9fff")
    assert sum(c in mandarin for c in reference("BAC009S0764W0121.wav")) >= 10, cues
    assert "could not be transcribed" not in result.stderr


def test_one_damaged_sample_is_silenced_and_named_and_the_speech_is_still_transcribed(tmp_path):
    import av
    import numpy as np

    from tests.helpers.weights import recording

    samples = recording("jfk.flac")
    samples[len(samples) // 2] = np.nan
    damaged = tmp_path / "jfk damaged.wav"
    with av.open(str(damaged), "w") as container:
        stream = container.add_stream("pcm_f32le", rate=16000, layout="mono")
        frame = av.AudioFrame.from_ndarray(samples[None, :], format="flt", layout="mono")
        frame.rate = 16000
        for packet in [*stream.encode(frame), *stream.encode(None)]:
            container.mux(packet)

    result = voxdesk("transcribe", damaged, "--model", tiny_en_dir(), "--language", "en", "--format", "txt")

    assert result.returncode == 0, result.stderr
    assert "no speech found" not in result.stderr
    assert "damaged" in result.stderr and "replaced with silence" in result.stderr
    written = (tmp_path / "jfk damaged.txt").read_text(encoding="utf-8")
    assert "ask not what your country can do for you" in normalize_english(written)


def test_a_damaged_model_fails_every_file_with_a_sentence_and_no_traceback(tmp_path):
    model = shutil.copytree(tiny_en_dir(), tmp_path / "damaged model")
    (model / "config.json").write_text("[1, 2]\n", encoding="utf-8")
    out = tmp_path / "out"
    out.mkdir()

    for engine in ("ct2", "torch"):
        result = voxdesk("transcribe", DATA_DIR / "jfk.flac", DATA_DIR / "lj050-0131.wav", "--model", model,
                         "--engine", engine, "--device", "cpu", "--output-dir", out)

        assert result.returncode == 1, result.stderr
        assert "Traceback" not in result.stderr
        failed = [line for line in result.stderr.splitlines() if "failed:" in line and "damaged" in line]
        assert [line.split(":")[0] for line in failed] == ["[1/2] jfk.flac", "[2/2] lj050-0131.wav"], result.stderr
        assert "2 of 2 files failed" in result.stderr
    assert list(out.iterdir()) == []


@pytest.mark.parametrize("option, value", [
    ("--beam-size", "0"), ("--beam-size", "-1"), ("--beam-size", "100000"), ("--beam-size", "five"),
    ("--max-lines", "1000"), ("--max-line-width", "100000"), ("--max-cjk-chars", "100000"),
])
def test_numbers_outside_their_sane_range_are_refused_in_one_line_before_any_work(tmp_path, option, value):
    result = voxdesk("transcribe", DATA_DIR / "jfk.flac", option, value, "--output-dir", tmp_path)
    assert result.returncode == 2
    (error,) = [line for line in result.stderr.splitlines() if "error:" in line]
    assert option in error and "at most" in error
    assert "Traceback" not in result.stderr
    assert list(tmp_path.iterdir()) == []
