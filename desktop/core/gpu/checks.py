"""One finding of the doctor: what was checked, how it went, and the fix."""
from __future__ import annotations

import dataclasses
import enum
from dataclasses import dataclass
from typing import Any


class Status(str, enum.Enum):
    OK = "ok"
    WARNING = "warning"
    ERROR = "error"
    INFO = "info"  # worth knowing, nothing to do

    @property
    def symbol(self) -> str:
        return {"ok": "✓", "warning": "⚠", "error": "✗", "info": "ℹ"}[self.value]


@dataclass(frozen=True)
class Check:
    id: str  # stable, one of CHECK_IDS
    title: str
    status: Status
    finding: str  # what was found, in a sentence or two
    fix: str = ""  # for ⚠ and ✗: a command to copy, or the one thing to do
    setting: tuple[str, str] | None = None  # (Settings key, value) a switch in the window can apply

    @property
    def symbol(self) -> str:
        return self.status.symbol

    def to_dict(self) -> dict[str, Any]:
        data = dataclasses.asdict(self)
        data["status"] = self.status.value
        data["symbol"] = self.symbol
        data["setting"] = {"key": self.setting[0], "value": self.setting[1]} if self.setting else None
        return data
