"""`voxdesk subtitles shift` and `check` on real SRT files, through the command line's entry point."""
from desktop.__main__ import main

FILE = ("1\n00:00:01,000 --> 00:00:03,000\nA comfortable line.\n\n"
        "2\n00:00:03,000 --> 00:00:03,400\nFar too many words for this short moment\n")


def test_check_exits_1_and_names_the_hard_cue(tmp_path, capsys):
    path = tmp_path / "talk.srt"
    path.write_text(FILE, encoding="utf-8")
    assert main(["subtitles", "check", str(path)]) == 1
    out = capsys.readouterr().out
    assert out.splitlines()[0].startswith("2 (3.000–3.400 s): ") and "characters a second" in out
    path.write_text(FILE.split("\n\n")[0] + "\n", encoding="utf-8")
    assert main(["subtitles", "check", str(path)]) == 0


def test_shift_moves_every_cue_and_refuses_before_zero(tmp_path, capsys):
    path = tmp_path / "talk.srt"
    path.write_text(FILE, encoding="utf-8")
    assert main(["subtitles", "shift", str(path), "--by", "-0.5"]) == 0
    assert "00:00:00,500 --> 00:00:02,500" in path.read_text(encoding="utf-8")
    assert main(["subtitles", "shift", str(path), "--by", "-5"]) == 2
    assert "would start before the recording" in capsys.readouterr().err
    assert "00:00:00,500 --> 00:00:02,500" in path.read_text(encoding="utf-8"), "a refused shift changes nothing"
