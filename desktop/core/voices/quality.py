"""Is this recording good enough to clone a voice from? Trimming and plain-language checks.

Everything works on float samples in [-1, 1] at the recording's own rate (44.1 or 48 kHz from a
microphone, anything from an imported file), in frames of 20 ms:

- A frame is *speech* when it is clearly louder than the room: more than 10 dB above the noise floor
  (the 10th percentile of all frame levels, which is the quiet between words and before the first
  one), never below -60 dBFS, and within 40 dB of the loudest frame. A median filter over 100 ms
  drops isolated clicks (the mouse click on "Stop" is often recorded).
- Trimming keeps everything from the first to the last speech frame, plus 0.2 s on either side.
- The signal-to-noise ratio compares the mean power of the speech frames with that of the quietest
  tenth of all frames.

The checks and their limits come from what a zero-shot cloning model needs: 6 s of speech at the very
least (less is refused), 10 s to sound like the person (less is a warning), no distortion (more than
0.1 % of samples at full scale), a voice clearly above the noise (speech RMS of at least -40 dBFS,
SNR of about 15 dB), and a sample that is mostly speech.

Music detection (imported files only: the app's own recorder shows a text to read, a file can be
anything) looks for *held notes*. A spectral peak that stays on the same frequency (within one FFT
bin, which tolerates vibrato) for half a second is typical of an instrument or of singing; in speech,
intonation and articulation move every harmonic well before that, as phonemes last 50–300 ms.
Measured with this module's settings: 0.00–0.10 of the active frames hold such a peak in real
speech (the four recordings in tests/data, English and Chinese, and espeak-ng speech), 0.6–0.96 in
music (chords, plucked melodies, organ pads made with sox). The limit is 0.35, on the side of letting
speech through: a musical sample that slips past is still refused by the speaker check of the consent
step, which compares it with the consenting person's voice.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from desktop.core.common.i18n import N_

FRAME_SECONDS = 0.02
KEEP_SECONDS = 0.2  # silence kept before the first and after the last word, so nothing is clipped

# XTTS v2 clones from a clip of 6 seconds (its model card); longer samples sound more like the speaker.
MIN_SECONDS = 6.0  # shorter samples are refused
GOOD_SECONDS = 10.0  # shorter samples are accepted with a warning
TARGET_SECONDS = (15.0, 30.0)  # what the recorder asks for
CLIP_LEVEL = 0.999  # a sample this close to 1.0 is "at full scale" (int16 32735 of 32767)
MAX_CLIPPED_FRACTION = 0.001
MIN_SPEECH_RMS_DBFS = -40.0
MIN_SNR_DB = 15.0
MIN_SPEECH_FRACTION = 0.5
MAX_MUSIC_SCORE = 0.35

_SILENCE_DBFS = -100.0  # the level given to digital silence, so logarithms stay finite
_SPEECH_ABOVE_FLOOR_DB = 10.0
_SPEECH_MIN_DBFS = -60.0
_SPEECH_RANGE_DB = 40.0


def dbfs(value: float) -> float:
    """An amplitude (peak or RMS, 1.0 = full scale) in dBFS, with silence at -100."""
    return float(20 * np.log10(value)) if value > 1e-5 else _SILENCE_DBFS


def levels(block: np.ndarray) -> tuple[float, float]:
    """Peak and RMS level of a block of samples, in dBFS."""
    if block.size == 0:
        return _SILENCE_DBFS, _SILENCE_DBFS
    block = np.asarray(block, dtype=np.float64)
    return dbfs(float(np.max(np.abs(block)))), dbfs(float(np.sqrt(np.mean(block * block))))


@dataclass(frozen=True)
class TakeLength:
    """How long a recording should be, in seconds: refused under shortest, best from low to high
    (where the recorder stops by itself)."""

    shortest: float
    low: float
    high: float


SAMPLE_LENGTH = TakeLength(MIN_SECONDS, *TARGET_SECONDS)  # the voice sample's


@dataclass(frozen=True)
class QualityIssue:
    code: str  # music, silent, no_voice, too_short, short, too_quiet, clipping, noisy, mostly_silence
    message: str  # one or two plain sentences for the user
    refused: bool  # True: the sample cannot be used; False: a warning the user may accept


@dataclass(frozen=True)
class QualityReport:
    duration: float  # seconds, after trimming
    peak_dbfs: float
    speech_rms_dbfs: float  # RMS over the speech frames only, so pauses do not count as "quiet"
    clipped_fraction: float
    snr_db: float
    speech_fraction: float  # share of the trimmed sample that is speech
    music_score: float | None  # share of active frames with a held note; None when not checked
    issues: tuple[QualityIssue, ...] = field(default=())

    @property
    def accepted(self) -> bool:
        """True when nothing refuses the sample (warnings may remain)."""
        return not any(issue.refused for issue in self.issues)

    @property
    def refusals(self) -> tuple[QualityIssue, ...]:
        return tuple(issue for issue in self.issues if issue.refused)

    @property
    def warnings(self) -> tuple[QualityIssue, ...]:
        return tuple(issue for issue in self.issues if not issue.refused)

    def codes(self) -> set[str]:
        return {issue.code for issue in self.issues}


@dataclass(frozen=True)
class PreparedSample:
    samples: np.ndarray  # float32 mono, trimmed
    sample_rate: int
    report: QualityReport


def prepare_sample(samples: np.ndarray, sample_rate: int, *, imported: bool = False) -> PreparedSample:
    """Trim a raw recording and check it; the report says whether it can be used and why not."""
    samples = _mono_float(samples)
    frame = max(1, round(FRAME_SECONDS * sample_rate))
    frame_db = _frame_levels(samples, frame)
    speech = _speech_frames(frame_db)
    trimmed = _trim(samples, speech, frame, sample_rate)
    report = _check(samples, trimmed, frame_db, speech, frame, sample_rate, imported)
    return PreparedSample(trimmed.astype(np.float32, copy=False), sample_rate, report)


def music_score(samples: np.ndarray, sample_rate: int) -> float:
    """Share of the active frames that hold a spectral peak for half a second (0: speech-like)."""
    samples = _mono_float(samples)
    n_fft = 1 << int(np.ceil(np.log2(0.064 * sample_rate)))  # ~64 ms: 1024 points at 16 kHz
    hop = n_fft // 4
    if len(samples) < n_fft * 2:
        return 0.0
    count = 1 + (len(samples) - n_fft) // hop
    index = np.arange(n_fft)[None, :] + hop * np.arange(count)[:, None]
    spectrum = np.abs(np.fft.rfft(samples[index] * np.hanning(n_fft), axis=1))
    freqs = np.fft.rfftfreq(n_fft, 1.0 / sample_rate)
    # Above most voices' fundamental and mains hum, below the range where both are mostly noise.
    band = (freqs > 300) & (freqs < 4000)
    db = 20 * np.log10(spectrum[:, band] + 1e-9)
    frame_max = db.max(axis=1, keepdims=True)
    active = frame_max[:, 0] > frame_max.max() - 30
    is_peak = np.zeros_like(db, dtype=bool)
    is_peak[:, 1:-1] = (db[:, 1:-1] > db[:, :-2]) & (db[:, 1:-1] >= db[:, 2:]) & (db[:, 1:-1] > frame_max - 25)
    # A peak may wander by one bin (vibrato, a slightly out-of-tune note) and still count as held.
    near = is_peak.copy()
    near[:, 1:] |= is_peak[:, :-1]
    near[:, :-1] |= is_peak[:, 1:]
    needed = max(2, round(0.5 * sample_rate / hop))
    run = np.zeros(db.shape[1], dtype=np.int32)
    held = np.zeros(count, dtype=bool)
    for t in range(count):
        run = np.where(near[t], run + 1, 0)
        held[t] = bool((run >= needed).any())
    return float(held[active].mean()) if active.any() else 0.0


# --- internals ---------------------------------------------------------------------------------


def _seconds(duration: float) -> str:
    if duration < 0.5:
        return N_("VoiceQuality", "a fraction of a second")
    if duration < 1.5:
        return N_("VoiceQuality", "about a second")
    return N_("VoiceQuality", "{seconds:.0f} seconds").format(seconds=duration)


def _sentences(problem: str, advice: str) -> str:
    """What is wrong, then what to do about it (each translated on its own)."""
    return N_("VoiceQuality", "{problem} {advice}").format(problem=problem, advice=advice)


def _mono_float(samples: np.ndarray) -> np.ndarray:
    samples = np.asarray(samples)
    if samples.ndim == 2:
        samples = samples.mean(axis=1)
    if np.issubdtype(samples.dtype, np.integer):
        samples = samples.astype(np.float64) / np.iinfo(samples.dtype).max
    return samples.astype(np.float64, copy=False)


def _frame_levels(samples: np.ndarray, frame: int) -> np.ndarray:
    count = len(samples) // frame
    if count == 0:
        return np.full(1, _SILENCE_DBFS if len(samples) == 0 else levels(samples)[1])
    blocks = samples[: count * frame].reshape(count, frame)
    power = np.mean(blocks * blocks, axis=1)
    return np.where(power > 1e-10, 10 * np.log10(np.maximum(power, 1e-10)), _SILENCE_DBFS)


def _room_frames(frame_db: np.ndarray) -> np.ndarray:
    """The frame levels without digital silence (exact zeros padded around a file by an editor),
    which would otherwise pass for a perfectly quiet room and make the room's real noise look
    like speech."""
    audible = frame_db[frame_db > _SILENCE_DBFS + 10]
    return audible if audible.size else frame_db


def _noise_floor(frame_db: np.ndarray) -> float:
    """The level the speech detector measures against: the 10th percentile of the frame levels."""
    return float(np.percentile(_room_frames(frame_db), 10))


def _noise_level(frame_db: np.ndarray) -> float:
    """The noise estimate for the signal-to-noise ratio: mean power of the quietest tenth of frames.

    Lower than the percentile above on short clips with few pauses, where the 10th percentile
    already lands on the soft ends of words.
    """
    room = _room_frames(frame_db)
    quietest = np.sort(room)[: max(1, len(room) // 10)]
    return float(10 * np.log10(np.mean(10 ** (quietest / 10))))


def _speech_frames(frame_db: np.ndarray) -> np.ndarray:
    threshold = max(
        _noise_floor(frame_db) + _SPEECH_ABOVE_FLOOR_DB,
        _SPEECH_MIN_DBFS,
        float(frame_db.max()) - _SPEECH_RANGE_DB,
    )
    speech = frame_db > threshold
    if len(speech) >= 5:
        # Median over five frames (100 ms): a lone click is not speech, a lone dip is not a pause.
        padded = np.pad(speech.astype(np.int8), 2, mode="edge")
        window = np.lib.stride_tricks.sliding_window_view(padded, 5)
        speech = window.sum(axis=1) >= 3
    return speech


def _trim(samples: np.ndarray, speech: np.ndarray, frame: int, sample_rate: int) -> np.ndarray:
    voiced = np.flatnonzero(speech)
    if voiced.size == 0:
        return samples[:0]
    keep = round(KEEP_SECONDS * sample_rate)
    start = max(0, voiced[0] * frame - keep)
    end = min(len(samples), (voiced[-1] + 1) * frame + keep)
    return samples[start:end]


def _check(raw: np.ndarray, trimmed: np.ndarray, frame_db: np.ndarray, speech: np.ndarray, frame: int,
           sample_rate: int, imported: bool) -> QualityReport:
    duration = len(trimmed) / sample_rate
    peak = levels(raw)[0]

    # Music first, on the whole file: a steady accompaniment has no "pauses" for the speech
    # detector to measure against, so the other checks would only confuse the message.
    music = music_score(raw, sample_rate) if imported else None
    refusal = _music_issue(music) or _silent_issue(frame_db, imported) or _no_voice_issue(speech, imported)
    if refusal is not None:
        return QualityReport(duration, peak, _SILENCE_DBFS, 0.0, 0.0, 0.0, music, (refusal,))

    speech_rms, snr, speech_fraction = _speech_measures(frame_db, speech)
    clipped = float(np.mean(np.abs(trimmed) >= CLIP_LEVEL)) if trimmed.size else 0.0
    findings = (
        _length_issue(duration, imported),
        _too_quiet_issue(speech_rms, imported),
        _clipping_issue(clipped, imported),
        _noisy_issue(snr, imported),
        _mostly_silence_issue(speech_fraction, imported),
    )
    issues = tuple(issue for issue in findings if issue is not None)
    return QualityReport(duration, peak, speech_rms, clipped, snr, speech_fraction, music, issues)


def _speech_measures(frame_db: np.ndarray, speech: np.ndarray) -> tuple[float, float, float]:
    """Speech RMS (dBFS), signal-to-noise ratio (dB), and the share of speech from first to last word."""
    speech_power = float(np.mean(10 ** (frame_db[speech] / 10)))
    speech_rms = 10 * np.log10(speech_power)
    snr = speech_rms - _noise_level(frame_db)
    first, last = np.flatnonzero(speech)[[0, -1]]
    speech_fraction = float(speech[first : last + 1].mean())
    return speech_rms, snr, speech_fraction


# Each finding below is a QualityIssue, or None when the sample is fine in that respect.


def _music_issue(music: float | None) -> QualityIssue | None:
    if music is not None and music > MAX_MUSIC_SCORE:
        return QualityIssue(
            "music",
            N_("VoiceQuality", "This recording sounds like music rather than speech. Choose a recording of one "
               "person speaking, without music in the background."),
            refused=True,
        )
    return None


def _silent_issue(frame_db: np.ndarray, imported: bool) -> QualityIssue | None:
    if float(frame_db.max()) < _SPEECH_MIN_DBFS:
        return QualityIssue(
            "silent",
            _sentences(N_("VoiceQuality", "The recording is silent: no voice could be heard."),
                       N_("VoiceQuality", "Choose a recording of someone speaking.") if imported else
                       N_("VoiceQuality", "Check that the right microphone is chosen and not muted, then record "
                          "again.")),
            refused=True,
        )
    return None


def _no_voice_issue(speech: np.ndarray, imported: bool) -> QualityIssue | None:
    if not speech.any():
        return QualityIssue(
            "no_voice",
            _sentences(N_("VoiceQuality", "No voice stands out from the background sound in the recording."),
                       N_("VoiceQuality", "Choose a recording of one person speaking clearly.") if imported else
                       N_("VoiceQuality", "Speak clearly towards the microphone, away from loud machines, then "
                          "record again.")),
            refused=True,
        )
    return None


def _length_issue(duration: float, imported: bool) -> QualityIssue | None:
    if duration < MIN_SECONDS:
        return QualityIssue(
            "too_short",
            _sentences(N_("VoiceQuality", "The recording is only {length} long; at least {minimum:.0f} seconds of "
                          "speech are needed.").format(length=_seconds(duration), minimum=MIN_SECONDS),
                       N_("VoiceQuality", "Choose a longer recording.") if imported else
                       N_("VoiceQuality", "Read more of the text, then record again.")),
            refused=True,
        )
    if duration < GOOD_SECONDS:
        return QualityIssue(
            "short",
            N_("VoiceQuality", "The recording is {seconds:.0f} seconds long. It can be used, but {low:.0f} to "
               "{high:.0f} seconds make the voice sound much more like the speaker.").format(
                seconds=duration, low=TARGET_SECONDS[0], high=TARGET_SECONDS[1]),
            refused=False,
        )
    return None


def _too_quiet_issue(speech_rms: float, imported: bool) -> QualityIssue | None:
    if speech_rms < MIN_SPEECH_RMS_DBFS:
        return QualityIssue(
            "too_quiet",
            _sentences(N_("VoiceQuality", "The voice in the recording is too quiet to use."),
                       N_("VoiceQuality", "Choose a louder recording.") if imported else
                       N_("VoiceQuality", "Move closer to the microphone or turn its volume up, then record again.")),
            refused=True,
        )
    return None


def _clipping_issue(clipped: float, imported: bool) -> QualityIssue | None:
    if clipped > MAX_CLIPPED_FRACTION:
        return QualityIssue(
            "clipping",
            _sentences(N_("VoiceQuality", "Parts of the recording are so loud that they are distorted."),
                       N_("VoiceQuality", "A cleaner recording will give a better voice.") if imported else
                       N_("VoiceQuality", "Move a little away from the microphone or turn its volume down, then "
                          "record again.")),
            refused=False,
        )
    return None


def _noisy_issue(snr: float, imported: bool) -> QualityIssue | None:
    if snr < MIN_SNR_DB:
        return QualityIssue(
            "noisy",
            _sentences(N_("VoiceQuality", "There is a lot of background noise in the recording, so the voice will "
                          "not sound clean."),
                       N_("VoiceQuality", "A recording made in a quiet room will give a better voice.") if imported else
                       N_("VoiceQuality", "Record again in a quieter room, away from fans and open windows.")),
            refused=False,
        )
    return None


def _mostly_silence_issue(speech_fraction: float, imported: bool) -> QualityIssue | None:
    if speech_fraction < MIN_SPEECH_FRACTION:
        return QualityIssue(
            "mostly_silence",
            _sentences(N_("VoiceQuality", "The recording has more silence than speech."),
                       N_("VoiceQuality", "A recording with fewer pauses will give a better voice.") if imported else
                       N_("VoiceQuality", "Read the text at a normal pace without long pauses, then record again.")),
            refused=False,
        )
    return None
