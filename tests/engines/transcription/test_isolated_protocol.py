"""The messages between VoxDesk and its engine process: audio as raw float32, segments and errors
that come back as what they were, so the window translates them and the GPU fallback recognises them."""
from __future__ import annotations

import io

import numpy as np
import pytest

from desktop.core.common.errors import Cancelled, ModelError
from desktop.core.gpu.fallback import is_gpu_failure, is_out_of_memory
from desktop.core.transcription.english_only import HeardLanguage
from desktop.core.transcription.transcript import Segment, Word
from desktop.engines.transcription.process import protocol
from desktop.engines.transcription.engine import GPU_OUT_OF_MEMORY, EngineResult, GpuError, TranscribeOptions
from desktop.core.common.i18n import N_


def round_trip(message: dict, samples=None) -> dict:
    pipe = io.BytesIO()
    protocol.write_message(pipe, message, samples)
    pipe.seek(0)
    return protocol.read_message(pipe)


def test_audio_crosses_as_raw_samples_and_arrives_writable():
    samples = np.random.default_rng(1).standard_normal(16000 * 3).astype(np.float32)
    pipe = io.BytesIO()
    protocol.write_message(pipe, {"op": "transcribe", "id": 1}, samples)
    assert len(pipe.getvalue()) < samples.nbytes + 200, "no pickle, no text: the bytes themselves"
    pipe.seek(0)
    message = protocol.read_message(pipe)
    assert np.array_equal(message["audio"], samples) and message["audio"].flags.writeable


def test_a_request_cut_off_half_way_reads_as_the_end():
    pipe = io.BytesIO()
    protocol.write_message(pipe, {"op": "transcribe", "id": 1}, np.zeros(1000, dtype=np.float32))
    assert protocol.read_message(io.BytesIO(pipe.getvalue()[:-10])) is None
    assert protocol.read_message(io.BytesIO(b"")) is None


def test_segments_results_and_options_come_back_equal():
    words = [Word(0.0, 0.4, " Ask", 0.9), Word(0.4, 0.9, " not", 0.8)]
    result = EngineResult(segments=[Segment(0.0, 0.9, " Ask not", words)], language="en",
                          speech=[(0.0, 1.2)], avg_logprobs=[-0.3], batch_size=2, bf16_encoder=True,
                          compute_type="int8", device="cpu")
    assert protocol.decode_result(round_trip(protocol.encode_result(result))) == result
    options = TranscribeOptions(language="zh", initial_prompt="以下是普通话的句子。", beam_size=1, temperature=0.4)
    assert protocol.decode_options(round_trip(protocol.encode_options(options))) == options


def test_what_the_language_checker_heard_comes_back_and_the_request_to_check_goes_there():
    heard = EngineResult(segments=[], language="en", multilingual=False,
                         checked=(HeardLanguage("en", 0.97, 30.0), HeardLanguage("zh", 0.998, 12.5)))
    assert protocol.decode_result(round_trip(protocol.encode_result(heard))) == heard
    unchecked = EngineResult(segments=[], language="en", multilingual=False)
    assert protocol.decode_result(round_trip(protocol.encode_result(unchecked))).checked == ()
    options = TranscribeOptions(language=None, check_language=True)
    assert protocol.decode_options(round_trip(protocol.encode_options(options))) == options


def test_a_sentence_stays_translatable_with_the_values_put_in():
    sentence = N_("Engine", "The model “{name}” is damaged.").format(name="base")
    error = protocol.decode_error(round_trip(protocol.encode_error(ModelError(sentence, detail="crc"))))
    assert isinstance(error, ModelError)
    assert error.message == sentence and error.message.context == "Engine"
    assert error.message.values == {"name": "base"} and error.detail == "crc"


def raised(exc: BaseException, cause: BaseException | None = None) -> BaseException:
    try:
        try:
            if cause is not None:
                raise cause
        finally:
            raise exc
    except BaseException as caught:  # noqa: BLE001
        return caught


def test_a_gpu_error_and_its_library_cause_are_recognised_as_they_were():
    class OutOfMemoryError(RuntimeError):  # torch's, without importing torch
        pass

    original = raised(GpuError(GPU_OUT_OF_MEMORY, detail="HIP out of memory", out_of_memory=True),
                      OutOfMemoryError("HIP out of memory. Tried to allocate 2.00 GiB"))
    copy = protocol.decode_error(round_trip(protocol.encode_error(original)))
    assert isinstance(copy, GpuError) and copy.out_of_memory and copy.message == GPU_OUT_OF_MEMORY
    assert type(copy.__cause__).__name__ == "OutOfMemoryError" and isinstance(copy.__cause__, RuntimeError)
    assert is_gpu_failure(copy) and is_out_of_memory(copy)
    assert any("In the engine process" in note for note in copy.__notes__)


def test_a_plain_library_error_keeps_its_kind_and_cancel_stays_cancel():
    hip = protocol.decode_error(protocol.encode_error(raised(RuntimeError("HIP error: invalid device function"))))
    assert type(hip) is RuntimeError and is_gpu_failure(hip)
    assert isinstance(protocol.decode_error(protocol.encode_error(raised(Cancelled()))), Cancelled)
    with pytest.raises(ValueError):
        raise protocol.decode_error(protocol.encode_error(raised(ValueError("bad task"))))
