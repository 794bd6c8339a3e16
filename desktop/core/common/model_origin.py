"""Where a downloaded model came from, and whether VoxDesk could check that it is the official one.

A model is *verified* when its bytes were held to checksums VoxDesk trusts: those pinned in its own
catalogue, or those the publisher's host (Hugging Face itself) lists. A mirror (hf-mirror.com, a
company's own) is trusted only to serve the same bytes as the publisher, so a model VoxDesk pins no
checksums for is, from a mirror, whatever the mirror sent: it is kept, since the company chose that
mirror, but its manifest says so, and every model list shows it with :func:`unverified_note`.
"""
from __future__ import annotations

from typing import Any, Mapping

from desktop.core.common.i18n import N_, Message


def origin_fields(source: str, *, verified: bool | None) -> dict[str, Any]:
    """The manifest fields that record where a download came from. ``verified`` None: from the address
    the publisher's own catalogue names, which publishes no checksums (Coqui's release files)."""
    return {"source": source, "verified": verified}


def unverified_source(manifest: Mapping[str, Any] | None) -> str | None:
    """The address a model was downloaded from when it could not be checked; None when it was checked
    (or when it is older than these fields: such downloads were only ever taken with checksums)."""
    if not manifest or manifest.get("verified") is not False:
        return None
    source = manifest.get("source")
    return source if isinstance(source, str) and source else "?"


def unverified_note(source: str) -> Message:
    """The sentence shown with a model that could not be checked: what it means and what IT can do."""
    return N_("ModelOrigin", "Not verified: this model was downloaded from {source}, and VoxDesk has no official "
                             "checksum for it, so it cannot tell whether these are the publisher's own files. "
                             "Your IT department can confirm that their mirror serves the publisher's files, or "
                             "give you an official copy to import.").format(source=source)
