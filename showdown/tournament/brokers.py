"""Starting, reloading and stopping a broker the host runs itself: Mosquitto or the embedded one.

Both read the password and ACL files of :class:`~showdown.tournament.broker_files.BrokerFiles`;
Mosquitto is told of a change by SIGHUP, the embedded broker notices it by itself. A broker
already running (the venue's Mosquitto under systemd) is :class:`ExternalBroker`: the host only
writes the files, and systemd's path unit (deploy/) reloads it.

The host owns the life of a broker it starts, so that a broker never outlives its host and
keeps the port with stale passwords (docs/event.md, "The broker's life"): the kernel sends the
broker SIGTERM when the host dies, whatever ends it (``PR_SET_PDEATHSIG``, even after SIGKILL);
its pid is kept in the event's folder, so a broker an earlier host of the same folder left
running is recognised and replaced, and anything else on the port is refused in one line; and
:meth:`BrokerProcess.supervise` starts a broker that died again, with a growing pause.
"""

from __future__ import annotations

import contextlib
import ctypes
import logging
import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Protocol

from showdown.tournament.broker_files import BrokerFiles
from showdown.tournament.client_id_plugin import PluginError, build

__all__ = ["MOSQUITTO", "Broker", "BrokerError", "BrokerProcess", "ExternalBroker",
           "free_port", "mosquitto_binary"]

MOSQUITTO = Path("/usr/sbin/mosquitto")
"""Where Debian's package puts the broker."""

START_TIMEOUT_S = 20.0
RESTART_FIRST_S = 0.5
"""The pause before a broker that died is started again; it doubles with each death that
follows soon after, up to :data:`RESTART_MAX_S`."""
RESTART_MAX_S = 30.0
RESTART_CALM_S = 60.0
"""A broker that ran this long before dying is started again after the first pause."""
PID_FILE = "broker.pid"
PR_SET_PDEATHSIG = 1

log = logging.getLogger("showdown.tournament.broker")


def _prctl() -> Callable[[int, int], int] | None:
    """libc's prctl, looked up before any fork (a child between fork and exec must not load
    libraries); None off Linux."""
    try:
        function = ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None
    function.argtypes = (ctypes.c_int, ctypes.c_ulong)
    function.restype = ctypes.c_int
    return function


_PRCTL = _prctl()


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


def _dies_with(parent: int) -> Callable[[], None]:
    """The child's last step before exec: ask the kernel for SIGTERM when the thread that
    started it ends (the host's process gone, however), and give up at once if the host is
    already gone (it died between the fork and here)."""

    def preexec() -> None:
        if _PRCTL is not None:
            _PRCTL(PR_SET_PDEATHSIG, signal.SIGTERM)
        if os.getppid() != parent:
            os._exit(1)

    return preexec


def _command_line(pid: int) -> list[str]:
    """A running process's arguments ([] when it is gone or not ours to read)."""
    try:
        raw = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return []
    return [part.decode(errors="replace") for part in raw.split(b"\0") if part]


def _is_broker_of(arguments: list[str], files: BrokerFiles) -> bool:
    """Whether a process's arguments are a broker of this folder's: Mosquitto with its
    configuration, or the embedded broker with its password file."""
    if not arguments:
        return False
    mosquitto = Path(arguments[0]).name == "mosquitto" and str(files.conf) in arguments
    embedded = ("showdown.tournament.embedded_broker" in arguments
                and str(files.passwords) in arguments)
    return mosquitto or embedded


def stale_broker(files: BrokerFiles) -> int | None:
    """The pid of a broker that an earlier host of this folder left running, if one is: the
    pid file's process when it is one of this folder's brokers (a pid reused by another
    program does not count), else any process of this folder's brokers (one left by a host
    from before the pid file)."""
    pid_file = files.folder / PID_FILE
    with contextlib.suppress(OSError, ValueError):
        pid = int(pid_file.read_text().split()[0])
        if _is_broker_of(_command_line(pid), files):
            return pid
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and int(entry.name) != os.getpid() and \
                _is_broker_of(_command_line(int(entry.name)), files):
            return int(entry.name)
    return None


def _listening(host: str, port: int) -> bool:
    """Whether something accepts connections on ``port``."""
    target = "127.0.0.1" if host in ("0.0.0.0", "") else host
    try:
        with socket.create_connection((target, port), timeout=1.0):
            return True
    except OSError:
        return False


def _end(pid: int, timeout_s: float = 10.0) -> None:
    """SIGTERM (Mosquitto saves its persistence file), SIGKILL if it lingers."""
    for signum in (signal.SIGTERM, signal.SIGKILL):
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signum)
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            if not _command_line(pid) or _zombie(pid):
                return
            time.sleep(0.05)  # polling a process that is not our child: no event to wait on


def _zombie(pid: int) -> bool:
    with contextlib.suppress(OSError):
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "Z"
    return False


class BrokerProcess:
    """A broker in a child process, started on ``port``; restartable (the demo's faults)."""

    def __init__(self, kind: str, files: BrokerFiles, *, bind: str = "127.0.0.1",
                 port: int | None = None, log: Path | None = None) -> None:
        if kind not in ("mosquitto", "embedded"):
            raise BrokerError(f"no broker called {kind!r}: mosquitto or embedded")
        self.name = kind
        self.files = files
        self.bind = bind
        """Where it listens (every interface for 0.0.0.0), at every start and restart."""
        self.host = bind
        """Where the host connects to it (the loopback for a broker on every interface)."""
        self.port = port if port is not None else free_port(bind)
        self.log = log
        self.process: subprocess.Popen[bytes] | None = None
        self.restarts = 0
        """How many times :meth:`supervise` started the broker again after it died."""
        self._stopping = threading.Event()
        self._lock = threading.RLock()
        self._watcher: threading.Thread | None = None

    def command(self) -> list[str]:
        """The broker's command line, written afresh at every start (Mosquitto's configuration
        and plugin included), so a restarted broker is the one first started."""
        if self.name == "mosquitto":
            binary = mosquitto_binary()
            if binary is None:
                raise BrokerError("Mosquitto is not installed (apt-get install mosquitto), "
                                  "or choose --broker embedded")
            try:
                plugin = build(self.files.folder)
            except PluginError as error:
                raise BrokerError(str(error)) from None
            return [str(binary), "-c", str(self.files.write_conf(self.bind, self.port, plugin))]
        return [sys.executable, "-m", "showdown.tournament.embedded_broker", "--bind", self.bind,
                "--port", str(self.port), "--passwords", str(self.files.passwords),
                "--acl", str(self.files.acl)]

    def _clear_the_port(self) -> None:
        """Replace a broker an earlier host of this folder left running; refuse (BrokerError,
        one line) when something else holds the port."""
        stale = stale_broker(self.files)
        if stale is not None:
            log.warning("port %d: stopping the broker (pid %d) an earlier host of this event "
                        "left running, to start it afresh", self.port, stale)
            try:
                _end(stale)
            except PermissionError:
                raise BrokerError(
                    f"port {self.port}: a broker of this event (pid {stale}) runs as another "
                    f"user, who must stop it (kill {stale}) before this host starts") from None
        if _listening(self.host, self.port):
            raise BrokerError(
                f"port {self.port} is taken by another program, not this event's broker: stop "
                f"it (ss -ltnp 'sport = {self.port}' names it) or choose another --port")

    def start(self) -> None:
        """Start it and return once it accepts connections (BrokerError if it does not)."""
        with self._lock:
            self._stopping.clear()
            self._start()

    def _start(self) -> None:
        self._clear_the_port()
        command = self.command()
        output = (self.log.open("ab") if self.log is not None else subprocess.DEVNULL)
        try:
            # preexec_fn with threads about: safe here, as it only calls prctl (looked up
            # before) and getppid, taking no lock another thread could hold across the fork.
            self.process = subprocess.Popen(
                command, stdout=output, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                start_new_session=True, preexec_fn=_dies_with(os.getpid()))  # noqa: PLW1509
        finally:
            if self.log is not None and not isinstance(output, int):
                output.close()
        pid_file = self.files.folder / PID_FILE
        pid_file.parent.mkdir(parents=True, exist_ok=True)
        pid_file.write_text(f"{self.process.pid} {self.name} {self.port}\n")
        deadline = time.monotonic() + START_TIMEOUT_S
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise BrokerError(f"the {self.name} broker stopped at start (exit "
                                  f"{self.process.returncode}); see {self.log or 'its output'}")
            with contextlib.suppress(OSError), socket.create_connection(
                    (self.host, self.port), timeout=0.5):
                return
            time.sleep(0.05)  # polling a port that is not open yet: no event to wait for
        self._stop()
        raise BrokerError(f"the {self.name} broker did not listen on {self.host}:{self.port} "
                          f"within {START_TIMEOUT_S:.0f} s")

    def reload(self) -> None:
        if self.process is not None and self.process.poll() is None and self.name == "mosquitto":
            self.process.send_signal(signal.SIGHUP)

    def supervise(self) -> None:
        """Start the broker again whenever it dies, until :meth:`stop`: the tables and the
        host reconnect by themselves (paho), so the event resumes without anyone's help."""
        with self._lock:
            if self._watcher is None:
                self._watcher = threading.Thread(target=self._watch, name="broker-watch",
                                                 daemon=True)
                self._watcher.start()

    def _watch(self) -> None:
        """The watcher's loop. It lives as long as the host: a broker it started gets SIGTERM
        from the kernel when the thread that started it ends."""
        pause = RESTART_FIRST_S
        while not self._stopping.is_set():
            process, started = self.process, time.monotonic()
            code = process.wait() if process is not None else None
            with self._lock:
                if self._stopping.is_set():
                    return
                if self.process is not process and self.process is not None:
                    continue  # restarted meanwhile (restart()): watch the new one
            if time.monotonic() - started >= RESTART_CALM_S:
                pause = RESTART_FIRST_S
            log.warning("the %s broker on port %d stopped (exit %s): starting it again in "
                        "%.1f s", self.name, self.port, code, pause)
            if self._stopping.wait(pause):
                return
            pause = min(pause * 2, RESTART_MAX_S)
            try:
                with self._lock:
                    if self._stopping.is_set():
                        return
                    self._start()
            except (BrokerError, OSError) as error:
                log.warning("the %s broker did not start again: %s", self.name, error)
                continue
            self.restarts += 1
            log.warning("the %s broker on port %d runs again", self.name, self.port)

    def stop(self) -> None:
        """Stop it for good (the watcher too): SIGTERM (Mosquitto saves its persistence
        file), SIGKILL after 10 s."""
        self._stopping.set()
        with self._lock:
            self._stop()
            watcher, self._watcher = self._watcher, None
        if watcher is not None and watcher is not threading.current_thread():
            watcher.join(timeout=5)

    def _stop(self) -> None:
        process, self.process = self.process, None
        (self.files.folder / PID_FILE).unlink(missing_ok=True)
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
        """Stop and start it again (the demo's fault), the watcher staying on guard."""
        with self._lock:
            self._stop()
            self._start()
