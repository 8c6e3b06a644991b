"""The broker's configuration: the password file, the ACL file and Mosquitto's own file.

Both brokers read the first two (Mosquitto natively, the embedded one through its plugins). The
files are written whole into a temporary file and renamed into place, so a broker reloading them
never reads half a file; they hold hashes, not passwords, and are still never world-readable
(Mosquitto 2.0 warns about a world-readable password file).
"""

from __future__ import annotations

import os
import pwd
import re
import stat
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from showdown.tournament.messages import ROOT, Topics

__all__ = ["BrokerFiles", "acl_text", "client_id_allowed", "mosquitto_conf"]

HOST_USER = "host"
JOIN_USER = "join"
JOIN_LATE_USER = "join-late"
"""The last join code's user, for a while after it expired: it may connect and do nothing, so
a table that typed that code is told it expired rather than that it is wrong."""


CLIENT_IDS = {
    HOST_USER: re.compile(r"host-[a-z0-9]{6}"),
    JOIN_USER: re.compile(r"join-[0-9a-f]{16}"),
    JOIN_LATE_USER: re.compile(r"join-[0-9a-f]{16}"),
}
"""Each role's client ids: ``host-<event>``, ``join-<16 hex digits>``; a table ``tN`` is
``<event>-tN``. No id fits two roles' patterns, so no credential can take another role's id."""
TABLE_USER = re.compile(r"t[0-9]{1,3}")


def client_id_allowed(user: str, client_id: str) -> bool:
    """Whether ``user`` may connect as ``client_id``: each role only under its own ids, so a
    join code cannot knock the host (or a table) off by taking its id (the broker closes the
    older of two connections with one id)."""
    pattern = CLIENT_IDS.get(user)
    if pattern is not None:
        return pattern.fullmatch(client_id) is not None
    if TABLE_USER.fullmatch(user):
        return re.fullmatch(rf"[a-z0-9]{{6}}-{user}", client_id) is not None
    return False


def acl_text(topics: Topics, tables: list[str]) -> str:
    """The ACL (Mosquitto's ``acl_file`` syntax): who may read and write which topics."""
    lines = ["# Written by showdown event host; every change is replaced on the next join.", "",
             f"user {HOST_USER}", f"topic readwrite {topics.base}/#",
             f"topic readwrite {ROOT}/join/#", ""]
    for table in tables:
        lines += [f"user {table}",
                  f"topic write {topics.entry(table)}",
                  f"topic readwrite {topics.status(table)}",
                  f"topic read {topics.ack(table)}"]
        lines += [f"topic read {t}" for t in (topics.info, topics.host, topics.standings,
                                               topics.seating, topics.tables)]
        lines.append("")
    lines += [f"user {JOIN_USER}", "",
              "# Any user: a joining client reads and writes only under its own client id.",
              f"pattern write {ROOT}/join/%c/request", f"pattern read {ROOT}/join/%c/reply", ""]
    return "\n".join(lines)


def mosquitto_conf(files: BrokerFiles, bind: str, port: int, plugin: Path) -> str:
    """A Mosquitto configuration for a broker the host starts itself, with the plugin that
    binds client ids to users (:mod:`showdown.tournament.client_id_plugin`)."""
    return "\n".join([
        "# Written by showdown event host.",
        "per_listener_settings false",
        f"plugin {plugin}",
        # The files belong to whoever runs the host: the broker runs as that user too (as root,
        # Mosquitto would otherwise become the mosquitto user and could not read them).
        f"user {pwd.getpwuid(os.geteuid()).pw_name}",
        f"listener {port} {bind}",
        "allow_anonymous false",
        f"password_file {files.passwords}",
        f"acl_file {files.acl}",
        "persistence true",
        f"persistence_location {files.folder}/",
        "autosave_interval 5",
        "log_dest stderr",
        "log_type error",
        "log_type warning",
        "log_type notice",
        "",
    ])


@dataclass(frozen=True)
class BrokerFiles:
    """Where the broker's password and ACL files live (the host's folder)."""

    folder: Path

    @property
    def passwords(self) -> Path:
        return self.folder / "passwords"

    @property
    def acl(self) -> Path:
        return self.folder / "acl"

    @property
    def conf(self) -> Path:
        return self.folder / "mosquitto.conf"

    def write(self, hashes: Mapping[str, str], acl: str) -> None:
        """Replace both files (user -> ``$7$`` hash; the ACL text)."""
        self.folder.mkdir(parents=True, exist_ok=True)
        text = "".join(f"{user}:{stored}\n" for user, stored in sorted(hashes.items()))
        _replace(self.passwords, text)
        _replace(self.acl, acl)

    def write_conf(self, bind: str, port: int, plugin: Path) -> Path:
        _replace(self.conf, mosquitto_conf(self, bind, port, plugin))
        return self.conf


def _replace(path: Path, text: str) -> None:
    """Write ``path`` whole, then rename it into place. In a folder that hands its group down
    (setgid: deploy/install.sh --event-host makes it showdown:mosquitto) the file is readable by
    that group, so the system's Mosquitto can read it; elsewhere by its owner only."""
    shared = bool(path.parent.stat().st_mode & stat.S_ISGID)
    temporary = path.with_name(f".{path.name}.new")
    temporary.unlink(missing_ok=True)
    descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC,
                         0o640 if shared else 0o600)
    with os.fdopen(descriptor, "w", encoding="utf-8") as file:
        file.write(text)
        file.flush()
        os.fsync(file.fileno())
    os.replace(temporary, path)
