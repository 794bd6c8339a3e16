"""Without the PortAudio library, recording, playing and the doctor say one sentence naming the package."""
import pytest

from desktop.core.common import recorder
from desktop.core.common.system_packages import sound_unavailable
from desktop.core.gpu.doctor import AudioInputs, DoctorProbes, Status, check_audio_input


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


def test_the_doctor_says_the_same_and_gives_the_command():
    probes = DoctorProbes(audio_inputs=lambda: AudioInputs(False, [], None))
    check = check_audio_input(None, probes)
    assert check.status == Status.WARNING
    assert check.finding == sound_unavailable()
    assert check.fix == "sudo apt-get install libportaudio2"
