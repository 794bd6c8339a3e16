"""Where models are downloaded from: Hugging Face, its mirror hf-mirror.com, or a company's own mirror.

*Automatic* tries the official host first and falls back on the mirror when it cannot connect within a
few seconds; the host that answered is remembered in a small file, so the next download starts there.
Any HTTP answer (even an error page) counts as "reachable": only a refused connection, a timeout or a
certificate that is not trusted make Automatic move on.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from desktop.core.common.atomic import atomic_write_text
from desktop.core.common.errors import ExportError, UserFacingError
from desktop.core.common.i18n import N_, Message
from desktop.core.common.safe_files import read_limited

HUGGING_FACE = "https://huggingface.co"
HF_MIRROR = "https://hf-mirror.com"
SOURCE_CHOICES = ("auto", "huggingface", "hf-mirror", "custom")
PROBE_TIMEOUT = 4.0  # seconds Automatic waits for a connection before it tries the mirror

SOURCE_NAMES: dict[str, Message] = {
    "auto": N_("Downloads", "Automatic"),
    "huggingface": N_("Downloads", "Hugging Face"),
    "hf-mirror": N_("Downloads", "hf-mirror.com (mirror in mainland China)"),
    "custom": N_("Downloads", "Company mirror"),
}


@dataclass(frozen=True)
class DownloadSources:
    """The user's choice of download source and what Automatic learned.

    ``official`` and ``mirror`` are the two public hosts; tests replace them with local servers.
    ``memory_file`` keeps the host Automatic last reached (None: remember nothing).
    """

    choice: str = "auto"
    custom_url: str = ""
    memory_file: Path | None = None
    official: str = HUGGING_FACE
    mirror: str = HF_MIRROR
    probe_timeout: float = PROBE_TIMEOUT

    @classmethod
    def fixed(cls, endpoint: str) -> "DownloadSources":
        """Always ``endpoint``, never probed (a custom base URL)."""
        return cls(choice="custom", custom_url=endpoint)

    def candidates(self) -> list[str]:
        """The Hugging Face hosts to try, in order: one for a fixed choice, the remembered one first for Automatic."""
        if self.choice == "huggingface":
            return [self.official]
        if self.choice == "hf-mirror":
            return [self.mirror]
        if self.choice == "custom":
            # A company mirror whose address is not a URL cannot be used: Hugging Face is tried instead.
            return [normalized_custom_url(self.custom_url) or self.official]
        hosts = [self.official, self.mirror]
        remembered = self.remembered()
        if remembered in hosts:
            hosts.remove(remembered)
            hosts.insert(0, remembered)
        return hosts

    def hf_endpoint(self) -> str:
        """The Hugging Face host to download from now.

        Automatic probes the candidates in order and takes the first that answers, remembering it;
        when none answers, the first is returned and the download reports the failure.
        """
        hosts = self.candidates()
        if len(hosts) == 1:
            return hosts[0]
        for host in hosts:
            if reachable(host, self.probe_timeout):
                self.remember(host)
                return host
        return hosts[0]

    def remembered(self) -> str | None:
        if self.memory_file is None:
            return None
        try:
            data = json.loads(read_limited(self.memory_file, 4096, "too long"))
        except (OSError, ValueError, UserFacingError):  # missing, a pipe or device, damaged: start afresh
            return None
        host = data.get("hugging_face") if isinstance(data, dict) else None
        return host if isinstance(host, str) else None

    def remember(self, host: str) -> None:
        """Keep ``host`` for the next Automatic download; a folder that cannot be written is no reason to fail."""
        if self.memory_file is None or host == self.remembered():
            return
        try:
            self.memory_file.parent.mkdir(parents=True, exist_ok=True)
            atomic_write_text(self.memory_file, json.dumps({"hugging_face": host}) + "\n", overwrite=True)
        except (OSError, ExportError):
            pass


def normalized_custom_url(text: str) -> str | None:
    """A company mirror's base URL as typed, without a trailing slash; None when it is not an http(s) URL."""
    url = text.strip().rstrip("/")
    scheme, _, rest = url.partition("://")
    if scheme.lower() not in ("http", "https") or not rest or any(c.isspace() for c in url):
        return None
    return url


def reachable(url: str, timeout: float) -> bool:
    """Whether a server answers at ``url`` within ``timeout`` seconds, through the proxies and trust store
    downloads use. Any HTTP status counts; a refused connection, a timeout or an untrusted certificate
    does not."""
    from desktop.core.common.download import reachable as answers

    return answers(url, timeout)


def probe_all(sources: DownloadSources) -> list[tuple[str, str, bool, Message | None]]:
    """Every host VoxDesk may download from, with whether it answers now: (name, URL, reachable, why
    not), where "why not" is the sentence for http:// and https:// mixed up or redirects in a loop,
    None when it answers or simply cannot be reached.

    The openai host of the GPU model files is not probed: its files also come from Hugging Face.
    """
    from desktop.core.common.download import probe

    rows = [("huggingface", sources.official), ("hf-mirror", sources.mirror)]
    custom = normalized_custom_url(sources.custom_url)
    if custom:
        rows.append(("custom", custom))
    return [(name, url, *probe(url, sources.probe_timeout)) for name, url in rows]


def memory_file_in(data_folder: Path) -> Path:
    """Where Automatic keeps the host it last reached, inside VoxDesk's data folder."""
    return Path(data_folder) / "download-source.json"

