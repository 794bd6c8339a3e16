"""Speaking in a saved voice, and adding a voice with verified consent. No Qt here.

Two engines, both from coqui-tts, both on the CPU by design (like Synthesize):

- XTTS v2: zero-shot cloning. The voice's samples become XTTS's conditioning latents and speaker
  embedding once per run (computed by the model's own methods from audio VoxDesk decodes with PyAV),
  then each sentence is generated with them. 17 languages, Chinese included. Its CPML licence allows
  non-commercial use only; it must be accepted in the window (recorded by TtsModelStore), never on
  stdin.
- OpenVoice v2: a Coqui TTS voice speaks the sentence (desktop.engines.speech.tts), and OpenVoice's
  converter (TTS.vc.models.openvoice) changes its tone colour to the voice's. MIT licence, so it may
  be used commercially. The converter is a folder with OpenVoice's config.json and checkpoint.pth.

Whatever the caller (window, command line, a script), VoiceCloner.speak() first opens the voice
sealed (desktop.core.voices.sealed): the seal of its record checked with the install's key, each
recording read once into memory and checked against its hash. Everything after works from those
bytes, never from the files again, and refuses a voice without a valid seal. Every sentence spoken is
watermarked (desktop.engines.voices.watermark) before anyone gets it. After speaking it measures the
"voice match": the Resemblyzer similarity between the voice's sample and what was produced.

Coqui and torch are imported inside the functions that need them.
"""
from __future__ import annotations

import contextlib
import json
import logging
import os
import shutil
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import numpy as np

from desktop.core.voices.codes import not_issued
from desktop.core.voices.consent import ConsentPrompt, ConsentRecord, verify_consent
from desktop.core.common.errors import Cancelled, ModelError, UserFacingError
from desktop.core.speech.sentences import has_han, is_speakable, split_sentences
from desktop.core.speech.tts_catalog import MULTILINGUAL_DEFAULT, default_model
from desktop.core.speech.tts_licences import CPML_TERMS, LicenceTerms
from desktop.core.speech.tts_models import TtsModelStore
from desktop.core.voices.quality import PreparedSample, prepare_sample
from desktop.core.voices.library import CONSENT_FILE, Voice, VoiceError, VoiceLibrary, open_checked
from desktop.core.voices.sealed import SealedVoice, decode_wav_bytes
from desktop.engines.voices.speaker import ENCODER_RATE, SpeakerEncoder, SpeakerError, resample
from desktop.engines.voices.watermark import READ_RATE as WATERMARK_RATE
from desktop.engines.voices.watermark import carries_watermark
from desktop.engines.speech.coqui import XTTS_MAX_CHARS
from desktop.engines.speech.tts import (
    MAX_SENTENCE_CHARS,
    NO_TEXT,
    NOTHING_TO_SAY,
    SENTENCE_PAUSE_SECONDS,
    SpokenSentence,
    Speech,
    SpeechSynthesizer,
    SynthesisSettings,
    language_name,
)
from desktop.core.common.fs_errors import write_error_message
from desktop.core.common.i18n import N_

log = logging.getLogger(__name__)

XTTS_MODEL = MULTILINGUAL_DEFAULT  # "tts_models/multilingual/multi-dataset/xtts_v2"
XTTS_RATE = 22050  # XTTS reads its reference audio at this rate


@dataclass(frozen=True)
class CloneEngineInfo:
    id: str
    title: str
    licence: str
    commercial_use: bool
    licence_url: str
    summary: str

    @property
    def licence_line(self) -> str:
        """The one line shown next to the Speak button."""
        if self.commercial_use:
            use = N_("CloneEngine", "commercial use allowed")
        else:
            use = N_("CloneEngine", "non-commercial use only")
        return N_("CloneEngine", "Licence: {licence} ({use})").format(licence=self.licence, use=use)


ENGINES: dict[str, CloneEngineInfo] = {
    "xtts": CloneEngineInfo(
        "xtts", N_("CloneEngine", "XTTS v2 (clones from the sample)"), "CPML", False, CPML_TERMS.url or "",
        N_("CloneEngine", "Speaks 17 languages, Chinese and English included, in the voice of the sample. Slow on "
                          "the CPU."),
    ),
    "openvoice": CloneEngineInfo(
        "openvoice", N_("CloneEngine", "OpenVoice v2 (converts a synthetic voice)"), "MIT", True,
        "https://opensource.org/licenses/MIT",
        N_("CloneEngine", "A Coqui voice reads the text and OpenVoice gives it the tone of the sample. Free for "
                          "commercial use."),
    ),
}


@dataclass
class CloneSettings:
    engine: str = "xtts"  # "xtts" or "openvoice"
    language: str = "en"
    xtts_model: str = XTTS_MODEL  # the catalog name of a downloaded XTTS, or a model folder
    converter: str = ""  # OpenVoice v2 converter folder (config.json + checkpoint.pth)
    base_model: str | None = None  # the Coqui voice OpenVoice converts; None: the default for the language
    base_speaker: str | None = None
    speed: float = 1.0


@dataclass
class CloneResult:
    speech: Speech
    match_score: float | None  # similarity of the output to the voice's sample; None if not measurable
    match_note: str | None = None  # why there is no score

    @property
    def samples(self) -> np.ndarray:
        return self.speech.samples

    @property
    def sample_rate(self) -> int:
        return self.speech.sample_rate


def match_label(score: float | None) -> str:
    """A plain reading of the voice match score."""
    from desktop.core.voices.consent import SAME_SPEAKER_THRESHOLD

    if score is None:
        return N_("CloneEngine", "not measured")
    if score >= 0.80:
        return N_("CloneEngine", "very close to the sample")
    if score >= SAME_SPEAKER_THRESHOLD:
        return N_("CloneEngine", "close to the sample")
    return N_("CloneEngine", "not much like the sample")


# --- speaking ---------------------------------------------------------------------------------


@dataclass
class _Xtts:
    folder: Path
    model: Any  # TTS.tts.models.xtts.Xtts
    languages: tuple[str, ...]  # our codes ("zh", not "zh-cn")
    voice_key: tuple | None = None
    latents: Any = None
    speaker_embedding: Any = None


@dataclass
class _Converter:
    folder: Path
    model: Any  # TTS.vc.models.openvoice.OpenVoice
    input_rate: int
    output_rate: int
    voice_key: tuple | None = None
    targets: list = field(default_factory=list)


class VoiceCloner:
    """Speaks text in a saved voice; one run at a time, models kept loaded between runs."""

    def __init__(self, store: TtsModelStore, synthesizer: SpeechSynthesizer, encoder: SpeakerEncoder):
        self._store = store
        self._synthesizer = synthesizer
        self._encoder = encoder
        self._xtts: _Xtts | None = None
        self._converter: _Converter | None = None
        self._sample_embeddings: dict[tuple, np.ndarray] = {}
        self._lock = threading.RLock()

    # -- licences ---------------------------------------------------------------------------------

    def licence_terms(self, engine: str) -> LicenceTerms | None:
        """What the user must accept before the engine may be used, or None."""
        return CPML_TERMS if engine == "xtts" else None

    def licence_accepted(self, engine: str) -> bool:
        if engine != "xtts":
            return True
        return self._store.licence_accepted(XTTS_MODEL)

    def accept_licence(self, engine: str) -> None:
        """Record the user's acceptance (asked in the window or with a command-line flag)."""
        if engine == "xtts":
            self._store.accept_licence(XTTS_MODEL)

    # -- the run ----------------------------------------------------------------------------------

    def speak(
        self,
        voice: Voice,
        text: str,
        settings: CloneSettings,
        *,
        on_sentence: Callable[[SpokenSentence], None] | None = None,
        on_progress: Callable[[float], None] | None = None,
        on_status: Callable[[str], None] | None = None,
        cancelled: Callable[[], bool] | None = None,
    ) -> CloneResult:
        """Speak text in the voice, sentence by sentence; a cancel keeps the sentences made so far.

        Raises ConsentError for a voice without a valid consent record (always checked first),
        UserFacingError/ModelError with a plain sentence for everything the user can fix.
        """
        is_cancelled = cancelled or (lambda: False)
        status = on_status or (lambda _text: None)
        if settings.engine not in ENGINES:
            raise ValueError(f"unknown engine {settings.engine!r}")
        with self._lock:
            sealed = open_checked(voice)
            if not self.licence_accepted(settings.engine):
                raise UserFacingError(
                    N_("CloneEngine", "The licence of XTTS v2 (CPML, non-commercial use only) has not been accepted "
                                      "yet. Accept it in the Clone tab, or choose OpenVoice v2."),
                )
            sentences = self._plan(text, settings)
            if settings.engine == "xtts":
                speak_one, rate = self._xtts_speaker(sealed, settings, status)
            else:
                speak_one, rate = self._openvoice_speaker(sealed, settings, status)
            speech = Speech(sample_rate=rate, total=len(sentences))
            if on_progress:
                on_progress(0.0)
            for index, sentence in enumerate(sentences):
                if is_cancelled():
                    break
                status(N_("CloneEngine", "Speaking sentence {number} of {count}…").format(
                    number=index + 1, count=len(sentences)))
                speech.add(sentence, _with_pause(speak_one(sentence.text), rate), rate, watermark=True,
                           on_sentence=on_sentence, on_progress=on_progress)
            if not speech.sentences:
                raise Cancelled()
            status(N_("CloneEngine", "Measuring how close the voice is to the sample…"))
            score, note = self._match(sealed, speech)
            return CloneResult(speech, score, note)

    def release(self) -> None:
        """Free the loaded models, the OpenVoice base voice included; the next run loads them again."""
        with self._lock:
            self._xtts = None
            self._converter = None
            self._synthesizer.release()

    # -- shared steps -----------------------------------------------------------------------------

    def _plan(self, text: str, settings: CloneSettings):
        if not text or not text.strip():
            raise UserFacingError(NO_TEXT)
        if not is_speakable(text):
            raise UserFacingError(NOTHING_TO_SAY)
        if has_han(text) and settings.language not in ("zh", "ja"):
            raise UserFacingError(
                N_("CloneEngine", "The text contains Chinese characters, but the language is set to {language}. "
                   "Choose Chinese as the language, then try again.").format(
                    language=language_name(settings.language)),
            )
        max_chars = XTTS_MAX_CHARS.get(settings.language, MAX_SENTENCE_CHARS) if settings.engine == "xtts" \
            else MAX_SENTENCE_CHARS
        sentences = split_sentences(text, max_chars=max_chars)
        if not sentences:
            raise UserFacingError(NOTHING_TO_SAY)
        return sentences

    def _match(self, voice: SealedVoice, speech: Speech) -> tuple[float | None, str | None]:
        key = voice.key
        try:
            if key not in self._sample_embeddings:
                sample = np.concatenate(voice.sample_audio(16000))
                self._sample_embeddings[key] = self._encoder.embed(sample, 16000)
            produced = self._encoder.embed(speech.samples, speech.sample_rate)
        except SpeakerError:
            return None, N_("CloneEngine", "The voice match could not be measured: the result has too little speech "
                                           "in it.")
        except Exception:  # noqa: BLE001 - the match is extra information; the speech made must not be lost
            log.warning("Measuring the voice match failed", exc_info=True)
            return None, N_("CloneEngine", "The voice match could not be measured this time. The speech itself is "
                                           "complete.")
        from desktop.core.voices.consent import cosine_similarity

        return round(cosine_similarity(self._sample_embeddings[key], produced), 3), None

    # -- XTTS -------------------------------------------------------------------------------------

    def _xtts_folder(self, model: str) -> Path:
        path = Path(model).expanduser()
        if path.is_dir():
            return path
        if model != XTTS_MODEL:
            raise ModelError(N_("CloneEngine", "There is no XTTS model at “{model}”. Choose the XTTS v2 model "
                                               "folder.").format(model=model))
        if not self._store.is_downloaded(XTTS_MODEL):
            raise ModelError(
                N_("CloneEngine", "The XTTS v2 model is not on this computer yet. If you have its folder, choose "
                                  "it with “Model folder…” next to the engine. Otherwise, on the Synthesize tab, "
                                  "choose “XTTS v2, 17 languages” in the model list and press Speak once: it is "
                                  "downloaded then (about 1.9 GB). Then try again here."),
            )
        return self._store.folder(XTTS_MODEL)

    def _load_xtts(self, settings: CloneSettings, status) -> _Xtts:
        folder = self._xtts_folder(settings.xtts_model)
        if self._xtts is not None and self._xtts.folder == folder:
            return self._xtts
        self._xtts = None
        from desktop.core.common.model_files import check_model
        from desktop.engines.speech.coqui import use_safe_coqui_loaders

        check_model(folder, "coqui")
        status(N_("CloneEngine", "Loading XTTS v2…"))
        try:
            use_safe_coqui_loaders()
            from TTS.tts.configs.xtts_config import XttsConfig
            from TTS.tts.models.xtts import Xtts

            config = XttsConfig()
            config.load_json(str(folder / "config.json"))
            model = Xtts(config)
            model.load_checkpoint(config, checkpoint_dir=str(folder), eval=True)
        except (FileNotFoundError, OSError) as exc:
            raise ModelError(N_("CloneEngine", "The XTTS v2 model folder is incomplete. Download or import it again."),
                             detail=f"{type(exc).__name__}: {exc}") from exc
        except Exception as exc:  # noqa: BLE001 - damaged weights fail in many ways (pickle, zip, shapes)
            raise ModelError(N_("CloneEngine", "The XTTS v2 model could not be loaded: its files are damaged or do "
                                               "not belong together. Download or import it again."),
                             detail=f"{type(exc).__name__}: {exc}") from exc
        from desktop.core.speech.coqui_folders import normalise_language

        languages = tuple(dict.fromkeys(normalise_language(code) for code in config.languages))
        self._xtts = _Xtts(folder, model, languages)
        return self._xtts

    def _xtts_speaker(self, voice: SealedVoice, settings: CloneSettings, status):
        import torch

        loaded = self._load_xtts(settings, status)
        if settings.language not in loaded.languages:
            raise UserFacingError(N_("CloneEngine", "XTTS v2 does not speak {language}. Choose one of its "
                                     "languages, such as English or Chinese.").format(
                language=language_name(settings.language)))
        model, config = loaded.model, loaded.model.config
        key = voice.key
        if loaded.voice_key != key:
            status(N_("CloneEngine", "Preparing the voice…"))
            latents, embeddings = [], []
            clips = [a[: XTTS_RATE * int(config.max_ref_len)] for a in voice.sample_audio(XTTS_RATE)]
            with torch.inference_mode():
                for clip in clips:
                    embeddings.append(model.get_speaker_embedding(torch.from_numpy(clip).unsqueeze(0), XTTS_RATE))
                whole = torch.from_numpy(np.concatenate(clips)).unsqueeze(0)
                latents = model.get_gpt_cond_latents(whole, XTTS_RATE, length=int(config.gpt_cond_len),
                                                     chunk_length=int(config.gpt_cond_chunk_len))
            loaded.latents = latents
            loaded.speaker_embedding = torch.stack(embeddings).mean(dim=0)
            loaded.voice_key = key
        speed = min(2.0, max(0.5, float(settings.speed or 1.0)))

        def speak_one(text: str) -> np.ndarray:
            try:
                out = model.inference(
                    text, settings.language, loaded.latents, loaded.speaker_embedding,
                    temperature=config.temperature, length_penalty=config.length_penalty,
                    repetition_penalty=config.repetition_penalty, top_k=config.top_k, top_p=config.top_p,
                    speed=speed,
                )
            except ImportError as exc:  # Chinese needs pypinyin, Japanese cutlet
                raise ModelError(
                    N_("CloneEngine", "XTTS v2 needs a text tool for {language} that is not installed (pypinyin for "
                       "Chinese). Run the installer again (make setup), then try again.").format(
                        language=language_name(settings.language)),
                    detail=f"{type(exc).__name__}: {exc}",
                ) from exc
            except (AssertionError, RuntimeError, ValueError, IndexError) as exc:
                raise UserFacingError(
                    N_("CloneEngine", "XTTS v2 could not say the sentence “{short}”. Split it into shorter sentences "
                                      "or remove unusual symbols, then try again.").format(short=_short(text)),
                    detail=f"{type(exc).__name__}: {exc}",
                ) from exc
            return np.asarray(out["wav"], dtype=np.float32).reshape(-1)

        return speak_one, int(model.args.output_sample_rate)

    # -- OpenVoice --------------------------------------------------------------------------------

    def _load_converter(self, settings: CloneSettings, status) -> _Converter:
        folder = Path(settings.converter).expanduser() if settings.converter else None
        checkpoint = _find_converter(folder) if folder else None
        if checkpoint is None:
            raise ModelError(
                N_("CloneEngine", "OpenVoice v2 needs its converter folder: the folder from the OpenVoice v2 "
                                  "download that makes the speech sound like the saved voice (it holds "
                                  "config.json and checkpoint.pth). Press “Model folder…” next to “Voice model”, "
                                  "choose that folder, then try again."),
                detail=f"no converter in {folder}",
            )
        if self._converter is not None and self._converter.folder == checkpoint.parent:
            return self._converter
        self._converter = None
        from desktop.core.common.model_files import check_model
        from desktop.engines.speech.coqui import use_safe_coqui_loaders

        check_model(checkpoint.parent, "openvoice")
        status(N_("CloneEngine", "Loading OpenVoice v2…"))
        try:
            use_safe_coqui_loaders()
            from TTS.vc.configs.openvoice_config import OpenVoiceArgs, OpenVoiceConfig
            from TTS.vc.models.openvoice import OpenVoice

            original = json.loads((checkpoint.parent / "config.json").read_text(encoding="utf-8"))
            # OpenVoice's own config.json describes the network; Coqui reads only its audio section.
            known = OpenVoiceArgs.__dataclass_fields__
            args = OpenVoiceArgs(**{k: v for k, v in dict(original.get("model", {})).items() if k in known})
            config = OpenVoiceConfig(model_args=args)
            model = OpenVoice(config)
            model.load_checkpoint(config, str(checkpoint), eval=True)
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise ModelError(N_("CloneEngine", "The OpenVoice v2 converter folder is incomplete or damaged. Copy it "
                                               "again."),
                             detail=f"{type(exc).__name__}: {exc}") from exc
        except Exception as exc:  # noqa: BLE001 - damaged weights fail in many ways
            raise ModelError(N_("CloneEngine", "The OpenVoice v2 converter could not be loaded: its files do not "
                                               "belong together. Copy the folder again."),
                             detail=f"{type(exc).__name__}: {exc}") from exc
        audio = model.config.audio
        self._converter = _Converter(checkpoint.parent, model, int(audio.input_sample_rate),
                                     int(audio.output_sample_rate))
        return self._converter

    def _openvoice_speaker(self, voice: SealedVoice, settings: CloneSettings, status):
        import torch

        converter = self._load_converter(settings, status)
        key = voice.key
        if converter.voice_key != key:
            converter.targets = [torch.from_numpy(a) for a in voice.sample_audio(converter.input_rate)]
            converter.voice_key = key
        base = SynthesisSettings(
            model=settings.base_model or default_model(settings.language),
            speaker=settings.base_speaker,
            language=settings.language,
            speed=settings.speed,
            watermark=False,  # speak() marks the converted voice; a mark under it would only add noise
        )
        status(N_("CloneEngine", "Loading the base voice…"))
        self._synthesizer.voice_info(base)

        def speak_one(text: str) -> np.ndarray:
            spoken = self._synthesizer.synthesize(text, base)
            # The base voice ends with its sentence pause; speak() adds the pause after conversion.
            source = resample(_without_pause(spoken.samples, spoken.sample_rate), spoken.sample_rate,
                              converter.input_rate)
            try:
                converted = converter.model.voice_conversion(torch.from_numpy(source), converter.targets)
            except (RuntimeError, ValueError) as exc:
                raise UserFacingError(
                    N_("CloneEngine", "OpenVoice v2 could not convert the sentence “{short}”. Try a longer "
                                      "sentence.").format(short=_short(text)),
                    detail=f"{type(exc).__name__}: {exc}",
                ) from exc
            return np.asarray(converted, dtype=np.float32).reshape(-1)

        return speak_one, converter.output_rate


def _find_converter(folder: Path) -> Path | None:
    """checkpoint.pth next to a config.json in folder or one level down (Hugging Face's converter/)."""
    if folder is None or not folder.is_dir():
        return None
    for candidate in (folder / "checkpoint.pth", folder / "converter" / "checkpoint.pth"):
        if candidate.is_file() and (candidate.parent / "config.json").is_file():
            return candidate
    return None


def _without_pause(samples: np.ndarray, rate: int) -> np.ndarray:
    """samples without the silent sentence pause the speech engine puts at their end."""
    pause = int(SENTENCE_PAUSE_SECONDS * rate)
    if 0 < pause < len(samples) and not np.any(samples[-pause:]):
        return samples[:-pause]
    return samples


def _with_pause(samples: np.ndarray, rate: int) -> np.ndarray:
    pause = np.zeros(int(SENTENCE_PAUSE_SECONDS * rate), dtype=np.float32)
    return np.concatenate([np.clip(samples, -1.0, 1.0).astype(np.float32), pause])


def _short(text: str, limit: int = 40) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


# --- adding a voice ---------------------------------------------------------------------------


DRAFTS_FOLDER = ".enrolling"  # hidden, inside the voice library: recordings being checked
_STALE_DRAFT_SECONDS = 24 * 3600  # older than this, a draft was abandoned even if its process id is in use


class VoiceEnrollment:
    """Checks a sample, verifies the consent recording with VoxDesk's own Whisper, saves the voice.

    Used the same way by the Clone tab and `voxdesk voices add`. The recordings being checked are
    personal data: they are written next to the saved voices (never to the system's temporary
    folder), removed when the check ends either way, and what a crash left behind is removed the next
    time an enrollment is set up.
    """

    def __init__(self, library: VoiceLibrary, transcriber: Any, encoder: SpeakerEncoder, *,
                 whisper_model: str = "base"):
        self.library = library
        self._transcriber = transcriber  # desktop.engines.transcription.transcriber.Transcriber
        self._encoder = encoder
        self.whisper_model = whisper_model
        _sweep_drafts(self._drafts_root)

    @property
    def _drafts_root(self) -> Path:
        return self.library.root / DRAFTS_FOLDER

    @staticmethod
    def prepare_recording(samples: np.ndarray, sample_rate: int) -> PreparedSample:
        return prepare_sample(samples, sample_rate)

    @staticmethod
    def import_sample(path: str | Path) -> PreparedSample:
        """Decode an existing recording at its own rate (16–48 kHz) and check it as an import; a file longer
        than a sample can be is refused from its header (desktop.core.voices.recordings)."""
        from desktop.core.voices.recordings import read_sample

        samples, rate = read_sample(path)
        return prepare_sample(samples, rate, imported=True)

    def transcribe_settings(self, language: str):
        from desktop.engines.transcription.transcriber import TranscribeSettings

        return TranscribeSettings(model=self.whisper_model, language=language)

    def missing_whisper_model(self, language: str) -> tuple[str, str] | None:
        """The Whisper model to download before consent can be checked, or None."""
        return self._transcriber.missing_model(self.transcribe_settings(language))

    def verify(self, prompt: ConsentPrompt, consent: bytes, samples: dict[str, bytes], *,
               on_status: Callable[[str], None] | None = None,
               cancelled: Callable[[], bool] | None = None) -> ConsentRecord:
        """The consent record for these recordings (WAV bytes), or ConsentError saying what to do."""

        def transcribe(audio: bytes, language: str) -> str:
            with self._private_copy(audio) as path:
                if on_status:
                    on_status(N_("CloneEngine", "Listening to the consent recording…"))
                transcript = self._transcriber.transcribe_file(path, self.transcribe_settings(language),
                                                               cancelled=cancelled)
            if on_status:
                on_status(N_("CloneEngine", "Comparing the voices…"))
            return transcript.text

        def embed(audio: bytes) -> np.ndarray:
            return self._encoder.embed(decode_wav_bytes(audio, ENCODER_RATE), ENCODER_RATE)

        def watermarked(audio: bytes) -> bool:
            if on_status:
                on_status(N_("CloneEngine", "Checking that the recordings are a person's own voice…"))
            return made_by_voxdesk(audio)

        return verify_consent(prompt, consent, samples, transcribe=transcribe, embed=embed, watermarked=watermarked)

    def save(self, name: str, language: str, samples: dict[str, bytes], consent: bytes,
             record: ConsentRecord) -> Voice:
        return self.library.add(name, language, samples, consent, record)

    def enroll(self, name: str, prompt: ConsentPrompt, samples: list[PreparedSample], consent: np.ndarray,
               consent_rate: int, *, on_status: Callable[[str], None] | None = None,
               cancelled: Callable[[], bool] | None = None) -> Voice:
        """Encode the audio as 16-bit WAV once, verify consent on those bytes, and save exactly them."""
        from desktop.core.common.audio_out import encode

        refused = [issue for sample in samples for issue in sample.report.refusals]
        if refused:
            raise UserFacingError(refused[0].message)
        if self.library.pending_prompt(prompt.code) != prompt:
            raise not_issued(prompt.code)
        audio = {f"sample-{i}.wav": encode(s.samples, s.sample_rate, "wav") for i, s in enumerate(samples, 1)}
        consent_wav = encode(consent, consent_rate, "wav")
        record = self.verify(prompt, consent_wav, audio, on_status=on_status, cancelled=cancelled)
        if on_status:
            on_status(N_("CloneEngine", "Saving the voice…"))
        return self.save(name, prompt.language, audio, consent_wav, record)

    @contextlib.contextmanager
    def _private_copy(self, audio: bytes):
        """The consent recording as a file for Whisper: written from the checked bytes into a private
        folder next to the saved voices (never the system's temporary folder), removed afterwards."""
        _sweep_drafts(self._drafts_root)
        draft: Path | None = None
        try:
            try:
                self._drafts_root.mkdir(parents=True, exist_ok=True)
                # The process id in the name tells a later sweep whether the draft's owner is still running.
                draft = Path(tempfile.mkdtemp(prefix=f"{os.getpid()}-", dir=self._drafts_root))
                path = draft / CONSENT_FILE
                with open(path, "xb") as stream:
                    stream.write(audio)
            except OSError as exc:
                raise VoiceError(
                    write_error_message(exc, N_("CloneEngine", "the recordings"), self.library.root),
                    detail=getattr(exc, "detail", None) or repr(exc),
                ) from exc
            yield path
        finally:
            if draft is not None:
                shutil.rmtree(draft, ignore_errors=True)


def made_by_voxdesk(audio: bytes) -> bool:
    """Whether a recording (the bytes of an audio file) carries VoxDesk's watermark: speech VoxDesk
    synthesized, which may be neither a voice sample nor a consent recording."""
    return carries_watermark(decode_wav_bytes(audio, WATERMARK_RATE), WATERMARK_RATE)


def _sweep_drafts(root: Path) -> None:
    """Remove recordings left by an enrollment that did not finish: its process is gone, or it is old."""
    try:
        entries = list(root.iterdir())
    except OSError:
        return  # no drafts folder yet
    now = time.time()
    for entry in entries:
        owner = entry.name.split("-", 1)[0]
        try:
            abandoned = not owner.isdigit() or not _process_alive(int(owner)) or (
                now - entry.stat().st_mtime > _STALE_DRAFT_SECONDS)
        except OSError:
            continue
        if abandoned and entry.is_dir():
            shutil.rmtree(entry, ignore_errors=True)
        elif abandoned:
            with contextlib.suppress(OSError):
                entry.unlink()


def _process_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # it exists but belongs to someone else
        return True
    return True
