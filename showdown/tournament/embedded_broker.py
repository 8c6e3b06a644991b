"""The embedded broker: amqtt, reading Mosquitto's password and ACL files.

For a machine with nothing installed (a fresh clone, ``make test``, ``showdown event demo``):

    python -m showdown.tournament.embedded_broker --port 1883 --passwords FILE --acl FILE

amqtt brings the MQTT 3.1.1 protocol, QoS 1, retained messages, last wills and persistent
sessions; the two plugins here make it read the files the host writes for Mosquitto (``$7$``
password hashes, the ACL file with ``%c``), and read them again whenever they change, so both
brokers run from one configuration (docs/event.md, "The brokers"); the password plugin also
refuses a client id that is not its user's role's (``host-<event>`` for the host, and so on), as
Mosquitto's plugin does. It stops on SIGTERM or SIGINT.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import signal
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from amqtt.broker import Broker
from amqtt.contexts import Action
from amqtt.plugins.base import BaseAuthPlugin, BaseTopicPlugin

from showdown.tournament.acl import Acl, parse_acl
from showdown.tournament.broker_files import client_id_allowed
from showdown.tournament.credentials import check_password

__all__ = ["MosquittoAcl", "MosquittoPasswords", "main"]

log = logging.getLogger("showdown.tournament.broker")


class _Watched:
    """A file read again whenever it changes (its inode, size or time)."""

    def __init__(self, path: str) -> None:
        self.path = Path(path)
        self._stamp: tuple[int, int, int] | None = None
        self.text = ""

    def current(self) -> str:
        try:
            info = os.stat(self.path)
        except OSError:
            return self.text
        stamp = (info.st_ino, info.st_size, info.st_mtime_ns)
        if stamp != self._stamp:
            try:
                self.text = self.path.read_text(encoding="utf-8")
                self._stamp = stamp
            except OSError as error:
                log.warning("cannot read %s: %s", self.path, error.strerror)
        return self.text


class MosquittoPasswords(BaseAuthPlugin):  # type: ignore[misc]
    """Authentication against a Mosquitto password file (``user:$7$...`` lines)."""

    @dataclass
    class Config:
        password_file: str = ""

    def __init__(self, context: Any) -> None:
        super().__init__(context)
        self._file = _Watched(self.config.password_file)
        self._cache: tuple[str, dict[str, str]] = ("", {})

    def _users(self) -> dict[str, str]:
        text = self._file.current()
        if text != self._cache[0]:
            users = {}
            for line in text.splitlines():
                name, _, stored = line.strip().partition(":")
                if name and stored and not name.startswith("#"):
                    users[name] = stored
            self._cache = (text, users)
        return self._cache[1]

    async def authenticate(self, *, session: Any) -> bool:
        username, password = session.username, session.password
        if not username or password is None:
            log.info("client %s refused: no user name or password", session.client_id)
            return False
        stored = self._users().get(username)
        if stored is None or not check_password(str(password), stored):
            log.info("client %s refused: user %r not authorised", session.client_id, username)
            return False
        if not client_id_allowed(str(username), str(session.client_id)):
            log.info("client %s refused: not a client id of user %r", session.client_id,
                     username)
            return False
        return True


class MosquittoAcl(BaseTopicPlugin):  # type: ignore[misc]
    """Topic checks against a Mosquitto ACL file."""

    @dataclass
    class Config:
        acl_file: str = ""

    def __init__(self, context: Any) -> None:
        super().__init__(context)
        self._file = _Watched(self.config.acl_file)
        self._cache: tuple[str, Acl] = ("", Acl())

    def _acl(self) -> Acl:
        text = self._file.current()
        if text != self._cache[0]:
            self._cache = (text, parse_acl(text))
        return self._cache[1]

    async def topic_filtering(
        self, *, session: Any = None, topic: str | None = None, action: Any = None
    ) -> bool:
        if session is None or topic is None or not session.username:
            return False
        user, client, acl = str(session.username), str(session.client_id), self._acl()
        if action == Action.PUBLISH:
            allowed = acl.may_publish(user, client, topic)
        elif action == Action.SUBSCRIBE:
            allowed = acl.may_subscribe(user, client, topic)
        else:
            allowed = acl.may_receive(user, client, topic)
        if not allowed:
            log.info("client %s (user %s) may not %s %s", client, user, action, topic)
        return allowed


def config(bind: str, port: int, passwords: Path, acl: Path) -> dict[str, Any]:
    """amqtt's configuration: one TCP listener, our two plugins and nothing else."""
    return {
        "listeners": {"default": {"type": "tcp", "bind": f"{bind}:{port}"}},
        "plugins": {
            f"{__name__}.MosquittoPasswords": {"password_file": str(passwords)},
            f"{__name__}.MosquittoAcl": {"acl_file": str(acl)},
        },
    }


async def serve(bind: str, port: int, passwords: Path, acl: Path) -> None:
    """Run until SIGTERM or SIGINT."""
    broker = Broker(config(bind, port, passwords, acl))
    await broker.start()
    print(f"embedded broker listening on {bind}:{port}", flush=True)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, stop.set)
    loop.add_signal_handler(signal.SIGHUP, lambda: None)  # files are re-read when they change
    await stop.wait()
    with contextlib.suppress(Exception):
        await asyncio.wait_for(broker.shutdown(), timeout=5)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--bind", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=1883)
    parser.add_argument("--passwords", type=Path, required=True)
    parser.add_argument("--acl", type=Path, required=True)
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING, format="%(asctime)s broker %(message)s")
    logging.getLogger("showdown.tournament.broker").setLevel(logging.INFO)
    try:
        asyncio.run(serve(args.bind, args.port, args.passwords, args.acl))
    except OSError as error:
        print(f"embedded broker: cannot listen on {args.bind}:{args.port}: {error.strerror}",
              flush=True)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
