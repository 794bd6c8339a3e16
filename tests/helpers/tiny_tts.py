"""Tiny, randomly initialised Coqui voice models, built from Coqui's own config and model classes.

No real voice weights can be fetched in tests, so these stand in for them: the same VitsConfig and
Vits classes a released model uses, just with a few thousand parameters, saved the way Coqui saves a
model (model.pth holding {"model": state_dict}, config.json, and for several voices a speaker file).
They are imported and loaded through the very path a user takes, so Coqui's real loading and
inference code runs. The sound is noise, but its sample rate and length behave like speech: VITS
predicts a duration per input character, so a longer text gives a longer recording.

FakeAmdGpu, at the end, stands in for a ROCm GPU around these models.

    folder = build_single_speaker_vits(tmp_path / "tiny")
    folder = build_multi_speaker_vits(tmp_path / "voices", speakers=("alice", "bob"))
"""
from __future__ import annotations

import contextlib
import json
import math
from pathlib import Path

from desktop.engines.speech.tts import TorchGpu

# Letters the tiny English models can say; anything else (e.g. Chinese) is outside their vocabulary.
ENGLISH_CHARACTERS = "abcdefghijklmnopqrstuvwxyz0123456789 "
PUNCTUATION = "!'(),-.:;? "
SAMPLE_RATE = 16000
# Where a config written on the trainer's machine would point; import must rewrite it.
_TRAINER_FOLDER = "/training/run-7"


def build_single_speaker_vits(
    folder: Path,
    *,
    characters: str = ENGLISH_CHARACTERS,
    language: str = "en",
    seed: int = 0,
    sample_rate: int = SAMPLE_RATE,
    frames_per_character: float = 4.0,
    phonemes: bool = False,
) -> Path:
    """A one-voice VITS model in folder (model.pth + config.json); returns folder.

    frames_per_character sets how long each character sounds (a frame is 256 samples); fewer frames
    make long texts quicker to synthesise. phonemes=True makes it read through espeak-ng's American
    English phonemes, as Coqui's LJSpeech VITS does (characters and language are then ignored).
    """
    return _build(folder, characters=characters, language=language, seed=seed, sample_rate=sample_rate,
                  frames_per_character=frames_per_character, phonemes=phonemes)


def build_multi_speaker_vits(
    folder: Path,
    *,
    speakers: tuple[str, ...] = ("alice", "bob", "chen"),
    seed: int = 1,
    sample_rate: int = SAMPLE_RATE,
) -> Path:
    """A VITS model with named voices (model.pth + config.json + speaker_ids.json); returns folder."""
    return _build(folder, characters=ENGLISH_CHARACTERS, language="en", seed=seed, sample_rate=sample_rate,
                  speakers=speakers)


def _build(
    folder: Path,
    *,
    characters: str,
    language: str,
    seed: int,
    sample_rate: int,
    speakers: tuple[str, ...] = (),
    frames_per_character: float = 4.0,
    phonemes: bool = False,
) -> Path:
    import torch
    from TTS.config.shared_configs import BaseDatasetConfig
    from TTS.tts.configs.shared_configs import CharactersConfig
    from TTS.tts.configs.vits_config import VitsArgs, VitsConfig
    from TTS.tts.models.vits import Vits
    from TTS.tts.utils.text.characters import _characters, _phonemes, _punctuations

    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    speakers_file = folder / "speaker_ids.json"
    if speakers:
        speakers_file.write_text(json.dumps({name: i for i, name in enumerate(speakers)}), encoding="utf-8")

    args = VitsArgs(
        hidden_channels=16,
        hidden_channels_ffn_text_encoder=32,
        num_layers_text_encoder=1,
        num_layers_posterior_encoder=1,
        num_layers_flow=1,
        upsample_initial_channel_decoder=16,
        upsample_rates_decoder=[8, 8, 2, 2],  # product = hop length 256
        resblock_kernel_sizes_decoder=[3],
        resblock_dilation_sizes_decoder=[[1, 3, 5]],
        use_sdp=False,
        init_discriminator=False,
        use_speaker_embedding=bool(speakers),
        speaker_embedding_channels=8,
        speakers_file=str(speakers_file) if speakers else None,
    )
    if phonemes:
        text_settings = dict(
            use_phonemes=True,
            phonemizer="espeak",
            phoneme_language="en-us",
            text_cleaner="english_cleaners",
            characters=CharactersConfig(
                characters_class="TTS.tts.models.vits.VitsCharacters", pad="_", eos="", bos="", blank=None,
                characters=_characters, punctuations=_punctuations, phonemes=_phonemes,
            ),
        )
    else:
        text_settings = dict(
            use_phonemes=False,
            text_cleaner="basic_cleaners",
            characters=CharactersConfig(
                characters_class="TTS.tts.models.vits.VitsCharacters", pad="_", eos="", bos="", blank=None,
                characters=characters, punctuations=PUNCTUATION, phonemes=None,
            ),
            datasets=[BaseDatasetConfig(formatter="ljspeech", dataset_name="tiny", language=language)],
        )
    config = VitsConfig(
        model_args=args,
        **text_settings,
        add_blank=False,
        use_speaker_embedding=bool(speakers),
        speakers_file=str(speakers_file) if speakers else None,
    )
    config.audio.sample_rate = sample_rate
    # Coqui would cut the random output at its first quiet stretch; keep the whole recording.
    config.audio.do_trim_silence = False
    torch.manual_seed(seed)
    model = Vits(config)
    with torch.no_grad():
        # By default about four frames (64 ms at 16 kHz) per character, like unhurried speech, with a
        # little random variation: a trained duration predictor gives speech length proportional to text.
        projection = model.duration_predictor.proj
        projection.weight.mul_(0.05)
        projection.bias.fill_(math.log(frames_per_character))
    torch.save({"model": model.state_dict()}, folder / "model.pth")
    model.config.save_json(str(folder / "config.json"))
    if speakers:
        _point_paths_elsewhere(folder / "config.json")
    return folder


def _point_paths_elsewhere(config_path: Path) -> None:
    """Write the speaker file path as the trainer's machine had it, as released configs do."""
    config = json.loads(config_path.read_text(encoding="utf-8"))
    foreign = f"{_TRAINER_FOLDER}/speaker_ids.json"
    config["speakers_file"] = foreign
    config["model_args"]["speakers_file"] = foreign
    config_path.write_text(json.dumps(config, indent=4), encoding="utf-8")


class FakeAmdGpu(TorchGpu):
    """Stands in for a ROCm GPU (none is available in tests): the model stays on the CPU, and the steps
    that only happen on a GPU are recorded.

    fail_on_sentence makes that sentence fail the way a card without code for its gfx target does.
    """

    def __init__(self, fail_on_sentence: int | None = None):
        self.fail_on_sentence = fail_on_sentence
        self.sentences = 0
        self.moved = 0
        self.cudnn_during_speech: list[bool] = []

    def available(self) -> bool:
        return True

    def is_rocm(self) -> bool:
        return True

    def move(self, synthesizer) -> None:
        self.moved += 1

    def free_memory(self) -> None:
        pass

    @contextlib.contextmanager
    def session(self):
        import torch

        with super().session():
            self.cudnn_during_speech.append(torch.backends.cudnn.enabled)
            self.sentences += 1
            if self.sentences == self.fail_on_sentence:
                raise RuntimeError("HIP error: invalid device function")
            yield
