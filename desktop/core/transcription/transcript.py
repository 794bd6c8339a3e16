"""The transcript of one recording: segments with word timings, independent of any engine."""
from __future__ import annotations

from dataclasses import asdict, dataclass, field, replace

from desktop.core.common.i18n import Message, N_
from desktop.core.speakers import names as speakers_names


@dataclass
class Word:
    start: float
    end: float
    text: str  # as shown and exported, with its leading space for Latin scripts
    probability: float = 1.0
    text_original: str | None = None  # as Whisper wrote it, where that differs (Chinese script)


@dataclass
class Correction:
    """A glossary term put in place of what Whisper wrote: ``term`` now stands at text[start:end]."""

    start: int
    end: int
    original: str  # what Whisper wrote there, brought back by undo
    term: str


@dataclass
class Segment:
    start: float
    end: float
    text: str
    words: list[Word] = field(default_factory=list)
    text_original: str | None = None  # as Whisper wrote it, where that differs (Chinese script)
    speaker: int | None = None  # 1, 2, … when speakers were labelled (see Transcript.speaker_name)
    corrections: list[Correction] = field(default_factory=list)  # glossary replacements, in text order

    def shifted(self, offset: float, *, within: tuple[float, float] | None = None,
                digits: int | None = None) -> "Segment":
        """A copy moved by ``offset`` seconds, its words too, kept inside ``within`` (start, end) and
        rounded to ``digits`` where given; this segment is not changed."""
        if offset == 0 and within is None:
            return self

        def moved(time: float) -> float:
            time += offset
            if within is not None:
                time = min(within[1], max(within[0], time))
            return time if digits is None else round(time, digits)

        return replace(self, start=moved(self.start), end=moved(self.end),
                       words=[replace(w, start=moved(w.start), end=moved(w.end)) for w in self.words])


@dataclass
class Gap:
    """A stretch that voice activity detection heard as speech but no decoding could transcribe."""

    start: float
    end: float

    @property
    def message(self) -> Message:
        return N_("Transcript", "{start}–{end}: speech that could not be transcribed").format(
            start=clock(self.start), end=clock(self.end))


def clock(seconds: float) -> str:
    """A time as a person reads it: 0:42, 12:05, 1:02:03 (whole seconds, rounded down)."""
    total = max(0, int(seconds))
    hours, rest = divmod(total, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


@dataclass(frozen=True)
class EngineFacts:
    """How the engine ran a recording's last chunk, for the window to tell; never saved."""

    batch_size: int = 1  # 30-second windows decoded at once (after any out-of-memory halving)
    bf16_encoder: bool = False  # torch's bfloat16 encoder, measured faster here, encoded the audio
    device: str = "cpu"  # cuda | cpu | server
    gpu_note: str | None = None  # why Automatic did not use the GPU, or which engine it took there (a Message)


@dataclass
class Transcript:
    segments: list[Segment] = field(default_factory=list)
    language: str | None = None
    duration: float = 0.0
    source: str | None = None  # path of the recording it came from
    gaps: list[Gap] = field(default_factory=list)  # speech left untranscribed, in time order
    warnings: list[str] = field(default_factory=list)  # sentences about the recording (Messages when fresh)
    glossaries: list[str] = field(default_factory=list)  # names of the glossaries the correction pass used
    speaker_names: dict[int, str] = field(default_factory=dict)  # the names the user gave, by speaker number
    # Speakers named as a known voice: {number: (name, how sure, 0..1)}; it counts while the name stands.
    recognised: dict[int, tuple[str, float]] = field(default_factory=dict)
    # Known voices a speaker sounds like but was not named as: {number: (name, how sure)}.
    suggested: dict[int, tuple[str, float]] = field(default_factory=dict)
    # Known voices the user said a speaker is not ("Not Anna"): never suggested again for it.
    refused: dict[int, list[str]] = field(default_factory=dict)
    engine: EngineFacts | None = field(default=None, compare=False)  # how it was made, when it was made now

    def snapshot(self) -> Transcript:
        """A copy another thread can read (to save or export it) while the editor goes on changing this
        one. The editor's edits swap whole Segment objects and never change one in place, so copies of
        the lists are enough; copying every word would hold up the window (a minute for 150,000 lines)."""
        return replace(self, segments=list(self.segments), gaps=list(self.gaps), warnings=list(self.warnings),
                       glossaries=list(self.glossaries), speaker_names=dict(self.speaker_names),
                       recognised=dict(self.recognised), suggested=dict(self.suggested),
                       refused={number: list(names) for number, names in self.refused.items()})

    def gap_at(self, segment: Segment) -> Gap | None:
        """The gap an empty segment stands in for (the row the user may fill in), or None."""
        if segment.text.strip():
            return None
        for gap in self.gaps:
            if abs(gap.start - segment.start) < 1e-3 and abs(gap.end - segment.end) < 1e-3:
                return gap
        return None

    @property
    def is_empty(self) -> bool:
        return not any(s.text.strip() for s in self.segments)

    @property
    def text(self) -> str:
        return "".join(s.text for s in self.segments).strip()

    def edit_text(self, index: int, text: str) -> None:
        """Replace a segment's text. Word timings no longer match an edited text, so they are dropped,
        and so is the text as Whisper wrote it: it is no longer another form of what the segment says."""
        segment = self.segments[index]
        if segment.text != text:
            segment.text = text
            segment.words = []
            segment.text_original = None
            segment.corrections = []  # the user's text is what stands now

    def undo_correction(self, index: int, number: int) -> None:
        """Bring back what Whisper wrote in place of one glossary replacement of a segment."""
        undo_correction(self.segments[index], number)

    def undo_all_corrections(self) -> int:
        """Bring back what Whisper wrote for every glossary replacement; returns how many there were."""
        count = 0
        for segment in self.segments:
            while segment.corrections:
                undo_correction(segment, len(segment.corrections) - 1)
                count += 1
        return count

    # -- speakers ------------------------------------------------------------------------------

    @property
    def speakers(self) -> list[int]:
        """The speaker numbers that have lines, in order."""
        return sorted({s.speaker for s in self.segments if s.speaker is not None})

    def speaker_name(self, number: int) -> str:
        """The user's name for the speaker, else "Speaker 1"… ("说话人1"… in a Chinese transcript)."""
        return self.speaker_names.get(number) or speakers_names.default_name(
            number, chinese=speakers_names.is_chinese(self.language))

    def rename_speaker(self, number: int, name: str) -> int:
        """Give a speaker a name on every line; an empty name brings back "Speaker N". A name another
        speaker already has joins the two (the user said they are the same person). Returns the number
        the speaker's lines have now."""
        name = speakers_names.clean_name(name)
        if not name or speakers_names.is_default_name(name, number):
            self.speaker_names.pop(number, None)
            return number
        same = next((other for other in self.speakers if other != number and self.speaker_name(other) == name), None)
        if same is None:
            self.speaker_names[number] = name
            return number
        for segment in self.segments:
            if segment.speaker == number:
                segment.speaker = same
        self.speaker_names.pop(number, None)
        return same

    def recognised_confidence(self, number: int) -> float | None:
        """How sure VoxDesk was naming this speaker as a known voice; None unless it was, and the name stands."""
        name, sure = self.recognised.get(number, ("", 0.0))
        return sure if name and self.speaker_names.get(number) == name else None

    def set_speaker(self, index: int, number: int | None) -> None:
        """Give one line to another speaker (None: to nobody)."""
        self.segments[index].speaker = number

    def to_dict(self) -> dict:
        """Plain data for JSON; "text_original" appears only where it differs from "text", "gaps",
        "warnings", "glossaries" and a segment's "corrections" only when there are some. With speakers, each segment has "speaker" (the name)
        and "speaker_id", and "speakers" lists them all; a speaker named as a known voice has "recognised",
        how sure (0..1), on its lines and in that list."""
        data = asdict(self)
        data["warnings"] = [str(warning) for warning in self.warnings]
        del data["speaker_names"], data["engine"], data["recognised"], data["suggested"], data["refused"]
        for key in ("gaps", "warnings", "glossaries"):
            if not data[key]:
                del data[key]
        for segment in data["segments"]:
            for item in (segment, *segment["words"]):
                if item["text_original"] is None:
                    del item["text_original"]
            # Only the replacements whose term still stands where they say: an edit may have changed it.
            segment["corrections"] = [asdict(correction) for correction in _corrections(segment)]
            if not segment["corrections"]:
                del segment["corrections"]
            number = segment.pop("speaker")
            if number is not None:
                segment["speaker"] = self.speaker_name(number)
                segment["speaker_id"] = number
                if (sure := self.recognised_confidence(number)) is not None:
                    segment["recognised"] = sure
        if self.speakers:
            data["speakers"] = self.speaker_entries()
        return data

    def speaker_entries(self) -> list[dict]:
        """The "speakers" list of to_dict: each speaker's id and name, and what the known voices said of
        it: "recognised" (how sure, while the name stands), "suggested" ({"name", "sure"}: a name not
        yet accepted) and "refused" (the names the user said it is not)."""
        entries = []
        for number in self.speakers:
            entry: dict = {"id": number, "name": self.speaker_name(number)}
            if (sure := self.recognised_confidence(number)) is not None:
                entry["recognised"] = sure
            if number in self.suggested:
                name, sure = self.suggested[number]
                entry["suggested"] = {"name": name, "sure": sure}
            if self.refused.get(number):
                entry["refused"] = list(self.refused[number])
            entries.append(entry)
        return entries

    @classmethod
    def from_dict(cls, data: dict) -> "Transcript":
        segments = [
            Segment(
                start=s["start"],
                end=s["end"],
                text=s["text"],
                words=[Word(**w) for w in s.get("words", [])],
                text_original=s.get("text_original"),
                speaker=_speaker_number(s),
                corrections=_corrections(s),
            )
            for s in data.get("segments", [])
        ]
        names = {int(entry["id"]): str(entry["name"]) for entry in data.get("speakers", [])}
        return cls(
            segments=segments,
            language=data.get("language"),
            duration=data.get("duration", 0.0),
            source=data.get("source"),
            gaps=[Gap(start=g["start"], end=g["end"]) for g in data.get("gaps", [])],
            warnings=list(data.get("warnings", [])),
            glossaries=[str(name) for name in data.get("glossaries", [])],
            speaker_names={number: name for number, name in names.items()
                           if not speakers_names.is_default_name(name, number)},
            recognised={int(entry["id"]): (str(entry["name"]), float(entry["recognised"]))
                        for entry in data.get("speakers", []) if _is_confidence(entry.get("recognised"))},
            suggested={int(entry["id"]): (str(entry["suggested"]["name"]), float(entry["suggested"]["sure"]))
                       for entry in data.get("speakers", []) if _is_suggestion(entry.get("suggested"))},
            refused={int(entry["id"]): [str(name) for name in entry["refused"]]
                     for entry in data.get("speakers", []) if isinstance(entry.get("refused"), list)},
        )


def _is_confidence(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and 0.0 <= value <= 1.0


def _is_suggestion(value: object) -> bool:
    return isinstance(value, dict) and isinstance(value.get("name"), str) and _is_confidence(value.get("sure"))


def _speaker_number(segment: dict) -> int | None:
    number = segment.get("speaker_id")
    return int(number) if number is not None else None


def _corrections(segment: dict) -> list[Correction]:
    """The replacements a saved segment lists, keeping only those whose term is still where it says."""
    text = str(segment.get("text", ""))
    kept: list[Correction] = []
    for item in segment.get("corrections", []):
        try:
            correction = Correction(start=int(item["start"]), end=int(item["end"]), original=str(item["original"]),
                                    term=str(item["term"]))
        except (KeyError, TypeError, ValueError):
            continue
        after_previous = not kept or kept[-1].end <= correction.start
        if after_previous and 0 <= correction.start <= correction.end <= len(text) \
                and text[correction.start:correction.end] == correction.term:
            kept.append(correction)
    return kept


# -- glossary replacements (core/glossary/correction.py makes them) ---------------------------------


def undo_correction(segment: Segment, number: int) -> None:
    """Bring back what Whisper wrote for the segment's replacement ``number`` (its index)."""
    correction = segment.corrections.pop(number)
    respell(segment, correction.start, correction.end, correction.original)
    shift = len(correction.original) - len(correction.term)
    for later in segment.corrections[number:]:
        later.start += shift
        later.end += shift


def respell(segment: Segment, start: int, end: int, new: str) -> None:
    """Put new in place of text[start:end], in the words too when they spell the text. The words that
    held the old span become one word with their joint timing."""
    words_spell_text = "".join(w.text for w in segment.words) == segment.text
    segment.text = segment.text[:start] + new + segment.text[end:]
    segment.text_original = None  # the corrected text is now what the segment says, in any script
    if not words_spell_text:
        return
    spans, position = [], 0
    for word in segment.words:
        spans.append((position, position + len(word.text)))
        position += len(word.text)
    touched = [i for i, (left, right) in enumerate(spans) if left < end and right > start]
    if not touched:
        return
    first, last = touched[0], touched[-1]
    merged = Word(start=segment.words[first].start, end=segment.words[last].end,
                  probability=min(segment.words[i].probability for i in touched),
                  text=segment.words[first].text[:start - spans[first][0]] + new
                  + segment.words[last].text[end - spans[last][0]:])
    segment.words[first:last + 1] = [merged]
