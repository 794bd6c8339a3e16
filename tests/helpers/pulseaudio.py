"""A private PulseAudio server for tests, so PortAudio (sounddevice) and Qt meet a real sound device.

The server runs in the foreground of a child process with its own runtime folder and socket, never
touching a desktop session's server. It has:

- a null sink (``speakers``): a real output device whose sound goes nowhere, and whose monitor
  source can be recorded to check what was played;
- a virtual source (``microphone``) fed by that monitor, so a test can play a recording into the
  sink and a recorder hears it as if spoken into a microphone.

Use it through the pytest fixtures (import them into a test module)::

    from tests.helpers.pulseaudio import pulseaudio, pulseaudio_server  # noqa: F401

    def test_plays(pulseaudio):
        ...  # os.environ points PulseAudio clients at the private server
        assert pulseaudio.playing_streams()

or directly::

    with PulseAudioServer(folder) as server, server.activated():
        ...

Without the pulseaudio and pactl programs the fixtures fail with the command that installs them
(tests/helpers/tools.require_tool); `make test` installs them.
"""
from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Iterator

import pytest
from tests.helpers.tools import require_tool


def pulseaudio_available() -> bool:
    return shutil.which("pulseaudio") is not None and shutil.which("pactl") is not None


class PulseAudioServer:
    """One private PulseAudio daemon; a context manager that starts and stops it."""

    def __init__(
        self,
        folder: Path,
        *,
        sink: str = "voxdesk_speakers",
        source: str = "voxdesk_microphone",
        rate: int = 48000,
    ) -> None:
        self.folder = Path(folder)
        self.sink = sink
        self.source = source
        self.rate = rate
        self.runtime = self.folder / "runtime"
        self.socket = self.runtime / "native"
        self.log_file = self.folder / "pulseaudio.log"
        self._process: subprocess.Popen | None = None

    # -- lifecycle ----------------------------------------------------------------------------

    @property
    def env(self) -> dict[str, str]:
        """The variables that point a PulseAudio client (libpulse, ALSA's pulse plugin) here."""
        return {
            "PULSE_SERVER": f"unix:{self.socket}",
            "PULSE_SINK": self.sink,
            "PULSE_SOURCE": self.source,
            "PULSE_CLIENTCONFIG": str(self.folder / "client.conf"),
            "XDG_RUNTIME_DIR": str(self.runtime),
        }

    def start(self, timeout: float = 15.0) -> "PulseAudioServer":
        if not pulseaudio_available():
            raise RuntimeError("the pulseaudio and pactl programs are not installed")
        self.runtime.mkdir(parents=True, exist_ok=True)
        self.runtime.chmod(0o700)
        home = self.folder / "home"
        home.mkdir(exist_ok=True)
        # Never let a client start a server of its own when this one is gone.
        (self.folder / "client.conf").write_text("autospawn = no\n", encoding="utf-8")
        command = [
            "pulseaudio",
            "--daemonize=no",
            "--exit-idle-time=-1",
            "-n",  # no default.pa: only the modules below
            "--use-pid-file=no",
            "--disallow-exit",
            "--log-target=stderr",
            "--log-level=error",
            f"--load=module-native-protocol-unix auth-anonymous=1 socket={self.socket}",
            f"--load=module-null-sink sink_name={self.sink} rate={self.rate} "
            "sink_properties=device.description=VoxDesk-test-speakers",
            f"--load=module-virtual-source source_name={self.source} master={self.sink}.monitor",
        ]
        env = {**os.environ, **self.env, "HOME": str(home)}
        env.pop("DBUS_SESSION_BUS_ADDRESS", None)
        self._log = open(self.log_file, "wb")
        self._process = subprocess.Popen(command, env=env, stdout=self._log, stderr=subprocess.STDOUT,
                                         stdin=subprocess.DEVNULL)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self._process.poll() is not None:
                break
            if self.socket.exists() and self._answers():
                return self
            time.sleep(0.05)
        log = self.log_file.read_text(errors="replace")
        self.stop()
        raise RuntimeError(f"the private PulseAudio server did not start:\n{log}")

    def stop(self) -> None:
        process, self._process = self._process, None
        if process is not None and process.poll() is None:
            process.terminate()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=10)
        log = getattr(self, "_log", None)
        if log is not None:
            log.close()
            self._log = None

    def __enter__(self) -> "PulseAudioServer":
        return self.start()

    def __exit__(self, *_exc: object) -> None:
        self.stop()

    @contextlib.contextmanager
    def activated(self) -> Iterator["PulseAudioServer"]:
        """Point this process's sound clients at the server while the block runs."""
        saved = {key: os.environ.get(key) for key in self.env}
        os.environ.update(self.env)
        refresh_portaudio()
        try:
            yield self
        finally:
            for key, value in saved.items():
                if value is None:
                    os.environ.pop(key, None)
                else:
                    os.environ[key] = value
            refresh_portaudio()

    # -- looking at it ------------------------------------------------------------------------

    def pactl(self, *args: str) -> str:
        env = {**os.environ, **self.env}
        result = subprocess.run(["pactl", *args], env=env, capture_output=True, text=True, timeout=10)
        if result.returncode != 0:
            raise RuntimeError(f"pactl {' '.join(args)} failed: {result.stderr.strip()}")
        return result.stdout

    def _answers(self) -> bool:
        try:
            self.pactl("info")
        except (RuntimeError, subprocess.TimeoutExpired):
            return False
        return True

    def playing_streams(self) -> list[str]:
        """One line per stream currently playing into the server (`pactl list short sink-inputs`)."""
        return [line for line in self.pactl("list", "short", "sink-inputs").splitlines() if line.strip()]

    def recording_streams(self) -> list[str]:
        """One line per stream currently recording from the server (`pactl list short source-outputs`)."""
        return [line for line in self.pactl("list", "short", "source-outputs").splitlines() if line.strip()]

    def play_into_microphone(self, path: str | os.PathLike[str]) -> subprocess.Popen:
        """Play a sound file into the sink, so the virtual microphone hears it; returns the paplay process."""
        env = {**os.environ, **self.env}
        return subprocess.Popen(["paplay", f"--device={self.sink}", str(path)], env=env,
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def refresh_portaudio() -> None:
    """Make sounddevice (PortAudio) list devices again, if it is loaded; PortAudio scans only once.

    sounddevice documents _terminate()/_initialize() as the way to re-scan devices.
    """
    sounddevice = sys.modules.get("sounddevice")
    if sounddevice is not None:
        sounddevice._terminate()
        sounddevice._initialize()


# --- pytest fixtures ---------------------------------------------------------------------------


@pytest.fixture(scope="session")
def pulseaudio_server(tmp_path_factory) -> Iterator[PulseAudioServer]:
    """One private PulseAudio server for the whole test session (not yet pointed at)."""
    if not pulseaudio_available():
        require_tool("pulseaudio")
        require_tool("pactl", "pulseaudio-utils")
    with PulseAudioServer(tmp_path_factory.mktemp("pulseaudio")) as server:
        yield server


@pytest.fixture
def pulseaudio(pulseaudio_server: PulseAudioServer) -> Iterator[PulseAudioServer]:
    """The private server, with this process's sound clients pointed at it for one test."""
    with pulseaudio_server.activated():
        yield pulseaudio_server
