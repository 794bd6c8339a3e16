"""The transcript of one recording: segments with word timings, independent of any engine."""
from __future__ import annotations

from dataclasses import asdict, dataclass, field


@dataclass
class Word:
    start: float
    end: float
    text: str  # as shown and exported, with its leading space for Latin scripts
    probability: float = 1.0
    text_original: str | None = None  # as Whisper wrote it, where that differs (Chinese script)


@dataclass
class Segment:
    start: float
    end: float
    text: str
    words: list[Word] = field(default_factory=list)
    text_original: str | None = None  # as Whisper wrote it, where that differs (Chinese script)


@dataclass
class Transcript:
    segments: list[Segment] = field(default_factory=list)
    language: str | None = None
    duration: float = 0.0
    source: str | None = None  # path of the recording it came from

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

    def to_dict(self) -> dict:
        """Plain data for JSON; "text_original" appears only where it differs from "text"."""
        data = asdict(self)
        for segment in data["segments"]:
            for item in (segment, *segment["words"]):
                if item["text_original"] is None:
                    del item["text_original"]
        return data

    @classmethod
    def from_dict(cls, data: dict) -> "Transcript":
        segments = [
            Segment(
                start=s["start"],
                end=s["end"],
                text=s["text"],
                words=[Word(**w) for w in s.get("words", [])],
                text_original=s.get("text_original"),
            )
            for s in data.get("segments", [])
        ]
        return cls(
            segments=segments,
            language=data.get("language"),
            duration=data.get("duration", 0.0),
            source=data.get("source"),
        )
