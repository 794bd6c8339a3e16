"""The editor's player on a stretch of a recording (a clicked line): decoded by core.common.audio, heard
through the StreamPlayer."""
from pathlib import Path

import pytest

from desktop.ui.common.stream_player import NO_SOUND_OUTPUT, STOPPED
from desktop.ui.transcribe.editor.playback import PLAYBACK_RATE, Playback, decode_stretch
from desktop.workers.job import JobRunner
from tests.helpers.pulseaudio import pulseaudio, pulseaudio_server  # noqa: F401 - fixtures

JFK = Path(__file__).resolve().parents[3] / "data" / "jfk.flac"


@pytest.fixture
def player(qtbot):
    runner = JobRunner()
    player = Playback(runner)
    yield player
    player.stop()
    assert runner.shutdown(30_000)


def test_a_stretch_is_decoded_at_the_playback_rate():
    assert len(decode_stretch(JFK, 1.0, 2.5)) == pytest.approx(1.5 * PLAYBACK_RATE, abs=2)


def test_a_stretch_plays_on_a_real_device_and_ends_by_itself(qtbot, player, pulseaudio):
    changes, errors = [], []
    player.state_changed.connect(changes.append)
    player.error.connect(errors.append)
    player.play_from(JFK, 2.0, 2.6)
    assert player.state != STOPPED
    qtbot.waitUntil(lambda: bool(pulseaudio.playing_streams()), timeout=10_000)
    qtbot.waitUntil(lambda: player.state == STOPPED, timeout=10_000)
    assert changes == ["playing", "stopped"] and errors == []


def test_stop_silences_the_stretch_at_once(qtbot, player, pulseaudio):
    player.play_from(JFK, 0.0, 10.0)
    qtbot.waitUntil(lambda: bool(pulseaudio.playing_streams()), timeout=10_000)
    player.stop()
    assert player.state == STOPPED
    qtbot.waitUntil(lambda: not pulseaudio.playing_streams(), timeout=10_000)


def test_a_file_that_is_gone_is_said_in_a_sentence(qtbot, player, tmp_path):
    with qtbot.waitSignal(player.error, timeout=10_000) as error:
        player.play_from(tmp_path / "moved away.flac", 1.0, 2.0)
    assert "cannot find the file “moved away.flac”" in error.args[0]
    qtbot.waitUntil(lambda: player.state == STOPPED, timeout=10_000)


def test_without_a_sound_device_it_says_the_same_as_the_synthesize_tab(qtbot, player, tmp_path, monkeypatch):
    from tests.helpers.pulseaudio import refresh_portaudio

    monkeypatch.setenv("PULSE_SERVER", f"unix:{tmp_path / 'nobody-listens'}")
    client = tmp_path / "client.conf"
    client.write_text("autospawn = no\n")
    monkeypatch.setenv("PULSE_CLIENTCONFIG", str(client))
    monkeypatch.setenv("AUDIODEV", "null-device-that-does-not-exist")
    refresh_portaudio()
    import sounddevice

    try:
        if any(d["max_output_channels"] > 0 and d["name"] not in ("pulse", "default")
               for d in sounddevice.query_devices()):
            pytest.skip("this computer has a sound card of its own")
        with qtbot.waitSignal(player.error, timeout=10_000) as error:
            player.play_from(JFK, 1.0, 1.5)
        assert error.args == [str(NO_SOUND_OUTPUT)]
        assert player.state == STOPPED
    finally:
        refresh_portaudio()


def test_without_portaudio_it_says_sound_is_unavailable_and_which_package_brings_it(qtbot, player, no_portaudio):
    from desktop.core.common.system_packages import sound_unavailable

    with qtbot.waitSignal(player.error, timeout=10_000) as error:
        player.play_from(JFK, 1.0, 1.5)
    assert error.args == [str(sound_unavailable())]
    qtbot.waitUntil(lambda: player.state == STOPPED, timeout=10_000)
