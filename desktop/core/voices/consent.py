"""Consent to clone a voice: the sentence to read, the check of what was heard, and the record kept.

Before a voice sample can be used, the speaker reads a sentence with their name, today's date and a
random four-digit code. VoxDesk transcribes that recording with its own Whisper engine and compares:

- the code strictly: the transcript must contain exactly these four digits, however Whisper wrote
  them ("4821", "4,821", "4 8 2 1", "four eight two one", "forty-eight twenty-one", "四八二一",
  "四千八百二十一");
- the rest of the sentence tolerantly: word by word in English, character by character in Chinese
  (after turning traditional characters into simplified ones), so a few misheard words pass;
- the voice: the speaker embedding of the consent recording must be close to that of every sample,
  so the person who agreed is the person whose voice is cloned;
- the speaker: neither the consent recording nor a sample may carry VoxDesk's own watermark, which
  every cloned voice carries (and every other voice unless Settings turns it off): synthetic speech
  cannot consent, and a voice made by VoxDesk is not a person's.

The functions that transcribe, embed and look for the watermark are passed in: this module stays plain Python. The record
is sealed when the voice is saved (desktop.core.voices.sealed), and the cloning engine checks the
seal and re-checks the record against the bytes it reads before every use.
"""
from __future__ import annotations

import difflib
import hashlib
import re
import secrets
import unicodedata
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass, field
from datetime import date, datetime, timezone
from pathlib import Path

import numpy as np

from desktop.core.common.errors import UserFacingError
from desktop.core.common.i18n import N_

LANGUAGES = ("en", "zh")
# Cosine similarity of Resemblyzer embeddings above which two recordings are the same person;
# calibrated in desktop/engines/voices/speaker.py.
SAME_SPEAKER_THRESHOLD = 0.70
MAX_HEARD_SHOWN = 300  # characters of the transcript shown when consent is refused
# Share of the sentence (words in English, characters in Chinese) that must be heard as written.
MIN_TEXT_SCORE = {"en": 0.75, "zh": 0.70}
RECORD_VERSION = 1

_TEMPLATES = {
    "en": "My name is {name}. Today is {date}. I agree that my voice may be used to generate speech. "
          "My code is {code}.",
    "zh": "我是{name}，今天是{date}。我同意使用我的声音生成语音。验证码{code}。",
}
_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September",
           "October", "November", "December")


class ConsentError(UserFacingError):
    """Consent is missing, was not given in the recording, or does not belong to these files."""


def cosine_similarity(a: np.ndarray, b: np.ndarray) -> float:
    """Cosine of the angle between two speaker embeddings: 1.0 for the same direction."""
    a = np.asarray(a, dtype=np.float64).ravel()
    b = np.asarray(b, dtype=np.float64).ravel()
    norm = float(np.linalg.norm(a) * np.linalg.norm(b))
    return float(np.dot(a, b) / norm) if norm > 0 else 0.0


def sha256_bytes(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def sha256_file(path: str | Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as stream:
        for block in iter(lambda: stream.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


# --- the sentence ------------------------------------------------------------------------------


@dataclass(frozen=True)
class ConsentPrompt:
    name: str
    language: str  # "en" or "zh"
    date: str  # ISO date, e.g. "2025-03-05"
    code: str  # four digits, never the year of the date (the year alone would then pass the check)

    def __post_init__(self) -> None:
        if not (len(self.code) == 4 and self.code.isdigit()):
            raise ValueError(f"the code must be four digits, not {self.code!r}")
        if self.code == self.date[:4]:
            raise ValueError("the code must differ from the year of the date")

    @property
    def text(self) -> str:
        return _TEMPLATES[self.language].format(name=self.name, date=spoken_date(self.date, self.language),
                                                code=self.code)


def spoken_date(iso_date: str, language: str) -> str:
    """A date as the sentence shows it: "March 5, 2025" or "2025年3月5日"."""
    day = date.fromisoformat(iso_date)
    if language == "zh":
        return f"{day.year}年{day.month}月{day.day}日"
    return f"{_MONTHS[day.month - 1]} {day.day}, {day.year}"


def new_prompt(name: str, language: str, today: date | None = None) -> ConsentPrompt:
    """A consent sentence for this person, today, with a fresh random code."""
    name = " ".join(name.split())
    if not name:
        raise ConsentError(N_("Consent", "Type the name of the person whose voice this is."))
    if language not in _TEMPLATES:
        raise ConsentError(N_("Consent", "The consent sentence can be read in English or Chinese. Choose one of them."),
                           detail=f"language {language!r}")
    day = (today or date.today()).isoformat()
    while True:
        code = f"{secrets.randbelow(9000) + 1000}"  # 1000-9999: never a leading zero to stumble over
        if code != day[:4]:
            return ConsentPrompt(name=name, language=language, date=day, code=code)


# --- checking what was heard -------------------------------------------------------------------


@dataclass(frozen=True)
class TranscriptCheck:
    accepted: bool
    code_heard: bool
    text_score: float  # 0..1, how much of the sentence (without numbers) was heard as written
    message: str | None  # why it was not accepted


def check_transcript(prompt: ConsentPrompt, transcript: str) -> TranscriptCheck:
    """Whether the transcript of the consent recording says the prompt's sentence and code."""
    heard = normalise(transcript, prompt.language)
    if not _units(heard, prompt.language):
        return TranscriptCheck(False, False, 0.0,
                               N_("Consent", "No words could be heard in the consent recording. Read the sentence "
                                             "aloud clearly, close to the microphone, then record it again."))
    code_heard = prompt.code in number_candidates(heard)
    expected = _units(_without_numbers(normalise(prompt.text, prompt.language)), prompt.language)
    got = _units(_without_numbers(heard), prompt.language)
    score = difflib.SequenceMatcher(None, expected, got, autojunk=False).ratio()
    if score < MIN_TEXT_SCORE[prompt.language]:
        return TranscriptCheck(False, code_heard, score,
                               N_("Consent", "The consent recording does not match the sentence on screen. Read the "
                                             "whole sentence as it is written, then record it again."))
    if not code_heard:
        return TranscriptCheck(False, False, score,
                               N_("Consent", "The code in the consent recording is not {code}. Read the code shown "
                                             "on screen digit by digit, then record the sentence again.").format(
                                   code=prompt.code))
    return TranscriptCheck(True, True, score, None)


def with_what_was_heard(reason: str, transcript: str) -> str:
    """The refusal followed by what Whisper heard, so the speaker sees which part to read again."""
    heard = " ".join(transcript.split())
    if not heard:
        return reason
    if len(heard) > MAX_HEARD_SHOWN:
        heard = heard[: MAX_HEARD_SHOWN - 1].rstrip() + "…"
    return N_("Consent", "{reason} VoxDesk heard: “{heard}”").format(reason=reason, heard=heard)


def normalise(text: str, language: str) -> str:
    """Lower case, numbers as digits, simplified Chinese, punctuation as spaces."""
    text = unicodedata.normalize("NFKC", text).lower()
    if language == "zh":
        text = to_simplified(text)
    text = _chinese_numerals_to_digits(text)
    text = _english_numbers_to_digits(text)
    # Keep digit groups together ("4,821", "4-8-2-1"); every other punctuation mark separates words.
    return re.sub(r"[^\w,.\-]+|(?<!\d)[,.\-]|[,.\-](?!\d)", " ", text).strip()


def number_candidates(text: str) -> set[str]:
    """Every way the digits in a normalised text can be read as one number.

    "4,821" -> 4821; "4 8 2 1", "48 21", "4-8-2-1" -> 4821 (short groups read one after the other);
    "March 5, 2025" stays 5 and 2025: a long group is never joined to its neighbours. Only whole
    runs count, so "1 4 8 2 1" is 14821 and does not contain the code 4821.
    """
    candidates: set[str] = set()
    groups = [(m.group(0), m.start(), m.end()) for m in re.finditer(r"\d+(?:,\d{3})+|\d+", text)]
    for digits, _, _ in groups:
        candidates.add(digits.replace(",", ""))
    # Runs of short groups separated only by a space, hyphen or comma.
    run: list[str] = []
    previous_end = 0
    for digits, start, end in groups:
        short = len(digits) <= 2
        if short and run and re.fullmatch(r"[\s,\-]*", text[previous_end:start]):
            run.append(digits)
        else:
            if len(run) > 1:
                candidates.add("".join(run))
            run = [digits] if short else []
        previous_end = end
    if len(run) > 1:
        candidates.add("".join(run))
    return candidates


def _units(text: str, language: str) -> list[str]:
    if language == "zh":
        # Characters for Chinese; a Latin word (a name such as "Anna") counts as one unit.
        return re.findall(r"[a-z]+|\d+|[^\sa-z\d,.\-]", text)
    return text.split()


def _without_numbers(text: str) -> str:
    return re.sub(r"\d[\d,.\-]*", " ", text)


_ZH_DIGITS = {"零": 0, "〇": 0, "○": 0, "一": 1, "幺": 1, "二": 2, "两": 2, "兩": 2, "三": 3, "四": 4,
              "五": 5, "六": 6, "七": 7, "八": 8, "九": 9}
_ZH_UNITS = {"十": 10, "百": 100, "千": 1000}


def _chinese_numerals_to_digits(text: str) -> str:
    def convert(match: re.Match) -> str:
        run = match.group(0)
        if not any(ch in _ZH_UNITS for ch in run):
            return "".join(str(_ZH_DIGITS[ch]) for ch in run)  # 四八二一, 二〇二五: digit by digit
        total, digit = 0, None
        for ch in run:
            if ch in _ZH_DIGITS:
                digit = _ZH_DIGITS[ch]
            else:
                total += (1 if digit is None else digit) * _ZH_UNITS[ch]  # 十五: a bare 十 is ten
                digit = None
        return str(total + (digit or 0))

    pattern = "[" + "".join(_ZH_DIGITS) + "".join(_ZH_UNITS) + "]+"
    # A lone 一 or 两 inside ordinary words (一起, 两个) is still a number, but harmless here: the same
    # conversion is applied to the expected sentence, and a single digit is never a four-digit code.
    return re.sub(pattern, convert, text)


_EN_UNITS = {"zero": 0, "oh": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
             "seven": 7, "eight": 8, "nine": 9}
_EN_TEENS = {"ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15,
             "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19}
_EN_TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70,
            "eighty": 80, "ninety": 90}
_EN_SCALES = {"hundred": 100, "thousand": 1000}


def _english_numbers_to_digits(text: str) -> str:
    words = set(_EN_UNITS) | set(_EN_TEENS) | set(_EN_TENS) | set(_EN_SCALES)
    pattern = r"\b(?:" + "|".join(sorted(words, key=len, reverse=True)) + r")(?:[\s\-]+(?:" + \
              "|".join(sorted(words | {"and"}, key=len, reverse=True)) + r"))*\b"

    def convert(match: re.Match) -> str:
        tokens = [t for t in re.split(r"[\s\-]+", match.group(0)) if t and t != "and"]
        if tokens == ["oh"]:
            return "oh"  # the interjection, not a zero
        if any(t in _EN_SCALES for t in tokens):
            return str(_english_value(tokens))
        # "four eight two one" -> 4821, "forty eight twenty one" -> 4821: groups read in a row.
        groups, i = [], 0
        while i < len(tokens):
            token = tokens[i]
            if token in _EN_TENS and i + 1 < len(tokens) and tokens[i + 1] in _EN_UNITS and tokens[i + 1] not in ("zero", "oh"):
                groups.append(str(_EN_TENS[token] + _EN_UNITS[tokens[i + 1]]))
                i += 2
                continue
            groups.append(str({**_EN_UNITS, **_EN_TEENS, **_EN_TENS}[token]))
            i += 1
        return "".join(groups)

    return re.sub(pattern, convert, text)


def _english_value(tokens: list[str]) -> int:
    """"four thousand eight hundred twenty one" -> 4821."""
    total = current = 0
    for token in tokens:
        if token in _EN_SCALES:
            scale = _EN_SCALES[token]
            if scale == 100:
                current = (current or 1) * 100
            else:
                total += (current or 1) * scale
                current = 0
        else:
            current += {**_EN_UNITS, **_EN_TEENS, **_EN_TENS}[token]
    return total + current


_TRADITIONAL = str.maketrans("聲語驗證碼說兩這個為們來時會國學對們樣還", "声语验证码说两这个为们来时会国学对们样还")


def to_simplified(text: str) -> str:
    """Traditional Chinese characters as simplified ones (Whisper writes either)."""
    try:
        import opencc
    except ImportError:
        return text.translate(_TRADITIONAL)  # at least the characters of the consent sentence
    return opencc.OpenCC("t2s").convert(text)


# --- the record --------------------------------------------------------------------------------


@dataclass(frozen=True)
class ConsentRecord:
    """What was agreed, by whom, and how VoxDesk checked it; stored with the voice."""

    name: str
    language: str
    date: str
    code: str
    sentence: str
    transcript: str
    text_score: float
    similarity: float  # lowest speaker similarity between the consent recording and any sample
    threshold: float
    audio_sha256: dict[str, str]  # file name in the voice folder -> SHA-256 of its bytes
    verified_at: str  # ISO timestamp (UTC)
    version: int = RECORD_VERSION
    similarities: dict[str, float] = field(default_factory=dict)  # per sample file

    @property
    def prompt(self) -> ConsentPrompt:
        return ConsentPrompt(self.name, self.language, self.date, self.code)

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: Mapping) -> "ConsentRecord":
        try:
            return cls(
                name=str(data["name"]),
                language=str(data["language"]),
                date=str(data["date"]),
                code=str(data["code"]),
                sentence=str(data["sentence"]),
                transcript=str(data["transcript"]),
                text_score=float(data["text_score"]),
                similarity=float(data["similarity"]),
                threshold=float(data["threshold"]),
                audio_sha256={str(k): str(v) for k, v in dict(data["audio_sha256"]).items()},
                verified_at=str(data["verified_at"]),
                version=int(data.get("version", RECORD_VERSION)),
                similarities={str(k): float(v) for k, v in dict(data.get("similarities", {})).items()},
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise ConsentError(
                N_("Consent", "The consent record of this voice is damaged, so the voice cannot be used. Delete the "
                              "voice and add it again with a new consent recording."),
                detail=f"{type(exc).__name__}: {exc}",
            ) from exc

    def ensure_valid_for(self, audio: Mapping[str, bytes | Path], voice_name: str) -> None:
        """Raise ConsentError unless this record verifies consent for exactly this audio.

        audio maps file names to their bytes (or, read here once, their paths). Everything is checked
        again from the stored facts: the transcript against the sentence, the speaker similarity
        against the threshold, and every file against its hash, so a record copied to another voice,
        or a sample swapped afterwards, is refused. Whether VoxDesk wrote the record at all is the
        seal's job (desktop.core.voices.sealed).
        """
        refused = refusal(voice_name)
        try:
            self.prompt.text  # a malformed code, an unknown language or a malformed date raises here
            check = check_transcript(self.prompt, self.transcript)
        except (KeyError, ValueError) as exc:
            raise ConsentError(refused, detail=f"unreadable record: {exc}") from exc
        if not check.accepted:
            raise ConsentError(refused, detail=f"the stored transcript does not verify: {check.message}")
        if self.threshold < SAME_SPEAKER_THRESHOLD or self.similarity < self.threshold:
            raise ConsentError(refused, detail=f"speaker similarity {self.similarity:.2f} below {self.threshold:.2f}")
        if set(audio) != set(self.audio_sha256):
            raise ConsentError(refused, detail=f"files {sorted(audio)} != recorded {sorted(self.audio_sha256)}")
        for name, data in audio.items():
            if not isinstance(data, bytes):
                try:
                    data = Path(data).read_bytes()
                except OSError as exc:
                    raise ConsentError(missing_recording(voice_name), detail=f"{data}: {exc}") from exc
            if sha256_bytes(data) != self.audio_sha256[name]:
                raise ConsentError(refused, detail=f"{name} changed after consent was given")


def refusal(voice_name: str) -> str:
    """The sentence for a voice whose consent record is missing, forged or does not fit its files."""
    return (N_("Consent", "The voice “{voice_name}” has no valid consent record, so VoxDesk will not use it. "
                          "Add the voice again with a consent recording by the person it belongs to.").format(
        voice_name=voice_name))


def missing_recording(voice_name: str) -> str:
    return (N_("Consent", "A recording of the voice “{voice_name}” is missing or cannot be read, so the "
                          "voice cannot be used. Add the voice again.").format(voice_name=voice_name))


SYNTHETIC_CONSENT = N_("Consent", "The consent recording carries VoxDesk's own watermark: it was made by speech "
                                  "synthesis, not spoken by a person, so it cannot give consent. The person whose "
                                  "voice this is must read the sentence aloud themselves.")
SYNTHETIC_SAMPLE = N_("Consent", "The voice sample carries VoxDesk's own watermark: it is synthesized speech, not a "
                                 "person's voice. Record or import a recording of the person themselves.")


def verify_consent(
    prompt: ConsentPrompt,
    consent: bytes,
    samples: Mapping[str, bytes],
    *,
    transcribe: Callable[[bytes, str], str],
    embed: Callable[[bytes], np.ndarray],
    watermarked: Callable[[bytes], bool],
    consent_name: str = "consent.wav",
    threshold: float = SAME_SPEAKER_THRESHOLD,
) -> ConsentRecord:
    """Check a consent recording against its prompt and the samples; the record, or ConsentError.

    consent and samples are the bytes of the recordings (WAV files), samples keyed by the names they
    will have in the voice folder. transcribe(audio, language) returns what Whisper heard in them,
    embed(audio) a speaker embedding, watermarked(audio) whether it carries VoxDesk's watermark. The
    record holds the hashes of exactly these bytes: what was checked is what gets saved.
    """
    # Speech VoxDesk made is refused before anything else is checked: however well it reads the
    # sentence, a synthesized voice is not a person agreeing.
    if watermarked(consent):
        raise ConsentError(SYNTHETIC_CONSENT, detail="the consent recording carries VoxDesk's watermark")
    for name, data in samples.items():
        if watermarked(data):
            raise ConsentError(SYNTHETIC_SAMPLE, detail=f"{name} carries VoxDesk's watermark")
    transcript = transcribe(consent, prompt.language).strip()
    check = check_transcript(prompt, transcript)
    if not check.accepted:
        reason = check.message or N_("Consent", "The consent recording was not accepted.")
        raise ConsentError(with_what_was_heard(reason, transcript),
                           detail=f"heard: {transcript!r}; text score {check.text_score:.2f}")
    consent_voice = embed(consent)
    similarities = {name: cosine_similarity(consent_voice, embed(data)) for name, data in samples.items()}
    lowest = min(similarities.values()) if similarities else 0.0
    if not similarities or lowest < threshold:
        raise ConsentError(
            N_("Consent", "The consent recording and the voice sample do not sound like the same person. The person "
                          "whose voice is used must read the consent sentence themselves."),
            detail=f"speaker similarity {lowest:.2f}, needed {threshold:.2f}",
        )
    hashes = {name: sha256_bytes(data) for name, data in samples.items()}
    hashes[consent_name] = sha256_bytes(consent)
    return ConsentRecord(
        name=prompt.name,
        language=prompt.language,
        date=prompt.date,
        code=prompt.code,
        sentence=prompt.text,
        transcript=transcript,
        text_score=round(check.text_score, 4),
        similarity=round(lowest, 4),
        threshold=threshold,
        audio_sha256=hashes,
        verified_at=datetime.now(timezone.utc).isoformat(timespec="seconds"),
        similarities={name: round(value, 4) for name, value in similarities.items()},
    )
