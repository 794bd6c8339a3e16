"""Without the PortAudio library, recording says one sentence naming the package (the player and the
doctor say the same: tests/ui/transcribe/editor/test_playback.py, tests/core/gpu/test_doctor.py)."""
import pytest

from desktop.core.common import recorder
from desktop.core.common.system_packages import sound_unavailable


def test_the_sentence_names_the_package_and_the_command():
    assert str(sound_unavailable()) == ("Sound is unavailable because the PortAudio library is missing. Install the "
                                        "package “libportaudio2” (sudo apt-get install libportaudio2), then start "
                                        "VoxDesk again.")


def test_the_recorder_says_sound_is_unavailable(no_portaudio):
    with pytest.raises(recorder.RecorderError) as refused:
        recorder.input_devices()
    assert refused.value.message == sound_unavailable()
    with pytest.raises(recorder.RecorderError) as refused:
        recorder.Recorder().start()
    assert refused.value.message == sound_unavailable()
