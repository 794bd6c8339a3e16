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


def test_check_takes_the_limits_chosen_in_settings_and_its_options_override_them(tmp_path, capsys):
    from desktop.settings import open_settings

    path = tmp_path / "talk.srt"
    path.write_text(FILE, encoding="utf-8")  # cue 2: 40 characters in 0.4 s, and shorter than 0.8 s
    settings = open_settings()
    try:
        settings.set("subtitles/latin_cps", 150.0)
        settings.set("subtitles/min_seconds", 0.3)
        settings.sync()
        assert main(["subtitles", "check", str(path)]) == 0, "within the limits chosen in Settings"
        assert "all 2 subtitle(s) read comfortably" in capsys.readouterr().out
        assert main(["subtitles", "check", str(path), "--latin-cps", "17"]) == 1
        assert "characters a second" in capsys.readouterr().out
        assert main(["subtitles", "check", str(path), "--min-seconds", "0.5"]) == 1
        assert "shorter than 0.5 s" in capsys.readouterr().out
        assert main(["subtitles", "check", str(path), "--max-seconds", "1.5"]) == 1
        assert "1 (1.000–3.000 s): On screen 2.0 s: longer than 1.5 s." in capsys.readouterr().out
        assert main(["subtitles", "check", str(path), "--latin-cps", "0"]) == 2
        assert "--latin-cps takes a number above 0." in capsys.readouterr().err
    finally:
        for key in ("subtitles/latin_cps", "subtitles/min_seconds"):
            settings._store.remove(key)
        settings.sync()
