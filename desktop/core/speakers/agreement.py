"""A person's agreement to be recognised by voice in this office's recordings, as a known voice keeps it.

Two ways to agree, both recorded in the entry:
- "confirmed": the user of VoxDesk confirms that the person agreed (from a finished transcript, or
  `voxdesk speakers add --agreed`); who confirmed and when are kept;
- "recorded": the person reads a sentence aloud that says they agree to be recognised, with their name,
  the date and a fresh code; VoxDesk's Whisper transcribes it and the transcript is checked as the
  clone consent's is (desktop.core.voices.consent.check_transcript). The record keeps the sentence and
  what was heard, and is checked again from those facts whenever the entry is read.
"""
from __future__ import annotations

import getpass
from dataclasses import dataclass
from datetime import date, datetime, timezone
from typing import Mapping

from desktop.core.common.errors import UserFacingError
from desktop.core.common.i18n import N_
from desktop.core.voices.consent import ConsentPrompt, check_transcript, new_prompt, spoken_date

CONFIRMED = "confirmed"
RECORDED = "recorded"
LONGEST_AGREEMENT_SECONDS = 120.0  # the sentence takes about ten seconds to read; a take stops by itself here

_RECOGNITION_TEMPLATES = {
    # American spelling, as Whisper writes it; no product name, which Whisper tends to mishear.
    "en": "My name is {name}. Today is {date}. I agree that my voice may be recognized in this office's "
          "recordings. My code is {code}.",
    "zh": "我是{name}，今天是{date}。我同意在本办公室的录音中识别我的声音。验证码{code}。",
}


class AgreementError(UserFacingError):
    """No agreement, or one that does not hold."""


MISSING = N_("KnownVoices", "This voice comes without the person's agreement to be recognised, so VoxDesk will not "
                            "keep it. Add the voice again with their agreement.")


@dataclass(frozen=True)
class RecognitionPrompt(ConsentPrompt):
    """The sentence a person reads to agree to be recognised (not to have their voice cloned)."""

    @property
    def text(self) -> str:
        return _RECOGNITION_TEMPLATES[self.language].format(
            name=self.name, date=spoken_date(self.date, self.language), code=self.code)


def recognition_prompt(name: str, language: str, today: date | None = None) -> RecognitionPrompt:
    """A fresh sentence (new random code) for this person to read today."""
    base = new_prompt(name, language, today)
    return RecognitionPrompt(base.name, base.language, base.date, base.code)


@dataclass(frozen=True)
class Agreement:
    how: str  # CONFIRMED or RECORDED
    agreed_at: str  # ISO timestamp, UTC
    confirmed_by: str  # the account that confirmed it (CONFIRMED), or that recorded it (RECORDED)
    sentence: str = ""  # RECORDED: the sentence read aloud, and the prompt's facts
    language: str = ""
    date: str = ""
    code: str = ""
    heard: str = ""  # RECORDED: what Whisper heard

    def to_dict(self) -> dict:
        data = {"how": self.how, "agreed_at": self.agreed_at, "confirmed_by": self.confirmed_by}
        if self.how == RECORDED:
            data.update(sentence=self.sentence, language=self.language, date=self.date, code=self.code,
                        heard=self.heard)
        return data

    @classmethod
    def from_dict(cls, data: object) -> "Agreement":
        """The agreement, checked again from its facts; AgreementError when it is missing or does not hold."""
        if not isinstance(data, Mapping) or not data:
            raise AgreementError(MISSING, detail="no agreement")
        try:
            agreement = cls(how=str(data["how"]), agreed_at=str(data["agreed_at"]),
                            confirmed_by=str(data["confirmed_by"]),
                            **{key: str(data.get(key, "")) for key in ("sentence", "language", "date", "code", "heard")})
            datetime.fromisoformat(agreement.agreed_at)
        except (KeyError, TypeError, ValueError) as exc:
            raise AgreementError(MISSING, detail=f"unreadable agreement: {exc}") from exc
        agreement.check()
        return agreement

    def check(self) -> None:
        if self.how == CONFIRMED and self.confirmed_by.strip():
            return
        if self.how == RECORDED:
            try:
                blank = RecognitionPrompt("", self.language, self.date, self.code)
                prompt = RecognitionPrompt(_name_in(self.sentence, blank), self.language, self.date, self.code)
                holds = prompt.text == self.sentence and check_transcript(prompt, self.heard).accepted
            except (KeyError, ValueError):
                holds = False
            if holds:
                return
        raise AgreementError(MISSING, detail=f"agreement {self.how!r} does not verify")


def _name_in(sentence: str, blank: RecognitionPrompt) -> str:
    """The name a recorded sentence was made for: the text between the template's fixed parts."""
    before, _, after = _RECOGNITION_TEMPLATES[blank.language].partition("{name}")
    if not sentence.startswith(before):
        raise ValueError("not a recognition sentence")
    rest = sentence[len(before):]
    tail = after.format(date=spoken_date(blank.date, blank.language), code=blank.code)
    if not rest.endswith(tail):
        raise ValueError("not a recognition sentence")
    return rest[:-len(tail)]


def now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def current_user() -> str:
    try:
        return getpass.getuser()
    except (OSError, KeyError):  # no login name in a container or a service
        return "unknown"


def confirmed(by: str | None = None) -> Agreement:
    """The user's confirmation, now, that the person agreed."""
    return Agreement(how=CONFIRMED, agreed_at=now(), confirmed_by=by or current_user())


def recorded(prompt: RecognitionPrompt, heard: str, by: str | None = None) -> Agreement:
    """The person's spoken agreement: AgreementError with what was wrong unless Whisper heard the sentence."""
    check = check_transcript(prompt, heard)
    if not check.accepted:
        from desktop.core.voices.consent import with_what_was_heard

        raise AgreementError(with_what_was_heard(check.message or MISSING, heard),
                             detail=f"text score {check.text_score:.2f}")
    return Agreement(how=RECORDED, agreed_at=now(), confirmed_by=by or current_user(), sentence=prompt.text,
                     language=prompt.language, date=prompt.date, code=prompt.code, heard=heard.strip())
