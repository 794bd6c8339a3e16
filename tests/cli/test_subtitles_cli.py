"""`voxdesk subtitles shift` and `check` on real SRT files, through the command line's entry point."""
import pytest

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


def test_check_reads_a_webvtt_file_as_the_window_does(tmp_path, capsys):
    path = tmp_path / "talk.vtt"
    path.write_text("WEBVTT\n\nNOTE made elsewhere\n\n00:00:01.000 --> 00:00:03.000 align:start\n"
                    "<v Anna>A comfortable line.\n\n00:04.000 --> 00:06.000\nAnd &amp; another.\n", encoding="utf-8")
    assert main(["subtitles", "check", str(path)]) == 0, capsys.readouterr().err
    assert "all 2 subtitle(s) read comfortably" in capsys.readouterr().out


@pytest.mark.parametrize("action", [["check"], ["shift", "--by", "1"]])
def test_an_hour_field_past_what_an_int_holds_is_a_sentence_not_a_traceback(tmp_path, capsys, action):
    path = tmp_path / "far.srt"
    text = "1\n00:00:01,000 --> 00:00:02,000\nfine\n\n2\n3000000000:00:01,000 --> 3000000000:00:02,000\nfar\n"
    path.write_text(text, encoding="utf-8")
    assert main(["subtitles", *action[:1], str(path), *action[1:]]) == 2
    assert ("Subtitle 2 (line 6 of “far.srt”) is timed after 100 hours, longer than a recording can last"
            in capsys.readouterr().err)
    assert path.read_text(encoding="utf-8") == text


@pytest.mark.parametrize("by", ["nan", "inf", "-inf", "1e20", "360001", "-360001", "soon"])
def test_shift_refuses_a_by_that_is_not_a_number_or_moves_past_100_hours(tmp_path, capsys, by):
    path = tmp_path / "talk.srt"
    path.write_text(FILE, encoding="utf-8")
    with pytest.raises(SystemExit) as stopped:
        main(["subtitles", "shift", str(path), f"--by={by}"])  # "=": argparse takes "-inf" for an option
    assert stopped.value.code == 2
    assert (f"argument --by: takes a number of seconds, like 1.5 or -0.25, of at most 100 hours either way, "
            f"not {by}." in capsys.readouterr().err)
    assert path.read_text(encoding="utf-8") == FILE


def test_shift_refuses_to_move_a_cue_past_100_hours(tmp_path, capsys):
    path = tmp_path / "talk.srt"
    path.write_text(FILE, encoding="utf-8")
    assert main(["subtitles", "shift", str(path), "--by", "359998"]) == 2
    assert "Subtitle 2 would end after 100 hours" in capsys.readouterr().err
    assert path.read_text(encoding="utf-8") == FILE


def test_shift_changes_only_the_times_keeping_numbers_and_position_fields(tmp_path, capsys):
    path = tmp_path / "talk.srt"
    text = ("\ufeff7\r\n00:00:01,000 --> 00:00:02,000 X1:100 X2:200 Y1:10 Y2:50\r\n<i>Hello</i>\r\n\r\n"
            "12\r\n00:00:03,000 --> 00:00:04,500\r\nsecond\r\nline\r\n")
    path.write_bytes(text.encode())
    assert main(["subtitles", "shift", str(path), "--by", "1.25"]) == 0
    assert path.read_bytes() == text.replace("00:00:01,000 --> 00:00:02,000", "00:00:02,250 --> 00:00:03,250") \
        .replace("00:00:03,000 --> 00:00:04,500", "00:00:04,250 --> 00:00:05,750").encode()
    assert "2 subtitle(s) moved by +1.25 s" in capsys.readouterr().out


def test_shift_keeps_webvtt_cue_settings_and_identifiers(tmp_path):
    path = tmp_path / "talk.vtt"
    text = "WEBVTT\n\nintro\n00:01.000 --> 00:02.000 align:start line:90%\n<v Anna>Hi\n"
    path.write_text(text, encoding="utf-8")
    assert main(["subtitles", "shift", str(path), "--by", "-0.5"]) == 0
    assert path.read_text(encoding="utf-8") == text.replace(
        "00:01.000 --> 00:02.000", "00:00:00.500 --> 00:00:01.500")


def test_shift_through_a_link_shifts_the_file_it_points_to_and_keeps_the_link(tmp_path):
    real = tmp_path / "files" / "talk.srt"
    real.parent.mkdir()
    real.write_text(FILE, encoding="utf-8")
    link = tmp_path / "talk.srt"
    link.symlink_to(real)
    assert main(["subtitles", "shift", str(link), "--by", "2"]) == 0
    assert link.is_symlink() and link.resolve() == real
    assert "00:00:03,000 --> 00:00:05,000" in real.read_text(encoding="utf-8")
    assert sorted(p.name for p in real.parent.iterdir()) == ["talk.srt"], "no temporary file left"


def test_check_names_a_subtitle_that_ends_before_it_starts(tmp_path, capsys):
    path = tmp_path / "talk.srt"
    path.write_text("1\n00:00:05,000 --> 00:00:02,000\nbackwards\n", encoding="utf-8")
    assert main(["subtitles", "check", str(path)]) == 2
    err = capsys.readouterr().err
    assert "Subtitle 1 (line 2 of “talk.srt”) ends before it starts" in err and "On screen" not in err


def test_check_refuses_a_file_of_150000_subtitles_naming_the_limit(tmp_path, capsys):
    path = tmp_path / "film.srt"
    path.write_text("".join(f"{n}\n00:00:01,000 --> 00:00:02,000\nx\n\n" for n in range(1, 150_001)),
                    encoding="utf-8")
    assert main(["subtitles", "check", str(path)]) == 2
    assert "has more than 20,000 subtitles; VoxDesk opens files of up to 20,000 subtitles." in capsys.readouterr().err
