"""Voice model licences: the terms a model asks the user to accept, and the record of the answers. No Qt here.

Coqui asks for some licences (XTTS's CPML) on the terminal. VoxDesk never does: the window shows the
terms, LicenceRecords keeps the answer in the store's licences.json with the date, and the model
folder gets the ``tos_agreed.txt`` file Coqui's own tools look for (tts_model_folders.write_tos_file).
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from desktop.core.common.atomic import atomic_write_text
from desktop.core.common.errors import ModelError
from desktop.core.common.i18n import N_


@dataclass(frozen=True)


class LicenceTerms:
    licence: str
    url: str | None
    statements: tuple[str, ...]  # what the user confirms, shown as they are

    @property
    def text(self) -> str:
        lines = [N_("SpeechModels", "To use this model you must confirm:")] + [f"• {s}" for s in self.statements]
        if self.url:
            lines.append(N_("SpeechModels", "The full terms: {url}").format(url=self.url))
        return "\n".join(lines)


# Coqui's own wording for the CPML (ModelManager.ask_tos), shown in a dialog instead of on stdin.
CPML_TERMS = LicenceTerms(
    "CPML",
    "https://tts-hub.github.io/cpml",
    (
        N_("SpeechModels", "I have purchased a commercial license from Coqui: licensing@coqui.ai"),
        N_("SpeechModels", "Otherwise, I agree to the terms of the non-commercial CPML: "
                           "https://tts-hub.github.io/cpml"),
    ),
)

LICENCE_URLS = {
    "apache 2.0": "https://www.apache.org/licenses/LICENSE-2.0",
    "mpl": "https://www.mozilla.org/en-US/MPL/2.0/",
    "mit": "https://opensource.org/licenses/MIT",
    "bsd-3-clause": "https://opensource.org/licenses/BSD-3-Clause",
    "cc by-nc-nd 4.0": "https://creativecommons.org/licenses/by-nc-nd/4.0/",
    "cc-by-sa 4.0": "https://creativecommons.org/licenses/by-sa/4.0/",
    "cc-by-4.0": "https://creativecommons.org/licenses/by/4.0/",
    "cpml": CPML_TERMS.url,
}

# What the model list says of a licence nobody named: in the interface language, though a manifest
# stores it in English.
LICENCE_NOT_STATED = N_("SpeechModels", "not stated (imported)")
LICENCE_UNKNOWN = N_("SpeechModels", "unknown")


def licence_shown(value: Any) -> str:
    """A model's licence as stored or listed; the words for a missing one as a translatable Message."""
    value = str(value or "")
    if not value or value == str(LICENCE_UNKNOWN):
        return LICENCE_UNKNOWN
    if value == str(LICENCE_NOT_STATED):
        return LICENCE_NOT_STATED
    return value


class LicenceNotAccepted(ModelError):
    """The model's licence has to be accepted in the window before it can be downloaded."""


def licence_terms(model: Any) -> LicenceTerms | None:
    """The terms the user must accept before downloading model (a TtsModel), or None when there are none."""
    if not model.licence_required:
        return None
    if model.licence.strip().lower() == "cpml":
        return CPML_TERMS
    agree = N_("SpeechModels", "I agree to the terms of the {licence} licence.").format(licence=model.licence)
    return LicenceTerms(model.licence, model.licence_url, (agree,))


class LicenceRecords:
    """The licences the user accepted, by model name, in <root>/licences.json."""

    def __init__(self, root: Path) -> None:
        self.root = root

    @property
    def file(self) -> Path:
        return self.root / "licences.json"

    def accepted(self, name: str) -> bool:
        return name in self._records()

    def record(self, name: str, terms: LicenceTerms) -> None:
        """Keep that the user accepted terms for the model called name, now; OSError or ExportError
        when the store's folder cannot be written."""
        records = self._records()
        records[name] = {
            "licence": terms.licence,
            "statements": list(terms.statements),
            "accepted": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        }
        self.root.mkdir(parents=True, exist_ok=True)
        atomic_write_text(self.file, json.dumps(records, indent=2, ensure_ascii=False), overwrite=True)

    def _records(self) -> dict[str, Any]:
        try:
            data = json.loads(self.file.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        return data if isinstance(data, dict) else {}
