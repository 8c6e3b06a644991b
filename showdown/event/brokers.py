"""Starting, reloading and stopping a broker the host runs itself: Mosquitto or the embedded one.

Both read the password and ACL files of :class:`~showdown.event.broker_files.BrokerFiles`;
Mosquitto is told of a change by SIGHUP, the embedded broker notices it by itself. A broker
already running (the venue's Mosquitto under systemd) is :class:`ExternalBroker`: the host only
writes the files, and systemd's path unit (deploy/) reloads it.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Protocol

from showdown.event.broker_files import BrokerFiles
from showdown.event.client_id_plugin import PluginError, build

__all__ = ["MOSQUITTO", "Broker", "BrokerError", "BrokerProcess", "ExternalBroker",
           "free_port", "mosquitto_binary"]

MOSQUITTO = Path("/usr/sbin/mosquitto")
"""Where Debian's package puts the broker."""

START_TIMEOUT_S = 20.0


class BrokerError(RuntimeError):
    """A broker that cannot start; the message says why in one line."""


def mosquitto_binary() -> Path | None:
    """Debian's Mosquitto, or one on the PATH; None when there is none."""
    if MOSQUITTO.exists():
        return MOSQUITTO
    found = shutil.which("mosquitto")
    return Path(found) if found else None


def free_port(bind: str = "127.0.0.1") -> int:
    """A TCP port nobody listens on now (the kernel picks it)."""
    with socket.socket() as probe:
        probe.bind((bind, 0))
        return int(probe.getsockname()[1])


class Broker(Protocol):
    """What the host needs of a broker."""

    name: str
    host: str
    port: int

    def reload(self) -> None:
        """The password or ACL file changed: use the new ones."""

    def stop(self) -> None:
        """Stop the broker (nothing for one the host did not start)."""


class ExternalBroker:
    """A broker someone else runs (systemd): nothing to start, stop or signal."""

    def __init__(self, host: str, port: int, name: str = "mosquitto") -> None:
        self.name, self.host, self.port = name, host, port

    def reload(self) -> None:
        """systemd's path unit reloads it when the files change."""

    def stop(self) -> None:
        """Not ours to stop."""


class BrokerProcess:
    """A broker in a child process, started on ``port``; restartable (the demo's faults)."""

    def __init__(self, kind: str, files: BrokerFiles, *, bind: str = "127.0.0.1",
                 port: int | None = None, log: Path | None = None) -> None:
        if kind not in ("mosquitto", "embedded"):
            raise BrokerError(f"no broker called {kind!r}: mosquitto or embedded")
        self.name = kind
        self.files = files
        self.host = bind
        self.port = port if port is not None else free_port(bind)
        self.log = log
        self.process: subprocess.Popen[bytes] | None = None

    def command(self) -> list[str]:
        if self.name == "mosquitto":
            binary = mosquitto_binary()
            if binary is None:
                raise BrokerError("Mosquitto is not installed (apt-get install mosquitto), "
                                  "or choose --broker embedded")
            try:
                plugin = build(self.files.folder)
            except PluginError as error:
                raise BrokerError(str(error)) from None
            return [str(binary), "-c", str(self.files.write_conf(self.host, self.port, plugin))]
        return [sys.executable, "-m", "showdown.event.embedded_broker", "--bind", self.host,
                "--port", str(self.port), "--passwords", str(self.files.passwords),
                "--acl", str(self.files.acl)]

    def start(self) -> None:
        """Start it and return once it accepts connections (BrokerError if it does not)."""
        output = (self.log.open("ab") if self.log is not None else subprocess.DEVNULL)
        try:
            self.process = subprocess.Popen(
                self.command(), stdout=output, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                start_new_session=True)
        finally:
            if self.log is not None and not isinstance(output, int):
                output.close()
        deadline = time.monotonic() + START_TIMEOUT_S
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise BrokerError(f"the {self.name} broker stopped at start (exit "
                                  f"{self.process.returncode}); see {self.log or 'its output'}")
            with contextlib.suppress(OSError), socket.create_connection(
                    (self.host, self.port), timeout=0.5):
                return
            time.sleep(0.05)  # polling a port that is not open yet: no event to wait for
        self.stop()
        raise BrokerError(f"the {self.name} broker did not listen on {self.host}:{self.port} "
                          f"within {START_TIMEOUT_S:.0f} s")

    def reload(self) -> None:
        if self.process is not None and self.process.poll() is None and self.name == "mosquitto":
            self.process.send_signal(signal.SIGHUP)

    def stop(self) -> None:
        """SIGTERM (Mosquitto saves its persistence file), SIGKILL after 10 s."""
        process, self.process = self.process, None
        if process is None or process.poll() is not None:
            return
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=5)

    def restart(self) -> None:
        self.stop()
        self.start()
